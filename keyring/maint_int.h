/*
 * maint_int.h - what maint.c (parsing) and maint_match.c (patterns) share.
 * see maint.h
 */
#ifndef KR_MAINT_INT_H
#define KR_MAINT_INT_H

#include <regex.h>
#include "maint.h"

enum { MAINT_PAT_NONE = 0, MAINT_PAT_GLOB, MAINT_PAT_REGEX };

/* An F:/X:/N: entry, prepared once. */
typedef struct maint_pat {
	uint8_t kind;             /* MAINT_PAT_* */
	uint8_t trailing_slash;   /* the value ends in '/' */
	uint8_t dir_candidate;    /* literal, no trailing '/': a directory when a known path lies below */
	uint32_t slashes;         /* '/' in the converted pattern */
	regex_t *re;              /* MAINT_PAT_REGEX */
} maint_pat;

struct maint_file {
	maint_section *sec;
	size_t nsec, capsec;
	maint_entry *ent;
	maint_pat *pat;           /* one per entry */
	size_t nent, capent;
};

/* Prepare entry i (F:, X: or N:): its maint_pat, or mark it bad.
 * PGP_ERR_NOMEM only. */
pgp_err maint__prepare(maint_file *m, size_t i);
void maint__release(maint_file *m, size_t i);

#endif
