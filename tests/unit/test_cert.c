/* test_cert.c - certificate sets (merging copies, lookups, limits, out of
 * memory), evaluation at a time, and what the verifier draws from a set. */
#include "t.h"
#include "pgp/cert.h"
#include "pgp/eval.h"
#include "pgp/verify_int.h"

#define KS "vectors/keyset/"
#define AT_KS 1710000000 /* the reference time of vectors/keyset */

/*
 * Allocation failure injection: the one malloc, calloc or realloc call
 * that finds t_alloc_left at 0 fails (-1: none does). glibc lets a program replace them;
 * under AddressSanitizer (which replaces them itself) the test is skipped.
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
		t_alloc_left = -1; /* this one fails, the following succeed again */
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

/*
 * Every test runs twice: on eager sets, then on lazy ones
 * (pgp_certset_set_lazy), whose answers must be the same.
 */
static int t_lazy;

static pgp_err
t_certset_new(pgp_certset **s)
{
	pgp_err e = pgp_certset_new(s);
	if (e == PGP_OK && t_lazy && (e = pgp_certset_set_lazy(*s)) != PGP_OK) {
		pgp_certset_free(*s);
		*s = NULL;
	}
	return e;
}
#define pgp_certset_new(s) t_certset_new(s)

#define V "vectors/verify/keys/"
#define T2020_07 1593561600 /* 2020-07-01 */
#define T2026_12 1796169600 /* 2026-12-01 */

/* Key ID lookup through the certsrc interface; returns the total. */
static size_t
find_kid(const pgp_certset *s, const uint8_t keyid[8], const pgp_cert **out, size_t max)
{
	pgp_certsrc src;
	size_t total = 99;
	pgp_certset_source(s, &src);
	T_EQ_INT(pgp_certsrc_by_keyid(&src, keyid, out, max, &total), PGP_OK);
	return total;
}

static pgp_certset *
load(const char *const *files, size_t n, unsigned char **bufs)
{
	pgp_certset *s = NULL;
	size_t i, len;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	for (i = 0; i < n; i++) {
		bufs[i] = t_slurp(files[i], &len);
		T_ASSERT(bufs[i] != NULL);
		if (bufs[i])
			T_EQ_INT(pgp_certset_add(s, bufs[i], len, NULL), PGP_OK);
	}
	return s;
}

static void
test_index_finds_primary_and_subkeys(void)
{
	static const char *const files[] = {V "rsa2048.pgp", V "rsa2048-subkey.pgp", V "ed25519.pgp"};
	unsigned char *bufs[3] = {0};
	pgp_certset *s = load(files, 3, bufs);
	const pgp_cert *c, *found[4];
	uint8_t nokey[8] = {1, 2, 3, 4, 5, 6, 7, 8};
	size_t i;
	T_EQ_INT(pgp_certset_count(s), 3);
	for (i = 0; i < pgp_certset_count(s); i++) {
		uint32_t k;
		c = pgp_certset_get(s, i);
		T_EQ_INT(find_kid(s, c->primary.keyid, found, 4), 1);
		T_ASSERT(found[0] == c);
		for (k = 0; k < c->nsubs; k++) {
			int idx = -2;
			T_EQ_INT(find_kid(s, c->subs[k].key.keyid, found, 4), 1);
			T_ASSERT(found[0] == c);
			T_ASSERT(pgp_cert_key_by_id(c, c->subs[k].key.keyid, &idx) == &c->subs[k].key);
			T_EQ_INT(idx, (int)k);
		}
	}
	T_EQ_INT(find_kid(s, nokey, found, 4), 0);
	T_ASSERT(pgp_certset_get(s, 3) == NULL);
	pgp_certset_free(s);
	for (i = 0; i < 3; i++)
		free(bufs[i]);
}

static void
test_same_cert_twice_is_one_merged_cert(void)
{
	/* loading a cert twice gives one merged certificate (two copies) */
	static const char *const files[] = {V "rsa2048.pgp", V "rsa2048.pgp", V "ed25519.pgp"};
	unsigned char *bufs[3] = {0};
	pgp_certset *s = load(files, 3, bufs);
	const pgp_cert *found[1], *c;
	T_EQ_INT(pgp_certset_count(s), 2);
	T_EQ_INT(pgp_certset_copies(s), 3);
	c = pgp_certset_get(s, 0);
	T_ASSERT(c != NULL);
	if (c == NULL)
		return;
	T_EQ_INT(c->ncopies, 2);
	/* identical signatures are one: the merge has what one copy has */
	T_EQ_INT(c->nuids, pgp_certset_copy(s, 0)->nuids);
	T_EQ_INT(c->ndsigs, pgp_certset_copy(s, 0)->ndsigs);
	T_EQ_INT(c->uids[0].nsigs, pgp_certset_copy(s, 0)->uids[0].nsigs);
	T_EQ_INT(find_kid(s, c->primary.keyid, found, 1), 1);
	T_ASSERT(found[0] == c);
	free(bufs[2]);
	pgp_certset_free(s);
	free(bufs[0]);
	free(bufs[1]);
}

static void
test_truncated_keyring_keeps_earlier_certs(void)
{
	unsigned char *a, *b, *both;
	size_t la, lb;
	pgp_certset *s = NULL;
	pgp_diag d = {0, -1, NULL};
	a = t_slurp(V "rsa2048.pgp", &la);
	b = t_slurp(V "ed25519.pgp", &lb);
	T_ASSERT(a && b);
	if (!a || !b)
		return;
	both = malloc(la + lb);
	memcpy(both, a, la);
	memcpy(both + la, b, lb);
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	/* cut in the middle of the second certificate's first packet */
	T_EQ_INT(pgp_certset_add(s, both, la + 10, &d), PGP_ERR_TRUNCATED);
	T_EQ_INT(pgp_certset_count(s), 1);
	T_ASSERT(d.what != NULL);
	T_ASSERT(d.offset >= la);
	pgp_certset_free(s);
	free(both);
	free(a);
	free(b);
}

static pgp_certeval
eval_file(const char *path, int64_t t, unsigned char **buf, pgp_certset **s)
{
	pgp_certeval ev;
	pgp_policy pol;
	size_t len;
	memset(&ev, 0, sizeof ev);
	*buf = t_slurp(path, &len);
	T_ASSERT(*buf != NULL);
	T_ASSERT(pgp_certset_new(s) == PGP_OK);
	if (*buf)
		T_EQ_INT(pgp_certset_add(*s, *buf, len, NULL), PGP_OK);
	pgp_policy_init(&pol);
	if (pgp_certset_count(*s) == 1)
		T_EQ_INT(pgp_cert_eval(&ev, pgp_certset_get(*s, 0), NULL, t, &pol), PGP_OK);
	else
		T_ASSERT(0);
	return ev;
}

static void
test_eval_expiry_depends_on_time(void)
{
	unsigned char *buf;
	pgp_certset *s;
	const char *why = NULL;
	pgp_certeval ev = eval_file(V "rsa2048-expired.pgp", T2026_12, &buf, &s);
	T_EQ_INT(ev.primary.status, PGP_ERR_EXPIRED);
	T_ASSERT(ev.primary.expires > 0 && ev.primary.expires < T2026_12);
	/* alive when it signed in 2020, not after the expiry */
	T_EQ_INT(pgp_keystate_alive_at(&ev.primary, &ev.cert->primary, T2020_07, &why), PGP_OK);
	T_EQ_INT(pgp_keystate_alive_at(&ev.primary, &ev.cert->primary, T2026_12, &why), PGP_ERR_EXPIRED);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
	ev = eval_file(V "rsa2048-expired.pgp", T2020_07, &buf, &s);
	T_EQ_INT(ev.primary.status, PGP_OK);
	T_EQ_INT(ev.primary_uid, 0);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
}

static void
test_eval_backsig_and_revocation(void)
{
	unsigned char *buf;
	pgp_certset *s;
	pgp_certeval ev = eval_file(V "rsa2048-no-backsig.pgp", T2026_12, &buf, &s);
	T_EQ_INT(ev.primary.status, PGP_OK);
	T_ASSERT(ev.cert->nsubs == 1);
	if (ev.cert->nsubs == 1) {
		T_EQ_INT(ev.subs[0].status, PGP_OK);   /* bound ... */
		T_EQ_INT(ev.subs[0].sign_ok, 0);       /* ... but may not sign */
		T_ASSERT(ev.subs[0].sign_reason && strstr(ev.subs[0].sign_reason, "back-signature"));
	}
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
	ev = eval_file(V "rsa2048-subkey.pgp", T2026_12, &buf, &s);
	T_ASSERT(ev.cert->nsubs >= 1);
	if (ev.cert->nsubs >= 1)
		T_EQ_INT(ev.subs[0].sign_ok, 1);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
	ev = eval_file(V "rsa2048-primary-revoked.pgp", T2026_12, &buf, &s);
	T_EQ_INT(ev.primary.status, PGP_ERR_REVOKED);
	T_EQ_INT(ev.primary.revoked, 2);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
	ev = eval_file(V "rsa2048-subrev-soft.pgp", T2026_12, &buf, &s);
	T_ASSERT(ev.cert->nsubs >= 1);
	if (ev.cert->nsubs >= 1) {
		const char *why = NULL;
		T_EQ_INT(ev.subs[0].revoked, 1);
		/* soft revocation: signatures before it stay good, after it do not */
		T_EQ_INT(pgp_keystate_alive_at(&ev.subs[0], &ev.cert->subs[0].key,
		    ev.subs[0].revoked_at - 1, &why), PGP_OK);
		T_EQ_INT(pgp_keystate_alive_at(&ev.subs[0], &ev.cert->subs[0].key,
		    ev.subs[0].revoked_at, &why), PGP_ERR_REVOKED);
	}
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
	free(buf);
}


/* Verify sig over data with the set; the status of signature 0 (or the error). */
static pgp_err
verify_with(const pgp_certset *s, const unsigned char *sig, size_t siglen,
    const unsigned char *data, size_t dlen, size_t *good, size_t *signers, size_t *evals)
{
	pgp_verifier *v = NULL;
	pgp_verify_opts o;
	pgp_certsrc src;
	pgp_err e;
	pgp_certset_source(s, &src);
	pgp_verify_opts_init(&o, AT_KS);
	if ((e = pgp_verifier_new(&v, sig, siglen, NULL)) != PGP_OK)
		return e;
	pgp_verifier_update(v, data, dlen);
	if ((e = pgp_verifier_finish(v, &src, &o)) == PGP_OK) {
		e = pgp_verifier_result(v, 0)->status;
		if (good)
			*good = pgp_verifier_good(v);
		if (signers)
			*signers = pgp_verifier_good_signers(v);
		if (evals)
			*evals = v->nevals;
	}
	pgp_verifier_free(v);
	return e;
}

typedef struct blob {
	unsigned char *p;
	size_t len;
} blob;

static blob
slurp(const char *path)
{
	blob b;
	b.p = t_slurp(path, &b.len);
	T_ASSERT(b.p != NULL);
	return b;
}

/* The key ID of the n-th key packet (primary or subkey) of a keyring. */
static int
nth_keyid(blob b, int n, uint8_t keyid[8])
{
	pgp_rd r;
	pgp_pkt pkt;
	pgp_key k;
	pgp_rd_init(&r, b.p, b.len);
	while (b.p && pgp_pkt_next(&r, &pkt, NULL) == PGP_OK) {
		int key = pkt.tag == 6 || pkt.tag == 14;
		if (key && n-- == 0 && pgp_key_parse(&k, &pkt, NULL) == PGP_OK) {
			memcpy(keyid, k.keyid, 8);
			pgp_pkt_release(&pkt);
			return 1;
		}
		pgp_pkt_release(&pkt);
	}
	return 0;
}

static void
test_results_in_input_order(void)
{
	/* both hold the victim's signing subkey; a lookup of the second's
	 * primary first (a lazy set builds it first) changes nothing: every
	 * lookup answers in input order */
	blob a = slurp(KS "keys/victim-stale.pgp"), c = slurp(KS "keys/other-revokes-victim-subkey.pgp");
	pgp_certset *s = NULL;
	const pgp_cert *out[4];
	uint8_t akid[8], ckid[8], sub[8];
	if (!a.p || !c.p)
		return;
	T_ASSERT(nth_keyid(a, 0, akid) && nth_keyid(a, 1, sub) && nth_keyid(c, 0, ckid));
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, a.p, a.len, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_add(s, c.p, c.len, NULL), PGP_OK);
	T_EQ_INT(find_kid(s, ckid, out, 4), 1);
	T_EQ_INT(find_kid(s, sub, out, 4), 2);
	T_EQ_MEM(out[0]->primary.keyid, akid, 8);
	T_EQ_MEM(out[1]->primary.keyid, ckid, 8);
	/* asked for one: the first in input order */
	T_EQ_INT(find_kid(s, sub, out, 1), 2);
	T_EQ_MEM(out[0]->primary.keyid, akid, 8);
	T_EQ_INT(pgp_certset_count(s), 2);
	T_EQ_MEM(pgp_certset_get(s, 0)->primary.keyid, akid, 8);
	T_EQ_MEM(pgp_certset_get(s, 1)->primary.keyid, ckid, 8);
	pgp_certset_free(s);
	free(a.p);
	free(c.p);
}

/* p: primary key and user ID packets of one key, then n junk signatures
 * on the user ID numbered from first (distinct octets: the merge keeps
 * them all). The set stores signatures unparsed until evaluation. */
static blob
key_with_junk(blob k, uint32_t first, uint32_t n)
{
	pgp_rd r;
	pgp_pkt pkt;
	blob o = {NULL, 0};
	size_t head = 0, i;
	int seen = 0;
	pgp_rd_init(&r, k.p, k.len);
	while (seen < 2 && pgp_pkt_next(&r, &pkt, NULL) == PGP_OK) {
		if (pkt.tag == 6 || pkt.tag == 13)
			seen++;
		head = pkt.off + pkt.total_len;
		pgp_pkt_release(&pkt);
	}
	if (seen < 2 || (o.p = malloc(head + (size_t)n * 14)) == NULL)
		return o;
	/* only the primary key and the user ID: skip the packets between */
	pgp_rd_init(&r, k.p, k.len);
	while (pgp_pkt_next(&r, &pkt, NULL) == PGP_OK && o.len < head) {
		if (pkt.tag == 6 || pkt.tag == 13) {
			memcpy(o.p + o.len, k.p + pkt.off, pkt.total_len);
			o.len += pkt.total_len;
		}
		pgp_pkt_release(&pkt);
		if (pkt.tag == 13)
			break;
	}
	for (i = 0; i < n; i++) {
		uint32_t v = first + (uint32_t)i;
		static const uint8_t hdr[] = {0xc2, 12, 4, 0x10, 22, 8, 0, 0, 0, 0};
		memcpy(o.p + o.len, hdr, sizeof hdr);
		o.len += sizeof hdr;
		pgp_put_be32(o.p + o.len, v);
		o.len += 4;
	}
	return o;
}

static void
test_merge_beyond_cap_breaks_set(void)
{
	/* two copies of one key, each under PGP_MAX_SIGS_PER_COMP on its user
	 * ID, their union over it: the add that makes the union fails and the
	 * set is unusable (a lazy set merges copies when they are added too) */
	blob k = slurp(V "ed25519.pgp");
	blob a = key_with_junk(k, 0, 5000), b = key_with_junk(k, 5000, 5000);
	pgp_certset *s = NULL;
	pgp_diag d = {0, -1, NULL};
	const pgp_cert *out[2];
	uint8_t kid[8];
	size_t n = 9;
	pgp_certsrc src;
	T_ASSERT(a.p && b.p && nth_keyid(k, 0, kid));
	if (!a.p || !b.p)
		goto out;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, a.p, a.len, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_status(s), PGP_OK);
	T_EQ_INT(pgp_certset_add(s, b.p, b.len, &d), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_certset_status(s), PGP_ERR_LIMIT);
	T_EQ_INT(d.tag, 13);
	pgp_certset_source(s, &src);
	T_EQ_INT(pgp_certsrc_by_keyid(&src, kid, out, 2, &n), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_certset_count(s), 0);
	T_EQ_INT(pgp_certset_add(s, k.p, k.len, NULL), PGP_ERR_LIMIT);
	pgp_certset_free(s);
out:
	free(a.p);
	free(b.p);
	free(k.p);
}

static void
test_union_of_copies(void)
{
	/* one copy has the subkey and no user ID, the other the user ID */
	blob a = slurp(KS "keys/victim-subkey-only.pgp"), b = slurp(KS "keys/victim-uid-only.pgp");
	blob sig = slurp(KS "sig/victim-subkey.sig"), data = slurp(KS "data/msg.txt");
	pgp_certset *s = NULL;
	const pgp_cert *c;
	if (!a.p || !b.p || !sig.p || !data.p)
		return;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, a.p, a.len, NULL), PGP_OK);
	T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, NULL, NULL, NULL), PGP_ERR_UNUSABLE);
	c = pgp_certset_get(s, 0);
	T_EQ_INT(pgp_certset_add(s, b.p, b.len, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_count(s), 1);
	T_EQ_INT(pgp_certset_copies(s), 2);
	/* the certificate handed out before the merge is still there, unchanged */
	T_EQ_INT(c->nuids, 0);
	T_EQ_INT(c->nsubs, 1);
	c = pgp_certset_get(s, 0);
	T_EQ_INT(c->ncopies, 2);
	T_EQ_INT(c->nuids, 1);
	T_EQ_INT(c->nsubs, 1);
	T_EQ_INT(c->subs[0].nsigs, 1);
	T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, NULL, NULL, NULL), PGP_OK);
	pgp_certset_free(s);
	free(a.p);
	free(b.p);
	free(sig.p);
	free(data.p);
}

static void
test_revocation_certificate_in_any_order(void)
{
	blob k = slurp(KS "keys/victim-stale.pgp"), r = slurp(KS "keys/victim-revocation-certificate.pgp");
	blob sig = slurp(KS "sig/victim-primary.sig"), data = slurp(KS "data/msg.txt");
	int order;
	if (!k.p || !r.p || !sig.p || !data.p)
		return;
	for (order = 0; order < 2; order++) {
		pgp_certset *s = NULL;
		T_ASSERT(pgp_certset_new(&s) == PGP_OK);
		T_EQ_INT(pgp_certset_add(s, order ? r.p : k.p, order ? r.len : k.len, NULL), PGP_OK);
		T_EQ_INT(pgp_certset_add(s, order ? k.p : r.p, order ? k.len : r.len, NULL), PGP_OK);
		T_EQ_INT(pgp_certset_count(s), 1);
		T_EQ_INT(pgp_certset_get(s, 0)->nloose, 1);
		T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, NULL, NULL, NULL),
		    PGP_ERR_REVOKED);
		pgp_certset_free(s);
	}
	free(k.p);
	free(r.p);
	free(sig.p);
	free(data.p);
}

static void
test_lookup_by_fingerprint_and_email(void)
{
	blob k = slurp(KS "keys/victim-stale.pgp"), q = slurp(KS "keys/carol.pgp");
	pgp_certset *s = NULL;
	pgp_certsrc src;
	const pgp_cert *out[2], *v;
	pgp_fpr f;
	size_t n = 9;
	static const char *const hits[] = {"victim@example.org", "Victim@EXAMPLE.ORG", "VICTIM@example.org"};
	static const char *const misses[] = {"victim@example.com", "victim@example.or", "ictim@example.org",
	    "Victim <victim@example.org>", ""};
	size_t i;
	if (!k.p || !q.p)
		return;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, q.p, q.len, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_add(s, k.p, k.len, NULL), PGP_OK);
	pgp_certset_source(s, &src);
	v = pgp_certset_get(s, 1);
	T_ASSERT(v != NULL && v->nsubs == 1);
	if (v == NULL || v->nsubs != 1)
		return;
	/* fingerprint of the primary and of the subkey */
	T_EQ_INT(pgp_certsrc_by_fpr(&src, &v->primary.fpr, out, 2, &n), PGP_OK);
	T_EQ_INT(n, 1);
	T_ASSERT(out[0] == v);
	T_EQ_INT(pgp_certsrc_by_fpr(&src, &v->subs[0].key.fpr, out, 2, &n), PGP_OK);
	T_EQ_INT(n, 1);
	/* the same key ID part, another fingerprint: not found */
	f = v->subs[0].key.fpr;
	f.v[0] ^= 1;
	T_EQ_INT(pgp_certsrc_by_fpr(&src, &f, out, 2, &n), PGP_OK);
	T_EQ_INT(n, 0);
	f.len = 7;
	T_EQ_INT(pgp_certsrc_by_fpr(&src, &f, out, 2, &n), PGP_ERR_INVALID);
	for (i = 0; i < sizeof hits / sizeof hits[0]; i++) {
		T_EQ_INT(pgp_certsrc_by_email(&src, hits[i], strlen(hits[i]), out, 2, &n), PGP_OK);
		T_EQ_INT(n, 1);
		T_ASSERT(out[0] == v);
	}
	for (i = 0; i < sizeof misses / sizeof misses[0]; i++) {
		T_EQ_INT(pgp_certsrc_by_email(&src, misses[i], strlen(misses[i]), out, 2, &n), PGP_OK);
		T_EQ_INT(n, 0);
	}
	T_EQ_INT(pgp_certsrc_by_email(&src, "carol@example.org", 17, out, 2, &n), PGP_OK);
	T_EQ_INT(n, 1);
	T_ASSERT(out[0] == pgp_certset_get(s, 0));
	pgp_certset_free(s);
	free(k.p);
	free(q.p);
}

static void
test_uid_email(void)
{
	static const struct {
		const char *uid, *addr;
	} c[] = {
		{"Alice <alice@example.org>", "alice@example.org"},
		{"Alice (at work) <a@b.example>", "a@b.example"},
		{"<x@y> Mallory <m@evil.example>", "m@evil.example"},
		{"bob@example.org", "bob@example.org"},
		{"Bob bob@example.org", NULL},
		{"Alice <>", NULL},
		{"Alice <alice@example.org", NULL},
		{"no address", NULL},
	};
	size_t i;
	for (i = 0; i < sizeof c / sizeof c[0]; i++) {
		pgp_view u, a;
		int r;
		u.p = (const uint8_t *)c[i].uid;
		u.len = strlen(c[i].uid);
		r = pgp_uid_email(u, &a);
		T_EQ_INT(r, c[i].addr != NULL);
		if (r && c[i].addr) {
			T_EQ_INT(a.len, strlen(c[i].addr));
			T_EQ_MEM(a.p, c[i].addr, a.len);
		}
	}
}

static void
test_signature_cap_per_component(void)
{
	blob ok = slurp(KS "keys/victim-uid-8192-sigs.pgp"), over = slurp(KS "keys/victim-uid-8193-sigs.pgp");
	pgp_certset *s = NULL;
	pgp_certsrc src;
	pgp_diag d = {0, -1, NULL};
	const pgp_cert *out[1];
	const uint8_t kid[8] = {0};
	size_t n = 5;
	if (!ok.p || !over.p)
		return;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, ok.p, ok.len, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_count(s), 1);
	/* the certificate over the cap is refused, not the set */
	T_EQ_INT(pgp_certset_add(s, over.p, over.len, &d), PGP_OK);
	T_EQ_INT(pgp_certset_refused(s), 1);
	T_ASSERT(pgp_certset_refusal(s, 0) != NULL);
	T_EQ_INT(pgp_certset_refusal(s, 0)->offset, 0);   /* the certificate's offset */
	T_EQ_INT(pgp_certset_refusal(s, 0)->tag, 13);     /* the component: a user ID */
	T_ASSERT(pgp_certset_refusal(s, 0)->what && strstr(pgp_certset_refusal(s, 0)->what, "PGP_MAX_SIGS_PER_COMP") &&
	    strstr(pgp_certset_refusal(s, 0)->what, "user ID"));
	T_ASSERT(pgp_certset_refusal(s, 1) == NULL);
	/* fail closed: anything the refused certificate speaks about, by key ID,
	 * fingerprint or address, cannot be answered, even with a good copy */
	pgp_certset_source(s, &src);
	T_EQ_INT(pgp_certsrc_by_keyid(&src, pgp_certset_get(s, 0)->primary.keyid, out, 1, &n), PGP_ERR_LIMIT);
	T_EQ_INT(n, 0);
	n = 5;
	T_EQ_INT(pgp_certsrc_by_fpr(&src, &pgp_certset_get(s, 0)->primary.fpr, out, 1, &n), PGP_ERR_LIMIT);
	T_EQ_INT(n, 0);
	{
		pgp_view addr;
		T_ASSERT(pgp_uid_email(pgp_certset_get(s, 0)->uids[0].data, &addr));
		n = 5;
		T_EQ_INT(pgp_certsrc_by_email(&src, (const char *)addr.p, addr.len, out, 1, &n), PGP_ERR_LIMIT);
	}
	/* a key ID nobody refused is answered */
	n = 5;
	T_EQ_INT(pgp_certsrc_by_keyid(&src, kid, out, 1, &n), PGP_OK);
	T_EQ_INT(n, 0);
	T_EQ_INT(pgp_certset_add(s, ok.p, ok.len, NULL), PGP_OK);
	pgp_certset_free(s);
	free(ok.p);
	free(over.p);
}

static void
test_flooded_cert_evaluated_once(void)
{
	blob k = slurp(KS "keys/victim-flooded.pgp"), sig = slurp(KS "sig/victim-four.sig");
	blob data = slurp(KS "data/msg.txt"), other = slurp(KS "keys/other-revokes-victim-subkey.pgp");
	pgp_certset *s = NULL;
	size_t good = 0, signers = 0, evals = 0;
	if (!k.p || !sig.p || !data.p || !other.p)
		return;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, k.p, k.len, NULL), PGP_OK);
	T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, &good, &signers, &evals), PGP_OK);
	T_EQ_INT(good, 4);
	T_EQ_INT(signers, 1);   /* primary and subkey of one certificate */
	T_EQ_INT(evals, 1);     /* four signatures, one evaluation */
	/* a second certificate holding the signing subkey (and revoking it):
	 * both are evaluated once for all four signatures */
	T_EQ_INT(pgp_certset_add(s, other.p, other.len, NULL), PGP_OK);
	T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, &good, &signers, &evals), PGP_OK);
	T_EQ_INT(good, 2);      /* the primary key's two */
	T_EQ_INT(signers, 1);
	T_EQ_INT(evals, 2);
	pgp_certset_free(s);
	free(k.p);
	free(sig.p);
	free(data.p);
	free(other.p);
}

static void
test_same_signature_twice_is_one_signer(void)
{
	blob k = slurp(KS "keys/victim-stale.pgp"), sig = slurp(KS "sig/victim-primary-twice.sig");
	blob data = slurp(KS "data/msg.txt");
	pgp_certset *s = NULL;
	size_t good = 0, signers = 0;
	if (!k.p || !sig.p || !data.p)
		return;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, k.p, k.len, NULL), PGP_OK);
	T_EQ_INT(verify_with(s, sig.p, sig.len, data.p, data.len, &good, &signers, NULL), PGP_OK);
	T_EQ_INT(good, 2);
	T_EQ_INT(signers, 1);
	pgp_certset_free(s);
	free(k.p);
	free(sig.p);
	free(data.p);
}

/*
 * Out of memory never weakens a verdict: fail the k-th allocation (only
 * that one) for every k while a stale copy, a revoked copy and a revocation certificate are
 * loaded (in separate calls) and a signature is verified. Each run either
 * fails with an error or says revoked; none says good.
 */
static void
test_out_of_memory_never_weakens(void)
{
#ifdef T_CAN_FAIL_ALLOC
	/* each scenario: a stale copy, then what revokes (one add each), then a
	 * signature the second file revokes */
	static const char *const scen[][3] = {
		{KS "keys/victim-stale.pgp", KS "keys/victim-revocation-certificate.pgp",
		    KS "sig/victim-primary.sig"},
		{KS "keys/victim-stale.pgp", KS "keys/victim-subkey-revoked.pgp",
		    KS "sig/victim-subkey.sig"},
		{KS "keys/victim-subkey-revoked.pgp", KS "keys/victim-subkey-as-bare-primary.pgp",
		    KS "sig/victim-subkey.sig"},
	};
	blob data = slurp(KS "data/msg.txt");
	size_t sc, i;
	for (sc = 0; sc < sizeof scen / sizeof scen[0]; sc++) {
		blob f[3];
		long k;
		int completed = 0, failed = 0;
		for (i = 0; i < 3; i++)
			f[i] = slurp(scen[sc][i]);
		for (k = 0; k < 100000 && !completed && f[0].p && f[1].p && f[2].p && data.p; k++) {
			pgp_certset *s = NULL;
			pgp_err e = PGP_OK;
			t_alloc_left = k;
			if (pgp_certset_new(&s) != PGP_OK)
				e = PGP_ERR_NOMEM;
			for (i = 0; i < 2 && e == PGP_OK; i++)
				e = pgp_certset_add(s, f[i].p, f[i].len, NULL);
			if (e == PGP_OK)
				e = verify_with(s, f[2].p, f[2].len, data.p, data.len, NULL, NULL, NULL);
			completed = t_alloc_left > 0;
			t_alloc_left = -1;
			if (e != PGP_ERR_NOMEM && e != PGP_ERR_REVOKED)
				fprintf(stderr, "%s: allocation %ld failed: %s\n", scen[sc][1], k,
				    pgp_errname(e));
			T_ASSERT(e == PGP_ERR_NOMEM || e == PGP_ERR_REVOKED);
			failed += e == PGP_ERR_NOMEM;
			pgp_certset_free(s);
		}
		T_ASSERT(completed);   /* a run without failure was reached ... */
		T_ASSERT(failed > 10); /* ... after many with one */
		for (i = 0; i < 3; i++)
			free(f[i].p);
	}
	free(data.p);
#else
	printf("skip - allocation failure injection unavailable (sanitizer build)\n");
#endif
}

int
main(void)
{
	for (t_lazy = 0; t_lazy < 2; t_lazy++) {
		printf("# %s sets\n", t_lazy ? "lazy" : "eager");
		T_RUN(test_index_finds_primary_and_subkeys);
		T_RUN(test_same_cert_twice_is_one_merged_cert);
		T_RUN(test_truncated_keyring_keeps_earlier_certs);
		T_RUN(test_eval_expiry_depends_on_time);
		T_RUN(test_eval_backsig_and_revocation);
		T_RUN(test_union_of_copies);
		T_RUN(test_results_in_input_order);
		T_RUN(test_merge_beyond_cap_breaks_set);
		T_RUN(test_revocation_certificate_in_any_order);
		T_RUN(test_lookup_by_fingerprint_and_email);
		T_RUN(test_uid_email);
		T_RUN(test_signature_cap_per_component);
		T_RUN(test_flooded_cert_evaluated_once);
		T_RUN(test_same_signature_twice_is_one_signer);
		T_RUN(test_out_of_memory_never_weakens);
	}
	return T_DONE();
}
