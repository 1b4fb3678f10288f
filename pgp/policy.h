/*
 * policy.h - the dated crypto policy (modelled on Sequoia's StandardPolicy).
 *
 * Policy is data: one table of cutoffs per hash algorithm and public-key
 * algorithm size. A cutoff is compared with the policy's reference time
 * ("as of"), not with the time a signature claims for itself. Every refusal
 * names its rule in a static string.
 */
#ifndef PGP_POLICY_H
#define PGP_POLICY_H

#include <stdint.h>
#include "err.h"
#include "packet.h"

/* Which security property a signature needs from its hash. */
typedef enum pgp_hash_use {
	/* data signatures and third-party certifications: an attacker may
	 * choose what gets signed, so collision resistance is needed */
	PGP_USE_COLLISION = 0,
	/* self-signatures and bindings: the key owner chose the content, so
	 * second-preimage resistance suffices */
	PGP_USE_SECOND_PREIMAGE = 1
} pgp_hash_use;

#define PGP_NEVER INT64_MAX    /* cutoff: never rejected */
#define PGP_ALWAYS INT64_MIN   /* cutoff: always rejected */

typedef struct pgp_hash_rule {
	uint8_t alg;               /* PGP_HASH_* */
	int64_t cutoff[2];         /* indexed by pgp_hash_use: rejected at or after */
	const char *name[2];       /* the rule's name, per use */
} pgp_hash_rule;

typedef struct pgp_policy {
	int64_t as_of;             /* reference time for cutoffs; 0: the verification time */
	pgp_hash_rule hash[16];    /* unknown hash algorithms are rejected */
	uint8_t nhash;
	int64_t weak_key_cutoff;   /* RSA/DSA/ElGamal below min_key_bits rejected at or after */
	unsigned min_key_bits;
} pgp_policy;

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d (m 1..12);
 * used for policy-file dates and by the CLI's time parser. */
int64_t pgp_days_from_civil(int64_t y, unsigned m, unsigned d);

/* The standard policy (see policy.c for the table and its sources). */
void pgp_policy_init(pgp_policy *p);

/* Overrides for the CLI: accept SHA-1 for the given use from now on. */
void pgp_policy_allow_hash(pgp_policy *p, int alg, pgp_hash_use use);

/*
 * Load overrides from a policy file: lines "hash NAME data|self|both DATE|never|always"
 * and "key-min-bits N DATE"; '#' comments. Malformed lines: PGP_ERR_MALFORMED with
 * diag->offset = line number.
 */
pgp_err pgp_policy_load(pgp_policy *p, const uint8_t *text, size_t len, pgp_diag *diag);

/* PGP_OK or PGP_ERR_POLICY with *rule set. `t` is the verification time. */
pgp_err pgp_policy_hash(const pgp_policy *p, int alg, pgp_hash_use use, int64_t t,
    const char **rule);
pgp_err pgp_policy_key(const pgp_policy *p, const pgp_key *key, int64_t t, const char **rule);

#endif
