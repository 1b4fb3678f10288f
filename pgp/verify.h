/*
 * verify.h - signature verification: detached, inline-signed and
 * cleartext-signed data, against certificates from any pgp_certsrc.
 *
 * This is the one verification API; `wotkit verify`, `wotkit sopv` and the
 * gpg drop-in are front ends on it. Verdicts are reproducible: the
 * reference time is a parameter.
 *
 * Semantics (docs/semantics.md): the certificate is evaluated at the
 * reference time `now`; the signing key must have been alive (created, bound,
 * not expired) when the signature was made; a hard revocation voids every
 * signature, a soft one (superseded/retired) those made after it; the
 * signature itself must not be expired at `now` nor made after it; its hash
 * must pass the policy for data signatures. A signature is good only when
 * its status is PGP_OK.
 */
#ifndef PGP_VERIFY_H
#define PGP_VERIFY_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "cert.h"
#include "policy.h"

typedef struct pgp_verify_opts {
	int64_t now;           /* reference time */
	int64_t not_before;    /* signatures created before this are refused; INT64_MIN: none */
	int64_t not_after;     /* signatures created after this are refused; INT64_MAX: none */
	const pgp_policy *policy; /* NULL: the standard policy */
} pgp_verify_opts;

/* Fill defaults: no window, standard policy. */
void pgp_verify_opts_init(pgp_verify_opts *o, int64_t now);

typedef struct pgp_result {
	pgp_err status;          /* PGP_OK: good signature */
	const char *reason;      /* static: the rule or check that decided, NULL when good */
	uint8_t sig_version, sig_type, pk_algo, hash_algo;
	uint8_t text_mode;       /* signature type 0x01 */
	int64_t created;         /* signature creation time (0 if unknown) */
	int64_t sig_expires;     /* absolute, 0 = never */
	uint8_t issuer[8];
	uint8_t has_issuer;
	pgp_fpr issuer_fpr;      /* len 0 if the signature carries none */
	const pgp_cert *cert;    /* the certificate that was tried last, NULL if none */
	pgp_fpr cert_fpr;        /* primary key fingerprint (len 0 if no cert) */
	pgp_fpr key_fpr;         /* signing key fingerprint (primary or subkey) */
	int subkey;              /* index of the signing subkey, -1 for the primary */
	pgp_view primary_uid;    /* the cert's primary user ID (view into the keyring), or empty */
	int64_t key_expires;     /* signing key expiry (absolute), 0 = never */
	uint8_t key_expired_now; /* good at signing time, but the key has expired since */
	uint8_t bare_key;        /* the certificate is a bare key without self-signatures */
	uint8_t revoker_unchecked; /* a designated revoker's key revocation could not be
	                            * checked: the revoker's key is not in the key set */
	size_t offset;           /* offset of the signature packet in its input */
} pgp_result;

typedef struct pgp_verifier pgp_verifier;

/*
 * Detached signatures, streaming. `sigs` is binary or armored (any number of
 * signature packets). Errors: MALFORMED/TRUNCATED for an unparsable file,
 * NO_SIG when it holds no signature packet.
 */
pgp_err pgp_verifier_new(pgp_verifier **out, const uint8_t *sigs, size_t len, pgp_diag *diag);
void pgp_verifier_update(pgp_verifier *v, const uint8_t *data, size_t n);
/*
 * Computes every result. Returns PGP_OK if it ran (results say good or not).
 * Every certificate is evaluated once per call, however many signatures
 * (or checks of other certificates holding a signing key) need it. An
 * error (PGP_ERR_NOMEM, or an error of src->find) fails the whole run: no
 * result is kept. Results point into certificates of src (pgp_result.cert,
 * .primary_uid): src must outlive the verifier's use of them.
 *
 * A signing key's material held by other certificates of src too
 * (docs/semantics.md "Copies of one key"): a revocation of it in any of them
 * (hard, or soft before the signature) makes the signature's status
 * PGP_ERR_REVOKED; a bare key (no user ID, subkey or signature) is
 * PGP_ERR_UNUSABLE when another certificate holds the same key material.
 */
pgp_err pgp_verifier_finish(pgp_verifier *v, const pgp_certsrc *src, const pgp_verify_opts *o);

/*
 * Inline-signed message (RFC 9580 §10.3: one-pass signed, signature-first,
 * compressed; binary or armored), or a cleartext-signed message (§7). The
 * input is one message and nothing else: binary input (first octet a CTB),
 * or text that starts, after whitespace, with the armor or cleartext header
 * and ends, before whitespace, with its END line. The signed content
 * (literal data, or the dash-unescaped cleartext) is available with
 * pgp_verifier_content(); it may point into msg, so msg must stay valid as
 * long as the verifier.
 */
pgp_err pgp_verify_message(pgp_verifier **out, const uint8_t *msg, size_t len,
    const pgp_certsrc *src, const pgp_verify_opts *o, pgp_diag *diag);

size_t pgp_verifier_count(const pgp_verifier *v);
const pgp_result *pgp_verifier_result(const pgp_verifier *v, size_t i);
/* Number of results with status PGP_OK (signature packets, not signers). */
size_t pgp_verifier_good(const pgp_verifier *v);
/*
 * Number of DISTINCT certificates (by primary key fingerprint) with at
 * least one good signature: what an "N of M signers" rule counts. The same
 * signature twice, or signatures by a primary key and by its subkey, are
 * one signer.
 */
size_t pgp_verifier_good_signers(const pgp_verifier *v);
pgp_view pgp_verifier_content(const pgp_verifier *v);
/* 1 if the input was a cleartext-signed message, 2 inline-signed, 0 detached. */
int pgp_verifier_kind(const pgp_verifier *v);
void pgp_verifier_free(pgp_verifier *v);

#endif
