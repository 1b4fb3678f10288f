/*
 * hashcmp.c - noise-robust in-process comparison of libpgp and OpenSSL's
 * EVP digests (SHA-1, SHA-256, SHA-512): the best of 600 runs over a
 * 64 KiB buffer each, so other load on the machine mostly drops out.
 * Built and run by bench/hash.sh when <openssl/evp.h> is installed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <openssl/evp.h>
#include "pgp/hash_int.h"

static double
now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int
main(void)
{
	static uint8_t b[65536];
	static const int algs[] = {PGP_HASH_SHA1, PGP_HASH_SHA256, PGP_HASH_SHA512};
	const EVP_MD *mds[3];
	uint8_t o[EVP_MAX_MD_SIZE > PGP_HASH_MAX_LEN ? EVP_MAX_MD_SIZE : PGP_HASH_MAX_LEN];
	unsigned ol;
	size_t i, a, r, n = sizeof b;

	mds[0] = EVP_sha1();
	mds[1] = EVP_sha256();
	mds[2] = EVP_sha512();
	for (i = 0; i < n; i++)
		b[i] = (uint8_t)(i * 7);
	for (a = 0; a < 3; a++) {
		double best_fast = 1e9, best_port = 1e9, best_ossl = 1e9, t0, t;
		for (r = 0; r < 600; r++) {
			t0 = now();
			pgp_hash_buf(algs[a], b, n, o);
			if ((t = now() - t0) < best_fast) best_fast = t;
			t0 = now();
			EVP_Digest(b, n, o, &ol, mds[a], NULL);
			if ((t = now() - t0) < best_ossl) best_ossl = t;
			pgp__hash_force_portable(1);
			t0 = now();
			pgp_hash_buf(algs[a], b, n, o);
			if ((t = now() - t0) < best_port) best_port = t;
			pgp__hash_force_portable(0);
		}
		printf("%-7s libpgp %5.0f MB/s (%s), portable %5.0f MB/s, openssl %5.0f MB/s: %.2fx openssl\n",
		    pgp_hash_name(algs[a]), (double)n / best_fast / 1e6, pgp__hash_impl(algs[a]),
		    (double)n / best_port / 1e6, (double)n / best_ossl / 1e6, best_ossl / best_fast);
	}
	return 0;
}
