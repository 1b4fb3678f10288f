/*
 * header.c - packet framing (RFC 9580 §4.2): new and legacy CTBs, 1/2/5-octet
 * lengths, partial body lengths (joined into one owned buffer, capped) and the
 * legacy indeterminate length. see packet.h
 */
#include <stdlib.h>
#include <string.h>
#include "limits.h"
#include "packet.h"
#include "err_int.h"
#include "packet_int.h"

/* RFC 9580 §4.2.1.4: partial lengths only for these data packets. */
static int
is_data_tag(uint8_t tag)
{
	return tag == PGP_TAG_COMPRESSED || tag == PGP_TAG_SED ||
	    tag == PGP_TAG_LITERAL || tag == PGP_TAG_SEIPD ||
	    tag == PGP_TAG_AEAD;
}

/* see packet_int.h */
size_t
pgp__pkt_body_limit(uint8_t tag)
{
	return is_data_tag(tag) ? PGP_MAX_DATA_BODY : PGP_MAX_PACKET_BODY;
}

/*
 * New-format length (RFC 9580 §4.2.1):
 *   0..191          one octet                       length = o1
 *   192..223 o2     two octets                      ((o1 - 192) << 8) + o2 + 192
 *   224..254        partial body length             1 << (o1 & 0x1f)
 *   255 b3 b2 b1 b0 five octets                     32-bit big-endian
 */
static pgp_err
new_len(pgp_rd *r, uint32_t *len, int *partial)
{
	pgp_rd save = *r;
	uint8_t o1, o2;
	pgp_err e;

	*partial = 0;
	if ((e = pgp_rd_u8(r, &o1)) != PGP_OK)
		return e;
	if (o1 < 192) {
		*len = o1;
	} else if (o1 < 224) {
		if ((e = pgp_rd_u8(r, &o2)) != PGP_OK) {
			*r = save;
			return e;
		}
		*len = ((uint32_t)(o1 - 192) << 8) + o2 + 192;
	} else if (o1 == 255) {
		if ((e = pgp_rd_be32(r, len)) != PGP_OK) {
			*r = save;
			return e;
		}
	} else {
		*len = (uint32_t)1 << (o1 & 0x1f);
		*partial = 1;
	}
	return PGP_OK;
}

/* The limit a packet body broke, named (limits.h). */
#define BODY_WHAT(limit) ((limit) == PGP_MAX_DATA_BODY ? \
	"packet body larger than 256 MiB (PGP_MAX_DATA_BODY)" : \
	"packet body larger than 1 MiB (PGP_MAX_PACKET_BODY)")

/*
 * Walk the chunks of a partial body (RFC 9580 §4.2.1.4). `first` is the
 * length of the first chunk, whose length octet was already read from *s.
 * With dst == NULL it validates and sums; with dst it copies (second pass
 * over an input already validated). On success *s is past the last chunk.
 */
static pgp_err
partial_walk(pgp_rd *s, uint32_t first, uint8_t *dst, size_t limit,
    size_t *total_out, pgp_diag *diag, uint8_t tag)
{
	size_t total = 0, nchunks = 0, lenoff;
	uint32_t chunk = first;
	int more = 1;
	pgp_err e;

	for (;;) {
		if (++nchunks > PGP_MAX_PARTIAL_CHUNKS)
			return pgp__fail(diag, PGP_ERR_LIMIT, s->off, tag,
			    "more than 65536 partial body chunks (PGP_MAX_PARTIAL_CHUNKS)");
		if (chunk > limit - total)
			return pgp__fail(diag, PGP_ERR_LIMIT, s->off, tag, BODY_WHAT(limit));
		if (dst) {
			if ((e = pgp_rd_copy(s, dst + total, chunk)) != PGP_OK)
				return e;
		} else if ((e = pgp_rd_skip(s, chunk)) != PGP_OK) {
			return pgp__fail(diag, e, s->off, tag,
			    "partial body chunk truncated");
		}
		total += chunk;
		if (!more)
			break;
		lenoff = s->off;
		if ((e = new_len(s, &chunk, &more)) != PGP_OK)
			return pgp__fail(diag, e, lenoff, tag,
			    "partial body length truncated");
	}
	*total_out = total;
	return PGP_OK;
}

/* see packet_int.h */
pgp_err
pgp__pkt_hdr(pgp_rd *r, pgp__hdr *h, pgp_diag *diag)
{
	size_t off = r->off, lenoff;
	uint8_t ctb, o;
	uint16_t l16;
	pgp_err e;

	memset(h, 0, sizeof *h);
	if ((e = pgp_rd_u8(r, &ctb)) != PGP_OK)
		return pgp__fail(diag, PGP_ERR_NOT_FOUND, r->off, -1, "end of input");
	/* RFC 9580 §4.2: bit 7 of the CTB is always one. */
	if (!(ctb & 0x80))
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, -1, "invalid CTB");
	h->new_format = (ctb & 0x40) ? 1 : 0;
	h->tag = h->new_format ? (uint8_t)(ctb & 0x3f) : (uint8_t)((ctb >> 2) & 0x0f);
	if (h->tag == 0)
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, 0, "reserved packet tag 0");
	lenoff = r->off;
	if (h->new_format) {
		e = new_len(r, &h->len, &h->partial);
	} else {
		/* RFC 9580 §4.2.2: legacy length type in the low two bits. */
		switch (ctb & 3) {
		case 0:
			e = pgp_rd_u8(r, &o);
			h->len = o;
			break;
		case 1:
			e = pgp_rd_be16(r, &l16);
			h->len = l16;
			break;
		case 2:
			e = pgp_rd_be32(r, &h->len);
			break;
		default:
			h->indeterminate = 1;
			e = PGP_OK;
			break;
		}
	}
	if (e != PGP_OK)
		return pgp__fail(diag, e, lenoff, h->tag, "packet length truncated");
	return PGP_OK;
}

/* see packet.h */
pgp_err
pgp_pkt_next(pgp_rd *in, pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = *in, body;
	pgp__hdr h;
	uint8_t tag;
	uint32_t len = 0;
	int partial = 0;
	size_t limit, lenoff, total = 0;
	pgp_err e;

	memset(pkt, 0, sizeof *pkt);
	pkt->off = r.off;
	e = pgp__pkt_hdr(&r, &h, diag);
	pkt->new_format = h.new_format;
	pkt->tag = tag = h.tag;
	if (e != PGP_OK)
		return e;
	lenoff = pkt->off + 1; /* the length octets follow the one-octet CTB */
	len = h.len;
	partial = h.partial;
	limit = pgp__pkt_body_limit(tag);
	if (h.indeterminate) {
		/* RFC 9580 §4.2.2: the body runs to the end of input */
		pkt->indeterminate = 1;
		if (r.len > limit)
			return pgp__fail(diag, PGP_ERR_LIMIT, r.off, tag, BODY_WHAT(limit));
		len = (uint32_t)r.len;
	}
	pkt->hdr_len = r.off - pkt->off;

	if (partial) {
		pgp_rd again;
		if (!is_data_tag(tag))
			return pgp__fail(diag, PGP_ERR_MALFORMED, lenoff, tag,
			    "partial body length not allowed for this packet");
		again = r;
		if ((e = partial_walk(&r, len, NULL, limit, &total, diag, tag)) != PGP_OK)
			return e;
		pkt->owned = malloc(total ? total : 1);
		if (!pkt->owned)
			return pgp__fail(diag, PGP_ERR_NOMEM, lenoff, tag,
			    "out of memory joining partial body");
		if ((e = partial_walk(&again, len, pkt->owned, limit, &total,
		    NULL, tag)) != PGP_OK) {
			pgp_pkt_release(pkt);
			return pgp__fail(diag, e, lenoff, tag, "partial body changed");
		}
		pkt->partial = 1;
		pkt->body.p = pkt->owned;
		pkt->body.len = total;
		pkt->body.off = pkt->off + pkt->hdr_len;
	} else {
		if (len > limit)
			return pgp__fail(diag, PGP_ERR_LIMIT, lenoff, tag, BODY_WHAT(limit));
		if ((e = pgp_rd_sub(&r, len, &body)) != PGP_OK)
			return pgp__fail(diag, e, r.off, tag, "packet body truncated");
		pkt->body = body;
	}
	pkt->total_len = r.off - pkt->off;
	*in = r;
	return PGP_OK;
}

/* see packet.h */
void
pgp_pkt_release(pgp_pkt *pkt)
{
	if (!pkt)
		return;
	free(pkt->owned);
	pkt->owned = NULL;
	if (pkt->partial) {
		pkt->body.p = NULL;
		pkt->body.len = 0;
	}
}

/* see packet.h */
const char *
pgp_tag_name(int tag)
{
	switch (tag) {
	case PGP_TAG_PKESK: return "Public-Key Encrypted Session Key";
	case PGP_TAG_SIGNATURE: return "Signature";
	case PGP_TAG_SKESK: return "Symmetric-Key Encrypted Session Key";
	case PGP_TAG_ONE_PASS_SIG: return "One-Pass Signature";
	case PGP_TAG_SECRET_KEY: return "Secret-Key";
	case PGP_TAG_PUBLIC_KEY: return "Public-Key";
	case PGP_TAG_SECRET_SUBKEY: return "Secret-Subkey";
	case PGP_TAG_COMPRESSED: return "Compressed Data";
	case PGP_TAG_SED: return "Symmetrically Encrypted Data";
	case PGP_TAG_MARKER: return "Marker";
	case PGP_TAG_LITERAL: return "Literal Data";
	case PGP_TAG_TRUST: return "Trust";
	case PGP_TAG_USER_ID: return "User ID";
	case PGP_TAG_PUBLIC_SUBKEY: return "Public-Subkey";
	case PGP_TAG_USER_ATTRIBUTE: return "User Attribute";
	case PGP_TAG_SEIPD: return "Symmetrically Encrypted and Integrity Protected Data";
	case PGP_TAG_MDC: return "Modification Detection Code";
	case PGP_TAG_AEAD: return "OCB Encrypted Data";
	case PGP_TAG_PADDING: return "Padding";
	case 60: case 61: case 62: case 63: return "Private or Experimental";
	default: return "Unknown";
	}
}
