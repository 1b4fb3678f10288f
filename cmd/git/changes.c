/*
 * changes.c - `wotkit-git changes [-C REPO] [--base REV] [--] REV`: the
 * paths REV changes since it forked from BASE (default HEAD), as
 *
 *     git diff --name-status --no-renames -z $(git merge-base BASE REV) REV
 *
 * (docs/git-reader.md, "Changes"). REV and BASE are peeled to commits (an
 * annotated tag to its commit); the merge base is the one `git merge-base`
 * prints (gx_merge_base); the diff is recursive, without rename detection,
 * in git's order (gx_diff_trees).
 *
 * stdout on success: "base <hex>\n" "commit <hex>\n", then one record
 * "<S> <path>\0" per changed path, S one of A D M T. Everything is built in
 * memory and written only when all of it succeeded. Errors (no merge base,
 * an unknown revision, a limit): "wotkit-git: changes: ..." on stderr,
 * nothing on stdout, exit 1. Usage: exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gx.h"
#include "walk.h"
#include "changes.h"
#include "keyring/gitobj.h"

#define ERRLEN 1024

typedef struct collect {
	pgp_buf out;
	size_t n;
	char *err;
	size_t errlen;
} collect;

/* A path as the contract carries it: 1..GX_CHANGES_MAX_PATH octets, no NUL,
 * relative, no empty, "." or ".." component. */
static int
path_ok(const char *p, size_t len)
{
	size_t i = 0;
	if (len == 0 || len > GX_CHANGES_MAX_PATH || memchr(p, 0, len) != NULL)
		return 0;
	while (i <= len) {
		size_t j = i;
		while (j < len && p[j] != '/')
			j++;
		if (j == i || (j - i == 1 && p[i] == '.') || (j - i == 2 && p[i] == '.' && p[i + 1] == '.'))
			return 0;
		i = j + 1;
	}
	return 1;
}

static int
on_change(void *ctx, int status, const char *path, size_t len)
{
	collect *c = ctx;
	if (c->n >= GX_CHANGES_MAX_PATHS) {
		snprintf(c->err, c->errlen, "more than GX_CHANGES_MAX_PATHS changed paths");
		return -1;
	}
	if (!path_ok(path, len)) {
		snprintf(c->err, c->errlen, "%.*s: a path longer than GX_CHANGES_MAX_PATH octets, "
		    "or with an empty, \".\" or \"..\" component", (int)(len < 256 ? len : 256), path);
		return -1;
	}
	if (pgp_buf_putc(&c->out, (uint8_t)status) != PGP_OK || pgp_buf_putc(&c->out, ' ') != PGP_OK ||
	    pgp_buf_append(&c->out, path, len) != PGP_OK || pgp_buf_putc(&c->out, 0) != PGP_OK) {
		snprintf(c->err, c->errlen, "the list exceeds GX_CHANGES_MAX_OUTPUT octets (or out of memory)");
		return -1;
	}
	c->n++;
	return 0;
}

static int
run(const char *repo, const char *base, const char *rev, collect *c, char *err, size_t errlen)
{
	gx_repo *r = NULL;
	uint8_t b[GX_MAX_ID], x[GX_MAX_ID], mb[GX_MAX_ID], tb[GX_MAX_ID], tx[GX_MAX_ID];
	char hb[2 * GX_MAX_ID + 1], hx[2 * GX_MAX_ID + 1];
	size_t idlen;
	int rc = -1, m;

	if (gx_open(&r, repo, err, errlen) != 0)
		return -1;
	idlen = gx_idlen(r);
	if (gx_commit_of(r, base, b, err, errlen) != 0 || gx_commit_of(r, rev, x, err, errlen) != 0)
		goto out;
	if ((m = gx_merge_base(r, b, x, mb, err, errlen)) != 0) {
		if (m > 0)
			snprintf(err, errlen, "%s and %s: no merge base", base, rev);
		goto out;
	}
	if (gx_tree_of(r, mb, tb, err, errlen) != 0 || gx_tree_of(r, x, tx, err, errlen) != 0)
		goto out;
	pgp_hex_encode_lower(hb, mb, idlen);
	pgp_hex_encode_lower(hx, x, idlen);
	if (pgp_buf_append(&c->out, "base ", 5) != PGP_OK || pgp_buf_append(&c->out, hb, 2 * idlen) != PGP_OK ||
	    pgp_buf_append(&c->out, "\ncommit ", 8) != PGP_OK ||
	    pgp_buf_append(&c->out, hx, 2 * idlen) != PGP_OK || pgp_buf_putc(&c->out, '\n') != PGP_OK) {
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	if (gx_diff_trees(r, tb, tx, on_change, c, err, errlen) != 0)
		goto out;
	rc = 0;
out:
	gx_close(r);
	return rc;
}

static int
usage(void)
{
	fprintf(stderr, "usage: wotkit-git changes [-C REPO] [--base REV] [--] REV\n");
	return 2;
}

/* see changes.h */
int
changes_main(int argc, char **argv)
{
	const char *repo = NULL, *base = "HEAD", *rev;
	char err[ERRLEN], where[4096];
	collect c;
	int i, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
			repo = argv[++i];
		else if (strcmp(argv[i], "--base") == 0 && i + 1 < argc)
			base = argv[++i];
		else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-')
			return usage();
		else
			break;
	}
	if (i + 1 != argc || argv[i][0] == 0 || base[0] == 0)
		return usage();
	rev = argv[i];
	if (repo == NULL)
		repo = gx_discover(where, sizeof where);
	memset(&c, 0, sizeof c);
	pgp_buf_init(&c.out, GX_CHANGES_MAX_OUTPUT);
	c.err = err;
	c.errlen = sizeof err;
	err[0] = 0;
	rc = run(repo, base, rev, &c, err, sizeof err);
	if (rc != 0) {
		fprintf(stderr, "wotkit-git: changes: %s\n", err[0] ? err : "failed");
		pgp_buf_free(&c.out);
		return 1;
	}
	if (fwrite(c.out.p, 1, c.out.len, stdout) != c.out.len || fflush(stdout) != 0) {
		fprintf(stderr, "wotkit-git: changes: writing the list failed\n");
		pgp_buf_free(&c.out);
		return 1;
	}
	pgp_buf_free(&c.out);
	return 0;
}
