/*
 * wot_path.c - certification paths over a wot_graph (keyring/wot.h,
 * docs/wot.md "Paths").
 *
 * wotmate's rule (mricon/wotmate get_key_paths, as pgpkeys.git's graphs
 * are drawn): a FIFO queue from `from`; a popped node's successors not yet
 * popped and not excluded are appended in order (here: rank, i.e. key ID
 * order), except that when the target is among them only the target is
 * appended; the first path to reach the target is reported, its
 * intermediate keys are excluded, and the search starts over; a path of at
 * most one hop ends the search.
 *
 * Marking nodes when first queued instead of when first popped gives the
 * same paths: the queue is FIFO, so a node's first entry is also the first
 * one popped and a later duplicate would be skipped when popped. Likewise
 * the path to the target is fixed when it is first queued, so the search
 * stops there instead of when it is popped.
 */
#include <stdlib.h>
#include <string.h>
#include "wot.h"
#include "wot_int.h"

struct wot_search {
	const wot_graph *g;
	uint32_t *seen;       /* stamp: queued in the current search */
	uint32_t *excluded;   /* stamp: intermediate of a path already found */
	uint32_t *parent;
	uint32_t *depth;
	uint32_t *queue;
	uint32_t stamp, xstamp;
	/* distances from dist_from (UINT32_MAX: none computed yet): a target
	 * farther than maxdepth has no path, found without a search each */
	uint32_t *dist;
	uint32_t dist_from;
};

pgp_err
wot_search_new(wot_search **out, const wot_graph *g)
{
	wot_search *s;
	size_t n = g->nnodes ? g->nnodes : 1;

	*out = NULL;
	if ((s = calloc(1, sizeof *s)) == NULL)
		return PGP_ERR_NOMEM;
	s->g = g;
	s->seen = calloc(n, sizeof *s->seen);
	s->excluded = calloc(n, sizeof *s->excluded);
	s->parent = malloc(n * sizeof *s->parent);
	s->depth = malloc(n * sizeof *s->depth);
	s->queue = malloc(n * sizeof *s->queue);
	s->dist = malloc(n * sizeof *s->dist);
	s->dist_from = UINT32_MAX;
	if (s->seen == NULL || s->excluded == NULL || s->parent == NULL || s->depth == NULL ||
	    s->queue == NULL || s->dist == NULL) {
		wot_search_free(s);
		return PGP_ERR_NOMEM;
	}
	*out = s;
	return PGP_OK;
}

void
wot_search_free(wot_search *s)
{
	if (s == NULL)
		return;
	free(s->seen);
	free(s->excluded);
	free(s->parent);
	free(s->depth);
	free(s->queue);
	free(s->dist);
	free(s);
}

/* A fresh stamp; on wrap-around the arrays are cleared. */
static uint32_t
next_stamp(uint32_t *stamp, uint32_t *arr, size_t n)
{
	if (++*stamp == 0) {
		memset(arr, 0, n * sizeof *arr);
		*stamp = 1;
	}
	return *stamp;
}

/* One breadth-first search for `to`; 1 when found (path in *p). */
static int
search_once(wot_search *s, uint32_t from, uint32_t to, unsigned maxdepth, wot_path *p)
{
	const wot_graph *g = s->g;
	uint32_t st = next_stamp(&s->stamp, s->seen, g->nnodes), xs = s->xstamp;
	size_t head = 0, tail = 0;

	s->seen[from] = st;
	s->depth[from] = 0;
	s->parent[from] = UINT32_MAX;
	s->queue[tail++] = from;
	while (head < tail) {
		uint32_t u = s->queue[head++], d = s->depth[u];
		const uint32_t *succ;
		size_t n, i;

		if (d >= maxdepth)
			continue;
		n = wot_succ(g, u, &succ);
		/* the target among the successors: only it is followed */
		for (i = 0; i < n; i++)
			if (succ[i] == to)
				break;
		if (i < n) {
			uint32_t v = to, k;
			s->parent[to] = u;
			p->len = d + 1;
			for (k = d + 1;; k--) {
				p->node[k] = v;
				if (k == 0)
					break;
				v = s->parent[v];
			}
			return 1;
		}
		for (i = 0; i < n; i++) {
			uint32_t v = succ[i];
			if (s->seen[v] == st || s->excluded[v] == xs)
				continue;
			s->seen[v] = st;
			s->parent[v] = u;
			s->depth[v] = d + 1;
			s->queue[tail++] = v;
		}
	}
	return 0;
}

pgp_err
wot_paths(wot_search *s, uint32_t from, uint32_t to, unsigned maxdepth, unsigned maxpaths,
    wot_path *out, size_t *n)
{
	const wot_graph *g = s->g;
	size_t found = 0;

	*n = 0;
	if (from >= g->nnodes || to >= g->nnodes || maxdepth > WOT_MAX_DEPTH ||
	    maxpaths > WOT_MAX_PATHS)
		return PGP_ERR_INVALID;
	if (maxpaths == 0 || g->nodes[from].state != WOT_NODE_VALID ||
	    g->nodes[to].state != WOT_NODE_VALID)
		return PGP_OK;
	if (from == to) {
		out[0].len = 0;
		out[0].node[0] = from;
		*n = 1;
		return PGP_OK;
	}
	/* every path found below is at least as long as the shortest one */
	if (s->dist_from != from) {
		pgp_err e = wot_distances(s, from, WOT_MAX_DEPTH, s->dist);
		if (e != PGP_OK)
			return e;
		s->dist_from = from;
	}
	if (s->dist[to] > maxdepth)
		return PGP_OK;
	next_stamp(&s->xstamp, s->excluded, g->nnodes);
	while (found < maxpaths && search_once(s, from, to, maxdepth, &out[found])) {
		wot_path *p = &out[found++];
		if (p->len <= 1)
			break;
		for (uint32_t k = 1; k < p->len; k++)
			s->excluded[p->node[k]] = s->xstamp;
	}
	*n = found;
	return PGP_OK;
}

pgp_err
wot_distances(wot_search *s, uint32_t from, unsigned maxdepth, uint32_t *dist)
{
	const wot_graph *g = s->g;
	size_t head = 0, tail = 0, i;

	if (from >= g->nnodes || maxdepth > WOT_MAX_DEPTH)
		return PGP_ERR_INVALID;
	for (i = 0; i < g->nnodes; i++)
		dist[i] = UINT32_MAX;
	if (g->nodes[from].state != WOT_NODE_VALID)
		return PGP_OK;
	dist[from] = 0;
	s->queue[tail++] = from;
	while (head < tail) {
		uint32_t u = s->queue[head++];
		const uint32_t *succ;
		size_t n;

		if (dist[u] >= maxdepth)
			continue;
		n = wot_succ(g, u, &succ);
		for (i = 0; i < n; i++)
			if (dist[succ[i]] == UINT32_MAX) {
				dist[succ[i]] = dist[u] + 1;
				s->queue[tail++] = succ[i];
			}
	}
	return PGP_OK;
}
