/*
 * cgraph.c - the commits a history walk reads, by object id, and git's
 * prio_queue. see cgraph.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cgraph.h"

/* see cgraph.h */
int
gx_grow(void **v, size_t *cap, size_t n, size_t sz)
{
	void *nv;
	size_t nc;
	if (n < *cap)
		return 0;
	nc = *cap ? *cap * 2 : 64;
	if ((nv = realloc(*v, nc * sz)) == NULL)
		return -1;
	*v = nv;
	*cap = nc;
	return 0;
}

static size_t
slot_of(const gx_idtab *t, const uint8_t *id)
{
	uint64_t h = 0;
	memcpy(&h, id, sizeof h);   /* object ids are uniformly distributed */
	return (size_t)(h & (t->nslots - 1));
}

/* Twice the slots, every id placed again. */
static int
rehash(gx_idtab *t)
{
	size_t ns = t->nslots ? t->nslots * 2 : 1024, i, h;
	uint32_t *s = calloc(ns, sizeof *s);
	if (s == NULL)
		return -1;
	free(t->slots);
	t->slots = s;
	t->nslots = ns;
	for (i = 0; i < t->n; i++) {
		for (h = slot_of(t, t->ids + i * t->idlen); s[h]; h = (h + 1) & (ns - 1))
			;
		s[h] = (uint32_t)i + 1;
	}
	return 0;
}

/* see cgraph.h */
int
gx_idtab_init(gx_idtab *t, size_t idlen, size_t max)
{
	memset(t, 0, sizeof *t);
	t->idlen = idlen;
	t->max = max < UINT32_MAX ? max : UINT32_MAX - 1;
	return rehash(t);
}

/* see cgraph.h */
void
gx_idtab_free(gx_idtab *t)
{
	free(t->ids);
	free(t->slots);
	memset(t, 0, sizeof *t);
}

/* The slot holding id, or the empty slot where it would go. */
static size_t
probe(const gx_idtab *t, const uint8_t *id)
{
	size_t h;
	for (h = slot_of(t, id); t->slots[h]; h = (h + 1) & (t->nslots - 1))
		if (memcmp(t->ids + (size_t)(t->slots[h] - 1) * t->idlen, id, t->idlen) == 0)
			break;
	return h;
}

/* see cgraph.h */
int64_t
gx_idtab_find(const gx_idtab *t, const uint8_t *id)
{
	size_t h = probe(t, id);
	return t->slots[h] ? (int64_t)t->slots[h] - 1 : -1;
}

/* see cgraph.h */
int64_t
gx_idtab_add(gx_idtab *t, const uint8_t *id, int *added)
{
	size_t h = probe(t, id);

	*added = 0;
	if (t->slots[h])
		return (int64_t)t->slots[h] - 1;
	if (t->n >= t->max)
		return -2;
	if (gx_grow((void **)&t->ids, &t->capids, t->n, t->idlen) != 0)
		return -1;
	memcpy(t->ids + t->n * t->idlen, id, t->idlen);
	t->n++;
	if (2 * t->n > t->nslots) {
		if (rehash(t) != 0) {
			t->n--;
			return -1;
		}
	} else {
		t->slots[h] = (uint32_t)t->n;
	}
	*added = 1;
	return (int64_t)(t->n - 1);
}

/* see cgraph.h */
const uint8_t *
gx_idtab_id(const gx_idtab *t, size_t i)
{
	return t->ids + i * t->idlen;
}

/* ---- the commit nodes ---- */

/* see cgraph.h */
int
gx_cgraph_oom(gx_cgraph *g)
{
	snprintf(g->err, g->errlen, "out of memory");
	return -1;
}

/* see cgraph.h */
int
gx_cgraph_init(gx_cgraph *g, gx_repo *r, size_t max_commits, const char *too_many,
    size_t keep_max, char *err, size_t errlen)
{
	memset(g, 0, sizeof *g);
	g->r = r;
	g->idlen = gx_idlen(r);
	g->too_many = too_many;
	g->keep_max = keep_max;
	g->err = err;
	g->errlen = errlen;
	if (gx_idtab_init(&g->ids, g->idlen, max_commits) != 0)
		return gx_cgraph_oom(g);
	return 0;
}

/* see cgraph.h */
void
gx_cgraph_free(gx_cgraph *g)
{
	size_t i;
	for (i = 0; i < g->nnodes; i++)
		free(g->nodes[i].raw);
	free(g->nodes);
	free(g->par);
	gx_idtab_free(&g->ids);
	memset(g, 0, sizeof *g);
}

/* see cgraph.h */
int64_t
gx_cgraph_node(gx_cgraph *g, const uint8_t *id)
{
	int added;
	int64_t i = gx_idtab_add(&g->ids, id, &added);

	if (i == -2) {
		snprintf(g->err, g->errlen, "%s", g->too_many);
		return -1;
	}
	if (i < 0 || (added && gx_grow((void **)&g->nodes, &g->capnodes, g->nnodes,
	    sizeof *g->nodes) != 0))
		return gx_cgraph_oom(g);
	if (added) {
		memset(&g->nodes[g->nnodes], 0, sizeof *g->nodes);
		g->nnodes++;
	}
	return i;
}

/* see cgraph.h */
int
gx_cgraph_parse(gx_cgraph *g, uint32_t i)
{
	uint8_t *data = NULL;
	size_t len, np, k;
	int type = 0;
	int64_t date;
	char hex[2 * GX_MAX_ID + 1];
	pgp_err e;

	if (g->nodes[i].parsed)
		return 0;
	if (gx_read(g->r, gx_idtab_id(&g->ids, i), GITOBJ_MAX_OBJECT, &type, &data, &len, g->err,
	    g->errlen) != 0)
		return -1;
	pgp_hex_encode_lower(hex, gx_idtab_id(&g->ids, i), g->idlen);
	e = type == GX_COMMIT ? gitobj_commit_parse(data, len, g->idlen, g->pids,
	    GITOBJ_MAX_PARENTS, &np, &date) : PGP_ERR_INVALID;
	if (e == PGP_OK && len <= g->keep_max - g->kept) {
		g->nodes[i].raw = data;
		g->nodes[i].rawlen = len;
		g->kept += len;
	} else {
		free(data);
	}
	if (e != PGP_OK) {
		snprintf(g->err, g->errlen, "%s: %s", hex, e == PGP_ERR_INVALID ? "not a commit" :
		    e == PGP_ERR_LIMIT ? "more than GITOBJ_MAX_PARENTS parents" :
		    "malformed commit object");
		return -1;
	}
	if (g->npar + np > UINT32_MAX)
		return gx_cgraph_oom(g);
	g->nodes[i].par0 = (uint32_t)g->npar;
	g->nodes[i].npar = (uint32_t)np;
	g->nodes[i].date = date;
	for (k = 0; k < np; k++) {
		int64_t p = gx_cgraph_node(g, g->pids + k * g->idlen);
		if (p < 0)
			return -1;
		if (gx_grow((void **)&g->par, &g->cappar, g->npar, sizeof *g->par) != 0)
			return gx_cgraph_oom(g);
		g->par[g->npar++] = (uint32_t)p;
	}
	g->nodes[i].parsed = 1;
	return 0;
}

/* ---- git's prio_queue ---- */

/* a after b: older, or as old and queued later */
static int
qless(const gx_cqent *a, const gx_cqent *b)
{
	return a->date < b->date || (a->date == b->date && a->seq > b->seq);
}

/* see cgraph.h */
int
gx_cqueue_put(gx_cqueue *q, uint32_t node, int64_t date)
{
	size_t k;
	if (gx_grow((void **)&q->q, &q->cap, q->n, sizeof *q->q) != 0)
		return -1;
	k = q->n++;
	q->q[k].date = date;
	q->q[k].seq = q->seq++;
	q->q[k].node = node;
	while (k > 0 && qless(&q->q[(k - 1) / 2], &q->q[k])) {
		gx_cqent t = q->q[k];
		q->q[k] = q->q[(k - 1) / 2];
		q->q[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
	return 0;
}

/* see cgraph.h */
uint32_t
gx_cqueue_pop(gx_cqueue *q)
{
	uint32_t top = q->q[0].node;
	size_t k = 0;
	q->q[0] = q->q[--q->n];
	for (;;) {
		size_t l = 2 * k + 1, r = l + 1, x = k;
		if (l < q->n && qless(&q->q[x], &q->q[l]))
			x = l;
		if (r < q->n && qless(&q->q[x], &q->q[r]))
			x = r;
		if (x == k)
			break;
		gx_cqent t = q->q[k];
		q->q[k] = q->q[x];
		q->q[x] = t;
		k = x;
	}
	return top;
}

/* see cgraph.h */
void
gx_cqueue_free(gx_cqueue *q)
{
	free(q->q);
	memset(q, 0, sizeof *q);
}
