/* krsrc.c - keyring sources: dispatch, key files, reports, checks. see krsrc.h */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "cmd/cli.h"
#include "cmd/krsrc_int.h"

static int
grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t nc;
	void *np;
	if (need <= *cap)
		return 0;
	nc = *cap ? *cap : 16;
	while (nc < need) {
		if (nc > ((size_t)-1 / 2) / size)
			return -1;
		nc *= 2;
	}
	if ((np = realloc(*p, nc * size)) == NULL)
		return -1;
	*p = np;
	*cap = nc;
	return 0;
}

/* see krsrc.h */
const char *
krsrc_severity_name(int severity)
{
	switch (severity) {
	case PGPKEYS_NOTE: return "note";
	case PGPKEYS_WARN: return "warning";
	default: return "error";
	}
}

/* see krsrc_int.h */
int
krsrc_source_lost(krsrc_ctx *x, const char *src, const char *what)
{
	x->rep->lost++;
	return krsrc_report_add(x, src, 0, PGPKEYS_ERROR, what);
}

/* see krsrc_int.h */
int
krsrc_report_add(krsrc_ctx *x, const char *file, size_t off, int sev, const char *what)
{
	krsrc_reports *r = x->rep;
	krsrc_report *v;
	if (sev >= PGPKEYS_ERROR)
		x->errors = 1;
	if (grow((void **)&r->v, &r->cap, r->n + 1, sizeof *r->v) != 0)
		return -1;
	v = &r->v[r->n];
	v->file = strdup(file ? file : "");
	v->what = strdup(what);
	v->offset = off;
	v->severity = sev;
	if (v->file == NULL || v->what == NULL) {
		free(v->file);
		free(v->what);
		return -1;
	}
	r->n++;
	return 0;
}

static pgp_err
report_cb(void *ctx, const char *file, size_t offset, int severity, const char *what)
{
	return krsrc_report_add(ctx, file, offset, severity, what) == 0 ? PGP_OK : PGP_ERR_NOMEM;
}

/* see krsrc_int.h */
char *
krsrc_str(krsrc_ctx *x, const char *s, size_t n)
{
	char *c;
	if (grow((void **)&x->strs, &x->capstrs, x->nstrs + 1, sizeof *x->strs) != 0)
		return NULL;
	if ((c = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(c, s, n);
	c[n] = 0;
	x->strs[x->nstrs++] = c;
	return c;
}

/* see krsrc.h */
void
krsrc_reports_free(krsrc_reports *r)
{
	size_t i;
	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++) {
		free(r->v[i].file);
		free(r->v[i].what);
	}
	free(r->v);
	r->v = NULL;
	r->n = r->cap = 0;
}

/* see krsrc.h */
void
krsrc_reports_print(const krsrc_reports *r)
{
	size_t i;
	for (i = 0; i < r->n; i++)
		cli_msg(r->v[i].file, "offset %zu: %s: %s", r->v[i].offset,
		    krsrc_severity_name(r->v[i].severity), r->v[i].what);
}

/* see krsrc_int.h */
int
krsrc_read_file(const char *path, size_t max, uint8_t **out, size_t *len)
{
	int fd = open(path, O_RDONLY);
	size_t n = 0, cap;
	uint8_t *p;
	struct stat st;
	*out = NULL;
	*len = 0;
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		if (errno == 0 || S_ISDIR(st.st_mode))
			errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		close(fd);
		return -1;
	}
	if ((uint64_t)st.st_size > max) {
		close(fd);
		errno = EFBIG;
		return -1;
	}
	cap = (size_t)st.st_size + 1;
	if ((p = malloc(cap)) == NULL) {
		close(fd);
		return -1;
	}
	for (;;) {
		ssize_t r = read(fd, p + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			free(p);
			close(fd);
			return -1;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n == cap) {
			/* the file grew while being read: bounded by max */
			uint8_t *np;
			if (cap > max) {
				free(p);
				close(fd);
				errno = EFBIG;
				return -1;
			}
			if ((np = realloc(p, cap * 2)) == NULL) {
				free(p);
				close(fd);
				return -1;
			}
			p = np;
			cap *= 2;
		}
	}
	close(fd);
	*out = p;
	*len = n;
	return 0;
}

/* see krsrc_int.h */
int
krsrc_add_keyfile(krsrc_ctx *x, const char *name, const char *base, uint8_t *p, size_t len)
{
	pgp_input_class ic;
	pgp_diag d = {0, -1, NULL};
	pgpkeys_file *f;
	size_t refused = pgp_certset_refused(x->set), i;
	const char *fname, *fbase = NULL;
	char msg[320];
	int armored, dearmored = 0;
	pgp_err e;

	if ((fname = krsrc_str(x, name, strlen(name))) == NULL ||
	    (base && (fbase = krsrc_str(x, base, strlen(base))) == NULL) ||
	    grow((void **)&x->files, &x->capfiles, x->nfiles + 1, sizeof *x->files) != 0) {
		free(p);
		return -1;
	}
	f = &x->files[x->nfiles++];
	f->path = fname;
	f->base = fbase;
	f->tree = x->tree;
	f->copy0 = pgp_certset_copies(x->set);
	f->ncopies = 0;
	/* the one binary-or-armored decision (pgp/classify.h), as cmd/certs.c */
	(void)pgp_classify(p, len, &ic);
	armored = pgp_classify_has_armor(&ic, len);
	if (armored) {
		pgp_buf b;
		uint8_t *dec;
		size_t n = 0;
		e = pgp_armor_decode_all(&b, p, len, &d);
		free(p);
		p = NULL;
		if (e == PGP_OK) {
			dec = pgp_buf_take(&b, &n);
			d.what = NULL;
			e = dec ? pgp_certset_add_owned(x->set, dec, n, &d) : PGP_OK;
			dearmored = 1;
		}
	} else if (len == 0) {
		free(p);
		e = PGP_OK;
	} else {
		e = pgp_certset_add_owned(x->set, p, len, &d);
	}
	if (pgp_certset_status(x->set) != PGP_OK) {
		/* A limit of the framing (a packet above PGP_MAX_PACKET_BODY) or
		 * an allocation failure made the set unusable: it lists no copies
		 * any more and every lookup fails (cert.h, fail closed). Nothing
		 * of any source can be used: an error, not an empty keyring. */
		f->ncopies = 0;
		snprintf(msg, sizeof msg, "%s (%s)%s; the key set is unusable: nothing is loaded",
		    d.what ? d.what : "cannot be parsed", pgp_strerror(e),
		    dearmored ? "; the offset is in the dearmored octets" : "");
		(void)krsrc_report_add(x, name, d.offset, PGPKEYS_ERROR, msg);
		return -1;
	}
	f->ncopies = pgp_certset_copies(x->set) - f->copy0;
	if (e == PGP_ERR_NOMEM)
		return -1;
	if (e != PGP_OK) {
		snprintf(msg, sizeof msg, "%s (%s)%s%s", d.what ? d.what : "cannot be parsed",
		    pgp_strerror(e), dearmored ? "; the offset is in the dearmored octets" : "",
		    f->ncopies ? "; the certificates before it are loaded" : "");
		if (krsrc_report_add(x, name, d.offset, PGPKEYS_ERROR, msg) != 0)
			return -1;
	}
	for (i = refused; i < pgp_certset_refused(x->set); i++) {
		const pgp_diag *rd = pgp_certset_refusal(x->set, i);
		snprintf(msg, sizeof msg, "certificate refused: %s (limit)",
		    rd->what ? rd->what : "a limit");
		if (krsrc_report_add(x, name, rd->offset, PGPKEYS_ERROR, msg) != 0)
			return -1;
	}
	return 0;
}

/* see krsrc_int.h */
int
krsrc_add_entry(krsrc_ctx *x, const char *name, const char *qdomain, size_t dl,
    const char *qlocal, size_t ll, const uint8_t *link, size_t linklen)
{
	char dom[PGPKEYS_MAX_COMPONENT], loc[PGPKEYS_MAX_COMPONENT];
	size_t dn = 0, ln = 0;
	pgpkeys_entry *en;
	const char *fname;
	char *lk;

	if ((fname = krsrc_str(x, name, strlen(name))) == NULL)
		return -1;
	if (pgpkeys_unquote(dom, sizeof dom, &dn, qdomain, dl) != PGP_OK ||
	    pgpkeys_unquote(loc, sizeof loc, &ln, qlocal, ll) != PGP_OK)
		return krsrc_report_add(x, name, 0, PGPKEYS_ERROR,
		    "entry path is not url-quoted <domain>/<local> (bad %XX or too long)");
	if (grow((void **)&x->entries, &x->capentries, x->nentries + 1, sizeof *x->entries) != 0)
		return -1;
	en = &x->entries[x->nentries];
	en->path = fname;
	en->tree = x->tree;
	if ((en->domain = krsrc_str(x, dom, dn)) == NULL || (en->local = krsrc_str(x, loc, ln)) == NULL ||
	    (lk = krsrc_str(x, (const char *)link, linklen)) == NULL)
		return -1;
	en->link = (const uint8_t *)lk;
	en->linklen = linklen;
	x->nentries++;
	return 0;
}

static int
is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int
has(const char *dir, const char *name, int want_dir)
{
	char p[4096];
	struct stat st;
	if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, name) >= sizeof p)
		return 0;
	if (stat(p, &st) != 0)
		return 0;
	return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode) || S_ISDIR(st.st_mode);
}

/* a repository: DIR/.git (directory or gitdir file), or bare (HEAD + objects/) */
static int
is_git(const char *dir)
{
	return has(dir, ".git", 0) || (has(dir, "HEAD", 0) && has(dir, "objects", 1) &&
	    has(dir, "refs", 1));
}

static int
load_one(krsrc_ctx *x, const char *src, const char *rev)
{
	uint8_t *p;
	size_t len;
	char msg[256];
	if (strncmp(src, "git:", 4) == 0)
		return krsrc_git(x, src + 4, rev);
	if (strncmp(src, "tree:", 5) == 0)
		return krsrc_tree(x, src + 5);
	if (is_dir(src)) {
		if (is_git(src))
			return krsrc_git(x, src, rev);
		if (has(src, "keys", 1) || has(src, ".keyring", 1))
			return krsrc_tree(x, src);
		return krsrc_keydir(x, src);
	}
	if (strcmp(src, "-") == 0) {
		cli_file f;
		if (cli_file_read_fd(&f, 0, "<stdin>") != 0) {
			snprintf(msg, sizeof msg, "cannot be read: %s", strerror(errno));
			return krsrc_source_lost(x, "<stdin>", msg);
		}
		return krsrc_add_keyfile(x, "<stdin>", NULL, f.heap, f.len);
	}
	if (krsrc_read_file(src, PGP_MAX_INPUT_FILE, &p, &len) != 0) {
		snprintf(msg, sizeof msg, "cannot be read: %s", strerror(errno));
		return krsrc_source_lost(x, src, msg);
	}
	return krsrc_add_keyfile(x, src, NULL, p, len);
}

/* see krsrc.h */
int
krsrc_load_at(const char *const *srcs, size_t n, const char *rev, int64_t t,
    const pgp_policy *pol, pgp_certset *set, krsrc_reports *rep)
{
	krsrc_ctx x;
	size_t i;
	int rc = 0;
	pgp_err e;

	memset(&x, 0, sizeof x);
	x.set = set;
	x.rep = rep;
	for (i = 0; i < n && rc == 0; i++) {
		x.tree = (unsigned)i;
		if (load_one(&x, srcs[i], rev) != 0)
			rc = -1;
	}
	if (rc == 0) {
		e = pgpkeys_check_files(set, x.files, x.nfiles, report_cb, &x);
		if (e == PGP_OK)
			e = pgpkeys_check_entries(set, x.files, x.nfiles, x.entries, x.nentries, t, pol,
			    report_cb, &x);
		if (e != PGP_OK)
			rc = -1;
	}
	for (i = 0; i < x.nstrs; i++)
		free(x.strs[i]);
	free(x.strs);
	free(x.files);
	free(x.entries);
	if (rc == 0 && x.errors)
		rc = 1;
	return rc;
}

/* see krsrc.h */
int
krsrc_load(const char *const *srcs, size_t n, const char *rev, pgp_certset *set, krsrc_reports *rep)
{
	pgp_policy pol;
	pgp_policy_init(&pol);
	return krsrc_load_at(srcs, n, rev, (int64_t)time(NULL), &pol, set, rep);
}
