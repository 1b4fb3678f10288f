/*
 * test_hash.c - pgp/hash.h: known answers for every algorithm (FIPS 180-4
 * examples as published in the NIST CSRC "Example Values", FIPS 202 /
 * NIST SHA-3 examples, RFC 1321 §A.5, the RIPEMD-160 reference page),
 * accelerated vs portable differential tests, split updates, and copying
 * a context by assignment.
 */
#include <stdint.h>
#include <mbedtls/sha1.h>
#include <mbedtls/sha256.h>
#include <mbedtls/sha512.h>
#include "pgp/hash_int.h"
#include "t.h"

#define ABC "abc"
#define M448 "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
#define M896 "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn" \
	"hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
#define MILLION_A NULL /* 1,000,000 x 'a' */

typedef struct {
	int alg;
	const char *msg; /* MILLION_A for one million 'a' */
	const char *hex;
} kat;

static const kat kats[] = {
	{PGP_HASH_MD5, "", "d41d8cd98f00b204e9800998ecf8427e"},
	{PGP_HASH_MD5, ABC, "900150983cd24fb0d6963f7d28e17f72"},
	{PGP_HASH_MD5, "message digest", "f96b697d7cb7938d525a2f31aaf161d0"},
	{PGP_HASH_MD5, MILLION_A, "7707d6ae4e027c70eea2a935c2296f21"},
	{PGP_HASH_RIPEMD160, "", "9c1185a5c5e9fc54612808977ee8f548b2258d31"},
	{PGP_HASH_RIPEMD160, ABC, "8eb208f7e05d987a9b044a8e98c6b087f15a0bfc"},
	{PGP_HASH_RIPEMD160, M448, "12a053384a9c0c88e405a06c27dcf49ada62eb2b"},
	{PGP_HASH_RIPEMD160, MILLION_A, "52783243c1697bdbe16d37f97f68f08325dc1528"},

	{PGP_HASH_SHA1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
	{PGP_HASH_SHA1, ABC, "a9993e364706816aba3e25717850c26c9cd0d89d"},
	{PGP_HASH_SHA1, M448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
	{PGP_HASH_SHA1, M896, "a49b2446a02c645bf419f995b67091253a04a259"},
	{PGP_HASH_SHA1, MILLION_A, "34aa973cd4c4daa4f61eeb2bdbad27316534016f"},

	{PGP_HASH_SHA224, "", "d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f"},
	{PGP_HASH_SHA224, ABC, "23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7"},
	{PGP_HASH_SHA224, M448, "75388b16512776cc5dba5da1fd890150b0c6455cb4f58b1952522525"},
	{PGP_HASH_SHA224, M896, "c97ca9a559850ce97a04a96def6d99a9e0e0e2ab14e6b8df265fc0b3"},
	{PGP_HASH_SHA224, MILLION_A, "20794655980c91d8bbb4c1ea97618a4bf03f42581948b2ee4ee7ad67"},

	{PGP_HASH_SHA256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{PGP_HASH_SHA256, ABC, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
	{PGP_HASH_SHA256, M448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
	{PGP_HASH_SHA256, M896, "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"},
	{PGP_HASH_SHA256, MILLION_A, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},

	{PGP_HASH_SHA384, "", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da"
	    "274edebfe76f65fbd51ad2f14898b95b"},
	{PGP_HASH_SHA384, ABC, "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed"
	    "8086072ba1e7cc2358baeca134c825a7"},
	{PGP_HASH_SHA384, M448, "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6"
	    "b0455a8520bc4e6f5fe95b1fe3c8452b"},
	{PGP_HASH_SHA384, M896, "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712"
	    "fcc7c71a557e2db966c3e9fa91746039"},
	{PGP_HASH_SHA384, MILLION_A, "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b"
	    "07b8b3dc38ecc4ebae97ddd87f3d8985"},

	{PGP_HASH_SHA512, "", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce"
	    "47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"},
	{PGP_HASH_SHA512, ABC, "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a"
	    "2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	{PGP_HASH_SHA512, M448, "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c335"
	    "96fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"},
	{PGP_HASH_SHA512, M896, "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018"
	    "501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"},
	{PGP_HASH_SHA512, MILLION_A, "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973eb"
	    "de0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b"},

	{PGP_HASH_SHA3_256, "", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"},
	{PGP_HASH_SHA3_256, ABC, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"},
	{PGP_HASH_SHA3_256, M448, "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376"},
	{PGP_HASH_SHA3_256, M896, "916f6061fe879741ca6469b43971dfdb28b1a32dc36cb3254e812be27aad1d18"},
	{PGP_HASH_SHA3_256, MILLION_A, "5c8875ae474a3634ba4fd55ec85bffd661f32aca75c6d699d0cdcb6c115891c1"},

	{PGP_HASH_SHA3_512, "", "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
	    "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26"},
	{PGP_HASH_SHA3_512, ABC, "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
	    "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0"},
	{PGP_HASH_SHA3_512, M448, "04a371e84ecfb5b8b77cb48610fca8182dd457ce6f326a0fd3d7ec2f1e91636d"
	    "ee691fbe0c985302ba1b0d8dc78c086346b533b49c030d99a27daf1139d6e75e"},
	{PGP_HASH_SHA3_512, M896, "afebb2ef542e6579c50cad06d2e578f9f8dd6881d7dc824d26360feebf18a4fa"
	    "73e3261122948efcfd492e74e82e2189ed0fb440d187f382270cb455f21dd185"},
	{PGP_HASH_SHA3_512, MILLION_A, "3c3a876da14034ab60627c077bb98f7e120a2a5370212dffb3385a18d4f38859"
	    "ed311d0a9d5141ce9cc5c66ee689b266a8aa18ace8282a0e0db596c90b0a7b87"},
};

static const int all_algs[] = {
	PGP_HASH_MD5, PGP_HASH_SHA1, PGP_HASH_RIPEMD160, PGP_HASH_SHA256, PGP_HASH_SHA384,
	PGP_HASH_SHA512, PGP_HASH_SHA224, PGP_HASH_SHA3_256, PGP_HASH_SHA3_512
};
/* algorithms with a second (accelerated) implementation */
static const int fast_algs[] = {
	PGP_HASH_SHA1, PGP_HASH_SHA224, PGP_HASH_SHA256, PGP_HASH_SHA384, PGP_HASH_SHA512
};
#define NELEM(a) (sizeof(a) / sizeof((a)[0]))

/* xorshift64*: deterministic test data and split points */
static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;

static uint64_t
rng(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 0x2545f4914f6cdd1dULL;
}

static void
fill(uint8_t *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(rng() >> 56);
}

/* Hash p[0..n) in random-sized update() calls (including empty ones). */
static void
hash_split(int alg, const uint8_t *p, size_t n, uint8_t out[PGP_HASH_MAX_LEN])
{
	pgp_hash h;
	size_t off = 0, k;
	T_EQ_INT(pgp_hash_init(&h, alg), PGP_OK);
	while (off < n) {
		k = (size_t)(rng() % 3 == 0 ? rng() % 8 : rng() % (n - off + 1));
		if (k > n - off)
			k = n - off;
		pgp_hash_update(&h, p + off, k);
		off += k;
	}
	pgp_hash_final(&h, out);
}

static void
check_kats(void)
{
	static uint8_t million[1000000];
	uint8_t want[PGP_HASH_MAX_LEN], got[PGP_HASH_MAX_LEN];
	size_t i, j, wl;
	pgp_hash h;

	memset(million, 'a', sizeof million);
	for (i = 0; i < NELEM(kats); i++) {
		const kat *k = &kats[i];
		wl = t_unhex(want, sizeof want, k->hex);
		T_EQ_INT(wl, pgp_hash_len(k->alg));
		if (k->msg == MILLION_A) {
			/* whole buffer, then 1000 x 1000 octets */
			T_EQ_INT(pgp_hash_buf(k->alg, million, sizeof million, got), PGP_OK);
			if (memcmp(got, want, wl) != 0)
				fprintf(stderr, "KAT %s million-a one-shot\n", pgp_hash_name(k->alg));
			T_EQ_MEM(got, want, wl);
			T_EQ_INT(pgp_hash_init(&h, k->alg), PGP_OK);
			for (j = 0; j < 1000; j++)
				pgp_hash_update(&h, million, 1000);
			pgp_hash_final(&h, got);
		} else {
			T_EQ_INT(pgp_hash_buf(k->alg, k->msg, strlen(k->msg), got), PGP_OK);
		}
		if (memcmp(got, want, wl) != 0)
			fprintf(stderr, "KAT %s \"%.20s\" failed\n", pgp_hash_name(k->alg),
			    k->msg ? k->msg : "million a");
		T_EQ_MEM(got, want, wl);
		/* the rest of the output buffer is zeroed */
		for (j = wl; j < PGP_HASH_MAX_LEN; j++)
			T_EQ_INT(got[j], 0);
	}
}

/* Every KAT through the accelerated paths (when present). */
static void
test_kat_default(void)
{
	pgp__hash_force_portable(0);
	check_kats();
}

/* Every KAT through the portable paths. */
static void
test_kat_portable(void)
{
	pgp__hash_force_portable(1);
	check_kats();
	pgp__hash_force_portable(0);
}

static void
test_meta(void)
{
	pgp_hash h;
	uint8_t out[PGP_HASH_MAX_LEN];
	T_EQ_INT(pgp_hash_init(&h, 0), PGP_ERR_UNSUPPORTED);
	T_EQ_INT(pgp_hash_init(&h, 4), PGP_ERR_UNSUPPORTED);   /* reserved */
	T_EQ_INT(pgp_hash_init(&h, 13), PGP_ERR_UNSUPPORTED);  /* reserved */
	T_EQ_INT(pgp_hash_buf(255, "x", 1, out), PGP_ERR_UNSUPPORTED);
	T_EQ_INT(pgp_hash_len(13), 0);
	T_EQ_STR(pgp_hash_name(13), "unknown");
	T_EQ_STR(pgp_hash_name(PGP_HASH_SHA3_512), "SHA3-512");
	T_EQ_STR(pgp__hash_impl(PGP_HASH_MD5), "mbedtls");
	T_EQ_INT(pgp__cpu_features(), pgp__cpu_features()); /* cached, idempotent */
	T_ASSERT(pgp__cpu_features() & PGP__CPU_DETECTED);
	pgp__hash_force_portable(1);
	T_EQ_STR(pgp__hash_impl(PGP_HASH_SHA256), "mbedtls");
	T_EQ_STR(pgp__hash_impl(PGP_HASH_SHA512), "portable");
	pgp__hash_force_portable(0);
	printf("# cpu features 0x%x; SHA-1 %s, SHA-256 %s, SHA-512 %s\n", pgp__cpu_features(),
	    pgp__hash_impl(PGP_HASH_SHA1), pgp__hash_impl(PGP_HASH_SHA256),
	    pgp__hash_impl(PGP_HASH_SHA512));
	if (!(pgp__cpu_features() & (PGP__CPU_SHANI | PGP__CPU_ARM_SHA2)))
		printf("skip - no SHA-NI or Armv8 SHA2: the SHA-1/SHA-256 differential tests compare portable with itself\n");
	if (!(pgp__cpu_features() & (PGP__CPU_AVX2 | PGP__CPU_ARM_SHA512)))
		printf("skip - no AVX2 or Armv8.2 SHA512: the SHA-512 differential tests compare portable with itself\n");
}

/* mbedtls one-shot, independent of our buffering and padding. */
static void
oracle(int alg, const uint8_t *p, size_t n, uint8_t out[PGP_HASH_MAX_LEN])
{
	memset(out, 0, PGP_HASH_MAX_LEN);
	switch (alg) {
	case PGP_HASH_SHA1: mbedtls_sha1_ret(p, n, out); break;
	case PGP_HASH_SHA224: mbedtls_sha256_ret(p, n, out, 1); break;
	case PGP_HASH_SHA256: mbedtls_sha256_ret(p, n, out, 0); break;
	case PGP_HASH_SHA384: mbedtls_sha512_ret(p, n, out, 1); break;
	case PGP_HASH_SHA512: mbedtls_sha512_ret(p, n, out, 0); break;
	default: break;
	}
}

/*
 * For every length 0..1024 (and some longer ones that use the 4-block
 * AVX2 path with each remainder): accelerated one-shot, accelerated in
 * random chunks, portable in random chunks and mbedtls all agree.
 */
static void
test_differential(void)
{
	static uint8_t buf[8192];
	uint8_t a[PGP_HASH_MAX_LEN], b[PGP_HASH_MAX_LEN], c[PGP_HASH_MAX_LEN], o[PGP_HASH_MAX_LEN];
	size_t i, n, bad = 0;

	for (i = 0; i < NELEM(fast_algs); i++) {
		int alg = fast_algs[i];
		for (n = 0; n <= 1024 + 64; n++) {
			size_t len = n <= 1024 ? n : 1024 + (size_t)(rng() % (sizeof buf - 1024));
			fill(buf, len);
			pgp__hash_force_portable(0);
			pgp_hash_buf(alg, buf, len, a);
			hash_split(alg, buf, len, b);
			pgp__hash_force_portable(1);
			hash_split(alg, buf, len, c);
			pgp__hash_force_portable(0);
			oracle(alg, buf, len, o);
			if (memcmp(a, o, PGP_HASH_MAX_LEN) || memcmp(b, o, PGP_HASH_MAX_LEN) ||
			    memcmp(c, o, PGP_HASH_MAX_LEN)) {
				if (bad++ < 5)
					fprintf(stderr, "%s: mismatch at length %zu\n",
					    pgp_hash_name(alg), len);
			}
		}
	}
	T_EQ_INT(bad, 0);
}

/* Block functions directly, from random chaining values. */
static void
test_blocks(void)
{
	static uint8_t buf[128 * 9];
	uint64_t s0[8], s1[8];
	size_t nb, r;

	for (r = 0; r < 20; r++) {
		for (nb = 0; nb <= 9; nb++) {
			size_t i;
			for (i = 0; i < 8; i++)
				s0[i] = s1[i] = rng();
			fill(buf, sizeof buf);
			pgp__sha512_blocks_c(s0, buf, nb);
#if defined(__x86_64__) || defined(__i386__)
			if (pgp__cpu_features() & PGP__CPU_AVX2)
				pgp__sha512_blocks_avx2(s1, buf, nb);
			else
				pgp__sha512_blocks_c(s1, buf, nb);
#elif defined(__aarch64__)
			if (pgp__cpu_features() & PGP__CPU_ARM_SHA512)
				pgp__sha512_blocks_ce(s1, buf, nb);
			else
				pgp__sha512_blocks_c(s1, buf, nb);
#else
			pgp__sha512_blocks_c(s1, buf, nb);
#endif
			T_EQ_MEM(s0, s1, sizeof s0);
#if defined(__x86_64__) || defined(__i386__)
			if (pgp__cpu_features() & PGP__CPU_SHANI) {
				uint32_t w0[8], w1[8];
				void (*b256)(uint32_t *, const uint8_t *, size_t) = pgp__sha256_blocks_ni;
				void (*b1)(uint32_t *, const uint8_t *, size_t) = pgp__sha1_blocks_ni;
#elif defined(__aarch64__)
			if (pgp__cpu_features() & PGP__CPU_ARM_SHA2) {
				uint32_t w0[8], w1[8];
				void (*b256)(uint32_t *, const uint8_t *, size_t) = pgp__sha256_blocks_ce;
				void (*b1)(uint32_t *, const uint8_t *, size_t) = pgp__sha1_blocks_ce;
#else
			if (0) {
				uint32_t w0[8], w1[8];
				void (*b256)(uint32_t *, const uint8_t *, size_t) = NULL;
				void (*b1)(uint32_t *, const uint8_t *, size_t) = NULL;
#endif
				mbedtls_sha256_context m;
				mbedtls_sha1_context m1;
				for (i = 0; i < 8; i++)
					w0[i] = w1[i] = (uint32_t)rng();
				mbedtls_sha256_init(&m);
				memcpy(m.state, w0, sizeof w0);
				for (i = 0; i < nb; i++)
					mbedtls_internal_sha256_process(&m, buf + 64 * i);
				b256(w1, buf, nb);
				T_EQ_MEM(m.state, w1, sizeof w1);
				mbedtls_sha1_init(&m1);
				memcpy(m1.state, w0, sizeof m1.state);
				for (i = 0; i < nb; i++)
					mbedtls_internal_sha1_process(&m1, buf + 64 * i);
				memcpy(w1, w0, sizeof w0);
				b1(w1, buf, nb);
				T_EQ_MEM(m1.state, w1, sizeof m1.state);
			}
		}
	}
}

/* Hash a prefix, copy the context by assignment, finish both differently. */
static void
test_copy(void)
{
	static uint8_t buf[700];
	uint8_t d1[PGP_HASH_MAX_LEN], d2[PGP_HASH_MAX_LEN], w1[PGP_HASH_MAX_LEN],
	    w2[PGP_HASH_MAX_LEN];
	size_t i, pre, s1 = 211, s2 = 150;
	pgp_hash h, c;

	fill(buf, sizeof buf);
	for (i = 0; i < NELEM(all_algs); i++) {
		int alg = all_algs[i];
		for (pre = 0; pre < 300; pre += 37) {
			T_EQ_INT(pgp_hash_init(&h, alg), PGP_OK);
			pgp_hash_update(&h, buf, pre);
			c = h;
			pgp_hash_update(&h, buf + 300, s1);
			pgp_hash_update(&c, buf + 300 + s1, s2);
			pgp_hash_final(&h, d1);
			pgp_hash_final(&c, d2);
			/* one-shot references: prefix || suffix */
			T_EQ_INT(pgp_hash_init(&h, alg), PGP_OK);
			pgp_hash_update(&h, buf, pre);
			pgp_hash_update(&h, buf + 300, s1);
			pgp_hash_final(&h, w1);
			T_EQ_INT(pgp_hash_init(&h, alg), PGP_OK);
			pgp_hash_update(&h, buf, pre);
			pgp_hash_update(&h, buf + 300 + s1, s2);
			pgp_hash_final(&h, w2);
			T_EQ_MEM(d1, w1, PGP_HASH_MAX_LEN);
			T_EQ_MEM(d2, w2, PGP_HASH_MAX_LEN);
			T_ASSERT(memcmp(d1, d2, PGP_HASH_MAX_LEN) != 0);
		}
	}
}

/* Split updates for the algorithms without a second implementation. */
static void
test_split_all(void)
{
	static uint8_t buf[1200];
	uint8_t a[PGP_HASH_MAX_LEN], b[PGP_HASH_MAX_LEN];
	size_t i, r, n, bad = 0;

	for (i = 0; i < NELEM(all_algs); i++) {
		for (r = 0; r < 200; r++) {
			n = (size_t)(rng() % sizeof buf);
			fill(buf, n);
			pgp_hash_buf(all_algs[i], buf, n, a);
			hash_split(all_algs[i], buf, n, b);
			if (memcmp(a, b, PGP_HASH_MAX_LEN) != 0 && bad++ < 5)
				fprintf(stderr, "%s: split mismatch at length %zu\n",
				    pgp_hash_name(all_algs[i]), n);
		}
	}
	T_EQ_INT(bad, 0);
}

int
main(void)
{
	T_RUN(test_meta);
	T_RUN(test_kat_default);
	T_RUN(test_kat_portable);
	T_RUN(test_differential);
	T_RUN(test_blocks);
	T_RUN(test_copy);
	T_RUN(test_split_all);
	return T_DONE();
}
