/*
 * hash_int.h - the streaming hash context and the hash implementations
 * (internal to pgp/, its tests and bench; the public part is hash.h).
 *
 * A pgp_hash is caller-allocated, fixed-size and copyable by assignment
 * (hash a common prefix once, copy, then add per-signature trailers):
 * it holds only plain arrays, no pointers. It embeds mbedtls contexts
 * (MD5, RIPEMD-160), which is why it is not part of the public API.
 *
 * SHA-1, SHA-224 and SHA-256 (FIPS 180-4) use the x86 SHA extensions when
 * CPUID reports them, or the Armv8 SHA1/SHA2 instructions when
 * getauxval(AT_HWCAP) does, else mbedtls's block function.  SHA-384 and
 * SHA-512 use our own compression function (AVX2 message schedule when
 * present, the Armv8.2 SHA512 instructions when present, else portable C).  SHA3-256 and SHA3-512 (FIPS 202) are portable C.
 * MD5 and RIPEMD-160 are mbedtls.  The choice is made at run time; every
 * implementation gives the same digest (tests/unit/test_hash.c checks).
 */
#ifndef PGP_HASH_INT_H
#define PGP_HASH_INT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "hash.h"
#include <mbedtls/md5.h>
#include <mbedtls/ripemd160.h>

/* SHA-1/SHA-2 state (FIPS 180-4): chaining value, length, partial block. */
typedef struct pgp__md {
	union {
		uint32_t w32[8];  /* SHA-1 (5 words), SHA-224, SHA-256 */
		uint64_t w64[8];  /* SHA-384, SHA-512 */
	} s;
	uint64_t n;               /* octets hashed so far */
	uint8_t buf[128];         /* the first n % block-size octets of a block */
} pgp__md;

/* SHA-3 state (FIPS 202 §4): Keccak-f[1600] lanes, absorb position. */
typedef struct pgp__sha3 {
	uint64_t a[25];           /* lane (x, y) is a[x + 5 * y], little-endian */
	size_t pos;               /* octets absorbed into the current block */
} pgp__sha3;

typedef struct pgp_hash {
	uint8_t alg;
	union {
		mbedtls_md5_context md5;
		mbedtls_ripemd160_context rmd160;
		pgp__md md;
		pgp__sha3 sha3;
	} u;
} pgp_hash;

/* PGP_ERR_UNSUPPORTED for an unknown or unimplemented algorithm. */
pgp_err pgp_hash_init(pgp_hash *h, int alg);
void pgp_hash_update(pgp_hash *h, const void *p, size_t n);
/* Writes pgp_hash_len(alg) octets. The context is finished afterwards. */
void pgp_hash_final(pgp_hash *h, uint8_t out[PGP_HASH_MAX_LEN]);

/* Name of the implementation that alg uses now: "sha-ni", "avx2",
 * "armv8-ce", "portable" or "mbedtls"; "unknown" for an unknown alg. */
const char *pgp__hash_impl(int alg);

/* Tests only: nonzero forces the portable code paths (no SHA-NI, no
 * AVX2) for every context from then on; 0 restores run-time choice. */
void pgp__hash_force_portable(int on);

/* CPU features (cpu.c), computed once and cached. */
#define PGP__CPU_DETECTED 1u  /* always set: the cache is filled */
#define PGP__CPU_SHANI 2u     /* SHA extensions + SSSE3 + SSE4.1 */
#define PGP__CPU_AVX2 4u      /* AVX2 + BMI2, YMM state enabled by the OS */
#define PGP__CPU_PCLMUL 8u    /* PCLMULQDQ + SSE4.1 (crc32_x86.c) */
#define PGP__CPU_ARM_SHA2 16u /* Armv8 SHA1 and SHA2 (SHA-256) instructions */
#define PGP__CPU_ARM_SHA512 32u /* Armv8.2 SHA512 instructions */
unsigned pgp__cpu_features(void);

/* Compression functions: nblocks whole blocks at p into the state st. */
extern const uint64_t pgp__sha512_k[80]; /* FIPS 180-4 §4.2.3 */
void pgp__sha512_blocks_c(uint64_t st[8], const uint8_t *p, size_t nblocks);
#if defined(__aarch64__)
void pgp__sha1_blocks_ce(uint32_t st[5], const uint8_t *p, size_t nblocks);
void pgp__sha256_blocks_ce(uint32_t st[8], const uint8_t *p, size_t nblocks);
void pgp__sha512_blocks_ce(uint64_t st[8], const uint8_t *p, size_t nblocks);
#endif
#if defined(__x86_64__) || defined(__i386__)
void pgp__sha1_blocks_ni(uint32_t st[5], const uint8_t *p, size_t nblocks);
void pgp__sha256_blocks_ni(uint32_t st[8], const uint8_t *p, size_t nblocks);
void pgp__sha512_blocks_avx2(uint64_t st[8], const uint8_t *p, size_t nblocks);
#endif

/* SHA-3 (sha3.c): rate in octets (136 for SHA3-256, 72 for SHA3-512). */
void pgp__keccak_f1600(uint64_t a[25]);
void pgp__sha3_update(pgp__sha3 *s, size_t rate, const uint8_t *p, size_t n);
void pgp__sha3_final(pgp__sha3 *s, size_t rate, uint8_t *out, size_t outlen);

#endif
