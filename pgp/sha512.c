/*
 * sha512.c - SHA-512 compression (FIPS 180-4 §6.4.2), used by SHA-512
 * and SHA-384. see hash_int.h
 *
 * Two implementations of the same function:
 *  - pgp__sha512_blocks_c: portable C, 16 rounds unrolled with the
 *    message schedule in a 16-word ring;
 *  - pgp__sha512_blocks_avx2 (x86 only): the schedule of four blocks at
 *    once in AVX2 registers (lane j holds W[t] of block j, so there is
 *    no shuffling between words), then the scalar rounds of each block
 *    from the precomputed W[t] + K[t], compiled with BMI2 for RORX/ANDN.
 */
#include "hash_int.h"

/* FIPS 180-4 §4.2.3 */
const uint64_t pgp__sha512_k[80] = {
	0x428a2f98d728ae22ULL, 0x7137449123ef65cdULL, 0xb5c0fbcfec4d3b2fULL, 0xe9b5dba58189dbbcULL,
	0x3956c25bf348b538ULL, 0x59f111f1b605d019ULL, 0x923f82a4af194f9bULL, 0xab1c5ed5da6d8118ULL,
	0xd807aa98a3030242ULL, 0x12835b0145706fbeULL, 0x243185be4ee4b28cULL, 0x550c7dc3d5ffb4e2ULL,
	0x72be5d74f27b896fULL, 0x80deb1fe3b1696b1ULL, 0x9bdc06a725c71235ULL, 0xc19bf174cf692694ULL,
	0xe49b69c19ef14ad2ULL, 0xefbe4786384f25e3ULL, 0x0fc19dc68b8cd5b5ULL, 0x240ca1cc77ac9c65ULL,
	0x2de92c6f592b0275ULL, 0x4a7484aa6ea6e483ULL, 0x5cb0a9dcbd41fbd4ULL, 0x76f988da831153b5ULL,
	0x983e5152ee66dfabULL, 0xa831c66d2db43210ULL, 0xb00327c898fb213fULL, 0xbf597fc7beef0ee4ULL,
	0xc6e00bf33da88fc2ULL, 0xd5a79147930aa725ULL, 0x06ca6351e003826fULL, 0x142929670a0e6e70ULL,
	0x27b70a8546d22ffcULL, 0x2e1b21385c26c926ULL, 0x4d2c6dfc5ac42aedULL, 0x53380d139d95b3dfULL,
	0x650a73548baf63deULL, 0x766a0abb3c77b2a8ULL, 0x81c2c92e47edaee6ULL, 0x92722c851482353bULL,
	0xa2bfe8a14cf10364ULL, 0xa81a664bbc423001ULL, 0xc24b8b70d0f89791ULL, 0xc76c51a30654be30ULL,
	0xd192e819d6ef5218ULL, 0xd69906245565a910ULL, 0xf40e35855771202aULL, 0x106aa07032bbd1b8ULL,
	0x19a4c116b8d2d0c8ULL, 0x1e376c085141ab53ULL, 0x2748774cdf8eeb99ULL, 0x34b0bcb5e19b48a8ULL,
	0x391c0cb3c5c95a63ULL, 0x4ed8aa4ae3418acbULL, 0x5b9cca4f7763e373ULL, 0x682e6ff3d6b2b8a3ULL,
	0x748f82ee5defb2fcULL, 0x78a5636f43172f60ULL, 0x84c87814a1f0ab72ULL, 0x8cc702081a6439ecULL,
	0x90befffa23631e28ULL, 0xa4506cebde82bde9ULL, 0xbef9a3f7b2c67915ULL, 0xc67178f2e372532bULL,
	0xca273eceea26619cULL, 0xd186b8c721c0c207ULL, 0xeada7dd6cde0eb1eULL, 0xf57d4f7fee6ed178ULL,
	0x06f067aa72176fbaULL, 0x0a637dc5a2c898a6ULL, 0x113f9804bef90daeULL, 0x1b710b35131c471bULL,
	0x28db77f523047d84ULL, 0x32caab7b40c72493ULL, 0x3c9ebe0a15c9bebcULL, 0x431d67c49c100d4cULL,
	0x4cc5d4becb3e42b6ULL, 0x597f299cfc657e2aULL, 0x5fcb6fab3ad6faecULL, 0x6c44198c4a475817ULL,
};

/* FIPS 180-4 §4.1.3 */
#define ROR(x, n) (((x) >> (n)) | ((x) << (64 - (n))))
#define BSIG0(x) (ROR((x), 28) ^ ROR((x), 34) ^ ROR((x), 39))
#define BSIG1(x) (ROR((x), 14) ^ ROR((x), 18) ^ ROR((x), 41))
#define SSIG0(x) (ROR((x), 1) ^ ROR((x), 8) ^ ((x) >> 7))
#define SSIG1(x) (ROR((x), 19) ^ ROR((x), 61) ^ ((x) >> 6))
/*
 * Ch(e, f, g) = ((f ^ g) & e) ^ g (f ^ g is ready before e).
 * Maj(a, b, c) = ((a ^ b) & (b ^ c)) ^ b, and this round's a ^ b is the
 * next round's b ^ c, so it is carried in bc: three operations a round.
 */
#define CH(x, y, z) ((((y) ^ (z)) & (x)) ^ (z))

/* One round (§6.4.2 step 3) with wk = W[t] + K[t]; the caller renames. */
#define ROUND(a, b, c, d, e, f, g, h, wk) do { \
	uint64_t ab_ = (a) ^ (b); \
	h += BSIG1(e) + CH(e, f, g) + (wk); \
	d += h; \
	h += BSIG0(a) + ((ab_ & bc) ^ (b)); \
	bc = ab_; \
} while (0)

static uint64_t
load_be64(const uint8_t *p)
{
	return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
	    (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
	    (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

#define W(i) w[(i) & 15]
/* §6.4.2 step 1 for t >= 16, in place in the ring */
#define SCHED(i) (W(i) += SSIG1(W((i) + 14)) + W((i) + 9) + SSIG0(W((i) + 1)))

#define R16(X) do { \
	ROUND(a, b, c, d, e, f, g, h, pgp__sha512_k[t + 0] + X(0)); \
	ROUND(h, a, b, c, d, e, f, g, pgp__sha512_k[t + 1] + X(1)); \
	ROUND(g, h, a, b, c, d, e, f, pgp__sha512_k[t + 2] + X(2)); \
	ROUND(f, g, h, a, b, c, d, e, pgp__sha512_k[t + 3] + X(3)); \
	ROUND(e, f, g, h, a, b, c, d, pgp__sha512_k[t + 4] + X(4)); \
	ROUND(d, e, f, g, h, a, b, c, pgp__sha512_k[t + 5] + X(5)); \
	ROUND(c, d, e, f, g, h, a, b, pgp__sha512_k[t + 6] + X(6)); \
	ROUND(b, c, d, e, f, g, h, a, pgp__sha512_k[t + 7] + X(7)); \
	ROUND(a, b, c, d, e, f, g, h, pgp__sha512_k[t + 8] + X(8)); \
	ROUND(h, a, b, c, d, e, f, g, pgp__sha512_k[t + 9] + X(9)); \
	ROUND(g, h, a, b, c, d, e, f, pgp__sha512_k[t + 10] + X(10)); \
	ROUND(f, g, h, a, b, c, d, e, pgp__sha512_k[t + 11] + X(11)); \
	ROUND(e, f, g, h, a, b, c, d, pgp__sha512_k[t + 12] + X(12)); \
	ROUND(d, e, f, g, h, a, b, c, pgp__sha512_k[t + 13] + X(13)); \
	ROUND(c, d, e, f, g, h, a, b, pgp__sha512_k[t + 14] + X(14)); \
	ROUND(b, c, d, e, f, g, h, a, pgp__sha512_k[t + 15] + X(15)); \
} while (0)

/* see hash_int.h */
void
pgp__sha512_blocks_c(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
	uint64_t w[16], a, b, c, d, e, f, g, h, bc;
	size_t i, t;

	for (; nblocks > 0; nblocks--, p += 128) {
		for (i = 0; i < 16; i++)
			w[i] = load_be64(p + 8 * i);
		a = st[0]; b = st[1]; c = st[2]; d = st[3];
		e = st[4]; f = st[5]; g = st[6]; h = st[7];
		bc = b ^ c;
		t = 0;
		R16(W);
		for (t = 16; t < 80; t += 16)
			R16(SCHED);
		st[0] += a; st[1] += b; st[2] += c; st[3] += d;
		st[4] += e; st[5] += f; st[6] += g; st[7] += h;
	}
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define TGT __attribute__((target("avx2,bmi2")))

/* 64-bit lanes: rotate right by n, and the small sigmas of §4.1.3 */
#define VROR(x, n) _mm256_or_si256(_mm256_srli_epi64((x), (n)), _mm256_slli_epi64((x), 64 - (n)))
#define VSSIG0(x) _mm256_xor_si256(_mm256_xor_si256(VROR((x), 1), VROR((x), 8)), _mm256_srli_epi64((x), 7))
#define VSSIG1(x) _mm256_xor_si256(_mm256_xor_si256(VROR((x), 19), VROR((x), 61)), _mm256_srli_epi64((x), 6))

/* Message words 0..15 of four blocks, transposed: w[t] lane j = W[t]
 * of block blk[j]; also stores W[t] + K[t] to wk[4 * t + j]. */
TGT static void
load4(__m256i w[80], uint64_t wk[320], const uint8_t *const blk[4])
{
	const __m256i bswap = _mm256_setr_epi8(7, 6, 5, 4, 3, 2, 1, 0,
	    15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0,
	    15, 14, 13, 12, 11, 10, 9, 8);
	__m256i r0, r1, r2, r3, t0, t1, t2, t3;
	size_t q, t;

	for (q = 0; q < 4; q++) {
		/* r_j = words 4q..4q+3 of block j; transpose to w[4q+i] */
		r0 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(blk[0] + 32 * q)), bswap);
		r1 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(blk[1] + 32 * q)), bswap);
		r2 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(blk[2] + 32 * q)), bswap);
		r3 = _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(blk[3] + 32 * q)), bswap);
		t0 = _mm256_unpacklo_epi64(r0, r1);
		t1 = _mm256_unpackhi_epi64(r0, r1);
		t2 = _mm256_unpacklo_epi64(r2, r3);
		t3 = _mm256_unpackhi_epi64(r2, r3);
		w[4 * q + 0] = _mm256_permute2x128_si256(t0, t2, 0x20);
		w[4 * q + 1] = _mm256_permute2x128_si256(t1, t3, 0x20);
		w[4 * q + 2] = _mm256_permute2x128_si256(t0, t2, 0x31);
		w[4 * q + 3] = _mm256_permute2x128_si256(t1, t3, 0x31);
	}
	for (t = 0; t < 16; t++)
		_mm256_store_si256((__m256i *)(wk + 4 * t), _mm256_add_epi64(w[t],
		    _mm256_set1_epi64x((long long)pgp__sha512_k[t])));
}

/* §6.4.2 step 1 for word t (16 <= t < 80) of four blocks, and W + K. */
#define VSTEP(wkp, t) do { \
	__m256i x_ = _mm256_add_epi64(_mm256_add_epi64(VSSIG1(w[(t) - 2]), w[(t) - 7]), \
	    _mm256_add_epi64(VSSIG0(w[(t) - 15]), w[(t) - 16])); \
	w[t] = x_; \
	_mm256_store_si256((__m256i *)((wkp) + 4 * (t)), \
	    _mm256_add_epi64(x_, _mm256_set1_epi64x((long long)pgp__sha512_k[t]))); \
} while (0)

/* 80 rounds of one block from precomputed W+K (stride 4 words). */
#define WK(i) cwk[4 * (r + (i))]
#define R8WK() do { \
	ROUND(a, b, c, d, e, f, g, h, WK(0)); \
	ROUND(h, a, b, c, d, e, f, g, WK(1)); \
	ROUND(g, h, a, b, c, d, e, f, WK(2)); \
	ROUND(f, g, h, a, b, c, d, e, WK(3)); \
	ROUND(e, f, g, h, a, b, c, d, WK(4)); \
	ROUND(d, e, f, g, h, a, b, c, WK(5)); \
	ROUND(c, d, e, f, g, h, a, b, WK(6)); \
	ROUND(b, c, d, e, f, g, h, a, WK(7)); \
} while (0)

/*
 * 80 rounds of one block from cwk (its W + K, stride 4), while the
 * vector unit computes schedule words *tp.. of the next four blocks
 * (w, wk), two per eight rounds, until *tp reaches 80.
 */
TGT static void
rounds_wk(uint64_t st[8], const uint64_t *cwk, __m256i w[80], uint64_t wk[320], size_t *tp)
{
	uint64_t a = st[0], b = st[1], c = st[2], d = st[3];
	uint64_t e = st[4], f = st[5], g = st[6], h = st[7];
	uint64_t bc = b ^ c;
	size_t r, t = *tp;
	for (r = 0; r < 80; r += 8) {
		if (t < 80) {
			VSTEP(wk, t);
			VSTEP(wk, t + 1);
			t += 2;
		}
		R8WK();
	}
	*tp = t;
	st[0] += a; st[1] += b; st[2] += c; st[3] += d;
	st[4] += e; st[5] += f; st[6] += g; st[7] += h;
}

/* Pointers to the first n (1..4) blocks at p, the last one repeated. */
static void
group(const uint8_t *blk[4], const uint8_t *p, size_t n)
{
	size_t j;
	for (j = 0; j < 4; j++)
		blk[j] = p + 128 * (j < n ? j : n - 1);
}

/* see hash_int.h */
TGT void
pgp__sha512_blocks_avx2(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
	uint64_t wk[2][320] __attribute__((aligned(32)));
	__m256i w[80];
	const uint8_t *blk[4];
	size_t j, n, nn, t, cur = 0;

	if (nblocks == 0)
		return;
	/* schedule of the first group up front */
	n = nblocks < 4 ? nblocks : 4;
	group(blk, p, n);
	load4(w, wk[0], blk);
	for (t = 16; t < 80; t++)
		VSTEP(wk[0], t);
	for (;;) {
		/* rounds of this group; the next group's schedule alongside */
		nn = nblocks - n < 4 ? nblocks - n : 4;
		t = 80;
		if (nn > 0) {
			group(blk, p + 128 * n, nn);
			load4(w, wk[cur ^ 1], blk);
			t = 16;
		}
		for (j = 0; j < n; j++)
			rounds_wk(st, wk[cur] + j, w, wk[cur ^ 1], &t);
		while (t < 80) { /* fewer than four blocks in this group */
			VSTEP(wk[cur ^ 1], t);
			t++;
		}
		p += 128 * n;
		nblocks -= n;
		if (nblocks == 0)
			break;
		n = nn;
		cur ^= 1;
	}
}
#endif
