/*
 * keyring_stub.c - STAND-IN for the format helper's cmd/keyring.c (sources
 * branch only; deleted at merge): `wotkit keyring build -o K [--rev R]
 * [--at T] SRC...` through krsrc_load_at, kr_strip and kr_serialize (both
 * stand-ins here too), and `keyring export` dispatched to
 * cmd_keyring_export.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cmd/cli.h"
#include "cmd/cmds.h"
#include "cmd/krsrc.h"
#include "keyring/kr.h"

static int
build(int argc, char **argv)
{
	const char *outp = NULL, *rev = NULL, *v;
	const char **srcs;
	size_t ns = 0;
	int64_t now = (int64_t)time(NULL), at = now;
	pgp_certset *set = NULL;
	krsrc_reports rep = {0};
	kr_strip_result r;
	kr_strip_opts o;
	pgp_policy pol;
	pgp_buf b;
	FILE *f;
	int i, rc;

	if ((srcs = calloc((size_t)argc, sizeof *srcs)) == NULL)
		return EXIT_USAGE;
	for (i = 1; i < argc; i++) {
		if (cli_opt_value(argc, argv, &i, "-o", &v) || cli_opt_value(argc, argv, &i, "--output", &v))
			outp = v;
		else if (cli_opt_value(argc, argv, &i, "--rev", &v))
			rev = v;
		else if (cli_opt_value(argc, argv, &i, "--at", &v)) {
			if (v == NULL || cli_parse_time(v, now, &at) != 0)
				return EXIT_USAGE;
		} else
			srcs[ns++] = argv[i];
	}
	if (outp == NULL || ns == 0) {
		fprintf(stderr, "usage: wotkit keyring build -o KEYRING [--rev REV] [--at TIME] SRC...\n");
		return EXIT_USAGE;
	}
	pgp_policy_init(&pol);
	if (pgp_certset_new(&set) != PGP_OK)
		return EXIT_USAGE;
	rc = krsrc_load_at(srcs, ns, rev, at, &pol, set, &rep);
	krsrc_reports_print(&rep);
	krsrc_reports_free(&rep);
	if (rc < 0)
		return EXIT_USAGE;
	memset(&o, 0, sizeof o);
	o.now = at;
	o.pol = &pol;
	o.keep_superseded = 1;
	if (kr_strip(set, &o, &r) != PGP_OK)
		return EXIT_USAGE;
	pgp_buf_init(&b, (size_t)4 << 30);
	if (kr_serialize(&r, NULL, &b) != PGP_OK || (f = fopen(outp, "wb")) == NULL)
		return EXIT_USAGE;
	if (fwrite(b.p, 1, b.len, f) != b.len || fclose(f) != 0)
		return EXIT_USAGE;
	fprintf(stderr, "%s: %zu certificates\n", outp, r.ncerts);
	kr_strip_free(&r);
	pgp_buf_free(&b);
	pgp_certset_free(set);
	free(srcs);
	return rc ? EXIT_FAIL : EXIT_OK;
}

/* see cmds.h */
int
cmd_keyring(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "build") == 0)
		return build(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return cmd_keyring_check(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "export") == 0)
		return cmd_keyring_export(argc - 1, argv + 1);
	fprintf(stderr, "usage: wotkit keyring build|check|export ...\n");
	return EXIT_USAGE;
}
