/*
 * inspect.c - `wotkit inspect [--at TIME] [--json] KEYRING...`: every
 * certificate evaluated at the reference time: primary key, user IDs and
 * subkeys with their state, flags and expiry, and why a key cannot sign.
 * One front end on pgp/eval.h; exit 0, or 2 for unreadable/malformed input.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "dump.h"
#include "vout.h"
#include "pgp/eval.h"

static const char *
state_word(pgp_err e)
{
	switch (e) {
	case PGP_OK: return "valid";
	case PGP_ERR_EXPIRED: return "expired";
	case PGP_ERR_REVOKED: return "revoked";
	case PGP_ERR_POLICY: return "refused by policy";
	case PGP_ERR_NOT_YET: return "not valid yet";
	default: return "unusable";
	}
}

static void
flags_text(char *b, size_t n, uint8_t f)
{
	snprintf(b, n, "%s%s%s%s%s", f & PGP_KF_CERTIFY ? "C" : "", f & PGP_KF_SIGN ? "S" : "",
	    f & (PGP_KF_ENCRYPT_COMMS | PGP_KF_ENCRYPT_STORAGE) ? "E" : "", f & PGP_KF_AUTH ? "A" : "",
	    f ? "" : "-");
}

static void
json_key(FILE *f, const pgp_key *k, const pgp_keystate *ks)
{
	char t[32], fl[8];
	fputs("{\"fingerprint\": \"", f);
	vout_fpr(f, &k->fpr);
	fprintf(f, "\", \"version\": %u, \"algo\": \"%s\", \"bits\": %u, ", k->version,
	    pgp_pk_name(k->algo), k->bits);
	cli_format_time(t, sizeof t, k->created);
	fprintf(f, "\"created\": \"%s\", ", t);
	if (ks->expires) {
		cli_format_time(t, sizeof t, ks->expires);
		fprintf(f, "\"expires\": \"%s\", ", t);
	} else
		fputs("\"expires\": null, ", f);
	flags_text(fl, sizeof fl, ks->flags);
	fprintf(f, "\"state\": \"%s\", \"status\": \"%s\", \"flags\": \"%s\", \"can_sign\": %s, \"reason\": ",
	    state_word(ks->status), pgp_errname(ks->status), fl, ks->sign_ok && ks->status == PGP_OK ? "true" : "false");
	if (ks->reason || ks->sign_reason) {
		fputc('"', f);
		json_escape(f, (const uint8_t *)(ks->reason ? ks->reason : ks->sign_reason),
		    strlen(ks->reason ? ks->reason : ks->sign_reason));
		fputs("\"}", f);
	} else
		fputs("null}", f);
}

static void
human_key(FILE *f, const char *what, const pgp_key *k, const pgp_keystate *ks)
{
	char t[32], fl[8];
	flags_text(fl, sizeof fl, ks->flags);
	fprintf(f, "%s %s %s%u [%s] ", what, pgp_pk_name(k->algo), "", k->bits, fl);
	vout_fpr(f, &k->fpr);
	cli_format_time(t, sizeof t, k->created);
	fprintf(f, "\n    created %s", t);
	if (ks->expires) {
		cli_format_time(t, sizeof t, ks->expires);
		fprintf(f, ", expires %s", t);
	}
	fprintf(f, ": %s", state_word(ks->status));
	if (ks->reason)
		fprintf(f, " (%s)", ks->reason);
	else if (!ks->sign_ok && ks->sign_reason && (ks->flags & PGP_KF_SIGN))
		fprintf(f, "; cannot sign: %s", ks->sign_reason);
	fputc('\n', f);
}

int
cmd_inspect(int argc, char **argv)
{
	int i, json = 0, rc = EXIT_USAGE, first = 1;
	int64_t now = (int64_t)time(NULL), at = now;
	pgp_certset *set = NULL;
	pgp_certsrc src;
	pgp_policy pol;
	size_t c, nfiles = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--at") == 0 && i + 1 < argc) {
			if (cli_parse_time(argv[++i], now, &at) != 0) {
				fprintf(stderr, "wotkit inspect: bad time '%s'\n", argv[i]);
				return EXIT_USAGE;
			}
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "usage: wotkit inspect [--at TIME] [--json] KEYRING...\n");
			return EXIT_USAGE;
		} else
			nfiles++;
	}
	if (nfiles == 0) {
		fprintf(stderr, "usage: wotkit inspect [--at TIME] [--json] KEYRING...\n");
		return EXIT_USAGE;
	}
	if (pgp_certset_new(&set) != PGP_OK)
		return EXIT_USAGE;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--at") == 0) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		if (certs_load(set, argv[i]) != 0)
			goto out;
	}
	pgp_policy_init(&pol);
	pgp_certset_source(set, &src);
	if (json)
		fputs("{\"certificates\": [", stdout);
	for (c = 0; c < pgp_certset_count(set); c++) {
		const pgp_cert *cert = pgp_certset_get(set, c);
		pgp_certeval ev;
		uint32_t k;
		if (pgp_cert_eval(&ev, cert, &src, at, &pol) != PGP_OK)
			goto out;
		if (json) {
			fputs(first ? "\n{\"primary\": " : ",\n{\"primary\": ", stdout);
			first = 0;
			json_key(stdout, &cert->primary, &ev.primary);
			fputs(", \"user_ids\": [", stdout);
			for (k = 0; k < cert->nuids; k++) {
				fputs(k ? ", {\"value\": \"" : "{\"value\": \"", stdout);
				json_escape(stdout, cert->uids[k].data.p, cert->uids[k].is_attr ? 0 : cert->uids[k].data.len);
				fprintf(stdout, "\", \"attribute\": %s, \"primary\": %s, \"state\": \"%s\"}",
				    cert->uids[k].is_attr ? "true" : "false", (int)k == ev.primary_uid ? "true" : "false",
				    state_word(ev.uids[k].status));
			}
			fputs("], \"subkeys\": [", stdout);
			for (k = 0; k < cert->nsubs; k++) {
				if (k)
					fputs(", ", stdout);
				json_key(stdout, &cert->subs[k].key, &ev.subs[k]);
			}
			fputs("]}", stdout);
		} else {
			human_key(stdout, "pub", &cert->primary, &ev.primary);
			for (k = 0; k < cert->nuids; k++) {
				const pgp_uidc *u = &cert->uids[k];
				fputs(u->is_attr ? "uat " : "uid ", stdout);
				if (u->is_attr)
					printf("[attribute, %zu octets]", u->data.len);
				else
					fwrite(u->data.p, 1, u->data.len, stdout);
				printf(": %s%s\n", state_word(ev.uids[k].status),
				    (int)k == ev.primary_uid ? " (primary)" : "");
			}
			for (k = 0; k < cert->nsubs; k++) {
				pgp_keystate ks = ev.subs[k];
				if (ev.primary.status != PGP_OK && ks.status == PGP_OK) {
					/* a subkey is no better than its primary key */
					ks.status = ev.primary.status;
					ks.reason = "primary key not valid";
				}
				human_key(stdout, "sub", &cert->subs[k].key, &ks);
			}
			putchar('\n');
		}
		pgp_certeval_release(&ev);
	}
	if (json)
		fputs("\n]}\n", stdout);
	rc = EXIT_OK;
out:
	pgp_certset_free(set);
	return rc;
}
