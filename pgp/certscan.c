/*
 * certscan.c - the lazy mode of a pgp_certset (pgp_certset_set_lazy), for
 * large raw keyrings read once per process: every input is framed once,
 * recording where each certificate lies and the key IDs of its keys (one
 * fingerprint per key, RFC 9580 §5.5.4); a certificate is built (its packets
 * assembled, merged with its copies and stand-alone revocations: certset.c)
 * only when a lookup names one of its key IDs. see cert.h
 *
 * The answers are those of an eager set (docs/semantics.md, "Lazy key
 * sets"):
 * - The unit of building is a primary key ID: every certificate whose
 *   primary key has it, and every stand-alone revocation naming it, are
 *   built together, so a lookup sees each certificate merged from all its
 *   copies wherever they are, with its revocations.
 * - Limits are checked by the scan with the eager code (pgp__cert_scan,
 *   pgp__cs_refuse), so refused certificates are known before any lookup.
 *   Key IDs held by two certificates (copies of one key, or a collision)
 *   and key IDs named by stand-alone revocations are built at once, during
 *   pgp_certset_add, so a merge beyond a limit breaks the set exactly when
 *   it breaks an eager one.
 * - Results come in input order (the place of a certificate's first copy),
 *   as an eager set gives them, whatever order lookups built them in.
 */
#include <stdlib.h>
#include <string.h>
#include "cert.h"
#include "cert_int.h"
#include "certset_int.h"
#include "err_int.h"

/* Key IDs as big-endian numbers: compared in one step, ordered as octets. */
typedef uint64_t kid_t;

static kid_t
kid_of(const uint8_t k[8])
{
	return (kid_t)pgp_be32(k) << 32 | pgp_be32(k + 4);
}

typedef struct span {          /* one certificate the scan found */
	pgp_rd at;                 /* its octets; at.off: offset in its input */
	kid_t pkid;                /* key ID of its primary key */
	uint8_t built;             /* parsed into the set */
} span;

typedef struct skey {          /* a key of a scanned certificate */
	kid_t kid;
	uint32_t span;
	uint32_t primary;          /* 1: the certificate's primary key */
} skey;

typedef struct lrev {          /* a stand-alone key revocation */
	kid_t kid;                 /* its issuer */
	uint32_t seq;              /* order of appearance */
	pgp_rd at;                 /* the whole packet */
	uint8_t built;
} lrev;

struct lazy_set {
	span *spans;
	size_t nspans, capspans;
	skey *keys;                /* sorted by (key ID, span) up to keys_sorted */
	size_t nkeys, capkeys, keys_sorted;
	lrev *revs;                /* sorted by (issuer, seq) up to revs_sorted */
	size_t nrevs, caprevs, revs_sorted;
	size_t unbuilt;            /* spans and revocations not built yet */
	uint32_t *gorder, *rorder; /* groups, copies in input order (lazy_all) */
	size_t ngorder, nrorder;
};

/* see certset_int.h */
pgp_err
pgp__cs_lazy_new(lazy_set **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? PGP_OK : PGP_ERR_NOMEM;
}

/* see certset_int.h */
void
pgp__cs_lazy_free(lazy_set *l)
{
	if (l == NULL)
		return;
	free(l->spans);
	free(l->keys);
	free(l->revs);
	free(l->gorder);
	free(l->rorder);
	free(l);
}

static int
skey_cmp(const void *a, const void *b)
{
	const skey *x = a, *y = b;
	if (x->kid != y->kid)
		return x->kid < y->kid ? -1 : 1;
	return x->span < y->span ? -1 : x->span > y->span;
}

static int
lrev_cmp(const void *a, const void *b)
{
	const lrev *x = a, *y = b;
	if (x->kid != y->kid)
		return x->kid < y->kid ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The first sorted entry of n, stride octets each starting with a kid_t,
 * with this key ID (or n). */
static size_t
lower(const void *base, size_t n, size_t stride, kid_t kid)
{
	const uint8_t *p = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (*(const kid_t *)(const void *)(p + mid * stride) < kid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What the key callback needs while one certificate is scanned. */
typedef struct scan_ctx {
	lazy_set *l;
	uint32_t span;             /* the index the certificate will have */
	uint32_t nkeys;            /* key packets seen so far */
	int bad_primary;           /* its primary key does not parse: skipped */
	kid_t pkid;
} scan_ctx;

/* pgp__cert_scan's callback: index the key ID of a primary key or subkey. */
static pgp_err
scan_key(void *ctx, const pgp_pkt *pkt)
{
	scan_ctx *x = ctx;
	lazy_set *l = x->l;
	pgp_key k;
	pgp_err e;
	int primary = x->nkeys++ == 0;
	if (x->bad_primary)
		return PGP_OK;
	/* as pgp__cert_build: a primary key that does not parse skips the
	 * certificate, a subkey that does not parse is dropped */
	if (pgp_key_parse(&k, pkt, NULL) != PGP_OK) {
		x->bad_primary = primary;
		return PGP_OK;
	}
	if ((e = pgp__cs_grow((void **)&l->keys, &l->capkeys, l->nkeys + 1,
	    sizeof *l->keys)) != PGP_OK)
		return e;
	l->keys[l->nkeys].kid = kid_of(k.keyid);
	l->keys[l->nkeys].span = x->span;
	l->keys[l->nkeys].primary = (uint32_t)primary;
	l->nkeys++;
	if (primary)
		x->pkid = kid_of(k.keyid);
	return PGP_OK;
}

/* A signature outside any certificate: note it if the set would keep it. */
static pgp_err
scan_loose(lazy_set *l, const pgp_rd *at, const pgp_pkt *pkt)
{
	uint8_t keyid[8];
	lrev *v;
	pgp_err e;
	if (!pgp__cs_loose_issuer(&pkt->body, keyid))
		return PGP_OK;
	if ((e = pgp__cs_grow((void **)&l->revs, &l->caprevs, l->nrevs + 1,
	    sizeof *l->revs)) != PGP_OK)
		return e;
	v = &l->revs[l->nrevs];
	v->kid = kid_of(keyid);
	v->seq = (uint32_t)l->nrevs;
	v->at = *at;
	v->at.len = pkt->total_len;
	v->built = 0;
	l->nrevs++;
	l->unbuilt++;
	return PGP_OK;
}

/*
 * One input, framed once: the walk of pgp__cs_parse (certset.c) with the
 * certificate build replaced by recording its span and key IDs. Errors,
 * refusals and skipped certificates are those of pgp__cs_parse.
 */
static pgp_err
scan(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag)
{
	lazy_set *l = s->lazy;
	pgp_rd r;
	pgp_err e;
	pgp_rd_init(&r, p, len);
	while (!pgp_rd_empty(&r)) {
		pgp_rd save = r, start;
		pgp_pkt pkt;
		cert_counts cc;
		scan_ctx x;
		pgp_err pending;
		size_t nk0 = l->nkeys;
		span *sp;

		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			return e;
		pgp_pkt_release(&pkt);
		if (pkt.tag == PGP_TAG_SIGNATURE) {
			if ((e = scan_loose(l, &save, &pkt)) != PGP_OK)
				return e;
			continue;
		}
		if (!pgp__is_primary_tag(pkt.tag))
			continue; /* stray packet before a primary key */
		start = save;
		memset(&x, 0, sizeof x);
		x.l = l;
		x.span = (uint32_t)l->nspans;
		e = pgp__cert_scan(&cc, &start, s->max_sigs, &pending, diag, scan_key, &x);
		if (e == PGP_ERR_LIMIT) {
			l->nkeys = nk0;
			if ((e = pgp__cs_refuse(s, &start, diag, &r)) != PGP_OK)
				return e;
			continue;
		}
		if (e != PGP_OK) {
			l->nkeys = nk0;
			return e;
		}
		r = save;
		(void)pgp_rd_skip(&r, cc.end);
		if (x.bad_primary) {
			l->nkeys = nk0;
			s->skipped++;
			if (pending != PGP_OK)
				return pending;
			continue;
		}
		if ((e = pgp__cs_grow((void **)&l->spans, &l->capspans, l->nspans + 1,
		    sizeof *l->spans)) != PGP_OK)
			return e;
		sp = &l->spans[l->nspans++];
		sp->at = start;
		sp->at.len = cc.end;
		sp->pkid = x.pkid;
		sp->built = 0;
		l->unbuilt++;
		if (pending != PGP_OK)
			return pending; /* diag still describes the framing error */
	}
	return PGP_OK;
}

/* Whether some certificate with primary key ID kid is built. */
static int
kid_built(const lazy_set *l, kid_t kid)
{
	size_t i = lower(l->keys, l->keys_sorted, sizeof *l->keys, kid);
	for (; i < l->keys_sorted && l->keys[i].kid == kid; i++)
		if (l->keys[i].primary && l->spans[l->keys[i].span].built)
			return 1;
	return 0;
}

/* Certificates with this primary key ID (copies of one key, or a collision). */
static size_t
kid_primaries(const lazy_set *l, kid_t kid)
{
	size_t i = lower(l->keys, l->keys_sorted, sizeof *l->keys, kid), n = 0;
	for (; i < l->keys_sorted && l->keys[i].kid == kid; i++)
		n += l->keys[i].primary;
	return n;
}

static int
kid_revoked(const lazy_set *l, kid_t kid)
{
	size_t i = lower(l->revs, l->revs_sorted, sizeof *l->revs, kid);
	return i < l->revs_sorted && l->revs[i].kid == kid;
}

/*
 * Parse into the set (not settled yet) every certificate with primary key
 * ID kid and every stand-alone revocation naming it that is not built yet,
 * each in input order. *fed is set when anything was.
 */
static pgp_err
build_kid(pgp_certset *s, kid_t kid, int *fed, pgp_diag *diag)
{
	lazy_set *l = s->lazy;
	size_t i = lower(l->keys, l->keys_sorted, sizeof *l->keys, kid);
	pgp_err e;
	for (; i < l->keys_sorted && l->keys[i].kid == kid; i++) {
		span *sp = &l->spans[l->keys[i].span];
		if (!l->keys[i].primary || sp->built)
			continue;
		sp->built = 1;
		l->unbuilt--;
		*fed = 1;
		s->cur_seq = l->keys[i].span;
		if ((e = pgp__cs_parse(s, &sp->at, diag)) != PGP_OK)
			return e;
	}
	i = lower(l->revs, l->revs_sorted, sizeof *l->revs, kid);
	for (; i < l->revs_sorted && l->revs[i].kid == kid; i++) {
		if (l->revs[i].built)
			continue;
		l->revs[i].built = 1;
		l->unbuilt--;
		*fed = 1;
		if ((e = pgp__cs_parse(s, &l->revs[i].at, diag)) != PGP_OK)
			return e;
	}
	return PGP_OK;
}

/*
 * After scanning new input: index it, then build at once what an eager set
 * would have merged in this call (see top of file): new certificates whose
 * primary key ID is already built, held by another certificate or named by
 * a stand-alone revocation, and new revocations naming a scanned primary.
 */
static pgp_err
after_scan(pgp_certset *s, size_t ns0, size_t nr0, pgp_diag *diag)
{
	lazy_set *l = s->lazy;
	size_t i;
	int fed = 0;
	pgp_err e;
	if ((e = pgp__cs_sort_tail(l->keys, l->keys_sorted, l->nkeys, sizeof *l->keys,
	    skey_cmp)) != PGP_OK)
		return e;
	l->keys_sorted = l->nkeys;
	if ((e = pgp__cs_sort_tail(l->revs, l->revs_sorted, l->nrevs, sizeof *l->revs,
	    lrev_cmp)) != PGP_OK)
		return e;
	l->revs_sorted = l->nrevs;
	for (i = ns0; i < l->nspans; i++) {
		kid_t kid = l->spans[i].pkid;
		if (l->spans[i].built)
			continue;
		if (kid_built(l, kid) || kid_primaries(l, kid) > 1 || kid_revoked(l, kid))
			if ((e = build_kid(s, kid, &fed, diag)) != PGP_OK)
				return e;
	}
	for (i = 0; i < l->nrevs; i++) {
		/* the new ones: seq >= nr0 (the array is sorted by issuer) */
		if (l->revs[i].seq < nr0 || l->revs[i].built)
			continue;
		if (kid_primaries(l, l->revs[i].kid) &&
		    (e = build_kid(s, l->revs[i].kid, &fed, diag)) != PGP_OK)
			return e;
	}
	return fed ? pgp__cs_settle(s, diag) : PGP_OK;
}

/* see certset_int.h */
pgp_err
pgp__cs_lazy_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag)
{
	lazy_set *l = s->lazy;
	size_t ns0 = l->nspans, nr0 = l->nrevs;
	pgp_diag sd = {0, -1, NULL};
	pgp_err e, se;
	e = scan(s, p, len, diag);
	/* what was scanned before an error is kept, as pgp_certset_add does */
	if ((se = after_scan(s, ns0, nr0, &sd)) != PGP_OK) {
		if (diag)
			*diag = sd;
		e = se;
	}
	return e;
}

/* Build everything a lookup for key ID kid could return. */
static pgp_err
need_keyid(pgp_certset *s, kid_t kid)
{
	lazy_set *l = s->lazy;
	size_t i = lower(l->keys, l->keys_sorted, sizeof *l->keys, kid);
	pgp_diag sd = {0, -1, NULL};
	int fed = 0;
	pgp_err e;
	for (; i < l->keys_sorted && l->keys[i].kid == kid; i++) {
		span *sp = &l->spans[l->keys[i].span];
		if (!sp->built && (e = build_kid(s, sp->pkid, &fed, &sd)) != PGP_OK)
			return e;
	}
	return fed ? pgp__cs_settle(s, &sd) : PGP_OK;
}

/* The input order of a built certificate: the place of its first copy. */
static uint32_t
cert_seq(const pgp_certset *s, const pgp_cert *c)
{
	size_t g;
	for (g = 0; g < s->ngroups; g++)
		if (s->groups[g].cert == c)
			return s->rawseq[s->groups[g].first];
	return NONE;
}

typedef struct seq_ent {
	uint32_t seq;
	const pgp_cert *cert;
} seq_ent;

static int
seq_cmp(const void *a, const void *b)
{
	const seq_ent *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Put the n certificates of out[] in input order. */
static pgp_err
order_results(const pgp_certset *s, const pgp_cert **out, size_t n)
{
	seq_ent *v;
	size_t i;
	if (n < 2)
		return PGP_OK;
	if ((v = malloc(n * sizeof *v)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		v[i].seq = cert_seq(s, out[i]);
		v[i].cert = out[i];
	}
	qsort(v, n, sizeof *v, seq_cmp);
	for (i = 0; i < n; i++)
		out[i] = v[i].cert;
	free(v);
	return PGP_OK;
}

/* see certset_int.h */
pgp_err
pgp__cs_lazy_find(pgp_certset *s, const pgp_certq *q, const pgp_cert **out, size_t max,
    size_t *total)
{
	const pgp_cert **all;
	size_t n = 0;
	pgp_err e = PGP_OK;
	*total = 0;
	if (q->kind == PGP_CERTQ_KEYID && q->len == 8)
		e = need_keyid(s, kid_of(q->p));
	else if (q->kind == PGP_CERTQ_FPR && q->len == 20)
		e = need_keyid(s, kid_of(q->p + 12)); /* a v4 key ID ends its fingerprint */
	else if (q->kind == PGP_CERTQ_FPR && q->len == 32)
		e = need_keyid(s, kid_of(q->p)); /* a v6 key ID starts it */
	else if (q->kind == PGP_CERTQ_FPR || q->kind == PGP_CERTQ_EMAIL)
		e = pgp__cs_lazy_all(s);      /* v3 fingerprints, addresses: every certificate */
	if (e != PGP_OK) {
		s->broken = e;
		return e;
	}
	if ((e = pgp__cs_find(s, q, out, max, total)) != PGP_OK)
		return e;
	if (*total <= max)
		return order_results(s, out, *total);
	/* the first max in input order need all of them */
	if ((all = malloc(*total * sizeof *all)) == NULL)
		return PGP_ERR_NOMEM;
	if ((e = pgp__cs_find(s, q, all, *total, &n)) == PGP_OK &&
	    (e = order_results(s, all, n)) == PGP_OK)
		memcpy((void *)out, (const void *)all, max * sizeof *out);
	free((void *)all);
	return e;
}

typedef struct ord_ent {
	uint32_t seq, i;
} ord_ent;

static int
ord_cmp(const void *a, const void *b)
{
	const ord_ent *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* *v: the n indexes i ordered by seq[i] (or seq[first[i]] when first). */
static pgp_err
make_order(uint32_t **v, size_t *nv, size_t n, const uint32_t *seq, const pgp_certset *s)
{
	uint32_t *nvv;
	ord_ent *t;
	size_t i;
	if (*nv == n)
		return PGP_OK;
	nvv = realloc(*v, (n ? n : 1) * sizeof *nvv);
	if (nvv == NULL)
		return PGP_ERR_NOMEM;
	*v = nvv;
	if ((t = malloc((n ? n : 1) * sizeof *t)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		t[i].seq = seq ? seq[i] : s->rawseq[s->groups[i].first];
		t[i].i = (uint32_t)i;
	}
	qsort(t, n, sizeof *t, ord_cmp);
	for (i = 0; i < n; i++)
		nvv[i] = t[i].i;
	free(t);
	*nv = n;
	return PGP_OK;
}

/* see certset_int.h */
pgp_err
pgp__cs_lazy_all(pgp_certset *s)
{
	lazy_set *l = s->lazy;
	pgp_diag sd = {0, -1, NULL};
	size_t i;
	int fed = 0;
	pgp_err e;
	if (s->broken != PGP_OK)
		return s->broken;
	for (i = 0; l->unbuilt && i < l->nspans; i++)
		if (!l->spans[i].built && (e = build_kid(s, l->spans[i].pkid, &fed, &sd)) != PGP_OK)
			goto fail;
	for (i = 0; l->unbuilt && i < l->nrevs; i++)
		if (!l->revs[i].built && (e = build_kid(s, l->revs[i].kid, &fed, &sd)) != PGP_OK)
			goto fail;
	if (fed && (e = pgp__cs_settle(s, &sd)) != PGP_OK)
		goto fail;
	/* groups by their first copy, copies by their own place */
	if ((e = make_order(&l->gorder, &l->ngorder, s->ngroups, NULL, s)) != PGP_OK ||
	    (e = make_order(&l->rorder, &l->nrorder, s->nraw, s->rawseq, s)) != PGP_OK)
		goto fail;
	return PGP_OK;
fail:
	s->broken = e;
	return e;
}

/* see certset_int.h */
uint32_t
pgp__cs_lazy_group(const pgp_certset *s, size_t i)
{
	return s->lazy->gorder[i];
}

/* see certset_int.h */
uint32_t
pgp__cs_lazy_copy(const pgp_certset *s, size_t i)
{
	return s->lazy->rorder[i];
}
