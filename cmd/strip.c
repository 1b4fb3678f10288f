/*
 * strip.c - `wotkit strip [--keyring K]... [--at TIME] [--binary] [--json]
 * [--threads N] [-o OUT] IN...`: the certificates of IN reduced to what
 * verifies (keyring/strip.h; docs/semantics.md, "Stripping"), written in
 * canonical order to stdout (armored unless --binary). The keyrings K only
 * supply issuers of third-party certifications and designated revokers;
 * they are not written.
 *
 * --json writes a report instead (or as well, with -o OUT for the
 * certificates): per certificate what was kept, the kept third-party
 * certifications, and every dropped signature with its reason.
 *
 * IN or K may be "-" (standard input, once).
 *
 * Exit codes: 0 done; 1 done, but a flood cap was hit (signatures were
 * dropped unchecked: see the notes); 2 usage, unreadable or malformed
 * input, out of memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "out.h"
#include "pgp/pgp.h"
#include "keyring/strip.h"

#define USAGE "usage: wotkit strip [--keyring K]... [--at TIME] [--binary] [--json] " \
	"[--threads N] [-o OUT] IN...\n"
/* dropped signatures listed per certificate in --json (the counts are complete) */
#define JSON_MAX_DROPPED 2000

static int
fpr_cmp(const void *a, const void *b)
{
	return pgp_fpr_cmp(a, b);
}

/* The user IDs and attributes of a stripped certificate, in output order. */
static size_t
out_uids(const kr_scert *sc, pgp_view *v, size_t max)
{
	pgp_rd r;
	pgp_pkt pkt;
	size_t n = 0;
	pgp_rd_init(&r, sc->bin, sc->len);
	while (pgp_pkt_next(&r, &pkt, NULL) == PGP_OK) {
		if ((pkt.tag == PGP_TAG_USER_ID || pkt.tag == PGP_TAG_USER_ATTRIBUTE) && n < max) {
			v[n] = pgp_rd_as_view(&pkt.body);
			if (pkt.tag == PGP_TAG_USER_ATTRIBUTE)
				v[n].p = NULL; /* shown as an attribute */
			n++;
		}
		pgp_pkt_release(&pkt);
	}
	return n;
}

static const char *
where_name(int w)
{
	switch (w) {
	case KR_WHERE_DIRECT: return "key";
	case KR_WHERE_UID: return "uid";
	case KR_WHERE_SUBKEY: return "subkey";
	default: return "standalone";
	}
}

static void
json_drops(out_ctx *o, const char *key, const uint32_t *d32, const uint64_t *d64)
{
	int d;
	out_open(o, key, key);
	for (d = 0; d < KR_DROP__N; d++) {
		unsigned long long v = d32 ? d32[d] : d64[d];
		if (v)
			out_int(o, kr_drop_name((kr_drop)d), (long long)v);
	}
	out_close(o);
}

static void
json_cert(out_ctx *o, const kr_strip_result *r, size_t i)
{
	const kr_scert *sc = &r->certs[i];
	const pgp_cert *c = sc->cert;
	pgp_view *uv;
	size_t nu, e, lo = 0, hi = r->nedges, listed = 0;
	uint32_t j;
	char h[2 * PGP_FPR_MAX + 1];

	uv = calloc((size_t)c->nuids + 1, sizeof *uv);
	nu = uv ? out_uids(sc, uv, c->nuids) : 0;
	out_open(o, NULL, "certificate");
	pgp_hex_encode(h, c->primary.fpr.v, c->primary.fpr.len);
	out_text(o, "fingerprint", "%s", h);
	out_int(o, "user_ids", sc->nuids_out);
	out_int(o, "subkeys", sc->nsubs_out);
	out_int(o, "kept_signatures", sc->kept_sigs);
	out_int(o, "kept_certifications", sc->kept_certifications);
	out_int(o, "octets", (long long)sc->len);
	json_drops(o, "dropped", sc->drops, NULL);
	/* edges are sorted by target: this certificate's run */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->edges[mid].target < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	out_arr_open(o, "certifications");
	for (e = lo; e < r->nedges && r->edges[e].target == i; e++) {
		const kr_edge *ed = &r->edges[e];
		const pgp_key *ik = &r->certs[ed->issuer].cert->primary;
		out_open(o, NULL, "certification");
		if (ed->uid < nu && uv[ed->uid].p)
			out_str(o, "uid", uv[ed->uid].p, uv[ed->uid].len);
		else
			out_null(o, "uid");
		out_int(o, "uid_index", ed->uid);
		pgp_hex_encode(h, ik->fpr.v, ik->fpr.len);
		out_text(o, "issuer", "%s", h);
		pgp_hex_encode(h, ik->keyid, 8);
		out_text(o, "issuer_keyid", "%s", h);
		out_int(o, "issuer_key", ed->issuer_key);
		out_int(o, "sigtype", ed->sigtype);
		out_int(o, "hash_algo", ed->hash_algo);
		out_time(o, "created", ed->created);
		out_close(o);
	}
	out_arr_close(o);
	out_arr_open(o, "dropped_signatures");
	for (j = 0; j < sc->nsigs; j++) {
		const kr_sigrec *s = &sc->sigs[j];
		if (s->kept)
			continue;
		if (++listed > JSON_MAX_DROPPED)
			continue;
		out_open(o, NULL, "signature");
		out_text(o, "on", "%s", where_name(s->where));
		if (s->where == KR_WHERE_UID && s->comp < c->nuids && !c->uids[s->comp].is_attr)
			out_str(o, "uid", c->uids[s->comp].data.p, c->uids[s->comp].data.len);
		else if (s->where == KR_WHERE_SUBKEY && s->comp < c->nsubs) {
			pgp_hex_encode(h, c->subs[s->comp].key.fpr.v, c->subs[s->comp].key.fpr.len);
			out_text(o, "subkey", "%s", h);
		}
		out_int(o, "sigtype", s->sigtype);
		if (s->has_issuer) {
			pgp_hex_encode(h, s->issuer, 8);
			out_text(o, "issuer_keyid", "%s", h);
		} else {
			out_null(o, "issuer_keyid");
		}
		out_bool(o, "third_party", s->third_party);
		out_time_opt(o, "created", s->created);
		out_text(o, "reason", "%s", kr_drop_name((kr_drop)s->reason));
		out_close(o);
	}
	out_arr_close(o);
	if (listed > JSON_MAX_DROPPED)
		out_int(o, "dropped_signatures_omitted", (long long)(listed - JSON_MAX_DROPPED));
	out_close(o);
	free(uv);
}

static int
write_certs(FILE *f, const kr_strip_result *r, const uint8_t *want, int binary)
{
	pgp_buf b, a;
	size_t i;
	int rc = 0;
	if (binary) {
		/* certificate by certificate: no second copy of the whole output */
		for (i = 0; i < r->ncerts; i++)
			if (want[i] && r->certs[i].len &&
			    fwrite(r->certs[i].bin, 1, r->certs[i].len, f) != r->certs[i].len)
				return -1;
		return 0;
	}
	pgp_buf_init(&b, PGP_MAX_ARMOR_DECODED);
	for (i = 0; i < r->ncerts; i++)
		if (want[i] && pgp_buf_append(&b, r->certs[i].bin, r->certs[i].len) != PGP_OK) {
			cli_msg(NULL, "out of memory");
			pgp_buf_free(&b);
			return -1;
		}
	if (b.len) {
		pgp_buf_init(&a, (size_t)-1);
		if (pgp_armor_write(&a, PGP_ARMOR_PUBLIC_KEY, NULL, 0, b.p, b.len) != PGP_OK) {
			cli_msg(NULL, "armor: out of memory");
			rc = -1;
		} else if (fwrite(a.p, 1, a.len, f) != a.len) {
			rc = -1;
		}
		pgp_buf_free(&a);
	}
	pgp_buf_free(&b);
	return rc;
}

/* Standard input: read here and released at the end (certs_load keeps
 * what it reads until the process exits). */
static int
load_stdin(pgp_certset *set, cli_file *f)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	size_t before = pgp_certset_refused(set);
	if (cli_file_open(f, "-") != 0)
		return -1;
	e = certs_add_mem(set, f->p, f->len, &d);
	certs_warn_refused(set, before, "-");
	if (e != PGP_OK) {
		cli_report("-", e, &d);
		return -1;
	}
	return 0;
}

static int
load(pgp_certset *set, const char *path, cli_file *in, int *have_in)
{
	if (strcmp(path, "-") != 0)
		return certs_load(set, path);
	if (*have_in) {
		cli_msg(NULL, "standard input given twice");
		return -1;
	}
	*have_in = 1;
	return load_stdin(set, in);
}

/* see cmds.h */
int
cmd_strip(int argc, char **argv)
{
	int64_t now = (int64_t)time(NULL);
	kr_strip_opts so;
	kr_strip_result r;
	pgp_policy pol;
	pgp_certset *set = NULL;
	const char **rings = NULL, *outpath = NULL, *v;
	pgp_fpr *infprs = NULL;
	uint8_t *want = NULL;
	size_t nrings = 0, nin = 0, ninf = 0, i;
	int json = 0, binary = 0, rc = EXIT_USAGE, a, capped = 0, have_in = 0;
	cli_file in;
	pgp_err e;

	memset(&in, 0, sizeof in);
	memset(&so, 0, sizeof so);
	memset(&r, 0, sizeof r);
	so.now = now;
	if ((rings = calloc((size_t)argc + 1, sizeof *rings)) == NULL)
		return EXIT_USAGE;
	for (a = 1; a < argc; a++) {
		if (strcmp(argv[a], "--") == 0) {
			a++;
			break;
		} else if (strcmp(argv[a], "--json") == 0) {
			json = 1;
		} else if (strcmp(argv[a], "--binary") == 0) {
			binary = 1;
		} else if (cli_opt_value(argc, argv, &a, "--keyring", &v)) {
			if (v == NULL)
				goto usage;
			rings[nrings++] = v;
		} else if (cli_opt_value(argc, argv, &a, "--at", &v)) {
			if (v == NULL || cli_parse_time(v, now, &so.now) != 0) {
				cli_msg(NULL, "--at: not a time");
				goto usage;
			}
		} else if (cli_opt_value(argc, argv, &a, "--threads", &v)) {
			char *end;
			unsigned long t = v ? strtoul(v, &end, 10) : 0;
			if (v == NULL || *v == 0 || *end || t > 256)
				goto usage;
			so.threads = (unsigned)t;
		} else if (strcmp(argv[a], "-o") == 0 && a + 1 < argc) {
			outpath = argv[++a];
		} else if (argv[a][0] == '-' && argv[a][1]) {
			goto usage;
		} else {
			break;
		}
	}
	nin = (size_t)(argc - a);
	if (nin == 0)
		goto usage;

	if (pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		cli_msg(NULL, "out of memory");
		goto out;
	}
	/* IN first: its copies are the certificates to write */
	for (i = 0; i < nin; i++)
		if (load(set, argv[(size_t)a + i], &in, &have_in) != 0)
			goto out;
	ninf = pgp_certset_copies(set);
	if ((infprs = malloc((ninf ? ninf : 1) * sizeof *infprs)) == NULL)
		goto out;
	for (i = 0; i < ninf; i++)
		infprs[i] = pgp_certset_copy(set, i)->primary.fpr;
	qsort(infprs, ninf, sizeof *infprs, fpr_cmp);
	for (i = 0; i < nrings; i++)
		if (load(set, rings[i], &in, &have_in) != 0)
			goto out;

	pgp_policy_init(&pol);
	so.pol = &pol;
	so.keep_superseded = 0;
	so.details = json;
	if ((e = kr_strip(set, &so, &r)) != PGP_OK) {
		cli_msg(NULL, "strip: %s", pgp_strerror(e));
		goto out;
	}
	if ((want = calloc(r.ncerts + 1, 1)) == NULL)
		goto out;
	for (i = 0; i < r.ncerts; i++)
		want[i] = bsearch(&r.certs[i].cert->primary.fpr, infprs, ninf, sizeof *infprs,
		    fpr_cmp) != NULL;
	capped = r.drops[KR_DROP_CAP_UID] != 0 || r.drops[KR_DROP_CAP_CERT] != 0 ||
	    pgp_certset_refused(set) != 0;
	for (i = 0; i < r.nnotes; i++)
		cli_msg(NULL, "note: %s", r.notes[i]);

	if (outpath || !json) {
		FILE *f = stdout;
		if (outpath && (f = fopen(outpath, "wb")) == NULL) {
			cli_msg(outpath, "cannot write");
			goto out;
		}
		if (write_certs(f, &r, want, binary) != 0 || (f != stdout && fclose(f) != 0)) {
			cli_msg(outpath ? outpath : "stdout", "write failed");
			goto out;
		}
	}
	if (json) {
		out_ctx o;
		out_init(&o, stdout, 1);
		out_open(&o, NULL, NULL);
		out_arr_open(&o, "certificates");
		for (i = 0; i < r.ncerts; i++)
			if (want[i])
				json_cert(&o, &r, i);
		out_arr_close(&o);
		json_drops(&o, "dropped", NULL, r.drops);
		out_int(&o, "edges", (long long)r.nedges);
		out_list(&o, "notes", (const char *const *)r.notes, r.nnotes);
		out_close(&o);
		out_finish(&o);
	}
	if (fflush(stdout) != 0)
		goto out;
	rc = capped ? EXIT_FAIL : EXIT_OK;
	goto out;
usage:
	fputs(USAGE, stderr);
out:
	kr_strip_free(&r);
	pgp_certset_free(set);
	if (have_in)
		cli_file_close(&in);
	free(rings);
	free(infprs);
	free(want);
	return rc;
}
