/*
 * test_wot.c - the web-of-trust algorithms (keyring/wot*.c) on graphs
 * assembled by hand and on random graphs, against independent reference
 * implementations written here:
 *   - wot_paths: a literal model of wotmate's documented rule (a FIFO queue
 *     of whole paths with duplicates, nodes marked when popped, restart
 *     with intermediates excluded, stop after a path of <= 1 hop);
 *   - wot_distances: plain BFS;
 *   - wot_explain: the cheapest (blocked, hops) chain by Bellman-Ford;
 *   - wot_audit_run: the lost set by two BFS, the action set checked by
 *     applying it (every lost key restored) and by leaving each action out
 *     (some lost key is not: minimal); an "unrestorable" key stays cut off
 *     even with every possible action applied.
 * Graphs from real keyrings are covered by tests/cli/wot_*.sh.
 */
#include <stdint.h>
#include "t.h"
#include "keyring/wot.h"
#include "keyring/wot_int.h"

#define MAXN 32

/* ---- assembling graphs ---- */

typedef struct spec {
	size_t n;
	uint8_t node_state[MAXN];      /* wot_node_state */
	uint8_t uid_policy[MAXN][2];   /* user ID binding refused by policy */
	uint8_t keyid[MAXN];           /* rank order differs from index order */
	size_t ne;
	struct { uint32_t i, t, uid; uint8_t refused, dead; } e[MAXN * MAXN * 2];
} spec;

static pgp_cert fake_cert[MAXN];

static uint8_t
cert_state(const spec *s, size_t k)
{
	/* as keyring/wot.c decide(): the certification's own refusal first,
	 * then the user ID, then the keys */
	if (s->e[k].dead)
		return WOT_CERT_REVOKED;
	if (s->e[k].refused)
		return WOT_CERT_POLICY;
	if (s->uid_policy[s->e[k].t][s->e[k].uid])
		return WOT_CERT_UID;
	if (s->node_state[s->e[k].i] != WOT_NODE_VALID)
		return WOT_CERT_ISSUER;
	if (s->node_state[s->e[k].t] != WOT_NODE_VALID)
		return WOT_CERT_TARGET;
	return WOT_CERT_OK;
}

static int
ecmp(const uint32_t *x, const uint32_t *y)   /* (issuer, target, uid) keys */
{
	if (x[1] != y[1]) return x[1] < y[1] ? -1 : 1;
	if (x[2] != y[2]) return x[2] < y[2] ? -1 : 1;
	if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
	return 0;
}

static void
sort_edges(spec *s)
{
	/* insertion sort by (target, uid, issuer), as the keyring stores them */
	for (size_t a = 1; a < s->ne; a++) {
		__typeof__(s->e[0]) y = s->e[a];
		size_t z = a;
		while (z > 0) {
			uint32_t k1[3] = {s->e[z - 1].i, s->e[z - 1].t, s->e[z - 1].uid};
			uint32_t k2[3] = {y.i, y.t, y.uid};
			if (ecmp(k1, k2) <= 0)
				break;
			s->e[z] = s->e[z - 1];
			z--;
		}
		s->e[z] = y;
	}
}

static wot_graph *
build(spec *s)
{
	wot_graph *g = calloc(1, sizeof *g);
	size_t i;

	sort_edges(s);
	g->t = 1000;
	pgp_policy_init(&g->pol_copy);
	g->pol = &g->pol_copy;
	g->nnodes = s->n;
	g->nodes = calloc(s->n, sizeof *g->nodes);
	g->uid_status = calloc(s->n * 2, sizeof *g->uid_status);
	g->uid_reason = calloc(s->n * 2, sizeof *g->uid_reason);
	for (i = 0; i < s->n; i++) {
		wot_node *nd = &g->nodes[i];
		fake_cert[i].nuids = 2;
		nd->cert = &fake_cert[i];
		nd->fpr.len = 20;
		nd->fpr.v[19] = (uint8_t)i;       /* fingerprint order = index order */
		nd->keyid[7] = s->keyid[i];
		nd->state = s->node_state[i];
		nd->primary_uid = 0;
		nd->uid_status = g->uid_status + 2 * i;
		nd->uid_reason = (const char *const *)(g->uid_reason + 2 * i);
		for (int u = 0; u < 2; u++)
			g->uid_status[2 * i + (size_t)u] = s->uid_policy[i][u] ? PGP_ERR_POLICY : PGP_OK;
	}
	g->certs = calloc(s->ne ? s->ne : 1, sizeof *g->certs);
	g->ncerts = s->ne;
	for (i = 0; i < s->ne; i++) {
		g->certs[i].issuer = s->e[i].i;
		g->certs[i].target = s->e[i].t;
		g->certs[i].uid = s->e[i].uid;
		g->certs[i].state = cert_state(s, i);
		g->certs[i].sigtype = 0x10;
		g->certs[i].hash_algo = 8;
	}
	T_ASSERT(wot__finish(g) == PGP_OK);
	return g;
}

static uint32_t rng = 12345;
static uint32_t
rnd(uint32_t n)
{
	rng = rng * 1103515245u + 12345u;
	return (rng >> 8) % n;
}

/* A random spec: keys, a few invalid ones, certifications on two user IDs. */
static void
random_spec(spec *s, size_t n, unsigned pct, int with_policy)
{
	size_t i, j;

	memset(s, 0, sizeof *s);
	s->n = n;
	for (i = 0; i < n; i++) {
		s->keyid[i] = (uint8_t)i;
		s->node_state[i] = rnd(10) == 0 ? WOT_NODE_EXPIRED : WOT_NODE_VALID;
	}
	for (i = n; i > 1; i--) {       /* shuffle key IDs: rank != index */
		size_t k = rnd((uint32_t)i);
		uint8_t t = s->keyid[i - 1];
		s->keyid[i - 1] = s->keyid[k];
		s->keyid[k] = t;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			if (i == j || rnd(100) >= pct)
				continue;
			s->e[s->ne].i = (uint32_t)i;
			s->e[s->ne].t = (uint32_t)j;
			s->e[s->ne].uid = rnd(2);
			s->e[s->ne].refused = with_policy && rnd(3) == 0;
			s->e[s->ne].dead = rnd(15) == 0;
			s->ne++;
			if (rnd(4) == 0) {   /* a second certification, other user ID */
				s->e[s->ne] = s->e[s->ne - 1];
				s->e[s->ne].uid ^= 1;
				s->e[s->ne].refused = with_policy && rnd(3) == 0;
				s->e[s->ne].dead = 0;
				s->ne++;
			}
		}
}

/* ---- reference: wotmate's rule, literally ---- */

/* usable key-level successors of u, by rank (computed from the spec, not
 * from the library's adjacency) */
static size_t
ref_succ(const spec *s, const wot_graph *g, uint32_t u, uint32_t *out)
{
	uint8_t has[MAXN] = {0};
	size_t n = 0, k;
	uint32_t r;

	for (k = 0; k < s->ne; k++)
		if (s->e[k].i == u && cert_state(s, k) == WOT_CERT_OK)
			has[s->e[k].t] = 1;
	for (r = 0; r < s->n; r++)
		for (uint32_t v = 0; v < s->n; v++)
			if (has[v] && g->nodes[v].rank == r)
				out[n++] = v;
	return n;
}

typedef struct qent { uint32_t node, depth, parent; } qent;

static size_t
ref_paths(const spec *s, const wot_graph *g, uint32_t from, uint32_t to, unsigned maxdepth,
    unsigned maxpaths, wot_path *out)
{
	static qent q[200000];
	uint8_t used[MAXN] = {0};
	size_t np = 0;

	if (s->node_state[from] != WOT_NODE_VALID || s->node_state[to] != WOT_NODE_VALID)
		return 0;
	while (np < maxpaths) {
		uint8_t found[MAXN] = {0};
		size_t head = 0, tail = 0;
		long got = -1;
		q[tail++] = (qent){from, 0, UINT32_MAX};
		while (head < tail) {
			qent e = q[head++];
			uint32_t succ[MAXN];
			size_t ns, k;
			if (found[e.node])
				continue;
			if (e.node == to) {
				got = (long)(head - 1);
				break;
			}
			found[e.node] = 1;
			if (e.depth >= maxdepth)
				continue;
			ns = ref_succ(s, g, e.node, succ);
			int has_to = 0;
			for (k = 0; k < ns; k++)
				if (succ[k] == to)
					has_to = 1;
			if (has_to) {
				q[tail++] = (qent){to, e.depth + 1, (uint32_t)(head - 1)};
				continue;
			}
			for (k = 0; k < ns; k++)
				if (!used[succ[k]] && !found[succ[k]] && tail < 200000)
					q[tail++] = (qent){succ[k], e.depth + 1, (uint32_t)(head - 1)};
		}
		if (got < 0)
			break;
		wot_path *p = &out[np++];
		p->len = q[got].depth;
		for (uint32_t x = (uint32_t)got, k = p->len;; k--) {
			p->node[k] = q[x].node;
			if (k == 0)
				break;
			x = q[x].parent;
		}
		if (p->len <= 1)
			break;
		for (uint32_t k = 1; k < p->len; k++)
			used[p->node[k]] = 1;
	}
	return np;
}

static void
test_paths_random(void)
{
	spec s;
	size_t graphs, mism = 0, nonempty = 0, multi = 0;

	for (graphs = 0; graphs < 150; graphs++) {
		random_spec(&s, 3 + rnd(18), 5 + rnd(20), 0);
		wot_graph *g = build(&s);
		wot_search *ws;
		T_ASSERT(wot_search_new(&ws, g) == PGP_OK);
		for (uint32_t a = 0; a < s.n; a++)
			for (uint32_t b = 0; b < s.n; b++) {
				unsigned md = 1 + rnd(5), mp = 1 + rnd(4);
				wot_path got[WOT_MAX_PATHS], want[WOT_MAX_PATHS];
				size_t ng = 0, nw = ref_paths(&s, g, a, b, md, mp, want);
				T_ASSERT(wot_paths(ws, a, b, md, mp, got, &ng) == PGP_OK);
				nonempty += nw > 0;
				multi += nw > 1;
				if (ng != nw) {
					mism++;
					continue;
				}
				for (size_t k = 0; k < nw; k++)
					if (got[k].len != want[k].len ||
					    memcmp(got[k].node, want[k].node, (want[k].len + 1) * sizeof(uint32_t)))
						mism++;
			}
		wot_search_free(ws);
		wot_free(g);
	}
	T_EQ_INT(mism, 0);
	T_ASSERT(nonempty > 1000);   /* the random graphs do have paths */
	T_ASSERT(multi > 100);       /* and several per pair */
}

/* A hand-made case: two equal-length paths, the lower key ID wins; the
 * second path avoids the first's intermediate; a direct path ends it. */
static void
test_paths_ties(void)
{
	spec s;
	memset(&s, 0, sizeof s);
	s.n = 5;   /* 0 root, 1 and 2 intermediates (key IDs 9 and 3), 3 target, 4 */
	uint8_t ids[5] = {1, 9, 3, 7, 8};
	memcpy(s.keyid, ids, 5);
	uint32_t E[][2] = {{0, 1}, {0, 2}, {1, 3}, {2, 3}, {0, 4}, {4, 3}};
	for (size_t k = 0; k < 6; k++) {
		s.e[s.ne].i = E[k][0];
		s.e[s.ne].t = E[k][1];
		s.ne++;
	}
	wot_graph *g = build(&s);
	wot_search *ws;
	wot_path p[4];
	size_t n;
	T_ASSERT(wot_search_new(&ws, g) == PGP_OK);
	T_ASSERT(wot_paths(ws, 0, 3, 4, 4, p, &n) == PGP_OK);
	T_EQ_INT(n, 3);
	/* through key ID 3 (node 2) first, then 8 (node 4), then 9 (node 1) */
	T_EQ_INT(p[0].node[1], 2);
	T_EQ_INT(p[1].node[1], 4);
	T_EQ_INT(p[2].node[1], 1);
	T_ASSERT(wot_paths(ws, 0, 3, 4, 2, p, &n) == PGP_OK);
	T_EQ_INT(n, 2);
	T_ASSERT(wot_paths(ws, 0, 3, 1, 4, p, &n) == PGP_OK);
	T_EQ_INT(n, 0);
	T_ASSERT(wot_paths(ws, 0, 0, 4, 4, p, &n) == PGP_OK);
	T_EQ_INT(n, 1);
	T_EQ_INT(p[0].len, 0);
	T_ASSERT(wot_paths(ws, 0, 1, 4, 4, p, &n) == PGP_OK);
	T_EQ_INT(n, 1);   /* a direct path ends the search */
	T_ASSERT(wot_paths(ws, 0, 9, 4, 4, p, &n) == PGP_ERR_INVALID);
	T_ASSERT(wot_paths(ws, 0, 3, WOT_MAX_DEPTH + 1, 4, p, &n) == PGP_ERR_INVALID);
	wot_search_free(ws);
	wot_free(g);
	/* an invalid intermediate is never on a path */
	s.node_state[2] = WOT_NODE_REVOKED;
	s.node_state[4] = WOT_NODE_EXPIRED;
	g = build(&s);
	T_ASSERT(wot_search_new(&ws, g) == PGP_OK);
	T_ASSERT(wot_paths(ws, 0, 3, 4, 4, p, &n) == PGP_OK);
	T_EQ_INT(n, 1);
	T_EQ_INT(p[0].node[1], 1);
	wot_search_free(ws);
	wot_free(g);
}

/* ---- distances and explanations ---- */

static void
ref_bfs(const spec *s, const wot_graph *g, uint32_t from, uint32_t *dist)
{
	uint32_t q[MAXN], h = 0, t = 0, succ[MAXN];
	for (size_t i = 0; i < s->n; i++)
		dist[i] = UINT32_MAX;
	if (s->node_state[from] != WOT_NODE_VALID)
		return;
	dist[from] = 0;
	q[t++] = from;
	while (h < t) {
		uint32_t u = q[h++];
		size_t ns = ref_succ(s, g, u, succ);
		for (size_t k = 0; k < ns; k++)
			if (dist[succ[k]] == UINT32_MAX) {
				dist[succ[k]] = dist[u] + 1;
				q[t++] = succ[k];
			}
	}
}

static void
test_distances_and_why_random(void)
{
	spec s;
	size_t bad = 0, blocked = 0, beyond = 0;

	for (int gi = 0; gi < 150; gi++) {
		random_spec(&s, 3 + rnd(18), 5 + rnd(20), 1);
		wot_graph *g = build(&s);
		wot_search *ws;
		uint32_t dist[MAXN], ref[MAXN];
		T_ASSERT(wot_search_new(&ws, g) == PGP_OK);
		for (uint32_t a = 0; a < s.n; a++) {
			unsigned md = 1 + rnd(4);
			T_ASSERT(wot_distances(ws, a, WOT_MAX_DEPTH, dist) == PGP_OK);
			ref_bfs(&s, g, a, ref);
			bad += memcmp(dist, ref, s.n * sizeof *dist) != 0;
			for (uint32_t b = 0; b < s.n; b++) {
				wot_why w;
				T_ASSERT(wot_explain(g, a, b, md, &w) == PGP_OK);
				if (s.node_state[b] != WOT_NODE_VALID) {
					bad += w.verdict != WOT_WHY_TARGET_INVALID;
					continue;
				}
				if (s.node_state[a] != WOT_NODE_VALID) {
					bad += w.verdict != WOT_WHY_ROOT_INVALID;
					continue;
				}
				/* PATH exactly when BFS reaches b within md */
				bad += (w.verdict == WOT_WHY_PATH) != (ref[b] <= md);
				bad += (w.verdict == WOT_WHY_BEYOND) != (ref[b] != UINT32_MAX && ref[b] > md);
				/* cheapest blocked count by Bellman-Ford over all certs */
				uint32_t cost[MAXN];
				for (size_t i = 0; i < s.n; i++)
					cost[i] = UINT32_MAX;
				cost[a] = 0;
				for (size_t round = 0; round < s.n; round++)
					for (size_t k = 0; k < s.ne; k++) {
						uint32_t u = s.e[k].i, v = s.e[k].t;
						uint8_t st = cert_state(&s, k);
						if (cost[u] == UINT32_MAX || v == a)
							continue;
						uint32_t c = cost[u] + (st == WOT_CERT_OK || st == WOT_CERT_ISSUER ||
						    st == WOT_CERT_TARGET ? 0 : 1) +
						    (v != b && s.node_state[v] != WOT_NODE_VALID ? 1 : 0);
						if (c < cost[v])
							cost[v] = c;
					}
				if (cost[b] == UINT32_MAX) {
					bad += w.verdict != WOT_WHY_NO_CERTS && w.verdict != WOT_WHY_NOT_CONNECTED;
					continue;
				}
				bad += w.blocked != cost[b];
				if (w.verdict == WOT_WHY_BLOCKED) {
					blocked++;
					/* the reported chain is made of real certifications */
					bad += !w.stored || w.node[0] != a || w.node[w.hops] != b;
					for (uint32_t k = 0; w.stored && k < w.hops; k++) {
						const wot_cert *c = wot_cert_at(g, w.cert[k]);
						bad += c->issuer != w.node[k] || c->target != w.node[k + 1];
					}
					bad += w.kinds == 0;
				}
				beyond += w.verdict == WOT_WHY_BEYOND;
			}
		}
		wot_search_free(ws);
		wot_free(g);
	}
	T_EQ_INT(bad, 0);
	T_ASSERT(blocked > 100);
	T_ASSERT(beyond > 10);
}

/* ---- the audit ---- */

/* base: the same spec with nothing refused by policy */
static void
baseline_of(const spec *aud, spec *base)
{
	*base = *aud;
	for (size_t k = 0; k < base->ne; k++)
		base->e[k].refused = 0;
	for (size_t i = 0; i < base->n; i++) {
		base->uid_policy[i][0] = base->uid_policy[i][1] = 0;
		if (base->node_state[i] == WOT_NODE_POLICY)
			base->node_state[i] = WOT_NODE_VALID;
	}
}

/* aud with actions applied (recert: cert index in the sorted spec) */
static void
apply(const spec *aud, spec *out, const uint8_t *recert, const uint8_t *renew)
{
	*out = *aud;
	for (size_t k = 0; k < out->ne; k++)
		if (recert[k])
			out->e[k].refused = 0;
	for (size_t i = 0; i < out->n; i++)
		if (renew[i]) {
			out->uid_policy[i][0] = out->uid_policy[i][1] = 0;
			if (out->node_state[i] == WOT_NODE_POLICY)
				out->node_state[i] = WOT_NODE_VALID;
		}
}

static int
restored(const spec *aud, const uint8_t *recert, const uint8_t *renew, uint32_t root,
    unsigned md, const uint32_t *keys, size_t nkeys)
{
	spec *x = malloc(sizeof *x);
	uint32_t dist[MAXN];
	apply(aud, x, recert, renew);
	wot_graph *g = build(x);
	ref_bfs(x, g, root, dist);
	int ok = 1;
	for (size_t i = 0; i < nkeys; i++)
		if (dist[keys[i]] > md)
			ok = 0;
	wot_free(g);
	free(x);
	return ok;
}

static void
test_audit_random(void)
{
	spec *aud = malloc(sizeof *aud), *base = malloc(sizeof *base);
	size_t bad = 0, lost_total = 0, acts = 0;

	for (int gi = 0; gi < 120; gi++) {
		random_spec(aud, 4 + rnd(16), 8 + rnd(15), 1);
		for (size_t i = 0; i < aud->n; i++) {
			if (aud->node_state[i] == WOT_NODE_VALID && rnd(8) == 0)
				aud->node_state[i] = WOT_NODE_POLICY;
			aud->uid_policy[i][rnd(2)] = rnd(6) == 0;
		}
		sort_edges(aud);
		baseline_of(aud, base);
		uint32_t root = rnd((uint32_t)aud->n);
		unsigned md = 2 + rnd(3);
		aud->node_state[root] = WOT_NODE_VALID;
		base->node_state[root] = WOT_NODE_VALID;
		wot_graph *ga = build(aud), *gb = build(base);
		wot_audit au;
		T_ASSERT(wot_audit_run(gb, ga, root, md, &au) == PGP_OK);
		uint32_t db[MAXN], da[MAXN], want[MAXN];
		size_t nw = 0;
		ref_bfs(base, gb, root, db);
		ref_bfs(aud, ga, root, da);
		for (uint32_t r = 0; r < aud->n; r++)
			for (uint32_t v = 0; v < aud->n; v++)
				if (gb->nodes[v].rank == r && db[v] <= md && da[v] > md)
					want[nw++] = v;
		bad += au.nlost != nw || memcmp(au.lost, want, nw * sizeof *want) != 0;
		lost_total += nw;
		/* the actions restore every lost key that is not declared stuck */
		uint8_t recert[MAXN * MAXN * 2] = {0}, renew[MAXN] = {0};
		uint32_t keep[MAXN];
		size_t nk = 0;
		for (size_t i = 0; i < au.nlost; i++) {
			int st = 0;
			for (size_t j = 0; j < au.nstuck; j++)
				st |= au.stuck[j] == au.lost[i];
			if (!st)
				keep[nk++] = au.lost[i];
		}
		for (size_t i = 0; i < au.nact; i++) {
			if (au.act[i].kind == WOT_ACT_RECERTIFY)
				recert[au.act[i].cert] = 1;
			else
				renew[au.act[i].node] = 1;
		}
		acts += au.nact;
		bad += !restored(aud, recert, renew, root, md, keep, nk);
		/* minimal: each action is needed */
		for (size_t i = 0; i < au.nact; i++) {
			uint8_t *f = au.act[i].kind == WOT_ACT_RECERTIFY ? &recert[au.act[i].cert] :
			    &renew[au.act[i].node];
			*f = 0;
			bad += (size_t)restored(aud, recert, renew, root, md, keep, nk);
			*f = 1;
		}
		/* stuck: not restorable even with every action */
		if (au.nstuck > 0) {
			uint8_t allc[MAXN * MAXN * 2], alln[MAXN];
			memset(allc, 1, sizeof allc);
			memset(alln, 1, sizeof alln);
			for (size_t j = 0; j < au.nstuck; j++)
				bad += (size_t)restored(aud, allc, alln, root, md, &au.stuck[j], 1);
		}
		wot_audit_free(&au);
		wot_free(ga);
		wot_free(gb);
	}
	T_EQ_INT(bad, 0);
	T_ASSERT(lost_total > 50);
	T_ASSERT(acts > 20);
	free(aud);
	free(base);
}

int
main(void)
{
	T_RUN(test_paths_ties);
	T_RUN(test_paths_random);
	T_RUN(test_distances_and_why_random);
	T_RUN(test_audit_random);
	return T_DONE();
}
