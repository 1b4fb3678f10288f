/*
 * submission.h - the parts of `wotkit submission` (docs/submission.md):
 * the report (a list of named checks, each pass / warn / fail / skip), the
 * checks of one submitted key (submission_check.c), the nonce challenge
 * (submission_nonce.c) and the would-be path to the root
 * (submission_path.c). cmd/submission.c parses options and prints.
 */
#ifndef WOTKIT_SUBMISSION_H
#define WOTKIT_SUBMISSION_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

enum { SUB_PASS = 0, SUB_WARN, SUB_SKIP, SUB_FAIL };

#define SUB_MAX_CHECKS 256
#define SUB_TEXT_MAX 768

typedef struct sub_check {
	const char *name;     /* static: "parse", "self-sig-hash", ... */
	int verdict;          /* SUB_* */
	char text[SUB_TEXT_MAX]; /* escaped for printing (no control octets) */
} sub_check;

typedef struct sub_report {
	sub_check v[SUB_MAX_CHECKS];
	size_t n;
	size_t dropped;       /* checks beyond SUB_MAX_CHECKS (counted; a failure among them still fails) */
	int dropped_fail;
} sub_report;

/* Append a check; the text is printf-formatted (already escaped by the caller). */
void sub_add(sub_report *r, const char *name, int verdict, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* Untrusted octets p[0..n) escaped (controls, invalid UTF-8 as \xNN) into buf. */
void sub_esc(char *buf, size_t bn, const uint8_t *p, size_t n);
/* 1 when any check failed. */
int sub_failed(const sub_report *r);

/* What the checks work on. */
typedef struct sub_key {
	uint8_t *bin;         /* the decoded certificate octets (owned) */
	size_t len;
	pgp_certset *set;     /* one certificate */
	const pgp_cert *cert;
	pgp_certsrc src;
} sub_key;

/*
 * Parse the submitted file: one armored "PGP PUBLIC KEY BLOCK" (or binary
 * packets), nothing after it, every packet framed, no secret key material,
 * exactly one certificate. Adds the "parse" and "single" checks. 0 when
 * k holds exactly one certificate; -1 otherwise (checks say why).
 */
int sub_parse(sub_report *r, const uint8_t *p, size_t len, sub_key *k);
void sub_key_free(sub_key *k);

/* The key's own checks at t: primary-bound, revoked, expired, self-sig-hash,
 * key-size, back-sig, signing. -1 on out of memory (after a message). */
int sub_check_key(sub_report *r, const sub_key *k, int64_t t, const pgp_policy *pol);

/* email: a valid user ID of the key carries addr (ASCII case ignored). */
void sub_check_email(sub_report *r, const sub_key *k, const char *addr, int64_t t,
    const pgp_policy *pol);

/* The nonce format: "wotkit-submission-nonce EMAIL DATE HEX" (one line, no
 * newline). Parse it: 0 with addr (NUL-terminated) and *issued set, -1 when
 * the text is not in that form. */
#define SUB_NONCE_TAG "wotkit-submission-nonce"
#define SUB_NONCE_OCTETS 16
int sub_nonce_parse(const uint8_t *p, size_t n, char *addr, size_t an, int64_t *issued);
/* Make a nonce for addr issued at t into buf; 0 or -1 (no randomness). */
int sub_nonce_make(char *buf, size_t bn, const char *addr, int64_t t);

/* nonce: the detached signature sig[0..sl) verifies over exactly
 * text[0..tl) with a key of k's certificate, at t. */
void sub_check_nonce(sub_report *r, const sub_key *k, const uint8_t *text, size_t tl,
    const uint8_t *sig, size_t sl, int64_t t, const pgp_policy *pol);

/*
 * path: the key added to keyring `keyring` (a wotkit keyring file, or raw
 * key files with root_hex), stripped and built as `wotkit keyring build`
 * does, in memory; the path from the root (root_hex, or the keyring's
 * recorded root) to the key within maxdepth hops, or why there is none.
 * Adds the "path" check. -1 on I/O or memory errors (after a message).
 */
int sub_check_path(sub_report *r, const sub_key *k, const char *keyring, const char *root_hex,
    int64_t t, const pgp_policy *pol, unsigned maxdepth);

#endif
