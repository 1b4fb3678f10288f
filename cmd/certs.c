/* certs.c - keyring files and directories into a pgp_certset. see certs.h */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "certs.h"
#include "cli.h"
#include "pgp/pgp.h"

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

static int
load_file(pgp_certset *set, const char *path)
{
	cli_file f;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	size_t before = pgp_certset_refused(set);
	if (cli_file_open(&f, path) != 0)
		return -1;
	/* Binary keyrings are used in place: the mapping (or read buffer)
	 * stays until the process exits, as the set borrows from it. */
	e = certs_add_mem(set, f.p, f.len, &d);
	certs_warn_refused(set, before, path);
	if (e != PGP_OK) {
		cli_report(path, e, &d);
		return -1;
	}
	return 0;
}

static int
keyring_name(const char *n)
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
cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int
load_dir(pgp_certset *set, const char *path)
{
	DIR *d = opendir(path);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0;
	if (d == NULL) {
		cli_msg(path, "%s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!keyring_name(de->d_name))
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 64) * sizeof *nn);
			if (nn == NULL) {
				rc = -1;
				break;
			}
			names = nn;
		}
		if ((names[n] = strdup(de->d_name)) == NULL) {
			rc = -1;
			break;
		}
		n++;
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof *names, cmpstr);
	for (i = 0; i < n; i++) {
		char full[4096];
		if (rc == 0) {
			snprintf(full, sizeof full, "%s/%s", path, names[i]);
			rc = load_file(set, full);
		}
		free(names[i]);
	}
	free(names);
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
