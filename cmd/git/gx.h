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

/* Without -C: the repository containing the current directory (git's
 * discovery, simplified: the nearest directory upwards holding .git, at
 * most 64 levels; else "."). buf: room for the path (cap octets). */
const char *gx_discover(char *buf, size_t cap);

/* ---- merge base and tree diff (wotkit-git changes) ---- */

/*
 * The merge base of the commits a and b as `git merge-base a b` prints it
 * (git 2.39 commit-reach.c get_merge_bases: the first of the bases, newest
 * committer date first): out[0..idlen) and 0; 1 when the histories have
 * none; -1 with a message. libgit2: git_merge_base; own reader: mbase.c.
 */
int gx_merge_base(gx_repo *r, const uint8_t *a, const uint8_t *b, uint8_t out[GX_MAX_ID],
    char *err, size_t errlen);

/* A changed path: status 'A' (added), 'D' (deleted), 'M' (modified: content
 * or executable bit), 'T' (type changed: file, symlink, submodule). */
typedef int (*gx_change_fn)(void *ctx, int status, const char *path, size_t len);

/*
 * The changes from tree a to tree b (tree ids) as `git diff --name-status
 * --no-renames` lists them: recursive, every blob, symlink and submodule
 * (gitlink) entry that was added, deleted or changed, in git's order (the
 * byte order of the paths). cb's non-zero return stops and is returned.
 * -1 with a message on errors and limits (GX_DIFF_* in tdiff.h).
 * libgit2: git_diff_tree_to_tree; own reader: tdiff.c.
 */
int gx_diff_trees(gx_repo *r, const uint8_t *a, const uint8_t *b, gx_change_fn cb, void *ctx,
    char *err, size_t errlen);

#endif
