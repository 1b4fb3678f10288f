/* test_header.c - packet framing (pgp/header.c), RFC 9580 §4.2. */
#include "t.h"
#include "pgp/limits.h"
#include "pgp/packet.h"

/* Parse exactly one packet from buf; the input must be consumed entirely. */
static pgp_err
one(const unsigned char *buf, size_t n, pgp_pkt *pkt, pgp_diag *d)
{
	pgp_rd in;
	pgp_err e;
	pgp_rd_init(&in, buf, n);
	e = pgp_pkt_next(&in, pkt, d);
	if (e == PGP_OK)
		T_EQ_INT(in.len, 0);
	return e;
}

/* Every strict prefix of a valid packet must fail with TRUNCATED (the empty
 * prefix with NOT_FOUND) and leave the reader unchanged. */
static void
all_prefixes_truncated(const unsigned char *buf, size_t n)
{
	size_t k;
	for (k = 0; k < n; k++) {
		pgp_rd in;
		pgp_pkt pkt;
		pgp_diag d = { 0, 0, NULL };
		pgp_err e;
		pgp_rd_init(&in, buf, k);
		e = pgp_pkt_next(&in, &pkt, &d);
		if (k == 0)
			T_EQ_INT(e, PGP_ERR_NOT_FOUND);
		else
			T_EQ_INT(e, PGP_ERR_TRUNCATED);
		T_EQ_INT(in.len, k);
		T_ASSERT(in.p == buf);
		T_ASSERT(d.what != NULL);
		T_ASSERT(d.offset <= k);
		pgp_pkt_release(&pkt);
	}
}

static void
test_new_one_octet(void)
{
	static const unsigned char b[] = { 0xC2, 0x03, 0xAA, 0xBB, 0xCC };
	pgp_pkt pkt;
	T_EQ_INT(one(b, sizeof b, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 2);
	T_EQ_INT(pkt.new_format, 1);
	T_EQ_INT(pkt.partial, 0);
	T_EQ_INT(pkt.hdr_len, 2);
	T_EQ_INT(pkt.total_len, 5);
	T_EQ_INT(pkt.body.len, 3);
	T_EQ_INT(pkt.body.off, 2);
	T_ASSERT(pkt.body.p == b + 2);
	T_ASSERT(pkt.owned == NULL);
	all_prefixes_truncated(b, sizeof b);
}

static void
test_new_two_octet(void)
{
	static unsigned char b[3 + 8383];
	pgp_pkt pkt;
	/* 192..223: ((o1 - 192) << 8) + o2 + 192; C0 00 = 192, DF FF = 8383 */
	b[0] = 0xCD; b[1] = 0xC0; b[2] = 0x00;
	T_EQ_INT(one(b, 3 + 192, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 13);
	T_EQ_INT(pkt.body.len, 192);
	T_EQ_INT(pkt.hdr_len, 3);
	b[1] = 0xDF; b[2] = 0xFF;
	T_EQ_INT(one(b, sizeof b, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.body.len, 8383);
	T_EQ_INT(pkt.total_len, sizeof b);
	b[1] = 0xC1; b[2] = 0x05; /* (1 << 8) + 5 + 192 = 453 */
	T_EQ_INT(one(b, 3 + 453, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.body.len, 453);
	all_prefixes_truncated(b, 3 + 453);
}

static void
test_new_five_octet(void)
{
	static const unsigned char b[] = { 0xC6, 0xFF, 0x00, 0x00, 0x00, 0x02, 0x01, 0x02 };
	pgp_pkt pkt;
	T_EQ_INT(one(b, sizeof b, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 6);
	T_EQ_INT(pkt.hdr_len, 6);
	T_EQ_INT(pkt.body.len, 2);
	T_EQ_INT(pkt.body.p[1], 2);
	all_prefixes_truncated(b, sizeof b);
}

static void
test_legacy_forms(void)
{
	/* CTB 10 tttt ll: tag 2 -> 0x88 | ll */
	static const unsigned char l0[] = { 0x88, 0x02, 0x11, 0x22 };
	static const unsigned char l1[] = { 0x89, 0x00, 0x02, 0x11, 0x22 };
	static const unsigned char l2[] = { 0x8A, 0x00, 0x00, 0x00, 0x02, 0x11, 0x22 };
	static const unsigned char l3[] = { 0xAF, 0x11, 0x22, 0x33 }; /* tag 11, indeterminate */
	static const unsigned char t15[] = { 0xBC, 0x00 }; /* tag 15 */
	pgp_pkt pkt;
	T_EQ_INT(one(l0, sizeof l0, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 2);
	T_EQ_INT(pkt.new_format, 0);
	T_EQ_INT(pkt.hdr_len, 2);
	T_EQ_INT(pkt.body.len, 2);
	all_prefixes_truncated(l0, sizeof l0);
	T_EQ_INT(one(l1, sizeof l1, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.hdr_len, 3);
	T_EQ_INT(pkt.body.len, 2);
	all_prefixes_truncated(l1, sizeof l1);
	T_EQ_INT(one(l2, sizeof l2, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.hdr_len, 5);
	T_EQ_INT(pkt.body.len, 2);
	T_EQ_INT(pkt.body.p[0], 0x11);
	all_prefixes_truncated(l2, sizeof l2);
	T_EQ_INT(one(l3, sizeof l3, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 11);
	T_EQ_INT(pkt.indeterminate, 1);
	T_EQ_INT(pkt.hdr_len, 1);
	T_EQ_INT(pkt.body.len, 3);
	T_EQ_INT(pkt.total_len, 4);
	/* indeterminate with an empty body is a valid empty packet */
	T_EQ_INT(one(l3, 1, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.body.len, 0);
	T_EQ_INT(one(t15, sizeof t15, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.tag, 15);
}

static void
test_bad_ctb(void)
{
	static const unsigned char b[] = { 0xC2, 0x01, 0x00, 0x42, 0x00 };
	static const unsigned char z1[] = { 0xC0, 0x00 };
	static const unsigned char z2[] = { 0x80, 0x00 };
	pgp_rd in;
	pgp_pkt pkt;
	pgp_diag d = { 0, 0, NULL };
	pgp_rd_init(&in, b, sizeof b);
	T_EQ_INT(pgp_pkt_next(&in, &pkt, &d), PGP_OK);
	T_EQ_INT(pgp_pkt_next(&in, &pkt, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 3);
	T_EQ_STR(d.what, "invalid CTB");
	T_EQ_INT(in.off, 3); /* unchanged */
	T_EQ_INT(one(z1, sizeof z1, &pkt, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 0);
	T_EQ_INT(d.tag, 0);
	T_EQ_INT(one(z2, sizeof z2, &pkt, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(one(z2, 1, &pkt, &d), PGP_ERR_MALFORMED);
}

static void
test_partial_allowed(void)
{
	/* tag 11: 2-octet partial chunk (E1), then 1-octet final chunk */
	static const unsigned char b[] = { 0xCB, 0xE1, 'a', 'b', 0xE0, 'c', 0x02, 'd', 'e' };
	static const unsigned char zero_last[] = { 0xCB, 0xE0, 'a', 0x00 };
	static const int tags[] = { 8, 9, 11, 18, 20 };
	unsigned char c[sizeof b];
	pgp_pkt pkt;
	size_t i;
	T_EQ_INT(one(b, sizeof b, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.partial, 1);
	T_ASSERT(pkt.owned != NULL);
	T_EQ_INT(pkt.body.len, 5);
	T_EQ_MEM(pkt.body.p, "abcde", 5);
	T_EQ_INT(pkt.hdr_len, 2);
	T_EQ_INT(pkt.total_len, sizeof b);
	T_EQ_INT(pkt.body.off, 2);
	pgp_pkt_release(&pkt);
	T_ASSERT(pkt.owned == NULL);
	all_prefixes_truncated(b, sizeof b);
	T_EQ_INT(one(zero_last, sizeof zero_last, &pkt, NULL), PGP_OK);
	T_EQ_INT(pkt.body.len, 1);
	pgp_pkt_release(&pkt);
	memcpy(c, b, sizeof b);
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		c[0] = (unsigned char)(0xC0 | tags[i]);
		T_EQ_INT(one(c, sizeof c, &pkt, NULL), PGP_OK);
		T_EQ_INT(pkt.body.len, 5);
		pgp_pkt_release(&pkt);
	}
}

static void
test_partial_forbidden(void)
{
	static const int tags[] = { 1, 2, 3, 4, 5, 6, 7, 10, 12, 13, 14, 17, 19, 21, 60 };
	unsigned char b[] = { 0xC2, 0xE1, 'a', 'b', 0x01, 'c' };
	pgp_pkt pkt;
	pgp_diag d;
	size_t i;
	for (i = 0; i < sizeof tags / sizeof tags[0]; i++) {
		b[0] = (unsigned char)(0xC0 | tags[i]);
		d.what = NULL;
		T_EQ_INT(one(b, sizeof b, &pkt, &d), PGP_ERR_MALFORMED);
		T_EQ_STR(d.what, "partial body length not allowed for this packet");
		T_EQ_INT(d.offset, 1);
		T_EQ_INT(d.tag, tags[i]);
	}
}

static void
test_limits(void)
{
	/* declared 1 MiB + 1 for a signature: LIMIT even before truncation */
	static const unsigned char big[] = { 0xC2, 0xFF, 0x00, 0x10, 0x00, 0x01 };
	/* the same for a literal: within the data limit, so just TRUNCATED */
	static const unsigned char lit[] = { 0xCB, 0xFF, 0x00, 0x10, 0x00, 0x01 };
	/* partial chunk of 2^30 octets: beyond PGP_MAX_DATA_BODY */
	static const unsigned char huge[] = { 0xCB, 0xFE, 0x00 };
	pgp_pkt pkt;
	pgp_diag d;
	unsigned char *p;
	size_t n, i;

	T_EQ_INT(one(big, sizeof big, &pkt, &d), PGP_ERR_LIMIT);
	T_EQ_INT(one(lit, sizeof lit, &pkt, &d), PGP_ERR_TRUNCATED);
	T_EQ_INT(one(huge, sizeof huge, &pkt, &d), PGP_ERR_LIMIT);

	/* exactly PGP_MAX_PACKET_BODY is fine, one more is not */
	n = 6 + PGP_MAX_PACKET_BODY + 1;
	p = calloc(1, n);
	T_ASSERT(p != NULL);
	if (!p)
		return;
	p[0] = 0xC2; p[1] = 0xFF;
	pgp_put_be32(p + 2, PGP_MAX_PACKET_BODY);
	T_EQ_INT(one(p, n - 1, &pkt, &d), PGP_OK);
	pgp_put_be32(p + 2, PGP_MAX_PACKET_BODY + 1);
	T_EQ_INT(one(p, n, &pkt, &d), PGP_ERR_LIMIT);
	/* legacy indeterminate signature running past the limit */
	p[0] = 0x8B;
	T_EQ_INT(one(p, n, &pkt, &d), PGP_ERR_LIMIT);
	T_EQ_INT(one(p, PGP_MAX_PACKET_BODY + 1, &pkt, &d), PGP_OK);
	free(p);

	/* partial chunk count: PGP_MAX_PARTIAL_CHUNKS chunks pass, one more fails */
	n = 1 + 2 * (size_t)(PGP_MAX_PARTIAL_CHUNKS + 1);
	p = malloc(n);
	T_ASSERT(p != NULL);
	if (!p)
		return;
	p[0] = 0xCB;
	for (i = 0; i < PGP_MAX_PARTIAL_CHUNKS; i++) {
		p[1 + 2 * i] = 0xE0; /* partial, 1 octet */
		p[2 + 2 * i] = 'x';
	}
	p[1 + 2 * (PGP_MAX_PARTIAL_CHUNKS - 1)] = 0x01; /* make the last one final */
	T_EQ_INT(one(p, n - 2, &pkt, &d), PGP_OK);
	T_EQ_INT(pkt.body.len, PGP_MAX_PARTIAL_CHUNKS);
	pgp_pkt_release(&pkt);
	p[1 + 2 * (PGP_MAX_PARTIAL_CHUNKS - 1)] = 0xE0;
	p[1 + 2 * PGP_MAX_PARTIAL_CHUNKS] = 0x01;
	p[2 + 2 * PGP_MAX_PARTIAL_CHUNKS] = 'y';
	T_EQ_INT(one(p, n, &pkt, &d), PGP_ERR_LIMIT);
	T_EQ_STR(d.what, "more than 65536 partial body chunks (PGP_MAX_PARTIAL_CHUNKS)");
	free(p);
}

static void
test_sequence(void)
{
	static const unsigned char b[] = {
		0x99, 0x00, 0x01, 0x04,      /* legacy public key, 2-octet length */
		0xCD, 0x02, 'h', 'i',        /* user ID */
		0xC2, 0xC0, 0x00             /* signature, 192 octets: truncated */
	};
	pgp_rd in;
	pgp_pkt pkt;
	pgp_diag d;
	pgp_rd_init(&in, b, sizeof b);
	T_EQ_INT(pgp_pkt_next(&in, &pkt, &d), PGP_OK);
	T_EQ_INT(pkt.tag, 6);
	T_EQ_INT(pkt.off, 0);
	T_EQ_INT(pkt.body.off, 3);
	T_EQ_INT(pgp_pkt_next(&in, &pkt, &d), PGP_OK);
	T_EQ_INT(pkt.tag, 13);
	T_EQ_INT(pkt.off, 4);
	T_EQ_INT(pkt.body.off, 6);
	T_EQ_MEM(pkt.body.p, "hi", 2);
	T_EQ_INT(pgp_pkt_next(&in, &pkt, &d), PGP_ERR_TRUNCATED);
	T_EQ_INT(d.tag, 2);
	T_EQ_INT(d.offset, 11);
	T_EQ_INT(in.off, 8);
}

static void
test_names(void)
{
	T_EQ_STR(pgp_tag_name(2), "Signature");
	T_EQ_STR(pgp_tag_name(6), "Public-Key");
	T_EQ_STR(pgp_tag_name(14), "Public-Subkey");
	T_EQ_STR(pgp_tag_name(13), "User ID");
	T_EQ_STR(pgp_tag_name(0), "Unknown");
	T_EQ_STR(pgp_tag_name(42), "Unknown");
	T_EQ_STR(pgp_tag_name(-1), "Unknown");
}

int
main(void)
{
	T_RUN(test_new_one_octet);
	T_RUN(test_new_two_octet);
	T_RUN(test_new_five_octet);
	T_RUN(test_legacy_forms);
	T_RUN(test_bad_ctb);
	T_RUN(test_partial_allowed);
	T_RUN(test_partial_forbidden);
	T_RUN(test_limits);
	T_RUN(test_sequence);
	T_RUN(test_names);
	(void)t_slurp; (void)t_unhex; (void)t_corpus;
	return T_DONE();
}
