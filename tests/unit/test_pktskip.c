/* test_pktskip.c - dropping ignorable packets from a decompressed level
 * (pgp/pktskip.c): the same output for any split of the input. */
#include <stdint.h>
#include <stdlib.h>
#include "t.h"
#include "pgp/limits.h"
#include "pgp/pktskip_int.h"

/* Feed p in pieces of `step` octets (0: all at once); *out gets the kept octets. */
static pgp_err
run(const uint8_t *p, size_t n, size_t step, pgp_buf *out, size_t *dropped)
{
	pgp__pktskip f;
	size_t i, k;
	pgp_err e;

	pgp_buf_init(out, 1u << 20);
	pgp__pktskip_init(&f, out);
	for (i = 0; i < n; i += k) {
		k = step == 0 || step > n - i ? n - i : step;
		if ((e = pgp__pktskip_push(&f, p + i, k)) != PGP_OK) {
			/* an over-limit header ends the stream, as message.c treats it */
			if (e == PGP_ERR_LIMIT && f.stopped)
				break;
			return e;
		}
	}
	*dropped = f.dropped;
	return pgp__pktskip_end(&f);
}

/* check that every split gives want (want_len octets) and drops `drop` */
static void
same_for_all_splits(const uint8_t *in, size_t n, const uint8_t *want, size_t want_len, size_t drop)
{
	size_t step, dropped = 0;
	pgp_buf b;

	for (step = 0; step <= n; step++) {
		T_EQ_INT(run(in, n, step, &b, &dropped), PGP_OK);
		T_EQ_INT(b.len, want_len);
		if (b.len == want_len && want_len > 0)
			T_EQ_MEM(b.p, want, want_len);
		T_EQ_INT(dropped, drop);
		pgp_buf_free(&b);
	}
}

static void
test_drops_ignorable_keeps_rest(void)
{
	static const uint8_t in[] = {
		0xD5, 0x03, 0, 0, 0,             /* padding (21), new format, 3 octets */
		0xC4, 0x02, 'o', 'p',            /* one-pass signature (4), kept */
		0xA8, 0x03, 'P', 'G', 'P',       /* marker (10), legacy format */
		0xE8, 0x00,                      /* tag 40, empty */
		0xCB, 0xC0, 0x00,                /* literal, 2-octet length 192: body follows */
	};
	uint8_t buf[sizeof in + 192], want[4 + 3 + 192];
	memcpy(buf, in, sizeof in);
	memset(buf + sizeof in, 'x', 192);
	memcpy(want, in + 5, 4);
	memcpy(want + 4, in + 16, 3);
	memset(want + 7, 'x', 192);
	same_for_all_splits(buf, sizeof buf, want, sizeof want, 5 + 5 + 2);
}

static void
test_keeps_what_it_does_not_follow(void)
{
	/* a partial length on padding: kept from there on (the parser refuses it) */
	static const uint8_t partial[] = {0xD5, 0xE1, 0, 0, 0x01, 0, 0xD5, 0x00};
	/* invalid CTB after a padding packet */
	static const uint8_t badctb[] = {0xD5, 0x01, 0, 0x3F, 0xD5, 0x00};
	/* legacy indeterminate length */
	static const uint8_t indet[] = {0xAB, 'a', 'b', 0xD5, 0x00};
	/* padding over PGP_MAX_PACKET_BODY: kept, the parser gives the limit error */
	static const uint8_t big[] = {0xD5, 0xFF, 0x00, 0x10, 0x00, 0x01};
	same_for_all_splits(partial, sizeof partial, partial, sizeof partial, 0);
	same_for_all_splits(badctb, sizeof badctb, badctb + 3, sizeof badctb - 3, 3);
	same_for_all_splits(indet, sizeof indet, indet, sizeof indet, 0);
	same_for_all_splits(big, sizeof big, big, sizeof big, 0);
}

/*
 * A kept packet naming more than pgp_pkt_next() accepts ends the stream
 * at its header: the octets after it (the body of a compressed-data bomb)
 * are never kept, and push says stop.
 */
static void
test_stops_at_an_over_limit_header(void)
{
	/* padding, then a literal naming 1 GiB + 6 (over PGP_MAX_DATA_BODY), its body */
	static const uint8_t bomb[] = {0xD5, 0x01, 0, 0xCB, 0xFF, 0x40, 0x00, 0x00, 0x06,
	    'b', 0, 0, 0, 0, 0, 'x', 'x', 'x'};
	/* a signature naming 1 MiB + 1 (over PGP_MAX_PACKET_BODY), then more packets */
	static const uint8_t bigsig[] = {0xC2, 0xFF, 0x00, 0x10, 0x00, 0x01, 0xD5, 0x00, 0xC4, 0x00};
	/* a literal of exactly PGP_MAX_DATA_BODY is not over the limit: kept whole */
	static const uint8_t atcap[] = {0xCB, 0xFF, 0x10, 0x00, 0x00, 0x00, 'b', 0};
	pgp__pktskip f;
	pgp_buf b;

	same_for_all_splits(bomb, sizeof bomb, bomb + 3, 6, 3);
	same_for_all_splits(bigsig, sizeof bigsig, bigsig, 6, 0);
	same_for_all_splits(atcap, sizeof atcap, atcap, sizeof atcap, 0);
	pgp_buf_init(&b, 1u << 20);
	pgp__pktskip_init(&f, &b);
	T_EQ_INT(pgp__pktskip_push(&f, bomb, sizeof bomb), PGP_ERR_LIMIT);
	T_EQ_INT(f.stopped, 1);
	pgp_buf_free(&b);
}

static void
test_truncation_left_for_the_parser(void)
{
	/* a dropped packet cut short: its header stays */
	static const uint8_t cut[] = {0xC4, 0x00, 0xD5, 0x05, 0, 0};
	static const uint8_t cut_want[] = {0xC4, 0x00, 0xD5, 0x05};
	/* a header cut short */
	static const uint8_t hdr[] = {0xC4, 0x00, 0xD5, 0xFF, 0x00};
	same_for_all_splits(cut, sizeof cut, cut_want, sizeof cut_want, 4);
	same_for_all_splits(hdr, sizeof hdr, hdr, sizeof hdr, 0);
}

int
main(void)
{
	T_RUN(test_drops_ignorable_keeps_rest);
	T_RUN(test_keeps_what_it_does_not_follow);
	T_RUN(test_stops_at_an_over_limit_header);
	T_RUN(test_truncation_left_for_the_parser);
	return T_DONE();
}
