/*
 * crc32_x86.c - CRC-32 (RFC 1952 §8) folded with x86-64 PCLMULQDQ, after
 * V. Gopal, E. Ozturk, J. Guilford, G. Wolrich, W. Feghali, M. Dixon,
 * D. Karakoyunlu, "Fast CRC Computation for Generic Polynomials Using
 * PCLMULQDQ Instruction", Intel white paper 323102, December 2009: fold
 * four 128-bit lanes at a time with carry-less multiplication, fold them
 * into one, reduce it to 64 bits and finish with Barrett reduction.
 * see crc32_int.h
 *
 * Notation. P = x^32 + x^26 + x^23 + x^22 + x^16 + x^12 + x^11 + x^10 +
 * x^8 + x^7 + x^5 + x^4 + x^2 + x + 1. The CRC register c after message M
 * (with the initial register XORed into M's first 32 bits) is M * x^32 mod
 * P. The CRC is bit-reflected: the first bit of M (bit 0 of its first
 * octet) is M's highest coefficient, so when 16 octets are loaded into a
 * 128-bit register v (little-endian), bit i of v is the coefficient of
 * x^(127-i) and the low quadword holds the high half of the polynomial.
 * Likewise a 64-bit word w stands for R(w) = sum w_i x^(63-i).
 *
 * PCLMULQDQ of two such words a, b gives the 127-bit product of the bit
 * strings in bits 0..126 of the result; read as a reflected 128-bit value
 * it is x * R(a) * R(b) (bit i+j of the result, coefficient of x^(127-i-j),
 * comes from x^(63-i) * x^(63-j) = x^(126-i-j)).
 *
 * The constants. K(e) is x^e mod P (degree <= 31) bit-reflected into 33
 * bits: the coefficient of x^j in bit 32 - j (bit 0 is the x^32 place and
 * is 0), i.e. reflect32(x^e mod P) << 1. As a word, R(K(e)) = x^31 * (x^e
 * mod P), so clmul(w, K(e)) = x^32 * R(w) * (x^e mod P): it multiplies by
 * x^(e + 32) modulo P and keeps the product within 127 bits.
 *
 *   fold512 = { K(544), K(480) }  A lane L = H x^64 + L' (H in the low
 *           quadword) is 512 bits ahead of the lane it is folded into:
 *           L x^512 = H x^576 + L' x^512, so H needs x^(576 - 32) and L'
 *           x^(512 - 32); the sum (degree <= 126) is XORed into the lane.
 *   fold128 = { K(160), K(96) }   the same over 128 bits.
 *   reduce  = { K(96), K(64) }    the last lane L = H x^64 + L' (after it,
 *           the message ends): c = L x^32 mod P = H x^96 + L' x^32 mod P.
 *           clmul(H, K(96)) = x^32 * H (x^96 mod P); with L' moved 64 bits
 *           down the register is x^32 * T, T = H (x^96 mod P) + L' x^32,
 *           96 bits in bits 0..95. Its top 32 bits T1 (bits 0..31, masked)
 *           give clmul(T1, K(64)) = x^64 * T1 (x^64 mod P): a word S1 in
 *           the low quadword; with the other 64 bits moved 32 bits down,
 *           S = S1 + T mod x^64 (degree <= 63) is congruent to c.
 *   barrett = { mu, P }  mu = floor(x^64 / P) and P, both of degree 32,
 *           reflected into 33 bits the same way (mu = 0x1F7011641,
 *           P = 0x1DB710641). For deg S < 64, floor(S / P) = q =
 *           floor(S mu / x^64), the top 32 bits of the product:
 *           clmul(S, mu) = x^32 S mu puts q in bits 0..31 (masked);
 *           clmul(q, P) = x^64 q P puts qP in the low quadword, and
 *           S + qP = S mod P = c, in bits 32..63.
 *
 * The values were computed by repeated multiplication by x modulo P
 * (x^e mod P) and polynomial long division (mu), then bit-reflected;
 * tests/unit/test_crc.c computes them again the same way and compares.
 */
#include "crc32_int.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define TGT __attribute__((target("pclmul,sse4.1")))

/* see crc32_int.h and the derivation above */
const pgp__crc32_consts pgp__crc32_k = {
	.fold512 = { 0x154442bd4u, 0x1c6e41596u },  /* K(544), K(480) */
	.fold128 = { 0x1751997d0u, 0x0ccaa009eu },  /* K(160), K(96) */
	.reduce = { 0x0ccaa009eu, 0x163cd6124u },   /* K(96), K(64) */
	.barrett = { 0x1f7011641u, 0x1db710641u },  /* mu, P */
};

TGT static inline __m128i
load16(const uint8_t *p)
{
	return _mm_loadu_si128((const __m128i *)(const void *)p);
}

TGT static inline __m128i
load_k(const uint64_t k[2])
{
	return _mm_loadu_si128((const __m128i *)(const void *)k);
}

/* A lane multiplied by x^(distance) mod P, split as above: low quadword
 * times k[0], high quadword times k[1]. */
TGT static inline __m128i
fold(__m128i lane, __m128i k)
{
	return _mm_xor_si128(_mm_clmulepi64_si128(lane, k, 0x00),
	    _mm_clmulepi64_si128(lane, k, 0x11));
}

/* see crc32_int.h */
TGT uint32_t
pgp__crc32_clmul(const pgp__crc32_consts *k, uint32_t crc, const uint8_t *p, size_t n)
{
	const __m128i low32 = _mm_set_epi32(0, 0, 0, -1);
	__m128i x0, x1, x2, x3, kf, t, s;
	uint32_t c;

	if (n < PGP__CRC32_CLMUL_MIN)
		return pgp__crc32_portable(crc, p, n);
	/* the register enters as the first 32 bits of the message */
	x0 = _mm_xor_si128(load16(p), _mm_cvtsi32_si128((int)~crc));
	x1 = load16(p + 16);
	x2 = load16(p + 32);
	x3 = load16(p + 48);
	p += 64;
	n -= 64;
	kf = load_k(k->fold512);
	for (; n >= 64; p += 64, n -= 64) {
		x0 = _mm_xor_si128(fold(x0, kf), load16(p));
		x1 = _mm_xor_si128(fold(x1, kf), load16(p + 16));
		x2 = _mm_xor_si128(fold(x2, kf), load16(p + 32));
		x3 = _mm_xor_si128(fold(x3, kf), load16(p + 48));
	}
	kf = load_k(k->fold128);
	x0 = _mm_xor_si128(fold(x0, kf), x1);
	x0 = _mm_xor_si128(fold(x0, kf), x2);
	x0 = _mm_xor_si128(fold(x0, kf), x3);
	for (; n >= 16; p += 16, n -= 16)
		x0 = _mm_xor_si128(fold(x0, kf), load16(p));

	/* 128 -> 96 bits (x^32 T), then 96 -> 64 bits (S in the low quadword) */
	kf = load_k(k->reduce);
	t = _mm_xor_si128(_mm_clmulepi64_si128(x0, kf, 0x00), _mm_srli_si128(x0, 8));
	s = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(t, low32), kf, 0x10),
	    _mm_srli_si128(t, 4));
	/* Barrett: q = floor(S mu / x^64), c = S + q P */
	kf = load_k(k->barrett);
	t = _mm_and_si128(_mm_clmulepi64_si128(s, kf, 0x00), low32);
	t = _mm_xor_si128(_mm_clmulepi64_si128(t, kf, 0x10), s);
	c = (uint32_t)_mm_extract_epi32(t, 1);
	/* the last n < 16 octets */
	return pgp__crc32_portable(~c, p, n);
}
#endif
