/*
 * pk_rsa.c - RSA PKCS#1 v1.5 signature verification (RFC 9580 §5.2.3.1,
 * RFC 8017 §8.2.2) via mbedtls 2.28.
 *
 * The signature MPI is left-padded to the modulus length k (OpenPGP MPIs drop
 * leading zero octets, RFC 9580 §3.2), then mbedtls recomputes
 *   EM = 00 01 FF..FF 00 || DigestInfo(hash OID, digest)
 * and compares it with s^e mod n. The padding is never parsed here.
 */
#include <string.h>
#include <mbedtls/bignum.h>
#include <mbedtls/md.h>
#include <mbedtls/rsa.h>
#include "pk_int.h"
#include "hash.h"

#define RSA_MAX_BYTES (MBEDTLS_MPI_MAX_BITS / 8)

/* OpenPGP hash ID (RFC 9580 §9.5) -> mbedtls md type; MBEDTLS_MD_NONE if
 * mbedtls 2.28 has no DigestInfo OID for it (SHA3). */
static mbedtls_md_type_t
md_type(int hash_alg)
{
	switch (hash_alg) {
	case PGP_HASH_MD5: return MBEDTLS_MD_MD5;
	case PGP_HASH_SHA1: return MBEDTLS_MD_SHA1;
	case PGP_HASH_RIPEMD160: return MBEDTLS_MD_RIPEMD160;
	case PGP_HASH_SHA224: return MBEDTLS_MD_SHA224;
	case PGP_HASH_SHA256: return MBEDTLS_MD_SHA256;
	case PGP_HASH_SHA384: return MBEDTLS_MD_SHA384;
	case PGP_HASH_SHA512: return MBEDTLS_MD_SHA512;
	default: return MBEDTLS_MD_NONE;
	}
}

/* 1 if the big-endian magnitude v is odd (so nonzero). */
static int
is_odd(pgp_view v)
{
	return v.len > 0 && (v.p[v.len - 1] & 1) != 0;
}

/* Big-endian comparison of two trimmed magnitudes. */
static int
cmp_mag(pgp_view a, pgp_view b)
{
	if (a.len != b.len)
		return a.len < b.len ? -1 : 1;
	return a.len ? memcmp(a.p, b.p, a.len) : 0;
}

/* Structural checks of n, e shared by verify and check_key. */
static pgp_err
check_ne(const pgp_key *key, pgp_view *n, pgp_view *e, int strict, pgp_diag *diag)
{
	static const uint8_t one[1] = { 1 };
	pgp_view v1 = { one, 1 };

	if (key->nmpi < 2)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA key lacks n or e");
	*n = pgp__pk_mpi_trim(&key->mpi[0]);
	*e = pgp__pk_mpi_trim(&key->mpi[1]);
	if (n->len > RSA_MAX_BYTES)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "RSA modulus larger than 8192 bits not supported");
	if (!is_odd(*n))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA modulus n is even");
	if (!is_odd(*e) || cmp_mag(*e, v1) <= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "RSA exponent e must be odd and greater than 1");
	if (cmp_mag(*e, *n) >= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA exponent e >= n");
	if (strict && pgp__pk_mpi_bits(&key->mpi[0]) < 512)
		return pgp__pk_fail(diag, PGP_ERR_POLICY, "RSA modulus shorter than 512 bits");
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_rsa_check(const pgp_key *key, int strict, pgp_diag *diag)
{
	pgp_view n, e;

	return check_ne(key, &n, &e, strict, diag);
}

/* see pk_int.h */
pgp_err
pgp__pk_rsa_verify(const pgp_key *key, const pgp_sig *sig, int hash_alg,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	mbedtls_rsa_context ctx;
	mbedtls_md_type_t md;
	uint8_t buf[RSA_MAX_BYTES];
	pgp_view n, e, s;
	size_t k;
	pgp_err err;
	int rc;

	mbedtls_rsa_init(&ctx, MBEDTLS_RSA_PKCS_V15, 0);
	if ((err = check_ne(key, &n, &e, 0, diag)) != PGP_OK)
		goto out;
	md = md_type(hash_alg);
	if (md == MBEDTLS_MD_NONE) {
		err = pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "hash algorithm not supported with RSA");
		goto out;
	}
	if (sig->nmpi < 1) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature lacks its MPI");
		goto out;
	}
	if (mbedtls_rsa_import_raw(&ctx, n.p, n.len, NULL, 0, NULL, 0, NULL, 0,
	    e.p, e.len) != 0 || mbedtls_rsa_complete(&ctx) != 0 ||
	    mbedtls_rsa_check_pubkey(&ctx) != 0) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA public key rejected");
		goto out;
	}
	k = mbedtls_rsa_get_len(&ctx);

	/* RFC 9580 §5.2.3.1: the MPI of m^d mod n, so 1 <= s < n. A shorter MPI
	 * is an "improbably short" value and is left-padded to k octets. */
	s = pgp__pk_mpi_trim(&sig->mpi[0]);
	if (s.len == 0) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature is zero");
		goto out;
	}
	if (s.len > k || k > sizeof buf) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "RSA signature longer than the modulus");
		goto out;
	}
	if (cmp_mag(s, n) >= 0) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature >= modulus");
		goto out;
	}
	memset(buf, 0, k - s.len);
	memcpy(buf + (k - s.len), s.p, s.len);

	rc = mbedtls_rsa_rsassa_pkcs1_v15_verify(&ctx, NULL, NULL, MBEDTLS_RSA_PUBLIC,
	    md, (unsigned int)digest_len, digest, buf);
	if (rc == 0)
		err = PGP_OK;
	else if (rc == MBEDTLS_ERR_MPI_ALLOC_FAILED ||
	    rc == (MBEDTLS_ERR_RSA_PUBLIC_FAILED + MBEDTLS_ERR_MPI_ALLOC_FAILED))
		err = pgp__pk_fail(diag, PGP_ERR_NOMEM, "out of memory in RSA verify");
	else
		err = pgp__pk_fail(diag, PGP_ERR_BAD_SIG, "RSA signature does not verify");
out:
	mbedtls_rsa_free(&ctx);
	return err;
}
