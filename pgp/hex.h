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

/* The value of one hex digit (either case), or -1. */
int pgp_hex_digit(int c);

#endif
