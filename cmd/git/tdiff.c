/*
 * tdiff.c - the name-only diff of two trees over the gx interface, as git
 * 2.39 tree-diff.c (ll_diff_tree_paths, tree_entry_pathcmp, emit_path) and
 * diff.c (diff_resolve_rename_copy: T when the S_IFMT bits differ, else M)
 * produce it for `git diff --name-status --no-renames A B`. see tdiff.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "tdiff.h"

/* git's object modes (cache.h) */
#define M_IFMT 0170000u
#define M_DIR 0040000u
#define M_REG 0100000u
#define M_LNK 0120000u
#define M_GITLINK 0160000u
#define M_MAX_DIGITS 7u     /* "0160000": git writes at most 6 */

#define STOPPED (-2)        /* the callback asked to stop */

typedef struct td {
	gx_repo *r;
	size_t idlen;
	gx_change_fn cb;
	void *ctx;
	int cbrc;
	char *err;
	size_t errlen;
	size_t ntrees, held;
	char path[GX_DIFF_MAX_PATH + 1];
	size_t plen;
	gx_entry_fn list_cb;    /* gx_tree_list: called for every entry added, cb unused */
	const char *only;       /* gx_tree_list: the one top-level name walked */
} td;

typedef struct tree {
	uint8_t id[GX_MAX_ID];
	uint8_t *data;      /* NULL: an absent side (everything added or deleted) */
	size_t len, off;
} tree;

typedef struct ent {
	int valid;
	unsigned mode;      /* canonical (canon_mode) */
	const char *name;   /* in the tree's data, followed by its NUL */
	size_t nlen;
	const uint8_t *id;
} ent;

static int
is_dir(unsigned mode)
{
	return (mode & M_IFMT) == M_DIR;
}

/* git's canon_mode (cache.h): any other type is a gitlink. */
static unsigned
canon_mode(unsigned mode)
{
	switch (mode & M_IFMT) {
	case M_REG:
		return M_REG | ((mode & 0100u) ? 0755u : 0644u);
	case M_LNK:
		return M_LNK;
	case M_DIR:
		return M_DIR;
	default:
		return M_GITLINK;
	}
}

/* git's base_name_compare: a directory's name sorts as if it ended in '/'.
 * name[len] of each is readable (its NUL or a further character). */
static int
name_cmp(const ent *a, const ent *b)
{
	size_t len = a->nlen < b->nlen ? a->nlen : b->nlen;
	int cmp = memcmp(a->name, b->name, len);
	unsigned char c1, c2;
	if (cmp != 0)
		return cmp;
	c1 = (unsigned char)a->name[len];
	c2 = (unsigned char)b->name[len];
	if (c1 == 0 && is_dir(a->mode))
		c1 = '/';
	if (c2 == 0 && is_dir(b->mode))
		c2 = '/';
	return c1 < c2 ? -1 : c1 > c2 ? 1 : 0;
}

static int
bad_tree(td *t, const tree *tr, const char *why)
{
	char hex[2 * GX_MAX_ID + 1];
	pgp_hex_encode_lower(hex, tr->id, t->idlen);
	snprintf(t->err, t->errlen, "%s: malformed tree: %s", hex, why);
	return -1;
}

static int
load(td *t, tree *tr, const uint8_t *id)
{
	int type = 0;
	char hex[2 * GX_MAX_ID + 1];

	memset(tr, 0, sizeof *tr);
	if (id == NULL)
		return 0;
	memcpy(tr->id, id, t->idlen);
	if (++t->ntrees > GX_DIFF_MAX_TREES) {
		snprintf(t->err, t->errlen, "the diff reads more than GX_DIFF_MAX_TREES trees");
		return -1;
	}
	if (gx_read(t->r, id, GX_DIFF_MAX_TREE, &type, &tr->data, &tr->len, t->err, t->errlen) != 0)
		return -1;
	pgp_hex_encode_lower(hex, id, t->idlen);
	if (type != GX_TREE) {
		free(tr->data);
		tr->data = NULL;
		snprintf(t->err, t->errlen, "%s: not a tree", hex);
		return -1;
	}
	if (t->held + tr->len > GX_DIFF_MAX_HELD) {
		free(tr->data);
		tr->data = NULL;
		snprintf(t->err, t->errlen, "%s: more than GX_DIFF_MAX_HELD octets of trees at once", hex);
		return -1;
	}
	t->held += tr->len;
	return 0;
}

static void
unload(td *t, tree *tr)
{
	if (tr->data != NULL)
		t->held -= tr->len;
	free(tr->data);
	tr->data = NULL;
}

/* The next entry of tr into e (e->valid 0 at the end), checked to follow
 * the previous one (in e) in tree order. */
static int
next(td *t, tree *tr, ent *e)
{
	const uint8_t *p, *end, *nul;
	unsigned mode = 0;
	size_t digits = 0;
	ent prev = *e;

	e->valid = 0;
	if (tr->data == NULL || tr->off == tr->len)
		return 0;
	p = tr->data + tr->off;
	end = tr->data + tr->len;
	while (p < end && *p >= '0' && *p <= '7' && digits < M_MAX_DIGITS) {
		mode = mode * 8 + (unsigned)(*p++ - '0');
		digits++;
	}
	if (digits == 0 || p == end || *p++ != ' ')
		return bad_tree(t, tr, "an entry's mode");
	if ((nul = memchr(p, 0, (size_t)(end - p))) == NULL || (size_t)(end - nul - 1) < t->idlen)
		return bad_tree(t, tr, "an entry cut short");
	e->name = (const char *)p;
	e->nlen = (size_t)(nul - p);
	if (e->nlen == 0 || memchr(e->name, '/', e->nlen) != NULL ||
	    (e->nlen == 1 && e->name[0] == '.') || (e->nlen == 2 && memcmp(e->name, "..", 2) == 0))
		return bad_tree(t, tr, "an entry's name (empty, '/', \".\" or \"..\")");
	e->mode = canon_mode(mode);
	e->id = nul + 1;
	e->valid = 1;
	tr->off = (size_t)(e->id + t->idlen - tr->data);
	if (prev.valid && name_cmp(&prev, e) >= 0)
		return bad_tree(t, tr, "entries not in tree order");
	return 0;
}

static int
emit(td *t, int status, const ent *e)
{
	int rc = t->list_cb != NULL ? t->list_cb(t->ctx, t->path, t->plen, e->mode, e->id) :
	    t->cb(t->ctx, status, t->path, t->plen);
	if (rc != 0) {
		t->cbrc = rc;
		return STOPPED;
	}
	return 0;
}

/* Append e's name to the path; the old length in *old. */
static int
push(td *t, const ent *e, size_t *old)
{
	size_t sep = t->plen ? 1 : 0;
	*old = t->plen;
	if (t->plen + sep + e->nlen > GX_DIFF_MAX_PATH) {
		snprintf(t->err, t->errlen, "%.*s...: a path longer than GX_DIFF_MAX_PATH octets",
		    64, t->path);
		return -1;
	}
	if (sep)
		t->path[t->plen++] = '/';
	memcpy(t->path + t->plen, e->name, e->nlen);
	t->plen += e->nlen;
	t->path[t->plen] = 0;
	return 0;
}

static void
pop(td *t, size_t old)
{
	t->plen = old;
	t->path[old] = 0;
}

static int diff(td *t, const uint8_t *a, const uint8_t *b, unsigned depth);

/* An entry on one side only: a file is A or D, a directory everything under it. */
static int
one_side(td *t, const ent *e, int added, unsigned depth)
{
	size_t old;
	int rc;
	if (push(t, e, &old) != 0)
		return -1;
	if (is_dir(e->mode))
		rc = added ? diff(t, NULL, e->id, depth + 1) : diff(t, e->id, NULL, depth + 1);
	else
		rc = emit(t, added ? 'A' : 'D', e);
	pop(t, old);
	return rc;
}

static int
both_sides(td *t, const ent *ea, const ent *eb, unsigned depth)
{
	size_t old;
	int rc = 0, same = memcmp(ea->id, eb->id, t->idlen) == 0;
	if (same && ea->mode == eb->mode)
		return 0;
	if (push(t, ea, &old) != 0)
		return -1;
	if (is_dir(ea->mode))
		rc = diff(t, ea->id, eb->id, depth + 1);
	else
		rc = emit(t, (ea->mode & M_IFMT) != (eb->mode & M_IFMT) ? 'T' : 'M', eb);
	pop(t, old);
	return rc;
}

/* The changes from tree a to tree b (either NULL: absent) under t->path. */
static int
diff(td *t, const uint8_t *a, const uint8_t *b, unsigned depth)
{
	tree ta, tb;
	ent ea, eb;
	int rc;

	if (depth > GX_DIFF_MAX_DEPTH) {
		snprintf(t->err, t->errlen, "%.*s...: more than GX_DIFF_MAX_DEPTH nested directories",
		    64, t->path);
		return -1;
	}
	memset(&ea, 0, sizeof ea);
	memset(&eb, 0, sizeof eb);
	if (load(t, &ta, a) != 0)
		return -1;
	if (load(t, &tb, b) != 0) {
		unload(t, &ta);
		return -1;
	}
	rc = next(t, &ta, &ea);
	if (rc == 0)
		rc = next(t, &tb, &eb);
	while (rc == 0 && (ea.valid || eb.valid)) {
		int cmp = !ea.valid ? 1 : !eb.valid ? -1 : name_cmp(&ea, &eb);
		if (cmp < 0) {
			if ((rc = one_side(t, &ea, 0, depth)) == 0)
				rc = next(t, &ta, &ea);
		} else if (cmp > 0) {
			if (depth == 0 && t->only != NULL && (eb.nlen != strlen(t->only) ||
			    memcmp(eb.name, t->only, eb.nlen) != 0))
				rc = 0;   /* gx_tree_list: not the top-level name asked for */
			else
				rc = one_side(t, &eb, 1, depth);
			if (rc == 0)
				rc = next(t, &tb, &eb);
		} else {
			if ((rc = both_sides(t, &ea, &eb, depth)) == 0 && (rc = next(t, &ta, &ea)) == 0)
				rc = next(t, &tb, &eb);
		}
	}
	unload(t, &ta);
	unload(t, &tb);
	return rc;
}

/* The diff from a to b (a NULL: an empty tree), reported to cb, or with
 * list_cb to list b's entries (only: its one top-level name walked). */
static int
run(gx_repo *r, const uint8_t *a, const uint8_t *b, gx_change_fn cb, gx_entry_fn list_cb,
    const char *only, void *ctx, char *err, size_t errlen)
{
	td *t = calloc(1, sizeof *t);
	int rc;

	if (t == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	t->r = r;
	t->idlen = gx_idlen(r);
	t->cb = cb;
	t->list_cb = list_cb;
	t->only = only;
	t->ctx = ctx;
	t->err = err;
	t->errlen = errlen;
	rc = a != NULL && memcmp(a, b, t->idlen) == 0 ? 0 : diff(t, a, b, 0);
	if (rc == STOPPED)
		rc = t->cbrc;
	free(t);
	return rc;
}

/* see tdiff.h */
int
gx_tdiff(gx_repo *r, const uint8_t *a, const uint8_t *b, gx_change_fn cb, void *ctx,
    char *err, size_t errlen)
{
	return run(r, a, b, cb, NULL, NULL, ctx, err, errlen);
}

/* see tdiff.h */
int
gx_tree_list(gx_repo *r, const uint8_t *root, const char *only, gx_entry_fn cb, void *ctx,
    char *err, size_t errlen)
{
	return run(r, NULL, root, NULL, cb, only, ctx, err, errlen);
}
