/*
 * pk_eddsa.c - Ed25519 signature verification via libsodium: EdDSALegacy
 * (algorithm 22, curve OID 1.3.6.1.4.1.11591.15.1; RFC 9580 §5.2.3.3, §5.5.5.5)
 * and Ed25519 (algorithm 27; RFC 9580 §5.2.3.4, §5.5.5.9).
 *
 * EdDSALegacy public key: MPI of 0x40 || A (32 octets, "native" prefix,
 * RFC 9580 §11.2.2). Signature: two MPIs holding the native octet strings R
 * and S, each up to 32 octets; an MPI drops leading zero octets, so each is
 * left-padded back to 32 octets. Ed25519: native 32-octet key and 64-octet
 * R || S signature.
 *
 * In both cases the message given to pure Ed25519 (RFC 8032 §5.1.7) is the
 * OpenPGP digest itself (RFC 9580 §5.2.4), not the data.
 */
#include <string.h>
#include <sodium.h>
#include "pk_int.h"

#define ED_PK 32
#define ED_SIG 64

/* The 32-octet public key A, or MALFORMED/UNSUPPORTED. */
static pgp_err
public_key(const pgp_key *key, const uint8_t **a, pgp_diag *diag)
{
	pgp_view pt;

	if (key->algo == PGP_PK_ED25519) {
		if (key->native.len != ED_PK)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "Ed25519 public key is not 32 octets");
		*a = key->native.p;
		return PGP_OK;
	}
	switch (key->curve) {
	case PGP_CURVE_ED25519:
		break;
	case PGP_CURVE_ED448:
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "Ed448 not supported");
	case PGP_CURVE_NONE:
	case PGP_CURVE_UNKNOWN:
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "EdDSA curve not supported");
	default:
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "curve not usable with EdDSA");
	}
	if (key->nmpi < 1)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "EdDSA key lacks its point");
	pt = pgp__pk_mpi_trim(&key->mpi[0]);
	if (pt.len != 1 + ED_PK || pt.p[0] != 0x40)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "EdDSA point is not 0x40 || 32 octets");
	*a = pt.p + 1;
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_eddsa_check(const pgp_key *key, pgp_diag *diag)
{
	const uint8_t *a = NULL;
	pgp_err err;

	if ((err = public_key(key, &a, diag)) != PGP_OK)
		return err;
	if (sodium_init() < 0)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "libsodium failed to initialise");
	/* Canonical, on the curve, in the prime-order subgroup, not small order. */
	if (!crypto_core_ed25519_is_valid_point(a))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "Ed25519 public key is not a valid point");
	return PGP_OK;
}

/* Left-pad a little-endian native string carried in an MPI to 32 octets. */
static pgp_err
unpad(uint8_t out[32], const pgp_mpi *m, pgp_diag *diag)
{
	pgp_view v = pgp__pk_mpi_trim(m);

	if (v.len > 32)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "EdDSA R or S longer than 32 octets");
	memset(out, 0, 32 - v.len);
	if (v.len)
		memcpy(out + (32 - v.len), v.p, v.len);
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_eddsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	uint8_t rs[ED_SIG];
	const uint8_t *a = NULL;
	pgp_err err;

	if ((err = public_key(key, &a, diag)) != PGP_OK)
		return err;
	if (sig->version == 3)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "v3 signature with EdDSA (RFC 9580 §5.2.3.3, §5.2.3.4)");
	if (key->algo == PGP_PK_ED25519) {
		/* RFC 9580 §5.2.3.4: an Ed25519 signature MUST use a hash with
		 * a digest of at least 256 bits; anything shorter is refused
		 * before the math. EdDSALegacy keeps the old rules (the policy
		 * layer judges its hash). */
		if (digest_len < 32)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "Ed25519 requires a digest of at least 256 bits (RFC 9580 §5.2.3.4)");
		if (sig->native.len != ED_SIG)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "Ed25519 signature is not 64 octets");
		memcpy(rs, sig->native.p, ED_SIG);
	} else {
		/* RFC 9580 §5.2.3.3: Ed25519Legacy MUST NOT be used in v6 signatures. */
		if (sig->version >= 6)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "EdDSALegacy in a v6 signature (RFC 9580 §5.2.3.3)");
		if (sig->nmpi < 2)
			return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
			    "EdDSA signature lacks R or S");
		if ((err = unpad(rs, &sig->mpi[0], diag)) != PGP_OK ||
		    (err = unpad(rs + 32, &sig->mpi[1], diag)) != PGP_OK)
			return err;
	}
	/* Idempotent and thread-safe; needed before any libsodium call. */
	if (sodium_init() < 0)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED, "libsodium failed to initialise");
	if (crypto_sign_verify_detached(rs, digest, (unsigned long long)digest_len, a) != 0)
		return pgp__pk_fail(diag, PGP_ERR_BAD_SIG, "Ed25519 signature does not verify");
	return PGP_OK;
}
