/*
 * fuzz_dump.c - libFuzzer target for the packet parsers `wotkit dump` uses
 * beyond fuzz_packet: one-pass signatures, literal data, decompression
 * (ZIP/ZLIB/uncompressed, recursing into the result up to PGP_MAX_NESTING),
 * and user attributes; key and signature packets are parsed too. The output
 * cap is lowered to 1 MiB through pgp__decompress_capped so bombs stay fast.
 * Seeds: sh vectors/gen/dump_malformed.sh tests/fuzz/corpus/dump
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include "pgp/limits.h"
#include "pgp/packet.h"
#include "pgp/decompress.h"
#include "pgp/decompress_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static void walk(const uint8_t *p, size_t n, int depth);

static void
one(const pgp_pkt *pkt, int depth)
{
	pgp_diag d = {0, -1, NULL};
	switch (pkt->tag) {
	case PGP_TAG_ONE_PASS_SIG: {
		pgp_ops o;
		if (pgp_ops_parse(&o, pkt, &d) == PGP_OK)
			sink += o.salt.len + o.fpr.len + o.keyid[7];
		else if (!d.what || d.offset > pkt->body.off + pkt->body.len)
			abort();
		break;
	}
	case PGP_TAG_LITERAL: {
		pgp_literal l;
		if (pgp_literal_parse(&l, pkt, &d) == PGP_OK) {
			if (l.data.p + l.data.len != pkt->body.p + pkt->body.len)
				abort();
			sink += l.filename.len + l.date;
		}
		break;
	}
	case PGP_TAG_COMPRESSED: {
		uint8_t *out = NULL, algo;
		size_t olen = 0;
		pgp_err e = pgp__decompress_capped(&out, &olen, pkt, &algo,
		    (size_t)1 << 20, &d);
		if (e == PGP_OK) {
			if (!out || olen > ((size_t)1 << 20))
				abort();
			if (depth < PGP_MAX_NESTING)
				walk(out, olen, depth + 1);
		} else if (out) {
			abort();
		}
		free(out);
		break;
	}
	case PGP_TAG_USER_ATTRIBUTE: {
		pgp_rd r = pkt->body;
		pgp_uattr_sub s;
		unsigned n = 0;
		while (n++ <= PGP_MAX_SUBPACKETS && pgp_uattr_next(&r, &s, &d) == PGP_OK)
			sink += s.type + s.data.len;
		break;
	}
	case PGP_TAG_PUBLIC_KEY:
	case PGP_TAG_PUBLIC_SUBKEY:
	case PGP_TAG_SECRET_KEY:
	case PGP_TAG_SECRET_SUBKEY: {
		pgp_key k;
		if (pgp_key_parse(&k, pkt, &d) == PGP_OK)
			sink += k.fpr.len + k.bits;
		break;
	}
	case PGP_TAG_SIGNATURE: {
		pgp_sig s;
		if (pgp_sig_parse(&s, &pkt->body, &d) == PGP_OK)
			sink += s.nmpi + s.hashed.len;
		break;
	}
	default:
		break;
	}
}

static void
walk(const uint8_t *p, size_t n, int depth)
{
	pgp_rd in;
	pgp_pkt pkt;
	size_t count = 0;

	pgp_rd_init(&in, p, n);
	while (!pgp_rd_empty(&in) && count++ < 4096) {
		if (pgp_pkt_next(&in, &pkt, NULL) != PGP_OK)
			break;
		one(&pkt, depth);
		pgp_pkt_release(&pkt);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	walk(data, size, 0);
	return 0;
}
