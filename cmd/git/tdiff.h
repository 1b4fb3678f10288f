/*
 * tdiff.h - the name-only diff of two trees, computed above gx_read (so it
 * works for wotkit's own reader: SHA-256 repositories), as git 2.39
 * tree-diff.c walks them: both trees' entries merged in tree order
 * (base_name_compare: a tree's name sorts as if it ended in '/'), modes
 * canonicalized as git's canon_mode, recursion into subtrees whose ids
 * differ, and per path the status diff.c gives without renames: A, D, M
 * (content or mode), T (the file type changed: file, symlink, gitlink).
 * A file that becomes a directory is D of the file and A of every path
 * under the directory, as in git.
 *
 * Trees must be well formed: each entry an octal mode, a space, a name (not
 * empty, no '/', not "." or ".."), a NUL and an id, strictly in tree order;
 * anything else is an error naming the tree (git would diff it anyway).
 */
#ifndef WOTKIT_GIT_TDIFF_H
#define WOTKIT_GIT_TDIFF_H

#include <stddef.h>
#include <stdint.h>
#include "gx.h"

#define GX_DIFF_MAX_PATH 4096u           /* octets of one path */
#define GX_DIFF_MAX_TREE (64u << 20)     /* octets of one tree object */
#define GX_DIFF_MAX_TREES (1u << 22)     /* tree objects one diff reads */
#define GX_DIFF_MAX_DEPTH 2048u          /* nested directories (git 2.42's core.maxTreeDepth) */
#define GX_DIFF_MAX_HELD (256u << 20)    /* octets of tree objects held at once (one per level and side) */

/* Same contract as gx_diff_trees (gx.h). */
int gx_tdiff(gx_repo *r, const uint8_t *a, const uint8_t *b, gx_change_fn cb, void *ctx,
    char *err, size_t errlen);

/* One entry of a tree listing: its path (from the listed tree), its mode
 * (canonical: 0100644, 0100755, 0120000, 0160000) and its id. */
typedef int (*gx_entry_fn)(void *ctx, const char *path, size_t len, unsigned mode,
    const uint8_t *id);

/*
 * Every non-tree entry (blob, symlink, gitlink) below the top-level entry
 * named `only` of tree root (every entry when only is NULL), recursively, in
 * tree order (as git ls-tree -r lists them), with the checks and limits of
 * the diff (GX_DIFF_*): the diff from an empty tree, with the entries'
 * modes and ids. cb's non-zero return stops and is returned; -1 with a
 * message.
 */
int gx_tree_list(gx_repo *r, const uint8_t *root, const char *only, gx_entry_fn cb, void *ctx,
    char *err, size_t errlen);

#endif
