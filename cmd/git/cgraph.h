/*
 * cgraph.h - the commits a history walk reads, by object id: one node per
 * commit, read on demand through gx_read and parsed as git's parse_commit
 * (committer date, parents), and git's date-ordered prio_queue. Shared by
 * the range walk (walk.c: git rev-list A..B) and the merge base (mbase.c:
 * git merge-base), which add their own marks in gx_cnode.flags.
 */
#ifndef WOTKIT_GIT_CGRAPH_H
#define WOTKIT_GIT_CGRAPH_H

#include <stddef.h>
#include <stdint.h>
#include "gx.h"
#include "keyring/gitobj.h"

/* ---- object ids to dense indexes 0, 1, 2, ... in the order first added
 * (open addressing, linear probing) ---- */

typedef struct gx_idtab {
	size_t idlen;          /* 20 or 32 */
	size_t n;              /* ids held, indexes 0 .. n-1 */
	size_t max;            /* at most this many ids (a caller's named limit) */
	uint8_t *ids;          /* n * idlen octets */
	size_t capids;
	uint32_t *slots;       /* index + 1, 0 empty; nslots a power of two */
	size_t nslots;
} gx_idtab;

/* An empty table for ids of idlen octets holding at most max; -1 out of memory. */
int gx_idtab_init(gx_idtab *t, size_t idlen, size_t max);
void gx_idtab_free(gx_idtab *t);
/* The index of id, added when new (*added 1, else 0). -1 out of memory,
 * -2 when adding it would exceed max. */
int64_t gx_idtab_add(gx_idtab *t, const uint8_t *id, int *added);
/* The index of id, or -1 when it was never added. */
int64_t gx_idtab_find(const gx_idtab *t, const uint8_t *id);
/* The id at index i < n. */
const uint8_t *gx_idtab_id(const gx_idtab *t, size_t i);

/* Room for one more of n elements of size sz in *v (capacity *cap),
 * doubling from 64; -1 out of memory (*v unchanged). */
int gx_grow(void **v, size_t *cap, size_t n, size_t sz);

/* ---- the commit nodes ---- */

typedef struct gx_cnode {
	uint8_t flags;         /* the caller's marks */
	uint8_t parsed;        /* date and parents known */
	uint32_t inq;          /* the caller's count of its queue entries */
	int64_t date;          /* committer time */
	uint32_t par0, npar;   /* parents: par[par0 .. par0 + npar) (node indexes) */
	uint8_t *raw;          /* its content, kept within keep_max, or NULL */
	size_t rawlen;
} gx_cnode;

typedef struct gx_cgraph {
	gx_repo *r;
	size_t idlen;
	gx_idtab ids;          /* node i is the commit gx_idtab_id(&ids, i) */
	gx_cnode *nodes;
	size_t nnodes, capnodes;
	uint32_t *par;
	size_t npar, cappar;
	size_t keep_max, kept; /* octets of raw content kept: at most keep_max */
	const char *too_many;  /* the message when more than max commits are read */
	char *err;             /* the caller's message buffer */
	size_t errlen;
	uint8_t pids[GITOBJ_MAX_PARENTS * GX_MAX_ID];   /* parse scratch */
} gx_cgraph;

/* An empty graph over r: at most max_commits nodes (beyond: too_many in
 * err), keeping up to keep_max octets of commit content (0: none). -1 out
 * of memory (message in err). */
int gx_cgraph_init(gx_cgraph *g, gx_repo *r, size_t max_commits, const char *too_many,
    size_t keep_max, char *err, size_t errlen);
void gx_cgraph_free(gx_cgraph *g);
/* The node of id, created unparsed when new; -1 with a message. */
int64_t gx_cgraph_node(gx_cgraph *g, const uint8_t *id);
/* Read node i (once): its date and parents, as git's parse_commit; -1
 * with a message ("HEX: not a commit", ...). */
int gx_cgraph_parse(gx_cgraph *g, uint32_t i);
/* "out of memory" in err; -1. */
int gx_cgraph_oom(gx_cgraph *g);

/* ---- git's prio_queue of commits: newest first, ties in insertion order ---- */

typedef struct gx_cqent {
	int64_t date;
	uint64_t seq;
	uint32_t node;
} gx_cqent;

typedef struct gx_cqueue {
	gx_cqent *q;           /* max-heap by (date, -seq) */
	size_t n, cap;
	uint64_t seq;
} gx_cqueue;

/* -1 out of memory. */
int gx_cqueue_put(gx_cqueue *q, uint32_t node, int64_t date);
/* The newest entry's node, removed; q->n > 0. */
uint32_t gx_cqueue_pop(gx_cqueue *q);
void gx_cqueue_free(gx_cqueue *q);

#endif
