/*
 * sha1_x86.c - SHA-1 compression (FIPS 180-4 §6.1.2) with the x86 SHA
 * extensions (Intel SDM: SHA1RNDS4, SHA1NEXTE, SHA1MSG1, SHA1MSG2).
 * see hash_int.h
 *
 * Register layout: A..D in one register with A in the top dword; E in
 * the top dword of another.  Message words W[t..t+3] sit in dwords 3..0
 * (W[t] on top).  SHA1RNDS4 runs four rounds with the function and
 * constant chosen by its immediate (0: rounds 0-19, ... 3: 60-79) and
 * expects E already added to W[t]; SHA1NEXTE derives that E (rotl 30 of
 * the A four rounds earlier) and adds it to the next message vector.
 */
#include "hash_int.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#define TGT __attribute__((target("sha,sse4.1,ssse3")))

/* Four rounds with message vector m; f is the round-function index. */
#define R4(m, f) do { \
	ew = _mm_sha1nexte_epu32(prev, (m)); \
	prev = abcd; \
	abcd = _mm_sha1rnds4_epu32(abcd, ew, (f)); \
} while (0)

/*
 * §6.1.2 step 1: W[t] = ROTL1(W[t-3] ^ W[t-8] ^ W[t-14] ^ W[t-16]).
 * a = W[t-16..], b = W[t-12..], c = W[t-8..], d = W[t-4..]; MSG1 gives
 * W[t-16] ^ W[t-14], xor c adds W[t-8], MSG2 adds W[t-3] and rotates.
 */
#define SCHED(a, b, c, d) \
	(a) = _mm_sha1msg2_epu32(_mm_xor_si128(_mm_sha1msg1_epu32((a), (b)), (c)), (d))

/* see hash_int.h */
TGT void
pgp__sha1_blocks_ni(uint32_t st[5], const uint8_t *p, size_t nblocks)
{
	const __m128i bswap = _mm_set_epi8(0, 1, 2, 3, 4, 5, 6, 7,
	    8, 9, 10, 11, 12, 13, 14, 15);
	__m128i abcd, e0, save_abcd, ew, prev, m0, m1, m2, m3;

	abcd = _mm_set_epi32((int)st[0], (int)st[1], (int)st[2], (int)st[3]);
	e0 = _mm_set_epi32((int)st[4], 0, 0, 0);
	while (nblocks-- > 0) {
		save_abcd = abcd;
		m0 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 0)), bswap);
		m1 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16)), bswap);
		m2 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 32)), bswap);
		m3 = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 48)), bswap);
		/* rounds 0-3: E comes from the chaining value */
		ew = _mm_add_epi32(e0, m0);
		prev = abcd;
		abcd = _mm_sha1rnds4_epu32(abcd, ew, 0);
		R4(m1, 0);
		R4(m2, 0);
		R4(m3, 0);
		SCHED(m0, m1, m2, m3); R4(m0, 0);    /* 16-19 */
		SCHED(m1, m2, m3, m0); R4(m1, 1);    /* 20-23 */
		SCHED(m2, m3, m0, m1); R4(m2, 1);
		SCHED(m3, m0, m1, m2); R4(m3, 1);
		SCHED(m0, m1, m2, m3); R4(m0, 1);
		SCHED(m1, m2, m3, m0); R4(m1, 1);
		SCHED(m2, m3, m0, m1); R4(m2, 2);    /* 40-43 */
		SCHED(m3, m0, m1, m2); R4(m3, 2);
		SCHED(m0, m1, m2, m3); R4(m0, 2);
		SCHED(m1, m2, m3, m0); R4(m1, 2);
		SCHED(m2, m3, m0, m1); R4(m2, 2);
		SCHED(m3, m0, m1, m2); R4(m3, 3);    /* 60-63 */
		SCHED(m0, m1, m2, m3); R4(m0, 3);
		SCHED(m1, m2, m3, m0); R4(m1, 3);
		SCHED(m2, m3, m0, m1); R4(m2, 3);
		SCHED(m3, m0, m1, m2); R4(m3, 3);    /* 76-79 */
		/* E after 80 rounds is ROTL30 of A from round 76, plus the old E */
		e0 = _mm_sha1nexte_epu32(prev, e0);
		abcd = _mm_add_epi32(abcd, save_abcd);
		p += 64;
	}
	st[0] = (uint32_t)_mm_extract_epi32(abcd, 3);
	st[1] = (uint32_t)_mm_extract_epi32(abcd, 2);
	st[2] = (uint32_t)_mm_extract_epi32(abcd, 1);
	st[3] = (uint32_t)_mm_extract_epi32(abcd, 0);
	st[4] = (uint32_t)_mm_extract_epi32(e0, 3);
}
#endif
