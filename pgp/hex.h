/*
 * hex.h - hexadecimal text for key IDs and fingerprints (upper case, as
 * GnuPG and pgpkeys.git write them).
 */
#ifndef PGP_HEX_H
#define PGP_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Write the n octets of p as 2n upper-case hex digits and a NUL into out
 * (room for 2n + 1 characters). */
void pgp_hex_encode(char *out, const uint8_t *p, size_t n);

/* The same in lower case, as git writes object ids. */
void pgp_hex_encode_lower(char *out, const uint8_t *p, size_t n);

/* Exactly 2n hex digits (either case) in the NUL-terminated s into
 * out[0..n): 0, or -1 when s has another length or a non-digit. */
int pgp_hex_decode(uint8_t *out, const char *s, size_t n);

/* The value of one hex digit (either case), or -1. */
int pgp_hex_digit(int c);

#endif
