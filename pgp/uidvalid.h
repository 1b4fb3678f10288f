/*
 * uidvalid.h - one-hop user ID validation: is a user ID of a certificate
 * vouched for by one of a set of authority certificates at time t under a
 * policy? The rule of sop's `validate-userid` (sopv 1.2,
 * draft-dkg-openpgp-stateless-cli §"validate-userid": "succeed if and only
 * if all OpenPGP certificates on standard input are correctly bound by at
 * least one valid signature from one authority to the USERID in
 * question"). No paths longer than one hop, no trust amounts: a direct
 * statement by an authority, or the authority's own self-bound user ID.
 *
 * A user ID U of target T is validated at t when
 *  - T's primary key is valid at t (pgp_cert_eval: bound, not revoked,
 *    not expired), and U is not revoked by T's holder (a user ID
 *    revocation 0x30 in force, RFC 9580 §5.2.1), and
 *  - either an authority A other than T certified U (0x10-0x13) with a
 *    certification that pgp_certification_check accepts at t (made at or
 *    before t, by A's primary key or a certification-capable subkey of A,
 *    not expired, hash and key accepted by the policy for collision
 *    resistance, the math), A's primary key is valid at t (and the subkey,
 *    when a subkey certified), and A has not revoked it: no certification
 *    revocation (0x30) over U by a key of A, made at or after the
 *    certification and at or before t (§5.2.1 0x30: "revokes an earlier
 *    User ID certification"; a later certification stands);
 *  - or T is itself one of the authorities and U is self-bound at t
 *    (an authority vouches for its own user IDs, as the sop-java test
 *    suite expects: "Alice accepts her own self-certified user-id").
 * With a third-party certification U need not carry T's own binding: a
 * "pet name" an authority gave T (sop certify-userid --no-require-self-sig)
 * is validated by that authority.
 */
#ifndef PGP_UIDVALID_H
#define PGP_UIDVALID_H

#include <stddef.h>
#include <stdint.h>
#include "cert.h"
#include "policy.h"

/* Which user IDs of the target the query names. */
typedef enum pgp_uidmatch {
	PGP_UIDMATCH_EXACT = 0,    /* the whole user ID, octet for octet */
	PGP_UIDMATCH_ADDR_SPEC = 1 /* the query is an addr-spec, compared with
	                              pgp_uid_email() of each user ID by
	                              pgp_email_cmp() (ASCII case ignored) */
} pgp_uidmatch;

/* Whose key state a refusal reports (pgp_uidvalid.whose). */
typedef enum pgp_uidvalid_whose {
	PGP_UIDVALID_SIG = 0,       /* a user ID or a certification (or nothing) */
	PGP_UIDVALID_TARGET = 1,    /* the target certificate is not valid at t */
	PGP_UIDVALID_AUTHORITY = 2  /* the certifying authority's key is not valid
	                               at t, or may not certify */
} pgp_uidvalid_whose;

/* The verdict on one target certificate. */
typedef struct pgp_uidvalid {
	pgp_err status;       /* PGP_OK: validated; else why not (below) */
	const char *reason;   /* static text: why not, or NULL */
	uint8_t whose;        /* pgp_uidvalid_whose: what `reason` is about */
	uint32_t matched;     /* user IDs of the target that the query names */
	int32_t uid;          /* index of the validated user ID, else -1 */
	int32_t authority;    /* index into auth[] of the authority, else -1 */
	uint8_t self;         /* validated as that authority's own self-bound user ID */
	int64_t certified;    /* creation time of that certification or self-binding */
} pgp_uidvalid;

/*
 * Checks target against the authorities auth[0..nauth) at time t under pol
 * (src, may be NULL: where pgp_cert_eval looks for designated revokers).
 * Returns PGP_OK with the verdict in *out, or PGP_ERR_NOMEM (nothing
 * decided: never a weaker verdict). When not validated, out->status says
 * why:
 *   PGP_ERR_NOT_FOUND  no user ID of the target matches the query
 *   the target primary key's state (PGP_ERR_REVOKED, _EXPIRED, _UNUSABLE,
 *                      _LIMIT, ...) when T is not valid at t
 *   PGP_ERR_REVOKED    every matching user ID was revoked by its holder,
 *                      or the best certification was revoked by its issuer
 *   PGP_ERR_NO_SIG     no authority certified a matching user ID
 *   otherwise the most telling refusal of a certification by an
 *   authority, the first of: a good certification withdrawn (revoked by
 *   the authority: PGP_ERR_REVOKED; the authority's key not valid at t or
 *   not allowed to certify: its state, PGP_ERR_UNUSABLE), then one refused
 *   (PGP_ERR_EXPIRED, _POLICY, _NOT_YET), then one that does not verify
 *   (PGP_ERR_BAD_SIG, _MALFORMED, ...).
 * out->reason names it in words. Evaluates each authority at most once
 * per call, and only if it issued a candidate signature.
 */
pgp_err pgp_uidvalid_check(pgp_uidvalid *out, const pgp_cert *target,
    const uint8_t *query, size_t qlen, pgp_uidmatch how,
    const pgp_cert *const *auth, size_t nauth, const pgp_certsrc *src,
    int64_t t, const pgp_policy *pol);

#endif
