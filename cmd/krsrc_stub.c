/*
 * krsrc_stub.c - STAND-IN for cmd/krsrc*.c and cmd/kr_export.c (helper
 * "sources"), so `wotkit keyring build` works before the branches merge.
 * The lead deletes this file at merge.
 *
 * krsrc_load reads plain key files (binary or armored) and directories of
 * them (a pgpkeys.git tree: its keys/ directory); no git repositories, no
 * .keyring/ checks. Files stay mapped until krsrc_reports_free (the set
 * borrows binary input: free the set first).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "certs.h"
#include "cli.h"
#include "krsrc.h"

static void
report(krsrc_reports *rep, const char *file, size_t off, const char *what, int sev)
{
	if (rep->n == rep->cap) {
		size_t nc = rep->cap ? rep->cap * 2 : 16;
		krsrc_report *v = realloc(rep->v, nc * sizeof *v);
		if (v == NULL)
			return;
		rep->v = v;
		rep->cap = nc;
	}
	rep->v[rep->n].file = strdup(file);
	rep->v[rep->n].offset = off;
	rep->v[rep->n].what = strdup(what);
	rep->v[rep->n].severity = sev;
	rep->n++;
}

/* Files kept open while the set borrows them; closed by
 * krsrc_reports_free (the stand-in's only global state). */
static cli_file **open_files;
static size_t nopen_files;

static int
load_file(const char *path, pgp_certset *set, krsrc_reports *rep)
{
	cli_file *f = calloc(1, sizeof *f);
	cli_file **nf;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	if (f == NULL || (nf = realloc(open_files, (nopen_files + 1) * sizeof *nf)) == NULL) {
		free(f);
		return -1;
	}
	open_files = nf;
	if (cli_file_open(f, path) != 0) {
		free(f);
		report(rep, path, 0, "unreadable", 1);
		return 1;
	}
	open_files[nopen_files++] = f;
	/* kept open: the set borrows binary input */
	e = certs_add_mem(set, f->p, f->len, &d);
	if (e == PGP_ERR_NOMEM)
		return -1;
	if (e != PGP_OK) {
		report(rep, path, d.offset, d.what ? d.what : pgp_strerror(e), 1);
		return 1;
	}
	return 0;
}

static int
keyfile_name(const char *n)
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
load_dir(const char *path, pgp_certset *set, krsrc_reports *rep)
{
	char keys[4096], full[4096];
	struct stat st;
	DIR *d;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0, r;
	snprintf(keys, sizeof keys, "%s/keys", path);
	if (stat(keys, &st) == 0 && S_ISDIR(st.st_mode))
		path = keys;  /* a pgpkeys.git tree */
	if ((d = opendir(path)) == NULL) {
		report(rep, path, 0, strerror(errno), 1);
		return 1;
	}
	while ((de = readdir(d)) != NULL) {
		if (!keyfile_name(de->d_name))
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
		if (rc >= 0) {
			int l = snprintf(full, sizeof full, "%s/%s", path, names[i]);
			if (l < 0 || (size_t)l >= sizeof full)
				r = 1, report(rep, names[i], 0, "path too long", 1);
			else if ((r = load_file(full, set, rep)) != 0)
				rc = r < 0 ? -1 : 1;
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

/* see krsrc.h */
int
krsrc_load(const char *const *srcs, size_t n, const char *rev, pgp_certset *set,
    krsrc_reports *rep)
{
	size_t i;
	int rc = 0, r;
	struct stat st;
	(void)rev;
	for (i = 0; i < n && rc >= 0; i++) {
		if (strcmp(srcs[i], "-") != 0 && stat(srcs[i], &st) == 0 && S_ISDIR(st.st_mode))
			r = load_dir(srcs[i], set, rep);
		else
			r = load_file(srcs[i], set, rep);
		if (r != 0)
			rc = r < 0 ? -1 : 1;
	}
	return rc;
}

/* see krsrc.h */
void
krsrc_reports_free(krsrc_reports *r)
{
	size_t i;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].file);
		free(r->v[i].what);
	}
	free(r->v);
	memset(r, 0, sizeof *r);
	for (i = 0; i < nopen_files; i++) {
		cli_file_close(open_files[i]);
		free(open_files[i]);
	}
	free(open_files);
	open_files = NULL;
	nopen_files = 0;
}

/* see krsrc.h */
int
cmd_keyring_export(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_msg("keyring export", "not available in this build (stand-in)");
	return EXIT_USAGE;
}
