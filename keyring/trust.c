/*
 * trust.c - GnuPG's classic trust model over a wot_graph (trust.h).
 *
 * One pass per level, as GnuPG 2.2's validate_keys: the introducers of the
 * level look at the keys they certified; each such key, unless it is done
 * (ultimately trusted, not valid, or every user ID fully valid at an
 * earlier level), gets the level's certifications added to the counts of
 * its user IDs, and a key with a fully valid user ID that was no
 * introducer yet becomes one of the next level.
 *
 * Everything lives in arrays indexed by node, by user ID (flattened: the
 * user IDs of node i are uid_base[i] .. uid_base[i+1]) and by
 * certification; a level touches only the certifications issued by its
 * introducers and those received by the keys they reach.
 */
#include <stdlib.h>
#include <string.h>
#include "trust.h"

#define NONE 0xffffu         /* intro_level: not an introducer */
#define COUNT_MAX 65535u

enum { ST_NONE = 0, ST_UNDEFINED, ST_MARGINAL, ST_FULL };

struct wot_trust {
	size_t n;
	uint32_t *uid_base;      /* n + 1 */
	uint8_t *key_v;          /* n: wot_validity */
	wot_trust_info *info;    /* n */
	uint8_t *uid_v;          /* flat user IDs: wot_validity */
	uint16_t *full, *marg;   /* flat user IDs: counts */
};

/* The working state of one computation. */
typedef struct tstate {
	const wot_graph *g;
	const wot_trust_params *p;
	wot_trust *r;
	const uint8_t *ot;
	/* per node */
	uint16_t *intro_level;   /* level it is an introducer of, or NONE */
	uint8_t *eff_ot;         /* ownertrust as an introducer (trust signatures applied) */
	uint8_t *seen;           /* done: never looked at again */
	uint32_t *cand_stamp;    /* level + 1 when already a candidate of that level */
	uint8_t *pend_depth, *pend_amount, *pend_has_regex;
	pgp_view *pend_regex;    /* the trust signature data gathered this level */
	pgp_view *intro_regex;   /* as an introducer */
	uint32_t *cur, *next;    /* introducers of this level / the next */
	size_t ncur, nnext;
	uint32_t *cand;          /* keys looked at this level */
	/* per flat user ID */
	uint8_t *uid_st;         /* ST_* */
	uint32_t *sig_stamp;     /* level + 1 when certified at that level */
	/* per certification */
	uint32_t *tsig;          /* trust signatures on one key (scratch) */
} tstate;

void
wot_trust_params_default(wot_trust_params *p)
{
	p->completes_needed = 1;
	p->marginals_needed = 3;
	p->max_cert_depth = 5;
	p->min_cert_level = 2;
}

static int
params_ok(const wot_trust_params *p)
{
	return p->completes_needed >= 1 && p->completes_needed <= WOT_TRUST_MAX_COMPLETES &&
	    p->marginals_needed >= 2 && p->marginals_needed <= WOT_TRUST_MAX_MARGINALS &&
	    p->max_cert_depth >= 1 && p->max_cert_depth <= WOT_TRUST_MAX_CERT_DEPTH &&
	    p->min_cert_level >= 1 && p->min_cert_level <= 3;
}

static int
ot_ok(unsigned v)
{
	return v == WOT_OT_UNKNOWN || (v >= WOT_OT_UNDEFINED && v <= WOT_OT_ULTIMATE);
}

/* The ownertrust part of a stored value (GnuPG's TRUST_MASK). */
static uint8_t
ot_value(uint8_t v)
{
	return (uint8_t)(v & 0x0f);
}

void
wot_trust_free(wot_trust *t)
{
	if (!t)
		return;
	free(t->uid_base);
	free(t->key_v);
	free(t->info);
	free(t->uid_v);
	free(t->full);
	free(t->marg);
	free(t);
}

static void
state_free(tstate *s)
{
	free(s->intro_level);
	free(s->eff_ot);
	free(s->seen);
	free(s->cand_stamp);
	free(s->pend_depth);
	free(s->pend_amount);
	free(s->pend_has_regex);
	free(s->pend_regex);
	free(s->intro_regex);
	free(s->cur);
	free(s->next);
	free(s->cand);
	free(s->uid_st);
	free(s->sig_stamp);
	free(s->tsig);
}

static pgp_err
alloc_all(tstate *s, wot_trust *r, size_t n, size_t nu, size_t nc)
{
	size_t n1 = n ? n : 1, nu1 = nu ? nu : 1, nc1 = nc ? nc : 1, i;

	r->key_v = calloc(n1, 1);
	r->info = calloc(n1, sizeof *r->info);
	r->uid_v = calloc(nu1, 1);
	r->full = calloc(nu1, sizeof *r->full);
	r->marg = calloc(nu1, sizeof *r->marg);
	s->intro_level = malloc(n1 * sizeof *s->intro_level);
	s->eff_ot = calloc(n1, 1);
	s->seen = calloc(n1, 1);
	s->cand_stamp = calloc(n1, sizeof *s->cand_stamp);
	s->pend_depth = calloc(n1, 1);
	s->pend_amount = calloc(n1, 1);
	s->pend_has_regex = calloc(n1, 1);
	s->pend_regex = calloc(n1, sizeof *s->pend_regex);
	s->intro_regex = calloc(n1, sizeof *s->intro_regex);
	s->cur = malloc(n1 * sizeof *s->cur);
	s->next = malloc(n1 * sizeof *s->next);
	s->cand = malloc(n1 * sizeof *s->cand);
	s->uid_st = calloc(nu1, 1);
	s->sig_stamp = calloc(nu1, sizeof *s->sig_stamp);
	s->tsig = malloc(nc1 * sizeof *s->tsig);
	if (!r->key_v || !r->info || !r->uid_v || !r->full || !r->marg || !s->intro_level ||
	    !s->eff_ot || !s->seen || !s->cand_stamp || !s->pend_depth || !s->pend_amount ||
	    !s->pend_has_regex || !s->pend_regex || !s->intro_regex || !s->cur || !s->next ||
	    !s->cand || !s->uid_st || !s->sig_stamp || !s->tsig)
		return PGP_ERR_NOMEM;
	for (i = 0; i < n1; i++)
		s->intro_level[i] = NONE;
	return PGP_OK;
}

/* GnuPG finds a certification's issuer among the introducers by the key
 * ID the signature names (is_in_klist), which is the primary key's only
 * when the primary key made it: one by a certification subkey counts for
 * nothing. */
static int
made_by_primary(const wot_cert *c)
{
	return c->issuer_key < 0;
}

/* GnuPG's min_cert_level (mark_usable_uid_certs): 0x11..0x13 carry the
 * certification level (RFC 9580 §5.2.1), 0x10 none. */
static int
level_ok(const tstate *s, const wot_cert *c)
{
	return !(c->sigtype >= 0x11 && c->sigtype <= 0x13 &&
	    (unsigned)(c->sigtype - 0x10) < s->p->min_cert_level);
}

/* An introducer restricted by a regular expression counts only for the
 * user IDs it matches (a user attribute has no text: it matches only what
 * matches the empty string). */
static int
regex_allows(const tstate *s, uint32_t issuer, const wot_cert *c)
{
	const wot_node *tn;
	const pgp_uidc *uc;
	pgp_view re = s->intro_regex[issuer];

	if (!re.p)
		return 1;
	tn = wot_node_at(s->g, c->target);
	uc = &tn->cert->uids[c->uid];
	if (uc->is_attr)
		return wot_trust_regex_match(re.p, re.len, (const uint8_t *)"", 0);
	return wot_trust_regex_match(re.p, re.len, uc->data.p, uc->data.len);
}

/* The trust signatures gathered on one key at this level, newest last
 * (insertion sort: the creation time, then the order they were met in,
 * which is the key's order of user IDs and issuers). */
static void
sort_tsigs(const tstate *s, size_t n)
{
	size_t i, j;
	for (i = 1; i < n; i++) {
		uint32_t x = s->tsig[i];
		int64_t tx = wot_cert_at(s->g, x)->created;
		for (j = i; j > 0 && wot_cert_at(s->g, s->tsig[j - 1])->created > tx; j--)
			s->tsig[j] = s->tsig[j - 1];
		s->tsig[j] = x;
	}
}

/*
 * GnuPG's validate_one_keyblock for trust signatures: the depth the target
 * may pass on is the signature's, capped by what its signer may pass on
 * unless the signer is ultimately trusted; depth 0 passes nothing. The
 * newest wins; a regular expression, once taken, stays until a newer
 * trust signature brings its own.
 */
static void
apply_tsigs(tstate *s, uint32_t t, size_t n)
{
	size_t k;
	sort_tsigs(s, n);
	for (k = 0; k < n; k++) {
		const wot_cert *c = wot_cert_at(s->g, s->tsig[k]);
		uint32_t i = c->issuer;
		unsigned depth, idepth = s->r->info[i].trust_depth;
		pgp_view re;

		if (c->trust_depth < idepth || s->eff_ot[i] == WOT_OT_ULTIMATE)
			depth = c->trust_depth;
		else
			depth = idepth;
		if (depth == 0)
			continue;
		s->pend_amount[t] = c->trust_amount;
		s->pend_depth[t] = (uint8_t)(depth - 1);
		if (c->has_regex && wot_cert_regex(s->g, c, &re) == PGP_OK) {
			s->pend_regex[t] = re;
			s->pend_has_regex[t] = 1;
		}
	}
}

static uint8_t
uid_state(const tstate *s, uint32_t u)
{
	unsigned f = s->r->full[u], m = s->r->marg[u];
	if (f >= s->p->completes_needed || m >= s->p->marginals_needed)
		return ST_FULL;
	return (f || m) ? ST_MARGINAL : ST_UNDEFINED;
}

static void
add_count(uint16_t *c, unsigned set_to, int set)
{
	if (set)
		*c = (uint16_t)set_to;
	else if (*c < COUNT_MAX)
		(*c)++;
}

/* An introducer's ownertrust: raised by the trust signature that made it
 * (RFC 4880 §5.2.3.13: 120 full, 60 marginal). */
static void
set_introducer_trust(tstate *s, uint32_t k)
{
	uint8_t min = 0, ot = ot_value(s->ot[k]);
	unsigned amount = s->r->info[k].trust_amount;

	if (amount >= 120)
		min = WOT_OT_FULL;
	else if (amount >= 60)
		min = WOT_OT_MARGINAL;
	s->eff_ot[k] = ot < min ? min : ot;
	s->r->info[k].introducer = 1;
	s->r->info[k].ownertrust = s->eff_ot[k];
}

/* One key reached at level d by its introducers. */
static void
look_at(tstate *s, uint32_t t, unsigned d)
{
	const uint32_t *rc;
	size_t nr = wot_received(s->g, t, &rc), k, nts = 0;
	uint32_t base = s->r->uid_base[t], nu = s->r->uid_base[t + 1] - base, u;
	int any = 0, anyfull = 0, allfull = nu > 0;

	s->pend_depth[t] = s->pend_amount[t] = s->pend_has_regex[t] = 0;
	s->pend_regex[t].p = NULL;
	s->pend_regex[t].len = 0;
	for (k = 0; k < nr; k++) {
		const wot_cert *c = wot_cert_at(s->g, rc[k]);
		uint32_t i = c->issuer, fu;
		uint8_t ot;

		if (s->intro_level[i] != d || !wot_cert_usable(c) || c->uid >= nu ||
		    !level_ok(s, c) || !made_by_primary(c) || !regex_allows(s, i, c))
			continue;
		if (c->trust_depth > 0)
			s->tsig[nts++] = rc[k];
		fu = base + c->uid;
		ot = s->eff_ot[i];
		if (ot == WOT_OT_ULTIMATE)
			add_count(&s->r->full[fu], s->p->completes_needed, 1);
		else if (ot == WOT_OT_FULL)
			add_count(&s->r->full[fu], 0, 0);
		else if (ot == WOT_OT_MARGINAL)
			add_count(&s->r->marg[fu], 0, 0);
		s->sig_stamp[fu] = d + 1;
	}
	apply_tsigs(s, t, nts);
	for (u = base; u < base + nu; u++) {
		if (s->sig_stamp[u] != d + 1) {
			allfull = 0;
			continue;
		}
		s->uid_st[u] = uid_state(s, u);
		any = 1;
		if (s->uid_st[u] == ST_FULL)
			anyfull = 1;
		else
			allfull = 0;
	}
	if (!any)
		return;
	s->r->info[t].reached = 1;
	s->r->info[t].level = (uint8_t)d;
	if (allfull)
		s->seen[t] = 1;   /* GnuPG's shortcut: nothing more can change */
	if (anyfull && s->intro_level[t] == NONE) {
		s->intro_level[t] = (uint16_t)(d + 1);
		s->r->info[t].trust_depth = s->pend_depth[t];
		s->r->info[t].trust_amount = s->pend_amount[t];
		s->r->info[t].has_regex = s->pend_has_regex[t];
		s->intro_regex[t] = s->pend_regex[t];
		set_introducer_trust(s, t);
		s->next[s->nnext++] = t;
	}
}

static void
run_levels(tstate *s)
{
	unsigned d;
	size_t j, k;

	for (d = 0; d < s->p->max_cert_depth && s->ncur > 0; d++) {
		size_t ncand = 0;
		uint32_t *swap;

		for (j = 0; j < s->ncur; j++) {
			const uint32_t *ic;
			size_t ni = wot_issued(s->g, s->cur[j], &ic);
			for (k = 0; k < ni; k++) {
				const wot_cert *c = wot_cert_at(s->g, ic[k]);
				uint32_t t = c->target;
				if (!wot_cert_usable(c) || s->seen[t] || s->cand_stamp[t] == d + 1)
					continue;
				s->cand_stamp[t] = d + 1;
				s->cand[ncand++] = t;
			}
		}
		s->nnext = 0;
		for (j = 0; j < ncand; j++)
			look_at(s, s->cand[j], d);
		swap = s->cur;
		s->cur = s->next;
		s->next = swap;
		s->ncur = s->nnext;
	}
}

static uint8_t
st_validity(uint8_t st)
{
	switch (st) {
	case ST_FULL: return WOT_V_FULL;
	case ST_MARGINAL: return WOT_V_MARGINAL;
	case ST_UNDEFINED: return WOT_V_UNDEFINED;
	default: return WOT_V_UNKNOWN;
	}
}

/* What GnuPG's key listing shows: a revoked or expired user ID or key
 * first, then the web's verdict. */
static void
finish(tstate *s)
{
	wot_trust *r = s->r;
	uint32_t i, u;

	for (i = 0; i < r->n; i++) {
		const wot_node *nd = wot_node_at(s->g, i);
		int utk = ot_value(s->ot[i]) == WOT_OT_ULTIMATE;
		uint8_t best = WOT_V_UNKNOWN, key;

		for (u = r->uid_base[i]; u < r->uid_base[i + 1]; u++) {
			uint32_t lu = u - r->uid_base[i];
			pgp_err us = nd->uid_status[lu];
			uint8_t v = utk ? (us == PGP_OK ? WOT_V_ULTIMATE : WOT_V_UNKNOWN)
			                : st_validity(s->uid_st[u]);
			if (v > best)
				best = v;
			if (us == PGP_ERR_REVOKED)
				v = WOT_V_REVOKED;
			else if (us == PGP_ERR_EXPIRED)
				v = WOT_V_EXPIRED;
			else if (nd->state == WOT_NODE_REVOKED)
				v = WOT_V_REVOKED;
			else if (nd->state == WOT_NODE_EXPIRED)
				v = WOT_V_EXPIRED;
			else if (nd->state != WOT_NODE_VALID)
				v = WOT_V_UNKNOWN;
			r->uid_v[u] = v;
		}
		if (nd->state == WOT_NODE_REVOKED)
			key = WOT_V_REVOKED;
		else if (nd->state == WOT_NODE_EXPIRED)
			key = WOT_V_EXPIRED;
		else if (nd->state != WOT_NODE_VALID)
			key = WOT_V_UNKNOWN;
		else
			key = utk ? WOT_V_ULTIMATE : best;
		r->key_v[i] = key;
	}
}

pgp_err
wot_trust_compute(wot_trust **out, const wot_graph *g, const uint8_t *ownertrust,
    const wot_trust_params *p)
{
	wot_trust_params def;
	tstate s;
	wot_trust *r;
	size_t n, nu = 0, nc;
	uint32_t i;
	pgp_err e;

	*out = NULL;
	if (!p) {
		wot_trust_params_default(&def);
		p = &def;
	}
	if (!g || !ownertrust || !params_ok(p))
		return PGP_ERR_INVALID;
	n = wot_nnodes(g);
	nc = wot_ncerts(g);
	for (i = 0; i < n; i++)
		if (!ot_ok(ot_value(ownertrust[i])))
			return PGP_ERR_INVALID;
	memset(&s, 0, sizeof s);
	r = calloc(1, sizeof *r);
	if (!r)
		return PGP_ERR_NOMEM;
	r->n = n;
	r->uid_base = malloc((n + 1) * sizeof *r->uid_base);
	if (!r->uid_base) {
		wot_trust_free(r);
		return PGP_ERR_NOMEM;
	}
	for (i = 0; i < n; i++) {
		r->uid_base[i] = (uint32_t)nu;
		nu += wot_node_at(g, i)->cert->nuids;
		if (nu > UINT32_MAX) {
			wot_trust_free(r);
			return PGP_ERR_LIMIT;
		}
	}
	r->uid_base[n] = (uint32_t)nu;
	s.g = g;
	s.p = p;
	s.r = r;
	s.ot = ownertrust;
	e = alloc_all(&s, r, n, nu, nc);
	if (e != PGP_OK) {
		state_free(&s);
		wot_trust_free(r);
		return e;
	}
	/* level 0: the ultimately trusted keys (GnuPG's utk_list) */
	for (i = 0; i < n; i++) {
		if (wot_node_at(g, i)->state != WOT_NODE_VALID)
			s.seen[i] = 1;   /* expired, revoked, refused: never looked at */
		if (ot_value(ownertrust[i]) == WOT_OT_ULTIMATE) {
			s.seen[i] = 1;
			s.intro_level[i] = 0;
			set_introducer_trust(&s, i);
			s.cur[s.ncur++] = i;
		}
	}
	run_levels(&s);
	finish(&s);
	state_free(&s);
	*out = r;
	return PGP_OK;
}

size_t
wot_trust_nnodes(const wot_trust *t)
{
	return t ? t->n : 0;
}

wot_validity
wot_trust_key(const wot_trust *t, uint32_t i)
{
	if (!t || i >= t->n)
		return WOT_V_UNKNOWN;
	return (wot_validity)t->key_v[i];
}

wot_validity
wot_trust_uid(const wot_trust *t, uint32_t i, uint32_t u)
{
	if (!t || i >= t->n || u >= t->uid_base[i + 1] - t->uid_base[i])
		return WOT_V_UNKNOWN;
	return (wot_validity)t->uid_v[t->uid_base[i] + u];
}

void
wot_trust_get_info(const wot_trust *t, uint32_t i, wot_trust_info *out)
{
	if (!t || i >= t->n) {
		memset(out, 0, sizeof *out);
		return;
	}
	*out = t->info[i];
}

void
wot_trust_counts(const wot_trust *t, uint32_t i, uint32_t u, unsigned *completes,
    unsigned *marginals)
{
	*completes = *marginals = 0;
	if (!t || i >= t->n || u >= t->uid_base[i + 1] - t->uid_base[i])
		return;
	*completes = t->full[t->uid_base[i] + u];
	*marginals = t->marg[t->uid_base[i] + u];
}

char
wot_validity_letter(wot_validity v)
{
	switch (v) {
	case WOT_V_UNKNOWN: return '-';
	case WOT_V_EXPIRED: return 'e';
	case WOT_V_UNDEFINED: return 'q';
	case WOT_V_MARGINAL: return 'm';
	case WOT_V_FULL: return 'f';
	case WOT_V_ULTIMATE: return 'u';
	case WOT_V_REVOKED: return 'r';
	}
	return '?';
}

const char *
wot_validity_name(wot_validity v)
{
	switch (v) {
	case WOT_V_UNKNOWN: return "unknown";
	case WOT_V_EXPIRED: return "expired";
	case WOT_V_UNDEFINED: return "undefined";
	case WOT_V_MARGINAL: return "marginal";
	case WOT_V_FULL: return "full";
	case WOT_V_ULTIMATE: return "ultimate";
	case WOT_V_REVOKED: return "revoked";
	}
	return "?";
}

const char *
wot_ownertrust_name(unsigned ot)
{
	switch (ot) {
	case WOT_OT_UNKNOWN: return "unknown";
	case WOT_OT_UNDEFINED: return "undefined";
	case WOT_OT_NEVER: return "never";
	case WOT_OT_MARGINAL: return "marginal";
	case WOT_OT_FULL: return "full";
	case WOT_OT_ULTIMATE: return "ultimate";
	}
	return NULL;
}
