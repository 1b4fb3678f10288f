/*
 * refresh.h - what the files of `wotkit refresh` share (docs/refresh.md):
 *   refresh.c        options, the order of the steps, the state file
 *   refresh_git.c    running wotkit-git: fetch (Contract A of issue 16),
 *                    resolving a ref once, reading commit objects
 *   refresh_check.c  the tip's signature and its trust, the history audit
 *   refresh_merge.c  the new keyring: tip keys merged with the current ones
 *   refresh_diff.c   what changed, per certificate, and its report
 */
#ifndef WOTKIT_REFRESH_H
#define WOTKIT_REFRESH_H

#include <stdint.h>
#include "gitverify.h"
#include "out.h"
#include "keyring/kr.h"
#include "pgp/pgp.h"

#define RF_HEX_MAX (2 * 32 + 1)
/* Commits one audit checks (SINCE..TIP). */
#define RF_MAX_AUDIT_COMMITS 100000u
/* Octets of the state file. */
#define RF_MAX_STATE 65536u

/* ---- refresh_git.c ---- */

typedef struct rf_commit {
	char id[RF_HEX_MAX];
	uint8_t *obj;            /* the raw commit object */
	size_t len;
} rf_commit;

typedef struct rf_commits {
	rf_commit *v;
	size_t n;
	int sha256;
} rf_commits;

/*
 * `wotkit-git objects --commits -C repo -- args...`: every commit the
 * arguments name (a rev, or A..B in rev-list order), with its raw object.
 * 0; -1 after a message (a failure record names the argument).
 */
int rf_git_commits(const char *cmd, const char *repo, const char *const *args, size_t nargs,
    size_t max, rf_commits *out);
void rf_commits_free(rf_commits *c);
/*
 * `wotkit-git fetch -C repo [--init] -- source [branch]` (Contract A):
 * the id of the fetched branch's tip, as wotkit-git printed it. 0, or -1
 * after a message.
 */
int rf_git_fetch(const char *cmd, const char *repo, int init, const char *source,
    const char *branch, char tip[RF_HEX_MAX]);

/* ---- refresh_check.c ---- */

/* One commit's signature, and whether refresh accepts it. */
typedef struct rf_verdict {
	int accepted;
	const char *word;        /* gv_verdict_word, or "trusted-directly" for an
	                            untrusted signer with ultimate ownertrust */
	const char *reason;      /* static, or NULL */
	char signer[RF_HEX_MAX]; /* the signer's primary fingerprint, "" when none */
	int64_t sig_created;     /* 0 when unknown */
	int direct;              /* accepted through the user's ownertrust */
} rf_verdict;

/* The verification context: gitverify's, and the ownertrust of each node. */
typedef struct rf_ctx {
	gv_ctx x;
	uint8_t *ot;             /* per node: trust.h ownertrust (root ultimate) */
	int open;
} rf_ctx;

/* Open over the user's keyring file (its trust file beside it), at t.
 * 0, or -1 after a message (rf_ctx_close it anyway). */
int rf_ctx_open(rf_ctx *r, const char *keyring, int64_t t);
/* Open over a keyring in memory (mem malloc'ed, taken over, also on
 * failure), with trust_file (NULL: none) for the ownertrust. */
int rf_ctx_open_mem(rf_ctx *r, uint8_t *mem, size_t len, const char *trust_file, int64_t t);
void rf_ctx_close(rf_ctx *r);
/* Check one raw commit; -1 out of memory. */
int rf_check_commit(rf_ctx *r, int sha256, const uint8_t *obj, size_t len, rf_verdict *v);

typedef struct rf_audit {
	size_t checked;
	int broken;              /* 1: the commit below broke the chain */
	char commit[RF_HEX_MAX];
	rf_verdict v;
} rf_audit;

/*
 * sequoia-git's rule over pgpkeys.git: every commit of SINCE..TIP signed by
 * a key with a path to the root (or ultimate ownertrust in trust_file) in
 * the keyring built from the tree at one of its parents, at the
 * signature's creation time. root: the user's root (NULL: direct trust
 * only). 0 done (see a->broken), -1 after a message.
 */
int rf_audit_range(const char *cmd, const char *repo, const char *since, const char *tip,
    const pgp_fpr *root, const char *trust_file, const pgp_policy *pol, rf_audit *a);

/* ---- refresh_merge.c ---- */

typedef struct rf_merge_opts {
	const char *cmd;
	const char *repo;        /* "git:DIR" source */
	const char *tip;
	int all;                 /* --all: new keys too */
	int quiet;
	int64_t at;
	const pgp_policy *pol;
	const pgp_fpr *root;
	int64_t built_at;        /* 0: no stamp */
} rf_merge_opts;

typedef struct rf_merged {
	uint8_t *bytes;          /* the new keyring file (malloc'ed) */
	size_t len;
	pgp_fpr *missing;        /* current keys the source does not hold */
	size_t nmissing;
	size_t nsource;          /* certificates at the tip */
} rf_merged;

/* Build the new keyring from the tip's keys and old. 0, or -1 after a message. */
int rf_merge(const rf_merge_opts *o, kr_keyring *old, rf_merged *m);
void rf_merged_free(rf_merged *m);

/* ---- refresh_diff.c ---- */

/* Compare old and new per certificate and emit the "certificates" and
 * "added" arrays (and "not_in_source") into o; *nchanged: certificates
 * changed or added. 0, or -1 after a message. */
int rf_diff(out_ctx *o, kr_keyring *old, kr_keyring *nw, const rf_merged *m, int64_t at,
    const pgp_policy *pol, size_t *nchanged);

#endif
