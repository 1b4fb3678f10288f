/* test_decompress.c - compressed data packets (RFC 9580 §5.6) and the
 * decompression budget shared by all levels of a message. */
#include <stdint.h>
#include <zlib.h>
#include "t.h"
#include "pgp/decompress.h"
#include "pgp/decompress_int.h"
#include "pgp/limits.h"
#include "pgp/packet.h"

static pgp_pkt
mkpkt(int tag, const uint8_t *p, size_t n)
{
	pgp_pkt k;
	memset(&k, 0, sizeof k);
	k.tag = (uint8_t)tag;
	k.new_format = 1;
	pgp_rd_init(&k.body, p, n);
	k.body.off = 100; /* pretend the body starts at offset 100 */
	return k;
}

static uint8_t *
mkcomp(int algo, int wbits, const uint8_t *src, size_t n, size_t *out_len)
{
	z_stream z;
	size_t cap = compressBound((uLong)n) + 64;
	uint8_t *out = malloc(cap + 1);
	if (!out)
		return NULL;
	out[0] = (uint8_t)algo;
	memset(&z, 0, sizeof z);
	if (deflateInit2(&z, 9, Z_DEFLATED, wbits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(out);
		return NULL;
	}
	z.next_in = (Bytef *)(uintptr_t)src;
	z.avail_in = (uInt)n;
	z.next_out = out + 1;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END) {
		deflateEnd(&z);
		free(out);
		return NULL;
	}
	*out_len = 1 + z.total_out;
	deflateEnd(&z);
	return out;
}

static uint8_t *
sample(size_t n)
{
	uint8_t *p = malloc(n ? n : 1);
	size_t i;
	if (!p)
		return NULL;
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)((unsigned char)"The quick brown fox jumps over the lazy dog. "[i % 45] ^
		    (i / 4096));
	return p;
}

static void
roundtrip(int algo, int wbits)
{
	size_t n = 200000, clen = 0, olen = 0;
	uint8_t *src = sample(n), *c = mkcomp(algo, wbits, src, n, &clen), *out = NULL;
	uint8_t a = 0xFF;
	pgp_pkt k;
	T_ASSERT(src && c);
	if (!src || !c)
		goto out;
	k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, &a, NULL), PGP_OK);
	T_EQ_INT(a, algo);
	T_EQ_INT(olen, n);
	T_ASSERT(out != NULL);
	if (out && olen == n)
		T_EQ_MEM(out, src, n);
out:
	free(out);
	free(c);
	free(src);
}

static void
test_decompress_zip(void)
{
	roundtrip(PGP_COMP_ZIP, -15);
}

static void
test_decompress_zlib(void)
{
	roundtrip(PGP_COMP_ZLIB, 15);
}

static void
test_decompress_mismatched_format(void)
{
	/* zlib-wrapped data labelled ZIP (raw deflate) must not be accepted */
	size_t clen = 0, olen = 0;
	uint8_t *src = sample(1000), *c = mkcomp(PGP_COMP_ZIP, 15, src, 1000, &clen), *out = NULL;
	pgp_pkt k;
	T_ASSERT(c != NULL);
	if (c) {
		k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
		T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, NULL), PGP_ERR_MALFORMED);
		T_ASSERT(out == NULL);
	}
	free(c);
	free(src);
}

static void
test_decompress_empty_stream(void)
{
	size_t clen = 0, olen = 99;
	uint8_t *c = mkcomp(PGP_COMP_ZLIB, 15, (const uint8_t *)"", 0, &clen), *out = NULL;
	pgp_pkt k;
	T_ASSERT(c != NULL);
	if (!c)
		return;
	k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, NULL), PGP_OK);
	T_EQ_INT(olen, 0);
	T_ASSERT(out != NULL);
	free(out);
	free(c);
}

static void
test_decompress_uncompressed(void)
{
	static const uint8_t body[] = { 0, 'x', 'y', 'z' };
	pgp_pkt k = mkpkt(PGP_TAG_COMPRESSED, body, sizeof body);
	uint8_t *out = NULL, a = 0xFF;
	size_t olen = 0;
	T_EQ_INT(pgp_decompress(&out, &olen, &k, &a, NULL), PGP_OK);
	T_EQ_INT(a, 0);
	T_EQ_INT(olen, 3);
	T_ASSERT(out && memcmp(out, "xyz", 3) == 0);
	free(out);
	out = NULL;
	T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, 2, NULL), PGP_ERR_LIMIT);
	T_ASSERT(out == NULL);
	T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, 3, NULL), PGP_OK);
	free(out);
}

static void
test_decompress_cap(void)
{
	/* 1 MiB of zeros compresses to about 1 KiB: a small zlib bomb */
	size_t n = 1 << 20, clen = 0, olen = 0;
	uint8_t *src = calloc(n, 1), *c, *out = NULL;
	pgp_pkt k;
	pgp_diag d = {0, -1, NULL};
	int wb[2] = {-15, 15}, al[2] = {PGP_COMP_ZIP, PGP_COMP_ZLIB}, i;
	T_ASSERT(src != NULL);
	if (!src)
		return;
	for (i = 0; i < 2; i++) {
		c = mkcomp(al[i], wb[i], src, n, &clen);
		T_ASSERT(c != NULL);
		if (!c)
			continue;
		T_ASSERT(clen < 4096);
		k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
		T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, n - 1, &d), PGP_ERR_LIMIT);
		T_ASSERT(out == NULL);
		T_ASSERT(d.what != NULL);
		T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, 4096, NULL), PGP_ERR_LIMIT);
		T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, 0, NULL), PGP_ERR_LIMIT);
		/* exactly at the cap is fine */
		T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, n, NULL), PGP_OK);
		T_EQ_INT(olen, n);
		free(out);
		out = NULL;
		free(c);
	}
	free(src);
}

static void
test_decompress_truncated_and_corrupt(void)
{
	size_t n = 50000, clen = 0, olen = 0, cut;
	uint8_t *src = sample(n), *c = mkcomp(PGP_COMP_ZIP, -15, src, n, &clen), *out = NULL;
	uint8_t *g;
	pgp_pkt k;
	pgp_diag d = {0, -1, NULL};
	T_ASSERT(c != NULL);
	if (!c)
		goto out;
	/* truncated at several points, including just before the end */
	for (cut = 2; cut < clen; cut += clen / 7 + 1) {
		k = mkpkt(PGP_TAG_COMPRESSED, c, cut);
		T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, &d), PGP_ERR_MALFORMED);
		T_ASSERT(out == NULL);
	}
	k = mkpkt(PGP_TAG_COMPRESSED, c, clen - 1);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, &d), PGP_ERR_MALFORMED);
	T_ASSERT(d.what != NULL && strstr(d.what, "truncated") != NULL);
	/* only the algorithm octet */
	k = mkpkt(PGP_TAG_COMPRESSED, c, 1);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, NULL), PGP_ERR_MALFORMED);
	/* no algorithm octet at all */
	k = mkpkt(PGP_TAG_COMPRESSED, c, 0);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, NULL), PGP_ERR_TRUNCATED);
	/* an invalid block type (BTYPE = 11) right at the start */
	g = malloc(clen);
	T_ASSERT(g != NULL);
	if (g) {
		memcpy(g, c, clen);
		g[1] = 0xFF;
		k = mkpkt(PGP_TAG_COMPRESSED, g, clen);
		T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, &d), PGP_ERR_MALFORMED);
		T_ASSERT(out == NULL);
		T_ASSERT(d.offset >= 101 && d.offset <= 100 + clen);
		free(g);
	}
out:
	free(c);
	free(src);
}

static void
test_decompress_zlib_bad_checksum(void)
{
	size_t n = 3000, clen = 0, olen = 0;
	uint8_t *src = sample(n), *c = mkcomp(PGP_COMP_ZLIB, 15, src, n, &clen), *out = NULL;
	pgp_pkt k;
	T_ASSERT(c != NULL);
	if (c) {
		c[clen - 1] ^= 1; /* Adler-32 trailer */
		k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
		T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, NULL), PGP_ERR_MALFORMED);
		T_ASSERT(out == NULL);
	}
	free(c);
	free(src);
}

static void
test_decompress_trailing_garbage(void)
{
	size_t n = 3000, clen = 0, olen = 0;
	uint8_t *src = sample(n), *c = mkcomp(PGP_COMP_ZIP, -15, src, n, &clen), *out = NULL;
	pgp_pkt k;
	pgp_diag d = {0, -1, NULL};
	T_ASSERT(c != NULL);
	if (c) {
		c[clen] = 0x00; /* mkcomp leaves one spare octet */
		k = mkpkt(PGP_TAG_COMPRESSED, c, clen + 1);
		T_EQ_INT(pgp_decompress(&out, &olen, &k, NULL, &d), PGP_ERR_MALFORMED);
		T_EQ_INT(d.offset, 100 + clen);
		T_ASSERT(out == NULL);
	}
	free(c);
	free(src);
}

static void
test_decompress_unsupported(void)
{
	static const uint8_t bz[] = { 3, 'B', 'Z', 'h', '9', 0x31, 0x41, 0x59, 0x26 };
	static const uint8_t unk[] = { 110, 1, 2, 3 };
	pgp_pkt k = mkpkt(PGP_TAG_COMPRESSED, bz, sizeof bz);
	uint8_t *out = NULL, a = 0;
	size_t olen = 0;
	T_EQ_INT(pgp_decompress(&out, &olen, &k, &a, NULL), PGP_ERR_UNSUPPORTED);
	T_EQ_INT(a, 3);
	T_ASSERT(out == NULL);
	k = mkpkt(PGP_TAG_COMPRESSED, unk, sizeof unk);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, &a, NULL), PGP_ERR_UNSUPPORTED);
	T_EQ_INT(a, 110);
	T_ASSERT(out == NULL);
}

static void
corpus_compressed(const char *name, int want_algo, pgp_err want)
{
	const char *c = t_corpus();
	char path[4096];
	unsigned char *buf;
	size_t len = 0, olen = 0;
	pgp_rd in, inner;
	pgp_pkt k, lk;
	pgp_literal lit;
	uint8_t *out = NULL, algo = 0xFF;

	if (!c) {
		printf("skip - %s: corpus not found\n", name);
		return;
	}
	snprintf(path, sizeof path, "%s/sequoia/messages/%s", c, name);
	buf = t_slurp(path, &len);
	T_ASSERT(buf != NULL);
	if (!buf)
		return;
	pgp_rd_init(&in, buf, len);
	T_EQ_INT(pgp_pkt_next(&in, &k, NULL), PGP_OK);
	T_EQ_INT(k.tag, PGP_TAG_COMPRESSED);
	T_EQ_INT(pgp_decompress(&out, &olen, &k, &algo, NULL), want);
	T_EQ_INT(algo, want_algo);
	if (want == PGP_OK && out) {
		/* the inner message starts with a literal or one-pass packet */
		pgp_rd_init(&inner, out, olen);
		T_EQ_INT(pgp_pkt_next(&inner, &lk, NULL), PGP_OK);
		if (lk.tag == PGP_TAG_LITERAL) {
			T_EQ_INT(pgp_literal_parse(&lit, &lk, NULL), PGP_OK);
			T_ASSERT(lit.data.len > 0);
		} else {
			T_EQ_INT(lk.tag, PGP_TAG_ONE_PASS_SIG);
		}
		pgp_pkt_release(&lk);
	}
	free(out);
	pgp_pkt_release(&k);
	free(buf);
}

static void
test_corpus_zip(void)
{
	corpus_compressed("compressed-data-algo-1.gpg", PGP_COMP_ZIP, PGP_OK);
}

static void
test_corpus_zlib(void)
{
	corpus_compressed("compressed-data-algo-2.gpg", PGP_COMP_ZLIB, PGP_OK);
}

static void
test_corpus_bzip2(void)
{
	corpus_compressed("compressed-data-algo-3.gpg", PGP_COMP_BZIP2, PGP_ERR_UNSUPPORTED);
}

/* A new-format compressed data packet (5-octet length) around body. */
static uint8_t *
wrap_pkt(const uint8_t *body, size_t n, size_t *out_len)
{
	uint8_t *p = malloc(n + 6);
	if (!p)
		return NULL;
	p[0] = 0xC0 | PGP_TAG_COMPRESSED;
	p[1] = 0xFF;
	p[2] = (uint8_t)(n >> 24);
	p[3] = (uint8_t)(n >> 16);
	p[4] = (uint8_t)(n >> 8);
	p[5] = (uint8_t)n;
	memcpy(p + 6, body, n);
	*out_len = n + 6;
	return p;
}

/* Two packets of 600 KiB each against one 1 MiB budget: the first fits and
 * lowers the budget, the second does not and leaves it unchanged. */
static void
test_budget_shared(void)
{
	size_t n = 600u << 10, clen = 0, olen = 0, budget = 1u << 20;
	uint8_t *src = calloc(n, 1), *c = src ? mkcomp(PGP_COMP_ZLIB, 15, src, n, &clen) : NULL;
	uint8_t *out = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_pkt k;
	T_ASSERT(src && c);
	if (!src || !c)
		goto out;
	k = mkpkt(PGP_TAG_COMPRESSED, c, clen);
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &k, NULL, &budget, NULL), PGP_OK);
	T_EQ_INT(olen, n);
	T_EQ_INT(budget, (1u << 20) - n);
	free(out);
	out = NULL;
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &k, NULL, &budget, &d), PGP_ERR_LIMIT);
	T_ASSERT(out == NULL);
	T_EQ_INT(budget, (1u << 20) - n);
	T_ASSERT(d.what != NULL && strstr(d.what, "together") != NULL);
	/* each packet alone fits a fresh budget (the old per-packet cap) */
	T_EQ_INT(pgp__decompress_capped(&out, &olen, &k, NULL, n, NULL), PGP_OK);
	free(out);
	out = NULL;
out:
	free(c);
	free(src);
}

/* The budget is spent exactly: zero left still admits an empty packet,
 * not one more octet; uncompressed (algorithm 0) data counts as well. */
static void
test_budget_exact_and_uncompressed(void)
{
	static const uint8_t raw[] = {PGP_COMP_NONE, 'a', 'b', 'c'};
	static const uint8_t empty[] = {PGP_COMP_NONE};
	size_t olen = 0, budget = 3;
	uint8_t *out = NULL;
	pgp_pkt k = mkpkt(PGP_TAG_COMPRESSED, raw, sizeof raw);
	pgp_pkt e = mkpkt(PGP_TAG_COMPRESSED, empty, sizeof empty);
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &k, NULL, &budget, NULL), PGP_OK);
	T_EQ_INT(budget, 0);
	free(out);
	out = NULL;
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &e, NULL, &budget, NULL), PGP_OK);
	T_EQ_INT(olen, 0);
	T_ASSERT(out != NULL);
	free(out);
	out = NULL;
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &k, NULL, &budget, NULL), PGP_ERR_LIMIT);
	T_ASSERT(out == NULL);
	T_EQ_INT(budget, 0);
}

/*
 * Nested levels as a message parser walks them: outer = compressed(inner
 * packet + 500 KiB of zeros), inner = compressed(500 KiB of zeros). Each
 * level fits PGP_MAX_DECOMPRESSED alone; under a 768 KiB budget shared by
 * both, the inner level is refused.
 */
static void
test_budget_nested_levels(void)
{
	size_t n = 500u << 10, clen = 0, plen = 0, olen = 0, ilen = 0, budget = 768u << 10;
	uint8_t *zeros = calloc(2 * n, 1), *c = NULL, *p = NULL, *lvl = NULL, *c2 = NULL, *out = NULL;
	uint8_t *inner = NULL;
	pgp_pkt k, ik;
	pgp_rd r;
	T_ASSERT(zeros != NULL);
	if (!zeros)
		return;
	c = mkcomp(PGP_COMP_ZIP, -15, zeros, n, &clen);
	p = c ? wrap_pkt(c, clen, &plen) : NULL;
	lvl = p ? malloc(plen + n) : NULL;
	T_ASSERT(lvl != NULL);
	if (!lvl)
		goto out;
	memcpy(lvl, p, plen);
	memset(lvl + plen, 0, n);
	c2 = mkcomp(PGP_COMP_ZLIB, 15, lvl, plen + n, &olen);
	T_ASSERT(c2 != NULL);
	if (!c2)
		goto out;
	k = mkpkt(PGP_TAG_COMPRESSED, c2, olen);
	T_EQ_INT(pgp_decompress_budget(&out, &olen, &k, NULL, &budget, NULL), PGP_OK);
	T_EQ_INT(olen, plen + n);
	pgp_rd_init(&r, out, olen);
	T_EQ_INT(pgp_pkt_next(&r, &ik, NULL), PGP_OK);
	T_EQ_INT(ik.tag, PGP_TAG_COMPRESSED);
	T_EQ_INT(pgp_decompress_budget(&inner, &ilen, &ik, NULL, &budget, NULL), PGP_ERR_LIMIT);
	T_ASSERT(inner == NULL);
	/* with a budget for both levels it decompresses */
	budget = plen + 2 * n;
	T_EQ_INT(pgp_decompress_budget(&inner, &ilen, &ik, NULL, &budget, NULL), PGP_OK);
	T_EQ_INT(ilen, n);
	T_EQ_INT(budget, plen + n);
	pgp_pkt_release(&ik);
out:
	free(inner);
	free(out);
	free(c2);
	free(lvl);
	free(p);
	free(c);
	free(zeros);
}

int
main(void)
{
	T_RUN(test_decompress_zip);
	T_RUN(test_decompress_zlib);
	T_RUN(test_decompress_mismatched_format);
	T_RUN(test_decompress_empty_stream);
	T_RUN(test_decompress_uncompressed);
	T_RUN(test_decompress_cap);
	T_RUN(test_decompress_truncated_and_corrupt);
	T_RUN(test_decompress_zlib_bad_checksum);
	T_RUN(test_decompress_trailing_garbage);
	T_RUN(test_decompress_unsupported);
	T_RUN(test_budget_shared);
	T_RUN(test_budget_exact_and_uncompressed);
	T_RUN(test_budget_nested_levels);
	T_RUN(test_corpus_zip);
	T_RUN(test_corpus_zlib);
	T_RUN(test_corpus_bzip2);
	return T_DONE();
}
