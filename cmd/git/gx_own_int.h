/*
 * gx_own_int.h - shared between gx_own.c (repository, config), gx_own_odb.c
 * (loose objects, packs, deltas) and gx_own_refs.c (refs, revisions).
 */
#ifndef WOTKIT_GIT_GX_OWN_INT_H
#define WOTKIT_GIT_GX_OWN_INT_H

#include <stddef.h>
#include <stdint.h>
#include "gx_own.h"

/* Pack entry types beyond the four object types (gitformat-pack.txt). */
enum { GX_OFS_DELTA = 6, GX_REF_DELTA = 7 };

/* One pack: its .idx (version 2) and .pack, both mapped read-only. */
typedef struct gx_pack {
	char *name;                /* ".../pack-X.pack", for messages */
	const uint8_t *idx;        /* the mapped .idx */
	size_t idx_len;
	const uint8_t *pack;       /* the mapped .pack */
	size_t pack_len;
	uint32_t n;                /* objects */
	const uint8_t *fanout;     /* 256 big-endian counts */
	const uint8_t *ids;        /* n ids, sorted */
	const uint8_t *off32;      /* n 32-bit offsets */
	const uint8_t *off64;      /* nlarge 64-bit offsets */
	uint32_t nlarge;
	uint8_t checked[32];       /* fanout buckets whose order has been checked (bitmap) */
	uint8_t borrowed;          /* idx and pack are the caller's memory, not mapped */
} gx_pack;

/* A packed ref (packed-refs), sorted by name. */
typedef struct gx_pref {
	char *name;
	uint8_t id[GX_MAX_ID];
} gx_pref;

struct gx_own {
	char *gitdir;              /* HEAD and the per-worktree files */
	char *commondir;           /* objects/, refs/, packed-refs, config; NULL for an
	                              in-memory object database (no loose objects) */
	size_t idlen;              /* 20 or 32 */
	int hashalg;               /* PGP_HASH_SHA1 or PGP_HASH_SHA256 */
	gx_pack *packs;
	size_t npacks;
	gx_pref *prefs;            /* packed refs, sorted */
	size_t nprefs;
	int prefs_loaded;
};

/* Message helpers: always return -1. */
int gx_own__fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Read a small file (at most max octets) into a NUL-terminated malloc'ed
 * buffer. 1 if it does not exist, 0 ok, -1 error (with message). */
int gx_own__slurp(const char *path, size_t max, char **out, size_t *len, char *err, size_t errlen);

/* gx_own_odb.c */
int gx_own__load_packs(gx_own *r, char *err, size_t errlen);
void gx_own__free_packs(gx_own *r);
/* The type of an object (no content is inflated but a loose header).
 * 1 when the object does not exist, 0 ok, -1 error. */
int gx_own__type(gx_own *r, const uint8_t *id, int *type, char *err, size_t errlen);
/* Every object whose hex id starts with hex[0..n) (lower-case hex, n >= 2):
 * count distinct ones
 * (stops at 2); *id the first. */
int gx_own__prefix(gx_own *r, const char *hex, size_t n, uint8_t *id, unsigned *count,
    char *err, size_t errlen);

/*
 * An in-memory object database (the fuzz target tests/fuzz/fuzz_gxown.c):
 * no directory, no refs, no loose objects; packs added from the caller's
 * memory, which must outlive r. Same checks as packs read from files.
 */
int gx_own__open_mem(gx_own **out, size_t idlen, char *err, size_t errlen);
int gx_own__add_pack_mem(gx_own *r, const uint8_t *idx, size_t idx_len, const uint8_t *pack,
    size_t pack_len, char *err, size_t errlen);
/* A loose object's octets (zlib of "TYPE SIZE\0CONTENT") as read_loose reads
 * a file named name: the type and, with want_data, the content (at most max
 * octets). 0 ok, -1 error. */
int gx_own__loose_mem(const uint8_t *z, size_t zlen, const char *name, size_t max, int want_data,
    int *type, uint8_t **data, size_t *len, char *err, size_t errlen);

#endif
