/*
 * crc32.c - CRC-32 (RFC 1952 §8): the dispatcher and the portable
 * slice-by-16 table implementation. see crc32.h, crc32_int.h
 *
 * Bit-reflected CRC (RFC 1952 §8, ITU-T V.42): octets enter low bit first,
 * the register's bit 0 holds the coefficient of x^31, and one input bit b
 * updates the register c as c = (c >> 1) ^ (0xEDB88320 if (c ^ b) & 1).
 *
 * Slicing (the "slice-by-8" table method widened to 16 octets): T[0][v] is
 * the register after the eight bits of octet v enter an all-zero register;
 * T[k][v] = T[k-1][v] >> 8 ^ T[0][T[k-1][v] & 0xff] is the same followed
 * by k zero octets. Sixteen octets at once are then the XOR of one lookup
 * per octet, in the table of the number of octets that follow it (the
 * register is first XORed into the first four); the last n % 16 octets go
 * one at a time through T[0]. Sixteen rather than eight octets: twice the
 * independent lookups per step, about 1.7x the speed here (bench/crc.sh).
 *
 * The tables (16 KiB) are built on first use. One thread builds them while
 * others wait for it (a three-state atomic flag); after that, reads need no
 * synchronisation beyond the acquire load of the flag.
 */
#include <sched.h>
#include <stdatomic.h>
#include "crc32_int.h"
#include "hash_int.h"

#define CRC32_POLY_REFLECTED 0xEDB88320u /* x^32 + x^26 + ... + 1, reflected */

enum { TABLES_NONE, TABLES_BUILDING, TABLES_READY };

static uint32_t tables[16][256];
static atomic_int tables_state;

static void
build_tables(void)
{
	uint32_t v, c;
	int k, bit;
	for (v = 0; v < 256; v++) {
		c = v;
		for (bit = 0; bit < 8; bit++)
			c = (c >> 1) ^ (CRC32_POLY_REFLECTED & (0u - (c & 1u)));
		tables[0][v] = c;
	}
	for (k = 1; k < 16; k++)
		for (v = 0; v < 256; v++)
			tables[k][v] = (tables[k - 1][v] >> 8) ^ tables[0][tables[k - 1][v] & 0xffu];
}

static const uint32_t (*
crc_tables(void))[256]
{
	int s = atomic_load_explicit(&tables_state, memory_order_acquire);
	if (s != TABLES_READY) {
		int expect = TABLES_NONE;
		if (atomic_compare_exchange_strong_explicit(&tables_state, &expect, TABLES_BUILDING,
		    memory_order_acquire, memory_order_acquire)) {
			build_tables();
			atomic_store_explicit(&tables_state, TABLES_READY, memory_order_release);
		} else {
			while (atomic_load_explicit(&tables_state, memory_order_acquire) != TABLES_READY)
				(void)sched_yield();
		}
	}
	return (const uint32_t (*)[256])tables;
}

static uint32_t
le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* see crc32_int.h */
uint32_t
pgp__crc32_portable(uint32_t crc, const uint8_t *p, size_t n)
{
	const uint32_t (*t)[256] = crc_tables();
	uint32_t c = ~crc;
	for (; n >= 16; p += 16, n -= 16) {
		uint32_t w0 = c ^ le32(p), w1 = le32(p + 4), w2 = le32(p + 8), w3 = le32(p + 12);
		c = t[15][w0 & 0xffu] ^ t[14][(w0 >> 8) & 0xffu] ^ t[13][(w0 >> 16) & 0xffu] ^
		    t[12][w0 >> 24] ^ t[11][w1 & 0xffu] ^ t[10][(w1 >> 8) & 0xffu] ^
		    t[9][(w1 >> 16) & 0xffu] ^ t[8][w1 >> 24] ^ t[7][w2 & 0xffu] ^
		    t[6][(w2 >> 8) & 0xffu] ^ t[5][(w2 >> 16) & 0xffu] ^ t[4][w2 >> 24] ^
		    t[3][w3 & 0xffu] ^ t[2][(w3 >> 8) & 0xffu] ^ t[1][(w3 >> 16) & 0xffu] ^
		    t[0][w3 >> 24];
	}
	for (; n > 0; p++, n--)
		c = (c >> 8) ^ t[0][(c ^ *p) & 0xffu];
	return ~c;
}

static int
use_clmul(void)
{
#if defined(__x86_64__)
	return (pgp__cpu_features() & PGP__CPU_PCLMUL) != 0;
#else
	return 0;
#endif
}

/* see crc32_int.h */
const char *
pgp__crc32_impl(void)
{
	return use_clmul() ? "pclmul" : "portable";
}

/* see crc32.h */
uint32_t
pgp_crc32(uint32_t crc, const void *p, size_t n)
{
	if (n == 0)
		return crc;
#if defined(__x86_64__)
	if (n >= PGP__CRC32_CLMUL_MIN && use_clmul())
		return pgp__crc32_clmul(&pgp__crc32_k, crc, p, n);
#endif
	return pgp__crc32_portable(crc, p, n);
}
