/*
 * keyring.c - `wotkit keyring`: build, list, show, stats and export of the
 * wotkit keyring file (keyring/kr.h, docs/keyring-format.md).
 *
 *   wotkit keyring build [-o KEYRING] [--root FPR] [--at TIME] [--threads N]
 *                        [--rev REV] [--stamp] SRC...
 *   wotkit keyring list  [--keyring KEYRING] [--json]
 *   wotkit keyring show  [--keyring KEYRING] [--json] QUERY
 *   wotkit keyring stats [--keyring KEYRING] [--json]
 *   wotkit keyring export ...            (cmd_keyring_export)
 *   wotkit keyring check ...             (cmd_keyring_check)
 *
 * The keyring defaults to $WOTKIT_KEYRING, else
 * $XDG_DATA_HOME/wotkit/keyring.wk, else ~/.local/share/wotkit/keyring.wk.
 * A build writes a temporary file in the keyring's directory, fsyncs it,
 * renames it over the keyring and fsyncs the directory: a crash at any
 * moment leaves the previous keyring or the new one, never a mix.
 * Exit 0 ok, 1 nothing matched (show), 2 usage, I/O or a damaged keyring.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "atomic.h"
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "krbuild.h"
#include "krsrc.h"
#include "out.h"
#include "keyring/kr.h"
#include "pgp/pgp.h"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: wotkit keyring build [-o KEYRING] [--root FPR] [--at TIME] [--threads N]\n"
	    "                            [--rev REV] [--stamp] SRC...\n"
	    "       wotkit keyring list  [--keyring KEYRING] [--json]\n"
	    "       wotkit keyring show  [--keyring KEYRING] [--json] QUERY\n"
	    "       wotkit keyring stats [--keyring KEYRING] [--json]\n"
	    "       wotkit keyring export [--keyring KEYRING] [--pgpkeys DIR] [--at TIME] [--binary]\n"
	    "                             [QUERY]\n"
	    "       wotkit keyring check [--rev REV] [--at TIME] [--list] SRC...\n");
}

/* ---- build ---- */

/* Hex digits (spaces ignored, optional 0x) into at most max octets;
 * the number of octets, or -1. */
static int
parse_hex(const char *s, uint8_t *out, size_t max)
{
	size_t n = 0;
	int hi = -1;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	for (; *s; s++) {
		int v;
		if (*s == ' ')
			continue;
		if ((v = pgp_hex_digit((unsigned char)*s)) < 0)
			return -1;
		if (hi < 0) {
			hi = v;
			continue;
		}
		if (n == max)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | v);
		hi = -1;
	}
	return hi < 0 ? (int)n : -1;
}

static int
build(int argc, char **argv)
{
	const char **srcs = NULL, *val, *outpath = NULL, *rev = NULL, *rootarg = NULL;
	char defpath[4096];
	size_t nsrc = 0;
	int a, rc = EXIT_USAGE, lr;
	int64_t now = (int64_t)time(NULL), at = now;
	long threads = 0;
	pgp_fpr root;
	int have_root = 0, stamp = 0;
	pgp_certset *set = NULL;
	krsrc_reports rep;
	kr_strip_result sr;
	kr_meta meta;
	pgp_policy pol;
	krb_opts ko;
	size_t octets = 0;
	const char *sde;

	memset(&rep, 0, sizeof rep);
	memset(&sr, 0, sizeof sr);
	if ((srcs = calloc((size_t)argc + 1, sizeof *srcs)) == NULL)
		return EXIT_USAGE;
	for (a = 1; a < argc; a++) {
		if (cli_opt_value(argc, argv, &a, "-o", &val) ||
		    cli_opt_value(argc, argv, &a, "--output", &val)) {
			if (!val)
				goto novalue;
			outpath = val;
		} else if (cli_opt_value(argc, argv, &a, "--root", &val)) {
			int n;
			if (!val)
				goto novalue;
			memset(&root, 0, sizeof root);
			n = parse_hex(val, root.v, sizeof root.v);
			if (n != 20 && n != 32) {
				cli_msg("keyring build", "--root needs a v4 (40 hex digits) or v6 "
				    "(64 hex digits) fingerprint");
				goto out;
			}
			root.len = (uint8_t)n;
			have_root = 1;
			rootarg = val;
		} else if (cli_opt_value(argc, argv, &a, "--at", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, now, &at) != 0) {
				cli_msg("keyring build", "bad time '%s'", val);
				goto out;
			}
		} else if (cli_opt_value(argc, argv, &a, "--threads", &val)) {
			char *end;
			if (!val)
				goto novalue;
			threads = strtol(val, &end, 10);
			if (*end || threads < 0 || threads > 1024) {
				cli_msg("keyring build", "--threads needs a number from 0 (all cores) to 1024");
				goto out;
			}
		} else if (cli_opt_value(argc, argv, &a, "--rev", &val)) {
			if (!val)
				goto novalue;
			rev = val;
		} else if (strcmp(argv[a], "--stamp") == 0) {
			stamp = 1;
		} else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
			usage(stdout);
			rc = EXIT_OK;
			goto out;
		} else if (argv[a][0] == '-' && argv[a][1] != '\0') {
			cli_msg("keyring build", "unknown option %s", argv[a]);
			usage(stderr);
			goto out;
		} else {
			srcs[nsrc++] = argv[a];
		}
	}
	if (nsrc == 0) {
		usage(stderr);
		goto out;
	}
	if (outpath == NULL) {
		if (certs_default_keyring(defpath, sizeof defpath) != 0) {
			cli_msg("keyring build", "no -o given and no default keyring location "
			    "($WOTKIT_KEYRING, $XDG_DATA_HOME, $HOME)");
			goto out;
		}
		outpath = defpath;
		(void)cli_mkdirs(outpath, 0700, 0); /* the default location's directories */
	}
	if (pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		cli_msg(NULL, "out of memory");
		goto out;
	}
	pgp_policy_init(&pol);
	lr = krsrc_load_at(srcs, nsrc, rev, at, &pol, set, &rep);
	krsrc_reports_print(&rep);
	if (lr < 0)
		goto out;
	/* a source that could not be read at all: no keyring without it */
	if (rep.lost) {
		cli_msg("keyring build", "%zu source%s could not be read; %s not written", rep.lost,
		    rep.lost == 1 ? "" : "s", outpath);
		goto out;
	}
	memset(&ko, 0, sizeof ko);
	ko.cmd = "keyring build";
	ko.at = at;
	ko.pol = &pol;
	ko.threads = (unsigned)threads;
	ko.root = have_root ? &root : NULL;
	ko.root_arg = rootarg;
	ko.progress = isatty(2);
	if (krb_strip(set, &ko, &sr) != 0)
		goto out;
	memset(&meta, 0, sizeof meta);
	meta.root = have_root ? &root : NULL;
	/* a build stamp only when asked for: identical inputs give identical
	 * files (SOURCE_DATE_EPOCH, when set, is the stamp: reproducible builds) */
	if (stamp) {
		meta.built_at = now;
		if ((sde = getenv("SOURCE_DATE_EPOCH")) != NULL && *sde)
			meta.built_at = strtoll(sde, NULL, 10);
	}
	/* written as it is serialized: no second copy of the certificates */
	if (krb_write(&ko, &sr, &meta, outpath, &octets) != 0)
		goto out;
	krb_summary(&ko, &sr, outpath, octets);
	rc = EXIT_OK;
out:
	kr_strip_free(&sr);
	pgp_certset_free(set);
	krsrc_reports_free(&rep);
	free(srcs);
	return rc;
novalue:
	cli_msg("keyring build", "%s needs a value", argv[a]);
	goto out;
}

/* ---- reading commands ---- */

typedef struct ropts {
	const char *keyring;
	int json;
	const char *query;
	char def[4096];
} ropts;

static int
read_opts(int argc, char **argv, const char *cmd, int want_query, ropts *o)
{
	int a;
	const char *val;
	memset(o, 0, sizeof *o);
	for (a = 1; a < argc; a++) {
		if (cli_opt_value(argc, argv, &a, "--keyring", &val)) {
			if (!val) {
				cli_msg(cmd, "--keyring needs a value");
				return -1;
			}
			o->keyring = val;
		} else if (strcmp(argv[a], "--json") == 0) {
			o->json = 1;
		} else if (argv[a][0] == '-' && argv[a][1] != '\0') {
			cli_msg(cmd, "unknown option %s", argv[a]);
			usage(stderr);
			return -1;
		} else if (want_query && o->query == NULL) {
			o->query = argv[a];
		} else {
			usage(stderr);
			return -1;
		}
	}
	if (want_query && o->query == NULL) {
		usage(stderr);
		return -1;
	}
	if (o->keyring == NULL) {
		if (certs_default_keyring(o->def, sizeof o->def) != 0) {
			cli_msg(cmd, "no --keyring given and no default keyring location");
			return -1;
		}
		o->keyring = o->def;
	}
	return 0;
}

/* Open a wotkit keyring file (only that: raw keyrings have inspect). */
static int
open_kr(certs_ring *r, const char *path)
{
	if (certs_ring_open(r, &path, 1, 0) != 0)
		return -1;
	if (r->kr == NULL) {
		cli_msg(path, "not a wotkit keyring (build one with `wotkit keyring build`)");
		certs_ring_close(r);
		return -1;
	}
	return 0;
}

static const char *
state_word(pgp_err e)
{
	switch (e) {
	case PGP_OK:
		return "valid";
	case PGP_ERR_EXPIRED:
		return "expired";
	case PGP_ERR_REVOKED:
		return "revoked";
	case PGP_ERR_NOT_YET:
		return "not yet valid";
	case PGP_ERR_POLICY:
		return "refused by policy";
	default:
		return pgp_errname(e);
	}
}

/* One certificate: fingerprint, state, user IDs, subkeys, counts. */
static int
show_cert(out_ctx *o, certs_ring *r, uint32_t i, int64_t now, const pgp_policy *pol, int full)
{
	const pgp_cert *c;
	kr_certinfo info;
	pgp_certeval ev;
	char fh[2 * PGP_FPR_MAX + 1];
	uint32_t k;
	pgp_err e;
	if ((e = kr_cert_info(r->kr, i, &info)) != PGP_OK || (e = kr_cert(r->kr, i, &c)) != PGP_OK) {
		cli_report(r->name, e, kr_last_error(r->kr));
		return -1;
	}
	if (pgp_cert_eval(&ev, c, &r->src, now, pol) != PGP_OK) {
		cli_msg(NULL, "out of memory");
		return -1;
	}
	pgp_hex_encode(fh, c->primary.fpr.v, c->primary.fpr.len);
	out_open(o, NULL, fh);
	out_text(o, "fingerprint", "%s", fh);
	out_text(o, "algorithm", "%s", pgp_pk_name(c->primary.algo));
	out_int(o, "bits", c->primary.bits);
	out_time(o, "created", c->primary.created);
	out_text(o, "state", "%s", state_word(ev.primary.status));
	if (ev.primary_uid >= 0)
		out_str(o, "primary_uid", c->uids[ev.primary_uid].data.p,
		    c->uids[ev.primary_uid].data.len);
	else
		out_null(o, "primary_uid");
	out_int(o, "certifications", info.kept_certifications);
	if (full) {
		out_arr_open(o, "user_ids");
		for (k = 0; k < c->nuids; k++) {
			const pgp_uidc *u = &c->uids[k];
			out_open(o, NULL, NULL);
			out_str(o, "value", u->data.p, u->is_attr ? 0 : u->data.len);
			out_bool(o, "attribute", u->is_attr);
			out_text(o, "state", "%s", state_word(ev.uids[k].status));
			out_close(o);
		}
		out_arr_close(o);
		out_arr_open(o, "subkeys");
		for (k = 0; k < c->nsubs; k++) {
			const pgp_key *sk = &c->subs[k].key;
			pgp_hex_encode(fh, sk->fpr.v, sk->fpr.len);
			out_open(o, NULL, NULL);
			out_text(o, "fingerprint", "%s", fh);
			out_text(o, "algorithm", "%s", pgp_pk_name(sk->algo));
			out_int(o, "bits", sk->bits);
			out_text(o, "state", "%s", state_word(ev.subs[k].status));
			out_close(o);
		}
		out_arr_close(o);
		out_int(o, "signatures_kept", info.kept_sigs);
		out_int(o, "signatures_dropped", info.dropped);
	} else {
		out_int(o, "user_ids", c->nuids);
		out_int(o, "subkeys", c->nsubs);
	}
	out_close(o);
	pgp_certeval_release(&ev);
	return 0;
}

static int
list(int argc, char **argv)
{
	ropts ro;
	certs_ring r;
	out_ctx o;
	pgp_policy pol;
	int64_t now = (int64_t)time(NULL);
	size_t i;
	int rc = EXIT_OK;
	if (read_opts(argc, argv, "keyring list", 0, &ro) != 0 || open_kr(&r, ro.keyring) != 0)
		return EXIT_USAGE;
	pgp_policy_init(&pol);
	out_init(&o, stdout, ro.json);
	if (ro.json) {
		out_open(&o, NULL, NULL);
		out_arr_open(&o, "certificates");
	}
	for (i = 0; i < kr_count(r.kr) && rc == EXIT_OK; i++) {
		if (ro.json) {
			if (show_cert(&o, &r, (uint32_t)i, now, &pol, 0) != 0)
				rc = EXIT_USAGE;
		} else {
			const pgp_cert *c;
			pgp_certeval ev;
			char fh[2 * PGP_FPR_MAX + 1];
			pgp_err e;
			if ((e = kr_cert(r.kr, i, &c)) != PGP_OK) {
				cli_report(r.name, e, kr_last_error(r.kr));
				rc = EXIT_USAGE;
				break;
			}
			if (pgp_cert_eval(&ev, c, &r.src, now, &pol) != PGP_OK) {
				rc = EXIT_USAGE;
				break;
			}
			pgp_hex_encode(fh, c->primary.fpr.v, c->primary.fpr.len);
			printf("%s %-8s ", fh, state_word(ev.primary.status));
			if (ev.primary_uid >= 0)
				out_esc_human(stdout, c->uids[ev.primary_uid].data.p,
				    c->uids[ev.primary_uid].data.len);
			else
				fputs("(no valid user ID)", stdout);
			putchar('\n');
			pgp_certeval_release(&ev);
		}
	}
	if (ro.json) {
		out_arr_close(&o);
		out_close(&o);
		out_finish(&o);
	}
	certs_ring_close(&r);
	return rc;
}

static int
show(int argc, char **argv)
{
	ropts ro;
	certs_ring r;
	out_ctx o;
	pgp_policy pol;
	int64_t now = (int64_t)time(NULL);
	uint8_t hex[PGP_FPR_MAX];
	uint32_t *hits = NULL;
	size_t nhits = 0, total = 0, i, qlen;
	int rc = EXIT_USAGE, n;
	pgp_certq q;
	pgp_err e;
	if (read_opts(argc, argv, "keyring show", 1, &ro) != 0 || open_kr(&r, ro.keyring) != 0)
		return EXIT_USAGE;
	if ((hits = calloc(kr_count(r.kr) + 1, sizeof *hits)) == NULL)
		goto out;
	n = parse_hex(ro.query, hex, sizeof hex);
	qlen = strlen(ro.query);
	memset(&q, 0, sizeof q);
	if (n == 8 || n == 16 || n == 20 || n == 32) {
		q.kind = n == 8 ? PGP_CERTQ_KEYID : PGP_CERTQ_FPR;
		q.p = hex;
		q.len = (size_t)n;
	} else if (strchr(ro.query, '@') != NULL) {
		q.kind = PGP_CERTQ_EMAIL;
		q.p = (const uint8_t *)ro.query;
		q.len = qlen;
		if (qlen >= 2 && ro.query[0] == '<' && ro.query[qlen - 1] == '>') {
			q.p++;
			q.len -= 2;
		}
	}
	if (q.kind) {
		if ((e = kr_find(r.kr, &q, hits, kr_count(r.kr), &total)) != PGP_OK) {
			cli_report(r.name, e, kr_last_error(r.kr));
			goto out;
		}
		nhits = total < kr_count(r.kr) ? total : kr_count(r.kr);
	} else {
		/* a name: substring of a user ID, ignoring ASCII case */
		for (i = 0; i < kr_count(r.kr); i++) {
			const pgp_cert *c;
			uint32_t k;
			if ((e = kr_cert(r.kr, i, &c)) != PGP_OK) {
				cli_report(r.name, e, kr_last_error(r.kr));
				goto out;
			}
			for (k = 0; k < c->nuids; k++)
				if (!c->uids[k].is_attr &&
				    cli_has_icase(c->uids[k].data.p, c->uids[k].data.len, ro.query)) {
					hits[nhits++] = (uint32_t)i;
					break;
				}
		}
	}
	pgp_policy_init(&pol);
	out_init(&o, stdout, ro.json);
	if (ro.json) {
		out_open(&o, NULL, NULL);
		out_arr_open(&o, "certificates");
	}
	rc = nhits ? EXIT_OK : EXIT_FAIL;
	for (i = 0; i < nhits; i++)
		if (show_cert(&o, &r, hits[i], now, &pol, 1) != 0) {
			rc = EXIT_USAGE;
			break;
		}
	if (ro.json) {
		out_arr_close(&o);
		out_close(&o);
		out_finish(&o);
	}
	if (nhits == 0)
		cli_msg("keyring show", "no certificate matches");
out:
	free(hits);
	certs_ring_close(&r);
	return rc;
}

static int
stats(int argc, char **argv)
{
	ropts ro;
	certs_ring r;
	out_ctx o;
	kr_stats st;
	char fh[2 * PGP_FPR_MAX + 1];
	size_t i;
	pgp_err e;
	if (read_opts(argc, argv, "keyring stats", 0, &ro) != 0 || open_kr(&r, ro.keyring) != 0)
		return EXIT_USAGE;
	if ((e = kr_stats_get(r.kr, &st)) != PGP_OK) {
		cli_report(r.name, e, kr_last_error(r.kr));
		certs_ring_close(&r);
		return EXIT_USAGE;
	}
	out_init(&o, stdout, ro.json);
	out_open(&o, NULL, NULL);
	out_int(&o, "certificates", (long long)st.certs);
	out_int(&o, "user_ids", (long long)st.uids);
	out_int(&o, "subkeys", (long long)st.subkeys);
	out_int(&o, "signatures_kept", (long long)st.sigs);
	out_int(&o, "certifications_kept", (long long)st.certifications);
	out_int(&o, "edges", (long long)st.edges);
	out_int(&o, "memo_tags", (long long)st.tags);
	if (st.root.len) {
		pgp_hex_encode(fh, st.root.v, st.root.len);
		out_text(&o, "root", "%s", fh);
	} else {
		out_null(&o, "root");
	}
	out_time_opt(&o, "built_at", st.built_at);
	out_open(&o, "dropped", NULL);
	for (i = 0; i < st.ndrops; i++)
		out_int(&o, st.drops[i].name, (long long)st.drops[i].count);
	out_close(&o);
	if (ro.json || st.nnotes) {
		out_arr_open(&o, "notes");
		for (i = 0; i < st.nnotes; i++) {
			pgp_view v;
			if (kr_stats_note(r.kr, i, &v) == PGP_OK)
				out_str(&o, NULL, v.p, v.len);
		}
		out_arr_close(&o);
	}
	out_close(&o);
	out_finish(&o);
	certs_ring_close(&r);
	return EXIT_OK;
}

/* see cmds.h */
int
cmd_keyring(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "build") == 0)
		return build(argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0)
		return list(argc - 1, argv + 1);
	if (strcmp(argv[1], "show") == 0)
		return show(argc - 1, argv + 1);
	if (strcmp(argv[1], "stats") == 0)
		return stats(argc - 1, argv + 1);
	if (strcmp(argv[1], "export") == 0)
		return cmd_keyring_export(argc - 1, argv + 1);
	if (strcmp(argv[1], "check") == 0)
		return cmd_keyring_check(argc - 1, argv + 1);
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	cli_msg("keyring", "unknown subcommand '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
