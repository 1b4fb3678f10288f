/*
 * walk.h - the commits of a range A..B (reachable from B, not from A),
 * walked over the gx interface (gx.h), so SHA-1 (libgit2) and SHA-256 (own
 * reader) repositories get the same walk.
 *
 * Order: the order of `git rev-list A..B` (git 2.39 revision.c limit_list):
 * commits are taken newest first by committer date (ties: the order they
 * were queued in), the walk stops five commits after only excluded ones are
 * left queued and none of them is newer than the last commit taken (git's
 * SLOP), and commits found excluded later are dropped from the result.
 * Like git, this trusts committer dates: on histories with gross clock skew
 * both give the same answer, which may include a commit reachable from A.
 */
#ifndef WOTKIT_GIT_WALK_H
#define WOTKIT_GIT_WALK_H

#include <stddef.h>
#include <stdint.h>
#include "gx.h"

/* Most commits one walk reads (included and excluded together). */
#define GX_WALK_MAX_COMMITS (1u << 22)
/* Octets of raw commits a walk keeps from its reads, so that the commits
 * of the range are not read twice (beyond it they are read again). */
#define GX_WALK_MAX_CACHE (64u << 20)
/* Most tags peeled through to find what a tag points at. */
#define GX_WALK_MAX_PEEL 64u

typedef struct gx_walk gx_walk;

/*
 * Walk from b, excluding everything reachable from a (a NULL: nothing
 * excluded). a and b are commit ids. -1 with a message in err (an object
 * that cannot be read or is no commit, the limit).
 */
int gx_walk_range(gx_walk **out, gx_repo *r, const uint8_t *a, const uint8_t *b, char *err,
    size_t errlen);
void gx_walk_free(gx_walk *w);
/* The commits of the range, in rev-list order. */
size_t gx_walk_count(const gx_walk *w);
const uint8_t *gx_walk_id(const gx_walk *w, size_t i);
/* The raw content of commit i of the range when the walk kept it: handed
 * over (the caller frees *data) and 0; -1 when it was not kept. */
int gx_walk_take(gx_walk *w, size_t i, uint8_t **data, size_t *len);
/* 1 when id is one of them. */
int gx_walk_contains(const gx_walk *w, const uint8_t *id);

/*
 * Peel the object id through tags to what they point at (at most
 * GX_WALK_MAX_PEEL tags): *type and out are the first non-tag object's.
 * 0, or -1 with a message.
 */
int gx_peel(gx_repo *r, const uint8_t *id, int *type, uint8_t out[GX_MAX_ID], char *err,
    size_t errlen);

/* rev (gx_resolve) peeled to a commit: id[0..idlen); -1 with a message
 * ("REV: does not name a commit"). */
int gx_commit_of(gx_repo *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen);
/* The tree of a commit: its first line, "tree HEX\n" (git's commit format);
 * -1 with a message. */
int gx_tree_of(gx_repo *r, const uint8_t *commit, uint8_t tree[GX_MAX_ID], char *err,
    size_t errlen);

#endif
