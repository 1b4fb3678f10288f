/*
 * crc32.h - CRC-32 as gzip, PNG and zlib's crc32() compute it (RFC 1952
 * §8; the "CRC-32/ISO-HDLC" of ITU-T V.42): polynomial 0x04C11DB7
 * bit-reflected (0xEDB88320), initial value and final XOR 0xFFFFFFFF.
 *
 * Not part of OpenPGP (ASCII armor uses CRC-24, armor.h); the library
 * offers it for checksummed container formats such as the wotkit keyring
 * file (docs/keyring-format.md). On x86-64 CPUs with PCLMULQDQ it folds
 * with carry-less multiplication (crc32_int.h); elsewhere, and for short
 * inputs, it is table-driven. Every path gives the same value.
 */
#ifndef PGP_CRC32_H
#define PGP_CRC32_H

#include <stddef.h>
#include <stdint.h>

/* CRC-32 of p[0..n) continuing from crc: 0 to start, then the value a
 * previous call returned, so crc(crc(0, a), b) == crc(0, a || b).
 * p may be NULL when n is 0. Thread-safe. */
uint32_t pgp_crc32(uint32_t crc, const void *p, size_t n);

#endif
