/*
 * main.c - the wotkit subcommand table.
 * Exit codes: 0 ok, 1 verification failed, 2 usage / I/O / malformed input.
 * Invoked as `wotkit-sopv`, it is the sopv front end; as `wotkit-gpg`, the
 * gpg drop-in (cmd/gpg.c, docs/gpg.md).
 */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cmds.h"
#include "mapguard.h"

#include "version.h"

static const struct subcmd {
	const char *name;
	int (*fn)(int, char **);
	const char *usage;
} subcmds[] = {
	{"dump", cmd_dump, "dump [--json] FILE|-        show every packet and field"},
	{"verify", cmd_verify, "verify [--keyring K]... SIG [DATA|-] | MESSAGE   verify signatures"},
	{"inspect", cmd_inspect, "inspect [--at T] [--json] KEYRING...   certificates and their state"},
	{"strip", cmd_strip, "strip [--keyring K]... [--at T] [--binary] [--json] [--threads N] [-o OUT] IN...\n"
	    "                              certificates reduced to what verifies, canonical order"},
	{"keyring", cmd_keyring, "keyring build|list|show|stats|export|check ...   the wotkit keyring file"},
	{"wot", cmd_wot, "wot path|why|graphs|audit|trust|validity ...   the web of trust"},
	{"verify-tag", cmd_verify_tag, "verify-tag [-C REPO] [--keyring K] [--min-trust L] [--json] TAG...\n"
	    "                              signed git tags: signature and path to the root"},
	{"verify-commit", cmd_verify_commit, "verify-commit [-C REPO] [--keyring K] ... COMMIT...|A..B\n"
	    "                              signed git commits (and their mergetags)"},
	{"refresh", cmd_refresh, "refresh [--keyring K] (--repo DIR | --remote URL) [--all] [--audit] ...\n"
	    "                              update the keyring from a trusted pgpkeys.git tip"},
	{"maintainers", cmd_maintainers, "maintainers MAINTAINERS [--keyring K] [--at T] [--within 30d] [--json]\n"
	    "                              M: addresses without a key, a path to the root, or expiring"},
	{"pull-check", cmd_pull_check, "pull-check [-C REPO] TAG [--base REV] [--maintainers FILE] [--json]\n"
	    "                              a signed tag, its signer's path and MAINTAINERS sections"},
	{"sopv", cmd_sopv, "sopv SUBCOMMAND ...         Stateless OpenPGP verification subset"},
	{"gpg", cmd_gpg, "gpg GPG-ARGS ...            the gpg drop-in for git, b4, patatt (also as wotkit-gpg)"},
	{"expiring", cmd_expiring, "expiring [--keyring K] [--at T] [--within 30d] [--json|--mail-template]\n"
	    "                              keys and signing subkeys expiring soon, with the commands to extend"},
	{"submission", cmd_submission, "submission check KEY.asc [--email A] [--nonce N --nonce-sig S] | nonce EMAIL\n"
	    "                              pre-validate a key submitted to the keyring"},
};

static void
usage(FILE *f)
{
	size_t i;
	fprintf(f, "usage: wotkit COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++)
		fprintf(f, "  %s\n", subcmds[i].usage);
	fprintf(f, "  version\n");
}

int
main(int argc, char **argv)
{
	const char *base;
	size_t i;
	base = argc > 0 ? strrchr(argv[0], '/') : NULL;
	base = base ? base + 1 : (argc > 0 ? argv[0] : "wotkit");
	if (strcmp(base, "wotkit-sopv") == 0) {
		cli_prog = "wotkit-sopv";
		return cmd_sopv(argc, argv);
	}
	if (strcmp(base, "wotkit-gpg") == 0) {
		cli_prog = "wotkit-gpg";
		mapguard_setup(cli_prog, 2);   /* gpg's error status */
		return cmd_gpg(argc, argv);
	}
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "version") == 0 || strcmp(argv[1], "--version") == 0) {
		printf("wotkit %s\n", WOTKIT_VERSION);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++)
		if (strcmp(argv[1], subcmds[i].name) == 0)
			return subcmds[i].fn(argc - 1, argv + 1);
	cli_msg(NULL, "unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
