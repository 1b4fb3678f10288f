/*
 * pktskip.c - drop ignorable packets from a packet stream as it is
 * produced. Framing as RFC 9580 §4.2 (and header.c). see pktskip_int.h
 */
#include <string.h>
#include "limits.h"
#include "packet.h"
#include "packet_int.h"
#include "pktskip_int.h"

enum {
	S_HDR,   /* reading a packet header */
	S_KEEP,  /* copying the body of a kept packet */
	S_DROP,  /* skipping the body of a dropped packet */
	S_PASS,  /* framing not followed: keep everything from here on */
	S_STOP   /* an over-limit header was kept: the stream ends there */
};

/* see pktskip_int.h */
void
pgp__pktskip_init(pgp__pktskip *f, pgp_buf *out)
{
	memset(f, 0, sizeof *f);
	f->out = out;
	f->state = S_HDR;
}

/*
 * The header in f->hdr so far, decoded by header.c's pgp__pkt_hdr: 0 if
 * more octets are needed, -1 if the framing is not one the filter follows
 * (invalid CTB, tag 0, partial or indeterminate length), else 1 with *tag
 * and *len set.
 */
static int
parse_hdr(const pgp__pktskip *f, uint8_t *tag, size_t *len)
{
	pgp_rd r;
	pgp__hdr h;
	pgp_err e;

	pgp_rd_init(&r, f->hdr, f->nhdr);
	if ((e = pgp__pkt_hdr(&r, &h, NULL)) == PGP_ERR_TRUNCATED || e == PGP_ERR_NOT_FOUND)
		return 0;
	if (e != PGP_OK || h.partial || h.indeterminate)
		return -1;
	*tag = h.tag;
	*len = h.len;
	return 1;
}

/* see pktskip_int.h */
pgp_err
pgp__pktskip_push(void *ctx, const uint8_t *p, size_t n)
{
	pgp__pktskip *f = ctx;
	pgp_err e;

	while (n > 0) {
		size_t k;
		uint8_t tag = 0;
		size_t len = 0;
		int r;

		switch (f->state) {
		case S_STOP:
			return PGP_ERR_LIMIT;
		case S_PASS:
			return pgp_buf_append(f->out, p, n);
		case S_KEEP:
		case S_DROP:
			k = n < f->left ? n : f->left;
			if (f->state == S_KEEP) {
				if ((e = pgp_buf_append(f->out, p, k)) != PGP_OK)
					return e;
			} else {
				f->dropped += k;
			}
			p += k;
			n -= k;
			f->left -= k;
			if (f->left == 0) {
				f->state = S_HDR;
				f->nhdr = 0;
			}
			break;
		default: /* S_HDR */
			f->hdr[f->nhdr++] = *p++;
			n--;
			if ((r = parse_hdr(f, &tag, &len)) == 0)
				break;
			if (r < 0) {
				f->state = S_PASS;
				if ((e = pgp_buf_append(f->out, f->hdr, f->nhdr)) != PGP_OK)
					return e;
				break;
			}
			if (len > pgp__pkt_body_limit(tag)) {
				/* pgp_pkt_next() refuses this header: the end */
				f->stopped = 1;
				f->state = S_STOP;
				if ((e = pgp_buf_append(f->out, f->hdr, f->nhdr)) != PGP_OK)
					return e;
				return PGP_ERR_LIMIT;
			}
			/* as pgp_pkt_next() accepts it and the parser skips it */
			if (pgp_tag_ignorable(tag) && len <= PGP_MAX_PACKET_BODY) {
				f->state = S_DROP;
				f->dropped += f->nhdr;
			} else {
				f->state = S_KEEP;
				if ((e = pgp_buf_append(f->out, f->hdr, f->nhdr)) != PGP_OK)
					return e;
			}
			f->left = len;
			if (len == 0) {
				f->state = S_HDR;
				f->nhdr = 0;
			}
			break;
		}
	}
	return PGP_OK;
}

/* see pktskip_int.h */
pgp_err
pgp__pktskip_end(pgp__pktskip *f)
{
	/* a header cut short, or a dropped packet whose body was cut short:
	 * its header stays, and the parser reports the truncation */
	if ((f->state == S_HDR && f->nhdr > 0) || (f->state == S_DROP && f->left > 0))
		return pgp_buf_append(f->out, f->hdr, f->nhdr);
	return PGP_OK;
}
