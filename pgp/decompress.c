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
#include "decompress_int.h"
#include "err_int.h"

#define LIMIT_WHAT "decompressed size limit (all compressed packets of the message together: " \
	"256 MiB, PGP_MAX_DECOMPRESSED)"

#define ZCHUNK 65536

/*
 * Inflate `in` (windowBits as for inflateInit2) to sink, at most cap octets
 * in all (*total counts them). Output beyond cap is never handed on.
 */
static pgp_err
inflate_to(const pgp_rd *in, int wbits, size_t cap, pgp_zsink sink, void *ctx,
    size_t *total, pgp_diag *diag)
{
	z_stream z;
	pgp_err e = PGP_OK;
	int zr;
	const uint8_t *ip = in->p;
	size_t ileft = in->len;
	uint8_t *scratch;

	if ((scratch = malloc(ZCHUNK)) == NULL)
		return pgp__fail(diag, PGP_ERR_NOMEM, in->off, PGP_TAG_COMPRESSED, "decompression buffer");
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, wbits) != Z_OK) {
		free(scratch);
		return pgp__fail(diag, PGP_ERR_NOMEM, in->off, PGP_TAG_COMPRESSED, "zlib initialisation");
	}
	for (;;) {
		/* one octet of room beyond the cap makes "more than cap" detectable */
		size_t room = ZCHUNK, produced;
		uInt chunk_in;

		if (room > cap - *total && cap - *total < (size_t)-1)
			room = cap - *total + 1;
		chunk_in = ileft > (uInt)-1 ? (uInt)-1 : (uInt)ileft;
		z.next_in = (Bytef *)(uintptr_t)ip;
		z.avail_in = chunk_in;
		z.next_out = scratch;
		z.avail_out = (uInt)room;
		zr = inflate(&z, Z_NO_FLUSH);
		ip += chunk_in - z.avail_in;
		ileft -= chunk_in - z.avail_in;
		produced = room - z.avail_out;
		if (produced > cap - *total) {
			e = pgp__fail(diag, PGP_ERR_LIMIT, in->off + (size_t)(ip - in->p),
			    PGP_TAG_COMPRESSED, LIMIT_WHAT);
			break;
		}
		*total += produced;
		if (produced > 0 && (e = sink(ctx, scratch, produced)) != PGP_OK) {
			pgp__fail(diag, e, in->off + (size_t)(ip - in->p), PGP_TAG_COMPRESSED,
			    e == PGP_ERR_NOMEM ? "decompression buffer" : LIMIT_WHAT);
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
	free(scratch);
	return e;
}

/* see decompress.h */
pgp_err
pgp_decompress_to(const pgp_pkt *pkt, uint8_t *algo_out, size_t *budget,
    pgp_zsink sink, void *ctx, pgp_diag *diag)
{
	pgp_rd r = pkt->body, data;
	uint8_t algo;
	size_t total = 0;
	pgp_err e;

	if ((e = pgp_rd_u8(&r, &algo)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_COMPRESSED, "compression algorithm");
	if (algo_out)
		*algo_out = algo;
	pgp_rd_rest(&r, &data);
	switch (algo) {
	case PGP_COMP_NONE:
		if (data.len > *budget)
			return pgp__fail(diag, PGP_ERR_LIMIT, data.off, PGP_TAG_COMPRESSED, LIMIT_WHAT);
		if (data.len > 0 && (e = sink(ctx, data.p, data.len)) != PGP_OK)
			return pgp__fail(diag, e, data.off, PGP_TAG_COMPRESSED,
			    "uncompressed data copy");
		total = data.len;
		break;
	case PGP_COMP_ZIP:  /* RFC 1951 raw deflate (§9.4) */
		e = inflate_to(&data, -15, *budget, sink, ctx, &total, diag);
		break;
	case PGP_COMP_ZLIB: /* RFC 1950 (§9.4) */
		e = inflate_to(&data, 15, *budget, sink, ctx, &total, diag);
		break;
	case PGP_COMP_BZIP2:
		return pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_COMPRESSED,
		    "compression algorithm (BZip2 is not implemented)");
	default:
		return pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_COMPRESSED,
		    "compression algorithm (unknown)");
	}
	if (e != PGP_OK)
		return e;
	*budget -= total;
	return PGP_OK;
}

static pgp_err
buf_sink(void *ctx, const uint8_t *p, size_t n)
{
	return pgp_buf_append(ctx, p, n);
}

/* see decompress.h */
pgp_err
pgp_decompress_budget(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t *budget, pgp_diag *diag)
{
	pgp_buf b;
	uint8_t *shrunk;
	pgp_err e;

	*out = NULL;
	*out_len = 0;
	pgp_buf_init(&b, *budget);
	if ((e = pgp_decompress_to(pkt, algo_out, budget, buf_sink, &b, diag)) != PGP_OK) {
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

/* see decompress_int.h */
pgp_err
pgp__decompress_capped(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t cap, pgp_diag *diag)
{
	return pgp_decompress_budget(out, out_len, pkt, algo_out, &cap, diag);
}
