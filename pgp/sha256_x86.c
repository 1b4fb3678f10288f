/*
 * sha256_x86.c - SHA-256 compression (FIPS 180-4 §6.2.2) with the x86
 * SHA extensions (Intel SDM: SHA256RNDS2, SHA256MSG1, SHA256MSG2).
 * see hash_int.h
 *
 * Register layout (Intel SHA extensions): SHA256RNDS2 keeps the state
 * in two registers, "ABEF" and "CDGH", with A and C in the top dword.
 * Two rounds take W[t]+K[t] from dword 0 and W[t+1]+K[t+1] from dword 1;
 * after two rounds the old ABEF is the new CDGH, so the two registers
 * swap roles every call.  Message words W[t..t+3] sit in dwords 0..3.
 */
#include "hash_int.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define TGT __attribute__((target("sha,sse4.1,ssse3")))

/* FIPS 180-4 §4.2.2 */
static const uint32_t K256[64] __attribute__((aligned(16))) = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2
};

/* Four rounds t..t+3 with message vector m = W[t..t+3]. */
#define R4(m, t) do { \
	__m128i wk_ = _mm_add_epi32((m), _mm_load_si128((const __m128i *)&K256[t])); \
	s1 = _mm_sha256rnds2_epu32(s1, s0, wk_); \
	wk_ = _mm_shuffle_epi32(wk_, 0x0e); \
	s0 = _mm_sha256rnds2_epu32(s0, s1, wk_); \
} while (0)

/*
 * §6.2.2 step 1: W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16].
 * With a = W[t-16..], b = W[t-12..], c = W[t-8..], d = W[t-4..]:
 * MSG1(a, b) adds s0(W[t-15..t-12]) to W[t-16..t-13]; the W[t-7..t-4]
 * terms are alignr(d, c); MSG2 adds s1 of the previous two words.
 * The result replaces a.
 */
#define SCHED(a, b, c, d) \
	(a) = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_sha256msg1_epu32((a), (b)), \
	    _mm_alignr_epi8((d), (c), 4)), (d))

/* see hash_int.h */
TGT void
pgp__sha256_blocks_ni(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11,
	    4, 5, 6, 7, 0, 1, 2, 3);
	__m128i s0, s1, save0, save1, m0, m1, m2, m3;

	s0 = _mm_set_epi32((int)st[0], (int)st[1], (int)st[4], (int)st[5]);
	s1 = _mm_set_epi32((int)st[2], (int)st[3], (int)st[6], (int)st[7]);
	while (nblocks-- > 0) {
		save0 = s0;
		save1 = s1;
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
		R4(m0, 0);
		R4(m1, 4);
		R4(m2, 8);
		R4(m3, 12);
		SCHED(m0, m1, m2, m3); R4(m0, 16);
		SCHED(m1, m2, m3, m0); R4(m1, 20);
		SCHED(m2, m3, m0, m1); R4(m2, 24);
		SCHED(m3, m0, m1, m2); R4(m3, 28);
		SCHED(m0, m1, m2, m3); R4(m0, 32);
		SCHED(m1, m2, m3, m0); R4(m1, 36);
		SCHED(m2, m3, m0, m1); R4(m2, 40);
		SCHED(m3, m0, m1, m2); R4(m3, 44);
		SCHED(m0, m1, m2, m3); R4(m0, 48);
		SCHED(m1, m2, m3, m0); R4(m1, 52);
		SCHED(m2, m3, m0, m1); R4(m2, 56);
		SCHED(m3, m0, m1, m2); R4(m3, 60);
		s0 = _mm_add_epi32(s0, save0);
		s1 = _mm_add_epi32(s1, save1);
		p += 64;
	}
	st[0] = (uint32_t)_mm_extract_epi32(s0, 3);
	st[1] = (uint32_t)_mm_extract_epi32(s0, 2);
	st[4] = (uint32_t)_mm_extract_epi32(s0, 1);
	st[5] = (uint32_t)_mm_extract_epi32(s0, 0);
	st[2] = (uint32_t)_mm_extract_epi32(s1, 3);
	st[3] = (uint32_t)_mm_extract_epi32(s1, 2);
	st[6] = (uint32_t)_mm_extract_epi32(s1, 1);
	st[7] = (uint32_t)_mm_extract_epi32(s1, 0);
}
#endif
