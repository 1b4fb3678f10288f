/*
 * strip_stub.c - STAND-IN for keyring/strip*.c (helper "strip"), so the
 * keyring format, CLI and tests can be built before the branches merge.
 * The lead deletes this file at merge.
 *
 * What it does (enough for the keyring tests, not the real semantics):
 * per certificate, keeps every signature whose math verifies with the
 * right signer (self-signatures by the primary, back-signatures, third-party
 * certifications by a key in the set), keeps every revocation (checked or
 * not: evaluation checks it again), drops the rest, and writes the
 * certificate in the canonical order of the design (components and
 * signatures sorted by octets), recording the memo tag of every signature
 * whose math it checked. Single-threaded; no caps.
 */
#include <stdlib.h>
#include <string.h>
#include "strip.h"

static const char *const drop_names[KR_DROP__N] = {
	"bad-signature", "unparsed", "unsupported", "issuer-outside", "no-issuer",
	"misplaced", "duplicate", "superseded", "local", "cap-uid", "cap-cert",
	"cap-file", "component"
};

/* see strip.h */
const char *
kr_drop_name(kr_drop d)
{
	return (unsigned)d < KR_DROP__N ? drop_names[d] : "unknown";
}

typedef struct tagvec {
	uint8_t (*v)[PGP_SIGMEMO_TAG_LEN];
	size_t n, cap;
	int nomem;
} tagvec;

static void
tag_record(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	tagvec *t = ctx;
	if (t->n == t->cap) {
		size_t nc = t->cap ? t->cap * 2 : 1024;
		void *nv = realloc(t->v, nc * sizeof *t->v);
		if (nv == NULL) {
			t->nomem = 1;
			return;
		}
		t->v = nv;
		t->cap = nc;
	}
	memcpy(t->v[t->n++], tag, PGP_SIGMEMO_TAG_LEN);
}

typedef struct stub {
	const pgp_certset *set;
	const pgp_cert **sorted;   /* certificates by fingerprint */
	size_t n;
	pgp_sigmemo memo;
	tagvec tags;
	kr_edge *edges;
	size_t nedges, capedges;
} stub;

static int
fpr_cmp(const pgp_fpr *a, const pgp_fpr *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->v, b->v, a->len);
}

static int
cert_cmp(const void *a, const void *b)
{
	return fpr_cmp(&(*(const pgp_cert *const *)a)->primary.fpr,
	    &(*(const pgp_cert *const *)b)->primary.fpr);
}

static uint32_t
cert_index(const stub *s, const pgp_cert *c)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int r = fpr_cmp(&s->sorted[mid]->primary.fpr, &c->primary.fpr);
		if (r == 0)
			return (uint32_t)mid;
		if (r < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return UINT32_MAX;
}

static int
names_primary(const pgp_sig *sig, const pgp_key *primary)
{
	if (sig->issuer_fpr.len)
		return fpr_cmp(&sig->issuer_fpr, &primary->fpr) == 0;
	if (sig->has_issuer)
		return memcmp(sig->issuer, primary->keyid, 8) == 0;
	return 1;  /* no issuer: try the primary */
}

static kr_drop
math_drop(pgp_err e)
{
	return e == PGP_ERR_BAD_SIG ? KR_DROP_BAD_SIG :
	    e == PGP_ERR_UNSUPPORTED ? KR_DROP_UNSUPPORTED : KR_DROP_UNPARSED;
}

/* A kept signature: body and, for third-party certifications, its edge. */
typedef struct ksig {
	pgp_view body;
	int third;                /* third-party certification 0x10-0x13 */
	kr_edge edge;
} ksig;

/*
 * Decide one signature. 1 keep, 0 drop (*why set). *edge filled for a
 * third-party certification or its revocation.
 */
static int
decide(stub *s, const pgp_cert *c, const pgp_rd *body, pgp_sigon on, const void *comp,
    kr_drop *why, ksig *k)
{
	pgp_sig sig;
	pgp_err e;
	int revocation;
	memset(k, 0, sizeof *k);
	k->body = pgp_rd_as_view(body);
	if (pgp_sig_parse(&sig, body, NULL) != PGP_OK || sig.opaque) {
		*why = KR_DROP_UNPARSED;
		return 0;
	}
	revocation = sig.type == PGP_SIG_KEY_REVOCATION || sig.type == PGP_SIG_SUBKEY_REVOCATION ||
	    sig.type == PGP_SIG_CERT_REVOCATION;
	if (names_primary(&sig, &c->primary)) {
		e = pgp_keysig_math(&c->primary, &sig, on, comp, &c->primary, &s->memo, NULL);
		if (e == PGP_OK && sig.type == PGP_SIG_SUBKEY_BINDING && sig.embedded.len) {
			pgp_sig back;
			pgp_rd r;
			pgp_rd_init(&r, sig.embedded.p, sig.embedded.len);
			if (pgp_sig_parse(&back, &r, NULL) == PGP_OK)
				(void)pgp_keysig_math(&c->primary, &back, PGP_SIGON_BACKSIG, comp,
				    comp, &s->memo, NULL);
		}
		if (e == PGP_OK || revocation)
			return 1;
		*why = math_drop(e);
		return 0;
	}
	/* another issuer: a certification, or a designated revocation */
	{
		const pgp_cert *cands[16];
		size_t total = 0, i;
		pgp_err last = PGP_ERR_BAD_SIG;
		if (sig.issuer_fpr.len)
			e = pgp_certset_find(s->set, &(pgp_certq){PGP_CERTQ_FPR, sig.issuer_fpr.v,
			    sig.issuer_fpr.len}, cands, 16, &total);
		else
			e = pgp_certset_find(s->set, &(pgp_certq){PGP_CERTQ_KEYID, sig.issuer, 8},
			    cands, 16, &total);
		if (e != PGP_OK || total == 0) {
			if (revocation && on == PGP_SIGON_DIRECT)
				return 1;  /* designated revoker outside the set: unchecked */
			*why = KR_DROP_ISSUER_OUTSIDE;
			return 0;
		}
		if (!revocation && on == PGP_SIGON_UID && !sig.exportable) {
			*why = KR_DROP_LOCAL;
			return 0;
		}
		for (i = 0; i < total && i < 16; i++) {
			int sub = -1;
			const pgp_key *signer = pgp_cert_key_by_id(cands[i],
			    sig.has_issuer ? sig.issuer : sig.issuer_fpr.v + 12, &sub);
			if (sig.issuer_fpr.len)
				signer = pgp_cert_key_by_fpr(cands[i], &sig.issuer_fpr, &sub);
			if (signer == NULL)
				continue;
			last = pgp_keysig_math(&c->primary, &sig, on, comp, signer, &s->memo, NULL);
			if (last != PGP_OK)
				continue;
			if (on == PGP_SIGON_UID) {
				k->third = sig.type != PGP_SIG_CERT_REVOCATION;
				k->edge.issuer = cert_index(s, cands[i]);
				k->edge.issuer_key = sub;
				k->edge.sigtype = sig.type;
				k->edge.hash_algo = sig.hash_algo;
				k->edge.pk_algo = sig.pk_algo;
				k->edge.trust_depth = sig.has_trust ? sig.trust_level : 0;
				k->edge.trust_amount = sig.has_trust ? sig.trust_amount : 0;
				k->edge.created = sig.created;
				k->edge.expires = sig.sig_expires ? (int64_t)sig.created + sig.sig_expires : 0;
				k->edge.uid = UINT32_MAX;  /* set by the caller */
			}
			return 1;
		}
		if (revocation)
			return 1;
		*why = math_drop(last);
		return 0;
	}
}

static int
view_cmp(pgp_view a, pgp_view b)
{
	size_t n = a.len < b.len ? a.len : b.len;
	int c = n ? memcmp(a.p, b.p, n) : 0;
	if (c)
		return c;
	return a.len < b.len ? -1 : a.len > b.len;
}

static int
ksig_cmp(const void *a, const void *b)
{
	return view_cmp(((const ksig *)a)->body, ((const ksig *)b)->body);
}

/* Check, sort and write the signatures of one component; edges get uid. */
static pgp_err
do_sigs(stub *s, const pgp_cert *c, kr_scert *sc, const pgp_rd *sigs, uint32_t n,
    const pgp_rd *extra, uint32_t nextra, pgp_sigon on, const void *comp, uint32_t uid_out,
    uint32_t target, pgp_buf *out)
{
	ksig *k = calloc((size_t)n + nextra + 1, sizeof *k);
	size_t nk = 0, i;
	pgp_err e = PGP_OK;
	if (k == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < (size_t)n + nextra; i++) {
		kr_drop why = KR_DROP_BAD_SIG;
		const pgp_rd *b = i < n ? &sigs[i] : &extra[i - n];
		if (decide(s, c, b, on, comp, &why, &k[nk]))
			nk++;
		else
			sc->drops[why]++;
	}
	qsort(k, nk, sizeof *k, ksig_cmp);
	for (i = 0; i < nk && e == PGP_OK; i++) {
		if (i > 0 && view_cmp(k[i].body, k[i - 1].body) == 0) {
			sc->drops[KR_DROP_DUPLICATE]++;
			continue;
		}
		if ((e = pgp_write_packet(out, PGP_TAG_SIGNATURE, k[i].body.p, k[i].body.len)) != PGP_OK)
			break;
		sc->kept_sigs++;
		if (k[i].edge.uid == UINT32_MAX) {
			if (k[i].third)
				sc->kept_certifications++;
			if (s->nedges == s->capedges) {
				size_t nc = s->capedges ? s->capedges * 2 : 256;
				kr_edge *ne = realloc(s->edges, nc * sizeof *ne);
				if (ne == NULL) {
					e = PGP_ERR_NOMEM;
					break;
				}
				s->edges = ne;
				s->capedges = nc;
			}
			k[i].edge.uid = uid_out;
			k[i].edge.target = target;
			s->edges[s->nedges++] = k[i].edge;
		}
	}
	free(k);
	return e;
}

static const pgp_cert *uc_cert;

static int
uid_cmp(const void *a, const void *b)
{
	const pgp_uidc *x = &uc_cert->uids[*(const uint32_t *)a];
	const pgp_uidc *y = &uc_cert->uids[*(const uint32_t *)b];
	int c = view_cmp(x->data, y->data);
	return c ? c : (int)x->is_attr - (int)y->is_attr;
}

static int
sub_cmp(const void *a, const void *b)
{
	const pgp_key *x = &uc_cert->subs[*(const uint32_t *)a].key;
	const pgp_key *y = &uc_cert->subs[*(const uint32_t *)b].key;
	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	return fpr_cmp(&x->fpr, &y->fpr);
}

static pgp_err
strip_one(stub *s, uint32_t ci, kr_scert *sc)
{
	const pgp_cert *c = s->sorted[ci];
	pgp_buf out;
	uint32_t *ord = NULL, i;
	pgp_err e;
	pgp_buf_init(&out, (size_t)256 << 20);
	sc->cert = c;
	if ((e = pgp_write_packet(&out, PGP_TAG_PUBLIC_KEY, c->primary.body.p,
	    c->primary.body.len)) != PGP_OK)
		goto out;
	if ((e = do_sigs(s, c, sc, c->dsigs, c->ndsigs, c->loose, c->nloose, PGP_SIGON_DIRECT,
	    NULL, 0, ci, &out)) != PGP_OK)
		goto out;
	if ((ord = calloc((size_t)c->nuids + c->nsubs + 1, sizeof *ord)) == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	uc_cert = c;
	for (i = 0; i < c->nuids; i++)
		ord[i] = i;
	qsort(ord, c->nuids, sizeof *ord, uid_cmp);
	for (i = 0; i < c->nuids; i++) {
		const pgp_uidc *u = &c->uids[ord[i]];
		if ((e = pgp_write_packet(&out, u->is_attr ? PGP_TAG_USER_ATTRIBUTE : PGP_TAG_USER_ID,
		    u->data.p, u->data.len)) != PGP_OK ||
		    (e = do_sigs(s, c, sc, u->sigs, u->nsigs, NULL, 0, PGP_SIGON_UID, u, i, ci,
		    &out)) != PGP_OK)
			goto out;
	}
	for (i = 0; i < c->nsubs; i++)
		ord[i] = i;
	uc_cert = c;
	qsort(ord, c->nsubs, sizeof *ord, sub_cmp);
	for (i = 0; i < c->nsubs; i++) {
		const pgp_subc *sb = &c->subs[ord[i]];
		if ((e = pgp_write_packet(&out, PGP_TAG_PUBLIC_SUBKEY, sb->key.body.p,
		    sb->key.body.len)) != PGP_OK ||
		    (e = do_sigs(s, c, sc, sb->sigs, sb->nsigs, NULL, 0, PGP_SIGON_SUBKEY, &sb->key,
		    0, ci, &out)) != PGP_OK)
			goto out;
	}
	sc->bin = pgp_buf_take(&out, &sc->len);
out:
	free(ord);
	pgp_buf_free(&out);
	return e;
}

static int
edge_cmp(const void *a, const void *b)
{
	const kr_edge *x = a, *y = b;
	if (x->target != y->target)
		return x->target < y->target ? -1 : 1;
	if (x->uid != y->uid)
		return x->uid < y->uid ? -1 : 1;
	if (x->issuer != y->issuer)
		return x->issuer < y->issuer ? -1 : 1;
	if (x->created != y->created)
		return x->created < y->created ? -1 : 1;
	return 0;
}

static int
tag_cmp(const void *a, const void *b)
{
	return memcmp(a, b, PGP_SIGMEMO_TAG_LEN);
}

/* see strip.h */
pgp_err
kr_strip(const pgp_certset *set, const kr_strip_opts *o, kr_strip_result *out)
{
	stub s;
	size_t i, d, m;
	pgp_err e = PGP_OK;
	memset(out, 0, sizeof *out);
	memset(&s, 0, sizeof s);
	s.set = set;
	s.n = pgp_certset_count(set);
	s.memo.record = tag_record;
	s.memo.ctx = &s.tags;
	if ((s.sorted = calloc(s.n + 1, sizeof *s.sorted)) == NULL ||
	    (out->certs = calloc(s.n + 1, sizeof *out->certs)) == NULL) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < s.n; i++)
		s.sorted[i] = pgp_certset_get(set, i);
	qsort(s.sorted, s.n, sizeof *s.sorted, cert_cmp);
	out->ncerts = s.n;
	for (i = 0; i < s.n; i++) {
		if ((e = strip_one(&s, (uint32_t)i, &out->certs[i])) != PGP_OK)
			goto out;
		for (d = 0; d < KR_DROP__N; d++)
			out->drops[d] += out->certs[i].drops[d];
		if (o && o->progress)
			o->progress(o->progress_ctx, i + 1, s.n);
	}
	if (s.tags.nomem) {
		e = PGP_ERR_NOMEM;
		goto out;
	}
	if (s.nedges)
		qsort(s.edges, s.nedges, sizeof *s.edges, edge_cmp);
	if (s.tags.n)
		qsort(s.tags.v, s.tags.n, sizeof *s.tags.v, tag_cmp);
	for (i = m = 0; i < s.tags.n; i++)
		if (m == 0 || memcmp(s.tags.v[m - 1], s.tags.v[i], PGP_SIGMEMO_TAG_LEN) != 0)
			memmove(s.tags.v[m++], s.tags.v[i], PGP_SIGMEMO_TAG_LEN);
	out->edges = s.edges;
	out->nedges = s.nedges;
	out->tags = s.tags.v;
	out->ntags = m;
	s.edges = NULL;
	s.tags.v = NULL;
out:
	free(s.sorted);
	free(s.edges);
	free(s.tags.v);
	if (e != PGP_OK)
		kr_strip_free(out);
	return e;
}

/* see strip.h */
void
kr_strip_free(kr_strip_result *r)
{
	size_t i;
	if (r == NULL)
		return;
	for (i = 0; r->certs && i < r->ncerts; i++)
		free(r->certs[i].bin);
	free(r->certs);
	free(r->edges);
	free(r->tags);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof *r);
}
