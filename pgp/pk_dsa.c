/*
 * pk_dsa.c - DSA signature verification (RFC 9580 §5.2.3.2, FIPS 186-4
 * §4.7) with mbedtls bignums.
 *
 *   reject unless 0 < r < q and 0 < s < q
 *   w  = s^-1 mod q
 *   z  = the leftmost min(N, outlen) bits of the digest, N = bitlen(q)
 *   u1 = z*w mod q,  u2 = r*w mod q
 *   v  = ((g^u1 * y^u2) mod p) mod q;  valid iff v == r
 */
#include <mbedtls/bignum.h>
#include "pk_int.h"

/* Any mbedtls failure after our own range checks: out of memory, or values
 * mbedtls refuses (which the checks should have caught). */
#define CHK(x) do { if ((rc = (x)) != 0) goto mpi_err; } while (0)

typedef struct dsa_key {
	mbedtls_mpi p, q, g, y;
} dsa_key;

static void
dsa_key_init(dsa_key *k)
{
	mbedtls_mpi_init(&k->p);
	mbedtls_mpi_init(&k->q);
	mbedtls_mpi_init(&k->g);
	mbedtls_mpi_init(&k->y);
}

static void
dsa_key_free(dsa_key *k)
{
	mbedtls_mpi_free(&k->p);
	mbedtls_mpi_free(&k->q);
	mbedtls_mpi_free(&k->g);
	mbedtls_mpi_free(&k->y);
}

static int
read_mpi(mbedtls_mpi *x, const pgp_mpi *m)
{
	pgp_view v = pgp__pk_mpi_trim(m);

	return mbedtls_mpi_read_binary(x, v.p, v.len);
}

/* 1 < x < p */
static int
in_group(const mbedtls_mpi *x, const mbedtls_mpi *p)
{
	return mbedtls_mpi_cmp_int(x, 1) > 0 && mbedtls_mpi_cmp_mpi(x, p) < 0;
}

/* Load and check p, q, g, y. strict adds the FIPS 186-4 §4.2 size rules. */
static pgp_err
load_key(dsa_key *k, const pgp_key *key, int strict, pgp_diag *diag)
{
	size_t qbits;
	int rc;

	if (key->nmpi < 4)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA key lacks p, q, g or y");
	if (pgp__pk_mpi_bits(&key->mpi[0]) > MBEDTLS_MPI_MAX_BITS)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "DSA prime p larger than 8192 bits not supported");
	CHK(read_mpi(&k->p, &key->mpi[0]));
	CHK(read_mpi(&k->q, &key->mpi[1]));
	CHK(read_mpi(&k->g, &key->mpi[2]));
	CHK(read_mpi(&k->y, &key->mpi[3]));
	if (mbedtls_mpi_get_bit(&k->p, 0) == 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA prime p is even");
	if (mbedtls_mpi_cmp_int(&k->q, 1) <= 0 || mbedtls_mpi_cmp_mpi(&k->q, &k->p) >= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA q not in [2, p-1]");
	if (!in_group(&k->g, &k->p))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA g not in [2, p-1]");
	if (!in_group(&k->y, &k->p))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA y not in [2, p-1]");
	/*
	 * g and y must lie in the order-q subgroup (FIPS 186-4 §A.2.2 / SP
	 * 800-89): with g or y of small order (g = p-1, order 2) anyone can
	 * make signatures that verify, without the secret key.
	 */
	{
		mbedtls_mpi t;
		int ok;
		mbedtls_mpi_init(&t);
		rc = mbedtls_mpi_exp_mod(&t, &k->g, &k->q, &k->p, NULL);
		ok = rc == 0 && mbedtls_mpi_cmp_int(&t, 1) == 0;
		if (ok) {
			rc = mbedtls_mpi_exp_mod(&t, &k->y, &k->q, &k->p, NULL);
			ok = rc == 0 && mbedtls_mpi_cmp_int(&t, 1) == 0;
		}
		mbedtls_mpi_free(&t);
		if (rc != 0)
			goto mpi_err;
		if (!ok)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "DSA g or y is not in the subgroup of order q");
	}
	if (strict) {
		qbits = mbedtls_mpi_bitlen(&k->q);
		if (qbits != 160 && qbits != 224 && qbits != 256)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "DSA q must be 160, 224 or 256 bits (FIPS 186-4 §4.2)");
		if (mbedtls_mpi_bitlen(&k->p) < 512)
			return pgp__pk_fail(diag, PGP_ERR_POLICY, "DSA prime p shorter than 512 bits");
	}
	return PGP_OK;
mpi_err:
	return pgp__pk_fail(diag, rc == MBEDTLS_ERR_MPI_ALLOC_FAILED ?
	    PGP_ERR_NOMEM : PGP_ERR_MALFORMED, "DSA key values rejected");
}

/* see pk_int.h */
pgp_err
pgp__pk_dsa_check(const pgp_key *key, int strict, pgp_diag *diag)
{
	dsa_key k;
	pgp_err err;

	dsa_key_init(&k);
	err = load_key(&k, key, strict, diag);
	dsa_key_free(&k);
	return err;
}

/* see pk_int.h */
pgp_err
pgp__pk_dsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	dsa_key k;
	mbedtls_mpi r, s, w, z, u1, u2, v, t, rr;
	size_t qbits, qbytes, use;
	pgp_err err;
	int rc;

	dsa_key_init(&k);
	mbedtls_mpi_init(&r);
	mbedtls_mpi_init(&s);
	mbedtls_mpi_init(&w);
	mbedtls_mpi_init(&z);
	mbedtls_mpi_init(&u1);
	mbedtls_mpi_init(&u2);
	mbedtls_mpi_init(&v);
	mbedtls_mpi_init(&t);
	mbedtls_mpi_init(&rr);

	if ((err = load_key(&k, key, 0, diag)) != PGP_OK)
		goto out;
	if (sig->nmpi < 2) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA signature lacks r or s");
		goto out;
	}
	/* r and s are at most as long as q; longer MPIs are out of range anyway
	 * and need not be read. */
	if (pgp__pk_mpi_trim(&sig->mpi[0]).len > mbedtls_mpi_size(&k.q) ||
	    pgp__pk_mpi_trim(&sig->mpi[1]).len > mbedtls_mpi_size(&k.q)) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA r or s not in [1, q-1]");
		goto out;
	}
	CHK(read_mpi(&r, &sig->mpi[0]));
	CHK(read_mpi(&s, &sig->mpi[1]));
	/* FIPS 186-4 §4.7: 0 < r < q and 0 < s < q. */
	if (mbedtls_mpi_cmp_int(&r, 0) <= 0 || mbedtls_mpi_cmp_mpi(&r, &k.q) >= 0 ||
	    mbedtls_mpi_cmp_int(&s, 0) <= 0 || mbedtls_mpi_cmp_mpi(&s, &k.q) >= 0) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA r or s not in [1, q-1]");
		goto out;
	}
	rc = mbedtls_mpi_inv_mod(&w, &s, &k.q);
	if (rc == MBEDTLS_ERR_MPI_NOT_ACCEPTABLE) {
		err = pgp__pk_fail(diag, PGP_ERR_MALFORMED, "DSA s not invertible mod q");
		goto out;
	}
	CHK(rc);

	/* RFC 9580 §5.2.3.2: a digest longer than q is truncated to its leftmost
	 * bitlen(q) bits. */
	qbits = mbedtls_mpi_bitlen(&k.q);
	qbytes = (qbits + 7) / 8;
	use = digest_len < qbytes ? digest_len : qbytes;
	CHK(mbedtls_mpi_read_binary(&z, digest, use));
	if (use * 8 > qbits)
		CHK(mbedtls_mpi_shift_r(&z, use * 8 - qbits));

	CHK(mbedtls_mpi_mul_mpi(&t, &z, &w));
	CHK(mbedtls_mpi_mod_mpi(&u1, &t, &k.q));
	CHK(mbedtls_mpi_mul_mpi(&t, &r, &w));
	CHK(mbedtls_mpi_mod_mpi(&u2, &t, &k.q));
	CHK(mbedtls_mpi_exp_mod(&v, &k.g, &u1, &k.p, &rr));
	CHK(mbedtls_mpi_exp_mod(&w, &k.y, &u2, &k.p, &rr));
	CHK(mbedtls_mpi_mul_mpi(&t, &v, &w));
	CHK(mbedtls_mpi_mod_mpi(&v, &t, &k.p));
	CHK(mbedtls_mpi_mod_mpi(&t, &v, &k.q));

	if (mbedtls_mpi_cmp_mpi(&t, &r) == 0)
		err = PGP_OK;
	else
		err = pgp__pk_fail(diag, PGP_ERR_BAD_SIG, "DSA signature does not verify");
	goto out;
mpi_err:
	err = pgp__pk_fail(diag, rc == MBEDTLS_ERR_MPI_ALLOC_FAILED ?
	    PGP_ERR_NOMEM : PGP_ERR_MALFORMED, "DSA arithmetic rejected the values");
out:
	mbedtls_mpi_free(&rr);
	mbedtls_mpi_free(&t);
	mbedtls_mpi_free(&v);
	mbedtls_mpi_free(&u2);
	mbedtls_mpi_free(&u1);
	mbedtls_mpi_free(&z);
	mbedtls_mpi_free(&w);
	mbedtls_mpi_free(&s);
	mbedtls_mpi_free(&r);
	dsa_key_free(&k);
	return err;
}
