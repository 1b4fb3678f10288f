/*
 * wot.c - build a wot_graph: a keyring evaluated at one time under one
 * policy (keyring/wot.h). Paths are in wot_path.c.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "wot.h"
#include "wot_int.h"

int64_t wot_time(const wot_graph *g) { return g->t; }
size_t wot_nnodes(const wot_graph *g) { return g->nnodes; }
const wot_node *wot_node_at(const wot_graph *g, uint32_t i) { return i < g->nnodes ? &g->nodes[i] : NULL; }
uint32_t wot_node_by_rank(const wot_graph *g, uint32_t r) { return r < g->nnodes ? g->by_rank[r] : UINT32_MAX; }
size_t wot_ncerts(const wot_graph *g) { return g->ncerts; }
const wot_cert *wot_cert_at(const wot_graph *g, uint32_t i) { return i < g->ncerts ? &g->certs[i] : NULL; }
int wot_cert_usable(const wot_cert *c) { return c->state == WOT_CERT_OK; }

static size_t
adj_get(const wot_adj *a, uint32_t i, const uint32_t **out)
{
	*out = a->v + a->off[i];
	return a->off[i + 1] - a->off[i];
}

size_t wot_issued(const wot_graph *g, uint32_t i, const uint32_t **c) { return adj_get(&g->issued, i, c); }
size_t wot_received(const wot_graph *g, uint32_t i, const uint32_t **c) { return adj_get(&g->received, i, c); }
size_t wot_succ(const wot_graph *g, uint32_t i, const uint32_t **n) { return adj_get(&g->succ, i, n); }
size_t wot_pred(const wot_graph *g, uint32_t i, const uint32_t **n) { return adj_get(&g->pred, i, n); }

int64_t
wot_find_fpr(const wot_graph *g, const pgp_fpr *fpr)
{
	size_t lo = 0, hi = g->nnodes;

	/* nodes are in the keyring's order: by fingerprint (length, octets) */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const pgp_fpr *f = &g->nodes[mid].fpr;
		int c = pgp_fpr_cmp(f, fpr);
		if (c == 0)
			return (int64_t)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void
wot_free(wot_graph *g)
{
	if (g == NULL)
		return;
	free(g->nodes);
	free(g->by_rank);
	free(g->uid_status);
	free(g->uid_reason);
	free(g->sub_certify);
	free(g->sub_off);
	free(g->certs);
	free(g->issued.v); free(g->issued.off);
	free(g->received.v); free(g->received.off);
	free(g->succ.v); free(g->succ.off);
	free(g->pred.v); free(g->pred.off);
	free(g);
}

/* ---- nodes ---- */

static int
keyid_cmp(const wot_node *a, const wot_node *b)
{
	int c = memcmp(a->keyid, b->keyid, 8);
	if (c != 0)
		return c;
	if (a->fpr.len != b->fpr.len)
		return a->fpr.len < b->fpr.len ? -1 : 1;
	return memcmp(a->fpr.v, b->fpr.v, a->fpr.len);
}

/* g->by_rank and every node's rank: key ID order (bottom-up merge sort,
 * stable, no qsort context needed). */
static pgp_err
sort_by_rank(wot_graph *g)
{
	size_t n = g->nnodes, i, j;
	uint32_t *v, *tmp;

	g->by_rank = malloc((n ? n : 1) * sizeof *g->by_rank);
	tmp = malloc((n ? n : 1) * sizeof *tmp);
	if (g->by_rank == NULL || tmp == NULL) {
		free(tmp);
		return PGP_ERR_NOMEM;
	}
	v = g->by_rank;
	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	for (size_t w = 1; w < n; w *= 2) {
		for (i = 0; i < n; i += 2 * w) {
			size_t mid = i + w < n ? i + w : n, end = i + 2 * w < n ? i + 2 * w : n;
			size_t a = i, b = mid, o = i;
			while (a < mid && b < end)
				tmp[o++] = keyid_cmp(&g->nodes[v[b]], &g->nodes[v[a]]) < 0 ? v[b++] : v[a++];
			while (a < mid)
				tmp[o++] = v[a++];
			while (b < end)
				tmp[o++] = v[b++];
		}
		memcpy(v, tmp, n * sizeof *v);
	}
	for (j = 0; j < n; j++)
		g->nodes[v[j]].rank = (uint32_t)j;
	free(tmp);
	return PGP_OK;
}

static uint8_t
node_state(const pgp_keystate *ks)
{
	if (ks->status == PGP_OK)
		return WOT_NODE_VALID;
	if (ks->revoked || ks->status == PGP_ERR_REVOKED)
		return WOT_NODE_REVOKED;
	if (ks->status == PGP_ERR_EXPIRED)
		return WOT_NODE_EXPIRED;
	if (ks->status == PGP_ERR_POLICY)
		return WOT_NODE_POLICY;
	return WOT_NODE_INVALID;
}

/* Evaluating certificates is independent per certificate and is most of
 * the cost of a graph (digests over every self-signed component), so it
 * runs on all cores. The keyring is not thread-safe: certificates are
 * materialised first, on one thread, and the evaluation's only other use
 * of the keyring, looking up designated revokers, goes through a lock. */
typedef struct eval_shared {
	wot_graph *g;
	const pgp_certsrc *src;
	pthread_mutex_t lock;
	size_t next;              /* next certificate to evaluate (under lock) */
	pgp_err err;              /* first failure (under lock) */
} eval_shared;

static pgp_err
locked_find(void *ctx, const pgp_certq *q, const pgp_cert **out, size_t max, size_t *total)
{
	eval_shared *sh = ctx;
	pgp_err e;

	pthread_mutex_lock(&sh->lock);
	e = sh->src->find(sh->src->ctx, q, out, max, total);
	pthread_mutex_unlock(&sh->lock);
	return e;
}

static void
eval_one(wot_graph *g, size_t i, const pgp_certeval *ev)
{
	wot_node *n = &g->nodes[i];
	const pgp_cert *c = n->cert;
	size_t uo = (size_t)(n->uid_status - g->uid_status), so = g->sub_off[i];
	uint32_t j;

	n->fpr = c->primary.fpr;
	memcpy(n->keyid, c->primary.keyid, 8);
	n->state = node_state(&ev->primary);
	n->reason = ev->primary.status == PGP_OK ? NULL : ev->primary.reason;
	n->algo = c->primary.algo;
	n->bits = c->primary.bits;
	n->created = c->primary.created;
	n->expires = ev->primary.expires;
	n->revoked_at = ev->primary.revoked ? ev->primary.revoked_at : 0;
	n->primary_uid = ev->primary_uid;
	for (j = 0; j < c->nuids; j++) {
		g->uid_status[uo + j] = ev->uids[j].status;
		g->uid_reason[uo + j] = ev->uids[j].reason;
	}
	/* RFC 9580 §5.2.3.29: a subkey may certify only with flag 0x01 */
	for (j = 0; j < c->nsubs; j++)
		g->sub_certify[so + j] = (uint8_t)(ev->subs[j].status == PGP_OK &&
		    ev->subs[j].has_flags && (ev->subs[j].flags & 0x01));
}

static void *
eval_worker(void *arg)
{
	eval_shared *sh = arg;
	pgp_certsrc src = *sh->src;

	src.find = locked_find;
	src.ctx = sh;
	for (;;) {
		pgp_certeval ev;
		size_t i;
		pgp_err e;

		pthread_mutex_lock(&sh->lock);
		i = sh->next++;
		if (sh->err != PGP_OK)
			i = sh->g->nnodes;
		pthread_mutex_unlock(&sh->lock);
		if (i >= sh->g->nnodes)
			break;
		e = pgp_cert_eval(&ev, sh->g->nodes[i].cert, &src, sh->g->t, sh->g->pol);
		if (e == PGP_OK)
			eval_one(sh->g, i, &ev);
		pgp_certeval_release(&ev);
		if (e != PGP_OK) {
			pthread_mutex_lock(&sh->lock);
			if (sh->err == PGP_OK)
				sh->err = e;
			pthread_mutex_unlock(&sh->lock);
		}
	}
	return NULL;
}

/* Threads for n certificates: one per online core, up to WOT_MAX_THREADS,
 * and one for small keyrings (thread start-up would cost more). */
#define WOT_MAX_THREADS 16u
static unsigned
eval_threads(size_t n)
{
	long c = sysconf(_SC_NPROCESSORS_ONLN);

	if (n < 256 || c <= 1)
		return 1;
	return c > (long)WOT_MAX_THREADS ? WOT_MAX_THREADS : (unsigned)c;
}

static pgp_err
build_nodes(wot_graph *g, kr_keyring *k, const pgp_certsrc *src)
{
	size_t i, nuids = 0, nsubs = 0, uo = 0;
	const pgp_cert *c;
	eval_shared sh;
	pthread_t tid[WOT_MAX_THREADS];
	unsigned nt, t, started = 0;
	pgp_err e;

	for (i = 0; i < g->nnodes; i++) {
		if ((e = kr_cert(k, i, &c)) != PGP_OK)
			return e;
		g->nodes[i].cert = c;
		nuids += c->nuids;
		nsubs += c->nsubs;
	}
	g->uid_status = malloc((nuids ? nuids : 1) * sizeof *g->uid_status);
	g->uid_reason = malloc((nuids ? nuids : 1) * sizeof *g->uid_reason);
	g->sub_certify = malloc(nsubs ? nsubs : 1);
	g->sub_off = malloc((g->nnodes + 1) * sizeof *g->sub_off);
	if (g->uid_status == NULL || g->uid_reason == NULL || g->sub_certify == NULL ||
	    g->sub_off == NULL)
		return PGP_ERR_NOMEM;
	nsubs = 0;
	for (i = 0; i < g->nnodes; i++) {
		g->nodes[i].uid_status = g->uid_status + uo;
		g->nodes[i].uid_reason = g->uid_reason + uo;
		uo += g->nodes[i].cert->nuids;
		g->sub_off[i] = (uint32_t)nsubs;
		nsubs += g->nodes[i].cert->nsubs;
	}
	g->sub_off[g->nnodes] = (uint32_t)nsubs;

	sh.g = g;
	sh.src = src;
	sh.next = 0;
	sh.err = PGP_OK;
	if (pthread_mutex_init(&sh.lock, NULL) != 0)
		return PGP_ERR_NOMEM;
	nt = eval_threads(g->nnodes);
	for (t = 1; t < nt; t++) {
		if (pthread_create(&tid[t], NULL, eval_worker, &sh) != 0)
			break;
		started++;
	}
	eval_worker(&sh);        /* this thread works too */
	for (t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	pthread_mutex_destroy(&sh.lock);
	return sh.err;
}

/* ---- certifications in force ---- */

static int
is_cert_type(uint8_t t)
{
	return t >= 0x10 && t <= 0x13;    /* RFC 9580 §5.2.1 */
}

static const pgp_key *
issuer_key(const wot_graph *g, const kr_edge *e)
{
	const pgp_cert *c = g->nodes[e->issuer].cert;

	if (e->issuer_key < 0)
		return &c->primary;
	if ((uint32_t)e->issuer_key >= c->nsubs)
		return NULL;
	return &c->subs[e->issuer_key].key;
}

/* Policy verdict on one certification: hash (collision resistance is
 * needed: RFC 9580 §5.2.3, the target did not choose what was signed)
 * and the issuing key's size. */
static pgp_err
cert_policy(const wot_graph *g, const kr_edge *e, const char **why)
{
	const pgp_key *key = issuer_key(g, e);
	pgp_err r;

	*why = NULL;
	if ((r = pgp_policy_hash(g->pol, e->hash_algo, PGP_USE_COLLISION, g->t, why)) != PGP_OK)
		return r;
	if (key != NULL && (r = pgp_policy_key(g->pol, key, g->t, why)) != PGP_OK)
		return r;
	return PGP_OK;
}

static void
fill_from_edge(wot_cert *c, const kr_edge *e)
{
	c->sigtype = e->sigtype;
	c->hash_algo = e->hash_algo;
	c->pk_algo = e->pk_algo;
	c->trust_depth = e->trust_depth;
	c->trust_amount = e->trust_amount;
	c->issuer_key = e->issuer_key;
	c->has_regex = e->has_regex;
	c->created = e->created;
	c->expires = e->expires;
}

/* Decide the certification in force of one (target, uid, issuer) group
 * e[0..n) (sorted by creation time among others). */
static void
decide(const wot_graph *g, const kr_edge *e, size_t n, wot_cert *out)
{
	int64_t t = g->t, revoked = INT64_MIN;
	const kr_edge *force = NULL, *newest = NULL, *newest_policy = NULL, *rev = NULL;
	const char *policy_why = NULL;
	size_t i;

	memset(out, 0, sizeof *out);
	out->issuer = e[0].issuer;
	out->target = e[0].target;
	out->uid = e[0].uid;
	out->on_attr = out->uid < g->nodes[out->target].cert->nuids &&
	    g->nodes[out->target].cert->uids[out->uid].is_attr;
	for (i = 0; i < n; i++)
		if (e[i].sigtype == 0x30 && e[i].created <= t && e[i].created >= revoked) {
			revoked = e[i].created;
			rev = &e[i];
		}
	for (i = 0; i < n; i++) {
		const char *why;
		if (!is_cert_type(e[i].sigtype))
			continue;
		if (newest == NULL || e[i].created >= newest->created)
			newest = &e[i];
		/* a certification at or before the revocation is revoked by it */
		if (e[i].created > t || e[i].created <= revoked)
			continue;
		if (cert_policy(g, &e[i], &why) != PGP_OK) {
			if (newest_policy == NULL || e[i].created >= newest_policy->created) {
				newest_policy = &e[i];
				policy_why = why;
			}
			continue;
		}
		if (force == NULL || e[i].created >= force->created)
			force = &e[i];
	}
	if (force == NULL) {
		if (newest_policy != NULL) {
			fill_from_edge(out, newest_policy);
			out->state = WOT_CERT_POLICY;
			out->reason = policy_why;
		} else if (rev != NULL) {
			fill_from_edge(out, rev);
			out->state = WOT_CERT_REVOKED;
			out->reason = "revoked by its issuer";
		} else {
			fill_from_edge(out, newest != NULL ? newest : &e[n - 1]);
			out->state = WOT_CERT_FUTURE;
			out->reason = "made after the reference time";
		}
		return;
	}
	fill_from_edge(out, force);
	const wot_node *tn = &g->nodes[out->target], *in = &g->nodes[out->issuer];
	if (force->expires != 0 && force->expires <= t) {
		out->state = WOT_CERT_EXPIRED;
		out->reason = "the certification expired";
	} else if (force->issuer_key >= 0 &&
	    ((uint32_t)force->issuer_key >= in->cert->nsubs ||
	     !g->sub_certify[g->sub_off[out->issuer] + (uint32_t)force->issuer_key])) {
		out->state = WOT_CERT_ISSUER_KEY;
		out->reason = "made by a subkey not valid for certification";
	} else if (out->uid >= tn->cert->nuids || tn->uid_status[out->uid] != PGP_OK) {
		out->state = WOT_CERT_UID;
		out->reason = out->uid < tn->cert->nuids && tn->uid_reason[out->uid] != NULL ?
		    tn->uid_reason[out->uid] : "the user ID is not valid";
	} else if (in->state != WOT_NODE_VALID) {
		out->state = WOT_CERT_ISSUER;
		out->reason = in->reason != NULL ? in->reason : "the issuer is not valid";
	} else if (tn->state != WOT_NODE_VALID) {
		out->state = WOT_CERT_TARGET;
		out->reason = tn->reason != NULL ? tn->reason : "the target is not valid";
	} else {
		out->state = WOT_CERT_OK;
	}
}

static pgp_err
build_certs(wot_graph *g, kr_keyring *k)
{
	size_t ne = kr_nedges(k), i, j, n = 0;
	kr_edge *e;
	pgp_err r;

	if (ne == 0)
		return PGP_OK;
	if ((e = malloc(ne * sizeof *e)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < ne; i++)
		if ((r = kr_edge_at(k, i, &e[i])) != PGP_OK ||
		    e[i].issuer >= g->nnodes || e[i].target >= g->nnodes) {
			free(e);
			return r != PGP_OK ? r : PGP_ERR_MALFORMED;
		}
	/* edges are sorted by (target, uid, issuer, created, ...): count groups */
	for (i = 0; i < ne; i = j) {
		for (j = i + 1; j < ne && e[j].target == e[i].target && e[j].uid == e[i].uid &&
		    e[j].issuer == e[i].issuer; j++)
			;
		n++;
	}
	if ((g->certs = malloc(n * sizeof *g->certs)) == NULL) {
		free(e);
		return PGP_ERR_NOMEM;
	}
	n = 0;
	for (i = 0; i < ne; i = j) {
		for (j = i + 1; j < ne && e[j].target == e[i].target && e[j].uid == e[i].uid &&
		    e[j].issuer == e[i].issuer; j++)
			;
		if (e[i].issuer == e[i].target)
			continue;   /* not third-party: never an edge */
		decide(g, &e[i], j - i, &g->certs[n++]);
	}
	g->ncerts = n;
	free(e);
	return PGP_OK;
}

/* ---- adjacency (counting sort into CSR arrays) ---- */

static pgp_err
adj_alloc(wot_adj *a, size_t nnodes, size_t n)
{
	a->off = calloc(nnodes + 1, sizeof *a->off);
	a->v = malloc((n ? n : 1) * sizeof *a->v);
	return a->off == NULL || a->v == NULL ? PGP_ERR_NOMEM : PGP_OK;
}

/* Fill a CSR whose rows are keys[i] for items i (in the given order of
 * items, so a stable placement). */
static pgp_err
adj_fill(wot_adj *a, size_t nnodes, const uint32_t *row, const uint32_t *val, size_t n)
{
	size_t i;
	pgp_err e;

	if ((e = adj_alloc(a, nnodes, n)) != PGP_OK)
		return e;
	for (i = 0; i < n; i++)
		a->off[row[i] + 1]++;
	for (i = 0; i < nnodes; i++)
		a->off[i + 1] += a->off[i];
	uint32_t *pos = malloc((nnodes ? nnodes : 1) * sizeof *pos);
	if (pos == NULL)
		return PGP_ERR_NOMEM;
	memcpy(pos, a->off, nnodes * sizeof *pos);
	for (i = 0; i < n; i++)
		a->v[pos[row[i]]++] = val[i];
	free(pos);
	return PGP_OK;
}

static pgp_err
build_adjacency(wot_graph *g)
{
	size_t n = g->ncerts, i, m = 0;
	uint32_t *row = malloc((n ? n : 1) * sizeof *row), *val = malloc((n ? n : 1) * sizeof *val);
	uint32_t *order = malloc((n ? n : 1) * sizeof *order);
	pgp_err e = PGP_ERR_NOMEM;

	if (row == NULL || val == NULL || order == NULL)
		goto out;
	/* received: certs are sorted by (target, uid, issuer node); we want
	 * (uid, issuer rank) per target: place by target, then sort each row */
	for (i = 0; i < n; i++) {
		row[i] = g->certs[i].target;
		val[i] = (uint32_t)i;
	}
	if ((e = adj_fill(&g->received, g->nnodes, row, val, n)) != PGP_OK)
		goto out;
	/* issued: iterate certs in (target rank, uid) order so rows come out sorted */
	{
		size_t r, o = 0;
		for (r = 0; r < g->nnodes; r++) {
			uint32_t t = g->by_rank[r];
			for (uint32_t x = g->received.off[t]; x < g->received.off[t + 1]; x++)
				order[o++] = g->received.v[x];
		}
		for (i = 0; i < n; i++) {
			row[i] = g->certs[order[i]].issuer;
			val[i] = order[i];
		}
		if ((e = adj_fill(&g->issued, g->nnodes, row, val, n)) != PGP_OK)
			goto out;
	}
	/* received rows by (uid, issuer rank): sort each row (rows are short) */
	for (i = 0; i < g->nnodes; i++) {
		uint32_t *v = g->received.v + g->received.off[i];
		size_t len = g->received.off[i + 1] - g->received.off[i];
		for (size_t x = 1; x < len; x++) {
			uint32_t y = v[x];
			size_t z = x;
			while (z > 0) {
				const wot_cert *p = &g->certs[v[z - 1]], *q = &g->certs[y];
				if (p->uid < q->uid || (p->uid == q->uid &&
				    g->nodes[p->issuer].rank <= g->nodes[q->issuer].rank))
					break;
				v[z] = v[z - 1];
				z--;
			}
			v[z] = y;
		}
	}
	/* succ: issuer -> distinct usable targets by rank: walk `issued` rows
	 * (already in target rank order) */
	m = 0;
	for (i = 0; i < g->nnodes; i++) {
		uint32_t last = UINT32_MAX;
		for (uint32_t x = g->issued.off[i]; x < g->issued.off[i + 1]; x++) {
			const wot_cert *c = &g->certs[g->issued.v[x]];
			if (!wot_cert_usable(c) || c->on_attr || c->target == last)
				continue;
			last = c->target;
			row[m] = (uint32_t)i;
			val[m] = c->target;
			m++;
		}
	}
	if ((e = adj_fill(&g->succ, g->nnodes, row, val, m)) != PGP_OK)
		goto out;
	/* pred: target -> distinct usable issuers by rank: walk issuers in
	 * rank order so each row comes out sorted */
	m = 0;
	for (size_t r = 0; r < g->nnodes; r++) {
		uint32_t is = g->by_rank[r];
		for (uint32_t x = g->succ.off[is]; x < g->succ.off[is + 1]; x++) {
			row[m] = g->succ.v[x];
			val[m] = is;
			m++;
		}
	}
	e = adj_fill(&g->pred, g->nnodes, row, val, m);
out:
	free(row);
	free(val);
	free(order);
	return e;
}

pgp_err
wot__finish(wot_graph *g)
{
	pgp_err e;

	if ((e = sort_by_rank(g)) != PGP_OK)
		return e;
	return build_adjacency(g);
}

pgp_err
wot_build(wot_graph **out, kr_keyring *k, const wot_opts *o)
{
	wot_graph *g;
	pgp_certsrc src;
	pgp_err e;

	*out = NULL;
	if ((g = calloc(1, sizeof *g)) == NULL)
		return PGP_ERR_NOMEM;
	g->t = o->t;
	if (o->pol != NULL) {
		g->pol_copy = *o->pol;
	} else {
		pgp_policy_init(&g->pol_copy);
	}
	g->pol = &g->pol_copy;
	g->nnodes = kr_count(k);
	if (g->nnodes > UINT32_MAX - 1) {
		wot_free(g);
		return PGP_ERR_LIMIT;
	}
	if ((g->nodes = calloc(g->nnodes ? g->nnodes : 1, sizeof *g->nodes)) == NULL) {
		wot_free(g);
		return PGP_ERR_NOMEM;
	}
	kr_source(k, &src);
	/* the ranks and the adjacency need the nodes and the certifications */
	if ((e = build_nodes(g, k, &src)) == PGP_OK && (e = build_certs(g, k)) == PGP_OK)
		e = wot__finish(g);
	g->kr = k;
	if (e != PGP_OK) {
		wot_free(g);
		return e;
	}
	*out = g;
	return PGP_OK;
}

/* ---- the signature behind a wot_cert ---- */

pgp_err
wot_cert_sig(const wot_graph *g, const wot_cert *c, pgp_sig *out)
{
	const pgp_cert *tc = g->nodes[c->target].cert;
	const pgp_fpr *ifpr = &g->nodes[c->issuer].fpr;
	const pgp_uidc *u;
	uint32_t i;

	if (c->uid >= tc->nuids)
		return PGP_ERR_NOT_FOUND;
	u = &tc->uids[c->uid];
	/* the keyring holds one copy of identical octets; the in-force
	 * certification is the one with this type, time and issuer */
	for (i = 0; i < u->nsigs; i++) {
		pgp_sig s;
		if (pgp_sig_parse(&s, &u->sigs[i], NULL) != PGP_OK)
			continue;
		if (s.type != c->sigtype || (int64_t)s.created != c->created ||
		    s.hash_algo != c->hash_algo || !pgp_sig_names_fpr(&s, ifpr))
			continue;
		*out = s;
		return PGP_OK;
	}
	return PGP_ERR_NOT_FOUND;
}

pgp_err
wot_cert_regex(const wot_graph *g, const wot_cert *c, pgp_view *out)
{
	pgp_sig s;
	pgp_subpkt sp;
	pgp_rd area;
	pgp_err e;

	if ((e = wot_cert_sig(g, c, &s)) != PGP_OK)
		return e;
	pgp_rd_init(&area, s.hashed.p, s.hashed.len);
	/* RFC 9580 §5.2.3.22: a NUL-terminated regular expression, hashed */
	while ((e = pgp_subpkt_next(&area, 1, &sp, NULL)) == PGP_OK) {
		if (sp.type != 6)
			continue;
		out->p = sp.data.p;
		out->len = sp.data.len;
		if (out->len > 0 && out->p[out->len - 1] == 0)
			out->len--;
		return PGP_OK;
	}
	return e == PGP_ERR_NOT_FOUND ? PGP_ERR_NOT_FOUND : e;
}
