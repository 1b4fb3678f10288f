/*
 * pktskip.c - drop ignorable packets from a packet stream as it is
 * produced. Framing as RFC 9580 §4.2 (and header.c). see pktskip_int.h
 */
#include <string.h>
#include "limits.h"
#include "packet.h"
#include "pktskip_int.h"

enum {
	S_HDR,   /* reading a packet header */
	S_KEEP,  /* copying the body of a kept packet */
	S_DROP,  /* skipping the body of a dropped packet */
	S_PASS   /* framing not followed: keep everything from here on */
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
 * The header in f->hdr so far: 0 if more octets are needed, -1 if the
 * framing is not one the filter follows (invalid CTB, tag 0, partial or
 * indeterminate length), else 1 with *tag and *len set.
 */
static int
parse_hdr(const pgp__pktskip *f, uint8_t *tag, size_t *len)
{
	const uint8_t *h = f->hdr;
	uint8_t ctb = h[0];
	size_t need, i;

	if (!(ctb & 0x80))
		return -1;
	if (ctb & 0x40) {
		/* §4.2.1 new format */
		*tag = ctb & 0x3f;
		if (f->nhdr < 2)
			return 0;
		if (h[1] < 192) {
			*len = h[1];
			need = 2;
		} else if (h[1] < 224) {
			need = 3;
			if (f->nhdr >= need)
				*len = ((size_t)(h[1] - 192) << 8) + h[2] + 192;
		} else if (h[1] == 255) {
			need = 6;
			if (f->nhdr >= need)
				*len = (size_t)h[2] << 24 | (size_t)h[3] << 16 |
				    (size_t)h[4] << 8 | h[5];
		} else {
			return -1; /* partial body length */
		}
	} else {
		/* §4.2.2 legacy format */
		*tag = (ctb >> 2) & 0x0f;
		switch (ctb & 3) {
		case 0: need = 2; break;
		case 1: need = 3; break;
		case 2: need = 5; break;
		default: return -1; /* indeterminate length */
		}
		if (f->nhdr >= need)
			for (*len = 0, i = 1; i < need; i++)
				*len = *len << 8 | h[i];
	}
	if (*tag == 0)
		return -1;
	return f->nhdr >= need ? 1 : 0;
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
