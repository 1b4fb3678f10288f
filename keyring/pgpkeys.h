/*
 * pgpkeys.h - pgpkeys.git's layout, on in-memory data (no file access):
 *
 *   keys/<KEYID>.asc                          KEYID: 16 upper-case hex digits,
 *                                             the primary key ID of the one
 *                                             certificate inside
 *   .keyring/openpgp/<domain>/<local>/default a symlink (or a plain file
 *                                             holding the link text)
 *                                             "../../../../keys/<KEYID>.asc"
 *                                             for the address local@domain,
 *                                             both parts url-quoted
 *
 * (patatt/b4's keyring layout <topdir>/<keytype>/<domain>/<local>/<selector>.)
 * The consistency checks report instead of picking silently; the human
 * header of a keys/ file (what `gpg --list-key` prints) is made here too; and
 * the stream format of `wotkit-git` (docs/git-reader.md) is encoded and
 * decoded here, with the bounded reader.
 *
 * Like pgp/, this prints nothing and never exits.
 */
#ifndef KEYRING_PGPKEYS_H
#define KEYRING_PGPKEYS_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

/* Severity of a report. */
enum {
	PGPKEYS_NOTE = 0,   /* informational (nothing wrong with the keys) */
	PGPKEYS_WARN = 1,   /* inconsistent layout; the keys are still loaded */
	PGPKEYS_ERROR = 2   /* input lost: unreadable, unparsable, a dangling entry */
};

/*
 * A report: file (as the caller names it), offset in it (0 when the report
 * is about the whole file), severity, and a NUL-terminated text. The
 * callback copies what it keeps; a non-PGP_OK return stops the check and is
 * returned by it (PGP_ERR_NOMEM).
 */
typedef pgp_err (*pgpkeys_report_fn)(void *ctx, const char *file, size_t offset,
    int severity, const char *what);

/* ---- names ---- */

/* Longest path component pgpkeys_quote/unquote handle (octets, quoted). */
#define PGPKEYS_MAX_COMPONENT 1024

/*
 * Url-quote in[0..len) into out (NUL-terminated): A-Z a-z 0-9 '-' '.' '_'
 * '~' stay, every other octet becomes %XX (upper-case hex), as Python's
 * urllib.parse.quote(s, safe='') does; a component that would read "." or
 * ".." is written %2E / %2E%2E so it never names a directory. PGP_ERR_LIMIT
 * when out (cap octets, NUL included) is too small; PGP_ERR_INVALID for an
 * empty input.
 */
pgp_err pgpkeys_quote(char *out, size_t cap, const uint8_t *in, size_t len);
/*
 * Decode %XX escapes of in[0..len) into out (NUL-terminated, *outlen
 * octets). PGP_ERR_MALFORMED for a '%' not followed by two hex digits or a
 * decoded NUL; PGP_ERR_LIMIT when out is too small.
 */
pgp_err pgpkeys_unquote(char *out, size_t cap, size_t *outlen, const char *in, size_t len);

/* 1 if name is "<16 hex digits>.asc" (upper or lower case), with the key ID
 * copied to keyid (16 upper-case digits + NUL); else 0. */
int pgpkeys_keyfile_name(const char *name, char keyid[17]);
/* 1 if link[0..len) is "../../../../keys/<KEYID>.asc" (one trailing LF
 * allowed, for link text in a plain file), with keyid filled; else 0. */
int pgpkeys_link_target(const uint8_t *link, size_t len, char keyid[17]);
/* The link text for a key ID, into out[0..cap) (NUL-terminated, 37 octets). */
pgp_err pgpkeys_link_text(char *out, size_t cap, const uint8_t keyid[8]);

/* ---- consistency checks ---- */

/* A key file as loaded: its certificates are the copies
 * [copy0, copy0 + ncopies) of the set (pgp_certset_copy). */
typedef struct pgpkeys_file {
	const char *path;   /* name used in reports */
	const char *base;   /* file name inside keys/, or NULL outside keys/ */
	unsigned tree;      /* which source it came from */
	size_t copy0, ncopies;
} pgpkeys_file;

/* A .keyring entry: the decoded address and the link text it holds. */
typedef struct pgpkeys_entry {
	const char *path;   /* name used in reports */
	unsigned tree;
	const char *local, *domain;   /* decoded (url-unquoted) */
	const uint8_t *link;
	size_t linklen;
} pgpkeys_entry;

/*
 * Checks of the key files of all sources together:
 *  - a keys/ file whose name is not <KEYID>.asc                      WARN
 *  - a keys/ file holding no certificate, or several                 WARN
 *  - a keys/ file named after another key ID than the primary key
 *    ID of the certificate inside                                    WARN
 *  - the same primary fingerprint in two files (reported on the
 *    later file, naming the first)                                   WARN
 * The certificates stay loaded (copies are merged by the set).
 */
pgp_err pgpkeys_check_files(const pgp_certset *set, const pgpkeys_file *files, size_t nfiles,
    pgpkeys_report_fn fn, void *ctx);

/*
 * Checks of the .keyring entries against the keys/ files of their own tree:
 *  - link text that is not ../../../../keys/<KEYID>.asc               ERROR
 *  - a link to a keys/ file the tree does not have                    ERROR
 *  - a link to a file whose certificate has no user ID with the
 *    address local@domain (ASCII case ignored) that pgp_cert_eval
 *    finds bound and unrevoked at t under pol                          ERROR
 * The certificate evaluated is the set's merged one (src: the set, for
 * designated revokers).
 */
pgp_err pgpkeys_check_entries(const pgp_certset *set, const pgpkeys_file *files, size_t nfiles,
    const pgpkeys_entry *entries, size_t nentries, int64_t t, const pgp_policy *pol,
    pgpkeys_report_fn fn, void *ctx);

/* ---- the human header of a keys/ file ---- */

/*
 * Append to out what `gpg --list-options show-notations --list-options
 * no-show-uid-validity --with-subkey-fingerprints --list-key` (GnuPG 2.2)
 * prints for c at time t, one line each, LF-terminated, without the blank
 * line that follows:
 *
 *   pub   rsa4096 2021-09-13 [C] [expires: 2026-09-12]
 *         E11BFDF065745FC2132A36EB05A107C90942CA1E
 *   uid                      Gossamer Gadfly <gossamer-gadfly@kernel.org>
 *   uid                      [jpeg image of size 2774]
 *   sub   rsa2048 2021-09-13 [E]
 *         50B338408D186B9ED8B7FCDD9730B49D452FBA4B
 *
 * Key usage letters S C E A in that order (C always on the primary);
 * "[revoked: DATE]", else "[expired: DATE]", else "[expires: DATE]". User
 * IDs and attributes in stored order, only those bound and unrevoked at t;
 * subkeys in stored order, only those bound, unrevoked and unexpired at t,
 * and none when the primary is revoked or expired. Dates are UTC. Octets of a user ID
 * that are control characters or not UTF-8 are written \xHH. The
 * differences from GnuPG are listed in docs/semantics.md ("Keyring sources
 * and reports").
 */
pgp_err pgpkeys_header(pgp_buf *out, const pgp_cert *c, const pgp_certsrc *src, int64_t t,
    const pgp_policy *pol);

/* ---- the wotkit-git stream (docs/git-reader.md) ---- */

#define PGPKEYS_STREAM_MAGIC "WKGIT1\n"   /* 8 octets with its NUL */
#define PGPKEYS_STREAM_MAGIC_LEN 8
#define PGPKEYS_STREAM_MAX_PATH 4096             /* octets of one path */
#define PGPKEYS_STREAM_MAX_ENTRIES (1u << 18)    /* blob records in one stream */
#define PGPKEYS_STREAM_MAX_BLOB (256u << 20)     /* octets of one blob */
#define PGPKEYS_STREAM_MAX_TOTAL ((size_t)1 << 30) /* octets of a whole stream */
#define PGPKEYS_STREAM_MAX_MSG 1024              /* error / commit text */

enum {
	PGPKEYS_MODE_FILE = 0100644,
	PGPKEYS_MODE_EXEC = 0100755,
	PGPKEYS_MODE_LINK = 0120000
};

typedef enum pgpkeys_item_kind {
	PGPKEYS_ITEM_COMMIT = 'C',   /* text: the commit read (hex object id) */
	PGPKEYS_ITEM_BLOB = 'B'      /* path, mode, data */
} pgpkeys_item_kind;

typedef struct pgpkeys_item {
	pgpkeys_item_kind kind;
	pgp_view path;    /* BLOB: never empty, no NUL, relative, no "."/".."
	                     component, under keys/ or .keyring/ */
	uint32_t mode;    /* BLOB: one of PGPKEYS_MODE_* */
	pgp_view data;    /* BLOB: the blob; COMMIT: the text */
} pgpkeys_item;

/* Called for each item in stream order; non-PGP_OK stops the parse. */
typedef pgp_err (*pgpkeys_item_fn)(void *ctx, const pgpkeys_item *item);

/*
 * Parse a whole stream p[0..len) (the caller read it with a cap of
 * PGPKEYS_STREAM_MAX_TOTAL). Every field is checked before fn sees it; the
 * stream must end with the end record, whose count must equal the blob
 * records seen. An error record ends the stream: PGP_ERR_IO, with *errmsg
 * (optional) pointing at its text. Otherwise PGP_ERR_TRUNCATED,
 * PGP_ERR_MALFORMED or PGP_ERR_LIMIT with diag naming the offset and the
 * rule, or fn's error.
 */
pgp_err pgpkeys_stream_parse(const uint8_t *p, size_t len, pgpkeys_item_fn fn, void *ctx,
    pgp_view *errmsg, pgp_diag *diag);

/* Encoders (wotkit-git): append the magic, one record, the end or an error
 * record to out. The same checks as the parser: PGP_ERR_INVALID for what
 * the parser would refuse, PGP_ERR_LIMIT for out's cap. */
pgp_err pgpkeys_stream_begin(pgp_buf *out);
pgp_err pgpkeys_stream_commit(pgp_buf *out, const char *text);
pgp_err pgpkeys_stream_blob(pgp_buf *out, const char *path, uint32_t mode,
    const uint8_t *data, size_t len);
pgp_err pgpkeys_stream_end(pgp_buf *out, uint32_t nblobs);
pgp_err pgpkeys_stream_error(pgp_buf *out, const char *msg);

#endif
