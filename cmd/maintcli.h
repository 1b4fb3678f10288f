/*
 * maintcli.h - what `wotkit maintainers` and `wotkit pull-check` share
 * (cmd/maintcli.c): loading a MAINTAINERS file and
 * the depth of the path search. docs/maintainers.md
 */
#ifndef WOTKIT_MAINTCLI_H
#define WOTKIT_MAINTCLI_H

#include <stdint.h>
#include "cli.h"
#include "wotcli.h"
#include "keyring/maint.h"

/* Hops of the path from the root searched (as verify-tag, GV_MAX_DEPTH). */
#define MAINT_CLI_MAX_DEPTH 4u

/* Read and parse path into *m (f keeps the octets: close it after
 * maint_free). Entries refused as patterns are named on stderr (a warning:
 * they match nothing). 0, or -1 after a message. */
int maint_cli_load(const char *path, cli_file *f, maint_file **m);


/* The section's title for messages: its title, or "(untitled, line N)". */
void maint_cli_title(const maint_file *m, size_t s, char *buf, size_t cap, pgp_view *out);

#endif
