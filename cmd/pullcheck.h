/*
 * pullcheck.h - `wotkit pull-check` (docs/maintainers.md): pullcheck.c runs
 * the checks, pullcheck_out.c prints them.
 */
#ifndef WOTKIT_PULLCHECK_H
#define WOTKIT_PULLCHECK_H

#include "gitverify.h"
#include "maintcli.h"

/* Changed paths read from `wotkit-git changes` (its GX_CHANGES_MAX_PATHS
 * and path limit), and the octets of its output. */
#define PC_MAX_CHANGES   (1u << 20)
#define PC_MAX_PATH      4096u
#define PC_MAX_OUTPUT    ((size_t)256 << 20)
/* E-mail addresses of the signer's valid user IDs considered. */
#define PC_MAX_SIGNER_EMAILS 64u

typedef struct pc_change {
	char status;             /* A, D, M or T */
	const char *path;        /* NUL-terminated, in the output buffer */
	size_t len;
	uint32_t *secs;          /* sections covering it (file order) */
	size_t nsecs;
	int inside;              /* the signer is an M: of one of them */
} pc_change;

typedef struct pc_run {
	gv_ctx x;
	const char *repo, *base, *tag, *maint_path;
	gv_object obj;
	int have_obj;            /* obj holds the verified tag */
	char target[2 * 32 + 1]; /* the tag's "object" when it names a commit */
	pgp_buf out;             /* the changes output */
	char base_id[2 * 32 + 1], commit_id[2 * 32 + 1];
	pc_change *ch;
	size_t nch;
	maint_file *m;
	pgp_view emails[PC_MAX_SIGNER_EMAILS];
	size_t nemails;
	size_t noutside;
} pc_run;

/* 1 when the tag is good (its signature good and the signer trusted). */
int pc_good(const pc_run *r);

/* Output (pullcheck_out.c). */
void pc_print_human(pc_run *r);
void pc_print_json(pc_run *r);

#endif
