/*
 * hash.h - OpenPGP hash algorithms by ID (RFC 9580 §9.5): their names,
 * digest lengths, and a one-shot digest.
 *
 * The streaming hash context (init/update/final) is internal (hash_int.h):
 * it embeds mbedtls state, so its layout is not part of the API, and no
 * public function takes or returns one. Callers of the library need only
 * the IDs, names and lengths below (and pgp_hash_buf for a whole buffer).
 */
#ifndef PGP_HASH_H
#define PGP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

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

/* Digest length in octets, 0 if unknown. */
size_t pgp_hash_len(int alg);
/* "SHA256", ...; "unknown" if unknown. */
const char *pgp_hash_name(int alg);
/* The algorithm whose RFC 9580 §9.5 text name ("SHA256", "SHA3-256", ...)
 * is exactly p[0..n) (case matters, as in armor Hash: headers); 0 if none. */
int pgp_hash_by_name(const char *p, size_t n);
/* One-shot digest of p[0..n): pgp_hash_len(alg) octets into out.
 * PGP_ERR_UNSUPPORTED for an unknown or unimplemented algorithm. */
pgp_err pgp_hash_buf(int alg, const void *p, size_t n, uint8_t out[PGP_HASH_MAX_LEN]);

#endif
