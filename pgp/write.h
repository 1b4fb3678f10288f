/*
 * write.h - packet and certificate writer (RFC 9580 §4.2, §10.1).
 *
 * Everything is appended to a caller-initialised pgp_buf (pgp_buf_init with
 * the caller's cap), so several packets or certificates can go into one
 * buffer. On any error the buffer is left exactly as it was on entry (its
 * length is restored; nothing partial stays behind).
 *
 * Framing: new data always gets a new-format header (RFC 9580 §4.2.1) with
 * the shortest length form:
 *     body length 0..191          1 length octet
 *     body length 192..8383       2 length octets
 *     body length 8384..2^32-1    0xFF + 4 length octets
 * Partial body lengths and legacy (old-format) headers are never produced.
 * Bodies are always written byte for byte as parsed. With PGP_WRITE_KEEP_FRAMING
 * a packet whose original header is known (see pgp_write_pkt and
 * pgp_cert_write) is re-emitted with its original header octets, legacy ones
 * included, so an unmodified certificate comes back byte-exact; otherwise the
 * framing is canonical (bodies byte-exact, headers new-format and shortest).
 */
#ifndef PGP_WRITE_H
#define PGP_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rd.h"
#include "buf.h"
#include "packet.h"
#include "cert.h"

/* Largest header pgp_write_hdr writes: CTB + 0xFF + 4 length octets. */
#define PGP_WRITE_HDR_MAX 6

/* Flags for pgp_write_pkt and pgp_write_opts.flags. */
enum {
	/* Re-emit the original header octets of a packet when known. */
	PGP_WRITE_KEEP_FRAMING = 1u << 0,
	/* Secret-key packets (tags 5, 7): write their public part as a
	 * public-key packet (tag 6, 14) instead of failing. Only when key.c
	 * located the end of the public part (pgp_key.opaque == 0, or a v5/v6
	 * key whose material length field bounds it); else still UNSUPPORTED. */
	PGP_WRITE_SECRET_AS_PUBLIC = 1u << 1,
	/* Drop a user ID, user attribute or subkey when the filter kept none of
	 * its signatures (a component nobody vouches for is noise). */
	PGP_WRITE_DROP_BARE = 1u << 2
};

/*
 * Number of header octets (CTB + length) of a new-format packet with a body
 * of len octets: 2, 3 or 6; 0 when len > 2^32-1 (not representable without
 * partial lengths, which only data packets may use).
 */
size_t pgp_write_hdr_len(size_t len);

/*
 * Append a new-format header for tag (1..63) and a body of len octets.
 * PGP_ERR_INVALID for tag 0 or > 63, PGP_ERR_LIMIT for len > 2^32-1 or when
 * out's cap is reached.
 */
pgp_err pgp_write_hdr(pgp_buf *out, unsigned tag, size_t len);

/* Append header + body (body may be NULL only when len is 0). */
pgp_err pgp_write_packet(pgp_buf *out, unsigned tag, const uint8_t *body, size_t len);

/*
 * Re-emit a packet parsed by pgp_pkt_next. With PGP_WRITE_KEEP_FRAMING and a
 * packet that had one determinate length (neither partial nor legacy
 * indeterminate), the pkt->hdr_len original header octets that precede the
 * body in the input are copied (the input must still be alive); otherwise a
 * canonical new-format header is written around the identical body.
 * (Re-emitting a legacy indeterminate length would swallow whatever follows,
 * and partial chunks were joined on reading: both get canonical framing.)
 */
pgp_err pgp_write_pkt(pgp_buf *out, const pgp_pkt *pkt, unsigned flags);

/* ---- certificates (RFC 9580 §10.1) ---- */

/* What a filter call is about. */
typedef enum pgp_comp_kind {
	PGP_COMP_PRIMARY = 0, /* a signature on the primary key (cert->dsigs) */
	PGP_COMP_LOOSE,       /* a stand-alone key revocation (cert->loose) */
	PGP_COMP_UID,         /* a user ID (cert->uids[index], is_attr 0) */
	PGP_COMP_ATTR,        /* a user attribute (cert->uids[index], is_attr 1) */
	PGP_COMP_SUBKEY       /* a subkey (cert->subs[index]) */
} pgp_comp_kind;

typedef struct pgp_write_item {
	const pgp_cert *cert;
	pgp_comp_kind kind;
	uint32_t index;    /* component index: cert->uids / cert->subs; 0 for
	                      PRIMARY; for LOOSE the index into cert->loose */
	int32_t sig;       /* -1: the component itself (UID, ATTR, SUBKEY only);
	                      else index into the component's signature list
	                      (dsigs, loose, uids[index].sigs, subs[index].sigs) */
	pgp_view body;     /* the signature packet body; for sig == -1 the user
	                      ID / attribute body or the subkey's public body */
} pgp_write_item;

/*
 * Filter: set *keep to 1 (write) or 0 (drop) and return PGP_OK. Any other
 * return aborts the write and is returned by pgp_cert_write (so a filter that
 * cannot decide, e.g. out of memory while verifying, fails closed).
 * Called once per component (sig == -1) before its signatures; when the
 * component is dropped its signatures are dropped without further calls. The
 * primary key itself is never offered (it is the certificate).
 */
typedef pgp_err (*pgp_write_filter)(void *ctx, const pgp_write_item *item, int *keep);

typedef struct pgp_write_opts {
	unsigned flags;          /* PGP_WRITE_* */
	pgp_write_filter filter; /* NULL: keep everything */
	void *ctx;
} pgp_write_opts;

/* Optional counts of one pgp_cert_write call. */
typedef struct pgp_write_stats {
	uint32_t packets;        /* packets written */
	uint32_t sigs_kept, sigs_dropped;
	uint32_t comps_dropped;  /* user IDs, attributes and subkeys dropped */
	uint32_t loose_dups;     /* loose revocations skipped: identical to a dsig */
	uint32_t kept_framing;   /* packets re-emitted with their original header */
} pgp_write_stats;

/*
 * Serialize c as a transferable public key (RFC 9580 §10.1), in this order:
 *   the primary key;
 *   its direct signatures (cert->dsigs: revocations and direct-key
 *     signatures) in stored order;
 *   the loose key revocations attached to it (cert->loose), except those
 *     byte-identical to one of its dsigs;
 *   each user ID and user attribute, in stored order, with its signatures;
 *   each subkey, in stored order, with its signatures.
 * Stored order is input order, so an unfiltered certificate parsed from
 * canonical input is reproduced byte for byte; the writer does not sort.
 * Trust, marker, padding and unknown packets are not part of a pgp_cert and
 * are never written. Secret-key packets give PGP_ERR_UNSUPPORTED unless
 * PGP_WRITE_SECRET_AS_PUBLIC (see there). opts and stats may be NULL.
 * With PGP_WRITE_KEEP_FRAMING the original header of every packet lying in
 * cert->raw is found by one framing pass over cert->raw (not by guessing
 * backwards from the body); packets from elsewhere get canonical framing.
 * Out of memory, the cap of out, or a filter error fail the whole call.
 */
pgp_err pgp_cert_write(pgp_buf *out, const pgp_cert *c, const pgp_write_opts *opts,
    pgp_write_stats *stats);

#endif
