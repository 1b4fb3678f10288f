/* hash.c - digest dispatch by OpenPGP hash ID (RFC 9580 §9.5). see hash.h */
#include <string.h>
#include "hash.h"

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

/* see hash.h */
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
	case PGP_HASH_SHA1:
		mbedtls_sha1_init(&h->u.sha1);
		mbedtls_sha1_starts_ret(&h->u.sha1);
		return PGP_OK;
	case PGP_HASH_RIPEMD160:
		mbedtls_ripemd160_init(&h->u.rmd160);
		mbedtls_ripemd160_starts_ret(&h->u.rmd160);
		return PGP_OK;
	case PGP_HASH_SHA256:
	case PGP_HASH_SHA224:
		mbedtls_sha256_init(&h->u.sha256);
		mbedtls_sha256_starts_ret(&h->u.sha256, alg == PGP_HASH_SHA224);
		return PGP_OK;
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512:
		mbedtls_sha512_init(&h->u.sha512);
		mbedtls_sha512_starts_ret(&h->u.sha512, alg == PGP_HASH_SHA384);
		return PGP_OK;
	default:
		h->alg = 0;
		return PGP_ERR_UNSUPPORTED;
	}
}

/* see hash.h */
void
pgp_hash_update(pgp_hash *h, const void *p, size_t n)
{
	const unsigned char *b = p;
	if (n == 0)
		return;
	switch (h->alg) {
	case PGP_HASH_MD5: mbedtls_md5_update_ret(&h->u.md5, b, n); break;
	case PGP_HASH_SHA1: mbedtls_sha1_update_ret(&h->u.sha1, b, n); break;
	case PGP_HASH_RIPEMD160: mbedtls_ripemd160_update_ret(&h->u.rmd160, b, n); break;
	case PGP_HASH_SHA256:
	case PGP_HASH_SHA224: mbedtls_sha256_update_ret(&h->u.sha256, b, n); break;
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512: mbedtls_sha512_update_ret(&h->u.sha512, b, n); break;
	default: break;
	}
}

/* see hash.h */
void
pgp_hash_final(pgp_hash *h, uint8_t out[PGP_HASH_MAX_LEN])
{
	memset(out, 0, PGP_HASH_MAX_LEN);
	switch (h->alg) {
	case PGP_HASH_MD5: mbedtls_md5_finish_ret(&h->u.md5, out); break;
	case PGP_HASH_SHA1: mbedtls_sha1_finish_ret(&h->u.sha1, out); break;
	case PGP_HASH_RIPEMD160: mbedtls_ripemd160_finish_ret(&h->u.rmd160, out); break;
	case PGP_HASH_SHA256:
	case PGP_HASH_SHA224: mbedtls_sha256_finish_ret(&h->u.sha256, out); break;
	case PGP_HASH_SHA384:
	case PGP_HASH_SHA512: mbedtls_sha512_finish_ret(&h->u.sha512, out); break;
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
