/*
 * gitproc.h - running wotkit-git, the one executable that links libgit2
 * (docs/git-reader.md): found as $WOTKIT_GIT, else next to this executable
 * (/proc/self/exe), else through PATH; started with posix_spawn, stdin and
 * stderr inherited, stdout a pipe this process reads. Used by the git
 * keyring source (krsrc_git.c) and by verify-tag / verify-commit
 * (gitverify.c).
 */
#ifndef WOTKIT_GITPROC_H
#define WOTKIT_GITPROC_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>
#include "pgp/pgp.h"

typedef struct gitproc {
	pid_t pid;
	int fd;                  /* its stdout, -1 when closed */
	char exe[PATH_MAX];
	const char *path;        /* what was run */
} gitproc;

/*
 * Start wotkit-git with the arguments args[0..nargs) (after its own name).
 * 0, or an errno value (the message is the caller's: "cannot run PATH").
 */
int gitproc_start(gitproc *p, const char *const *args, size_t nargs);
/* Read its stdout to the end into b (capped by b->max): 0, 1 over the cap,
 * -1 on a read error. */
int gitproc_read_all(gitproc *p, pgp_buf *b);
/* A gitobj_read_fn (keyring/gitobj.h) over its stdout: ctx is the gitproc. */
pgp_err gitproc_read(void *ctx, uint8_t *buf, size_t n, size_t *got);
/* Close its stdout (killing it first when kill_it: its output is refused)
 * and wait for it: the wait status. */
int gitproc_finish(gitproc *p, int kill_it);

#endif
