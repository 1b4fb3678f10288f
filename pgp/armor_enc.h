/*
 * armor_enc.h - ASCII armor output with a block kind and armor headers
 * (RFC 9580 §6.2), on top of pgp_armor_encode (armor.h), whose base64 and
 * CRC24 it uses.
 *
 * Output, all lines ending in LF (what GnuPG writes):
 *   -----BEGIN PGP <KIND>-----
 *   Key: Value                     (zero or more armor headers, §6.2.2)
 *                                  (blank line)
 *   base64, 64 characters a line, '=' padded
 *   =XXXX                          (CRC24, §6.1: GnuPG 2.2 requires it on
 *                                   input; RFC 9580 makes it optional)
 *   -----END PGP <KIND>-----
 */
#ifndef PGP_ARMOR_ENC_H
#define PGP_ARMOR_ENC_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "buf.h"
#include "classify.h"

/* One armor header (§6.2.2), e.g. {"Comment", "exported by wotkit"}. */
typedef struct pgp_armor_hdr {
	const char *key;   /* printable US-ASCII, no ':' or space, non-empty */
	const char *value; /* UTF-8, no control characters, non-empty, no
	                      leading or trailing space or tab (the decoder
	                      trims them) */
} pgp_armor_hdr;

/*
 * The kind of block is the pgp_armor_kind of classify.h (one enum for the
 * labels wotkit reads and writes). Only the kinds wotkit writes have a label
 * here: PGP_ARMOR_PUBLIC_KEY "PGP PUBLIC KEY BLOCK", PGP_ARMOR_SIGNATURE
 * "PGP SIGNATURE", PGP_ARMOR_MESSAGE "PGP MESSAGE" (RFC 9580 §6.2.1);
 * NULL for the others (NONE, PRIVATE_KEY, OTHER) and unknown values.
 */
const char *pgp_armor_kind_label(pgp_armor_kind kind);

/*
 * Append the armored form of data[0..len) to out (caller-initialised, its
 * cap applies). PGP_ERR_INVALID for a kind without a label, a bad header (see
 * pgp_armor_hdr) or data == NULL with len > 0; PGP_ERR_LIMIT for data
 * longer than PGP_MAX_ARMOR_DECODED, a header line longer than
 * PGP_MAX_ARMOR_LINE, or out's cap; PGP_ERR_NOMEM. On error out is as it was.
 */
pgp_err pgp_armor_write(pgp_buf *out, pgp_armor_kind kind,
    const pgp_armor_hdr *hdrs, size_t nhdrs, const uint8_t *data, size_t len);

#endif
