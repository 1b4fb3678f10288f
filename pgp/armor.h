/*
 * armor.h - ASCII armor (RFC 9580 §6) and the Cleartext Signature Framework
 * (RFC 9580 §7).
 *
 * Lifetimes: pgp_armor.headers and pgp_cleartext.hash_headers are views into
 * the caller's input, which must outlive them. pgp_armor.data,
 * pgp_cleartext.text and pgp_cleartext.sig are owned (malloc'ed) and released
 * by pgp_armor_release() / pgp_cleartext_release(). Functions that fill a
 * pgp_buf initialise it themselves: on success the caller frees it with
 * pgp_buf_free(); on error it is left empty (nothing to free).
 *
 * Decoding rules (one way, no retries):
 *  - lines end in LF or CRLF; trailing spaces and tabs are ignored on every
 *    armor line (BEGIN, headers, body, checksum, END);
 *  - an armor block starts at a line beginning "-----BEGIN PGP " and must be
 *    exactly "-----BEGIN <label>-----", label = "PGP " + [A-Z0-9 ,/] (< 64);
 *  - header lines "Key: Value" (or "Key:") run until a blank line (empty or
 *    only whitespace, as GnuPG). The blank line may be missing only when
 *    there are no headers at all and the first line is base64 or the END line;
 *  - base64 body: characters outside the base64 alphabet (including spaces
 *    inside a line) are PGP_ERR_MALFORMED with diag->offset at the character.
 *    GnuPG skips such characters; we do not. '=' padding is optional;
 *  - optional checksum line "=" + 4 base64 characters (RFC 9580 §6.1). If
 *    present it MUST match: a mismatch is PGP_ERR_MALFORMED "armor checksum
 *    mismatch". NOTE: this is GnuPG 2.2's behaviour and deliberately stricter
 *    than RFC 9580 §6.1, which says an implementation MUST NOT reject an
 *    object whose CRC24 disagrees;
 *  - "-----END <label>-----" with the same label ends the block; any other
 *    line starting with "-----" in the body is PGP_ERR_MALFORMED; input that
 *    ends before the END line is PGP_ERR_TRUNCATED;
 *  - armor lines longer than PGP_MAX_ARMOR_LINE and decoded data larger than
 *    PGP_MAX_ARMOR_DECODED give PGP_ERR_LIMIT.
 */
#ifndef PGP_ARMOR_H
#define PGP_ARMOR_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rd.h"
#include "buf.h"

#define PGP_ARMOR_LABEL_MAX 64

typedef struct pgp_armor {
	char label[PGP_ARMOR_LABEL_MAX]; /* NUL-terminated, e.g. "PGP PUBLIC KEY BLOCK" */
	size_t begin_off;   /* offset of the BEGIN line in the input */
	size_t end_off;     /* offset just past the END line (and its line ending) */
	pgp_view headers;   /* raw header lines (with line endings), blank line excluded */
	uint8_t *data;      /* decoded octets (malloc'ed; NULL when data_len is 0) */
	size_t data_len;
	uint8_t has_crc;    /* a checksum line was present */
	uint8_t crc_ok;     /* ... and it matched (always 1 when OK is returned and has_crc) */
} pgp_armor;

/* 1 if some line of the input starts with "-----BEGIN PGP " (the first line,
 * or any line after a LF), else 0. Cleartext messages count. */
int pgp_armor_is_armored(const uint8_t *in, size_t len);

/*
 * Find and decode the next armored block whose BEGIN line starts at or after
 * *pos (*pos is taken to be at a line start). Text before the BEGIN line is
 * skipped. A "-----BEGIN PGP SIGNED MESSAGE-----" line is not a block: it
 * and the dash-escaped text after it are skipped like any other text, so the
 * following "PGP SIGNATURE" block is returned (use pgp_cleartext_parse() to
 * get the signed text). On PGP_OK, *out is filled (release it with
 * pgp_armor_release()) and *pos = out->end_off. PGP_ERR_NOT_FOUND when there
 * is no further BEGIN line. On any error *out is zeroed and *pos unchanged;
 * diag (optional) gets the offset and a static reason.
 */
pgp_err pgp_armor_next(pgp_armor *out, const uint8_t *in, size_t len,
    size_t *pos, pgp_diag *diag);

void pgp_armor_release(pgp_armor *a);

/*
 * Decode every armored block in the input (any label) and concatenate their
 * data into *out (used for keyrings that are concatenations of armored
 * certificates). PGP_ERR_NOT_FOUND if there is no block; the first error of
 * any block fails the whole call. The total is capped at
 * PGP_MAX_ARMOR_DECODED.
 */
pgp_err pgp_armor_decode_all(pgp_buf *out, const uint8_t *in, size_t len,
    pgp_diag *diag);

/*
 * Armor data under label (e.g. "PGP SIGNATURE"; must start with "PGP ", only
 * [A-Z0-9 ,/], shorter than PGP_ARMOR_LABEL_MAX, else PGP_ERR_INVALID).
 * Output: BEGIN line, no headers, a blank line, base64 in 64-column lines
 * with '=' padding, a CRC24 checksum line, END line; all lines end in LF.
 * The checksum is emitted although RFC 9580 §6.1 says it SHOULD NOT be,
 * because GnuPG 2.2 expects it. data longer than PGP_MAX_ARMOR_DECODED is
 * PGP_ERR_LIMIT.
 */
pgp_err pgp_armor_encode(pgp_buf *out, const char *label,
    const uint8_t *data, size_t len);

/* CRC-24 of RFC 9580 §6.1 (init 0xB704CE, generator 0x864CFB). */
uint32_t pgp_crc24(const uint8_t *p, size_t n);

/* ---- Cleartext Signature Framework (RFC 9580 §7) ---- */

#define PGP_CLEARTEXT_MAX_HASHES 8

typedef struct pgp_cleartext {
	pgp_view hash_headers; /* raw "Hash: ..." lines (view into the input) */
	uint8_t hash_ids[PGP_CLEARTEXT_MAX_HASHES]; /* PGP_HASH_* named, deduplicated */
	uint8_t n_hash;        /* 0: no Hash header */
	uint8_t odd_dash;      /* 1: some text line began with '-' not followed by
	                        * ' ' (kept verbatim; RFC 9580 §7.2 SHOULD warn) */
	uint8_t *text;         /* signed text, dash-unescaped (malloc'ed; NULL if text_len 0) */
	size_t text_len;
	uint8_t *sig;          /* decoded signature block(s) (malloc'ed) */
	size_t sig_len;
	size_t begin_off;      /* offset of "-----BEGIN PGP SIGNED MESSAGE-----" */
	size_t end_off;        /* offset just past the last signature END line */
} pgp_cleartext;

/*
 * Parse the first cleartext signed message in the input (RFC 9580 §7.1):
 *   "-----BEGIN PGP SIGNED MESSAGE-----"
 *   zero or more "Hash: NAME[, NAME...]" lines (names from RFC 9580 §9.5,
 *     e.g. SHA256; an unknown name or any other header line is MALFORMED,
 *     "NotDashEscaped:" is UNSUPPORTED)
 *   one blank line (required)
 *   dash-escaped text lines (at least one line)
 *   "-----BEGIN PGP SIGNATURE-----" ... "-----END PGP SIGNATURE-----"
 *   optionally more PGP SIGNATURE blocks (their data is concatenated)
 *   only whitespace after that (anything else is MALFORMED).
 * Text before the BEGIN line is ignored (out->begin_off says where the
 * message starts). out->text is the octets between the blank line and the
 * line ending before the signature's BEGIN line (that line ending is not part
 * of the text, RFC 9580 §7.2), with a leading "- " removed from each line.
 * The text's own line endings (LF or CRLF) are kept as in the input; hash
 * pgp_cleartext_canon() of it. An unescaped text line starting with "-----"
 * is MALFORMED. PGP_ERR_NOT_FOUND if there is no BEGIN PGP SIGNED MESSAGE
 * line. On error *out is zeroed. When n_hash > 0 the verifier must reject a
 * signature whose hash algorithm is not listed (RFC 9580 §6.2.2.3, §7.1).
 */
pgp_err pgp_cleartext_parse(pgp_cleartext *out, const uint8_t *in, size_t len,
    pgp_diag *diag);

void pgp_cleartext_release(pgp_cleartext *c);

/*
 * The exact octets a cleartext signature is computed over (RFC 9580 §7.2):
 * the text's lines (split at LF, a CR before the LF dropped), each with
 * trailing spaces and tabs removed, joined with CRLF, no final line ending.
 */
pgp_err pgp_cleartext_canon(pgp_buf *out, const uint8_t *text, size_t len);

/* Receives the octets of a cleartext form in order, in pieces of at most
 * 64 KiB; an error return stops the walk and is passed on. */
typedef pgp_err (*pgp_cleartext_sink)(void *ctx, const uint8_t *p, size_t n);

/*
 * pgp_cleartext_canon() streamed: the same octets go to emit as they are
 * made, never held whole (a verifier hashes them: memory stays that of the
 * text, not twice it).
 */
pgp_err pgp_cleartext_canon_to(const uint8_t *text, size_t len, pgp_cleartext_sink emit,
    void *ctx);

/*
 * The authenticated text of a cleartext message, as a file: what `verify
 * --output` and `sopv inline-verify` write. text/len is pgp_cleartext.text
 * (dash-unescaped). Each line with its trailing spaces and tabs removed
 * (they are not signed, RFC 9580 §7.2), followed by its own line ending as
 * in the message (LF or CR LF); the last line has none, since the line
 * ending before the signature's BEGIN line is not part of the signed text
 * (§7.1). So the output is the signed text, pgp_cleartext_canon(), with
 * line endings as they were in the message: a text signature does not
 * distinguish LF from CR LF (§5.2.1.2). gpgv 2.2 and sq/sqop 0.27 write the
 * same octets plus one line ending after the last line (the GnuPG habit
 * RFC 9580 §7.1 rules out): vectors/message/NOTES. out is initialised here
 * (capped at PGP_MAX_DATA_BODY); free it with pgp_buf_free().
 */
pgp_err pgp_cleartext_output(pgp_buf *out, const uint8_t *text, size_t len);

/*
 * pgp_cleartext_output() made in place: text[0..*len) (a pgp_cleartext.text
 * the caller owns) becomes the output form and *len its length (never
 * longer). Hash pgp_cleartext_canon_to() of the text BEFORE this: the
 * canonical form cannot be recovered from the output form (a CR before
 * trailing spaces is text in one and a line ending in the other).
 */
pgp_err pgp_cleartext_output_inplace(uint8_t *text, size_t *len);

#endif
