/*
 * verify.c - document signature verification (RFC 9580 §5.2.4): detached
 * signatures, and the checks of each signature against its certificate.
 * Messages (inline-signed, cleartext) are framed in message.c.
 * see verify.h for the semantics.
 */
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"
#include "armor.h"
#include "buf.h"
#include "eval.h"

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
		if (pkt.tag == PGP_TAG_SIGNATURE)
			e = pgp__verifier_add_sig(v, &pkt.body, pkt.off);
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
	pgp_err e;
	pgp_buf_init(&b, PGP_MAX_ARMOR_DECODED);
	/* binary OpenPGP starts with a CTB (bit 7 set, RFC 9580 §4.2); text never does */
	if (len && !(p[0] & 0x80) && pgp_armor_is_armored(p, len)) {
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

/* Check one signature against one candidate certificate. */
static pgp_err
check_candidate(pgp_result *res, const vsig *s, const vstream *st, const pgp_cert *c,
    const uint8_t keyid[8], const pgp_verify_opts *o, const pgp_policy *pol, int *math_ok, const pgp_certsrc *src)
{
	const pgp_sig *g = &s->sig;
	const pgp_key *key;
	pgp_hash h = st->h;
	pgp_certeval ev;
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
	if ((e = pgp__sighash_check(&h, g, key, &d)) != PGP_OK) {
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
	if ((e = pgp_cert_eval(&ev, c, src, o->now, pol)) != PGP_OK) {
		res->reason = "out of memory";
		return e;
	}
	if (ev.primary_uid >= 0)
		res->primary_uid = c->uids[ev.primary_uid].data;
	res->bare_key = ev.bare;
	e = pgp_keystate_alive_at(&ev.primary, &c->primary, (int64_t)g->created, &res->reason);
	if (e == PGP_OK && ev.primary.revoked == 1 && ev.primary.revoked_at <= (int64_t)g->created)
		e = PGP_ERR_REVOKED;
	if (e != PGP_OK) {
		if (e == PGP_ERR_EXPIRED)
			res->reason = "primary key had expired when the signature was made";
		goto out;
	}
	ks = sub < 0 ? &ev.primary : &ev.subs[sub];
	if (sub >= 0 && (e = pgp_keystate_alive_at(ks, key, (int64_t)g->created, &res->reason)) != PGP_OK)
		goto out;
	if (!ks->sign_ok) {
		e = PGP_ERR_UNUSABLE;
		res->reason = ks->sign_reason ? ks->sign_reason : "key may not make signatures";
		goto out;
	}
	res->key_expires = ks->expires;
	if (ev.primary.expires && (res->key_expires == 0 || ev.primary.expires < res->key_expires))
		res->key_expires = ev.primary.expires;
	res->key_expired_now = res->key_expires && res->key_expires <= o->now;
	res->reason = NULL;
out:
	pgp_certeval_release(&ev);
	return e;
}

/* Candidates held on the stack; more (a key ID shared by many certificates)
 * are fetched into a heap array, up to PGP_MAX_KEYID_CERTS. */
#define STACK_CANDIDATES 8

static void
verify_one(pgp_result *res, const pgp_verifier *v, const vsig *s, const pgp_certsrc *src,
    const pgp_verify_opts *o, const pgp_policy *pol)
{
	const pgp_sig *g = &s->sig;
	const pgp_cert *stack_cands[STACK_CANDIDATES], **cands = stack_cands;
	uint8_t keyid[8];
	size_t n, i;
	pgp_result best;
	int have_best = 0;

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
		return;
	}
	if (g->unknown_critical) {
		res->status = PGP_ERR_UNSUPPORTED;
		res->reason = "signature has an unknown critical subpacket or notation";
		return;
	}
	if (!g->has_created) {
		res->status = PGP_ERR_MALFORMED;
		res->reason = "signature has no hashed creation time";
		return;
	}
	if (res->created > o->now) {
		res->status = PGP_ERR_NOT_YET;
		res->reason = "signature was created after the reference time";
		return;
	}
	if (res->created < o->not_before) {
		res->status = PGP_ERR_EXPIRED;
		res->reason = "signature was created before the --not-before time";
		return;
	}
	if (res->created > o->not_after) {
		res->status = PGP_ERR_NOT_YET;
		res->reason = "signature was created after the --not-after time";
		return;
	}
	if (res->sig_expires && res->sig_expires <= o->now) {
		res->status = PGP_ERR_EXPIRED;
		res->reason = "signature expired";
		return;
	}
	if (!issuer_keyid(g, keyid)) {
		res->status = PGP_ERR_NO_KEY;
		res->reason = "signature names no issuer";
		return;
	}
	n = src ? src->find(src->ctx, keyid, cands, STACK_CANDIDATES) : 0;
	if (n > STACK_CANDIDATES) {
		/* every certificate holding the key ID is tried: a flood of
		 * look-alikes must not hide the real one */
		if (n > PGP_MAX_KEYID_CERTS)
			n = PGP_MAX_KEYID_CERTS;
		if ((cands = malloc(n * sizeof *cands)) == NULL) {
			res->status = PGP_ERR_NOMEM;
			res->reason = "out of memory";
			return;
		}
		n = src->find(src->ctx, keyid, cands, n);
		if (n > PGP_MAX_KEYID_CERTS)
			n = PGP_MAX_KEYID_CERTS;
	}
	if (n == 0) {
		res->status = PGP_ERR_NO_KEY;
		res->reason = "no certificate holds the signing key";
		goto out;
	}
	for (i = 0; i < n; i++) {
		pgp_result r = *res;
		int math_ok;
		r.status = check_candidate(&r, s, &v->streams[s->stream], cands[i], keyid, o, pol, &math_ok, src);
		if (r.status == PGP_OK) {
			*res = r;
			goto out;
		}
		/* prefer reporting a candidate whose math held */
		if (!have_best || math_ok) {
			best = r;
			have_best = 1;
		}
	}
	*res = best;
out:
	if (cands != stack_cands)
		free((void *)cands);
}

/* see verify.h */
pgp_err
pgp_verifier_finish(pgp_verifier *v, const pgp_certsrc *src, const pgp_verify_opts *o)
{
	pgp_policy stdpol;
	const pgp_policy *pol = o->policy;
	size_t i;
	if (pol == NULL) {
		pgp_policy_init(&stdpol);
		pol = &stdpol;
	}
	free(v->results);
	v->results = calloc(v->nsigs ? v->nsigs : 1, sizeof *v->results);
	if (v->results == NULL)
		return PGP_ERR_NOMEM;
	v->ngood = 0;
	for (i = 0; i < v->nsigs; i++) {
		verify_one(&v->results[i], v, &v->sigs[i], src, o, pol);
		if (v->results[i].status == PGP_OK)
			v->ngood++;
	}
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
