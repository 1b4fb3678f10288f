/*
 * certify.c - signatures over certificate parts: the shared check core and
 * the public third-party certification check. see certify.h
 */
#include <string.h>
#include "certify.h"
#include "sighash_int.h"
#include "certify_int.h"

/* see certify_int.h */
int
pgp__issued_by(const pgp_sig *sig, const pgp_key *k)
{
	if (sig->issuer_fpr.len)
		return sig->issuer_fpr.len == k->fpr.len &&
		    memcmp(sig->issuer_fpr.v, k->fpr.v, k->fpr.len) == 0;
	if (sig->has_issuer)
		return memcmp(sig->issuer, k->keyid, 8) == 0;
	return 1;
}

static int
is_revocation(int type)
{
	return type == PGP_SIG_KEY_REVOCATION || type == PGP_SIG_SUBKEY_REVOCATION ||
	    type == PGP_SIG_CERT_REVOCATION;
}

/* see certify_int.h */
int
pgp__is_hard_revocation(const pgp_sig *sig)
{
	if (sig->type != PGP_SIG_KEY_REVOCATION && sig->type != PGP_SIG_SUBKEY_REVOCATION)
		return 0;
	if (!sig->has_revocation_reason || sig->dup_created)
		return 1;
	return !(sig->revocation_code == 1 || sig->revocation_code == 3);
}

/* see certify_int.h */
pgp_err
pgp__keysig_check(const pgp_key *primary, const pgp_sig *sig, pgp_sigon on,
    const void *comp, const pgp_key *signer, int64_t t, const pgp_policy *pol,
    pgp_hash_use use, const pgp_sigmemo *memo, const char **why)
{
	pgp_err e;
	const pgp_key *subject = on == PGP_SIGON_SUBKEY || on == PGP_SIGON_BACKSIG ?
	    (const pgp_key *)comp : primary;

	if (sig->unknown_critical) {
		*why = "signature has an unknown critical subpacket or notation";
		return PGP_ERR_UNSUPPORTED;
	}
	if (!sig->has_created) {
		*why = "signature has no creation time";
		return PGP_ERR_MALFORMED;
	}
	if ((int64_t)sig->created < (int64_t)subject->created) {
		*why = "signature is older than the key it binds";
		return PGP_ERR_MALFORMED;
	}
	if ((int64_t)sig->created > t && !pgp__is_hard_revocation(sig)) {
		*why = "signature was created after the reference time";
		return PGP_ERR_NOT_YET;
	}
	/*
	 * Revocations are honoured whatever their hash or age: a forged one
	 * can only make a key look revoked, never make a signature good, so
	 * refusing an old SHA-1 revocation would be the unsafe direction.
	 */
	if (!is_revocation(sig->type)) {
		if (sig->sig_expires && (int64_t)sig->created + sig->sig_expires <= t) {
			*why = "signature expired";
			return PGP_ERR_EXPIRED;
		}
		if ((e = pgp_policy_hash(pol, sig->hash_algo, use, t, why)) != PGP_OK)
			return e;
		if ((e = pgp_policy_key(pol, signer, t, why)) != PGP_OK)
			return e;
	}
	return pgp_keysig_math(primary, sig, on, comp, signer, memo, why);
}

/* see certify.h */
pgp_err
pgp_keysig_math(const pgp_key *primary, const pgp_sig *sig, pgp_sigon on,
    const void *comp, const pgp_key *signer, const pgp_sigmemo *memo, const char **why)
{
	pgp_hash h;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	const char *dummy = NULL;

	if (why == NULL)
		why = &dummy;
	if ((e = pgp__sighash_start(&h, sig)) != PGP_OK) {
		*why = "unsupported hash algorithm";
		return e;
	}
	/* RFC 9580 §5.2.4: the primary key, then the user ID or subkey */
	pgp__sighash_key(&h, sig, primary);
	if (on == PGP_SIGON_UID)
		pgp__sighash_uid(&h, sig, comp);
	else if (on == PGP_SIGON_SUBKEY || on == PGP_SIGON_BACKSIG)
		pgp__sighash_key(&h, sig, comp);
	if ((e = pgp__sighash_check(&h, sig, signer, memo, &d)) != PGP_OK)
		*why = d.what ? d.what : pgp_strerror(e);
	return e;
}

/* see certify.h */
pgp_err
pgp_certification_check(const pgp_cert *target, uint32_t uid_index,
    const pgp_sig *sig, const pgp_key *issuer, int64_t t, const pgp_policy *pol,
    const char **why)
{
	const char *dummy = NULL;

	if (why == NULL)
		why = &dummy;
	*why = NULL;
	if (!((sig->type >= PGP_SIG_CERT_GENERIC && sig->type <= PGP_SIG_CERT_POSITIVE) ||
	    sig->type == PGP_SIG_CERT_REVOCATION)) {
		*why = "not a certification (0x10-0x13) or certification revocation (0x30)";
		return PGP_ERR_INVALID;
	}
	if (uid_index >= target->nuids) {
		*why = "no such user ID";
		return PGP_ERR_INVALID;
	}
	if (!pgp__issued_by(sig, issuer)) {
		*why = "the certification names another issuer";
		return PGP_ERR_NO_KEY;
	}
	if (sig->has_created && (int64_t)sig->created < (int64_t)issuer->created) {
		*why = "certification is older than the issuing key";
		return PGP_ERR_MALFORMED;
	}
	return pgp__keysig_check(&target->primary, sig, PGP_SIGON_UID, &target->uids[uid_index],
	    issuer, t, pol, PGP_USE_COLLISION, NULL, why);
}
