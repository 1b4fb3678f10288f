/*
 * idtab.c - object ids to dense indexes. see idtab.h
 */
#include <stdlib.h>
#include <string.h>
#include "idtab.h"

/* see idtab.h */
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

/* see idtab.h */
int
gx_idtab_init(gx_idtab *t, size_t idlen, size_t max)
{
	memset(t, 0, sizeof *t);
	t->idlen = idlen;
	t->max = max < UINT32_MAX ? max : UINT32_MAX - 1;
	return rehash(t);
}

/* see idtab.h */
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

/* see idtab.h */
int64_t
gx_idtab_find(const gx_idtab *t, const uint8_t *id)
{
	size_t h = probe(t, id);
	return t->slots[h] ? (int64_t)t->slots[h] - 1 : -1;
}

/* see idtab.h */
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

/* see idtab.h */
const uint8_t *
gx_idtab_id(const gx_idtab *t, size_t i)
{
	return t->ids + i * t->idlen;
}
