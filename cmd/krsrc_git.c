/*
 * krsrc_git.c - a git repository as a keyring source: wotkit-git reads its
 * object database and writes the stream of docs/git-reader.md on its
 * stdout; this file runs it and feeds the stream to the same loaders as a
 * working tree. wotkit itself never links libgit2. see krsrc.h
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmd/krsrc_int.h"

extern char **environ;

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

typedef struct gitctx {
	krsrc_ctx *x;
	const char *repo;
	char commit[16];
	int rc;
} gitctx;

static pgp_err
on_item(void *ctx, const pgpkeys_item *it)
{
	gitctx *g = ctx;
	char name[PGPKEYS_STREAM_MAX_PATH + 256];
	const char *path = (const char *)it->path.p;
	size_t pl = it->path.len;
	if (it->kind == PGPKEYS_ITEM_COMMIT) {
		size_t n = it->data.len < 12 ? it->data.len : 12;
		memcpy(g->commit, it->data.p, n);
		g->commit[n] = 0;
		return PGP_OK;
	}
	snprintf(name, sizeof name, "%s@%s:%.*s", g->repo, g->commit[0] ? g->commit : "?",
	    (int)pl, path);
	if (pl > 5 && memcmp(path, "keys/", 5) == 0) {
		const char *base = path + 5;
		size_t bl = pl - 5;
		char b[PGPKEYS_STREAM_MAX_PATH + 1];
		uint8_t *p;
		/* only keys/<name>.asc, as in a working tree */
		if (memchr(base, '/', bl) || bl < 5 || memcmp(base + bl - 4, ".asc", 4) != 0 ||
		    base[0] == '.')
			return PGP_OK;
		if (it->mode == PGPKEYS_MODE_LINK) {
			g->rc = krsrc_report_add(g->x, name, 0, PGPKEYS_WARN,
			    "keys/ file is a symlink in the repository; not followed");
			return g->rc ? PGP_ERR_NOMEM : PGP_OK;
		}
		memcpy(b, base, bl);
		b[bl] = 0;
		if ((p = malloc(it->data.len ? it->data.len : 1)) == NULL)
			return PGP_ERR_NOMEM;
		if (it->data.len)
			memcpy(p, it->data.p, it->data.len);
		g->rc = krsrc_add_keyfile(g->x, name, b, p, it->data.len);
		return g->rc ? PGP_ERR_NOMEM : PGP_OK;
	}
	if (pl > 17 && memcmp(path, ".keyring/openpgp/", 17) == 0) {
		const char *d = path + 17, *l, *s;
		size_t rest = pl - 17, dl, ll;
		if ((l = memchr(d, '/', rest)) == NULL)
			return PGP_OK;
		dl = (size_t)(l - d);
		l++;
		if ((s = memchr(l, '/', rest - dl - 1)) == NULL)
			return PGP_OK;
		ll = (size_t)(s - l);
		if ((size_t)(path + pl - s) != sizeof "/default" - 1 ||
		    memcmp(s, "/default", sizeof "/default" - 1) != 0)
			return PGP_OK;
		if (it->data.len > KRSRC_MAX_LINK) {
			g->rc = krsrc_report_add(g->x, name, 0, PGPKEYS_ERROR, "entry larger than a link text");
			return g->rc ? PGP_ERR_NOMEM : PGP_OK;
		}
		g->rc = krsrc_add_entry(g->x, name, d, dl, l, ll, it->data.p, it->data.len);
		return g->rc ? PGP_ERR_NOMEM : PGP_OK;
	}
	return PGP_OK;
}

static pgp_err
on_nothing(void *ctx, const pgpkeys_item *it)
{
	(void)ctx;
	(void)it;
	return PGP_OK;
}

/* Read fd to its end into b (capped by b->max). 0, 1 over the cap, -1 on error. */
static int
read_all(int fd, pgp_buf *b)
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
		r = read(fd, dst, 1 << 16);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			return 0;
		b->len += (size_t)r;
	}
}

/* see krsrc_int.h */
int
krsrc_git(krsrc_ctx *x, const char *repo, const char *rev)
{
	char exe[PATH_MAX], msg[PGPKEYS_STREAM_MAX_MSG + 128];
	const char *path;
	char *argv[7];
	int use_path, pfd[2], st = 0, rd, rc = 0;
	size_t ac = 0;
	posix_spawn_file_actions_t fa;
	pid_t pid;
	pgp_buf b;
	pgp_view emsg;
	pgp_diag d = {0, -1, NULL};
	gitctx g;
	pgp_err e;

	path = git_exe(exe, sizeof exe, &use_path);
	argv[ac++] = (char *)"wotkit-git";
	argv[ac++] = (char *)"pgpkeys";
	argv[ac++] = (char *)"--rev";
	argv[ac++] = (char *)(rev ? rev : "HEAD");
	argv[ac++] = (char *)"--";
	argv[ac++] = (char *)repo;
	argv[ac] = NULL;
	if (pipe(pfd) != 0)
		return -1;
	if (posix_spawn_file_actions_init(&fa) != 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	posix_spawn_file_actions_addclose(&fa, pfd[0]);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addclose(&fa, pfd[1]);
	e = PGP_OK;
	st = use_path ? posix_spawnp(&pid, path, &fa, NULL, argv, environ) :
	    posix_spawn(&pid, path, &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(pfd[1]);
	if (st != 0) {
		close(pfd[0]);
		snprintf(msg, sizeof msg, "cannot run %.512s (needed to read a git repository): %s",
		    path, strerror(st));
		return krsrc_report_add(x, repo, 0, PGPKEYS_ERROR, msg);
	}
	pgp_buf_init(&b, PGPKEYS_STREAM_MAX_TOTAL);
	rd = read_all(pfd[0], &b);
	if (rd != 0)
		kill(pid, SIGKILL);   /* the child we started: stop it, its output is refused */
	close(pfd[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (rd < 0) {
		pgp_buf_free(&b);
		return -1;
	}
	if (rd > 0) {
		pgp_buf_free(&b);
		return krsrc_report_add(x, repo, 0, PGPKEYS_ERROR,
		    "wotkit-git wrote more than PGPKEYS_STREAM_MAX_TOTAL octets; nothing loaded");
	}
	memset(&g, 0, sizeof g);
	g.x = x;
	g.repo = repo;
	/* all or nothing: the whole stream is checked before anything is loaded */
	e = pgpkeys_stream_parse(b.p, b.len, on_nothing, NULL, &emsg, &d);
	if (e == PGP_OK)
		e = pgpkeys_stream_parse(b.p, b.len, on_item, &g, &emsg, &d);
	if (g.rc != 0 || e == PGP_ERR_NOMEM) {
		rc = -1;
	} else if (e == PGP_ERR_IO) {
		snprintf(msg, sizeof msg, "wotkit-git: %.*s", (int)emsg.len, (const char *)emsg.p);
		rc = krsrc_report_add(x, repo, 0, PGPKEYS_ERROR, msg);
	} else if (e != PGP_OK) {
		snprintf(msg, sizeof msg, "stream from wotkit-git refused at offset %zu: %s (%s)%s",
		    d.offset, d.what ? d.what : "", pgp_strerror(e), "; nothing loaded");
		rc = krsrc_report_add(x, repo, 0, PGPKEYS_ERROR, msg);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		rc = krsrc_report_add(x, repo, 0, PGPKEYS_ERROR,
		    "wotkit-git failed after a complete stream");
	}
	pgp_buf_free(&b);
	return rc;
}
