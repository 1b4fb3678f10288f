/*
 * wotkit-git - the one executable of wotkit that links libgit2 (so that
 * `wotkit` itself never loads it: docs/performance.md, start-up).
 *
 *   wotkit-git pgpkeys [--rev REV] [--] REPO                  (keytree.c)
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
#include "keytree.h"
#include "fetch.h"
#include "changes.h"
#include "cmd/mapguard.h"

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

	/* a pack truncated while mapped: "wotkit-git: FILE: ...", exit 1;
	 * libgit2 maps its packs itself: those are caught by si_code */
	mapguard_setup("wotkit-git", 1);
	(void)mapguard_catch_all("a file of the git object database");
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
	rc = pgpkeys_run(repo, rev, &out, err, sizeof err);
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
