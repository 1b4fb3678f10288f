/*
 * test_rsa_mont.c - pgp/mont.c (s^e mod n) against mbedtls' bignum, and
 * pk_rsa.c's PKCS#1 v1.5 verification against signatures made by mbedtls.
 *
 * Everything random comes from a splitmix64 generator with a fixed seed (and
 * an mbedtls CTR_DRBG fed from it), so a failure reproduces; each mismatch
 * prints the size, the case and the seed state.
 *
 *  - every modulus size from 2 to 4096 bits (random odd moduli with the top
 *    bit set; exp_mod equality needs no primes), e = 65537 and e = 3, plus a
 *    random exponent of up to 64 bits; full-length exponents every 128 bits;
 *  - word-boundary sizes (64m-1, 64m, 64m+1; 64m+1 has a top limb of 1)
 *    with s = 1, 2, n-1 and n = 2^k-1, n = 2^(k-1)+1, a zero second limb;
 *  - sizes above 4096 up to PGP_MAX_MPI_BITS (mbedtls_mpi_exp_mod stops at
 *    8192 bits; beyond that the reference is square-and-multiply with
 *    mbedtls_mpi_mul_mpi / mbedtls_mpi_mod_mpi);
 *  - the refusals (even n, n = 1, s >= n, n too long), e = 0 and s = 0;
 *  - mont.c built a second time without unsigned __int128 (the portable
 *    path), compared with the reference on every 8th size;
 *  - RSA keys from mbedtls_rsa_gen_key, PKCS#1 v1.5 signatures from
 *    mbedtls for every hash it has, verified by pgp_pk_verify; bit flips,
 *    wrong digest, wrong hash ID, truncation, wrong e must fail; SHA3 and
 *    hand-made bad encodings (the kinds a padding parser might accept) are
 *    signed with the raw private operation.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <mbedtls/bignum.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/md.h>
#include <mbedtls/rsa.h>
#include "t.h"
#include "pgp/hash.h"
#include "pgp/mont_int.h"
#include "pgp/pk.h"

/* The portable build of mont.c, under another name. */
pgp_err pgp__mont_modexp_portable(uint8_t *out, const uint8_t *n, size_t nlen,
    const uint8_t *s, size_t slen, const uint8_t *e, size_t elen);
#define pgp__mont_modexp pgp__mont_modexp_portable
#define PGP_MONT_NO_INT128
#include "pgp/mont.c"
#undef pgp__mont_modexp
#undef PGP_MONT_NO_INT128

#define MAXB PGP_MONT_MAX_BYTES

static uint64_t rng_state = 0x5eed0f3017a11ceULL;

static uint64_t
rnd64(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static void
rnd_bytes(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd64();
}

/* Octets needed for `bits` bits. */
static size_t
octets(size_t bits)
{
	return (bits + 7) / 8;
}

/* A random odd number of exactly `bits` bits (bits >= 2), big-endian. */
static size_t
rnd_modulus(uint8_t *n, size_t bits)
{
	size_t len = octets(bits);
	unsigned top = (unsigned)(bits - (len - 1) * 8); /* 1..8 bits in n[0] */

	rnd_bytes(n, len);
	n[0] = (uint8_t)((n[0] & ((1u << top) - 1)) | (1u << (top - 1)));
	n[len - 1] |= 1;
	return len;
}

/* A random value below n (len octets), big-endian, len octets. */
static void
rnd_below(uint8_t *s, const uint8_t *n, size_t len)
{
	do {
		rnd_bytes(s, len);
		s[0] &= n[0];
	} while (memcmp(s, n, len) >= 0);
}

/* n - 1 (n odd, so no borrow). */
static void
minus_one(uint8_t *s, const uint8_t *n, size_t len)
{
	memcpy(s, n, len);
	s[len - 1] &= 0xfe;
}

/* s = n + 2 (n below 2^(8 len) - 2). */
static void
plus_two(uint8_t *s, const uint8_t *n, size_t len)
{
	unsigned c = 2;
	size_t i;

	for (i = len; i-- > 0;) {
		c += n[i];
		s[i] = (uint8_t)c;
		c >>= 8;
	}
}

/* The reference s^e mod n as len octets: mbedtls_mpi_exp_mod up to 8192
 * bits, else (or if `ladder`) square-and-multiply with mul/mod. */
static int
ref_exp(uint8_t *out, const uint8_t *n, size_t len, const uint8_t *s, size_t slen,
    const uint8_t *e, size_t elen, int ladder)
{
	mbedtls_mpi N, S, E, X, T;
	int rc = 0;
	size_t i;

	mbedtls_mpi_init(&N);
	mbedtls_mpi_init(&S);
	mbedtls_mpi_init(&E);
	mbedtls_mpi_init(&X);
	mbedtls_mpi_init(&T);
	rc |= mbedtls_mpi_read_binary(&N, n, len);
	rc |= mbedtls_mpi_read_binary(&S, s, slen);
	rc |= mbedtls_mpi_read_binary(&E, e, elen);
	if (!ladder && mbedtls_mpi_bitlen(&N) <= MBEDTLS_MPI_MAX_BITS) {
		rc |= mbedtls_mpi_exp_mod(&X, &S, &E, &N, NULL);
	} else {
		rc |= mbedtls_mpi_lset(&X, 1);
		for (i = mbedtls_mpi_bitlen(&E); i-- > 0;) {
			rc |= mbedtls_mpi_mul_mpi(&T, &X, &X);
			rc |= mbedtls_mpi_mod_mpi(&X, &T, &N);
			if (mbedtls_mpi_get_bit(&E, i)) {
				rc |= mbedtls_mpi_mul_mpi(&T, &X, &S);
				rc |= mbedtls_mpi_mod_mpi(&X, &T, &N);
			}
		}
		rc |= mbedtls_mpi_mod_mpi(&X, &X, &N);
	}
	rc |= mbedtls_mpi_write_binary(&X, out, len);
	mbedtls_mpi_free(&N);
	mbedtls_mpi_free(&S);
	mbedtls_mpi_free(&E);
	mbedtls_mpi_free(&X);
	mbedtls_mpi_free(&T);
	return rc;
}

static int mismatches;

/* Compare mont.c (and, if `portable`, its portable build) with the
 * reference for one case. */
static void
check_case(const char *what, size_t bits, const uint8_t *n, size_t len,
    const uint8_t *s, size_t slen, const uint8_t *e, size_t elen, int portable,
    int ladder)
{
	static uint8_t want[MAXB], got[MAXB];

	T_ASSERT(ref_exp(want, n, len, s, slen, e, elen, ladder) == 0);
	T_EQ_INT(pgp__mont_modexp(got, n, len, s, slen, e, elen), PGP_OK);
	if (memcmp(want, got, len) != 0) {
		if (mismatches++ < 10)
			fprintf(stderr, "mismatch: %s, %zu-bit n, %zu-octet e, rng %llx\n",
			    what, bits, elen, (unsigned long long)rng_state);
		t_failed_checks++;
	}
	if (portable) {
		T_EQ_INT(pgp__mont_modexp_portable(got, n, len, s, slen, e, elen), PGP_OK);
		if (memcmp(want, got, len) != 0) {
			if (mismatches++ < 10)
				fprintf(stderr, "portable mismatch: %s, %zu-bit n\n", what, bits);
			t_failed_checks++;
		}
	}
}

static const uint8_t e65537[3] = { 0x01, 0x00, 0x01 }, e3[1] = { 3 };

/* Every size 2..4096 bits: e = 65537, e = 3, a random e of up to 64 bits. */
static void
test_every_size(void)
{
	static uint8_t n[MAXB], s[MAXB];
	uint8_t e[8];
	size_t bits, len, elen;

	for (bits = 2; bits <= 4096; bits++) {
		len = rnd_modulus(n, bits);
		rnd_below(s, n, len);
		check_case("e=65537", bits, n, len, s, len, e65537, 3, bits % 8 == 0, 0);
		rnd_below(s, n, len);
		check_case("e=3", bits, n, len, s, len, e3, 1, 0, 0);
		elen = 1 + (size_t)(rnd64() % 8);
		rnd_bytes(e, elen);
		e[elen - 1] |= 1;
		rnd_below(s, n, len);
		check_case("e random <= 64 bits", bits, n, len, s, len, e, elen, 0, 0);
	}
	T_EQ_INT(mismatches, 0);
}

/* Exponents as long as the modulus (and longer: mont.c does not need e < n),
 * every 128 bits from 128 to 4096 and at 1023, 1025, 2047, 2049. */
static void
test_long_exponents(void)
{
	static uint8_t n[MAXB], s[MAXB], e[MAXB + 8];
	size_t sizes[40], ns = 0, bits, len, elen, i;

	for (bits = 128; bits <= 4096; bits += 128)
		sizes[ns++] = bits;
	sizes[ns++] = 1023;
	sizes[ns++] = 1025;
	sizes[ns++] = 2047;
	sizes[ns++] = 2049;
	for (i = 0; i < ns; i++) {
		bits = sizes[i];
		len = rnd_modulus(n, bits);
		rnd_below(s, n, len);
		elen = len + (bits % 256 == 0 ? 8 : 0);
		rnd_bytes(e, elen);
		check_case("long e", bits, n, len, s, len, e, elen, bits <= 1024, 0);
	}
	T_EQ_INT(mismatches, 0);
}

/* Word boundaries and special forms, with edge bases. */
static void
test_edges(void)
{
	static uint8_t n[MAXB], s[MAXB];
	static const uint8_t one[1] = { 1 }, two[1] = { 2 };
	size_t m, bits, len, d, f;

	for (m = 1; m <= 64; m++) {
		for (d = 0; d < 3; d++) {
			bits = 64 * m + d - 1;
			for (f = 0; f < 4; f++) {
				len = octets(bits);
				if (f == 0) {
					len = rnd_modulus(n, bits);
				} else if (f == 1) { /* 2^bits - 1 */
					memset(n, 0xff, len);
					n[0] = (uint8_t)(0xff >> (len * 8 - bits));
				} else if (f == 2) { /* 2^(bits-1) + 1 */
					memset(n, 0, len);
					n[0] = (uint8_t)(1u << (7 - (len * 8 - bits)));
					n[len - 1] |= 1;
				} else { /* random, with the limb below the top one zero */
					len = rnd_modulus(n, bits);
					if (len > 16)
						memset(n + len - 16, 0, 8);
				}
				check_case("s=1", bits, n, len, one, 1, e65537, 3, 1, 0);
				check_case("s=2", bits, n, len, two, 1, e65537, 3, 0, 0);
				minus_one(s, n, len);
				check_case("s=n-1", bits, n, len, s, len, e65537, 3, 1, 0);
				check_case("s=n-1, e=3", bits, n, len, s, len, e3, 1, 0, 0);
				rnd_below(s, n, len);
				check_case("random s", bits, n, len, s, len, e65537, 3, 1, 0);
				/* s with leading zero octets, as an MPI may carry */
				memset(s, 0, len / 2);
				check_case("short s", bits, n, len, s, len, e3, 1, 0, 0);
				check_case("short s trimmed", bits, n, len, s + len / 2,
				    len - len / 2, e3, 1, 0, 0);
			}
		}
	}
	T_EQ_INT(mismatches, 0);
}

/* Above 4096 bits, up to the limit. */
static void
test_large_sizes(void)
{
	static uint8_t n[MAXB], s[MAXB];
	static const size_t sizes[] = { 4097, 4160, 6144, 8191, 8192, 8193, 12288,
		16320, 16383, 16384 };
	size_t i, len;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		len = rnd_modulus(n, sizes[i]);
		rnd_below(s, n, len);
		check_case("large", sizes[i], n, len, s, len, e65537, 3, 0, 0);
	}
	/* The ladder reference agrees with mbedtls_mpi_exp_mod where both run. */
	len = rnd_modulus(n, 2050);
	rnd_below(s, n, len);
	check_case("ladder reference", 2050, n, len, s, len, e65537, 3, 0, 1);
	/* 2^16384 - 1 with s = n - 1 and a random s. */
	memset(n, 0xff, MAXB);
	minus_one(s, n, MAXB);
	check_case("2^16384-1, s=n-1", 16384, n, MAXB, s, MAXB, e65537, 3, 1, 0);
	rnd_below(s, n, MAXB);
	check_case("2^16384-1", 16384, n, MAXB, s, MAXB, e3, 1, 1, 0);
	T_EQ_INT(mismatches, 0);
}

/* What mont.c refuses, and e = 0, s = 0. */
static void
test_refusals(void)
{
	static uint8_t n[MAXB + 2], s[MAXB + 2], out[MAXB + 2];
	static const uint8_t zero[1] = { 0 }, one[1] = { 1 };
	size_t len;

	len = rnd_modulus(n, 1024);
	rnd_below(s, n, len);
	/* s = n and s > n */
	T_EQ_INT(pgp__mont_modexp(out, n, len, n, len, e65537, 3), PGP_ERR_INVALID);
	plus_two(s, n, len);
	T_ASSERT(memcmp(s, n, len) > 0);
	T_EQ_INT(pgp__mont_modexp(out, n, len, s, len, e65537, 3), PGP_ERR_INVALID);
	s[0] = 1;
	memcpy(s + 1, n, len);
	T_EQ_INT(pgp__mont_modexp(out, n, len, s, len + 1, e65537, 3), PGP_ERR_INVALID);
	/* even n, n = 1, n = 0 */
	rnd_below(s, n, len);
	n[len - 1] &= 0xfe;
	T_EQ_INT(pgp__mont_modexp(out, n, len, s, len, e65537, 3), PGP_ERR_INVALID);
	T_EQ_INT(pgp__mont_modexp(out, one, 1, zero, 1, e65537, 3), PGP_ERR_INVALID);
	T_EQ_INT(pgp__mont_modexp(out, zero, 1, zero, 1, e65537, 3), PGP_ERR_INVALID);
	/* 16385 bits; 16384 bits with leading zero octets is fine */
	len = rnd_modulus(n, 16385);
	T_EQ_INT(pgp__mont_modexp(out, n, len, one, 1, e65537, 3), PGP_ERR_INVALID);
	n[0] = 0;
	n[1] |= 0x80;
	T_EQ_INT(pgp__mont_modexp(out, n, len, one, 1, e65537, 3), PGP_OK);
	T_EQ_INT(out[len - 1], 1);
	/* e = 0 gives 1, s = 0 gives 0 */
	len = rnd_modulus(n, 777);
	rnd_below(s, n, len);
	T_EQ_INT(pgp__mont_modexp(out, n, len, s, len, zero, 1), PGP_OK);
	T_EQ_INT(out[len - 1], 1);
	T_EQ_INT(out[0] | out[len / 2], 0);
	T_EQ_INT(pgp__mont_modexp(out, n, len, zero, 1, e65537, 3), PGP_OK);
	memset(s, 0, len);
	T_EQ_MEM(out, s, len);
}

/* ---- signatures ---- */

static int
fake_entropy(void *ctx, unsigned char *p, size_t n)
{
	(void)ctx;
	rnd_bytes(p, n);
	return 0;
}

static mbedtls_ctr_drbg_context drbg;

static void
drbg_init(void)
{
	static const unsigned char pers[] = "wotkit test_rsa_mont";

	mbedtls_ctr_drbg_init(&drbg);
	T_EQ_INT(mbedtls_ctr_drbg_seed(&drbg, fake_entropy, NULL, pers, sizeof pers), 0);
}

typedef struct rkey {
	mbedtls_rsa_context rsa;
	uint8_t n[MAXB], e[8];
	size_t k, elen;
} rkey;

static int
rkey_gen(rkey *r, unsigned bits, int e)
{
	mbedtls_rsa_init(&r->rsa, MBEDTLS_RSA_PKCS_V15, 0);
	if (mbedtls_rsa_gen_key(&r->rsa, mbedtls_ctr_drbg_random, &drbg, bits, e) != 0)
		return -1;
	r->k = mbedtls_rsa_get_len(&r->rsa);
	r->elen = e > 0xffff ? 3 : e > 0xff ? 2 : 1;
	return mbedtls_rsa_export_raw(&r->rsa, r->n, r->k, NULL, 0, NULL, 0, NULL, 0,
	    r->e, r->elen);
}

static void
set_mpi(pgp_mpi *m, const uint8_t *p, size_t n)
{
	memset(m, 0, sizeof *m);
	m->v.p = p;
	m->v.len = n;
	m->bits = (uint16_t)(n * 8);
}

/* pgp_pk_verify with key r and the k-octet signature sig (given as is:
 * leading zero octets stay, as the parser may present them). */
static pgp_err
verify(const rkey *r, const uint8_t *sig, size_t slen, int hash, const uint8_t *dig,
    size_t dlen)
{
	pgp_key key;
	pgp_sig s;

	memset(&key, 0, sizeof key);
	memset(&s, 0, sizeof s);
	key.version = 4;
	key.algo = PGP_PK_RSA;
	set_mpi(&key.mpi[0], r->n, r->k);
	set_mpi(&key.mpi[1], r->e, r->elen);
	key.nmpi = 2;
	s.version = 4;
	s.pk_algo = PGP_PK_RSA;
	s.hash_algo = (uint8_t)hash;
	set_mpi(&s.mpi[0], sig, slen);
	s.nmpi = 1;
	return pgp_pk_verify(&key, &s, hash, dig, dlen, NULL);
}

static const struct {
	int pgp;
	mbedtls_md_type_t md;
	size_t len;
	int twin; /* another ID with the same digest length (or 0) */
} hashes[] = {
	{ PGP_HASH_MD5, MBEDTLS_MD_MD5, 16, 0 },
	{ PGP_HASH_SHA1, MBEDTLS_MD_SHA1, 20, PGP_HASH_RIPEMD160 },
	{ PGP_HASH_RIPEMD160, MBEDTLS_MD_RIPEMD160, 20, PGP_HASH_SHA1 },
	{ PGP_HASH_SHA224, MBEDTLS_MD_SHA224, 28, 0 },
	{ PGP_HASH_SHA256, MBEDTLS_MD_SHA256, 32, PGP_HASH_SHA3_256 },
	{ PGP_HASH_SHA384, MBEDTLS_MD_SHA384, 48, 0 },
	{ PGP_HASH_SHA512, MBEDTLS_MD_SHA512, 64, PGP_HASH_SHA3_512 },
};

/* Keys from mbedtls, signatures from mbedtls_rsa_rsassa_pkcs1_v15_sign. */
static void
test_mbedtls_signatures(void)
{
	static const struct { unsigned bits; int e; } sizes[] = {
		{ 1024, 3 }, { 1032, 65537 }, { 1536, 65537 }, { 2048, 65537 },
		{ 2056, 17 },
	};
	static rkey r;
	static uint8_t sig[MAXB], bad[MAXB];
	uint8_t dig[64];
	size_t i, h, b;
	int tried = 0;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		T_EQ_INT(rkey_gen(&r, sizes[i].bits, sizes[i].e), 0);
		for (h = 0; h < sizeof hashes / sizeof hashes[0]; h++) {
			size_t dl = hashes[h].len;

			rnd_bytes(dig, dl);
			T_EQ_INT(mbedtls_rsa_rsassa_pkcs1_v15_sign(&r.rsa, NULL, NULL,
			    MBEDTLS_RSA_PRIVATE, hashes[h].md, (unsigned)dl, dig, sig), 0);
			T_EQ_INT(verify(&r, sig, r.k, hashes[h].pgp, dig, dl), PGP_OK);
			/* bit flips in s: low, middle, each octet's bit somewhere */
			for (b = 0; b < 6; b++) {
				size_t at = b == 0 ? r.k - 1 : 1 + (size_t)(rnd64() % (r.k - 1));

				memcpy(bad, sig, r.k);
				bad[at] ^= (uint8_t)(1u << (rnd64() % 8));
				T_EQ_INT(verify(&r, bad, r.k, hashes[h].pgp, dig, dl),
				    memcmp(bad, r.n, r.k) >= 0 ? PGP_ERR_MALFORMED :
				    PGP_ERR_BAD_SIG);
			}
			/* truncated: the last octet dropped, or the first */
			T_EQ_INT(verify(&r, sig, r.k - 1, hashes[h].pgp, dig, dl), PGP_ERR_BAD_SIG);
			T_EQ_INT(verify(&r, sig + 1, r.k - 1, hashes[h].pgp, dig, dl),
			    PGP_ERR_BAD_SIG);
			/* wrong digest: every octet position once over the hashes */
			dig[(i + h) % dl] ^= 0x01;
			T_EQ_INT(verify(&r, sig, r.k, hashes[h].pgp, dig, dl), PGP_ERR_BAD_SIG);
			dig[(i + h) % dl] ^= 0x01;
			/* the same digest under another hash ID */
			if (hashes[h].twin)
				T_EQ_INT(verify(&r, sig, r.k, hashes[h].twin, dig, dl),
				    PGP_ERR_BAD_SIG);
			/* another e */
			r.e[r.elen - 1] ^= 4;
			T_EQ_INT(verify(&r, sig, r.k, hashes[h].pgp, dig, dl), PGP_ERR_BAD_SIG);
			r.e[r.elen - 1] ^= 4;
			T_EQ_INT(verify(&r, sig, r.k, hashes[h].pgp, dig, dl), PGP_OK);
			tried++;
		}
		mbedtls_rsa_free(&r.rsa);
	}
	T_EQ_INT(tried, 35);
}

/* A 512-bit key holds SHA-256 (32 + 19 + 11 <= 64 octets) but not SHA-512. */
static void
test_short_modulus(void)
{
	static rkey r;
	static uint8_t sig[MAXB];
	uint8_t dig[64];

	T_EQ_INT(rkey_gen(&r, 512, 65537), 0);
	rnd_bytes(dig, sizeof dig);
	T_EQ_INT(mbedtls_rsa_rsassa_pkcs1_v15_sign(&r.rsa, NULL, NULL, MBEDTLS_RSA_PRIVATE,
	    MBEDTLS_MD_SHA256, 32, dig, sig), 0);
	T_EQ_INT(verify(&r, sig, r.k, PGP_HASH_SHA256, dig, 32), PGP_OK);
	T_ASSERT(mbedtls_rsa_rsassa_pkcs1_v15_sign(&r.rsa, NULL, NULL, MBEDTLS_RSA_PRIVATE,
	    MBEDTLS_MD_SHA512, 64, dig, sig) != 0);
	T_EQ_INT(verify(&r, sig, r.k, PGP_HASH_SHA512, dig, 64), PGP_ERR_BAD_SIG);
	mbedtls_rsa_free(&r.rsa);
}

/*
 * Encodings signed with the raw private operation. The DigestInfo octets are
 * typed here from RFC 9580 §5.2.2 (the table's "ASN.1 DER" column), not
 * taken from pk_rsa.c. The good ones must verify; each bad one is an encoding
 * that a parser of the padding could take for the same digest, and must not.
 */
static void
test_crafted_encodings(void)
{
	static const uint8_t di_sha3_256[] = { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09,
		0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x08, 0x05, 0x00, 0x04, 0x20 };
	static const uint8_t di_sha3_512[] = { 0x30, 0x51, 0x30, 0x0d, 0x06, 0x09,
		0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x0a, 0x05, 0x00, 0x04, 0x40 };
	static const uint8_t di_sha256[] = { 0x30, 0x31, 0x30, 0x0d, 0x06, 0x09,
		0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x05, 0x00, 0x04, 0x20 };
	/* SHA-256 without the NULL parameters (RFC 8017 §9.2 note 1 allows
	 * it for SHA-2 in theory; RFC 9580 §5.2.2 gives only the NULL form). */
	static const uint8_t di_sha256_nonull[] = { 0x30, 0x2f, 0x30, 0x0b, 0x06, 0x09,
		0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01, 0x04, 0x20 };
	static rkey r;
	static uint8_t em[MAXB], sig[MAXB];
	uint8_t dig[64];
	size_t k, v;

	T_EQ_INT(rkey_gen(&r, 2048, 65537), 0);
	k = r.k;
	rnd_bytes(dig, sizeof dig);
#define EM(di, dlen, ps_end) do { \
	em[0] = 0; em[1] = 1; memset(em + 2, 0xff, k - 2); \
	em[(ps_end)] = 0; \
	memcpy(em + (ps_end) + 1, (di), sizeof (di)); \
	memcpy(em + (ps_end) + 1 + sizeof (di), dig, (dlen)); \
} while (0)
#define SIGN_VERIFY(hash, dlen, want) do { \
	T_EQ_INT(mbedtls_rsa_private(&r.rsa, NULL, NULL, em, sig), 0); \
	T_EQ_INT(verify(&r, sig, k, (hash), dig, (dlen)), (want)); \
} while (0)
	/* SHA3-256, SHA3-512 and (as a check of the construction) SHA-256 */
	EM(di_sha3_256, 32, k - 32 - sizeof di_sha3_256 - 1);
	SIGN_VERIFY(PGP_HASH_SHA3_256, 32, PGP_OK);
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	EM(di_sha3_512, 64, k - 64 - sizeof di_sha3_512 - 1);
	SIGN_VERIFY(PGP_HASH_SHA3_512, 64, PGP_OK);
	SIGN_VERIFY(PGP_HASH_SHA512, 64, PGP_ERR_BAD_SIG);
	EM(di_sha256, 32, k - 32 - sizeof di_sha256 - 1);
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_OK);
	/* block type 02 */
	em[1] = 2;
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	/* a PS octet other than FF, at the start, middle, end of PS */
	for (v = 0; v < 3; v++) {
		size_t ps_end = k - 32 - sizeof di_sha256 - 1;

		EM(di_sha256, 32, ps_end);
		em[v == 0 ? 2 : v == 1 ? ps_end / 2 : ps_end - 1] = 0xfe;
		SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	}
	/* DigestInfo without the NULL parameters */
	EM(di_sha256_nonull, 32, k - 32 - sizeof di_sha256_nonull - 1);
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	/* the digest followed by garbage, PS shortened to keep the length
	 * (the e = 3 forgery of Bleichenbacher, 2006) */
	EM(di_sha256, 32, k - 32 - sizeof di_sha256 - 1 - 40);
	rnd_bytes(em + k - 40, 40);
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	/* PS of 7 octets, the rest zero-filled at the front (no 00 01) */
	memset(em, 0, k);
	memset(em + k - 32 - sizeof di_sha256 - 1 - 7, 0xff, 7);
	memcpy(em + k - 32 - sizeof di_sha256, di_sha256, sizeof di_sha256);
	memcpy(em + k - 32, dig, 32);
	em[k - 32 - sizeof di_sha256 - 1 - 8] = 1;
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
	/* the separator 00 replaced by FF */
	EM(di_sha256, 32, k - 32 - sizeof di_sha256 - 1);
	em[k - 32 - sizeof di_sha256 - 1] = 0xff;
	SIGN_VERIFY(PGP_HASH_SHA256, 32, PGP_ERR_BAD_SIG);
#undef EM
#undef SIGN_VERIFY
	mbedtls_rsa_free(&r.rsa);
}

/* Moduli above mbedtls' 8192 bits verify; beyond the limit is unsupported.
 * With a random 12288-bit odd modulus and s, the math runs and fails. */
static void
test_big_modulus_reaches_math(void)
{
	static rkey r;
	static uint8_t s[MAXB + 1];
	pgp_key key;
	pgp_sig sig;
	pgp_diag d = { 0, -1, NULL };
	uint8_t dig[32] = { 0 };

	r.k = rnd_modulus(r.n, 12288);
	r.e[0] = 1;
	r.e[1] = 0;
	r.e[2] = 1;
	r.elen = 3;
	rnd_below(s, r.n, r.k);
	T_EQ_INT(verify(&r, s, r.k, PGP_HASH_SHA256, dig, 32), PGP_ERR_BAD_SIG);
	r.k = rnd_modulus(r.n, 16392);
	memset(&key, 0, sizeof key);
	memset(&sig, 0, sizeof sig);
	key.algo = sig.pk_algo = PGP_PK_RSA;
	key.version = sig.version = 4;
	set_mpi(&key.mpi[0], r.n, r.k);
	set_mpi(&key.mpi[1], r.e, r.elen);
	key.nmpi = 2;
	set_mpi(&sig.mpi[0], s, 1);
	sig.nmpi = 1;
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA256, dig, 32, &d),
	    PGP_ERR_UNSUPPORTED);
	T_ASSERT(d.what != NULL);
}

int
main(void)
{
	T_RUN(test_refusals);
	T_RUN(test_every_size);
	T_RUN(test_long_exponents);
	T_RUN(test_edges);
	T_RUN(test_large_sizes);
	drbg_init();
	T_RUN(test_mbedtls_signatures);
	T_RUN(test_short_modulus);
	T_RUN(test_crafted_encodings);
	T_RUN(test_big_modulus_reaches_math);
	mbedtls_ctr_drbg_free(&drbg);
	return T_DONE();
}
