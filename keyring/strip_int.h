/*
 * strip_int.h - what the stripping driver (strip.c) and the per-certificate
 * work (strip_cert.c, strip_out.c) share. Internal to keyring/.
 */
#ifndef KR_STRIP_INT_H
#define KR_STRIP_INT_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "strip.h"

/* Placement of a signature (input list, then where it is written). */
enum { K_DIRECT = 0, K_UID = 1, K_SUB = 2, K_LOOSE = 3 };

/* What a signature is to its certificate. */
enum {
	R_NONE = 0,     /* dropped in classification */
	R_BIND,         /* self-signature binding a component: 0x10-0x13, 0x18, 0x1F */
	R_REV,          /* revocation by the primary key: 0x20, 0x28, 0x30 */
	R_DESIG,        /* key revocation by another key (designated revoker) */
	R_THIRD         /* third-party certification or its revocation (0x10-0x13, 0x30) */
};

enum { S_PENDING = 0, S_KEPT, S_DROP };

typedef struct ksig {
	const pgp_rd *body;
	uint32_t created;
	uint32_t src_comp;   /* index in the input list (cert->uids / subs / loose) */
	uint32_t grp;        /* component group it is written in (UID / SUB); 0 DIRECT */
	uint8_t src;         /* K_* input list */
	uint8_t at;          /* K_* where it is written (K_DIRECT, K_UID, K_SUB) */
	uint8_t type;
	uint8_t role;        /* R_* */
	uint8_t state;       /* S_* */
	uint8_t reason;      /* kr_drop when S_DROP */
	uint8_t self;        /* 1 names the primary key, 0 another key, 2 no issuer */
	uint8_t unchecked;   /* kept without math (designated revoker absent) */
	uint8_t has_issuer;
	uint8_t issuer[8];
	uint8_t extra;       /* found on another certificate (designated revocation) */
	uint32_t issuer_cert;/* R_THIRD kept: sorted index of the issuer's certificate */
	int32_t issuer_key;  /* -1 primary, else output subkey index */
} ksig;

typedef struct ktag {
	uint32_t sig;        /* index into kcert.s */
	uint8_t tag[PGP_SIGMEMO_TAG_LEN];
} ktag;

typedef struct kgrp {        /* a user ID / attribute or subkey group (identical copies) */
	uint32_t rep;        /* representative index in cert->uids / cert->subs */
	int32_t out;         /* output index, -1 dropped */
	uint8_t bound;       /* a binding verifies */
	uint8_t revoked;     /* a revocation verifies */
	uint8_t certify;     /* subkeys: a verified binding allows certification */
} kgrp;

struct kr_ctx;

typedef struct kcert {
	const pgp_cert *c;
	uint32_t idx;        /* sorted index */
	ksig *s;
	uint32_t ns, caps;
	uint32_t *uid_grp;   /* per cert->uids[i]: group */
	kgrp *ug;
	uint32_t nug;
	uint32_t *sub_grp;   /* per cert->subs[i]: group */
	kgrp *sg;
	uint32_t nsg;
	ktag *tags;          /* tags of signatures whose math verified */
	uint32_t ntags, captags;
	uint32_t budget;     /* math checks left (per-certificate cap) */
	uint32_t trials;     /* misplaced revocation trials made */
	uint32_t cur;        /* signature being checked (for the memo) */
	uint8_t oom;         /* a tag could not be stored: fail (never a lost tag) */
	char **notes;
	size_t nnotes;
	kr_edge *edges;
	size_t nedges;
} kcert;

typedef struct kr_ctx {
	const pgp_certset *set;
	const kr_strip_opts *o;
	pgp_policy pol;
	uint32_t max_uid, max_cert;
	kcert *kc;           /* sorted by primary fingerprint */
	size_t n;
	struct { const pgp_cert *c; uint32_t idx; } *byptr; /* sorted by pointer */
	kr_scert *out;
} kr_ctx;

/* The sorted index of a certificate of the set, or UINT32_MAX. */
uint32_t kr__cert_index(const kr_ctx *x, const pgp_cert *c);

/* Phase 1: classify, self-signatures, components (strip_cert.c). */
pgp_err kr__phase_self(kr_ctx *x, kcert *k);
/* Phase 2: third-party certifications (strip_cert.c). */
pgp_err kr__phase_third(kr_ctx *x, kcert *k);
/* Phase 3: superseded choice, canonical output, edges (strip_out.c). */
pgp_err kr__phase_out(kr_ctx *x, kcert *k, kr_scert *out);

/* Drop signature i of k for reason r. */
void kr__drop(kcert *k, uint32_t i, kr_drop r);
/* Append a note naming k's key (printf-like); NOMEM on failure. */
pgp_err kr__note(kcert *k, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The recording memo of k (tags of verified math go to k->tags). */
void kr__memo(kcert *k, pgp_sigmemo *m);
/* Order: newest first, then body octets (the cap order). */
int kr__cap_cmp(const ksig *a, const ksig *b);
/* Order of signature bodies (octets, shorter first on a common prefix). */
int kr__body_cmp(const pgp_rd *a, const pgp_rd *b);

#endif
