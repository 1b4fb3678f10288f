/*
 * gx_own.c - opening a repository for wotkit's own reader: where its git
 * directory is, and whether its format is one this reader can read
 * (gitrepository-layout(5), git-config(1) "extensions.*",
 * hash-function-transition.txt for objectformat).
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "pgp/pgp.h"
#include "gx_own_int.h"

int
gx_own__fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	if (errlen == 0)
		return -1;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

int
gx_own__slurp(const char *path, size_t max, char **out, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	char *buf;
	size_t n = 0, got;
	*out = NULL;
	if (f == NULL) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 1;
		return gx_own__fail(err, errlen, "%s: %s", path, strerror(errno));
	}
	buf = malloc(max + 1);
	if (buf == NULL) {
		fclose(f);
		return gx_own__fail(err, errlen, "%s: out of memory", path);
	}
	while ((got = fread(buf + n, 1, max + 1 - n, f)) > 0) {
		n += got;
		if (n > max) {
			fclose(f);
			free(buf);
			return gx_own__fail(err, errlen, "%s: larger than %zu octets", path, max);
		}
	}
	if (ferror(f)) {
		fclose(f);
		free(buf);
		return gx_own__fail(err, errlen, "%s: read error", path);
	}
	fclose(f);
	buf[n] = 0;
	*out = buf;
	if (len != NULL)
		*len = n;
	return 0;
}

static char *
join(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name);
	char *p = malloc(a + b + 2);
	if (p == NULL)
		return NULL;
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b + 1);
	return p;
}

static int
is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The first line of a small file, without its line end; relative paths are
 * taken from dir. NULL with a message when absent or unusable. */
static char *
path_in_file(const char *file, const char *prefix, const char *dir, char *err, size_t errlen)
{
	char *text = NULL, *p, *res;
	size_t n, plen = strlen(prefix);
	int rc = gx_own__slurp(file, GX_OWN_MAX_SMALL_FILE, &text, &n, err, errlen);
	if (rc != 0) {
		if (rc > 0)
			gx_own__fail(err, errlen, "%s: missing", file);
		return NULL;
	}
	if (strlen(text) != n || strncmp(text, prefix, plen) != 0) {
		gx_own__fail(err, errlen, "%s: not \"%s<path>\"", file, prefix);
		free(text);
		return NULL;
	}
	p = text + plen;
	p[strcspn(p, "\r\n")] = 0;
	if (*p == 0) {
		gx_own__fail(err, errlen, "%s: empty path", file);
		free(text);
		return NULL;
	}
	res = p[0] == '/' ? strdup(p) : join(dir, p);
	free(text);
	if (res == NULL)
		gx_own__fail(err, errlen, "out of memory");
	return res;
}

/* Find the git directory: PATH/.git (a directory, or a file "gitdir: X"),
 * else PATH itself when it looks like one (HEAD and objects/ or commondir). */
static int
find_gitdir(gx_own *r, const char *path, char *err, size_t errlen)
{
	char *dotgit = join(path, ".git"), *head = NULL, *objects = NULL, *common = NULL;
	int ok;
	if (dotgit == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	if (is_dir(dotgit)) {
		r->gitdir = dotgit;
	} else if (is_file(dotgit)) {
		r->gitdir = path_in_file(dotgit, "gitdir: ", path, err, errlen);
		free(dotgit);
		if (r->gitdir == NULL)
			return -1;
	} else {
		free(dotgit);
		if ((r->gitdir = strdup(path)) == NULL)
			return gx_own__fail(err, errlen, "out of memory");
	}
	head = join(r->gitdir, "HEAD");
	objects = join(r->gitdir, "objects");
	common = join(r->gitdir, "commondir");
	if (head == NULL || objects == NULL || common == NULL) {
		free(head), free(objects), free(common);
		return gx_own__fail(err, errlen, "out of memory");
	}
	ok = is_file(head) && (is_dir(objects) || is_file(common));
	free(head);
	free(objects);
	if (!ok) {
		free(common);
		return gx_own__fail(err, errlen, "%s: not a git repository (no HEAD and objects/)", path);
	}
	/* a linked work tree: objects and refs live in the common directory */
	if (is_file(common)) {
		r->commondir = path_in_file(common, "", r->gitdir, err, errlen);
		free(common);
		if (r->commondir == NULL)
			return -1;
	} else {
		free(common);
		if ((r->commondir = strdup(r->gitdir)) == NULL)
			return gx_own__fail(err, errlen, "out of memory");
	}
	return 0;
}

static void
lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

/* Extensions git 2.39 knows (setup.c) that do not change how objects and
 * refs are read here: preciousObjects (never delete: we only read),
 * partialClone (objects may be missing: reading one is an error anyway),
 * worktreeConfig (config.worktree: cannot set the object format), noop. */
static int
harmless_extension(const char *name)
{
	return strcmp(name, "noop") == 0 || strcmp(name, "preciousobjects") == 0 ||
	    strcmp(name, "partialclone") == 0 || strcmp(name, "worktreeconfig") == 0;
}

/* Parse the few config lines that matter (git-config(1) syntax: sections,
 * `key = value`, comments after # or ;, double quotes). Includes are not
 * followed: they are not where a repository's format is written. */
static int
read_config(gx_own *r, char *err, size_t errlen)
{
	char *path = join(r->commondir, "config"), *text = NULL, *line, *next;
	char section[64] = "", unknown[64] = "", format[32] = "sha1";
	long version = 0;
	int rc;
	if (path == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	rc = gx_own__slurp(path, GX_OWN_MAX_SMALL_FILE, &text, NULL, err, errlen);
	if (rc < 0) {
		free(path);
		return -1;
	}
	for (line = text; line != NULL && *line; line = next) {
		char *key, *val, *e, *o, quoted = 0;
		next = strchr(line, '\n');
		if (next != NULL)
			*next++ = 0;
		while (*line == ' ' || *line == '\t')
			line++;
		if (*line == '[') {
			size_t n = strcspn(line + 1, "] \t\"");
			section[0] = 0;
			/* a subsection ([remote "x"]) is never core or extensions */
			if (n < sizeof section && line[1 + n] == ']') {
				memcpy(section, line + 1, n);
				section[n] = 0;
				lower(section);
			}
			continue;
		}
		if (*line == 0 || *line == '#' || *line == ';')
			continue;
		key = line;
		e = key + strcspn(key, " \t=");
		val = e + strspn(e, " \t");
		if (*val == '=')
			val++;
		else
			val = (char *)"true";
		*e = 0;
		lower(key);
		while (*val == ' ' || *val == '\t')
			val++;
		/* unquote and cut comments; no escapes needed for the values read */
		for (o = e = val; *e; e++) {
			if (*e == '"')
				quoted = (char)!quoted;
			else if (!quoted && (*e == '#' || *e == ';'))
				break;
			else if (*e != '\r')
				*o++ = *e;
		}
		while (o > val && (o[-1] == ' ' || o[-1] == '\t'))
			o--;
		*o = 0;
		if (strcmp(section, "core") == 0 && strcmp(key, "repositoryformatversion") == 0) {
			char *end;
			version = strtol(val, &end, 10);
			if (*val == 0 || *end != 0) {
				free(text), free(path);
				return gx_own__fail(err, errlen, "%s: core.repositoryformatversion \"%s\" is not a number", r->commondir, val);
			}
		} else if (strcmp(section, "extensions") == 0) {
			if (strcmp(key, "objectformat") == 0) {
				/* case matters, as in git's hash_algo_by_name */
				snprintf(format, sizeof format, "%s", val);
			} else if (!harmless_extension(key) && unknown[0] == 0) {
				snprintf(unknown, sizeof unknown, "%s", key);
			}
		}
	}
	free(text);
	free(path);
	/* repositoryformatversion 0 ignores extensions (git's setup.c), so its
	 * objects are SHA-1 whatever extensions.objectformat says */
	if (version == 0) {
		r->idlen = 20;
		r->hashalg = PGP_HASH_SHA1;
		return 0;
	}
	if (version != 1)
		return gx_own__fail(err, errlen, "%s: core.repositoryformatversion %ld is not supported (0 and 1 are)", r->commondir, version);
	if (unknown[0] != 0)
		return gx_own__fail(err, errlen, "%s: unsupported extension extensions.%s", r->commondir, unknown);
	if (strcmp(format, "sha1") == 0) {
		r->idlen = 20;
		r->hashalg = PGP_HASH_SHA1;
	} else if (strcmp(format, "sha256") == 0) {
		r->idlen = 32;
		r->hashalg = PGP_HASH_SHA256;
	} else {
		return gx_own__fail(err, errlen, "%s: extensions.objectformat \"%s\" is not supported (sha1 and sha256 are)", r->commondir, format);
	}
	return 0;
}

int
gx_own_open(gx_own **out, const char *path, char *err, size_t errlen)
{
	gx_own *r = calloc(1, sizeof *r);
	*out = NULL;
	if (r == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	if (find_gitdir(r, path, err, errlen) != 0 || read_config(r, err, errlen) != 0 ||
	    gx_own__load_packs(r, err, errlen) != 0) {
		gx_own_close(r);
		return -1;
	}
	*out = r;
	return 0;
}

/* see gx_own_int.h */
int
gx_own__open_mem(gx_own **out, size_t idlen, char *err, size_t errlen)
{
	gx_own *r;
	*out = NULL;
	if (idlen != 20 && idlen != 32)
		return gx_own__fail(err, errlen, "object id length %zu is neither 20 nor 32", idlen);
	if ((r = calloc(1, sizeof *r)) == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	r->idlen = idlen;
	r->hashalg = idlen == 32 ? PGP_HASH_SHA256 : PGP_HASH_SHA1;
	*out = r;
	return 0;
}

/* see gx_own.h */
int
gx_own_format(const char *path, size_t *idlen, char *err, size_t errlen)
{
	gx_own r;
	int rc;
	memset(&r, 0, sizeof r);
	*idlen = 0;
	rc = find_gitdir(&r, path, err, errlen) != 0 || read_config(&r, err, errlen) != 0 ? -1 : 0;
	if (rc == 0)
		*idlen = r.idlen;
	free(r.gitdir);
	free(r.commondir);
	return rc;
}

void
gx_own_close(gx_own *r)
{
	size_t i;
	if (r == NULL)
		return;
	gx_own__free_packs(r);
	for (i = 0; i < r->nprefs; i++)
		free(r->prefs[i].name);
	free(r->prefs);
	free(r->gitdir);
	free(r->commondir);
	free(r);
}

size_t
gx_own_idlen(const gx_own *r)
{
	return r->idlen;
}
