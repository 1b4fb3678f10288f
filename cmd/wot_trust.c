/*
 * wot_trust.c - `wotkit wot trust` (ownertrust, kept in the trust file
 * beside the keyring in GnuPG's --export-ownertrust format, replaced
 * atomically) and `wotkit wot validity` (GnuPG's classic trust model,
 * keyring/trust.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "wotcli.h"
#include "wot_out.h"
#include "atomic.h"
#include "out.h"
#include "keyring/trust.h"
#include "keyring/ownertrust.h"

/* ---- the trust file ---- */

/* Read c->trust_path into l (an absent file is an empty list). Prints its
 * errors; 0 or -1. */
static int
trust_load(wot_cli *c, wot_otlist *l)
{
	cli_file f;
	FILE *fp;
	pgp_diag d;
	pgp_err e;

	wot_otlist_init(l);
	if (c->trust_path[0] == '\0')
		return 0;
	if ((fp = fopen(c->trust_path, "rb")) == NULL) {
		if (errno == ENOENT)
			return 0;
		cli_msg(c->trust_path, "cannot read: %s", strerror(errno));
		return -1;
	}
	fclose(fp);
	if (cli_file_open(&f, c->trust_path) != 0)
		return -1;
	memset(&d, 0, sizeof d);
	e = wot_otlist_parse(l, f.p, f.len, &d);
	cli_file_close(&f);
	if (e != PGP_OK) {
		cli_report(c->trust_path, e, &d);
		wot_otlist_release(l);
		return -1;
	}
	return 0;
}

static int
trust_save(wot_cli *c, const wot_otlist *l)
{
	cli_atomic a;
	pgp_buf b;
	int ok;

	pgp_buf_init(&b, (size_t)WOT_OT_MAX_ENTRIES * 80u);
	if (wot_otlist_write(l, &b) != PGP_OK) {
		pgp_buf_free(&b);
		cli_msg(c->cmd, "out of memory");
		return -1;
	}
	if (cli_atomic_open(&a, c->trust_path) != 0) {
		pgp_buf_free(&b);
		return -1;
	}
	ok = b.len == 0 || fwrite(b.p, 1, b.len, a.f) == b.len;
	pgp_buf_free(&b);
	return cli_atomic_close(&a, c->trust_path, ok, 1);
}

/* see wotcli.h */
int
wot_cli_ownertrust_of_nodes(wot_cli *c, uint8_t **out)
{
	size_t n = wot_nnodes(c->g);
	uint8_t *ot = calloc(n ? n : 1, 1);
	wot_otlist l;

	*out = NULL;
	if (ot == NULL) {
		cli_msg(c->cmd, "out of memory");
		return -1;
	}
	if (trust_load(c, &l) != 0) {
		free(ot);
		return -1;
	}
	wot_otlist_apply(&l, c->g, ot);
	if (c->root >= 0 && wot_otlist_get(&l, &wot_node_at(c->g, (uint32_t)c->root)->fpr) == 0)
		ot[c->root] = WOT_OT_ULTIMATE;
	wot_otlist_release(&l);
	*out = ot;
	return 0;
}

void
wot_cli_ownertrust(wot_cli *c, uint8_t *ot)
{
	wot_otlist l;
	size_t i, n = wot_nnodes(c->g);

	if (trust_load(c, &l) != 0)
		return;
	for (i = 0; i < n; i++) {
		uint8_t v = (uint8_t)(wot_otlist_get(&l, &wot_node_at(c->g, (uint32_t)i)->fpr) & 0x0f);
		if (v == WOT_OT_ULTIMATE)
			ot[i] = WOT_OUT_ULTIMATE;
		else if (v == WOT_OT_FULL)
			ot[i] = WOT_OUT_FULL;
		else if (v == WOT_OT_MARGINAL)
			ot[i] = WOT_OUT_MARGINAL;
		else if (v != 0)
			ot[i] = WOT_OUT_NONE;
	}
	wot_otlist_release(&l);
}

/* ---- wot trust ---- */

static int
parse_level(const char *s, uint8_t *v)
{
	static const struct { const char *name; uint8_t v; } names[] = {
		{"ultimate", WOT_OT_ULTIMATE}, {"full", WOT_OT_FULL}, {"marginal", WOT_OT_MARGINAL},
		{"never", WOT_OT_NEVER}, {"undefined", WOT_OT_UNDEFINED}, {"unset", 0},
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i].name) == 0) {
			*v = names[i].v;
			return 0;
		}
	return -1;
}

static const char *
ot_name(uint8_t v)
{
	const char *s = wot_ownertrust_name(v & 0x0fu);
	return s ? s : "unknown";
}

static void
print_trust(wot_cli *c, uint32_t node, uint8_t v)
{
	const wot_node *nd = wot_node_at(c->g, node);
	char kid[17], fpr[2 * PGP_FPR_MAX + 1];
	pgp_view u = wot_cli_uid(nd);

	wot_cli_keyid(nd, kid);
	pgp_hex_encode(fpr, nd->fpr.v, nd->fpr.len);
	if (c->json) {
		printf("{\"fpr\":\"%s\",\"keyid\":\"%s\",\"ownertrust\":\"%s\",\"uid\":", fpr, kid,
		    ot_name(v));
		putchar('"');
		out_esc_json(stdout, u.p, u.len);
		puts("\"}");
		return;
	}
	printf("%s  %s  ", kid, ot_name(v));
	out_esc_plain(stdout, u.p, u.len);
	putchar('\n');
}

static int
trust_import(wot_cli *c, const char *file, wot_otlist *l)
{
	wot_otlist add;
	cli_file f;
	pgp_diag d;
	pgp_err e;
	size_t i, known = 0;

	if (cli_file_open(&f, file) != 0)
		return -1;
	wot_otlist_init(&add);
	memset(&d, 0, sizeof d);
	e = wot_otlist_parse(&add, f.p, f.len, &d);
	cli_file_close(&f);
	if (e != PGP_OK) {
		cli_report(file, e, &d);
		wot_otlist_release(&add);
		return -1;
	}
	for (i = 0; i < add.n && e == PGP_OK; i++) {
		e = wot_otlist_set(l, &add.v[i].fpr, add.v[i].value);
		known += wot_find_fpr(c->g, &add.v[i].fpr) >= 0;
	}
	if (e != PGP_OK) {
		cli_msg(c->cmd, "%s", pgp_strerror(e));
		wot_otlist_release(&add);
		return -1;
	}
	fprintf(stderr, "%s: %s: %zu ownertrust values imported (%zu of keys in the keyring)\n",
	    cli_prog, c->cmd, add.n, known);
	wot_otlist_release(&add);
	return 0;
}

int
wot_cmd_trust(wot_cli *c, int argc, char **argv)
{
	const char *key = NULL, *level = NULL, *import = NULL;
	uint8_t v = 0;
	uint32_t node = 0;
	wot_otlist l;
	int i, r;

	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(c, argc, argv, &i)) != 0 ||
		    (r = wot_str_opt(c, argc, argv, &i, "--import", &import)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(c->cmd, "unknown option %s", argv[i]);
			return EXIT_USAGE;
		} else if (key == NULL) {
			key = argv[i];
		} else if (level == NULL) {
			level = argv[i];
		} else {
			cli_msg(c->cmd, "usage: wotkit wot trust KEY [ultimate|full|marginal|never|"
			    "undefined|unset] | --import FILE");
			return EXIT_USAGE;
		}
	}
	if ((import != NULL) == (key != NULL)) {
		cli_msg(c->cmd, "usage: wotkit wot trust KEY [ultimate|full|marginal|never|"
		    "undefined|unset] | --import FILE");
		return EXIT_USAGE;
	}
	if (level != NULL && parse_level(level, &v) != 0) {
		cli_msg(c->cmd, "ownertrust must be ultimate, full, marginal, never, undefined or unset");
		return EXIT_USAGE;
	}
	if (wot_cli_open(c, 0) != 0)
		return EXIT_USAGE;
	if (c->trust_path[0] == '\0') {
		cli_msg(c->cmd, "no trust file for raw --keyring input: give --trust-file FILE");
		return EXIT_USAGE;
	}
	if (key != NULL && wot_cli_key(c, key, &node) != 0)
		return EXIT_USAGE;
	if (trust_load(c, &l) != 0)
		return EXIT_USAGE;
	if (key != NULL && level == NULL) {
		/* show the ownertrust in force (the root: ultimate unless set) */
		const pgp_fpr *f = &wot_node_at(c->g, node)->fpr;
		v = wot_otlist_get(&l, f);
		if (v == 0 && c->root >= 0 && (uint32_t)c->root == node)
			v = WOT_OT_ULTIMATE;
		print_trust(c, node, v);
		wot_otlist_release(&l);
		return EXIT_OK;
	}
	r = import != NULL ? trust_import(c, import, &l) :
	    (wot_otlist_set(&l, &wot_node_at(c->g, node)->fpr, v) == PGP_OK ? 0 : -1);
	if (r == 0)
		r = trust_save(c, &l);
	wot_otlist_release(&l);
	if (r != 0)
		return EXIT_USAGE;
	if (key != NULL)
		print_trust(c, node, v);
	return EXIT_OK;
}

/* ---- wot validity ---- */

static void
print_uid_text(const pgp_uidc *u)
{
	if (u->is_attr)
		fputs("[user attribute]", stdout);
	else
		out_esc_plain(stdout, u->data.p, u->data.len);
}

static void
validity_text(wot_cli *c, const wot_trust *t, uint32_t node, int uids)
{
	const wot_node *nd = wot_node_at(c->g, node);
	char kid[17];
	pgp_view u = wot_cli_uid(nd);
	uint32_t j;

	wot_cli_keyid(nd, kid);
	printf("%s  %s  ", kid, wot_validity_name(wot_trust_key(t, node)));
	out_esc_plain(stdout, u.p, u.len);
	putchar('\n');
	if (!uids)
		return;
	for (j = 0; j < nd->cert->nuids; j++) {
		printf("  uid  %s  ", wot_validity_name(wot_trust_uid(t, node, j)));
		print_uid_text(&nd->cert->uids[j]);
		putchar('\n');
	}
}

static void
validity_json(wot_cli *c, const wot_trust *t, const uint8_t *ot, uint32_t node, int first)
{
	const wot_node *nd = wot_node_at(c->g, node);
	char kid[17], fpr[2 * PGP_FPR_MAX + 1];
	uint32_t j;

	wot_cli_keyid(nd, kid);
	pgp_hex_encode(fpr, nd->fpr.v, nd->fpr.len);
	printf("%s{\"fpr\":\"%s\",\"keyid\":\"%s\",\"validity\":\"%s\",\"ownertrust\":\"%s\","
	    "\"uids\":[", first ? "" : ",\n", fpr, kid, wot_validity_name(wot_trust_key(t, node)),
	    ot_name(ot[node]));
	for (j = 0; j < nd->cert->nuids; j++) {
		const pgp_uidc *u = &nd->cert->uids[j];
		printf("%s{\"uid\":", j ? "," : "");
		if (u->is_attr) {
			fputs("null,\"attribute\":true", stdout);
		} else {
			putchar('"');
			out_esc_json(stdout, u->data.p, u->data.len);
			putchar('"');
		}
		printf(",\"validity\":\"%s\"}", wot_validity_name(wot_trust_uid(t, node, j)));
	}
	fputs("]}", stdout);
}

int
wot_cmd_validity(wot_cli *c, int argc, char **argv)
{
	const char *key = NULL;
	wot_trust_params p;
	wot_trust *t = NULL;
	uint8_t *ot = NULL;
	uint32_t node = 0;
	pgp_err e;
	size_t k, n;
	int i, r, rc = EXIT_OK;

	wot_trust_params_default(&p);
	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(c, argc, argv, &i)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--completes-needed", 1,
		        WOT_TRUST_MAX_COMPLETES, &p.completes_needed)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--marginals-needed", 2,
		        WOT_TRUST_MAX_MARGINALS, &p.marginals_needed)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--max-cert-depth", 1,
		        WOT_TRUST_MAX_CERT_DEPTH, &p.max_cert_depth)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--min-cert-level", 1, 3,
		        &p.min_cert_level)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(c->cmd, "unknown option %s", argv[i]);
			return EXIT_USAGE;
		} else if (key == NULL) {
			key = argv[i];
		} else {
			cli_msg(c->cmd, "one KEY only");
			return EXIT_USAGE;
		}
	}
	if (wot_cli_open(c, 0) != 0)
		return EXIT_USAGE;
	if (key != NULL && wot_cli_key(c, key, &node) != 0)
		return EXIT_USAGE;
	if (wot_cli_ownertrust_of_nodes(c, &ot) != 0)
		return EXIT_USAGE;
	if ((e = wot_trust_compute(&t, c->g, ot, &p)) != PGP_OK) {
		cli_msg(c->cmd, "%s", pgp_strerror(e));
		free(ot);
		return EXIT_USAGE;
	}
	n = wot_nnodes(c->g);
	for (k = 0; k < n && (ot[k] & 0x0f) != WOT_OT_ULTIMATE; k++)
		;
	if (k == n)
		cli_msg(c->cmd, "no ultimately trusted key: no key can be valid (give --root KEY, "
		    "or wotkit wot trust KEY ultimate)");
	if (c->json)
		putchar('[');
	if (key != NULL) {
		wot_validity v = wot_trust_key(t, node);
		if (c->json)
			validity_json(c, t, ot, node, 1);
		else
			validity_text(c, t, node, 1);
		rc = v == WOT_V_FULL || v == WOT_V_ULTIMATE ? EXIT_OK : EXIT_FAIL;
	} else {
		for (k = 0; k < n; k++) {
			uint32_t nd = wot_node_by_rank(c->g, (uint32_t)k);
			if (c->json)
				validity_json(c, t, ot, nd, k == 0);
			else
				validity_text(c, t, nd, 0);
		}
	}
	if (c->json)
		puts("]");
	wot_trust_free(t);
	free(ot);
	return rc;
}
