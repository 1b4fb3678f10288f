/* changes.h - `wotkit-git changes` (changes.c): its named limits. */
#ifndef WOTKIT_GIT_CHANGES_H
#define WOTKIT_GIT_CHANGES_H

#include "tdiff.h"

#define GX_CHANGES_MAX_PATHS (1u << 20)             /* changed paths listed */
#define GX_CHANGES_MAX_PATH GX_DIFF_MAX_PATH         /* octets of one path (4096) */
/* octets written: the two header lines and every record at their limits */
#define GX_CHANGES_MAX_OUTPUT (2u * (8u + 2u * GX_MAX_ID) + \
    (size_t)GX_CHANGES_MAX_PATHS * (GX_CHANGES_MAX_PATH + 3u))

/* argv[0] is "changes"; libgit2 initialised by the caller. Exit status:
 * 0, 1 error, 2 usage. */
int changes_main(int argc, char **argv);

#endif
