/*
 * objects.c - `wotkit-git objects --tags|--commits [-C REPO] [--] ARG...`:
 * the raw tag or commit objects that `git verify-tag` / `git verify-commit`
 * would verify, written as the object stream of keyring/gitobj.h
 * (docs/git-reader.md, "The object stream"), one record at a time.
 *
 *  --tags     each ARG is a revision (gx_resolve: git's dwim, refs/tags/ARG
 *             etc.) that must name a tag object (git verify-tag).
 *  --commits  each ARG is a revision that must name a commit object (git
 *             2.39 verify-commit does not peel: a tag name is "cannot verify
 *             a non-commit object of type tag"; write TAG^{commit}), or a
 *             range A..B (A.. and ..B: HEAD on the empty side): every commit
 *             reachable from B and not from A in `git rev-list A..B` order
 *             (walk.h), then every annotated tag under refs/tags/, in ref
 *             name order, whose target (peeled) is one of them. A and B are
 *             peeled to commits, as git does in ranges.
 *
 * A per-argument problem is a failure record; only a repository that
 * cannot be opened (or a write error) ends the stream with a fatal record.
 * Exit 0 with a complete stream, 1 fatal, 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gx.h"
#include "walk.h"
#include "objects.h"
#include "keyring/gitobj.h"

#define ERRLEN 1024   /* = GITOBJ_MAX_MSG */

typedef struct out {
	gx_repo *r;
	size_t idlen;
	pgp_buf b;
	uint32_t count;
	int failed;        /* a write failed */
} out;

/* Write what b holds to stdout and empty it. */
static void
flush(out *o)
{
	if (o->b.len && fwrite(o->b.p, 1, o->b.len, stdout) != o->b.len)
		o->failed = 1;
	o->b.len = 0;
}

/* A failure record: name, text (cut to GITOBJ_MAX_MSG). */
static void
failure(out *o, const char *name, const char *text)
{
	char n[GITOBJ_MAX_NAME + 1], t[GITOBJ_MAX_MSG + 1];
	snprintf(n, sizeof n, "%s", name[0] ? name : "(empty)");
	snprintf(t, sizeof t, "%s", text[0] ? text : "failed");
	if (gitobj_put_failure(&o->b, n, t) == PGP_OK)
		o->count++;
	else
		o->failed = 1;
	flush(o);
}

/* Write id as an object record named name; type must be `want`. Its
 * content: data[0..len) when data is not NULL (taken over), else read.
 * 0, or -1 after a failure record. */
static int
emit_data(out *o, const uint8_t *id, int want, const char *name, uint8_t *data, size_t len)
{
	char err[ERRLEN], n[GITOBJ_MAX_NAME + 1];
	int type = want;
	pgp_err e;

	snprintf(n, sizeof n, "%s", name);
	if (data == NULL &&
	    gx_read(o->r, id, GITOBJ_MAX_OBJECT, &type, &data, &len, err, sizeof err) != 0) {
		failure(o, name, err);
		return -1;
	}
	if (type != want) {
		static const char *names[] = {"?", "commit", "tree", "blob", "tag"};
		snprintf(err, sizeof err, "not a %s: a %s object", want == GX_TAG ? "tag" : "commit",
		    type >= 1 && type <= 4 ? names[type] : "?");
		free(data);
		failure(o, name, err);
		return -1;
	}
	e = gitobj_put_object(&o->b, type, id, o->idlen, n, data, len);
	free(data);
	if (e != PGP_OK) {
		failure(o, name, "the object cannot be carried by the stream");
		return -1;
	}
	o->count++;
	flush(o);
	return 0;
}

/* A revision peeled to a commit (a range's end). */
static int
emit(out *o, const uint8_t *id, int want, const char *name)
{
	return emit_data(o, id, want, name, NULL, 0);
}

static int
resolve_commit(out *o, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen)
{
	uint8_t x[GX_MAX_ID];
	int type = 0;
	if (gx_resolve(o->r, rev, x, err, errlen) != 0 || gx_peel(o->r, x, &type, id, err, errlen) != 0)
		return -1;
	if (type != GX_COMMIT) {
		snprintf(err, errlen, "%s: does not name a commit", rev);
		return -1;
	}
	return 0;
}

typedef struct tagscan {
	out *o;
	const gx_walk *w;
} tagscan;

/* For each refs/tags/ ref: an annotated tag whose target is in the range. */
static int
on_tag(void *ctx, const char *refname, const uint8_t *id)
{
	tagscan *s = ctx;
	uint8_t target[GX_MAX_ID];
	char err[ERRLEN];
	int type = 0;
	uint8_t *data = NULL;
	size_t len;

	/* the ref's own object first: lightweight tags (a commit) are skipped */
	if (gx_read(s->o->r, id, GITOBJ_MAX_OBJECT, &type, &data, &len, err, sizeof err) != 0) {
		failure(s->o, refname, err);
		return 0;
	}
	free(data);
	if (type != GX_TAG)
		return 0;
	if (gx_peel(s->o->r, id, &type, target, err, sizeof err) != 0) {
		failure(s->o, refname, err);
		return 0;
	}
	if (type == GX_COMMIT && gx_walk_contains(s->w, target))
		(void)emit(s->o, id, GX_TAG, refname);
	return s->o->failed ? -1 : 0;
}

static void
range(out *o, const char *arg, const char *dots)
{
	char a[GITOBJ_MAX_NAME + 1], err[ERRLEN];
	const char *b = dots + 2;
	uint8_t ida[GX_MAX_ID], idb[GX_MAX_ID];
	gx_walk *w = NULL;
	tagscan s;
	size_t i, al = (size_t)(dots - arg);

	if (b[0] == '.') {
		failure(o, arg, "symmetric ranges (A...B) are not supported");
		return;
	}
	if (al > GITOBJ_MAX_NAME) {
		failure(o, arg, "revision too long");
		return;
	}
	memcpy(a, arg, al);
	a[al] = 0;
	if (resolve_commit(o, al ? a : "HEAD", ida, err, sizeof err) != 0 ||
	    resolve_commit(o, b[0] ? b : "HEAD", idb, err, sizeof err) != 0 ||
	    gx_walk_range(&w, o->r, ida, idb, err, sizeof err) != 0) {
		failure(o, arg, err);
		return;
	}
	for (i = 0; i < gx_walk_count(w) && !o->failed; i++) {
		uint8_t *data = NULL;
		size_t len = 0;
		/* the walk read it already (within GX_WALK_MAX_CACHE) */
		(void)gx_walk_take(w, i, &data, &len);
		(void)emit_data(o, gx_walk_id(w, i), GX_COMMIT, arg, data, len);
	}
	s.o = o;
	s.w = w;
	if (!o->failed && gx_each_tag(o->r, on_tag, &s, err, sizeof err) != 0 && !o->failed)
		failure(o, arg, err);
	gx_walk_free(w);
}

static int
usage(void)
{
	fprintf(stderr, "usage: wotkit-git objects --tags|--commits [-C REPO] [--] ARG...\n");
	return 2;
}

/* see objects.h */
int
objects_main(int argc, char **argv)
{
	const char *repo = NULL;
	char err[ERRLEN], where[4096];
	int i, mode = 0, j;
	out o;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--tags") == 0)
			mode = GX_TAG;
		else if (strcmp(argv[i], "--commits") == 0)
			mode = GX_COMMIT;
		else if (strcmp(argv[i], "-C") == 0 && i + 1 < argc)
			repo = argv[++i];
		else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-')
			return usage();
		else
			break;
	}
	if (mode == 0 || i >= argc)
		return usage();
	if (repo == NULL)
		repo = gx_discover(where, sizeof where);
	memset(&o, 0, sizeof o);
	pgp_buf_init(&o.b, GITOBJ_MAX_BODY + 16);
	if (gitobj_put_magic(&o.b) != PGP_OK)
		return 1;
	err[0] = 0;
	if (gx_open(&o.r, repo, err, sizeof err) != 0) {
		if (gitobj_put_fatal(&o.b, err[0] ? err : "cannot open the repository") != PGP_OK)
			(void)gitobj_put_fatal(&o.b, "cannot open the repository");
		flush(&o);
		fprintf(stderr, "wotkit-git: %s\n", err);
		pgp_buf_free(&o.b);
		fflush(stdout);
		return 1;
	}
	o.idlen = gx_idlen(o.r);
	if (gitobj_put_format(&o.b, o.idlen) != PGP_OK)
		o.failed = 1;
	flush(&o);
	for (j = i; j < argc && !o.failed; j++) {
		const char *dots = mode == GX_COMMIT ? strstr(argv[j], "..") : NULL;
		uint8_t id[GX_MAX_ID];
		if (strlen(argv[j]) > GITOBJ_MAX_NAME) {
			failure(&o, "(argument)", "longer than GITOBJ_MAX_NAME");
			continue;
		}
		if (dots) {
			range(&o, argv[j], dots);
			continue;
		}
		if (gx_resolve(o.r, argv[j], id, err, sizeof err) != 0) {
			/* "REV: why" -> "why": the record names REV */
			size_t al = strlen(argv[j]);
			failure(&o, argv[j], strncmp(err, argv[j], al) == 0 && err[al] == ':' &&
			    err[al + 1] == ' ' ? err + al + 2 : err);
			continue;
		}
		(void)emit(&o, id, mode, argv[j]);
	}
	if (!o.failed && gitobj_put_end(&o.b, o.count) != PGP_OK)
		o.failed = 1;
	flush(&o);
	gx_close(o.r);
	pgp_buf_free(&o.b);
	if (fflush(stdout) != 0 || o.failed) {
		fprintf(stderr, "wotkit-git: writing the stream failed\n");
		return 1;
	}
	return 0;
}
