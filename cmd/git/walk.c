/*
 * walk.c - the commits of a range A..B, in `git rev-list A..B` order (git
 * 2.39 revision.c: limit_list, process_parents, mark_parents_uninteresting,
 * still_interesting). see walk.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "walk.h"
#include "idtab.h"
#include "keyring/gitobj.h"

#define SLOP 5   /* git's: commits taken after only excluded ones are left */

enum {
	F_UNINTERESTING = 1,   /* reachable from A */
	F_SEEN = 2,            /* queued once */
	F_ADDED = 4,           /* its parents processed */
	F_PARSED = 8           /* read: date and parents known */
};

typedef struct node {
	uint8_t flags;
	int64_t date;
	uint32_t par0, npar;   /* its parents: par[par0 .. par0 + npar) (node indexes) */
	uint8_t *raw;          /* its content, kept within GX_WALK_MAX_CACHE, or NULL */
	size_t rawlen;
} node;

typedef struct qent {
	int64_t date;
	uint64_t seq;
	uint32_t node;
} qent;

struct gx_walk {
	gx_repo *r;
	size_t idlen;
	node *nodes;
	size_t nnodes, capnodes;
	uint32_t *par;
	size_t npar, cappar;
	gx_idtab ids;          /* node i is the commit gx_idtab_id(&ids, i) */
	qent *q;               /* max-heap by (date, -seq) */
	size_t nq, capq;
	uint64_t seq;
	uint32_t *list;        /* taken, in order (before dropping excluded ones) */
	size_t nlist, caplist;
	uint32_t *out;         /* the result */
	size_t nout;
	size_t cached;         /* octets of raw content kept */
	uint32_t *stack;       /* mark_parents_uninteresting */
	size_t nstack, capstack;
	char *err;
	size_t errlen;
	uint8_t pids[GITOBJ_MAX_PARENTS * GX_MAX_ID];   /* parse()'s scratch */
};

static int
oom(gx_walk *w)
{
	snprintf(w->err, w->errlen, "out of memory");
	return -1;
}

/* The node of id, created (unparsed) when new; -1 on error. */
static int64_t
lookup(gx_walk *w, const uint8_t *id)
{
	int added;
	int64_t i = gx_idtab_add(&w->ids, id, &added);

	if (i == -2) {
		snprintf(w->err, w->errlen, "the range reaches more than GX_WALK_MAX_COMMITS commits");
		return -1;
	}
	if (i < 0 || (added && gx_grow((void **)&w->nodes, &w->capnodes, w->nnodes,
	    sizeof *w->nodes) != 0))
		return oom(w);
	if (added) {
		memset(&w->nodes[w->nnodes], 0, sizeof *w->nodes);
		w->nnodes++;
	}
	return i;
}

/* Read node i: its date and parents (git's parse_commit). */
static int
parse(gx_walk *w, uint32_t i)
{
	uint8_t *pids = w->pids;
	uint8_t *data = NULL;
	size_t len, np, k;
	int type = 0;
	int64_t date;
	char hex[2 * GX_MAX_ID + 1];
	pgp_err e;

	if (w->nodes[i].flags & F_PARSED)
		return 0;
	if (gx_read(w->r, gx_idtab_id(&w->ids, i), GITOBJ_MAX_OBJECT, &type, &data, &len, w->err,
	    w->errlen) != 0)
		return -1;
	pgp_hex_encode_lower(hex, gx_idtab_id(&w->ids, i), w->idlen);
	if (type != GX_COMMIT) {
		free(data);
		snprintf(w->err, w->errlen, "%s: not a commit", hex);
		return -1;
	}
	e = gitobj_commit_parse(data, len, w->idlen, pids, GITOBJ_MAX_PARENTS, &np, &date);
	if (e == PGP_OK && w->cached + len <= GX_WALK_MAX_CACHE) {
		w->nodes[i].raw = data;
		w->nodes[i].rawlen = len;
		w->cached += len;
	} else {
		free(data);
	}
	if (e != PGP_OK) {
		snprintf(w->err, w->errlen, "%s: %s", hex, e == PGP_ERR_LIMIT ?
		    "more than GITOBJ_MAX_PARENTS parents" : "malformed commit object");
		return -1;
	}
	if (w->npar + np > UINT32_MAX)
		return oom(w);
	w->nodes[i].par0 = (uint32_t)w->npar;
	w->nodes[i].npar = (uint32_t)np;
	w->nodes[i].date = date;
	for (k = 0; k < np; k++) {
		int64_t p = lookup(w, pids + k * w->idlen);
		if (p < 0)
			return -1;
		if (gx_grow((void **)&w->par, &w->cappar, w->npar, sizeof *w->par) != 0)
			return oom(w);
		w->par[w->npar++] = (uint32_t)p;
	}
	w->nodes[i].flags |= F_PARSED;
	return 0;
}

static int
qless(const qent *a, const qent *b)
{
	/* a after b: older, or as old and queued later */
	return a->date < b->date || (a->date == b->date && a->seq > b->seq);
}

static int
qput(gx_walk *w, uint32_t i)
{
	size_t k;
	if (gx_grow((void **)&w->q, &w->capq, w->nq, sizeof *w->q) != 0)
		return oom(w);
	k = w->nq++;
	w->q[k].date = w->nodes[i].date;
	w->q[k].seq = w->seq++;
	w->q[k].node = i;
	while (k > 0 && qless(&w->q[(k - 1) / 2], &w->q[k])) {
		qent t = w->q[k];
		w->q[k] = w->q[(k - 1) / 2];
		w->q[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
	return 0;
}

static uint32_t
qpop(gx_walk *w)
{
	uint32_t top = w->q[0].node;
	size_t k = 0;
	w->q[0] = w->q[--w->nq];
	for (;;) {
		size_t l = 2 * k + 1, r = l + 1, m = k;
		if (l < w->nq && qless(&w->q[m], &w->q[l]))
			m = l;
		if (r < w->nq && qless(&w->q[m], &w->q[r]))
			m = r;
		if (m == k)
			break;
		qent t = w->q[k];
		w->q[k] = w->q[m];
		w->q[m] = t;
		k = m;
	}
	return top;
}

/* git's mark_parents_uninteresting: through every parsed ancestor not yet excluded. */
static int
mark_parents(gx_walk *w, uint32_t i)
{
	w->nstack = 0;
	for (;;) {
		const node *n = &w->nodes[i];
		uint32_t k;
		for (k = 0; k < n->npar; k++) {
			uint32_t p = w->par[n->par0 + k];
			if (w->nodes[p].flags & F_UNINTERESTING)
				continue;
			w->nodes[p].flags |= F_UNINTERESTING;
			if (w->nodes[p].flags & F_PARSED) {
				if (gx_grow((void **)&w->stack, &w->capstack, w->nstack, sizeof *w->stack) != 0)
					return oom(w);
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

	if (w->nodes[i].flags & F_ADDED)
		return 0;
	w->nodes[i].flags |= F_ADDED;
	npar = w->nodes[i].npar;
	for (k = 0; k < npar; k++) {
		uint32_t p = w->par[w->nodes[i].par0 + k];
		if (w->nodes[i].flags & F_UNINTERESTING) {
			w->nodes[p].flags |= F_UNINTERESTING;
			if (parse(w, p) != 0) {
				/* git parses an excluded parent gently: a missing one is skipped */
				w->err[0] = 0;
				continue;
			}
			if (mark_parents(w, p) != 0)
				return -1;
		} else if (parse(w, p) != 0) {
			return -1;
		}
		if (w->nodes[p].flags & F_SEEN)
			continue;
		w->nodes[p].flags |= F_SEEN;
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
	if (w->nq == 0)
		return 0;
	if (date <= w->q[0].date)
		return SLOP;
	for (k = 0; k < w->nq; k++)
		if (!(w->nodes[w->q[k].node].flags & F_UNINTERESTING))
			return SLOP;
	return slop - 1;
}

static int
start(gx_walk *w, const uint8_t *id, int exclude)
{
	int64_t i = lookup(w, id);
	if (i < 0 || parse(w, (uint32_t)i) != 0)
		return -1;
	if (exclude) {
		w->nodes[i].flags |= F_UNINTERESTING;
		if (mark_parents(w, (uint32_t)i) != 0)
			return -1;
	}
	if (w->nodes[i].flags & F_SEEN)
		return 0;
	w->nodes[i].flags |= F_SEEN;
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
	while (w->nq) {
		uint32_t i = qpop(w);
		if (process_parents(w, i) != 0)
			return -1;
		if (w->nodes[i].flags & F_UNINTERESTING) {
			if (mark_parents(w, i) != 0)
				return -1;
			if ((slop = still_interesting(w, date, slop)) != 0)
				continue;
			break;
		}
		date = w->nodes[i].date;
		if (gx_grow((void **)&w->list, &w->caplist, w->nlist, sizeof *w->list) != 0)
			return oom(w);
		w->list[w->nlist++] = i;
	}
	/* drop the commits found excluded after they were taken */
	if ((w->out = malloc((w->nlist ? w->nlist : 1) * sizeof *w->out)) == NULL)
		return oom(w);
	for (k = 0; k < w->nlist; k++)
		if (!(w->nodes[w->list[k]].flags & F_UNINTERESTING))
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
	w->r = r;
	w->idlen = gx_idlen(r);
	w->err = err;
	w->errlen = errlen;
	if (gx_idtab_init(&w->ids, w->idlen, GX_WALK_MAX_COMMITS) != 0 || walk(w, a, b) != 0) {
		if (err[0] == 0)
			snprintf(err, errlen, "out of memory");
		gx_walk_free(w);
		return -1;
	}
	free(w->q);
	w->q = NULL;
	free(w->list);
	w->list = NULL;
	*out = w;
	return 0;
}

/* see walk.h */
void
gx_walk_free(gx_walk *w)
{
	size_t i;
	if (w == NULL)
		return;
	for (i = 0; i < w->nnodes; i++)
		free(w->nodes[i].raw);
	free(w->nodes);
	free(w->par);
	gx_idtab_free(&w->ids);
	free(w->q);
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
	return gx_idtab_id(&w->ids, w->out[i]);
}

/* see walk.h */
int
gx_walk_take(gx_walk *w, size_t i, uint8_t **data, size_t *len)
{
	node *n = &w->nodes[w->out[i]];
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
	int64_t i = gx_idtab_find(&w->ids, id);
	return i >= 0 && (w->nodes[i].flags & (F_ADDED | F_UNINTERESTING)) == F_ADDED;
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
