/*
 * trust.h - GnuPG's classic ("pgp") trust model over a web of trust
 * (keyring/wot.h): ownertrust in, validity of every key and user ID out,
 * computed the way GnuPG 2.2's trustdb does (g10/trustdb.c validate_keys,
 * docs/wot.md "Validity").
 *
 * The model, level by level from the ultimately trusted keys:
 *  - level 0: the keys whose ownertrust is ultimate are the introducers;
 *  - at each level, every user ID certified by an introducer of that level
 *    gets counts: a certification by an ultimately trusted introducer
 *    counts completes_needed completes, by a fully trusted one 1 complete,
 *    by a marginally trusted one 1 marginal, by any other one nothing (but
 *    the user ID was reached). Counts add up over the levels. A user ID is
 *    fully valid with completes_needed completes or marginals_needed
 *    marginals, marginally valid with at least one of either, "undefined"
 *    when reached without any;
 *  - a key with a fully valid user ID becomes an introducer of the next
 *    level, with its ownertrust (a key is an introducer at one level only);
 *  - levels stop at max_cert_depth: a key more than max_cert_depth hops
 *    from every ultimately trusted key stays unknown.
 *
 * Which certifications count: the certification in force (wot.h) when it
 * is usable (wot_cert_usable: issuer, target and user ID valid at t, not
 * revoked, not expired, accepted by the policy), made by the issuer's
 * primary key (GnuPG looks the issuer's key ID up among the introducers'
 * primary key IDs, so a certification by a certification subkey counts
 * for nothing), and of a level of at least min_cert_level (0x10 generic,
 * 0x11 persona = 1, 0x12 casual = 2, 0x13 positive = 3; GnuPG's default 2
 * ignores persona certifications).
 *
 * Trust signatures (RFC 9580 §5.2.3.21, subpacket 5 "level and amount"):
 * a certification with depth d > 0 by an introducer makes the target a
 * trusted introducer when it becomes one: amount >= 120 raises its
 * ownertrust to at least full, >= 60 to at least marginal (RFC 4880
 * §5.2.3.13's values; "never" is raised too). Its own trust signatures
 * then reach at most d - 1 further; an ultimately trusted signer may set
 * any depth; a signer that is no trusted introducer (depth 0) passes none
 * on. Of several trust signatures on a key, made at one level, the newest
 * wins (GnuPG takes the last in key block order, which is the order they
 * were made in, and keeps an earlier one's regular expression when the
 * last has none: so does this).
 *
 * Regular expressions (§5.2.3.22, subpacket 6, read only with a trust
 * signature): an introducer made by a trust signature with a regular
 * expression counts only for user IDs that match it: its certifications
 * on other user IDs are as if they did not exist. The expression is
 * matched as GnuPG does (trustdb.c sanitize_regexp, check_regexp): either
 * "<[^>]+[@.]" X ">$" or X alone, X being literal characters, '.' (any
 * one octet) and backslash escapes; every other operator in X is literal;
 * the comparison ignores ASCII case; X alone is searched anywhere in the
 * user ID. See wot_trust_regex_match() for the bounds and the escapes
 * refused.
 *
 * Validity: a revoked key (or user ID) is revoked, an expired one
 * expired, whatever the web says; a key refused by the policy or without
 * a valid user ID is unknown. Ultimately trusted keys are ultimate, others
 * take the best validity of their user IDs (GnuPG's key validity).
 *
 * Nothing here prints. The result refers to no memory of the graph.
 */
#ifndef KR_TRUST_H
#define KR_TRUST_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "wot.h"

/* Ownertrust: GnuPG's numbers (the N of --export-ownertrust "FPR:N:"). */
typedef enum wot_ownertrust {
	WOT_OT_UNKNOWN = 0,     /* not set */
	WOT_OT_UNDEFINED = 2,   /* set to "I don't know" */
	WOT_OT_NEVER = 3,
	WOT_OT_MARGINAL = 4,
	WOT_OT_FULL = 5,
	WOT_OT_ULTIMATE = 6
} wot_ownertrust;

/* Validity: GnuPG's numbers for the letters - e q m f u, plus revoked. */
typedef enum wot_validity {
	WOT_V_UNKNOWN = 0,      /* '-': not reached from an ultimately trusted key */
	WOT_V_EXPIRED = 1,      /* 'e' */
	WOT_V_UNDEFINED = 2,    /* 'q': reached, but by no trusted introducer */
	WOT_V_MARGINAL = 4,     /* 'm' */
	WOT_V_FULL = 5,         /* 'f' */
	WOT_V_ULTIMATE = 6,     /* 'u' */
	WOT_V_REVOKED = 7       /* 'r' */
} wot_validity;

/* Bounds of the parameters (GnuPG's, g10/gpg.c). */
#define WOT_TRUST_MAX_COMPLETES  255u
#define WOT_TRUST_MAX_MARGINALS  255u
#define WOT_TRUST_MAX_CERT_DEPTH 255u

/* Longest regular expression matched (octets, before the first NUL) and
 * most atoms in it: a longer one matches nothing. */
#define WOT_TRUST_MAX_REGEX      1024u
#define WOT_TRUST_MAX_REGEX_ATOMS 256u

typedef struct wot_trust_params {
	unsigned completes_needed;  /* 1..255, default 1 */
	unsigned marginals_needed;  /* 2..255, default 3 */
	unsigned max_cert_depth;    /* 1..255, default 5 */
	unsigned min_cert_level;    /* 1..3, default 2 */
} wot_trust_params;

/* GnuPG's defaults: 1, 3, 5, 2. */
void wot_trust_params_default(wot_trust_params *p);

typedef struct wot_trust wot_trust;

/*
 * Compute validity over g. ownertrust has wot_nnodes(g) entries
 * (wot_ownertrust values; GnuPG's flag bits above the low four, such as
 * 0x20 "disabled", are ignored); p NULL: the defaults. PGP_ERR_INVALID for
 * a parameter out of range or an ownertrust value that is none of
 * wot_ownertrust, PGP_ERR_NOMEM. Memory: a few arrays indexed by node,
 * user ID and certification; time: linear in the certifications times
 * the levels they are looked at.
 */
pgp_err wot_trust_compute(wot_trust **out, const wot_graph *g, const uint8_t *ownertrust,
    const wot_trust_params *p);
void wot_trust_free(wot_trust *t);

size_t wot_trust_nnodes(const wot_trust *t);
/* Validity of node i, and of its user ID u (index into cert->uids);
 * WOT_V_UNKNOWN out of range. */
wot_validity wot_trust_key(const wot_trust *t, uint32_t i);
wot_validity wot_trust_uid(const wot_trust *t, uint32_t i, uint32_t u);

/* How node i was reached (all zero when it was not). */
typedef struct wot_trust_info {
	uint8_t reached;        /* certified by an introducer (any user ID) */
	uint8_t level;          /* the last level whose introducers certified it */
	uint8_t introducer;     /* became an introducer of level `level + 1`
	                           (ultimately trusted keys: of level 0) */
	uint8_t ownertrust;     /* as an introducer: ownertrust raised by trust signatures */
	uint8_t trust_depth;    /* as an introducer: depth its trust signatures may pass on */
	uint8_t trust_amount;   /* as an introducer: amount of the trust signature that made it */
	uint8_t has_regex;      /* as an introducer: restricted by a regular expression */
} wot_trust_info;
void wot_trust_get_info(const wot_trust *t, uint32_t i, wot_trust_info *out);
/* Counts gathered on user ID u of node i (capped at 65535). */
void wot_trust_counts(const wot_trust *t, uint32_t i, uint32_t u, unsigned *completes,
    unsigned *marginals);

/* 'u' 'f' 'm' 'q' '-' 'e' 'r'; '?' for anything else. */
char wot_validity_letter(wot_validity v);
/* "ultimate" "full" "marginal" "undefined" "unknown" "expired" "revoked". */
const char *wot_validity_name(wot_validity v);
/* "unknown" "undefined" "never" "marginal" "full" "ultimate"; NULL for a
 * value that is none of them. */
const char *wot_ownertrust_name(unsigned ot);

/*
 * GnuPG's match of a trust signature's regular expression re[0..relen) on a
 * user ID s[0..slen) (each cut at its first NUL, as GnuPG reads C strings):
 * 1 match, 0 no match. Linear time (shift-and over at most
 * WOT_TRUST_MAX_REGEX_ATOMS atoms), no allocation. Matches nothing: an
 * expression longer than WOT_TRUST_MAX_REGEX or with more atoms than
 * WOT_TRUST_MAX_REGEX_ATOMS, a trailing lone backslash, and the escapes
 * GnuPG's regcomp would treat as operators or refuse (a backslash before a
 * digit, or before w W s S b B < > ` '). '.' is one octet, case is folded
 * for ASCII letters only.
 */
int wot_trust_regex_match(const uint8_t *re, size_t relen, const uint8_t *s, size_t slen);

#endif
