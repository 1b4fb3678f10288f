/*
 * inspect.c - `wotkit inspect [--at TIME] [--json] KEYRING...`: every
 * certificate evaluated at the reference time: primary key, user IDs and
 * subkeys with their state, flags and expiry, and why a key cannot sign.
 * One front end on pgp/eval.h; exit 0, or 2 for unreadable/malformed input.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <stdlib.h>
#include "certs.h"
#include "keyring/kr.h"
#include "cli.h"
#include "cmds.h"
#include "out.h"
#include "vout.h"
#include "pgp/pgp.h"

static const char *
state_word(pgp_err e)
{
	switch (e) {
	case PGP_OK: return "valid";
	case PGP_ERR_EXPIRED: return "expired";
	case PGP_ERR_REVOKED: return "revoked";
	case PGP_ERR_POLICY: return "refused by policy";
	case PGP_ERR_NOT_YET: return "not valid yet";
	case PGP_ERR_LIMIT: return "refused (limit)";
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
json_key(out_ctx *o, const char *k, const pgp_key *key, const pgp_keystate *ks)
{
	char fl[8];
	out_open(o, k, NULL);
	out_hex(o, "fingerprint", key->fpr.v, key->fpr.len, 0);
	out_int(o, "version", key->version);
	out_str0(o, "algo", pgp_pk_name(key->algo));
	out_int(o, "bits", key->bits);
	out_time(o, "created", key->created);
	out_time_opt(o, "expires", ks->expires);
	flags_text(fl, sizeof fl, ks->flags);
	out_text(o, "state", "%s", state_word(ks->status));
	out_text(o, "status", "%s", pgp_errname(ks->status));
	out_text(o, "flags", "%s", fl);
	out_bool(o, "can_sign", ks->sign_ok && ks->status == PGP_OK);
	out_str0(o, "reason", ks->reason ? ks->reason : ks->sign_reason);
	out_close(o);
}

static void
human_key(FILE *f, const char *what, const pgp_key *k, const pgp_keystate *ks)
{
	char t[32], fl[8];
	flags_text(fl, sizeof fl, ks->flags);
	fprintf(f, "%s %s %s%u [%s] ", what, pgp_pk_name(k->algo), "", k->bits, fl);
	vout_fpr(f, &k->fpr);
	pgp_time_format(t, sizeof t, k->created, 0);
	fprintf(f, "\n    created %s", t);
	if (ks->expires) {
		pgp_time_format(t, sizeof t, ks->expires, 0);
		fprintf(f, ", expires %s", t);
	}
	fprintf(f, ": %s", state_word(ks->status));
	if (ks->reason) {
		fputs(" (", f);
		out_esc_text(f, ks->reason);
		fputc(')', f);
	} else if (!ks->sign_ok && ks->sign_reason && (ks->flags & PGP_KF_SIGN)) {
		fputs("; cannot sign: ", f);
		out_esc_text(f, ks->sign_reason);
	}
	fputc('\n', f);
}

/* A key that a certificate refused for a limit also holds (the key set
 * answers PGP_ERR_LIMIT for it): shown as verify treats it. */
static void
refused_key(const pgp_certsrc *src, const pgp_key *key, pgp_keystate *ks)
{
	const pgp_cert *one[1];
	size_t n = 0;
	if (pgp_certsrc_by_fpr(src, &key->fpr, one, 1, &n) != PGP_ERR_LIMIT)
		return;
	ks->status = PGP_ERR_LIMIT;
	ks->reason = "a certificate holding this key was refused for a limit (see the warning)";
	ks->sign_ok = 0;
}

int
cmd_inspect(int argc, char **argv)
{
	int i, json = 0, rc = EXIT_USAGE;
	int64_t now = (int64_t)time(NULL), at = now;
	certs_ring ring;
	const char **files;
	pgp_policy pol;
	out_ctx o;
	size_t c, ncerts, nfiles = 0;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--at") == 0 && i + 1 < argc) {
			if (cli_parse_time(argv[++i], now, &at) != 0) {
				fputs("wotkit inspect: bad time '", stderr);
				out_esc_text(stderr, argv[i]);
				fputs("'\n", stderr);
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
	if ((files = calloc(nfiles, sizeof *files)) == NULL)
		return EXIT_USAGE;
	for (i = 1, nfiles = 0; i < argc; i++) {
		if (strcmp(argv[i], "--at") == 0) {
			i++;
			continue;
		}
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		files[nfiles++] = argv[i];
	}
	i = certs_ring_open(&ring, files, nfiles, 0);
	free(files);
	if (i != 0)
		return EXIT_USAGE;
	pgp_policy_init(&pol);
	ncerts = ring.kr ? kr_count(ring.kr) : pgp_certset_count(ring.set);
	out_init(&o, stdout, 1);
	if (json) {
		out_open(&o, NULL, NULL);
		out_arr_open(&o, "certificates");
	}
	for (c = 0; c < ncerts; c++) {
		const pgp_cert *cert = ring.kr ? NULL : pgp_certset_get(ring.set, c);
		pgp_certeval ev;
		uint32_t k;
		pgp_err e;
		if (ring.kr && (e = kr_cert(ring.kr, c, &cert)) != PGP_OK) {
			cli_report(ring.name, e, kr_last_error(ring.kr));
			goto out;
		}
		if (pgp_cert_eval(&ev, cert, &ring.src, at, &pol) != PGP_OK)
			goto out;
		/* key material a refused certificate also holds: verify says limit */
		refused_key(&ring.src, &cert->primary, &ev.primary);
		for (k = 0; k < cert->nsubs; k++)
			refused_key(&ring.src, &cert->subs[k].key, &ev.subs[k]);
		if (json) {
			out_open(&o, NULL, NULL);
			json_key(&o, "primary", &cert->primary, &ev.primary);
			out_bool(&o, "revoker_unchecked", ev.revoker_unchecked);
			out_arr_open(&o, "user_ids");
			for (k = 0; k < cert->nuids; k++) {
				const pgp_uidc *u = &cert->uids[k];
				out_open(&o, NULL, NULL);
				/* a user ID that is not UTF-8 also gets "value_hex" */
				out_str(&o, "value", u->data.p, u->is_attr ? 0 : u->data.len);
				out_bool(&o, "attribute", u->is_attr);
				out_bool(&o, "primary", (int)k == ev.primary_uid);
				out_text(&o, "state", "%s", state_word(ev.uids[k].status));
				out_close(&o);
			}
			out_arr_close(&o);
			out_arr_open(&o, "subkeys");
			for (k = 0; k < cert->nsubs; k++)
				json_key(&o, NULL, &cert->subs[k].key, &ev.subs[k]);
			out_arr_close(&o);
			out_close(&o);
		} else {
			human_key(stdout, "pub", &cert->primary, &ev.primary);
			if (ev.revoker_unchecked)
				puts("    note: a designated revoker revoked this key; the revoker's key is not\n"
				    "          in the keyrings, so the revocation could not be checked");
			for (k = 0; k < cert->nuids; k++) {
				const pgp_uidc *u = &cert->uids[k];
				fputs(u->is_attr ? "uat " : "uid ", stdout);
				if (u->is_attr)
					printf("[attribute, %zu octets]", u->data.len);
				else
					out_esc_human(stdout, u->data.p, u->data.len);
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
	if (json) {
		out_arr_close(&o);
		out_close(&o);
		out_finish(&o);
	}
	rc = EXIT_OK;
out:
	certs_ring_close(&ring);
	return rc;
}
