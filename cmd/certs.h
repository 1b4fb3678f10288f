/* certs.h - load --keyring FILE|DIR arguments into a certificate set. */
#ifndef WOTKIT_CERTS_H
#define WOTKIT_CERTS_H

#include "cli.h"
#include "pgp/pgp.h"

/*
 * Adds the certificates of `path`: a binary or armored keyring file (also a
 * concatenation of armored blocks), or a directory whose *.asc, *.gpg, *.pgp,
 * *.key and *.kbx-less files are loaded in name order (a pgpkeys.git keys/
 * directory works as is). Prints a diagnostic naming the file and offset and
 * returns -1 when a file is unreadable or malformed; 0 on success.
 */
int certs_load(pgp_certset *set, const char *path);
/* A directory entry taken as a key file: not hidden, ending in .asc, .gpg,
 * .pgp, .key or .pub. */
int certs_keyfile_name(const char *name);

/*
 * Adds the certificates in p[0..len): armored input is decoded into memory
 * the set owns; binary input, and the stored certificates of a wotkit
 * keyring file (keyring/kr.h, checksums checked), are used in place, so p
 * must outlive the set.
 * Prints nothing; diag says where parsing failed.
 */
pgp_err certs_add_mem(pgp_certset *set, const uint8_t *p, size_t len, pgp_diag *diag);
/* Warns on stderr about each certificate refused for a limit since the set
 * had `before` refusals (pgp_certset_refused), naming `file`. */
void certs_warn_refused(const pgp_certset *set, size_t before, const char *file);

struct kr_keyring;
/*
 * The certificates of the --keyring arguments of one command: either raw
 * keyring files and directories merged into a pgp_certset, or exactly one
 * wotkit keyring file (keyring/kr.h, recognised by its magic), mapped
 * read-only and queried through its indexes. src is the source to verify
 * or evaluate against. lazy: raw files make a lazy set (pgp_certset_set_lazy:
 * only the certificates a lookup names are built), for verification.
 * certs_ring_open prints its diagnostics; 0 or -1.
 */
typedef struct certs_ring {
	pgp_certset *set;          /* raw input, or NULL */
	struct kr_keyring *kr;     /* the wotkit keyring, or NULL */
	cli_file krfile;           /* the one file of a single-file ring (a wotkit
	                              keyring, or a raw keyring the set borrows) */
	const char *name;
	pgp_certsrc src;
} certs_ring;
int certs_ring_open(certs_ring *r, const char *const *paths, size_t n, int lazy);
/* After a failed lookup through a wotkit keyring: print what was damaged. */
void certs_ring_warn(const certs_ring *r);
void certs_ring_close(certs_ring *r);

/* The default keyring file: $WOTKIT_KEYRING, else
 * $XDG_DATA_HOME/wotkit/keyring.wk, else ~/.local/share/wotkit/keyring.wk.
 * 0, or -1 when none can be named. */
int certs_default_keyring(char *buf, size_t n);

#endif
