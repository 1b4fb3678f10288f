/*
 * krbuild.h - the one write path of the wotkit keyring file, shared by
 * `wotkit keyring build` (cmd/keyring.c) and `wotkit refresh`
 * (cmd/refresh*.c): a loaded certificate set is stripped (keyring/strip.h)
 * with the build's options, the root is checked to be one of its
 * certificates, and the result is serialized (keyring/kr.h) either into
 * memory or straight into the file through cli_atomic (temporary file,
 * fsync, rename, directory fsync: a kill at any moment leaves the previous
 * keyring or the new one).
 */
#ifndef WOTKIT_KRBUILD_H
#define WOTKIT_KRBUILD_H

#include <stdint.h>
#include "keyring/kr.h"
#include "keyring/strip.h"
#include "pgp/pgp.h"

typedef struct krb_opts {
	const char *cmd;              /* "keyring build", "refresh": for messages */
	int64_t at;                   /* the strip's reference time */
	const pgp_policy *pol;
	unsigned threads;             /* 0: all cores */
	const pgp_fpr *root;          /* NULL: none recorded */
	const char *root_arg;         /* the root as the user wrote it (messages), or NULL */
	int progress;                 /* report progress on stderr */
	int quiet;                    /* print no strip notes */
	int details;                  /* keep the per-signature details (kr_strip_opts.details) */
} krb_opts;

/*
 * Strip set as `keyring build` does (superseded signatures kept), print the
 * strip's notes, and check that o->root (when given) is the primary key of
 * one of the stripped certificates. sr is filled (kr_strip_free it, also on
 * failure). 0, or -1 after a message.
 */
int krb_strip(pgp_certset *set, const krb_opts *o, kr_strip_result *sr);

/* The keyring's octets into out (pgp_buf_init'ed by the caller with a cap:
 * KR_MAX_FILE). 0, or -1 after a message. */
int krb_to_mem(const krb_opts *o, const kr_strip_result *sr, const kr_meta *meta, pgp_buf *out);

/*
 * Write the keyring file path atomically, serialized as it is written (no
 * second copy of the certificates); *octets: its size. 0 when path was
 * replaced; -1 after a message (path unchanged).
 */
int krb_write(const krb_opts *o, const kr_strip_result *sr, const kr_meta *meta, const char *path,
    size_t *octets);

/* Write data[0..len) as the file path atomically (temporary file, fsync,
 * rename, directory fsync). 0, or -1 after a message (path unchanged). */
int krb_write_bytes(const char *path, const uint8_t *data, size_t len);

/* The build's summary on stderr: "wotkit: CMD: PATH: N certificates, ...". */
void krb_summary(const krb_opts *o, const kr_strip_result *sr, const char *path, size_t octets);

#endif
