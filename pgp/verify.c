/*
 * verify.c - document signature verification (RFC 9580 §5.2.4): detached
 * signatures, and the checks of each signature against its certificate.
 * Messages (inline-signed, cleartext) are framed in message.c.
 * see verify.h for the semantics.
 */
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"
#include "cert_int.h"
#include "armor.h"
#include "classify.h"
#include "buf.h"

/* see verify.h */
void
pgp_verify_opts_init(pgp_verify_opts *o, int64_t now)
{
	o->now = now;
	o->not_before = INT64_MIN;
	o->not_after = INT64_MAX;
	o->policy = NULL;
}

/* see verify_int.h */
pgp_err
pgp__verifier_keep(pgp_verifier *v, uint8_t *p)
{
	if (p == NULL)
		return PGP_OK;
	if (v->nowned >= sizeof v->owned / sizeof v->owned[0]) {
		free(p);
		return PGP_ERR_LIMIT;
	}
	v->owned[v->nowned++] = p;
	return PGP_OK;
}

/* see verify_int.h */
pgp_err
pgp__verifier_add_sig(pgp_verifier *v, const pgp_rd *body, size_t off)
{
	vsig *s;
	pgp_diag d = {0, -1, NULL};
	if (v->nsigs >= PGP_MAX_MSG_SIGS)
		return PGP_ERR_LIMIT;
	if (v->nsigs % 8 == 0) {
		vsig *ns = realloc(v->sigs, (v->nsigs + 8) * sizeof *ns);
		if (ns == NULL)
			return PGP_ERR_NOMEM;
		v->sigs = ns;
	}
	s = &v->sigs[v->nsigs++];
	memset(s, 0, sizeof *s);
	s->off = off;
	s->stream = -1;
	s->err = pgp_sig_parse(&s->sig, body, &d);
	if (s->err != PGP_OK)
		s->why = d.what ? d.what : "signature packet does not parse";
	return PGP_OK;
}

/* see verify_int.h */
pgp_err
pgp__verifier_plan(pgp_verifier *v)
{
	size_t i, j;
	v->streams = calloc(v->nsigs ? v->nsigs : 1, sizeof *v->streams);
	if (v->streams == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < v->nsigs; i++) {
		vsig *s = &v->sigs[i];
		const pgp_sig *g = &s->sig;
		uint8_t text;
		if (s->err != PGP_OK)
			continue;
		if (g->type != PGP_SIG_BINARY && g->type != PGP_SIG_TEXT) {
			s->err = PGP_ERR_MALFORMED;
			s->why = "not a document signature (type is not 0x00 or 0x01)";
			continue;
		}
		if (v->kind == 1 && g->type != PGP_SIG_TEXT) {
			s->err = PGP_ERR_MALFORMED;
			s->why = "cleartext-signed message carries a binary (0x00) signature";
			continue;
		}
		if (g->version == 5) {
			s->err = PGP_ERR_UNSUPPORTED;
			s->why = "v5 (LibrePGP) document signatures are not supported";
			continue;
		}
		if (v->kind == 1 && v->nhash_ids) {
			int listed = 0;
			for (j = 0; j < v->nhash_ids; j++)
				listed |= v->hash_ids[j] == g->hash_algo;
			if (!listed) {
				s->err = PGP_ERR_MALFORMED;
				s->why = "signature hash algorithm is not listed in the cleartext Hash: header";
				continue;
			}
		}
		text = g->type == PGP_SIG_TEXT;
		for (j = 0; j < v->nstreams; j++) {
			vstream *st = &v->streams[j];
			if (!st->salted && g->version != 6 && st->alg == g->hash_algo && st->text == text)
				break;
		}
		if (j == v->nstreams) {
			vstream *st = &v->streams[v->nstreams];
			if (pgp__sighash_start(&st->h, g) != PGP_OK) {
				s->err = PGP_ERR_UNSUPPORTED;
				s->why = "unsupported hash algorithm";
				continue;
			}
			st->alg = g->hash_algo;
			st->text = text;
			st->salted = g->version == 6;
			v->nstreams++;
		}
		s->stream = (int)j;
	}
	return PGP_OK;
}

/* see verify_int.h */
pgp_err
pgp__verifier_load_sigs(pgp_verifier *v, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_rd r;
	pgp_err e;
	pgp_rd_init(&r, p, len);
	while (!pgp_rd_empty(&r)) {
		pgp_pkt pkt;
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			return e;
		if (pkt.tag == PGP_TAG_SIGNATURE) {
			if ((e = pgp__verifier_add_sig(v, &pkt.body, pkt.off)) == PGP_ERR_LIMIT)
				pgp__diag_set(diag, pkt.off, PGP_TAG_SIGNATURE,
				    "more than 256 signatures in one input (PGP_MAX_MSG_SIGS)");
		}
		else if (pgp_tag_ignorable(pkt.tag))
			e = PGP_OK;
		else
			e = pgp__fail(diag, PGP_ERR_MALFORMED, pkt.off, -1,
			    "detached signature input holds a packet that is not a signature");
		pgp_pkt_release(&pkt);
		if (e != PGP_OK)
			return e;
	}
	if (v->nsigs == 0)
		return pgp__fail(diag, PGP_ERR_NO_SIG, 0, -1, "no signature packet found");
	return PGP_OK;
}

/* Binary copy of the input, de-armored if it is armored. */
static pgp_err
dearmor(uint8_t **out, size_t *out_len, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_buf b;
	pgp_input_class ic;
	pgp_err e;
	pgp_buf_init(&b, PGP_MAX_ARMOR_DECODED);
	/* the one binary-or-armored decision (classify.h) */
	(void)pgp_classify(p, len, &ic);
	if (pgp_classify_has_armor(&ic, len)) {
		if ((e = pgp_armor_decode_all(&b, p, len, diag)) != PGP_OK) {
			pgp_buf_free(&b);
			return e;
		}
	} else if ((e = pgp_buf_append(&b, p, len)) != PGP_OK) {
		pgp_buf_free(&b);
		return e;
	}
	if (b.p == NULL && (e = pgp_buf_append(&b, "", 1)) == PGP_OK)
		b.len = 0;
	*out = pgp_buf_take(&b, out_len);
	return *out ? PGP_OK : PGP_ERR_NOMEM;
}

/* see verify.h */
pgp_err
pgp_verifier_new(pgp_verifier **out, const uint8_t *sigs, size_t len, pgp_diag *diag)
{
	pgp_verifier *v;
	size_t n = 0;
	pgp_err e;
	*out = NULL;
	if ((v = calloc(1, sizeof *v)) == NULL)
		return PGP_ERR_NOMEM;
	if ((e = dearmor(&v->sigbytes, &n, sigs, len, diag)) != PGP_OK ||
	    (e = pgp__verifier_load_sigs(v, v->sigbytes, n, diag)) != PGP_OK ||
	    (e = pgp__verifier_plan(v)) != PGP_OK) {
		pgp_verifier_free(v);
		return e;
	}
	*out = v;
	return PGP_OK;
}

/* see verify.h */
void
pgp_verifier_update(pgp_verifier *v, const uint8_t *data, size_t n)
{
	size_t i;
	for (i = 0; i < v->nstreams; i++) {
		vstream *st = &v->streams[i];
		if (st->text)
			pgp__hash_text(&st->h, &st->tc, data, n);
		else
			pgp_hash_update(&st->h, data, n);
	}
	/* salted (v6) signatures each have their own stream */
}

static void
copy_fpr(pgp_fpr *dst, const pgp_fpr *src)
{
	*dst = *src;
}

/* The key ID under which to look the issuer up. */
static int
issuer_keyid(const pgp_sig *g, uint8_t keyid[8])
{
	if (g->issuer_fpr.len == 20) {
		memcpy(keyid, g->issuer_fpr.v + 12, 8);
		return 1;
	}
	if (g->issuer_fpr.len == 32) {
		memcpy(keyid, g->issuer_fpr.v, 8);
		return 1;
	}
	if (g->has_issuer) {
		memcpy(keyid, g->issuer, 8);
		return 1;
	}
	return 0;
}

/* Candidates held on the stack; more are fetched into a heap array
 * (pgp__certsrc_lookup), up to PGP_MAX_KEYID_CERTS. */
#define STACK_CANDIDATES 8

/*
 * docs/semantics.md "Copies of one key": the signing key's material may sit
 * in other certificates of the source too (as a subkey of another primary,
 * or as a bare key). A revocation of it there applies here; a bare key is
 * used only when nothing else in the source holds that key material.
 */
static pgp_err
check_other_holders(pgp_result *res, const pgp_cert *c, const pgp_key *key,
    const pgp_certeval *ev, int64_t created, pgp__evcache *cache, int *fatal)
{
	const pgp_cert *stack[STACK_CANDIDATES], **list;
	pgp_certq q;
	size_t n, i;
	int others = 0;
	pgp_err e;

	q.kind = PGP_CERTQ_FPR;
	q.p = key->fpr.v;
	q.len = key->fpr.len;
	if ((e = pgp__certsrc_lookup(cache->src, &q, stack, STACK_CANDIDATES, &list, &n)) != PGP_OK) {
		if (e == PGP_ERR_LIMIT) {
			res->reason = "the key set cannot answer for the signing key: a certificate "
			    "holding it was refused for a limit, or more than PGP_MAX_KEYID_CERTS hold it";
		} else {
			*fatal = 1;
			res->reason = "certificate lookup failed";
		}
		return e;
	}
	for (i = 0; i < n; i++) {
		const pgp_certeval *oev;
		const pgp_keystate *ks;
		int idx = -1;
		if (list[i] == c || pgp_cert_key_by_fpr(list[i], &key->fpr, &idx) == NULL)
			continue;
		others++;
		if ((e = pgp__evcache_get(cache, list[i], &oev)) != PGP_OK) {
			*fatal = 1;
			res->reason = "out of memory";
			goto out;
		}
		ks = idx < 0 ? &oev->primary : &oev->subs[idx];
		if (ks->revoked == 2 || (ks->revoked == 1 && ks->revoked_at <= created)) {
			e = PGP_ERR_REVOKED;
			res->reason = idx < 0 ? "the signing key is revoked in another certificate "
			    "that holds it as its primary key" : "the signing key is revoked in "
			    "another certificate that holds it as a subkey";
			goto out;
		}
	}
	if (ev->bare && others) {
		e = PGP_ERR_UNUSABLE;
		res->reason = "bare key whose key material another certificate also holds: "
		    "only that certificate speaks for it";
	}
out:
	if (list != stack)
		free((void *)list);
	return e;
}

/* Check one signature against one candidate certificate. *fatal is set when
 * the run must fail (out of memory, a source error), not just this candidate. */
static pgp_err
check_candidate(pgp_result *res, const vsig *s, const vstream *st, const pgp_cert *c,
    const uint8_t keyid[8], const pgp_verify_opts *o, const pgp_policy *pol,
    pgp__evcache *cache, int *math_ok, int *fatal)
{
	const pgp_sig *g = &s->sig;
	const pgp_key *key;
	pgp_hash h = st->h;
	const pgp_certeval *ev;
	const pgp_keystate *ks;
	pgp_diag d = {0, -1, NULL};
	int sub = -1;
	pgp_err e;

	*math_ok = 0;
	if ((key = pgp_cert_key_by_id(c, keyid, &sub)) == NULL) {
		res->reason = "no key with the issuer key ID";
		return PGP_ERR_NO_KEY;
	}
	if (g->issuer_fpr.len && (g->issuer_fpr.len != key->fpr.len ||
	    memcmp(g->issuer_fpr.v, key->fpr.v, key->fpr.len) != 0)) {
		res->reason = "issuer fingerprint does not match the key";
		return PGP_ERR_NO_KEY;
	}
	res->cert = c;
	res->subkey = sub;
	copy_fpr(&res->cert_fpr, &c->primary.fpr);
	copy_fpr(&res->key_fpr, &key->fpr);
	res->primary_uid.p = NULL;
	res->primary_uid.len = 0;

	/* 1. the math */
	if ((e = pgp__sighash_check(&h, g, key, NULL, &d)) != PGP_OK) {
		res->reason = d.what ? d.what : pgp_strerror(e);
		return e;
	}
	*math_ok = 1;
	/* 2. the policy for data signatures */
	if ((e = pgp_policy_hash(pol, g->hash_algo, PGP_USE_COLLISION, o->now, &res->reason)) != PGP_OK)
		return e;
	if ((e = pgp_policy_key(pol, key, o->now, &res->reason)) != PGP_OK)
		return e;
	/* 3. the certificate at the reference time, the key at signing time */
	if ((e = pgp__evcache_get(cache, c, &ev)) != PGP_OK) {
		*fatal = 1;
		res->reason = "out of memory";
		return e;
	}
	if (ev->primary_uid >= 0)
		res->primary_uid = c->uids[ev->primary_uid].data;
	res->bare_key = ev->bare;
	res->revoker_unchecked = ev->revoker_unchecked;
	e = pgp_keystate_alive_at(&ev->primary, &c->primary, (int64_t)g->created, &res->reason);
	if (e == PGP_OK && ev->primary.revoked == 1 && ev->primary.revoked_at <= (int64_t)g->created)
		e = PGP_ERR_REVOKED;
	if (e != PGP_OK) {
		if (e == PGP_ERR_EXPIRED)
			res->reason = "primary key had expired when the signature was made";
		return e;
	}
	ks = sub < 0 ? &ev->primary : &ev->subs[sub];
	if (sub >= 0 && (e = pgp_keystate_alive_at(ks, key, (int64_t)g->created, &res->reason)) != PGP_OK)
		return e;
	if (!ks->sign_ok) {
		res->reason = ks->sign_reason ? ks->sign_reason : "key may not make signatures";
		return PGP_ERR_UNUSABLE;
	}
	/* 4. the same key material elsewhere in the source */
	if ((e = check_other_holders(res, c, key, ev, (int64_t)g->created, cache, fatal)) != PGP_OK)
		return e;
	res->key_expires = ks->expires;
	if (ev->primary.expires && (res->key_expires == 0 || ev->primary.expires < res->key_expires))
		res->key_expires = ev->primary.expires;
	res->key_expired_now = res->key_expires && res->key_expires <= o->now;
	res->reason = NULL;
	return PGP_OK;
}

/* One signature: its own checks, then every certificate holding its issuer
 * key ID (a flood of look-alikes must not hide the real one). Returns an
 * error only when the run must fail; the verdict is in *res. */
/* Fingerprint order: length, then octets. */
static int
fpr_less(const pgp_fpr *a, const pgp_fpr *b)
{
	if (a->len != b->len)
		return a->len < b->len;
	return memcmp(a->v, b->v, a->len) < 0;
}

static pgp_err
verify_one(pgp_result *res, const pgp_verifier *v, const vsig *s, const pgp_verify_opts *o,
    const pgp_policy *pol, pgp__evcache *cache)
{
	const pgp_sig *g = &s->sig;
	const pgp_cert *stack[STACK_CANDIDATES], **cands = stack;
	uint8_t keyid[8];
	size_t n = 0, i;
	pgp_result best;
	pgp_certq q;
	int have_best = 0, best_math = 0;
	const pgp_cert *best_cert = NULL;
	pgp_err e;

	memset(res, 0, sizeof *res);
	res->offset = s->off;
	res->subkey = -1;
	res->sig_version = g->version;
	res->sig_type = g->type;
	res->pk_algo = g->pk_algo;
	res->hash_algo = g->hash_algo;
	res->text_mode = g->type == PGP_SIG_TEXT;
	res->created = g->has_created ? (int64_t)g->created : 0;
	res->sig_expires = g->sig_expires ? res->created + g->sig_expires : 0;
	memcpy(res->issuer, g->issuer, 8);
	res->has_issuer = g->has_issuer;
	res->issuer_fpr = g->issuer_fpr;
	if (s->err != PGP_OK) {
		res->status = s->err;
		res->reason = s->why;
		return PGP_OK;
	}
	if (g->unknown_critical) {
		res->status = PGP_ERR_UNSUPPORTED;
		res->reason = "signature has an unknown critical subpacket or notation";
		return PGP_OK;
	}
	if (!g->has_created) {
		res->status = PGP_ERR_MALFORMED;
		res->reason = "signature has no hashed creation time";
		return PGP_OK;
	}
	if (res->created > o->now) {
		res->status = PGP_ERR_NOT_YET;
		res->reason = "signature was created after the reference time";
		return PGP_OK;
	}
	if (res->created < o->not_before) {
		res->status = PGP_ERR_EXPIRED;
		res->reason = "signature was created before the --not-before time";
		return PGP_OK;
	}
	if (res->created > o->not_after) {
		res->status = PGP_ERR_NOT_YET;
		res->reason = "signature was created after the --not-after time";
		return PGP_OK;
	}
	if (res->sig_expires && res->sig_expires <= o->now) {
		res->status = PGP_ERR_EXPIRED;
		res->reason = "signature expired";
		return PGP_OK;
	}
	if (!issuer_keyid(g, keyid)) {
		res->status = PGP_ERR_NO_KEY;
		res->reason = "signature names no issuer";
		return PGP_OK;
	}
	q.kind = PGP_CERTQ_KEYID;
	q.p = keyid;
	q.len = 8;
	if ((e = pgp__certsrc_lookup(cache->src, &q, stack, STACK_CANDIDATES, &cands, &n)) != PGP_OK) {
		res->status = e;
		if (e != PGP_ERR_LIMIT) {
			res->reason = "certificate lookup failed";
			return e;
		}
		res->reason = "the key set cannot answer for the issuer key ID: a certificate "
		    "holding it was refused for a limit, or more than PGP_MAX_KEYID_CERTS hold it";
		return PGP_OK;
	}
	if (n == 0) {
		res->status = PGP_ERR_NO_KEY;
		res->reason = "no certificate holds the signing key";
		return PGP_OK;
	}
	e = PGP_OK;
	for (i = 0; i < n; i++) {
		pgp_result r = *res;
		int math_ok, fatal = 0;
		r.status = check_candidate(&r, s, &v->streams[s->stream], cands[i], keyid, o, pol,
		    cache, &math_ok, &fatal);
		if (fatal) {
			*res = r;
			e = r.status;
			goto out;
		}
		if (r.status == PGP_OK) {
			*res = r;
			goto out;
		}
		/* When every candidate fails, report one chosen independently of
		 * the order of the key set: a candidate whose math held first,
		 * then the lowest primary fingerprint. */
		if (!have_best || math_ok > best_math || (math_ok == best_math &&
		    fpr_less(&cands[i]->primary.fpr, &best_cert->primary.fpr))) {
			best = r;
			best_math = math_ok;
			best_cert = cands[i];
			have_best = 1;
		}
	}
	*res = best;
out:
	if (cands != stack)
		free((void *)cands);
	return e;
}

/* Distinct certificates (primary key fingerprints) with a good signature. */
static size_t
count_signers(const pgp_verifier *v)
{
	size_t i, j, n = 0;
	for (i = 0; i < v->nsigs; i++) {
		const pgp_result *r = &v->results[i];
		if (r->status != PGP_OK)
			continue;
		for (j = 0; j < i; j++) {
			const pgp_result *p = &v->results[j];
			if (p->status == PGP_OK && p->cert_fpr.len == r->cert_fpr.len &&
			    memcmp(p->cert_fpr.v, r->cert_fpr.v, r->cert_fpr.len) == 0)
				break;
		}
		if (j == i)
			n++;
	}
	return n;
}

/* see verify.h */
pgp_err
pgp_verifier_finish(pgp_verifier *v, const pgp_certsrc *src, const pgp_verify_opts *o)
{
	pgp_policy stdpol;
	const pgp_policy *pol = o->policy;
	pgp__evcache cache;
	pgp_err e = PGP_OK;
	size_t i;
	if (pol == NULL) {
		pgp_policy_init(&stdpol);
		pol = &stdpol;
	}
	free(v->results);
	v->ngood = v->nsigners = 0;
	v->results = calloc(v->nsigs ? v->nsigs : 1, sizeof *v->results);
	if (v->results == NULL)
		return PGP_ERR_NOMEM;
	pgp__evcache_init(&cache, src, o->now, pol);
	for (i = 0; i < v->nsigs && e == PGP_OK; i++)
		e = verify_one(&v->results[i], v, &v->sigs[i], o, pol, &cache);
	v->nevals = cache.evals;
	pgp__evcache_free(&cache);
	if (e != PGP_OK) {
		/* a run that could not finish says nothing good */
		free(v->results);
		v->results = NULL;
		return e;
	}
	for (i = 0; i < v->nsigs; i++)
		if (v->results[i].status == PGP_OK)
			v->ngood++;
	v->nsigners = count_signers(v);
	return PGP_OK;
}

/* see verify.h */
size_t
pgp_verifier_count(const pgp_verifier *v)
{
	return v->nsigs;
}

/* see verify.h */
const pgp_result *
pgp_verifier_result(const pgp_verifier *v, size_t i)
{
	return v->results && i < v->nsigs ? &v->results[i] : NULL;
}

/* see verify.h */
size_t
pgp_verifier_good(const pgp_verifier *v)
{
	return v->ngood;
}

/* see verify.h */
size_t
pgp_verifier_good_signers(const pgp_verifier *v)
{
	return v->nsigners;
}

/* see verify.h */
pgp_view
pgp_verifier_content(const pgp_verifier *v)
{
	return v->content;
}

/* see verify.h */
int
pgp_verifier_kind(const pgp_verifier *v)
{
	return v->kind;
}

/* see verify.h */
void
pgp_verifier_free(pgp_verifier *v)
{
	size_t i;
	if (v == NULL)
		return;
	for (i = 0; i < v->nowned; i++)
		free(v->owned[i]);
	free(v->sigbytes);
	free(v->sigs);
	free(v->streams);
	free(v->results);
	free(v);
}
