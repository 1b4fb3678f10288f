/*
 * keytree.c - the keys/ and .keyring/ files of a commit, as a stream, above
 * the gx interface: written once for libgit2 and for the own reader, so a
 * keyring is built from SHA-256 repositories too. see keytree.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gx.h"
#include "keytree.h"
#include "tdiff.h"
#include "walk.h"
#include "keyring/pgpkeys.h"

typedef struct pk_walk {
	gx_repo *r;
	pgp_buf *out;
	const char *top;       /* "keys" or ".keyring" */
	uint32_t nblobs;
	char *err;
	size_t errlen;
} pk_walk;

/* One entry below top: blobs, executables and symlinks are sent; gitlinks
 * (submodules) are skipped, as is a top that is not a directory. */
static int
on_entry(void *ctx, const char *path, size_t len, unsigned mode, const uint8_t *id)
{
	pk_walk *w = ctx;
	size_t tl = strlen(w->top), size = 0;
	uint8_t *data = NULL;
	int type = 0;
	pgp_err e;

	if (len <= tl || path[tl] != '/')
		return 0;      /* the top itself is a file: nothing under it */
	if (len > PGPKEYS_STREAM_MAX_PATH) {
		snprintf(w->err, w->errlen, "path longer than PGPKEYS_STREAM_MAX_PATH under %s", w->top);
		return -1;
	}
	if (mode != 0100644u && mode != 0100755u && mode != 0120000u)
		return 0;
	if (w->nblobs >= PGPKEYS_STREAM_MAX_ENTRIES) {
		snprintf(w->err, w->errlen,
		    "more than PGPKEYS_STREAM_MAX_ENTRIES files under keys/ and .keyring/");
		return -1;
	}
	/* gx_read refuses an object above the bound before inflating it */
	if (gx_read(w->r, id, PGPKEYS_STREAM_MAX_BLOB, &type, &data, &size, w->err, w->errlen) != 0) {
		char why[1024];
		snprintf(why, sizeof why, "%s", w->err);
		snprintf(w->err, w->errlen, "%.*s: %s (PGPKEYS_STREAM_MAX_BLOB is %u octets)",
		    (int)len, path, why, (unsigned)PGPKEYS_STREAM_MAX_BLOB);
		return -1;
	}
	if (type != GX_BLOB) {
		free(data);
		snprintf(w->err, w->errlen, "%.*s: not a blob", (int)len, path);
		return -1;
	}
	e = pgpkeys_stream_blob(w->out, path, (uint32_t)mode, data, size);
	free(data);
	if (e == PGP_ERR_LIMIT)
		snprintf(w->err, w->errlen, "%.*s: the stream would exceed PGPKEYS_STREAM_MAX_TOTAL",
		    (int)len, path);
	else if (e == PGP_ERR_INVALID)
		snprintf(w->err, w->errlen, "%.*s: a path the stream cannot carry (NUL, \".\" or \"..\")",
		    (int)len, path);
	else if (e != PGP_OK)
		snprintf(w->err, w->errlen, "%.*s: %s", (int)len, path, pgp_strerror(e));
	if (e != PGP_OK)
		return -1;
	w->nblobs++;
	return 0;
}

/* see keytree.h */
int
pgpkeys_run(const char *repo_path, const char *rev, pgp_buf *out, char *err, size_t errlen)
{
	pk_walk w;
	uint8_t commit[GX_MAX_ID], tree[GX_MAX_ID];
	char hex[2 * GX_MAX_ID + 1];
	int rc = -1;

	memset(&w, 0, sizeof w);
	w.out = out;
	w.err = err;
	w.errlen = errlen;
	if (gx_open(&w.r, repo_path, err, errlen) != 0)
		return -1;
	if (gx_commit_of(w.r, rev, commit, err, errlen) != 0 ||
	    gx_tree_of(w.r, commit, tree, err, errlen) != 0)
		goto out;
	pgp_hex_encode_lower(hex, commit, gx_idlen(w.r));
	if (pgpkeys_stream_begin(out) != PGP_OK || pgpkeys_stream_commit(out, hex) != PGP_OK) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	w.top = "keys";
	if (gx_tree_list(w.r, tree, w.top, on_entry, &w, err, errlen) != 0)
		goto out;
	w.top = ".keyring";
	if (gx_tree_list(w.r, tree, w.top, on_entry, &w, err, errlen) != 0)
		goto out;
	if (pgpkeys_stream_end(out, w.nblobs) != PGP_OK) {
		snprintf(err, errlen, "the stream would exceed PGPKEYS_STREAM_MAX_TOTAL");
		goto out;
	}
	rc = 0;
out:
	gx_close(w.r);
	return rc;
}
