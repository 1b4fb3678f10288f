/*
 * kr_write.c - a strip result into the keyring file layout of
 * docs/keyring-format.md. Deterministic: every array is sorted by a total
 * order before it is written, nothing depends on memory addresses or time
 * (unless kr_meta.built_at is given). see kr.h
 */
#include <stdlib.h>
#include <string.h>
#include "kr_int.h"

typedef struct fpr_rec {
	pgp_fpr fpr;
	uint32_t cert;
} fpr_rec;

typedef struct id_rec {        /* key ID or e-mail hash -> certificate */
	uint8_t k[8];
	uint32_t cert;
} id_rec;

typedef struct sect {
	uint32_t id;
	uint32_t recsize;
	uint32_t count;
	uint64_t off, len;
} sect;

typedef struct cinfo {         /* what the certificate table needs */
	pgp_fpr fpr;
	uint8_t version, algo;
	uint32_t nuids, nsubs;
} cinfo;

typedef struct wctx {
	const kr_strip_result *r;
	cinfo *ci;                 /* per stored certificate, parsed again */
	fpr_rec *fprs;
	size_t nfprs;
	id_rec *ids, *emails;
	size_t nids, nemails;
	uint8_t (*tags)[KR_REC_TAG];
	size_t ntags;
	uint64_t nuids, nsubs, nsigs, ncertifications;
} wctx;

static int
fpr_rec_cmp(const void *a, const void *b)
{
	const fpr_rec *x = a, *y = b;
	int c = pgp_fpr_cmp(&x->fpr, &y->fpr);
	if (c)
		return c;
	return x->cert < y->cert ? -1 : x->cert > y->cert;
}

static int
id_rec_cmp(const void *a, const void *b)
{
	const id_rec *x = a, *y = b;
	int c = memcmp(x->k, y->k, 8);
	if (c)
		return c;
	return x->cert < y->cert ? -1 : x->cert > y->cert;
}

static int
tag_cmp(const void *a, const void *b)
{
	return memcmp(a, b, KR_REC_TAG);
}

/* Sort and drop duplicates; returns the new count. */
static size_t
sort_unique(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	uint8_t *p = base;
	size_t i, m = 0;
	if (n == 0)
		return 0;
	qsort(base, n, size, cmp);
	for (i = 1; i < n; i++)
		if (cmp(p + m * size, p + i * size) != 0 && ++m != i)
			memcpy(p + m * size, p + i * size, size);
	return m + 1;
}

static void
wctx_free(wctx *w)
{
	free(w->ci);
	free(w->fprs);
	free(w->ids);
	free(w->emails);
	free(w->tags);
}

static pgp_err
grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t nc;
	void *np;
	if (need <= *cap)
		return PGP_OK;
	nc = *cap ? *cap : 256;
	while (nc < need)
		nc *= 2;
	if (nc > KR_MAX_INDEX)
		return PGP_ERR_LIMIT;
	if ((np = realloc(*p, nc * elem)) == NULL)
		return PGP_ERR_NOMEM;
	*p = np;
	*cap = nc;
	return PGP_OK;
}

/* One stored certificate parsed again (alone, so memory stays that of one
 * certificate): its index entries and table counts. */
static pgp_err
collect_one(wctx *w, size_t i, const pgp_fpr *prev, size_t *cap_f, size_t *cap_i,
    size_t *cap_e)
{
	const kr_scert *sc = &w->r->certs[i];
	pgp_certset *set = NULL;
	const pgp_cert *c;
	size_t j;
	pgp_err e;
	if (sc->len > KR_MAX_CERT_LEN)
		return PGP_ERR_LIMIT;
	if ((e = pgp_certset_new(&set)) != PGP_OK)
		return e;
	if ((e = pgp_certset_add(set, sc->bin, sc->len, NULL)) != PGP_OK) {
		e = e == PGP_ERR_NOMEM ? e : e == PGP_ERR_LIMIT ? e : PGP_ERR_INVALID;
		goto out;
	}
	/* exactly one certificate, in fingerprint order after the previous one */
	if (pgp_certset_count(set) != 1 || pgp_certset_refused(set) != 0 ||
	    pgp_certset_copies(set) != 1) {
		e = pgp_certset_refused(set) ? PGP_ERR_LIMIT : PGP_ERR_INVALID;
		goto out;
	}
	c = pgp_certset_get(set, 0);
	if (prev && pgp_fpr_cmp(prev, &c->primary.fpr) >= 0) {
		e = PGP_ERR_INVALID;
		goto out;
	}
	w->ci[i].fpr = c->primary.fpr;
	w->ci[i].version = c->primary.version;
	w->ci[i].algo = c->primary.algo;
	w->ci[i].nuids = c->nuids;
	w->ci[i].nsubs = c->nsubs;
	w->nuids += c->nuids;
	w->nsubs += c->nsubs;
	w->nsigs += sc->kept_sigs;
	w->ncertifications += sc->kept_certifications;
	if ((e = grow((void **)&w->fprs, cap_f, w->nfprs + 1 + c->nsubs, sizeof *w->fprs)) != PGP_OK ||
	    (e = grow((void **)&w->ids, cap_i, w->nids + 1 + c->nsubs, sizeof *w->ids)) != PGP_OK)
		goto out;
	for (j = 0; j <= c->nsubs; j++) {
		const pgp_key *k = j == 0 ? &c->primary : &c->subs[j - 1].key;
		w->fprs[w->nfprs].fpr = k->fpr;
		w->fprs[w->nfprs++].cert = (uint32_t)i;
		memcpy(w->ids[w->nids].k, k->keyid, 8);
		w->ids[w->nids++].cert = (uint32_t)i;
	}
	for (j = 0; j < c->nuids; j++) {
		pgp_view addr;
		if (c->uids[j].is_attr || !pgp_uid_email(c->uids[j].data, &addr))
			continue;
		if ((e = grow((void **)&w->emails, cap_e, w->nemails + 1, sizeof *w->emails)) != PGP_OK ||
		    (e = kr__email_hash(w->emails[w->nemails].k, addr.p, addr.len)) != PGP_OK)
			goto out;
		w->emails[w->nemails++].cert = (uint32_t)i;
	}
out:
	pgp_certset_free(set);
	return e;
}

/* Parse every stored certificate again and collect the index entries. */
static pgp_err
collect(wctx *w)
{
	const kr_strip_result *r = w->r;
	size_t i, cap_f = 0, cap_i = 0, cap_e = 0;
	pgp_err e;

	if (r->ncerts > KR_MAX_CERTS || r->nedges > KR_MAX_EDGES || r->ntags > KR_MAX_TAGS)
		return PGP_ERR_LIMIT;
	if ((w->ci = calloc(r->ncerts + 1, sizeof *w->ci)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < r->ncerts; i++)
		if ((e = collect_one(w, i, i ? &w->ci[i - 1].fpr : NULL, &cap_f, &cap_i,
		    &cap_e)) != PGP_OK)
			return e;
	w->nfprs = sort_unique(w->fprs, w->nfprs, sizeof *w->fprs, fpr_rec_cmp);
	w->nids = sort_unique(w->ids, w->nids, sizeof *w->ids, id_rec_cmp);
	w->nemails = sort_unique(w->emails, w->nemails, sizeof *w->emails, id_rec_cmp);
	for (i = 0; i < r->nedges; i++)
		if (r->edges[i].issuer >= r->ncerts || r->edges[i].target >= r->ncerts)
			return PGP_ERR_INVALID;
	if (r->ntags) {
		if ((w->tags = malloc(r->ntags * sizeof *w->tags)) == NULL)
			return PGP_ERR_NOMEM;
		memcpy(w->tags, r->tags, r->ntags * sizeof *w->tags);
	}
	w->ntags = sort_unique(w->tags, r->ntags, sizeof *w->tags, tag_cmp);
	return PGP_OK;
}

static uint64_t
fixed_len(uint64_t count, uint32_t recsize)
{
	uint64_t nblocks = (count + KR_BLOCK_RECS - 1) / KR_BLOCK_RECS;
	return nblocks * 4 + count * recsize;
}

/* Statistics section (docs/keyring-format.md, "Statistics"). */
static pgp_err
stats_len(const wctx *w, uint64_t *len)
{
	const kr_strip_result *r = w->r;
	uint64_t n = 128 + 4;
	size_t i;
	if (r->nnotes > KR_MAX_NOTES)
		return PGP_ERR_LIMIT;
	for (i = 0; i < KR_DROP__N; i++)
		n += 1 + strlen(kr_drop_name((kr_drop)i)) + 8;
	n += 4;
	for (i = 0; i < r->nnotes; i++)
		n += 2 + (strlen(r->notes[i]) > 0xFFFF ? 0xFFFF : strlen(r->notes[i]));
	if (n > KR_MAX_STATS_LEN)
		return PGP_ERR_LIMIT;
	*len = n;
	return PGP_OK;
}

static void
write_stats(const wctx *w, const kr_meta *m, uint8_t *p)
{
	const kr_strip_result *r = w->r;
	size_t i, o;
	memset(p, 0, 128);
	kr__put32(p, KR_STATS_VERSION);
	kr__put64(p + 4, m && m->built_at > 0 ? (uint64_t)m->built_at : 0);
	if (m && m->root && m->root->len <= PGP_FPR_MAX) {
		p[12] = m->root->len;
		memcpy(p + 13, m->root->v, m->root->len);
	}
	kr__put64(p + 48, r->ncerts);
	kr__put64(p + 56, w->nuids);
	kr__put64(p + 64, w->nsubs);
	kr__put64(p + 72, w->nsigs);
	kr__put64(p + 80, w->ncertifications);
	kr__put64(p + 88, r->nedges);
	kr__put64(p + 96, w->ntags);
	o = 128;
	kr__put32(p + o, KR_DROP__N);
	o += 4;
	for (i = 0; i < KR_DROP__N; i++) {
		const char *name = kr_drop_name((kr_drop)i);
		size_t l = strlen(name);
		p[o++] = (uint8_t)l;
		memcpy(p + o, name, l);
		o += l;
		kr__put64(p + o, r->drops[i]);
		o += 8;
	}
	kr__put32(p + o, (uint32_t)r->nnotes);
	o += 4;
	for (i = 0; i < r->nnotes; i++) {
		size_t l = strlen(r->notes[i]);
		if (l > 0xFFFF)
			l = 0xFFFF;
		kr__put16(p + o, (uint16_t)l);
		memcpy(p + o + 2, r->notes[i], l);
		o += 2 + l;
	}
}

/* Records of section s, record i, into rec (recsize octets). */
static void
fill_rec(const wctx *w, uint32_t s, size_t i, uint64_t *data_off, uint8_t *rec)
{
	const kr_strip_result *r = w->r;
	memset(rec, 0, (size_t)kr__rec_size(s));
	switch (s) {
	case KR_S_CERTS: {
		const kr_scert *sc = &r->certs[i];
		const cinfo *c = &w->ci[i];
		uint32_t dropped = 0;
		size_t d;
		for (d = 0; d < KR_DROP__N; d++)
			dropped += sc->drops[d];
		kr__put64(rec, *data_off);
		kr__put32(rec + 8, (uint32_t)sc->len);
		kr__put32(rec + 12, kr__crc(0, sc->bin, sc->len));
		rec[16] = c->fpr.len;
		rec[17] = c->version;
		rec[18] = c->algo;
		memcpy(rec + 20, c->fpr.v, c->fpr.len);
		kr__put32(rec + 52, c->nuids);
		kr__put32(rec + 56, c->nsubs);
		kr__put32(rec + 60, sc->kept_sigs);
		kr__put32(rec + 64, sc->kept_certifications);
		kr__put32(rec + 68, dropped);
		*data_off += sc->len;
		break;
	}
	case KR_S_FPR:
		rec[0] = w->fprs[i].fpr.len;
		memcpy(rec + 4, w->fprs[i].fpr.v, w->fprs[i].fpr.len);
		kr__put32(rec + 36, w->fprs[i].cert);
		break;
	case KR_S_KEYID:
		memcpy(rec, w->ids[i].k, 8);
		kr__put32(rec + 8, w->ids[i].cert);
		break;
	case KR_S_EMAIL:
		memcpy(rec, w->emails[i].k, 8);
		kr__put32(rec + 8, w->emails[i].cert);
		break;
	case KR_S_EDGES: {
		const kr_edge *g = &r->edges[i];
		kr__put32(rec, g->issuer);
		kr__put32(rec + 4, g->target);
		kr__put32(rec + 8, g->uid);
		kr__put32(rec + 12, (uint32_t)g->issuer_key);
		rec[16] = g->sigtype;
		rec[17] = g->hash_algo;
		rec[18] = g->pk_algo;
		rec[19] = g->trust_depth;
		rec[20] = g->trust_amount;
		rec[21] = g->has_regex;
		kr__put64(rec + 24, (uint64_t)g->created);
		kr__put64(rec + 32, (uint64_t)g->expires);
		break;
	}
	case KR_S_TAGS:
		memcpy(rec, w->tags[i], KR_REC_TAG);
		break;
	default:
		break;
	}
}

/* A fixed-record section: block checksums, then the records. */
static void
write_fixed(const wctx *w, const sect *s, uint8_t *p)
{
	uint64_t nblocks = (s->count + KR_BLOCK_RECS - 1) / KR_BLOCK_RECS, b;
	uint8_t *recs = p + nblocks * 4;
	uint64_t data_off = 0;
	size_t i;
	for (i = 0; i < s->count; i++)
		fill_rec(w, s->id, i, &data_off, recs + i * s->recsize);
	for (b = 0; b < nblocks; b++) {
		uint64_t first = b * KR_BLOCK_RECS;
		uint64_t n = s->count - first < KR_BLOCK_RECS ? s->count - first : KR_BLOCK_RECS;
		kr__put32(p + b * 4, kr__crc(0, recs + first * s->recsize, (size_t)(n * s->recsize)));
	}
}

/* see kr.h */
pgp_err
kr_serialize_to(const kr_strip_result *r, const kr_meta *m, kr_sink sink, void *ctx)
{
	wctx w;
	sect ss[KR_S__N - 1];
	const size_t ns = KR_S__N - 1;
	uint64_t off, total, data_len = 0, head_len;
	size_t i;
	uint8_t *p = NULL;
	pgp_err e;

	memset(&w, 0, sizeof w);
	w.r = r;
	if ((e = collect(&w)) != PGP_OK)
		goto out;
	for (i = 0; i < r->ncerts; i++)
		data_len += r->certs[i].len;
	/* layout: header, section table, then sections in identifier order;
	 * the certificate data comes last, so everything before it (the
	 * "head") is built in memory and the certificates are streamed */
	for (i = 0; i < ns; i++) {
		ss[i].id = (uint32_t)(i + 1);
		ss[i].recsize = (uint32_t)kr__rec_size(ss[i].id);
	}
	ss[KR_S_CERTS - 1].count = (uint32_t)r->ncerts;
	ss[KR_S_FPR - 1].count = (uint32_t)w.nfprs;
	ss[KR_S_KEYID - 1].count = (uint32_t)w.nids;
	ss[KR_S_EMAIL - 1].count = (uint32_t)w.nemails;
	ss[KR_S_EDGES - 1].count = (uint32_t)r->nedges;
	ss[KR_S_TAGS - 1].count = (uint32_t)w.ntags;
	ss[KR_S_STATS - 1].count = 0;
	ss[KR_S_DATA - 1].count = (uint32_t)r->ncerts;
	off = KR_HDR_LEN + (uint64_t)ns * KR_SECT_LEN;
	for (i = 0; i < ns; i++) {
		if (ss[i].id == KR_S_STATS) {
			if ((e = stats_len(&w, &ss[i].len)) != PGP_OK)
				goto out;
		} else if (ss[i].id == KR_S_DATA) {
			ss[i].len = data_len;
		} else {
			ss[i].len = fixed_len(ss[i].count, ss[i].recsize);
		}
		ss[i].off = off;
		off += ss[i].len;
	}
	total = off;
	head_len = ss[KR_S_DATA - 1].off;
	if (total > KR_MAX_FILE || (uint64_t)(size_t)head_len != head_len) {
		e = PGP_ERR_LIMIT;
		goto out;
	}
	if ((p = calloc((size_t)head_len, 1)) == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	memcpy(p, KR_MAGIC, KR_MAGIC_LEN);
	kr__put16(p + 8, KR_VERSION_MAJOR);
	kr__put16(p + 10, KR_VERSION_MINOR);
	kr__put32(p + 12, (uint32_t)(KR_HDR_LEN + ns * KR_SECT_LEN));
	kr__put64(p + 16, total);
	kr__put32(p + 24, (uint32_t)ns);
	kr__put32(p + 28, KR_BLOCK_RECS);
	for (i = 0; i < ns; i++) {
		uint8_t *t = p + KR_HDR_LEN + i * KR_SECT_LEN;
		kr__put32(t, ss[i].id);
		kr__put32(t + 4, ss[i].recsize);
		kr__put64(t + 8, ss[i].off);
		kr__put64(t + 16, ss[i].len);
		kr__put32(t + 24, ss[i].count);
		kr__put32(t + 28, 0);
		if (ss[i].id == KR_S_STATS) {
			uint8_t *sp = p + ss[i].off;
			write_stats(&w, m, sp);
			kr__put32(t + 28, kr__crc(0, sp, (size_t)ss[i].len));
		} else if (ss[i].id != KR_S_DATA) {
			write_fixed(&w, &ss[i], p + ss[i].off);
		}
	}
	/* header checksum: octets 0..59 and the section table */
	kr__put32(p + KR_HDR_CRC_OFF, kr__crc(kr__crc(0, p, KR_HDR_CRC_OFF),
	    p + KR_HDR_LEN, ns * KR_SECT_LEN));
	if ((e = sink(ctx, p, (size_t)head_len)) != PGP_OK)
		goto out;
	for (i = 0; i < r->ncerts; i++)
		if (r->certs[i].len && (e = sink(ctx, r->certs[i].bin, r->certs[i].len)) != PGP_OK)
			goto out;
out:
	free(p);
	wctx_free(&w);
	return e;
}

static pgp_err
buf_sink(void *ctx, const uint8_t *p, size_t n)
{
	return pgp_buf_append(ctx, p, n);
}

/* see kr.h */
pgp_err
kr_serialize(const kr_strip_result *r, const kr_meta *m, pgp_buf *out)
{
	size_t start = out->len;
	pgp_err e = kr_serialize_to(r, m, buf_sink, out);
	if (e != PGP_OK)
		out->len = start;
	return e;
}
