/* krsrc_int.h - what the krsrc*.c files share (see krsrc.h). */
#ifndef WOTKIT_KRSRC_INT_H
#define WOTKIT_KRSRC_INT_H

#include "cmd/krsrc.h"
#include "keyring/pgpkeys.h"

/* Largest .keyring entry (link text in a plain file) read. */
#define KRSRC_MAX_LINK 4096

typedef struct krsrc_ctx {
	pgp_certset *set;
	krsrc_reports *rep;
	pgpkeys_file *files;
	size_t nfiles, capfiles;
	pgpkeys_entry *entries;
	size_t nentries, capentries;
	char **strs;              /* strings the files/entries point to */
	size_t nstrs, capstrs;
	unsigned tree;            /* index of the source being read */
	int errors;               /* a PGPKEYS_ERROR report was made */
} krsrc_ctx;

/* Append a report (copies file and what). -1 out of memory. */
int krsrc_report_add(krsrc_ctx *x, const char *file, size_t off, int sev, const char *what);
/* An error report for a whole source that could not be read (counted in
 * krsrc_reports.lost). 0, or -1 out of memory. */
int krsrc_source_lost(krsrc_ctx *x, const char *src, const char *what);
/* A copy of s[0..n) that lives as long as x; NULL when out of memory. */
char *krsrc_str(krsrc_ctx *x, const char *s, size_t n);
/*
 * Load one key file's octets (p is malloc()ed; ownership passes, also on
 * error). name: for reports; base: its name inside keys/ (pgpkeys trees) or
 * NULL. Parse errors are reports; -1 only when out of memory or the set
 * became unusable.
 */
int krsrc_add_keyfile(krsrc_ctx *x, const char *name, const char *base, uint8_t *p, size_t len);
/* Record a .keyring/openpgp/<qdomain>/<qlocal>/default entry holding link. */
int krsrc_add_entry(krsrc_ctx *x, const char *name, const char *qdomain, size_t dl,
    const char *qlocal, size_t ll, const uint8_t *link, size_t linklen);

/* Read a pgpkeys working tree / a directory of key files / a git repository. */
int krsrc_tree(krsrc_ctx *x, const char *dir);
int krsrc_keydir(krsrc_ctx *x, const char *dir);
int krsrc_git(krsrc_ctx *x, const char *repo, const char *rev);
/* Read a whole file (at most max octets) into a malloc()ed buffer. 0, or -1
 * with errno set (EFBIG beyond max). */
int krsrc_read_file(const char *path, size_t max, uint8_t **out, size_t *len);

#endif
