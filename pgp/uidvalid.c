/*
 * uidvalid.c - one-hop user ID validation by authority certificates.
 * see uidvalid.h
 */
#include <stdlib.h>
#include <string.h>
#include "uidvalid.h"
#include "certify.h"
#include "eval.h"

/* An authority, evaluated on first use. */
typedef struct authev {
	pgp_certeval ev;
	uint8_t done;
} authev;

typedef struct vctx {
	const pgp_cert *target;
	const pgp_cert *const *auth;
	size_t nauth;
	authev *aev;
	const pgp_certsrc *src;
	int64_t t;
	const pgp_policy *pol;
	pgp_uidvalid *out;
	int rank;               /* of the failure recorded in out (note()) */
} vctx;

/* Failure ranks: the verdict names the most telling failure seen, the
 * first one of the highest rank. */
enum {
	RANK_NONE = 0,          /* no authority signature at all */
	RANK_HOLDER = 1,        /* the holder revoked the user ID */
	RANK_BROKEN = 2,        /* an authority's certification does not verify */
	RANK_REFUSED = 3,       /* ... verifies, but expired, not yet made, policy */
	RANK_WITHDRAWN = 4      /* ... is good, but revoked, or the authority's key is not valid */
};

static void
note(vctx *x, int rank, pgp_err e, const char *why, pgp_uidvalid_whose whose)
{
	if (rank <= x->rank)
		return;
	x->rank = rank;
	x->out->status = e;
	x->out->whose = (uint8_t)whose;
	x->out->reason = why ? why : pgp_strerror(e);
}

static int
same_key(const pgp_key *a, const pgp_key *b)
{
	return a->fpr.len == b->fpr.len && memcmp(a->fpr.v, b->fpr.v, a->fpr.len) == 0;
}

static int
uid_matches(const pgp_uidc *u, const uint8_t *q, size_t qlen, pgp_uidmatch how)
{
	pgp_view addr;
	if (u->is_attr)
		return 0;
	if (how == PGP_UIDMATCH_ADDR_SPEC)
		return pgp_uid_email(u->data, &addr) && pgp_email_cmp(addr.p, addr.len, q, qlen) == 0;
	return u->data.len == qlen && (qlen == 0 || memcmp(u->data.p, q, qlen) == 0);
}

/* Whether sig names key k as its issuer; a signature naming no issuer
 * could be anyone's, and the math decides. */
static int
may_be_by(const pgp_sig *sig, const pgp_key *k)
{
	if (sig->issuer_fpr.len == 0 && !sig->has_issuer)
		return 1;
	return pgp_sig_names_fpr(sig, &k->fpr);
}

/* Authority a, evaluated at t (once). */
static pgp_err
auth_eval(vctx *x, size_t a, const pgp_certeval **out)
{
	authev *ae = &x->aev[a];
	if (!ae->done) {
		pgp_err e = pgp_cert_eval(&ae->ev, x->auth[a], x->src, x->t, x->pol);
		if (e != PGP_OK) {
			pgp_certeval_release(&ae->ev);
			return e;
		}
		ae->done = 1;
	}
	*out = &ae->ev;
	return PGP_OK;
}

/*
 * Whether authority A revoked its certification of user ID uid made at
 * `since`: a certification revocation (0x30) over that user ID by any key
 * of A, made at or after `since` and in force at t (RFC 9580 §5.2.1).
 * Revocations are honoured whatever their hash (pgp_certification_check).
 */
static int
revoked_by(const vctx *x, uint32_t uid, const pgp_cert *A, int64_t since)
{
	const pgp_uidc *u = &x->target->uids[uid];
	uint32_t j, k;
	for (j = 0; j < u->nsigs; j++) {
		pgp_sig rev;
		if (pgp_sig_parse(&rev, &u->sigs[j], NULL) != PGP_OK ||
		    rev.type != PGP_SIG_CERT_REVOCATION || (int64_t)rev.created < since)
			continue;
		if (may_be_by(&rev, &A->primary) &&
		    pgp_certification_check(x->target, uid, &rev, &A->primary, x->t, x->pol,
		    NULL) == PGP_OK)
			return 1;
		for (k = 0; k < A->nsubs; k++)
			if (may_be_by(&rev, &A->subs[k].key) &&
			    pgp_certification_check(x->target, uid, &rev, &A->subs[k].key, x->t,
			    x->pol, NULL) == PGP_OK)
				return 1;
	}
	return 0;
}

/*
 * Whether key `key` of authority a (subkey index sub, -1: the primary) may
 * certify at t: the authority valid, the key bound, valid and flagged for
 * certification (RFC 9580 §5.2.3.29, key flag 0x01).
 */
static int
key_may_certify(vctx *x, const pgp_certeval *ev, int sub)
{
	const pgp_keystate *ks = sub < 0 ? &ev->primary : &ev->subs[sub];
	if (ev->primary.status != PGP_OK) {
		note(x, RANK_WITHDRAWN, ev->primary.status, ev->primary.reason ?
		    ev->primary.reason : "the authority's certificate is not valid",
		    PGP_UIDVALID_AUTHORITY);
		return 0;
	}
	if (ks->status != PGP_OK) {
		note(x, RANK_WITHDRAWN, ks->status, ks->reason ? ks->reason :
		    "the authority's certifying subkey is not valid", PGP_UIDVALID_AUTHORITY);
		return 0;
	}
	if (!(ks->flags & PGP_KF_CERTIFY)) {
		note(x, RANK_WITHDRAWN, PGP_ERR_UNUSABLE,
		    "the authority's key may not make certifications (key flags)",
		    PGP_UIDVALID_AUTHORITY);
		return 0;
	}
	return 1;
}

/* One certification (0x10-0x13) over user ID uid: 1 if an authority's
 * certification validates it (out filled), 0 if not, PGP_ERR_NOMEM. */
static int
try_certification(vctx *x, uint32_t uid, const pgp_sig *sig)
{
	size_t a;
	for (a = 0; a < x->nauth; a++) {
		const pgp_cert *A = x->auth[a];
		const pgp_certeval *ev = NULL;
		int sub;
		if (same_key(&A->primary, &x->target->primary))
			continue; /* the self path: a self-binding, not a certification */
		for (sub = -1; sub < (int)A->nsubs; sub++) {
			const pgp_key *k = sub < 0 ? &A->primary : &A->subs[sub].key;
			const char *why = NULL;
			pgp_err e;
			if (!may_be_by(sig, k))
				continue;
			e = pgp_certification_check(x->target, uid, sig, k, x->t, x->pol, &why);
			if (e == PGP_ERR_NO_KEY)
				continue;
			if (e != PGP_OK) {
				note(x, e == PGP_ERR_EXPIRED || e == PGP_ERR_POLICY || e == PGP_ERR_NOT_YET ?
				    RANK_REFUSED : RANK_BROKEN, e, why, PGP_UIDVALID_SIG);
				continue;
			}
			if (ev == NULL && (e = auth_eval(x, a, &ev)) != PGP_OK)
				return e;
			if (!key_may_certify(x, ev, sub))
				continue;
			if (revoked_by(x, uid, A, (int64_t)sig->created)) {
				note(x, RANK_WITHDRAWN, PGP_ERR_REVOKED,
				    "the authority revoked its certification", PGP_UIDVALID_SIG);
				continue;
			}
			x->out->status = PGP_OK;
			x->out->reason = NULL;
			x->out->uid = (int32_t)uid;
			x->out->authority = (int32_t)a;
			x->out->self = 0;
			x->out->certified = (int64_t)sig->created;
			return 1;
		}
	}
	return 0;
}

/* The authority that is the target itself, or -1. */
static long
self_authority(const vctx *x)
{
	size_t a;
	for (a = 0; a < x->nauth; a++)
		if (same_key(&x->auth[a]->primary, &x->target->primary))
			return (long)a;
	return -1;
}

/* see uidvalid.h */
pgp_err
pgp_uidvalid_check(pgp_uidvalid *out, const pgp_cert *target,
    const uint8_t *query, size_t qlen, pgp_uidmatch how,
    const pgp_cert *const *auth, size_t nauth, const pgp_certsrc *src,
    int64_t t, const pgp_policy *pol)
{
	vctx x;
	pgp_certeval tev;
	pgp_err e = PGP_OK;
	uint32_t i, j;
	long self;
	size_t a;

	memset(out, 0, sizeof *out);
	out->uid = -1;
	out->authority = -1;
	out->status = PGP_ERR_NO_SIG;
	out->reason = "no authority certified a matching user ID";
	for (i = 0; i < target->nuids; i++)
		if (uid_matches(&target->uids[i], query, qlen, how))
			out->matched++;
	if (out->matched == 0) {
		out->status = PGP_ERR_NOT_FOUND;
		out->reason = how == PGP_UIDMATCH_ADDR_SPEC ?
		    "no user ID has that e-mail address" : "no user ID matches";
		return PGP_OK;
	}
	memset(&x, 0, sizeof x);
	x.target = target;
	x.auth = auth;
	x.nauth = nauth;
	x.src = src;
	x.t = t;
	x.pol = pol;
	x.out = out;
	x.rank = RANK_NONE;
	if (nauth && (x.aev = calloc(nauth, sizeof *x.aev)) == NULL)
		return PGP_ERR_NOMEM;
	if ((e = pgp_cert_eval(&tev, target, src, t, pol)) != PGP_OK) {
		pgp_certeval_release(&tev);
		free(x.aev);
		return e;
	}
	if (tev.primary.status != PGP_OK) {
		out->status = tev.primary.status;
		out->reason = tev.primary.reason ? tev.primary.reason :
		    "the certificate is not valid";
		out->whose = PGP_UIDVALID_TARGET;
		goto done;
	}
	self = self_authority(&x);
	for (i = 0; i < target->nuids; i++) {
		const pgp_uidc *u = &target->uids[i];
		const pgp_uidstate *us = &tev.uids[i];
		if (!uid_matches(u, query, qlen, how))
			continue;
		if (us->status == PGP_ERR_REVOKED || us->status == PGP_ERR_LIMIT) {
			note(&x, RANK_HOLDER, us->status, us->status == PGP_ERR_REVOKED ?
			    "the user ID was revoked by its holder" : us->reason, PGP_UIDVALID_SIG);
			continue;
		}
		if (self >= 0 && us->status == PGP_OK) {
			out->status = PGP_OK;
			out->reason = NULL;
			out->uid = (int32_t)i;
			out->authority = (int32_t)self;
			out->self = 1;
			out->certified = us->binding_time;
			goto done;
		}
		for (j = 0; j < u->nsigs; j++) {
			pgp_sig sig;
			int r;
			if (pgp_sig_parse(&sig, &u->sigs[j], NULL) != PGP_OK ||
			    sig.type < PGP_SIG_CERT_GENERIC || sig.type > PGP_SIG_CERT_POSITIVE)
				continue;
			if ((r = try_certification(&x, i, &sig)) < 0) {
				e = (pgp_err)r;
				goto done;
			}
			if (r == 1)
				goto done;
		}
	}
done:
	pgp_certeval_release(&tev);
	for (a = 0; a < nauth; a++)
		if (x.aev[a].done)
			pgp_certeval_release(&x.aev[a].ev);
	free(x.aev);
	if (e != PGP_OK)
		memset(out, 0, sizeof *out);
	return e;
}
