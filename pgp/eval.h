/*
 * eval.h - a certificate evaluated at a reference time under a policy.
 *
 * Nothing about validity is stored in a certificate: it is computed here from
 * the self-signatures that verify, pass the policy and are in force at `t`
 * (RFC 9580 §5.2.3.10 key expiration, §5.2.3.29 key flags, §5.2.3.31
 * revocation reasons, §5.2.3.23 designated revokers, §10.1 grammar,
 * §5.2.1.9 primary key binding).
 *
 * Every signature of the certificate is parsed once and tagged with the
 * list it was found in (direct, user ID i, subkey i, stand-alone). Bindings
 * are verified newest first; the first valid one is in force. A key
 * revocation (0x20) is checked against the primary key wherever it sits; a
 * subkey (0x28) or user ID (0x30) revocation is checked against the
 * component it follows and, if not valid there, against the other bound
 * components of its kind (at most PGP_MAX_REVOCATION_TRIALS such trials,
 * beyond which the evaluation fails closed with PGP_ERR_LIMIT states).
 */
#ifndef PGP_EVAL_H
#define PGP_EVAL_H

#include <stddef.h>
#include <stdint.h>
#include "cert.h"
#include "policy.h"

typedef struct pgp_keystate {
	pgp_err status;        /* PGP_OK: bound, not revoked, not expired at t */
	const char *reason;    /* static: why not, or NULL */
	uint8_t bound;         /* a valid binding (self-)signature is in force at t */
	int64_t binding_time;  /* creation time of that binding */
	int64_t expires;       /* absolute expiry time, 0 = never */
	uint8_t flags;         /* key flags in force (inferred from the algorithm if absent) */
	uint8_t has_flags;
	uint8_t revoked;       /* 0 none, 1 soft (superseded/retired), 2 hard */
	int64_t revoked_at;    /* creation time of the revocation in force */
	uint8_t sign_ok;       /* may make data signatures: flags + back-signature */
	const char *sign_reason; /* why it may not sign, or NULL */
} pgp_keystate;

typedef struct pgp_uidstate {
	pgp_err status;        /* PGP_OK: validly bound and not revoked at t */
	const char *reason;
	int64_t binding_time;
	uint8_t primary;       /* binding carries the primary-UID flag */
} pgp_uidstate;

typedef struct pgp_certeval {
	const pgp_cert *cert;
	int64_t t;
	uint8_t bare;          /* no self-signatures at all (e.g. RFC 9580 A.1) */
	pgp_keystate primary;
	pgp_keystate *subs;    /* cert->nsubs entries */
	pgp_uidstate *uids;    /* cert->nuids entries */
	int primary_uid;       /* index into cert->uids, -1 if no valid user ID */
	/* A key revocation by a designated revoker (§5.2.3.23) was found, but
	 * the revoker's key is not in the key set: it could not be checked
	 * and is not applied. The CLI should say so. */
	uint8_t revoker_unchecked;
	uint8_t designated_revoked; /* the primary is revoked by a designated revoker */
} pgp_certeval;

/*
 * Evaluate c at time t. src (may be NULL) is the key set, used only to find
 * designated revokers' keys by fingerprint. Only allocation failure is an
 * error (PGP_ERR_NOMEM: nothing is evaluated, never a weaker verdict);
 * everything else, including PGP_ERR_LIMIT, is reported in the states.
 * Release with pgp_certeval_release() (also after an error).
 */
pgp_err pgp_cert_eval(pgp_certeval *out, const pgp_cert *c, const pgp_certsrc *src,
    int64_t t, const pgp_policy *pol);
void pgp_certeval_release(pgp_certeval *ev);

/* Whether a key in state ks could make a data signature at time ts
 * (created and not expired then; not hard-revoked; not soft-revoked before).
 * A state that hit a limit (PGP_ERR_LIMIT) is never alive. */
pgp_err pgp_keystate_alive_at(const pgp_keystate *ks, const pgp_key *key, int64_t ts,
    const char **reason);

#endif
