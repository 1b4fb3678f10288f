/*
 * mbase.h - the merge base of two commits, computed above gx_read (so it
 * works for wotkit's own reader: SHA-256 repositories), as git 2.39
 * commit-reach.c does without a commit-graph: paint_down_to_common (a
 * queue by committer date, newest first, ties in queue order; PARENT1,
 * PARENT2, STALE), then remove_redundant_no_gen when several bases remain,
 * then the first by date (commit_list_insert_by_date).
 */
#ifndef WOTKIT_GIT_MBASE_H
#define WOTKIT_GIT_MBASE_H

#include <stddef.h>
#include <stdint.h>
#include "gx.h"

/* Most commits one merge-base computation reads. */
#define GX_MBASE_MAX_COMMITS (1u << 22)
/* Most merge-base candidates kept for remove_redundant (git has no limit;
 * a history with more is refused). */
#define GX_MBASE_MAX_CANDIDATES 4096u

/* Same contract as gx_merge_base (gx.h): 0 found, 1 none, -1 error. */
int gx_mbase(gx_repo *r, const uint8_t *a, const uint8_t *b, uint8_t out[GX_MAX_ID], char *err,
    size_t errlen);

#endif
