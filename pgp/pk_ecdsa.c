/*
 * pk_ecdsa.c - ECDSA signature verification (RFC 9580 §5.2.3.2) via
 * mbedtls_ecp / mbedtls_ecdsa, for NIST P-256/P-384/P-521,
 * brainpoolP256r1/P384r1/P512r1 (RFC 9580 §9.2) and secp256k1.
 *
 * The public key is an MPI holding an uncompressed SEC1 point (RFC 9580
 * §11.2.1):  04 || x || y, with x and y each ceil(bitlen(p)/8) octets.
 * mbedtls_ecdsa_verify truncates the digest to the bit length of the group
 * order itself (SEC1 §4.1.4 step 3; derive_mpi in ecdsa.c).
 */
#include <mbedtls/bignum.h>
#include <mbedtls/ecdsa.h>
#include <mbedtls/ecp.h>
#include "pk_int.h"

/* pgp_curve -> mbedtls group; NONE with *err set if not usable. */
static mbedtls_ecp_group_id
group_id(pgp_curve c, pgp_err *err, pgp_diag *diag)
{
	*err = PGP_OK;
	switch (c) {
	case PGP_CURVE_P256: return MBEDTLS_ECP_DP_SECP256R1;
	case PGP_CURVE_P384: return MBEDTLS_ECP_DP_SECP384R1;
	case PGP_CURVE_P521: return MBEDTLS_ECP_DP_SECP521R1;
	case PGP_CURVE_BP256: return MBEDTLS_ECP_DP_BP256R1;
	case PGP_CURVE_BP384: return MBEDTLS_ECP_DP_BP384R1;
	case PGP_CURVE_BP512: return MBEDTLS_ECP_DP_BP512R1;
	case PGP_CURVE_SECP256K1: return MBEDTLS_ECP_DP_SECP256K1;
	case PGP_CURVE_ED25519:
	case PGP_CURVE_CV25519:
	case PGP_CURVE_ED448:
	case PGP_CURVE_X448:
		*err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "curve not usable with ECDSA");
		return MBEDTLS_ECP_DP_NONE;
	default:
		*err = pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "ECDSA curve not supported");
		return MBEDTLS_ECP_DP_NONE;
	}
}

/* Load the group and the public point Q, checking that Q is on the curve. */
static pgp_err
load_key(mbedtls_ecp_group *grp, mbedtls_ecp_point *q, const pgp_key *key,
    pgp_diag *diag)
{
	mbedtls_ecp_group_id id;
	pgp_view pt;
	size_t plen;
	pgp_err err;
	int rc;

	id = group_id(key->curve, &err, diag);
	if (err != PGP_OK)
		return err;
	rc = mbedtls_ecp_group_load(grp, id);
	if (rc == MBEDTLS_ERR_ECP_ALLOC_FAILED || rc == MBEDTLS_ERR_MPI_ALLOC_FAILED)
		return pgp__pk_fail(diag, PGP_ERR_NOMEM, "out of memory loading the curve");
	if (rc != 0)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "ECDSA curve not supported");
	if (key->nmpi < 1)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "ECDSA key lacks its point");
	pt = pgp__pk_mpi_trim(&key->mpi[0]);
	plen = (grp->pbits + 7) / 8;
	if (pt.len == 0 || pt.p[0] != 0x04)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "EC point is not uncompressed (0x04 prefix)");
	if (pt.len != 1 + 2 * plen)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "EC point length does not match the curve");
	if (mbedtls_ecp_point_read_binary(grp, q, pt.p, pt.len) != 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "EC point rejected");
	if (mbedtls_ecp_check_pubkey(grp, q) != 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "EC point not on the curve");
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_ecdsa_check(const pgp_key *key, pgp_diag *diag)
{
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	pgp_err err;

	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	err = load_key(&grp, &q, key, diag);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return err;
}

/* Read an r or s MPI and check 1 <= x <= n-1 (SEC1 §4.1.4 step 1). */
static pgp_err
read_scalar(mbedtls_mpi *x, const pgp_mpi *m, const mbedtls_ecp_group *grp,
    pgp_diag *diag)
{
	pgp_view v = pgp__pk_mpi_trim(m);
	int rc;

	if (v.len == 0 || v.len > mbedtls_mpi_size(&grp->N))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "ECDSA r or s not in [1, n-1]");
	rc = mbedtls_mpi_read_binary(x, v.p, v.len);
	if (rc != 0)
		return pgp__pk_fail(diag, PGP_ERR_NOMEM, "out of memory reading r or s");
	if (mbedtls_mpi_cmp_int(x, 1) < 0 || mbedtls_mpi_cmp_mpi(x, &grp->N) >= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "ECDSA r or s not in [1, n-1]");
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_ecdsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	mbedtls_ecp_group grp;
	mbedtls_ecp_point q;
	mbedtls_mpi r, s;
	pgp_err err;
	int rc;

	mbedtls_ecp_group_init(&grp);
	mbedtls_ecp_point_init(&q);
	mbedtls_mpi_init(&r);
	mbedtls_mpi_init(&s);

	if ((err = load_key(&grp, &q, key, diag)) != PGP_OK)
		goto out;
	if (sig->nmpi < 2) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "ECDSA signature lacks r or s");
		goto out;
	}
	if ((err = read_scalar(&r, &sig->mpi[0], &grp, diag)) != PGP_OK ||
	    (err = read_scalar(&s, &sig->mpi[1], &grp, diag)) != PGP_OK)
		goto out;

	rc = mbedtls_ecdsa_verify(&grp, digest, digest_len, &q, &r, &s);
	if (rc == 0)
		err = PGP_OK;
	else if (rc == MBEDTLS_ERR_ECP_ALLOC_FAILED || rc == MBEDTLS_ERR_MPI_ALLOC_FAILED)
		err = pgp__pk_fail(diag, PGP_ERR_NOMEM, "out of memory in ECDSA verify");
	else
		err = pgp__pk_fail(diag, PGP_ERR_BAD_SIG, "ECDSA signature does not verify");
out:
	mbedtls_mpi_free(&s);
	mbedtls_mpi_free(&r);
	mbedtls_ecp_point_free(&q);
	mbedtls_ecp_group_free(&grp);
	return err;
}
