/*
 * verify.c - `wotkit verify`: detached, inline-signed and cleartext-signed
 * input against keyring files/directories. One front end on pgp/verify.h.
 *
 *   wotkit verify [--keyring FILE|DIR]... [--at TIME] [--not-before T]
 *                 [--not-after T] [--signatures N] [--json] [--output FILE]
 *                 [--policy-as-of TIME] [--allow-sha1] [--policy FILE]
 *                 SIG [DATA|-]          detached
 *                 MESSAGE|-             inline-signed or cleartext-signed
 *
 * Exit 0 when good signatures come from at least N (default 1) distinct
 * signers (certificates, by primary key fingerprint: the same signature
 * twice, or a primary key and its subkey, are one signer), 1 when not,
 * 2 for usage errors and unreadable or malformed input.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "certs.h"
#include "keyring/kr.h"
#include "cli.h"
#include "cmds.h"
#include "out.h"
#include "vout.h"
#include "pgp/pgp.h"

static void
usage(void)
{
	fprintf(stderr,
	    "usage: wotkit verify [--keyring FILE|DIR]... [--at TIME] [--not-before TIME]\n"
	    "           [--not-after TIME] [--signatures N] [--json] [--output FILE]\n"
	    "           [--policy-as-of TIME] [--allow-sha1] [--policy FILE]\n"
	    "           SIG [DATA|-]  |  MESSAGE|-\n");
}

/* Write the verified content; nothing is written unless verification passed. */
static int
write_output(const char *path, pgp_view content)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	if (f == NULL) {
		cli_msg(path, "%s", strerror(errno));
		return -1;
	}
	if (content.len && fwrite(content.p, 1, content.len, f) != content.len) {
		cli_msg(path, "write failed");
		if (f != stdout)
			fclose(f);
		return -1;
	}
	if (f != stdout ? fclose(f) != 0 : fflush(f) != 0) {
		cli_msg(path, "write failed");
		return -1;
	}
	return 0;
}

int
cmd_verify(int argc, char **argv)
{
	const char *keyrings[64], *pos[3], *output = NULL, *policy_file = NULL, *val;
	size_t nkeyrings = 0, npos = 0;
	int i, json = 0, rc = EXIT_USAGE, allow_sha1 = 0;
	long need = 1;
	int64_t now = (int64_t)time(NULL);
	pgp_verify_opts opts;
	pgp_policy pol;
	certs_ring ring;
	char defring[4096];
	pgp_verifier *v = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	cli_file sig = {0}, msg = {0};
	int64_t at = now, nb = INT64_MIN, na = INT64_MAX, pol_at = 0;
	static char errbuf[4096];

	/* the human report is many small writes: one write(2) per line, not
	 * per fragment (a verification through the keyring file is ~1 ms) */
	(void)setvbuf(stderr, errbuf, _IOLBF, sizeof errbuf);
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			for (i++; i < argc && npos < 3; i++)
				pos[npos++] = argv[i];
			break;
		} else if (cli_opt_value(argc, argv, &i, "--keyring", &val)) {
			if (!val)
				goto novalue;
			if (nkeyrings == sizeof keyrings / sizeof keyrings[0]) {
				cli_msg("verify", "too many --keyring options");
				return EXIT_USAGE;
			}
			keyrings[nkeyrings++] = val;
		} else if (cli_opt_value(argc, argv, &i, "--at", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, now, &at) != 0)
				goto badtime;
		} else if (cli_opt_value(argc, argv, &i, "--not-before", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, now, &nb) != 0)
				goto badtime;
		} else if (cli_opt_value(argc, argv, &i, "--not-after", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, now, &na) != 0)
				goto badtime;
		} else if (cli_opt_value(argc, argv, &i, "--policy-as-of", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, now, &pol_at) != 0)
				goto badtime;
		} else if (cli_opt_value(argc, argv, &i, "--signatures", &val)) {
			char *end;
			if (!val)
				goto novalue;
			need = strtol(val, &end, 10);
			if (*end || need < 1 || need > 1000) {
				cli_msg("verify", "--signatures needs a number from 1 to 1000 "
				    "(of distinct signing certificates)");
				return EXIT_USAGE;
			}
		} else if (cli_opt_value(argc, argv, &i, "--output", &val)) {
			if (!val)
				goto novalue;
			output = val;
		} else if (cli_opt_value(argc, argv, &i, "--policy", &val)) {
			if (!val)
				goto novalue;
			policy_file = val;
		} else if (strcmp(a, "--json") == 0) {
			json = 1;
		} else if (strcmp(a, "--allow-sha1") == 0) {
			allow_sha1 = 1;
		} else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			usage();
			return EXIT_OK;
		} else if (a[0] == '-' && a[1] != '\0') {
			cli_msg("verify", "unknown option %s", a);
			usage();
			return EXIT_USAGE;
		} else if (npos < 3) {
			pos[npos++] = a;
		}
	}
	if (npos < 1 || npos > 2) {
		usage();
		return EXIT_USAGE;
	}
	if (nkeyrings == 0) {
		/* the default wotkit keyring, when there is one */
		if (certs_default_keyring(defring, sizeof defring) != 0 ||
		    access(defring, R_OK) != 0) {
			cli_msg("verify", "no --keyring given (and no keyring at $WOTKIT_KEYRING "
			    "or the default location)");
			return EXIT_USAGE;
		}
		keyrings[nkeyrings++] = defring;
	}
	if (npos == 2 && output) {
		cli_msg("verify", "--output is for inline and cleartext messages");
		return EXIT_USAGE;
	}
	if (json && output && strcmp(output, "-") == 0) {
		cli_msg("verify", "--json and --output - both want stdout");
		return EXIT_USAGE;
	}

	pgp_policy_init(&pol);
	pol.as_of = pol_at;
	if (allow_sha1) {
		pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_COLLISION);
		pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	}
	if (policy_file) {
		cli_file pf;
		if (cli_file_open(&pf, policy_file) != 0)
			return EXIT_USAGE;
		e = pgp_policy_load(&pol, pf.p, pf.len, &d);
		cli_file_close(&pf);
		if (e != PGP_OK) {
			/* "FILE:LINE: what", as compilers say it */
			fprintf(stderr, "%s: ", cli_prog);
			out_esc_text(stderr, policy_file);
			fprintf(stderr, ":%zu: %s\n", d.offset, d.what ? d.what : "malformed line");
			return EXIT_USAGE;
		}
	}
	pgp_verify_opts_init(&opts, at);
	opts.not_before = nb;
	opts.not_after = na;
	opts.policy = &pol;

	/* a raw keyring is lazy: framed once, and only the certificates a
	 * signature names are built (pgp_certset_set_lazy) */
	memset(&ring, 0, sizeof ring);
	if (certs_ring_open(&ring, keyrings, nkeyrings, 1) != 0)
		goto out;

	if (npos == 2) {
		if (cli_file_open(&sig, pos[0]) != 0)
			goto out;
		if ((e = pgp_verifier_new(&v, sig.p, sig.len, &d)) != PGP_OK) {
			cli_report(pos[0], e, &d);
			goto out;
		}
		if (cli_feed_verifier(v, pos[1]) != 0)
			goto out;
		if ((e = pgp_verifier_finish(v, &ring.src, &opts)) != PGP_OK) {
			cli_report(pos[0], e, NULL);
			goto out;
		}
	} else {
		if (cli_file_open(&msg, pos[0]) != 0)
			goto out;
		if ((e = pgp_verify_message(&v, msg.p, msg.len, &ring.src, &opts, &d)) != PGP_OK) {
			cli_report(pos[0], e, &d);
			goto out;
		}
	}
	if (json)
		vout_json(stdout, pos[0], v, (size_t)need, at);
	else
		vout_human(stderr, v, (size_t)need, at);
	/* N-of-M counts signers, not signature packets */
	rc = pgp_verifier_good_signers(v) >= (size_t)need ? EXIT_OK : EXIT_FAIL;
	if (rc == EXIT_OK && output && write_output(output, pgp_verifier_content(v)) != 0)
		rc = EXIT_USAGE;
out:
	certs_ring_warn(&ring);  /* a damaged keyring file: say where */
	pgp_verifier_free(v);
	cli_file_close(&sig);
	cli_file_close(&msg);
	certs_ring_close(&ring);
	return rc;
novalue:
	cli_msg("verify", "%s needs a value", argv[i]);
	return EXIT_USAGE;
badtime:
	cli_msg("verify", "bad time '%s' (use YYYY-MM-DD[THH:MM:SS[Z]], @UNIX, or now)",
	    val ? val : "");
	return EXIT_USAGE;
}
