/*
 * cert.h - certificates (transferable public keys, RFC 9580 §10.1) and sets
 * of them, with lookup by key ID and fingerprint.
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
	size_t off;        /* offset of the primary key packet in its input */
	pgp_view raw;      /* all octets of this certificate in its input */
	pgp_rd *loose;     /* stand-alone key revocations (0x20) naming this key as
	                      issuer, found outside any certificate in the set */
	uint32_t nloose;
};

/*
 * A source of certificates for the verifier: any keyring (in-memory set,
 * indexed on-disk keyring, ...) provides one. find() stores up to `max`
 * certificates that hold a primary key or subkey with this key ID and returns
 * how many it found (it may return more than max: the count is the total).
 */
typedef struct pgp_certsrc {
	size_t (*find)(void *ctx, const uint8_t keyid[8], const pgp_cert **out, size_t max);
	void *ctx;
} pgp_certsrc;

pgp_err pgp_certset_new(pgp_certset **out);
void pgp_certset_free(pgp_certset *s);

/*
 * Parse binary OpenPGP packets holding certificates (a keyring, an export,
 * secret keys whose public parts are used). Trust, marker and padding packets
 * are ignored; packets before the first primary key are skipped, except
 * stand-alone key revocations (revocation certificates, as `gpg --gen-revoke`
 * writes them), which are attached to the certificate of their issuer
 * wherever in the set it is (checked like any revocation when evaluated). A certificate
 * whose primary key does not parse is skipped and counted. Framing errors stop
 * the parse: certificates before the error are kept and the error is returned.
 */
pgp_err pgp_certset_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag);
/* Same, and s takes ownership of p (free()d with the set), even on error. */
pgp_err pgp_certset_add_owned(pgp_certset *s, uint8_t *p, size_t len, pgp_diag *diag);

size_t pgp_certset_count(const pgp_certset *s);
const pgp_cert *pgp_certset_get(const pgp_certset *s, size_t i);
/* Certificates skipped because their primary key could not be parsed. */
size_t pgp_certset_skipped(const pgp_certset *s);
/* see pgp_certsrc.find */
size_t pgp_certset_find(const pgp_certset *s, const uint8_t keyid[8],
    const pgp_cert **out, size_t max);
/* A pgp_certsrc view of the set (valid while the set lives). */
void pgp_certset_source(const pgp_certset *s, pgp_certsrc *out);

/* The key (primary or subkey) of c with this key ID, or NULL. */
const pgp_key *pgp_cert_key_by_id(const pgp_cert *c, const uint8_t keyid[8], int *subkey_index);

#endif
