/*
 * certify.h - checking signatures over the parts of a certificate: the
 * public check of third-party certifications (RFC 9580 §5.2.1 types
 * 0x10-0x13 and their revocations 0x30), and the one internal core that
 * certificate evaluation (eval.c) shares with it.
 */
#ifndef PGP_CERTIFY_H
#define PGP_CERTIFY_H

#include <stdint.h>
#include "cert.h"
#include "policy.h"

/*
 * Whether `sig`, a certification (0x10-0x13) or certification revocation
 * (0x30) found on user ID `uid_index` of `target`, was made by `issuer`
 * over that user ID and counts at time t under pol:
 *  - type 0x10-0x13 or 0x30, uid_index in range: else PGP_ERR_INVALID;
 *  - an issuer fingerprint or key ID in sig names `issuer`: else
 *    PGP_ERR_NO_KEY (a signature naming no issuer is checked by the math);
 *  - no unknown critical subpacket (PGP_ERR_UNSUPPORTED), a creation time
 *    (PGP_ERR_MALFORMED), not older than the target key or the issuer key
 *    (PGP_ERR_MALFORMED), not after t (PGP_ERR_NOT_YET);
 *  - certifications only: not expired at t (PGP_ERR_EXPIRED), hash and
 *    issuer key accepted for PGP_USE_COLLISION (an attacker may choose what
 *    a third party certifies; PGP_ERR_POLICY). Revocations are honoured
 *    whatever their hash, as in evaluation;
 *  - the math over target's primary key and the user ID (PGP_ERR_BAD_SIG).
 * It does not judge the issuer's own certificate (expired, revoked): the
 * caller evaluates it (pgp_cert_eval) and decides. *why (may be NULL) gets
 * a static reason on failure.
 */
pgp_err pgp_certification_check(const pgp_cert *target, uint32_t uid_index,
    const pgp_sig *sig, const pgp_key *issuer, int64_t t, const pgp_policy *pol,
    const char **why);

/* Internal (certify.c, eval.c): what a key signature is over. */
typedef enum pgp__sigon {
	PGP__ON_DIRECT,   /* the primary key alone: 0x1F, 0x20 */
	PGP__ON_UID,      /* primary key + user ID: 0x10-0x13, 0x30 */
	PGP__ON_SUBKEY,   /* primary key + subkey: 0x18, 0x28 */
	PGP__ON_BACKSIG   /* primary key + subkey, made by the subkey: 0x19 */
} pgp__sigon;

/*
 * Internal: the one check of a signature over (part of) a certificate whose
 * primary key is `primary`, made by `signer`. comp is the pgp_uidc
 * (PGP__ON_UID) or the subkey's pgp_key (PGP__ON_SUBKEY, PGP__ON_BACKSIG).
 * Checks, in order: unknown critical subpacket, creation time present, not
 * older than the key it binds (the subkey for subkey kinds), not after t;
 * then, except for revocations (0x20, 0x28, 0x30): not expired, hash policy
 * for `use`, signer key policy; then the math. *why gets a static reason.
 */
pgp_err pgp__keysig_check(const pgp_key *primary, const pgp_sig *sig, pgp__sigon on,
    const void *comp, const pgp_key *signer, int64_t t, const pgp_policy *pol,
    pgp_hash_use use, const char **why);

/* Internal: sig names k as its issuer (fingerprint if present, else key ID;
 * a signature naming no issuer can only be checked against k). */
int pgp__issued_by(const pgp_sig *sig, const pgp_key *k);

#endif
