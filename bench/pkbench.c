/*
 * pkbench.c - public-key verification speed of libpgp, per operation, for
 * bench/pk.sh (which puts `openssl speed` beside it).
 *
 *   pkbench [-t SECONDS]
 *
 * Prints one line per measurement: "<op> <implementation> <microseconds>".
 *   rsa2048/3072/4096  wotkit: pgp_pk_verify (pgp/mont.c + EMSA-PKCS1-v1_5)
 *                      mbedtls-ctx: mbedtls_rsa_rsassa_pkcs1_v15_verify on a
 *                        context set up once
 *                      mbedtls-old: what pk_rsa.c did per call before mont.c
 *                        (import_raw, complete, check_pubkey, verify)
 *                      openssl-inproc: RSA_verify of libcrypto on an RSA
 *                        object set up once, as `openssl speed` does (only
 *                        when built with -DWITH_OPENSSL -lcrypto): the same
 *                        best-of-rounds timing, so load on the machine
 *                        affects both sides alike
 *   ecdsap256/p384     wotkit: pgp_pk_verify (mbedtls ECDSA)
 *   dsa2048            wotkit: pgp_pk_verify (mbedtls bignum DSA)
 *   ed25519            wotkit: pgp_pk_verify (libsodium)
 * RSA keys come from mbedtls_rsa_gen_key (fixed-seed DRBG), signatures from
 * mbedtls; the others are the vectors in vectors/pk/pk_vectors.txt. Every
 * operation is checked to succeed before it is timed. Each time is the best
 * of 400 rounds of SECONDS/400 (default 1 s in all), which filters out the noise
 * of a shared machine.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <mbedtls/ctr_drbg.h>
#include <mbedtls/rsa.h>
#include "pgp/pk.h"
#include "pgp/hash.h"
#ifdef WITH_OPENSSL
#define OPENSSL_SUPPRESS_DEPRECATED /* RSA_verify: what openssl speed times */
#include <openssl/bn.h>
#include <openssl/objects.h>
#include <openssl/rsa.h>
#endif

#define VECTORS "vectors/pk/pk_vectors.txt"
#define MAXB 2048

#define ROUNDS 400
static double round_s = 0.0025;

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

typedef int (*op_fn)(void *);

/* Best-of-ROUNDS microseconds per call of fn(arg). */
static double
timeit(op_fn fn, void *arg)
{
	double best = 1e30, t0, t;
	long n, iters;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		iters = 0;
		t0 = now();
		do {
			for (n = 0; n < 4; n++)
				if (fn(arg) != 0) {
					fprintf(stderr, "pkbench: operation failed\n");
					exit(1);
				}
			iters += 4;
			t = now() - t0;
		} while (t < round_s);
		if (t / (double)iters < best)
			best = t / (double)iters;
	}
	return best * 1e6;
}

typedef struct job {
	pgp_key key;
	pgp_sig sig;
	int hash;
	uint8_t dig[64];
	size_t dlen;
	/* RSA only */
	mbedtls_rsa_context rsa;
	uint8_t n[MAXB], e[4], s[MAXB];
	size_t k;
#ifdef WITH_OPENSSL
	RSA *ossl;
#endif
} job;

static int
op_wotkit(void *arg)
{
	job *j = arg;

	return pgp_pk_verify(&j->key, &j->sig, j->hash, j->dig, j->dlen, NULL);
}

static int
op_mbedtls_ctx(void *arg)
{
	job *j = arg;

	return mbedtls_rsa_rsassa_pkcs1_v15_verify(&j->rsa, NULL, NULL, MBEDTLS_RSA_PUBLIC,
	    MBEDTLS_MD_SHA256, 32, j->dig, j->s);
}

static int
op_mbedtls_old(void *arg)
{
	job *j = arg;
	mbedtls_rsa_context ctx;
	int rc;

	mbedtls_rsa_init(&ctx, MBEDTLS_RSA_PKCS_V15, 0);
	rc = mbedtls_rsa_import_raw(&ctx, j->n, j->k, NULL, 0, NULL, 0, NULL, 0, j->e, 3);
	if (rc == 0)
		rc = mbedtls_rsa_complete(&ctx);
	if (rc == 0)
		rc = mbedtls_rsa_check_pubkey(&ctx);
	if (rc == 0)
		rc = mbedtls_rsa_rsassa_pkcs1_v15_verify(&ctx, NULL, NULL, MBEDTLS_RSA_PUBLIC,
		    MBEDTLS_MD_SHA256, 32, j->dig, j->s);
	mbedtls_rsa_free(&ctx);
	return rc;
}

#ifdef WITH_OPENSSL
static int
op_openssl(void *arg)
{
	job *j = arg;

	return RSA_verify(NID_sha256, j->dig, 32, j->s, (unsigned)j->k, j->ossl) == 1 ? 0 : -1;
}
#endif

static void
set_mpi(pgp_mpi *m, const uint8_t *p, size_t n)
{
	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	memset(m, 0, sizeof *m);
	m->v.p = p;
	m->v.len = n;
	m->bits = (uint16_t)(n * 8);
}

static uint64_t seed = 0x70b3c1a9e2d45f11ULL;

static int
entropy(void *ctx, unsigned char *p, size_t n)
{
	(void)ctx;
	while (n-- > 0) {
		seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
		*p++ = (unsigned char)(seed >> 56);
	}
	return 0;
}

static void
bench_rsa(unsigned bits, mbedtls_ctr_drbg_context *drbg)
{
	static job j;
	char name[32];
	size_t i;

	memset(&j, 0, sizeof j);
	mbedtls_rsa_init(&j.rsa, MBEDTLS_RSA_PKCS_V15, 0);
	if (mbedtls_rsa_gen_key(&j.rsa, mbedtls_ctr_drbg_random, drbg, bits, 65537) != 0) {
		fprintf(stderr, "pkbench: RSA-%u key generation failed\n", bits);
		exit(1);
	}
	j.k = mbedtls_rsa_get_len(&j.rsa);
	j.e[0] = 1;
	j.e[1] = 0;
	j.e[2] = 1;
	mbedtls_rsa_export_raw(&j.rsa, j.n, j.k, NULL, 0, NULL, 0, NULL, 0, NULL, 0);
	for (i = 0; i < 32; i++)
		j.dig[i] = (uint8_t)(i * 7 + 1);
	j.dlen = 32;
	j.hash = PGP_HASH_SHA256;
	if (mbedtls_rsa_rsassa_pkcs1_v15_sign(&j.rsa, mbedtls_ctr_drbg_random, drbg,
	    MBEDTLS_RSA_PRIVATE, MBEDTLS_MD_SHA256, 32, j.dig, j.s) != 0) {
		fprintf(stderr, "pkbench: RSA-%u signing failed\n", bits);
		exit(1);
	}
	j.key.version = j.sig.version = 4;
	j.key.algo = j.sig.pk_algo = PGP_PK_RSA;
	j.sig.hash_algo = PGP_HASH_SHA256;
	set_mpi(&j.key.mpi[0], j.n, j.k);
	set_mpi(&j.key.mpi[1], j.e, 3);
	j.key.nmpi = 2;
	set_mpi(&j.sig.mpi[0], j.s, j.k);
	j.sig.nmpi = 1;
	snprintf(name, sizeof name, "rsa%u", bits);
	printf("%s wotkit %.3f\n", name, timeit(op_wotkit, &j));
	printf("%s mbedtls-ctx %.3f\n", name, timeit(op_mbedtls_ctx, &j));
	printf("%s mbedtls-old %.3f\n", name, timeit(op_mbedtls_old, &j));
#ifdef WITH_OPENSSL
	j.ossl = RSA_new();
	if (!j.ossl || RSA_set0_key(j.ossl, BN_bin2bn(j.n, (int)j.k, NULL),
	    BN_bin2bn(j.e, 3, NULL), NULL) != 1) {
		fprintf(stderr, "pkbench: OpenSSL RSA key setup failed\n");
		exit(1);
	}
	printf("%s openssl-inproc %.3f\n", name, timeit(op_openssl, &j));
	RSA_free(j.ossl);
#endif
	fflush(stdout);
	mbedtls_rsa_free(&j.rsa);
}

static size_t
unhex(uint8_t *out, size_t max, const char *h)
{
	size_t n = 0;
	unsigned v;

	while (h[0] && h[1] && n < max && sscanf(h, "%2x", &v) == 1) {
		out[n++] = (uint8_t)v;
		h += 2;
	}
	return n;
}

/* One case of the vector file by name, as a job; 0 if found. */
static int
load_case(job *j, const char *want, uint8_t bufs[6][MAXB])
{
	static char line[20000];
	char name[64], curve[32], k[12000], d[200], s[4200], ok[16], *tok, *save;
	int algo, hash, i;
	FILE *f = fopen(VECTORS, "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof line, f)) {
		if (sscanf(line, "%63s %d %31s %d %11999s %199s %4199s %15s", name, &algo,
		    curve, &hash, k, d, s, ok) != 8 || strcmp(name, want) != 0)
			continue;
		fclose(f);
		memset(j, 0, sizeof *j);
		j->key.version = j->sig.version = 4;
		j->key.algo = j->sig.pk_algo = (uint8_t)algo;
		j->sig.hash_algo = (uint8_t)hash;
		j->hash = hash;
		j->key.curve = strcmp(curve, "p256") == 0 ? PGP_CURVE_P256 :
		    strcmp(curve, "p384") == 0 ? PGP_CURVE_P384 : PGP_CURVE_NONE;
		j->dlen = unhex(j->dig, sizeof j->dig, d);
		i = 0;
		for (tok = strtok_r(k, ",", &save); tok && i < 4; tok = strtok_r(NULL, ",", &save), i++)
			set_mpi(&j->key.mpi[i], bufs[i], unhex(bufs[i], MAXB, tok));
		j->key.nmpi = (uint8_t)i;
		i = 0;
		for (tok = strtok_r(s, ",", &save); tok && i < 2; tok = strtok_r(NULL, ",", &save), i++)
			set_mpi(&j->sig.mpi[i], bufs[4 + i], unhex(bufs[4 + i], MAXB, tok));
		j->sig.nmpi = (uint8_t)i;
		if (algo == PGP_PK_ED25519) {
			j->key.version = j->sig.version = 6;
			j->key.native = j->key.mpi[0].v;
			j->sig.native = j->sig.mpi[0].v;
		}
		return 0;
	}
	fclose(f);
	return -1;
}

static void
bench_vector(const char *op, const char *vec)
{
	static job j;
	static uint8_t bufs[6][MAXB];

	if (load_case(&j, vec, bufs) != 0) {
		fprintf(stderr, "pkbench: vector %s not found in %s (run from the top)\n",
		    vec, VECTORS);
		exit(1);
	}
	printf("%s wotkit %.3f\n", op, timeit(op_wotkit, &j));
	fflush(stdout);
}

int
main(int argc, char **argv)
{
	static const unsigned char pers[] = "wotkit pkbench";
	mbedtls_ctr_drbg_context drbg;

	if (argc == 3 && strcmp(argv[1], "-t") == 0)
		round_s = atof(argv[2]) / ROUNDS;
	mbedtls_ctr_drbg_init(&drbg);
	if (mbedtls_ctr_drbg_seed(&drbg, entropy, NULL, pers, sizeof pers) != 0)
		return 1;
	bench_rsa(2048, &drbg);
	bench_rsa(3072, &drbg);
	bench_rsa(4096, &drbg);
	bench_vector("ecdsap256", "p256-sha256");
	bench_vector("ecdsap384", "p384-sha384");
	bench_vector("dsa2048", "dsa2048-sha256");
	bench_vector("ed25519", "ed25519-sha256");
	mbedtls_ctr_drbg_free(&drbg);
	return 0;
}
