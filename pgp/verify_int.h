/*
 * verify_int.h - internals shared by verify.c (detached signatures, the
 * per-signature checks) and message.c (inline-signed and cleartext-signed
 * messages). Not part of the public API.
 */
#ifndef PGP_VERIFY_INT_H
#define PGP_VERIFY_INT_H

#include "verify.h"
#include "eval.h"
#include "err_int.h"
#include "hash_int.h"
#include "limits.h"
#include "sighash_int.h"

/* One hashing pass over the document, shared by signatures that hash it
 * the same way (same algorithm and mode, no salt). */
typedef struct vstream {
	pgp_hash h;
	pgp_textcanon tc;
	uint8_t alg, text, salted;
} vstream;

typedef struct vsig {
	pgp_sig sig;
	pgp_err err;          /* PGP_OK if the signature is checkable */
	const char *why;
	int stream;           /* index into streams, -1 if none */
	size_t off;
} vsig;

struct pgp_verifier {
	int kind;             /* 0 detached, 1 cleartext, 2 inline */
	uint8_t *sigbytes;    /* owned copy of the signature packets */
	vsig *sigs;
	size_t nsigs;
	vstream *streams;
	size_t nstreams;
	pgp_result *results;
	size_t ngood;
	size_t nsigners;      /* distinct certificates with a good signature */
	size_t nevals;        /* certificate evaluations the last finish() ran */
	pgp_view content;
	uint8_t *owned[PGP_MAX_NESTING + 4]; /* decompressed / reassembled / cleartext buffers */
	size_t nowned;
	const uint8_t *hash_ids; /* cleartext Hash: header algorithms */
	size_t nhash_ids;
	uint8_t hash_id_buf[16];
};

/*
 * Certificate evaluations of one pgp_verifier_finish() run, keyed by
 * certificate (all at one reference time under one policy): every
 * certificate is evaluated once however many signatures or cross-checks
 * need it.
 */
typedef struct pgp__evcache_ent {
	const pgp_cert *cert;   /* NULL: empty slot */
	pgp_certeval *ev;       /* its own allocation: stays put when the table grows */
} pgp__evcache_ent;

typedef struct pgp__evcache {
	pgp__evcache_ent *tab;
	size_t cap, n;          /* cap is 0 or a power of two */
	const pgp_certsrc *src;
	int64_t t;
	const pgp_policy *pol;
	size_t evals;           /* pgp_cert_eval() calls so far */
} pgp__evcache;

void pgp__evcache_init(pgp__evcache *c, const pgp_certsrc *src, int64_t t, const pgp_policy *pol);
/* The evaluation of cert (computed on first use; valid until
 * pgp__evcache_free). Only PGP_ERR_NOMEM fails. */
pgp_err pgp__evcache_get(pgp__evcache *c, const pgp_cert *cert, const pgp_certeval **out);
void pgp__evcache_free(pgp__evcache *c);

/* Keep an owned buffer until the verifier is freed (PGP_ERR_LIMIT if full). */
pgp_err pgp__verifier_keep(pgp_verifier *v, uint8_t *p);
/* Record one signature packet body found at off; parse errors become its result. */
pgp_err pgp__verifier_add_sig(pgp_verifier *v, const pgp_rd *body, size_t off);
/* Decide per signature whether it can be checked; attach hash streams. */
pgp_err pgp__verifier_plan(pgp_verifier *v);
/* Parse a file of detached signature packets into v. */
pgp_err pgp__verifier_load_sigs(pgp_verifier *v, const uint8_t *p, size_t len, pgp_diag *diag);

#endif
