/*
 * hash.h - message digests by OpenPGP hash algorithm ID (RFC 9580 §9.5).
 *
 * A pgp_hash is caller-allocated, fixed-size and copyable by assignment
 * (hash a common prefix once, copy, then add per-signature trailers).
 * SHA-1/SHA-256 use CPU extensions when present (chosen at run time);
 * mbedtls is the portable fallback.
 */
#ifndef PGP_HASH_H
#define PGP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include <mbedtls/md5.h>
#include <mbedtls/sha1.h>
#include <mbedtls/ripemd160.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>

/* RFC 9580 §9.5 hash algorithm IDs. */
enum {
	PGP_HASH_MD5 = 1,
	PGP_HASH_SHA1 = 2,
	PGP_HASH_RIPEMD160 = 3,
	PGP_HASH_SHA256 = 8,
	PGP_HASH_SHA384 = 9,
	PGP_HASH_SHA512 = 10,
	PGP_HASH_SHA224 = 11,
	PGP_HASH_SHA3_256 = 12,
	PGP_HASH_SHA3_512 = 14
};

#define PGP_HASH_MAX_LEN 64

typedef struct pgp_hash {
	uint8_t alg;
	union {
		mbedtls_md5_context md5;
		mbedtls_sha1_context sha1;
		mbedtls_ripemd160_context rmd160;
		mbedtls_sha256_context sha256;
		mbedtls_sha512_context sha512;
		uint64_t align_[64];
	} u;
} pgp_hash;

/* PGP_ERR_UNSUPPORTED for an unknown or unimplemented algorithm. */
pgp_err pgp_hash_init(pgp_hash *h, int alg);
void pgp_hash_update(pgp_hash *h, const void *p, size_t n);
/* Writes pgp_hash_len(alg) octets. The context is finished afterwards. */
void pgp_hash_final(pgp_hash *h, uint8_t out[PGP_HASH_MAX_LEN]);
/* Digest length in octets, 0 if unknown. */
size_t pgp_hash_len(int alg);
/* "SHA256", ...; "unknown" if unknown. */
const char *pgp_hash_name(int alg);
/* One-shot convenience. */
pgp_err pgp_hash_buf(int alg, const void *p, size_t n, uint8_t out[PGP_HASH_MAX_LEN]);

#endif
