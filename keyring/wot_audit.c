/*
 * wot_audit.c - which keys a stricter policy cuts off from the root, and
 * the re-certifications and renewals that would bring them back
 * (keyring/wot.h wot_audit_run; docs/wot.md "Audit").
 *
 * A hop u -> v that counts under the baseline may need, under the audited
 * policy: nothing; a re-certification (the certification itself is
 * refused, e.g. SHA-1); a renewal of v's self-signatures (v's binding or
 * the certified user ID's binding is refused). Entering a key whose own
 * binding is refused needs its renewal. Anything else (revoked, expired) is
 * the same under both policies and never comes up.
 */
#include <stdlib.h>
#include <string.h>
#include "wot.h"
#include "wot_int.h"

#define INF UINT32_MAX

typedef struct audit_ctx {
	const wot_graph *b, *a;
	uint32_t root;
	unsigned maxdepth;
	size_t nn, nc;
	uint8_t *recert;     /* per cert: chosen */
	uint8_t *renew;      /* per node: chosen */
	uint32_t *order;     /* chosen actions in order: cert index, or nc + node */
	size_t norder;
	/* dp[h * nn + v]: cheapest cost to reach v in at most h hops */
	uint32_t *dp, *pnode, *pcert;
	uint32_t *queue, *dist;
} audit_ctx;

/* 1 when node v needs a renewal to be usable under the audited policy
 * (valid under the baseline, refused by the audited one); 2 when it
 * cannot be usable at all; 0 when it is fine. */
static int
node_need(const audit_ctx *x, uint32_t v)
{
	const wot_node *na = &x->a->nodes[v], *nb = &x->b->nodes[v];

	if (na->state == WOT_NODE_VALID)
		return 0;
	if (nb->state == WOT_NODE_VALID && na->state == WOT_NODE_POLICY)
		return 1;
	return 2;
}

/* What hop ci (usable under the baseline) needs besides entering its
 * target, as bits: NEED_RECERT (the certification is refused), NEED_RENEW
 * (the certified user ID's binding is refused: its owner renews it),
 * NEED_NEVER (something no action changes). */
#define NEED_RECERT 1
#define NEED_RENEW  2
#define NEED_NEVER  4

static int
uid_need(const wot_graph *a, const wot_cert *ca)
{
	const wot_node *t = &a->nodes[ca->target];

	if (ca->uid >= t->cert->nuids)
		return NEED_NEVER;
	if (t->uid_status[ca->uid] == PGP_OK)
		return 0;
	return t->uid_status[ca->uid] == PGP_ERR_POLICY ? NEED_RENEW : NEED_NEVER;
}

static int
hop_need(const audit_ctx *x, uint32_t ci)
{
	const wot_cert *ca = &x->a->certs[ci];

	switch (ca->state) {
	case WOT_CERT_OK:
	case WOT_CERT_ISSUER:     /* the keys' own needs are counted on entry */
	case WOT_CERT_TARGET:
		return 0;
	case WOT_CERT_POLICY:
		/* the state names the first refusal; the user ID may need more */
		return NEED_RECERT | uid_need(x->a, ca);
	case WOT_CERT_UID:
		return uid_need(x->a, ca);
	default:
		return NEED_NEVER;
	}
}

/* Cost of hop ci into v given the chosen actions; INF when impossible. */
static uint32_t
hop_cost(const audit_ctx *x, uint32_t ci, uint32_t v)
{
	int hn = hop_need(x, ci), nn = node_need(x, v);
	uint32_t c = 0;

	if ((hn & NEED_NEVER) || nn == 2)
		return INF;
	if ((hn & NEED_RECERT) && !x->recert[ci])
		c++;
	/* one renewal of v covers both its binding and its user IDs' */
	if (((hn & NEED_RENEW) || nn == 1) && !x->renew[v])
		c++;
	return c;
}

/* Keys reachable within maxdepth with the chosen actions applied. */
static void
reach(audit_ctx *x)
{
	size_t head = 0, tail = 0, i;

	for (i = 0; i < x->nn; i++)
		x->dist[i] = INF;
	if (node_need(x, x->root) == 2 || (node_need(x, x->root) == 1 && !x->renew[x->root]))
		return;
	x->dist[x->root] = 0;
	x->queue[tail++] = x->root;
	while (head < tail) {
		uint32_t u = x->queue[head++];
		const uint32_t *cs;
		size_t nc;
		if (x->dist[u] >= x->maxdepth)
			continue;
		nc = wot_issued(x->b, u, &cs);
		for (i = 0; i < nc; i++) {
			const wot_cert *c = &x->b->certs[cs[i]];
			uint32_t v = c->target;
			if (!wot_cert_usable(c) || c->on_attr || x->dist[v] != INF ||
			    hop_cost(x, cs[i], v) != 0)
				continue;
			x->dist[v] = x->dist[u] + 1;
			x->queue[tail++] = v;
		}
	}
}

/* Hop-bounded cheapest paths from the root (Bellman-Ford by layers). */
static void
cheapest(audit_ctx *x)
{
	size_t nn = x->nn, h, i;
	uint32_t *dp = x->dp;
	uint32_t r0 = node_need(x, x->root) == 2 ? INF :
	    (node_need(x, x->root) == 1 && !x->renew[x->root]) ? 1 : 0;

	for (i = 0; i < nn; i++) {
		dp[i] = INF;
		x->pnode[i] = INF;
	}
	dp[x->root] = r0;
	for (h = 1; h <= x->maxdepth; h++) {
		uint32_t *prev = dp + (h - 1) * nn, *cur = dp + h * nn;
		uint32_t *pn = x->pnode + h * nn, *pc = x->pcert + h * nn;
		memcpy(cur, prev, nn * sizeof *cur);
		for (i = 0; i < nn; i++)
			pn[i] = INF;     /* INF: as in the layer before */
		for (uint32_t r = 0; r < nn; r++) {
			uint32_t u = x->b->by_rank[r];
			const uint32_t *cs;
			size_t nc, k;
			if (prev[u] == INF)
				continue;
			nc = wot_issued(x->b, u, &cs);
			for (k = 0; k < nc; k++) {
				const wot_cert *c = &x->b->certs[cs[k]];
				uint32_t v = c->target, hc;
				if (!wot_cert_usable(c) || c->on_attr || v == x->root)
					continue;
				if ((hc = hop_cost(x, cs[k], v)) == INF)
					continue;
				if (prev[u] + hc < cur[v]) {
					cur[v] = prev[u] + hc;
					pn[v] = u;
					pc[v] = cs[k];
				}
			}
		}
	}
}

static void
choose(audit_ctx *x, uint32_t action)
{
	if (action < x->nc) {
		if (x->recert[action])
			return;
		x->recert[action] = 1;
	} else {
		if (x->renew[action - x->nc])
			return;
		x->renew[action - x->nc] = 1;
	}
	x->order[x->norder++] = action;
}

/* Take the actions on the cheapest path to v (within maxdepth). */
static void
take_path(audit_ctx *x, uint32_t v)
{
	size_t h = x->maxdepth, nn = x->nn;

	while (h > 0 && v != x->root) {
		uint32_t u = x->pnode[h * nn + v], ci;
		if (u == INF) {       /* reached v already one layer earlier */
			h--;
			continue;
		}
		ci = x->pcert[h * nn + v];
		if (hop_need(x, ci) & NEED_RECERT)
			choose(x, ci);
		if ((hop_need(x, ci) & NEED_RENEW) || node_need(x, v) == 1)
			choose(x, (uint32_t)x->nc + v);
		v = u;
		h--;
	}
	if (v == x->root && node_need(x, v) == 1)
		choose(x, (uint32_t)x->nc + v);
}

static int
all_restored(audit_ctx *x, const uint32_t *lost, size_t nlost, const uint8_t *stuck)
{
	size_t i;

	reach(x);
	for (i = 0; i < nlost; i++)
		if (!stuck[i] && x->dist[lost[i]] == INF)
			return 0;
	return 1;
}

static int
cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

pgp_err
wot_audit_run(const wot_graph *base, const wot_graph *aud, uint32_t root, unsigned maxdepth,
    wot_audit *out)
{
	audit_ctx x;
	uint32_t *db = NULL;
	uint8_t *stuck = NULL;
	size_t i, nn = base->nnodes, nl = 0;
	pgp_err e = PGP_ERR_NOMEM;

	memset(out, 0, sizeof *out);
	memset(&x, 0, sizeof x);
	if (aud->nnodes != nn || aud->ncerts != base->ncerts || root >= nn ||
	    maxdepth == 0 || maxdepth > WOT_MAX_DEPTH)
		return PGP_ERR_INVALID;
	for (i = 0; i < nn; i++)
		if (memcmp(&base->nodes[i].fpr, &aud->nodes[i].fpr, sizeof base->nodes[i].fpr) != 0)
			return PGP_ERR_INVALID;
	for (i = 0; i < base->ncerts; i++)
		if (base->certs[i].issuer != aud->certs[i].issuer ||
		    base->certs[i].target != aud->certs[i].target ||
		    base->certs[i].uid != aud->certs[i].uid)
			return PGP_ERR_INVALID;
	x.b = base;
	x.a = aud;
	x.root = root;
	x.maxdepth = maxdepth;
	x.nn = nn;
	x.nc = base->ncerts;
	x.recert = calloc(x.nc ? x.nc : 1, 1);
	x.renew = calloc(nn ? nn : 1, 1);
	x.order = malloc((x.nc + nn + 1) * sizeof *x.order);
	x.dp = malloc((maxdepth + 1) * (nn ? nn : 1) * sizeof *x.dp);
	x.pnode = malloc((maxdepth + 1) * (nn ? nn : 1) * sizeof *x.pnode);
	x.pcert = malloc((maxdepth + 1) * (nn ? nn : 1) * sizeof *x.pcert);
	x.queue = malloc((nn ? nn : 1) * sizeof *x.queue);
	x.dist = malloc((nn ? nn : 1) * sizeof *x.dist);
	db = malloc((nn ? nn : 1) * sizeof *db);
	out->lost = malloc((nn ? nn : 1) * sizeof *out->lost);
	out->stuck = malloc((nn ? nn : 1) * sizeof *out->stuck);
	stuck = calloc(nn ? nn : 1, 1);
	if (!x.recert || !x.renew || !x.order || !x.dp || !x.pnode || !x.pcert || !x.queue ||
	    !x.dist || !db || !out->lost || !out->stuck || !stuck)
		goto fail;

	/* lost: a path within maxdepth under the baseline (every action taken
	 * is the baseline itself), none under the audited policy */
	{
		wot_search *s;
		if ((e = wot_search_new(&s, base)) != PGP_OK)
			goto fail;
		e = wot_distances(s, root, maxdepth, db);
		wot_search_free(s);
		if (e != PGP_OK)
			goto fail;
	}
	reach(&x);   /* nothing chosen: the audited graph */
	for (uint32_t r = 0; r < nn; r++) {
		uint32_t v = base->by_rank[r];
		if (db[v] != INF && x.dist[v] == INF)
			out->lost[nl++] = v;
	}
	out->nlost = nl;

	/* greedy: the cheapest lost key first, its cheapest path's actions;
	 * x.dist always holds reach() of the actions chosen so far */
	for (;;) {
		uint32_t best = INF, bestv = INF;
		size_t bi = 0;
		cheapest(&x);
		for (i = 0; i < nl; i++) {
			uint32_t v = out->lost[i], c = x.dp[maxdepth * nn + v];
			if (stuck[i] || x.dist[v] != INF)
				continue;
			if (c == INF) {
				stuck[i] = 1;
				continue;
			}
			if (c < best) {
				best = c;
				bestv = v;
				bi = i;
			}
		}
		if (bestv == INF)
			break;
		take_path(&x, bestv);
		reach(&x);
		if (x.dist[bestv] == INF)
			stuck[bi] = 1;    /* never: the path's actions restore it */
	}
	/* prune, newest first: an action whose removal keeps every lost key
	 * restored is left out */
	for (i = x.norder; i-- > 0;) {
		uint32_t a = x.order[i];
		uint8_t *flag = a < x.nc ? &x.recert[a] : &x.renew[a - x.nc];
		*flag = 0;
		if (!all_restored(&x, out->lost, nl, stuck))
			*flag = 1;
	}
	/* the result: renewals by rank, then re-certifications by (issuer
	 * rank, target rank, user ID) */
	out->act = malloc((x.norder ? x.norder : 1) * sizeof *out->act);
	if (out->act == NULL)
		goto fail;
	{
		uint32_t *keys = malloc((x.norder ? x.norder : 1) * sizeof *keys);
		size_t nk = 0;
		if (keys == NULL)
			goto fail;
		for (i = 0; i < nn; i++)
			if (x.renew[i])
				keys[nk++] = base->nodes[i].rank;
		qsort(keys, nk, sizeof *keys, cmp_u32);
		for (i = 0; i < nk; i++) {
			out->act[out->nact].kind = WOT_ACT_RENEW;
			out->act[out->nact].node = base->by_rank[keys[i]];
			out->act[out->nact].cert = INF;
			out->nact++;
		}
		free(keys);
		/* certs are sorted by (target, uid, issuer): gather and order */
		size_t first = out->nact;
		for (i = 0; i < x.nc; i++)
			if (x.recert[i]) {
				out->act[out->nact].kind = WOT_ACT_RECERTIFY;
				out->act[out->nact].cert = (uint32_t)i;
				out->act[out->nact].node = base->certs[i].target;
				out->nact++;
			}
		for (size_t a = first + 1; a < out->nact; a++) {
			wot_action y = out->act[a];
			size_t z = a;
			const wot_cert *cy = &base->certs[y.cert];
			while (z > first) {
				const wot_cert *cz = &base->certs[out->act[z - 1].cert];
				uint32_t ri = base->nodes[cz->issuer].rank, rj = base->nodes[cy->issuer].rank;
				uint32_t ti = base->nodes[cz->target].rank, tj = base->nodes[cy->target].rank;
				if (ri < rj || (ri == rj && (ti < tj || (ti == tj && cz->uid <= cy->uid))))
					break;
				out->act[z] = out->act[z - 1];
				z--;
			}
			out->act[z] = y;
		}
	}
	for (i = 0; i < nl; i++)
		if (stuck[i])
			out->stuck[out->nstuck++] = out->lost[i];
	e = PGP_OK;
	goto done;
fail:
	wot_audit_free(out);
done:
	free(x.recert);
	free(x.renew);
	free(x.order);
	free(x.dp);
	free(x.pnode);
	free(x.pcert);
	free(x.queue);
	free(x.dist);
	free(db);
	free(stuck);
	return e;
}

void
wot_audit_free(wot_audit *a)
{
	free(a->lost);
	free(a->stuck);
	free(a->act);
	memset(a, 0, sizeof *a);
}
