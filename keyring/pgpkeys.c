/* pgpkeys.c - pgpkeys.git names and consistency checks. see pgpkeys.h */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/pgpkeys.h"

static const char hexu[] = "0123456789ABCDEF";

static int
unreserved(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
	    c == '-' || c == '.' || c == '_' || c == '~';
}

/* see pgpkeys.h */
pgp_err
pgpkeys_quote(char *out, size_t cap, const uint8_t *in, size_t len)
{
	size_t i, o = 0;
	int dots = (len == 1 && in[0] == '.') || (len == 2 && in[0] == '.' && in[1] == '.');
	if (len == 0)
		return PGP_ERR_INVALID;
	for (i = 0; i < len; i++) {
		uint8_t c = in[i];
		if (unreserved(c) && !(dots && c == '.')) {
			if (cap - o < 2)
				return PGP_ERR_LIMIT;
			out[o++] = (char)c;
		} else {
			if (cap - o < 4)
				return PGP_ERR_LIMIT;
			out[o++] = '%';
			out[o++] = hexu[c >> 4];
			out[o++] = hexu[c & 15];
		}
	}
	if (cap - o < 1)
		return PGP_ERR_LIMIT;
	out[o] = 0;
	return PGP_OK;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_unquote(char *out, size_t cap, size_t *outlen, const char *in, size_t len)
{
	size_t i = 0, o = 0;
	while (i < len) {
		uint8_t c = (uint8_t)in[i];
		if (c == '%') {
			int h, l;
			if (len - i < 3)
				return PGP_ERR_MALFORMED;
			h = pgp_hex_digit((uint8_t)in[i + 1]);
			l = pgp_hex_digit((uint8_t)in[i + 2]);
			if (h < 0 || l < 0)
				return PGP_ERR_MALFORMED;
			c = (uint8_t)(h << 4 | l);
			i += 3;
		} else {
			i++;
		}
		if (c == 0)
			return PGP_ERR_MALFORMED;
		if (cap - o < 2)
			return PGP_ERR_LIMIT;
		out[o++] = (char)c;
	}
	if (cap - o < 1)
		return PGP_ERR_LIMIT;
	out[o] = 0;
	if (outlen)
		*outlen = o;
	return PGP_OK;
}

static int
hex16(const uint8_t *p, char keyid[17])
{
	size_t i;
	for (i = 0; i < 16; i++) {
		int v = pgp_hex_digit(p[i]);
		if (v < 0)
			return 0;
		keyid[i] = hexu[v];
	}
	keyid[16] = 0;
	return 1;
}

/* see pgpkeys.h */
int
pgpkeys_keyfile_name(const char *name, char keyid[17])
{
	if (strlen(name) != 20 || strcmp(name + 16, ".asc") != 0)
		return 0;
	return hex16((const uint8_t *)name, keyid);
}

#define LINK_PREFIX "../../../../keys/"

/* see pgpkeys.h */
int
pgpkeys_link_target(const uint8_t *link, size_t len, char keyid[17])
{
	size_t pl = sizeof LINK_PREFIX - 1;
	if (len > 0 && link[len - 1] == '\n')
		len--;
	if (len != pl + 20 || memcmp(link, LINK_PREFIX, pl) != 0 ||
	    memcmp(link + pl + 16, ".asc", 4) != 0)
		return 0;
	return hex16(link + pl, keyid);
}

/* see pgpkeys.h */
pgp_err
pgpkeys_link_text(char *out, size_t cap, const uint8_t keyid[8])
{
	size_t pl = sizeof LINK_PREFIX - 1;
	if (cap < pl + 21)
		return PGP_ERR_LIMIT;
	memcpy(out, LINK_PREFIX, pl);
	pgp_hex_encode(out + pl, keyid, 8);
	memcpy(out + pl + 16, ".asc", 5);
	return PGP_OK;
}

typedef struct fpr_ref {
	const pgp_fpr *fpr;
	size_t file;
	size_t off;
} fpr_ref;

static int
fpr_ref_cmp(const void *a, const void *b)
{
	const fpr_ref *x = a, *y = b;
	int c;
	if ((c = pgp_fpr_cmp(x->fpr, y->fpr)) != 0)
		return c;
	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

static int
fpr_eq(const pgp_fpr *a, const pgp_fpr *b)
{
	return a->len == b->len && memcmp(a->v, b->v, a->len) == 0;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_check_files(const pgp_certset *set, const pgpkeys_file *files, size_t nfiles,
    pgpkeys_report_fn fn, void *ctx)
{
	char msg[256], kid[17], want[17];
	fpr_ref *refs = NULL;
	size_t i, j, n = 0, total = 0, ncopies = pgp_certset_copies(set);
	pgp_err e = PGP_OK;

	for (i = 0; i < nfiles; i++) {
		const pgpkeys_file *f = &files[i];
		if (f->copy0 > ncopies || f->ncopies > ncopies - f->copy0)
			return PGP_ERR_INVALID;
		total += f->ncopies;
		if (f->base == NULL)
			continue;
		if (!pgpkeys_keyfile_name(f->base, want)) {
			e = fn(ctx, f->path, 0, PGPKEYS_WARN, "keys/ file not named <KEYID>.asc");
		} else if (f->ncopies == 0) {
			e = fn(ctx, f->path, 0, PGPKEYS_WARN, "keys/ file holds no certificate");
		} else {
			for (j = 0; j < f->ncopies && e == PGP_OK; j++) {
				const pgp_cert *c = pgp_certset_copy(set, f->copy0 + j);
				pgp_hex_encode(kid, c->primary.keyid, 8);
				if (strcmp(kid, want) != 0) {
					snprintf(msg, sizeof msg, "keys/ file named after key ID %s holds "
					    "the certificate of key ID %s", want, kid);
					e = fn(ctx, f->path, c->off, PGPKEYS_WARN, msg);
				}
			}
			if (e == PGP_OK && f->ncopies > 1) {
				snprintf(msg, sizeof msg, "keys/ file holds %zu certificates, not one",
				    f->ncopies);
				e = fn(ctx, f->path, 0, PGPKEYS_WARN, msg);
			}
		}
		if (e != PGP_OK)
			return e;
	}
	if (total == 0)
		return PGP_OK;
	if ((refs = calloc(total, sizeof *refs)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < nfiles; i++)
		for (j = 0; j < files[i].ncopies; j++) {
			const pgp_cert *c = pgp_certset_copy(set, files[i].copy0 + j);
			refs[n].fpr = &c->primary.fpr;
			refs[n].file = i;
			refs[n].off = c->off;
			n++;
		}
	qsort(refs, n, sizeof *refs, fpr_ref_cmp);
	for (i = 1; i < n && e == PGP_OK; i++) {
		const fpr_ref *a, *b = &refs[i];
		char fh[2 * PGP_FPR_MAX + 1];
		/* the first holder of this fingerprint */
		for (j = i; j > 0 && fpr_eq(refs[j - 1].fpr, b->fpr); j--)
			;
		a = &refs[j];
		if (a->file == b->file)
			continue;   /* one file: several-certificates / copies, not two files */
		/* one report per later file */
		if (refs[i - 1].file == b->file)
			continue;
		pgp_hex_encode(fh, b->fpr->v, b->fpr->len);
		snprintf(msg, sizeof msg, "primary key %s is also in %.150s", fh, files[a->file].path);
		e = fn(ctx, files[b->file].path, b->off, PGPKEYS_WARN, msg);
	}
	free(refs);
	return e;
}

typedef struct file_ix {
	unsigned tree;
	char norm[21];     /* <KEYID>.asc with upper-case hex */
	size_t i;
} file_ix;

static int
file_ix_cmp(const void *a, const void *b)
{
	const file_ix *x = a, *y = b;
	if (x->tree != y->tree)
		return x->tree < y->tree ? -1 : 1;
	return strcmp(x->norm, y->norm);
}

static int
addr_eq(pgp_view a, const char *local, const char *domain)
{
	size_t ll = strlen(local), dl = strlen(domain), i;
	if (a.len != ll + 1 + dl || a.p[ll] != '@')
		return 0;
	for (i = 0; i < a.len; i++) {
		uint8_t x = a.p[i], y = (uint8_t)(i < ll ? local[i] : i == ll ? '@' : domain[i - ll - 1]);
		if (x >= 'A' && x <= 'Z')
			x = (uint8_t)(x + 32);
		if (y >= 'A' && y <= 'Z')
			y = (uint8_t)(y + 32);
		if (x != y)
			return 0;
	}
	return 1;
}

/* 1 if c has a user ID with local@domain bound and unrevoked at t, 0 if not,
 * <0 on error. */
static int
has_valid_addr(const pgp_cert *c, const pgp_certsrc *src, const char *local, const char *domain,
    int64_t t, const pgp_policy *pol)
{
	pgp_certeval ev;
	uint32_t i;
	int found = 0;
	for (i = 0; i < c->nuids; i++) {
		pgp_view a;
		if (!c->uids[i].is_attr && pgp_uid_email(c->uids[i].data, &a) &&
		    addr_eq(a, local, domain))
			break;
	}
	if (i == c->nuids)
		return 0;
	if (pgp_cert_eval(&ev, c, src, t, pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		return PGP_ERR_NOMEM;
	}
	for (i = 0; i < c->nuids && !found; i++) {
		pgp_view a;
		if (!c->uids[i].is_attr && pgp_uid_email(c->uids[i].data, &a) &&
		    addr_eq(a, local, domain) && ev.uids[i].status == PGP_OK)
			found = 1;
	}
	pgp_certeval_release(&ev);
	return found;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_check_entries(const pgp_certset *set, const pgpkeys_file *files, size_t nfiles,
    const pgpkeys_entry *entries, size_t nentries, int64_t t, const pgp_policy *pol,
    pgpkeys_report_fn fn, void *ctx)
{
	file_ix *ix = NULL;
	size_t i, n = 0;
	pgp_certsrc src;
	char msg[512], kid[17], name[24];
	pgp_err e = PGP_OK;

	pgp_certset_source(set, &src);
	if (nfiles && (ix = calloc(nfiles, sizeof *ix)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < nfiles; i++) {
		char k[17];
		/* a link names <KEYID>.asc in upper-case hex: match file names
		 * in either case */
		if (files[i].base == NULL || !pgpkeys_keyfile_name(files[i].base, k))
			continue;
		ix[n].tree = files[i].tree;
		snprintf(ix[n].norm, sizeof ix[n].norm, "%s.asc", k);
		ix[n].i = i;
		n++;
	}
	if (n)
		qsort(ix, n, sizeof *ix, file_ix_cmp);
	for (i = 0; i < nentries && e == PGP_OK; i++) {
		const pgpkeys_entry *en = &entries[i];
		file_ix key, *hit;
		const pgpkeys_file *f;
		size_t j;
		int ok = 0;
		if (!pgpkeys_link_target(en->link, en->linklen, kid)) {
			e = fn(ctx, en->path, 0, PGPKEYS_ERROR,
			    "entry is not a link to ../../../../keys/<KEYID>.asc");
			continue;
		}
		snprintf(name, sizeof name, "%s.asc", kid);
		key.tree = en->tree;
		memcpy(key.norm, name, sizeof key.norm);
		hit = n ? bsearch(&key, ix, n, sizeof *ix, file_ix_cmp) : NULL;
		if (hit == NULL) {
			snprintf(msg, sizeof msg, "entry for %.200s@%.200s points to keys/%s, "
			    "which is missing", en->local, en->domain, name);
			e = fn(ctx, en->path, 0, PGPKEYS_ERROR, msg);
			continue;
		}
		f = &files[hit->i];
		for (j = 0; j < f->ncopies && !ok; j++) {
			const pgp_cert *copy = pgp_certset_copy(set, f->copy0 + j), *merged = NULL;
			size_t tot = 0;
			int r;
			pgp_certq q;
			q.kind = PGP_CERTQ_FPR;
			q.p = copy->primary.fpr.v;
			q.len = copy->primary.fpr.len;
			if ((e = pgp_certset_find(set, &q, &merged, 1, &tot)) == PGP_ERR_LIMIT) {
				snprintf(msg, sizeof msg, "entry for %.200s@%.200s: the certificate "
				    "in keys/%s was refused for a limit; address not checked",
				    en->local, en->domain, name);
				e = fn(ctx, en->path, 0, PGPKEYS_WARN, msg);
				ok = 1;
				break;
			}
			if (e != PGP_OK)
				break;
			if (tot == 0 || merged == NULL)
				continue;
			if ((r = has_valid_addr(merged, &src, en->local, en->domain, t, pol)) < 0) {
				e = (pgp_err)r;
				break;
			}
			ok = r;
		}
		if (e != PGP_OK)
			break;
		if (!ok) {
			snprintf(msg, sizeof msg, "entry for %.200s@%.200s points to keys/%s, whose "
			    "certificate has no valid user ID with that address", en->local,
			    en->domain, name);
			e = fn(ctx, en->path, 0, PGPKEYS_ERROR, msg);
		}
	}
	free(ix);
	return e;
}
