/*
 * strip.c - the stripping driver: certificates in canonical order, a pool
 * of threads over them (phase 1 for all, then phases 2 and 3), and the
 * results gathered in that order, so the output is the same for any
 * number of threads. see strip.h
 *
 * Threads take the next certificate from a shared atomic counter. Between
 * the phases every thread has finished (phase 2 reads what phase 1 found
 * about the issuers' subkeys). The set is only read, and only through key
 * ID and fingerprint lookups, which touch no lazily built state (the
 * e-mail index of pgp_certset is the one lazy part; it is never used here).
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "strip_int.h"

/* see strip.h */
const char *
kr_drop_name(kr_drop d)
{
	static const char *const names[KR_DROP__N] = {
		"bad-signature", "unparsed", "unsupported", "issuer-outside", "no-issuer",
		"misplaced", "duplicate", "superseded", "local", "cap-uid", "cap-cert",
		"cap-file", "component",
	};
	return (unsigned)d < KR_DROP__N ? names[d] : "unknown";
}

/* ---- per-certificate helpers (strip_int.h) ---- */

static void
record(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	kcert *k = ctx;
	if (k->ntags == k->captags) {
		uint32_t ncap = k->captags ? k->captags * 2 : 16;
		ktag *np = realloc(k->tags, (size_t)ncap * sizeof *np);
		if (np == NULL) {
			k->oom = 1; /* math() turns this into PGP_ERR_NOMEM */
			return;
		}
		k->tags = np;
		k->captags = ncap;
	}
	k->tags[k->ntags].sig = k->cur;
	memcpy(k->tags[k->ntags].tag, tag, PGP_SIGMEMO_TAG_LEN);
	k->ntags++;
}

/* see strip_int.h */
void
kr__memo(kcert *k, pgp_sigmemo *m)
{
	m->known = NULL;
	m->record = record;
	m->ctx = k;
}

/* see strip_int.h */
pgp_err
kr__note(kcert *k, const char *fmt, ...)
{
	char msg[512], hex[2 * PGP_FPR_MAX + 1], *s, **np;
	const pgp_fpr *f = &k->c->primary.fpr;
	va_list ap;
	int n;

	pgp_hex_encode(hex, f->v, f->len);
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		msg[0] = 0;
	if ((s = malloc(strlen(hex) + strlen(msg) + 3)) == NULL)
		return PGP_ERR_NOMEM;
	snprintf(s, strlen(hex) + strlen(msg) + 3, "%s: %s", hex, msg);
	if ((np = realloc(k->notes, (k->nnotes + 1) * sizeof *np)) == NULL) {
		free(s);
		return PGP_ERR_NOMEM;
	}
	k->notes = np;
	k->notes[k->nnotes++] = s;
	return PGP_OK;
}

static int
ptr_cmp(const void *a, const void *b)
{
	const pgp_cert *x = *(const pgp_cert *const *)a, *y = *(const pgp_cert *const *)b;
	return (uintptr_t)x < (uintptr_t)y ? -1 : (uintptr_t)x > (uintptr_t)y;
}

/* see strip_int.h */
uint32_t
kr__cert_index(const kr_ctx *x, const pgp_cert *c)
{
	size_t lo = 0, hi = x->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((uintptr_t)x->byptr[mid].c < (uintptr_t)c)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < x->n && x->byptr[lo].c == c ? x->byptr[lo].idx : UINT32_MAX;
}

static int
fpr_cmp(const void *a, const void *b)
{
	const pgp_fpr *x = &(*(const pgp_cert *const *)a)->primary.fpr;
	const pgp_fpr *y = &(*(const pgp_cert *const *)b)->primary.fpr;
	return pgp_fpr_cmp(x, y);
}

/* ---- the pool ---- */

typedef struct pool {
	kr_ctx *x;
	int phase;                 /* 1 or 2 */
	size_t next;               /* shared counter (atomic) */
	size_t done;
	int err;                   /* first error (atomic) */
} pool;

typedef struct worker {
	pool *p;
	int first;                 /* the thread that reports progress */
} worker;

static void *
work(void *arg)
{
	worker *w = arg;
	pool *p = w->p;
	kr_ctx *x = p->x;
	for (;;) {
		size_t i = __atomic_fetch_add(&p->next, 1, __ATOMIC_RELAXED);
		pgp_err e;
		if (i >= x->n || __atomic_load_n(&p->err, __ATOMIC_RELAXED) != 0)
			break;
		if (p->phase == 1)
			e = kr__phase_self(x, &x->kc[i]);
		else if ((e = kr__phase_third(x, &x->kc[i])) == PGP_OK)
			e = kr__phase_out(x, &x->kc[i], &x->out[i]);
		if (e != PGP_OK) {
			int zero = 0;
			__atomic_compare_exchange_n(&p->err, &zero, (int)e, 0, __ATOMIC_RELAXED,
			    __ATOMIC_RELAXED);
			break;
		}
		if (p->phase == 2) {
			kcert *k = &x->kc[i];
			free(k->s); /* the work state; tags, edges and notes stay */
			k->s = NULL;
		}
		i = __atomic_add_fetch(&p->done, 1, __ATOMIC_RELAXED);
		if (w->first && x->o->progress && (i % 64 == 0 || i == x->n))
			x->o->progress(x->o->progress_ctx, (p->phase == 2 ? x->n : 0) + i, 2 * x->n);
	}
	return NULL;
}

static pgp_err
run_phase(kr_ctx *x, int phase, unsigned nthreads)
{
	pool p;
	worker *w;
	pthread_t *tid;
	unsigned t, started = 0;

	memset(&p, 0, sizeof p);
	p.x = x;
	p.phase = phase;
	w = calloc(nthreads, sizeof *w);
	tid = calloc(nthreads, sizeof *tid);
	if (w == NULL || tid == NULL) {
		free(w);
		free(tid);
		return PGP_ERR_NOMEM;
	}
	for (t = 0; t < nthreads; t++) {
		w[t].p = &p;
		w[t].first = t == 0;
	}
	/* thread 0 is this one */
	for (t = 1; t < nthreads; t++) {
		if (pthread_create(&tid[t], NULL, work, &w[t]) != 0)
			break; /* fewer threads: same result */
		started++;
	}
	work(&w[0]);
	for (t = 1; t <= started; t++)
		pthread_join(tid[t], NULL);
	free(w);
	free(tid);
	return (pgp_err)p.err;
}

/* ---- results ---- */

static int
edge_cmp(const void *a, const void *b)
{
	const kr_edge *x = a, *y = b;
#define CMP(f) if (x->f != y->f) return x->f < y->f ? -1 : 1
	CMP(target);
	CMP(uid);
	CMP(issuer);
	CMP(created);
	CMP(sigtype);
	CMP(issuer_key);
	CMP(expires);
	CMP(hash_algo);
	CMP(pk_algo);
	CMP(trust_depth);
	CMP(trust_amount);
	CMP(has_regex);
#undef CMP
	return 0;
}

static int
tag_cmp(const void *a, const void *b)
{
	return memcmp(a, b, PGP_SIGMEMO_TAG_LEN);
}

static pgp_err
gather(kr_ctx *x, kr_strip_result *r)
{
	size_t i, ne = 0, nt = 0, nn = 0, j;
	for (i = 0; i < x->n; i++) {
		ne += x->kc[i].nedges;
		nt += x->kc[i].ntags;
		nn += x->kc[i].nnotes;
	}
	r->edges = malloc((ne ? ne : 1) * sizeof *r->edges);
	r->tags = malloc((nt ? nt : 1) * PGP_SIGMEMO_TAG_LEN);
	r->notes = malloc((nn ? nn : 1) * sizeof *r->notes);
	if (r->edges == NULL || r->tags == NULL || r->notes == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < x->n; i++) {
		kcert *k = &x->kc[i];
		uint32_t t;
		int d;
		if (k->nedges)
			memcpy(r->edges + r->nedges, k->edges, k->nedges * sizeof *k->edges);
		r->nedges += k->nedges;
		for (t = 0; t < k->ntags; t++)
			memcpy(r->tags[r->ntags++], k->tags[t].tag, PGP_SIGMEMO_TAG_LEN);
		for (j = 0; j < k->nnotes; j++) {
			r->notes[r->nnotes++] = k->notes[j];
			k->notes[j] = NULL;
		}
		k->nnotes = 0;
		for (d = 0; d < KR_DROP__N; d++)
			r->drops[d] += x->out[i].drops[d];
	}
	if (r->nedges > 1)
		qsort(r->edges, r->nedges, sizeof *r->edges, edge_cmp);
	if (r->ntags > 1) {
		qsort(r->tags, r->ntags, PGP_SIGMEMO_TAG_LEN, tag_cmp);
		for (i = j = 1; i < r->ntags; i++)
			if (memcmp(r->tags[i], r->tags[j - 1], PGP_SIGMEMO_TAG_LEN) != 0)
				memmove(r->tags[j++], r->tags[i], PGP_SIGMEMO_TAG_LEN);
		r->ntags = j;
	}
	return PGP_OK;
}

static void
free_ctx(kr_ctx *x)
{
	size_t i, j;
	if (x->kc)
		for (i = 0; i < x->n; i++) {
			kcert *k = &x->kc[i];
			free(k->s);
			free(k->uid_grp);
			free(k->ug);
			free(k->sub_grp);
			free(k->sg);
			free(k->tags);
			for (j = 0; j < k->nnotes; j++)
				free(k->notes[j]);
			free(k->notes);
			free(k->edges);
		}
	free(x->kc);
	free(x->byptr);
}

/* see strip.h */
pgp_err
kr_strip(const pgp_certset *set, const kr_strip_opts *o, kr_strip_result *out)
{
	kr_ctx x;
	const pgp_cert **sorted = NULL;
	unsigned nthreads = o->threads;
	size_t i;
	pgp_err e = PGP_ERR_NOMEM;

	memset(out, 0, sizeof *out);
	memset(&x, 0, sizeof x);
	x.set = set;
	x.o = o;
	if (o->pol)
		x.pol = *o->pol;
	else
		pgp_policy_init(&x.pol);
	x.max_uid = o->max_certs_per_uid ? o->max_certs_per_uid : KR_MAX_CERTS_PER_UID;
	x.max_cert = o->max_sigs_per_cert ? o->max_sigs_per_cert : KR_MAX_SIGS_PER_CERT;
	x.n = pgp_certset_count(set);
	if (x.n > UINT32_MAX - 1)
		return PGP_ERR_LIMIT;
	if (nthreads == 0) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = c > 0 ? (unsigned)c : 1;
	}
	if (nthreads > 256)
		nthreads = 256;
	if (x.n && nthreads > x.n)
		nthreads = (unsigned)x.n;

	sorted = malloc((x.n ? x.n : 1) * sizeof *sorted);
	x.kc = calloc(x.n ? x.n : 1, sizeof *x.kc);
	x.byptr = calloc(x.n ? x.n : 1, sizeof *x.byptr);
	out->certs = calloc(x.n ? x.n : 1, sizeof *out->certs);
	if (sorted == NULL || x.kc == NULL || x.byptr == NULL || out->certs == NULL)
		goto fail;
	for (i = 0; i < x.n; i++)
		sorted[i] = pgp_certset_get(set, i);
	if (x.n > 1)
		qsort(sorted, x.n, sizeof *sorted, fpr_cmp);
	for (i = 0; i < x.n; i++) {
		x.kc[i].c = sorted[i];
		x.kc[i].idx = (uint32_t)i;
		x.byptr[i].c = sorted[i];
		x.byptr[i].idx = (uint32_t)i;
		out->certs[i].cert = sorted[i];
	}
	if (x.n > 1)
		qsort(x.byptr, x.n, sizeof *x.byptr, ptr_cmp);
	out->ncerts = x.n;
	x.out = out->certs;

	if ((e = run_phase(&x, 1, nthreads)) != PGP_OK ||
	    (e = run_phase(&x, 2, nthreads)) != PGP_OK ||
	    (e = gather(&x, out)) != PGP_OK)
		goto fail;
	free(sorted);
	free_ctx(&x);
	return PGP_OK;
fail:
	free(sorted);
	free_ctx(&x);
	kr_strip_free(out);
	return e;
}

/* see strip.h */
void
kr_strip_free(kr_strip_result *r)
{
	size_t i;
	if (r->certs)
		for (i = 0; i < r->ncerts; i++) {
			free(r->certs[i].bin);
			free(r->certs[i].sigs);
		}
	free(r->certs);
	free(r->edges);
	free(r->tags);
	for (i = 0; i < r->nnotes; i++)
		free(r->notes[i]);
	free(r->notes);
	memset(r, 0, sizeof *r);
}
