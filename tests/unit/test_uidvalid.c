/*
 * test_uidvalid.c - one-hop user ID validation (pgp/uidvalid.c) on
 * vectors/certeval/keys/certified-* (vectors/gen/certeval.py,
 * certifications()): target T with user IDs U0, U1; issuer I; another key
 * O. U0 carries [0] T's self-signature, [1] I's good certification (CT),
 * [2] I's certification with a flipped octet, [3] I's certification over
 * U1, [4] I's certification that expires after a year, [5] I's SHA-1
 * certification, [6] O's persona certification (0x11), [7] I's
 * certification revocation (at ST, after CT), [8] I's certification dated
 * before I's key existed. U1 carries only T's self-signature.
 * And a few of vectors/sopv-validate (gpg-made, vectors/gen/gen_sopv_validate.sh;
 * all of its cases run in tests/cli/sopv_validate.sh): authorities that
 * expired or were revoked, a pet name.
 */
#include <stdint.h>
#include "t.h"
#include "pgp/pgp.h"

#define V "vectors/certeval/keys/"
#define KT 1600000000          /* key creation in the generator */
#define CT (KT + 2000)         /* the certifications */
#define ST 1650000000          /* I's certification revocation */
#define AT 1710000000          /* reference time of the vectors */
#define YEAR (365 * 86400)

static const char U0[] = "Target <t@example.org>";
static const char U1[] = "Target Alt <t2@example.org>";

typedef struct fix {
	pgp_certset *s;
	const pgp_cert *T, *I, *O;
	pgp_policy pol;
} fix;

static void
fix_load(fix *x)
{
	static const char *const f[] = {V "certified-target.pgp", V "certified-issuer.pgp",
	    V "certified-other.pgp"};
	size_t i, len;
	T_ASSERT(pgp_certset_new(&x->s) == PGP_OK);
	for (i = 0; i < 3; i++) {
		unsigned char *b = t_slurp(f[i], &len);
		T_ASSERT(b != NULL);
		if (b)
			T_EQ_INT(pgp_certset_add_owned(x->s, b, len, NULL), PGP_OK);
	}
	T_EQ_INT(pgp_certset_count(x->s), 3);
	x->T = pgp_certset_get(x->s, 0);
	x->I = pgp_certset_get(x->s, 1);
	x->O = pgp_certset_get(x->s, 2);
	pgp_policy_init(&x->pol);
}

/* Validates `q` on target against the listed authorities (up to 3). */
static pgp_err
check(pgp_uidvalid *r, const fix *x, const pgp_cert *target, const char *q, pgp_uidmatch how,
    const pgp_cert *a0, const pgp_cert *a1, int64_t t)
{
	const pgp_cert *auth[2];
	size_t n = 0;
	if (a0)
		auth[n++] = a0;
	if (a1)
		auth[n++] = a1;
	return pgp_uidvalid_check(r, target, (const uint8_t *)q, strlen(q), how, auth, n,
	    NULL, t, &x->pol);
}

static void
test_certified_by_authority(void)
{
	fix x;
	pgp_uidvalid r;
	fix_load(&x);
	/* [6]: O's persona certification of U0 counts */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.uid, 0);
	T_EQ_INT(r.authority, 0);
	T_EQ_INT(r.self, 0);
	T_EQ_INT(r.certified, CT);
	T_EQ_INT(r.matched, 1);
	T_ASSERT(r.reason == NULL);
	/* any one authority is enough; its index is reported */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.I, x.O, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.authority, 1);
	/* [1]: I's certification, before I revoked it at ST */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.I, NULL, CT + 100), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.certified, CT);
	pgp_certset_free(x.s);
}

static void
test_refusals(void)
{
	fix x;
	pgp_uidvalid r;
	pgp_policy sha1ok;
	fix_load(&x);
	/* [7] revokes [1], [4] (expired anyway) and [5] (SHA-1 anyway) */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.I, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_REVOKED);
	T_EQ_INT(r.uid, -1);
	T_EQ_INT(r.authority, -1);
	T_ASSERT(r.reason != NULL);
	/* the revocation does not count before it was made */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.I, NULL, ST - 1), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	/* before any certification existed: not yet */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.O, NULL, CT - 1), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_YET);
	/* with SHA-1 accepted for certifications, [5] is still revoked by [7] */
	sha1ok = x.pol;
	pgp_policy_allow_hash(&sha1ok, PGP_HASH_SHA1, PGP_USE_COLLISION);
	{
		const pgp_cert *a = x.I;
		T_EQ_INT(pgp_uidvalid_check(&r, x.T, (const uint8_t *)U0, strlen(U0),
		    PGP_UIDMATCH_EXACT, &a, 1, NULL, AT, &sha1ok), PGP_OK);
		T_EQ_INT(r.status, PGP_ERR_REVOKED);
	}
	/* U1 carries no certification by I ([3] over U1 sits under U0) */
	T_EQ_INT(check(&r, &x, x.T, U1, PGP_UIDMATCH_EXACT, x.I, x.O, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	T_EQ_INT(r.matched, 1);
	/* no authorities at all */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, NULL, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	/* the target's own self-signature does not count when T is no authority */
	T_EQ_INT(check(&r, &x, x.T, U1, PGP_UIDMATCH_EXACT, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	/* before the target key existed: the target is not valid */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_EXACT, x.O, NULL, KT - YEAR), PGP_OK);
	T_ASSERT(r.status != PGP_OK);
	T_ASSERT(r.status != PGP_ERR_NO_SIG);
	T_EQ_INT(r.whose, PGP_UIDVALID_TARGET);
	pgp_certset_free(x.s);
}

static void
test_matching(void)
{
	fix x;
	pgp_uidvalid r;
	fix_load(&x);
	/* exact: whole user ID, octet for octet */
	T_EQ_INT(check(&r, &x, x.T, "Target <t@example.org> ", PGP_UIDMATCH_EXACT, x.O, NULL, AT),
	    PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_FOUND);
	T_EQ_INT(r.matched, 0);
	T_EQ_INT(check(&r, &x, x.T, "t@example.org", PGP_UIDMATCH_EXACT, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_FOUND);
	T_EQ_INT(check(&r, &x, x.T, "", PGP_UIDMATCH_EXACT, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_FOUND);
	/* addr-spec: the address part, ASCII case ignored */
	T_EQ_INT(check(&r, &x, x.T, "t@example.org", PGP_UIDMATCH_ADDR_SPEC, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.uid, 0);
	T_EQ_INT(check(&r, &x, x.T, "T@EXAMPLE.ORG", PGP_UIDMATCH_ADDR_SPEC, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(check(&r, &x, x.T, "t2@example.org", PGP_UIDMATCH_ADDR_SPEC, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	T_EQ_INT(check(&r, &x, x.T, "t@example.or", PGP_UIDMATCH_ADDR_SPEC, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_FOUND);
	/* a whole user ID is not an addr-spec */
	T_EQ_INT(check(&r, &x, x.T, U0, PGP_UIDMATCH_ADDR_SPEC, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NOT_FOUND);
	pgp_certset_free(x.s);
}

static void
test_self_authority(void)
{
	fix x;
	pgp_uidvalid r;
	fix_load(&x);
	/* an authority vouches for its own self-bound user IDs */
	T_EQ_INT(check(&r, &x, x.T, U1, PGP_UIDMATCH_EXACT, x.T, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.self, 1);
	T_EQ_INT(r.uid, 1);
	T_EQ_INT(r.authority, 0);
	T_EQ_INT(check(&r, &x, x.I, "Issuer", PGP_UIDMATCH_EXACT, x.O, x.I, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.authority, 1);
	T_EQ_INT(r.self, 1);
	/* but not for another key's */
	T_EQ_INT(check(&r, &x, x.I, "Issuer", PGP_UIDMATCH_EXACT, x.O, NULL, AT), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	/* nor before its self-signature was made */
	T_EQ_INT(check(&r, &x, x.T, U1, PGP_UIDMATCH_EXACT, x.T, NULL, KT - 1), PGP_OK);
	T_ASSERT(r.status != PGP_OK);
	pgp_certset_free(x.s);
}

/* ---- vectors/sopv-validate (times of gen_sopv_validate.sh) ---- */

#define G "vectors/sopv-validate/keys/"
#define G_JUL_2021 1625097600  /* 2021-07-01: after the certifications */
#define G_NOW 1750000000       /* 2025-06-15: after every expiry and revocation */

/* Validates `q` on the first certificate of `target` against `authority`. */
static pgp_err
gcheck(pgp_uidvalid *r, const char *target, const char *authority, const char *q, int64_t t)
{
	pgp_certset *s = NULL;
	const pgp_cert *a, *c;
	pgp_policy pol;
	unsigned char *b1, *b2;
	size_t l1, l2;
	pgp_err e;
	pgp_policy_init(&pol);
	b1 = t_slurp(target, &l1);
	b2 = t_slurp(authority, &l2);
	T_ASSERT(b1 != NULL && b2 != NULL);
	if (!b1 || !b2) {
		free(b1);
		free(b2);
		return PGP_ERR_IO;
	}
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add_owned(s, b1, l1, NULL), PGP_OK);
	T_EQ_INT(pgp_certset_add_owned(s, b2, l2, NULL), PGP_OK);
	c = pgp_certset_get(s, 0);
	a = pgp_certset_get(s, pgp_certset_count(s) - 1);
	e = pgp_uidvalid_check(r, c, (const uint8_t *)q, strlen(q), PGP_UIDMATCH_EXACT, &a, 1,
	    NULL, t, &pol);
	pgp_certset_free(s);
	return e;
}

static void
test_authority_state(void)
{
	pgp_uidvalid r;
	/* the authority's key expired (2022-01-01) after it certified */
	T_EQ_INT(gcheck(&r, G "mia.pgp", G "authexp.pgp", "Mia <mia@example.org>", G_JUL_2021), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(gcheck(&r, G "mia.pgp", G "authexp.pgp", "Mia <mia@example.org>", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_EXPIRED);
	T_EQ_INT(r.whose, PGP_UIDVALID_AUTHORITY);
	/* ... was revoked (compromised, 2022-01-01): a hard revocation is
	 * final, so it counts in 2021 too (docs/semantics.md) */
	T_EQ_INT(gcheck(&r, G "liam.pgp", G "authrev.pgp", "Liam <liam@example.org>", G_JUL_2021),
	    PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_REVOKED);
	T_EQ_INT(r.whose, PGP_UIDVALID_AUTHORITY);
	T_EQ_INT(gcheck(&r, G "liam.pgp", G "authrev.pgp", "Liam <liam@example.org>", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_REVOKED);
	T_EQ_INT(r.whose, PGP_UIDVALID_AUTHORITY);
	/* the target's key retired (soft, 2022-01-01) */
	T_EQ_INT(gcheck(&r, G "ivan.pgp", G "auth.pgp", "Ivan <ivan@example.org>", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_REVOKED);
	T_EQ_INT(r.whose, PGP_UIDVALID_TARGET);
}

static void
test_pet_name(void)
{
	pgp_uidvalid r;
	/* "Karli" carries the authority's certification and no self-signature */
	T_EQ_INT(gcheck(&r, G "karl.pgp", G "auth.pgp", "Karli", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.self, 0);
	/* Karl as his own authority: he never bound it */
	T_EQ_INT(gcheck(&r, G "karl.pgp", G "karl.pgp", "Karli", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_ERR_NO_SIG);
	T_EQ_INT(gcheck(&r, G "karl.pgp", G "karl.pgp", "Karl <karl@example.org>", G_NOW), PGP_OK);
	T_EQ_INT(r.status, PGP_OK);
	T_EQ_INT(r.self, 1);
}

int
main(void)
{
	T_RUN(test_certified_by_authority);
	T_RUN(test_refusals);
	T_RUN(test_matching);
	T_RUN(test_self_authority);
	T_RUN(test_authority_state);
	T_RUN(test_pet_name);
	return T_DONE();
}
