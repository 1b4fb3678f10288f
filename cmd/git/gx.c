/*
 * gx.c - the repository reader of wotkit-git (gx.h): libgit2 for every
 * repository it opens, and wotkit's own reader (gx_own.h) for those libgit2
 * 1.5 refuses because of `extensions.objectformat` (SHA-256 repositories:
 * "unsupported extension name extensions.objectformat").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <git2.h>
#include "gx.h"
#include "gx_own.h"
#include "mbase.h"
#include "tdiff.h"

/* Most refs under refs/tags/ listed (the kernel has ~2,000). */
#define GX_MAX_TAG_REFS 1000000u

struct gx_repo {
	git_repository *repo;   /* libgit2, or NULL */
	git_odb *odb;
	gx_own *own;            /* the own reader, or NULL */
};

static int
gerr(char *err, size_t errlen, const char *what, const char *name)
{
	const git_error *e = git_error_last();
	snprintf(err, errlen, "%s: %s: %s", name, what, e && e->message ? e->message : "?");
	return -1;
}

/* see gx.h */
int
gx_open(gx_repo **out, const char *path, char *err, size_t errlen)
{
	gx_repo *r = calloc(1, sizeof *r);
	const git_error *ge;
	size_t idlen = 0;
	char sniff[256];

	*out = NULL;
	if (r == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* a SHA-256 repository is never handed to libgit2 (1.5 refuses it, and
	 * leaks what it allocated on the way): its config says so first */
	if (gx_own_format(path, &idlen, sniff, sizeof sniff) == 0 && idlen == 32) {
		if (gx_own_open(&r->own, path, err, errlen) != 0) {
			free(r);
			return -1;
		}
		*out = r;
		return 0;
	}
	if (git_repository_open_ext(&r->repo, path, GIT_REPOSITORY_OPEN_NO_SEARCH, NULL) != 0) {
		ge = git_error_last();
		r->repo = NULL;
		/* libgit2 1.5 refuses SHA-256 repositories: read those ourselves */
		if (ge && ge->message && strstr(ge->message, "objectformat") != NULL) {
			if (gx_own_open(&r->own, path, err, errlen) != 0) {
				free(r);
				return -1;
			}
			*out = r;
			return 0;
		}
		gerr(err, errlen, "not a git repository", path);
		free(r);
		return -1;
	}
	if (git_repository_odb(&r->odb, r->repo) != 0) {
		gerr(err, errlen, "no object database", path);
		gx_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* see gx.h */
void
gx_close(gx_repo *r)
{
	if (r == NULL)
		return;
	if (r->own)
		gx_own_close(r->own);
	git_odb_free(r->odb);
	git_repository_free(r->repo);
	free(r);
}

/* see gx.h */
size_t
gx_idlen(const gx_repo *r)
{
	return r->own ? gx_own_idlen(r->own) : GIT_OID_RAWSZ;
}

/* see gx.h */
int
gx_is_own(const gx_repo *r)
{
	return r->own != NULL;
}

/* see gx.h */
int
gx_resolve(gx_repo *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen)
{
	git_object *obj = NULL;
	int rc;

	if (r->own)
		return gx_own_resolve(r->own, rev, id, err, errlen);
	rc = git_revparse_single(&obj, r->repo, rev);
	if (rc == GIT_ENOTFOUND) {
		snprintf(err, errlen, "%s: unknown revision", rev);
		return -1;
	}
	if (rc != 0)
		return gerr(err, errlen, "unknown revision", rev);
	memcpy(id, git_object_id(obj)->id, GIT_OID_RAWSZ);
	git_object_free(obj);
	return 0;
}

/* see gx.h */
int
gx_read(gx_repo *r, const uint8_t *id, size_t max, int *type, uint8_t **data, size_t *len,
    char *err, size_t errlen)
{
	git_oid oid;
	git_odb_object *o = NULL;
	git_object_t t;
	size_t size;
	char hex[GIT_OID_HEXSZ + 1];

	*data = NULL;
	*len = 0;
	if (r->own)
		return gx_own_read(r->own, id, max, type, data, len, err, errlen);
	memcpy(oid.id, id, GIT_OID_RAWSZ);
	git_oid_tostr(hex, sizeof hex, &oid);
	/* the size first, from the object header: a huge object is never inflated */
	if (git_odb_read_header(&size, &t, r->odb, &oid) != 0)
		return gerr(err, errlen, "cannot read", hex);
	if (size > max) {
		snprintf(err, errlen, "%s: object of %zu octets, larger than %zu", hex, size, max);
		return -1;
	}
	if (git_odb_read(&o, r->odb, &oid) != 0)
		return gerr(err, errlen, "cannot read", hex);
	size = git_odb_object_size(o);
	if ((*data = malloc(size ? size : 1)) == NULL) {
		git_odb_object_free(o);
		snprintf(err, errlen, "%s: out of memory", hex);
		return -1;
	}
	memcpy(*data, git_odb_object_data(o), size);
	*len = size;
	*type = (int)git_odb_object_type(o);
	git_odb_object_free(o);
	return 0;
}

typedef struct tagref {
	char *name;
	uint8_t id[GIT_OID_RAWSZ];
} tagref;

static int
by_name(const void *a, const void *b)
{
	return strcmp(((const tagref *)a)->name, ((const tagref *)b)->name);
}

/* see gx.h */
int
gx_each_tag(gx_repo *r, int (*cb)(void *ctx, const char *refname, const uint8_t *id),
    void *ctx, char *err, size_t errlen)
{
	git_reference_iterator *it = NULL;
	git_reference *ref = NULL;
	tagref *v = NULL;
	size_t n = 0, cap = 0, i;
	int rc = 0, gr;

	if (r->own)
		return gx_own_each_tag(r->own, cb, ctx, err, errlen);
	if (git_reference_iterator_glob_new(&it, r->repo, "refs/tags/*") != 0)
		return gerr(err, errlen, "cannot list", "refs/tags");
	while ((gr = git_reference_next(&ref, it)) == 0) {
		git_reference *res = NULL;
		const git_oid *oid;
		if (git_reference_resolve(&res, ref) != 0 || (oid = git_reference_target(res)) == NULL) {
			/* a dangling symbolic ref: git skips it too */
			git_reference_free(res);
			git_reference_free(ref);
			continue;
		}
		if (n == cap) {
			tagref *nv;
			if (cap >= GX_MAX_TAG_REFS) {
				snprintf(err, errlen, "refs/tags: more than GX_MAX_TAG_REFS refs");
				rc = -1;
			} else if ((nv = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v)) == NULL) {
				snprintf(err, errlen, "out of memory");
				rc = -1;
			} else {
				v = nv;
			}
		}
		if (rc == 0 && (v[n].name = strdup(git_reference_name(ref))) == NULL) {
			snprintf(err, errlen, "out of memory");
			rc = -1;
		}
		if (rc == 0)
			memcpy(v[n++].id, oid->id, GIT_OID_RAWSZ);
		git_reference_free(res);
		git_reference_free(ref);
		if (rc != 0)
			break;
	}
	if (rc == 0 && gr != GIT_ITEROVER)
		rc = gerr(err, errlen, "cannot list", "refs/tags");
	git_reference_iterator_free(it);
	if (rc == 0 && n > 1)
		qsort(v, n, sizeof *v, by_name);
	for (i = 0; rc == 0 && i < n; i++)
		rc = cb(ctx, v[i].name, v[i].id);
	for (i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	return rc;
}

/* see gx.h */
const char *
gx_discover(char *buf, size_t cap)
{
	struct stat st;
	size_t n;
	snprintf(buf, cap, ".");
	for (n = 0; n < 64; n++) {
		char probe[4200];
		snprintf(probe, sizeof probe, "%s/.git", buf);
		if (stat(probe, &st) == 0)
			return buf;
		if (strlen(buf) + 4 > cap)
			break;
		if (n == 0)
			snprintf(buf, cap, "..");
		else
			strcat(buf, "/..");
		if (stat(buf, &st) != 0)
			break;
	}
	return ".";   /* a bare repository, or an error from gx_open */
}


/* see gx.h */
int
gx_merge_base(gx_repo *r, const uint8_t *a, const uint8_t *b, uint8_t out[GX_MAX_ID],
    char *err, size_t errlen)
{
	git_oid oa, ob, base;
	char hex[GIT_OID_HEXSZ + 1];
	int rc;

	if (r->own)
		return gx_mbase(r, a, b, out, err, errlen);
	memcpy(oa.id, a, GIT_OID_RAWSZ);
	memcpy(ob.id, b, GIT_OID_RAWSZ);
	rc = git_merge_base(&base, r->repo, &oa, &ob);
	if (rc == GIT_ENOTFOUND)
		return 1;
	if (rc != 0) {
		git_oid_tostr(hex, sizeof hex, &ob);
		return gerr(err, errlen, "merge base failed", hex);
	}
	memcpy(out, base.id, GIT_OID_RAWSZ);
	return 0;
}

typedef struct gdiff {
	gx_change_fn cb;
	void *ctx;
	int rc;            /* the callback's non-zero return */
	int unexpected;    /* a kind of change a tree diff does not have */
} gdiff;

static int
on_delta(const git_diff_delta *d, float progress, void *payload)
{
	gdiff *g = payload;
	int status;
	const char *path = d->new_file.path;
	(void)progress;
	switch (d->status) {
	case GIT_DELTA_ADDED:
		status = 'A';
		break;
	case GIT_DELTA_DELETED:
		status = 'D';
		path = d->old_file.path;
		break;
	case GIT_DELTA_MODIFIED:
		status = 'M';
		break;
	case GIT_DELTA_TYPECHANGE:
		status = 'T';
		break;
	default:
		/* no renames, copies, ignored or untracked files in a tree diff */
		g->unexpected = 1;
		return -1;
	}
	g->rc = g->cb(g->ctx, status, path, strlen(path));
	return g->rc != 0 ? -1 : 0;
}

/* see gx.h */
int
gx_diff_trees(gx_repo *r, const uint8_t *a, const uint8_t *b, gx_change_fn cb, void *ctx,
    char *err, size_t errlen)
{
	git_oid oa, ob;
	git_tree *ta = NULL, *tb = NULL;
	git_diff *diff = NULL;
	git_diff_options o;
	gdiff g;
	char hex[GIT_OID_HEXSZ + 1];
	int rc = -1;

	if (r->own)
		return gx_tdiff(r, a, b, cb, ctx, err, errlen);
	memcpy(oa.id, a, GIT_OID_RAWSZ);
	memcpy(ob.id, b, GIT_OID_RAWSZ);
	if (git_tree_lookup(&ta, r->repo, &oa) != 0) {
		git_oid_tostr(hex, sizeof hex, &oa);
		return gerr(err, errlen, "cannot read the tree", hex);
	}
	if (git_tree_lookup(&tb, r->repo, &ob) != 0) {
		git_oid_tostr(hex, sizeof hex, &ob);
		gerr(err, errlen, "cannot read the tree", hex);
		goto out;
	}
	/* git's defaults without renames; T as git reports a type change
	 * (libgit2 splits it into D and A without INCLUDE_TYPECHANGE) */
	if (git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION) != 0) {
		gerr(err, errlen, "libgit2", "diff");
		goto out;
	}
	o.flags = GIT_DIFF_NORMAL | GIT_DIFF_INCLUDE_TYPECHANGE;
	o.ignore_submodules = GIT_SUBMODULE_IGNORE_NONE;
	if (git_diff_tree_to_tree(&diff, r->repo, ta, tb, &o) != 0) {
		git_oid_tostr(hex, sizeof hex, &ob);
		gerr(err, errlen, "diff failed", hex);
		goto out;
	}
	g.cb = cb;
	g.ctx = ctx;
	g.rc = 0;
	g.unexpected = 0;
	rc = git_diff_foreach(diff, on_delta, NULL, NULL, NULL, &g);
	if (g.unexpected) {
		snprintf(err, errlen, "diff: a kind of change a tree diff does not have");
		rc = -1;
	} else if (g.rc != 0) {
		rc = g.rc;
	} else if (rc != 0) {
		rc = gerr(err, errlen, "diff failed", "tree");
	}
out:
	git_diff_free(diff);
	git_tree_free(ta);
	git_tree_free(tb);
	return rc;
}
