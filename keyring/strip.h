/*
 * strip.h - STAND-IN copied from the issue-13 design (DESIGN13.md) for the
 * sources branch; the strip helper owns this file and its version replaces
 * this one at merge.
 */
#ifndef KEYRING_STRIP_H
#define KEYRING_STRIP_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

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
	KR_DROP_CAP_FILE,       /* beyond the per-input-file cap */
	KR_DROP_COMPONENT,      /* on a user ID / subkey dropped for having no valid self-signature */
	KR_DROP__N
} kr_drop;
const char *kr_drop_name(kr_drop d);   /* "bad-signature", "issuer-outside", ... stable, for JSON */

typedef struct kr_edge {          /* one verified third-party certification */
	uint32_t issuer;          /* index into kr_strip_result.certs */
	uint32_t target;          /* index into kr_strip_result.certs */
	uint32_t uid;             /* index of the user ID among the target's stripped user IDs+attributes (output order) */
	int32_t issuer_key;       /* -1 primary, else subkey index in the issuer's stripped certificate */
	uint8_t sigtype;          /* 0x10..0x13, 0x30 */
	uint8_t hash_algo, pk_algo;
	uint8_t trust_depth, trust_amount;  /* subpacket 5, 0 if absent */
	uint8_t has_regex;        /* subpacket 6 present (hashed) */
	int64_t created;
	int64_t expires;          /* absolute; 0 never */
} kr_edge;

typedef struct kr_scert {
	const pgp_cert *cert;     /* the merged input certificate (borrowed from the set) */
	uint8_t *bin;             /* the stripped certificate, binary, canonical order (malloc) */
	size_t len;
	uint32_t drops[KR_DROP__N];
	uint32_t kept_sigs, kept_certifications;  /* certifications = third-party 0x10-0x13 */
} kr_scert;

typedef struct kr_strip_opts {
	int64_t now;              /* reference time (superseded choice only) */
	const pgp_policy *pol;    /* for the superseded choice only */
	unsigned threads;         /* 0: all online cores */
	int keep_superseded;      /* 1 for keyring builds */
	uint32_t max_certs_per_uid;   /* 0: KR_MAX_CERTS_PER_UID (in keyring/strip.h, e.g. 4096) */
	uint32_t max_sigs_per_cert;   /* 0: KR_MAX_SIGS_PER_CERT (e.g. 65536) */
	void (*progress)(void *ctx, size_t done, size_t total);  /* may be NULL; called from one thread */
	void *progress_ctx;
} kr_strip_opts;

typedef struct kr_strip_result {
	kr_scert *certs; size_t ncerts;      /* sorted by primary fingerprint */
	kr_edge *edges; size_t nedges;       /* sorted by (target, uid, issuer, created) */
	uint8_t (*tags)[PGP_SIGMEMO_TAG_LEN]; size_t ntags;   /* sorted, unique */
	uint64_t drops[KR_DROP__N];          /* totals */
	char **notes; size_t nnotes;         /* caps hit etc., human text naming the key */
} kr_strip_result;

/* Strip every certificate of `set` (all of them are both targets and the issuer universe). */
pgp_err kr_strip(const pgp_certset *set, const kr_strip_opts *o, kr_strip_result *out);
void kr_strip_free(kr_strip_result *r);

#endif
