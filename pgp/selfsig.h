/*
 * selfsig.h - every self-signature of a certificate, one entry each: what
 * it binds, its hash algorithm, whether its math verifies and whether the
 * policy accepts its hash for self-signatures at t. The per-binding view a
 * linter needs (`wotkit submission check`, like `sq cert lint`): SHA-1
 * bindings, superseded ones, and back-signatures (RFC 9580 §5.2.3.34).
 *
 * Validity is evaluation's (eval.h): this only lists what it looks at. The
 * signatures listed are those issued by the primary key (RFC 9580 §5.2.1):
 * direct-key (0x1F), user ID certifications (0x10-0x13) on user IDs and
 * attributes, subkey bindings (0x18), and the primary key binding signatures
 * (0x19) embedded in subkey bindings (§5.2.3.34), issued by the subkey.
 * Revocations are not listed: they count whatever their hash (eval.h).
 */
#ifndef PGP_SELFSIG_H
#define PGP_SELFSIG_H

#include <stddef.h>
#include <stdint.h>
#include "cert.h"
#include "certify.h"
#include "policy.h"

typedef struct pgp_selfsig {
	uint8_t on;            /* pgp_sigon: DIRECT, UID, SUBKEY, or BACKSIG */
	uint8_t sig_type, version, hash_algo, pk_algo;
	uint32_t comp;         /* user ID (UID) or subkey (SUBKEY, BACKSIG) index; 0 for DIRECT */
	int64_t created;       /* creation time, 0 when the signature carries none */
	uint8_t key_flags;     /* subpacket 27 (§5.2.3.29), first octet */
	uint8_t has_key_flags;
	uint8_t has_backsig;   /* SUBKEY: an Embedded Signature (subpacket 32) is present */
	pgp_err math;          /* pgp_keysig_math over what it binds: PGP_OK verifies */
	const char *math_why;  /* static, when math != PGP_OK */
	pgp_err hash_policy;   /* pgp_policy_hash(hash, PGP_USE_SECOND_PREIMAGE, t) */
	const char *rule;      /* the rule that refused the hash (owned by the policy), or NULL */
	/* The newest signature of its component (the direct-key list, one user
	 * ID, one subkey's bindings) that verifies and was made at or before t,
	 * whatever its hash: the one in force when the policy accepts every hash.
	 * A BACKSIG is current when the binding that carries it is. */
	uint8_t current;
} pgp_selfsig;

/*
 * List the self-signatures of c (order: direct-key, user IDs, subkeys each
 * followed by its bindings' back-signatures, in certificate order) into a
 * malloc'ed array *out (free() it; NULL when *n is 0). Signatures that do
 * not parse, or name another issuer, are not listed. PGP_ERR_NOMEM only;
 * everything else is in the entries.
 */
pgp_err pgp_selfsigs_list(pgp_selfsig **out, size_t *n, const pgp_cert *c, int64_t t,
    const pgp_policy *pol);

#endif
