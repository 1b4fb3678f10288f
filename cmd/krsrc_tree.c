/* krsrc_tree.c - a pgpkeys.git working tree and directories of key files. see krsrc.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cmd/certs.h"
#include "cmd/krsrc_int.h"

static int
path_join(char *out, size_t cap, const char *a, const char *b)
{
	return (size_t)snprintf(out, cap, "%s/%s", a, b) < cap ? 0 : -1;
}

static int
report_errno(krsrc_ctx *x, const char *path, const char *what)
{
	char msg[256];
	if (errno == ENOMEM)
		return -1;
	snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
	return krsrc_report_add(x, path, 0, PGPKEYS_ERROR, msg);
}

static int
load_path(krsrc_ctx *x, const char *path, const char *base)
{
	uint8_t *p;
	size_t len;
	if (krsrc_read_file(path, PGP_MAX_INPUT_FILE, &p, &len) != 0)
		return report_errno(x, path, "cannot be read");
	return krsrc_add_keyfile(x, path, base, p, len);
}

/* keys/: every *.asc (the name check is pgpkeys_check_files') */
static int
tree_keys(krsrc_ctx *x, const char *dir)
{
	char kd[4096], p[4096];
	cli_names ns;
	size_t i;
	int rc = 0, r;
	if (path_join(kd, sizeof kd, dir, "keys") != 0)
		return krsrc_report_add(x, dir, 0, PGPKEYS_ERROR, "path too long");
	if ((r = cli_list_dir(kd, &ns)) != 0)
		return r > 0 ? 0 : report_errno(x, kd, "cannot be listed");
	for (i = 0; i < ns.n && rc == 0; i++) {
		size_t l = strlen(ns.v[i]);
		if (l < 5 || strcmp(ns.v[i] + l - 4, ".asc") != 0 || ns.v[i][0] == '.')
			continue;
		if (path_join(p, sizeof p, kd, ns.v[i]) != 0)
			rc = krsrc_report_add(x, kd, 0, PGPKEYS_ERROR, "path too long");
		else
			rc = load_path(x, p, ns.v[i]);
	}
	cli_names_free(&ns);
	return rc;
}

/* One entry file: a symlink's text, or a plain file's content. */
static int
tree_entry(krsrc_ctx *x, const char *path, const char *dom, const char *loc)
{
	struct stat st;
	uint8_t buf[KRSRC_MAX_LINK], *p = NULL;
	size_t len = 0;
	int rc;
	if (lstat(path, &st) != 0)
		return errno == ENOENT ? 0 : report_errno(x, path, "cannot be read");
	if (S_ISLNK(st.st_mode)) {
		ssize_t n = readlink(path, (char *)buf, sizeof buf);
		if (n < 0)
			return report_errno(x, path, "cannot be read");
		if ((size_t)n >= sizeof buf)
			return krsrc_report_add(x, path, 0, PGPKEYS_ERROR, "link text too long");
		return krsrc_add_entry(x, path, dom, strlen(dom), loc, strlen(loc), buf, (size_t)n);
	}
	if (!S_ISREG(st.st_mode))
		return krsrc_report_add(x, path, 0, PGPKEYS_ERROR,
		    "entry is neither a symlink nor a file holding the link text");
	if (krsrc_read_file(path, KRSRC_MAX_LINK, &p, &len) != 0)
		return report_errno(x, path, "cannot be read");
	rc = krsrc_add_entry(x, path, dom, strlen(dom), loc, strlen(loc), p, len);
	free(p);
	return rc;
}

/* .keyring/openpgp/<domain>/<local>/default */
static int
tree_entries(krsrc_ctx *x, const char *dir)
{
	char od[4096], dd[4096], ld[4096], ef[4096];
	cli_names doms, locs;
	size_t i, j;
	int rc = 0, r;
	if ((size_t)snprintf(od, sizeof od, "%s/.keyring/openpgp", dir) >= sizeof od)
		return krsrc_report_add(x, dir, 0, PGPKEYS_ERROR, "path too long");
	if ((r = cli_list_dir(od, &doms)) != 0)
		return r > 0 ? 0 : report_errno(x, od, "cannot be listed");
	for (i = 0; i < doms.n && rc == 0; i++) {
		if (path_join(dd, sizeof dd, od, doms.v[i]) != 0 || (r = cli_list_dir(dd, &locs)) < 0) {
			rc = errno == ENOTDIR ? 0 : report_errno(x, od, "cannot be listed");
			continue;
		}
		for (j = 0; j < locs.n && rc == 0; j++) {
			if (path_join(ld, sizeof ld, dd, locs.v[j]) != 0 ||
			    path_join(ef, sizeof ef, ld, "default") != 0) {
				rc = krsrc_report_add(x, dd, 0, PGPKEYS_ERROR, "path too long");
				break;
			}
			rc = tree_entry(x, ef, doms.v[i], locs.v[j]);
		}
		cli_names_free(&locs);
	}
	cli_names_free(&doms);
	return rc;
}

/* see krsrc_int.h */
int
krsrc_tree(krsrc_ctx *x, const char *dir)
{
	if (tree_keys(x, dir) != 0)
		return -1;
	return tree_entries(x, dir);
}

/* see krsrc_int.h */
int
krsrc_keydir(krsrc_ctx *x, const char *dir)
{
	char p[4096];
	cli_names ns;
	size_t i;
	int rc = 0;
	if (cli_list_dir(dir, &ns) != 0)
		return report_errno(x, dir, "cannot be listed");
	for (i = 0; i < ns.n && rc == 0; i++) {
		struct stat st;
		if (!certs_keyfile_name(ns.v[i]))
			continue;
		if (path_join(p, sizeof p, dir, ns.v[i]) != 0) {
			rc = krsrc_report_add(x, dir, 0, PGPKEYS_ERROR, "path too long");
			continue;
		}
		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			continue;
		rc = load_path(x, p, NULL);
	}
	cli_names_free(&ns);
	return rc;
}
