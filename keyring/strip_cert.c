/*
 * strip_cert.c - one certificate: which signatures verify and where they
 * belong (phase 1: self-signatures, revocations, components; phase 2:
 * third-party certifications). see strip.h, docs/semantics.md "Stripping"
 *
 * Every decision depends only on the merged certificate and the set, never
 * on input order: components are grouped by identical octets (user IDs) or
 * fingerprint (subkeys); caps cut a total order of the candidates (newest
 * first, then octets) before any public-key operation; a misplaced
 * revocation is placed on the one component it verifies over.
 */
#include <stdlib.h>
#include <string.h>
#include "strip_int.h"

/* ---- components ---- */

static int
uid_cmp3(const pgp_uidc *a, const pgp_uidc *b)
{
	size_t n = a->data.len < b->data.len ? a->data.len : b->data.len;
	int c;
	/* user IDs (tag 13) before user attributes (tag 17), then octets */
	if (a->is_attr != b->is_attr)
		return a->is_attr < b->is_attr ? -1 : 1;
	if (n && (c = memcmp(a->data.p, b->data.p, n)) != 0)
		return c;
	return a->data.len < b->data.len ? -1 : a->data.len > b->data.len;
}

static int
sub_cmp3(const pgp_key *a, const pgp_key *b)
{
	if (a->created != b->created)
		return a->created < b->created ? -1 : 1;
	if (a->fpr.len != b->fpr.len)
		return a->fpr.len < b->fpr.len ? -1 : 1;
	return memcmp(a->fpr.v, b->fpr.v, a->fpr.len);
}

typedef struct ord { const pgp_cert *c; uint32_t i; } ord;

static int
uid_ord_cmp(const void *a, const void *b)
{
	const ord *x = a, *y = b;
	int c = uid_cmp3(&x->c->uids[x->i], &y->c->uids[y->i]);
	return c ? c : (x->i < y->i ? -1 : x->i > y->i);
}

static int
sub_ord_cmp(const void *a, const void *b)
{
	const ord *x = a, *y = b;
	int c = sub_cmp3(&x->c->subs[x->i].key, &y->c->subs[y->i].key);
	return c ? c : (x->i < y->i ? -1 : x->i > y->i);
}

/* Group identical user IDs (subkeys: same fingerprint), in output order. */
static pgp_err
make_groups(kcert *k, int subs)
{
	const pgp_cert *c = k->c;
	uint32_t n = subs ? c->nsubs : c->nuids, i, ng = 0;
	uint32_t *map;
	kgrp *g;
	ord *o;

	map = calloc(n ? n : 1, sizeof *map);
	g = calloc(n ? n : 1, sizeof *g);
	o = calloc(n ? n : 1, sizeof *o);
	if (map == NULL || g == NULL || o == NULL) {
		free(map);
		free(g);
		free(o);
		return PGP_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		o[i].c = c;
		o[i].i = i;
	}
	if (n > 1)
		qsort(o, n, sizeof *o, subs ? sub_ord_cmp : uid_ord_cmp);
	for (i = 0; i < n; i++) {
		int same = i > 0 && (subs ?
		    sub_cmp3(&c->subs[o[i].i].key, &c->subs[o[i - 1].i].key) == 0 :
		    uid_cmp3(&c->uids[o[i].i], &c->uids[o[i - 1].i]) == 0);
		if (!same) {
			g[ng].rep = o[i].i;
			g[ng].out = -1;
			ng++;
		}
		map[o[i].i] = ng - 1;
	}
	free(o);
	if (subs) {
		k->sub_grp = map;
		k->sg = g;
		k->nsg = ng;
	} else {
		k->uid_grp = map;
		k->ug = g;
		k->nug = ng;
	}
	return PGP_OK;
}

/* ---- signatures ---- */

static pgp_err
add_sig(kcert *k, const pgp_rd *body, uint8_t src, uint32_t comp, uint32_t grp)
{
	ksig *s;
	if (k->ns == k->caps) {
		uint32_t ncap = k->caps ? k->caps * 2 : 32;
		ksig *np;
		if (ncap < k->caps)
			return PGP_ERR_NOMEM;
		if ((np = realloc(k->s, ncap * sizeof *np)) == NULL)
			return PGP_ERR_NOMEM;
		k->s = np;
		k->caps = ncap;
	}
	s = &k->s[k->ns++];
	memset(s, 0, sizeof *s);
	s->body = body;
	s->src = src;
	s->src_comp = comp;
	s->grp = grp;
	s->at = src == K_LOOSE ? K_DIRECT : src;
	s->issuer_key = -1;
	return PGP_OK;
}

/* see strip_int.h */
void
kr__drop(kcert *k, uint32_t i, kr_drop r)
{
	k->s[i].state = S_DROP;
	k->s[i].reason = (uint8_t)r;
}

/* 1 sig names k as issuer, 0 another key, 2 no issuer at all. */
static int
names(const pgp_sig *sig, const pgp_key *key)
{
	if (sig->issuer_fpr.len)
		return sig->issuer_fpr.len == key->fpr.len &&
		    memcmp(sig->issuer_fpr.v, key->fpr.v, key->fpr.len) == 0;
	if (sig->has_issuer)
		return memcmp(sig->issuer, key->keyid, 8) == 0;
	return 2;
}

static int
is_cert_type(int t)
{
	return t >= PGP_SIG_CERT_GENERIC && t <= PGP_SIG_CERT_POSITIVE;
}

/* Role of signature i from its type, issuer and input list. */
static void
classify(kcert *k, uint32_t i)
{
	ksig *s = &k->s[i];
	pgp_sig sig;
	int self, src = s->src;

	if (pgp_sig_parse(&sig, s->body, NULL) != PGP_OK || sig.opaque) {
		kr__drop(k, i, KR_DROP_UNPARSED);
		return;
	}
	self = names(&sig, &k->c->primary);
	s->type = sig.type;
	s->created = sig.created;
	s->self = (uint8_t)self;
	if (sig.issuer_fpr.len == 20) {
		memcpy(s->issuer, sig.issuer_fpr.v + 12, 8);
		s->has_issuer = 1;
	} else if (sig.issuer_fpr.len == 32) {
		memcpy(s->issuer, sig.issuer_fpr.v, 8);
		s->has_issuer = 1;
	} else if (sig.has_issuer) {
		memcpy(s->issuer, sig.issuer, 8);
		s->has_issuer = 1;
	}
	switch (sig.type) {
	case PGP_SIG_KEY_REVOCATION:
		/* §5.2.1.11: over the primary key alone, wherever it sits */
		s->at = K_DIRECT;
		s->grp = 0;
		if (self)
			s->role = R_REV;
		else if (src == K_LOOSE)
			kr__drop(k, i, KR_DROP_MISPLACED); /* a revocation of another key */
		else
			s->role = R_DESIG;
		return;
	case PGP_SIG_DIRECT_KEY:
		if (src == K_DIRECT && self)
			s->role = R_BIND;
		else
			kr__drop(k, i, KR_DROP_MISPLACED);
		return;
	case PGP_SIG_SUBKEY_BINDING:
		if (src == K_SUB && self)
			s->role = R_BIND;
		else
			kr__drop(k, i, KR_DROP_MISPLACED);
		return;
	case PGP_SIG_SUBKEY_REVOCATION:
		if (self && k->nsg)
			s->role = R_REV;
		else
			kr__drop(k, i, KR_DROP_MISPLACED);
		return;
	case PGP_SIG_CERT_REVOCATION:
		if (src == K_UID && self == 0)
			s->role = R_THIRD;
		else if (self && k->nug)
			s->role = R_REV;
		else
			kr__drop(k, i, KR_DROP_MISPLACED);
		return;
	default:
		if (is_cert_type(sig.type) && src == K_UID)
			s->role = self == 0 ? R_THIRD : R_BIND;
		else
			kr__drop(k, i, KR_DROP_MISPLACED);
		return;
	}
}

static kr_drop
math_reason(pgp_err e)
{
	switch (e) {
	case PGP_ERR_UNSUPPORTED:
		return KR_DROP_UNSUPPORTED;
	case PGP_ERR_MALFORMED:
	case PGP_ERR_TRUNCATED:
		return KR_DROP_UNPARSED;
	default:
		return KR_DROP_BAD_SIG;
	}
}

/* The math of signature i over (at, grp) by signer; tags recorded to k. */
static pgp_err
math(kcert *k, uint32_t i, int at, uint32_t grp, const pgp_key *signer, pgp_sig *sig)
{
	const pgp_cert *c = k->c;
	pgp_sigmemo m;
	const void *comp = NULL;
	pgp_sigon on = PGP_SIGON_DIRECT;
	pgp_err e;

	if (pgp_sig_parse(sig, k->s[i].body, NULL) != PGP_OK)
		return PGP_ERR_MALFORMED;
	if (at == K_UID) {
		on = PGP_SIGON_UID;
		comp = &c->uids[k->ug[grp].rep];
	} else if (at == K_SUB) {
		on = PGP_SIGON_SUBKEY;
		comp = &c->subs[k->sg[grp].rep].key;
	}
	kr__memo(k, &m);
	k->cur = i;
	e = pgp_keysig_math(&c->primary, sig, on, comp, signer, &m, NULL);
	return k->oom ? PGP_ERR_NOMEM : e;
}

/* §5.2.1.9: the embedded primary key binding of a subkey binding, made by
 * the subkey; only its tag matters (evaluation decides signing use). */
static pgp_err
backsig(kcert *k, uint32_t i, const pgp_sig *binding)
{
	const pgp_key *sub = &k->c->subs[k->sg[k->s[i].grp].rep].key;
	pgp_sig back;
	pgp_rd r;
	pgp_sigmemo m;
	pgp_err e;

	if (binding->embedded.p == NULL)
		return PGP_OK;
	pgp_rd_init(&r, binding->embedded.p, binding->embedded.len);
	if (pgp_sig_parse(&back, &r, NULL) != PGP_OK || back.type != PGP_SIG_PRIMARY_BINDING ||
	    names(&back, sub) == 0)
		return PGP_OK;
	kr__memo(k, &m);
	k->cur = i;
	e = pgp_keysig_math(&k->c->primary, &back, PGP_SIGON_BACKSIG, sub, sub, &m, NULL);
	return e == PGP_ERR_NOMEM || k->oom ? PGP_ERR_NOMEM : PGP_OK;
}

static int
can_certify(const pgp_sig *b, const pgp_key *sub)
{
	if (b->has_key_flags)
		return (b->key_flags & PGP_KF_CERTIFY) != 0;
	/* as evaluation: no key flags, inferred from the algorithm */
	return pgp_pk_can_sign(sub->algo);
}

typedef struct cand { const ksig *s; uint32_t i; } cand;

static int
cand_cmp(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	int c = kr__cap_cmp(x->s, y->s);
	return c ? c : (x->i < y->i ? -1 : x->i > y->i);
}

/* see strip_int.h */
int
kr__body_cmp(const pgp_rd *a, const pgp_rd *b)
{
	size_t n = a->len < b->len ? a->len : b->len;
	int c = n ? memcmp(a->p, b->p, n) : 0;
	if (c)
		return c;
	return a->len < b->len ? -1 : a->len > b->len;
}

/* see strip_int.h */
int
kr__cap_cmp(const ksig *a, const ksig *b)
{
	if (a->created != b->created)
		return a->created > b->created ? -1 : 1;
	return kr__body_cmp(a->body, b->body);
}

/*
 * Keep the first `max` of the candidates (in cap order: newest first, then
 * octets); drop the rest for reason r. Returns how many were dropped.
 */
static pgp_err
cap(kcert *k, uint32_t *idx, uint32_t n, uint32_t max, kr_drop r, uint32_t *dropped)
{
	cand *v;
	uint32_t i;
	*dropped = 0;
	if (n <= max)
		return PGP_OK;
	if ((v = malloc((size_t)n * sizeof *v)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		v[i].s = &k->s[idx[i]];
		v[i].i = idx[i];
	}
	qsort(v, n, sizeof *v, cand_cmp);
	for (i = max; i < n; i++)
		kr__drop(k, v[i].i, r);
	*dropped = n - max;
	free(v);
	return PGP_OK;
}

/* Bound components of a kind, for misplaced revocations. */
static int
rev_over(kcert *k, uint32_t i, int at, uint32_t g, pgp_err *err)
{
	pgp_sig sig;
	pgp_err e = math(k, i, at, g, &k->c->primary, &sig);
	*err = e;
	return e == PGP_OK;
}

static pgp_err
check_revocation(kr_ctx *x, kcert *k, uint32_t i)
{
	ksig *s = &k->s[i];
	int at, own;
	uint32_t n, g;
	kgrp *gr;
	pgp_err e = PGP_OK;
	(void)x;

	if (s->type == PGP_SIG_KEY_REVOCATION) {
		pgp_sig sig;
		e = math(k, i, K_DIRECT, 0, &k->c->primary, &sig);
		if (e == PGP_OK)
			s->state = S_KEPT;
		else if (e != PGP_ERR_NOMEM)
			kr__drop(k, i, math_reason(e));
		return e == PGP_ERR_NOMEM ? e : PGP_OK;
	}
	at = s->type == PGP_SIG_CERT_REVOCATION ? K_UID : K_SUB;
	n = at == K_UID ? k->nug : k->nsg;
	gr = at == K_UID ? k->ug : k->sg;
	own = s->src == at;
	if (own && rev_over(k, i, at, s->grp, &e)) {
		s->state = S_KEPT;
		gr[s->grp].revoked = 1;
		return PGP_OK;
	}
	if (e == PGP_ERR_NOMEM)
		return e;
	/* RFC 9580 §10.1 puts it after what it revokes; one found elsewhere
	 * is tried on the bound components of its kind, as evaluation does */
	for (g = 0; g < n; g++) {
		if ((own && g == s->grp) || !gr[g].bound)
			continue;
		if (++k->trials > KR_MAX_REVOCATION_TRIALS)
			break;
		if (rev_over(k, i, at, g, &e)) {
			s->state = S_KEPT;
			s->at = (uint8_t)at;
			s->grp = g;
			gr[g].revoked = 1;
			return PGP_OK;
		}
		if (e == PGP_ERR_NOMEM)
			return e;
	}
	kr__drop(k, i, own ? math_reason(e) : KR_DROP_BAD_SIG);
	return PGP_OK;
}

/* Whether a verified self-signature designates the issuer of rev as a
 * revoker (§5.2.3.23); its fingerprint in *out. */
static int
designated(kcert *k, const pgp_sig *rev, pgp_fpr *out)
{
	uint32_t i;
	for (i = 0; i < k->ns; i++) {
		const ksig *s = &k->s[i];
		pgp_sig self;
		pgp_revoker rv;
		size_t pos = 0;
		if (s->role != R_BIND || s->state != S_KEPT || s->extra)
			continue;
		if (pgp_sig_parse(&self, s->body, NULL) != PGP_OK || !self.has_revoker)
			continue;
		while (pgp_sig_next_revoker(&self, &pos, &rv) == PGP_OK)
			if (pgp_sig_names_fpr(rev, &rv.fpr)) {
				*out = rv.fpr;
				return 1;
			}
	}
	return 0;
}

/* The key with fingerprint fpr in the set (first holder), or NULL. */
static pgp_err
key_by_fpr(kr_ctx *x, const pgp_fpr *fpr, const pgp_key **out)
{
	const pgp_cert *hold[8];
	size_t total = 0, i;
	pgp_certq q;
	pgp_err e;
	*out = NULL;
	if (fpr->len != 20 && fpr->len != 32)
		return PGP_OK;
	q.kind = PGP_CERTQ_FPR;
	q.p = fpr->v;
	q.len = fpr->len;
	if ((e = pgp_certset_find(x->set, &q, hold, 8, &total)) != PGP_OK)
		return e;
	for (i = 0; i < total && i < 8 && *out == NULL; i++)
		*out = pgp_cert_key_by_fpr(hold[i], fpr, NULL);
	return PGP_OK;
}

/*
 * §5.2.3.23: key revocations by another key count when a verified
 * self-signature designates that key: checked when its key is in the set,
 * kept unchecked (as evaluation reports revoker_unchecked) when it is not.
 */
static pgp_err
check_designated(kr_ctx *x, kcert *k, uint32_t i)
{
	ksig *s = &k->s[i];
	pgp_sig sig;
	pgp_fpr fpr;
	const pgp_key *rk;
	pgp_err e;

	if (pgp_sig_parse(&sig, s->body, NULL) != PGP_OK) {
		kr__drop(k, i, KR_DROP_UNPARSED);
		return PGP_OK;
	}
	if (!designated(k, &sig, &fpr)) {
		kr__drop(k, i, KR_DROP_MISPLACED);
		return PGP_OK;
	}
	e = key_by_fpr(x, &fpr, &rk);
	if (e == PGP_ERR_NOMEM)
		return e;
	if (e != PGP_OK || rk == NULL) {
		/* absent (or refused for a limit): kept unchecked, never dropped */
		s->state = S_KEPT;
		s->unchecked = 1;
		return PGP_OK;
	}
	e = math(k, i, K_DIRECT, 0, rk, &sig);
	if (e == PGP_OK)
		s->state = S_KEPT;
	else if (e == PGP_ERR_NOMEM)
		return e;
	else
		kr__drop(k, i, math_reason(e));
	return PGP_OK;
}

/*
 * A designated revoker's stand-alone revocation sits with the revoker's
 * certificate (cert.h); check those over this primary key too.
 */
static pgp_err
designated_standalone(kr_ctx *x, kcert *k)
{
	uint32_t i, n0 = k->ns;
	pgp_err e;

	for (i = 0; i < n0; i++) {
		const ksig *s = &k->s[i];
		pgp_sig self;
		pgp_revoker rv;
		size_t pos = 0;
		if (s->role != R_BIND || s->state != S_KEPT)
			continue;
		if (pgp_sig_parse(&self, s->body, NULL) != PGP_OK || !self.has_revoker)
			continue;
		while (pgp_sig_next_revoker(&self, &pos, &rv) == PGP_OK) {
			const pgp_cert *hold[8];
			size_t total = 0, h;
			pgp_certq q;
			if (rv.fpr.len != 20 && rv.fpr.len != 32)
				continue;
			q.kind = PGP_CERTQ_FPR;
			q.p = rv.fpr.v;
			q.len = rv.fpr.len;
			e = pgp_certset_find(x->set, &q, hold, 8, &total);
			if (e == PGP_ERR_NOMEM)
				return e;
			if (e != PGP_OK)
				continue;
			for (h = 0; h < total && h < 8; h++) {
				const pgp_cert *rc = hold[h];
				const pgp_key *rk = pgp_cert_key_by_fpr(rc, &rv.fpr, NULL);
				uint32_t j;
				if (rc == k->c || rk == NULL)
					continue;
				for (j = 0; j < rc->nloose; j++) {
					pgp_sig sig;
					uint32_t ni;
					if (pgp_sig_parse(&sig, &rc->loose[j], NULL) != PGP_OK ||
					    sig.type != PGP_SIG_KEY_REVOCATION || !pgp_sig_names_fpr(&sig, &rv.fpr))
						continue;
					if (k->budget == 0)
						continue;
					k->budget--;
					if ((e = add_sig(k, &rc->loose[j], K_LOOSE, j, 0)) != PGP_OK)
						return e;
					ni = k->ns - 1;
					k->s[ni].extra = 1;
					k->s[ni].type = sig.type;
					k->s[ni].created = sig.created;
					k->s[ni].role = R_DESIG;
					k->s[ni].self = 0;
					e = math(k, ni, K_DIRECT, 0, rk, &sig);
					if (e == PGP_ERR_NOMEM)
						return e;
					if (e == PGP_OK)
						k->s[ni].state = S_KEPT;
					else
						k->ns--; /* not about this key: nothing to count */
				}
			}
		}
	}
	return PGP_OK;
}

/*
 * A certificate with components or direct signatures must not come out as
 * a bare primary key: evaluation takes a bare key as it is (RFC 9580 A.1,
 * docs/semantics.md), so stripping would turn "no valid self-signature"
 * into "valid". When nothing verified, one component stays as it was,
 * unverified, so that evaluating the stripped certificate finds what the
 * raw one gives (unusable): the first user ID in output order with its
 * newest self-signature, else the first subkey with its newest binding,
 * else the newest direct signature.
 */
static void
never_bare(kcert *k)
{
	const pgp_cert *c = k->c;
	uint32_t i;
	int32_t best = -1;
	int at;

	if (c->ndsigs == 0 && c->nuids == 0 && c->nsubs == 0)
		return; /* bare on input too */
	for (i = 0; i < k->nug; i++)
		if (k->ug[i].out >= 0)
			return;
	for (i = 0; i < k->nsg; i++)
		if (k->sg[i].out >= 0)
			return;
	for (i = 0; i < k->ns; i++)
		if (k->s[i].state == S_KEPT && k->s[i].at == K_DIRECT)
			return;
	at = k->nug ? K_UID : k->nsg ? K_SUB : K_DIRECT;
	for (i = 0; i < k->ns; i++) {
		const ksig *s = &k->s[i];
		int self_bind = s->role == R_BIND && s->self != 0;
		if (s->at != at || s->grp != 0 || s->extra || (at != K_DIRECT && !self_bind))
			continue;
		if (best < 0 || (self_bind && k->s[best].role != R_BIND) ||
		    ((self_bind || k->s[best].role != R_BIND) && kr__cap_cmp(s, &k->s[best]) < 0))
			best = (int32_t)i;
	}
	if (best >= 0) {
		k->s[best].state = S_KEPT;
		k->s[best].unchecked = 1;
	}
	if (at == K_UID)
		k->ug[0].out = 0;
	else if (at == K_SUB)
		k->sg[0].out = 0;
}

/* see strip_int.h */
pgp_err
kr__phase_self(kr_ctx *x, kcert *k)
{
	const pgp_cert *c = k->c;
	uint32_t i, j, n, dropped, *idx;
	pgp_err e;

	k->budget = x->max_cert;
	if ((e = make_groups(k, 0)) != PGP_OK || (e = make_groups(k, 1)) != PGP_OK)
		return e;
	for (i = 0; i < c->ndsigs; i++)
		if ((e = add_sig(k, &c->dsigs[i], K_DIRECT, i, 0)) != PGP_OK)
			return e;
	for (i = 0; i < c->nuids; i++)
		for (j = 0; j < c->uids[i].nsigs; j++)
			if ((e = add_sig(k, &c->uids[i].sigs[j], K_UID, i, k->uid_grp[i])) != PGP_OK)
				return e;
	for (i = 0; i < c->nsubs; i++)
		for (j = 0; j < c->subs[i].nsigs; j++)
			if ((e = add_sig(k, &c->subs[i].sigs[j], K_SUB, i, k->sub_grp[i])) != PGP_OK)
				return e;
	for (i = 0; i < c->nloose; i++)
		if ((e = add_sig(k, &c->loose[i], K_LOOSE, i, 0)) != PGP_OK)
			return e;
	for (i = 0; i < k->ns; i++)
		classify(k, i);

	/* the per-certificate cap, before any math: self-signature candidates */
	if ((idx = malloc(((size_t)k->ns + 1) * sizeof *idx)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = n = 0; i < k->ns; i++)
		if (k->s[i].state == S_PENDING && k->s[i].role != R_THIRD)
			idx[n++] = i;
	e = cap(k, idx, n, k->budget, KR_DROP_CAP_CERT, &dropped);
	free(idx);
	if (e != PGP_OK)
		return e;
	if (dropped && (e = kr__note(k, "%u self-signature candidates beyond the "
	    "per-certificate cap of %u were dropped unchecked", dropped, k->budget)) != PGP_OK)
		return e;
	k->budget -= n - dropped; /* cap() kept at most k->budget */

	/* bindings */
	for (i = 0; i < k->ns; i++) {
		ksig *s = &k->s[i];
		pgp_sig sig;
		if (s->state != S_PENDING || s->role != R_BIND)
			continue;
		e = math(k, i, s->at, s->grp, &c->primary, &sig);
		if (e == PGP_ERR_NOMEM)
			return e;
		if (e != PGP_OK) {
			/* a certification naming no issuer that is not the owner's */
			kr__drop(k, i, s->self == 2 && is_cert_type(s->type) ?
			    KR_DROP_NO_ISSUER : math_reason(e));
			continue;
		}
		s->state = S_KEPT;
		if (s->at == K_UID) {
			k->ug[s->grp].bound = 1;
		} else if (s->at == K_SUB) {
			const pgp_key *sub = &c->subs[k->sg[s->grp].rep].key;
			k->sg[s->grp].bound = 1;
			if (can_certify(&sig, sub))
				k->sg[s->grp].certify = 1;
			if ((e = backsig(k, i, &sig)) != PGP_OK)
				return e;
		}
	}
	/* revocations by the primary key */
	for (i = 0; i < k->ns; i++)
		if (k->s[i].state == S_PENDING && k->s[i].role == R_REV &&
		    (e = check_revocation(x, k, i)) != PGP_OK)
			return e;
	/* revocations by designated revokers */
	for (i = 0; i < k->ns; i++)
		if (k->s[i].state == S_PENDING && k->s[i].role == R_DESIG &&
		    (e = check_designated(x, k, i)) != PGP_OK)
			return e;
	if ((e = designated_standalone(x, k)) != PGP_OK)
		return e;

	/* components: kept when bound or revoked (never drop a revocation) */
	for (i = n = 0; i < k->nug; i++)
		if (k->ug[i].bound || k->ug[i].revoked)
			k->ug[i].out = (int32_t)n++;
	for (i = n = 0; i < k->nsg; i++)
		if (k->sg[i].bound || k->sg[i].revoked)
			k->sg[i].out = (int32_t)n++;
	for (i = 0; i < k->ns; i++) {
		ksig *s = &k->s[i];
		const kgrp *g = s->at == K_UID ? &k->ug[s->grp] : s->at == K_SUB ? &k->sg[s->grp] : NULL;
		if (g && g->out < 0 && s->state == S_PENDING)
			kr__drop(k, i, KR_DROP_COMPONENT);
	}
	never_bare(k);
	return PGP_OK;
}

/* ---- third-party certifications ---- */

/* The issuer keys of a certification found in the set (at most `max`). */
typedef struct ikey {
	const pgp_key *key;
	uint32_t cert;       /* sorted index */
	int32_t out;         /* -1 primary, else output subkey index */
} ikey;

#define MAX_ISSUER_KEYS 4

/* *refused: 1 when the lookup was refused for a limit, 2 when the key is
 * one of the certificate's own. */
static pgp_err
issuers(kr_ctx *x, kcert *k, const pgp_sig *sig, ikey *out, size_t *n, int *refused)
{
	const pgp_cert *hold[MAX_ISSUER_KEYS];
	size_t total = 0, h;
	pgp_certq q;
	pgp_err e;

	*n = 0;
	*refused = 0;
	if (sig->issuer_fpr.len == 20 || sig->issuer_fpr.len == 32) {
		q.kind = PGP_CERTQ_FPR;
		q.p = sig->issuer_fpr.v;
		q.len = sig->issuer_fpr.len;
	} else if (sig->has_issuer) {
		q.kind = PGP_CERTQ_KEYID;
		q.p = sig->issuer;
		q.len = 8;
	} else {
		return PGP_OK;
	}
	if ((e = pgp_certset_find(x->set, &q, hold, MAX_ISSUER_KEYS, &total)) != PGP_OK) {
		if (e == PGP_ERR_NOMEM)
			return e;
		*refused = 1; /* a certificate refused for a limit: not in the set */
		return PGP_OK;
	}
	for (h = 0; h < total && h < MAX_ISSUER_KEYS; h++) {
		int si = -1;
		const pgp_key *key = q.kind == PGP_CERTQ_FPR ?
		    pgp_cert_key_by_fpr(hold[h], &sig->issuer_fpr, &si) :
		    pgp_cert_key_by_id(hold[h], sig->issuer, &si);
		uint32_t ci = kr__cert_index(x, hold[h]);
		const kcert *ic;
		if (key != NULL && hold[h] == k->c)
			*refused = 2; /* the certificate's own (sub)key: not a third party */
		if (key == NULL || ci == UINT32_MAX || hold[h] == k->c)
			continue;
		ic = &x->kc[ci];
		out[*n].key = key;
		out[*n].cert = ci;
		out[*n].out = -1;
		if (si >= 0) {
			/* a subkey: bound, and allowed to certify */
			const kgrp *g = &ic->sg[ic->sub_grp[si]];
			if (!g->bound || !g->certify || g->out < 0)
				continue;
			out[*n].out = g->out;
		}
		(*n)++;
	}
	return PGP_OK;
}

/* see strip_int.h */
pgp_err
kr__phase_third(kr_ctx *x, kcert *k)
{
	uint32_t i, n, g, dropped, *idx, *cnt;
	pgp_err e = PGP_OK;

	if ((idx = malloc(((size_t)k->ns + 1) * sizeof *idx)) == NULL)
		return PGP_ERR_NOMEM;
	if ((cnt = calloc((size_t)k->nug + 1, sizeof *cnt)) == NULL) {
		free(idx);
		return PGP_ERR_NOMEM;
	}
	/* cheap filters first: exportable, an issuer, in the set (no math) */
	for (i = n = 0; i < k->ns; i++) {
		ksig *s = &k->s[i];
		pgp_sig sig;
		ikey ik[MAX_ISSUER_KEYS];
		size_t nk;
		int refused;
		if (s->state != S_PENDING || s->role != R_THIRD)
			continue;
		if (pgp_sig_parse(&sig, s->body, NULL) != PGP_OK) {
			kr__drop(k, i, KR_DROP_UNPARSED);
			continue;
		}
		if (!sig.exportable) {
			kr__drop(k, i, KR_DROP_LOCAL); /* §5.2.3.19 */
			continue;
		}
		if (!s->has_issuer) {
			kr__drop(k, i, KR_DROP_NO_ISSUER);
			continue;
		}
		if ((e = issuers(x, k, &sig, ik, &nk, &refused)) != PGP_OK)
			goto out;
		if (nk == 0) {
			kr__drop(k, i, refused == 2 ? KR_DROP_MISPLACED : KR_DROP_ISSUER_OUTSIDE);
			continue;
		}
		cnt[s->grp]++;
	}
	/* the per-user-ID cap, then the per-certificate one, in cap order */
	for (g = 0; g < k->nug; g++) {
		if (cnt[g] <= x->max_uid)
			continue;
		for (i = n = 0; i < k->ns; i++)
			if (k->s[i].state == S_PENDING && k->s[i].role == R_THIRD && k->s[i].grp == g)
				idx[n++] = i;
		if ((e = cap(k, idx, n, x->max_uid, KR_DROP_CAP_UID, &dropped)) != PGP_OK)
			goto out;
		if ((e = kr__note(k, "user ID #%u: %u certifications by issuers in the set, "
		    "kept the newest %u (per-user-ID cap), %u dropped unchecked",
		    (unsigned)k->ug[g].out, n, x->max_uid, dropped)) != PGP_OK)
			goto out;
	}
	for (i = n = 0; i < k->ns; i++)
		if (k->s[i].state == S_PENDING && k->s[i].role == R_THIRD)
			idx[n++] = i;
	if ((e = cap(k, idx, n, k->budget, KR_DROP_CAP_CERT, &dropped)) != PGP_OK)
		goto out;
	if (dropped && (e = kr__note(k, "%u certifications beyond the per-certificate cap "
	    "were dropped unchecked", dropped)) != PGP_OK)
		goto out;

	for (i = 0; i < k->ns; i++) {
		ksig *s = &k->s[i];
		pgp_sig sig;
		ikey ik[MAX_ISSUER_KEYS];
		size_t nk, j;
		int refused;
		pgp_err last = PGP_ERR_BAD_SIG;
		if (s->state != S_PENDING || s->role != R_THIRD)
			continue;
		if (pgp_sig_parse(&sig, s->body, NULL) != PGP_OK ||
		    (e = issuers(x, k, &sig, ik, &nk, &refused)) != PGP_OK)
			goto out;
		for (j = 0; j < nk && s->state == S_PENDING; j++) {
			pgp_sig tmp;
			e = math(k, i, K_UID, s->grp, ik[j].key, &tmp);
			if (e == PGP_ERR_NOMEM)
				goto out;
			if (e == PGP_OK) {
				s->state = S_KEPT;
				s->issuer_cert = ik[j].cert;
				s->issuer_key = ik[j].out;
			} else {
				last = e;
			}
		}
		e = PGP_OK;
		if (s->state == S_PENDING)
			kr__drop(k, i, math_reason(last));
	}
out:
	free(idx);
	free(cnt);
	return e;
}
