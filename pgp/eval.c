/*
 * eval.c - certificate evaluation at a reference time. see eval.h
 *
 * A self-signature counts when it parses, is issued by the primary key, has
 * no unknown critical subpacket (§5.2.3.7), has a creation time not before
 * the key's and not after t, has not expired at t, passes the policy for
 * self-signatures (second-preimage resistance) and verifies. Of the valid
 * bindings of a component, the newest is in force.
 */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "sighash.h"
#include "pk.h"

enum comp_kind { ON_DIRECT, ON_UID, ON_SUBKEY, ON_BACKSIG };

static int
issued_by(const pgp_sig *sig, const pgp_key *k)
{
	if (sig->issuer_fpr.len)
		return sig->issuer_fpr.len == k->fpr.len &&
		    memcmp(sig->issuer_fpr.v, k->fpr.v, k->fpr.len) == 0;
	if (sig->has_issuer)
		return memcmp(sig->issuer, k->keyid, 8) == 0;
	return 1; /* no issuer at all: can only be checked against this key */
}

static int
is_revocation(int type)
{
	return type == PGP_SIG_KEY_REVOCATION || type == PGP_SIG_SUBKEY_REVOCATION ||
	    type == PGP_SIG_CERT_REVOCATION;
}

/* Checks one signature of `kind` made by `signer` over the component. */
static pgp_err
check_sig(const pgp_cert *c, const pgp_sig *sig, enum comp_kind kind, const void *comp,
    const pgp_key *signer, int64_t t, const pgp_policy *pol, pgp_hash_use use,
    const char **why)
{
	pgp_hash h;
	pgp_err e;
	const pgp_key *subject = kind == ON_SUBKEY || kind == ON_BACKSIG ? comp : &c->primary;

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
	if ((int64_t)sig->created > t) {
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
	if ((e = pgp__sighash_start(&h, sig)) != PGP_OK) {
		*why = "unsupported hash algorithm";
		return e;
	}
	pgp__sighash_key(&h, sig, &c->primary);
	if (kind == ON_UID)
		pgp__sighash_uid(&h, sig, comp);
	else if (kind == ON_SUBKEY || kind == ON_BACKSIG)
		pgp__sighash_key(&h, sig, comp);
	{
		pgp_diag d = {0, -1, NULL};
		e = pgp__sighash_check(&h, sig, signer, &d);
		if (e != PGP_OK)
			*why = d.what ? d.what : pgp_strerror(e);
	}
	return e;
}

/*
 * A component whose bindings all fail is "unusable" (the reason says which
 * check failed: a forged or malformed binding is not a bad *document*
 * signature); only a policy refusal is reported as such, so that
 * "SHA-1 self-signatures" stays visible all the way to the verdict.
 */
static pgp_err
unbound_status(pgp_err last_err)
{
	return last_err == PGP_ERR_POLICY ? PGP_ERR_POLICY : PGP_ERR_UNUSABLE;
}

static uint8_t
infer_flags(const pgp_key *k)
{
	return (uint8_t)(pgp_pk_can_sign(k->algo) ? PGP_KF_CERTIFY | PGP_KF_SIGN : 0);
}

/* §5.2.3.31: "key superseded" (1) and "key retired" (3) are soft. */
static int
is_hard_revocation(const pgp_sig *sig)
{
	if (!sig->has_revocation_reason)
		return 1;
	return !(sig->revocation_code == 1 || sig->revocation_code == 3);
}

static void
apply_revocation(pgp_keystate *ks, const pgp_sig *sig)
{
	uint8_t level = (uint8_t)(is_hard_revocation(sig) ? 2 : 1);
	if (level > ks->revoked || (level == ks->revoked && (int64_t)sig->created < ks->revoked_at)) {
		ks->revoked = level;
		ks->revoked_at = sig->created;
	}
}

/*
 * RFC 9580 §10.1 puts a revocation right after what it revokes. One found
 * elsewhere in the certificate (reordered or merged keyrings) is honoured
 * too: a revocation can only make things less valid, never a signature
 * good. Calls back with every valid revocation of `type` over `comp`
 * outside the list `own` (which the caller has scanned in place).
 */
typedef void (*revoke_fn)(void *ctx, const pgp_sig *sig);

static void
scan_list_for(const pgp_cert *c, const pgp_rd *list, uint32_t n, uint8_t type,
    enum comp_kind kind, const void *comp, int64_t t, const pgp_policy *pol,
    revoke_fn fn, void *ctx)
{
	uint32_t i;
	for (i = 0; i < n; i++) {
		pgp_sig sig;
		const char *why = NULL;
		if (pgp_sig_parse(&sig, &list[i], NULL) != PGP_OK || sig.type != type ||
		    !issued_by(&sig, &c->primary))
			continue;
		if (check_sig(c, &sig, kind, comp, &c->primary, t, pol,
		    PGP_USE_SECOND_PREIMAGE, &why) == PGP_OK)
			fn(ctx, &sig);
	}
}

static void
misplaced_revocations(const pgp_cert *c, const pgp_rd *own, uint8_t type, enum comp_kind kind,
    const void *comp, int64_t t, const pgp_policy *pol, revoke_fn fn, void *ctx)
{
	uint32_t i;
	if (c->dsigs != own)
		scan_list_for(c, c->dsigs, c->ndsigs, type, kind, comp, t, pol, fn, ctx);
	for (i = 0; i < c->nuids; i++)
		if (c->uids[i].sigs != own)
			scan_list_for(c, c->uids[i].sigs, c->uids[i].nsigs, type, kind, comp, t, pol, fn, ctx);
	for (i = 0; i < c->nsubs; i++)
		if (c->subs[i].sigs != own)
			scan_list_for(c, c->subs[i].sigs, c->subs[i].nsigs, type, kind, comp, t, pol, fn, ctx);
	if (c->nloose)
		scan_list_for(c, c->loose, c->nloose, type, kind, comp, t, pol, fn, ctx);
}

static void
revoke_key(void *ctx, const pgp_sig *sig)
{
	apply_revocation(ctx, sig);
}

static void
revoke_uid(void *ctx, const pgp_sig *sig)
{
	int64_t *revoked_at = ctx;
	if ((int64_t)sig->created > *revoked_at)
		*revoked_at = sig->created;
}

/* Scan the direct signatures of the primary key. */
static void
eval_direct(pgp_certeval *ev, const pgp_policy *pol, const pgp_sig **direct_out, pgp_sig *direct_buf)
{
	const pgp_cert *c = ev->cert;
	uint32_t i;
	*direct_out = NULL;
	for (i = 0; i < c->ndsigs; i++) {
		pgp_sig sig;
		const char *why = NULL;
		if (pgp_sig_parse(&sig, &c->dsigs[i], NULL) != PGP_OK)
			continue;
		if (!issued_by(&sig, &c->primary))
			continue;
		if (sig.type == PGP_SIG_DIRECT_KEY) {
			if (check_sig(c, &sig, ON_DIRECT, NULL, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why) != PGP_OK)
				continue;
			if (*direct_out == NULL || sig.created >= direct_buf->created) {
				*direct_buf = sig;
				*direct_out = direct_buf;
			}
		} else if (sig.type == PGP_SIG_KEY_REVOCATION) {
			if (check_sig(c, &sig, ON_DIRECT, NULL, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why) == PGP_OK)
				apply_revocation(&ev->primary, &sig);
		}
	}
	misplaced_revocations(c, c->dsigs, PGP_SIG_KEY_REVOCATION, ON_DIRECT, NULL, ev->t, pol,
	    revoke_key, &ev->primary);
}

/* Scan one user ID: newest valid certification in force, revocations. */
static void
eval_uid(pgp_certeval *ev, uint32_t ui, const pgp_policy *pol, pgp_sig *binding, int *has_binding)
{
	const pgp_cert *c = ev->cert;
	const pgp_uidc *u = &c->uids[ui];
	pgp_uidstate *us = &ev->uids[ui];
	int64_t revoked_at = -1;
	const char *last_why = "no valid self-signature";
	pgp_err last_err = PGP_ERR_UNUSABLE;
	uint32_t i;
	*has_binding = 0;
	for (i = 0; i < u->nsigs; i++) {
		pgp_sig sig;
		const char *why = NULL;
		pgp_err e;
		if (pgp_sig_parse(&sig, &u->sigs[i], NULL) != PGP_OK)
			continue;
		if (!issued_by(&sig, &c->primary))
			continue; /* third-party certification: not evaluated here */
		if (sig.type >= PGP_SIG_CERT_GENERIC && sig.type <= PGP_SIG_CERT_POSITIVE) {
			e = check_sig(c, &sig, ON_UID, u, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why);
			if (e != PGP_OK) {
				last_why = why;
				last_err = e;
				continue;
			}
			if (!*has_binding || sig.created >= binding->created) {
				*binding = sig;
				*has_binding = 1;
			}
		} else if (sig.type == PGP_SIG_CERT_REVOCATION) {
			if (check_sig(c, &sig, ON_UID, u, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why) == PGP_OK &&
			    (int64_t)sig.created > revoked_at)
				revoked_at = sig.created;
		}
	}
	misplaced_revocations(c, u->sigs, PGP_SIG_CERT_REVOCATION, ON_UID, u, ev->t, pol,
	    revoke_uid, &revoked_at);
	if (!*has_binding) {
		/* the last refusal says why, e.g. a policy rule */
		us->status = revoked_at >= 0 ? PGP_ERR_REVOKED : unbound_status(last_err);
		us->reason = revoked_at >= 0 ? "user ID revoked" : last_why;
		return;
	}
	us->binding_time = binding->created;
	us->primary = binding->primary_uid;
	/* a revocation newer than the binding in force revokes the user ID */
	if (revoked_at >= (int64_t)binding->created) {
		us->status = PGP_ERR_REVOKED;
		us->reason = "user ID revoked";
		return;
	}
	us->status = PGP_OK;
}

/* Verify the embedded primary key binding signature (0x19) of a binding. */
static int
backsig_ok(const pgp_cert *c, const pgp_key *sub, const pgp_sig *binding, int64_t t,
    const pgp_policy *pol, const char **why)
{
	pgp_sig back;
	pgp_rd r;
	if (binding->embedded.p == NULL) {
		*why = "signing subkey has no primary key binding signature (back-signature)";
		return 0;
	}
	r.p = binding->embedded.p;
	r.len = binding->embedded.len;
	r.off = 0;
	if (pgp_sig_parse(&back, &r, NULL) != PGP_OK || back.type != PGP_SIG_PRIMARY_BINDING) {
		*why = "back-signature is malformed";
		return 0;
	}
	if (!issued_by(&back, sub)) {
		*why = "back-signature is not issued by the subkey";
		return 0;
	}
	if (check_sig(c, &back, ON_BACKSIG, sub, sub, t, pol, PGP_USE_SECOND_PREIMAGE, why) != PGP_OK)
		return 0;
	return 1;
}

static void
eval_subkey(pgp_certeval *ev, uint32_t si, const pgp_policy *pol)
{
	const pgp_cert *c = ev->cert;
	const pgp_subc *sc = &c->subs[si];
	pgp_keystate *ks = &ev->subs[si];
	pgp_sig binding;
	int has = 0;
	const char *last_why = "no valid subkey binding signature";
	pgp_err last_err = PGP_ERR_UNUSABLE;
	uint32_t i;
	for (i = 0; i < sc->nsigs; i++) {
		pgp_sig sig;
		const char *why = NULL;
		pgp_err e;
		if (pgp_sig_parse(&sig, &sc->sigs[i], NULL) != PGP_OK)
			continue;
		if (!issued_by(&sig, &c->primary))
			continue;
		if (sig.type == PGP_SIG_SUBKEY_BINDING) {
			e = check_sig(c, &sig, ON_SUBKEY, &sc->key, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why);
			if (e != PGP_OK) {
				last_why = why;
				last_err = e;
				continue;
			}
			if (!has || sig.created >= binding.created) {
				binding = sig;
				has = 1;
			}
		} else if (sig.type == PGP_SIG_SUBKEY_REVOCATION) {
			if (check_sig(c, &sig, ON_SUBKEY, &sc->key, &c->primary, ev->t, pol,
			    PGP_USE_SECOND_PREIMAGE, &why) == PGP_OK)
				apply_revocation(ks, &sig);
		}
	}
	misplaced_revocations(c, sc->sigs, PGP_SIG_SUBKEY_REVOCATION, ON_SUBKEY, &sc->key, ev->t, pol,
	    revoke_key, ks);
	if (!has) {
		ks->status = unbound_status(last_err);
		ks->reason = last_why;
		ks->sign_reason = last_why;
		return;
	}
	ks->bound = 1;
	ks->binding_time = binding.created;
	ks->has_flags = binding.has_key_flags;
	ks->flags = binding.has_key_flags ? binding.key_flags : infer_flags(&sc->key);
	if (binding.has_key_expires && binding.key_expires)
		ks->expires = (int64_t)sc->key.created + binding.key_expires;
	ks->status = PGP_OK;
	if (ks->revoked == 2 || (ks->revoked == 1 && ks->revoked_at <= ev->t)) {
		ks->status = PGP_ERR_REVOKED;
		ks->reason = ks->revoked == 2 ? "subkey revoked" : "subkey retired or superseded";
	} else if (ks->expires && ks->expires <= ev->t) {
		ks->status = PGP_ERR_EXPIRED;
		ks->reason = "subkey expired";
	}
	/* §5.2.1.9 / §5.2.3.34: a signing subkey needs a valid back-signature */
	if (!(ks->flags & PGP_KF_SIGN) || !pgp_pk_can_sign(sc->key.algo)) {
		ks->sign_reason = "subkey is not signing-capable (key flags)";
	} else if (backsig_ok(c, &sc->key, &binding, ev->t, pol, &ks->sign_reason)) {
		ks->sign_ok = 1;
		ks->sign_reason = NULL;
	}
}

/* see eval.h */
pgp_err
pgp_cert_eval(pgp_certeval *ev, const pgp_cert *c, const pgp_certsrc *src, int64_t t,
    const pgp_policy *pol)
{
	pgp_sig direct_buf, best_uid_sig, uid_sig;
	const pgp_sig *direct = NULL, *primary_binding = NULL;
	int best = -1, best_primary = 0;
	uint32_t i;

	(void)src;
	memset(ev, 0, sizeof *ev);
	ev->cert = c;
	ev->t = t;
	ev->primary_uid = -1;
	ev->subs = calloc(c->nsubs ? c->nsubs : 1, sizeof *ev->subs);
	ev->uids = calloc(c->nuids ? c->nuids : 1, sizeof *ev->uids);
	if (ev->subs == NULL || ev->uids == NULL) {
		pgp_certeval_release(ev);
		return PGP_ERR_NOMEM;
	}
	eval_direct(ev, pol, &direct, &direct_buf);

	for (i = 0; i < c->nuids; i++) {
		int has;
		eval_uid(ev, i, pol, &uid_sig, &has);
		if (ev->uids[i].status != PGP_OK || c->uids[i].is_attr)
			continue;
		/* §5.2.3.27: the primary user ID is the valid one flagged primary
		 * with the newest binding; else the newest valid binding */
		if (best < 0 || (uid_sig.primary_uid && !best_primary) ||
		    (uid_sig.primary_uid == best_primary && uid_sig.created > best_uid_sig.created)) {
			best = (int)i;
			best_primary = uid_sig.primary_uid;
			best_uid_sig = uid_sig;
		}
	}
	ev->primary_uid = best;

	/* The primary key's binding: direct-key signature, else primary UID's. */
	if (direct)
		primary_binding = direct;
	else if (best >= 0)
		primary_binding = &best_uid_sig;

	if (primary_binding) {
		const pgp_sig *flags_from = primary_binding;
		const pgp_sig *exp_from = primary_binding;
		/* a direct key signature without flags/expiry defers to the primary UID */
		if (direct && !direct->has_key_flags && best >= 0)
			flags_from = &best_uid_sig;
		if (direct && !direct->has_key_expires && best >= 0)
			exp_from = &best_uid_sig;
		ev->primary.bound = 1;
		ev->primary.binding_time = primary_binding->created;
		ev->primary.has_flags = flags_from->has_key_flags;
		ev->primary.flags = flags_from->has_key_flags ? flags_from->key_flags : infer_flags(&c->primary);
		if (exp_from->has_key_expires && exp_from->key_expires)
			ev->primary.expires = (int64_t)c->primary.created + exp_from->key_expires;
		else if (c->primary.version == 3 && c->primary.v3_days)
			/* RFC 4880 §5.5.2: v3 keys carry their validity period */
			ev->primary.expires = (int64_t)c->primary.created + (int64_t)c->primary.v3_days * 86400;
		ev->primary.status = PGP_OK;
	} else if (c->ndsigs == 0 && c->nuids == 0 && c->nsubs == 0) {
		/* A bare primary key: no user ID, no subkey, no signature at all
		 * (RFC 9580 A.1). Nothing
		 * restricts it, so it is taken as it is. */
		ev->bare = 1;
		ev->primary.bound = 1;
		ev->primary.flags = infer_flags(&c->primary);
		ev->primary.status = PGP_OK;
	} else if (c->nuids && c->uids[0].nsigs && ev->uids[0].reason) {
		/* no user ID is bound: report why the first one is not */
		ev->primary.status = ev->uids[0].status;
		ev->primary.reason = ev->uids[0].reason;
	} else {
		ev->primary.status = PGP_ERR_UNUSABLE;
		ev->primary.reason = c->nuids ? "user IDs carry no self-signature"
		    : (c->ndsigs ? "no valid direct-key self-signature"
		    : "primary key has no self-signature (no user ID, no direct-key signature)");
	}
	if (ev->primary.status != PGP_OK && ev->primary.revoked) {
		/* a revocation outranks any other reason the key is unusable */
		ev->primary.status = PGP_ERR_REVOKED;
		ev->primary.reason = ev->primary.revoked == 2 ? "primary key revoked"
		    : "primary key retired or superseded";
		ev->primary.sign_reason = ev->primary.reason;
	} else if (ev->primary.status == PGP_OK) {
		if (ev->primary.revoked == 2 || (ev->primary.revoked == 1 && ev->primary.revoked_at <= t)) {
			ev->primary.status = PGP_ERR_REVOKED;
			ev->primary.reason = ev->primary.revoked == 2 ? "primary key revoked"
			    : "primary key retired or superseded";
		} else if (ev->primary.expires && ev->primary.expires <= t) {
			ev->primary.status = PGP_ERR_EXPIRED;
			ev->primary.reason = "primary key expired";
		}
		if ((ev->primary.flags & PGP_KF_SIGN) && pgp_pk_can_sign(c->primary.algo))
			ev->primary.sign_ok = 1;
		else
			ev->primary.sign_reason = "primary key is not signing-capable (key flags)";
	} else {
		ev->primary.sign_reason = ev->primary.reason;
	}
	for (i = 0; i < c->nsubs; i++)
		eval_subkey(ev, i, pol);
	return PGP_OK;
}

/* see eval.h */
void
pgp_certeval_release(pgp_certeval *ev)
{
	free(ev->subs);
	free(ev->uids);
	ev->subs = NULL;
	ev->uids = NULL;
}

/* see eval.h */
pgp_err
pgp_keystate_alive_at(const pgp_keystate *ks, const pgp_key *key, int64_t ts, const char **reason)
{
	if (!ks->bound) {
		*reason = ks->reason ? ks->reason : "key is not bound";
		return ks->status != PGP_OK ? ks->status : PGP_ERR_UNUSABLE;
	}
	if (ks->revoked == 2) {
		*reason = "key revoked";
		return PGP_ERR_REVOKED;
	}
	if (ks->revoked == 1 && ks->revoked_at <= ts) {
		*reason = "key was retired or superseded before the signature was made";
		return PGP_ERR_REVOKED;
	}
	if (ts < (int64_t)key->created) {
		*reason = "signature is older than the signing key";
		return PGP_ERR_MALFORMED;
	}
	if (ks->expires && ks->expires <= ts) {
		*reason = "key had expired when the signature was made";
		return PGP_ERR_EXPIRED;
	}
	return PGP_OK;
}
