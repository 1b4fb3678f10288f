/*
 * krsrc.h - the sources of `wotkit keyring build` and `keyring export`:
 *
 *   a pgpkeys.git working tree   a directory with keys/ and/or .keyring/
 *                                (keys/<KEYID>.asc and the entries
 *                                .keyring/openpgp/<domain>/<local>/default,
 *                                symlinks or plain files holding the link text)
 *   a git repository             bare or not (a .git inside, or HEAD + objects/):
 *                                its keys/ and .keyring/ are read from the
 *                                object database at REV (default HEAD), with no
 *                                checkout, by the separate executable wotkit-git
 *                                (docs/git-reader.md); wotkit never links libgit2
 *   a key file                   binary or armored, also concatenated
 *   a directory of key files     *.asc, *.gpg, *.pgp, *.key, *.pub in name order
 *
 * "tree:DIR" forces a directory to be read as a working tree (the files on
 * disk of a checkout), "git:DIR" as a repository.
 *
 * Nothing is silently picked: inconsistencies are reports (keyring/pgpkeys.h
 * does the checks on the loaded data), each naming the file, the offset,
 * what, and a severity (PGPKEYS_NOTE, _WARN, _ERROR).
 */
#ifndef WOTKIT_KRSRC_H
#define WOTKIT_KRSRC_H

#include <stdio.h>
#include "pgp/pgp.h"

/* Load every SRC (pgpkeys tree dir, git repo, key file, dir of key files) into set; reports appended.
 * rev: for git repositories (NULL = HEAD). Returns 0 ok, 1 input errors reported (continue), -1 fatal. */
typedef struct krsrc_report { char *file; size_t offset; char *what; int severity; } krsrc_report;
/* lost: sources named by the caller that gave nothing because they could not
 * be read at all (a file that cannot be read, a repository wotkit-git could
 * not read): a command that replaces a keyring refuses to, rather than write
 * one without them (issue 17, faults). */
typedef struct krsrc_reports { krsrc_report *v; size_t n, cap; size_t lost; } krsrc_reports;
int krsrc_load(const char *const *srcs, size_t n, const char *rev, pgp_certset *set, krsrc_reports *rep);
void krsrc_reports_free(krsrc_reports *r);
int cmd_keyring_export(int argc, char **argv);   /* `wotkit keyring export ...` */

/*
 * krsrc_load with the reference time and policy of the .keyring entry
 * check (is the address in a user ID valid at t?); krsrc_load uses the
 * current time and the standard policy. 1 means a report of severity
 * PGPKEYS_ERROR was made (input lost or a dangling entry); warnings alone
 * give 0. -1: out of memory, or the set became unusable.
 */
int krsrc_load_at(const char *const *srcs, size_t n, const char *rev, int64_t t,
    const pgp_policy *pol, pgp_certset *set, krsrc_reports *rep);

/* `wotkit keyring check [--rev REV] [--at TIME] [--allow-sha1] [--list] SRC...`
 * (cmd/kr_check.c): load the sources, print the reports (and with --list the
 * fingerprints loaded); builds nothing. cmd/keyring.c dispatches "check". */
int cmd_keyring_check(int argc, char **argv);

/* Print each report on stderr: "wotkit: FILE: offset N: warning: WHAT". */
void krsrc_reports_print(const krsrc_reports *r);
/* "note", "warning", "error". */
const char *krsrc_severity_name(int severity);

#endif
