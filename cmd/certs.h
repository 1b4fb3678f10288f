/* certs.h - load --keyring FILE|DIR arguments into a certificate set. */
#ifndef WOTKIT_CERTS_H
#define WOTKIT_CERTS_H

#include "pgp/pgp.h"

/*
 * Adds the certificates of `path`: a binary or armored keyring file (also a
 * concatenation of armored blocks), or a directory whose *.asc, *.gpg, *.pgp,
 * *.key and *.kbx-less files are loaded in name order (a pgpkeys.git keys/
 * directory works as is). Prints a diagnostic naming the file and offset and
 * returns -1 when a file is unreadable or malformed; 0 on success.
 */
int certs_load(pgp_certset *set, const char *path);

/*
 * Adds the certificates in p[0..len): armored input is decoded into memory
 * the set owns; binary input is used in place, so p must outlive the set.
 * Prints nothing; diag says where parsing failed.
 */
pgp_err certs_add_mem(pgp_certset *set, const uint8_t *p, size_t len, pgp_diag *diag);
/* Warns on stderr about each certificate refused for a limit since the set
 * had `before` refusals (pgp_certset_refused), naming `file`. */
void certs_warn_refused(const pgp_certset *set, size_t before, const char *file);

#endif
