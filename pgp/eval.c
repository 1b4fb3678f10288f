/*
 * eval.c - certificate evaluation at a reference time. see eval.h
 *
 * A self-signature counts when it parses, is issued by the primary key, has
 * no unknown critical subpacket (§5.2.3.7), has a creation time not before
 * the key's and not after t, has not expired at t, passes the policy for
 * self-signatures (second-preimage resistance) and verifies
 * (pgp__keysig_check, shared with the certification check). Of the valid
 * bindings of a component, the newest is in force.
 *
 * Work is linear in the signatures of the certificate: each is parsed once
 * into one array, tagged with its owner (never identified by a pointer into
 * the signature pool: an empty list's pointer aliases the next list), and
 * classified. Only a misplaced subkey or user ID revocation costs more: it
 * is tried against the bound components of its kind, which only the key
 * owner can create, under the cap PGP_MAX_REVOCATION_TRIALS.
 */
#include <stdlib.h>
#include <string.h>
#include "eval.h"
#include "certify.h"
#include "limits.h"
#include "pk.h"
#include "cert_int.h"
#include "certify_int.h"
#include "eval_int.h"

/* the reason of a component whose binding was never checked */
#define NO_VALID_SELFSIG "no valid self-signature"

#define NONE SIZE_MAX

/* The list a signature was found in. */
enum owner { OWN_DIRECT, OWN_UID, OWN_SUB, OWN_LOOSE };

/* One signature of the certificate, parsed once. */
typedef struct esig {
	pgp_sig sig;
	uint8_t owner;       /* enum owner */
	uint8_t by_primary;  /* names the primary key as its issuer (or no issuer) */
	uint32_t comp;       /* user ID / subkey index (OWN_UID, OWN_SUB) */
	size_t pos;          /* position in the certificate, in scan order */
} esig;

typedef struct evalctx {
	pgp_certeval *ev;
	const pgp_cert *c;
	const pgp_certsrc *src;
	const pgp_sigmemo *memo; /* src's memo of checked signatures, or NULL */
	const pgp_policy *pol;
	int64_t t;
	esig *es;            /* the signatures that matter to the evaluation */
	size_t nes, capes;
	size_t *uid_bind;    /* per user ID: index into es of the binding in force, or NONE */
	size_t *sub_bind;    /* per subkey: the same */
	int64_t *uid_revoked_at; /* per user ID: newest valid revocation, -1 none */
	size_t direct;       /* direct-key signature in force, or NONE */
	size_t trials, max_trials;
	size_t alloc_budget; /* allocations left (tests); SIZE_MAX: unlimited */
	int limit;           /* max_trials exceeded */
} evalctx;

/* All allocations of an evaluation go through these two (the test budget). */
static void *
ctx_calloc(evalctx *x, size_t n, size_t size)
{
	if (x->alloc_budget == 0)
		return NULL;
	if (x->alloc_budget != SIZE_MAX)
		x->alloc_budget--;
	return calloc(n ? n : 1, size);
}

static void *
ctx_realloc(evalctx *x, void *p, size_t n, size_t size)
{
	if (x->alloc_budget == 0 || n > SIZE_MAX / size)
		return NULL;
	if (x->alloc_budget != SIZE_MAX)
		x->alloc_budget--;
	return realloc(p, n * size);
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

static void
apply_revocation(pgp_keystate *ks, const pgp_sig *sig)
{
	uint8_t level = (uint8_t)(pgp__is_hard_revocation(sig) ? 2 : 1);
	if (level > ks->revoked || (level == ks->revoked && (int64_t)sig->created < ks->revoked_at)) {
		ks->revoked = level;
		ks->revoked_at = sig->created;
	}
}

static int
is_cert_type(int type)
{
	return type >= PGP_SIG_CERT_GENERIC && type <= PGP_SIG_CERT_POSITIVE;
}

/* Whether a parsed signature can matter to the evaluation: self-signatures
 * and revocations by the primary key, and key revocations by another key
 * (a designated revoker's, §5.2.3.23). Third-party certifications do not. */
static int
relevant(const pgp_sig *sig, int by_primary)
{
	switch (sig->type) {
	case PGP_SIG_CERT_GENERIC:
	case PGP_SIG_CERT_PERSONA:
	case PGP_SIG_CERT_CASUAL:
	case PGP_SIG_CERT_POSITIVE:
	case PGP_SIG_SUBKEY_BINDING:
	case PGP_SIG_DIRECT_KEY:
	case PGP_SIG_SUBKEY_REVOCATION:
	case PGP_SIG_CERT_REVOCATION:
		return by_primary;
	case PGP_SIG_KEY_REVOCATION:
		return 1;
	default:
		return 0;
	}
}

static pgp_err
collect_list(evalctx *x, const pgp_rd *list, uint32_t n, enum owner owner, uint32_t comp,
    size_t *pos)
{
	uint32_t i;
	for (i = 0; i < n; i++) {
		pgp_sig sig;
		int by;
		size_t at = (*pos)++;
		if (pgp_sig_parse(&sig, &list[i], NULL) != PGP_OK)
			continue;
		by = pgp__issued_by(&sig, &x->c->primary);
		if (!relevant(&sig, by))
			continue;
		if (x->nes == x->capes) {
			size_t ncap = x->capes ? x->capes * 2 : 64;
			esig *np = ctx_realloc(x, x->es, ncap, sizeof *np);
			if (np == NULL)
				return PGP_ERR_NOMEM;
			x->es = np;
			x->capes = ncap;
		}
		x->es[x->nes].sig = sig;
		x->es[x->nes].owner = (uint8_t)owner;
		x->es[x->nes].by_primary = (uint8_t)by;
		x->es[x->nes].comp = comp;
		x->es[x->nes].pos = at;
		x->nes++;
	}
	return PGP_OK;
}

/* Owner, component, then newest first (later in the file first on a tie). */
static int
esig_cmp(const void *a, const void *b)
{
	const esig *p = a, *q = b;
	if (p->owner != q->owner)
		return p->owner < q->owner ? -1 : 1;
	if (p->comp != q->comp)
		return p->comp < q->comp ? -1 : 1;
	if (p->sig.created != q->sig.created)
		return p->sig.created > q->sig.created ? -1 : 1;
	return p->pos > q->pos ? -1 : p->pos < q->pos;
}

/* Parse every signature of the certificate once, tagged with its owner. */
static pgp_err
collect(evalctx *x)
{
	const pgp_cert *c = x->c;
	size_t pos = 0;
	uint32_t i;
	pgp_err e;

	if ((e = collect_list(x, c->dsigs, c->ndsigs, OWN_DIRECT, 0, &pos)) != PGP_OK)
		return e;
	for (i = 0; i < c->nuids; i++)
		if ((e = collect_list(x, c->uids[i].sigs, c->uids[i].nsigs, OWN_UID, i, &pos)) != PGP_OK)
			return e;
	for (i = 0; i < c->nsubs; i++)
		if ((e = collect_list(x, c->subs[i].sigs, c->subs[i].nsigs, OWN_SUB, i, &pos)) != PGP_OK)
			return e;
	if ((e = collect_list(x, c->loose, c->nloose, OWN_LOOSE, 0, &pos)) != PGP_OK)
		return e;
	if (x->nes > 1)
		qsort(x->es, x->nes, sizeof *x->es, esig_cmp);
	return PGP_OK;
}

/*
 * Bindings, newest first: the first valid one of each component is in
 * force and older ones are not checked. A binding counts only on the
 * component it follows (a direct-key signature only among the direct ones).
 * The last failure of a component is kept as its reason.
 */
static void
find_bindings(evalctx *x)
{
	const pgp_cert *c = x->c;
	size_t i;

	for (i = 0; i < x->nes; i++) {
		const esig *s = &x->es[i];
		const char *why = NULL;
		pgp_err e;
		if (!s->by_primary)
			continue;
		if (s->owner == OWN_DIRECT && s->sig.type == PGP_SIG_DIRECT_KEY) {
			if (x->direct != NONE)
				continue;
			if (pgp__keysig_check(&c->primary, &s->sig, PGP_SIGON_DIRECT, NULL, &c->primary,
			    x->t, x->pol, PGP_USE_SECOND_PREIMAGE, x->memo, &why) == PGP_OK)
				x->direct = i;
		} else if (s->owner == OWN_UID && is_cert_type(s->sig.type)) {
			pgp_uidstate *us = &x->ev->uids[s->comp];
			if (x->uid_bind[s->comp] != NONE)
				continue;
			e = pgp__keysig_check(&c->primary, &s->sig, PGP_SIGON_UID, &c->uids[s->comp],
			    &c->primary, x->t, x->pol, PGP_USE_SECOND_PREIMAGE, x->memo, &why);
			if (e == PGP_OK) {
				x->uid_bind[s->comp] = i;
			} else {
				us->status = e;
				us->reason = why;
			}
		} else if (s->owner == OWN_SUB && s->sig.type == PGP_SIG_SUBKEY_BINDING) {
			pgp_keystate *ks = &x->ev->subs[s->comp];
			if (x->sub_bind[s->comp] != NONE)
				continue;
			e = pgp__keysig_check(&c->primary, &s->sig, PGP_SIGON_SUBKEY, &c->subs[s->comp].key,
			    &c->primary, x->t, x->pol, PGP_USE_SECOND_PREIMAGE, x->memo, &why);
			if (e == PGP_OK) {
				x->sub_bind[s->comp] = i;
			} else {
				ks->status = e;
				ks->reason = why;
			}
		}
	}
}

static int
same_uid(const pgp_uidc *a, const pgp_uidc *b)
{
	return a->is_attr == b->is_attr && a->data.len == b->data.len &&
	    (a->data.len == 0 || memcmp(a->data.p, b->data.p, a->data.len) == 0);
}

static int
fpr_eq(const pgp_fpr *a, const pgp_fpr *b)
{
	return a->len == b->len && memcmp(a->v, b->v, a->len) == 0;
}

static int
same_key(const pgp_key *a, const pgp_key *b)
{
	return fpr_eq(&a->fpr, &b->fpr);
}

/* A valid revocation of user ID j revokes every copy of that user ID. */
static void
revoke_uid(evalctx *x, uint32_t j, const pgp_sig *sig)
{
	uint32_t k;
	for (k = 0; k < x->c->nuids; k++)
		if ((k == j || same_uid(&x->c->uids[k], &x->c->uids[j])) &&
		    (int64_t)sig->created > x->uid_revoked_at[k])
			x->uid_revoked_at[k] = sig->created;
}

/* A valid revocation of subkey j revokes every copy of that key material. */
static void
revoke_sub(evalctx *x, uint32_t j, const pgp_sig *sig)
{
	uint32_t k;
	for (k = 0; k < x->c->nsubs; k++)
		if (k == j || same_key(&x->c->subs[k].key, &x->c->subs[j].key))
			apply_revocation(&x->ev->subs[k], sig);
}

/* Check revocation s over user ID / subkey j. */
static int
revokes_comp(evalctx *x, const esig *s, pgp_sigon on, uint32_t j)
{
	const pgp_cert *c = x->c;
	const char *why = NULL;
	const void *comp = on == PGP_SIGON_UID ? (const void *)&c->uids[j] : (const void *)&c->subs[j].key;
	return pgp__keysig_check(&c->primary, &s->sig, on, comp, &c->primary, x->t, x->pol,
	    PGP_USE_SECOND_PREIMAGE, x->memo, &why) == PGP_OK;
}

/*
 * RFC 9580 §10.1 puts a revocation right after what it revokes. One found
 * elsewhere (reordered or merged keyrings) is honoured too: a revocation
 * can only make things less valid. It is tried first on the component it
 * follows, then on the other components of its kind that are bound (an
 * attacker cannot make a bound component, so the work is #misplaced
 * revocations x #owner's components), counting the trials.
 */
static void
subject_revocation(evalctx *x, const esig *s)
{
	int uid = s->sig.type == PGP_SIG_CERT_REVOCATION;
	pgp_sigon on = uid ? PGP_SIGON_UID : PGP_SIGON_SUBKEY;
	uint32_t n = uid ? x->c->nuids : x->c->nsubs;
	const size_t *bound = uid ? x->uid_bind : x->sub_bind;
	uint32_t own = UINT32_MAX, j;

	if (s->owner == (uid ? OWN_UID : OWN_SUB)) {
		own = s->comp;
		if (revokes_comp(x, s, on, own)) {
			if (uid)
				revoke_uid(x, own, &s->sig);
			else
				revoke_sub(x, own, &s->sig);
			return;
		}
	}
	for (j = 0; j < n; j++) {
		if (j == own || bound[j] == NONE)
			continue;
		if (++x->trials > x->max_trials) {
			x->limit = 1;
			return;
		}
		if (revokes_comp(x, s, on, j)) {
			if (uid)
				revoke_uid(x, j, &s->sig);
			else
				revoke_sub(x, j, &s->sig);
			return;
		}
	}
}

/* Revocations by the primary key, wherever they sit. */
static void
own_revocations(evalctx *x)
{
	const pgp_cert *c = x->c;
	size_t i;

	for (i = 0; i < x->nes && !x->limit; i++) {
		const esig *s = &x->es[i];
		const char *why = NULL;
		if (!s->by_primary)
			continue;
		if (s->sig.type == PGP_SIG_KEY_REVOCATION) {
			/* a key revocation is over the primary key alone */
			if (pgp__keysig_check(&c->primary, &s->sig, PGP_SIGON_DIRECT, NULL, &c->primary,
			    x->t, x->pol, PGP_USE_SECOND_PREIMAGE, x->memo, &why) == PGP_OK)
				apply_revocation(&x->ev->primary, &s->sig);
		} else if (s->sig.type == PGP_SIG_CERT_REVOCATION ||
		    s->sig.type == PGP_SIG_SUBKEY_REVOCATION) {
			subject_revocation(x, s);
		}
	}
}

/*
 * Every certificate of the key set holding the key with fingerprint fpr:
 * the one place this file uses the certificate source. *list is stack or a
 * heap array to free() (pgp__certsrc_lookup). A failed lookup fails the
 * evaluation (never "no revoker found").
 */
#define HOLDERS_ON_STACK 8

static pgp_err
certs_holding(const evalctx *x, const pgp_fpr *fpr, const pgp_cert **stack,
    const pgp_cert ***list, size_t *n)
{
	pgp_certq q;
	*list = stack;
	*n = 0;
	if (fpr->len != 20 && fpr->len != 32)
		return PGP_OK;
	q.kind = PGP_CERTQ_FPR;
	q.p = fpr->v;
	q.len = fpr->len;
	return pgp__certsrc_lookup(x->src, &q, stack, HOLDERS_ON_STACK, list, n);
}

/* The key with fingerprint fpr in the key set, or NULL. */
static pgp_err
find_key_by_fpr(const evalctx *x, const pgp_fpr *fpr, const pgp_key **out)
{
	const pgp_cert *stack[HOLDERS_ON_STACK], **list;
	size_t n, i;
	pgp_err e;

	*out = NULL;
	if ((e = certs_holding(x, fpr, stack, &list, &n)) != PGP_OK)
		return e;
	for (i = 0; i < n && *out == NULL; i++)
		*out = pgp_cert_key_by_fpr(list[i], fpr, NULL);
	if (list != stack)
		free((void *)list);
	return PGP_OK;
}

/* Whether a valid self-signature in force (the direct-key signature, or a
 * user ID's binding) designates the issuer of sig; its fingerprint in *out. */
static int
designation_for(const evalctx *x, const pgp_sig *sig, pgp_fpr *out)
{
	uint32_t i;
	for (i = 0; i <= x->c->nuids; i++) {
		size_t b = i == x->c->nuids ? x->direct : x->uid_bind[i];
		const pgp_sig *self;
		pgp_revoker rv;
		size_t pos = 0;
		if (b == NONE)
			continue;
		self = &x->es[b].sig;
		if (!self->has_revoker)
			continue;
		while (pgp_sig_next_revoker(self, &pos, &rv) == PGP_OK)
			if (pgp_sig_names_fpr(sig, &rv.fpr)) {
				*out = rv.fpr;
				return 1;
			}
	}
	return 0;
}

/*
 * §5.2.3.23: a key revocation (0x20) made by a designated revoker's key
 * revokes the primary key as the owner's own would. The revoker's key is
 * looked up in the key set by fingerprint; when absent the revocation
 * cannot be checked and is only recorded (revoker_unchecked).
 */
static pgp_err
designated_revocations(evalctx *x)
{
	const pgp_cert *c = x->c;
	size_t i;
	pgp_err e;

	for (i = 0; i < x->nes; i++) {
		const esig *s = &x->es[i];
		const pgp_key *rk;
		const char *why = NULL;
		pgp_fpr fpr;
		if (s->by_primary || s->sig.type != PGP_SIG_KEY_REVOCATION)
			continue;
		if (!designation_for(x, &s->sig, &fpr))
			continue;
		if ((e = find_key_by_fpr(x, &fpr, &rk)) != PGP_OK)
			return e;
		if (rk == NULL) {
			x->ev->revoker_unchecked = 1;
			continue;
		}
		if (pgp__keysig_check(&c->primary, &s->sig, PGP_SIGON_DIRECT, NULL, rk, x->t, x->pol,
		    PGP_USE_SECOND_PREIMAGE, x->memo, &why) == PGP_OK) {
			apply_revocation(&x->ev->primary, &s->sig);
			x->ev->designated_revoked = 1;
		}
	}
	return PGP_OK;
}

/*
 * A designated revoker's revocation certificate kept in a file of its own
 * is attached by the key set to the certificate of its issuer, the revoker
 * (cert.h: stand-alone revocations go to their issuer). So for each
 * designation in force, the stand-alone key revocations of the certificates
 * holding the designated key are checked over this primary key too.
 */
static pgp_err
designated_standalone(evalctx *x)
{
	const pgp_cert *c = x->c;
	uint32_t i;
	pgp_err e;

	for (i = 0; i <= c->nuids; i++) {
		size_t b = i == c->nuids ? x->direct : x->uid_bind[i];
		pgp_revoker rv;
		size_t pos = 0;
		if (b == NONE || !x->es[b].sig.has_revoker)
			continue;
		while (pgp_sig_next_revoker(&x->es[b].sig, &pos, &rv) == PGP_OK) {
			const pgp_cert *stack[HOLDERS_ON_STACK], **list;
			size_t n, k;
			if ((e = certs_holding(x, &rv.fpr, stack, &list, &n)) != PGP_OK)
				return e;
			for (k = 0; k < n && !x->limit; k++) {
				const pgp_cert *rc = list[k];
				const pgp_key *rk = pgp_cert_key_by_fpr(rc, &rv.fpr, NULL);
				uint32_t j;
				if (rc == c || rk == NULL)
					continue;
				for (j = 0; j < rc->nloose && !x->limit; j++) {
					pgp_sig sig;
					const char *why = NULL;
					if (pgp_sig_parse(&sig, &rc->loose[j], NULL) != PGP_OK ||
					    sig.type != PGP_SIG_KEY_REVOCATION || !pgp_sig_names_fpr(&sig, &rv.fpr))
						continue;
					if (++x->trials > x->max_trials) {
						x->limit = 1; /* the caller fails closed */
						break;
					}
					if (pgp__keysig_check(&c->primary, &sig, PGP_SIGON_DIRECT, NULL, rk,
					    x->t, x->pol, PGP_USE_SECOND_PREIMAGE, x->memo, &why) == PGP_OK) {
						apply_revocation(&x->ev->primary, &sig);
						x->ev->designated_revoked = 1;
					}
				}
			}
			if (list != stack)
				free((void *)list);
			if (x->limit)
				return PGP_OK;
		}
	}
	return PGP_OK;
}

/* User ID states from their bindings and revocations. */
static void
uid_states(evalctx *x)
{
	uint32_t i;
	for (i = 0; i < x->c->nuids; i++) {
		pgp_uidstate *us = &x->ev->uids[i];
		int64_t rev = x->uid_revoked_at[i];
		const pgp_sig *b;
		if (x->uid_bind[i] == NONE) {
			/* the last refusal says why, e.g. a policy rule */
			us->status = rev >= 0 ? PGP_ERR_REVOKED : unbound_status(us->status);
			us->reason = rev >= 0 ? "user ID revoked" :
			    (us->reason ? us->reason : NO_VALID_SELFSIG);
			continue;
		}
		b = &x->es[x->uid_bind[i]].sig;
		us->binding_time = b->created;
		us->primary = b->primary_uid;
		us->reason = NULL;
		/* a revocation newer than the binding in force revokes the user ID */
		if (rev >= (int64_t)b->created) {
			us->status = PGP_ERR_REVOKED;
			us->reason = "user ID revoked";
		} else {
			us->status = PGP_OK;
		}
	}
}

/* Octet order of user IDs: the tie-break between bindings made in the same
 * second, so the choice does not depend on the order of the certificate's
 * packets (a stripped certificate is written in canonical order). */
static int
uid_before(const pgp_uidc *a, const pgp_uidc *b)
{
	size_t n = a->data.len < b->data.len ? a->data.len : b->data.len;
	int c = n ? memcmp(a->data.p, b->data.p, n) : 0;
	return c < 0 || (c == 0 && a->data.len < b->data.len);
}

/* §5.2.3.27: the primary user ID is the valid one flagged primary with the
 * newest binding; else the newest valid binding; ties by user ID octets
 * (uid_before). With want = PGP_ERR_REVOKED,
 * the same choice among user IDs bound and later revoked. */
static int
pick_uid(const evalctx *x, pgp_err want)
{
	const pgp_cert *c = x->c;
	const pgp_sig *best_sig = NULL;
	int best = -1;
	uint32_t i;
	for (i = 0; i < c->nuids; i++) {
		const pgp_sig *b;
		if (x->ev->uids[i].status != want || c->uids[i].is_attr || x->uid_bind[i] == NONE)
			continue;
		b = &x->es[x->uid_bind[i]].sig;
		if (best < 0 || (b->primary_uid && !best_sig->primary_uid) ||
		    (b->primary_uid == best_sig->primary_uid && (b->created > best_sig->created ||
		    (b->created == best_sig->created && uid_before(&c->uids[i], &c->uids[best]))))) {
			best = (int)i;
			best_sig = b;
		}
	}
	return best;
}

static int64_t
expiry_of(const pgp_key *k, const pgp_sig *sig)
{
	if (sig && sig->has_key_expires && sig->key_expires)
		return (int64_t)k->created + sig->key_expires;
	return 0;
}

/*
 * The user ID whose reason best says why no self-signature binds the key:
 * the first one refused by the policy, else the first whose binding failed
 * a named check, else the first that is neither bound nor revoked; -1 if
 * none. A revoked user ID never speaks for the key.
 */
static int
unbound_uid_reason(const evalctx *x)
{
	int pass;
	uint32_t i;
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < x->c->nuids; i++) {
			const pgp_uidstate *us = &x->ev->uids[i];
			if (!x->c->uids[i].nsigs || us->reason == NULL ||
			    us->status == PGP_OK || us->status == PGP_ERR_REVOKED)
				continue;
			if ((pass == 0 && us->status == PGP_ERR_POLICY) ||
			    (pass == 1 && strcmp(us->reason, NO_VALID_SELFSIG) != 0) || pass == 2)
				return (int)i;
		}
	return -1;
}

static uint32_t
revoked_uids(const evalctx *x)
{
	uint32_t i, n = 0;
	for (i = 0; i < x->c->nuids; i++)
		n += x->ev->uids[i].status == PGP_ERR_REVOKED;
	return n;
}

/* The primary key's state from its bindings and revocations. */
static void
primary_state(evalctx *x)
{
	const pgp_cert *c = x->c;
	pgp_certeval *ev = x->ev;
	pgp_keystate *ps = &ev->primary;
	const pgp_sig *direct = x->direct != NONE ? &x->es[x->direct].sig : NULL;
	const pgp_sig *uidb = ev->primary_uid >= 0 ? &x->es[x->uid_bind[ev->primary_uid]].sig : NULL;
	const pgp_sig *binding;
	int u;

	/*
	 * No valid user ID: a user ID that was bound and later revoked still
	 * carries a valid self-signature over the primary key. Revoking a user
	 * ID withdraws that identity, not the key (only a key revocation does),
	 * so its binding binds the primary key, as gpg and Sequoia hold; the
	 * certificate then has no primary user ID (docs/semantics.md).
	 */
	if (!direct && !uidb && (u = pick_uid(x, PGP_ERR_REVOKED)) >= 0)
		uidb = &x->es[x->uid_bind[u]].sig;
	binding = direct ? direct : uidb;

	if (binding) {
		const pgp_sig *flags_from = binding;
		int64_t e1 = expiry_of(&c->primary, direct), e2 = expiry_of(&c->primary, uidb);
		/* a direct key signature without flags defers to the primary UID */
		if (direct && !direct->has_key_flags && uidb)
			flags_from = uidb;
		ps->bound = 1;
		ps->binding_time = binding->created;
		ps->has_flags = flags_from->has_key_flags;
		ps->flags = flags_from->has_key_flags ? flags_from->key_flags : infer_flags(&c->primary);
		/*
		 * Key Expiration Time (§5.2.3.13) from the direct-key signature
		 * and the primary user ID's binding, both in force: the earlier
		 * expiry wins (a 0, "never", in one does not lift the other's),
		 * as gpgv (EXPKEYSIG) and sqv hold.
		 */
		ps->expires = e1 && (!e2 || e1 < e2) ? e1 : e2;
		if (!ps->expires && c->primary.version == 3 && c->primary.v3_days)
			/* RFC 4880 §5.5.2: v3 keys carry their validity period */
			ps->expires = (int64_t)c->primary.created + (int64_t)c->primary.v3_days * 86400;
		ps->status = PGP_OK;
	} else if (c->ndsigs == 0 && c->nuids == 0 && c->nsubs == 0) {
		/* A bare primary key: no user ID, no subkey, no signature at all
		 * (RFC 9580 A.1). Nothing restricts it, so it is taken as it is. */
		ev->bare = 1;
		ps->bound = 1;
		ps->flags = infer_flags(&c->primary);
		ps->status = PGP_OK;
	} else if ((u = unbound_uid_reason(x)) >= 0) {
		/* no user ID is bound: report why the first one that is not
		 * revoked is not (a revoked user ID does not revoke the key) */
		ps->status = ev->uids[u].status;
		ps->reason = ev->uids[u].reason;
	} else if (c->nuids && revoked_uids(x) == c->nuids) {
		ps->status = PGP_ERR_UNUSABLE;
		ps->reason = "no self-signature binds the primary key: every user ID is revoked";
	} else {
		ps->status = PGP_ERR_UNUSABLE;
		ps->reason = c->nuids ? "user IDs carry no self-signature"
		    : (c->ndsigs ? "no valid direct-key self-signature"
		    : "primary key has no self-signature (no user ID, no direct-key signature)");
	}
	if (ps->status != PGP_OK && ps->revoked) {
		/* a revocation outranks any other reason the key is unusable */
		ps->status = PGP_ERR_REVOKED;
		ps->reason = ps->revoked == 2 ? "primary key revoked"
		    : "primary key retired or superseded";
		ps->sign_reason = ps->reason;
	} else if (ps->status == PGP_OK) {
		if (ps->revoked == 2 || (ps->revoked == 1 && ps->revoked_at <= x->t)) {
			ps->status = PGP_ERR_REVOKED;
			ps->reason = ps->revoked == 2 ? "primary key revoked"
			    : "primary key retired or superseded";
		} else if (ps->expires && ps->expires <= x->t) {
			ps->status = PGP_ERR_EXPIRED;
			ps->reason = "primary key expired";
		}
		if ((ps->flags & PGP_KF_SIGN) && pgp_pk_can_sign(c->primary.algo))
			ps->sign_ok = 1;
		else
			ps->sign_reason = "primary key is not signing-capable (key flags)";
	} else {
		ps->sign_reason = ps->reason;
	}
}

/* Verify the embedded primary key binding signature (0x19) of a binding. */
static int
backsig_ok(const evalctx *x, const pgp_key *sub, const pgp_sig *binding, const char **why)
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
	if (!pgp__issued_by(&back, sub)) {
		*why = "back-signature is not issued by the subkey";
		return 0;
	}
	return pgp__keysig_check(&x->c->primary, &back, PGP_SIGON_BACKSIG, sub, sub, x->t, x->pol,
	    PGP_USE_SECOND_PREIMAGE, x->memo, why) == PGP_OK;
}

static void
subkey_state(evalctx *x, uint32_t si)
{
	const pgp_subc *sc = &x->c->subs[si];
	pgp_keystate *ks = &x->ev->subs[si];
	const pgp_sig *binding;

	if (x->sub_bind[si] == NONE) {
		ks->status = unbound_status(ks->status);
		if (ks->reason == NULL)
			ks->reason = "no valid subkey binding signature";
		ks->sign_reason = ks->reason;
		return;
	}
	binding = &x->es[x->sub_bind[si]].sig;
	ks->reason = NULL;
	ks->bound = 1;
	ks->binding_time = binding->created;
	ks->has_flags = binding->has_key_flags;
	ks->flags = binding->has_key_flags ? binding->key_flags : infer_flags(&sc->key);
	ks->expires = expiry_of(&sc->key, binding);
	ks->status = PGP_OK;
	if (ks->revoked == 2 || (ks->revoked == 1 && ks->revoked_at <= x->t)) {
		ks->status = PGP_ERR_REVOKED;
		ks->reason = ks->revoked == 2 ? "subkey revoked" : "subkey retired or superseded";
	} else if (ks->expires && ks->expires <= x->t) {
		ks->status = PGP_ERR_EXPIRED;
		ks->reason = "subkey expired";
	}
	/* §5.2.1.9 / §5.2.3.34: a signing subkey needs a valid back-signature */
	if (!(ks->flags & PGP_KF_SIGN) || !pgp_pk_can_sign(sc->key.algo)) {
		ks->sign_reason = "subkey is not signing-capable (key flags)";
	} else if (backsig_ok(x, &sc->key, binding, &ks->sign_reason)) {
		ks->sign_ok = 1;
		ks->sign_reason = NULL;
	}
}

#define LIMIT_REASON "more misplaced-revocation checks than PGP_MAX_REVOCATION_TRIALS: " \
	"certificate not evaluated"

static void
fail_limit(pgp_keystate *ks)
{
	memset(ks, 0, sizeof *ks);
	ks->status = PGP_ERR_LIMIT;
	ks->reason = LIMIT_REASON;
	ks->sign_reason = LIMIT_REASON;
}

/* A limit was hit: nothing of the certificate may be used (fail closed). */
static void
fail_closed(evalctx *x)
{
	uint32_t i;
	fail_limit(&x->ev->primary);
	for (i = 0; i < x->c->nsubs; i++)
		fail_limit(&x->ev->subs[i]);
	for (i = 0; i < x->c->nuids; i++) {
		x->ev->uids[i].status = PGP_ERR_LIMIT;
		x->ev->uids[i].reason = LIMIT_REASON;
	}
	x->ev->primary_uid = -1;
}

/* see eval_int.h */
pgp_err
pgp__cert_eval_capped(pgp_certeval *ev, const pgp_cert *c, const pgp_certsrc *src,
    int64_t t, const pgp_policy *pol, size_t max_trials, size_t alloc_budget)
{
	evalctx x;
	uint32_t i;
	size_t *binds = NULL;
	pgp_err e = PGP_OK;

	memset(ev, 0, sizeof *ev);
	memset(&x, 0, sizeof x);
	ev->cert = c;
	ev->t = t;
	ev->primary_uid = -1;
	x.ev = ev;
	x.c = c;
	x.src = src;
	x.memo = src ? src->memo : NULL;
	x.pol = pol;
	x.t = t;
	x.direct = NONE;
	x.max_trials = max_trials;
	x.alloc_budget = alloc_budget;
	ev->subs = ctx_calloc(&x, c->nsubs, sizeof *ev->subs);
	ev->uids = ctx_calloc(&x, c->nuids, sizeof *ev->uids);
	binds = ctx_calloc(&x, (size_t)c->nuids + c->nsubs, sizeof *binds);
	x.uid_revoked_at = ctx_calloc(&x, c->nuids, sizeof *x.uid_revoked_at);
	if (ev->subs == NULL || ev->uids == NULL || binds == NULL || x.uid_revoked_at == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	x.uid_bind = binds;
	x.sub_bind = binds + c->nuids;
	for (i = 0; i < c->nuids + c->nsubs; i++)
		binds[i] = NONE;
	for (i = 0; i < c->nuids; i++)
		x.uid_revoked_at[i] = -1;

	if ((e = collect(&x)) != PGP_OK)
		goto out;
	find_bindings(&x);
	own_revocations(&x);
	if (x.limit) {
		fail_closed(&x);
		goto out;
	}
	uid_states(&x);
	ev->primary_uid = pick_uid(&x, PGP_OK);
	if ((e = designated_revocations(&x)) != PGP_OK ||
	    (e = designated_standalone(&x)) != PGP_OK)
		goto out;
	if (x.limit) {
		fail_closed(&x);
		goto out;
	}
	primary_state(&x);
	for (i = 0; i < c->nsubs; i++)
		subkey_state(&x, i);
out:
	free(x.es);
	free(binds);
	free(x.uid_revoked_at);
	if (e != PGP_OK) {
		pgp_certeval_release(ev);
		ev->primary.status = e;
		ev->primary.reason = pgp_strerror(e);
	}
	return e;
}

/* see eval.h */
pgp_err
pgp_cert_eval(pgp_certeval *ev, const pgp_cert *c, const pgp_certsrc *src, int64_t t,
    const pgp_policy *pol)
{
	return pgp__cert_eval_capped(ev, c, src, t, pol, PGP_MAX_REVOCATION_TRIALS, SIZE_MAX);
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
	if (ks->status == PGP_ERR_LIMIT || ks->status == PGP_ERR_NOMEM) {
		*reason = ks->reason ? ks->reason : pgp_strerror(ks->status);
		return ks->status;
	}
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
