/*
 * gitverify.h - what `wotkit verify-tag` and `wotkit verify-commit` share
 * (gitverify.c runs wotkit-git and reads its object stream, gitverify_sig.c
 * checks one signature and its trust, gitverify_out.c prints).
 * docs/git-verify.md describes the commands, verdicts and exit codes.
 */
#ifndef WOTKIT_GITVERIFY_H
#define WOTKIT_GITVERIFY_H

#include <stdio.h>
#include "wotcli.h"
#include "keyring/trust.h"
#include "pgp/pgp.h"

/* Hops of the path to the root searched (as `wotkit wot path`). */
#define GV_MAX_DEPTH 4u
/* mergetag headers of one commit checked. */
#define GV_MAX_MERGETAGS 256u

/* One verdict per signature (and per object: its own signature's). */
typedef enum gv_verdict {
	GV_GOOD = 0,        /* good signature, signer trusted */
	GV_UNTRUSTED,       /* good signature, no path to the root / below --min-trust */
	GV_UNSIGNED,
	GV_BAD,             /* the math failed or the digest does not match */
	GV_UNKNOWN_KEY,     /* no certificate in the keyring holds the signing key */
	GV_EXPIRED_KEY,     /* the key expired (before now or before signing) */
	GV_REVOKED_KEY,
	GV_EXPIRED_SIG,
	GV_POLICY,          /* valid, but refused by the policy */
	GV_MULTIPLE,        /* more than one signature: refused, as git's result E */
	GV_UNSUPPORTED,     /* x509 / ssh signature, or an algorithm we lack */
	GV_MALFORMED
} gv_verdict;

/* "good", "untrusted", "unsigned", "bad", "unknown-key", "expired-key",
 * "revoked-key", "expired-signature", "policy", "multiple-signatures",
 * "unsupported-format", "malformed". */
const char *gv_verdict_word(gv_verdict v);

/* The run: keyring, graph, trust model, and per-signer caches. */
typedef struct gv_ctx {
	wot_cli c;
	unsigned min_trust;      /* 0: a path to the root; else WOT_V_MARGINAL/FULL/ULTIMATE */
	pgp_certsrc src;
	pgp_verify_opts vo;
	wot_trust *trust;        /* GnuPG's model over the graph */
	wot_search *search;
	uint8_t *cached;         /* per node: 1 when path[] holds its answer */
	uint8_t *haspath;
	wot_path *path;          /* per node: the path from the root, when haspath */
	int sha256;              /* the repository's object format */
	int json;
	size_t nprinted;         /* JSON array elements written */
} gv_ctx;

/* One signature, checked. */
typedef struct gv_sig {
	gv_verdict verdict;
	const char *reason;      /* why (static text), or NULL */
	int has_result;          /* res holds the verification result */
	pgp_result res;
	int64_t node;            /* the signer in the graph, -1 when none */
	wot_validity validity;
	int has_path;
	wot_path path;
} gv_sig;

typedef struct gv_mergetag {
	gv_sig sig;
	char tag[256];           /* its "tag" header (the tag's name) */
	char object[2 * 32 + 1]; /* its "object" header (hex) */
	int is_parent;           /* object is one of the commit's parents (git's check) */
} gv_mergetag;

typedef struct gv_object {
	int type;                /* GITOBJ_COMMIT or GITOBJ_TAG */
	char id[2 * 32 + 1];
	char name[4096 + 1];     /* what it was asked by (or the ref of a tag in a range) */
	gv_sig sig;
	gv_mergetag *mt;
	size_t nmt;
} gv_object;

/* Keyring, graph, trust model and caches, once per run (gitverify.c; also
 * pull-check): 0, or -1 after a message. Close with gv_close_trust (also
 * after a failed open). */
int gv_open_trust(gv_ctx *x);
void gv_close_trust(gv_ctx *x);

/* Check one detached signature sig[0..slen) over payload (gitverify_sig.c). */
void gv_check(gv_ctx *x, const uint8_t *payload, size_t plen, const uint8_t *sig, size_t slen,
    pgp_gitsig_format fmt, gv_sig *out);
/* Split and check a raw tag or commit object (and a commit's mergetags);
 * -1 only when out of memory. */
int gv_check_object(gv_ctx *x, const uint8_t *obj, size_t len, gv_object *o);
/* 1 when the object passes: its signature and every mergetag good, every
 * mergetag naming a parent. */
int gv_object_ok(const gv_object *o);

/* Output (gitverify_out.c): human text on stdout, or one element of the
 * JSON array. */
void gv_print(gv_ctx *x, const gv_object *o);
void gv_print_failure(gv_ctx *x, int type, const char *name, size_t nlen, const char *text,
    size_t tlen);

#endif
