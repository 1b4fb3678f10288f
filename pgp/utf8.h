/*
 * utf8.h - UTF-8 as RFC 3629 defines it: the one decoder of wotkit (armor
 * header values, user IDs in human and JSON output).
 */
#ifndef PGP_UTF8_H
#define PGP_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length (1..4) of the valid UTF-8 sequence at p[0..n), with its code point
 * in *cp (cp may be NULL); 0 when n is 0 or the sequence is invalid
 * (RFC 3629 §3, §4: no overlong form, no surrogate, nothing above U+10FFFF,
 * no truncated sequence).
 */
size_t pgp_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp);
/* 1 if p[0..n) is entirely valid UTF-8, else 0. */
int pgp_utf8_valid(const uint8_t *p, size_t n);

#endif
