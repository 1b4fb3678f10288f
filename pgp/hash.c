/* hash.c - digest dispatch by OpenPGP hash ID (RFC 9580 §9.5). see hash.h, hash_int.h */
#include <stdatomic.h>
#include <string.h>
#include <mbedtls/sha1.h>
#include <mbedtls/sha256.h>
#include "hash_int.h"

#if defined(__x86_64__) || defined(__i386__)
#define HAVE_X86 1
#else
#define HAVE_X86 0
#endif
#if defined(__aarch64__)
#define HAVE_ARM64 1
#else
#define HAVE_ARM64 0
#endif

/* Test-only switch (see hash_int.h); not part of any hash state. */
static atomic_int force_portable;

/* see hash_int.h */
void
pgp__hash_force_portable(int on)
{
	atomic_store_explicit(&force_portable, on != 0, memory_order_relaxed);
}

static unsigned
features(void)
{
	if (atomic_load_explicit(&force_portable, memory_order_relaxed))
		return 0;
	return pgp__cpu_features();
}

/* see hash.h */
size_t
pgp_hash_len(int alg)
{
	switch (alg) {
	case PGP_HASH_MD5: return 16;
	case PGP_HASH_SHA1: return 20;
	case PGP_HASH_RIPEMD160: return 20;
	case PGP_HASH_SHA256: return 32;
	case PGP_HASH_SHA384: return 48;
	case PGP_HASH_SHA512: return 64;
	case PGP_HASH_SHA224: return 28;
	case PGP_HASH_SHA3_256: return 32;
	case PGP_HASH_SHA3_512: return 64;
	default: return 0;
	}
}

/* see hash.h */
const char *
pgp_hash_name(int alg)
{
	switch (alg) {
	case PGP_HASH_MD5: return "MD5";
	case PGP_HASH_SHA1: return "SHA1";
	case PGP_HASH_RIPEMD160: return "RIPEMD160";
	case PGP_HASH_SHA256: return "SHA256";
	case PGP_HASH_SHA384: return "SHA384";
	case PGP_HASH_SHA512: return "SHA512";
	case PGP_HASH_SHA224: return "SHA224";
	case PGP_HASH_SHA3_256: return "SHA3-256";
	case PGP_HASH_SHA3_512: return "SHA3-512";
	default: return "unknown";
	}
}

/* see hash_int.h */
const char *
pgp__hash_impl(int alg)
{
	unsigned f = features();
	switch (alg) {
	case PGP_HASH_SHA1:
	case PGP_HASH_SHA224:
	case PGP_HASH_SHA256:
		if (HAVE_ARM64 && (f & PGP__CPU_ARM_SHA2))
			return "armv8-ce";
		return (HAVE_X86 && (f & PGP__CPU_SHANI)) ? "sha-ni" : "mbedtls";
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512:
		if (HAVE_ARM64 && (f & PGP__CPU_ARM_SHA512))
			return "armv8-ce";
		return (HAVE_X86 && (f & PGP__CPU_AVX2)) ? "avx2" : "portable";
	case PGP_HASH_SHA3_256:
	case PGP_HASH_SHA3_512:
		return "portable";
	case PGP_HASH_MD5:
	case PGP_HASH_RIPEMD160:
		return "mbedtls";
	default:
		return "unknown";
	}
}

/* Portable SHA-1 / SHA-256 blocks: mbedtls's compression function run
 * on our chaining value. */
static void
sha1_blocks_mbedtls(uint32_t st[5], const uint8_t *p, size_t nblocks)
{
	mbedtls_sha1_context c;
	mbedtls_sha1_init(&c);
	memcpy(c.state, st, sizeof c.state);
	for (; nblocks > 0; nblocks--, p += 64)
		(void)mbedtls_internal_sha1_process(&c, p);
	memcpy(st, c.state, sizeof c.state);
	mbedtls_sha1_free(&c);
}

static void
sha256_blocks_mbedtls(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	mbedtls_sha256_context c;
	mbedtls_sha256_init(&c);
	memcpy(c.state, st, sizeof c.state);
	for (; nblocks > 0; nblocks--, p += 64)
		(void)mbedtls_internal_sha256_process(&c, p);
	memcpy(st, c.state, sizeof c.state);
	mbedtls_sha256_free(&c);
}

/* Block size in octets of the FIPS 180-4 algorithms, 0 for the others. */
static size_t
md_block_len(int alg)
{
	switch (alg) {
	case PGP_HASH_SHA1:
	case PGP_HASH_SHA224:
	case PGP_HASH_SHA256:
		return 64;
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512:
		return 128;
	default:
		return 0;
	}
}

/* SHA-3 rate r/8 in octets (FIPS 202 §6.1: c = 2 * output length). */
static size_t
sha3_rate(int alg)
{
	return alg == PGP_HASH_SHA3_256 ? 136 : 72;
}

static void
md_blocks(pgp_hash *h, const uint8_t *p, size_t nblocks)
{
	unsigned f = features();
	(void)f;
	switch (h->alg) {
	case PGP_HASH_SHA1:
#if HAVE_X86
		if (f & PGP__CPU_SHANI) {
			pgp__sha1_blocks_ni(h->u.md.s.w32, p, nblocks);
			return;
		}
#endif
#if HAVE_ARM64
		if (f & PGP__CPU_ARM_SHA2) {
			pgp__sha1_blocks_ce(h->u.md.s.w32, p, nblocks);
			return;
		}
#endif
		sha1_blocks_mbedtls(h->u.md.s.w32, p, nblocks);
		return;
	case PGP_HASH_SHA224:
	case PGP_HASH_SHA256:
#if HAVE_X86
		if (f & PGP__CPU_SHANI) {
			pgp__sha256_blocks_ni(h->u.md.s.w32, p, nblocks);
			return;
		}
#endif
#if HAVE_ARM64
		if (f & PGP__CPU_ARM_SHA2) {
			pgp__sha256_blocks_ce(h->u.md.s.w32, p, nblocks);
			return;
		}
#endif
		sha256_blocks_mbedtls(h->u.md.s.w32, p, nblocks);
		return;
	default: /* SHA-384, SHA-512 */
#if HAVE_X86
		if (f & PGP__CPU_AVX2) {
			pgp__sha512_blocks_avx2(h->u.md.s.w64, p, nblocks);
			return;
		}
#endif
#if HAVE_ARM64
		if (f & PGP__CPU_ARM_SHA512) {
			pgp__sha512_blocks_ce(h->u.md.s.w64, p, nblocks);
			return;
		}
#endif
		pgp__sha512_blocks_c(h->u.md.s.w64, p, nblocks);
		return;
	}
}

/* FIPS 180-4 §5.3 initial hash values */
static const uint32_t IV_SHA1[5] = {
	0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0
};
static const uint32_t IV_SHA224[8] = {
	0xc1059ed8, 0x367cd507, 0x3070dd17, 0xf70e5939,
	0xffc00b31, 0x68581511, 0x64f98fa7, 0xbefa4fa4
};
static const uint32_t IV_SHA256[8] = {
	0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19
};
static const uint64_t IV_SHA384[8] = {
	0xcbbb9d5dc1059ed8ULL, 0x629a292a367cd507ULL, 0x9159015a3070dd17ULL, 0x152fecd8f70e5939ULL,
	0x67332667ffc00b31ULL, 0x8eb44a8768581511ULL, 0xdb0c2e0d64f98fa7ULL, 0x47b5481dbefa4fa4ULL
};
static const uint64_t IV_SHA512[8] = {
	0x6a09e667f3bcc908ULL, 0xbb67ae8584caa73bULL, 0x3c6ef372fe94f82bULL, 0xa54ff53a5f1d36f1ULL,
	0x510e527fade682d1ULL, 0x9b05688c2b3e6c1fULL, 0x1f83d9abfb41bd6bULL, 0x5be0cd19137e2179ULL
};

/* see hash.h */
int
pgp_hash_by_name(const char *p, size_t n)
{
	static const uint8_t algs[] = {PGP_HASH_MD5, PGP_HASH_SHA1, PGP_HASH_RIPEMD160,
	    PGP_HASH_SHA256, PGP_HASH_SHA384, PGP_HASH_SHA512, PGP_HASH_SHA224,
	    PGP_HASH_SHA3_256, PGP_HASH_SHA3_512};
	size_t i;
	for (i = 0; i < sizeof algs / sizeof algs[0]; i++) {
		const char *name = pgp_hash_name(algs[i]);
		if (strlen(name) == n && memcmp(name, p, n) == 0)
			return algs[i];
	}
	return 0;
}

/* see hash_int.h */
pgp_err
pgp_hash_init(pgp_hash *h, int alg)
{
	memset(h, 0, sizeof *h);
	h->alg = (uint8_t)alg;
	switch (alg) {
	case PGP_HASH_MD5:
		mbedtls_md5_init(&h->u.md5);
		mbedtls_md5_starts_ret(&h->u.md5);
		return PGP_OK;
	case PGP_HASH_RIPEMD160:
		mbedtls_ripemd160_init(&h->u.rmd160);
		mbedtls_ripemd160_starts_ret(&h->u.rmd160);
		return PGP_OK;
	case PGP_HASH_SHA1:
		memcpy(h->u.md.s.w32, IV_SHA1, sizeof IV_SHA1);
		return PGP_OK;
	case PGP_HASH_SHA224:
		memcpy(h->u.md.s.w32, IV_SHA224, sizeof IV_SHA224);
		return PGP_OK;
	case PGP_HASH_SHA256:
		memcpy(h->u.md.s.w32, IV_SHA256, sizeof IV_SHA256);
		return PGP_OK;
	case PGP_HASH_SHA384:
		memcpy(h->u.md.s.w64, IV_SHA384, sizeof IV_SHA384);
		return PGP_OK;
	case PGP_HASH_SHA512:
		memcpy(h->u.md.s.w64, IV_SHA512, sizeof IV_SHA512);
		return PGP_OK;
	case PGP_HASH_SHA3_256:
	case PGP_HASH_SHA3_512:
		return PGP_OK; /* all-zero state (FIPS 202 §4 step 1) */
	default:
		h->alg = 0;
		return PGP_ERR_UNSUPPORTED;
	}
}

/* Buffer a partial block; run whole blocks straight from the input. */
static void
md_update(pgp_hash *h, const uint8_t *p, size_t n)
{
	pgp__md *m = &h->u.md;
	size_t bl = md_block_len(h->alg);
	size_t have = (size_t)(m->n % bl), take, nb;

	m->n += n;
	if (have != 0) {
		take = bl - have;
		if (take > n)
			take = n;
		memcpy(m->buf + have, p, take);
		p += take;
		n -= take;
		if (have + take < bl)
			return;
		md_blocks(h, m->buf, 1);
	}
	nb = n / bl;
	if (nb != 0) {
		md_blocks(h, p, nb);
		p += nb * bl;
		n -= nb * bl;
	}
	if (n != 0)
		memcpy(m->buf, p, n);
}

static void
store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void
store_be64(uint8_t *p, uint64_t v)
{
	store_be32(p, (uint32_t)(v >> 32));
	store_be32(p + 4, (uint32_t)v);
}

/*
 * FIPS 180-4 §5.1: append 0x80, zeros, then the message length in bits
 * as a 64-bit (SHA-1/224/256) or 128-bit (SHA-384/512) big-endian number;
 * §6: the digest is the leading words of the state, big-endian.
 */
static void
md_final(pgp_hash *h, uint8_t *out)
{
	pgp__md *m = &h->u.md;
	size_t bl = md_block_len(h->alg);
	size_t lenpos = bl == 128 ? 112 : 56;
	size_t have = (size_t)(m->n % bl), i, len = pgp_hash_len(h->alg);
	uint64_t n = m->n;

	m->buf[have++] = 0x80;
	if (have > lenpos) {
		memset(m->buf + have, 0, bl - have);
		md_blocks(h, m->buf, 1);
		have = 0;
	}
	memset(m->buf + have, 0, lenpos - have);
	if (bl == 128) {
		store_be64(m->buf + 112, n >> 61);
		store_be64(m->buf + 120, n << 3);
	} else {
		store_be64(m->buf + 56, n << 3);
	}
	md_blocks(h, m->buf, 1);
	if (bl == 128) {
		for (i = 0; i < len / 8; i++)
			store_be64(out + 8 * i, m->s.w64[i]);
	} else {
		for (i = 0; i < len / 4; i++)
			store_be32(out + 4 * i, m->s.w32[i]);
	}
}

/* see hash_int.h */
void
pgp_hash_update(pgp_hash *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	if (n == 0)
		return;
	switch (h->alg) {
	case PGP_HASH_MD5: mbedtls_md5_update_ret(&h->u.md5, b, n); break;
	case PGP_HASH_RIPEMD160: mbedtls_ripemd160_update_ret(&h->u.rmd160, b, n); break;
	case PGP_HASH_SHA1:
	case PGP_HASH_SHA224:
	case PGP_HASH_SHA256:
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512: md_update(h, b, n); break;
	case PGP_HASH_SHA3_256:
	case PGP_HASH_SHA3_512: pgp__sha3_update(&h->u.sha3, sha3_rate(h->alg), b, n); break;
	default: break;
	}
}

/* see hash_int.h */
void
pgp_hash_final(pgp_hash *h, uint8_t out[PGP_HASH_MAX_LEN])
{
	memset(out, 0, PGP_HASH_MAX_LEN);
	switch (h->alg) {
	case PGP_HASH_MD5: mbedtls_md5_finish_ret(&h->u.md5, out); break;
	case PGP_HASH_RIPEMD160: mbedtls_ripemd160_finish_ret(&h->u.rmd160, out); break;
	case PGP_HASH_SHA1:
	case PGP_HASH_SHA224:
	case PGP_HASH_SHA256:
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512: md_final(h, out); break;
	case PGP_HASH_SHA3_256:
	case PGP_HASH_SHA3_512:
		pgp__sha3_final(&h->u.sha3, sha3_rate(h->alg), out, pgp_hash_len(h->alg));
		break;
	default: break;
	}
}

/* see hash.h */
pgp_err
pgp_hash_buf(int alg, const void *p, size_t n, uint8_t out[PGP_HASH_MAX_LEN])
{
	pgp_hash h;
	pgp_err e;
	if ((e = pgp_hash_init(&h, alg)) != PGP_OK)
		return e;
	pgp_hash_update(&h, p, n);
	pgp_hash_final(&h, out);
	return PGP_OK;
}
