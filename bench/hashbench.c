/*
 * hashbench.c - hash one file with libpgp and print the digest in hex,
 * in sha256sum's format ("<hex>  <file>"), for bench/hash.sh.
 *
 *   hashbench [-p] [-v] ALG FILE
 *     ALG  MD5 SHA1 RIPEMD160 SHA224 SHA256 SHA384 SHA512 SHA3-256 SHA3-512
 *     -p   force the portable code paths (no SHA-NI / AVX2)
 *     -v   name the implementation on stderr
 *
 * The file is mmap'ed (MAP_POPULATE) and hashed in 1 MiB update() calls.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "pgp/hash_int.h"

/* RFC 9580 text names: SHA256, SHA512, SHA3-256, ... */
static int
alg_by_name(const char *s)
{
	return pgp_hash_by_name(s, strlen(s));
}

int
main(int argc, char **argv)
{
	const size_t chunk = 1u << 20;
	int i = 1, verbose = 0, alg, fd;
	struct stat sb;
	const uint8_t *p = NULL;
	uint8_t out[PGP_HASH_MAX_LEN];
	size_t n, off, k;
	pgp_hash h;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-p") == 0)
			pgp__hash_force_portable(1);
		else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else
			break;
	}
	if (argc - i != 2 || (alg = alg_by_name(argv[i])) == 0) {
		fprintf(stderr, "usage: hashbench [-p] [-v] ALG FILE\n");
		return 2;
	}
	if ((fd = open(argv[i + 1], O_RDONLY)) < 0 || fstat(fd, &sb) != 0) {
		perror(argv[i + 1]);
		return 2;
	}
	n = (size_t)sb.st_size;
	if (n > 0) {
		void *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
		if (m == MAP_FAILED) {
			perror("mmap");
			return 2;
		}
		(void)madvise(m, n, MADV_SEQUENTIAL);
		p = m;
	}
	if (verbose)
		fprintf(stderr, "%s: %s\n", pgp_hash_name(alg), pgp__hash_impl(alg));
	pgp_hash_init(&h, alg);
	for (off = 0; off < n; off += k) {
		k = n - off < chunk ? n - off : chunk;
		pgp_hash_update(&h, p + off, k);
	}
	pgp_hash_final(&h, out);
	for (off = 0; off < pgp_hash_len(alg); off++)
		printf("%02x", out[off]);
	printf("  %s\n", argv[i + 1]);
	close(fd);
	return 0;
}
