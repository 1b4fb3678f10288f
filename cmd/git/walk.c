/*
 * walk.c - the commits of a range A..B, in `git rev-list A..B` order (git
 * 2.39 revision.c: limit_list, process_parents, mark_parents_uninteresting,
 * still_interesting). see walk.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "cgraph.h"
#include "keyring/gitobj.h"

#define SLOP 5   /* git's: commits taken after only excluded ones are left */

enum {
	F_UNINTERESTING = 1,   /* reachable from A */
	F_SEEN = 2,            /* queued once */
	F_ADDED = 4            /* its parents processed */
};

struct gx_walk {
	gx_cgraph g;           /* the commits read (their content kept within GX_WALK_MAX_CACHE) */
	gx_cqueue q;
	uint32_t *list;        /* taken, in order (before dropping excluded ones) */
	size_t nlist, caplist;
	uint32_t *out;         /* the result */
	size_t nout;
	uint32_t *stack;       /* mark_parents_uninteresting */
	size_t nstack, capstack;
};

static int
qput(gx_walk *w, uint32_t i)
{
	if (gx_cqueue_put(&w->q, i, w->g.nodes[i].date) != 0)
		return gx_cgraph_oom(&w->g);
	return 0;
}

/* git's mark_parents_uninteresting: through every parsed ancestor not yet excluded. */
static int
mark_parents(gx_walk *w, uint32_t i)
{
	w->nstack = 0;
	for (;;) {
		const gx_cnode *n = &w->g.nodes[i];
		uint32_t k;
		for (k = 0; k < n->npar; k++) {
			uint32_t p = w->g.par[n->par0 + k];
			if (w->g.nodes[p].flags & F_UNINTERESTING)
				continue;
			w->g.nodes[p].flags |= F_UNINTERESTING;
			if (w->g.nodes[p].parsed) {
				if (gx_grow((void **)&w->stack, &w->capstack, w->nstack, sizeof *w->stack) != 0)
					return gx_cgraph_oom(&w->g);
				w->stack[w->nstack++] = p;
			}
		}
		if (w->nstack == 0)
			return 0;
		i = w->stack[--w->nstack];
	}
}

/* git's process_parents for node i. */
static int
process_parents(gx_walk *w, uint32_t i)
{
	uint32_t k, npar;

	if (w->g.nodes[i].flags & F_ADDED)
		return 0;
	w->g.nodes[i].flags |= F_ADDED;
	npar = w->g.nodes[i].npar;
	for (k = 0; k < npar; k++) {
		uint32_t p = w->g.par[w->g.nodes[i].par0 + k];
		if (w->g.nodes[i].flags & F_UNINTERESTING) {
			w->g.nodes[p].flags |= F_UNINTERESTING;
			if (gx_cgraph_parse(&w->g, p) != 0) {
				/* git parses an excluded parent gently: a missing one is skipped */
				w->g.err[0] = 0;
				continue;
			}
			if (mark_parents(w, p) != 0)
				return -1;
		} else if (gx_cgraph_parse(&w->g, p) != 0) {
			return -1;
		}
		if (w->g.nodes[p].flags & F_SEEN)
			continue;
		w->g.nodes[p].flags |= F_SEEN;
		if (qput(w, p) != 0)
			return -1;
	}
	return 0;
}

/* git's still_interesting: SLOP while not done, else slop - 1. */
static int
still_interesting(const gx_walk *w, int64_t date, int slop)
{
	size_t k;
	if (w->q.n == 0)
		return 0;
	if (date <= w->q.q[0].date)
		return SLOP;
	for (k = 0; k < w->q.n; k++)
		if (!(w->g.nodes[w->q.q[k].node].flags & F_UNINTERESTING))
			return SLOP;
	return slop - 1;
}

static int
start(gx_walk *w, const uint8_t *id, int exclude)
{
	int64_t i = gx_cgraph_node(&w->g, id);
	if (i < 0 || gx_cgraph_parse(&w->g, (uint32_t)i) != 0)
		return -1;
	if (exclude) {
		w->g.nodes[i].flags |= F_UNINTERESTING;
		if (mark_parents(w, (uint32_t)i) != 0)
			return -1;
	}
	if (w->g.nodes[i].flags & F_SEEN)
		return 0;
	w->g.nodes[i].flags |= F_SEEN;
	return qput(w, (uint32_t)i);
}

static int
walk(gx_walk *w, const uint8_t *a, const uint8_t *b)
{
	int slop = SLOP;
	int64_t date = INT64_MAX;
	size_t k;

	if ((a && start(w, a, 1) != 0) || start(w, b, 0) != 0)
		return -1;
	while (w->q.n) {
		uint32_t i = gx_cqueue_pop(&w->q);
		if (process_parents(w, i) != 0)
			return -1;
		if (w->g.nodes[i].flags & F_UNINTERESTING) {
			if (mark_parents(w, i) != 0)
				return -1;
			if ((slop = still_interesting(w, date, slop)) != 0)
				continue;
			break;
		}
		date = w->g.nodes[i].date;
		if (gx_grow((void **)&w->list, &w->caplist, w->nlist, sizeof *w->list) != 0)
			return gx_cgraph_oom(&w->g);
		w->list[w->nlist++] = i;
	}
	/* drop the commits found excluded after they were taken */
	if ((w->out = malloc((w->nlist ? w->nlist : 1) * sizeof *w->out)) == NULL)
		return gx_cgraph_oom(&w->g);
	for (k = 0; k < w->nlist; k++)
		if (!(w->g.nodes[w->list[k]].flags & F_UNINTERESTING))
			w->out[w->nout++] = w->list[k];
	return 0;
}

/* see walk.h */
int
gx_walk_range(gx_walk **out, gx_repo *r, const uint8_t *a, const uint8_t *b, char *err,
    size_t errlen)
{
	gx_walk *w = calloc(1, sizeof *w);

	*out = NULL;
	if (w == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (gx_cgraph_init(&w->g, r, GX_WALK_MAX_COMMITS,
	    "the range reaches more than GX_WALK_MAX_COMMITS commits", GX_WALK_MAX_CACHE, err,
	    errlen) != 0 || walk(w, a, b) != 0) {
		if (err[0] == 0)
			snprintf(err, errlen, "out of memory");
		gx_walk_free(w);
		return -1;
	}
	gx_cqueue_free(&w->q);
	free(w->list);
	w->list = NULL;
	*out = w;
	return 0;
}

/* see walk.h */
void
gx_walk_free(gx_walk *w)
{
	if (w == NULL)
		return;
	gx_cgraph_free(&w->g);
	gx_cqueue_free(&w->q);
	free(w->list);
	free(w->out);
	free(w->stack);
	free(w);
}

/* see walk.h */
size_t
gx_walk_count(const gx_walk *w)
{
	return w->nout;
}

/* see walk.h */
const uint8_t *
gx_walk_id(const gx_walk *w, size_t i)
{
	return gx_idtab_id(&w->g.ids, w->out[i]);
}

/* see walk.h */
int
gx_walk_take(gx_walk *w, size_t i, uint8_t **data, size_t *len)
{
	gx_cnode *n = &w->g.nodes[w->out[i]];
	if (n->raw == NULL)
		return -1;
	*data = n->raw;
	*len = n->rawlen;
	n->raw = NULL;
	return 0;
}

/* see walk.h */
int
gx_walk_contains(const gx_walk *w, const uint8_t *id)
{
	int64_t i = gx_idtab_find(&w->g.ids, id);
	return i >= 0 && (w->g.nodes[i].flags & (F_ADDED | F_UNINTERESTING)) == F_ADDED;
}

/* see walk.h */
int
gx_peel(gx_repo *r, const uint8_t *id, int *type, uint8_t out[GX_MAX_ID], char *err,
    size_t errlen)
{
	size_t idlen = gx_idlen(r), hops;
	uint8_t *data = NULL;
	size_t len;
	char hex[2 * GX_MAX_ID + 1];

	memcpy(out, id, idlen);
	for (hops = 0; hops <= GX_WALK_MAX_PEEL; hops++) {
		int t = 0, tt = 0;
		if (gx_read(r, out, GITOBJ_MAX_OBJECT, &t, &data, &len, err, errlen) != 0)
			return -1;
		if (t != GX_TAG) {
			free(data);
			*type = t;
			return 0;
		}
		if (gitobj_tag_target(data, len, idlen, out, &tt) != PGP_OK) {
			free(data);
			pgp_hex_encode_lower(hex, id, idlen);
			snprintf(err, errlen, "%s: malformed tag object", hex);
			return -1;
		}
		free(data);
	}
	pgp_hex_encode_lower(hex, id, idlen);
	snprintf(err, errlen, "%s: more than GX_WALK_MAX_PEEL tags to peel", hex);
	return -1;
}

/* see walk.h */
int
gx_commit_of(gx_repo *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen)
{
	uint8_t x[GX_MAX_ID];
	int type = 0;
	if (gx_resolve(r, rev, x, err, errlen) != 0 || gx_peel(r, x, &type, id, err, errlen) != 0)
		return -1;
	if (type != GX_COMMIT) {
		snprintf(err, errlen, "%s: does not name a commit", rev);
		return -1;
	}
	return 0;
}

/* see walk.h */
int
gx_tree_of(gx_repo *r, const uint8_t *commit, uint8_t tree[GX_MAX_ID], char *err, size_t errlen)
{
	size_t idlen = gx_idlen(r), len = 0;
	uint8_t *data = NULL;
	char hex[2 * GX_MAX_ID + 1];
	int type = 0, ok;

	if (gx_read(r, commit, GITOBJ_MAX_OBJECT, &type, &data, &len, err, errlen) != 0)
		return -1;
	ok = type == GX_COMMIT && len >= 5 + 2 * idlen + 1 && memcmp(data, "tree ", 5) == 0 &&
	    data[5 + 2 * idlen] == '\n';
	if (ok) {
		memcpy(hex, data + 5, 2 * idlen);
		hex[2 * idlen] = 0;
		ok = pgp_hex_decode(tree, hex, idlen) == 0;
	}
	free(data);
	if (!ok) {
		pgp_hex_encode_lower(hex, commit, idlen);
		snprintf(err, errlen, "%s: malformed commit object (no tree line)", hex);
		return -1;
	}
	return 0;
}
