/*
 * sigmemo.h - a memo of signatures whose public-key math was already
 * checked (by the keyring builder), so that evaluating a certificate from
 * an indexed keyring skips the expensive part and keeps everything else.
 *
 * A memo only ever replaces the public-key operation of a signature over a
 * certificate part. The digest is always recomputed from the certificate in
 * hand, and time, policy, critical subpackets and binding semantics are
 * evaluated as without a memo, so a verdict through a memo equals the verdict
 * without it. The tag binds everything the math depends on:
 *
 *   tag = SHA-256("wotkit sigmemo v1" 00 || fprlen || signer fingerprint ||
 *                 pk_algo || hash_algo || digest ||
 *                 nmpi || (bits16 || len16 || MPI octets)* || len16 || native)
 *         truncated to its first PGP_SIGMEMO_TAG_LEN octets
 *
 * (bits16, len16: 2-octet big-endian; MPI octets as stored.)
 */
#ifndef PGP_SIGMEMO_H
#define PGP_SIGMEMO_H

#include <stddef.h>
#include <stdint.h>
#include "packet.h"

#define PGP_SIGMEMO_TAG_LEN 16

typedef struct pgp_sigmemo {
	/* 1 if a signature with this tag verified before: the math is skipped.
	 * NULL: never. Must be safe to call from several threads when the
	 * memo is shared by them. */
	int (*known)(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN]);
	/* Called after the math succeeded (or was known), with the tag; NULL:
	 * not called. The keyring builder collects tags here. */
	void (*record)(void *ctx, const uint8_t tag[PGP_SIGMEMO_TAG_LEN]);
	void *ctx;
} pgp_sigmemo;

/* The tag of `sig` by `signer` over content whose digest (dlen octets,
 * including the 2 octets of sig->prefix) is `digest`. */
void pgp_sigmemo_tag(uint8_t tag[PGP_SIGMEMO_TAG_LEN], const pgp_key *signer,
    const pgp_sig *sig, const uint8_t *digest, size_t dlen);

#endif
