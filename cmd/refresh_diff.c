/*
 * refresh_diff.c - what a refresh changed, per certificate, by comparing
 * the keyring before and after: certifications (the keyring's edges: the
 * third-party certifications and certification revocations whose math was
 * verified at build time, kr_edge_at) added or removed by issuer, subkeys
 * and user IDs added or removed, a revocation of the primary key, expiry
 * changes of the primary key and subkeys (evaluated at --at), and the
 * certificates added (--all). see refresh.h
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "refresh.h"

typedef struct ekey {
	pgp_fpr target, issuer;
	uint8_t sigtype;
	int64_t created;
	pgp_view uid;
} ekey;

static int
ekey_cmp(const void *pa, const void *pb)
{
	const ekey *a = pa, *b = pb;
	int c;
	size_t n;
	if ((c = pgp_fpr_cmp(&a->target, &b->target)) != 0 || (c = pgp_fpr_cmp(&a->issuer, &b->issuer)) != 0)
		return c;
	if (a->sigtype != b->sigtype)
		return a->sigtype < b->sigtype ? -1 : 1;
	if (a->created != b->created)
		return a->created < b->created ? -1 : 1;
	n = a->uid.len < b->uid.len ? a->uid.len : b->uid.len;
	if ((c = n ? memcmp(a->uid.p, b->uid.p, n) : 0) != 0)
		return c;
	return a->uid.len < b->uid.len ? -1 : a->uid.len > b->uid.len;
}

/* Every edge of k, sorted. */
static int
edges_of(kr_keyring *k, ekey **out, size_t *n)
{
	size_t i, ne = kr_nedges(k);
	ekey *v = calloc(ne ? ne : 1, sizeof *v);
	*out = NULL;
	*n = 0;
	if (v == NULL)
		return -1;
	for (i = 0; i < ne; i++) {
		kr_edge e;
		const pgp_cert *t;
		if (kr_edge_at(k, i, &e) != PGP_OK || kr_cert_fpr(k, e.target, &v[i].target) != PGP_OK ||
		    kr_cert_fpr(k, e.issuer, &v[i].issuer) != PGP_OK || kr_cert(k, e.target, &t) != PGP_OK) {
			free(v);
			return -1;
		}
		v[i].sigtype = e.sigtype;
		v[i].created = e.created;
		if (e.uid < t->nuids && !t->uids[e.uid].is_attr)
			v[i].uid = t->uids[e.uid].data;
	}
	qsort(v, ne, sizeof *v, ekey_cmp);
	*out = v;
	*n = ne;
	return 0;
}

/* The edges of target in v[*pos..), advancing *pos past them: [lo, hi). */
static void
edge_range(const ekey *v, size_t n, size_t *pos, const pgp_fpr *target, size_t *lo, size_t *hi)
{
	while (*pos < n && pgp_fpr_cmp(&v[*pos].target, target) < 0)
		(*pos)++;
	*lo = *pos;
	while (*pos < n && pgp_fpr_cmp(&v[*pos].target, target) == 0)
		(*pos)++;
	*hi = *pos;
}

static void
emit_edge(out_ctx *o, const ekey *e)
{
	char h[2 * PGP_FPR_MAX + 1];
	pgp_hex_encode(h, e->issuer.v, e->issuer.len);
	out_open(o, NULL, h);
	out_text(o, "issuer", "%s", h);
	out_str(o, "user_id", e->uid.p, e->uid.len);
	out_text(o, "kind", "%s", e->sigtype == 0x30 ? "revocation" : "certification");
	out_time(o, "created", e->created);
	out_close(o);
}

/* Edges in a[alo..ahi) missing from b[blo..bhi) (both sorted): emitted
 * under key (o may be NULL: counted only). */
static size_t
edge_minus(out_ctx *o, const char *key, const ekey *a, size_t alo, size_t ahi, const ekey *b,
    size_t blo, size_t bhi)
{
	size_t i, j = blo, n = 0;
	for (i = alo; i < ahi; i++) {
		while (j < bhi && ekey_cmp(&b[j], &a[i]) < 0)
			j++;
		if (j < bhi && ekey_cmp(&b[j], &a[i]) == 0)
			continue;
		if (o && n == 0)
			out_arr_open(o, key);
		if (o)
			emit_edge(o, &a[i]);
		n++;
	}
	if (o && n)
		out_arr_close(o);
	return n;
}

static const pgp_subc *
sub_by_fpr(const pgp_cert *c, const pgp_fpr *f, uint32_t *idx)
{
	uint32_t k;
	for (k = 0; k < c->nsubs; k++)
		if (pgp_fpr_cmp(&c->subs[k].key.fpr, f) == 0) {
			*idx = k;
			return &c->subs[k];
		}
	return NULL;
}

/* Subkeys of a not in b. */
static size_t
subs_minus(out_ctx *o, const char *key, const pgp_cert *a, const pgp_cert *b)
{
	uint32_t k, idx;
	size_t n = 0;
	char h[2 * PGP_FPR_MAX + 1];
	for (k = 0; k < a->nsubs; k++) {
		if (sub_by_fpr(b, &a->subs[k].key.fpr, &idx) != NULL)
			continue;
		if (o && n == 0)
			out_arr_open(o, key);
		if (o) {
			pgp_hex_encode(h, a->subs[k].key.fpr.v, a->subs[k].key.fpr.len);
			out_text(o, NULL, "%s", h);
		}
		n++;
	}
	if (o && n)
		out_arr_close(o);
	return n;
}

static int
has_uid(const pgp_cert *c, const pgp_uidc *u)
{
	uint32_t k;
	for (k = 0; k < c->nuids; k++)
		if (c->uids[k].is_attr == u->is_attr && c->uids[k].data.len == u->data.len &&
		    memcmp(c->uids[k].data.p, u->data.p, u->data.len) == 0)
			return 1;
	return 0;
}

static size_t
uids_minus(out_ctx *o, const char *key, const pgp_cert *a, const pgp_cert *b)
{
	uint32_t k;
	size_t n = 0;
	for (k = 0; k < a->nuids; k++) {
		if (a->uids[k].is_attr || has_uid(b, &a->uids[k]))
			continue;
		if (o && n == 0)
			out_arr_open(o, key);
		if (o)
			out_str(o, NULL, a->uids[k].data.p, a->uids[k].data.len);
		n++;
	}
	if (o && n)
		out_arr_close(o);
	return n;
}

static void
emit_expiry(out_ctx *o, const char *key, const char *fpr, int64_t was, int64_t now)
{
	out_open(o, key, NULL);
	if (fpr)
		out_text(o, "fingerprint", "%s", fpr);
	if (was)
		out_time(o, "old", was);
	else
		out_text(o, "old", "never");
	if (now)
		out_time(o, "new", now);
	else
		out_text(o, "new", "never");
	out_close(o);
}

static pgp_view
uid_of(const pgp_certeval *ev)
{
	pgp_view v = {(const uint8_t *)"", 0};
	const pgp_cert *c = ev->cert;
	uint32_t k;
	if (ev->primary_uid >= 0)
		return c->uids[ev->primary_uid].data;
	for (k = 0; k < c->nuids; k++)
		if (!c->uids[k].is_attr)
			return c->uids[k].data;
	return v;
}

typedef struct dctx {
	out_ctx *o;
	kr_keyring *old, *nw;
	pgp_certsrc osrc, nsrc;
	int64_t at;
	const pgp_policy *pol;
	ekey *oe, *ne;
	size_t noe, nne, opos, npos;
} dctx;

/* The changes of one certificate in both keyrings; o NULL: counted only.
 * 1 changed, 0 not, -1 error. */
static int
cert_changes(dctx *x, out_ctx *o, size_t oi, size_t ni)
{
	const pgp_cert *oc, *nc;
	pgp_certeval oev, nev;
	pgp_view ob, nb;
	size_t olo, ohi, nlo, nhi, n = 0;
	char h[2 * PGP_FPR_MAX + 1];
	uint32_t k, idx;
	int rc = -1, other;

	memset(&oev, 0, sizeof oev);
	memset(&nev, 0, sizeof nev);
	if (kr_cert(x->old, oi, &oc) != PGP_OK || kr_cert(x->nw, ni, &nc) != PGP_OK ||
	    kr_cert_bytes(x->old, oi, &ob) != PGP_OK || kr_cert_bytes(x->nw, ni, &nb) != PGP_OK)
		return -1;
	if (pgp_cert_eval(&oev, oc, &x->osrc, x->at, x->pol) != PGP_OK ||
	    pgp_cert_eval(&nev, nc, &x->nsrc, x->at, x->pol) != PGP_OK)
		goto out;
	edge_range(x->oe, x->noe, &x->opos, &oc->primary.fpr, &olo, &ohi);
	edge_range(x->ne, x->nne, &x->npos, &nc->primary.fpr, &nlo, &nhi);
	if (o) {
		pgp_hex_encode(h, nc->primary.fpr.v, nc->primary.fpr.len);
		out_open(o, NULL, h);
		out_text(o, "fingerprint", "%s", h);
		{
			pgp_view u = uid_of(&nev);
			out_str(o, "user_id", u.p, u.len);
		}
	}
	n += edge_minus(o, "certifications_added", x->ne, nlo, nhi, x->oe, olo, ohi);
	n += edge_minus(o, "certifications_removed", x->oe, olo, ohi, x->ne, nlo, nhi);
	n += subs_minus(o, "subkeys_added", nc, oc);
	n += subs_minus(o, "subkeys_removed", oc, nc);
	n += uids_minus(o, "user_ids_added", nc, oc);
	n += uids_minus(o, "user_ids_removed", oc, nc);
	if (nev.primary.revoked && !oev.primary.revoked) {
		n++;
		if (o)
			out_text(o, "revoked", "%s", nev.primary.revoked == 2 ? "hard" : "soft");
	}
	if (nev.primary.expires != oev.primary.expires) {
		n++;
		if (o)
			emit_expiry(o, "expiry", NULL, oev.primary.expires, nev.primary.expires);
	}
	for (k = 0; k < nc->nsubs; k++) {
		if (sub_by_fpr(oc, &nc->subs[k].key.fpr, &idx) == NULL ||
		    oev.subs[idx].expires == nev.subs[k].expires)
			continue;
		n++;
		if (o) {
			pgp_hex_encode(h, nc->subs[k].key.fpr.v, nc->subs[k].key.fpr.len);
			emit_expiry(o, "subkey_expiry", h, oev.subs[idx].expires, nev.subs[k].expires);
		}
	}
	other = n == 0 && (ob.len != nb.len || memcmp(ob.p, nb.p, ob.len) != 0);
	if (o) {
		if (other)
			out_bool(o, "other_signatures_changed", 1);
		out_close(o);
	}
	rc = n || other;
out:
	pgp_certeval_release(&oev);
	pgp_certeval_release(&nev);
	return rc;
}

static int
emit_added(dctx *x, out_ctx *o, size_t ni)
{
	const pgp_cert *nc;
	pgp_certeval ev;
	char h[2 * PGP_FPR_MAX + 1];
	pgp_view u;
	if (kr_cert(x->nw, ni, &nc) != PGP_OK || pgp_cert_eval(&ev, nc, &x->nsrc, x->at, x->pol) != PGP_OK)
		return -1;
	pgp_hex_encode(h, nc->primary.fpr.v, nc->primary.fpr.len);
	u = uid_of(&ev);
	out_open(o, NULL, h);
	out_text(o, "fingerprint", "%s", h);
	out_str(o, "user_id", u.p, u.len);
	out_close(o);
	pgp_certeval_release(&ev);
	return 0;
}

/* One pass over both keyrings (fingerprint order): print_added 0 counts
 * the certificates changed or added, 1 prints the added ones. */
static int
walk(dctx *x, int print_added, size_t *count)
{
	size_t oi = 0, ni = 0, on = kr_count(x->old), nn = kr_count(x->nw);
	x->opos = x->npos = 0;
	*count = 0;
	while (oi < on || ni < nn) {
		pgp_fpr of, nf;
		int c;
		if (oi < on && kr_cert_fpr(x->old, oi, &of) != PGP_OK)
			return -1;
		if (ni < nn && kr_cert_fpr(x->nw, ni, &nf) != PGP_OK)
			return -1;
		c = oi == on ? 1 : ni == nn ? -1 : pgp_fpr_cmp(&of, &nf);
		if (c == 0) {
			if (!print_added) {
				int r = cert_changes(x, NULL, oi, ni);
				if (r < 0)
					return -1;
				*count += (size_t)r;
			}
			oi++;
			ni++;
		} else if (c > 0) {
			if (print_added && emit_added(x, x->o, ni) != 0)
				return -1;
			(*count)++;
			ni++;
		} else {
			oi++;   /* only in the old keyring: not_in_source says so */
		}
	}
	return 0;
}

/* see refresh.h */
int
rf_diff(out_ctx *o, kr_keyring *old, kr_keyring *nw, const rf_merged *m, int64_t at,
    const pgp_policy *pol, size_t *nchanged)
{
	dctx x;
	size_t n, i;
	int rc = -1;

	memset(&x, 0, sizeof x);
	x.old = old;
	x.nw = nw;
	x.at = at;
	x.pol = pol;
	kr_source(old, &x.osrc);
	kr_source(nw, &x.nsrc);
	if (edges_of(old, &x.oe, &x.noe) != 0 || edges_of(nw, &x.ne, &x.nne) != 0) {
		cli_msg("refresh", "reading the keyrings' certifications failed");
		goto out;
	}
	if (walk(&x, 0, nchanged) != 0)
		goto fail;
	if (o != NULL) {
		x.o = o;
		/* the changed certificates only: each one is counted
		 * first, then printed over the same edge ranges */
		out_arr_open(o, "certificates");
		{
			size_t oi = 0, ni = 0, on = kr_count(old), nn = kr_count(nw);
			x.opos = x.npos = 0;
			while (oi < on && ni < nn) {
				pgp_fpr of, nf;
				int c;
				size_t sopos, snpos;
				if (kr_cert_fpr(old, oi, &of) != PGP_OK || kr_cert_fpr(nw, ni, &nf) != PGP_OK)
					goto fail;
				c = pgp_fpr_cmp(&of, &nf);
				if (c < 0) {
					oi++;
					continue;
				}
				if (c > 0) {
					ni++;
					continue;
				}
				sopos = x.opos;
				snpos = x.npos;
				int r = cert_changes(&x, NULL, oi, ni);
				if (r < 0)
					goto fail;
				if (r == 1) {
					x.opos = sopos;
					x.npos = snpos;
					if (cert_changes(&x, o, oi, ni) < 0)
						goto fail;
				}
				oi++;
				ni++;
			}
		}
		out_arr_close(o);
		out_arr_open(o, "added");
		if (walk(&x, 1, &n) != 0)
			goto fail;
		out_arr_close(o);
		out_arr_open(o, "not_in_source");
		for (i = 0; i < m->nmissing; i++) {
			char h[2 * PGP_FPR_MAX + 1];
			pgp_hex_encode(h, m->missing[i].v, m->missing[i].len);
			out_text(o, NULL, "%s", h);
		}
		out_arr_close(o);
	}
	rc = 0;
	goto out;
fail:
	cli_msg("refresh", "comparing the keyrings failed");
out:
	free(x.oe);
	free(x.ne);
	return rc;
}
