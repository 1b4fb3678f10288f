/*
 * decompress.c - compressed data packets (RFC 9580 §5.6) under one
 * decompression budget per message. see decompress.h for the policy.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include "buf.h"
#include "decompress.h"
#include "limits.h"

#define LIMIT_WHAT "decompressed size limit (all compressed packets of the message together)"

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
			    PGP_TAG_COMPRESSED, LIMIT_WHAT);
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
			    PGP_TAG_COMPRESSED, LIMIT_WHAT);
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

/* see decompress.h */
pgp_err
pgp_decompress_budget(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t *budget, pgp_diag *diag)
{
	pgp_rd r = pkt->body, data;
	pgp_buf b;
	uint8_t algo;
	size_t cap = *budget;
	uint8_t *shrunk;
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
			    LIMIT_WHAT);
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
	/* give back the doubling slack: memory follows the output, not the cap */
	if ((shrunk = realloc(*out, *out_len)) != NULL)
		*out = shrunk;
	*budget -= *out_len;
	return PGP_OK;
}

/* see decompress.h */
pgp_err
pgp_decompress(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, pgp_diag *diag)
{
	size_t budget = PGP_MAX_DECOMPRESSED;

	return pgp_decompress_budget(out, out_len, pkt, algo_out, &budget, diag);
}

/* see decompress.h */
pgp_err
pgp__decompress_capped(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t cap, pgp_diag *diag)
{
	return pgp_decompress_budget(out, out_len, pkt, algo_out, &cap, diag);
}
