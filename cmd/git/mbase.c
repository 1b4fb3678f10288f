/*
 * mbase.c - the merge base of two commits over the gx interface, as git
 * 2.39 commit-reach.c computes it without a commit-graph (paint_down_to_common,
 * merge_bases_many, get_merge_bases_many_0, remove_redundant_no_gen).
 * see mbase.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mbase.h"
#include "cgraph.h"
#include "keyring/gitobj.h"

enum {
	PARENT1 = 1,   /* reachable from the first commit */
	PARENT2 = 2,   /* reachable from the others */
	STALE = 4,     /* below a common ancestor already found */
	RESULT = 8     /* in the result list */
};
#define PAINT_FLAGS (PARENT1 | PARENT2 | STALE | RESULT)

typedef struct mb {
	gx_cgraph g;           /* the commits read; gx_cnode.inq: times in q now */
	gx_cqueue q;
	size_t nonstale;       /* queue entries whose commit is not STALE */
} mb;

static int
qput(mb *m, uint32_t i)
{
	if (gx_cqueue_put(&m->q, i, m->g.nodes[i].date) != 0)
		return gx_cgraph_oom(&m->g);
	m->g.nodes[i].inq++;
	if (!(m->g.nodes[i].flags & STALE))
		m->nonstale++;
	return 0;
}

static uint32_t
qpop(mb *m)
{
	uint32_t top = gx_cqueue_pop(&m->q);
	m->g.nodes[top].inq--;
	if (!(m->g.nodes[top].flags & STALE))
		m->nonstale--;
	return top;
}

/* Add flags to node i, keeping the count of non-stale queue entries. */
static void
mark(mb *m, uint32_t i, uint8_t flags)
{
	if ((flags & STALE) && !(m->g.nodes[i].flags & STALE))
		m->nonstale -= m->g.nodes[i].inq;
	m->g.nodes[i].flags |= flags;
}

/* git's clear_commit_marks, for every node read. */
static void
clear(mb *m)
{
	size_t i;
	for (i = 0; i < m->g.nnodes; i++) {
		m->g.nodes[i].flags &= (uint8_t)~PAINT_FLAGS;
		m->g.nodes[i].inq = 0;
	}
	m->q.n = 0;
	m->nonstale = 0;
}

/* commit_list_insert_by_date: after every element at least as new. */
static void
insert_by_date(const mb *m, uint32_t *list, size_t *n, uint32_t i)
{
	size_t k = 0;
	while (k < *n && m->g.nodes[list[k]].date >= m->g.nodes[i].date)
		k++;
	memmove(list + k + 1, list + k, (*n - k) * sizeof *list);
	list[k] = i;
	(*n)++;
}

/*
 * git's paint_down_to_common(one, twos): the common ancestors found, in
 * commit_list_insert_by_date order, in res (room for
 * GX_MBASE_MAX_CANDIDATES). Flags stay set for the caller.
 */
static int
paint(mb *m, uint32_t one, const uint32_t *twos, size_t n, uint32_t *res, size_t *nres)
{
	size_t k;

	*nres = 0;
	clear(m);
	mark(m, one, PARENT1);
	if (n == 0) {
		res[(*nres)++] = one;
		return 0;
	}
	if (qput(m, one) != 0)
		return -1;
	for (k = 0; k < n; k++) {
		mark(m, twos[k], PARENT2);
		if (qput(m, twos[k]) != 0)
			return -1;
	}
	while (m->nonstale > 0) {
		uint32_t c = qpop(m), j;
		uint8_t flags = m->g.nodes[c].flags & (PARENT1 | PARENT2 | STALE);
		if (flags == (PARENT1 | PARENT2)) {
			if (!(m->g.nodes[c].flags & RESULT)) {
				if (*nres >= GX_MBASE_MAX_CANDIDATES) {
					snprintf(m->g.err, m->g.errlen, "merge base: more than "
					    "GX_MBASE_MAX_CANDIDATES common ancestors");
					return -1;
				}
				mark(m, c, RESULT);
				insert_by_date(m, res, nres, c);
			}
			flags |= STALE;   /* parents of a found base are stale */
		}
		for (j = 0; j < m->g.nodes[c].npar; j++) {
			uint32_t p = m->g.par[m->g.nodes[c].par0 + j];
			if ((m->g.nodes[p].flags & flags) == flags)
				continue;
			if (gx_cgraph_parse(&m->g, p) != 0)
				return -1;
			mark(m, p, flags);
			if (qput(m, p) != 0)
				return -1;
		}
	}
	return 0;
}

/* git's remove_redundant_no_gen: drop every candidate that is an ancestor
 * of another one; the others keep their order. */
static int
remove_redundant(mb *m, uint32_t *cand, size_t *ncand)
{
	size_t cnt = *ncand, i, j, filled, nres, kept;
	uint8_t *redundant = calloc(cnt, 1);
	uint32_t *work = malloc(cnt * sizeof *work), *idx = malloc(cnt * sizeof *idx);
	uint32_t *res = malloc(GX_MBASE_MAX_CANDIDATES * sizeof *res);
	int rc = -1;

	if (redundant == NULL || work == NULL || idx == NULL || res == NULL) {
		gx_cgraph_oom(&m->g);
		goto out;
	}
	for (i = 0; i < cnt; i++) {
		if (redundant[i])
			continue;
		for (j = filled = 0; j < cnt; j++) {
			if (i == j || redundant[j])
				continue;
			idx[filled] = (uint32_t)j;
			work[filled++] = cand[j];
		}
		if (paint(m, cand[i], work, filled, res, &nres) != 0)
			goto out;
		if (m->g.nodes[cand[i]].flags & PARENT2)
			redundant[i] = 1;
		for (j = 0; j < filled; j++)
			if (m->g.nodes[work[j]].flags & PARENT1)
				redundant[idx[j]] = 1;
	}
	for (i = kept = 0; i < cnt; i++)
		if (!redundant[i])
			cand[kept++] = cand[i];
	*ncand = kept;
	rc = 0;
out:
	free(redundant);
	free(work);
	free(idx);
	free(res);
	return rc;
}

static int
merge_base(mb *m, const uint8_t *a, const uint8_t *b, uint8_t *out)
{
	int64_t one, two;
	uint32_t *list = NULL, *result = NULL, t;
	size_t nlist = 0, nresult = 0, k;
	int rc = -1;

	if ((one = gx_cgraph_node(&m->g, a)) < 0 || (two = gx_cgraph_node(&m->g, b)) < 0)
		return -1;
	if (one == two) {   /* merge_bases_many: the commit itself */
		memcpy(out, a, m->g.idlen);
		return 0;
	}
	if (gx_cgraph_parse(&m->g, (uint32_t)one) != 0 || gx_cgraph_parse(&m->g, (uint32_t)two) != 0)
		return -1;
	list = malloc(GX_MBASE_MAX_CANDIDATES * sizeof *list);
	result = malloc(GX_MBASE_MAX_CANDIDATES * sizeof *result);
	if (list == NULL || result == NULL) {
		gx_cgraph_oom(&m->g);
		goto out;
	}
	t = (uint32_t)two;
	if (paint(m, (uint32_t)one, &t, 1, list, &nlist) != 0)
		goto out;
	for (k = 0; k < nlist; k++)
		if (!(m->g.nodes[list[k]].flags & STALE))
			insert_by_date(m, result, &nresult, list[k]);
	if (nresult > 1) {
		/* get_merge_bases_many_0: the non-redundant ones, by date again */
		if (remove_redundant(m, result, &nresult) != 0)
			goto out;
		memcpy(list, result, nresult * sizeof *list);
		nlist = nresult;
		nresult = 0;
		for (k = 0; k < nlist; k++)
			insert_by_date(m, result, &nresult, list[k]);
	}
	if (nresult == 0) {
		rc = 1;
		goto out;
	}
	memcpy(out, gx_idtab_id(&m->g.ids, result[0]), m->g.idlen);
	rc = 0;
out:
	free(list);
	free(result);
	return rc;
}

/* see mbase.h */
int
gx_mbase(gx_repo *r, const uint8_t *a, const uint8_t *b, uint8_t out[GX_MAX_ID], char *err,
    size_t errlen)
{
	mb *m = calloc(1, sizeof *m);
	int rc;

	if (m == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	err[0] = 0;
	if (gx_cgraph_init(&m->g, r, GX_MBASE_MAX_COMMITS,
	    "merge base: more than GX_MBASE_MAX_COMMITS commits to read", 0, err, errlen) != 0) {
		free(m);
		return -1;
	}
	rc = merge_base(m, a, b, out);
	if (rc < 0 && err[0] == 0)
		snprintf(err, errlen, "merge base failed");
	gx_cgraph_free(&m->g);
	gx_cqueue_free(&m->q);
	free(m);
	return rc;
}
