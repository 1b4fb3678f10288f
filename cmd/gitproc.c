/*
 * gitproc.c - finding, starting and reading wotkit-git. see gitproc.h
 */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "gitproc.h"

extern char **environ;

#define GITPROC_MAX_ARGS 4096

/*
 * The wotkit-git to run: $WOTKIT_GIT if set, else the one next to this
 * executable (/proc/self/exe), else "wotkit-git" through PATH.
 */
static const char *
git_exe(char *buf, size_t cap, int *use_path)
{
	const char *env = getenv("WOTKIT_GIT");
	ssize_t n;
	char *slash;
	*use_path = 0;
	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", buf, cap - 1);
	if (n > 0 && (size_t)n < cap - 1) {
		buf[n] = 0;
		if ((slash = strrchr(buf, '/')) != NULL &&
		    (size_t)(slash - buf) + sizeof "/wotkit-git" <= cap) {
			memcpy(slash, "/wotkit-git", sizeof "/wotkit-git");
			if (access(buf, X_OK) == 0)
				return buf;
		}
	}
	*use_path = 1;
	return "wotkit-git";
}

/* see gitproc.h */
int
gitproc_start(gitproc *p, const char *const *args, size_t nargs)
{
	char **argv;
	int use_path, pfd[2], st;
	size_t i;
	posix_spawn_file_actions_t fa;

	p->pid = -1;
	p->fd = -1;
	p->path = git_exe(p->exe, sizeof p->exe, &use_path);
	if (nargs > GITPROC_MAX_ARGS)
		return E2BIG;
	if ((argv = calloc(nargs + 2, sizeof *argv)) == NULL)
		return ENOMEM;
	argv[0] = (char *)"wotkit-git";
	for (i = 0; i < nargs; i++)
		argv[i + 1] = (char *)args[i];
	if (pipe(pfd) != 0) {
		st = errno;
		free(argv);
		return st;
	}
	if ((st = posix_spawn_file_actions_init(&fa)) != 0) {
		close(pfd[0]);
		close(pfd[1]);
		free(argv);
		return st;
	}
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	st = use_path ? posix_spawnp(&p->pid, p->path, &fa, NULL, argv, environ) :
	    posix_spawn(&p->pid, p->path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	free(argv);
	if (st != 0) {
		close(pfd[0]);
		p->pid = -1;
		return st;
	}
	p->fd = pfd[0];
	return 0;
}

/* see gitproc.h */
int
gitproc_read_all(gitproc *p, pgp_buf *b)
{
	for (;;) {
		uint8_t *dst;
		ssize_t r;
		pgp_err e = pgp_buf_grow(b, 1 << 16, &dst);
		if (e == PGP_ERR_LIMIT)
			return 1;
		if (e != PGP_OK)
			return -1;
		b->len -= 1 << 16;
		r = read(p->fd, dst, 1 << 16);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		b->len += (size_t)r;
	}
}

/* see gitproc.h */
pgp_err
gitproc_read(void *ctx, uint8_t *buf, size_t n, size_t *got)
{
	gitproc *p = ctx;
	ssize_t r;
	*got = 0;
	for (;;) {
		r = read(p->fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return PGP_ERR_IO;
		*got = (size_t)r;
		return PGP_OK;
	}
}

/* see gitproc.h */
int
gitproc_finish(gitproc *p, int kill_it)
{
	int st = 0;
	if (p->pid > 0 && kill_it)
		kill(p->pid, SIGKILL);   /* the child we started */
	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	if (p->pid > 0)
		while (waitpid(p->pid, &st, 0) < 0 && errno == EINTR)
			;
	p->pid = -1;
	return st;
}
