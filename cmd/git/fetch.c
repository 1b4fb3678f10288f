/*
 * fetch.c - `wotkit-git fetch -C REPO [--init] [--] SOURCE [BRANCH]`:
 * fetch one remote into REPO through libgit2 and print the commit id its
 * branch BRANCH points at (docs/git-reader.md, "Fetching").
 *
 *  SOURCE  the name of a remote configured in REPO, fetched from its URL
 *          with its own refspecs (as `git fetch NAME`), or, when it holds
 *          `/` or `:`, a URL or path fetched with FETCH_URL_REFSPEC; both
 *          through an in-memory remote (url.*.insteadOf is not applied).
 *  BRANCH  default: the branch the remote's HEAD points at, as the remote
 *          advertises it (git_remote_default_branch), else `master` when
 *          the remote has it.
 *  --init  REPO is created as a bare repository when it does not exist
 *          (or is an empty directory).
 *
 * Tags are not fetched (no auto-follow). SHA-256 repositories are refused
 * before libgit2 sees them (libgit2 1.5 cannot read them). The id printed is
 * the local tracking ref after the fetch, and must equal what the remote
 * advertised for refs/heads/BRANCH.
 *
 * stdout: `<hex> refs/heads/<BRANCH>\n`, exit 0. Errors: `wotkit-git: fetch:
 * ...` on stderr, nothing on stdout, exit 1. Usage: exit 2.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>
#include "gx_own.h"
#include "fetch.h"

/* The refspec a URL is fetched with: its branches, under refs/remotes/wotkit/. */
#define FETCH_URL_REFSPEC "+refs/heads/*:refs/remotes/wotkit/*"
/* Octets of a ref name built here (git has no limit; 4096 is git's PATH_MAX). */
#define FETCH_MAX_REFNAME 4096u

/* remote.NAME.fetch lines used (git has no limit; one is usual). */
#define FETCH_MAX_REFSPECS 64u
#define ERRLEN (3 * FETCH_MAX_REFNAME)   /* a message naming up to two refs */

static int
fail(char *err, const char *what, const char *name)
{
	const git_error *e = git_error_last();
	snprintf(err, ERRLEN, "%s: %s: %s", name, what, e && e->message ? e->message : "?");
	return -1;
}

/* 1 when path does not exist or is an empty directory: --init may create it. */
static int
creatable(const char *path)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int empty = 1;

	if (stat(path, &st) != 0)
		return errno == ENOENT;
	if (!S_ISDIR(st.st_mode) || (d = opendir(path)) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
			empty = 0;
	closedir(d);
	return empty;
}

/* 1 when the repository at path is a SHA-256 one (its config says so). */
static int
is_sha256(const char *path)
{
	char err[256];
	size_t idlen = 0;
	return gx_own_format(path, &idlen, err, sizeof err) == 0 && idlen == 32;
}

static int
open_repo(git_repository **repo, const char *path, int init, char *err)
{
	if (is_sha256(path)) {
		snprintf(err, ERRLEN, "%s: a SHA-256 repository: libgit2 1.5 cannot fetch into it", path);
		return -1;
	}
	if (git_repository_open_ext(repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) == 0)
		return 0;
	*repo = NULL;
	if (!init || !creatable(path))
		return fail(err, "not a git repository", path);
	if (git_repository_init(repo, path, 1) != 0) {
		*repo = NULL;
		return fail(err, "cannot create the repository", path);
	}
	return 0;
}

/* The refspecs a fetch uses: FETCH_URL_REFSPEC, or a named remote's
 * remote.NAME.fetch lines (at most FETCH_MAX_REFSPECS). */
typedef struct specs {
	char *v[FETCH_MAX_REFSPECS];
	size_t n;
	int over;
} specs;

static void
specs_free(specs *sp)
{
	size_t i;
	for (i = 0; i < sp->n; i++)
		free(sp->v[i]);
	sp->n = 0;
}

static int
on_fetch_line(const git_config_entry *e, void *payload)
{
	specs *sp = payload;
	if (sp->n >= FETCH_MAX_REFSPECS) {
		sp->over = 1;
		return -1;
	}
	if ((sp->v[sp->n] = strdup(e->value)) == NULL)
		return -1;
	sp->n++;
	return 0;
}

/* A remote configured in REPO: its URL and fetch refspecs, read from the
 * config by name (git_remote_lookup would also apply url.*.insteadOf, and
 * libgit2 1.5 leaks a PCRE2 match block per config entry while it looks
 * those up: docs/git-reader.md). */
static int
named_remote(git_repository *repo, const char *name, git_buf *url, specs *sp, char *err)
{
	git_config *cfg = NULL;
	char key[FETCH_MAX_REFNAME + 32];
	int valid = 0, rc;

	if (git_remote_name_is_valid(&valid, name) != 0 || !valid) {
		snprintf(err, ERRLEN, "%s: not a valid remote name", name);
		return -1;
	}
	if (git_repository_config_snapshot(&cfg, repo) != 0)
		return fail(err, "cannot read the config", name);
	snprintf(key, sizeof key, "remote.%s.url", name);
	if (git_config_get_string_buf(url, cfg, key) != 0) {
		git_config_free(cfg);
		snprintf(err, ERRLEN, "%s: no such remote (no remote.%s.url)", name, name);
		return -1;
	}
	snprintf(key, sizeof key, "remote.%s.fetch", name);
	rc = git_config_get_multivar_foreach(cfg, key, NULL, on_fetch_line, sp);
	git_config_free(cfg);
	if (sp->over) {
		snprintf(err, ERRLEN, "%s: more than FETCH_MAX_REFSPECS fetch refspecs", name);
		return -1;
	}
	if (rc != 0 && rc != GIT_ENOTFOUND)
		return fail(err, "cannot read the fetch refspecs", name);
	return 0;
}

/* The remote, always in memory (nothing is written to REPO's config, no
 * url.*.insteadOf rewriting): a configured one by name, or a URL. */
static int
make_remote(git_remote **remote, git_repository *repo, const char *source, specs *sp, char *err)
{
	git_remote_create_options o;
	git_buf url = GIT_BUF_INIT;
	const char *where = source;
	char rel[FETCH_MAX_REFNAME];
	struct stat st;
	int rc;

	*remote = NULL;
	if (strpbrk(source, "/:") == NULL) {
		if (named_remote(repo, source, &url, sp, err) != 0) {
			git_buf_dispose(&url);
			return -1;
		}
		where = url.ptr;
		/* a relative path is taken from the top of the work tree (or the
		 * bare repository), where git runs */
		if (strchr(where, ':') == NULL && where[0] != '/') {
			const char *top = git_repository_workdir(repo);
			size_t tl, wl = strlen(where);
			if (top == NULL)
				top = git_repository_path(repo);
			tl = strlen(top);
			if (tl + 1 + wl >= sizeof rel) {
				snprintf(err, ERRLEN, "%s: the remote's path is too long", source);
				git_buf_dispose(&url);
				return -1;
			}
			memcpy(rel, top, tl);
			if (tl == 0 || rel[tl - 1] != '/')
				rel[tl++] = '/';
			memcpy(rel + tl, where, wl + 1);
			where = rel;
		}
	} else {
		if ((sp->v[0] = strdup(FETCH_URL_REFSPEC)) == NULL) {
			snprintf(err, ERRLEN, "out of memory");
			return -1;
		}
		sp->n = 1;
	}
	/* a local path that is a SHA-256 repository: refused with a clear word */
	if (strncmp(where, "file://", 7) == 0 ? is_sha256(where + 7) :
	    strchr(where, ':') == NULL && is_sha256(where)) {
		snprintf(err, ERRLEN, "%s: a SHA-256 repository: libgit2 1.5 cannot fetch from it", where);
		git_buf_dispose(&url);
		return -1;
	}
	if (strchr(where, ':') == NULL && stat(where, &st) != 0) {
		snprintf(err, ERRLEN, "%s: no such repository: %s", where, strerror(errno));
		git_buf_dispose(&url);
		return -1;
	}
	rc = git_remote_create_options_init(&o, GIT_REMOTE_CREATE_OPTIONS_VERSION);
	if (rc == 0) {
		o.repository = repo;
		o.name = NULL;
		o.fetchspec = NULL;
		o.flags = GIT_REMOTE_CREATE_SKIP_INSTEADOF | GIT_REMOTE_CREATE_SKIP_DEFAULT_FETCHSPEC;
		rc = git_remote_create_with_opts(remote, where, &o);
	}
	if (rc != 0) {
		*remote = NULL;
		fail(err, "not a usable URL", where);
	}
	git_buf_dispose(&url);
	return rc != 0 ? -1 : 0;
}

/* What the remote advertises for name (after connecting): 0, or 1 absent. */
static int
advertised(git_remote *remote, const char *name, git_oid *id)
{
	const git_remote_head **heads;
	size_t n, i;
	if (git_remote_ls(&heads, &n, remote) != 0)
		return 1;
	for (i = 0; i < n; i++)
		if (strcmp(heads[i]->name, name) == 0) {
			git_oid_cpy(id, &heads[i]->oid);
			return 0;
		}
	return 1;
}

/* The branch wanted: given, else the remote's HEAD, else master. */
static int
pick_branch(git_remote *remote, const char *source, const char *given, char *branch,
    size_t cap, char *err)
{
	git_buf buf = GIT_BUF_INIT;
	git_oid id;
	int rc;

	if (given != NULL) {
		snprintf(branch, cap, "%s", given);
		return 0;
	}
	rc = git_remote_default_branch(&buf, remote);
	if (rc == 0 && buf.ptr != NULL && strncmp(buf.ptr, "refs/heads/", 11) == 0 &&
	    strlen(buf.ptr + 11) < cap) {
		snprintf(branch, cap, "%s", buf.ptr + 11);
		git_buf_dispose(&buf);
		return 0;
	}
	git_buf_dispose(&buf);
	if (advertised(remote, "refs/heads/master", &id) == 0) {
		snprintf(branch, cap, "master");
		return 0;
	}
	snprintf(err, ERRLEN, "%s: the remote's HEAD names no branch and it has no master: "
	    "name the branch", source);
	return -1;
}

/* The local ref the fetch refspecs map refs/heads/BRANCH to. */
static int
tracking_ref(const specs *sp, const char *source, const char *src, char *out, char *err)
{
	size_t i;
	for (i = 0; i < sp->n; i++) {
		git_refspec *spec = NULL;
		git_buf buf = GIT_BUF_INIT;
		int found = 0;
		if (git_refspec_parse(&spec, sp->v[i], 1) != 0) {
			snprintf(err, ERRLEN, "%s: a fetch refspec libgit2 cannot parse: %.200s", source, sp->v[i]);
			return -1;
		}
		if (git_refspec_src_matches(spec, src) && git_refspec_transform(&buf, spec, src) == 0 &&
		    strncmp(buf.ptr, "refs/", 5) == 0 && strlen(buf.ptr) < FETCH_MAX_REFNAME) {
			snprintf(out, FETCH_MAX_REFNAME, "%s", buf.ptr);
			found = 1;
		}
		git_buf_dispose(&buf);
		git_refspec_free(spec);
		if (found)
			return 0;
	}
	snprintf(err, ERRLEN, "%s: %s is not fetched by the remote's refspecs", source, src);
	return -1;
}

static int
run(const char *path, int init, const char *source, const char *given, char *line, char *err)
{
	git_repository *repo = NULL;
	git_remote *remote = NULL;
	git_fetch_options fo;
	git_remote_callbacks cb;
	char branch[FETCH_MAX_REFNAME], src[FETCH_MAX_REFNAME + 16], dst[FETCH_MAX_REFNAME];
	char hex[GIT_OID_HEXSZ + 1];
	git_oid want, got;
	specs sp;
	git_strarray refspecs;
	char msg[256], label[1300];
	int rc = -1;

	memset(&sp, 0, sizeof sp);
	if (open_repo(&repo, path, init, err) != 0 || make_remote(&remote, repo, source, &sp, err) != 0)
		goto out;
	refspecs.strings = sp.v;
	refspecs.count = sp.n;
	/* messages name a configured remote with its URL: "origin (URL)" */
	if (strpbrk(source, "/:") == NULL)
		snprintf(label, sizeof label, "%.200s (%.1000s)", source, git_remote_url(remote));
	else
		snprintf(label, sizeof label, "%.1200s", source);
	if (git_fetch_options_init(&fo, GIT_FETCH_OPTIONS_VERSION) != 0 ||
	    git_remote_init_callbacks(&cb, GIT_REMOTE_CALLBACKS_VERSION) != 0) {
		fail(err, "libgit2", label);
		goto out;
	}
	fo.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE;   /* no tag auto-follow */
	fo.prune = GIT_FETCH_NO_PRUNE;
	fo.update_fetchhead = 1;
	fo.proxy_opts.type = GIT_PROXY_AUTO;   /* http.proxy, remote.NAME.proxy, *_proxy, as git */
	if (git_remote_connect(remote, GIT_DIRECTION_FETCH, &cb, &fo.proxy_opts, NULL) != 0) {
		fail(err, "cannot connect", label);
		goto out;
	}
	if (pick_branch(remote, label, given, branch, sizeof branch, err) != 0)
		goto out;
	snprintf(src, sizeof src, "refs/heads/%s", branch);
	if (!git_reference_is_valid_name(src)) {
		snprintf(err, ERRLEN, "%s: not a valid branch name", branch);
		goto out;
	}
	if (advertised(remote, src, &want) != 0) {
		snprintf(err, ERRLEN, "%s: the remote has no branch %s", label, branch);
		goto out;
	}
	if (tracking_ref(&sp, label, src, dst, err) != 0)
		goto out;
	if (git_remote_download(remote, &refspecs, &fo) != 0) {
		fail(err, "fetch failed", label);
		goto out;
	}
	snprintf(msg, sizeof msg, "wotkit-git fetch %.200s", source);
	if (git_remote_update_tips(remote, &cb, 1, GIT_REMOTE_DOWNLOAD_TAGS_NONE, msg) != 0) {
		fail(err, "updating the refs failed", label);
		goto out;
	}
	if (git_reference_name_to_id(&got, repo, dst) != 0) {
		fail(err, "no ref after the fetch", dst);
		goto out;
	}
	if (!git_oid_equal(&got, &want)) {
		snprintf(err, ERRLEN, "%s: after the fetch, not what the remote advertised", dst);
		goto out;
	}
	git_oid_tostr(hex, sizeof hex, &got);
	snprintf(line, FETCH_MAX_REFNAME + 128, "%s %s\n", hex, src);
	rc = 0;
out:
	if (remote != NULL)
		(void)git_remote_disconnect(remote);
	git_remote_free(remote);
	git_repository_free(repo);
	specs_free(&sp);
	return rc;
}

static int
usage(void)
{
	fprintf(stderr, "usage: wotkit-git fetch -C REPO [--init] [--] SOURCE [BRANCH]\n");
	return 2;
}

/* see fetch.h */
int
fetch_main(int argc, char **argv)
{
	const char *repo = NULL, *source = NULL, *branch = NULL;
	char err[ERRLEN], line[FETCH_MAX_REFNAME + 128];
	int i, init = 0, rc;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
			repo = argv[++i];
		else if (strcmp(argv[i], "--init") == 0)
			init = 1;
		else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-')
			return usage();
		else
			break;
	}
	if (repo == NULL || i >= argc || argc - i > 2 || argv[i][0] == 0)
		return usage();
	source = argv[i];
	if (i + 1 < argc)
		branch = argv[i + 1];
	if (branch != NULL && (branch[0] == 0 || strlen(branch) >= FETCH_MAX_REFNAME - 16))
		return usage();
	err[0] = 0;
	git_libgit2_init();
	rc = run(repo, init, source, branch, line, err);
	git_libgit2_shutdown();
	if (rc != 0) {
		fprintf(stderr, "wotkit-git: fetch: %s\n", err[0] ? err : "failed");
		return 1;
	}
	if (fputs(line, stdout) == EOF || fflush(stdout) != 0) {
		fprintf(stderr, "wotkit-git: fetch: writing the result failed\n");
		return 1;
	}
	return 0;
}
