/*
 * mont_int.h - modular exponentiation for public RSA operations (RFC 8017
 * §5.2.2 RSAVP1: m = s^e mod n), with Montgomery multiplication over 64-bit
 * limbs. Internal to pgp/ (pk_rsa.c, and the tests).
 *
 * Verification only: the base, exponent and modulus are all public, so the
 * code is not constant-time (it branches on the bits of e and on carries).
 * Never use it with a secret exponent or a secret base.
 *
 * No allocation: every buffer is on the stack, sized from PGP_MAX_MPI_BITS.
 * Reentrant; no state is kept between calls.
 */
#ifndef PGP_MONT_INT_H
#define PGP_MONT_INT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "limits.h"

/* The largest modulus, in 64-bit limbs and in octets. */
#define PGP_MONT_MAX_LIMBS ((PGP_MAX_MPI_BITS + 63) / 64)
#define PGP_MONT_MAX_BYTES (PGP_MONT_MAX_LIMBS * 8)

/*
 * out[0..nlen) = s^e mod n, big-endian, left-padded with zero octets.
 *
 * n, s and e are big-endian magnitudes; leading zero octets are allowed in
 * all three. Requires n odd and n > 1, n at most PGP_MAX_MPI_BITS bits,
 * s < n (s may be 0), e of any length (e = 0 gives 1). nlen is the length of
 * n as given (the caller's k); out must hold nlen octets.
 *
 * PGP_OK, or PGP_ERR_INVALID if a requirement does not hold (nothing is
 * computed then; out is zeroed).
 */
pgp_err pgp__mont_modexp(uint8_t *out, const uint8_t *n, size_t nlen,
    const uint8_t *s, size_t slen, const uint8_t *e, size_t elen);

#endif
