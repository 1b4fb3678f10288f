/* test_kr.c - the keyring file (keyring/kr.h): round trip, every lookup
 * kind, the memo, determinism, and damage: truncation at every length and
 * a bit flip at every octet give an error or the intact answer, never
 * another one. */
#include "t.h"
#include "keyring/kr.h"
#include "pgp/pgp.h"
#include "pgp/crc32.h"

static const char *const key_files[] = {
	"vectors/verify/keys/rsa2048.pgp",
	"vectors/verify/keys/ed25519-subkey.pgp",
	"vectors/verify/keys/ed25519-subrev-hard.pgp",
	"vectors/verify/keys/dsa2048.pgp",
};
#define NKEYS (sizeof key_files / sizeof key_files[0])

typedef struct fixture {
	uint8_t *in[NKEYS];
	size_t inlen[NKEYS];
	pgp_certset *set;
	kr_strip_result sr;
	uint8_t *file;
	size_t len;
} fixture;

static int
fixture_make(fixture *f, size_t nkeys)
{
	size_t i;
	kr_strip_opts so;
	pgp_policy pol;
	pgp_buf b;
	memset(f, 0, sizeof *f);
	if (pgp_certset_new(&f->set) != PGP_OK ||
	    pgp_certset_set_sig_cap(f->set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK)
		return -1;
	for (i = 0; i < nkeys; i++) {
		if ((f->in[i] = t_slurp(key_files[i], &f->inlen[i])) == NULL)
			return -1;
		if (pgp_certset_add(f->set, f->in[i], f->inlen[i], NULL) != PGP_OK)
			return -1;
	}
	pgp_policy_init(&pol);
	memset(&so, 0, sizeof so);
	so.now = 1700000000;
	so.pol = &pol;
	so.threads = 1;
	so.keep_superseded = 1;
	if (kr_strip(f->set, &so, &f->sr) != PGP_OK)
		return -1;
	pgp_buf_init(&b, KR_MAX_FILE);
	if (kr_serialize(&f->sr, NULL, &b) != PGP_OK)
		return -1;
	f->file = pgp_buf_take(&b, &f->len);
	return f->file ? 0 : -1;
}

static void
fixture_free(fixture *f)
{
	size_t i;
	kr_strip_free(&f->sr);
	pgp_certset_free(f->set);
	for (i = 0; i < NKEYS; i++)
		free(f->in[i]);
	free(f->file);
}

/* Every query the intact keyring answers, with its answer. */
#define MAXQ 256
typedef struct qset {
	pgp_certq q[MAXQ];
	uint8_t buf[MAXQ][64];
	uint32_t want[MAXQ][8];
	size_t nwant[MAXQ];
	size_t n;
} qset;

static void
add_q(qset *s, pgp_certq_kind kind, const uint8_t *p, size_t len)
{
	if (s->n == MAXQ || len > sizeof s->buf[0])
		return;
	memcpy(s->buf[s->n], p, len);
	s->q[s->n].kind = kind;
	s->q[s->n].p = s->buf[s->n];
	s->q[s->n].len = len;
	s->n++;
}

static void
collect_queries(kr_keyring *k, qset *s)
{
	size_t i, j;
	memset(s, 0, sizeof *s);
	for (i = 0; i < kr_count(k); i++) {
		const pgp_cert *c;
		if (kr_cert(k, i, &c) != PGP_OK)
			continue;
		for (j = 0; j <= c->nsubs; j++) {
			const pgp_key *key = j == 0 ? &c->primary : &c->subs[j - 1].key;
			pgp_fpr miss = key->fpr;
			uint8_t kid[8];
			add_q(s, PGP_CERTQ_FPR, key->fpr.v, key->fpr.len);
			add_q(s, PGP_CERTQ_KEYID, key->keyid, 8);
			/* negatives: one bit off */
			miss.v[miss.len - 1] ^= 1;
			add_q(s, PGP_CERTQ_FPR, miss.v, miss.len);
			memcpy(kid, key->keyid, 8);
			kid[0] ^= 0x80;
			add_q(s, PGP_CERTQ_KEYID, kid, 8);
		}
		for (j = 0; j < c->nuids; j++) {
			pgp_view a;
			uint8_t up[64];
			size_t m;
			if (c->uids[j].is_attr || !pgp_uid_email(c->uids[j].data, &a) || a.len > 60)
				continue;
			add_q(s, PGP_CERTQ_EMAIL, a.p, a.len);
			/* the same address in upper case matches too */
			for (m = 0; m < a.len; m++)
				up[m] = (uint8_t)(a.p[m] >= 'a' && a.p[m] <= 'z' ? a.p[m] - 32 : a.p[m]);
			add_q(s, PGP_CERTQ_EMAIL, up, a.len);
			up[0] = '#';
			add_q(s, PGP_CERTQ_EMAIL, up, a.len);
		}
	}
	for (i = 0; i < s->n; i++)
		if (kr_find(k, &s->q[i], s->want[i], 8, &s->nwant[i]) != PGP_OK)
			s->nwant[i] = 99;
}

static void
test_round_trip(void)
{
	fixture f;
	kr_keyring *k = NULL;
	pgp_diag d;
	qset qs;
	size_t i, npos = 0, nneg = 0;
	T_ASSERT(fixture_make(&f, NKEYS) == 0);
	T_ASSERT(kr_is_keyring(f.file, f.len));
	T_EQ_INT(kr_open(&k, f.file, f.len, &d), PGP_OK);
	if (k == NULL)
		goto out;
	T_EQ_INT(kr_count(k), NKEYS);
	T_EQ_INT(kr_count(k), f.sr.ncerts);
	for (i = 0; i < kr_count(k); i++) {
		pgp_view v;
		const pgp_cert *c, *c2;
		pgp_fpr fp;
		T_EQ_INT(kr_cert_bytes(k, i, &v), PGP_OK);
		T_EQ_INT(v.len, f.sr.certs[i].len);
		T_ASSERT(v.len == f.sr.certs[i].len && memcmp(v.p, f.sr.certs[i].bin, v.len) == 0);
		T_EQ_INT(kr_cert(k, i, &c), PGP_OK);
		T_EQ_INT(kr_cert(k, i, &c2), PGP_OK);
		T_ASSERT(c == c2);  /* cached until kr_close */
		T_EQ_INT(kr_cert_fpr(k, i, &fp), PGP_OK);
		T_ASSERT(fp.len == c->primary.fpr.len && memcmp(fp.v, c->primary.fpr.v, fp.len) == 0);
		T_ASSERT(fp.len == f.sr.certs[i].cert->primary.fpr.len &&
		    memcmp(fp.v, f.sr.certs[i].cert->primary.fpr.v, fp.len) == 0);
		if (i > 0) {
			pgp_fpr prev;
			T_EQ_INT(kr_cert_fpr(k, i - 1, &prev), PGP_OK);
			T_ASSERT(memcmp(prev.v, fp.v, fp.len) < 0);
		}
	}
	T_EQ_INT(kr_cert(k, kr_count(k), &(const pgp_cert *){NULL}), PGP_ERR_INVALID);
	collect_queries(k, &qs);
	T_ASSERT(qs.n > 20);
	for (i = 0; i < qs.n; i++) {
		/* a positive query finds a certificate that holds the key / address */
		if (qs.nwant[i] == 99)
			T_ASSERT(0);
		else if (qs.nwant[i] > 0)
			npos++;
		else
			nneg++;
	}
	T_ASSERT(npos >= NKEYS * 3);
	T_ASSERT(nneg >= NKEYS * 2);
	{
		/* invalid queries */
		uint32_t idx[4];
		size_t tot;
		pgp_certq bad = {PGP_CERTQ_FPR, f.file, 19};
		T_EQ_INT(kr_find(k, &bad, idx, 4, &tot), PGP_ERR_INVALID);
		bad.kind = PGP_CERTQ_KEYID;
		bad.len = 7;
		T_EQ_INT(kr_find(k, &bad, idx, 4, &tot), PGP_ERR_INVALID);
	}
out:
	kr_close(k);
	fixture_free(&f);
}

/* Same strip result: same octets; a root and a time change the statistics only. */
static void
test_deterministic(void)
{
	fixture f;
	pgp_buf b1, b2;
	kr_meta m;
	pgp_fpr root;
	kr_keyring *k = NULL;
	kr_stats st;
	T_ASSERT(fixture_make(&f, NKEYS) == 0);
	pgp_buf_init(&b1, KR_MAX_FILE);
	pgp_buf_init(&b2, KR_MAX_FILE);
	T_EQ_INT(kr_serialize(&f.sr, NULL, &b1), PGP_OK);
	T_ASSERT(b1.len == f.len && memcmp(b1.p, f.file, f.len) == 0);
	memset(&root, 0xAB, sizeof root);
	root.len = 20;
	m.root = &root;
	m.built_at = 1234567890;
	T_EQ_INT(kr_serialize(&f.sr, &m, &b2), PGP_OK);
	T_ASSERT(b2.len == f.len && memcmp(b2.p, f.file, f.len) != 0);
	T_EQ_INT(kr_open(&k, b2.p, b2.len, NULL), PGP_OK);
	if (k) {
		T_EQ_INT(kr_stats_get(k, &st), PGP_OK);
		T_EQ_INT(st.built_at, 1234567890);
		T_EQ_INT(st.root.len, 20);
		T_EQ_INT(st.root.v[19], 0xAB);
		T_EQ_INT(st.certs, NKEYS);
		T_EQ_INT(st.ndrops, KR_DROP__N);
		T_EQ_STR(st.drops[KR_DROP_BAD_SIG].name, "bad-signature");
	}
	kr_close(k);
	pgp_buf_free(&b1);
	pgp_buf_free(&b2);
	fixture_free(&f);
}

/* A result that is not sorted by fingerprint is refused. */
static void
test_serialize_refuses(void)
{
	fixture f;
	pgp_buf b;
	kr_scert c0, c1;
	T_ASSERT(fixture_make(&f, 2) == 0);
	pgp_buf_init(&b, KR_MAX_FILE);
	c0 = f.sr.certs[0];
	c1 = f.sr.certs[1];
	f.sr.certs[0] = c1;  /* out of fingerprint order */
	f.sr.certs[1] = c0;
	T_EQ_INT(kr_serialize(&f.sr, NULL, &b), PGP_ERR_INVALID);
	T_EQ_INT(b.len, 0);
	f.sr.certs[0] = c0;  /* the same certificate twice */
	f.sr.certs[1] = c0;
	T_EQ_INT(kr_serialize(&f.sr, NULL, &b), PGP_ERR_INVALID);
	f.sr.certs[1] = c1;  /* not a certificate */
	f.sr.certs[1].len = 3;
	T_EQ_INT(kr_serialize(&f.sr, NULL, &b), PGP_ERR_INVALID);
	f.sr.certs[1] = c1;
	T_EQ_INT(kr_serialize(&f.sr, NULL, &b), PGP_OK);
	pgp_buf_free(&b);
	fixture_free(&f);
}

static size_t sink_left;

static pgp_err
failing_sink(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	(void)p;
	if (n > sink_left)
		return PGP_ERR_IO;
	sink_left -= n;
	return PGP_OK;
}

static pgp_err
buf_sink(void *ctx, const uint8_t *p, size_t n)
{
	return pgp_buf_append(ctx, p, n);
}

/* The streamed serialization: the same octets; a sink error is returned. */
static void
test_serialize_to(void)
{
	fixture f;
	pgp_buf b;
	T_ASSERT(fixture_make(&f, NKEYS) == 0);
	pgp_buf_init(&b, KR_MAX_FILE);
	T_EQ_INT(kr_serialize_to(&f.sr, NULL, buf_sink, &b), PGP_OK);
	T_ASSERT(b.len == f.len && memcmp(b.p, f.file, f.len) == 0);
	sink_left = f.len;
	T_EQ_INT(kr_serialize_to(&f.sr, NULL, failing_sink, NULL), PGP_OK);
	sink_left = 100;  /* in the head */
	T_EQ_INT(kr_serialize_to(&f.sr, NULL, failing_sink, NULL), PGP_ERR_IO);
	sink_left = f.len - 1;  /* in the last certificate */
	T_EQ_INT(kr_serialize_to(&f.sr, NULL, failing_sink, NULL), PGP_ERR_IO);
	pgp_buf_free(&b);
	fixture_free(&f);
}

static int hits, misses;
static const pgp_sigmemo *inner;

static int
count_known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	int r = inner->known(ctx, tag);
	if (r)
		hits++;
	else
		misses++;
	return r;
}

/*
 * Evaluation through the keyring: no public-key operation on any
 * self-signature (every memo question is answered yes), and the same
 * states as evaluation of the raw certificates.
 */
static void
test_memo(void)
{
	fixture f;
	kr_keyring *k = NULL;
	pgp_certsrc src, counted, raw;
	pgp_sigmemo m;
	pgp_policy pol;
	size_t i;
	uint32_t j, l;
	T_ASSERT(fixture_make(&f, NKEYS) == 0);
	T_EQ_INT(kr_open(&k, f.file, f.len, NULL), PGP_OK);
	if (k == NULL)
		goto out;
	kr_source(k, &src);
	T_ASSERT(src.memo != NULL && src.memo->known != NULL);
	T_ASSERT(kr_ntags(k) > 0);
	inner = src.memo;
	m = *src.memo;
	m.known = count_known;
	counted = src;
	counted.memo = &m;
	pgp_certset_source(f.set, &raw);
	pgp_policy_init(&pol);
	hits = misses = 0;
	for (i = 0; i < kr_count(k); i++) {
		const pgp_cert *c, *rc, *one[1];
		size_t n = 0;
		pgp_certeval e1, e2;
		T_EQ_INT(kr_cert(k, i, &c), PGP_OK);
		T_EQ_INT(pgp_certsrc_by_fpr(&raw, &c->primary.fpr, one, 1, &n), PGP_OK);
		T_EQ_INT(n, 1);
		rc = one[0];
		T_EQ_INT(pgp_cert_eval(&e1, c, &counted, 1700000000, &pol), PGP_OK);
		T_EQ_INT(pgp_cert_eval(&e2, rc, &raw, 1700000000, &pol), PGP_OK);
		T_EQ_INT(e1.primary.status, e2.primary.status);
		T_EQ_INT(e1.primary.sign_ok, e2.primary.sign_ok);
		T_EQ_INT(e1.primary.expires, e2.primary.expires);
		T_EQ_INT(c->nsubs, rc->nsubs);
		for (j = 0; j < c->nsubs; j++)
			for (l = 0; l < rc->nsubs; l++)
				if (memcmp(c->subs[j].key.fpr.v, rc->subs[l].key.fpr.v, 20) == 0) {
					T_EQ_INT(e1.subs[j].status, e2.subs[l].status);
					T_EQ_INT(e1.subs[j].sign_ok, e2.subs[l].sign_ok);
				}
		pgp_certeval_release(&e1);
		pgp_certeval_release(&e2);
	}
	T_ASSERT(hits > 0);
	T_EQ_INT(misses, 0);
	{
		/* a tag the keyring never saw is unknown */
		uint8_t tag[PGP_SIGMEMO_TAG_LEN];
		memset(tag, 0x5A, sizeof tag);
		T_EQ_INT(src.memo->known(src.memo->ctx, tag), 0);
	}
out:
	kr_close(k);
	fixture_free(&f);
}

/* Lookups through a possibly damaged keyring: an error or the intact answer. */
static int
same_or_error(const uint8_t *p, size_t len, const qset *qs, const fixture *f,
    const kr_stats *st0, int *opened)
{
	kr_keyring *k = NULL;
	pgp_diag d = {0, -1, NULL};
	size_t i, j;
	int wrong = 0;
	pgp_err e = kr_open(&k, p, len, &d);
	*opened = e == PGP_OK;
	if (e != PGP_OK) {
		if (d.what == NULL)
			wrong++;  /* an error always says what */
		return wrong;
	}
	for (i = 0; i < qs->n; i++) {
		uint32_t got[8];
		size_t n = 0;
		if (kr_find(k, &qs->q[i], got, 8, &n) != PGP_OK) {
			if (kr_last_error(k)->what == NULL)
				wrong++;
			continue;
		}
		if (n != qs->nwant[i] || memcmp(got, qs->want[i], (n < 8 ? n : 8) * 4) != 0)
			wrong++;
		for (j = 0; j < n && j < 8; j++) {
			pgp_view v;
			if (kr_cert_bytes(k, got[j], &v) == PGP_OK &&
			    (v.len != f->sr.certs[got[j]].len ||
			    memcmp(v.p, f->sr.certs[got[j]].bin, v.len) != 0))
				wrong++;
		}
	}
	for (i = 0; i < kr_count(k) && i < f->sr.ncerts; i++) {
		const pgp_cert *c;
		if (kr_cert(k, i, &c) == PGP_OK &&
		    memcmp(c->primary.fpr.v, f->sr.certs[i].cert->primary.fpr.v, 20) != 0)
			wrong++;
	}
	if (kr_count(k) != f->sr.ncerts)
		wrong++;  /* the table count is covered by the header checksum */
	{
		kr_stats st;
		if (kr_stats_get(k, &st) == PGP_OK &&
		    (st.certs != st0->certs || st.sigs != st0->sigs || st.uids != st0->uids ||
		    st.ndrops != st0->ndrops || st.drops[0].count != st0->drops[0].count))
			wrong++;
	}
	for (i = 0; i < kr_nedges(k); i++) {
		kr_edge g;
		if (kr_edge_at(k, i, &g) == PGP_OK && i < f->sr.nedges &&
		    (g.issuer != f->sr.edges[i].issuer || g.target != f->sr.edges[i].target ||
		    g.created != f->sr.edges[i].created))
			wrong++;
	}
	kr_close(k);
	return wrong;
}

static void
test_damage(void)
{
	fixture f;
	kr_keyring *k = NULL;
	qset *qs = calloc(1, sizeof *qs);
	uint8_t *copy = NULL;
	kr_stats st0;
	size_t i, wrong = 0, opened_flips = 0, truncs_opened = 0;
	int opened;
	T_ASSERT(qs != NULL && fixture_make(&f, 3) == 0);
	if (qs == NULL || f.file == NULL)
		goto out;
	T_EQ_INT(kr_open(&k, f.file, f.len, NULL), PGP_OK);
	if (k == NULL)
		goto out;
	collect_queries(k, qs);
	T_EQ_INT(kr_stats_get(k, &st0), PGP_OK);
	kr_close(k);
	copy = malloc(f.len);
	/* truncation at every length, including every section boundary */
	for (i = 0; i < f.len; i++) {
		kr_keyring *t = NULL;
		pgp_diag d = {0, -1, NULL};
		memcpy(copy, f.file, i);
		if (kr_open(&t, copy, i, &d) == PGP_OK)
			truncs_opened++;
		else if (d.what == NULL)
			wrong++;
		kr_close(t);
	}
	T_EQ_INT(truncs_opened, 0);
	/* a flipped bit at every octet (all 8 bits in the header and table) */
	for (i = 0; i < f.len; i++) {
		unsigned bit, bits = i < 64 + 8 * 32 ? 8 : 1;
		for (bit = 0; bit < bits; bit++) {
			memcpy(copy, f.file, f.len);
			copy[i] ^= (uint8_t)(1u << ((i + bit) % 8));
			wrong += (size_t)same_or_error(copy, f.len, qs, &f, &st0, &opened);
			opened_flips += (size_t)opened;
		}
	}
	T_EQ_INT(wrong, 0);
	/* most flips land in sections checked only when touched */
	T_ASSERT(opened_flips > f.len / 2);
	/* extra octets after the end */
	{
		uint8_t *big = malloc(f.len + 1);
		kr_keyring *t = NULL;
		memcpy(big, f.file, f.len);
		big[f.len] = 0;
		T_EQ_INT(kr_open(&t, big, f.len + 1, NULL), PGP_ERR_MALFORMED);
		kr_close(t);
		free(big);
	}
out:
	free(copy);
	free(qs);
	fixture_free(&f);
}

/* Edges and stats from the corpus's pgpkeys sample, when present. */
static void
test_edges_corpus(void)
{
	const char *c = t_corpus();
	pgp_certset *set = NULL;
	kr_strip_result sr;
	kr_strip_opts so;
	pgp_buf b;
	kr_keyring *k = NULL;
	char path[4096];
	uint8_t *data, *dp;
	size_t len, i;
	pgp_buf dec;
	if (c == NULL) {
		printf("skip - corpus absent: edges from the pgpkeys sample\n");
		return;
	}
	snprintf(path, sizeof path, "%s/pgpkeys/keys/79BE3E4300411886.asc", c);
	if ((data = t_slurp(path, &len)) == NULL) {
		printf("skip - %s absent\n", path);
		return;
	}
	T_EQ_INT(pgp_certset_new(&set), PGP_OK);
	T_EQ_INT(pgp_armor_decode_all(&dec, data, len, NULL), PGP_OK);
	dp = pgp_buf_take(&dec, &len);
	T_EQ_INT(pgp_certset_add_owned(set, dp, len, NULL), PGP_OK);
	free(data);
	snprintf(path, sizeof path, "%s/pgpkeys/keys/38DBBDC86092693E.asc", c);
	if ((data = t_slurp(path, &len)) != NULL) {
		T_EQ_INT(pgp_armor_decode_all(&dec, data, len, NULL), PGP_OK);
		dp = pgp_buf_take(&dec, &len);
	T_EQ_INT(pgp_certset_add_owned(set, dp, len, NULL), PGP_OK);
		free(data);
	}
	memset(&so, 0, sizeof so);
	so.keep_superseded = 1;
	T_EQ_INT(kr_strip(set, &so, &sr), PGP_OK);
	pgp_buf_init(&b, KR_MAX_FILE);
	T_EQ_INT(kr_serialize(&sr, NULL, &b), PGP_OK);
	T_EQ_INT(kr_open(&k, b.p, b.len, NULL), PGP_OK);
	/* Greg Kroah-Hartman certified Linus Torvalds (CHECK-SIGS.txt) */
	T_ASSERT(sr.nedges > 0);
	if (k) {
		T_EQ_INT(kr_nedges(k), sr.nedges);
		for (i = 0; i < kr_nedges(k); i++) {
			kr_edge g;
			T_EQ_INT(kr_edge_at(k, i, &g), PGP_OK);
			T_EQ_INT(g.issuer, sr.edges[i].issuer);
			T_EQ_INT(g.target, sr.edges[i].target);
			T_EQ_INT(g.uid, sr.edges[i].uid);
			T_EQ_INT(g.issuer_key, sr.edges[i].issuer_key);
			T_EQ_INT(g.sigtype, sr.edges[i].sigtype);
			T_EQ_INT(g.created, sr.edges[i].created);
			T_EQ_INT(g.expires, sr.edges[i].expires);
		}
		T_EQ_INT(kr_edge_at(k, kr_nedges(k), &(kr_edge){0}), PGP_ERR_MALFORMED);
	}
	kr_close(k);
	pgp_buf_free(&b);
	kr_strip_free(&sr);
	pgp_certset_free(set);
}

/* kr_verify over file p: PGP_OK or its error. */
static pgp_err
verify_file(const uint8_t *p, size_t len)
{
	kr_keyring *k = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_err e = kr_open(&k, p, len, &d);
	if (e == PGP_OK)
		e = kr_verify(k, &d);
	kr_close(k);
	return e;
}

/* Offset and record count of section id in file p (docs/keyring-format.md). */
static size_t
sect_at(const uint8_t *p, uint32_t id, uint32_t *count)
{
	uint32_t n = pgp_be32(p + 24), i;
	for (i = 0; i < n; i++) {
		const uint8_t *e = p + 64 + 32 * i;
		if (pgp_be32(e) == id) {
			*count = pgp_be32(e + 24);
			return (size_t)pgp_be32(e + 12);  /* offsets < 4 GiB here */
		}
	}
	return 0;
}

static void
test_verify(void)
{
	fixture f;
	uint8_t *copy = NULL, tmp[12];
	uint32_t count;
	size_t i, at, missed = 0;
	T_ASSERT(fixture_make(&f, 3) == 0);
	if (f.file == NULL)
		goto out;
	T_EQ_INT(verify_file(f.file, f.len), PGP_OK);
	copy = malloc(f.len);
	/* every flipped bit anywhere: the whole check finds it */
	for (i = 0; i < f.len; i++) {
		memcpy(copy, f.file, f.len);
		copy[i] ^= (uint8_t)(1u << (i % 8));
		missed += verify_file(copy, f.len) == PGP_OK;
	}
	T_EQ_INT(missed, 0);
	/* two key ID index records swapped, the block checksum recomputed: only
	 * the order check can see it */
	memcpy(copy, f.file, f.len);
	at = sect_at(copy, 3, &count);
	T_ASSERT(at != 0 && count >= 2 && count <= 64);
	if (at == 0 || count < 2 || count > 64)
		goto out;
	memcpy(tmp, copy + at + 4, 12);
	memcpy(copy + at + 4, copy + at + 4 + 12, 12);
	memcpy(copy + at + 4 + 12, tmp, 12);
	pgp_put_be32(copy + at, pgp_crc32(0, copy + at + 4, (size_t)count * 12));
	T_EQ_INT(verify_file(copy, f.len), PGP_ERR_MALFORMED);
	/* a key ID entry naming another certificate (checksum recomputed) */
	memcpy(copy, f.file, f.len);
	copy[at + 4 + 11] ^= 1;
	pgp_put_be32(copy + at, pgp_crc32(0, copy + at + 4, (size_t)count * 12));
	T_EQ_INT(verify_file(copy, f.len), PGP_ERR_MALFORMED);
out:
	free(copy);
	fixture_free(&f);
}

static void
test_not_a_keyring(void)
{
	kr_keyring *k = NULL;
	static const uint8_t junk[80] = "WOTKITKR";
	T_ASSERT(!kr_is_keyring((const uint8_t *)"\x99\x01", 2));
	T_EQ_INT(kr_open(&k, (const uint8_t *)"", 0, NULL), PGP_ERR_TRUNCATED);
	T_EQ_INT(kr_open(&k, (const uint8_t *)"\x99\x01\x0d", 3, NULL), PGP_ERR_TRUNCATED);
	T_EQ_INT(kr_open(&k, (const uint8_t *)"NOTAKEYRING", 11, NULL), PGP_ERR_MALFORMED);
	/* magic, then version 0 */
	T_EQ_INT(kr_open(&k, junk, sizeof junk, NULL), PGP_ERR_UNSUPPORTED);
	T_ASSERT(k == NULL);
}

int
main(void)
{
	T_RUN(test_round_trip);
	T_RUN(test_deterministic);
	T_RUN(test_serialize_refuses);
	T_RUN(test_serialize_to);
	T_RUN(test_memo);
	T_RUN(test_damage);
	T_RUN(test_edges_corpus);
	T_RUN(test_verify);
	T_RUN(test_not_a_keyring);
	return T_DONE();
}
