/*
 * test_selfsig.c - pgp/selfsig.h: every self-signature listed with its hash
 * algorithm, its math, the policy's answer and which one is current, on the
 * gpg-made keys of vectors/submission/ (vectors/gen/gen_submission.sh).
 */
#include "t.h"
#include "pgp/pgp.h"

#define V "vectors/submission/keys/"
#define AT 1780272000 /* 2026-06-01, after the 2023-02-01 SHA-1 self-signature cutoff */

typedef struct loaded {
	pgp_certset *set;
	const pgp_cert *c;
	pgp_selfsig *ss;
	size_t n;
} loaded;

static int
load(loaded *x, const char *path, int64_t t, const pgp_policy *pol)
{
	unsigned char *raw;
	size_t len;
	pgp_buf b;
	uint8_t *dec;
	size_t dlen = 0;

	memset(x, 0, sizeof *x);
	raw = t_slurp(path, &len);
	T_ASSERT(raw != NULL);
	if (raw == NULL)
		return -1;
	T_EQ_INT(pgp_armor_decode_all(&b, raw, len, NULL), PGP_OK);
	free(raw);
	dec = pgp_buf_take(&b, &dlen);
	T_ASSERT(pgp_certset_new(&x->set) == PGP_OK);
	T_EQ_INT(pgp_certset_add_owned(x->set, dec, dlen, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_count(x->set), 1);
	if (pgp_certset_count(x->set) != 1)
		return -1;
	x->c = pgp_certset_get(x->set, 0);
	T_EQ_INT(pgp_selfsigs_list(&x->ss, &x->n, x->c, t, pol), PGP_OK);
	return 0;
}

static void
unload(loaded *x)
{
	free(x->ss);
	pgp_certset_free(x->set);
}

static size_t
count(const loaded *x, int on, int current)
{
	size_t i, k = 0;
	for (i = 0; i < x->n; i++)
		k += x->ss[i].on == on && (current < 0 || x->ss[i].current == current);
	return k;
}

/* good.asc: one user ID binding, two subkey bindings, one back-signature
 * (the signing subkey's), all verifying, all accepted, all current */
static void
test_good(void)
{
	pgp_policy pol;
	loaded x;
	size_t i;
	pgp_policy_init(&pol);
	if (load(&x, V "good.asc", AT, &pol) != 0)
		return;
	T_EQ_INT(x.n, 4);
	T_EQ_INT(count(&x, PGP_SIGON_UID, 1), 1);
	T_EQ_INT(count(&x, PGP_SIGON_SUBKEY, 1), 2);
	T_EQ_INT(count(&x, PGP_SIGON_BACKSIG, 1), 1);
	for (i = 0; i < x.n; i++) {
		T_EQ_INT(x.ss[i].math, PGP_OK);
		T_EQ_INT(x.ss[i].hash_policy, PGP_OK);
		T_ASSERT(x.ss[i].rule == NULL);
		if (x.ss[i].on == PGP_SIGON_BACKSIG) {
			/* it follows the binding that carries it */
			T_ASSERT(i > 0 && x.ss[i - 1].on == PGP_SIGON_SUBKEY && x.ss[i - 1].has_backsig);
			T_EQ_INT(x.ss[i].sig_type, PGP_SIG_PRIMARY_BINDING);
			T_EQ_INT(x.ss[i].comp, x.ss[i - 1].comp);
		}
	}
	/* third-party certifications (by the middle key) are not listed */
	T_ASSERT(x.c->uids[0].nsigs == 2);
	unload(&x);
}

/* sha1-only.asc: both bindings SHA-1; refused at AT, accepted before the cutoff */
static void
test_sha1(void)
{
	pgp_policy pol;
	loaded x;
	size_t i;
	pgp_policy_init(&pol);
	if (load(&x, V "sha1-only.asc", AT, &pol) != 0)
		return;
	T_EQ_INT(x.n, 2);
	for (i = 0; i < x.n; i++) {
		T_EQ_INT(x.ss[i].hash_algo, PGP_HASH_SHA1);
		T_EQ_INT(x.ss[i].math, PGP_OK);
		T_EQ_INT(x.ss[i].hash_policy, PGP_ERR_POLICY);
		T_ASSERT(x.ss[i].rule != NULL && strstr(x.ss[i].rule, "SHA-1") != NULL);
		T_EQ_INT(x.ss[i].current, 1);  /* current whatever the hash */
	}
	unload(&x);
	/* 2023-01-01: before the self-signature cutoff */
	if (load(&x, V "sha1-only.asc", 1672531200, &pol) != 0)
		return;
	for (i = 0; i < x.n; i++)
		T_EQ_INT(x.ss[i].hash_policy, PGP_OK);
	unload(&x);
}

/* sha1-superseded.asc: the user ID's SHA-1 binding is older than its SHA-512
 * one, which is current (gpg's import kept only the subkey's SHA-512 binding) */
static void
test_superseded(void)
{
	pgp_policy pol;
	loaded x;
	size_t i, sha1 = 0;
	pgp_policy_init(&pol);
	if (load(&x, V "sha1-superseded.asc", AT, &pol) != 0)
		return;
	T_EQ_INT(x.n, 3);
	for (i = 0; i < x.n; i++) {
		if (x.ss[i].hash_algo == PGP_HASH_SHA1) {
			sha1++;
			T_EQ_INT(x.ss[i].current, 0);
			T_EQ_INT(x.ss[i].hash_policy, PGP_ERR_POLICY);
		} else {
			T_EQ_INT(x.ss[i].hash_algo, PGP_HASH_SHA512);
			T_EQ_INT(x.ss[i].current, 1);
		}
	}
	T_EQ_INT(sha1, 1);
	unload(&x);
	/* before the re-binding (2025-02-01): only the SHA-1 one exists then */
	if (load(&x, V "sha1-superseded.asc", 1738281600, &pol) != 0)
		return;
	for (i = 0; i < x.n; i++)
		T_EQ_INT(x.ss[i].current, x.ss[i].hash_algo == PGP_HASH_SHA1);
	unload(&x);
}

/* no-backsig.asc: the signing subkey's binding has no embedded signature */
static void
test_no_backsig(void)
{
	pgp_policy pol;
	loaded x;
	size_t i;
	pgp_policy_init(&pol);
	if (load(&x, V "no-backsig.asc", AT, &pol) != 0)
		return;
	T_EQ_INT(count(&x, PGP_SIGON_BACKSIG, -1), 0);
	T_EQ_INT(count(&x, PGP_SIGON_SUBKEY, 1), 1);
	for (i = 0; i < x.n; i++)
		if (x.ss[i].on == PGP_SIGON_SUBKEY) {
			T_EQ_INT(x.ss[i].has_backsig, 0);
			T_ASSERT(x.ss[i].has_key_flags && (x.ss[i].key_flags & PGP_KF_SIGN));
			T_EQ_INT(x.ss[i].math, PGP_OK);
		}
	unload(&x);
}

/* a binding whose octets were changed does not verify and is not current */
static void
test_bad_math(void)
{
	unsigned char *raw;
	size_t len, dlen = 0, i;
	pgp_policy pol;
	pgp_certset *s = NULL;
	pgp_selfsig *ss = NULL;
	size_t n = 0;
	pgp_buf b;
	uint8_t *dec;
	const pgp_cert *c;
	pgp_policy_init(&pol);
	raw = t_slurp(V "good-primary-signs.asc", &len);
	T_ASSERT(raw != NULL);
	if (raw == NULL)
		return;
	T_EQ_INT(pgp_armor_decode_all(&b, raw, len, NULL), PGP_OK);
	free(raw);
	dec = pgp_buf_take(&b, &dlen);
	/* the last octet is the end of the last signature's RSA MPI (the
	 * root's certification follows the self-signature): flip the
	 * self-signature's last octet, found as the octet before the
	 * certification packet */
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add(s, dec, dlen, NULL), PGP_OK);
	c = pgp_certset_get(s, 0);
	T_ASSERT(c != NULL && c->nuids == 1 && c->uids[0].nsigs == 2);
	if (c == NULL || c->nuids != 1 || c->uids[0].nsigs != 2) {
		pgp_certset_free(s);
		free(dec);
		return;
	}
	for (i = 0; i < c->uids[0].nsigs; i++) {
		const pgp_rd *r = &c->uids[0].sigs[i];
		pgp_sig sig;
		if (pgp_sig_parse(&sig, r, NULL) == PGP_OK && sig.type == PGP_SIG_CERT_POSITIVE)
			dec[r->off + r->len - 1] ^= 1;
	}
	pgp_certset_free(s);
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add_owned(s, dec, dlen, NULL), PGP_OK);
	c = pgp_certset_get(s, 0);
	T_EQ_INT(pgp_selfsigs_list(&ss, &n, c, AT, &pol), PGP_OK);
	T_EQ_INT(n, 1);
	if (n == 1) {
		T_EQ_INT(ss[0].math, PGP_ERR_BAD_SIG);
		T_ASSERT(ss[0].math_why != NULL);
		T_EQ_INT(ss[0].current, 0);
	}
	free(ss);
	pgp_certset_free(s);
}

int
main(void)
{
	T_RUN(test_good);
	T_RUN(test_sha1);
	T_RUN(test_superseded);
	T_RUN(test_no_backsig);
	T_RUN(test_bad_math);
	return T_DONE();
}
