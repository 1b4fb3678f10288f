/*
 * write.c - packet framing (RFC 9580 §4.2.1) and certificate serialization
 * (RFC 9580 §10.1). see write.h
 */
#include <stdlib.h>
#include <string.h>
#include "write.h"

/* see write.h */
size_t
pgp_write_hdr_len(size_t len)
{
	if (len < 192)
		return 2;
	if (len < 8384)
		return 3;
	if (len > 0xFFFFFFFFu)
		return 0;
	return 6;
}

/*
 * RFC 9580 §4.2.1: CTB 0xC0 | tag, then
 *   len < 192:     one octet len
 *   len < 8384:    ((len - 192) >> 8) + 192, (len - 192) & 0xFF
 *   else:          0xFF, len as 4 octets big-endian
 */
/* see write.h */
pgp_err
pgp_write_hdr(pgp_buf *out, unsigned tag, size_t len)
{
	uint8_t h[PGP_WRITE_HDR_MAX];
	size_t n = pgp_write_hdr_len(len);

	if (tag == 0 || tag > 63)
		return PGP_ERR_INVALID;
	if (n == 0)
		return PGP_ERR_LIMIT;
	h[0] = (uint8_t)(0xC0u | tag);
	if (n == 2) {
		h[1] = (uint8_t)len;
	} else if (n == 3) {
		h[1] = (uint8_t)(((len - 192) >> 8) + 192);
		h[2] = (uint8_t)((len - 192) & 0xFF);
	} else {
		h[1] = 0xFF;
		pgp_put_be32(h + 2, (uint32_t)len);
	}
	return pgp_buf_append(out, h, n);
}

/* see write.h */
pgp_err
pgp_write_packet(pgp_buf *out, unsigned tag, const uint8_t *body, size_t len)
{
	size_t mark = out->len;
	pgp_err e;

	if (body == NULL && len > 0)
		return PGP_ERR_INVALID;
	if ((e = pgp_write_hdr(out, tag, len)) != PGP_OK)
		return e;
	if ((e = pgp_buf_append(out, body, len)) != PGP_OK)
		out->len = mark;
	return e;
}

/* see write.h */
pgp_err
pgp_write_pkt(pgp_buf *out, const pgp_pkt *pkt, unsigned flags)
{
	size_t mark = out->len;
	pgp_err e;

	if (pkt == NULL || (pkt->body.p == NULL && pkt->body.len > 0))
		return PGP_ERR_INVALID;
	if ((flags & PGP_WRITE_KEEP_FRAMING) && !pkt->partial &&
	    !pkt->indeterminate && pkt->hdr_len >= 2 &&
	    pkt->hdr_len <= PGP_WRITE_HDR_MAX && pkt->body.p != NULL) {
		/* a determinate body is a view directly after its header */
		if ((e = pgp_buf_append(out, pkt->body.p - pkt->hdr_len,
		    pkt->hdr_len)) == PGP_OK &&
		    (e = pgp_buf_append(out, pkt->body.p, pkt->body.len)) == PGP_OK)
			return PGP_OK;
		out->len = mark;
		return e;
	}
	return pgp_write_packet(out, pkt->tag, pkt->body.p, pkt->body.len);
}

/* ---- certificates ---- */

/* Original framing of one packet of cert->raw. */
typedef struct framing {
	const uint8_t *body;
	size_t len;
	const uint8_t *hdr;
	uint8_t hdr_len;
	uint8_t tag;
} framing;

typedef struct wctx {
	pgp_buf *out;
	const pgp_cert *c;
	const pgp_write_opts *o;
	pgp_write_stats st;
	framing *fr;       /* sorted by body address (input order) */
	size_t nfr;
} wctx;

/* One framing pass over cert->raw (KEEP_FRAMING only). */
static pgp_err
map_framing(wctx *w)
{
	pgp_rd r;
	pgp_pkt pkt;
	size_t n = 0, cap = 0;
	framing *f = NULL, *nf;

	pgp_rd_init(&r, w->c->raw.p, w->c->raw.len);
	if (w->c->raw.p == NULL)
		return PGP_OK;
	while (!pgp_rd_empty(&r)) {
		if (pgp_pkt_next(&r, &pkt, NULL) != PGP_OK)
			break;  /* the cert ended at a framing error: rest unknown */
		if (pkt.partial || pkt.indeterminate || pkt.hdr_len > PGP_WRITE_HDR_MAX) {
			pgp_pkt_release(&pkt);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 32;
			if (cap > SIZE_MAX / sizeof *f ||
			    (nf = realloc(f, cap * sizeof *f)) == NULL) {
				free(f);
				return PGP_ERR_NOMEM;
			}
			f = nf;
		}
		f[n].body = pkt.body.p;
		f[n].len = pkt.body.len;
		f[n].hdr = pkt.body.p - pkt.hdr_len;
		f[n].hdr_len = (uint8_t)pkt.hdr_len;
		f[n].tag = pkt.tag;
		n++;
	}
	w->fr = f;
	w->nfr = n;
	return PGP_OK;
}

/* The original framing of the body at p (len octets, tag), or NULL. */
static const framing *
find_framing(const wctx *w, unsigned tag, const uint8_t *p, size_t len)
{
	uintptr_t a = (uintptr_t)p;
	size_t lo = 0, hi = w->nfr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uintptr_t m = (uintptr_t)w->fr[mid].body;
		if (m == a) {
			const framing *f = &w->fr[mid];
			return f->len == len && f->tag == tag ? f : NULL;
		}
		if (m < a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

static pgp_err
emit(wctx *w, unsigned tag, pgp_view body)
{
	const framing *f;
	size_t mark = w->out->len;
	pgp_err e;

	if (w->fr != NULL && (f = find_framing(w, tag, body.p, body.len)) != NULL) {
		if ((e = pgp_buf_append(w->out, f->hdr, f->hdr_len)) == PGP_OK &&
		    (e = pgp_buf_append(w->out, body.p, body.len)) == PGP_OK) {
			w->st.kept_framing++;
			w->st.packets++;
			return PGP_OK;
		}
		w->out->len = mark;
		return e;
	}
	if ((e = pgp_write_packet(w->out, tag, body.p, body.len)) == PGP_OK)
		w->st.packets++;
	return e;
}

static pgp_err
ask(wctx *w, pgp_comp_kind kind, uint32_t index, int32_t sig, pgp_view body, int *keep)
{
	pgp_write_item it;

	*keep = 1;
	if (w->o == NULL || w->o->filter == NULL)
		return PGP_OK;
	it.cert = w->c;
	it.kind = kind;
	it.index = index;
	it.sig = sig;
	it.body = body;
	*keep = 0;
	return w->o->filter(w->o->ctx, &it, keep);
}

/* Signatures of one component; *nkept counts those written. */
static pgp_err
emit_sigs(wctx *w, pgp_comp_kind kind, uint32_t index, const pgp_rd *sigs,
    uint32_t n, uint32_t *nkept)
{
	uint32_t i;
	int keep;
	pgp_err e;

	for (i = 0; i < n; i++) {
		pgp_view v = pgp_rd_as_view(&sigs[i]);
		if ((e = ask(w, kind, index, (int32_t)i, v, &keep)) != PGP_OK)
			return e;
		if (!keep) {
			w->st.sigs_dropped++;
			continue;
		}
		if ((e = emit(w, PGP_TAG_SIGNATURE, v)) != PGP_OK)
			return e;
		w->st.sigs_kept++;
		if (nkept)
			(*nkept)++;
	}
	return PGP_OK;
}

/* Order of signature bodies: by length, then by content. */
static int
view_cmp(const void *a, const void *b)
{
	const pgp_view *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->len == 0 ? 0 : memcmp(x->p, y->p, x->len);
}

/*
 * The loose revocations, except those byte-identical to one of the
 * primary key's own signatures (sorted lookup: a keyring may hold many of
 * both, and a pairwise comparison would be quadratic).
 */
static pgp_err
emit_loose(wctx *w)
{
	const pgp_cert *c = w->c;
	pgp_view *sorted = NULL;
	uint32_t i;
	int keep;
	pgp_err e = PGP_OK;

	if (c->nloose == 0)
		return PGP_OK;
	if (c->ndsigs > 0) {
		if ((sorted = calloc(c->ndsigs, sizeof *sorted)) == NULL)
			return PGP_ERR_NOMEM;
		for (i = 0; i < c->ndsigs; i++)
			sorted[i] = pgp_rd_as_view(&c->dsigs[i]);
		qsort(sorted, c->ndsigs, sizeof *sorted, view_cmp);
	}
	for (i = 0; i < c->nloose; i++) {
		pgp_view v = pgp_rd_as_view(&c->loose[i]);
		if (sorted != NULL &&
		    bsearch(&v, sorted, c->ndsigs, sizeof *sorted, view_cmp) != NULL) {
			w->st.loose_dups++;
			continue;
		}
		if ((e = ask(w, PGP_COMP_LOOSE, i, (int32_t)i, v, &keep)) != PGP_OK)
			break;
		if (!keep) {
			w->st.sigs_dropped++;
			continue;
		}
		if ((e = emit(w, PGP_TAG_SIGNATURE, v)) != PGP_OK)
			break;
		w->st.sigs_kept++;
	}
	free(sorted);
	return e;
}

/*
 * The body to write for a key and its tag: a public key as stored; a secret
 * key's public part (RFC 9580 §5.5.3 starts with the §5.5.2 public fields)
 * when allowed and its end is known.
 */
static pgp_err
key_body(const wctx *w, const pgp_key *k, unsigned *tag, pgp_view *body)
{
	*tag = k->is_subkey ? PGP_TAG_PUBLIC_SUBKEY : PGP_TAG_PUBLIC_KEY;
	*body = k->body;
	if (!k->is_secret)
		return PGP_OK;
	if (w->o == NULL || !(w->o->flags & PGP_WRITE_SECRET_AS_PUBLIC))
		return PGP_ERR_UNSUPPORTED;
	/* v3/v4 with an unknown algorithm: the opaque material ran to the end
	 * of the packet, secret part included. v5/v6 carry a material length. */
	if (k->opaque && k->version < 5)
		return PGP_ERR_UNSUPPORTED;
	return PGP_OK;
}

/* A user ID / attribute or subkey with its signatures. */
static pgp_err
emit_comp(wctx *w, pgp_comp_kind kind, uint32_t index, unsigned tag,
    pgp_view body, const pgp_rd *sigs, uint32_t nsigs)
{
	size_t mark = w->out->len;
	pgp_write_stats before = w->st;
	uint32_t nkept = 0;
	int keep;
	pgp_err e;

	if ((e = ask(w, kind, index, -1, body, &keep)) != PGP_OK)
		return e;
	if (!keep) {
		w->st.comps_dropped++;
		w->st.sigs_dropped += nsigs;
		return PGP_OK;
	}
	if ((e = emit(w, tag, body)) != PGP_OK)
		return e;
	if ((e = emit_sigs(w, kind, index, sigs, nsigs, &nkept)) != PGP_OK)
		return e;
	if (nkept == 0 && w->o != NULL && (w->o->flags & PGP_WRITE_DROP_BARE)) {
		w->out->len = mark;
		w->st = before;
		w->st.comps_dropped++;
		w->st.sigs_dropped += nsigs;
	}
	return PGP_OK;
}

static pgp_err
write_cert(wctx *w)
{
	const pgp_cert *c = w->c;
	unsigned tag;
	pgp_view body;
	uint32_t i;
	pgp_err e;

	/* §10.1.1: the primary key, then its own signatures */
	if ((e = key_body(w, &c->primary, &tag, &body)) != PGP_OK)
		return e;
	if ((e = emit(w, tag, body)) != PGP_OK)
		return e;
	if ((e = emit_sigs(w, PGP_COMP_PRIMARY, 0, c->dsigs, c->ndsigs, NULL)) != PGP_OK)
		return e;
	if ((e = emit_loose(w)) != PGP_OK)
		return e;
	/* user IDs and user attributes, each followed by its certifications */
	for (i = 0; i < c->nuids; i++) {
		const pgp_uidc *u = &c->uids[i];
		if ((e = emit_comp(w, u->is_attr ? PGP_COMP_ATTR : PGP_COMP_UID, i,
		    u->is_attr ? PGP_TAG_USER_ATTRIBUTE : PGP_TAG_USER_ID,
		    u->data, u->sigs, u->nsigs)) != PGP_OK)
			return e;
	}
	/* subkeys, each followed by its binding and revocation signatures */
	for (i = 0; i < c->nsubs; i++) {
		const pgp_subc *s = &c->subs[i];
		if ((e = key_body(w, &s->key, &tag, &body)) != PGP_OK)
			return e;
		if ((e = emit_comp(w, PGP_COMP_SUBKEY, i, tag, body, s->sigs,
		    s->nsigs)) != PGP_OK)
			return e;
	}
	return PGP_OK;
}

/* see write.h */
pgp_err
pgp_cert_write(pgp_buf *out, const pgp_cert *c, const pgp_write_opts *opts,
    pgp_write_stats *stats)
{
	wctx w;
	size_t mark;
	pgp_err e;

	if (out == NULL || c == NULL)
		return PGP_ERR_INVALID;
	memset(&w, 0, sizeof w);
	w.out = out;
	w.c = c;
	w.o = opts;
	mark = out->len;
	if (opts != NULL && (opts->flags & PGP_WRITE_KEEP_FRAMING) &&
	    (e = map_framing(&w)) != PGP_OK)
		return e;
	e = write_cert(&w);
	free(w.fr);
	if (e != PGP_OK) {
		out->len = mark;
		return e;
	}
	if (stats)
		*stats = w.st;
	return PGP_OK;
}
