/* test_literal.c - one-pass signature (§5.4), literal data (§5.9), user attributes (§5.12).
 * Decompression: test_decompress.c. */
#include <stdint.h>
#include "t.h"
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
	T_RUN(test_uattr);
	T_RUN(test_uattr_bad);
	T_RUN(test_ops_hex);
	return T_DONE();
}
