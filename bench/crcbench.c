/*
 * crcbench.c - CRC-32 throughput: zlib's crc32() against libpgp's
 * pgp_crc32 (run-time choice), its portable slice-by-16 code and (x86-64
 * with PCLMULQDQ) its folding kernel, for bench/crc.sh.
 *
 *   crcbench [-r RUNS] [-m MIB]
 *
 * One buffer of MIB MiB (default 64) of pseudo-random octets is
 * checksummed whole and in independent calls of 4096, 256 and 64 octets
 * (each call from 0, as the keyring's per-block and per-certificate CRCs
 * are). Each cell is run RUNS times (default 11); the median and the best
 * are printed in GB/s (10^9 octets/s). All implementations must agree on
 * every value; the exit status is 1 otherwise.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zlib.h>
#include "pgp/crc32_int.h"
#include "pgp/hash_int.h"

typedef uint32_t (*crc_fn)(uint32_t, const uint8_t *, size_t);

static uint32_t
f_zlib(uint32_t c, const uint8_t *p, size_t n)
{
	uLong r = c;
	while (n > 0) {
		uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
		r = crc32(r, p, k);
		p += k;
		n -= k;
	}
	return (uint32_t)r;
}

static uint32_t
f_pgp(uint32_t c, const uint8_t *p, size_t n)
{
	return pgp_crc32(c, p, n);
}

static uint32_t
f_portable(uint32_t c, const uint8_t *p, size_t n)
{
	return pgp__crc32_portable(c, p, n);
}

#if defined(__x86_64__)
static uint32_t
f_clmul(uint32_t c, const uint8_t *p, size_t n)
{
	return pgp__crc32_clmul(&pgp__crc32_k, c, p, n);
}
#endif

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* CRCs of buf in calls of `call` octets (0: one call), XORed together so
 * that the work cannot be skipped and the results can be compared. */
static uint32_t
pass(crc_fn f, const uint8_t *buf, size_t n, size_t call)
{
	uint32_t acc = 0;
	size_t off;
	if (call == 0)
		return f(0, buf, n);
	for (off = 0; off + call <= n; off += call)
		acc ^= f(0, buf + off, call) + (uint32_t)off;
	return acc;
}

int
main(int argc, char **argv)
{
	static const size_t calls[] = { 0, 4096, 256, 64 };
	struct { const char *name; crc_fn f; } im[4];
	size_t nim = 0, mib = 64, runs = 11, n, i, c, r;
	double *t;
	uint8_t *buf;
	uint64_t s = 0x9e3779b97f4a7c15ull;
	int bad = 0;

	for (i = 1; i + 1 < (size_t)argc; i += 2) {
		if (strcmp(argv[i], "-r") == 0)
			runs = (size_t)strtoul(argv[i + 1], NULL, 10);
		else if (strcmp(argv[i], "-m") == 0)
			mib = (size_t)strtoul(argv[i + 1], NULL, 10);
	}
	if (i != (size_t)argc || runs == 0 || mib == 0) {
		fprintf(stderr, "usage: crcbench [-r RUNS] [-m MIB]\n");
		return 2;
	}
	n = mib << 20;
	buf = malloc(n);
	t = calloc(runs, sizeof *t);
	if (!buf || !t)
		return 2;
	for (i = 0; i < n; i++) {
		s ^= s << 13, s ^= s >> 7, s ^= s << 17;
		buf[i] = (uint8_t)(s >> 32);
	}
	im[nim].name = "zlib crc32", im[nim++].f = f_zlib;
	im[nim].name = "pgp_crc32", im[nim++].f = f_pgp;
	im[nim].name = "portable", im[nim++].f = f_portable;
#if defined(__x86_64__)
	if (pgp__cpu_features() & PGP__CPU_PCLMUL)
		im[nim].name = "pclmul", im[nim++].f = f_clmul;
#endif
	printf("buffer %zu MiB, %zu runs; pgp_crc32 takes \"%s\"\n", mib, runs, pgp__crc32_impl());
	printf("%-12s %-10s %10s %10s\n", "impl", "call size", "median", "best");
	for (c = 0; c < sizeof calls / sizeof *calls; c++) {
		uint32_t want = pass(f_zlib, buf, n, calls[c]);
		for (i = 0; i < nim; i++) {
			uint32_t got = 0;
			for (r = 0; r < runs; r++) {
				double t0 = now();
				got = pass(im[i].f, buf, n, calls[c]);
				t[r] = now() - t0;
			}
			qsort(t, runs, sizeof *t, cmp_double);
			if (got != want) {
				fprintf(stderr, "MISMATCH: %s, calls of %zu: %08x, zlib %08x\n",
				    im[i].name, calls[c], (unsigned)got, (unsigned)want);
				bad = 1;
			}
			char size[32];
			if (calls[c] == 0)
				snprintf(size, sizeof size, "%zu MiB", mib);
			else
				snprintf(size, sizeof size, "%zu", calls[c]);
			printf("%-12s %-10s %7.2f GB/s %6.2f GB/s\n", im[i].name, size,
			    (double)n / t[runs / 2] / 1e9, (double)n / t[0] / 1e9);
		}
	}
	free(buf);
	free(t);
	return bad;
}
