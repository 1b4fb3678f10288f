/*
 * certset.c - the in-memory certificate set: copies of one key merged into
 * one certificate, the key ID / fingerprint / e-mail lookups, and the
 * pgp_certsrc view. see cert.h
 *
 * Every pgp_certset_add() ends by settling the set: the certificates it
 * parsed (copies) are grouped by primary key fingerprint, the indexes are
 * merged with the new entries, stand-alone revocations are matched with
 * their keys, and every group that changed is merged again
 * (pgp__cert_merge). A group of one copy without stand-alone revocations
 * and without a component repeated inside it is that copy as parsed, so a keyring without duplicates costs nothing
 * more. An allocation failure or a limit marks the set broken: from then on
 * lookups fail, as a set that lost part of its input could lose a revocation.
 */
#include <stdlib.h>
#include <string.h>
#include "cert.h"
#include "cert_int.h"
#include "certset_int.h"
#include "err_int.h"
#include "limits.h"

/* see cert.h */
pgp_err
pgp_certset_new(pgp_certset **out)
{
	*out = calloc(1, sizeof **out);
	if (*out == NULL)
		return PGP_ERR_NOMEM;
	(*out)->max_sigs = PGP_MAX_SIGS_PER_COMP;
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_set_sig_cap(pgp_certset *s, size_t max_sigs)
{
	if (max_sigs == 0 || max_sigs > PGP_MAX_STRIP_SIGS_PER_COMP || s->nraw || s->nloose ||
	    s->added)
		return PGP_ERR_INVALID;
	s->max_sigs = max_sigs;
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_set_lazy(pgp_certset *s)
{
	if (s->added || s->lazy)
		return PGP_ERR_INVALID;
	return pgp__cs_lazy_new(&s->lazy);
}

/* see cert.h */
void
pgp_certset_free(pgp_certset *s)
{
	size_t i;
	if (s == NULL)
		return;
	for (i = 0; i < s->nraw; i++)
		free(s->raw[i]);
	for (i = 0; i < s->ngroups; i++)
		if (s->groups[i].merged)
			free(s->groups[i].cert);
	for (i = 0; i < s->nretired; i++)
		free(s->retired[i]);
	for (i = 0; i < s->nowned; i++)
		free(s->owned[i]);
	free(s->raw);
	free(s->next);
	free(s->groups);
	free(s->fidx);
	free(s->idx);
	free(s->loose);
	free(s->retired);
	free(s->owned);
	free(s->email);
	free(s->refused_kid);
	free(s->refused_email);
	free(s->refusals);
	free(s->rawseq);
	pgp__cs_lazy_free(s->lazy);
	free(s);
}

/* see certset_int.h */
pgp_err
pgp__cs_grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t ncap;
	void *np;
	if (need <= *cap)
		return PGP_OK;
	ncap = *cap ? *cap : 16;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return PGP_ERR_NOMEM;
		ncap *= 2;
	}
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
fent_cmp(const void *a, const void *b)
{
	const fpr_ent *x = a, *y = b;
	int c = pgp_fpr_cmp(x->fpr, y->fpr);
	if (c)
		return c;
	return x->grp < y->grp ? -1 : x->grp > y->grp;
}

static int
idx_cmp(const void *a, const void *b)
{
	const idx_ent *x = a, *y = b;
	int c = memcmp(x->keyid, y->keyid, 8);
	if (c)
		return c;
	return x->grp < y->grp ? -1 : x->grp > y->grp;
}

static int
loose_cmp(const void *a, const void *b)
{
	const loose_ent *x = a, *y = b;
	int c = memcmp(x->keyid, y->keyid, 8);
	if (c)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/*
 * base[0..nsorted) is sorted; sort base[nsorted..n) and merge the two runs,
 * so that adding k entries to n costs O(k log k + n), not a full sort.
 * see certset_int.h
 */
pgp_err
pgp__cs_sort_tail(void *base, size_t nsorted, size_t n, size_t elem,
    int (*cmp)(const void *, const void *))
{
	uint8_t *b = base, *tmp, *o;
	size_t i = 0, j = nsorted;
	if (n == nsorted)
		return PGP_OK;
	qsort(b + nsorted * elem, n - nsorted, elem, cmp);
	if (nsorted == 0 || cmp(b + (nsorted - 1) * elem, b + nsorted * elem) <= 0)
		return PGP_OK;
	if ((tmp = malloc(n * elem)) == NULL)
		return PGP_ERR_NOMEM;
	o = tmp;
	while (i < nsorted || j < n) {
		const uint8_t *src;
		if (j == n || (i < nsorted && cmp(b + i * elem, b + j * elem) <= 0))
			src = b + i++ * elem;
		else
			src = b + j++ * elem;
		memcpy(o, src, elem);
		o += elem;
	}
	memcpy(b, tmp, n * elem);
	free(tmp);
	return PGP_OK;
}

static pgp_err
add_index(pgp_certset *s, const uint8_t keyid[8], size_t grp)
{
	pgp_err e;
	if ((e = pgp__cs_grow((void **)&s->idx, &s->capidx, s->nidx + 1,
	    sizeof *s->idx)) != PGP_OK)
		return e;
	memcpy(s->idx[s->nidx].keyid, keyid, 8);
	s->idx[s->nidx].grp = (uint32_t)grp;
	s->nidx++;
	return PGP_OK;
}

/* Index the key IDs of one copy under its group. */
static pgp_err
index_copy(pgp_certset *s, const pgp_cert *c, size_t grp)
{
	pgp_err e;
	uint32_t i;
	if ((e = add_index(s, c->primary.keyid, grp)) != PGP_OK)
		return e;
	for (i = 0; i < c->nsubs; i++)
		if ((e = add_index(s, c->subs[i].key.keyid, grp)) != PGP_OK)
			return e;
	return PGP_OK;
}

/* Binary search over n sorted entries of `stride` octets, each starting with
 * an 8-octet key ID: the first entry with this key ID, or n. */
static size_t
keyid_lower(const void *base, size_t n, size_t stride, const uint8_t keyid[8])
{
	const uint8_t *p = base;
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (memcmp(p + mid * stride, keyid, 8) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The first entry of the sorted key ID index with this key ID. */
static size_t
idx_lower(const pgp_certset *s, const uint8_t keyid[8])
{
	return keyid_lower(s->idx, s->sorted, sizeof *s->idx, keyid);
}

/* The first sorted stand-alone revocation issued by this key ID. */
static size_t
loose_lower(const pgp_certset *s, const uint8_t keyid[8])
{
	return keyid_lower(s->loose, s->loose_sorted, sizeof *s->loose, keyid);
}

/* The group of a primary fingerprint in the sorted fingerprint index, or NONE. */
static uint32_t
fidx_find(const pgp_certset *s, const pgp_fpr *fpr)
{
	size_t lo = 0, hi = s->nfidx;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = pgp_fpr_cmp(s->fidx[mid].fpr, fpr);
		if (c == 0)
			return s->fidx[mid].grp;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NONE;
}

/*
 * 1 if one parsed copy holds the same subkey (fingerprint) or the same user
 * ID / attribute (packet body) twice: a keyserver merge or a concatenation
 * can append a component again with newer signatures. Such a copy is merged
 * with itself, so that every binding of the component counts wherever it
 * was placed, not only those of its first occurrence (vectors/certorder).
 * Quadratic, bounded by PGP_MAX_SUBKEYS and PGP_MAX_UIDS per copy; a
 * certificate without duplicates costs one pass of comparisons.
 */
static int
has_dup_component(const pgp_cert *c)
{
	uint32_t i, j;
	for (i = 0; i < c->nsubs; i++)
		for (j = 0; j < i; j++)
			if (pgp_fpr_cmp(&c->subs[i].key.fpr, &c->subs[j].key.fpr) == 0)
				return 1;
	for (i = 0; i < c->nuids; i++)
		for (j = 0; j < i; j++)
			if (c->uids[i].is_attr == c->uids[j].is_attr &&
			    c->uids[i].data.len == c->uids[j].data.len &&
			    memcmp(c->uids[i].data.p, c->uids[j].data.p, c->uids[i].data.len) == 0)
				return 1;
	return 0;
}

/*
 * Give every new copy its group: an existing one with the same primary
 * fingerprint, else a new one; new groups are created in input order.
 */
static pgp_err
group_new_copies(pgp_certset *s, size_t *first_new_group)
{
	size_t n = s->nraw - s->grouped, i, k, nf0 = s->nfidx;
	fpr_ent *ord;          /* new copies by (fingerprint, input order) */
	uint32_t *grp_of;      /* per new copy: its group, or NONE */
	uint32_t *lead;        /* per new copy: the first new copy of its key */
	pgp_err e = PGP_OK;
	*first_new_group = s->ngroups;
	if (n == 0)
		return PGP_OK;
	ord = malloc(n * sizeof *ord);
	grp_of = malloc(n * sizeof *grp_of);
	lead = malloc(n * sizeof *lead);
	if (ord == NULL || grp_of == NULL || lead == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		ord[i].fpr = &s->raw[s->grouped + i]->primary.fpr;
		ord[i].grp = (uint32_t)i;
	}
	qsort(ord, n, sizeof *ord, fent_cmp);
	for (i = 0; i < n; i = k) {
		uint32_t g = fidx_find(s, ord[i].fpr);
		for (k = i; k < n && pgp_fpr_cmp(ord[k].fpr, ord[i].fpr) == 0; k++) {
			grp_of[ord[k].grp] = g;
			lead[ord[k].grp] = ord[i].grp;
		}
	}
	for (i = 0; i < n; i++) {
		size_t ci = s->grouped + i;
		uint32_t g = grp_of[i];
		if (g == NONE && lead[i] == i) {
			/* the first copy of a new key */
			group *gr;
			if ((e = pgp__cs_grow((void **)&s->groups, &s->capgroups, s->ngroups + 1,
			    sizeof *s->groups)) != PGP_OK ||
			    (e = pgp__cs_grow((void **)&s->fidx, &s->capfidx, s->nfidx + 1,
			    sizeof *s->fidx)) != PGP_OK)
				goto out;
			g = (uint32_t)s->ngroups++;
			gr = &s->groups[g];
			memset(gr, 0, sizeof *gr);
			gr->cert = s->raw[ci];
			gr->first = gr->last = (uint32_t)ci;
			gr->dirty = (uint8_t)has_dup_component(s->raw[ci]);
			s->fidx[s->nfidx].fpr = &s->raw[ci]->primary.fpr;
			s->fidx[s->nfidx].grp = g;
			s->nfidx++;
			grp_of[i] = g;
		} else {
			if (g == NONE)
				g = grp_of[lead[i]]; /* created above: lead[i] < i */
			grp_of[i] = g;
			s->next[s->groups[g].last] = (uint32_t)ci;
			s->groups[g].last = (uint32_t)ci;
			s->groups[g].dirty = 1;
		}
		s->next[ci] = NONE;
		if ((e = index_copy(s, s->raw[ci], g)) != PGP_OK)
			goto out;
	}
	s->grouped = s->nraw;
	e = pgp__cs_sort_tail(s->fidx, nf0, s->nfidx, sizeof *s->fidx, fent_cmp);
out:
	free(ord);
	free(grp_of);
	free(lead);
	return e;
}

/* Mark the groups whose primary key issued a stand-alone revocation. */
static void
mark_loose_targets(pgp_certset *s, const uint8_t keyid[8])
{
	size_t i = idx_lower(s, keyid);
	for (; i < s->sorted && memcmp(s->idx[i].keyid, keyid, 8) == 0; i++) {
		group *g = &s->groups[s->idx[i].grp];
		if (memcmp(g->cert->primary.keyid, keyid, 8) == 0)
			g->dirty = 1;
	}
}

/* Merge one group again from all its copies and revocations. */
static pgp_err
remerge(pgp_certset *s, group *g, pgp_diag *diag)
{
	const pgp_cert *stack[8], **copies = stack;
	const pgp_cert *first = s->raw[g->first];
	pgp_rd *loose = NULL;
	size_t n = 0, nl = 0, i, lo;
	uint32_t c;
	pgp_cert *m = NULL;
	pgp_err e = PGP_ERR_NOMEM;

	for (c = g->first; c != NONE; c = s->next[c])
		n++;
	if (n > sizeof stack / sizeof stack[0] && (copies = malloc(n * sizeof *copies)) == NULL)
		return PGP_ERR_NOMEM;
	for (n = 0, c = g->first; c != NONE; c = s->next[c])
		copies[n++] = s->raw[c];
	lo = loose_lower(s, first->primary.keyid);
	for (i = lo; i < s->loose_sorted && memcmp(s->loose[i].keyid, first->primary.keyid, 8) == 0; i++)
		nl++;
	if (nl && (loose = malloc(nl * sizeof *loose)) == NULL)
		goto out;
	for (i = 0; i < nl; i++)
		loose[i] = s->loose[lo + i].body;
	if (n == 1 && nl == 0 && !has_dup_component(first)) {
		e = PGP_OK; /* a copy as parsed */
	} else if ((e = pgp__cert_merge(&m, copies, n, loose, nl, diag)) != PGP_OK) {
		goto out;
	}
	if (g->merged) {
		if ((e = pgp__cs_grow((void **)&s->retired, &s->capretired, s->nretired + 1,
		    sizeof *s->retired)) != PGP_OK) {
			free(m);
			goto out;
		}
		s->retired[s->nretired++] = g->cert;
	}
	g->cert = m ? m : s->raw[g->first];
	g->merged = m != NULL;
	g->dirty = 0;
out:
	free(loose);
	if (copies != stack)
		free((void *)copies);
	return e;
}

/* After additions: group, index, match revocations, merge. see top of file
 * and certset_int.h */
pgp_err
pgp__cs_settle(pgp_certset *s, pgp_diag *diag)
{
	size_t first_new, i, nl0 = s->loose_sorted;
	pgp_err e;
	if ((e = group_new_copies(s, &first_new)) != PGP_OK)
		return e;
	if ((e = pgp__cs_sort_tail(s->idx, s->sorted, s->nidx, sizeof *s->idx, idx_cmp)) != PGP_OK)
		return e;
	s->sorted = s->nidx;
	/* new revocations against every key; new keys against old revocations */
	for (i = nl0; i < s->nloose; i++)
		mark_loose_targets(s, s->loose[i].keyid);
	for (i = first_new; i < s->ngroups && nl0; i++) {
		size_t lo = loose_lower(s, s->groups[i].cert->primary.keyid);
		if (lo < nl0 && memcmp(s->loose[lo].keyid, s->groups[i].cert->primary.keyid, 8) == 0)
			s->groups[i].dirty = 1;
	}
	if ((e = pgp__cs_sort_tail(s->loose, nl0, s->nloose, sizeof *s->loose,
	    loose_cmp)) != PGP_OK)
		return e;
	s->loose_sorted = s->nloose;
	for (i = 0; i < s->ngroups; i++)
		if (s->groups[i].dirty && (e = remerge(s, &s->groups[i], diag)) != PGP_OK)
			return e;
	s->email_valid = 0;
	return PGP_OK;
}

static pgp_err
add_copy(pgp_certset *s, pgp_cert *c)
{
	pgp_err e;
	if ((e = pgp__cs_grow((void **)&s->raw, &s->capraw, s->nraw + 1,
	    sizeof *s->raw)) != PGP_OK ||
	    (e = pgp__cs_grow((void **)&s->next, &s->capnext, s->nraw + 1,
	    sizeof *s->next)) != PGP_OK ||
	    (e = pgp__cs_grow((void **)&s->rawseq, &s->caprawseq, s->nraw + 1,
	    sizeof *s->rawseq)) != PGP_OK) {
		free(c);
		return e;
	}
	s->raw[s->nraw] = c;
	s->rawseq[s->nraw] = s->lazy ? s->cur_seq : (uint32_t)s->nraw;
	s->next[s->nraw] = NONE;
	s->nraw++;
	return PGP_OK;
}

/* see certset_int.h */
int
pgp__cs_loose_issuer(const pgp_rd *body, uint8_t keyid[8])
{
	pgp_sig sig;
	if (pgp_sig_parse(&sig, body, NULL) != PGP_OK || sig.type != PGP_SIG_KEY_REVOCATION)
		return 0;
	if (sig.issuer_fpr.len == 20)
		memcpy(keyid, sig.issuer_fpr.v + 12, 8);
	else if (sig.issuer_fpr.len == 32)
		memcpy(keyid, sig.issuer_fpr.v, 8);
	else if (sig.has_issuer)
		memcpy(keyid, sig.issuer, 8);
	else
		return 0;
	return 1;
}

/* A signature outside any certificate: keep it if it is a key revocation. */
static pgp_err
keep_loose_revocation(pgp_certset *s, const pgp_rd *body)
{
	uint8_t keyid[8];
	pgp_err e;
	loose_ent *l;
	if (!pgp__cs_loose_issuer(body, keyid))
		return PGP_OK;
	if ((e = pgp__cs_grow((void **)&s->loose, &s->caploose, s->nloose + 1,
	    sizeof *s->loose)) != PGP_OK)
		return e;
	l = &s->loose[s->nloose];
	memcpy(l->keyid, keyid, 8);
	l->seq = (uint32_t)s->nloose;
	l->body = *body;
	s->nloose++;
	return PGP_OK;
}

/* Parse certificates and revocations from p into copies (no settling). */

static int
kid_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 8);
}

static int
view_email_cmp(const void *a, const void *b)
{
	const pgp_view *x = a, *y = b;
	return pgp_email_cmp(x->p, x->len, y->p, y->len);
}

/*
 * A certificate beyond a limit (signatures on one component, user IDs,
 * subkeys) is refused, not the key set: the key IDs of its keys and the
 * addresses of its user IDs are recorded, and every later lookup that
 * names one of them fails with PGP_ERR_LIMIT, because the refused octets
 * might hold a revocation. see certset_int.h
 */
pgp_err
pgp__cs_refuse(pgp_certset *s, const pgp_rd *start, pgp_diag *diag, pgp_rd *next)
{
	pgp_rd r = *start;
	pgp_pkt pkt;
	pgp_diag why = {start->off, PGP_TAG_PUBLIC_KEY, "certificate beyond a limit"};
	int first = 1;
	pgp_err e, pending = PGP_OK;

	if (diag)
		why = *diag;
	if ((e = pgp__cs_grow((void **)&s->refusals, &s->caprefusals, s->nrefusals + 1,
	    sizeof *s->refusals)) != PGP_OK)
		return e;
	s->refusals[s->nrefusals++] = why;
	while (pgp__cert_next(&r, &first, &pkt, &pending, NULL)) {
		pgp_key k;
		pgp_view addr;
		if ((pgp__is_primary_tag(pkt.tag) || pkt.tag == PGP_TAG_PUBLIC_SUBKEY ||
		    pkt.tag == PGP_TAG_SECRET_SUBKEY) && pgp_key_parse(&k, &pkt, NULL) == PGP_OK) {
			if ((e = pgp__cs_grow((void **)&s->refused_kid, &s->caprefused_kid,
			    s->nrefused_kid + 1, sizeof *s->refused_kid)) != PGP_OK)
				return e;
			memcpy(s->refused_kid[s->nrefused_kid++], k.keyid, 8);
		} else if (pkt.tag == PGP_TAG_USER_ID &&
		    pgp_uid_email(pgp_rd_as_view(&pkt.body), &addr)) {
			if ((e = pgp__cs_grow((void **)&s->refused_email, &s->caprefused_email,
			    s->nrefused_email + 1, sizeof *s->refused_email)) != PGP_OK)
				return e;
			s->refused_email[s->nrefused_email++] = addr;
		}
	}
	qsort(s->refused_kid, s->nrefused_kid, sizeof *s->refused_kid, kid_cmp);
	qsort(s->refused_email, s->nrefused_email, sizeof *s->refused_email, view_email_cmp);
	*next = r;
	if (pending != PGP_OK)
		return pgp__fail(diag, pending, r.off, -1, "framing error in a refused certificate");
	return PGP_OK;
}

/* see certset_int.h */
pgp_err
pgp__cs_parse(pgp_certset *s, const pgp_rd *in, pgp_diag *diag)
{
	pgp_rd r = *in;
	pgp_err e = PGP_OK;
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
		if (!pgp__is_primary_tag(pkt.tag))
			continue; /* stray packet before a primary key */
		start = save;
		if ((e = pgp__cert_count(&cc, &start, s->max_sigs, &pending, diag)) == PGP_ERR_LIMIT) {
			if ((e = pgp__cs_refuse(s, &start, diag, &r)) != PGP_OK)
				return e;
			continue;
		}
		if (e != PGP_OK)
			return e;
		start.len = cc.end;
		e = pgp__cert_build(&c, &start, &cc, diag);
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
		if ((e = add_copy(s, c)) != PGP_OK)
			return e;
		if (pending != PGP_OK)
			return pending; /* diag still describes the framing error */
	}
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_add(pgp_certset *s, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_err e, se;
	pgp_diag sd = {0, -1, NULL};
	pgp_rd in;
	if (s->broken != PGP_OK)
		return s->broken;
	s->added = 1;
	if (s->lazy) {
		e = pgp__cs_lazy_add(s, p, len, diag);
		if (e == PGP_ERR_NOMEM || e == PGP_ERR_LIMIT)
			s->broken = e;
		return e;
	}
	pgp_rd_init(&in, p, len);
	e = pgp__cs_parse(s, &in, diag);
	/* what was parsed before an error is settled too (framing errors keep
	 * the certificates before them) */
	se = pgp__cs_settle(s, &sd);
	if (se != PGP_OK) {
		if (diag)
			*diag = sd;
		e = se;
	}
	if (e == PGP_ERR_NOMEM || e == PGP_ERR_LIMIT)
		s->broken = e;
	return e;
}

/* see cert.h */
pgp_err
pgp_certset_add_owned(pgp_certset *s, uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_err e = pgp_certset_keep(s, p);
	return e != PGP_OK ? e : pgp_certset_add(s, p, len, diag);
}

/* see cert.h */
pgp_err
pgp_certset_keep(pgp_certset *s, void *p)
{
	pgp_err e = pgp__cs_grow((void **)&s->owned, &s->capowned, s->nowned + 1,
	    sizeof *s->owned);
	if (e != PGP_OK) {
		free(p);
		s->broken = e;
		return e;
	}
	s->owned[s->nowned++] = p;
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certset_status(const pgp_certset *s)
{
	return s->broken;
}

/* see cert.h */
size_t
pgp_certset_count(const pgp_certset *s)
{
	if (s->lazy && pgp__cs_lazy_all((pgp_certset *)(uintptr_t)s) != PGP_OK)
		return 0;
	return s->broken != PGP_OK ? 0 : s->ngroups;
}

/* see cert.h */
const pgp_cert *
pgp_certset_get(const pgp_certset *s, size_t i)
{
	if (s->lazy && pgp__cs_lazy_all((pgp_certset *)(uintptr_t)s) != PGP_OK)
		return NULL;
	if (s->broken != PGP_OK || i >= s->ngroups)
		return NULL;
	return s->groups[s->lazy ? pgp__cs_lazy_group(s, i) : i].cert;
}

/* see cert.h */
size_t
pgp_certset_copies(const pgp_certset *s)
{
	if (s->lazy && pgp__cs_lazy_all((pgp_certset *)(uintptr_t)s) != PGP_OK)
		return 0;
	return s->broken != PGP_OK ? 0 : s->nraw;
}

/* see cert.h */
const pgp_cert *
pgp_certset_copy(const pgp_certset *s, size_t i)
{
	if (s->lazy && pgp__cs_lazy_all((pgp_certset *)(uintptr_t)s) != PGP_OK)
		return NULL;
	if (s->broken != PGP_OK || i >= s->nraw)
		return NULL;
	return s->raw[s->lazy ? pgp__cs_lazy_copy(s, i) : i];
}

/* see cert.h */
size_t
pgp_certset_skipped(const pgp_certset *s)
{
	return s->skipped;
}

/* Collect group g once (the callers walk sorted lists, so repeats are adjacent). */
static void
put(const pgp_certset *s, uint32_t g, uint32_t *last, const pgp_cert **out, size_t max,
    size_t *n)
{
	if (g == *last)
		return;
	*last = g;
	if (*n < max)
		out[*n] = s->groups[g].cert;
	(*n)++;
}

static pgp_err
find_keyid(const pgp_certset *s, const uint8_t keyid[8], const pgp_fpr *fpr,
    const pgp_cert **out, size_t max, size_t *total)
{
	size_t i = idx_lower(s, keyid);
	uint32_t last = NONE;
	for (; i < s->sorted && memcmp(s->idx[i].keyid, keyid, 8) == 0; i++) {
		uint32_t g = s->idx[i].grp;
		if (fpr && pgp_cert_key_by_fpr(s->groups[g].cert, fpr, NULL) == NULL)
			continue;
		put(s, g, &last, out, max, total);
	}
	return PGP_OK;
}

/* see cert.h */
int
pgp_email_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	size_t i;
	for (i = 0; i < al && i < bl; i++) {
		int x = a[i] >= 'A' && a[i] <= 'Z' ? a[i] + 32 : a[i];
		int y = b[i] >= 'A' && b[i] <= 'Z' ? b[i] + 32 : b[i];
		if (x != y)
			return x < y ? -1 : 1;
	}
	return al < bl ? -1 : al > bl;
}

static int
email_cmp(const void *a, const void *b)
{
	const email_ent *x = a, *y = b;
	int c = pgp_email_cmp(x->p, x->len, y->p, y->len);
	if (c)
		return c;
	return x->grp < y->grp ? -1 : x->grp > y->grp;
}

static pgp_err
build_email_index(pgp_certset *s)
{
	size_t g, n = 0;
	uint32_t i;
	email_ent *ents;
	for (g = 0; g < s->ngroups; g++)
		n += s->groups[g].cert->nuids;
	if ((ents = malloc((n ? n : 1) * sizeof *ents)) == NULL)
		return PGP_ERR_NOMEM;
	n = 0;
	for (g = 0; g < s->ngroups; g++) {
		const pgp_cert *c = s->groups[g].cert;
		for (i = 0; i < c->nuids; i++) {
			pgp_view a;
			if (c->uids[i].is_attr || !pgp_uid_email(c->uids[i].data, &a))
				continue;
			ents[n].p = a.p;
			ents[n].len = a.len;
			ents[n].grp = (uint32_t)g;
			n++;
		}
	}
	if (n)
		qsort(ents, n, sizeof *ents, email_cmp);
	free(s->email);
	s->email = ents;
	s->nemail = n;
	s->email_valid = 1;
	return PGP_OK;
}

static pgp_err
find_email(const pgp_certset *cs, const uint8_t *addr, size_t len, const pgp_cert **out,
    size_t max, size_t *total)
{
	pgp_certset *s = (pgp_certset *)(uintptr_t)cs; /* the index is built lazily */
	size_t lo = 0, hi;
	uint32_t last = NONE;
	pgp_err e;
	if (!s->email_valid && (e = build_email_index(s)) != PGP_OK)
		return e;
	hi = s->nemail;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pgp_email_cmp(s->email[mid].p, s->email[mid].len, addr, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < s->nemail && pgp_email_cmp(s->email[lo].p, s->email[lo].len, addr, len) == 0; lo++)
		put(s, s->email[lo].grp, &last, out, max, total);
	return PGP_OK;
}

/* Whether q names something a refused certificate speaks about (a key ID
 * of its keys, an address of its user IDs). A v3 fingerprint holds no key
 * ID, so it is refused whenever any certificate was. see certset_int.h */
int
pgp__cs_refused(const pgp_certset *s, const pgp_certq *q)
{
	const uint8_t *kid = NULL;
	if (s->nrefusals == 0)
		return 0;
	if (q->kind == PGP_CERTQ_KEYID && q->len == 8)
		kid = q->p;
	else if (q->kind == PGP_CERTQ_FPR && q->len == 20)
		kid = q->p + 12;
	else if (q->kind == PGP_CERTQ_FPR && q->len == 32)
		kid = q->p;
	else if (q->kind == PGP_CERTQ_FPR)
		return 1;
	if (kid)
		return bsearch(kid, s->refused_kid, s->nrefused_kid, sizeof *s->refused_kid,
		    kid_cmp) != NULL;
	if (q->kind == PGP_CERTQ_EMAIL) {
		pgp_view v;
		v.p = q->p;
		v.len = q->len;
		return bsearch(&v, s->refused_email, s->nrefused_email, sizeof *s->refused_email,
		    view_email_cmp) != NULL;
	}
	return 0;
}

/* see cert.h */
size_t
pgp_certset_refused(const pgp_certset *s)
{
	return s->nrefusals;
}

/* see cert.h */
const pgp_diag *
pgp_certset_refusal(const pgp_certset *s, size_t i)
{
	return i < s->nrefusals ? &s->refusals[i] : NULL;
}

/* see cert.h */
pgp_err
pgp_certset_find(const pgp_certset *s, const pgp_certq *q, const pgp_cert **out, size_t max,
    size_t *total)
{
	*total = 0;
	if (s->broken != PGP_OK)
		return s->broken;
	if (pgp__cs_refused(s, q))
		return PGP_ERR_LIMIT;
	if (s->lazy)
		return pgp__cs_lazy_find((pgp_certset *)(uintptr_t)s, q, out, max, total);
	return pgp__cs_find(s, q, out, max, total);
}

/* see certset_int.h */
pgp_err
pgp__cs_find(const pgp_certset *s, const pgp_certq *q, const pgp_cert **out, size_t max,
    size_t *total)
{
	pgp_fpr f;
	size_t g;
	uint32_t last = NONE;
	*total = 0;
	switch (q->kind) {
	case PGP_CERTQ_KEYID:
		if (q->len != 8)
			return PGP_ERR_INVALID;
		return find_keyid(s, q->p, NULL, out, max, total);
	case PGP_CERTQ_FPR:
		if (q->len != 16 && q->len != 20 && q->len != 32)
			return PGP_ERR_INVALID;
		memset(&f, 0, sizeof f);
		memcpy(f.v, q->p, q->len);
		f.len = (uint8_t)q->len;
		/* the key ID is part of a v4 (last 8) or v6 (first 8) fingerprint;
		 * v3 (MD5) fingerprints do not contain it: scan */
		if (q->len == 20)
			return find_keyid(s, q->p + 12, &f, out, max, total);
		if (q->len == 32)
			return find_keyid(s, q->p, &f, out, max, total);
		for (g = 0; g < s->ngroups; g++)
			if (pgp_cert_key_by_fpr(s->groups[g].cert, &f, NULL) != NULL)
				put(s, (uint32_t)g, &last, out, max, total);
		return PGP_OK;
	case PGP_CERTQ_EMAIL:
		return find_email(s, q->p, q->len, out, max, total);
	default:
		return PGP_ERR_INVALID;
	}
}

static pgp_err
set_find(void *ctx, const pgp_certq *q, const pgp_cert **out, size_t max, size_t *total)
{
	return pgp_certset_find(ctx, q, out, max, total);
}

/* see cert.h */
void
pgp_certset_source(const pgp_certset *s, pgp_certsrc *out)
{
	out->find = set_find;
	out->memo = NULL;
	out->ctx = (void *)(uintptr_t)s;
}

static pgp_err
src_find(const pgp_certsrc *src, pgp_certq_kind kind, const uint8_t *p, size_t len,
    const pgp_cert **out, size_t max, size_t *total)
{
	pgp_certq q;
	*total = 0;
	if (src == NULL || src->find == NULL)
		return PGP_OK; /* no source: nothing found */
	q.kind = kind;
	q.p = p;
	q.len = len;
	return src->find(src->ctx, &q, out, max, total);
}

/* see cert_int.h */
pgp_err
pgp__certsrc_lookup(const pgp_certsrc *src, const pgp_certq *q, const pgp_cert **stack,
    size_t nstack, const pgp_cert ***list, size_t *n)
{
	pgp_err e;
	size_t total = 0;
	*list = stack;
	*n = 0;
	if (src == NULL || src->find == NULL)
		return PGP_OK;
	if ((e = src->find(src->ctx, q, stack, nstack, &total)) != PGP_OK)
		return e;
	if (total > nstack) {
		if (total > PGP_MAX_KEYID_CERTS)
			return PGP_ERR_LIMIT;
		if ((*list = malloc(total * sizeof **list)) == NULL) {
			*list = stack;
			return PGP_ERR_NOMEM;
		}
		if ((e = src->find(src->ctx, q, *list, total, &total)) != PGP_OK) {
			free((void *)*list);
			*list = stack;
			return e;
		}
		if (total > PGP_MAX_KEYID_CERTS) {
			free((void *)*list);
			*list = stack;
			return PGP_ERR_LIMIT;
		}
	}
	*n = total;
	return PGP_OK;
}

/* see cert.h */
pgp_err
pgp_certsrc_by_keyid(const pgp_certsrc *src, const uint8_t keyid[8], const pgp_cert **out,
    size_t max, size_t *total)
{
	return src_find(src, PGP_CERTQ_KEYID, keyid, 8, out, max, total);
}

/* see cert.h */
pgp_err
pgp_certsrc_by_fpr(const pgp_certsrc *src, const pgp_fpr *fpr, const pgp_cert **out,
    size_t max, size_t *total)
{
	return src_find(src, PGP_CERTQ_FPR, fpr->v, fpr->len, out, max, total);
}

/* see cert.h */
pgp_err
pgp_certsrc_by_email(const pgp_certsrc *src, const char *addr, size_t len,
    const pgp_cert **out, size_t max, size_t *total)
{
	return src_find(src, PGP_CERTQ_EMAIL, (const uint8_t *)addr, len, out, max, total);
}

/* see cert.h */
int
pgp_uid_email(pgp_view uid, pgp_view *out)
{
	size_t i, lt = uid.len, gt;
	out->p = NULL;
	out->len = 0;
	/* the last "<...>" pair (RFC 9580 §5.11: by convention an RFC 2822
	 * name-addr, "Name (Comment) <addr-spec>") */
	for (i = uid.len; i > 0; i--)
		if (uid.p[i - 1] == '<') {
			lt = i - 1;
			break;
		}
	if (lt < uid.len) {
		for (gt = lt + 1; gt < uid.len && uid.p[gt] != '>'; gt++)
			;
		if (gt == uid.len || gt == lt + 1)
			return 0;
		out->p = uid.p + lt + 1;
		out->len = gt - lt - 1;
		return 1;
	}
	/* a bare addr-spec: one word with an '@' */
	if (uid.len == 0 || memchr(uid.p, '@', uid.len) == NULL)
		return 0;
	for (i = 0; i < uid.len; i++)
		if (uid.p[i] <= ' ' || uid.p[i] == 0x7f || uid.p[i] == '>')
			return 0;
	*out = uid;
	return 1;
}
