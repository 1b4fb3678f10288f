/*
 * decompress.h - compressed data packets (RFC 9580 §5.6, §9.4) and the
 * decompression budget of a message.
 *
 * A compressed data packet holds one complete message (§10.3), which may
 * itself hold a compressed data packet. Every compressed packet of one
 * message, at every nesting level, draws on ONE budget: a caller that
 * decompresses level after level passes the same budget to each call, so a
 * stack of nested "bombs" cannot multiply the cap (eight levels of 250 MB
 * each are 2 GB together, and stop at PGP_MAX_DECOMPRESSED).
 *
 * Decompression policy:
 *   - output beyond the budget is PGP_ERR_LIMIT (nothing is returned);
 *   - a stream that stops before its end marker, or that zlib rejects, is
 *     PGP_ERR_MALFORMED;
 *   - octets after the end of the deflate/zlib stream are PGP_ERR_MALFORMED
 *     too: §5.6 says the packet body *is* the compressed stream, so extra
 *     octets are not part of any message and a strict reading cannot be
 *     fooled by data hidden behind the end marker;
 *   - BZip2 (§9.4 algorithm 3) and unknown algorithms: PGP_ERR_UNSUPPORTED.
 */
#ifndef PGP_DECOMPRESS_H
#define PGP_DECOMPRESS_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "packet.h"

/* RFC 9580 §9.4 compression algorithms */
enum { PGP_COMP_NONE = 0, PGP_COMP_ZIP = 1, PGP_COMP_ZLIB = 2, PGP_COMP_BZIP2 = 3 };

/*
 * Decompress the body of compressed data packet pkt into *out (malloc'ed,
 * caller frees; a valid pointer even when *out_len is 0). *budget is the
 * number of octets the message's compressed packets may still produce: on
 * success it is lowered by *out_len; more output than *budget is
 * PGP_ERR_LIMIT and leaves *budget unchanged. algo_out (optional) receives
 * the algorithm octet whenever the body has one, also on errors.
 * Start a message with a budget of PGP_MAX_DECOMPRESSED.
 */
pgp_err pgp_decompress_budget(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t *budget, pgp_diag *diag);

/*
 * Receives decompressed octets in order, in pieces of at most 64 KiB; ctx
 * is the caller's. An error return stops the decompression and is passed on.
 */
typedef pgp_err (*pgp_zsink)(void *ctx, const uint8_t *p, size_t n);

/*
 * Streaming form of pgp_decompress_budget(): the output goes to sink as it
 * is produced and nothing is collected here, so memory does not grow with
 * the output (a caller that keeps only part of it, like the message parser
 * dropping padding packets, stays small). Same budget rules and errors;
 * output beyond *budget is never handed to sink. On an error, sink may
 * already have received part of the output.
 */
pgp_err pgp_decompress_to(const pgp_pkt *pkt, uint8_t *algo_out, size_t *budget,
    pgp_zsink sink, void *ctx, pgp_diag *diag);

/* One packet on its own: pgp_decompress_budget() with a fresh budget of
 * PGP_MAX_DECOMPRESSED. Only for a packet that is the sole compressed packet
 * of its message; nested levels must share a budget. */
pgp_err pgp_decompress(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, pgp_diag *diag);

#endif
