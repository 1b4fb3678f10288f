/*
 * idtab.h - object ids to dense indexes 0, 1, 2, ... in the order they were
 * first added (open addressing, linear probing): the node tables of the
 * range walk (walk.c) and of the merge base (mbase.c) index their nodes by
 * it. Also the one growth helper of those tables.
 */
#ifndef WOTKIT_GIT_IDTAB_H
#define WOTKIT_GIT_IDTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct gx_idtab {
	size_t idlen;          /* 20 or 32 */
	size_t n;              /* ids held, indexes 0 .. n-1 */
	size_t max;            /* at most this many ids (a caller's named limit) */
	uint8_t *ids;          /* n * idlen octets */
	size_t capids;
	uint32_t *slots;       /* index + 1, 0 empty; nslots a power of two */
	size_t nslots;
} gx_idtab;

/* An empty table for ids of idlen octets holding at most max ids; -1 out
 * of memory. */
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

#endif
