/*
 * gpg_keys.c - `--with-colons --list-keys [KEY...]` and `--with-colons
 * --fingerprint [KEY...]` of the drop-in: GnuPG 2.2.40's colon listing
 * (doc/DETAILS of GnuPG: pub, fpr, uid, sub, fpr records) for the fields
 * b4 and patatt read: pub field 5 (key ID), fpr field 10, uid fields 2
 * (validity, 'r' revoked) and 10 (the user ID, escaped as gpg does).
 * No "tru" record (there is no trustdb) and no "uat" records (photos).
 * KEY: a fingerprint, a key ID (8 or 16 hex digits, optional 0x), an
 * "<address>", or a user ID substring (ASCII case ignored); none: every key.
 * Exit 2 when a KEY names no key ("error reading key: No public key").
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpg.h"
#include "keyring/kr.h"
#include "keyring/trust.h"

typedef struct lctx {
	gpg_run *r;
	gpg_trust *trust;
	certs_ring ring;
	const pgp_cert **certs;
	size_t n;
	char *text;
} lctx;

#define GPG_UID_COLON (4 * 65536 + 1)

/* Key flags (RFC 9580 §5.2.3.29) as gpg's capability letters. */
static void
caps_own(char *out, size_t *k, uint8_t flags, int primary)
{
	int c = 0;

	if (flags & 0x0c)
		out[(*k)++] = 'e';
	if (flags & 0x02) {
		out[(*k)++] = 's';
		if (primary) {
			out[(*k)++] = 'c';
			c = 1;
		}
	}
	if ((flags & 0x01) && !c)
		out[(*k)++] = 'c';
	if (flags & 0x20)
		out[(*k)++] = 'a';
}

static int
usable(const pgp_keystate *ks)
{
	return ks->status == PGP_OK && ks->bound && !ks->revoked;
}

static char
state_letter(const pgp_keystate *ks, char otherwise)
{
	if (ks->revoked)
		return 'r';
	if (ks->status == PGP_ERR_EXPIRED)
		return 'e';
	return otherwise;
}

/* see gpg.h */
int
gpg_primary_uid(const pgp_cert *c, const pgp_certeval *ev)
{
	int best = -1, any_flag = 0;
	uint32_t j;

	for (j = 0; j < c->nuids; j++)
		if (!c->uids[j].is_attr && ev->uids[j].status == PGP_OK && ev->uids[j].primary)
			any_flag = 1;
	for (j = 0; j < c->nuids; j++) {
		const pgp_uidc *u = &c->uids[j];
		const pgp_uidstate *us = &ev->uids[j];
		if (u->is_attr || us->status != PGP_OK || (any_flag && !us->primary))
			continue;
		if (best >= 0) {
			const pgp_uidc *b = &c->uids[best];
			int64_t bt = ev->uids[best].binding_time;
			if (us->binding_time < bt)
				continue;
			if (us->binding_time == bt && (u->data.len < b->data.len ||
			    (u->data.len == b->data.len &&
			    memcmp(u->data.p, b->data.p, u->data.len) <= 0)))
				continue;
		}
		best = (int)j;
	}
	return best;
}

/* One uid record. */
static void
print_uid(lctx *c, const pgp_cert *cert, const pgp_certeval *ev, uint32_t j, char kl)
{
	const pgp_uidc *u = &cert->uids[j];
	const pgp_uidstate *us = &ev->uids[j];
	uint8_t h[PGP_HASH_MAX_LEN];
	char hash[41], ul;
	int kv, uv;
	size_t i;

	if (u->is_attr || (us->status != PGP_OK && us->status != PGP_ERR_REVOKED))
		return;
	gpg_trust_validity(c->trust, &cert->primary.fpr, &u->data, &kv, &uv);
	ul = us->status == PGP_ERR_REVOKED ? 'r' : kl == 'r' || kl == 'e' ? kl :
	    wot_validity_letter((wot_validity)uv);
	if (pgp_hash_buf(PGP_HASH_RIPEMD160, u->data.p, u->data.len, h) != PGP_OK)
		memset(h, 0, 20);
	for (i = 0; i < 20; i++)
		snprintf(hash + 2 * i, 3, "%02X", h[i]);
	gpg_esc_colon(c->text, GPG_UID_COLON, u->data.p, u->data.len);
	printf("uid:%c::::%lld::%s::%s::::::::::0:\n", ul,
	    (long long)(us->binding_time ? us->binding_time : cert->primary.created), hash, c->text);
}

static void
print_key(lctx *c, const pgp_cert *cert)
{
	pgp_certeval ev;
	char caps[16], kid[17], fpr[2 * PGP_FPR_MAX + 1], exp[24];
	uint8_t all = 0;
	size_t k = 0;
	uint32_t j;
	int kv, prim;
	char kl;

	if (pgp_cert_eval(&ev, cert, &c->ring.src, c->r->now, &c->r->pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		return;
	}
	gpg_trust_validity(c->trust, &cert->primary.fpr, NULL, &kv, NULL);
	kl = state_letter(&ev.primary, wot_validity_letter((wot_validity)kv));
	caps_own(caps, &k, ev.primary.flags, 1);
	if (usable(&ev.primary))
		all |= ev.primary.flags;
	for (j = 0; j < cert->nsubs; j++)
		if (usable(&ev.subs[j]) && ev.primary.status == PGP_OK)
			all |= ev.subs[j].flags;
	if (all & 0x0c)
		caps[k++] = 'E';
	if (all & 0x02)
		caps[k++] = 'S';
	if (all & 0x01)
		caps[k++] = 'C';
	if (all & 0x20)
		caps[k++] = 'A';
	caps[k] = '\0';
	gpg_fmt_keyid(kid, &cert->primary.fpr);
	gpg_fmt_fpr(fpr, sizeof fpr, &cert->primary.fpr);
	exp[0] = '\0';
	if (ev.primary.expires)
		snprintf(exp, sizeof exp, "%lld", (long long)ev.primary.expires);
	printf("pub:%c:%u:%u:%s:%lld:%s::%c:::%s:::::%s:::0:\n", kl, cert->primary.bits,
	    cert->primary.algo, kid, (long long)cert->primary.created, exp,
	    gpg_trust_ownertrust(c->trust, &cert->primary.fpr), caps,
	    gpg_curve_colon(cert->primary.curve));
	printf("fpr:::::::::%s:\n", fpr);
	/* the primary user ID first, then the others in keyring order */
	prim = gpg_primary_uid(cert, &ev);
	if (prim >= 0)
		print_uid(c, cert, &ev, (uint32_t)prim, kl);
	for (j = 0; j < cert->nuids; j++)
		if ((int)j != prim)
			print_uid(c, cert, &ev, j, kl);
	for (j = 0; j < cert->nsubs; j++) {
		const pgp_subc *s = &cert->subs[j];
		const pgp_keystate *ks = &ev.subs[j];
		if (!ks->bound && !ks->revoked)
			continue;
		k = 0;
		caps_own(caps, &k, ks->flags, 0);
		caps[k] = '\0';
		gpg_fmt_keyid(kid, &s->key.fpr);
		gpg_fmt_fpr(fpr, sizeof fpr, &s->key.fpr);
		exp[0] = '\0';
		if (ks->expires)
			snprintf(exp, sizeof exp, "%lld", (long long)ks->expires);
		printf("sub:%c:%u:%u:%s:%lld:%s:::::%s:::::%s::\n", state_letter(ks, kl),
		    s->key.bits, s->key.algo, kid, (long long)s->key.created, exp, caps,
		    gpg_curve_colon(s->key.curve));
		printf("fpr:::::::::%s:\n", fpr);
	}
	pgp_certeval_release(&ev);
}

/* Every certificate of the keyrings, in keyring order. */
static int
all_certs(lctx *c)
{
	size_t i, n;

	if (c->ring.kr != NULL) {
		n = kr_count(c->ring.kr);
		if ((c->certs = calloc(n ? n : 1, sizeof *c->certs)) == NULL)
			return -1;
		for (i = 0; i < n; i++)
			if (kr_cert(c->ring.kr, i, &c->certs[c->n]) == PGP_OK)
				c->n++;
		return 0;
	}
	if (c->ring.set == NULL)
		return 0;
	n = pgp_certset_count(c->ring.set);
	if ((c->certs = calloc(n ? n : 1, sizeof *c->certs)) == NULL)
		return -1;
	for (i = 0; i < n; i++)
		c->certs[c->n++] = pgp_certset_get(c->ring.set, i);
	return 0;
}

/* The octets of a 16-hex-digit key ID or a 40/64-hex-digit fingerprint
 * KEY (optional 0x, optional trailing '!') into id; their count, or 0. */
static size_t
hex_id(const char *spec, uint8_t id[32])
{
	char buf[65];
	const char *s = spec;
	size_t len;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	len = strlen(s);
	if (len && s[len - 1] == '!')
		len--;
	if (len != 16 && len != 40 && len != 64)
		return 0;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return pgp_hex_decode(id, buf, len / 2) == 0 ? len / 2 : 0;
}

/* 1 when KEY can be looked up in an index (a long key ID or a
 * fingerprint); q (optional) gets the query kind and length. */
static int
indexed(const char *spec, pgp_certq *q)
{
	uint8_t id[32];
	size_t n = hex_id(spec, id);

	if (n == 0)
		return 0;
	if (q != NULL) {
		q->kind = n == 8 ? PGP_CERTQ_KEYID : PGP_CERTQ_FPR;
		q->len = n;
	}
	return 1;
}

/* 1 when cert matches gpg's user ID specification spec. */
static int
matches(const pgp_cert *cert, const char *spec)
{
	const char *s = spec;
	uint8_t id[32];
	size_t len, j;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	len = strlen(s);
	if (len && s[len - 1] == '!')
		len--;          /* "KEYID!": that exact (sub)key */
	if (len == 16 || len == 8 || len == 40 || len == 64) {
		char buf[65];
		memcpy(buf, s, len);
		buf[len] = '\0';
		if (pgp_hex_decode(id, buf, len / 2) == 0) {
			const pgp_key *keys[1 + 256];
			size_t nk = 0;
			keys[nk++] = &cert->primary;
			for (j = 0; j < cert->nsubs && nk < sizeof keys / sizeof keys[0]; j++)
				keys[nk++] = &cert->subs[j].key;
			for (j = 0; j < nk; j++) {
				const pgp_fpr *f = &keys[j]->fpr;
				char kid[17];
				if (len >= 40) {
					if (f->len == len / 2 && memcmp(f->v, id, f->len) == 0)
						return 1;
					continue;
				}
				gpg_fmt_keyid(kid, f);
				if (strncasecmp(kid + (len == 8 ? 8 : 0), buf, len) == 0)
					return 1;
			}
			return 0;
		}
	}
	for (j = 0; j < cert->nuids; j++) {
		const pgp_uidc *u = &cert->uids[j];
		if (u->is_attr)
			continue;
		if (spec[0] == '=') {
			if (u->data.len == strlen(spec + 1) && memcmp(u->data.p, spec + 1, u->data.len) == 0)
				return 1;
		} else if (spec[0] == '<') {
			pgp_view e;
			size_t sl = strlen(spec);
			if (sl > 2 && spec[sl - 1] == '>' && pgp_uid_email(u->data, &e) &&
			    pgp_email_cmp(e.p, e.len, (const uint8_t *)spec + 1, sl - 2) == 0)
				return 1;
		} else if (cli_has_icase(u->data.p, u->data.len, spec[0] == '@' ? spec + 1 : spec)) {
			return 1;
		}
	}
	return 0;
}

int
gpg_cmd_list(gpg_run *r, int fingerprint)
{
	lctx c;
	const char *exist[GPG_MAX_KEYRINGS];
	size_t i, q, n = 0;
	int rc = 0;

	(void)fingerprint;   /* with --with-colons, fpr records are always listed */
	if (!r->o.with_colons) {
		gpg_say("wotkit-gpg: key listings are given with --with-colons only");
		return 2;
	}
	memset(&c, 0, sizeof c);
	c.r = r;
	for (i = 0; i < r->npaths; i++)
		if (access(r->paths[i], F_OK) == 0)
			exist[n++] = r->paths[i];
	if ((c.text = malloc(GPG_UID_COLON)) == NULL || (c.trust = gpg_trust_new(r)) == NULL) {
		rc = 2;
		goto out;
	}
	if (n > 0 && certs_ring_open(&c.ring, exist, n, 0) != 0) {
		rc = 2;
		goto out;
	}
	/* a key ID or fingerprint of every KEY: looked up through the
	 * keyring's index, not by parsing every certificate */
	for (q = 0; q < r->o.nargs && n > 0; q++)
		if (!indexed(r->o.args[q], NULL))
			break;
	if (n > 0 && r->o.nargs > 0 && q == r->o.nargs) {
		for (q = 0; q < r->o.nargs; q++) {
			const pgp_cert *found[16];
			pgp_certq cq;
			uint8_t id[32];
			size_t total = 0, k;
			int hits = 0;
			indexed(r->o.args[q], &cq);
			cq.p = id;
			(void)hex_id(r->o.args[q], id);
			if (c.ring.src.find(c.ring.src.ctx, &cq, found, 16, &total) == PGP_OK)
				for (k = 0; k < total && k < 16; k++)
					if (matches(found[k], r->o.args[q])) {
						print_key(&c, found[k]);
						hits = 1;
					}
			if (!hits) {
				gpg_say("error reading key: No public key");
				rc = 2;
			}
		}
		goto flush;
	}
	if (all_certs(&c) != 0) {
		rc = 2;
		goto out;
	}
	if (r->o.nargs == 0) {
		for (i = 0; i < c.n; i++)
			print_key(&c, c.certs[i]);
	}
	for (q = 0; q < r->o.nargs; q++) {
		int found = 0;
		for (i = 0; i < c.n; i++)
			if (matches(c.certs[i], r->o.args[q])) {
				print_key(&c, c.certs[i]);
				found = 1;
			}
		if (!found) {
			gpg_say("error reading key: No public key");
			rc = 2;
		}
	}
flush:
	if (fflush(stdout) != 0)
		rc = 2;
out:
	free(c.certs);
	free(c.text);
	gpg_trust_free(c.trust);
	if (n > 0)
		certs_ring_close(&c.ring);
	return rc;
}
