/* test_literal.c - one-pass signature, literal data, decompression, user attributes. */
#include <stdint.h>
#include <zlib.h>
#include "t.h"
#include "pgp/packet.h"
#include "pgp/decompress.h"

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

static void
test_literal_fields(void)
{
	static const uint8_t body[] = {
		'b', 9, 'h', 'e', 'l', 'l', 'o', '.', 't', 'x', 't',
		0x5F, 0x00, 0x00, 0x01, 'a', 'b', 'c'
	};
	pgp_pkt k = mkpkt(PGP_TAG_LITERAL, body, sizeof body);
	pgp_literal lit;
	pgp_diag d = {0, -1, NULL};
	T_EQ_INT(pgp_literal_parse(&lit, &k, &d), PGP_OK);
	T_EQ_INT(lit.format, 'b');
	T_EQ_INT(lit.filename.len, 9);
	T_EQ_MEM(lit.filename.p, "hello.txt", 9);
	T_EQ_INT(lit.date, 0x5F000001u);
	T_EQ_INT(lit.data.len, 3);
	T_EQ_MEM(lit.data.p, "abc", 3);
}

static void
test_literal_empty_name_and_data(void)
{
	static const uint8_t body[] = { 'u', 0, 0, 0, 0, 0 };
	pgp_pkt k = mkpkt(PGP_TAG_LITERAL, body, sizeof body);
	pgp_literal lit;
	T_EQ_INT(pgp_literal_parse(&lit, &k, NULL), PGP_OK);
	T_EQ_INT(lit.format, 'u');
	T_EQ_INT(lit.filename.len, 0);
	T_EQ_INT(lit.date, 0);
	T_EQ_INT(lit.data.len, 0);
}

static void
test_literal_truncated(void)
{
	static const uint8_t body[] = { 't', 4, 'a', 'b', 'c', 'd', 1, 2, 3, 4 };
	size_t n;
	/* every strict prefix shorter than the 10-octet header is truncated */
	for (n = 0; n < sizeof body; n++) {
		pgp_pkt k = mkpkt(PGP_TAG_LITERAL, body, n);
		pgp_literal lit;
		pgp_diag d = {0, -1, NULL};
		T_EQ_INT(pgp_literal_parse(&lit, &k, &d), PGP_ERR_TRUNCATED);
		T_ASSERT(d.what != NULL);
		T_ASSERT(d.offset >= 100 && d.offset <= 100 + n);
	}
	{
		pgp_pkt k = mkpkt(PGP_TAG_LITERAL, body, sizeof body);
		pgp_literal lit;
		T_EQ_INT(pgp_literal_parse(&lit, &k, NULL), PGP_OK);
		T_EQ_INT(lit.date, 0x01020304u);
	}
}

static const uint8_t ops3[] = {
	3, 0x00, 8, 1, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88, 1
};

static void
test_ops_v3(void)
{
	pgp_pkt k = mkpkt(PGP_TAG_ONE_PASS_SIG, ops3, sizeof ops3);
	pgp_ops o;
	size_t n;
	static const uint8_t kid[8] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88};
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_OK);
	T_EQ_INT(o.version, 3);
	T_EQ_INT(o.type, 0);
	T_EQ_INT(o.hash_algo, 8);
	T_EQ_INT(o.pk_algo, 1);
	T_EQ_MEM(o.keyid, kid, 8);
	T_EQ_INT(o.nested, 1);
	T_EQ_INT(o.salt.len, 0);
	T_EQ_INT(o.fpr.len, 0);
	for (n = 0; n < sizeof ops3; n++) {
		pgp_pkt t = mkpkt(PGP_TAG_ONE_PASS_SIG, ops3, n);
		T_EQ_INT(pgp_ops_parse(&o, &t, NULL), PGP_ERR_TRUNCATED);
	}
}

static void
test_ops_v3_extra_and_version(void)
{
	uint8_t buf[sizeof ops3 + 1];
	pgp_pkt k;
	pgp_ops o;
	pgp_diag d = {0, -1, NULL};
	memcpy(buf, ops3, sizeof ops3);
	buf[sizeof ops3] = 0;
	k = mkpkt(PGP_TAG_ONE_PASS_SIG, buf, sizeof buf);
	T_EQ_INT(pgp_ops_parse(&o, &k, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 100 + sizeof ops3);
	buf[0] = 4;
	k = mkpkt(PGP_TAG_ONE_PASS_SIG, buf, sizeof ops3);
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_ERR_UNSUPPORTED);
	buf[0] = 5;
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_ERR_UNSUPPORTED);
}

static void
test_ops_v6(void)
{
	uint8_t b[4 + 1 + 16 + 32 + 1 + 1];
	size_t i, n = 0;
	pgp_pkt k;
	pgp_ops o;
	b[n++] = 6; b[n++] = 0x01; b[n++] = 10; b[n++] = 27;
	b[n++] = 16;
	for (i = 0; i < 16; i++)
		b[n++] = (uint8_t)(0xA0 + i);
	for (i = 0; i < 32; i++)
		b[n++] = (uint8_t)i;
	b[n++] = 0;
	k = mkpkt(PGP_TAG_ONE_PASS_SIG, b, n);
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_OK);
	T_EQ_INT(o.version, 6);
	T_EQ_INT(o.type, 1);
	T_EQ_INT(o.hash_algo, 10);
	T_EQ_INT(o.pk_algo, 27);
	T_EQ_INT(o.salt.len, 16);
	T_EQ_INT(o.salt.p[0], 0xA0);
	T_EQ_INT(o.salt.p[15], 0xAF);
	T_EQ_INT(o.fpr.len, 32);
	T_EQ_INT(o.fpr.p[31], 31);
	T_EQ_INT(o.nested, 0);
	for (i = 0; i < n; i++) {
		pgp_pkt t = mkpkt(PGP_TAG_ONE_PASS_SIG, b, i);
		T_EQ_INT(pgp_ops_parse(&o, &t, NULL), PGP_ERR_TRUNCATED);
	}
	b[n] = 0;
	k = mkpkt(PGP_TAG_ONE_PASS_SIG, b, n + 1);
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_ERR_MALFORMED);
	/* a salt length running past the end is truncation, not a huge read */
	b[4] = 200;
	k = mkpkt(PGP_TAG_ONE_PASS_SIG, b, n);
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_ERR_TRUNCATED);
}

/* Compress src with zlib: wbits -15 = raw deflate, 15 = zlib. body[0] = algo. */
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
test_uattr(void)
{
	/* one-octet length image, two-octet length unknown type 100, five-octet length */
	uint8_t b[3 + 2 + 199 + 5 + 3];
	size_t n = 0, i;
	pgp_rd r;
	pgp_uattr_sub s;
	b[n++] = 2; b[n++] = 1; b[n++] = 0xAA;           /* len 2: type 1 + 1 octet */
	b[n++] = 192; b[n++] = 8;                         /* len 200 */
	b[n++] = 100;
	for (i = 0; i < 199; i++)
		b[n++] = (uint8_t)i;
	b[n++] = 255; b[n++] = 0; b[n++] = 0; b[n++] = 0; b[n++] = 2;
	b[n++] = 1; b[n++] = 0x55;
	pgp_rd_init(&r, b, n);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_OK);
	T_EQ_INT(s.type, 1);
	T_EQ_INT(s.data.len, 1);
	T_EQ_INT(s.data.p[0], 0xAA);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_OK);
	T_EQ_INT(s.type, 100);
	T_EQ_INT(s.data.len, 199);
	T_EQ_INT(s.data.p[198], 198);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_OK);
	T_EQ_INT(s.type, 1);
	T_EQ_INT(s.data.len, 1);
	T_EQ_INT(s.data.p[0], 0x55);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_ERR_NOT_FOUND);
	T_EQ_INT(r.len, 0);
}

static void
test_uattr_bad(void)
{
	static const uint8_t zero[] = { 0 };
	static const uint8_t over[] = { 5, 1, 0, 0 };
	static const uint8_t len2[] = { 200 };
	static const uint8_t len5[] = { 255, 0, 0 };
	pgp_rd r;
	pgp_uattr_sub s;
	pgp_diag d = {0, -1, NULL};
	pgp_rd_init(&r, zero, sizeof zero);
	r.off = 7;
	T_EQ_INT(pgp_uattr_next(&r, &s, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 7);
	T_EQ_INT(r.len, 1); /* not advanced on error */
	pgp_rd_init(&r, over, sizeof over);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_ERR_TRUNCATED);
	pgp_rd_init(&r, len2, sizeof len2);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_ERR_TRUNCATED);
	pgp_rd_init(&r, len5, sizeof len5);
	T_EQ_INT(pgp_uattr_next(&r, &s, NULL), PGP_ERR_TRUNCATED);
}

/* Real compressed messages from Sequoia's test data (corpus). */
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

static void
test_ops_hex(void)
{
	/* v3 OPS from a GnuPG-made signed message (key ID 7BC6709B15C23A4A) */
	unsigned char b[32];
	size_t n = t_unhex(b, sizeof b, "03 00 08 01 7B C6 70 9B 15 C2 3A 4A 01");
	pgp_pkt k = mkpkt(PGP_TAG_ONE_PASS_SIG, b, n);
	pgp_ops o;
	T_EQ_INT(n, 13);
	T_EQ_INT(pgp_ops_parse(&o, &k, NULL), PGP_OK);
	T_EQ_INT(o.keyid[0], 0x7B);
	T_EQ_INT(o.keyid[7], 0x4A);
	T_EQ_INT(o.hash_algo, 8);
}

int
main(void)
{
	T_RUN(test_literal_fields);
	T_RUN(test_literal_empty_name_and_data);
	T_RUN(test_literal_truncated);
	T_RUN(test_ops_v3);
	T_RUN(test_ops_v3_extra_and_version);
	T_RUN(test_ops_v6);
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
	T_RUN(test_uattr);
	T_RUN(test_uattr_bad);
	T_RUN(test_ops_hex);
	T_RUN(test_corpus_zip);
	T_RUN(test_corpus_zlib);
	T_RUN(test_corpus_bzip2);
	return T_DONE();
}
