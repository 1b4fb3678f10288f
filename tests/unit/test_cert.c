/* test_cert.c - certificate sets, the key ID index, and evaluation at a time. */
#include "t.h"
#include "pgp/cert.h"
#include "pgp/eval.h"

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

int
main(void)
{
	T_RUN(test_index_finds_primary_and_subkeys);
	T_RUN(test_same_cert_twice_is_one_merged_cert);
	T_RUN(test_truncated_keyring_keeps_earlier_certs);
	T_RUN(test_eval_expiry_depends_on_time);
	T_RUN(test_eval_backsig_and_revocation);
	return T_DONE();
}
