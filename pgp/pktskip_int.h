/*
 * pktskip_int.h - drop ignorable packets from a packet stream while it is being
 * produced (internal to the message parser, message.c).
 *
 * A decompressed level of a message is a packet sequence. Marker, padding
 * and non-critical (40-63) packets in it are skipped by the parser anyway
 * (RFC 9580 §4.3, §5.8, §5.14), so they need not be kept in memory: a
 * compressed packet that inflates to gigabytes of padding then costs no
 * memory, only its share of the decompression budget. Everything else is
 * kept verbatim, and whatever the filter does not fully understand is kept
 * too, for the parser to judge:
 *   - only a packet that pgp_pkt_next() would accept and the parser would
 *     skip is dropped: an ignorable tag with a definite length of at most
 *     PGP_MAX_PACKET_BODY;
 *   - from the first invalid CTB, partial or indeterminate length on, the
 *     rest of the stream is kept as it is;
 *   - a dropped packet cut short by the end of the stream leaves its header
 *     in the output, so the parser still reports it truncated.
 * Offsets in the kept data count only the octets kept.
 *
 * A kept packet whose definite length is over what pgp_pkt_next() accepts
 * for its tag (pgp__pkt_body_limit) ends the stream: the parser refuses
 * that header with PGP_ERR_LIMIT before reading its body, so nothing after
 * it can matter. Its header is kept, f->stopped is set and push returns
 * PGP_ERR_LIMIT to stop the decompression: a compressed literal naming
 * 1 GiB is refused after a few octets of output, not after inflating the
 * whole PGP_MAX_DECOMPRESSED budget into memory. The caller treats
 * (PGP_ERR_LIMIT, stopped) as the end of the stream.
 */
#ifndef PGP_PKTSKIP_INT_H
#define PGP_PKTSKIP_INT_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "err.h"

typedef struct pgp__pktskip {
	pgp_buf *out;       /* the packets kept */
	uint8_t hdr[6];     /* the header being read (CTB + up to 5 length octets) */
	size_t nhdr;
	size_t left;        /* body octets of the current packet still to come */
	int state;          /* see pktskip.c */
	size_t dropped;     /* octets dropped so far */
	int stopped;        /* an over-limit header ended the stream (see above) */
} pgp__pktskip;

void pgp__pktskip_init(pgp__pktskip *f, pgp_buf *out);
/* A pgp_zsink (decompress.h): ctx is the pgp__pktskip. */
pgp_err pgp__pktskip_push(void *ctx, const uint8_t *p, size_t n);
/* The end of the stream: keep what a truncated packet left. */
pgp_err pgp__pktskip_end(pgp__pktskip *f);

#endif
