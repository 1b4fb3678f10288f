/*
 * submission.c - `wotkit submission`: pre-validation of a key submitted to
 * a pgpkeys.git-style keyring (docs/submission.md).
 *
 *   wotkit submission check KEY.asc [--email ADDR] [--nonce TEXT|@FILE
 *       --nonce-sig SIG] [--keyring K | --no-keyring] [--root FPR]
 *       [--maxdepth N] [--at TIME] [--json]
 *   wotkit submission nonce EMAIL [--at TIME] [--json]
 *
 * check prints one line per check (PASS, WARN, SKIP, FAIL) and a result:
 * exit 0 when nothing failed (warnings allowed), 1 when anything failed,
 * 2 usage or I/O errors. nonce prints a fresh challenge and the commands
 * that sign it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "keymail.h"
#include "out.h"
#include "submission.h"

#define SUB_DEFAULT_MAXDEPTH 4  /* wotmate's --maxdepth, as `wotkit wot path` */

static const char usage_text[] =
    "usage: wotkit submission check KEY.asc [--email ADDR] [--nonce TEXT|@FILE --nonce-sig SIG]\n"
    "                               [--keyring K | --no-keyring] [--root FPR] [--maxdepth N]\n"
    "                               [--at TIME] [--json]\n"
    "       wotkit submission nonce EMAIL [--at TIME] [--json]\n";

static const char *const verdict_words[] = {"PASS", "WARN", "SKIP", "FAIL"};
static const char *const verdict_json[] = {"pass", "warn", "skip", "fail"};

static int
usage(void)
{
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

/* ---- nonce ---- */

static int
cmd_nonce(int argc, char **argv)
{
	const char *addr = NULL, *val;
	int64_t now = (int64_t)time(NULL), t = now;
	char nonce[512], when[32];
	int a, json = 0;

	for (a = 1; a < argc; a++) {
		if (cli_opt_value(argc, argv, &a, "--at", &val)) {
			if (!val || cli_parse_time(val, now, &t) != 0) {
				cli_msg("submission nonce", "bad time '%s'", val ? val : "");
				return EXIT_USAGE;
			}
		} else if (strcmp(argv[a], "--json") == 0) {
			json = 1;
		} else if (argv[a][0] == '-' || addr != NULL) {
			return usage();
		} else {
			addr = argv[a];
		}
	}
	if (addr == NULL)
		return usage();
	if (!keymail_safe((const uint8_t *)addr, strlen(addr))) {
		cli_msg("submission nonce", "'%s' is not an address of the form local@domain "
		    "(letters, digits, . _ + -)", addr);
		return EXIT_USAGE;
	}
	if (sub_nonce_make(nonce, sizeof nonce, addr, t) != 0) {
		cli_msg("submission nonce", "no random numbers (libsodium failed to initialise)");
		return EXIT_USAGE;
	}
	pgp_time_format(when, sizeof when, t, 0);
	if (json) {
		out_ctx o;
		char c1[600], c2[300], c3[700];
		const char *cmds[3];
		snprintf(c1, sizeof c1, "printf '%%s' '%s' > wotkit-nonce.txt", nonce);
		snprintf(c2, sizeof c2, "gpg --local-user %s --armor --detach-sign wotkit-nonce.txt",
		    addr);
		snprintf(c3, sizeof c3, "wotkit submission check KEY.asc --nonce '%s' --nonce-sig "
		    "wotkit-nonce.txt.asc", nonce);
		cmds[0] = c1;
		cmds[1] = c2;
		cmds[2] = c3;
		out_init(&o, stdout, 1);
		out_open(&o, NULL, NULL);
		out_str0(&o, "email", addr);
		out_time(&o, "issued", t);
		out_str0(&o, "nonce", nonce);
		out_list(&o, "commands", cmds, 3);
		out_close(&o);
		out_finish(&o);
		return EXIT_OK;
	}
	printf("Nonce for %s, issued %s:\n\n%s\n\n", addr, when, nonce);
	printf("The submitter signs exactly this text (one line, no newline at the end) with the\n"
	    "key being submitted, and sends the signature back with the key:\n\n");
	printf("    printf '%%s' '%s' > wotkit-nonce.txt\n", nonce);
	printf("    gpg --local-user %s --armor --detach-sign wotkit-nonce.txt\n", addr);
	printf("    gpg -a --export %s > key.asc\n\n", addr);
	printf("(this writes wotkit-nonce.txt.asc). Then check both:\n\n");
	printf("    wotkit submission check key.asc --nonce '%s' \\\n"
	    "        --nonce-sig wotkit-nonce.txt.asc\n", nonce);
	return EXIT_OK;
}

/* ---- check ---- */

typedef struct check_opts {
	const char *file, *email, *nonce, *nonce_sig, *keyring, *root;
	int no_keyring, json;
	unsigned maxdepth;
	int64_t t;
} check_opts;

static void
print_human(const check_opts *co, const sub_report *r, const sub_key *k)
{
	size_t i, count[4] = {0, 0, 0, 0};
	char when[32];

	pgp_time_format(when, sizeof when, co->t, 0);
	fputs("submission: ", stdout);
	out_esc_text(stdout, co->file);
	printf(" at %s\n", when);
	if (k->cert) {
		char fpr[2 * PGP_FPR_MAX + 1];
		pgp_hex_encode(fpr, k->cert->primary.fpr.v, k->cert->primary.fpr.len);
		printf("key: %s\n", fpr);
	}
	for (i = 0; i < r->n; i++) {
		count[r->v[i].verdict]++;
		printf("%s %s: %s\n", verdict_words[r->v[i].verdict], r->v[i].name, r->v[i].text);
	}
	if (r->dropped)
		printf("(%zu more checks not shown)\n", r->dropped);
	printf("result: %s (%zu failed, %zu warnings, %zu passed, %zu skipped)\n",
	    sub_failed(r) ? "FAIL" : "PASS", count[SUB_FAIL], count[SUB_WARN], count[SUB_PASS],
	    count[SUB_SKIP]);
}

static void
print_json(const check_opts *co, const sub_report *r, const sub_key *k)
{
	out_ctx o;
	size_t i;

	out_init(&o, stdout, 1);
	out_open(&o, NULL, NULL);
	out_str0(&o, "file", co->file);
	out_time(&o, "at", co->t);
	if (k->cert)
		out_hex(&o, "fingerprint", k->cert->primary.fpr.v, k->cert->primary.fpr.len, 0);
	else
		out_null(&o, "fingerprint");
	out_text(&o, "result", "%s", sub_failed(r) ? "fail" : "pass");
	out_arr_open(&o, "checks");
	for (i = 0; i < r->n; i++) {
		out_open(&o, NULL, NULL);
		out_text(&o, "check", "%s", r->v[i].name);
		out_text(&o, "verdict", "%s", verdict_json[r->v[i].verdict]);
		out_str0(&o, "text", r->v[i].text);
		out_close(&o);
	}
	out_arr_close(&o);
	out_int(&o, "not_shown", (long long)r->dropped);
	out_close(&o);
	out_finish(&o);
}

/* The nonce text: the argument itself, or the exact octets of @FILE. */
static int
nonce_text(const char *arg, cli_file *f, const uint8_t **p, size_t *n)
{
	memset(f, 0, sizeof *f);
	if (arg[0] == '@') {
		if (cli_file_open(f, arg + 1) != 0)
			return -1;
		*p = f->p;
		*n = f->len;
	} else {
		*p = (const uint8_t *)arg;
		*n = strlen(arg);
	}
	return 0;
}

static int
cmd_check(int argc, char **argv)
{
	check_opts co;
	sub_report *r;
	sub_key k;
	cli_file kf, nf, sf;
	pgp_policy pol;
	const char *val, *email;
	const uint8_t *ntext = NULL;
	size_t nlen = 0;
	char nonce_addr[KEYMAIL_MAX + 1] = "", defpath[4096];
	int64_t now = (int64_t)time(NULL), issued;
	int a, rc = EXIT_USAGE, have_nf = 0, have_sf = 0;

	memset(&co, 0, sizeof co);
	co.t = now;
	co.maxdepth = SUB_DEFAULT_MAXDEPTH;
	for (a = 1; a < argc; a++) {
		const char **dst = NULL;
		if (cli_opt_value(argc, argv, &a, "--email", &val))
			dst = &co.email;
		else if (cli_opt_value(argc, argv, &a, "--nonce-sig", &val))
			dst = &co.nonce_sig;
		else if (cli_opt_value(argc, argv, &a, "--nonce", &val))
			dst = &co.nonce;
		else if (cli_opt_value(argc, argv, &a, "--keyring", &val))
			dst = &co.keyring;
		else if (cli_opt_value(argc, argv, &a, "--root", &val))
			dst = &co.root;
		else if (cli_opt_value(argc, argv, &a, "--at", &val)) {
			if (!val || cli_parse_time(val, now, &co.t) != 0) {
				cli_msg("submission check", "bad time '%s'", val ? val : "");
				return EXIT_USAGE;
			}
			continue;
		} else if (cli_opt_value(argc, argv, &a, "--maxdepth", &val)) {
			char *end;
			unsigned long m = val ? strtoul(val, &end, 10) : 0;
			if (!val || *end || m < 1 || m > 16) {
				cli_msg("submission check", "--maxdepth needs a number from 1 to 16");
				return EXIT_USAGE;
			}
			co.maxdepth = (unsigned)m;
			continue;
		} else if (strcmp(argv[a], "--no-keyring") == 0) {
			co.no_keyring = 1;
			continue;
		} else if (strcmp(argv[a], "--json") == 0) {
			co.json = 1;
			continue;
		} else if ((argv[a][0] == '-' && argv[a][1]) || co.file) {
			return usage();
		} else {
			co.file = argv[a];
			continue;
		}
		if (!val)
			return usage();
		*dst = val;
	}
	if (!co.file || (!co.nonce != !co.nonce_sig) || (co.no_keyring && co.keyring))
		return usage();
	if ((r = calloc(1, sizeof *r)) == NULL)
		return EXIT_USAGE;
	memset(&k, 0, sizeof k);
	pgp_policy_init(&pol);
	if (cli_file_open(&kf, co.file) != 0) {
		free(r);
		return EXIT_USAGE;
	}
	if (co.nonce) {
		if (nonce_text(co.nonce, &nf, &ntext, &nlen) != 0)
			goto out;
		have_nf = co.nonce[0] == '@';
		if (cli_file_open(&sf, co.nonce_sig) != 0)
			goto out;
		have_sf = 1;
		if (sub_nonce_parse(ntext, nlen, nonce_addr, sizeof nonce_addr, &issued) != 0)
			nonce_addr[0] = '\0';
	}
	if (sub_parse(r, kf.p, kf.len, &k) != 0) {
		if (!sub_failed(r)) {
			/* only out of memory stops the parse without a failed check */
			cli_msg("submission check", "out of memory");
			goto out;
		}
		sub_add(r, "rest", SUB_SKIP, "the other checks need exactly one readable certificate");
	} else {
		if (sub_check_key(r, &k, co.t, &pol) != 0)
			goto out;
		/* the address: --email, else the nonce's; both must agree */
		email = co.email ? co.email : (nonce_addr[0] ? nonce_addr : NULL);
		if (co.email && nonce_addr[0] &&
		    pgp_email_cmp((const uint8_t *)co.email, strlen(co.email),
		    (const uint8_t *)nonce_addr, strlen(nonce_addr)) != 0)
			sub_add(r, "email", SUB_FAIL, "--email and the nonce name different addresses "
			    "(the nonce is for %s)", nonce_addr);
		if (email)
			sub_check_email(r, &k, email, co.t, &pol);
		else
			sub_add(r, "email", SUB_SKIP, "no address to match (give --email ADDR or a nonce)");
		if (co.nonce)
			sub_check_nonce(r, &k, ntext, nlen, sf.p, sf.len, co.t, &pol);
		else
			sub_add(r, "nonce", SUB_SKIP, "no nonce challenge given (--nonce, --nonce-sig)");
		if (co.no_keyring) {
			sub_add(r, "path", SUB_SKIP, "--no-keyring: the path to the root is not checked");
		} else {
			const char *ring = co.keyring;
			if (ring == NULL && certs_default_keyring(defpath, sizeof defpath) == 0 &&
			    access(defpath, R_OK) == 0)
				ring = defpath;
			if (ring == NULL)
				sub_add(r, "path", SUB_SKIP, "no keyring (give --keyring K, or build the "
				    "default one with wotkit keyring build): the path to the root is not "
				    "checked");
			else if (sub_check_path(r, &k, ring, co.root, co.t, &pol, co.maxdepth) != 0)
				goto out;
		}
	}
	if (co.json)
		print_json(&co, r, &k);
	else
		print_human(&co, r, &k);
	rc = sub_failed(r) ? EXIT_FAIL : EXIT_OK;
out:
	sub_key_free(&k);
	if (have_nf)
		cli_file_close(&nf);
	if (have_sf)
		cli_file_close(&sf);
	cli_file_close(&kf);
	free(r);
	return rc;
}

int
cmd_submission(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (argc >= 2 && strcmp(argv[1], "nonce") == 0)
		return cmd_nonce(argc - 1, argv + 1);
	return usage();
}
