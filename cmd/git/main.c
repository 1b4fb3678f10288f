/*
 * wotkit-git - the one executable of wotkit that links libgit2 (so that
 * `wotkit` itself never loads it: docs/performance.md, start-up).
 *
 *   wotkit-git pgpkeys [--rev REV] [--] REPO
 *   wotkit-git objects --tags|--commits [-C REPO] [--] ARG...   (objects.c)
 *   wotkit-git fetch -C REPO [--init] [--] SOURCE [BRANCH]       (fetch.c)
 *   wotkit-git changes [-C REPO] [--base REV] [--] REV          (changes.c)
 *
 * Opens REPO (bare or not; no search upwards), resolves REV (default HEAD)
 * to a commit and writes on stdout the stream of docs/git-reader.md: the
 * commit id, then every blob under keys/ and .keyring/ of its tree (path,
 * mode, content), in tree order, read from the object database with no
 * checkout. Everything it emits is bounded (PGPKEYS_STREAM_MAX_* in
 * keyring/pgpkeys.h); on any error or limit the stream is the magic and one
 * error record, never a partial tree. Exit 0 ok, 1 error, 2 usage.
 */
#include <stdio.h>
#include <string.h>
#include <git2.h>
#include "pgp/pgp.h"
#include "keyring/pgpkeys.h"
#include "objects.h"
#include "gx_own.h"
#include "fetch.h"
#include "changes.h"

typedef struct walk {
	git_repository *repo;
	git_odb *odb;
	pgp_buf *out;
	const char *top;       /* "keys" or ".keyring" */
	uint32_t nblobs;
	char err[PGPKEYS_STREAM_MAX_PATH + 1024];
} walk;

static int
werr(walk *w, const char *fmt, const char *a, const char *b)
{
	snprintf(w->err, sizeof w->err, fmt, a, b);
	return -1;
}

static int
on_entry(const char *root, const git_tree_entry *entry, void *payload)
{
	walk *w = payload;
	git_filemode_t mode = git_tree_entry_filemode(entry);
	const git_oid *id = git_tree_entry_id(entry);
	char path[PGPKEYS_STREAM_MAX_PATH + 2];
	size_t size;
	git_object_t type;
	git_blob *blob = NULL;
	pgp_err e;

	if (git_tree_entry_type(entry) != GIT_OBJECT_BLOB)
		return 0;    /* trees are walked into; submodules (commits) skipped */
	if ((size_t)snprintf(path, sizeof path, "%s/%s%s", w->top, root,
	    git_tree_entry_name(entry)) > PGPKEYS_STREAM_MAX_PATH)
		return werr(w, "path longer than %s octets under %s", "PGPKEYS_STREAM_MAX_PATH", w->top);
	if (mode != GIT_FILEMODE_BLOB && mode != GIT_FILEMODE_BLOB_EXECUTABLE &&
	    mode != GIT_FILEMODE_LINK)
		return 0;
	if (w->nblobs >= PGPKEYS_STREAM_MAX_ENTRIES)
		return werr(w, "more than %s files under keys/ and .keyring/%s",
		    "PGPKEYS_STREAM_MAX_ENTRIES", "");
	/* the size first, from the object header: a huge blob is never loaded */
	if (git_odb_read_header(&size, &type, w->odb, id) != 0)
		return werr(w, "%s: cannot read the object header: %s", path,
		    git_error_last() ? git_error_last()->message : "?");
	if (size > PGPKEYS_STREAM_MAX_BLOB)
		return werr(w, "%s: larger than %s", path, "PGPKEYS_STREAM_MAX_BLOB");
	if (git_blob_lookup(&blob, w->repo, id) != 0)
		return werr(w, "%s: cannot read the blob: %s", path,
		    git_error_last() ? git_error_last()->message : "?");
	e = pgpkeys_stream_blob(w->out, path, (uint32_t)mode, git_blob_rawcontent(blob),
	    (size_t)git_blob_rawsize(blob));
	git_blob_free(blob);
	if (e == PGP_ERR_LIMIT)
		return werr(w, "%s: the stream would exceed %s", path, "PGPKEYS_STREAM_MAX_TOTAL");
	if (e == PGP_ERR_INVALID)
		return werr(w, "%s: %s", path, "a path the stream cannot carry (NUL, \".\" or \"..\")");
	if (e != PGP_OK)
		return werr(w, "%s: %s", path, pgp_strerror(e));
	w->nblobs++;
	return 0;
}

static int
walk_top(walk *w, git_tree *tree, const char *top)
{
	git_tree_entry *te = NULL;
	git_tree *sub = NULL;
	int rc;
	w->top = top;
	if (git_tree_entry_bypath(&te, tree, top) != 0)
		return 0;   /* absent: nothing to send */
	if (git_tree_entry_type(te) != GIT_OBJECT_TREE) {
		git_tree_entry_free(te);
		return 0;
	}
	if (git_tree_lookup(&sub, w->repo, git_tree_entry_id(te)) != 0) {
		git_tree_entry_free(te);
		return werr(w, "%s: cannot read the tree: %s", top,
		    git_error_last() ? git_error_last()->message : "?");
	}
	git_tree_entry_free(te);
	rc = git_tree_walk(sub, GIT_TREEWALK_PRE, on_entry, w);
	git_tree_free(sub);
	if (rc != 0 && w->err[0] == 0)
		werr(w, "%s: walking the tree failed: %s", top,
		    git_error_last() ? git_error_last()->message : "?");
	return rc != 0 ? -1 : 0;
}

static int
run(const char *repo_path, const char *rev, pgp_buf *out, char *err, size_t errn)
{
	walk w;
	git_object *obj = NULL, *commit = NULL, *tree = NULL;
	char hex[GIT_OID_HEXSZ + 1];
	size_t idlen = 0;
	int rc = -1;

	memset(&w, 0, sizeof w);
	w.out = out;
	/* never hand a SHA-256 repository to libgit2 (1.5 refuses it and leaks) */
	if (gx_own_format(repo_path, &idlen, w.err, sizeof w.err) == 0 && idlen == 32) {
		werr(&w, "%s: a SHA-256 repository: %s", repo_path,
		    "pgpkeys reads SHA-1 repositories only (libgit2 1.5)");
		goto out;
	}
	if (git_repository_open_ext(&w.repo, repo_path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		werr(&w, "%s: not a git repository: %s", repo_path,
		    git_error_last() ? git_error_last()->message : "?");
		goto out;
	}
	if (git_repository_odb(&w.odb, w.repo) != 0) {
		werr(&w, "%s: no object database: %s", repo_path,
		    git_error_last() ? git_error_last()->message : "?");
		goto out;
	}
	if (git_revparse_single(&obj, w.repo, rev) != 0 ||
	    git_object_peel(&commit, obj, GIT_OBJECT_COMMIT) != 0 ||
	    git_object_peel(&tree, commit, GIT_OBJECT_TREE) != 0) {
		werr(&w, "%s: no commit: %s", rev, git_error_last() ? git_error_last()->message : "?");
		goto out;
	}
	git_oid_tostr(hex, sizeof hex, git_object_id(commit));
	if (pgpkeys_stream_begin(out) != PGP_OK || pgpkeys_stream_commit(out, hex) != PGP_OK) {
		werr(&w, "%s%s", "out of memory", "");
		goto out;
	}
	if (walk_top(&w, (git_tree *)tree, "keys") != 0 ||
	    walk_top(&w, (git_tree *)tree, ".keyring") != 0)
		goto out;
	if (pgpkeys_stream_end(out, w.nblobs) != PGP_OK) {
		werr(&w, "%s%s", "the stream would exceed PGPKEYS_STREAM_MAX_TOTAL", "");
		goto out;
	}
	rc = 0;
out:
	snprintf(err, errn, "%s", w.err);
	git_object_free(tree);
	git_object_free(commit);
	git_object_free(obj);
	git_odb_free(w.odb);
	git_repository_free(w.repo);
	return rc;
}

static int
usage(void)
{
	fprintf(stderr, "usage: wotkit-git pgpkeys [--rev REV] [--] REPO\n"
	    "       wotkit-git objects --tags|--commits [-C REPO] [--] ARG...\n"
	    "       wotkit-git fetch -C REPO [--init] [--] SOURCE [BRANCH]\n"
	    "       wotkit-git changes [-C REPO] [--base REV] [--] REV\n");
	return 2;
}

int
main(int argc, char **argv)
{
	const char *rev = "HEAD", *repo = NULL;
	char err[PGPKEYS_STREAM_MAX_PATH + 1024];
	pgp_buf out;
	int i, rc;

	if (argc >= 2 && strcmp(argv[1], "objects") == 0) {
		git_libgit2_init();
		rc = objects_main(argc - 1, argv + 1);
		git_libgit2_shutdown();
		return rc;
	}
	if (argc >= 2 && strcmp(argv[1], "changes") == 0) {
		git_libgit2_init();
		rc = changes_main(argc - 1, argv + 1);
		git_libgit2_shutdown();
		return rc;
	}
	if (argc >= 2 && strcmp(argv[1], "fetch") == 0)
		return fetch_main(argc - 1, argv + 1);
	if (argc < 2 || strcmp(argv[1], "pgpkeys") != 0)
		return usage();
	for (i = 2; i < argc; i++) {
		if (strcmp(argv[i], "--rev") == 0 && i + 1 < argc)
			rev = argv[++i];
		else if (strcmp(argv[i], "--") == 0 && i + 2 == argc)
			repo = argv[++i];
		else if (argv[i][0] != '-' && i + 1 == argc)
			repo = argv[i];
		else
			return usage();
	}
	if (repo == NULL)
		return usage();
	git_libgit2_init();
	pgp_buf_init(&out, PGPKEYS_STREAM_MAX_TOTAL);
	err[0] = 0;
	rc = run(repo, rev, &out, err, sizeof err);
	git_libgit2_shutdown();
	if (rc != 0) {
		/* never a partial tree: the magic and the error alone */
		out.len = 0;
		if (pgpkeys_stream_begin(&out) != PGP_OK ||
		    pgpkeys_stream_error(&out, err[0] ? err : "failed") != PGP_OK) {
			pgp_buf_free(&out);
			return 1;
		}
		fprintf(stderr, "wotkit-git: %s\n", err[0] ? err : "failed");
	}
	if (fwrite(out.p, 1, out.len, stdout) != out.len || fflush(stdout) != 0) {
		pgp_buf_free(&out);
		return 1;
	}
	pgp_buf_free(&out);
	return rc != 0 ? 1 : 0;
}
