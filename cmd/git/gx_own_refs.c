/*
 * gx_own_refs.c - refs and revisions for wotkit's own reader: HEAD
 * (symbolic or detached), loose refs, packed-refs (gitrepository-layout(5)),
 * git rev-parse's dwim rules and suffixes (gitrevisions(7)):
 *
 *   ID      a full hex id, or a unique abbreviation of >= 4 hex digits
 *           (refs are tried first, as git does); "@" is HEAD
 *   NAME    NAME, refs/NAME, refs/tags/NAME, refs/heads/NAME,
 *           refs/remotes/NAME, refs/remotes/NAME/HEAD (NAME itself only
 *           when it starts with refs/ or is upper case like HEAD)
 *   ^ ^N ~ ~N ^{} ^{commit} ^{tag} ^{tree} ^{blob} ^{object}
 *
 * Not supported (a clear error): reflogs (@{...}), :path, :/text,
 * ^{/text}, ^@ ^! ^-, per-worktree refs of other work trees.
 */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pgp/pgp.h"
#include "gx_own_int.h"

/* A ref name safe to use as a path below the git directory (a subset of
 * git-check-ref-format(1): no "..", no component starting with "." or
 * ending with ".lock", no control or special characters, no "@{"). */
static int
refname_ok(const char *name)
{
	const char *c = name, *comp = name;
	size_t n = strlen(name);
	if (n == 0 || n > GX_OWN_MAX_REFNAME || name[0] == '/' || name[n - 1] == '/' || name[n - 1] == '.')
		return 0;
	for (; *c; c++) {
		unsigned char u = (unsigned char)*c;
		if (u < 0x20 || u == 0x7f || strchr(" ~^:?*[\\", u) != NULL)
			return 0;
		if ((c[0] == '.' && c[1] == '.') || (c[0] == '@' && c[1] == '{') || (c[0] == '/' && c[1] == '/'))
			return 0;
		if (c == comp && *c == '.')
			return 0;
		if (c[1] == '/' || c[1] == 0) {
			if ((size_t)(c + 1 - comp) >= 5 && strncmp(c - 4, ".lock", 5) == 0)
				return 0;
			comp = c + 2;
		}
	}
	return 1;
}

/* 2 * idlen hex digits at p followed by end or white space. */
static int
parse_hex_id(const gx_own *r, const char *p, uint8_t *id)
{
	size_t i;
	for (i = 0; i < 2 * r->idlen; i++)
		if (pgp_hex_digit(p[i]) < 0)
			return -1;
	if (p[i] != 0 && p[i] != '\n' && p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
		return -1;
	for (i = 0; i < r->idlen; i++)
		id[i] = (uint8_t)(pgp_hex_digit(p[2 * i]) << 4 | pgp_hex_digit(p[2 * i + 1]));
	return 0;
}

static int
cmp_pref(const void *a, const void *b)
{
	return strcmp(((const gx_pref *)a)->name, ((const gx_pref *)b)->name);
}

/* packed-refs: "# pack-refs with: ..." then "HEX NAME" lines, each maybe
 * followed by "^HEX" (the peeled target, not needed here). */
static int
load_packed_refs(gx_own *r, char *err, size_t errlen)
{
	char path[PATH_MAX], *text = NULL, *line, *next;
	size_t len, cap = 0;
	int rc;
	if (r->prefs_loaded)
		return 0;
	if ((size_t)snprintf(path, sizeof path, "%s/packed-refs", r->commondir) >= sizeof path)
		return gx_own__fail(err, errlen, "%s: path too long", r->commondir);
	rc = gx_own__slurp(path, GX_OWN_MAX_PACKED_REFS, &text, &len, err, errlen);
	if (rc < 0)
		return -1;
	rc = 0;   /* no packed-refs file: no packed refs */
	if (text != NULL && strlen(text) != len)
		rc = gx_own__fail(err, errlen, "%s: holds a NUL", path);
	for (line = text; rc == 0 && line != NULL && *line; line = next) {
		gx_pref *p;
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = 0;
		if (line[0] == '#' || line[0] == '^' || line[0] == 0) {
			uint8_t peeled[GX_MAX_ID];
			if (line[0] == '^' && parse_hex_id(r, line + 1, peeled) != 0)
				rc = gx_own__fail(err, errlen, "%s: malformed peeled line", path);
			continue;
		}
		if (r->nprefs >= GX_OWN_MAX_REFS) {
			rc = gx_own__fail(err, errlen, "%s: more than %u refs (GX_OWN_MAX_REFS)", path, GX_OWN_MAX_REFS);
			break;
		}
		if (r->nprefs == cap) {
			gx_pref *np;
			cap = cap ? 2 * cap : 64;
			if ((np = realloc(r->prefs, cap * sizeof *np)) == NULL) {
				rc = gx_own__fail(err, errlen, "out of memory");
				break;
			}
			r->prefs = np;
		}
		p = &r->prefs[r->nprefs];
		if (strlen(line) < 2 * r->idlen + 2 || parse_hex_id(r, line, p->id) != 0 ||
		    line[2 * r->idlen] != ' ' || !refname_ok(line + 2 * r->idlen + 1)) {
			rc = gx_own__fail(err, errlen, "%s: malformed line", path);
			break;
		}
		if ((p->name = strdup(line + 2 * r->idlen + 1)) == NULL) {
			rc = gx_own__fail(err, errlen, "out of memory");
			break;
		}
		r->nprefs++;
	}
	free(text);
	if (rc == 0 && r->nprefs > 1)
		qsort(r->prefs, r->nprefs, sizeof *r->prefs, cmp_pref);
	r->prefs_loaded = 1;
	return rc;
}

static const gx_pref *
packed_ref(const gx_own *r, const char *name)
{
	gx_pref key;
	key.name = (char *)(uintptr_t)name;
	if (r->nprefs == 0)
		return NULL;
	return bsearch(&key, r->prefs, r->nprefs, sizeof *r->prefs, cmp_pref);
}

/* Resolve the ref name (following symbolic refs). 1 when it does not
 * exist, 0 and *id when it does, -1 on error. */
static int
read_ref(gx_own *r, const char *name, uint8_t *id, unsigned depth, char *err, size_t errlen)
{
	char path[PATH_MAX], *text = NULL;
	const gx_pref *p;
	struct stat st;
	size_t len;
	int rc;
	if (depth > GX_OWN_MAX_SYMREF)
		return gx_own__fail(err, errlen, "%s: symbolic refs nested deeper than %u (GX_OWN_MAX_SYMREF)", name, GX_OWN_MAX_SYMREF);
	if (!refname_ok(name))
		return gx_own__fail(err, errlen, "%s: not a valid ref name", name);
	/* refs/ live in the common directory; HEAD and its kind in the git directory */
	if ((size_t)snprintf(path, sizeof path, "%s/%s", strncmp(name, "refs/", 5) == 0 ? r->commondir : r->gitdir, name) >= sizeof path)
		return gx_own__fail(err, errlen, "%s: path too long", name);
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
		rc = gx_own__slurp(path, GX_OWN_MAX_SMALL_FILE, &text, &len, err, errlen);
		if (rc < 0)
			return -1;
		if (rc == 0) {
			if (strncmp(text, "ref: ", 5) == 0) {
				char *target = text + 5;
				target[strcspn(target, "\r\n")] = 0;
				rc = read_ref(r, target, id, depth + 1, err, errlen);
			} else if (parse_hex_id(r, text, id) == 0) {
				rc = 0;
			} else {
				rc = gx_own__fail(err, errlen, "%s: malformed ref file", path);
			}
			free(text);
			return rc;
		}
	}
	if (strncmp(name, "refs/", 5) != 0)
		return 1;
	if (load_packed_refs(r, err, errlen) != 0)
		return -1;
	if ((p = packed_ref(r, name)) == NULL)
		return 1;
	memcpy(id, p->id, r->idlen);
	return 0;
}

/* git's ref_rev_parse_rules (refs.c). */
static int
dwim_ref(gx_own *r, const char *s, uint8_t *id, char *err, size_t errlen)
{
	static const char *const rules[] = {
		"%s", "refs/%s", "refs/tags/%s", "refs/heads/%s", "refs/remotes/%s", "refs/remotes/%s/HEAD"
	};
	char name[GX_OWN_MAX_REFNAME + 32];
	size_t i;
	for (i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		int rc;
		if (i == 0 && strncmp(s, "refs/", 5) != 0 && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_") != strlen(s))
			continue;   /* a top-level name is a pseudo-ref like HEAD, or nothing */
		snprintf(name, sizeof name, rules[i], s);
		if (!refname_ok(name))
			continue;
		rc = read_ref(r, name, id, 0, err, errlen);
		if (rc <= 0)
			return rc;
	}
	return 1;
}

static int
is_hex(const char *s, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (pgp_hex_digit(s[i]) < 0)
			return 0;
	return 1;
}

static int
resolve_base(gx_own *r, const char *rev, const char *s, uint8_t *id, char *err, size_t errlen)
{
	size_t n = strlen(s), i;
	char low[2 * GX_MAX_ID + 1];
	unsigned count;
	int rc;
	if (n == 0)
		return gx_own__fail(err, errlen, "%s: unknown revision", rev);
	if (strcmp(s, "@") == 0)
		s = "HEAD";
	if (n == 2 * r->idlen && is_hex(s, n)) {
		parse_hex_id(r, s, id);
		return 0;
	}
	rc = dwim_ref(r, s, id, err, errlen);
	if (rc <= 0)
		return rc;
	if (n < 4 || n > 2 * r->idlen || !is_hex(s, n))
		return gx_own__fail(err, errlen, "%s: unknown revision", rev);
	for (i = 0; i < n; i++)
		low[i] = (char)(s[i] >= 'A' && s[i] <= 'F' ? s[i] + ('a' - 'A') : s[i]);
	low[n] = 0;
	if (gx_own__prefix(r, low, n, id, &count, err, errlen) != 0)
		return -1;
	if (count == 0)
		return gx_own__fail(err, errlen, "%s: unknown revision", rev);
	if (count > 1)
		return gx_own__fail(err, errlen, "%s: short object id %s is ambiguous", rev, s);
	return 0;
}

/* The value of header "key " among the first lines of a commit or tag
 * (before the blank line): the n-th occurrence (0-based). 1 when absent. */
static int
header_id(gx_own *r, const uint8_t *data, size_t len, const char *key, unsigned nth, uint8_t *id)
{
	pgp_rd rd;
	size_t klen = strlen(key);
	pgp_rd_init(&rd, data, len);
	while (!pgp_rd_empty(&rd)) {
		const uint8_t *nl = memchr(rd.p, '\n', rd.len);
		size_t ll = nl != NULL ? (size_t)(nl - rd.p) : rd.len;
		pgp_view line;
		pgp_rd_view(&rd, ll, &line);
		pgp_rd_skip(&rd, 1);
		if (ll == 0)
			break;   /* end of the header */
		if (ll == klen + 1 + 2 * r->idlen && memcmp(line.p, key, klen) == 0 && line.p[klen] == ' ') {
			char hex[2 * GX_MAX_ID + 1];
			memcpy(hex, line.p + klen + 1, 2 * r->idlen);
			hex[2 * r->idlen] = 0;
			if (nth-- == 0)
				return parse_hex_id(r, hex, id) == 0 ? 0 : -1;
		}
	}
	return 1;
}

static const char *
type_name(int t)
{
	static const char *const names[] = { "none", "commit", "tree", "blob", "tag" };
	return t >= 1 && t <= 4 ? names[t] : "unknown";
}

/* Replace *id by what header key (nth occurrence) of the object names.
 * 1 when the object has no such header. */
static int
follow(gx_own *r, const char *rev, uint8_t *id, const char *key, unsigned nth, char *err, size_t errlen)
{
	uint8_t *data = NULL, next[GX_MAX_ID];
	size_t len;
	int type, rc;
	if (gx_own_read(r, id, GX_OWN_MAX_COMMIT_HEAD, &type, &data, &len, err, errlen) != 0)
		return -1;
	rc = header_id(r, data, len, key, nth, next);
	free(data);
	if (rc < 0)
		return gx_own__fail(err, errlen, "%s: malformed %s header in a %s", rev, key, type_name(type));
	if (rc == 0)
		memcpy(id, next, r->idlen);
	return rc;
}

static int
object_type(gx_own *r, const char *rev, const uint8_t *id, int *type, char *err, size_t errlen)
{
	int rc = gx_own__type(r, id, type, err, errlen);
	if (rc > 0) {
		char hex[2 * GX_MAX_ID + 1];
		pgp_hex_encode_lower(hex, id, r->idlen);
		return gx_own__fail(err, errlen, "%s: object %s does not exist", rev, hex);
	}
	return rc;
}

/* Peel tags until an object of type want (0: anything but a tag). */
static int
peel(gx_own *r, const char *rev, uint8_t *id, int want, char *err, size_t errlen)
{
	unsigned hops;
	int type;
	for (hops = 0; hops <= GX_OWN_MAX_PEEL; hops++) {
		if (object_type(r, rev, id, &type, err, errlen) != 0)
			return -1;
		if (type == want || (want == 0 && type != GX_TAG))
			return 0;
		if (type == GX_TAG) {
			int rc = follow(r, rev, id, "object", 0, err, errlen);
			if (rc != 0)
				return rc < 0 ? -1 : gx_own__fail(err, errlen, "%s: tag without an object line", rev);
			continue;
		}
		if (type == GX_COMMIT && want == GX_TREE) {
			int rc = follow(r, rev, id, "tree", 0, err, errlen);
			if (rc != 0)
				return rc < 0 ? -1 : gx_own__fail(err, errlen, "%s: commit without a tree line", rev);
			continue;
		}
		return gx_own__fail(err, errlen, "%s: expected %s type, but the object dereferences to %s type",
		    rev, type_name(want), type_name(type));
	}
	return gx_own__fail(err, errlen, "%s: tags nested deeper than %u (GX_OWN_MAX_PEEL)", rev, GX_OWN_MAX_PEEL);
}

static int
parse_number(const char **p, unsigned long *out, int *present)
{
	unsigned long v = 0;
	*present = 0;
	while (**p >= '0' && **p <= '9') {
		if (v > GX_OWN_MAX_ANCESTRY)
			return -1;
		v = v * 10 + (unsigned long)(**p - '0');
		(*p)++;
		*present = 1;
	}
	*out = v;
	return v > GX_OWN_MAX_ANCESTRY ? -1 : 0;
}

int
gx_own_resolve(gx_own *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen)
{
	char base[GX_OWN_MAX_REFNAME + 1];
	const char *p;
	size_t n;
	if (strlen(rev) > GX_OWN_MAX_REFNAME)
		return gx_own__fail(err, errlen, "revision longer than %u octets", GX_OWN_MAX_REFNAME);
	if (strstr(rev, "@{") != NULL || strchr(rev, ':') != NULL || rev[0] == '^' || strstr(rev, "..") != NULL)
		return gx_own__fail(err, errlen, "%s: revision syntax not supported here", rev);
	n = strcspn(rev, "^~");
	memcpy(base, rev, n);
	base[n] = 0;
	if (resolve_base(r, rev, base, id, err, errlen) != 0)
		return -1;
	for (p = rev + n; *p;) {
		unsigned long num, k;
		int present;
		char c = *p++;
		if (c == '^' && *p == '{') {
			const char *close = strchr(p, '}');
			size_t tl;
			int want;
			if (close == NULL)
				return gx_own__fail(err, errlen, "%s: missing }", rev);
			tl = (size_t)(close - p - 1);
			p++;
			if (tl == 0)
				want = 0;
			else if (tl == 6 && strncmp(p, "commit", 6) == 0)
				want = GX_COMMIT;
			else if (tl == 3 && strncmp(p, "tag", 3) == 0)
				want = GX_TAG;
			else if (tl == 4 && strncmp(p, "tree", 4) == 0)
				want = GX_TREE;
			else if (tl == 4 && strncmp(p, "blob", 4) == 0)
				want = GX_BLOB;
			else if (tl == 6 && strncmp(p, "object", 6) == 0)
				want = -1;
			else
				return gx_own__fail(err, errlen, "%s: ^{%.*s} is not supported", rev, (int)tl, p);
			p = close + 1;
			if (want == -1) {
				int type;
				if (object_type(r, rev, id, &type, err, errlen) != 0)
					return -1;
			} else if (want == GX_TAG) {
				int type;
				if (object_type(r, rev, id, &type, err, errlen) != 0)
					return -1;
				if (type != GX_TAG)
					return gx_own__fail(err, errlen, "%s: expected tag type, but the object is a %s", rev, type_name(type));
			} else if (peel(r, rev, id, want, err, errlen) != 0) {
				return -1;
			}
			continue;
		}
		if (parse_number(&p, &num, &present) != 0)
			return gx_own__fail(err, errlen, "%s: number larger than %u", rev, GX_OWN_MAX_ANCESTRY);
		if (!present)
			num = 1;
		if (*p != 0 && *p != '^' && *p != '~')
			return gx_own__fail(err, errlen, "%s: revision syntax not supported here", rev);
		if (peel(r, rev, id, GX_COMMIT, err, errlen) != 0)
			return -1;
		if (c == '^') {
			if (num == 0)
				continue;
			if (num > GX_OWN_MAX_PEEL)
				return gx_own__fail(err, errlen, "%s: parent number above %u", rev, GX_OWN_MAX_PEEL);
			int rc = follow(r, rev, id, "parent", (unsigned)(num - 1), err, errlen);
			if (rc != 0)
				return rc < 0 ? -1 : gx_own__fail(err, errlen, "%s: unknown revision (no parent %lu)", rev, num);
		} else {
			for (k = 0; k < num; k++) {
				int rc = follow(r, rev, id, "parent", 0, err, errlen);
				if (rc != 0)
					return rc < 0 ? -1 : gx_own__fail(err, errlen, "%s: unknown revision (history shorter than %lu)", rev, num);
			}
		}
	}
	return 0;
}

/* ---- the tag list ---- */

typedef struct tag_list {
	gx_pref *v;
	size_t n, cap;
} tag_list;

static int
tag_add(tag_list *t, const char *name, const uint8_t *id, size_t idlen, char *err, size_t errlen)
{
	if (t->n >= GX_OWN_MAX_REFS)
		return gx_own__fail(err, errlen, "more than %u tags (GX_OWN_MAX_REFS)", GX_OWN_MAX_REFS);
	if (t->n == t->cap) {
		size_t ncap = t->cap ? 2 * t->cap : 64;
		gx_pref *nv = realloc(t->v, ncap * sizeof *nv);
		if (nv == NULL)
			return gx_own__fail(err, errlen, "out of memory");
		t->v = nv;
		t->cap = ncap;
	}
	if ((t->v[t->n].name = strdup(name)) == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	memcpy(t->v[t->n].id, id, idlen);
	t->n++;
	return 0;
}

/* Loose refs below refs/tags/, recursively. */
static int
walk_loose(gx_own *r, const char *name, unsigned depth, tag_list *t, char *err, size_t errlen)
{
	char path[PATH_MAX], sub[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int rc = 0;
	if (depth > GX_OWN_MAX_REF_DEPTH)
		return gx_own__fail(err, errlen, "%s: nested deeper than %u (GX_OWN_MAX_REF_DEPTH)", name, GX_OWN_MAX_REF_DEPTH);
	if ((size_t)snprintf(path, sizeof path, "%s/%s", r->commondir, name) >= sizeof path)
		return gx_own__fail(err, errlen, "%s: path too long", name);
	if ((d = opendir(path)) == NULL)
		return 0;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		struct stat st;
		char full[PATH_MAX];
		uint8_t id[GX_MAX_ID];
		if (de->d_name[0] == '.')
			continue;
		if ((size_t)snprintf(sub, sizeof sub, "%s/%s", name, de->d_name) >= sizeof sub ||
		    (size_t)snprintf(full, sizeof full, "%s/%s", r->commondir, sub) >= sizeof full) {
			rc = gx_own__fail(err, errlen, "%s: path too long", name);
			break;
		}
		if (stat(full, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			rc = walk_loose(r, sub, depth + 1, t, err, errlen);
		} else if (S_ISREG(st.st_mode) && refname_ok(sub)) {
			/* a name git would not accept (x.lock, ...) is not a ref: skipped as git does */
			int got = read_ref(r, sub, id, 0, err, errlen);
			if (got < 0)
				rc = -1;
			else if (got == 0)
				rc = tag_add(t, sub, id, r->idlen, err, errlen);
		}
	}
	closedir(d);
	return rc;
}

int
gx_own_each_tag(gx_own *r, int (*cb)(void *ctx, const char *refname, const uint8_t *id),
    void *ctx, char *err, size_t errlen)
{
	tag_list t;
	size_t i, nloose;
	int rc;
	memset(&t, 0, sizeof t);
	rc = load_packed_refs(r, err, errlen);
	if (rc == 0)
		rc = walk_loose(r, "refs/tags", 0, &t, err, errlen);
	nloose = t.n;
	if (rc == 0 && nloose > 1)
		qsort(t.v, nloose, sizeof *t.v, cmp_pref);
	/* packed refs not shadowed by a loose one */
	for (i = 0; rc == 0 && i < r->nprefs; i++) {
		gx_pref key;
		if (strncmp(r->prefs[i].name, "refs/tags/", 10) != 0)
			continue;
		key.name = r->prefs[i].name;
		if (nloose > 0 && bsearch(&key, t.v, nloose, sizeof *t.v, cmp_pref) != NULL)
			continue;
		rc = tag_add(&t, r->prefs[i].name, r->prefs[i].id, r->idlen, err, errlen);
	}
	if (rc == 0 && t.n > 1)
		qsort(t.v, t.n, sizeof *t.v, cmp_pref);
	for (i = 0; rc == 0 && i < t.n; i++)
		rc = cb(ctx, t.v[i].name, t.v[i].id);
	for (i = 0; i < t.n; i++)
		free(t.v[i].name);
	free(t.v);
	return rc;
}
