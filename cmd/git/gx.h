/*
 * gx.h - the few read-only operations on a git repository that wotkit-git
 * needs, behind one interface: libgit2 for SHA-1 repositories (and any it
 * can open), wotkit's own reader (gx_own.c) for SHA-256 repositories, which
 * libgit2 1.5 refuses ("unsupported extension name extensions.objectformat").
 * Everything above this interface (revision ranges, tag lists, the object
 * stream) is written once.
 *
 * Errors: -1 with a NUL-terminated message in err[0..errlen) ("REV: unknown
 * revision", "OBJECT: cannot read: why"); 0 on success.
 */
#ifndef WOTKIT_GIT_GX_H
#define WOTKIT_GIT_GX_H

#include <stddef.h>
#include <stdint.h>

#define GX_MAX_ID 32          /* octets of an object id: 20 (SHA-1) or 32 (SHA-256) */

/* Object types, numbered as git numbers them (pack format). */
enum { GX_COMMIT = 1, GX_TREE = 2, GX_BLOB = 3, GX_TAG = 4 };

typedef struct gx_repo gx_repo;

/* Open the repository at path (a work tree's top or its .git, or a bare
 * repository; no search upwards). */
int gx_open(gx_repo **out, const char *path, char *err, size_t errlen);
void gx_close(gx_repo *r);
/* 20 or 32. */
size_t gx_idlen(const gx_repo *r);
/* 1 when the repository is read by wotkit's own reader (SHA-256). */
int gx_is_own(const gx_repo *r);

/* A revision as git rev-parse takes it: a full or unique abbreviated hex id,
 * HEAD, a ref name (dwim: ARG, refs/ARG, refs/tags/ARG, refs/heads/ARG,
 * refs/remotes/ARG, refs/remotes/ARG/HEAD), with ^, ^N, ~N and ^{} suffixes.
 * id[0..gx_idlen) is the object named (not peeled). */
int gx_resolve(gx_repo *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen);

/* The raw content of an object (no "type size\0" header), malloc'ed: the
 * caller frees *data. max: refuse objects larger than this (-1 with a
 * message), so a huge blob is never inflated. */
int gx_read(gx_repo *r, const uint8_t *id, size_t max, int *type, uint8_t **data, size_t *len,
    char *err, size_t errlen);

/* Every ref under refs/tags/ (loose and packed), in name order: cb(ctx,
 * "refs/tags/NAME", id the ref points at (not peeled)). A non-zero return of
 * cb stops the walk and is returned. */
int gx_each_tag(gx_repo *r, int (*cb)(void *ctx, const char *refname, const uint8_t *id),
    void *ctx, char *err, size_t errlen);

#endif
