/*
 * packet_int.h - internals shared by the packet parsers of pgp/ (sig.c,
 * subpkt.c; header.c and the streaming filter pktskip.c). Not part of the
 * public API (packet.h).
 */
#ifndef PGP_PACKET_INT_H
#define PGP_PACKET_INT_H

#include "err.h"
#include "rd.h"
#include "packet.h"

/* sig.c -> subpkt.c: decode the hashed and unhashed areas (readers
 * over sig->hashed / sig->unhashed, with their input offsets) into the pgp_sig
 * fields. */
pgp_err pgp__sig_decode_subpkts(pgp_sig *sig, const pgp_rd *hashed,
    const pgp_rd *unhashed, pgp_diag *diag);

/* One packet header (RFC 9580 §4.2), as header.c reads it. */
typedef struct pgp__hdr {
	uint8_t tag;
	uint8_t new_format;
	uint32_t len;          /* body length, or the first partial chunk's */
	int partial;           /* §4.2.1.4 partial body length (new format) */
	int indeterminate;     /* legacy length type 3: len is not set */
} pgp__hdr;

/*
 * Reads one packet header at r (advanced past it). PGP_ERR_NOT_FOUND at the
 * end of input, PGP_ERR_MALFORMED for a CTB without bit 7 or tag 0, the
 * reader's error (PGP_ERR_TRUNCATED) when the length octets are cut short;
 * diag as pgp_pkt_next() reports them. The one header decoder of pgp/
 * (pgp_pkt_next, pktskip.c).
 */
pgp_err pgp__pkt_hdr(pgp_rd *r, pgp__hdr *h, pgp_diag *diag);

/* The largest body pgp_pkt_next() accepts for a packet of this tag:
 * PGP_MAX_DATA_BODY for data packets, else PGP_MAX_PACKET_BODY. */
size_t pgp__pkt_body_limit(uint8_t tag);

#endif
