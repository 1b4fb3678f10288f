/*
 * sopv.c - `wotkit sopv` / `wotkit-sopv`: the verification-only subset of
 * the Stateless OpenPGP CLI, "sopv 1.2" (draft-dkg-openpgp-stateless-cli
 * §"sopv": 1.0 is version, verify, inline-verify (-10); 1.1 adds the
 * --debug option; 1.2 adds validate-userid). A second front end on
 * pgp/verify.h (the first is cmd/verify.c) and on pgp/uidvalid.h.
 *
 *   sopv [--debug] version [--backend | --extended | --sop-spec | --sopv]
 *   sopv [--debug] verify [--not-before=DATE] [--not-after=DATE] [--]
 *        SIGNATURES CERTS... < DATA
 *   sopv [--debug] inline-verify [--not-before=DATE] [--not-after=DATE]
 *        [--verifications-out=VERIFICATIONS] [--] CERTS... < MESSAGE > DATA
 *   sopv [--debug] validate-userid [--addr-spec-only] [--validate-at=DATE]
 *        [--] USERID CERTS... < CERTS
 *
 * Exit codes are the draft's (cmd/sopv.h), not wotkit's 0/1/2.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "cmds.h"
#include "sopv.h"
#include "mapguard.h"

#include "version.h"

/* The draft whose sopv subset this implements; "~": not all of sop.
 * validate-userid joined sopv (as 1.2) after -13 (sopv 1.1). */
#define SOPV_SPEC "~draft-dkg-openpgp-stateless-cli-14"
#define SOPV_SUBSET "1.2"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: %s [--debug] SUBCOMMAND ...\n"
	    "  version [--backend | --extended | --sop-spec | --sopv]\n"
	    "  verify [--not-before=DATE] [--not-after=DATE] [--] SIGNATURES CERTS... <DATA\n"
	    "  inline-verify [--not-before=DATE] [--not-after=DATE]\n"
	    "                [--verifications-out=VERIFICATIONS] [--] CERTS... <MESSAGE >DATA\n"
	    "  validate-userid [--addr-spec-only] [--validate-at=DATE] [--] USERID CERTS... <CERTS\n"
	    "DATE: ISO 8601 (2024-03-01T12:00:00Z), now, or - (beginning/end of time;\n"
	    "      not for --validate-at)\n",
	    cli_prog);
}

static int
version(int backend, int extended, int spec, int subset)
{
	if (backend + extended + spec + subset > 1) {
		fprintf(stderr, "%s: version: give at most one of --backend, --extended, "
		    "--sop-spec, --sopv\n", cli_prog);
		return SOPV_INCOMPATIBLE_OPTIONS;
	}
	if (backend) {
		printf("libpgp %s (wotkit's RFC 9580 verification library; mbedtls, libsodium)\n",
		    WOTKIT_VERSION);
	} else if (spec) {
		/* first line: the draft; the rest: free-form remarks */
		printf("%s\n", SOPV_SPEC);
		printf("wotkit implements only the sopv %s subset (version, verify, inline-verify, "
		    "validate-userid)\n", SOPV_SUBSET);
	} else if (subset) {
		printf("%s\n", SOPV_SUBSET);
	} else {
		printf("wotkit %s\n", WOTKIT_VERSION);
		if (extended) {
			printf("libpgp %s (RFC 9580: v4 and v6 keys and signatures)\n", WOTKIT_VERSION);
			printf("sopv %s: version, verify, inline-verify, validate-userid\n", SOPV_SUBSET);
			printf("spec: %s\n", SOPV_SPEC);
		}
	}
	return fflush(stdout) == 0 ? SOPV_OK : SOPV_GENERIC;
}

enum { SUB_VERSION, SUB_VERIFY, SUB_INLINE_VERIFY, SUB_VALIDATE_USERID };

/* Options and operands of one subcommand; argv[0] is the subcommand. */
static int
run(int sub, int argc, char **argv, int debug)
{
	sopv_opts o;
	const char *val, *nb = "-", *na = "now", *at = "now";
	int i, backend = 0, extended = 0, spec = 0, subset = 0, only_pos = 0;
	int verifying = sub == SUB_VERIFY || sub == SUB_INLINE_VERIFY;
	size_t npos = 0;
	char **pos = argv + 1; /* operands are compacted in place */

	memset(&o, 0, sizeof o);
	o.now = (int64_t)time(NULL);
	o.debug = debug;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_pos || a[0] != '-' || a[1] == '\0') {
			pos[npos++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			only_pos = 1;
		} else if (strcmp(a, "--debug") == 0) {
			o.debug = 1;
		} else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
			usage(stdout);
			return SOPV_OK;
		} else if (sub == SUB_VERSION && strcmp(a, "--backend") == 0) {
			backend = 1;
		} else if (sub == SUB_VERSION && strcmp(a, "--extended") == 0) {
			extended = 1;
		} else if (sub == SUB_VERSION && strcmp(a, "--sop-spec") == 0) {
			spec = 1;
		} else if (sub == SUB_VERSION && strcmp(a, "--sopv") == 0) {
			subset = 1;
		} else if (verifying && cli_opt_value(argc, argv, &i, "--not-before", &val)) {
			if (!val)
				goto missing;
			nb = val;
		} else if (verifying && cli_opt_value(argc, argv, &i, "--not-after", &val)) {
			if (!val)
				goto missing;
			na = val;
		} else if (sub == SUB_INLINE_VERIFY &&
		    cli_opt_value(argc, argv, &i, "--verifications-out", &val)) {
			if (!val)
				goto missing;
			o.verifications_out = val;
		} else if (sub == SUB_VALIDATE_USERID && strcmp(a, "--addr-spec-only") == 0) {
			o.addr_spec_only = 1;
		} else if (sub == SUB_VALIDATE_USERID &&
		    cli_opt_value(argc, argv, &i, "--validate-at", &val)) {
			if (!val)
				goto missing;
			at = val;
		} else {
			cli_msg(argv[0], "unsupported option %s", a);
			return SOPV_UNSUPPORTED_OPTION;
		}
	}
	if (sub == SUB_VERSION) {
		if (npos) {
			cli_msg("version", "unexpected argument %s", pos[0]);
			return SOPV_UNSUPPORTED_OPTION;
		}
		return version(backend, extended, spec, subset);
	}
	if (sub == SUB_VALIDATE_USERID) {
		/* one point in time: "-" (beginning or end of time) means none */
		if (strcmp(at, "-") == 0 ||
		    sopv_parse_date(at, o.now, INT64_MIN, &o.validate_at) != 0) {
			cli_msg("--validate-at", "malformed DATE '%s'", at);
			return SOPV_GENERIC;
		}
		return sopv_validate_userid(pos, npos, &o);
	}
	/* DATE: draft §"DATE"; malformed dates have no code of their own. */
	if (sopv_parse_date(nb, o.now, INT64_MIN, &o.not_before) != 0) {
		cli_msg("--not-before", "malformed DATE '%s'", nb);
		return SOPV_GENERIC;
	}
	if (sopv_parse_date(na, o.now, INT64_MAX, &o.not_after) != 0) {
		cli_msg("--not-after", "malformed DATE '%s'", na);
		return SOPV_GENERIC;
	}
	return sub == SUB_VERIFY ? sopv_verify(pos, npos, &o) : sopv_inline_verify(pos, npos, &o);
missing:
	cli_msg(argv[0], "%s needs a value", argv[i]);
	return SOPV_MISSING_ARG;
}

int
cmd_sopv(int argc, char **argv)
{
	static const struct {
		const char *name;
		int sub;
	} subs[] = {
		{"version", SUB_VERSION},
		{"verify", SUB_VERIFY},
		{"inline-verify", SUB_INLINE_VERIFY},
		{"validate-userid", SUB_VALIDATE_USERID},
	};
	int i = 1, debug = 0;
	size_t k;

	/* an input truncated while mapped: SOPV's I/O failure (cmd/mapguard.h) */
	mapguard_setup(cli_prog, SOPV_GENERIC);
	/* common options before the subcommand (sopv-doc: `sopv [--debug] ...`) */
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "--debug") == 0) {
			debug = 1;
		} else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
			usage(stdout);
			return SOPV_OK;
		} else if (strcmp(argv[i], "--version") == 0) {
			return version(0, 0, 0, 0);
		} else {
			cli_msg(NULL, "unsupported option %s", argv[i]);
			return SOPV_UNSUPPORTED_OPTION;
		}
	}
	if (i >= argc) {
		usage(stderr);
		return SOPV_MISSING_ARG;
	}
	for (k = 0; k < sizeof subs / sizeof subs[0]; k++)
		if (strcmp(argv[i], subs[k].name) == 0)
			return run(subs[k].sub, argc - i, argv + i, debug);
	cli_msg(NULL, "unsupported subcommand '%s' (sopv %s has version, verify, "
	    "inline-verify, validate-userid)", argv[i], SOPV_SUBSET);
	return SOPV_UNSUPPORTED_SUBCOMMAND;
}
