/*
 * message.c - inline-signed (RFC 9580 §10.3) and cleartext-signed (§7)
 * messages: framing, grammar and content, on top of the verifier in
 * verify.c. see verify.h
 */
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"
#include "armor.h"
#include "buf.h"
#include "classify.h"
#include "decompress.h"
#include "pktskip_int.h"

typedef struct msgscan {
	int have_literal;
	pgp_view literal;
	size_t zleft;         /* decompression budget left, all levels together */
} msgscan;

/* The signature packets of one level, in order, until the level is done. */
typedef struct sigref {
	pgp_rd body;
	size_t off;
} sigref;

typedef struct levsigs {
	sigref *s;
	size_t n;
} levsigs;

static pgp_err
levsigs_push(levsigs *l, const pgp_rd *body, size_t off, pgp_diag *diag)
{
	sigref *ns;

	if (l->n >= PGP_MAX_MSG_SIGS)
		return pgp__fail(diag, PGP_ERR_LIMIT, off, PGP_TAG_SIGNATURE,
		    "more than 256 signatures in the message (PGP_MAX_MSG_SIGS)");
	if (l->n % 8 == 0) {
		if ((ns = realloc(l->s, (l->n + 8) * sizeof *ns)) == NULL)
			return pgp__fail(diag, PGP_ERR_NOMEM, off, PGP_TAG_SIGNATURE, "memory");
		l->s = ns;
	}
	l->s[l->n].body = *body;
	l->s[l->n].off = off;
	l->n++;
	return PGP_OK;
}

/*
 * Hand the level's signatures to the verifier. When the level's buffer is
 * about to be freed (move), the signature bodies are first copied into one
 * buffer the verifier keeps, since the parsed signatures point into them.
 */
static pgp_err
levsigs_flush(pgp_verifier *v, const levsigs *l, int move)
{
	uint8_t *copy = NULL;
	size_t i, total = 0, pos = 0;
	pgp_err e;

	if (l->n == 0)
		return PGP_OK;
	if (move) {
		for (i = 0; i < l->n; i++)
			total += l->s[i].body.len; /* each <= PGP_MAX_PACKET_BODY, n <= PGP_MAX_MSG_SIGS */
		if ((copy = malloc(total ? total : 1)) == NULL)
			return PGP_ERR_NOMEM;
		for (i = 0; i < l->n; i++) {
			memcpy(copy + pos, l->s[i].body.p, l->s[i].body.len);
			pos += l->s[i].body.len;
		}
		if ((e = pgp__verifier_keep(v, copy)) != PGP_OK)
			return e;
	}
	for (i = 0, pos = 0; i < l->n; i++) {
		pgp_rd r = l->s[i].body;

		if (move) {
			r.p = copy + pos;
			pos += r.len;
		}
		if ((e = pgp__verifier_add_sig(v, &r, l->s[i].off)) != PGP_OK)
			return e;
	}
	return PGP_OK;
}

/*
 * The next level: the packets of compressed packet pkt, decompressed under
 * the message's budget, without the marker, padding and 40-63 packets
 * (pktskip_int.h), which the parser would skip anyway: a level inflating to
 * gigabytes of padding costs budget, not memory. *inner is never NULL on
 * success.
 */
static pgp_err
extract_level(msgscan *m, const pgp_pkt *pkt, uint8_t **inner, size_t *inner_len,
    pgp_diag *diag)
{
	pgp_buf b;
	pgp__pktskip f;
	uint8_t algo = 0, *shrunk;
	pgp_err e;

	pgp_buf_init(&b, PGP_MAX_DECOMPRESSED);
	pgp__pktskip_init(&f, &b);
	e = pgp_decompress_to(pkt, &algo, &m->zleft, pgp__pktskip_push, &f, diag);
	if (e == PGP_ERR_LIMIT && f.stopped)
		e = PGP_OK; /* an over-limit header ends the level: the parser refuses it */
	if (e == PGP_OK && (e = pgp__pktskip_end(&f)) != PGP_OK)
		pgp__fail(diag, e, pkt->off, PGP_TAG_COMPRESSED, "decompression buffer");
	if (e != PGP_OK) {
		pgp_buf_free(&b);
		return e;
	}
	if (b.len == 0) {
		pgp_buf_free(&b);
		if ((*inner = malloc(1)) == NULL)
			return pgp__fail(diag, PGP_ERR_NOMEM, pkt->off, PGP_TAG_COMPRESSED, "memory");
		*inner_len = 0;
		return PGP_OK;
	}
	*inner = pgp_buf_take(&b, inner_len);
	/* give back the doubling slack */
	if ((shrunk = realloc(*inner, *inner_len)) != NULL)
		*inner = shrunk;
	return PGP_OK;
}

/*
 * One level of an inline-signed message (RFC 9580 §10.3):
 *   Message    := Literal | Compressed | Signed      (Encrypted: unsupported)
 *   Compressed := a compressed data packet holding exactly one Message
 *   Signed     := Signature Message | One-Pass-Signature Message Signature
 * So a level is: signatures and one-pass packets, then one literal or
 * compressed message, then one signature per one-pass packet, and nothing
 * else. Marker, padding and non-critical (40-63) packets are skipped
 * wherever they are (RFC 9580 §4.3).
 *
 * A compressed packet is decompressed into *inner (the next level, parsed
 * by the caller once this one is done); the output counts against the
 * message's one budget m->zleft. The signatures of the level are recorded in
 * *sigs; the caller hands them to the verifier.
 */
static pgp_err
parse_level(msgscan *m, levsigs *sigs, const uint8_t *p, size_t len, int depth,
    uint8_t **inner, size_t *inner_len, uint8_t **keep, pgp_diag *diag)
{
	pgp_rd r;
	pgp_err e = PGP_OK;
	size_t nops = 0, nprefix = 0, ntrail = 0;
	int done = 0;

	pgp_rd_init(&r, p, len);
	if (depth > PGP_MAX_NESTING)
		return pgp__fail(diag, PGP_ERR_LIMIT, 0, -1, "compressed packets nested more than 8 deep (PGP_MAX_NESTING)");
	while (!pgp_rd_empty(&r)) {
		pgp_pkt pkt;
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			return e;
		if (pgp_tag_ignorable(pkt.tag)) {
			pgp_pkt_release(&pkt);
			continue;
		}
		if (done) {
			/* after the message: only the signatures closing one-pass packets */
			if (pkt.tag != PGP_TAG_SIGNATURE)
				e = pgp__fail(diag, PGP_ERR_MALFORMED, pkt.off, -1,
				    pkt.tag == PGP_TAG_LITERAL ? "more than one literal data packet"
				    : "packet after the end of the signed message");
			else if (ntrail == nops)
				e = pgp__fail(diag, PGP_ERR_MALFORMED, pkt.off, -1,
				    "more signatures after the data than one-pass signatures before it");
			else {
				ntrail++;
				e = levsigs_push(sigs, &pkt.body, pkt.off, diag);
			}
			pgp_pkt_release(&pkt);
			if (e != PGP_OK)
				return e;
			continue;
		}
		switch (pkt.tag) {
		case PGP_TAG_ONE_PASS_SIG: {
			pgp_ops ops;
			if ((e = pgp_ops_parse(&ops, &pkt, diag)) == PGP_OK)
				nops++;
			break;
		}
		case PGP_TAG_SIGNATURE:
			nprefix++;
			e = levsigs_push(sigs, &pkt.body, pkt.off, diag);
			break;
		case PGP_TAG_LITERAL: {
			pgp_literal lit;
			if ((e = pgp_literal_parse(&lit, &pkt, diag)) != PGP_OK)
				break;
			done = 1;
			m->have_literal = 1;
			m->literal = lit.data;
			/* reassembled partial body: the caller keeps it */
			*keep = pkt.owned;
			pkt.owned = NULL;
			break;
		}
		case PGP_TAG_COMPRESSED:
			/* the compressed data is one complete message of its own */
			if ((e = extract_level(m, &pkt, inner, inner_len, diag)) == PGP_OK)
				done = 1;
			break;
		case PGP_TAG_PKESK:
		case PGP_TAG_SKESK:
		case PGP_TAG_SED:
		case PGP_TAG_SEIPD:
		case PGP_TAG_AEAD:
			e = pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt.off, -1,
			    "encrypted messages are not supported (verification only)");
			break;
		default:
			e = pgp__fail(diag, PGP_ERR_MALFORMED, pkt.off, -1, "unexpected packet in a signed message");
			break;
		}
		pgp_pkt_release(&pkt);
		if (e != PGP_OK)
			return e;
	}
	if (!done) {
		if (depth == 0 && nops == 0 && nprefix > 0)
			return pgp__fail(diag, PGP_ERR_MALFORMED, 0, -1,
			    "input holds only signatures: a detached signature needs the signed data too");
		return pgp__fail(diag, PGP_ERR_MALFORMED, len, -1,
		    depth ? "compressed data holds no complete message" : "message has no literal data packet");
	}
	if (ntrail != nops)
		return pgp__fail(diag, PGP_ERR_MALFORMED, len, -1,
		    "number of one-pass signatures does not match the signatures after the data");
	return PGP_OK;
}

/*
 * All levels of an inline-signed message, outermost first. Only two levels
 * are in memory at a time: a decompressed level is freed as soon as the
 * next one has been extracted from it (its signatures are copied out first),
 * and every level draws on one decompression budget (PGP_MAX_DECOMPRESSED),
 * so nested compressed packets cannot multiply the cap. The level holding
 * the literal data is kept: the content points into it. The signatures of
 * all levels are added level by level, outermost first.
 */
static pgp_err
parse_message(pgp_verifier *v, msgscan *m, const uint8_t *p, size_t len, pgp_diag *diag)
{
	uint8_t *level = NULL; /* owned buffer of the current level (depth > 0) */
	int depth;
	pgp_err e;

	m->zleft = PGP_MAX_DECOMPRESSED;
	for (depth = 0;; depth++) {
		uint8_t *inner = NULL, *keep = NULL;
		size_t inner_len = 0;
		levsigs sigs = {NULL, 0};

		e = parse_level(m, &sigs, p, len, depth, &inner, &inner_len, &keep, diag);
		if (e == PGP_OK)
			e = pgp__verifier_keep(v, keep);
		else
			free(keep);
		if (e == PGP_OK)
			e = levsigs_flush(v, &sigs, level != NULL && inner != NULL);
		free(sigs.s);
		if (e != PGP_OK || inner == NULL) {
			if (e == PGP_OK)
				return pgp__verifier_keep(v, level);
			free(inner);
			free(level);
			return e;
		}
		free(level);
		level = inner;
		p = inner;
		len = inner_len;
	}
}

static pgp_err
verify_inline(pgp_verifier *v, const uint8_t *p, size_t len, pgp_diag *diag)
{
	msgscan m;
	pgp_err e;
	memset(&m, 0, sizeof m);
	v->kind = 2;
	if ((e = parse_message(v, &m, p, len, diag)) != PGP_OK)
		return e;
	if (v->nsigs == 0)
		return pgp__fail(diag, PGP_ERR_NO_SIG, 0, -1, "message is not signed");
	if ((e = pgp__verifier_plan(v)) != PGP_OK)
		return e;
	v->content = m.literal;
	pgp_verifier_update(v, m.literal.p, m.literal.len);
	return PGP_OK;
}

static pgp_err
hash_sink(void *ctx, const uint8_t *p, size_t n)
{
	pgp_verifier_update(ctx, p, n);
	return PGP_OK;
}

/*
 * Takes over cl (released here). Memory: the input, and the text (once):
 * the canonical form is hashed as it is made (pgp_cleartext_canon_to), then
 * the text becomes the content in place (pgp_cleartext_output_inplace).
 */
static pgp_err
verify_cleartext(pgp_verifier *v, pgp_cleartext *clp, pgp_diag *diag)
{
	pgp_cleartext cl = *clp;
	pgp_err e;
	size_t i;
	v->kind = 1;
	for (i = 0; i < cl.n_hash && i < sizeof v->hash_id_buf; i++)
		v->hash_id_buf[i] = cl.hash_ids[i];
	v->hash_ids = v->hash_id_buf;
	v->nhash_ids = i;
	e = pgp__verifier_load_sigs(v, cl.sig, cl.sig_len, diag);
	if (e == PGP_OK)
		e = pgp__verifier_plan(v);
	if (e == PGP_OK)
		e = pgp_cleartext_canon_to(cl.text, cl.text_len, hash_sink, v);
	if (e == PGP_OK) {
		/*
		 * The content is the authenticated text only (RFC 9580 §7.2:
		 * trailing whitespace is not signed), with the message's own
		 * line endings: pgp_cleartext_output(), made in place.
		 */
		if (cl.text == NULL)
			v->content.p = (const uint8_t *)"";
		else if ((e = pgp_cleartext_output_inplace(cl.text, &cl.text_len)) == PGP_OK) {
			v->content.p = cl.text;
			v->content.len = cl.text_len;
			e = pgp__verifier_keep(v, cl.text);
			cl.text = NULL;
		}
		/* signature views point into cl.sig: keep it too */
		if (e == PGP_OK) {
			e = pgp__verifier_keep(v, cl.sig);
			cl.sig = NULL;
		}
	}
	pgp_cleartext_release(&cl);
	return e;
}

static int
is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static size_t
skip_space(const uint8_t *p, size_t len, size_t pos)
{
	while (pos < len && is_space(p[pos]))
		pos++;
	return pos;
}

/*
 * One armored message and nothing else (whitespace aside): text before the
 * armor or a second block would be data that was not verified, and a
 * different message for another tool.
 */
static pgp_err
dearmor_one(pgp_verifier *v, const uint8_t *msg, size_t len, size_t start,
    const uint8_t **out, size_t *out_len, pgp_diag *diag)
{
	pgp_armor a;
	size_t pos = start;
	pgp_err e = pgp_armor_next(&a, msg, len, &pos, diag);
	if (e == PGP_ERR_NOT_FOUND)
		return pgp__fail(diag, PGP_ERR_MALFORMED, start, -1, "not an OpenPGP message");
	if (e != PGP_OK)
		return e;
	if (a.begin_off != start) {
		pgp_armor_release(&a);
		return pgp__fail(diag, PGP_ERR_MALFORMED, start, -1,
		    "text before the armored message");
	}
	if (skip_space(msg, len, pos) != len) {
		pgp_armor_release(&a);
		return pgp__fail(diag, PGP_ERR_MALFORMED, pos, -1,
		    "data after the armored message (one message per input)");
	}
	*out = a.data ? a.data : (const uint8_t *)"";
	*out_len = a.data_len;
	if (a.data && (e = pgp__verifier_keep(v, a.data)) != PGP_OK)
		return e;
	a.data = NULL;
	pgp_armor_release(&a);
	return PGP_OK;
}

/* see verify.h */
pgp_err
pgp_verify_message(pgp_verifier **out, const uint8_t *msg, size_t len,
    const pgp_certsrc *src, const pgp_verify_opts *o, pgp_diag *diag)
{
	pgp_verifier *v;
	pgp_input_class ic;
	pgp_err e;
	size_t start;
	*out = NULL;
	if ((v = calloc(1, sizeof *v)) == NULL)
		return PGP_ERR_NOMEM;
	start = skip_space(msg, len, 0);
	/* the one input decision (classify.h): binary input starts with a CTB
	 * (RFC 9580 §4.2) and is never scanned for text */
	(void)pgp_classify(msg, len, &ic);
	if (ic.kind == PGP_INPUT_BINARY) {
		e = verify_inline(v, msg, len, diag);
	} else if (ic.kind == PGP_INPUT_CLEARTEXT) {
		pgp_cleartext cl;
		/* the parser refuses anything but whitespace after the signature */
		if ((e = pgp_cleartext_parse(&cl, msg, len, diag)) == PGP_OK)
			e = verify_cleartext(v, &cl, diag);
	} else {
		const uint8_t *bin = NULL;
		size_t n = 0;
		e = dearmor_one(v, msg, len, start, &bin, &n, diag);
		if (e == PGP_OK)
			e = verify_inline(v, bin, n, diag);
	}
	if (e == PGP_OK)
		e = pgp_verifier_finish(v, src, o);
	if (e != PGP_OK) {
		pgp_verifier_free(v);
		return e;
	}
	*out = v;
	return PGP_OK;
}

