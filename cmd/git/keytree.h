/*
 * keytree.h - `wotkit-git pgpkeys`: the keys/ and .keyring/ files of a
 * pgpkeys.git commit as the stream of docs/git-reader.md, read through the
 * gx interface (libgit2, or wotkit's own reader for SHA-256 repositories).
 */
#ifndef WOTKIT_GIT_KEYTREE_H
#define WOTKIT_GIT_KEYTREE_H

#include <stddef.h>
#include "pgp/pgp.h"

/*
 * Resolve rev (default HEAD) in the repository at repo_path to a commit and
 * append to out the stream: the magic, the commit id, every blob and
 * symlink under keys/ then under .keyring/ of its tree (path, mode,
 * content) in tree order, and the end record. Bounded by the
 * PGPKEYS_STREAM_MAX_* limits (keyring/pgpkeys.h). 0, or -1 with a message
 * in err (out then holds garbage: the caller writes an error stream).
 */
int pgpkeys_run(const char *repo_path, const char *rev, pgp_buf *out, char *err, size_t errlen);

#endif
