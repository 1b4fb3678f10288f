/*
 * wot.h - the web of trust over a keyring's verified certifications
 * (docs/wot.md).
 *
 * A wot_graph is a keyring (keyring/kr.h) evaluated at one reference time
 * under one policy: every certificate is a node, with its primary key's
 * state and its user IDs' states at t (pgp/eval.h); every (issuer, target,
 * user ID) triple that the keyring holds verified third-party
 * certifications for (RFC 9580 §5.2.1 types 0x10-0x13, revocations 0x30)
 * is one wot_cert, the certification in force at t, with a state saying
 * whether it counts and, if not, why.
 *
 * The certification in force on (issuer I, target T, user ID U) at t is the
 * newest certification by I on U that was created at or before t, is later
 * than I's newest certification revocation (0x30) on U created at or before
 * t, and is accepted by the policy (hash at t for collision resistance,
 * RFC 9580 §5.2.3; I's key size). If there is none, the wot_cert records the
 * newest certification and why it does not count (revoked, refused by
 * policy, not yet made). A certification in force that has expired at t
 * (§5.2.3.18) does not count: an older, unexpired one is not revived.
 *
 * An edge "I certified T" is usable at t when I and T are valid at t
 * (bound, not expired, not revoked, not refused by policy), U is validly
 * bound and not revoked at t, the certification was made by I's primary key
 * or by a subkey of I valid at t with the certify flag (§5.2.3.29), and the
 * wot_cert state is WOT_CERT_OK.
 *
 * Nodes are the keyring's certificates in its order (by fingerprint); each
 * node also has a rank, its position in key ID order (the order of
 * pgpkeys.git's keys/<KEYID>.asc files, in which wotmate's gpg keyring
 * lists them), used to break ties deterministically.
 *
 * Nothing here prints; a graph is immutable after wot_build and may be read
 * from several threads. It keeps pointers into the keyring: close the
 * keyring after freeing the graph.
 */
#ifndef KR_WOT_H
#define KR_WOT_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "kr.h"

/* Longest path searched (hops) and most paths asked for at once. */
#define WOT_MAX_DEPTH  16u
#define WOT_MAX_PATHS  64u

typedef enum wot_node_state {
	WOT_NODE_VALID = 0,
	WOT_NODE_EXPIRED,      /* the primary key expired at or before t */
	WOT_NODE_REVOKED,      /* key revocation in force (also by a designated revoker) */
	WOT_NODE_POLICY,       /* refused by policy (key size, or every binding's hash) */
	WOT_NODE_INVALID       /* no valid binding at t: not yet created, no valid user ID, limit */
} wot_node_state;

typedef struct wot_node {
	const pgp_cert *cert;  /* the stored certificate (kr_cert) */
	pgp_fpr fpr;
	uint8_t keyid[8];
	uint8_t state;         /* wot_node_state */
	const char *reason;    /* why not valid (static or a policy rule's name), or NULL */
	uint8_t algo;
	unsigned bits;
	int64_t created, expires;  /* expires: absolute, 0 never */
	int64_t revoked_at;        /* 0 unless revoked */
	int32_t primary_uid;   /* index into cert->uids of the primary user ID at t, -1 none */
	uint32_t rank;         /* position in key ID order */
	const pgp_err *uid_status;  /* cert->nuids entries: PGP_OK when the user ID is
	                               validly bound and not revoked at t */
	const char *const *uid_reason; /* cert->nuids entries: why not, or NULL */
} wot_node;

typedef enum wot_cert_state {
	WOT_CERT_OK = 0,
	WOT_CERT_REVOKED,      /* revoked by the issuer (0x30 newer than every certification) */
	WOT_CERT_EXPIRED,      /* the certification in force expired at or before t */
	WOT_CERT_POLICY,       /* every certification refused by policy (hash, issuer key size) */
	WOT_CERT_FUTURE,       /* every certification made after t */
	WOT_CERT_ISSUER_KEY,   /* made by a subkey of the issuer not valid for certifying at t */
	WOT_CERT_UID,          /* the certified user ID is not valid at t */
	WOT_CERT_ISSUER,       /* the issuer is not a valid key at t */
	WOT_CERT_TARGET        /* the target is not a valid key at t */
} wot_cert_state;

typedef struct wot_cert {
	uint32_t issuer, target;   /* node indexes */
	uint32_t uid;              /* index into the target's cert->uids */
	uint8_t state;             /* wot_cert_state */
	const char *reason;        /* the policy rule or other reason when not OK, or NULL */
	/* the certification in force (or, when none, the newest one): */
	uint8_t sigtype;           /* 0x10..0x13, or 0x30 when revoked */
	uint8_t hash_algo, pk_algo;
	uint8_t trust_depth, trust_amount;   /* subpacket 5 (0, 0 when absent) */
	uint8_t has_regex;         /* hashed subpacket 6 present */
	uint8_t on_attr;           /* the certified component is a user attribute
	                              (a photo): counted for validity as gpg does, never
	                              a path (wotmate follows user IDs only) */
	int64_t created;
	int64_t expires;           /* absolute, 0 never */
	int32_t issuer_key;        /* -1: made by the issuer's primary key, else the
	                              index of the issuer's subkey that made it */
} wot_cert;

typedef struct wot_graph wot_graph;

typedef struct wot_opts {
	int64_t t;                 /* reference time */
	const pgp_policy *pol;     /* NULL: the standard policy (as of t) */
} wot_opts;

/*
 * Evaluate keyring k at o->t under o->pol. Errors: PGP_ERR_NOMEM, and a
 * damaged keyring's error (kr_last_error(k) says where): a graph is never
 * built over certificates that could not be read.
 */
pgp_err wot_build(wot_graph **out, kr_keyring *k, const wot_opts *o);
void wot_free(wot_graph *g);

int64_t wot_time(const wot_graph *g);
size_t wot_nnodes(const wot_graph *g);
const wot_node *wot_node_at(const wot_graph *g, uint32_t i);
/* The node whose rank is r (key ID order). */
uint32_t wot_node_by_rank(const wot_graph *g, uint32_t r);
/* Node index of the certificate with fingerprint fpr, or -1. */
int64_t wot_find_fpr(const wot_graph *g, const pgp_fpr *fpr);

/* All wot_certs, sorted by (target, uid, issuer). */
size_t wot_ncerts(const wot_graph *g);
const wot_cert *wot_cert_at(const wot_graph *g, uint32_t i);
/* Indexes (into wot_cert_at) of the certifications made by node i, sorted
 * by (target rank, uid); and of those on node i, sorted by (uid, issuer
 * rank). The arrays live as long as the graph. */
size_t wot_issued(const wot_graph *g, uint32_t i, const uint32_t **certs);
size_t wot_received(const wot_graph *g, uint32_t i, const uint32_t **certs);
/* 1 when the certification counts at t: WOT_CERT_OK (which already implies
 * valid issuer, target and user ID). */
int wot_cert_usable(const wot_cert *c);

/* Key-level successors of node i: the distinct targets of i's usable
 * certifications of user IDs (not user attributes), sorted by rank (what
 * path searches walk). */
size_t wot_succ(const wot_graph *g, uint32_t i, const uint32_t **nodes);
/* Key-level predecessors (distinct issuers of usable certifications on i),
 * sorted by rank. */
size_t wot_pred(const wot_graph *g, uint32_t i, const uint32_t **nodes);

/* The certification in force of c, parsed (views into the stored
 * certificate, valid as long as the keyring). */
pgp_err wot_cert_sig(const wot_graph *g, const wot_cert *c, pgp_sig *out);
/* Its hashed Regular Expression subpacket (RFC 9580 §5.2.3.22), without the
 * terminating NUL: PGP_ERR_NOT_FOUND when absent. */
pgp_err wot_cert_regex(const wot_graph *g, const wot_cert *c, pgp_view *out);

/* ---- paths: wotmate's rule (docs/wot.md "Paths") ---- */

typedef struct wot_path {
	uint32_t len;                     /* hops */
	uint32_t node[WOT_MAX_DEPTH + 1]; /* node[0] = from, node[len] = to */
} wot_path;

/* Scratch space for path searches over one graph (reusable, one thread). */
typedef struct wot_search wot_search;
pgp_err wot_search_new(wot_search **out, const wot_graph *g);
void wot_search_free(wot_search *s);

/*
 * Up to maxpaths paths from `from` to `to` of at most maxdepth hops, by
 * wotmate's rule: breadth-first over usable edges, a node's successors in
 * rank order, the first path found to each node kept; after each path found
 * its intermediate keys are excluded and the search starts again; it stops
 * after a path of at most one hop. from == to gives the one path of length
 * 0. The nodes of a path are valid at t. *n = number of paths (0: none).
 * PGP_ERR_INVALID for maxdepth > WOT_MAX_DEPTH, maxpaths > WOT_MAX_PATHS or
 * a node out of range.
 */
pgp_err wot_paths(wot_search *s, uint32_t from, uint32_t to, unsigned maxdepth,
    unsigned maxpaths, wot_path *out, size_t *n);

/*
 * Breadth-first distances from `from` over usable edges, up to maxdepth
 * hops: dist[i] = hops, or UINT32_MAX when unreachable within maxdepth.
 * dist has wot_nnodes(g) entries.
 */
pgp_err wot_distances(wot_search *s, uint32_t from, unsigned maxdepth, uint32_t *dist);

/* ---- why there is no path (docs/wot.md "Why") ---- */

/* Longest relaxed path reported hop by hop. */
#define WOT_MAX_WHY_HOPS 64u

typedef enum wot_why_verdict {
	WOT_WHY_PATH = 0,          /* a usable path within maxdepth exists */
	WOT_WHY_TARGET_INVALID,    /* the target key is not valid at t */
	WOT_WHY_ROOT_INVALID,      /* the root key is not valid at t */
	WOT_WHY_NO_CERTS,          /* no certification on the target by a key in the keyring */
	WOT_WHY_NOT_CONNECTED,     /* certified, but no chain of certifications leads there */
	WOT_WHY_BLOCKED,           /* chains exist only through blocked hops (see kinds) */
	WOT_WHY_BEYOND             /* a usable path exists but is longer than maxdepth */
} wot_why_verdict;

/* What blocks a hop (bits of wot_why.kinds). */
#define WOT_BLOCK_POLICY   1u  /* certification (or the certified user ID's binding) refused by policy */
#define WOT_BLOCK_CERT     2u  /* certification revoked, expired, made later, or on an invalid user ID */
#define WOT_BLOCK_KEY      4u  /* through a key that is not valid at t */

typedef struct wot_why {
	int verdict;               /* wot_why_verdict */
	unsigned kinds;            /* WOT_BLOCK_* on the reported path */
	uint32_t hops;             /* length of the reported path (may exceed maxdepth) */
	uint32_t blocked;          /* blocked hops and keys on it */
	/* the path with the fewest blocked hops, then the fewest hops (ties:
	 * breadth-first in rank order); nodes and, per hop, the certification
	 * that came closest to counting; only when hops <= WOT_MAX_WHY_HOPS */
	uint32_t node[WOT_MAX_WHY_HOPS + 1];
	uint32_t cert[WOT_MAX_WHY_HOPS];
	uint8_t stored;            /* 1 when node[] / cert[] hold the path */
} wot_why;

/* Block bits of one hop's certification (0: it counts). */
unsigned wot_cert_block(const wot_graph *g, const wot_cert *c);

/* Explain whether and why `target` has no path from `root` within maxdepth. */
pgp_err wot_explain(const wot_graph *g, uint32_t root, uint32_t target, unsigned maxdepth,
    wot_why *out);

/* ---- the audit: what a stricter policy cuts off (docs/wot.md "Audit") ---- */

typedef enum wot_action_kind {
	WOT_ACT_RECERTIFY = 1,     /* the issuer re-certifies the user ID with an accepted hash */
	WOT_ACT_RENEW = 2          /* the key's owner renews its self-signatures */
} wot_action_kind;

typedef struct wot_action {
	uint8_t kind;              /* wot_action_kind */
	uint32_t cert;             /* WOT_ACT_RECERTIFY: the certification (index in both graphs) */
	uint32_t node;             /* WOT_ACT_RENEW: the key */
} wot_action;

typedef struct wot_audit {
	uint32_t *lost;            /* keys with a path under the baseline and none audited, by rank */
	size_t nlost;
	uint32_t *stuck;           /* lost keys no re-certification or renewal restores */
	size_t nstuck;
	wot_action *act;           /* a minimal set restoring every other lost key */
	size_t nact;
} wot_audit;

/*
 * Compare two graphs over the same keyring at the same time (`base` under
 * the baseline policy, `aud` under the audited one): the keys that have a
 * path from root within maxdepth in base but not in aud, and a set of
 * actions (re-certifications of certifications the audited policy refuses,
 * renewals of self-signatures it refuses) that restores a path within
 * maxdepth to each of them. The set is built greedily (the cheapest lost key
 * first, by a hop-bounded cheapest path) and then pruned until no action
 * can be left out: minimal, not necessarily minimum (that is a Steiner
 * problem). PGP_ERR_INVALID when the graphs are not over the same keyring.
 */
pgp_err wot_audit_run(const wot_graph *base, const wot_graph *aud, uint32_t root,
    unsigned maxdepth, wot_audit *out);
void wot_audit_free(wot_audit *a);

#endif
