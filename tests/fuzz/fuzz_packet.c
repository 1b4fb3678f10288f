/*
 * fuzz_packet.c - libFuzzer target for the packet layer: framing
 * (pgp_pkt_next), key and signature packets, subpacket iteration and
 * embedded signatures. Builds with clang -fsanitize=fuzzer, or with any
 * compiler against tests/fuzz/standalone.c to replay the corpus.
 */
#include <stddef.h>
#include <stdint.h>
#include "pgp/limits.h"
#include "pgp/packet.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile size_t sink;

static void
walk_area(pgp_view v, int hashed)
{
	pgp_rd r;
	pgp_subpkt sp;
	unsigned n = 0;

	pgp_rd_init(&r, v.p, v.len);
	while (n++ <= PGP_MAX_SUBPACKETS &&
	    pgp_subpkt_next(&r, hashed, &sp, NULL) == PGP_OK)
		sink += sp.data.len + (size_t)sp.critical +
		    (size_t)pgp_subpkt_name(sp.type)[0];
}

static void
one_sig(const pgp_rd *body, int depth)
{
	pgp_sig s;
	pgp_diag d;
	pgp_rd emb;

	if (pgp_sig_parse(&s, body, &d) != PGP_OK) {
		sink += d.offset;
		return;
	}
	walk_area(s.hashed, 1);
	walk_area(s.unhashed, 0);
	sink += s.hashed_part.len + pgp_mpi_bitlen(&s.mpi[0]) +
	    (size_t)pgp_sigtype_name(s.type)[0];
	if (s.embedded.p && depth < 2) {
		pgp_rd_init(&emb, s.embedded.p, s.embedded.len);
		one_sig(&emb, depth + 1);
	}
}

static void
one_key(const pgp_pkt *pkt)
{
	pgp_key k;
	pgp_diag d;
	unsigned i;

	if (pgp_key_parse(&k, pkt, &d) != PGP_OK) {
		sink += d.offset;
		return;
	}
	sink += k.fpr.v[0] + k.keyid[7] + k.bits + k.body.len +
	    (size_t)pgp_pk_name(k.algo)[0] + (size_t)pgp_curve_name(k.curve)[0];
	for (i = 0; i < k.nmpi; i++)
		sink += pgp_mpi_bitlen(&k.mpi[i]);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_rd in;
	pgp_pkt pkt;
	pgp_diag d;
	size_t count = 0;

	pgp_rd_init(&in, data, size);
	while (count++ < PGP_MAX_PACKETS && pgp_pkt_next(&in, &pkt, &d) == PGP_OK) {
		sink += (size_t)pgp_tag_name(pkt.tag)[0];
		switch (pkt.tag) {
		case PGP_TAG_SIGNATURE:
			one_sig(&pkt.body, 0);
			break;
		case PGP_TAG_SECRET_KEY:
		case PGP_TAG_PUBLIC_KEY:
		case PGP_TAG_SECRET_SUBKEY:
		case PGP_TAG_PUBLIC_SUBKEY:
			one_key(&pkt);
			break;
		default:
			break;
		}
		pgp_pkt_release(&pkt);
	}
	return 0;
}
