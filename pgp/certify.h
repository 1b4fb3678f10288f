/*
 * certify.h - checking signatures over the parts of a certificate: the
 * public check of third-party certifications (RFC 9580 §5.2.1 types
 * 0x10-0x13 and their revocations 0x30). The core it shares with
 * certificate evaluation (eval.c) is internal: certify_int.h.
 */
#ifndef PGP_CERTIFY_H
#define PGP_CERTIFY_H

#include <stdint.h>
#include "cert.h"
#include "policy.h"
#include "sigmemo.h"

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

/* What a key signature is over (RFC 9580 §5.2.4). */
typedef enum pgp_sigon {
	PGP_SIGON_DIRECT,   /* the primary key alone: 0x1F, 0x20 */
	PGP_SIGON_UID,      /* primary key + user ID or attribute: 0x10-0x13, 0x30 */
	PGP_SIGON_SUBKEY,   /* primary key + subkey: 0x18, 0x28 */
	PGP_SIGON_BACKSIG   /* primary key + subkey, made by the subkey: 0x19 */
} pgp_sigon;

/*
 * The math alone: whether `sig` over the part of the certificate with
 * primary key `primary` named by `on` and comp (a const pgp_uidc * for
 * PGP_SIGON_UID, the subkey's const pgp_key * for SUBKEY and BACKSIG,
 * NULL for DIRECT) was made by `signer`: the digest over that content
 * (§5.2.4), its 2-octet prefix, and the public-key operation (skipped when
 * memo knows the signature's tag; a success is recorded in memo: see
 * sigmemo.h; memo may be NULL). No time, policy, issuer or critical
 * subpacket check: the keyring builder uses this to decide what verifies
 * at all, and evaluation adds the rest. PGP_OK, PGP_ERR_BAD_SIG, or an
 * error for what could not be computed (UNSUPPORTED, MALFORMED, NOMEM).
 * *why (may be NULL) gets a static reason on failure.
 */
pgp_err pgp_keysig_math(const pgp_key *primary, const pgp_sig *sig, pgp_sigon on,
    const void *comp, const pgp_key *signer, const pgp_sigmemo *memo, const char **why);

#endif
