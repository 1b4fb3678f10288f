/*
 * krsrc.h - keyring build sources: pgpkeys.git trees, git repositories,
 * key files and directories of them (issue 13 design; cmd/krsrc*.c).
 */
#ifndef WOTKIT_KRSRC_H
#define WOTKIT_KRSRC_H

#include <stddef.h>
#include "pgp/pgp.h"

/* Load every SRC (pgpkeys tree dir, git repo, key file, dir of key files) into set; reports appended.
 * rev: for git repositories (NULL = HEAD). Returns 0 ok, 1 input errors reported (continue), -1 fatal. */
typedef struct krsrc_report { char *file; size_t offset; char *what; int severity; } krsrc_report;
typedef struct krsrc_reports { krsrc_report *v; size_t n, cap; } krsrc_reports;
int krsrc_load(const char *const *srcs, size_t n, const char *rev, pgp_certset *set, krsrc_reports *rep);
void krsrc_reports_free(krsrc_reports *r);
int cmd_keyring_export(int argc, char **argv);   /* `wotkit keyring export ...` */

#endif
