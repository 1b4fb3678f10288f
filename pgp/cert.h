/*
 * cert.h - certificates (transferable public keys, RFC 9580 §10.1) and sets
 * of them (copies of one key merged), with lookup by key ID, fingerprint
 * and e-mail address, and the pgp_certsrc interface every keyring provides.
 *
 * A pgp_certset parses keyring bytes into certificates whose keys, user IDs
 * and signature bodies are views into those bytes: the bytes must outlive the
 * set (or be handed over with pgp_certset_add_owned). Signatures are kept
 * unparsed and are parsed and checked only when a certificate is evaluated,
 * so loading a large keyring costs one pass of packet framing plus one
 * fingerprint per key.
 */
#ifndef PGP_CERT_H
#define PGP_CERT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rd.h"
#include "packet.h"
#include "sigmemo.h"

typedef struct pgp_cert pgp_cert;
typedef struct pgp_certset pgp_certset;

/* One component (user ID, user attribute or subkey) and its signatures. */
typedef struct pgp_uidc {
	uint8_t is_attr;   /* 1: user attribute (tag 17) */
	pgp_view data;     /* packet body */
	pgp_rd *sigs;      /* signature packet bodies */
	uint32_t nsigs;
} pgp_uidc;

typedef struct pgp_subc {
	pgp_key key;
	pgp_rd *sigs;
	uint32_t nsigs;
} pgp_subc;

struct pgp_cert {
	pgp_key primary;
	pgp_rd *dsigs;     /* signatures directly on the primary key (0x1F, 0x20, ...) */
	uint32_t ndsigs;
	pgp_uidc *uids;
	uint32_t nuids;
	pgp_subc *subs;
	uint32_t nsubs;
	size_t off;        /* offset of the (first copy's) primary key packet in its input */
	pgp_view raw;      /* all octets of the (first) copy in its input */
	pgp_rd *loose;     /* stand-alone key revocations (0x20) naming this key as
	                      issuer, found outside any certificate in the set */
	uint32_t nloose;
	uint32_t ncopies;  /* copies merged into this certificate (1: as parsed) */
};

/*
 * What a certificate source is asked for. Every kind matches the primary
 * key and the subkeys (key ID, fingerprint) or the user IDs (e-mail).
 *
 *   PGP_CERTQ_KEYID  p: 8 octets
 *   PGP_CERTQ_FPR    p: a fingerprint (16, 20 or 32 octets); the whole
 *                    fingerprint must match, not only its key ID part
 *   PGP_CERTQ_EMAIL  p: an addr-spec ("alice@example.org"), compared with
 *                    pgp_uid_email() of every user ID, ignoring ASCII case in
 *                    the whole address (local part and domain)
 */
typedef enum pgp_certq_kind {
	PGP_CERTQ_KEYID = 1,
	PGP_CERTQ_FPR = 2,
	PGP_CERTQ_EMAIL = 3
} pgp_certq_kind;

typedef struct pgp_certq {
	pgp_certq_kind kind;
	const uint8_t *p;
	size_t len;
} pgp_certq;

/*
 * A source of certificates for the verifier: any keyring (in-memory set,
 * indexed on-disk keyring, ...) provides one.
 *
 * find() stores up to `max` matching certificates in out[] and the number
 * of matches in *total (which may exceed max: call again with a larger
 * array to get them all). No match is PGP_OK with *total == 0. Any error
 * (PGP_ERR_NOMEM, PGP_ERR_IO, PGP_ERR_INVALID for a malformed query, ...)
 * means the lookup did not happen: the caller must fail its operation,
 * never treat the key as absent.
 *
 * Lifetime: the certificates handed out stay valid, unchanged, until the
 * source itself is freed (a source that builds certificates on demand, such
 * as an mmap-ed keyring, keeps what it built until then). They are complete:
 * every copy of one primary key the source holds has been merged into one
 * certificate (pgp_certset does this; other sources must too).
 */
typedef struct pgp_certsrc {
	pgp_err (*find)(void *ctx, const pgp_certq *q, const pgp_cert **out, size_t max,
	    size_t *total);
	void *ctx;
	/* Signatures over certificate parts whose public-key math the source
	 * already checked (an indexed keyring records them at build time), or
	 * NULL. Evaluation through this source skips only that math
	 * (sigmemo.h), so verdicts are the same with or without it. */
	const pgp_sigmemo *memo;
} pgp_certsrc;

/* Convenience wrappers around src->find(). */
pgp_err pgp_certsrc_by_keyid(const pgp_certsrc *src, const uint8_t keyid[8],
    const pgp_cert **out, size_t max, size_t *total);
pgp_err pgp_certsrc_by_fpr(const pgp_certsrc *src, const pgp_fpr *fpr,
    const pgp_cert **out, size_t max, size_t *total);
pgp_err pgp_certsrc_by_email(const pgp_certsrc *src, const char *addr, size_t len,
    const pgp_cert **out, size_t max, size_t *total);

/*
 * The e-mail address of a user ID: the octets inside the last "<...>" pair,
 * or, without angle brackets, the whole user ID if it is one word holding an
 * '@' ("alice@example.org"). 0 if there is none (then *out is empty).
 */
int pgp_uid_email(pgp_view uid, pgp_view *out);
/* The order of e-mail addresses that PGP_CERTQ_EMAIL lookups use: octets
 * compared with ASCII case ignored, a prefix first; 0 when they match. */
int pgp_email_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl);

pgp_err pgp_certset_new(pgp_certset **out);
/*
 * For a set made only to be stripped (keyring builds): accept up to
 * max_sigs signatures on one component instead of PGP_MAX_SIGS_PER_COMP
 * (at most PGP_MAX_STRIP_SIGS_PER_COMP). Such a set holds flooded
 * certificates as they are: strip them (keyring/strip.h) before any
 * evaluation, and never hand the set itself to the verifier. Only before
 * anything was added; else PGP_ERR_INVALID.
 */
pgp_err pgp_certset_set_sig_cap(pgp_certset *s, size_t max_sigs);
/*
 * Lazy mode, for large keyrings read to answer a few lookups (`wotkit
 * verify --keyring FILE`): pgp_certset_add only frames the input and
 * indexes the key IDs of its keys (one fingerprint per key); certificates
 * are built when a lookup names one of their key IDs, an e-mail or v3
 * fingerprint lookup builds all of them, and so do count/get/copies/copy.
 * Every answer, error, refusal and limit is the eager set's (certset.c,
 * certscan.c; docs/semantics.md "Lazy key sets"). Lookups then modify the
 * set: never run two at once on one set. Only before anything was added;
 * else PGP_ERR_INVALID.
 */
pgp_err pgp_certset_set_lazy(pgp_certset *s);
void pgp_certset_free(pgp_certset *s);

/*
 * Parse binary OpenPGP packets holding certificates (a keyring, an export,
 * secret keys whose public parts are used). Trust, marker and padding packets
 * are ignored; packets before the first primary key are skipped, except
 * stand-alone key revocations (revocation certificates, as `gpg --gen-revoke`
 * writes them), which are attached to the certificate of their issuer
 * wherever in the set it is (checked like any revocation when evaluated). A
 * certificate whose primary key does not parse is skipped and counted.
 *
 * Copies of one key are merged (docs/semantics.md, "Copies of one key"):
 * after each call, the set holds one certificate per primary key
 * fingerprint, the union of every copy added so far (user IDs by identical
 * octets, subkeys by fingerprint, signatures without duplicate octets,
 * stand-alone revocations included), as GnuPG's import and Sequoia's
 * Cert::merge do. A merge replaces the set's certificate; pointers obtained
 * earlier stay valid (and unchanged) until the set is freed.
 *
 * Errors: a framing error stops the parse; certificates before it are kept
 * and the error is returned (diag says where). PGP_ERR_LIMIT when a
 * certificate (or the merge of its copies) has more than PGP_MAX_UIDS user
 * IDs, PGP_MAX_SUBKEYS subkeys or PGP_MAX_SIGS_PER_COMP signatures on one
 * component: diag->offset is the certificate's offset, diag->tag the
 * component's packet tag (6 primary key, 13 user ID, 14 subkey). After
 * PGP_ERR_NOMEM or PGP_ERR_LIMIT the set is unusable: every later lookup
 * fails with that error and count/get see nothing, so no verdict is ever
 * drawn from a set that lost part of its input.
 */
pgp_err pgp_certset_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag);
/* Same, and s takes ownership of p (free()d with the set), even on error. */
pgp_err pgp_certset_add_owned(pgp_certset *s, uint8_t *p, size_t len, pgp_diag *diag);
/* s takes ownership of the malloc'ed buffer p, which it may borrow from
 * (added with pgp_certset_add), and frees it with the set. PGP_ERR_NOMEM:
 * p is freed at once and the set is unusable, as after a failed add. */
pgp_err pgp_certset_keep(pgp_certset *s, void *p);

/* PGP_OK while the set is usable; after an add failed with PGP_ERR_NOMEM or
 * PGP_ERR_LIMIT, that error (every lookup then fails with it). */
pgp_err pgp_certset_status(const pgp_certset *s);

/* Merged certificates (one per primary key fingerprint), in order of first appearance. */
size_t pgp_certset_count(const pgp_certset *s);
const pgp_cert *pgp_certset_get(const pgp_certset *s, size_t i);
/* Certificates as parsed, before merging (every copy), in input order:
 * for telling which input a key came from. */
size_t pgp_certset_copies(const pgp_certset *s);
const pgp_cert *pgp_certset_copy(const pgp_certset *s, size_t i);
/* Certificates skipped because their primary key could not be parsed. */
size_t pgp_certset_skipped(const pgp_certset *s);
/*
 * Certificates refused for a limit (more than PGP_MAX_SIGS_PER_COMP
 * signatures on one component, more than PGP_MAX_UIDS user IDs or
 * PGP_MAX_SUBKEYS subkeys): the rest of the input is still read, and every
 * lookup that names one of their key IDs, fingerprints or user ID addresses
 * fails with PGP_ERR_LIMIT (fail closed: the refused octets might hold a
 * revocation). pgp_certset_refusal(s, i) says why: the certificate's offset
 * in its input, the component's packet tag and a static text; valid while
 * s lives.
 */
size_t pgp_certset_refused(const pgp_certset *s);
const pgp_diag *pgp_certset_refusal(const pgp_certset *s, size_t i);
/* see pgp_certsrc.find; results are merged certificates */
pgp_err pgp_certset_find(const pgp_certset *s, const pgp_certq *q,
    const pgp_cert **out, size_t max, size_t *total);
/* A pgp_certsrc view of the set (valid while the set lives). Lookups on one
 * set must not run in several threads at once (the e-mail index is built on
 * the first e-mail lookup). */
void pgp_certset_source(const pgp_certset *s, pgp_certsrc *out);

/* The key (primary or subkey) of c with this key ID, or NULL. */
const pgp_key *pgp_cert_key_by_id(const pgp_cert *c, const uint8_t keyid[8], int *subkey_index);
/* The key of c with this fingerprint, or NULL; *subkey_index -1 for the primary. */
const pgp_key *pgp_cert_key_by_fpr(const pgp_cert *c, const pgp_fpr *fpr, int *subkey_index);

#endif
