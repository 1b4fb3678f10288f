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
#include "idtab.h"
#include "keyring/gitobj.h"

enum {
	PARENT1 = 1,   /* reachable from the first commit */
	PARENT2 = 2,   /* reachable from the others */
	STALE = 4,     /* below a common ancestor already found */
	RESULT = 8,    /* in the result list */
	PARSED = 16    /* read: date and parents known */
};
#define PAINT_FLAGS (PARENT1 | PARENT2 | STALE | RESULT)

typedef struct mnode {
	uint8_t flags;
	int64_t date;
	uint32_t par0, npar;   /* parents: par[par0 .. par0 + npar) */
	uint32_t inq;          /* times it is in the queue now */
} mnode;

typedef struct qent {
	int64_t date;
	uint64_t seq;
	uint32_t node;
} qent;

typedef struct mb {
	gx_repo *r;
	size_t idlen;
	mnode *nodes;
	size_t nnodes, capnodes;
	uint32_t *par;
	size_t npar, cappar;
	gx_idtab ids;          /* node i is the commit gx_idtab_id(&ids, i) */
	qent *q;               /* max-heap by (date, -seq): git's prio_queue */
	size_t nq, capq;
	uint64_t seq;
	size_t nonstale;       /* queue entries whose commit is not STALE */
	char *err;
	size_t errlen;
	uint8_t pids[GITOBJ_MAX_PARENTS * GX_MAX_ID];
} mb;

static int
oom(mb *m)
{
	snprintf(m->err, m->errlen, "out of memory");
	return -1;
}

/* The node of id, created (unread) when new; -1 on error. */
static int64_t
lookup(mb *m, const uint8_t *id)
{
	int added;
	int64_t i = gx_idtab_add(&m->ids, id, &added);

	if (i == -2) {
		snprintf(m->err, m->errlen, "merge base: more than GX_MBASE_MAX_COMMITS commits to read");
		return -1;
	}
	if (i < 0 || (added && gx_grow((void **)&m->nodes, &m->capnodes, m->nnodes,
	    sizeof *m->nodes) != 0))
		return oom(m);
	if (added) {
		memset(&m->nodes[m->nnodes], 0, sizeof *m->nodes);
		m->nnodes++;
	}
	return i;
}

/* Read node i: its committer date and parents (git's parse_commit). */
static int
parse(mb *m, uint32_t i)
{
	uint8_t *data = NULL;
	size_t len, np, k;
	int type = 0;
	int64_t date;
	char hex[2 * GX_MAX_ID + 1];
	pgp_err e;

	if (m->nodes[i].flags & PARSED)
		return 0;
	if (gx_read(m->r, gx_idtab_id(&m->ids, i), GITOBJ_MAX_OBJECT, &type, &data, &len, m->err,
	    m->errlen) != 0)
		return -1;
	pgp_hex_encode_lower(hex, gx_idtab_id(&m->ids, i), m->idlen);
	e = type == GX_COMMIT ? gitobj_commit_parse(data, len, m->idlen, m->pids, GITOBJ_MAX_PARENTS,
	    &np, &date) : PGP_ERR_INVALID;
	free(data);
	if (e != PGP_OK) {
		snprintf(m->err, m->errlen, "%s: %s", hex, e == PGP_ERR_INVALID ? "not a commit" :
		    e == PGP_ERR_LIMIT ? "more than GITOBJ_MAX_PARENTS parents" : "malformed commit object");
		return -1;
	}
	if (m->npar + np > UINT32_MAX)
		return oom(m);
	m->nodes[i].par0 = (uint32_t)m->npar;
	m->nodes[i].npar = (uint32_t)np;
	m->nodes[i].date = date;
	for (k = 0; k < np; k++) {
		int64_t p = lookup(m, m->pids + k * m->idlen);
		if (p < 0)
			return -1;
		if (gx_grow((void **)&m->par, &m->cappar, m->npar, sizeof *m->par) != 0)
			return oom(m);
		m->par[m->npar++] = (uint32_t)p;
	}
	m->nodes[i].flags |= PARSED;
	return 0;
}

static int
qless(const qent *a, const qent *b)
{
	/* a after b: older, or as old and queued later */
	return a->date < b->date || (a->date == b->date && a->seq > b->seq);
}

static int
qput(mb *m, uint32_t i)
{
	size_t k;
	if (gx_grow((void **)&m->q, &m->capq, m->nq, sizeof *m->q) != 0)
		return oom(m);
	k = m->nq++;
	m->q[k].date = m->nodes[i].date;
	m->q[k].seq = m->seq++;
	m->q[k].node = i;
	m->nodes[i].inq++;
	if (!(m->nodes[i].flags & STALE))
		m->nonstale++;
	while (k > 0 && qless(&m->q[(k - 1) / 2], &m->q[k])) {
		qent t = m->q[k];
		m->q[k] = m->q[(k - 1) / 2];
		m->q[(k - 1) / 2] = t;
		k = (k - 1) / 2;
	}
	return 0;
}

static uint32_t
qpop(mb *m)
{
	uint32_t top = m->q[0].node;
	size_t k = 0;
	m->q[0] = m->q[--m->nq];
	for (;;) {
		size_t l = 2 * k + 1, r = l + 1, x = k;
		if (l < m->nq && qless(&m->q[x], &m->q[l]))
			x = l;
		if (r < m->nq && qless(&m->q[x], &m->q[r]))
			x = r;
		if (x == k)
			break;
		qent t = m->q[k];
		m->q[k] = m->q[x];
		m->q[x] = t;
		k = x;
	}
	m->nodes[top].inq--;
	if (!(m->nodes[top].flags & STALE))
		m->nonstale--;
	return top;
}

/* Add flags to node i, keeping the count of non-stale queue entries. */
static void
mark(mb *m, uint32_t i, uint8_t flags)
{
	if ((flags & STALE) && !(m->nodes[i].flags & STALE))
		m->nonstale -= m->nodes[i].inq;
	m->nodes[i].flags |= flags;
}

/* git's clear_commit_marks, for every node read. */
static void
clear(mb *m)
{
	size_t i;
	for (i = 0; i < m->nnodes; i++) {
		m->nodes[i].flags &= (uint8_t)~PAINT_FLAGS;
		m->nodes[i].inq = 0;
	}
	m->nq = 0;
	m->nonstale = 0;
}

/* commit_list_insert_by_date: after every element at least as new. */
static void
insert_by_date(const mb *m, uint32_t *list, size_t *n, uint32_t i)
{
	size_t k = 0;
	while (k < *n && m->nodes[list[k]].date >= m->nodes[i].date)
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
		uint8_t flags = m->nodes[c].flags & (PARENT1 | PARENT2 | STALE);
		if (flags == (PARENT1 | PARENT2)) {
			if (!(m->nodes[c].flags & RESULT)) {
				if (*nres >= GX_MBASE_MAX_CANDIDATES) {
					snprintf(m->err, m->errlen, "merge base: more than "
					    "GX_MBASE_MAX_CANDIDATES common ancestors");
					return -1;
				}
				mark(m, c, RESULT);
				insert_by_date(m, res, nres, c);
			}
			flags |= STALE;   /* parents of a found base are stale */
		}
		for (j = 0; j < m->nodes[c].npar; j++) {
			uint32_t p = m->par[m->nodes[c].par0 + j];
			if ((m->nodes[p].flags & flags) == flags)
				continue;
			if (parse(m, p) != 0)
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
		oom(m);
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
		if (m->nodes[cand[i]].flags & PARENT2)
			redundant[i] = 1;
		for (j = 0; j < filled; j++)
			if (m->nodes[work[j]].flags & PARENT1)
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

	if ((one = lookup(m, a)) < 0 || (two = lookup(m, b)) < 0)
		return -1;
	if (one == two) {   /* merge_bases_many: the commit itself */
		memcpy(out, a, m->idlen);
		return 0;
	}
	if (parse(m, (uint32_t)one) != 0 || parse(m, (uint32_t)two) != 0)
		return -1;
	list = malloc(GX_MBASE_MAX_CANDIDATES * sizeof *list);
	result = malloc(GX_MBASE_MAX_CANDIDATES * sizeof *result);
	if (list == NULL || result == NULL) {
		oom(m);
		goto out;
	}
	t = (uint32_t)two;
	if (paint(m, (uint32_t)one, &t, 1, list, &nlist) != 0)
		goto out;
	for (k = 0; k < nlist; k++)
		if (!(m->nodes[list[k]].flags & STALE))
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
	memcpy(out, gx_idtab_id(&m->ids, result[0]), m->idlen);
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
	m->r = r;
	m->idlen = gx_idlen(r);
	m->err = err;
	m->errlen = errlen;
	err[0] = 0;
	if (gx_idtab_init(&m->ids, m->idlen, GX_MBASE_MAX_COMMITS) != 0) {
		free(m);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = merge_base(m, a, b, out);
	if (rc < 0 && err[0] == 0)
		snprintf(err, errlen, "merge base failed");
	free(m->nodes);
	free(m->par);
	gx_idtab_free(&m->ids);
	free(m->q);
	free(m);
	return rc;
}
