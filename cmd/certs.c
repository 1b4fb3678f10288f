/* certs.c - keyring files and directories into a pgp_certset. see certs.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "certs.h"
#include "cli.h"
#include "keyring/kr.h"
#include "pgp/pgp.h"

/*
 * A wotkit keyring file among other inputs: its stored certificates (each
 * checksum checked) go into the set like any keyring's, borrowed from p.
 * The set merges them with the other inputs' copies, so a revocation
 * elsewhere still applies.
 */
static pgp_err
add_keyring_mem(pgp_certset *set, const uint8_t *p, size_t len, pgp_diag *diag)
{
	kr_keyring *k = NULL;
	pgp_view v;
	size_t i;
	pgp_err e;
	if ((e = kr_open(&k, p, len, diag)) != PGP_OK)
		return e;
	for (i = 0; i < kr_count(k) && e == PGP_OK; i++)
		if ((e = kr_cert_bytes(k, i, &v)) == PGP_OK)
			e = pgp_certset_add(set, v.p, v.len, diag);
		else if (diag)
			*diag = *kr_last_error(k);
	kr_close(k);
	return e;
}

/* see certs.h */
pgp_err
certs_add_mem(pgp_certset *set, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_buf b;
	size_t n = 0;
	uint8_t *dec;
	pgp_err e;
	pgp_input_class ic;
	/* the one binary-or-armored decision (pgp/classify.h) */
	if (kr_is_keyring(p, len))
		return add_keyring_mem(set, p, len, diag);
	(void)pgp_classify(p, len, &ic);
	if (!pgp_classify_has_armor(&ic, len))
		return pgp_certset_add(set, p, len, diag);
	if ((e = pgp_armor_decode_all(&b, p, len, diag)) != PGP_OK)
		return e;
	dec = pgp_buf_take(&b, &n);
	return dec ? pgp_certset_add_owned(set, dec, n, diag) : PGP_OK;
}

/* see certs.h */
void
certs_warn_refused(const pgp_certset *set, size_t before, const char *file)
{
	size_t i;
	for (i = before; i < pgp_certset_refused(set); i++) {
		const pgp_diag *d = pgp_certset_refusal(set, i);
		cli_msg(file, "offset %zu: warning: certificate refused: %s; signatures by its "
		    "keys are refused too (limit)", d->offset, d->what ? d->what : "a limit");
	}
}

/* Adds the certificates of the open file f (named path). Binary keyrings
 * are used in place: f must stay open while the set lives. */
static int
load_open(pgp_certset *set, const char *path, const cli_file *f)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	size_t before = pgp_certset_refused(set);
	e = certs_add_mem(set, f->p, f->len, &d);
	certs_warn_refused(set, before, path);
	if (e != PGP_OK) {
		cli_report(path, e, &d);
		return -1;
	}
	return 0;
}

static int
load_file(pgp_certset *set, const char *path)
{
	cli_file f;
	if (cli_file_open(&f, path) != 0)
		return -1;
	/* the set borrows from the file: a mapping stays until the process
	 * exits, a read buffer (a pipe, an empty file) goes to the set */
	if (f.heap && pgp_certset_keep(set, f.heap) != PGP_OK) {
		cli_msg(path, "out of memory");
		return -1;
	}
	return load_open(set, path, &f);
}

/* see certs.h */
int
certs_keyfile_name(const char *n)
{
	static const char *const ext[] = {".asc", ".gpg", ".pgp", ".key", ".pub"};
	size_t i, l = strlen(n);
	if (n[0] == '.')
		return 0;
	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		size_t el = strlen(ext[i]);
		if (l > el && strcmp(n + l - el, ext[i]) == 0)
			return 1;
	}
	return 0;
}

static int
load_dir(pgp_certset *set, const char *path)
{
	cli_names ns;
	size_t i;
	int rc = 0;
	if (cli_list_dir(path, &ns) != 0) {
		cli_msg(path, "%s", strerror(errno));
		return -1;
	}
	for (i = 0; i < ns.n && rc == 0; i++) {
		char full[4096];
		if (!certs_keyfile_name(ns.v[i]))
			continue;
		snprintf(full, sizeof full, "%s/%s", path, ns.v[i]);
		rc = load_file(set, full);
	}
	cli_names_free(&ns);
	return rc;
}

/* see certs.h */
int
certs_load(pgp_certset *set, const char *path)
{
	struct stat st;
	if (strcmp(path, "-") != 0 && stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return load_dir(set, path);
	return load_file(set, path);
}

/* see certs.h */
int
certs_default_keyring(char *buf, size_t n)
{
	const char *e = getenv("WOTKIT_KEYRING"), *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
	int l;
	if (e && *e)
		l = snprintf(buf, n, "%s", e);
	else if (x && *x == '/')
		l = snprintf(buf, n, "%s/wotkit/keyring.wk", x);
	else if (h && *h)
		l = snprintf(buf, n, "%s/.local/share/wotkit/keyring.wk", h);
	else
		return -1;
	return l > 0 && (size_t)l < n ? 0 : -1;
}

/* see certs.h */
int
certs_ring_open(certs_ring *r, const char *const *paths, size_t n, int lazy)
{
	struct stat st;
	size_t i;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	int opened = 0;
	memset(r, 0, sizeof *r);
	if (n == 1 && strcmp(paths[0], "-") != 0 && stat(paths[0], &st) == 0 &&
	    S_ISREG(st.st_mode)) {
		if (cli_file_open(&r->krfile, paths[0]) != 0)
			return -1;
		opened = 1;
		if (kr_is_keyring(r->krfile.p, r->krfile.len)) {
			/* the wotkit keyring: mapped read-only, indexed lookups */
			if ((e = kr_open(&r->kr, r->krfile.p, r->krfile.len, &d)) != PGP_OK) {
				cli_report(paths[0], e, &d);
				certs_ring_close(r);
				return -1;
			}
			r->name = paths[0];
			kr_source(r->kr, &r->src);
			return 0;
		}
		/* a raw keyring: the set borrows this mapping (closed after the
		 * set, in certs_ring_close) */
	}
	if (pgp_certset_new(&r->set) != PGP_OK ||
	    (lazy && pgp_certset_set_lazy(r->set) != PGP_OK)) {
		cli_msg(NULL, "out of memory");
		certs_ring_close(r);
		return -1;
	}
	for (i = 0; i < n; i++)
		if ((opened ? load_open(r->set, paths[0], &r->krfile) :
		    certs_load(r->set, paths[i])) != 0) {
			certs_ring_close(r);
			return -1;
		}
	pgp_certset_source(r->set, &r->src);
	return 0;
}

/* see certs.h */
void
certs_ring_warn(const certs_ring *r)
{
	const pgp_diag *d;
	if (r->kr == NULL || (d = kr_last_error(r->kr))->what == NULL)
		return;
	cli_msg(r->name, "offset %zu: %s", d->offset, d->what);
}

/* see certs.h */
void
certs_ring_close(certs_ring *r)
{
	kr_close(r->kr);
	pgp_certset_free(r->set);
	if (r->krfile.p)
		cli_file_close(&r->krfile);
	memset(r, 0, sizeof *r);
}
