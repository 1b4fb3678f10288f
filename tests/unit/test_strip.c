/* test_strip.c - kr_strip (keyring/strip.h): each drop reason, caps, the
 * superseded choice, certification edges and memo tags, and that the output
 * depends neither on input order nor on the number of threads.
 * Vectors: vectors/strip (vectors/gen/strip.py). */
#include "t.h"
#include "pgp/pgp.h"
#include "keyring/strip.h"

/*
 * Allocation failure injection (as test_cert.c): the one malloc, calloc or
 * realloc call that finds t_alloc_left at 0 fails. Skipped under ASan.
 */
#if defined(__SANITIZE_ADDRESS__)
#define T_NO_INTERPOSE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define T_NO_INTERPOSE 1
#endif
#endif
#if !defined(T_NO_INTERPOSE) && defined(__GLIBC__)
static long t_alloc_left = -1;
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static int
t_alloc_fails(void)
{
	if (t_alloc_left < 0)
		return 0;
	if (t_alloc_left == 0) {
		t_alloc_left = -1;
		return 1;
	}
	t_alloc_left--;
	return 0;
}

void *
malloc(size_t n)
{
	return t_alloc_fails() ? NULL : __libc_malloc(n);
}

void *
calloc(size_t a, size_t b)
{
	return t_alloc_fails() ? NULL : __libc_calloc(a, b);
}

void *
realloc(void *p, size_t n)
{
	return t_alloc_fails() ? NULL : __libc_realloc(p, n);
}

void
free(void *p)
{
	__libc_free(p);
}
#define T_CAN_FAIL_ALLOC 1
#endif

#define VS "vectors/strip/"
#define AT 1710000000

/* A set of the given files (NULL-terminated); buffers kept in bufs[]. */
static pgp_certset *
load(unsigned char **bufs, const char *const *files)
{
	pgp_certset *s = NULL;
	size_t i, len;
	if (pgp_certset_new(&s) != PGP_OK || pgp_certset_set_sig_cap(s, 1u << 16) != PGP_OK)
		return NULL;
	for (i = 0; files[i]; i++) {
		bufs[i] = t_slurp(files[i], &len);
		T_ASSERT(bufs[i] != NULL);
		if (bufs[i] == NULL || pgp_certset_add(s, bufs[i], len, NULL) != PGP_OK) {
			pgp_certset_free(s);
			return NULL;
		}
	}
	return s;
}

static void
opts(kr_strip_opts *o, const pgp_policy *pol)
{
	memset(o, 0, sizeof *o);
	o->now = AT;
	o->pol = pol;
	o->threads = 1;
	o->details = 1;
}

/* The result's certificate whose primary key has no user ID "Bob"/"Dave"
 * (the case's key A); -1 if none. */
static int
cert_a(const kr_strip_result *r)
{
	size_t i;
	for (i = 0; i < r->ncerts; i++) {
		const pgp_cert *c = r->certs[i].cert;
		if (c->nuids && (memcmp(c->uids[0].data.p, "Bob", 3) == 0 ||
		    memcmp(c->uids[0].data.p, "Dave", 4) == 0))
			continue;
		return (int)i;
	}
	return -1;
}

typedef struct dcase {
	const char *name;
	kr_drop reason;
	uint32_t count;       /* drops of that reason */
	uint32_t kept_certs;  /* kept third-party certifications */
} dcase;

/* Each drop reason has a case where exactly that rule fires; the other
 * reasons must stay 0 (so a rule firing for the wrong reason fails too). */
static void
test_drop_reasons(void)
{
	static const dcase cases[] = {
		{"good", KR_DROP__N, 0, 1},
		{"bad_signature", KR_DROP_BAD_SIG, 1, 0},
		{"issuer_outside", KR_DROP_ISSUER_OUTSIDE, 1, 0},
		{"duplicate", KR_DROP_DUPLICATE, 1, 1},
		{"superseded", KR_DROP_SUPERSEDED, 1, 1},
		{"local", KR_DROP_LOCAL, 1, 0},
		{"no_issuer", KR_DROP_NO_ISSUER, 1, 0},
		{"misplaced", KR_DROP_MISPLACED, 1, 1},
		{"unparsed", KR_DROP_UNPARSED, 1, 1},
		{"unsupported", KR_DROP_UNSUPPORTED, 1, 0},
		{"subkey_issuer", KR_DROP_ISSUER_OUTSIDE, 1, 1},
		{"undesignated_revocation", KR_DROP_MISPLACED, 1, 0},
		{"own_subkey", KR_DROP_MISPLACED, 1, 0},
		{"designated_forged", KR_DROP_BAD_SIG, 1, 0},
		{"designated_ok", KR_DROP__N, 0, 0},
		{"revoked_uid", KR_DROP__N, 0, 0},
	};
	pgp_policy pol;
	size_t i;
	pgp_policy_init(&pol);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[256];
		const char *files[3] = {path, VS "ring.pgp", NULL};
		unsigned char *bufs[2] = {NULL, NULL};
		pgp_certset *s;
		kr_strip_opts o;
		kr_strip_result r;
		int a, d;
		snprintf(path, sizeof path, VS "cases/%s.pgp", cases[i].name);
		if ((s = load(bufs, files)) == NULL) {
			T_ASSERT(0);
			continue;
		}
		opts(&o, &pol);
		T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
		a = cert_a(&r);
		T_ASSERT(a >= 0);
		if (a >= 0) {
			for (d = 0; d < KR_DROP__N; d++) {
				uint32_t want = (kr_drop)d == cases[i].reason ? cases[i].count : 0;
				if (r.certs[a].drops[d] != want)
					fprintf(stderr, "case %s: %s %u, want %u\n", cases[i].name,
					    kr_drop_name((kr_drop)d), r.certs[a].drops[d], want);
				T_EQ_INT(r.certs[a].drops[d], want);
			}
			T_EQ_INT(r.certs[a].kept_certifications, cases[i].kept_certs);
		}
		kr_strip_free(&r);
		pgp_certset_free(s);
		free(bufs[0]);
		free(bufs[1]);
	}
}

/* A user ID without a valid binding goes, with the certifications on it
 * (but never all of them: see test_verdicts); a revoked one without a
 * binding stays; subkeys alike. */
static void
test_components(void)
{
	static const struct { const char *name; uint32_t uids, subs, comp; } cases[] = {
		{"bad_binding", 1, 0, 1},
		{"component", 1, 0, 1},
		{"revoked_uid", 2, 0, 0},
		{"bad_subkey", 1, 0, 0},
		{"good_subkey", 1, 1, 0},
	};
	pgp_policy pol;
	size_t i;
	pgp_policy_init(&pol);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[256];
		const char *files[3] = {path, VS "ring.pgp", NULL};
		unsigned char *bufs[2] = {NULL, NULL};
		pgp_certset *s;
		kr_strip_opts o;
		kr_strip_result r;
		int a;
		snprintf(path, sizeof path, VS "cases/%s.pgp", cases[i].name);
		if ((s = load(bufs, files)) == NULL) {
			T_ASSERT(0);
			continue;
		}
		opts(&o, &pol);
		T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
		a = cert_a(&r);
		T_ASSERT(a >= 0);
		if (a >= 0) {
			T_EQ_INT(r.certs[a].nuids_out, cases[i].uids);
			T_EQ_INT(r.certs[a].nsubs_out, cases[i].subs);
			T_EQ_INT(r.certs[a].drops[KR_DROP_COMPONENT], cases[i].comp);
		}
		kr_strip_free(&r);
		pgp_certset_free(s);
		free(bufs[0]);
		free(bufs[1]);
	}
}

/* Evaluation at the reference time gives the same verdict over the
 * stripped certificate as over the raw one: primary key status, and the
 * status of every user ID that is kept. In particular a certificate whose
 * self-signatures all fail must not come out as a bare primary key, which
 * evaluation takes as valid (bad_binding). */
static void
test_verdicts(void)
{
	static const char *const cases[] = {
		"good", "bad_signature", "superseded", "misplaced", "component", "unparsed",
		"bad_binding", "revoked_uid", "designated_ok", "designated_forged",
		"undesignated_revocation", "bad_subkey", "good_subkey", "unsupported",
	};
	pgp_policy pol;
	size_t i;
	pgp_policy_init(&pol);
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[256];
		const char *files[3] = {path, VS "ring.pgp", NULL};
		unsigned char *bufs[2] = {NULL, NULL};
		pgp_certset *s, *s2 = NULL;
		kr_strip_opts o;
		kr_strip_result r;
		pgp_certsrc src, src2;
		pgp_certeval e1, e2;
		const pgp_cert *raw, *st;
		int a;
		uint32_t u, v;
		snprintf(path, sizeof path, VS "cases/%s.pgp", cases[i]);
		if ((s = load(bufs, files)) == NULL) {
			T_ASSERT(0);
			continue;
		}
		opts(&o, &pol);
		T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
		a = cert_a(&r);
		T_ASSERT(a >= 0);
		T_EQ_INT(pgp_certset_new(&s2), PGP_OK);
		for (u = 0; u < r.ncerts; u++)
			T_EQ_INT(pgp_certset_add(s2, r.certs[u].bin, r.certs[u].len, NULL), PGP_OK);
		if (a < 0 || pgp_certset_count(s2) != r.ncerts) {
			T_ASSERT(0);
			goto next;
		}
		raw = r.certs[a].cert;
		st = NULL;
		for (u = 0; u < pgp_certset_count(s2); u++)
			if (memcmp(pgp_certset_get(s2, u)->primary.fpr.v, raw->primary.fpr.v, 20) == 0)
				st = pgp_certset_get(s2, u);
		T_ASSERT(st != NULL);
		if (st == NULL)
			goto next;
		pgp_certset_source(s, &src);
		pgp_certset_source(s2, &src2);
		T_EQ_INT(pgp_cert_eval(&e1, raw, &src, AT, &pol), PGP_OK);
		T_EQ_INT(pgp_cert_eval(&e2, st, &src2, AT, &pol), PGP_OK);
		if (e1.primary.status != e2.primary.status)
			fprintf(stderr, "case %s: primary %s raw, %s stripped\n", cases[i],
			    pgp_strerror(e1.primary.status), pgp_strerror(e2.primary.status));
		T_EQ_INT(e2.primary.status, e1.primary.status);
		T_EQ_INT(e2.bare, e1.bare);
		T_EQ_INT(e2.revoker_unchecked, e1.revoker_unchecked);
		T_EQ_INT(e2.primary.revoked, e1.primary.revoked);
		for (v = 0; v < st->nuids; v++)
			for (u = 0; u < raw->nuids; u++)
				if (raw->uids[u].data.len == st->uids[v].data.len &&
				    memcmp(raw->uids[u].data.p, st->uids[v].data.p, st->uids[v].data.len) == 0)
					T_EQ_INT(e2.uids[v].status, e1.uids[u].status);
		for (v = 0; v < st->nsubs; v++)
			for (u = 0; u < raw->nsubs; u++)
				if (memcmp(raw->subs[u].key.fpr.v, st->subs[v].key.fpr.v, 20) == 0)
					T_EQ_INT(e2.subs[v].status, e1.subs[u].status);
		pgp_certeval_release(&e1);
		pgp_certeval_release(&e2);
next:
		kr_strip_free(&r);
		pgp_certset_free(s2);
		pgp_certset_free(s);
		free(bufs[0]);
		free(bufs[1]);
	}
}

/* keep_superseded = 1 (keyring builds) keeps both self-signatures. */
static void
test_keep_superseded(void)
{
	const char *files[] = {VS "cases/superseded.pgp", VS "ring.pgp", NULL};
	unsigned char *bufs[2] = {NULL, NULL};
	pgp_certset *s = load(bufs, files);
	kr_strip_opts o;
	kr_strip_result r0, r1;
	pgp_policy pol;
	int a0, a1;
	pgp_policy_init(&pol);
	T_ASSERT(s != NULL);
	if (s == NULL)
		return;
	opts(&o, &pol);
	T_EQ_INT(kr_strip(s, &o, &r0), PGP_OK);
	o.keep_superseded = 1;
	T_EQ_INT(kr_strip(s, &o, &r1), PGP_OK);
	a0 = cert_a(&r0);
	a1 = cert_a(&r1);
	T_ASSERT(a0 >= 0 && a1 >= 0);
	if (a0 >= 0 && a1 >= 0) {
		T_EQ_INT(r0.certs[a0].drops[KR_DROP_SUPERSEDED], 1);
		T_EQ_INT(r1.certs[a1].drops[KR_DROP_SUPERSEDED], 0);
		T_EQ_INT(r1.certs[a1].kept_sigs, r0.certs[a0].kept_sigs + 1);
		T_ASSERT(r1.certs[a1].len > r0.certs[a0].len);
	}
	kr_strip_free(&r0);
	kr_strip_free(&r1);
	pgp_certset_free(s);
	free(bufs[0]);
	free(bufs[1]);
}

/* Edges name the issuer's certificate and key; a subkey issuer is found by
 * its index in the issuer's stripped certificate. */
static void
test_edges(void)
{
	static const struct { const char *name; int32_t key; } cases[] = {
		{"good", -1},
		{"subkey_issuer", 0},
	};
	pgp_policy pol;
	size_t i;
	pgp_policy_init(&pol);
	for (i = 0; i < 2; i++) {
		char path[256];
		const char *files[3] = {path, VS "ring.pgp", NULL};
		unsigned char *bufs[2] = {NULL, NULL};
		pgp_certset *s;
		kr_strip_opts o;
		kr_strip_result r;
		int a;
		snprintf(path, sizeof path, VS "cases/%s.pgp", cases[i].name);
		if ((s = load(bufs, files)) == NULL) {
			T_ASSERT(0);
			continue;
		}
		opts(&o, &pol);
		T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
		a = cert_a(&r);
		T_EQ_INT(r.nedges, 1);
		if (r.nedges == 1 && a >= 0) {
			const pgp_cert *ic = r.certs[r.edges[0].issuer].cert;
			T_EQ_INT(r.edges[0].target, a);
			T_EQ_INT(r.edges[0].uid, 0);
			T_EQ_INT(r.edges[0].issuer_key, cases[i].key);
			T_EQ_INT(r.edges[0].sigtype, 0x10);
			T_ASSERT(memcmp(ic->uids[0].data.p, "Bob", 3) == 0);
			T_ASSERT(r.edges[0].created > 0);
		}
		kr_strip_free(&r);
		pgp_certset_free(s);
		free(bufs[0]);
		free(bufs[1]);
	}
}

/* The per-user-ID cap keeps the newest certifications (v0: key A's user ID
 * "Alice <...>", second in output order after "Alice (second) <...>",
 * holds certifications by B, E and D, made in that order). */
static void
test_caps(void)
{
	const char *files[] = {VS "order/v0.pgp", NULL};
	unsigned char *bufs[1] = {NULL};
	pgp_certset *s = load(bufs, files);
	kr_strip_opts o;
	kr_strip_result r;
	pgp_policy pol;
	size_t i, a = SIZE_MAX;
	int64_t oldest = INT64_MAX;
	uint32_t capped = 0;
	pgp_policy_init(&pol);
	T_ASSERT(s != NULL);
	if (s == NULL)
		return;
	opts(&o, &pol);
	o.max_certs_per_uid = 2;
	T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
	for (i = 0; i < r.ncerts; i++) {
		capped += r.certs[i].drops[KR_DROP_CAP_UID];
		if (r.certs[i].drops[KR_DROP_CAP_UID])
			a = i;
	}
	T_EQ_INT(capped, 1);
	T_EQ_INT(r.nnotes, 1);
	for (i = 0; i < r.nedges; i++)
		if (r.edges[i].target == a && r.edges[i].uid == 1 && r.edges[i].created < oldest)
			oldest = r.edges[i].created;
	/* B's (the oldest, BT + 500) went; E's (BT + 700) is the oldest kept */
	T_EQ_INT(oldest, 1600000100 + 700);
	kr_strip_free(&r);

	/* per certificate: 3 checks allowed, more candidates than that */
	opts(&o, &pol);
	o.max_sigs_per_cert = 3;
	T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
	for (i = capped = 0; i < r.ncerts; i++)
		capped += r.certs[i].drops[KR_DROP_CAP_CERT];
	T_ASSERT(capped > 0);
	T_ASSERT(r.nnotes > 0);
	kr_strip_free(&r);
	pgp_certset_free(s);
	free(bufs[0]);
}

/* ---- order independence ---- */

typedef struct span { const uint8_t *p; size_t len; } span;

static uint32_t
rnd(uint32_t *st)
{
	*st = *st * 1103515245u + 12345u;
	return (*st >> 8) & 0xFFFFFF;
}

static void
shuffle(span *v, size_t n, uint32_t *st)
{
	size_t i;
	for (i = n; i > 1; i--) {
		size_t j = rnd(st) % i;
		span t = v[i - 1];
		v[i - 1] = v[j];
		v[j] = t;
	}
}

/*
 * Reorder a keyring: certificates shuffled; in each, the direct signatures,
 * the signatures of every component, the user IDs among themselves and the
 * subkeys among themselves. Packets keep their octets.
 */
static uint8_t *
reorder(const uint8_t *p, size_t len, uint32_t seed, size_t *olen)
{
	span pk[4096];
	size_t n = 0, i, o = 0;
	pgp_rd r;
	uint8_t *out = malloc(len ? len : 1);
	uint32_t st = seed;
	span certs[64];
	size_t nc = 0;
	pgp_rd_init(&r, p, len);
	while (n < 4096) {
		pgp_pkt pkt;
		if (pgp_pkt_next(&r, &pkt, NULL) != PGP_OK)
			break;
		pk[n].p = p + pkt.off;
		pk[n].len = pkt.total_len;
		n++;
		pgp_pkt_release(&pkt);
	}
	/* one certificate at a time: [primary][dsigs][comp sigs]... */
	for (i = 0; i < n;) {
		span comps[2][256], block[512];
		size_t nco[2] = {0, 0}, k, j = i + 1, nb = 0, start = o;
		size_t ds = j;
		while (j < n && pk[j].p[0] != 0xC0 + 6 && (pk[j].p[0] & 0x3F) == 2)
			j++;
		memcpy(out + o, pk[i].p, pk[i].len);
		o += pk[i].len;
		shuffle(pk + ds, j - ds, &st);
		for (k = ds; k < j; k++) {
			memcpy(out + o, pk[k].p, pk[k].len);
			o += pk[k].len;
		}
		/* components until the next primary key */
		while (j < n && (pk[j].p[0] & 0x3F) != 6) {
			int kind = (pk[j].p[0] & 0x3F) == 14;
			size_t c0 = j++, s0 = j, bs;
			while (j < n && (pk[j].p[0] & 0x3F) == 2)
				j++;
			shuffle(pk + s0, j - s0, &st);
			bs = nb;
			for (k = c0; k < j; k++)
				block[nb++] = pk[k];
			comps[kind][nco[kind]].p = (const uint8_t *)(uintptr_t)bs;
			comps[kind][nco[kind]].len = j - c0;
			nco[kind]++;
		}
		for (k = 0; k < 2; k++) {
			size_t c, q;
			shuffle(comps[k], nco[k], &st);
			for (c = 0; c < nco[k]; c++) {
				size_t b0 = (size_t)(uintptr_t)comps[k][c].p;
				for (q = 0; q < comps[k][c].len; q++) {
					memcpy(out + o, block[b0 + q].p, block[b0 + q].len);
					o += block[b0 + q].len;
				}
			}
		}
		certs[nc].p = out + start;
		certs[nc].len = o - start;
		nc++;
		i = j;
	}
	/* certificates in a shuffled order */
	{
		uint8_t *o2 = malloc(o ? o : 1);
		size_t q = 0;
		shuffle(certs, nc, &st);
		for (i = 0; i < nc; i++) {
			memcpy(o2 + q, certs[i].p, certs[i].len);
			q += certs[i].len;
		}
		free(out);
		*olen = q;
		return o2;
	}
}

/* Everything of a result as one byte string, for comparison. */
static uint8_t *
flatten(const kr_strip_result *r, size_t *len)
{
	pgp_buf b;
	size_t i;
	pgp_buf_init(&b, (size_t)1 << 30);
	for (i = 0; i < r->ncerts; i++) {
		(void)pgp_buf_append(&b, r->certs[i].bin, r->certs[i].len);
		(void)pgp_buf_append(&b, r->certs[i].drops, sizeof r->certs[i].drops);
	}
	for (i = 0; i < r->nedges; i++) {
		const kr_edge *e = &r->edges[i];
		uint32_t v[4] = {e->issuer, e->target, e->uid, (uint32_t)e->issuer_key};
		(void)pgp_buf_append(&b, v, sizeof v);
		(void)pgp_buf_append(&b, &e->created, sizeof e->created);
	}
	(void)pgp_buf_append(&b, r->tags, r->ntags * PGP_SIGMEMO_TAG_LEN);
	for (i = 0; i < r->nnotes; i++)
		(void)pgp_buf_append(&b, r->notes[i], strlen(r->notes[i]));
	return pgp_buf_take(&b, len);
}

static uint8_t *
strip_flat(const uint8_t *const *bufs, const size_t *lens, size_t nb, unsigned threads,
    size_t *len, size_t *nedges)
{
	pgp_certset *s;
	kr_strip_opts o;
	kr_strip_result r;
	pgp_policy pol;
	uint8_t *flat = NULL;
	size_t i;
	pgp_policy_init(&pol);
	if (pgp_certset_new(&s) != PGP_OK)
		return NULL;
	for (i = 0; i < nb; i++)
		T_EQ_INT(pgp_certset_add(s, bufs[i], lens[i], NULL), PGP_OK);
	opts(&o, &pol);
	o.details = 0;
	o.threads = threads;
	if (kr_strip(s, &o, &r) == PGP_OK) {
		flat = flatten(&r, len);
		*nedges = r.nedges;
		T_ASSERT(r.ntags > 0);
		kr_strip_free(&r);
	}
	pgp_certset_free(s);
	return flat;
}

static void
test_order_independence(void)
{
	static const char *const variants[] = {"v0", "v1", "v2", "v3"};
	uint8_t *ref = NULL;
	size_t reflen = 0, i, ne = 0;
	uint32_t seed;
	for (i = 0; i < 4; i++) {
		char path[256];
		size_t len, flen;
		unsigned char *p;
		uint8_t *f;
		snprintf(path, sizeof path, VS "order/%s.pgp", variants[i]);
		p = t_slurp(path, &len);
		T_ASSERT(p != NULL);
		if (p == NULL)
			continue;
		f = strip_flat((const uint8_t *const *)&p, &len, 1, 1, &flen, &ne);
		T_ASSERT(f != NULL);
		if (ref == NULL) {
			ref = f;
			reflen = flen;
			T_EQ_INT(ne, 5); /* A: B, E, D on one user ID, B on the other; E: A */
		} else {
			T_EQ_INT(flen, reflen);
			if (f && flen == reflen)
				T_EQ_MEM(f, ref, flen);
			free(f);
		}
		/* the same input with packets shuffled within their places */
		for (seed = 1; seed <= 8 && i == 0; seed++) {
			size_t rl, fl2;
			uint8_t *rp = reorder(p, len, seed, &rl), *f2;
			T_EQ_INT(rl, len);
			f2 = strip_flat((const uint8_t *const *)&rp, &rl, 1, seed % 2 ? 1 : 3, &fl2, &ne);
			T_ASSERT(f2 != NULL && fl2 == reflen);
			if (f2 && fl2 == reflen)
				T_EQ_MEM(f2, ref, reflen);
			free(f2);
			free(rp);
		}
		free(p);
	}
	free(ref);
}

/* The real sample (if present): 1 thread and 4 threads give the same bytes,
 * and the same when the files come in reverse order. */
static void
test_threads_corpus(void)
{
	static const char *const keys[] = {
		"034EB370014DF270", "05A107C90942CA1E", "07F4DE8139DD5990", "082D13D4438514CC",
		"0AA04DC735ACE2B5", "0BCEF4D8FE98BA58", "0CD904EB673A7C47", "0DAFCD80421FC658",
		"38DBBDC86092693E", "79BE3E4300411886", "E63EDCA9329DD07E",
	};
	const char *c = t_corpus();
	unsigned char *bufs[11], *rev[11];
	size_t lens[11], rlens[11], i, l1, l4, lr, ne;
	uint8_t *f1, *f4, *fr;
	if (c == NULL) {
		printf("skip - WOTKIT_CORPUS absent: threads on the pgpkeys sample\n");
		return;
	}
	for (i = 0; i < 11; i++) {
		char path[4096];
		pgp_buf b;
		snprintf(path, sizeof path, "%s/pgpkeys/keys/%s.asc", c, keys[i]);
		bufs[i] = t_slurp(path, &lens[i]);
		T_ASSERT(bufs[i] != NULL);
		if (bufs[i] == NULL)
			return;
		/* armored: decode first */
		T_EQ_INT(pgp_armor_decode_all(&b, bufs[i], lens[i], NULL), PGP_OK);
		free(bufs[i]);
		bufs[i] = pgp_buf_take(&b, &lens[i]);
	}
	for (i = 0; i < 11; i++) {
		rev[i] = bufs[10 - i];
		rlens[i] = lens[10 - i];
	}
	f1 = strip_flat((const uint8_t *const *)bufs, lens, 11, 1, &l1, &ne);
	f4 = strip_flat((const uint8_t *const *)bufs, lens, 11, 4, &l4, &ne);
	fr = strip_flat((const uint8_t *const *)rev, rlens, 11, 2, &lr, &ne);
	T_ASSERT(f1 && f4 && fr);
	T_EQ_INT(l1, l4);
	T_EQ_INT(l1, lr);
	if (f1 && f4 && fr && l1 == l4 && l1 == lr) {
		T_EQ_MEM(f1, f4, l1);
		T_EQ_MEM(f1, fr, l1);
	}
	T_EQ_INT(ne, 12); /* CHECK-SIGS.txt: 12 verified certifications inside the sample */
	free(f1);
	free(f4);
	free(fr);
	for (i = 0; i < 11; i++)
		free(bufs[i]);
}

/* The tags let evaluation skip exactly the math that was done: evaluating a
 * stripped certificate through a memo of the result's tags asks about
 * every self-signature and finds each one. */
typedef struct memo_ctx { const kr_strip_result *r; int asked, found; } memo_ctx;

static int
tag_cmp(const void *a, const void *b)
{
	return memcmp(a, b, PGP_SIGMEMO_TAG_LEN);
}

static int
known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	memo_ctx *m = ctx;
	int f = bsearch(tag, m->r->tags, m->r->ntags, PGP_SIGMEMO_TAG_LEN, tag_cmp) != NULL;
	m->asked++;
	m->found += f;
	return f;
}

static void
test_memo_tags(void)
{
	const char *files[] = {VS "order/v0.pgp", NULL};
	unsigned char *bufs[1] = {NULL};
	pgp_certset *s = load(bufs, files), *s2 = NULL;
	kr_strip_opts o;
	kr_strip_result r;
	pgp_policy pol;
	pgp_certsrc src;
	pgp_sigmemo memo;
	memo_ctx mc;
	size_t i;
	pgp_policy_init(&pol);
	T_ASSERT(s != NULL);
	if (s == NULL)
		return;
	opts(&o, &pol);
	o.keep_superseded = 1;
	T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
	for (i = 1; i < r.ntags; i++)
		T_ASSERT(memcmp(r.tags[i - 1], r.tags[i], PGP_SIGMEMO_TAG_LEN) < 0);
	T_EQ_INT(pgp_certset_new(&s2), PGP_OK);
	for (i = 0; i < r.ncerts; i++)
		T_EQ_INT(pgp_certset_add(s2, r.certs[i].bin, r.certs[i].len, NULL), PGP_OK);
	pgp_certset_source(s2, &src);
	mc.r = &r;
	mc.asked = mc.found = 0;
	memo.known = known;
	memo.record = NULL;
	memo.ctx = &mc;
	src.memo = &memo;
	for (i = 0; i < pgp_certset_count(s2); i++) {
		pgp_certeval ev;
		T_EQ_INT(pgp_cert_eval(&ev, pgp_certset_get(s2, i), &src, AT, &pol), PGP_OK);
		T_EQ_INT(ev.primary.status, PGP_OK);
		pgp_certeval_release(&ev);
	}
	T_ASSERT(mc.asked >= 6);
	T_EQ_INT(mc.found, mc.asked);
	kr_strip_free(&r);
	pgp_certset_free(s2);
	pgp_certset_free(s);
	free(bufs[0]);
}

/* Out of memory at any allocation: PGP_ERR_NOMEM and nothing returned, or
 * the complete result; never a partial one (fail closed). */
static void
test_out_of_memory(void)
{
#ifdef T_CAN_FAIL_ALLOC
	const char *files[] = {VS "order/v0.pgp", NULL};
	unsigned char *bufs[1] = {NULL};
	pgp_certset *s = load(bufs, files);
	kr_strip_opts o;
	kr_strip_result r;
	pgp_policy pol;
	uint8_t *ref = NULL;
	size_t reflen = 0;
	long k;
	int failed = 0, completed = 0;
	pgp_policy_init(&pol);
	T_ASSERT(s != NULL);
	if (s == NULL)
		return;
	opts(&o, &pol);
	o.details = 0;
	T_EQ_INT(kr_strip(s, &o, &r), PGP_OK);
	ref = flatten(&r, &reflen);
	kr_strip_free(&r);
	for (k = 0; k < 100000 && !completed; k++) {
		pgp_err e;
		t_alloc_left = k;
		e = kr_strip(s, &o, &r);
		completed = t_alloc_left > 0;
		t_alloc_left = -1;
		if (e == PGP_OK) {
			size_t len;
			uint8_t *f = flatten(&r, &len);
			T_ASSERT(f != NULL && len == reflen && memcmp(f, ref, len) == 0);
			free(f);
		} else {
			T_EQ_INT(e, PGP_ERR_NOMEM);
			T_EQ_INT(r.ncerts, 0);
			T_ASSERT(r.certs == NULL && r.edges == NULL && r.tags == NULL);
			failed++;
		}
		kr_strip_free(&r);
	}
	T_ASSERT(completed);
	T_ASSERT(failed > 20);
	free(ref);
	pgp_certset_free(s);
	free(bufs[0]);
#else
	printf("skip - allocation failure injection needs glibc without ASan\n");
#endif
}

int
main(void)
{
	T_RUN(test_drop_reasons);
	T_RUN(test_components);
	T_RUN(test_verdicts);
	T_RUN(test_keep_superseded);
	T_RUN(test_edges);
	T_RUN(test_caps);
	T_RUN(test_order_independence);
	T_RUN(test_threads_corpus);
	T_RUN(test_memo_tags);
	T_RUN(test_out_of_memory);
	return T_DONE();
}
