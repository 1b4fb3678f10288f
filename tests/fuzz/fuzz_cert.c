/*
 * fuzz_cert.c - libFuzzer target for certificate assembly (pgp/certset.c,
 * pgp/cert_merge.c) and evaluation (pgp/eval.c: bindings, back-signatures,
 * revocations, expiry; RFC 9580 §10.1, §5.2.3.10, §5.2.3.31, §5.2.1.9) at
 * several reference times: around the primary key's creation, at each
 * self-signature's creation time, and fixed times up to 2100. fuzz_verify
 * evaluates at one time only and checks nothing about the result; here the
 * states must be consistent with each other and with the self-signatures
 * that verify (pgp_selfsigs_list).
 * Invariants (a violation aborts):
 *  - a key whose state is usable (PGP_OK) is bound, not hard-revoked, not
 *    soft-revoked at or before t and not expired at t; a bound key's
 *    binding was made at or before t;
 *  - a bound primary key (other than a bare key) has a direct-key or user
 *    ID self-signature that verifies and was made at or before t; a bound
 *    subkey has a binding that verifies; a subkey that may sign has a
 *    back-signature that verifies and key flags with the signing bit;
 *  - the primary user ID is one whose state is usable;
 *  - pgp_keystate_alive_at(t) accepts only a usable state;
 *  - the same evaluation twice gives the same states, and so does an
 *    evaluation through a signature memo (pgp/sigmemo.h: the keyring's
 *    shortcut past the public-key math) filled by the first one;
 *  - looking up the certificate by its primary or subkey fingerprint or
 *    key ID finds it.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/cert.h"
#include "pgp/eval.h"
#include "pgp/selfsig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_CERTS 4
#define FUZZ_MAX_TIMES 8
#define FUZZ_MEMO_SLOTS 4096

/* A memo of verified signature tags for one input (open addressing). */
static uint8_t memo_tags[FUZZ_MEMO_SLOTS][PGP_SIGMEMO_TAG_LEN];
static uint8_t memo_used[FUZZ_MEMO_SLOTS];
/* 1: the memo records but knows nothing (every signature's math is done) */
static int memo_recording;

static size_t
memo_slot(const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	size_t h = ((size_t)tag[0] << 8 | tag[1]) % FUZZ_MEMO_SLOTS, i;
	for (i = 0; i < FUZZ_MEMO_SLOTS; i++, h = (h + 1) % FUZZ_MEMO_SLOTS)
		if (!memo_used[h] || memcmp(memo_tags[h], tag, PGP_SIGMEMO_TAG_LEN) == 0)
			return h;
	return FUZZ_MEMO_SLOTS;
}

static int
memo_known(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	size_t h = memo_slot(tag);
	(void)ctx;
	return !memo_recording && h < FUZZ_MEMO_SLOTS && memo_used[h];
}

static void
memo_record(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN])
{
	size_t h = memo_slot(tag);
	(void)ctx;
	if (h < FUZZ_MEMO_SLOTS) {
		memo_used[h] = 1;
		memcpy(memo_tags[h], tag, PGP_SIGMEMO_TAG_LEN);
	}
}

static int
same_state(const pgp_keystate *a, const pgp_keystate *b)
{
	return a->status == b->status && a->bound == b->bound && a->binding_time == b->binding_time &&
	    a->expires == b->expires && a->flags == b->flags && a->revoked == b->revoked &&
	    a->revoked_at == b->revoked_at && a->sign_ok == b->sign_ok;
}

static void
check_state(const pgp_keystate *ks, const pgp_key *key, int64_t t, int bare)
{
	const char *why;
	if (ks->status == PGP_OK &&
	    (!ks->bound || ks->revoked == 2 || (ks->revoked == 1 && ks->revoked_at <= t) ||
	    (ks->expires && ks->expires <= t)))
		abort();
	if (ks->bound && !bare && ks->binding_time > t)
		abort();
	if (ks->sign_ok && (!ks->bound || !(ks->flags & PGP_KF_SIGN)))
		abort();
	if (pgp_keystate_alive_at(ks, key, t, &why) == PGP_OK && ks->status != PGP_OK)
		abort();
}

/* 1 if list has a verifying self-signature on `on` (comp for subkeys) made
 * at or before t. */
static int
has_selfsig(const pgp_selfsig *l, size_t n, int on, uint32_t comp, int64_t t)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (l[i].on == on && (on == PGP_SIGON_DIRECT || on == PGP_SIGON_UID || l[i].comp == comp) &&
		    l[i].math == PGP_OK && l[i].created <= t)
			return 1;
	return 0;
}

static void
same_eval(const pgp_cert *c, const pgp_certeval *a, const pgp_certeval *b)
{
	uint32_t i;
	if (!same_state(&a->primary, &b->primary) || a->primary_uid != b->primary_uid ||
	    a->bare != b->bare)
		abort();
	for (i = 0; i < c->nsubs; i++)
		if (!same_state(&a->subs[i], &b->subs[i]))
			abort();
	for (i = 0; i < c->nuids; i++)
		if (a->uids[i].status != b->uids[i].status)
			abort();
}

/* Evaluate c at t through msrc, the source with the memo: first with the
 * memo only recording when fresh (all math done), then again with the memo
 * known: the two must agree. l[0..n): the self-signatures (their math does
 * not depend on t). */
static void
eval_at(const pgp_cert *c, const pgp_certsrc *msrc, int fresh, const pgp_policy *pol, int64_t t,
    const pgp_selfsig *l, size_t n)
{
	pgp_certeval ev, again;
	uint32_t i;

	memo_recording = fresh;
	if (pgp_cert_eval(&ev, c, msrc, t, pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		return;
	}
	if (ev.cert != c || ev.t != t)
		abort();
	check_state(&ev.primary, &c->primary, t, ev.bare);
	for (i = 0; i < c->nsubs; i++)
		check_state(&ev.subs[i], &c->subs[i].key, t, 0);
	if (ev.primary_uid < -1 || ev.primary_uid >= (int)c->nuids ||
	    (ev.primary_uid >= 0 && ev.uids[ev.primary_uid].status != PGP_OK))
		abort();
	for (i = 0; i < c->nuids; i++)
		if (ev.uids[i].status == PGP_OK && ev.uids[i].binding_time > t)
			abort();
	if (l != NULL) {
		if (ev.primary.bound && !ev.bare && ev.primary.status != PGP_ERR_LIMIT &&
		    !has_selfsig(l, n, PGP_SIGON_DIRECT, 0, t) && !has_selfsig(l, n, PGP_SIGON_UID, 0, t))
			abort();
		for (i = 0; i < c->nsubs; i++) {
			if (ev.subs[i].bound && !has_selfsig(l, n, PGP_SIGON_SUBKEY, i, t))
				abort();
			if (ev.subs[i].sign_ok && !has_selfsig(l, n, PGP_SIGON_BACKSIG, i, INT64_MAX))
				abort();
		}
	}
	memo_recording = 0;
	if (pgp_cert_eval(&again, c, msrc, t, pol) == PGP_OK)
		same_eval(c, &ev, &again);
	pgp_certeval_release(&again);
	pgp_certeval_release(&ev);
}

/* The certificate is among what src finds for one of its keys. */
static void
findable(const pgp_certsrc *src, const pgp_cert *c, const pgp_key *k)
{
	const pgp_cert *out[8];
	size_t total = 0, i, hit = 0;
	if (pgp_certsrc_by_fpr(src, &k->fpr, out, 8, &total) == PGP_OK && total <= 8) {
		for (i = 0; i < total; i++)
			hit |= out[i] == c;
		if (!hit)
			abort();
	}
	hit = 0;
	if (pgp_certsrc_by_keyid(src, k->keyid, out, 8, &total) == PGP_OK && total <= 8) {
		for (i = 0; i < total; i++)
			hit |= out[i] == c;
		if (!hit)
			abort();
	}
}

static void
add_time(int64_t *ts, size_t *n, int64_t t)
{
	size_t i;
	for (i = 0; i < *n; i++)
		if (ts[i] == t)
			return;
	if (*n < FUZZ_MAX_TIMES)
		ts[(*n)++] = t;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_certset *set = NULL;
	pgp_certsrc src, msrc;
	pgp_sigmemo memo;
	pgp_policy pol;
	size_t i, j, n;

	if (pgp_certset_new(&set) != PGP_OK)
		return 0;
	(void)pgp_certset_add(set, data, size, NULL);
	pgp_policy_init(&pol);
	pgp_certset_source(set, &src);
	memset(memo_used, 0, sizeof memo_used);
	memo.known = memo_known;
	memo.record = memo_record;
	memo.ctx = NULL;
	msrc = src;
	msrc.memo = &memo;
	n = pgp_certset_count(set);
	for (i = 0; i < n && i < FUZZ_MAX_CERTS; i++) {
		const pgp_cert *c = pgp_certset_get(set, i);
		int64_t ts[FUZZ_MAX_TIMES], created = c->primary.created;
		size_t nt = 0;
		pgp_selfsig *l = NULL;
		size_t nl = 0;
		uint32_t k;
		int listed;

		findable(&src, c, &c->primary);
		for (k = 0; k < c->nsubs && k < 8; k++)
			findable(&src, c, &c->subs[k].key);
		add_time(ts, &nt, created);
		add_time(ts, &nt, created - 1);
		add_time(ts, &nt, 1700000000);
		add_time(ts, &nt, 4102444800);   /* 2100-01-01 */
		/* the self-signatures' creation times: the moments states change */
		listed = pgp_selfsigs_list(&l, &nl, c, INT32_MAX, &pol) == PGP_OK;
		for (j = 0; listed && j < nl; j++)
			if (l[j].created) {
				add_time(ts, &nt, l[j].created);
				add_time(ts, &nt, l[j].created + 1);
			}
		/* the first time without the memo's help: the same states as with it */
		for (j = 0; j < nt; j++)
			eval_at(c, &msrc, j == 0, &pol, ts[j], listed ? l : NULL, nl);
		free(l);
	}
	pgp_certset_free(set);
	return 0;
}
