/*
 * certset_int.h - the inside of a pgp_certset, shared by certset.c (the
 * set: parsing, merging, indexes, lookups) and certscan.c (its lazy mode:
 * a scan that builds certificates only when a lookup names them). Not part
 * of the public API.
 */
#ifndef PGP_CERTSET_INT_H
#define PGP_CERTSET_INT_H

#include "cert.h"

#define NONE UINT32_MAX

typedef struct lazy_set lazy_set;

typedef struct idx_ent {       /* key ID -> group */
	uint8_t keyid[8];
	uint32_t grp;
} idx_ent;

typedef struct fpr_ent {       /* primary key fingerprint -> group */
	const pgp_fpr *fpr;
	uint32_t grp;
} fpr_ent;

typedef struct loose_ent {     /* a stand-alone key revocation */
	uint8_t keyid[8];          /* its issuer */
	uint32_t seq;              /* order of appearance */
	pgp_rd body;
} loose_ent;

typedef struct email_ent {     /* e-mail address of a user ID -> group */
	const uint8_t *p;
	size_t len;
	uint32_t grp;
} email_ent;

/* All copies of one primary key. */
typedef struct group {
	pgp_cert *cert;            /* what lookups see */
	uint32_t first, last;      /* its copies, chained through next[] */
	uint8_t merged;            /* cert is owned (a merge), not a copy */
	uint8_t dirty;             /* to be merged again */
} group;

struct pgp_certset {
	pgp_cert **raw;            /* copies as parsed, input order */
	uint32_t *next;            /* next copy of the same group, or NONE */
	size_t nraw, capraw, capnext, grouped;
	group *groups;
	size_t ngroups, capgroups;
	fpr_ent *fidx;
	size_t nfidx, capfidx;
	idx_ent *idx;
	size_t nidx, capidx, sorted;
	loose_ent *loose;
	size_t nloose, caploose, loose_sorted;
	pgp_cert **retired;        /* merges replaced by newer ones, freed with the set */
	size_t nretired, capretired;
	uint8_t **owned;
	size_t nowned, capowned;
	email_ent *email;          /* built on the first e-mail lookup */
	size_t nemail, email_groups;
	int email_valid;
	size_t skipped;
	/* certificates refused for a limit (docs/semantics.md): the key IDs
	 * of their keys and the addresses of their user IDs, sorted, so that
	 * lookups for anything they speak about fail closed */
	uint8_t (*refused_kid)[8];
	size_t nrefused_kid, caprefused_kid;
	pgp_view *refused_email;
	size_t nrefused_email, caprefused_email;
	pgp_diag *refusals;        /* why each was refused (certificate offset, component) */
	size_t nrefusals, caprefusals;
	pgp_err broken;            /* PGP_OK, or the error that made the set unusable */
	size_t max_sigs;           /* per component: PGP_MAX_SIGS_PER_COMP, or the
	                              stripping cap (pgp_certset_set_sig_cap) */
	uint32_t *rawseq;          /* per copy: its certificate's place in the input
	                              order (certscan.c builds copies out of order) */
	size_t caprawseq;
	uint32_t cur_seq;          /* the place of the copy being parsed */
	lazy_set *lazy;            /* NULL, or the scan of a lazy set (certscan.c) */
	uint8_t added;             /* pgp_certset_add was called */
};


/* Growth of a malloc'ed array of elem-octet entries to hold need. */
pgp_err pgp__cs_grow(void **p, size_t *cap, size_t need, size_t elem);

/* Sort the new tail base[nsorted..n) and merge it into the sorted head. */
pgp_err pgp__cs_sort_tail(void *base, size_t nsorted, size_t n, size_t elem,
    int (*cmp)(const void *, const void *));

/* Parse the certificates and stand-alone revocations of *in into copies
 * (no settling); in->off is the offset of in->p in its input. */
pgp_err pgp__cs_parse(pgp_certset *s, const pgp_rd *in, pgp_diag *diag);

/* After pgp__cs_parse: group new copies, index them, attach stand-alone
 * revocations, merge changed groups. */
pgp_err pgp__cs_settle(pgp_certset *s, pgp_diag *diag);

/*
 * Record the certificate at start, which pgp__cert_count refused for a
 * limit (diag, may be NULL, says why), and frame it to its end (the next
 * primary key): *next is the reader after it. A framing error inside it is
 * returned (diag set), as any framing error ends a parse.
 */
pgp_err pgp__cs_refuse(pgp_certset *s, const pgp_rd *start, pgp_diag *diag, pgp_rd *next);

/* The issuer key ID of a signature outside any certificate if it is a key
 * revocation (what the set keeps of such signatures); 0 if it is ignored. */
int pgp__cs_loose_issuer(const pgp_rd *body, uint8_t keyid[8]);

/* Whether q names something a refused certificate speaks about. */
int pgp__cs_refused(const pgp_certset *s, const pgp_certq *q);

/* The lookup over what the set has built (every certificate of an eager
 * set); results in group order. */
pgp_err pgp__cs_find(const pgp_certset *s, const pgp_certq *q, const pgp_cert **out,
    size_t max, size_t *total);

/* certscan.c: the lazy mode (pgp_certset_set_lazy). */
pgp_err pgp__cs_lazy_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag);
pgp_err pgp__cs_lazy_find(pgp_certset *s, const pgp_certq *q, const pgp_cert **out,
    size_t max, size_t *total);
/* Build everything not built yet (for count/get/copies and lookups that
 * need every certificate), then *gorder / *rorder: the groups and copies
 * in input order. */
pgp_err pgp__cs_lazy_all(pgp_certset *s);
uint32_t pgp__cs_lazy_group(const pgp_certset *s, size_t i);
uint32_t pgp__cs_lazy_copy(const pgp_certset *s, size_t i);
pgp_err pgp__cs_lazy_new(lazy_set **out);
void pgp__cs_lazy_free(lazy_set *l);

#endif
