/*
 * kr_export.c - `wotkit keyring export`: the stripped certificates of the
 * keyring, to stdout or as pgpkeys.git's layout. see krsrc.h
 *
 *   wotkit keyring export [--keyring K] [--pgpkeys DIR] [--at TIME]
 *                         [--allow-sha1] [--binary] [QUERY]
 *
 * Every certificate of the keyring (or those matching QUERY: a fingerprint
 * or key ID of a primary key or subkey, an e-mail address, or a substring of
 * a user ID, ASCII case ignored) is stripped again with keep_superseded = 0
 * (kr_strip, keyring/strip.h: only the newest valid self-signature per
 * component, plus revocations, at --at under the policy), as GnuPG's
 * export-clean does for pgpkeys.git.
 *
 * Without --pgpkeys: one armored block (--binary: binary) on stdout.
 * With --pgpkeys DIR:
 *   DIR/keys/<KEYID>.asc    header (pgpkeys_header) + blank line + armored
 *                           certificate
 *   DIR/.keyring/openpgp/<domain>/<local>/default
 *                           symlink to ../../../../keys/<KEYID>.asc, for each
 *                           address in a user ID valid at --at; when several
 *                           keys carry one address (ASCII case ignored), the
 *                           first wins: keys whose primary is valid at --at
 *                           before the others, then the lowest key ID
 *                           (upper-case hex); the others are reported
 * A file is rewritten only when its content (or link text) changed, each
 * through a temporary file in the same directory and rename(2). Files of DIR
 * that the export does not produce are left alone and reported.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmd/atomic.h"
#include "cmd/certs.h"
#include "cmd/cli.h"
#include "cmd/krsrc_int.h"
#include "keyring/kr.h"
#include "keyring/pgpkeys.h"
#include "keyring/strip.h"


static void
usage(void)
{
	fprintf(stderr, "usage: wotkit keyring export [--keyring K] [--pgpkeys DIR] [--at TIME]\n"
	    "                             [--allow-sha1] [--binary] [QUERY]\n");
}

/*
 * The certificates of the keyring file at path, added to set
 * (certs_add_mem: each checksum checked, borrowed from the mapping, which
 * lives until the process exits). -1 after a message.
 */
static int
load_keyring(const char *path, pgp_certset *set)
{
	static cli_file f;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	if (cli_file_open(&f, path) != 0)
		return -1;
	if (!kr_is_keyring(f.p, f.len)) {
		cli_msg(path, "not a wotkit keyring (magic)");
		return -1;
	}
	if ((e = certs_add_mem(set, f.p, f.len, &d)) != PGP_OK) {
		cli_report(path, e, &d);
		return -1;
	}
	return 0;
}

static int
ieq(uint8_t a, uint8_t b)
{
	if (a >= 'A' && a <= 'Z')
		a = (uint8_t)(a + 32);
	if (b >= 'A' && b <= 'Z')
		b = (uint8_t)(b + 32);
	return a == b;
}

static int
hex_is(const uint8_t *v, size_t n, const char *q)
{
	char h[2 * PGP_FPR_MAX + 1];
	size_t i;
	if (n > PGP_FPR_MAX || strlen(q) != 2 * n)
		return 0;
	pgp_hex_encode(h, v, n);
	for (i = 0; i < 2 * n; i++)
		if (!ieq((uint8_t)h[i], (uint8_t)q[i]))
			return 0;
	return 1;
}

static int
key_is(const pgp_key *k, const char *q)
{
	return hex_is(k->keyid, 8, q) || hex_is(k->fpr.v, k->fpr.len, q);
}

/* QUERY: fingerprint or key ID (primary or subkey, optional 0x), e-mail, or
 * user ID substring; ASCII case ignored. */
static int
matches(const pgp_cert *c, const char *q)
{
	uint32_t i;
	if (q == NULL)
		return 1;
	if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X'))
		q += 2;
	if (key_is(&c->primary, q))
		return 1;
	for (i = 0; i < c->nsubs; i++)
		if (key_is(&c->subs[i].key, q))
			return 1;
	for (i = 0; i < c->nuids; i++) {
		pgp_view a;
		if (c->uids[i].is_attr)
			continue;
		if (strchr(q, '@') && pgp_uid_email(c->uids[i].data, &a)) {
			if (pgp_email_cmp(a.p, a.len, (const uint8_t *)q, strlen(q)) == 0)
				return 1;
		} else if (!strchr(q, '@') &&
		    cli_has_icase(c->uids[i].data.p, c->uids[i].data.len, q)) {
			return 1;
		}
	}
	return 0;
}

typedef struct wstats {
	size_t written, unchanged, failed;
} wstats;

/* Write path = data unless it holds exactly that (cli_atomic_update). */
static int
write_file(const char *path, const uint8_t *data, size_t len, wstats *ws)
{
	int r = cli_atomic_update(path, data, len);

	if (r < 0)
		ws->failed++;
	else if (r == 0)
		ws->unchanged++;
	else
		ws->written++;
	return r < 0 ? -1 : 0;
}

/* A .keyring entry: a symlink holding text, unless it already holds it
 * (as a symlink, or as a plain file with that link text). */
static int
write_link(const char *path, const char *text, wstats *ws)
{
	char tmp[8600], old[KRSRC_MAX_LINK + 2];
	struct stat st;
	size_t tl = strlen(text);
	if (lstat(path, &st) == 0) {
		ssize_t n = -1;
		if (S_ISLNK(st.st_mode)) {
			n = readlink(path, old, sizeof old);
		} else if (S_ISREG(st.st_mode) && st.st_size <= KRSRC_MAX_LINK) {
			int fd = open(path, O_RDONLY);
			if (fd >= 0) {
				n = read(fd, old, sizeof old);
				close(fd);
			}
			if (n > 0 && old[n - 1] == '\n')
				n--;
		}
		if (n >= 0 && (size_t)n == tl && memcmp(old, text, tl) == 0) {
			ws->unchanged++;
			return 0;
		}
	}
	if ((size_t)snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid()) >= sizeof tmp) {
		cli_msg(path, "cannot write: %s", strerror(ENAMETOOLONG));
		ws->failed++;
		return -1;
	}
	unlink(tmp);
	if (symlink(text, tmp) != 0 || rename(tmp, path) != 0) {
		cli_msg(path, "cannot write: %s", strerror(errno));
		unlink(tmp);
		ws->failed++;
		return -1;
	}
	ws->written++;
	return 0;
}

/* One claim of an address by a key, for the .keyring entries. */
typedef struct claim {
	char *addr;        /* lower-cased, for grouping */
	char *local, *domain;  /* as written in the user ID */
	char keyid[17];
	int alive;         /* the primary is valid at the reference time */
} claim;

static int
claim_cmp(const void *a, const void *b)
{
	const claim *x = a, *y = b;
	int c = strcmp(x->addr, y->addr);
	if (c)
		return c;
	if (x->alive != y->alive)
		return x->alive ? -1 : 1;
	return strcmp(x->keyid, y->keyid);
}

static int
add_claims(claim **v, size_t *n, size_t *cap, const pgp_cert *c, const pgp_certeval *ev)
{
	uint32_t i;
	size_t j, n0 = *n;
	char kid[17];
	pgp_hex_encode(kid, c->primary.keyid, 8);
	for (i = 0; i < c->nuids; i++) {
		pgp_view a;
		const uint8_t *at;
		claim *cl;
		size_t ll;
		if (c->uids[i].is_attr || ev->uids[i].status != PGP_OK ||
		    !pgp_uid_email(c->uids[i].data, &a) || a.len > PGPKEYS_MAX_COMPONENT)
			continue;
		/* the last '@' splits local part and domain */
		for (at = NULL, j = 0; j < a.len; j++)
			if (a.p[j] == '@')
				at = a.p + j;
		if (at == NULL || at == a.p || at == a.p + a.len - 1 || memchr(a.p, 0, a.len))
			continue;
		ll = (size_t)(at - a.p);
		/* one claim per key and address (this key's claims start at n0) */
		for (j = n0; j < *n; j++)
			if (pgp_email_cmp(a.p, a.len, (const uint8_t *)(*v)[j].addr,
			    strlen((*v)[j].addr)) == 0)
				break;
		if (j < *n)
			continue;
		if (*n == *cap) {
			claim *nv = realloc(*v, (*cap = *cap ? *cap * 2 : 64) * sizeof *nv);
			if (nv == NULL)
				return -1;
			*v = nv;
		}
		cl = &(*v)[*n];
		cl->addr = malloc(a.len + 1);
		cl->local = malloc(ll + 1);
		cl->domain = malloc(a.len - ll);
		if (!cl->addr || !cl->local || !cl->domain) {
			free(cl->addr);
			free(cl->local);
			free(cl->domain);
			return -1;
		}
		for (j = 0; j < a.len; j++)
			cl->addr[j] = (char)(a.p[j] >= 'A' && a.p[j] <= 'Z' ? a.p[j] + 32 : a.p[j]);
		cl->addr[a.len] = 0;
		memcpy(cl->local, a.p, ll);
		cl->local[ll] = 0;
		memcpy(cl->domain, at + 1, a.len - ll - 1);
		cl->domain[a.len - ll - 1] = 0;
		memcpy(cl->keyid, kid, 17);
		cl->alive = ev->primary.status == PGP_OK;
		(*n)++;
	}
	return 0;
}

/* Files in DIR/keys that this export did not produce: reported (in name
 * order), kept. */
static void
report_strays(const char *dir, char (*kids)[17], size_t nk)
{
	char kd[4096], kid[17];
	cli_names ns;
	size_t j;
	snprintf(kd, sizeof kd, "%s/keys", dir);
	if (cli_list_dir(kd, &ns) != 0)
		return;
	for (j = 0; j < ns.n; j++) {
		size_t i;
		if (!pgpkeys_keyfile_name(ns.v[j], kid))
			continue;
		for (i = 0; i < nk && strcmp(kids[i], kid) != 0; i++)
			;
		if (i == nk)
			cli_msg(kd, "note: %s is not in this export (left alone)", ns.v[j]);
	}
	cli_names_free(&ns);
}

typedef struct kidx {
	const uint8_t *kid;
	size_t i;
} kidx;

static int
kidx_cmp(const void *a, const void *b)
{
	const kidx *x = a, *y = b;
	int c = memcmp(x->kid, y->kid, 8);
	return c ? c : x->i < y->i ? -1 : x->i > y->i;
}

/* dup[i] = 1 for each certificate whose primary key ID an earlier one has. */
static int
shared_kids(const kr_strip_result *r, uint8_t *dup)
{
	kidx *v = r->ncerts ? calloc(r->ncerts, sizeof *v) : NULL;
	size_t i;
	if (r->ncerts && v == NULL)
		return -1;
	for (i = 0; i < r->ncerts; i++) {
		v[i].kid = r->certs[i].cert->primary.keyid;
		v[i].i = i;
	}
	if (r->ncerts)
		qsort(v, r->ncerts, sizeof *v, kidx_cmp);
	for (i = 1; i < r->ncerts; i++)
		if (memcmp(v[i - 1].kid, v[i].kid, 8) == 0)
			dup[v[i].i] = 1;
	free(v);
	return 0;
}

static int
export_pgpkeys(const char *dir, const kr_strip_result *r, const pgp_certset *sset,
    const char *query, int64_t at, const pgp_policy *pol)
{
	pgp_certsrc src;
	claim *cl = NULL;
	size_t ncl = 0, capcl = 0, i, nk = 0;
	char (*kids)[17] = NULL;
	uint8_t *dup = NULL;
	char path[8600], kd[4096];
	wstats ws = {0, 0, 0};
	int rc = 0;

	pgp_certset_source(sset, &src);
	snprintf(kd, sizeof kd, "%s/keys", dir);
	if (cli_mkdirs(kd, 0777, 1) != 0) {
		cli_msg(kd, "cannot create: %s", strerror(errno));
		return -1;
	}
	if (r->ncerts && ((kids = calloc(r->ncerts, sizeof *kids)) == NULL ||
	    (dup = calloc(r->ncerts, 1)) == NULL || shared_kids(r, dup) != 0)) {
		free(kids);
		free(dup);
		return -1;
	}
	for (i = 0; i < r->ncerts && rc == 0; i++) {
		const pgp_cert *c = NULL;
		size_t tot = 0;
		pgp_certq q;
		pgp_certeval ev;
		pgp_buf b;
		pgp_err e;
		const pgp_fpr *f = &r->certs[i].cert->primary.fpr;
		q.kind = PGP_CERTQ_FPR;
		q.p = f->v;
		q.len = f->len;
		if (pgp_certset_find(sset, &q, &c, 1, &tot) != PGP_OK || tot == 0) {
			/* the stripped certificate did not parse back (or a limit) */
			cli_msg(dir, "certificate %zu of the export does not parse back; skipped", i);
			rc = -1;
			break;
		}
		if (!matches(c, query))
			continue;
		pgp_hex_encode(kids[nk], c->primary.keyid, 8);
		if (dup[i]) {
			/* two primary keys with one key ID: one file name; the
			 * lower fingerprint (certificates are in that order) keeps it */
			cli_msg(dir, "note: key ID %s is shared by several certificates; "
			    "keys/%s.asc holds the one with the lowest fingerprint, the others "
			    "are not written", kids[nk], kids[nk]);
			continue;
		}
		pgp_buf_init(&b, (size_t)1 << 30);
		if ((e = pgpkeys_header(&b, c, &src, at, pol)) != PGP_OK ||
		    (e = pgp_buf_putc(&b, '\n')) != PGP_OK ||
		    (e = pgp_armor_write(&b, PGP_ARMOR_PUBLIC_KEY, NULL, 0, r->certs[i].bin,
		    r->certs[i].len)) != PGP_OK) {
			cli_msg(dir, "key %s: %s", kids[nk], pgp_strerror(e));
			pgp_buf_free(&b);
			rc = -1;
			break;
		}
		snprintf(path, sizeof path, "%s/%s.asc", kd, kids[nk]);
		nk++;
		if (write_file(path, b.p, b.len, &ws) != 0)
			rc = -1;
		pgp_buf_free(&b);
		if (pgp_cert_eval(&ev, c, &src, at, pol) != PGP_OK ||
		    add_claims(&cl, &ncl, &capcl, c, &ev) != 0)
			rc = -1;
		pgp_certeval_release(&ev);
	}
	if (ncl)
		qsort(cl, ncl, sizeof *cl, claim_cmp);
	for (i = 0; i < ncl && rc == 0; i++) {
		char qd[3 * PGPKEYS_MAX_COMPONENT + 1], ql[3 * PGPKEYS_MAX_COMPONENT + 1];
		char ed[8400], link[64];
		uint8_t id[8];
		size_t j;
		if (i > 0 && strcmp(cl[i - 1].addr, cl[i].addr) == 0) {
			size_t w = i;
			while (w > 0 && strcmp(cl[w - 1].addr, cl[i].addr) == 0)
				w--;
			cli_msg(dir, "note: %s is also in key %s%s; first key wins: %s",
			    cl[i].addr, cl[i].keyid, cl[i].alive ? "" : " (not valid)", cl[w].keyid);
			continue;
		}
		if (pgpkeys_quote(qd, sizeof qd, (const uint8_t *)cl[i].domain, strlen(cl[i].domain)) != PGP_OK ||
		    pgpkeys_quote(ql, sizeof ql, (const uint8_t *)cl[i].local, strlen(cl[i].local)) != PGP_OK)
			continue;
		snprintf(ed, sizeof ed, "%s/.keyring/openpgp/%s/%s", dir, qd, ql);
		if (cli_mkdirs(ed, 0777, 1) != 0) {
			cli_msg(ed, "cannot create: %s", strerror(errno));
			rc = -1;
			break;
		}
		for (j = 0; j < 8; j++) {
			char h[3] = {cl[i].keyid[2 * j], cl[i].keyid[2 * j + 1], 0};
			id[j] = (uint8_t)strtoul(h, NULL, 16);
		}
		pgpkeys_link_text(link, sizeof link, id);
		snprintf(path, sizeof path, "%s/default", ed);
		if (write_link(path, link, &ws) != 0)
			rc = -1;
	}
	if (rc == 0 && query == NULL)
		report_strays(dir, kids, nk);
	fprintf(stderr, "%s: %zu keys, %zu files written, %zu unchanged%s\n", dir, nk, ws.written,
	    ws.unchanged, ws.failed ? ", some failed" : "");
	for (i = 0; i < ncl; i++) {
		free(cl[i].addr);
		free(cl[i].local);
		free(cl[i].domain);
	}
	free(cl);
	free(kids);
	free(dup);
	return rc;
}

static int
export_stdout(const kr_strip_result *r, const pgp_certset *sset, const char *query, int binary)
{
	pgp_buf bin, out;
	size_t i;
	int rc = 0;
	pgp_buf_init(&bin, (size_t)1 << 30);
	pgp_buf_init(&out, (size_t)2 << 30);
	for (i = 0; i < r->ncerts && rc == 0; i++) {
		const pgp_cert *c = NULL;
		size_t tot = 0;
		pgp_certq q;
		q.kind = PGP_CERTQ_FPR;
		q.p = r->certs[i].cert->primary.fpr.v;
		q.len = r->certs[i].cert->primary.fpr.len;
		if (pgp_certset_find(sset, &q, &c, 1, &tot) != PGP_OK || tot == 0)
			rc = -1;
		else if (matches(c, query) &&
		    pgp_buf_append(&bin, r->certs[i].bin, r->certs[i].len) != PGP_OK)
			rc = -1;
	}
	if (rc == 0 && bin.len == 0) {
		cli_msg(NULL, "no certificate matches");
		rc = 1;
	} else if (rc == 0 && binary) {
		rc = fwrite(bin.p, 1, bin.len, stdout) == bin.len ? 0 : -1;
	} else if (rc == 0) {
		rc = pgp_armor_write(&out, PGP_ARMOR_PUBLIC_KEY, NULL, 0, bin.p, bin.len) == PGP_OK &&
		    fwrite(out.p, 1, out.len, stdout) == out.len ? 0 : -1;
	}
	if (fflush(stdout) != 0)
		rc = -1;
	pgp_buf_free(&bin);
	pgp_buf_free(&out);
	return rc;
}

/* see krsrc.h */
int
cmd_keyring_export(int argc, char **argv)
{
	const char *kpath = NULL, *dir = NULL, *query = NULL, *v;
	char defk[4096];
	int64_t now = (int64_t)time(NULL), at = now;
	int binary = 0, allow_sha1 = 0, i, rc;
	pgp_certset *set = NULL, *sset = NULL;
	pgp_policy pol;
	kr_strip_opts o;
	kr_strip_result r;
	pgp_diag d = {0, -1, NULL};

	for (i = 1; i < argc; i++) {
		if (cli_opt_value(argc, argv, &i, "--keyring", &v)) {
			if ((kpath = v) == NULL)
				goto bad;
		} else if (cli_opt_value(argc, argv, &i, "--pgpkeys", &v)) {
			if ((dir = v) == NULL)
				goto bad;
		} else if (cli_opt_value(argc, argv, &i, "--at", &v)) {
			if (v == NULL || cli_parse_time(v, now, &at) != 0)
				goto bad;
		} else if (strcmp(argv[i], "--binary") == 0) {
			binary = 1;
		} else if (strcmp(argv[i], "--allow-sha1") == 0) {
			allow_sha1 = 1;
		} else if (argv[i][0] == '-' || query != NULL) {
			goto bad;
		} else {
			query = argv[i];
		}
	}
	if (kpath == NULL) {
		if (certs_default_keyring(defk, sizeof defk) != 0) {
			cli_msg("keyring export", "no --keyring given and no default keyring "
			    "location ($WOTKIT_KEYRING, $XDG_DATA_HOME, $HOME)");
			return EXIT_USAGE;
		}
		kpath = defk;
	}
	pgp_policy_init(&pol);
	if (allow_sha1) {
		pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_COLLISION);
		pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	}
	if (pgp_certset_new(&set) != PGP_OK || pgp_certset_new(&sset) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK)
		return EXIT_USAGE;
	if (load_keyring(kpath, set) != 0)
		return EXIT_USAGE;
	memset(&o, 0, sizeof o);
	o.now = at;
	o.pol = &pol;
	o.keep_superseded = 0;
	if (kr_strip(set, &o, &r) != PGP_OK) {
		cli_msg(kpath, "stripping failed");
		return EXIT_USAGE;
	}
	/* the stripped certificates, parsed back: headers, claims and queries
	 * are about what is written */
	for (i = 0; (size_t)i < r.ncerts; i++)
		if (pgp_certset_add(sset, r.certs[i].bin, r.certs[i].len, &d) != PGP_OK) {
			cli_msg(kpath, "a stripped certificate does not parse back");
			return EXIT_USAGE;
		}
	rc = dir ? export_pgpkeys(dir, &r, sset, query, at, &pol) :
	    export_stdout(&r, sset, query, binary);
	pgp_certset_free(sset);
	kr_strip_free(&r);
	pgp_certset_free(set);
	return rc < 0 ? EXIT_USAGE : rc ? EXIT_FAIL : EXIT_OK;
bad:
	usage();
	return EXIT_USAGE;
}
