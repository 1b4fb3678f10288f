/* test_sighash.c - text canonicalisation and signature hash framing. */
#include "t.h"
#include "pgp/sighash_int.h"

/* digest of the text canonicalisation of `in`, fed in one piece */
static void
canon_digest(uint8_t out[PGP_HASH_MAX_LEN], const char *in, size_t n, size_t chunk)
{
	pgp_hash h;
	pgp_textcanon tc = {0};
	size_t i;
	pgp_hash_init(&h, PGP_HASH_SHA256);
	for (i = 0; i < n; i += chunk)
		pgp__hash_text(&h, &tc, (const uint8_t *)in + i, n - i < chunk ? n - i : chunk);
	pgp_hash_final(&h, out);
}

static void
expect_canon(const char *in, size_t n, const char *want, size_t wn)
{
	uint8_t a[PGP_HASH_MAX_LEN], b[PGP_HASH_MAX_LEN];
	size_t chunk;
	pgp_hash_buf(PGP_HASH_SHA256, want, wn, b);
	for (chunk = 1; chunk <= n + 1; chunk++) {
		canon_digest(a, in, n, chunk);
		if (memcmp(a, b, 32) != 0) {
			fprintf(stderr, "canonicalisation differs (chunk %zu) for input of %zu octets\n", chunk, n);
			T_ASSERT(0);
			return;
		}
	}
}

#define CANON(in, want) expect_canon(in, sizeof(in) - 1, want, sizeof(want) - 1)

static void
test_lf_becomes_crlf(void)
{
	CANON("a\nb\n", "a\r\nb\r\n");
	CANON("a\r\nb", "a\r\nb");
	CANON("", "");
	CANON("\n\n", "\r\n\r\n");
}

static void
test_trailing_crs_belong_to_line_end(void)
{
	/* rnp message-trailing-cr.txt shape: CRs before LF and at the end go */
	CANON("x\r\r\r\n\ry\nz\r", "x\r\n\ry\r\nz");
	CANON("a\r\r\nb", "a\r\nb");
	CANON("\r", "");
}

static void
test_inner_cr_is_data(void)
{
	CANON("a\rb", "a\rb");
	CANON("a\r\rb\n", "a\r\rb\r\n");
	CANON("\rx", "\rx");
}

static void
test_random_chunking(void)
{
	/* any split of the input gives the same digest as one piece */
	char buf[700];
	size_t i, trial;
	srand(7);
	for (trial = 0; trial < 50; trial++) {
		uint8_t one[PGP_HASH_MAX_LEN], many[PGP_HASH_MAX_LEN];
		pgp_hash h;
		pgp_textcanon tc = {0};
		size_t n = (size_t)rand() % sizeof buf, pos = 0;
		static const char alphabet[] = "ab \r\n\r\r\n";
		for (i = 0; i < n; i++)
			buf[i] = alphabet[rand() % 8];
		canon_digest(one, buf, n, n + 1);
		pgp_hash_init(&h, PGP_HASH_SHA256);
		while (pos < n) {
			size_t k = 1 + (size_t)rand() % 9;
			if (k > n - pos)
				k = n - pos;
			pgp__hash_text(&h, &tc, (const uint8_t *)buf + pos, k);
			pos += k;
		}
		pgp_hash_final(&h, many);
		T_EQ_MEM(one, many, 32);
	}
}

int
main(void)
{
	T_RUN(test_lf_becomes_crlf);
	T_RUN(test_trailing_crs_belong_to_line_end);
	T_RUN(test_inner_cr_is_data);
	T_RUN(test_random_chunking);
	return T_DONE();
}
