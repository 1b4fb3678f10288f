/*
 * certify_int.h - the one check of a signature over (part of) a
 * certificate, shared by certification checks (certify.c) and certificate
 * evaluation (eval.c). Internal to pgp/ (the public API is certify.h).
 */
#ifndef PGP_CERTIFY_INT_H
#define PGP_CERTIFY_INT_H

#include <stdint.h>
#include "cert.h"
#include "packet.h"
#include "policy.h"
#include "certify.h"


/*
 * The one check of a signature over (part of) a certificate whose
 * primary key is `primary`, made by `signer`. comp is the pgp_uidc
 * (PGP_SIGON_UID) or the subkey's pgp_key (PGP_SIGON_SUBKEY, PGP_SIGON_BACKSIG).
 * Checks, in order: unknown critical subpacket, creation time present, not
 * older than the key it binds (the subkey for subkey kinds), not after t
 * (a hard key or subkey revocation is exempt: pgp__is_hard_revocation);
 * then, except for revocations (0x20, 0x28, 0x30): not expired, hash policy
 * for `use`, signer key policy; then the math (pgp_keysig_math, through
 * memo when not NULL). *why gets a static reason.
 */
pgp_err pgp__keysig_check(const pgp_key *primary, const pgp_sig *sig, pgp_sigon on,
    const void *comp, const pgp_key *signer, int64_t t, const pgp_policy *pol,
    pgp_hash_use use, const pgp_sigmemo *memo, const char **why);

/*
 * A key or subkey revocation (0x20, 0x28) that is hard: no reason, or any
 * code but 1 "superseded" and 3 "retired" (RFC 9580 §5.2.3.31), or two
 * hashed creation times (§5.2.3.11 has one: a soft revocation is scoped by
 * its time, and one with two has none). A hard revocation is final: it
 * counts whatever its date, even after the reference time (the key may have
 * been compromised before it was made; only the key's owner or a designated
 * revoker can make one, so this can only make a key less valid).
 */
int pgp__is_hard_revocation(const pgp_sig *sig);

/* sig names k as its issuer (fingerprint if present, else key ID;
 * a signature naming no issuer can only be checked against k). */
int pgp__issued_by(const pgp_sig *sig, const pgp_key *k);

#endif
