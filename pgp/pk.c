/*
 * pk.c - dispatch of public-key signature verification by algorithm ID
 * (RFC 9580 §9.1); the per-algorithm math lives in pk_rsa.c, pk_dsa.c,
 * pk_ecdsa.c and pk_eddsa.c.
 */
#include "pk.h"
#include "hash.h"
#include "pk_int.h"

/* The RSA family: 1 (encrypt or sign), 2 (encrypt-only) and 3 (sign-only)
 * share key material. */
static int
is_rsa(int algo)
{
	return algo == PGP_PK_RSA || algo == PGP_PK_RSA_E || algo == PGP_PK_RSA_S;
}

/* RSA algorithm IDs that can sign (RFC 9580 §9.1: 2 is encrypt-only). */
static int
is_rsa_signing(int algo)
{
	return algo == PGP_PK_RSA || algo == PGP_PK_RSA_S;
}

/*
 * Algorithms we do not verify: UNUSABLE for those that cannot sign at all,
 * UNSUPPORTED for signature algorithms we do not implement; PGP_OK if algo
 * is one pgp_pk_verify implements.
 */
static pgp_err
algo_usable(int algo, pgp_diag *diag)
{
	switch (algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_S:
	case PGP_PK_DSA:
	case PGP_PK_ECDSA:
	case PGP_PK_EDDSA_LEGACY:
	case PGP_PK_ED25519:
		return PGP_OK;
	case PGP_PK_RSA_E:
		return pgp__pk_fail(diag, PGP_ERR_UNUSABLE,
		    "RSA encrypt-only key cannot sign (RFC 9580 §9.1)");
	case PGP_PK_ECDH:
	case PGP_PK_X25519:
	case PGP_PK_X448:
		return pgp__pk_fail(diag, PGP_ERR_UNUSABLE,
		    "encryption-only algorithm cannot sign");
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "ElGamal signatures not supported");
	case PGP_PK_ED448:
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "Ed448 not supported");
	default:
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "unknown public-key algorithm");
	}
}

/* see pk.h */
int
pgp_pk_can_sign(int algo)
{
	return algo_usable(algo, NULL) == PGP_OK;
}

/* see pk.h */
pgp_err
pgp_pk_check_key(const pgp_key *key, pgp_diag *diag)
{
	pgp_err e;

	if (key == NULL)
		return pgp__pk_fail(diag, PGP_ERR_INVALID, "no key");
	if (key->opaque)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "key algorithm or version not supported");
	if ((e = algo_usable(key->algo, diag)) != PGP_OK)
		return e;
	switch (key->algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_S:
		return pgp__pk_rsa_check(key, 1, diag);
	case PGP_PK_DSA:
		return pgp__pk_dsa_check(key, 1, diag);
	case PGP_PK_ECDSA:
		return pgp__pk_ecdsa_check(key, diag);
	default: /* EdDSALegacy, Ed25519 */
		return pgp__pk_eddsa_check(key, diag);
	}
}

/* see pk.h */
pgp_err
pgp_pk_verify(const pgp_key *key, const pgp_sig *sig, int hash_alg,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	pgp_err e;
	size_t want;

	if (key == NULL || sig == NULL || digest == NULL)
		return pgp__pk_fail(diag, PGP_ERR_INVALID, "no key, signature or digest");
	if (key->opaque)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "key algorithm or version not supported");
	if ((e = algo_usable(key->algo, diag)) != PGP_OK)
		return e;
	if (sig->opaque)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "signature version not supported");
	/* A signature claiming another algorithm was not made by this key;
	 * RSA 1 and 3 are one key type. A signature claiming RSA Encrypt-Only
	 * (2) is no signature (vectors/interop sig-algo-rsa-encrypt-only). */
	if (sig->pk_algo != key->algo && !(is_rsa_signing(sig->pk_algo) && is_rsa(key->algo)))
		return pgp__pk_fail(diag, PGP_ERR_BAD_SIG,
		    "signature algorithm does not match the key");
	/* SHA3 lengths are known too; RSA refuses SHA3 later (pk_rsa.c). */
	want = pgp_hash_len(hash_alg);
	if (want == 0)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "unknown hash algorithm");
	if (digest_len != want)
		return pgp__pk_fail(diag, PGP_ERR_INVALID,
		    "digest length does not match the hash algorithm");

	switch (key->algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_S:
		return pgp__pk_rsa_verify(key, sig, hash_alg, digest, digest_len, diag);
	case PGP_PK_DSA:
		return pgp__pk_dsa_verify(key, sig, digest, digest_len, diag);
	case PGP_PK_ECDSA:
		/* RFC 9580 §5.2.3.2: v3 signatures MUST NOT be used with ECDSA. */
		if (sig->version == 3)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "v3 signature with ECDSA (RFC 9580 §5.2.3.2)");
		return pgp__pk_ecdsa_verify(key, sig, digest, digest_len, diag);
	default: /* EdDSALegacy, Ed25519 */
		return pgp__pk_eddsa_verify(key, sig, digest, digest_len, diag);
	}
}
