/*
 * sha3.c - SHA3-256 and SHA3-512 (FIPS 202): Keccak-f[1600] (§3.3,
 * §3.4) and the sponge (§4) with the SHA-3 padding (§6.1, §B.2:
 * suffix 01, then pad10*1, i.e. octets 0x06 ... 0x80). see hash_int.h
 *
 * Lane (x, y) is a[x + 5 * y]; a lane holds 8 message octets
 * little-endian (§B.1), so octet i of a block goes to lane i / 8.
 */
#include <string.h>
#include "hash_int.h"

/* §3.2.5: round constants RC[ir] for ir = 0..23 */
static const uint64_t RC[24] = {
	0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
	0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
	0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
	0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
	0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
	0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

#define ROTL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))

/*
 * see hash_int.h.  The step mappings are unrolled with the §3.2.2 rho
 * offsets and the §3.2.3 pi permutation (lane x + 5y moves to lane
 * y + 5 * ((2x + 3y) mod 5)) written into the lane indices.
 */
void
pgp__keccak_f1600(uint64_t a[25])
{
	uint64_t c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
	uint64_t b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12;
	uint64_t b13, b14, b15, b16, b17, b18, b19, b20, b21, b22, b23, b24;
	size_t ir;

	for (ir = 0; ir < 24; ir++) {
		/* theta (§3.2.1) */
		c0 = a[0] ^ a[5] ^ a[10] ^ a[15] ^ a[20];
		c1 = a[1] ^ a[6] ^ a[11] ^ a[16] ^ a[21];
		c2 = a[2] ^ a[7] ^ a[12] ^ a[17] ^ a[22];
		c3 = a[3] ^ a[8] ^ a[13] ^ a[18] ^ a[23];
		c4 = a[4] ^ a[9] ^ a[14] ^ a[19] ^ a[24];
		d0 = c4 ^ ROTL(c1, 1);
		d1 = c0 ^ ROTL(c2, 1);
		d2 = c1 ^ ROTL(c3, 1);
		d3 = c2 ^ ROTL(c4, 1);
		d4 = c3 ^ ROTL(c0, 1);
		/* rho (§3.2.2) and pi (§3.2.3): lane i goes to PI[i] */
		b0 = a[0] ^ d0;
		b10 = ROTL(a[1] ^ d1, 1);
		b20 = ROTL(a[2] ^ d2, 62);
		b5 = ROTL(a[3] ^ d3, 28);
		b15 = ROTL(a[4] ^ d4, 27);
		b16 = ROTL(a[5] ^ d0, 36);
		b1 = ROTL(a[6] ^ d1, 44);
		b11 = ROTL(a[7] ^ d2, 6);
		b21 = ROTL(a[8] ^ d3, 55);
		b6 = ROTL(a[9] ^ d4, 20);
		b7 = ROTL(a[10] ^ d0, 3);
		b17 = ROTL(a[11] ^ d1, 10);
		b2 = ROTL(a[12] ^ d2, 43);
		b12 = ROTL(a[13] ^ d3, 25);
		b22 = ROTL(a[14] ^ d4, 39);
		b23 = ROTL(a[15] ^ d0, 41);
		b8 = ROTL(a[16] ^ d1, 45);
		b18 = ROTL(a[17] ^ d2, 15);
		b3 = ROTL(a[18] ^ d3, 21);
		b13 = ROTL(a[19] ^ d4, 8);
		b14 = ROTL(a[20] ^ d0, 18);
		b24 = ROTL(a[21] ^ d1, 2);
		b9 = ROTL(a[22] ^ d2, 61);
		b19 = ROTL(a[23] ^ d3, 56);
		b4 = ROTL(a[24] ^ d4, 14);
		/* chi (§3.2.4) */
		a[0] = b0 ^ (~b1 & b2);
		a[1] = b1 ^ (~b2 & b3);
		a[2] = b2 ^ (~b3 & b4);
		a[3] = b3 ^ (~b4 & b0);
		a[4] = b4 ^ (~b0 & b1);
		a[5] = b5 ^ (~b6 & b7);
		a[6] = b6 ^ (~b7 & b8);
		a[7] = b7 ^ (~b8 & b9);
		a[8] = b8 ^ (~b9 & b5);
		a[9] = b9 ^ (~b5 & b6);
		a[10] = b10 ^ (~b11 & b12);
		a[11] = b11 ^ (~b12 & b13);
		a[12] = b12 ^ (~b13 & b14);
		a[13] = b13 ^ (~b14 & b10);
		a[14] = b14 ^ (~b10 & b11);
		a[15] = b15 ^ (~b16 & b17);
		a[16] = b16 ^ (~b17 & b18);
		a[17] = b17 ^ (~b18 & b19);
		a[18] = b18 ^ (~b19 & b15);
		a[19] = b19 ^ (~b15 & b16);
		a[20] = b20 ^ (~b21 & b22);
		a[21] = b21 ^ (~b22 & b23);
		a[22] = b22 ^ (~b23 & b24);
		a[23] = b23 ^ (~b24 & b20);
		a[24] = b24 ^ (~b20 & b21);
		/* iota (§3.2.5) */
		a[0] ^= RC[ir];
	}
}

static uint64_t
load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	    (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
	    (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void
xor_octet(pgp__sha3 *s, size_t i, uint8_t v)
{
	s->a[i / 8] ^= (uint64_t)v << (8 * (i % 8));
}

/* see hash_int.h */
void
pgp__sha3_update(pgp__sha3 *s, size_t rate, const uint8_t *p, size_t n)
{
	size_t i;

	while (n > 0 && s->pos != 0) {
		xor_octet(s, s->pos, *p++);
		n--;
		if (++s->pos == rate) {
			pgp__keccak_f1600(s->a);
			s->pos = 0;
		}
	}
	if (n == 0)
		return; /* still inside a partial block (or exactly at its end) */
	while (n >= rate) {
		for (i = 0; i < rate / 8; i++)
			s->a[i] ^= load_le64(p + 8 * i);
		pgp__keccak_f1600(s->a);
		p += rate;
		n -= rate;
	}
	for (i = 0; i < n; i++)
		xor_octet(s, i, p[i]);
	s->pos = n;
}

/* see hash_int.h */
void
pgp__sha3_final(pgp__sha3 *s, size_t rate, uint8_t *out, size_t outlen)
{
	size_t i;

	xor_octet(s, s->pos, 0x06);
	xor_octet(s, rate - 1, 0x80);
	pgp__keccak_f1600(s->a);
	for (i = 0; i < outlen; i++) /* outlen <= rate: one squeeze */
		out[i] = (uint8_t)(s->a[i / 8] >> (8 * (i % 8)));
	s->pos = 0;
}
