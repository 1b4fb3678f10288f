/*
 * sha_arm64.c - SHA-1, SHA-256 (FIPS 180-4 §6.1, §6.2) and SHA-512 (§6.4)
 * compression functions with the Armv8 cryptographic extension
 * instructions (Arm ARM: SHA1C/SHA1P/SHA1M/SHA1H/SHA1SU0/SHA1SU1,
 * SHA256H/SHA256H2/SHA256SU0/SHA256SU1; Armv8.2 SHA512H/SHA512H2/
 * SHA512SU0/SHA512SU1) through the ACLE intrinsics of arm_neon.h.
 * Called only when getauxval(AT_HWCAP) reports them (cpu.c). On aarch64 the
 * Makefile compiles this file alone with -march=armv8.2-a+crypto+sha3 (GCC and
 * clang declare the intrinsics only then), so the rest of the build stays
 * plain Armv8-A. Empty on other architectures. tests/unit/test_hash.c compares
 * them with the portable code and mbedtls (every length 0..1024, random
 * chaining values).
 */
#include "hash_int.h"

#if defined(__aarch64__)
#include <arm_neon.h>

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube
 * roots of the first 64 primes */
static const uint32_t K256[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5,
	0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
	0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
	0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
	0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
	0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
	0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
	0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

/* Message words of one 64-octet block, big-endian (§3.1). */
#define LOAD_BE32(p) vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p)))

/* see hash_int.h */
void
pgp__sha1_blocks_ce(uint32_t st[5], const uint8_t *p, size_t nblocks)
{
	/* §4.2.1 */
	static const uint32_t K1[4] = {0x5a827999, 0x6ed9eba1, 0x8f1bbcdc, 0xca62c1d6};
	uint32x4_t abcd = vld1q_u32(st);
	uint32_t e = st[4];

	while (nblocks-- > 0) {
		uint32x4_t m[4], abcd0 = abcd, wk;
		uint32_t e0 = e, en;
		int i;
		for (i = 0; i < 4; i++)
			m[i] = LOAD_BE32(p + 16 * i);
		/* 20 groups of 4 rounds: Ch (0-19), Parity, Maj (40-59), Parity */
		for (i = 0; i < 20; i++) {
			wk = vaddq_u32(m[i & 3], vdupq_n_u32(K1[i / 5]));
			en = vsha1h_u32(vgetq_lane_u32(abcd, 0));
			if (i < 5)
				abcd = vsha1cq_u32(abcd, e, wk);
			else if (i < 10 || i >= 15)
				abcd = vsha1pq_u32(abcd, e, wk);
			else
				abcd = vsha1mq_u32(abcd, e, wk);
			e = en;
			/* W[4i+16..4i+19] (§6.1.2 step 1) */
			if (i < 16)
				m[i & 3] = vsha1su1q_u32(vsha1su0q_u32(m[i & 3], m[(i + 1) & 3],
				    m[(i + 2) & 3]), m[(i + 3) & 3]);
		}
		abcd = vaddq_u32(abcd, abcd0);
		e += e0;
		p += 64;
	}
	vst1q_u32(st, abcd);
	st[4] = e;
}

/* see hash_int.h */
void
pgp__sha256_blocks_ce(uint32_t st[8], const uint8_t *p, size_t nblocks)
{
	uint32x4_t abcd = vld1q_u32(st), efgh = vld1q_u32(st + 4);

	while (nblocks-- > 0) {
		uint32x4_t m[4], abcd0 = abcd, efgh0 = efgh, wk, a;
		int i;
		for (i = 0; i < 4; i++)
			m[i] = LOAD_BE32(p + 16 * i);
		/* 16 groups of 4 rounds (§6.2.2) */
		for (i = 0; i < 16; i++) {
			wk = vaddq_u32(m[i & 3], vld1q_u32(K256 + 4 * i));
			/* W[4i+16..4i+19] from W[4i..4i+15] */
			if (i < 12)
				m[i & 3] = vsha256su1q_u32(vsha256su0q_u32(m[i & 3], m[(i + 1) & 3]),
				    m[(i + 2) & 3], m[(i + 3) & 3]);
			a = abcd;
			abcd = vsha256hq_u32(abcd, efgh, wk);
			efgh = vsha256h2q_u32(efgh, a, wk);
		}
		abcd = vaddq_u32(abcd, abcd0);
		efgh = vaddq_u32(efgh, efgh0);
		p += 64;
	}
	vst1q_u32(st, abcd);
	vst1q_u32(st + 4, efgh);
}

/*
 * SHA-512, two rounds per step. The working variables live in five
 * registers s[0..4] holding pairs (ab, cd, ef, gh, and one spare); each
 * step names which register plays which part (ROT[step % 5]: the pair
 * before the one it updates, ...), so nothing is moved between steps.
 * Step j uses message pair m[j % 8] = (W[2j], W[2j+1]) and, for j < 32,
 * computes W[2j+16..2j+17] (§6.4.2 step 1) into it.
 */
static const uint8_t ROT[5][5] = {
	{0, 1, 2, 3, 4}, {3, 0, 4, 2, 1}, {2, 3, 1, 4, 0}, {4, 2, 0, 1, 3}, {1, 4, 3, 0, 2},
};

/* see hash_int.h */
void
pgp__sha512_blocks_ce(uint64_t st[8], const uint8_t *p, size_t nblocks)
{
	uint64x2_t h[4];
	int i;

	for (i = 0; i < 4; i++)
		h[i] = vld1q_u64(st + 2 * i);
	while (nblocks-- > 0) {
		uint64x2_t s[5], m[8];
		int j;
		for (i = 0; i < 4; i++)
			s[i] = h[i];
		s[4] = h[0];
		for (i = 0; i < 8; i++)
			m[i] = vreinterpretq_u64_u8(vrev64q_u8(vld1q_u8(p + 16 * i)));
		for (j = 0; j < 40; j++) {
			const uint8_t *r = ROT[j % 5];
			uint64x2_t kw, fg, de, sched = m[0];
			kw = vaddq_u64(vld1q_u64(pgp__sha512_k + 2 * j), m[j & 7]);
			fg = vextq_u64(s[r[2]], s[r[3]], 1);
			kw = vextq_u64(kw, kw, 1);
			de = vextq_u64(s[r[1]], s[r[2]], 1);
			s[r[3]] = vaddq_u64(s[r[3]], kw);
			if (j < 32) {
				sched = vextq_u64(m[(j + 4) & 7], m[(j + 5) & 7], 1);
				m[j & 7] = vsha512su0q_u64(m[j & 7], m[(j + 1) & 7]);
			}
			s[r[3]] = vsha512hq_u64(s[r[3]], fg, de);
			if (j < 32)
				m[j & 7] = vsha512su1q_u64(m[j & 7], m[(j + 7) & 7], sched);
			s[r[4]] = vaddq_u64(s[r[1]], s[r[3]]);
			s[r[3]] = vsha512h2q_u64(s[r[3]], s[r[1]], s[r[0]]);
		}
		for (i = 0; i < 4; i++)
			h[i] = vaddq_u64(h[i], s[i]);
		p += 128;
	}
	for (i = 0; i < 4; i++)
		vst1q_u64(st + 2 * i, h[i]);
}
#else
/* ISO C forbids an empty translation unit */
typedef int pgp__sha_arm64_unused;
#endif
