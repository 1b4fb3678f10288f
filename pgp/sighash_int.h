/*
 * sighash_int.h - what a signature hashes, per signature type (RFC 9580 §5.2.4),
 * and the final check of a digest against a signature (internal).
 *
 * Usage: pgp__sighash_start() (hash init + v6 salt), then the signed content
 * (document octets, or pgp__sighash_key / _uid / ... for key signatures),
 * then pgp__sighash_check() (hashed part + trailer, prefix, public-key math).
 */
#ifndef PGP_SIGHASH_INT_H
#define PGP_SIGHASH_INT_H

#include "hash_int.h"
#include "packet.h"
#include "cert.h"
#include "sigmemo.h"

pgp_err pgp__sighash_start(pgp_hash *h, const pgp_sig *sig);
/* Key packet: v3/v4 sig 0x99 || 2-octet length; v5 0x9A, v6 0x9B || 4-octet length. */
void pgp__sighash_key(pgp_hash *h, const pgp_sig *sig, const pgp_key *key);
/* User ID 0xB4 / user attribute 0xD1 || 4-octet length || body (v4+); v3: body only. */
void pgp__sighash_uid(pgp_hash *h, const pgp_sig *sig, const pgp_uidc *uid);
/* Add the hashed part and the trailer (§5.2.4), finish, compare the 2-octet
 * prefix (quick reject) and verify with `signer`. PGP_OK or BAD_SIG/...
 * memo (may be NULL): a tag it knows skips the public-key math; a success
 * is recorded in it (sigmemo.h). Data signatures pass NULL. */
pgp_err pgp__sighash_check(pgp_hash *h, const pgp_sig *sig, const pgp_key *signer,
    const pgp_sigmemo *memo, pgp_diag *diag);

/*
 * Text canonicalisation for 0x01 signatures (RFC 9580 §5.2.1.2: line endings
 * converted to CR LF). A line ends at LF; the CRs right before it (any
 * number) belong to the line ending, as do CRs at the very end of the data.
 * So every line is hashed without its trailing CRs, followed by CR LF if it
 * ended in LF. This is what GnuPG and RNP produce and check (corpus:
 * rnp message-trailing-cr.txt, message.text-sig-crcr). Exactly one way,
 * never retried. CRs elsewhere are data.
 */
typedef struct pgp_textcanon {
	size_t pending_cr;   /* CRs seen but not yet known to be data */
} pgp_textcanon;
void pgp__hash_text(pgp_hash *h, pgp_textcanon *st, const uint8_t *p, size_t n);

#endif
