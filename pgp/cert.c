/*
 * cert.c - certificate assembly (RFC 9580 §10.1 transferable public keys)
 * and the in-memory certificate set with its key ID index. see cert.h
 *
 *   Primary-Key [Revocation/Direct-Key signatures...]
 *   [User ID | User Attribute [Signature...]]...
 *   [Subkey [Binding/Revocation signature...]]...
 *
 * Grammar violations that do not lose data are tolerated the way keyrings in
 * the wild need (signatures before any component attach to the primary key;
 * trust, marker and padding packets are ignored).
 */
#include <stdlib.h>
#include <string.h>
#include "cert.h"
#include "limits.h"

typedef struct idx_ent {
	uint8_t keyid[8];
	uint32_t cert;
} idx_ent;

struct pgp_certset {
	pgp_cert **certs;
	size_t ncerts, capcerts;
	uint8_t **owned;
	size_t nowned, capowned;
	idx_ent *idx;
	size_t nidx, capidx;
	size_t sorted;   /* idx[0..sorted) is sorted; lookups sort the rest */
	size_t skipped;
	idx_ent *loose_id;  /* stand-alone key revocations: issuer key ID ... */
	pgp_rd *loose;      /* ... and signature body */
	size_t nloose, caploose, caploose_id, attached;
};

/* see cert.h */
pgp_err
pgp_certset_new(pgp_certset **out)
{
	*out = calloc(1, sizeof **out);
	return *out ? PGP_OK : PGP_ERR_NOMEM;
}

/* see cert.h */
void
pgp_certset_free(pgp_certset *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->ncerts; i++) {
		free(s->certs[i]->loose);
		free(s->certs[i]);
	}
	free(s->loose_id);
	free(s->loose);
	for (i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->certs);
	free(s->owned);
	free(s->idx);
	free(s);
}

static pgp_certset *settle(const pgp_certset *cs);

static pgp_err
grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *np;
	if (need <= *cap)
		return PGP_OK;
	ncap = *cap ? *cap * 2 : 16;
	while (ncap < need)
		ncap *= 2;
	if (ncap > SIZE_MAX / elem)
		return PGP_ERR_NOMEM;
	np = realloc(*p, ncap * elem);
	if (np == NULL)
		return PGP_ERR_NOMEM;
	*p = np;
	*cap = ncap;
	return PGP_OK;
}

static int
is_primary_tag(int tag)
{
	return tag == PGP_TAG_PUBLIC_KEY || tag == PGP_TAG_SECRET_KEY;
}

static int
is_subkey_tag(int tag)
{
	return tag == PGP_TAG_PUBLIC_SUBKEY || tag == PGP_TAG_SECRET_SUBKEY;
}

static int
is_uid_tag(int tag)
{
	return tag == PGP_TAG_USER_ID || tag == PGP_TAG_USER_ATTRIBUTE;
}

/* Counts of one certificate's parts, from a first framing pass. */
typedef struct cert_counts {
	size_t nuids, nsubs, nsigs;
	size_t end;  /* bytes of input the certificate spans */
} cert_counts;

/*
 * Frame the packets of one certificate starting at a primary key packet.
 * A framing error after the primary key ends the certificate there: it is
 * kept, and the error comes back in *pending for the caller to report.
 */
static pgp_err
count_cert(cert_counts *c, const pgp_rd *start, pgp_err *pending, pgp_diag *diag)
{
	pgp_rd r = *start;
	pgp_pkt pkt;
	pgp_err e;
	int first = 1;
	memset(c, 0, sizeof *c);
	*pending = PGP_OK;
	while (!pgp_rd_empty(&r)) {
		pgp_rd save = r;
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK) {
			if (first)
				return e;
			*pending = e;
			r = save;
			break;
		}
		pgp_pkt_release(&pkt);
		if (is_primary_tag(pkt.tag) && !first) {
			r = save;
			break;
		}
		first = 0;
		if (is_uid_tag(pkt.tag))
			c->nuids++;
		else if (is_subkey_tag(pkt.tag))
			c->nsubs++;
		else if (pkt.tag == PGP_TAG_SIGNATURE)
			c->nsigs++;
	}
	if (c->nuids > PGP_MAX_UIDS || c->nsubs > PGP_MAX_SUBKEYS) {
		if (diag) {
			diag->offset = start->off;
			diag->tag = PGP_TAG_PUBLIC_KEY;
			diag->what = "too many user IDs or subkeys in one certificate";
		}
		return PGP_ERR_LIMIT;
	}
	c->end = (size_t)(r.p - start->p);
	return PGP_OK;
}

/*
 * Second pass: fill one allocation holding the cert and its arrays.
 * Components whose key does not parse are dropped with their signatures.
 */
static pgp_err
build_cert(pgp_cert **out, const pgp_rd *start, const cert_counts *c, pgp_diag *diag)
{
	size_t bytes;
	pgp_cert *cert;
	pgp_rd r, *sigpool;
	pgp_pkt pkt;
	pgp_err e;
	/* which component the next signature belongs to */
	enum { ON_PRIMARY, ON_UID, ON_SUB, ON_NOTHING } on = ON_PRIMARY;
	size_t nsig = 0;
	int first = 1;

	bytes = sizeof *cert + c->nuids * sizeof(pgp_uidc) + c->nsubs * sizeof(pgp_subc) +
	    c->nsigs * sizeof(pgp_rd);
	cert = calloc(1, bytes);
	if (cert == NULL)
		return PGP_ERR_NOMEM;
	cert->uids = (pgp_uidc *)(void *)(cert + 1);
	cert->subs = (pgp_subc *)(void *)(cert->uids + c->nuids);
	sigpool = (pgp_rd *)(void *)(cert->subs + c->nsubs);
	cert->dsigs = sigpool;
	cert->off = start->off;
	cert->raw.p = start->p;
	cert->raw.len = c->end;

	r.p = start->p;
	r.len = c->end;
	r.off = start->off;
	while (!pgp_rd_empty(&r)) {
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			goto fail;
		if (first) {
			first = 0;
			e = pgp_key_parse(&cert->primary, &pkt, diag);
			pgp_pkt_release(&pkt);
			if (e != PGP_OK)
				goto fail;
			continue;
		}
		switch (pkt.tag) {
		case PGP_TAG_SIGNATURE: {
			pgp_rd *slot = &sigpool[nsig++];
			*slot = pkt.body;
			if (on == ON_PRIMARY) {
				cert->ndsigs++;
			} else if (on == ON_UID) {
				cert->uids[cert->nuids - 1].nsigs++;
			} else if (on == ON_SUB) {
				cert->subs[cert->nsubs - 1].nsigs++;
			} else {
				nsig--;
			}
			break;
		}
		case PGP_TAG_USER_ID:
		case PGP_TAG_USER_ATTRIBUTE: {
			pgp_uidc *u = &cert->uids[cert->nuids++];
			u->is_attr = pkt.tag == PGP_TAG_USER_ATTRIBUTE;
			u->data = pgp_rd_as_view(&pkt.body);
			u->sigs = &sigpool[nsig];
			on = ON_UID;
			break;
		}
		case PGP_TAG_PUBLIC_SUBKEY:
		case PGP_TAG_SECRET_SUBKEY: {
			pgp_subc *sc = &cert->subs[cert->nsubs];
			if (pgp_key_parse(&sc->key, &pkt, NULL) == PGP_OK) {
				sc->sigs = &sigpool[nsig];
				cert->nsubs++;
				on = ON_SUB;
			} else {
				memset(sc, 0, sizeof *sc);
				on = ON_NOTHING;
			}
			break;
		}
		default:
			/* trust, marker, padding, unknown: not part of the cert */
			break;
		}
		pgp_pkt_release(&pkt);
	}
	*out = cert;
	return PGP_OK;
fail:
	free(cert);
	return e;
}

static pgp_err
add_index(pgp_certset *s, const uint8_t keyid[8], size_t certno)
{
	pgp_err e;
	if ((e = grow((void **)&s->idx, &s->capidx, s->nidx + 1, sizeof *s->idx)) != PGP_OK)
		return e;
	memcpy(s->idx[s->nidx].keyid, keyid, 8);
	s->idx[s->nidx].cert = (uint32_t)certno;
	s->nidx++;
	return PGP_OK;
}

static pgp_err
add_cert(pgp_certset *s, pgp_cert *c)
{
	pgp_err e;
	size_t i;
	if ((e = grow((void **)&s->certs, &s->capcerts, s->ncerts + 1, sizeof *s->certs)) != PGP_OK) {
		free(c);
		return e;
	}
	s->certs[s->ncerts] = c;
	if ((e = add_index(s, c->primary.keyid, s->ncerts)) != PGP_OK)
		return e;
	for (i = 0; i < c->nsubs; i++)
		if ((e = add_index(s, c->subs[i].key.keyid, s->ncerts)) != PGP_OK)
			return e;
	s->ncerts++;
	return PGP_OK;
}

/* A signature outside any certificate: keep it if it is a key revocation. */
static pgp_err
keep_loose_revocation(pgp_certset *s, const pgp_rd *body)
{
	pgp_sig sig;
	pgp_err e;
	uint8_t keyid[8];
	if (pgp_sig_parse(&sig, body, NULL) != PGP_OK || sig.type != PGP_SIG_KEY_REVOCATION)
		return PGP_OK;
	if (sig.issuer_fpr.len == 20)
		memcpy(keyid, sig.issuer_fpr.v + 12, 8);
	else if (sig.issuer_fpr.len == 32)
		memcpy(keyid, sig.issuer_fpr.v, 8);
	else if (sig.has_issuer)
		memcpy(keyid, sig.issuer, 8);
	else
		return PGP_OK;
	if ((e = grow((void **)&s->loose, &s->caploose, s->nloose + 1, sizeof *s->loose)) != PGP_OK ||
	    (e = grow((void **)&s->loose_id, &s->caploose_id, s->nloose + 1, sizeof *s->loose_id)) != PGP_OK)
		return e;
	s->loose[s->nloose] = *body;
	memcpy(s->loose_id[s->nloose].keyid, keyid, 8);
	s->nloose++;
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_rd r;
	pgp_err e = PGP_OK;
	pgp_rd_init(&r, p, len);
	while (!pgp_rd_empty(&r)) {
		pgp_rd save = r;
		pgp_pkt pkt;
		cert_counts cc;
		pgp_cert *c = NULL;
		pgp_rd start;
		pgp_err pending;

		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			return e;
		pgp_pkt_release(&pkt);
		if (pkt.tag == PGP_TAG_SIGNATURE) {
			if ((e = keep_loose_revocation(s, &pkt.body)) != PGP_OK)
				return e;
			continue;
		}
		if (!is_primary_tag(pkt.tag))
			continue; /* stray packet before a primary key */
		start = save;
		if ((e = count_cert(&cc, &start, &pending, diag)) != PGP_OK)
			return e;
		start.len = cc.end;
		e = build_cert(&c, &start, &cc, diag);
		r = save;
		(void)pgp_rd_skip(&r, cc.end);
		if (e == PGP_ERR_NOMEM)
			return e;
		if (e != PGP_OK) {
			s->skipped++;
			if (pending != PGP_OK)
				return pending;
			continue;
		}
		if ((e = add_cert(s, c)) != PGP_OK)
			return e;
		if (pending != PGP_OK)
			return pending; /* diag still describes the framing error */
	}
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_add_owned(pgp_certset *s, uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_err e = grow((void **)&s->owned, &s->capowned, s->nowned + 1, sizeof *s->owned);
	if (e != PGP_OK) {
		free(p);
		return e;
	}
	s->owned[s->nowned++] = p;
	return pgp_certset_add(s, p, len, diag);
}

/* see cert.h */
size_t
pgp_certset_count(const pgp_certset *s)
{
	return s->ncerts;
}

/* see cert.h */
const pgp_cert *
pgp_certset_get(const pgp_certset *s, size_t i)
{
	return i < s->ncerts ? settle(s)->certs[i] : NULL;
}

/* see cert.h */
size_t
pgp_certset_skipped(const pgp_certset *s)
{
	return s->skipped;
}

static int
idx_cmp(const void *a, const void *b)
{
	const idx_ent *x = a, *y = b;
	int c = memcmp(x->keyid, y->keyid, 8);
	if (c)
		return c;
	return x->cert < y->cert ? -1 : x->cert > y->cert;
}

/* Binary search: first index entry with this key ID, or nidx. */
static size_t
idx_lower(const pgp_certset *s, const uint8_t keyid[8])
{
	size_t lo = 0, hi = s->nidx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(s->idx[mid].keyid, keyid, 8) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Attach stand-alone revocations to the primary keys they name (the index
 * is sorted). One that names no primary key in the set stays unattached. */
static void
attach_loose(pgp_certset *s)
{
	for (; s->attached < s->nloose; s->attached++) {
		size_t i = idx_lower(s, s->loose_id[s->attached].keyid);
		for (; i < s->nidx && memcmp(s->idx[i].keyid, s->loose_id[s->attached].keyid, 8) == 0; i++) {
			pgp_cert *c = s->certs[s->idx[i].cert];
			pgp_rd *n;
			if (memcmp(c->primary.keyid, s->loose_id[s->attached].keyid, 8) != 0)
				continue;
			if ((n = realloc(c->loose, (c->nloose + 1) * sizeof *n)) == NULL)
				continue; /* out of memory: the revocation is not honoured */
			c->loose = n;
			c->loose[c->nloose++] = s->loose[s->attached];
		}
	}
}

/*
 * The index is sorted, and stand-alone revocations attached, lazily on the
 * first lookup after additions (so loading many files costs one sort).
 */
static pgp_certset *
settle(const pgp_certset *cs)
{
	pgp_certset *s = (pgp_certset *)(uintptr_t)cs;
	if (s->sorted != s->nidx) {
		qsort(s->idx, s->nidx, sizeof *s->idx, idx_cmp);
		s->sorted = s->nidx;
	}
	if (s->attached != s->nloose)
		attach_loose(s);
	return s;
}

/* see cert.h */
size_t
pgp_certset_find(const pgp_certset *cs, const uint8_t keyid[8], const pgp_cert **out, size_t max)
{
	pgp_certset *s = settle(cs);
	size_t lo, n = 0;
	uint32_t last = UINT32_MAX;
	lo = idx_lower(s, keyid);
	for (; lo < s->nidx && memcmp(s->idx[lo].keyid, keyid, 8) == 0; lo++) {
		if (s->idx[lo].cert == last)
			continue;
		last = s->idx[lo].cert;
		if (n < max)
			out[n] = s->certs[last];
		n++;
	}
	return n;
}

static size_t
set_find(void *ctx, const uint8_t keyid[8], const pgp_cert **out, size_t max)
{
	return pgp_certset_find(ctx, keyid, out, max);
}

/* see cert.h */
void
pgp_certset_source(const pgp_certset *s, pgp_certsrc *out)
{
	out->find = set_find;
	out->ctx = (void *)(uintptr_t)s;
}

/* see cert.h */
const pgp_key *
pgp_cert_key_by_id(const pgp_cert *c, const uint8_t keyid[8], int *subkey_index)
{
	uint32_t i;
	if (memcmp(c->primary.keyid, keyid, 8) == 0) {
		if (subkey_index)
			*subkey_index = -1;
		return &c->primary;
	}
	for (i = 0; i < c->nsubs; i++)
		if (memcmp(c->subs[i].key.keyid, keyid, 8) == 0) {
			if (subkey_index)
				*subkey_index = (int)i;
			return &c->subs[i].key;
		}
	return NULL;
}
