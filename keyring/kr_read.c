/*
 * kr_read.c - opening a keyring file (docs/keyring-format.md) and looking
 * certificates up in it. Every access goes through a bounded reader over a
 * section whose offset and length were checked at open time; a record is
 * read only after the checksum of its block was checked, and a certificate
 * only after its own checksum was. see kr.h
 */
#include <stdlib.h>
#include <string.h>
#include "kr_int.h"

typedef struct ksect {
	const uint8_t *p;          /* NULL: absent */
	uint64_t off, len;
	uint32_t count, recsize, crc;
	uint64_t nblocks;
	uint64_t bit0;             /* first bit of its blocks in kr_keyring.checked */
} ksect;

typedef struct kcert {
	pgp_certset *set;          /* holds only this certificate */
	const pgp_cert *cert;
} kcert;

struct kr_keyring {
	const uint8_t *p;
	size_t len;
	ksect s[KR_S__N];
	uint8_t *checked;          /* one bit per index block: checksum verified */
	kcert *certs;              /* built on demand, kr_count() entries */
	uint32_t *made;            /* indexes of the certificates built so far */
	size_t nmade, capmade;
	pgp_diag last;
	pgp_sigmemo memo;
};

/* Static texts for diagnostics, by section identifier. */
static const char *const msg_block[KR_S__N] = {
	NULL,
	"keyring certificate table: block checksum mismatch",
	"keyring fingerprint index: block checksum mismatch",
	"keyring key ID index: block checksum mismatch",
	"keyring e-mail index: block checksum mismatch",
	"keyring certification edges: block checksum mismatch",
	"keyring memo tags: block checksum mismatch",
	NULL,
	NULL
};

static const char *const msg_size[KR_S__N] = {
	NULL,
	"keyring certificate table: size does not match its count",
	"keyring fingerprint index: size does not match its count",
	"keyring key ID index: size does not match its count",
	"keyring e-mail index: size does not match its count",
	"keyring certification edges: size does not match its count",
	"keyring memo tags: size does not match its count",
	"keyring statistics: too large",
	"keyring certificate data: count does not match the certificate table"
};

static const char *const msg_entry[KR_S__N] = {
	NULL,
	NULL,
	"keyring fingerprint index: entry names a certificate without that key",
	"keyring key ID index: entry names a certificate without that key",
	NULL,
	"keyring certification edges: edge names a certificate out of range",
	NULL,
	NULL,
	NULL
};

static pgp_err
fail(pgp_diag *d, pgp_err e, uint64_t off, const char *what)
{
	if (d) {
		d->offset = (size_t)off;
		d->tag = -1;
		d->what = what;
	}
	return e;
}

/* Where failures of lookups on k are described (kr_last_error). */
#define KLAST(k) (&((kr_keyring *)(k))->last)

static pgp_err
kfail(const kr_keyring *k, pgp_err e, uint64_t off, const char *what)
{
	/* the diagnostic is a cache of the keyring object, like its blocks */
	return fail(&((kr_keyring *)k)->last, e, off, what);
}

static pgp_err
rd_u64(pgp_rd *r, uint64_t *out)
{
	uint32_t hi, lo;
	pgp_rd save = *r;
	if (pgp_rd_be32(r, &hi) != PGP_OK || pgp_rd_be32(r, &lo) != PGP_OK) {
		*r = save;
		return PGP_ERR_TRUNCATED;
	}
	*out = ((uint64_t)hi << 32) | lo;
	return PGP_OK;
}

/* see kr.h */
int
kr_is_keyring(const uint8_t *p, size_t len)
{
	return len >= KR_MAGIC_LEN && memcmp(p, KR_MAGIC, KR_MAGIC_LEN) == 0;
}

/* see kr.h */
const pgp_diag *
kr_last_error(const kr_keyring *k)
{
	return &k->last;
}

/* One section table entry (docs/keyring-format.md, "Section table"). */
static pgp_err
read_sect(kr_keyring *k, pgp_rd *t, uint64_t *expect_off, uint64_t filelen, pgp_diag *d)
{
	uint32_t id, recsize, count, crc;
	uint64_t off, len;
	size_t at = t->off;
	ksect *s;
	int rs;
	if (pgp_rd_be32(t, &id) != PGP_OK || pgp_rd_be32(t, &recsize) != PGP_OK ||
	    rd_u64(t, &off) != PGP_OK || rd_u64(t, &len) != PGP_OK ||
	    pgp_rd_be32(t, &count) != PGP_OK || pgp_rd_be32(t, &crc) != PGP_OK)
		return fail(d, PGP_ERR_TRUNCATED, at, "keyring section table truncated");
	/* sections tile the file after the table, in table order */
	if (off != *expect_off)
		return fail(d, PGP_ERR_MALFORMED, at, "keyring section does not start where the previous one ends");
	if (len > filelen - off)
		return fail(d, PGP_ERR_MALFORMED, at, "keyring section extends past the end of the file");
	*expect_off = off + len;
	rs = kr__rec_size(id);
	if (rs < 0)
		return PGP_OK;  /* a section of a later minor version: skipped */
	s = &k->s[id];
	if (s->p != NULL)
		return fail(d, PGP_ERR_MALFORMED, at, "keyring section appears twice");
	if (recsize != (uint32_t)rs)
		return fail(d, PGP_ERR_MALFORMED, at, "keyring section has the wrong record size");
	if (rs > 0) {
		uint64_t nblocks = ((uint64_t)count + KR_BLOCK_RECS - 1) / KR_BLOCK_RECS;
		uint32_t lim = id == KR_S_CERTS ? KR_MAX_CERTS : id == KR_S_EDGES ? KR_MAX_EDGES :
		    id == KR_S_TAGS ? KR_MAX_TAGS : KR_MAX_INDEX;
		if (count > lim)
			return fail(d, PGP_ERR_LIMIT, at, "keyring section has too many records");
		/* count <= 2^28, recsize <= 72: no overflow */
		if (len != nblocks * 4 + (uint64_t)count * (uint32_t)rs)
			return fail(d, PGP_ERR_MALFORMED, at, msg_size[id]);
		s->nblocks = nblocks;
	} else if (id == KR_S_STATS && len > KR_MAX_STATS_LEN) {
		return fail(d, PGP_ERR_LIMIT, at, msg_size[id]);
	}
	s->p = k->p + off;
	s->off = off;
	s->len = len;
	s->count = count;
	s->recsize = recsize;
	s->crc = crc;
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_open(kr_keyring **out, const uint8_t *p, size_t len, pgp_diag *diag)
{
	kr_keyring *k = NULL;
	pgp_rd r, t;
	uint16_t major, minor;
	uint32_t hdrlen, nsect, brecs, crc, i;
	uint64_t filelen, expect, bits = 0;
	pgp_err e;

	*out = NULL;
	pgp_rd_init(&r, p, len);
	if (!kr_is_keyring(p, len))
		return fail(diag, len < KR_MAGIC_LEN ? PGP_ERR_TRUNCATED : PGP_ERR_MALFORMED, 0,
		    "not a wotkit keyring (magic)");
	if (len < KR_HDR_LEN)
		return fail(diag, PGP_ERR_TRUNCATED, len, "keyring header truncated");
	(void)pgp_rd_skip(&r, KR_MAGIC_LEN);
	(void)pgp_rd_be16(&r, &major);
	(void)pgp_rd_be16(&r, &minor);
	(void)pgp_rd_be32(&r, &hdrlen);
	(void)rd_u64(&r, &filelen);
	(void)pgp_rd_be32(&r, &nsect);
	(void)pgp_rd_be32(&r, &brecs);
	if (major != KR_VERSION_MAJOR)
		return fail(diag, PGP_ERR_UNSUPPORTED, 8, "keyring format version not supported");
	if (nsect > KR_MAX_SECTIONS || hdrlen != KR_HDR_LEN + nsect * KR_SECT_LEN)
		return fail(diag, PGP_ERR_MALFORMED, 12, "keyring header: bad section count");
	if (hdrlen > len)
		return fail(diag, PGP_ERR_TRUNCATED, len, "keyring section table truncated");
	crc = pgp_be32(p + KR_HDR_CRC_OFF);
	if (crc != kr__crc(kr__crc(0, p, KR_HDR_CRC_OFF), p + KR_HDR_LEN, hdrlen - KR_HDR_LEN))
		return fail(diag, PGP_ERR_MALFORMED, KR_HDR_CRC_OFF, "keyring header checksum mismatch");
	if (filelen > len)
		return fail(diag, PGP_ERR_TRUNCATED, len, "keyring file truncated (shorter than its header says)");
	if (filelen < len)
		return fail(diag, PGP_ERR_MALFORMED, filelen, "keyring file has data after its end");
	if (brecs != KR_BLOCK_RECS)
		return fail(diag, PGP_ERR_UNSUPPORTED, 28, "keyring checksum block size not supported");
	if ((k = calloc(1, sizeof *k)) == NULL)
		return fail(diag, PGP_ERR_NOMEM, 0, "out of memory");
	k->p = p;
	k->len = len;
	pgp_rd_init(&t, p + KR_HDR_LEN, hdrlen - KR_HDR_LEN);
	t.off = KR_HDR_LEN;
	expect = hdrlen;
	for (i = 0; i < nsect; i++)
		if ((e = read_sect(k, &t, &expect, filelen, diag)) != PGP_OK)
			goto bad;
	if (expect != filelen) {
		e = fail(diag, PGP_ERR_MALFORMED, expect, "keyring sections do not cover the file");
		goto bad;
	}
	for (i = 1; i < KR_S__N; i++) {
		if (k->s[i].p == NULL) {
			e = fail(diag, PGP_ERR_MALFORMED, KR_HDR_LEN, "keyring lacks a required section");
			goto bad;
		}
		k->s[i].bit0 = bits;
		bits += k->s[i].nblocks;
	}
	if (k->s[KR_S_DATA].count != k->s[KR_S_CERTS].count) {
		e = fail(diag, PGP_ERR_MALFORMED, k->s[KR_S_DATA].off, msg_size[KR_S_DATA]);
		goto bad;
	}
	k->checked = calloc((size_t)(bits / 8 + 1), 1);
	k->certs = calloc(k->s[KR_S_CERTS].count + 1u, sizeof *k->certs);
	if (k->checked == NULL || k->certs == NULL) {
		e = fail(diag, PGP_ERR_NOMEM, 0, "out of memory");
		goto bad;
	}
	k->last.tag = -1;
	*out = k;
	return PGP_OK;
bad:
	kr_close(k);
	return e;
}

/* see kr.h */
void
kr_close(kr_keyring *k)
{
	size_t i;
	if (k == NULL)
		return;
	/* only what was built: closing costs what was used, not the file size */
	for (i = 0; i < k->nmade; i++)
		pgp_certset_free(k->certs[k->made[i]].set);
	free(k->made);
	free(k->certs);
	free(k->checked);
	free(k);
}

/* see kr.h */
size_t
kr_count(const kr_keyring *k)
{
	return k->s[KR_S_CERTS].count;
}

/* see kr.h */
size_t
kr_nedges(const kr_keyring *k)
{
	return k->s[KR_S_EDGES].count;
}

/* see kr.h */
size_t
kr_ntags(const kr_keyring *k)
{
	return k->s[KR_S_TAGS].count;
}

/*
 * Record i of fixed-record section id as a reader of recsize octets, after
 * the checksum of its block was checked (once per keyring). A failure is
 * described in d (NULL: nowhere).
 */
static pgp_err
rec(const kr_keyring *ck, uint32_t id, uint64_t i, pgp_rd *out, pgp_diag *d)
{
	kr_keyring *k = (kr_keyring *)ck;  /* the checked-block cache only */
	const ksect *s = &k->s[id];
	uint64_t b, bit, first, n;
	pgp_rd r, crcs, recs, tmp, blk;
	uint32_t want;
	if (i >= s->count)
		return fail(d, PGP_ERR_MALFORMED, s->off, msg_size[id]);
	b = i / KR_BLOCK_RECS;
	bit = s->bit0 + b;
	pgp_rd_init(&r, s->p, (size_t)s->len);
	r.off = (size_t)s->off;
	if (pgp_rd_sub(&r, (size_t)(s->nblocks * 4), &crcs) != PGP_OK)
		return fail(d, PGP_ERR_TRUNCATED, s->off, msg_size[id]);
	recs = r;
	first = b * KR_BLOCK_RECS;
	/* the checked-block bits are atomic: the memo may be asked from
	 * several threads (pgp/sigmemo.h); a block checked twice is harmless */
	if (!(__atomic_load_n(&k->checked[bit / 8], __ATOMIC_RELAXED) & (1u << (bit % 8)))) {
		n = s->count - first < KR_BLOCK_RECS ? s->count - first : KR_BLOCK_RECS;
		if (pgp_rd_skip(&crcs, (size_t)(b * 4)) != PGP_OK || pgp_rd_be32(&crcs, &want) != PGP_OK)
			return fail(d, PGP_ERR_TRUNCATED, s->off, msg_size[id]);
		tmp = recs;
		if (pgp_rd_skip(&tmp, (size_t)(first * s->recsize)) != PGP_OK ||
		    pgp_rd_sub(&tmp, (size_t)(n * s->recsize), &blk) != PGP_OK)
			return fail(d, PGP_ERR_TRUNCATED, s->off, msg_size[id]);
		if (kr__crc(0, blk.p, blk.len) != want)
			return fail(d, PGP_ERR_MALFORMED, blk.off, msg_block[id]);
		(void)__atomic_fetch_or(&k->checked[bit / 8], (uint8_t)(1u << (bit % 8)),
		    __ATOMIC_RELAXED);
	}
	if (pgp_rd_skip(&recs, (size_t)(i * s->recsize)) != PGP_OK ||
	    pgp_rd_sub(&recs, s->recsize, out) != PGP_OK)
		return fail(d, PGP_ERR_TRUNCATED, s->off, msg_size[id]);
	return PGP_OK;
}

/* Certificate table entry i: where its octets are, their checksum, its
 * fingerprint. */
typedef struct certrec {
	uint64_t off;
	uint32_t len, crc;
	kr_certinfo info;
} certrec;

static pgp_err
cert_rec(const kr_keyring *k, uint64_t i, certrec *c)
{
	pgp_rd r;
	uint8_t flen, resv;
	pgp_err e;
	if ((e = rec(k, KR_S_CERTS, i, &r, KLAST(k))) != PGP_OK)
		return e;
	memset(c, 0, sizeof *c);
	if (rd_u64(&r, &c->off) != PGP_OK || pgp_rd_be32(&r, &c->len) != PGP_OK ||
	    pgp_rd_be32(&r, &c->crc) != PGP_OK || pgp_rd_u8(&r, &flen) != PGP_OK ||
	    pgp_rd_u8(&r, &c->info.version) != PGP_OK || pgp_rd_u8(&r, &c->info.algo) != PGP_OK ||
	    pgp_rd_u8(&r, &resv) != PGP_OK || pgp_rd_copy(&r, c->info.fpr.v, PGP_FPR_MAX) != PGP_OK ||
	    pgp_rd_be32(&r, &c->info.nuids) != PGP_OK || pgp_rd_be32(&r, &c->info.nsubs) != PGP_OK ||
	    pgp_rd_be32(&r, &c->info.kept_sigs) != PGP_OK ||
	    pgp_rd_be32(&r, &c->info.kept_certifications) != PGP_OK ||
	    pgp_rd_be32(&r, &c->info.dropped) != PGP_OK)
		return kfail(k, PGP_ERR_TRUNCATED, r.off, "keyring certificate table entry truncated");
	if (flen != 16 && flen != 20 && flen != 32)
		return kfail(k, PGP_ERR_MALFORMED, r.off, "keyring certificate table: bad fingerprint length");
	c->info.fpr.len = flen;
	return PGP_OK;
}

/* see kr_int.h */
pgp_err
kr__rec(const kr_keyring *k, uint32_t id, uint64_t i, pgp_rd *out, pgp_diag *d)
{
	if (id == 0 || id >= KR_S__N || kr__rec_size(id) <= 0)
		return PGP_ERR_INVALID;
	return rec(k, id, i, out, d);
}

/* see kr_int.h */
uint64_t
kr__rec_count(const kr_keyring *k, uint32_t id)
{
	return id > 0 && id < KR_S__N ? k->s[id].count : 0;
}

/* see kr_int.h */
uint64_t
kr__data_len(const kr_keyring *k)
{
	return k->s[KR_S_DATA].len;
}

/* see kr_int.h */
pgp_err
kr__cert_place(const kr_keyring *k, uint64_t i, uint64_t *off, uint32_t *len)
{
	certrec c;
	pgp_err e;
	if ((e = cert_rec(k, i, &c)) != PGP_OK)
		return e;
	*off = c.off;
	*len = c.len;
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_cert_info(kr_keyring *k, size_t i, kr_certinfo *out)
{
	certrec c;
	pgp_err e;
	if ((e = cert_rec(k, i, &c)) != PGP_OK)
		return e;
	*out = c.info;
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_cert_fpr(kr_keyring *k, size_t i, pgp_fpr *out)
{
	certrec c;
	pgp_err e;
	if ((e = cert_rec(k, i, &c)) != PGP_OK)
		return e;
	*out = c.info.fpr;
	return PGP_OK;
}

static pgp_err
cert_bytes(const kr_keyring *k, size_t i, pgp_view *out, certrec *c)
{
	const ksect *s = &k->s[KR_S_DATA];
	pgp_rd r, v;
	pgp_err e;
	if ((e = cert_rec(k, i, c)) != PGP_OK)
		return e;
	pgp_rd_init(&r, s->p, (size_t)s->len);
	r.off = (size_t)s->off;
	if (c->len > KR_MAX_CERT_LEN || c->off > s->len || pgp_rd_skip(&r, (size_t)c->off) != PGP_OK ||
	    pgp_rd_sub(&r, c->len, &v) != PGP_OK)
		return kfail(k, PGP_ERR_MALFORMED, s->off,
		    "keyring certificate table: certificate lies outside the data section");
	if (kr__crc(0, v.p, v.len) != c->crc)
		return kfail(k, PGP_ERR_MALFORMED, v.off, "keyring certificate data: checksum mismatch");
	*out = pgp_rd_as_view(&v);
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_cert_bytes(const kr_keyring *k, size_t i, pgp_view *out)
{
	certrec c;
	return cert_bytes(k, i, out, &c);
}

/* see kr.h */
pgp_err
kr_cert(kr_keyring *k, size_t i, const pgp_cert **out)
{
	kcert *kc;
	certrec c;
	pgp_view v;
	pgp_diag d;
	pgp_err e;
	const pgp_cert *cert;
	*out = NULL;
	if (i >= kr_count(k))
		return PGP_ERR_INVALID;
	kc = &k->certs[i];
	if (kc->cert) {
		*out = kc->cert;
		return PGP_OK;
	}
	if ((e = cert_bytes(k, i, &v, &c)) != PGP_OK)
		return e;
	if (k->nmade == k->capmade) {
		size_t nc = k->capmade ? k->capmade * 2 : 16;
		uint32_t *nm = realloc(k->made, nc * sizeof *nm);
		if (nm == NULL)
			return kfail(k, PGP_ERR_NOMEM, 0, "out of memory");
		k->made = nm;
		k->capmade = nc;
	}
	if ((e = pgp_certset_new(&kc->set)) != PGP_OK)
		return kfail(k, e, 0, "out of memory");
	k->made[k->nmade++] = (uint32_t)i;
	if ((e = pgp_certset_add(kc->set, v.p, v.len, &d)) != PGP_OK) {
		pgp_certset_free(kc->set);
		kc->set = NULL;
		k->nmade--;
		if (e == PGP_ERR_NOMEM)
			return kfail(k, e, 0, "out of memory");
		return kfail(k, PGP_ERR_MALFORMED, (uint64_t)(v.p - k->p) + d.offset,
		    "keyring certificate data: stored certificate does not parse");
	}
	/* exactly the one certificate the table names */
	if (pgp_certset_count(kc->set) != 1 || pgp_certset_copies(kc->set) != 1 ||
	    pgp_certset_refused(kc->set) != 0 ||
	    pgp_fpr_cmp(&(cert = pgp_certset_get(kc->set, 0))->primary.fpr, &c.info.fpr) != 0) {
		pgp_certset_free(kc->set);
		kc->set = NULL;
		k->nmade--;
		return kfail(k, PGP_ERR_MALFORMED, (uint64_t)(v.p - k->p),
		    "keyring certificate data: not the certificate the table names");
	}
	kc->cert = cert;
	*out = cert;
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_edge_at(const kr_keyring *k, size_t i, kr_edge *out)
{
	pgp_rd r;
	uint32_t ik;
	uint64_t created, expires;
	uint8_t pad[2];
	pgp_err e;
	if ((e = rec(k, KR_S_EDGES, i, &r, KLAST(k))) != PGP_OK)
		return e;
	memset(out, 0, sizeof *out);
	if (pgp_rd_be32(&r, &out->issuer) != PGP_OK || pgp_rd_be32(&r, &out->target) != PGP_OK ||
	    pgp_rd_be32(&r, &out->uid) != PGP_OK || pgp_rd_be32(&r, &ik) != PGP_OK ||
	    pgp_rd_u8(&r, &out->sigtype) != PGP_OK || pgp_rd_u8(&r, &out->hash_algo) != PGP_OK ||
	    pgp_rd_u8(&r, &out->pk_algo) != PGP_OK || pgp_rd_u8(&r, &out->trust_depth) != PGP_OK ||
	    pgp_rd_u8(&r, &out->trust_amount) != PGP_OK || pgp_rd_u8(&r, &out->has_regex) != PGP_OK ||
	    pgp_rd_copy(&r, pad, 2) != PGP_OK || rd_u64(&r, &created) != PGP_OK ||
	    rd_u64(&r, &expires) != PGP_OK)
		return kfail(k, PGP_ERR_TRUNCATED, r.off, "keyring certification edge truncated");
	out->issuer_key = (int32_t)ik;
	out->created = (int64_t)created;
	out->expires = (int64_t)expires;
	if (out->issuer >= kr_count(k) || out->target >= kr_count(k))
		return kfail(k, PGP_ERR_MALFORMED, r.off, msg_entry[KR_S_EDGES]);
	return PGP_OK;
}

/* ---- lookups ---- */

/* Compare record i of section id with key (klen octets at koff). */
static pgp_err
rec_cmp(const kr_keyring *k, uint32_t id, uint64_t i, const uint8_t *key, size_t koff,
    size_t klen, int *cmp, pgp_rd *r, pgp_diag *d)
{
	pgp_rd f;
	pgp_err e;
	if ((e = rec(k, id, i, r, d)) != PGP_OK)
		return e;
	f = *r;
	if (pgp_rd_skip(&f, koff) != PGP_OK || klen > f.len)
		return fail(d, PGP_ERR_TRUNCATED, r->off, msg_size[id]);
	*cmp = memcmp(f.p, key, klen);
	return PGP_OK;
}

/* First record of section id whose key (klen octets at koff) is >= key:
 * a binary search touching O(log n) blocks. */
static pgp_err
lower_bound(const kr_keyring *k, uint32_t id, const uint8_t *key, size_t koff, size_t klen,
    uint64_t *pos, pgp_diag *d)
{
	uint64_t lo = 0, hi = k->s[id].count;
	pgp_rd r;
	pgp_err e;
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;
		int c;
		if ((e = rec_cmp(k, id, mid, key, koff, klen, &c, &r, d)) != PGP_OK)
			return e;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*pos = lo;
	return PGP_OK;
}

static int
email_matches(const pgp_cert *c, const uint8_t *addr, size_t len)
{
	uint32_t j;
	for (j = 0; j < c->nuids; j++) {
		pgp_view a;
		if (!c->uids[j].is_attr && pgp_uid_email(c->uids[j].data, &a) &&
		    pgp_email_cmp(a.p, a.len, addr, len) == 0)
			return 1;
	}
	return 0;
}

/* see kr.h */
pgp_err
kr_find(kr_keyring *k, const pgp_certq *q, uint32_t *out, size_t max, size_t *total)
{
	uint8_t key[4 + PGP_FPR_MAX];
	size_t klen, koff, n = 0, tried = 0;
	uint32_t id;
	uint64_t pos;
	pgp_fpr f;
	pgp_err e;

	*total = 0;
	memset(key, 0, sizeof key);
	switch (q->kind) {
	case PGP_CERTQ_KEYID:
		if (q->len != 8)
			return PGP_ERR_INVALID;
		id = KR_S_KEYID;
		memcpy(key, q->p, 8);
		koff = 0;
		klen = 8;
		break;
	case PGP_CERTQ_FPR:
		if (q->len != 16 && q->len != 20 && q->len != 32)
			return PGP_ERR_INVALID;
		/* the record's key: length octet, 3 zero octets, 32 octets */
		id = KR_S_FPR;
		key[0] = (uint8_t)q->len;
		memcpy(key + 4, q->p, q->len);
		koff = 0;
		klen = 4 + PGP_FPR_MAX;
		memset(&f, 0, sizeof f);
		memcpy(f.v, q->p, q->len);
		f.len = (uint8_t)q->len;
		break;
	case PGP_CERTQ_EMAIL:
		if (q->len > PGP_MAX_PACKET_BODY)
			return PGP_OK;  /* longer than any user ID: no match */
		id = KR_S_EMAIL;
		if ((e = kr__email_hash(key, q->p, q->len)) != PGP_OK)
			return e;
		koff = 0;
		klen = KR_EMAIL_HASH;
		break;
	default:
		return PGP_ERR_INVALID;
	}
	if ((e = lower_bound(k, id, key, koff, klen, &pos, KLAST(k))) != PGP_OK)
		return e;
	for (; pos < k->s[id].count; pos++) {
		pgp_rd r;
		int c;
		uint32_t ci;
		const pgp_cert *cert;
		if ((e = rec_cmp(k, id, pos, key, koff, klen, &c, &r, KLAST(k))) != PGP_OK)
			return e;
		if (c != 0)
			break;
		if (++tried > PGP_MAX_KEYID_CERTS)
			return kfail(k, PGP_ERR_LIMIT, r.off, "keyring: too many certificates for one lookup");
		if (pgp_rd_skip(&r, r.len - 4) != PGP_OK || pgp_rd_be32(&r, &ci) != PGP_OK)
			return kfail(k, PGP_ERR_TRUNCATED, r.off, msg_size[id]);
		if (ci >= kr_count(k))
			return kfail(k, PGP_ERR_MALFORMED, r.off, "keyring index: entry names a certificate out of range");
		if ((e = kr_cert(k, ci, &cert)) != PGP_OK)
			return e;
		/* confirm against the certificate itself: never a wrong answer */
		if (id == KR_S_EMAIL) {
			if (!email_matches(cert, q->p, q->len))
				continue;  /* another address with the same hash */
		} else if (id == KR_S_KEYID ? pgp_cert_key_by_id(cert, q->p, NULL) == NULL :
		    pgp_cert_key_by_fpr(cert, &f, NULL) == NULL) {
			return kfail(k, PGP_ERR_MALFORMED, r.off, msg_entry[id]);
		}
		if (n < max)
			out[n] = ci;
		n++;
	}
	*total = n;
	return PGP_OK;
}

static pgp_err
src_find(void *ctx, const pgp_certq *q, const pgp_cert **out, size_t max, size_t *total)
{
	kr_keyring *k = ctx;
	uint32_t stack[16], *idx = stack;
	size_t n = 0, i;
	pgp_err e;
	*total = 0;
	if (max > sizeof stack / sizeof stack[0]) {
		if (max > PGP_MAX_KEYID_CERTS)
			max = PGP_MAX_KEYID_CERTS;
		if ((idx = malloc(max * sizeof *idx)) == NULL)
			return PGP_ERR_NOMEM;
	}
	if ((e = kr_find(k, q, idx, max, &n)) != PGP_OK)
		goto out;
	for (i = 0; i < n && i < max; i++)
		if ((e = kr_cert(k, idx[i], &out[i])) != PGP_OK)
			goto out;
	*total = n;
out:
	if (idx != stack)
		free(idx);
	return e;
}

/* The memo: a bounded binary search in the sorted tag set. */
static int
memo_known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	kr_keyring *k = ctx;
	uint64_t pos;
	pgp_rd r;
	int c;
	/* no diagnostic: the memo may be asked from several threads */
	if (lower_bound(k, KR_S_TAGS, tag, 0, KR_REC_TAG, &pos, NULL) != PGP_OK)
		return 0;  /* a damaged block: the math is done, the verdict stays right */
	if (pos >= k->s[KR_S_TAGS].count)
		return 0;
	return rec_cmp(k, KR_S_TAGS, pos, tag, 0, KR_REC_TAG, &c, &r, NULL) == PGP_OK && c == 0;
}

/* see kr.h */
void
kr_source(kr_keyring *k, pgp_certsrc *out)
{
	k->memo.known = memo_known;
	k->memo.record = NULL;
	k->memo.ctx = k;
	out->find = src_find;
	out->ctx = k;
	out->memo = &k->memo;
}

/* ---- statistics ---- */

static pgp_err
stats_reader(const kr_keyring *k, pgp_rd *r)
{
	const ksect *s = &k->s[KR_S_STATS];
	pgp_rd_init(r, s->p, (size_t)s->len);
	r->off = (size_t)s->off;
	if (kr__crc(0, s->p, (size_t)s->len) != s->crc)
		return kfail(k, PGP_ERR_MALFORMED, s->off, "keyring statistics: checksum mismatch");
	return PGP_OK;
}

static pgp_err
stats_parse(const kr_keyring *k, kr_stats *st, size_t want_note, pgp_view *note)
{
	pgp_rd r, fixed;
	uint32_t ver, nd, nn, i;
	uint64_t built;
	uint8_t flen;
	pgp_err e;
	if ((e = stats_reader(k, &r)) != PGP_OK)
		return e;
	memset(st, 0, sizeof *st);
	if (pgp_rd_sub(&r, 128, &fixed) != PGP_OK || pgp_rd_be32(&fixed, &ver) != PGP_OK ||
	    rd_u64(&fixed, &built) != PGP_OK || pgp_rd_u8(&fixed, &flen) != PGP_OK ||
	    pgp_rd_copy(&fixed, st->root.v, PGP_FPR_MAX) != PGP_OK ||
	    pgp_rd_skip(&fixed, 3) != PGP_OK || rd_u64(&fixed, &st->certs) != PGP_OK ||
	    rd_u64(&fixed, &st->uids) != PGP_OK || rd_u64(&fixed, &st->subkeys) != PGP_OK ||
	    rd_u64(&fixed, &st->sigs) != PGP_OK || rd_u64(&fixed, &st->certifications) != PGP_OK ||
	    rd_u64(&fixed, &st->edges) != PGP_OK || rd_u64(&fixed, &st->tags) != PGP_OK)
		goto trunc;
	if (ver != KR_STATS_VERSION || flen > PGP_FPR_MAX)
		return kfail(k, PGP_ERR_MALFORMED, r.off, "keyring statistics: bad version or root");
	st->built_at = (int64_t)built;
	st->root.len = flen;
	if (pgp_rd_be32(&r, &nd) != PGP_OK)
		goto trunc;
	if (nd > KR_MAX_DROP_REASONS)
		return kfail(k, PGP_ERR_LIMIT, r.off, "keyring statistics: too many drop reasons");
	for (i = 0; i < nd; i++) {
		pgp_rd name;
		if (pgp_rd_sub8(&r, &name) != PGP_OK || rd_u64(&r, &st->drops[i].count) != PGP_OK)
			goto trunc;
		if (name.len >= sizeof st->drops[i].name)
			return kfail(k, PGP_ERR_MALFORMED, name.off, "keyring statistics: drop reason name too long");
		memcpy(st->drops[i].name, name.p, name.len);
	}
	st->ndrops = nd;
	if (pgp_rd_be32(&r, &nn) != PGP_OK)
		goto trunc;
	if (nn > KR_MAX_NOTES)
		return kfail(k, PGP_ERR_LIMIT, r.off, "keyring statistics: too many notes");
	for (i = 0; i < nn; i++) {
		pgp_rd t;
		if (pgp_rd_sub16(&r, &t) != PGP_OK)
			goto trunc;
		if (note && i == want_note)
			*note = pgp_rd_as_view(&t);
	}
	st->nnotes = nn;
	if (!pgp_rd_empty(&r))
		return kfail(k, PGP_ERR_MALFORMED, r.off, "keyring statistics: trailing octets");
	if (note && want_note >= nn)
		return PGP_ERR_INVALID;
	return PGP_OK;
trunc:
	return kfail(k, PGP_ERR_TRUNCATED, r.off, "keyring statistics truncated");
}

/* see kr.h */
pgp_err
kr_stats_get(const kr_keyring *k, kr_stats *out)
{
	return stats_parse(k, out, 0, NULL);
}

/* see kr.h */
pgp_err
kr_stats_note(const kr_keyring *k, size_t i, pgp_view *out)
{
	kr_stats st;
	return stats_parse(k, &st, i, out);
}
