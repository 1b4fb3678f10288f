/*
 * wot_why.c - why a key has no path from the root (keyring/wot.h,
 * docs/wot.md "Why").
 *
 * Every certification in the keyring is a hop here, whatever its state; a
 * hop costs one when its certification does not count (refused by policy,
 * revoked, expired, ...) and entering a key costs one when that key is not
 * valid at t. The cheapest path (fewest blocked hops and keys, then fewest
 * hops; Dijkstra, ties broken by rank) shows what stands in the way: no
 * such path at all means the target is not connected, a free one longer
 * than maxdepth means it is just too far.
 */
#include <stdlib.h>
#include <string.h>
#include "wot.h"
#include "wot_int.h"

unsigned
wot_cert_block(const wot_graph *g, const wot_cert *c)
{
	const wot_node *t = &g->nodes[c->target];

	switch (c->state) {
	case WOT_CERT_OK:
		return 0;
	case WOT_CERT_POLICY:
		return WOT_BLOCK_POLICY;
	case WOT_CERT_UID:
		/* a user ID whose binding is refused by policy (e.g. SHA-1) */
		return c->uid < t->cert->nuids && t->uid_status[c->uid] == PGP_ERR_POLICY ?
		    WOT_BLOCK_POLICY : WOT_BLOCK_CERT;
	case WOT_CERT_ISSUER:
	case WOT_CERT_TARGET:
		return WOT_BLOCK_KEY;
	default:
		return WOT_BLOCK_CERT;
	}
}

/* A binary min-heap of (key, node). */
typedef struct heap {
	uint64_t *key;
	uint32_t *node;
	size_t n;
} heap;

static void
heap_push(heap *h, uint64_t k, uint32_t v)
{
	size_t i = h->n++;

	while (i > 0) {
		size_t p = (i - 1) / 2;
		if (h->key[p] <= k)
			break;
		h->key[i] = h->key[p];
		h->node[i] = h->node[p];
		i = p;
	}
	h->key[i] = k;
	h->node[i] = v;
}

static void
heap_pop(heap *h, uint64_t *k, uint32_t *v)
{
	uint64_t lk;
	uint32_t lv;
	size_t i = 0;

	*k = h->key[0];
	*v = h->node[0];
	lk = h->key[--h->n];
	lv = h->node[h->n];
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= h->n)
			break;
		if (c + 1 < h->n && h->key[c + 1] < h->key[c])
			c++;
		if (h->key[c] >= lk)
			break;
		h->key[i] = h->key[c];
		h->node[i] = h->node[c];
		i = c;
	}
	if (h->n > 0) {
		h->key[i] = lk;
		h->node[i] = lv;
	}
}

#define KEY(cost, hops, rank) (((uint64_t)(cost) << 44) | ((uint64_t)(hops) << 26) | (uint64_t)(rank))

pgp_err
wot_explain(const wot_graph *g, uint32_t root, uint32_t target, unsigned maxdepth, wot_why *out)
{
	size_t n = g->nnodes, i;
	uint32_t *cost = NULL, *hops = NULL, *par = NULL, *pcert = NULL;
	uint8_t *done = NULL;
	heap h = {NULL, NULL, 0};
	pgp_err e = PGP_ERR_NOMEM;

	memset(out, 0, sizeof *out);
	if (root >= n || target >= n || maxdepth > WOT_MAX_DEPTH)
		return PGP_ERR_INVALID;
	if (g->nodes[target].state != WOT_NODE_VALID) {
		out->verdict = WOT_WHY_TARGET_INVALID;
		return PGP_OK;
	}
	if (g->nodes[root].state != WOT_NODE_VALID) {
		out->verdict = WOT_WHY_ROOT_INVALID;
		return PGP_OK;
	}
	if (root == target) {
		out->verdict = WOT_WHY_PATH;
		out->node[0] = root;
		out->stored = 1;
		return PGP_OK;
	}
	cost = malloc(n * sizeof *cost);
	hops = malloc(n * sizeof *hops);
	par = malloc(n * sizeof *par);
	pcert = malloc(n * sizeof *pcert);
	done = calloc(n, 1);
	/* each node is pushed at most once per improvement: bounded by the
	 * number of certifications plus one */
	h.key = malloc((g->ncerts + 1) * sizeof *h.key);
	h.node = malloc((g->ncerts + 1) * sizeof *h.node);
	if (!cost || !hops || !par || !pcert || !done || !h.key || !h.node)
		goto out;
	for (i = 0; i < n; i++) {
		cost[i] = UINT32_MAX;
		hops[i] = UINT32_MAX;
		par[i] = UINT32_MAX;
	}
	cost[root] = 0;
	hops[root] = 0;
	heap_push(&h, KEY(0, 0, g->nodes[root].rank), root);
	while (h.n > 0) {
		uint64_t k;
		uint32_t u;
		const uint32_t *cs;
		size_t nc;

		heap_pop(&h, &k, &u);
		if (done[u])
			continue;
		done[u] = 1;
		if (u == target)
			break;
		nc = wot_issued(g, u, &cs);
		for (i = 0; i < nc; i++) {
			const wot_cert *c = &g->certs[cs[i]];
			uint32_t v = c->target, cc, hh;
			unsigned b;
			if (done[v] || c->on_attr)
				continue;     /* a photo's certification is never a path */
			b = wot_cert_block(g, c);
			cc = cost[u] + ((b & (WOT_BLOCK_POLICY | WOT_BLOCK_CERT)) ? 1u : 0u) +
			    (v != target && g->nodes[v].state != WOT_NODE_VALID ? 1u : 0u);
			hh = hops[u] + 1;
			if (cc > 0xFFFFF || hh > 0x3FFFF)
				continue;     /* beyond what the key can order: never on real data */
			if (cc < cost[v] || (cc == cost[v] && hh < hops[v])) {
				cost[v] = cc;
				hops[v] = hh;
				par[v] = u;
				pcert[v] = cs[i];
				heap_push(&h, KEY(cc, hh, g->nodes[v].rank), v);
			}
		}
	}
	if (cost[target] == UINT32_MAX) {
		const uint32_t *cs;
		size_t nc = wot_received(g, target, &cs), k, on_uids = 0;
		for (k = 0; k < nc; k++)
			on_uids += !g->certs[cs[k]].on_attr;
		out->verdict = on_uids == 0 ? WOT_WHY_NO_CERTS : WOT_WHY_NOT_CONNECTED;
		e = PGP_OK;
		goto out;
	}
	out->hops = hops[target];
	out->blocked = cost[target];
	if (out->hops <= WOT_MAX_WHY_HOPS) {
		uint32_t v = target, k2 = out->hops;
		out->stored = 1;
		for (;;) {
			out->node[k2] = v;
			if (k2 == 0)
				break;
			out->cert[k2 - 1] = pcert[v];
			v = par[v];
			k2--;
		}
		for (k2 = 0; k2 < out->hops; k2++) {
			unsigned b = wot_cert_block(g, &g->certs[out->cert[k2]]);
			out->kinds |= b & (WOT_BLOCK_POLICY | WOT_BLOCK_CERT);
			if (k2 + 1 < out->hops && g->nodes[out->node[k2 + 1]].state != WOT_NODE_VALID)
				out->kinds |= WOT_BLOCK_KEY;
		}
	}
	if (cost[target] == 0)
		out->verdict = hops[target] <= maxdepth ? WOT_WHY_PATH : WOT_WHY_BEYOND;
	else
		out->verdict = WOT_WHY_BLOCKED;
	e = PGP_OK;
out:
	free(cost);
	free(hops);
	free(par);
	free(pcert);
	free(done);
	free(h.key);
	free(h.node);
	return e;
}
