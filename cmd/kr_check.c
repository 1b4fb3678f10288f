/*
 * kr_check.c - `wotkit keyring check`: load keyring sources as `keyring
 * build` does and print what they hold and what is wrong with them,
 * without building anything. see krsrc.h
 *
 *   wotkit keyring check [--rev REV] [--at TIME] [--allow-sha1] [--list] SRC...
 *
 * A wotkit keyring file among the sources is first checked whole
 * (kr_verify: every checksum, index order and entries, certificate
 * tiling, edges, counts) instead of loaded; a problem is an error report
 * (--list lists the other sources only).
 * Reports go to stderr ("wotkit: FILE: offset N: warning: WHAT"); --list
 * prints the primary fingerprint of every certificate loaded (copies
 * merged), sorted, one a line, on stdout. Exit 0: no error report (warnings
 * allowed); 1: an error report (a file lost, a dangling entry); 2: usage or
 * out of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include "cmd/cli.h"
#include "cmd/krsrc.h"
#include "keyring/kr.h"

static int
list(const pgp_certset *set)
{
	size_t n = pgp_certset_count(set), i, j;
	char **v = n ? calloc(n, sizeof *v) : NULL;
	if (n && v == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const pgp_fpr *f = &pgp_certset_get(set, i)->primary.fpr;
		if ((v[i] = malloc(2 * (size_t)f->len + 1)) == NULL)
			break;
		pgp_hex_encode(v[i], f->v, f->len);
	}
	if (i == n) {
		qsort(v, n, sizeof *v, cli_strcmp_ptr);
		for (j = 0; j < n; j++)
			printf("%s\n", v[j]);
	}
	for (j = 0; j < i; j++)
		free(v[j]);
	free(v);
	return i == n ? 0 : -1;
}

/* The whole-file check of path if it is a wotkit keyring: 1 a problem
 * (reported), 0 none, -1 not a keyring file (the sources' loader reads it). */
static int
check_keyring_file(const char *path)
{
	struct stat st;
	cli_file f;
	kr_keyring *k = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || cli_file_open(&f, path) != 0)
		return -1;
	if (!kr_is_keyring(f.p, f.len)) {
		cli_file_close(&f);
		return -1;
	}
	if ((e = kr_open(&k, f.p, f.len, &d)) == PGP_OK)
		e = kr_verify(k, &d);
	if (e != PGP_OK)
		cli_report(path, e, &d);
	kr_close(k);
	cli_file_close(&f);
	return e != PGP_OK;
}

/* see krsrc.h */
int
cmd_keyring_check(int argc, char **argv)
{
	const char *rev = NULL, *v;
	const char **srcs;
	size_t ns = 0, nraw;
	int64_t now = (int64_t)time(NULL), at = now;
	int i, rc, do_list = 0, bad_file = 0;
	pgp_certset *set = NULL;
	pgp_policy pol;
	krsrc_reports rep = {0};

	pgp_policy_init(&pol);
	if ((srcs = calloc((size_t)argc, sizeof *srcs)) == NULL)
		return EXIT_USAGE;
	for (i = 1; i < argc; i++) {
		if (cli_opt_value(argc, argv, &i, "--rev", &v)) {
			if ((rev = v) == NULL)
				goto usage;
		} else if (cli_opt_value(argc, argv, &i, "--at", &v)) {
			if (v == NULL || cli_parse_time(v, now, &at) != 0)
				goto usage;
		} else if (strcmp(argv[i], "--allow-sha1") == 0) {
			pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_COLLISION);
			pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
		} else if (strcmp(argv[i], "--list") == 0) {
			do_list = 1;
		} else if (argv[i][0] == '-' && argv[i][1] != 0) {
			goto usage;
		} else {
			srcs[ns++] = argv[i];
		}
	}
	if (ns == 0)
		goto usage;
	if (pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		free(srcs);
		return EXIT_USAGE;
	}
	/* keyring files are checked whole here, the other sources loaded */
	for (i = 0, nraw = 0; i < (int)ns; i++) {
		int k = check_keyring_file(srcs[i]);
		if (k < 0)
			srcs[nraw++] = srcs[i];
		else
			bad_file |= k;
	}
	rc = nraw ? krsrc_load_at(srcs, nraw, rev, at, &pol, set, &rep) : 0;
	if (rc == 0 && bad_file)
		rc = 1;
	krsrc_reports_print(&rep);
	if (rc >= 0 && do_list && list(set) != 0)
		rc = -1;
	if (rc < 0)
		cli_msg(NULL, "keyring sources: out of memory or an unusable key set");
	krsrc_reports_free(&rep);
	pgp_certset_free(set);
	free(srcs);
	return rc < 0 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
usage:
	fprintf(stderr, "usage: wotkit keyring check [--rev REV] [--at TIME] [--allow-sha1] "
	    "[--list] SRC...\n");
	free(srcs);
	return EXIT_USAGE;
}
