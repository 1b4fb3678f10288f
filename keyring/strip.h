/*
 * strip.h - order-independent stripping of a certificate set (the keyring
 * builder's and `wotkit strip`'s core; docs/semantics.md, "Stripping").
 *
 * Every certificate of one pgp_certset (copies of a key already merged by
 * the set) is reduced to what can be checked: the primary key, the user
 * IDs, user attributes and subkeys that carry a self-signature whose math
 * verifies (or a valid revocation), their verified self-signatures and
 * revocations, designated-revoker key revocations (checked when the
 * revoker's key is in the set, kept unchecked when it is not), and the
 * third-party certifications (RFC 9580 §5.2.1 types 0x10-0x13, 0x30) whose
 * issuer is in the set and whose math verifies. Everything else is dropped
 * and counted by reason (kr_drop).
 *
 * The output depends only on the set's content, never on input order:
 * certificates by primary fingerprint (length, then octets); in each, the
 * primary key, its direct signatures, user IDs then user attributes by the
 * octets of their bodies, subkeys by (creation time, fingerprint), and
 * the signatures of each component by their body octets (identical octets
 * kept once). Caps are applied to a total order of the candidates (newest
 * first, then octets) before any public-key operation, so a flooded key
 * (CVE-2019-13050) costs bounded time.
 *
 * Work is spread over threads (one certificate at a time, taken from a
 * shared counter); the result is identical for any thread count.
 */
#ifndef KR_STRIP_H
#define KR_STRIP_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

/* Default caps (kr_strip_opts: 0 selects these). */
#define KR_MAX_CERTS_PER_UID  4096u   /* third-party candidates checked per user ID */
#define KR_MAX_SIGS_PER_CERT  65536u  /* signatures checked (math) per certificate */
/* Misplaced revocation trials (a 0x28/0x30 tried on other components) per
 * certificate; beyond it the revocation is dropped as bad. */
#define KR_MAX_REVOCATION_TRIALS 65536u

typedef enum kr_drop {
	KR_DROP_BAD_SIG,        /* math does not verify */
	KR_DROP_UNPARSED,       /* signature packet does not parse / unknown version */
	KR_DROP_UNSUPPORTED,    /* algorithm or hash we cannot check */
	KR_DROP_ISSUER_OUTSIDE, /* third-party issuer not in the set */
	KR_DROP_NO_ISSUER,      /* third-party signature naming no issuer */
	KR_DROP_MISPLACED,      /* type that makes no sense where it sits (e.g. 0x18 on a user ID) */
	KR_DROP_DUPLICATE,      /* identical octets already kept */
	KR_DROP_SUPERSEDED,     /* older self-signature (strip/export only) */
	KR_DROP_LOCAL,          /* non-exportable third-party certification (subpacket 4 = 0) */
	KR_DROP_CAP_UID,        /* beyond the per-user-ID certification cap */
	KR_DROP_CAP_CERT,       /* beyond the per-certificate signature cap */
	KR_DROP_CAP_FILE,       /* beyond the per-input-file cap (loaders; kr_strip never sets it) */
	KR_DROP_COMPONENT,      /* on a user ID / subkey dropped for having no valid self-signature */
	KR_DROP__N
} kr_drop;

/* "bad-signature", "issuer-outside", ...: stable names, for JSON. */
const char *kr_drop_name(kr_drop d);

typedef struct kr_edge {          /* one verified third-party certification */
	uint32_t issuer;          /* index into kr_strip_result.certs */
	uint32_t target;          /* index into kr_strip_result.certs */
	uint32_t uid;             /* index of the user ID among the target's stripped
	                             user IDs+attributes (output order) */
	int32_t issuer_key;       /* -1 primary, else subkey index in the issuer's
	                             stripped certificate (output order) */
	uint8_t sigtype;          /* 0x10..0x13, 0x30 */
	uint8_t hash_algo, pk_algo;
	uint8_t trust_depth, trust_amount;  /* subpacket 5, 0 if absent */
	uint8_t has_regex;        /* subpacket 6 present (hashed) */
	int64_t created;
	int64_t expires;          /* absolute; 0 never */
} kr_edge;

/* Where a signature was found, for reports (kr_strip_opts.details). */
typedef enum kr_where {
	KR_WHERE_DIRECT = 0,      /* on the primary key */
	KR_WHERE_UID,             /* after cert->uids[comp] (user ID or attribute) */
	KR_WHERE_SUBKEY,          /* after cert->subs[comp] */
	KR_WHERE_LOOSE            /* a stand-alone revocation (cert->loose[comp]) */
} kr_where;

typedef struct kr_sigrec {        /* one input signature and what became of it */
	uint8_t where;            /* kr_where (input position) */
	uint8_t sigtype;          /* 0 when unparsed */
	uint8_t kept;             /* 1 kept, 0 dropped for `reason` */
	uint8_t reason;           /* kr_drop */
	uint8_t has_issuer;       /* issuer key ID known (subpacket 16 or 33) */
	uint8_t issuer[8];
	uint8_t third_party;      /* not issued by the certificate's primary key */
	uint32_t comp;            /* index in the input list named by where */
	uint32_t created;
} kr_sigrec;

typedef struct kr_scert {
	const pgp_cert *cert;     /* the merged input certificate (borrowed from the set) */
	uint8_t *bin;             /* the stripped certificate, binary, canonical order (malloc) */
	size_t len;
	uint32_t drops[KR_DROP__N];
	uint32_t kept_sigs, kept_certifications;  /* certifications = third-party 0x10-0x13 */
	/* with kr_strip_opts.details: every input signature, in input order
	 * (dsigs, user IDs, subkeys, loose), plus designated revocations found
	 * on the revoker's certificate (where = LOOSE on that certificate) */
	kr_sigrec *sigs;
	uint32_t nsigs;
	uint32_t nuids_out, nsubs_out;  /* components written */
} kr_scert;

typedef struct kr_strip_opts {
	int64_t now;              /* reference time (superseded choice only) */
	const pgp_policy *pol;    /* for the superseded choice only; NULL: standard */
	unsigned threads;         /* 0: all online cores */
	int keep_superseded;      /* 1 for keyring builds */
	uint32_t max_certs_per_uid;   /* 0: KR_MAX_CERTS_PER_UID */
	uint32_t max_sigs_per_cert;   /* 0: KR_MAX_SIGS_PER_CERT */
	void (*progress)(void *ctx, size_t done, size_t total);  /* may be NULL; called from one thread */
	void *progress_ctx;
	int details;              /* fill kr_scert.sigs */
} kr_strip_opts;

typedef struct kr_strip_result {
	kr_scert *certs; size_t ncerts;      /* sorted by primary fingerprint */
	kr_edge *edges; size_t nedges;       /* sorted by (target, uid, issuer, created, ...) */
	uint8_t (*tags)[PGP_SIGMEMO_TAG_LEN]; size_t ntags;   /* sorted, unique */
	uint64_t drops[KR_DROP__N];          /* totals */
	char **notes; size_t nnotes;         /* caps hit etc., human text naming the key */
} kr_strip_result;

/*
 * Strip every certificate of `set` (all of them are both targets and the
 * issuer universe). The set must not change while this runs and must
 * outlive the result (kr_scert.cert borrows from it). Only key ID and
 * fingerprint lookups are made on the set (safe from several threads).
 * Errors: PGP_ERR_NOMEM (nothing is returned; never a partial result),
 * PGP_ERR_LIMIT for more than 2^32-2 certificates. On error *out is empty.
 * A set broken by an earlier error (pgp_certset_add) holds no certificate
 * and strips to an empty result: the caller must not ignore that error.
 */
pgp_err kr_strip(const pgp_certset *set, const kr_strip_opts *o, kr_strip_result *out);
void kr_strip_free(kr_strip_result *r);

#endif
