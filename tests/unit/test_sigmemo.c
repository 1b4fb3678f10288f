/*
 * test_sigmemo.c - the memo of checked signatures (pgp/sigmemo.h): it
 * replaces only the public-key math, its tag binds the digest and the
 * signer, and evaluation through it gives the same states.
 */
#include <stdint.h>
#include "t.h"
#include "pgp/cert.h"
#include "pgp/certify.h"
#include "pgp/eval.h"
#include "pgp/sigmemo.h"

#define TARGET "vectors/certeval/keys/certified-target.pgp"
#define ISSUER "vectors/certeval/keys/certified-issuer.pgp"
#define AT 1710000000

typedef struct memo_state {
	uint8_t tags[64][PGP_SIGMEMO_TAG_LEN];
	size_t ntags, known_calls, known_hits, records;
	int always;  /* known() says yes to everything */
} memo_state;

static int
known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	memo_state *m = ctx;
	size_t i;
	m->known_calls++;
	if (m->always)
		return 1;
	for (i = 0; i < m->ntags; i++)
		if (memcmp(m->tags[i], tag, PGP_SIGMEMO_TAG_LEN) == 0) {
			m->known_hits++;
			return 1;
		}
	return 0;
}

static void
record(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	memo_state *m = ctx;
	m->records++;
	if (m->ntags < 64)
		memcpy(m->tags[m->ntags++], tag, PGP_SIGMEMO_TAG_LEN);
}

static pgp_certset *
load_buf(unsigned char *b, size_t len)
{
	pgp_certset *s = NULL;
	T_ASSERT(pgp_certset_new(&s) == PGP_OK);
	T_EQ_INT(pgp_certset_add_owned(s, b, len, NULL), PGP_OK);
	return s;
}

/* Evaluate the set's first certificate through its source with memo m. */
static void
eval_with(pgp_certeval *ev, pgp_certset *s, const pgp_sigmemo *m)
{
	pgp_policy pol;
	pgp_certsrc src;
	pgp_policy_init(&pol);
	pgp_certset_source(s, &src);
	src.memo = m;
	T_EQ_INT(pgp_cert_eval(ev, pgp_certset_get(s, 0), &src, AT, &pol), PGP_OK);
}

static void
test_memo_records_and_replays(void)
{
	size_t len;
	unsigned char *b = t_slurp(TARGET, &len);
	memo_state st;
	pgp_sigmemo m = {known, record, &st};
	pgp_certeval plain, rec, replay;
	pgp_certset *s;
	T_ASSERT(b != NULL);
	if (!b)
		return;
	s = load_buf(b, len);
	memset(&st, 0, sizeof st);
	eval_with(&plain, s, NULL);
	eval_with(&rec, s, &m);
	T_ASSERT(st.ntags > 0);            /* the self-signature was recorded */
	T_EQ_INT(st.known_hits, 0);
	st.known_calls = 0;
	eval_with(&replay, s, &m);
	T_ASSERT(st.known_hits > 0);       /* and replayed: the math was skipped */
	T_EQ_INT(plain.primary.status, PGP_OK);
	T_EQ_INT(rec.primary.status, plain.primary.status);
	T_EQ_INT(replay.primary.status, plain.primary.status);
	T_EQ_INT(replay.uids[0].status, plain.uids[0].status);
	T_EQ_INT(replay.primary_uid, plain.primary_uid);
	pgp_certeval_release(&plain);
	pgp_certeval_release(&rec);
	pgp_certeval_release(&replay);
	pgp_certset_free(s);
}

/* A user ID changed after signing: its digest changes, so the tag recorded
 * for the genuine certificate does not vouch for it and the check runs
 * (and fails), even with a memo that vouches for every tag: the digest and
 * its prefix are always recomputed, only the public-key math is replaced. */
static void
test_tag_binds_the_digest(void)
{
	size_t len, i;
	unsigned char *b = t_slurp(TARGET, &len), *forged;
	memo_state st;
	pgp_sigmemo m = {known, record, &st};
	pgp_certeval ev;
	pgp_certset *s;
	T_ASSERT(b != NULL);
	if (!b)
		return;
	forged = malloc(len);
	T_ASSERT(forged != NULL);
	if (!forged) {
		free(b);
		return;
	}
	memcpy(forged, b, len);
	for (i = 0; i + 6 <= len; i++)
		if (memcmp(forged + i, "Target", 6) == 0) {
			forged[i] = 'X';
			break;
		}
	T_ASSERT(i + 6 <= len);
	memset(&st, 0, sizeof st);
	s = load_buf(b, len);
	eval_with(&ev, s, &m);             /* record the genuine tags */
	T_EQ_INT(ev.uids[0].status, PGP_OK);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);

	s = load_buf(forged, len);
	eval_with(&ev, s, &m);
	T_ASSERT(ev.uids[0].status != PGP_OK);
	pgp_certeval_release(&ev);
	st.always = 1;
	eval_with(&ev, s, &m);
	T_ASSERT(ev.uids[0].status != PGP_OK);
	pgp_certeval_release(&ev);
	pgp_certset_free(s);
}

/* The tag names the signer: the same signature and digest by another key
 * gets another tag; and every octet of the digest matters. */
static void
test_tag_binds_the_signer(void)
{
	size_t len1, len2;
	unsigned char *b1 = t_slurp(TARGET, &len1), *b2 = t_slurp(ISSUER, &len2);
	pgp_certset *s1, *s2;
	pgp_sig sig;
	pgp_rd r;
	uint8_t digest[32] = {0}, t1[PGP_SIGMEMO_TAG_LEN], t2[PGP_SIGMEMO_TAG_LEN],
	    t3[PGP_SIGMEMO_TAG_LEN];
	const pgp_cert *c1, *c2;
	T_ASSERT(b1 && b2);
	if (!b1 || !b2) {
		free(b1);
		free(b2);
		return;
	}
	s1 = load_buf(b1, len1);
	s2 = load_buf(b2, len2);
	c1 = pgp_certset_get(s1, 0);
	c2 = pgp_certset_get(s2, 0);
	T_ASSERT(c1 && c2 && c1->nuids > 0 && c1->uids[0].nsigs > 0);
	if (c1 && c2 && c1->nuids > 0 && c1->uids[0].nsigs > 0) {
		r = c1->uids[0].sigs[0];
		T_EQ_INT(pgp_sig_parse(&sig, &r, NULL), PGP_OK);
		pgp_sigmemo_tag(t1, &c1->primary, &sig, digest, sizeof digest);
		pgp_sigmemo_tag(t2, &c2->primary, &sig, digest, sizeof digest);
		T_ASSERT(memcmp(t1, t2, sizeof t1) != 0);
		digest[31] ^= 1;
		pgp_sigmemo_tag(t3, &c1->primary, &sig, digest, sizeof digest);
		T_ASSERT(memcmp(t1, t3, sizeof t1) != 0);
	}
	pgp_certset_free(s1);
	pgp_certset_free(s2);
}

int
main(void)
{
	T_RUN(test_memo_records_and_replays);
	T_RUN(test_tag_binds_the_digest);
	T_RUN(test_tag_binds_the_signer);
	return T_DONE();
}
