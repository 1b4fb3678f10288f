/*
 * fuzz_sig.c - libFuzzer target for signatures and their subpackets
 * (pgp/sig.c, pgp/subpkt.c) with their semantic accessors, and the hashing
 * of key signatures (pgp/sighash.c, pgp_keysig_math). The input is a packet
 * sequence (a certificate, typically): every signature packet is parsed and
 * checked against the last primary key, user ID / attribute and subkey seen
 * before it. fuzz_packet only walks the same structures; here the decoded
 * fields must agree with the subpackets they come from.
 * Invariants (a violation aborts):
 *  - every view of a parsed signature lies inside its body; the hashed part
 *    of a v4/v6 signature is its first 6 (v6: 8) octets and the hashed area;
 *  - a decoded field comes from a subpacket of its kind in the right area
 *    (creation time, key flags, revokers: hashed only; issuer, issuer
 *    fingerprint, embedded signature: either; the issuer key ID may come
 *    from the issuer fingerprint); an unknown critical bit
 *    comes from a critical hashed subpacket; nsubpkts counts both areas;
 *  - designated revokers are well-formed and come from the hashed area;
 *  - a signature that names an issuer fingerprint names that fingerprint;
 *  - parsing twice gives the same fields;
 *  - a key signature whose math verifies (RFC 9580 §5.2.4) stops verifying
 *    when one octet of its hashed part, or of the user ID it binds, is
 *    changed (the digest covers them: no forgery by editing).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/certify.h"
#include "pgp/limits.h"
#include "pgp/packet.h"
#include "pgp/sighash_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_SIGS 64      /* signatures checked per input */
#define FUZZ_MAX_MATH 4       /* public-key operations per input */

static volatile size_t sink;
static unsigned math_left;

typedef struct counts {
	unsigned n, created, key_flags, issuer, issuer_fpr, embedded, critical, revoker;
} counts;

static void
inside(pgp_view body, pgp_view v)
{
	if (v.len && (v.p < body.p || v.len > body.len || (size_t)(v.p - body.p) > body.len - v.len))
		abort();
}

static void
count_area(pgp_view area, int hashed, counts *c)
{
	pgp_rd r;
	pgp_subpkt sp;
	pgp_rd_init(&r, area.p, area.len);
	while (c->n <= PGP_MAX_SUBPACKETS && pgp_subpkt_next(&r, hashed, &sp, NULL) == PGP_OK) {
		c->n++;
		if (sp.hashed != (hashed ? 1 : 0))
			abort();
		switch (sp.type) {
		case PGP_SUB_CREATED: c->created += hashed ? 1u : 0u; break;
		case PGP_SUB_KEY_FLAGS: c->key_flags += hashed ? 1u : 0u; break;
		case PGP_SUB_ISSUER: c->issuer++; break;
		case PGP_SUB_ISSUER_FPR: c->issuer_fpr++; break;
		case PGP_SUB_EMBEDDED_SIG: c->embedded++; break;
		case PGP_SUB_REVOCATION_KEY: c->revoker += hashed ? 1u : 0u; break;
		default: break;
		}
		if (hashed && sp.critical)
			c->critical++;
		sink += sp.data.len + (size_t)pgp_subpkt_name(sp.type)[0];
	}
}

static void
same_fields(const pgp_sig *a, const pgp_sig *b)
{
	if (a->version != b->version || a->type != b->type || a->pk_algo != b->pk_algo ||
	    a->hash_algo != b->hash_algo || a->created != b->created ||
	    a->has_created != b->has_created || a->dup_created != b->dup_created ||
	    a->sig_expires != b->sig_expires || a->key_expires != b->key_expires ||
	    a->key_flags != b->key_flags || a->has_key_flags != b->has_key_flags ||
	    a->has_issuer != b->has_issuer || memcmp(a->issuer, b->issuer, 8) != 0 ||
	    a->issuer_fpr.len != b->issuer_fpr.len ||
	    memcmp(a->issuer_fpr.v, b->issuer_fpr.v, a->issuer_fpr.len) != 0 ||
	    a->unknown_critical != b->unknown_critical || a->nsubpkts != b->nsubpkts ||
	    a->embedded.p != b->embedded.p || a->embedded.len != b->embedded.len ||
	    a->revocation_code != b->revocation_code || a->exportable != b->exportable ||
	    a->revocable != b->revocable || a->nmpi != b->nmpi)
		abort();
}

/* The decoded fields of s against its subpackets. */
static void
check_fields(const pgp_sig *s)
{
	counts c;
	pgp_revoker rv;
	size_t pos = 0;
	unsigned nrev = 0, i;

	inside(s->body, s->salt);
	inside(s->body, s->hashed);
	inside(s->body, s->unhashed);
	inside(s->body, s->hashed_part);
	inside(s->body, s->native);
	inside(s->body, s->embedded);
	inside(s->body, s->signers_uid);
	inside(s->body, s->features);
	inside(s->body, s->revocation_text);
	for (i = 0; i < s->nmpi && i < 2; i++)
		inside(s->body, s->mpi[i].v);
	if (s->version < 4) {
		if (s->hashed.len || s->unhashed.len || s->nsubpkts || !s->has_created)
			abort();
		return;
	}
	if (s->hashed_part.p != s->body.p ||
	    s->hashed_part.len != (s->version == 6 ? 8u : 6u) + s->hashed.len)
		abort();
	memset(&c, 0, sizeof c);
	count_area(s->hashed, 1, &c);
	count_area(s->unhashed, 0, &c);
	if (c.n != s->nsubpkts ||
	    (s->has_created && c.created == 0) || (s->dup_created && c.created < 2) ||
	    (s->has_key_flags && c.key_flags == 0) || (s->has_issuer && c.issuer == 0 && s->issuer_fpr.len == 0) ||
	    (s->issuer_fpr.len && c.issuer_fpr == 0) || (s->embedded.p && c.embedded == 0) ||
	    (s->unknown_critical && c.critical == 0) || (s->has_revoker && c.revoker == 0))
		abort();
	/* without an issuer key ID subpacket, the key ID is the issuer
	 * fingerprint's (RFC 9580 §5.5.4) */
	if (s->has_issuer && c.issuer == 0 &&
	    memcmp(s->issuer, s->issuer_fpr.v + (s->issuer_fpr.len == 20 ? 12 : 0), 8) != 0)
		abort();
	while (pgp_sig_next_revoker(s, &pos, &rv) == PGP_OK) {
		if (++nrev > c.revoker || !(rv.cls & 0x80) || (rv.fpr.len != 20 && rv.fpr.len != 32))
			abort();
	}
	if (s->issuer_fpr.len && !pgp_sig_names_fpr(s, &s->issuer_fpr))
		abort();
	sink += (size_t)pgp_sigtype_name(s->type)[0];
}

/* What a key signature of this type is over. -1: not a key signature. */
static int
sigon_of(int type)
{
	switch (type) {
	case PGP_SIG_DIRECT_KEY: case PGP_SIG_KEY_REVOCATION:
		return PGP_SIGON_DIRECT;
	case PGP_SIG_CERT_GENERIC: case PGP_SIG_CERT_PERSONA: case PGP_SIG_CERT_CASUAL:
	case PGP_SIG_CERT_POSITIVE: case PGP_SIG_CERT_REVOCATION:
		return PGP_SIGON_UID;
	case PGP_SIG_SUBKEY_BINDING: case PGP_SIG_SUBKEY_REVOCATION:
		return PGP_SIGON_SUBKEY;
	case PGP_SIG_PRIMARY_BINDING:
		return PGP_SIGON_BACKSIG;
	default:
		return -1;
	}
}

typedef struct ctx {
	const pgp_key *primary, *sub;
	const pgp_uidc *uid;
} ctx;

static const void *
comp_of(const ctx *x, int on)
{
	return on == PGP_SIGON_UID ? (const void *)x->uid :
	    on == PGP_SIGON_DIRECT ? NULL : (const void *)x->sub;
}

/* A copy of s's body with octet at changed, parsed again into *out. */
static int
tampered(const pgp_sig *s, size_t at, uint8_t *copy, pgp_sig *out)
{
	pgp_rd r;
	memcpy(copy, s->body.p, s->body.len);
	copy[at] ^= 0x01;
	pgp_rd_init(&r, copy, s->body.len);
	return pgp_sig_parse(out, &r, NULL) == PGP_OK;
}

static void
check_math(const ctx *x, const pgp_sig *s, int on, const pgp_key *signer)
{
	const void *comp = comp_of(x, on);
	uint8_t *copy;
	pgp_sig t;
	size_t at;

	if (x->primary == NULL || (on != PGP_SIGON_DIRECT && comp == NULL) || math_left == 0)
		return;
	math_left--;
	if (pgp_keysig_math(x->primary, s, (pgp_sigon)on, comp, signer, NULL, NULL) != PGP_OK)
		return;
	/* verified: an edited hashed part must not */
	if (s->version < 4 || s->hashed_part.len == 0 || (copy = malloc(s->body.len)) == NULL)
		return;
	for (at = 1; at < s->hashed_part.len; at += s->hashed_part.len / 3 + 1) {
		if (tampered(s, at, copy, &t) &&
		    pgp_keysig_math(x->primary, &t, (pgp_sigon)on, comp, signer, NULL, NULL) == PGP_OK)
			abort();
	}
	free(copy);
	/* an edited user ID must not either */
	if (on == PGP_SIGON_UID && x->uid->data.len > 0) {
		pgp_uidc u = *x->uid;
		uint8_t *d = malloc(u.data.len);
		if (d == NULL)
			return;
		memcpy(d, u.data.p, u.data.len);
		d[u.data.len / 2] ^= 0x20;
		u.data.p = d;
		if (pgp_keysig_math(x->primary, s, (pgp_sigon)on, &u, signer, NULL, NULL) == PGP_OK)
			abort();
		free(d);
	}
}

static void one_sig(const ctx *x, const pgp_rd *body, int depth);

static void
check_sig(const ctx *x, const pgp_sig *s, int depth)
{
	int on;
	check_fields(s);
	if (s->embedded.p && depth < 2) {
		pgp_rd r;
		pgp_rd_init(&r, s->embedded.p, s->embedded.len);
		one_sig(x, &r, depth + 1);
	}
	on = sigon_of(s->type);
	if (on == PGP_SIGON_BACKSIG)
		check_math(x, s, on, x->sub);
	else if (on >= 0)
		check_math(x, s, on, x->primary);
	else if (x->primary && math_left > 0 && (s->type == PGP_SIG_BINARY ||
	    s->type == PGP_SIG_TEXT || s->type == PGP_SIG_STANDALONE)) {
		/* a data signature over the empty document: the trailer (§5.2.4) */
		pgp_hash h;
		math_left--;
		if (pgp__sighash_start(&h, s) == PGP_OK)
			(void)pgp__sighash_check(&h, s, x->primary, NULL, NULL);
	}
}

static void
one_sig(const ctx *x, const pgp_rd *body, int depth)
{
	pgp_sig s, again;
	pgp_diag d;
	if (pgp_sig_parse(&s, body, &d) != PGP_OK) {
		sink += d.offset;
		return;
	}
	if (pgp_sig_parse(&again, body, NULL) != PGP_OK)
		abort();
	same_fields(&s, &again);
	if (s.body.p != body->p || s.body.len != body->len)
		abort();
	check_sig(x, &s, depth);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_rd in;
	pgp_pkt pkt;
	pgp_key primary, sub;
	pgp_uidc uid;
	ctx x = { NULL, NULL, NULL };
	size_t count = 0, nsigs = 0;

	math_left = FUZZ_MAX_MATH;
	pgp_rd_init(&in, data, size);
	while (count++ < PGP_MAX_PACKETS && pgp_pkt_next(&in, &pkt, NULL) == PGP_OK) {
		/* key, user ID and signature packets are never partial: their
		 * views stay in the input after release */
		if (pkt.owned == NULL) {
			switch (pkt.tag) {
			case PGP_TAG_PUBLIC_KEY:
			case PGP_TAG_SECRET_KEY:
				if (pgp_key_parse(&primary, &pkt, NULL) == PGP_OK) {
					x.primary = &primary;
					x.sub = NULL;
					x.uid = NULL;
				}
				break;
			case PGP_TAG_PUBLIC_SUBKEY:
			case PGP_TAG_SECRET_SUBKEY:
				if (pgp_key_parse(&sub, &pkt, NULL) == PGP_OK)
					x.sub = &sub;
				break;
			case PGP_TAG_USER_ID:
			case PGP_TAG_USER_ATTRIBUTE:
				memset(&uid, 0, sizeof uid);
				uid.is_attr = pkt.tag == PGP_TAG_USER_ATTRIBUTE;
				uid.data = pgp_rd_as_view(&pkt.body);
				x.uid = &uid;
				break;
			case PGP_TAG_SIGNATURE:
				if (nsigs++ < FUZZ_MAX_SIGS)
					one_sig(&x, &pkt.body, 0);
				break;
			default:
				break;
			}
		}
		pgp_pkt_release(&pkt);
	}
	return 0;
}
