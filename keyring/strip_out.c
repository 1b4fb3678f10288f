/*
 * strip_out.c - the stripped certificate in canonical order, the superseded
 * choice (strip/export only) and the certification edges. see strip.h
 *
 * Canonical order (docs/semantics.md, "Stripping"):
 *   primary key (tag 6, its public part);
 *   its direct signatures (0x1F, 0x20) by body octets;
 *   user IDs (tag 13) then user attributes (tag 17) by body octets, each
 *     followed by its signatures by body octets;
 *   subkeys (tag 14) by (creation time, fingerprint), each followed by its
 *     signatures by body octets.
 * Identical signature octets on one component are written once.
 */
#include <stdlib.h>
#include <string.h>
#include "strip_int.h"

/* Output position of a kept signature: (at, component out index, body). */
typedef struct opos {
	const kcert *k;
	uint32_t i;
} opos;

static int32_t
comp_out(const kcert *k, const ksig *s)
{
	if (s->at == K_UID)
		return k->ug[s->grp].out;
	if (s->at == K_SUB)
		return k->sg[s->grp].out;
	return 0;
}

static int
opos_cmp(const void *a, const void *b)
{
	const opos *x = a, *y = b;
	const ksig *p = &x->k->s[x->i], *q = &y->k->s[y->i];
	int32_t cp, cq;
	int c;
	if (p->at != q->at)
		return p->at < q->at ? -1 : 1;
	cp = comp_out(x->k, p);
	cq = comp_out(y->k, q);
	if (cp != cq)
		return cp < cq ? -1 : 1;
	if ((c = kr__body_cmp(p->body, q->body)) != 0)
		return c;
	/* identical octets: the input one before one found elsewhere, then
	 * input order (only which copy is counted as the duplicate differs) */
	if (p->extra != q->extra)
		return p->extra < q->extra ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* ---- the superseded choice ---- */

typedef struct known_ctx {
	uint8_t (*tags)[PGP_SIGMEMO_TAG_LEN];
	size_t n;
} known_ctx;

static int
tag_cmp(const void *a, const void *b)
{
	return memcmp(a, b, PGP_SIGMEMO_TAG_LEN);
}

static int
known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	const known_ctx *kc = ctx;
	return kc->n && bsearch(tag, kc->tags, kc->n, PGP_SIGMEMO_TAG_LEN, tag_cmp) != NULL;
}

/* Creation time of the self-signature to keep in a component whose
 * bindings in force (per evaluation) was created at `inforce` (-1: none in
 * force at the reference time: the newest verified one). */
static void
keep_one_time(kcert *k, const opos *v, size_t a, size_t b, int64_t inforce, uint8_t type_lo,
    uint8_t type_hi)
{
	int64_t t = -1;
	size_t j;
	if (inforce >= 0)
		for (j = a; j < b; j++) {
			const ksig *s = &k->s[v[j].i];
			if (s->role == R_BIND && s->type >= type_lo && s->type <= type_hi &&
			    s->state == S_KEPT && (int64_t)s->created == inforce)
				t = inforce;
		}
	if (t < 0)
		for (j = a; j < b; j++) {
			const ksig *s = &k->s[v[j].i];
			if (s->role == R_BIND && s->type >= type_lo && s->type <= type_hi &&
			    s->state == S_KEPT && (int64_t)s->created > t)
				t = s->created;
		}
	for (j = a; j < b; j++) {
		const ksig *s = &k->s[v[j].i];
		if (s->role == R_BIND && s->type >= type_lo && s->type <= type_hi &&
		    s->state == S_KEPT && (int64_t)s->created != t)
			kr__drop(k, v[j].i, KR_DROP_SUPERSEDED);
	}
}

/*
 * keep_superseded = 0: per component only the self-signature in force at
 * o->now under the policy (as pgp_cert_eval finds it over the certificate
 * made of the verified self-signatures), or the newest verified one when
 * none is in force; every revocation stays. Self-signatures created in
 * the same second as the one in force are all kept (evaluation would pick
 * among them by position).
 */
static pgp_err
drop_superseded(kr_ctx *x, kcert *k, opos *v, size_t nv)
{
	const pgp_cert *c = k->c;
	pgp_cert view;
	pgp_rd *pool;
	pgp_uidc *uids;
	pgp_subc *subs;
	pgp_certeval ev;
	pgp_certsrc src;
	pgp_sigmemo memo;
	known_ctx kc;
	size_t j, np = 0, a, b;
	uint32_t nu = 0, ns = 0, t;
	pgp_err e;

	pool = calloc(nv + 1, sizeof *pool);
	uids = calloc((size_t)k->nug + 1, sizeof *uids);
	subs = calloc((size_t)k->nsg + 1, sizeof *subs);
	kc.tags = malloc(((size_t)k->ntags + 1) * PGP_SIGMEMO_TAG_LEN);
	if (pool == NULL || uids == NULL || subs == NULL || kc.tags == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	for (t = 0; t < k->ntags; t++)
		memcpy(kc.tags[t], k->tags[t].tag, PGP_SIGMEMO_TAG_LEN);
	kc.n = k->ntags;
	if (kc.n > 1)
		qsort(kc.tags, kc.n, PGP_SIGMEMO_TAG_LEN, tag_cmp);

	memset(&view, 0, sizeof view);
	view.primary = c->primary;
	view.raw = c->raw;
	view.off = c->off;
	view.ncopies = 1;
	view.dsigs = pool;
	for (t = 0; t < k->nug; t++)
		if (k->ug[t].out >= 0) {
			uids[nu].is_attr = c->uids[k->ug[t].rep].is_attr;
			uids[nu].data = c->uids[k->ug[t].rep].data;
			nu++;
		}
	for (t = 0; t < k->nsg; t++)
		if (k->sg[t].out >= 0)
			subs[ns++].key = c->subs[k->sg[t].rep].key;
	view.uids = uids;
	view.nuids = nu;
	view.subs = subs;
	view.nsubs = ns;
	/* v is in output order: the self-signatures of each component are
	 * contiguous in the pool */
	for (j = 0; j < nv; j++) {
		const ksig *s = &k->s[v[j].i];
		pgp_rd **list;
		uint32_t *cnt;
		if (s->state != S_KEPT || s->role == R_THIRD)
			continue;
		if (s->at == K_DIRECT) {
			list = &view.dsigs;
			cnt = &view.ndsigs;
		} else if (s->at == K_UID) {
			list = &uids[k->ug[s->grp].out].sigs;
			cnt = &uids[k->ug[s->grp].out].nsigs;
		} else {
			list = &subs[k->sg[s->grp].out].sigs;
			cnt = &subs[k->sg[s->grp].out].nsigs;
		}
		if (*cnt == 0)
			*list = &pool[np];
		pool[np++] = *s->body;
		(*cnt)++;
	}
	pgp_certset_source(x->set, &src);
	memo.known = known;
	memo.record = NULL;
	memo.ctx = &kc;
	src.memo = &memo;
	if ((e = pgp_cert_eval(&ev, &view, &src, x->o->now, &x->pol)) != PGP_OK) {
		pgp_certeval_release(&ev);
		goto out;
	}
	/* each component's signatures: v[a..b) */
	for (a = 0; a < nv; a = b) {
		const ksig *s = &k->s[v[a].i];
		int32_t co = comp_out(k, s);
		int64_t inforce = -1;
		for (b = a + 1; b < nv && k->s[v[b].i].at == s->at &&
		    comp_out(k, &k->s[v[b].i]) == co; b++)
			;
		if (s->at == K_UID) {
			const pgp_uidstate *us = &ev.uids[co];
			if (us->status == PGP_OK || us->binding_time != 0)
				inforce = us->binding_time;
			keep_one_time(k, v, a, b, inforce, PGP_SIG_CERT_GENERIC, PGP_SIG_CERT_POSITIVE);
		} else if (s->at == K_SUB) {
			if (ev.subs[co].bound)
				inforce = ev.subs[co].binding_time;
			keep_one_time(k, v, a, b, inforce, PGP_SIG_SUBKEY_BINDING, PGP_SIG_SUBKEY_BINDING);
		} else {
			if (ev.primary.bound)
				inforce = ev.primary.binding_time;
			keep_one_time(k, v, a, b, inforce, PGP_SIG_DIRECT_KEY, PGP_SIG_DIRECT_KEY);
		}
	}
	pgp_certeval_release(&ev);
out:
	free(pool);
	free(uids);
	free(subs);
	free(kc.tags);
	return e;
}

/* ---- output ---- */

static int
has_regex(const pgp_sig *sig)
{
	pgp_rd area;
	pgp_subpkt sp;
	pgp_rd_init(&area, sig->hashed.p, sig->hashed.len);
	while (pgp_subpkt_next(&area, 1, &sp, NULL) == PGP_OK)
		if (sp.type == PGP_SUB_REGEX)
			return 1;
	return 0;
}

static pgp_err
add_edge(kcert *k, const ksig *s, uint32_t uid_out, size_t *cap)
{
	kr_edge *ed;
	pgp_sig sig;
	if (pgp_sig_parse(&sig, s->body, NULL) != PGP_OK)
		return PGP_ERR_INVALID; /* parsed before: cannot happen */
	if (k->nedges == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		kr_edge *np = realloc(k->edges, ncap * sizeof *np);
		if (np == NULL)
			return PGP_ERR_NOMEM;
		k->edges = np;
		*cap = ncap;
	}
	ed = &k->edges[k->nedges++];
	memset(ed, 0, sizeof *ed);
	ed->issuer = s->issuer_cert;
	ed->target = k->idx;
	ed->uid = uid_out;
	ed->issuer_key = s->issuer_key;
	ed->sigtype = sig.type;
	ed->hash_algo = sig.hash_algo;
	ed->pk_algo = sig.pk_algo;
	if (sig.has_trust) {
		ed->trust_depth = sig.trust_level;
		ed->trust_amount = sig.trust_amount;
	}
	ed->has_regex = (uint8_t)has_regex(&sig);
	ed->created = sig.created;
	ed->expires = sig.sig_expires ? (int64_t)sig.created + sig.sig_expires : 0;
	return PGP_OK;
}

static pgp_err
write_sigs(pgp_buf *b, kcert *k, const opos *v, size_t *j, size_t nv, int at, int32_t co,
    kr_scert *out, size_t *ecap)
{
	pgp_err e;
	for (; *j < nv; (*j)++) {
		const ksig *s = &k->s[v[*j].i];
		if (s->at != at || comp_out(k, s) != co)
			break;
		if (s->state != S_KEPT)
			continue;
		if ((e = pgp_write_packet(b, PGP_TAG_SIGNATURE, s->body->p, s->body->len)) != PGP_OK)
			return e;
		out->kept_sigs++;
		if (s->role == R_THIRD) {
			if (s->type != PGP_SIG_CERT_REVOCATION)
				out->kept_certifications++;
			if ((e = add_edge(k, s, (uint32_t)co, ecap)) != PGP_OK)
				return e;
		}
	}
	return PGP_OK;
}

static pgp_err
serialize(kcert *k, const opos *v, size_t nv, kr_scert *out)
{
	const pgp_cert *c = k->c;
	pgp_buf b;
	size_t j = 0, ecap = 0;
	uint32_t g;
	pgp_err e;

	pgp_buf_init(&b, (size_t)1 << 31);
	if ((e = pgp_write_packet(&b, PGP_TAG_PUBLIC_KEY, c->primary.body.p,
	    c->primary.body.len)) != PGP_OK)
		goto fail;
	if ((e = write_sigs(&b, k, v, &j, nv, K_DIRECT, 0, out, &ecap)) != PGP_OK)
		goto fail;
	for (g = 0; g < k->nug; g++) {
		const pgp_uidc *u = &c->uids[k->ug[g].rep];
		if (k->ug[g].out < 0)
			continue;
		/* skip to this component (components are in output order) */
		while (j < nv && k->s[v[j].i].at == K_UID && comp_out(k, &k->s[v[j].i]) < k->ug[g].out)
			j++;
		if ((e = pgp_write_packet(&b, u->is_attr ? PGP_TAG_USER_ATTRIBUTE : PGP_TAG_USER_ID,
		    u->data.p, u->data.len)) != PGP_OK ||
		    (e = write_sigs(&b, k, v, &j, nv, K_UID, k->ug[g].out, out, &ecap)) != PGP_OK)
			goto fail;
		out->nuids_out++;
	}
	for (g = 0; g < k->nsg; g++) {
		const pgp_key *sk = &c->subs[k->sg[g].rep].key;
		if (k->sg[g].out < 0)
			continue;
		while (j < nv && k->s[v[j].i].at < K_SUB)
			j++;
		while (j < nv && k->s[v[j].i].at == K_SUB && comp_out(k, &k->s[v[j].i]) < k->sg[g].out)
			j++;
		if ((e = pgp_write_packet(&b, PGP_TAG_PUBLIC_SUBKEY, sk->body.p, sk->body.len)) != PGP_OK ||
		    (e = write_sigs(&b, k, v, &j, nv, K_SUB, k->sg[g].out, out, &ecap)) != PGP_OK)
			goto fail;
		out->nsubs_out++;
	}
	out->bin = pgp_buf_take(&b, &out->len);
	return PGP_OK;
fail:
	pgp_buf_free(&b);
	return e;
}

static pgp_err
details(kcert *k, kr_scert *out)
{
	uint32_t i, n = 0;
	for (i = 0; i < k->ns; i++)
		n += !k->s[i].extra || k->s[i].state == S_KEPT;
	if ((out->sigs = calloc((size_t)n + 1, sizeof *out->sigs)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < k->ns; i++) {
		const ksig *s = &k->s[i];
		kr_sigrec *r;
		if (s->extra && s->state != S_KEPT)
			continue;
		r = &out->sigs[out->nsigs++];
		r->where = s->src;
		r->sigtype = s->type;
		r->kept = s->state == S_KEPT;
		r->reason = s->state == S_KEPT ? 0 : s->reason;
		r->has_issuer = s->has_issuer;
		memcpy(r->issuer, s->issuer, 8);
		r->third_party = s->self == 0;
		r->comp = s->src_comp;
		r->created = s->created;
	}
	return PGP_OK;
}

/* see strip_int.h */
pgp_err
kr__phase_out(kr_ctx *x, kcert *k, kr_scert *out)
{
	opos *v;
	size_t nv = 0, j;
	uint32_t i, t, nt;
	pgp_err e;

	if ((v = calloc((size_t)k->ns + 1, sizeof *v)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < k->ns; i++)
		if (k->s[i].state == S_KEPT) {
			v[nv].k = k;
			v[nv].i = i;
			nv++;
		}
	if (nv > 1)
		qsort(v, nv, sizeof *v, opos_cmp);
	/* identical octets on one component: once */
	for (j = 1; j < nv; j++) {
		const ksig *p = &k->s[v[j - 1].i], *q = &k->s[v[j].i];
		if (p->at == q->at && comp_out(k, p) == comp_out(k, q) &&
		    kr__body_cmp(p->body, q->body) == 0)
			kr__drop(k, v[j].i, KR_DROP_DUPLICATE);
	}
	if (!x->o->keep_superseded && (e = drop_superseded(x, k, v, nv)) != PGP_OK)
		goto out;
	if ((e = serialize(k, v, nv, out)) != PGP_OK)
		goto out;
	/* the memo tags of what is kept */
	for (t = nt = 0; t < k->ntags; t++)
		if (k->s[k->tags[t].sig].state == S_KEPT)
			k->tags[nt++] = k->tags[t];
	k->ntags = nt;
	for (i = 0; i < k->ns; i++)
		if (k->s[i].state == S_DROP && !k->s[i].extra)
			out->drops[k->s[i].reason]++;
	if (x->o->details)
		e = details(k, out);
out:
	free(v);
	return e;
}
