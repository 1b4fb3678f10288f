/*
 * wotcli.c - the common part of `wotkit wot`: options, loading the keyring
 * (a wotkit keyring file, or raw sources stripped and built in memory, with
 * the per-signature details `wot why` names dropped certifiers from), the
 * policy, the graph and KEY lookup.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include "wotcli.h"
#include "krsrc.h"
#include "out.h"

void
wot_cli_init(wot_cli *c, const char *cmd)
{
	memset(c, 0, sizeof *c);
	c->cmd = cmd;
	c->now = (int64_t)time(NULL);
	c->t = c->now;
	c->root = -1;
}

int
wot_cli_opt(wot_cli *c, int argc, char **argv, int *i)
{
	const char *val;

	if (cli_opt_value(argc, argv, i, "--keyring", &val)) {
		if (!val)
			goto novalue;
		if (c->nsources == WOT_CLI_MAX_SOURCES) {
			cli_msg(c->cmd, "at most %u --keyring options", WOT_CLI_MAX_SOURCES);
			return -1;
		}
		c->sources[c->nsources++] = val;
	} else if (cli_opt_value(argc, argv, i, "--at", &val)) {
		if (!val)
			goto novalue;
		if (cli_parse_time(val, c->now, &c->t) != 0)
			goto badtime;
	} else if (cli_opt_value(argc, argv, i, "--policy-as-of", &val)) {
		if (!val)
			goto novalue;
		if (cli_parse_time(val, c->now, &c->policy_as_of) != 0)
			goto badtime;
	} else if (cli_opt_value(argc, argv, i, "--policy", &val)) {
		if (!val)
			goto novalue;
		c->policy_file = val;
	} else if (cli_opt_value(argc, argv, i, "--root", &val)) {
		if (!val)
			goto novalue;
		c->root_arg = val;
	} else if (cli_opt_value(argc, argv, i, "--trust-file", &val)) {
		if (!val)
			goto novalue;
		c->trust_file_arg = val;
	} else if (strcmp(argv[*i], "--allow-sha1") == 0) {
		c->allow_sha1 = 1;
	} else if (strcmp(argv[*i], "--json") == 0) {
		c->json = 1;
	} else {
		return 0;
	}
	return 1;
novalue:
	cli_msg(c->cmd, "%s needs a value", argv[*i]);
	return -1;
badtime:
	cli_msg(c->cmd, "bad time '%s'", val);
	return -1;
}

static int
load_policy(wot_cli *c)
{
	pgp_diag d;
	pgp_err e;

	pgp_policy_init(&c->pol);
	c->pol.as_of = c->policy_as_of;
	if (c->allow_sha1) {
		pgp_policy_allow_hash(&c->pol, PGP_HASH_SHA1, PGP_USE_COLLISION);
		pgp_policy_allow_hash(&c->pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	}
	if (c->policy_file) {
		cli_file pf;
		if (cli_file_open(&pf, c->policy_file) != 0)
			return -1;
		memset(&d, 0, sizeof d);
		e = pgp_policy_load(&c->pol, pf.p, pf.len, &d);
		cli_file_close(&pf);
		if (e != PGP_OK) {
			fprintf(stderr, "%s: ", cli_prog);
			out_esc_text(stderr, c->policy_file);
			fprintf(stderr, ":%zu: %s\n", d.offset, d.what ? d.what : "malformed line");
			return -1;
		}
	}
	return 0;
}

static pgp_err
mem_sink(void *ctx, const uint8_t *p, size_t n)
{
	return pgp_buf_append(ctx, p, n);
}

/* Raw sources: load, strip (with details) and build the keyring in memory. */
static int
build_in_memory(wot_cli *c)
{
	krsrc_reports rep;
	kr_strip_opts so;
	kr_meta meta;
	pgp_buf b;
	pgp_diag d;
	pgp_err e;
	int lr;

	memset(&rep, 0, sizeof rep);
	if (pgp_certset_new(&c->set) != PGP_OK ||
	    pgp_certset_set_sig_cap(c->set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		cli_msg(c->cmd, "out of memory");
		return -1;
	}
	lr = krsrc_load_at(c->sources, c->nsources, NULL, c->t, &c->pol, c->set, &rep);
	krsrc_reports_print(&rep);
	krsrc_reports_free(&rep);
	if (lr < 0)
		return -1;
	memset(&so, 0, sizeof so);
	so.now = c->t;
	so.pol = &c->pol;
	so.keep_superseded = 1;
	so.details = 1;
	if ((e = kr_strip(c->set, &so, &c->strip)) != PGP_OK) {
		cli_msg(c->cmd, "stripping failed: %s", pgp_strerror(e));
		return -1;
	}
	c->have_strip = 1;
	memset(&meta, 0, sizeof meta);
	pgp_buf_init(&b, KR_MAX_FILE);
	if ((e = kr_serialize_to(&c->strip, &meta, mem_sink, &b)) != PGP_OK) {
		pgp_buf_free(&b);
		cli_msg(c->cmd, "building the keyring failed: %s", pgp_strerror(e));
		return -1;
	}
	c->mem = pgp_buf_take(&b, &c->mem_len);
	memset(&d, 0, sizeof d);
	if ((e = kr_open(&c->mem_kr, c->mem, c->mem_len, &d)) != PGP_OK) {
		cli_report("(in-memory keyring)", e, &d);
		return -1;
	}
	c->kr = c->mem_kr;
	return 0;
}

/* 1 when path is a readable file starting with the wotkit keyring magic
 * (directories and other sources are raw input). */
static int
is_keyring_file(const char *path)
{
	uint8_t head[16];
	size_t n;
	FILE *fp;

	if ((fp = fopen(path, "rb")) == NULL)
		return 0;
	n = fread(head, 1, sizeof head, fp);
	fclose(fp);
	return n > 0 && kr_is_keyring(head, n);
}

int
wot_cli_graph(wot_cli *c, const pgp_policy *pol, wot_graph **out)
{
	wot_opts o;
	pgp_err e;

	o.t = c->t;
	o.pol = pol;
	if ((e = wot_build(out, c->kr, &o)) != PGP_OK) {
		const pgp_diag *d = kr_last_error(c->kr);
		cli_report(c->ring_open ? c->ring.name : "(in-memory keyring)", e,
		    d != NULL && d->what != NULL ? d : NULL);
		return -1;
	}
	return 0;
}

static int
find_root(wot_cli *c, int need_root)
{
	kr_stats st;

	if (c->root_arg != NULL) {
		uint32_t n;
		if (wot_cli_key(c, c->root_arg, &n) != 0)
			return -1;
		c->root = n;
		return 0;
	}
	if (kr_stats_get(c->kr, &st) == PGP_OK && st.root.len != 0) {
		int64_t n = wot_find_fpr(c->g, &st.root);
		if (n >= 0) {
			c->root = n;
			return 0;
		}
	}
	if (need_root) {
		cli_msg(c->cmd, "no root key: give --root KEY (or build the keyring with --root FPR)");
		return -1;
	}
	return 0;
}

int
wot_cli_open(wot_cli *c, int need_root)
{
	if (load_policy(c) != 0)
		return -1;
	if (c->mem != NULL && c->nsources == 0) {
		/* a keyring built in memory by the caller (refresh's audit) */
		pgp_diag d;
		pgp_err e;
		memset(&d, 0, sizeof d);
		if ((e = kr_open(&c->mem_kr, c->mem, c->mem_len, &d)) != PGP_OK) {
			cli_report("(in-memory keyring)", e, &d);
			return -1;
		}
		c->kr = c->mem_kr;
	} else if (c->nsources == 0) {
		if (certs_default_keyring(c->defpath, sizeof c->defpath) != 0 ||
		    access(c->defpath, R_OK) != 0) {
			cli_msg(c->cmd, "no --keyring given (and no keyring at $WOTKIT_KEYRING or "
			    "the default location)");
			return -1;
		}
		c->sources[c->nsources++] = c->defpath;
	}
	if (c->kr != NULL) {
		/* in memory: the trust file only when --trust-file names one */
	} else if (c->nsources == 1 && is_keyring_file(c->sources[0])) {
		if (certs_ring_open(&c->ring, c->sources, 1, 0) != 0)
			return -1;
		c->ring_open = 1;
		if (c->ring.kr == NULL) {
			cli_msg(c->sources[0], "not a wotkit keyring");
			return -1;
		}
		c->kr = c->ring.kr;
		/* the web touches every certificate: map the file's pages in one
		 * call instead of one fault each (Linux 5.14; ignored elsewhere) */
#ifdef MADV_POPULATE_READ
		if (c->ring.krfile.map != NULL)
			(void)madvise(c->ring.krfile.map, c->ring.krfile.len, MADV_POPULATE_READ);
#endif
		if (snprintf(c->trust_path, sizeof c->trust_path, "%s.trust", c->sources[0]) >=
		    (int)sizeof c->trust_path)
			c->trust_path[0] = '\0';
	} else if (build_in_memory(c) != 0) {
		return -1;
	}
	if (c->trust_file_arg != NULL &&
	    snprintf(c->trust_path, sizeof c->trust_path, "%s", c->trust_file_arg) >=
	    (int)sizeof c->trust_path) {
		cli_msg(c->cmd, "--trust-file: name too long");
		return -1;
	}
	if (wot_cli_graph(c, &c->pol, &c->g) != 0)
		return -1;
	return find_root(c, need_root);
}

void
wot_cli_close(wot_cli *c)
{
	wot_free(c->g);
	c->g = NULL;
	if (c->mem_kr)
		kr_close(c->mem_kr);
	free(c->mem);
	if (c->have_strip)
		kr_strip_free(&c->strip);
	pgp_certset_free(c->set);
	if (c->ring_open)
		certs_ring_close(&c->ring);
	memset(c, 0, sizeof *c);
}

/* ---- KEY ---- */

int
wot_cli_from(wot_cli *c, const char *from, uint32_t *node)
{
	if (from != NULL)
		return wot_cli_key(c, from, node);
	if (c->root < 0) {
		cli_msg(c->cmd, "no root key: give --root KEY or --from KEY");
		return -1;
	}
	*node = (uint32_t)c->root;
	return 0;
}

void
wot_cli_keyid(const wot_node *n, char out[17])
{
	pgp_hex_encode(out, n->keyid, 8);
}

pgp_view
wot_cli_uid(const wot_node *n)
{
	pgp_view v = {(const uint8_t *)"", 0};
	const pgp_cert *c = n->cert;
	uint32_t j;

	if (n->primary_uid >= 0 && (uint32_t)n->primary_uid < c->nuids)
		return c->uids[n->primary_uid].data;
	for (j = 0; j < c->nuids; j++)
		if (!c->uids[j].is_attr)
			return c->uids[j].data;
	return v;
}

int
wot_cli_key(wot_cli *c, const char *key, uint32_t *node)
{
	const wot_graph *g = c->g;
	size_t n = wot_nnodes(g), i, hits = 0;
	uint32_t first = 0;
	const char *s = key;
	uint8_t id[8];
	pgp_fpr f;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	memset(&f, 0, sizeof f);
	if (pgp_hex_decode(f.v, s, 20) == 0 || pgp_hex_decode(f.v, s, 32) == 0) {
		int64_t r;
		f.len = (uint8_t)(strlen(s) / 2);
		if ((r = wot_find_fpr(g, &f)) < 0) {
			cli_msg(c->cmd, "no certificate with fingerprint %s in the keyring", s);
			return -1;
		}
		*node = (uint32_t)r;
		return 0;
	}
	if (pgp_hex_decode(id, s, 8) == 0) {
		for (i = 0; i < n; i++)
			if (memcmp(wot_node_at(g, (uint32_t)i)->keyid, id, 8) == 0) {
				if (hits++ == 0)
					first = (uint32_t)i;
			}
	} else {
		/* an e-mail address or a user ID substring, ASCII case ignored */
		for (i = 0; i < n; i++) {
			const pgp_cert *ct = wot_node_at(g, (uint32_t)i)->cert;
			for (uint32_t j = 0; j < ct->nuids; j++)
				if (!ct->uids[j].is_attr &&
				    cli_has_icase(ct->uids[j].data.p, ct->uids[j].data.len, key)) {
					if (hits++ == 0)
						first = (uint32_t)i;
					break;
				}
		}
	}
	if (hits == 1) {
		*node = first;
		return 0;
	}
	if (hits == 0) {
		fprintf(stderr, "%s: %s: no certificate in the keyring matches '", cli_prog, c->cmd);
		out_esc_text(stderr, key);
		fputs("'\n", stderr);
		return -1;
	}
	fprintf(stderr, "%s: %s: '", cli_prog, c->cmd);
	out_esc_text(stderr, key);
	fprintf(stderr, "' matches %zu certificates; give a fingerprint or key ID:\n", hits);
	for (i = 0; i < n; i++) {
		const wot_node *nd = wot_node_at(g, (uint32_t)i);
		char kid[17];
		pgp_view u;
		int match = 0;
		if (pgp_hex_decode(id, s, 8) == 0)
			match = memcmp(nd->keyid, id, 8) == 0;
		else
			for (uint32_t j = 0; j < nd->cert->nuids && !match; j++)
				match = !nd->cert->uids[j].is_attr &&
				    cli_has_icase(nd->cert->uids[j].data.p, nd->cert->uids[j].data.len, key);
		if (!match)
			continue;
		wot_cli_keyid(nd, kid);
		u = wot_cli_uid(nd);
		fprintf(stderr, "  %s  ", kid);
		out_esc_plain(stderr, u.p, u.len);
		fputc('\n', stderr);
	}
	return -1;
}
