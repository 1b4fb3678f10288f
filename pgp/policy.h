/*
 * policy.h - the dated crypto policy (modelled on Sequoia's StandardPolicy).
 *
 * Policy is data: one table of cutoffs per hash algorithm and one of
 * minimum sizes per public-key algorithm family, both dated. A cutoff is
 * compared with the policy's reference time ("as of"), not with the time a
 * signature claims for itself. Every refusal names the rule that refused
 * it: its cutoff, size and origin (built in, or the policy file line).
 */
#ifndef PGP_POLICY_H
#define PGP_POLICY_H

#include <stdint.h>
#include "date.h"
#include "err.h"
#include "limits.h"
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

/* Room for a rule name composed from a policy file line. */
#define PGP_POLICY_NAME_MAX 256

/*
 * A rule's name: `name` when static (the built-in table), else `text`
 * (composed when a policy file set the rule). pgp_policy_hash() and
 * pgp_policy_key() hand out a pointer to one of them: a name composed from
 * a policy file lives in the pgp_policy, so keep the policy as long as any
 * result or evaluation that names a rule.
 */
typedef struct pgp_hash_rule {
	uint8_t alg;               /* PGP_HASH_* */
	int64_t cutoff[2];         /* indexed by pgp_hash_use: rejected at or after */
	const char *name[2];       /* the rule's name, per use; NULL: text[use] */
	char text[2][PGP_POLICY_NAME_MAX];
} pgp_hash_rule;

/* Public-key algorithm families whose security depends on the key size. */
typedef enum pgp_key_family {
	PGP_KEYFAM_RSA = 1,        /* algorithms 1, 2, 3 (RFC 9580 §9.1) */
	PGP_KEYFAM_DSA = 2,        /* 17 */
	PGP_KEYFAM_ELGAMAL = 3     /* 16, 20 */
} pgp_key_family;

/* "keys of `family` below `min_bits` are rejected at or after `cutoff`" */
typedef struct pgp_key_rule {
	uint8_t family;            /* pgp_key_family */
	unsigned min_bits;
	int64_t cutoff;
	const char *name;          /* NULL: text */
	char text[PGP_POLICY_NAME_MAX];
} pgp_key_rule;

#define PGP_POLICY_MAX_KEY_RULES 12

typedef struct pgp_policy {
	int64_t as_of;             /* reference time for cutoffs; 0: the verification time */
	pgp_hash_rule hash[16];    /* unknown hash algorithms are rejected */
	uint8_t nhash;
	pgp_key_rule key[PGP_POLICY_MAX_KEY_RULES]; /* the first row that refuses a key names the refusal */
	uint8_t nkey;
} pgp_policy;


/* The standard policy (see policy.c for the table and its sources). */
void pgp_policy_init(pgp_policy *p);

/* Overrides for the CLI: accept SHA-1 for the given use from now on. */
void pgp_policy_allow_hash(pgp_policy *p, int alg, pgp_hash_use use);

/*
 * Load overrides from a policy file, one rule a line, '#' starts a comment:
 *   hash NAME data|self|both DATE|never|always
 *   key-min-bits N DATE|never|always [rsa|dsa|elgamal]
 * DATE is as pgp_time_parse() (e.g. 2024-01-01 or 2024-01-01T12:00:00Z).
 * A key-min-bits line without a family applies to all three. The first
 * key-min-bits line for a family replaces the built-in rows of that family;
 * later ones add rows. Every rule set here is named after its line
 * ("policy file line 3: RSA keys below 4096 bits are rejected after
 * 2020-01-01"). A malformed line (unknown keyword or hash, a number with
 * trailing characters or out of range, a bad date, a line longer than
 * PGP_MAX_POLICY_LINE octets (pgp/limits.h), a NUL octet) fails the whole load:
 * PGP_ERR_MALFORMED with diag->offset = the line number (1-based) and
 * diag->what saying what is wrong; *p is then partly updated (reinitialise
 * it before use).
 */
pgp_err pgp_policy_load(pgp_policy *p, const uint8_t *text, size_t len, pgp_diag *diag);

/* PGP_OK or PGP_ERR_POLICY with *rule set. `t` is the verification time. */
pgp_err pgp_policy_hash(const pgp_policy *p, int alg, pgp_hash_use use, int64_t t,
    const char **rule);
/* PGP_OK or PGP_ERR_POLICY with *rule set to the first key-size row that
 * refuses the key (family, minimum bits, cutoff and origin in its name). */
pgp_err pgp_policy_key(const pgp_policy *p, const pgp_key *key, int64_t t, const char **rule);

#endif
