/*
 * trustbench.c - time of keyring/trust.h's wot_trust_compute over a wotkit
 * keyring (bench/trust.sh builds and runs it):
 *
 *   trustbench KEYRING AT ROOT-FPR|auto [RUNS [OWNERTRUST-OUT]]
 *
 * (auto: the key with the most usable certifications issued; OWNERTRUST-OUT:
 * write the ownertrust used there, in gpg's --export-ownertrust format, to
 * compare with GnuPG.)
 * Opens the keyring, builds the graph at AT (Unix seconds) under the
 * standard policy, makes ROOT ultimately trusted and every key it certified
 * fully trusted (so the web is walked deep), then runs the computation RUNS
 * times (default 20) and prints the best and median wall time, the graph
 * build time, and how many keys each validity got.
 */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "keyring/kr.h"
#include "keyring/wot.h"
#include "keyring/trust.h"

static double
now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

int
main(int argc, char **argv)
{
	int fd, runs = argc > 4 ? atoi(argv[4]) : 20, r, i;
	struct stat st;
	uint8_t *p, *ot;
	kr_keyring *k;
	wot_graph *g;
	wot_trust *t = NULL;
	wot_opts o;
	pgp_fpr root;
	int64_t ri;
	double t0, build_ms, *ms;
	size_t n, count[8] = {0};
	const uint32_t *succ;
	size_t ns, j;

	if (argc < 4 || runs < 1) {
		fprintf(stderr, "usage: trustbench KEYRING AT ROOT-FPR [RUNS]\n");
		return 2;
	}
	if ((fd = open(argv[1], O_RDONLY)) < 0 || fstat(fd, &st) != 0) {
		perror(argv[1]);
		return 2;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED || kr_open(&k, p, (size_t)st.st_size, NULL) != PGP_OK) {
		fprintf(stderr, "%s: not a wotkit keyring\n", argv[1]);
		return 2;
	}
	memset(&root, 0, sizeof root);
	root.len = (uint8_t)(strlen(argv[3]) / 2 <= PGP_FPR_MAX ? strlen(argv[3]) / 2 : 0);
	for (i = 0; i < root.len; i++)
		root.v[i] = (uint8_t)(pgp_hex_digit(argv[3][2 * i]) * 16 + pgp_hex_digit(argv[3][2 * i + 1]));
	o.t = strtoll(argv[2], NULL, 10);
	o.pol = NULL;
	t0 = now_ms();
	if (wot_build(&g, k, &o) != PGP_OK) {
		fprintf(stderr, "wot_build failed\n");
		return 2;
	}
	build_ms = now_ms() - t0;
	n = wot_nnodes(g);
	if (strcmp(argv[3], "auto") == 0) {
		size_t best = 0;
		for (j = 0, ri = -1; j < n; j++) {
			size_t m = wot_succ(g, (uint32_t)j, &succ);
			if (m > best) {
				best = m;
				ri = (int64_t)j;
			}
		}
	} else {
		ri = wot_find_fpr(g, &root);
	}
	if (ri < 0) {
		fprintf(stderr, "root not in the keyring\n");
		return 2;
	}
	ot = calloc(n ? n : 1, 1);
	ms = calloc((size_t)runs, sizeof *ms);
	ot[ri] = WOT_OT_ULTIMATE;
	ns = wot_succ(g, (uint32_t)ri, &succ);
	for (j = 0; j < ns; j++)
		ot[succ[j]] = WOT_OT_FULL;
	if (argc > 5) {
		FILE *of = fopen(argv[5], "w");
		if (of == NULL) {
			perror(argv[5]);
			return 2;
		}
		for (j = 0; j < n; j++)
			if (ot[j]) {
				char hex[2 * PGP_FPR_MAX + 1];
				const wot_node *nd = wot_node_at(g, (uint32_t)j);
				pgp_hex_encode(hex, nd->fpr.v, nd->fpr.len);
				fprintf(of, "%s:%u:\n", hex, ot[j]);
			}
		fclose(of);
	}
	for (r = 0; r < runs; r++) {
		wot_trust_free(t);
		t0 = now_ms();
		if (wot_trust_compute(&t, g, ot, NULL) != PGP_OK) {
			fprintf(stderr, "wot_trust_compute failed\n");
			return 2;
		}
		ms[r] = now_ms() - t0;
	}
	for (j = 0; j < n; j++)
		count[wot_trust_key(t, (uint32_t)j) & 7]++;
	qsort(ms, (size_t)runs, sizeof *ms, cmp_d);
	{
		char hex[2 * PGP_FPR_MAX + 1];
		const wot_node *rn = wot_node_at(g, (uint32_t)ri);
		pgp_hex_encode(hex, rn->fpr.v, rn->fpr.len);
		printf("root: %s\n", hex);
	}
	printf("keys %zu, certifications %zu, introducers set full: %zu\n", n, wot_ncerts(g), ns);
	printf("wot_build %.1f ms; wot_trust_compute best %.2f ms, median %.2f ms (%d runs)\n",
	    build_ms, ms[0], ms[runs / 2], runs);
	printf("validity: %zu ultimate, %zu full, %zu marginal, %zu undefined, %zu unknown, "
	    "%zu expired, %zu revoked\n", count[WOT_V_ULTIMATE], count[WOT_V_FULL],
	    count[WOT_V_MARGINAL], count[WOT_V_UNDEFINED], count[WOT_V_UNKNOWN],
	    count[WOT_V_EXPIRED], count[WOT_V_REVOKED]);
	wot_trust_free(t);
	wot_free(g);
	kr_close(k);
	free(ot);
	free(ms);
	return 0;
}
