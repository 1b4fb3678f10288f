/*
 * literal.c - one-pass signature (RFC 9580 §5.4), literal data (§5.9),
 * compressed data (§5.6) and user attribute (§5.12) packets. see packet.h
 *
 * Decompression policy:
 *   - output is capped (PGP_MAX_DECOMPRESSED, or the caller's cap through
 *     pgp__decompress_capped): more output is PGP_ERR_LIMIT;
 *   - a stream that stops before its end marker, or that zlib rejects, is
 *     PGP_ERR_MALFORMED;
 *   - octets after the end of the deflate/zlib stream are PGP_ERR_MALFORMED
 *     too. §5.6 says the packet body *is* the compressed stream, so extra
 *     octets are not part of any message and a strict reading cannot be
 *     fooled by data hidden behind the end marker.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "buf.h"
#include "limits.h"
#include "packet.h"

/*
 * RFC 9580 §5.4:
 *   v3: 03 | type | hash | pk | key ID (8) | nested            = 13 octets
 *   v6: 06 | type | hash | pk | salt len | salt | fpr (32) | nested
 */
/* see packet.h */
pgp_err
pgp_ops_parse(pgp_ops *out, const pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = pkt->body;
	uint8_t slen;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if ((e = pgp_rd_u8(&r, &out->version)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature version");
	if (out->version != 3 && out->version != 6)
		return pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_ONE_PASS_SIG,
		    "one-pass signature version (3 or 6)");
	if ((e = pgp_rd_u8(&r, &out->type)) != PGP_OK ||
	    (e = pgp_rd_u8(&r, &out->hash_algo)) != PGP_OK ||
	    (e = pgp_rd_u8(&r, &out->pk_algo)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature algorithms");
	if (out->version == 3) {
		if ((e = pgp_rd_copy(&r, out->keyid, 8)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature key ID");
	} else {
		if ((e = pgp_rd_u8(&r, &slen)) != PGP_OK ||
		    (e = pgp_rd_view(&r, slen, &out->salt)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature salt");
		if ((e = pgp_rd_view(&r, 32, &out->fpr)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG,
			    "one-pass signature fingerprint (32 octets)");
	}
	if ((e = pgp_rd_u8(&r, &out->nested)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature nested flag");
	if (!pgp_rd_empty(&r))
		return pgp__fail(diag, PGP_ERR_MALFORMED, r.off, PGP_TAG_ONE_PASS_SIG,
		    "end of one-pass signature packet");
	return PGP_OK;
}

/*
 * RFC 9580 §5.9: format | name len | name | date (4) | data...
 * Any format octet is accepted and reported; interpreting it is the caller's.
 */
/* see packet.h */
pgp_err
pgp_literal_parse(pgp_literal *out, const pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = pkt->body, rest;
	uint8_t nlen;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if ((e = pgp_rd_u8(&r, &out->format)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data format");
	if ((e = pgp_rd_u8(&r, &nlen)) != PGP_OK ||
	    (e = pgp_rd_view(&r, nlen, &out->filename)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data file name");
	if ((e = pgp_rd_be32(&r, &out->date)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data date (4 octets)");
	pgp_rd_rest(&r, &rest);
	out->data = pgp_rd_as_view(&rest);
	return PGP_OK;
}

/* Inflate `in` (windowBits as for inflateInit2) into b, at most cap octets. */
static pgp_err
inflate_all(pgp_buf *b, const pgp_rd *in, int wbits, size_t cap, pgp_diag *diag)
{
	z_stream z;
	pgp_err e = PGP_OK;
	int zr;
	const uint8_t *ip = in->p;
	size_t ileft = in->len;

	/* one octet of room beyond the cap makes "more than cap" detectable */
	b->max = cap < (size_t)-1 ? cap + 1 : cap;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, wbits) != Z_OK)
		return pgp__fail(diag, PGP_ERR_NOMEM, in->off, PGP_TAG_COMPRESSED, "zlib initialisation");
	for (;;) {
		uint8_t *dst;
		size_t room = 65536;
		uInt chunk_in, ospace;

		if (room > b->max - b->len)
			room = b->max - b->len;
		if (room == 0 || b->len > cap) {
			e = pgp__fail(diag, PGP_ERR_LIMIT, in->off + (size_t)(ip - in->p),
			    PGP_TAG_COMPRESSED, "decompressed size limit");
			break;
		}
		if ((e = pgp_buf_grow(b, room, &dst)) != PGP_OK) {
			pgp__fail(diag, e, in->off, PGP_TAG_COMPRESSED, "decompression buffer");
			break;
		}
		chunk_in = ileft > (uInt)-1 ? (uInt)-1 : (uInt)ileft;
		ospace = (uInt)room;
		z.next_in = (Bytef *)(uintptr_t)ip;
		z.avail_in = chunk_in;
		z.next_out = dst;
		z.avail_out = ospace;
		zr = inflate(&z, Z_NO_FLUSH);
		ip += chunk_in - z.avail_in;
		ileft -= chunk_in - z.avail_in;
		b->len -= z.avail_out;
		if (b->len > cap) {
			e = pgp__fail(diag, PGP_ERR_LIMIT, in->off + (size_t)(ip - in->p),
			    PGP_TAG_COMPRESSED, "decompressed size limit");
			break;
		}
		if (zr == Z_STREAM_END) {
			if (ileft != 0)
				e = pgp__fail(diag, PGP_ERR_MALFORMED, in->off + (size_t)(ip - in->p),
				    PGP_TAG_COMPRESSED,
				    "end of compressed data (octets after the stream end)");
			break;
		}
		if (zr == Z_OK)
			continue;
		if (zr == Z_BUF_ERROR && ileft == 0) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, in->off + in->len, PGP_TAG_COMPRESSED,
			    "compressed stream (truncated before its end)");
			break;
		}
		if (zr == Z_MEM_ERROR) {
			e = pgp__fail(diag, PGP_ERR_NOMEM, in->off, PGP_TAG_COMPRESSED, "zlib memory");
			break;
		}
		/* Z_DATA_ERROR, Z_NEED_DICT, Z_STREAM_ERROR, stuck Z_BUF_ERROR */
		e = pgp__fail(diag, PGP_ERR_MALFORMED, in->off + (size_t)(ip - in->p), PGP_TAG_COMPRESSED,
		    "compressed stream (corrupt)");
		break;
	}
	inflateEnd(&z);
	return e;
}

/* see packet.h */
pgp_err
pgp__decompress_capped(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t cap, pgp_diag *diag)
{
	pgp_rd r = pkt->body, data;
	pgp_buf b;
	uint8_t algo;
	pgp_err e;

	*out = NULL;
	*out_len = 0;
	if ((e = pgp_rd_u8(&r, &algo)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_COMPRESSED, "compression algorithm");
	if (algo_out)
		*algo_out = algo;
	pgp_rd_rest(&r, &data);
	pgp_buf_init(&b, cap);
	switch (algo) {
	case PGP_COMP_NONE:
		if (data.len > cap) {
			e = pgp__fail(diag, PGP_ERR_LIMIT, data.off, PGP_TAG_COMPRESSED,
			    "decompressed size limit");
			break;
		}
		e = pgp_buf_append(&b, data.p, data.len);
		if (e != PGP_OK)
			pgp__fail(diag, e, data.off, PGP_TAG_COMPRESSED, "uncompressed data copy");
		break;
	case PGP_COMP_ZIP:  /* RFC 1951 raw deflate (§9.4) */
		e = inflate_all(&b, &data, -15, cap, diag);
		break;
	case PGP_COMP_ZLIB: /* RFC 1950 (§9.4) */
		e = inflate_all(&b, &data, 15, cap, diag);
		break;
	case PGP_COMP_BZIP2:
		e = pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_COMPRESSED,
		    "compression algorithm (BZip2 is not implemented)");
		break;
	default:
		e = pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_COMPRESSED,
		    "compression algorithm (unknown)");
		break;
	}
	if (e != PGP_OK) {
		pgp_buf_free(&b);
		return e;
	}
	if (b.len == 0) {
		/* an empty result still returns a valid (freeable) pointer */
		pgp_buf_free(&b);
		*out = malloc(1);
		if (!*out)
			return pgp__fail(diag, PGP_ERR_NOMEM, pkt->body.off, PGP_TAG_COMPRESSED, "memory");
		return PGP_OK;
	}
	*out = pgp_buf_take(&b, out_len);
	return PGP_OK;
}

/* see packet.h */
pgp_err
pgp_decompress(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, pgp_diag *diag)
{
	return pgp__decompress_capped(out, out_len, pkt, algo_out,
	    PGP_MAX_DECOMPRESSED, diag);
}

/*
 * RFC 9580 §5.12: a user attribute body is a sequence of subpackets with
 * signature-subpacket lengths (§5.2.3.7: 1, 2 or 5 octets), each holding a
 * type octet and the data. A zero length (no type octet) is malformed.
 */
/* see packet.h */
pgp_err
pgp_uattr_next(pgp_rd *body, pgp_uattr_sub *out, pgp_diag *diag)
{
	pgp_rd r = *body, sub;
	uint8_t o1, o2;
	uint32_t len;
	size_t start = body->off;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if (pgp_rd_empty(&r))
		return PGP_ERR_NOT_FOUND;
	(void)pgp_rd_u8(&r, &o1);
	if (o1 < 192) {
		len = o1;
	} else if (o1 < 255) {
		if ((e = pgp_rd_u8(&r, &o2)) != PGP_OK)
			return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
			    "user attribute subpacket length");
		len = ((uint32_t)(o1 - 192) << 8) + o2 + 192;
	} else {
		if ((e = pgp_rd_be32(&r, &len)) != PGP_OK)
			return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
			    "user attribute subpacket length");
	}
	if (len == 0)
		return pgp__fail(diag, PGP_ERR_MALFORMED, start, PGP_TAG_USER_ATTRIBUTE,
		    "user attribute subpacket type (length 0)");
	if ((e = pgp_rd_sub(&r, len, &sub)) != PGP_OK)
		return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
		    "user attribute subpacket body");
	(void)pgp_rd_u8(&sub, &out->type);
	out->data = pgp_rd_as_view(&sub);
	*body = r;
	return PGP_OK;
}
