/*
 * test_write.c - packet and certificate writer, armor output (pgp/write.h,
 * pgp/armor_enc.h), and a round trip over real certificates: every
 * certificate in /usr/share/keyrings/ *.gpg, $WOTKIT_CORPUS and vectors/ is
 * parsed, written and compared with its input.
 *
 * Without arguments: the unit tests (TAP). With arguments it is the helper of
 * tests/cli/write_roundtrip.sh:
 *   test_write --export PREFIX FILE   write every public certificate of FILE
 *       (canonical framing, loose revocations included) to PREFIX.pgp and
 *       armored to PREFIX.asc; prints the number of certificates.
 */
#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>
#include <time.h>
#include "pgp/armor.h"
#include "pgp/armor_enc.h"
#include "pgp/cert.h"
#include "pgp/limits.h"
#include "pgp/write.h"
#include "t.h"

#define V "vectors/verify/keys/"

/* ---- helpers ---- */

/* The test's own statement of RFC 9580 §4.2.1, as an oracle. */
static size_t
shortest_hdr(size_t len)
{
	return len <= 191 ? 2 : len <= 8383 ? 3 : 6;
}

static void
hdr_is(size_t len, const char *hex)
{
	unsigned char want[8];
	size_t n = t_unhex(want, sizeof want, hex);
	pgp_buf b;

	pgp_buf_init(&b, 64);
	T_EQ_INT(pgp_write_hdr(&b, PGP_TAG_SIGNATURE, len), PGP_OK);
	T_EQ_INT(b.len, n);
	T_EQ_INT(pgp_write_hdr_len(len), n);
	if (b.len == n)
		T_EQ_MEM(b.p, want, n);
	else
		fprintf(stderr, "  (length %zu)\n", len);
	pgp_buf_free(&b);
}

typedef struct pk {
	unsigned tag;
	const uint8_t *body;
	size_t len;
} pk;

/* Split a packet sequence; returns the count (at most max). */
static size_t
split(const uint8_t *p, size_t len, pk *out, size_t max)
{
	pgp_rd r;
	pgp_pkt pkt;
	size_t n = 0;

	pgp_rd_init(&r, p, len);
	while (n < max && pgp_pkt_next(&r, &pkt, NULL) == PGP_OK) {
		out[n].tag = pkt.tag;
		out[n].body = pkt.body.p;
		out[n].len = pkt.body.len;
		pgp_pkt_release(&pkt);
		n++;
	}
	return n;
}

/* Append a packet with the test's own shortest new-format header. */
static void
put(pgp_buf *b, unsigned tag, const uint8_t *body, size_t len)
{
	uint8_t h[6];
	size_t n = shortest_hdr(len);

	h[0] = (uint8_t)(0xC0 | tag);
	if (n == 2) {
		h[1] = (uint8_t)len;
	} else if (n == 3) {
		h[1] = (uint8_t)((len - 192) / 256 + 192);
		h[2] = (uint8_t)((len - 192) % 256);
	} else {
		h[1] = 0xFF;
		h[2] = (uint8_t)(len >> 24);
		h[3] = (uint8_t)(len >> 16);
		h[4] = (uint8_t)(len >> 8);
		h[5] = (uint8_t)len;
	}
	T_EQ_INT(pgp_buf_append(b, h, n), PGP_OK);
	T_EQ_INT(pgp_buf_append(b, body, len), PGP_OK);
}

static void
putp(pgp_buf *b, const pk *p)
{
	put(b, p->tag, p->body, p->len);
}

/* Parse out[0..len) and check it is exactly the packets want[0..n). */
static int
packets_are(const uint8_t *p, size_t len, const pk *want, size_t n)
{
	pk got[64];
	size_t k = split(p, len, got, 64), i;
	int ok = k == n;

	for (i = 0; ok && i < n; i++)
		ok = got[i].tag == want[i].tag && got[i].len == want[i].len &&
		    memcmp(got[i].body, want[i].body, got[i].len) == 0;
	if (!ok)
		fprintf(stderr, "  packets differ (%zu written, %zu expected)\n", k, n);
	return ok;
}

static pgp_certset *
set_of(const uint8_t *p, size_t len)
{
	pgp_certset *s = NULL;

	T_EQ_INT(pgp_certset_new(&s), PGP_OK);
	if (s)
		T_EQ_INT(pgp_certset_add(s, p, len, NULL), PGP_OK);
	return s;
}

/* ---- packet framing ---- */

static void
test_header_length_boundaries(void)
{
	/* RFC 9580 §4.2.1.1-3, by hand: CTB 0xC2 = new format, tag 2 */
	hdr_is(0, "C2 00");
	hdr_is(1, "C2 01");
	hdr_is(191, "C2 BF");
	hdr_is(192, "C2 C0 00");
	hdr_is(193, "C2 C0 01");
	hdr_is(447, "C2 C0 FF");
	hdr_is(448, "C2 C1 00");
	hdr_is(8383, "C2 DF FF");
	hdr_is(8384, "C2 FF 00 00 20 C0");
	hdr_is(65535, "C2 FF 00 00 FF FF");
	hdr_is(0xFFFFFFFFu, "C2 FF FF FF FF FF");
}

static void
test_header_limits(void)
{
	pgp_buf b;
	uint8_t *junk;

	pgp_buf_init(&b, 64);
	T_EQ_INT(pgp_buf_append(&b, "x", 1), PGP_OK);
	/* 2^32 needs partial lengths: refused, buffer untouched */
	T_EQ_INT(pgp_write_hdr_len((size_t)0xFFFFFFFFu + 1), 0);
	T_EQ_INT(pgp_write_hdr(&b, 2, (size_t)0xFFFFFFFFu + 1), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_write_packet(&b, 2, (const uint8_t *)"", (size_t)0xFFFFFFFFu + 1),
	    PGP_ERR_LIMIT);
	T_EQ_INT(b.len, 1);
	/* tags: 1..63 only; 63 is CTB 0xFF */
	T_EQ_INT(pgp_write_hdr(&b, 0, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_write_hdr(&b, 64, 1), PGP_ERR_INVALID);
	T_EQ_INT(b.len, 1);
	T_EQ_INT(pgp_write_hdr(&b, 63, 5), PGP_OK);
	T_ASSERT(b.len == 3 && b.p[1] == 0xFF && b.p[2] == 5);
	T_EQ_INT(pgp_write_packet(&b, 2, NULL, 3), PGP_ERR_INVALID);
	pgp_buf_free(&b);
	/* the cap: header fits, body does not -> nothing stays */
	pgp_buf_init(&b, 100);
	junk = calloc(1, 200);
	T_ASSERT(junk != NULL);
	T_EQ_INT(pgp_write_packet(&b, 13, junk, 99), PGP_ERR_LIMIT);
	T_EQ_INT(b.len, 0);
	T_EQ_INT(pgp_write_packet(&b, 13, junk, 98), PGP_OK);
	T_EQ_INT(b.len, 100);
	pgp_buf_free(&b);
	free(junk);
}

/* Written packets of every boundary length parse back to the same body. */
static void
test_packets_parse_back(void)
{
	static const size_t lens[] = { 0, 1, 191, 192, 193, 8383, 8384, 8385,
	    65536, 1u << 20 };
	uint8_t *body = malloc(1u << 20);
	size_t i, j;

	T_ASSERT(body != NULL);
	if (!body)
		return;
	for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
		pgp_buf b;
		pgp_rd r;
		pgp_pkt pkt;

		for (j = 0; j < lens[i]; j++)
			body[j] = (uint8_t)(j * 7 + i);
		pgp_buf_init(&b, (size_t)2 << 20);
		T_EQ_INT(pgp_write_packet(&b, PGP_TAG_USER_ATTRIBUTE, body, lens[i]), PGP_OK);
		T_EQ_INT(b.len, lens[i] + shortest_hdr(lens[i]));
		pgp_rd_init(&r, b.p, b.len);
		T_EQ_INT(pgp_pkt_next(&r, &pkt, NULL), PGP_OK);
		T_EQ_INT(pkt.tag, PGP_TAG_USER_ATTRIBUTE);
		T_EQ_INT(pkt.new_format, 1);
		T_EQ_INT(pkt.hdr_len, shortest_hdr(lens[i]));
		T_EQ_INT(pkt.body.len, lens[i]);
		if (pkt.body.len == lens[i] && lens[i] > 0)
			T_EQ_MEM(pkt.body.p, body, lens[i]);
		T_ASSERT(pgp_rd_empty(&r));
		pgp_pkt_release(&pkt);
		pgp_buf_free(&b);
	}
	free(body);
}

/* Re-emit: original header with KEEP_FRAMING, canonical without. */
static void
reemit(const char *in_hex, const char *keep_hex, const char *canon_hex)
{
	uint8_t in[64], want[64];
	size_t n = t_unhex(in, sizeof in, in_hex), wn;
	pgp_rd r;
	pgp_pkt pkt;
	pgp_buf b;

	pgp_rd_init(&r, in, n);
	T_EQ_INT(pgp_pkt_next(&r, &pkt, NULL), PGP_OK);
	pgp_buf_init(&b, 1024);
	T_EQ_INT(pgp_write_pkt(&b, &pkt, PGP_WRITE_KEEP_FRAMING), PGP_OK);
	wn = t_unhex(want, sizeof want, keep_hex);
	T_EQ_INT(b.len, wn);
	if (b.len == wn)
		T_EQ_MEM(b.p, want, wn);
	b.len = 0;
	T_EQ_INT(pgp_write_pkt(&b, &pkt, 0), PGP_OK);
	wn = t_unhex(want, sizeof want, canon_hex);
	T_EQ_INT(b.len, wn);
	if (b.len == wn)
		T_EQ_MEM(b.p, want, wn);
	pgp_buf_free(&b);
	pgp_pkt_release(&pkt);
}

static void
test_reemit_parsed_packets(void)
{
	/* legacy tag 13, 1-octet length (CTB 0xB4) */
	reemit("B4 03 61 62 63", "B4 03 61 62 63", "CD 03 61 62 63");
	/* legacy 2-octet and 4-octet lengths (tag 2: 0x89, 0x8A) */
	reemit("89 00 02 AA BB", "89 00 02 AA BB", "C2 02 AA BB");
	reemit("8A 00 00 00 01 AA", "8A 00 00 00 01 AA", "C2 01 AA");
	/* new format, non-shortest 5-octet length */
	reemit("CD FF 00 00 00 02 68 69", "CD FF 00 00 00 02 68 69", "CD 02 68 69");
	/* new format, already canonical: identical either way */
	reemit("CD 02 68 69", "CD 02 68 69", "CD 02 68 69");
	/* legacy indeterminate length (tag 11, 0xAF): never re-emitted as such */
	reemit("AF 62 00 00 00 00 00 78", "CB 07 62 00 00 00 00 00 78",
	    "CB 07 62 00 00 00 00 00 78");
	/* partial body (tag 11: CB, first chunk 2^1 = E1) is joined */
	reemit("CB E1 62 00 05 00 00 00 00 78", "CB 07 62 00 00 00 00 00 78",
	    "CB 07 62 00 00 00 00 00 78");
}

/* ---- certificates: a synthetic cert in canonical framing ---- */

typedef struct synth {
	uint8_t *rsa, *ed;
	size_t rsalen, edlen;
	pk r[8], e[8];  /* rsa2048-subkey: P U S SK SB; ed25519-subkey: P U S SK SB */
	pk attr;
	uint8_t attrbody[40];
	pgp_buf in;     /* the synthetic certificate */
	pk want[16];    /* its packets */
	size_t nwant;
} synth;

/*
 * P = rsa primary, D = ed25519's uid certification as a direct signature,
 * U0 = rsa uid + its self-sig S0 + a foreign sig S1, A1 = attribute + a
 * foreign sig, U2 = ed uid + a foreign sig, K0 = rsa subkey + binding.
 * The writer does not check signatures, so foreign bodies stand in for
 * third-party certifications.
 */
static int
synth_init(synth *s)
{
	size_t i;

	memset(s, 0, sizeof *s);
	s->rsa = t_slurp(V "rsa2048-subkey.pgp", &s->rsalen);
	s->ed = t_slurp(V "ed25519-subkey.pgp", &s->edlen);
	T_ASSERT(s->rsa && s->ed);
	if (!s->rsa || !s->ed)
		return 0;
	T_EQ_INT(split(s->rsa, s->rsalen, s->r, 8), 5);
	T_EQ_INT(split(s->ed, s->edlen, s->e, 8), 5);
	for (i = 0; i < sizeof s->attrbody; i++)
		s->attrbody[i] = (uint8_t)(0x30 + i);
	s->attr.tag = PGP_TAG_USER_ATTRIBUTE;
	s->attr.body = s->attrbody;
	s->attr.len = sizeof s->attrbody;
	s->want[0] = s->r[0];  /* P */
	s->want[1] = s->e[2];  /* D */
	s->want[2] = s->r[1];  /* U0 */
	s->want[3] = s->r[2];  /* S0 */
	s->want[4] = s->e[2];  /* S1 */
	s->want[5] = s->attr;  /* A1 */
	s->want[6] = s->e[4];  /* foreign */
	s->want[7] = s->e[1];  /* U2 */
	s->want[8] = s->e[2];  /* foreign */
	s->want[9] = s->r[3];  /* K0 */
	s->want[10] = s->r[4]; /* its binding */
	s->nwant = 11;
	pgp_buf_init(&s->in, 1 << 20);
	for (i = 0; i < s->nwant; i++)
		putp(&s->in, &s->want[i]);
	return 1;
}

static void
synth_free(synth *s)
{
	pgp_buf_free(&s->in);
	free(s->rsa);
	free(s->ed);
}

typedef struct rec {
	char log[512];
	size_t n;
	/* what to drop */
	int drop_kind, drop_index, drop_sig;
	int third_party;      /* drop signatures not issued by the primary */
	pgp_err fail_at;      /* return this on the fail_call-th call */
	int fail_call, calls;
} rec;

static const char *
kind_name(pgp_comp_kind k)
{
	switch (k) {
	case PGP_COMP_PRIMARY: return "P";
	case PGP_COMP_LOOSE: return "L";
	case PGP_COMP_UID: return "U";
	case PGP_COMP_ATTR: return "A";
	case PGP_COMP_SUBKEY: return "K";
	}
	return "?";
}

static pgp_err
rec_filter(void *ctx, const pgp_write_item *it, int *keep)
{
	rec *r = ctx;
	int n;

	r->calls++;
	if (r->fail_call && r->calls == r->fail_call)
		return r->fail_at;
	n = snprintf(r->log + r->n, sizeof r->log - r->n, "%s%u.%d ",
	    kind_name(it->kind), it->index, it->sig);
	if (n > 0 && (size_t)n < sizeof r->log - r->n)
		r->n += (size_t)n;
	*keep = 1;
	if ((int)it->kind == r->drop_kind && (int)it->index == r->drop_index &&
	    it->sig == r->drop_sig)
		*keep = 0;
	if (r->third_party && it->sig >= 0) {
		pgp_sig sig;
		pgp_rd b;
		pgp_rd_init(&b, it->body.p, it->body.len);
		*keep = pgp_sig_parse(&sig, &b, NULL) == PGP_OK && sig.has_issuer &&
		    memcmp(sig.issuer, it->cert->primary.keyid, 8) == 0;
	}
	return PGP_OK;
}

static void
test_cert_unfiltered_is_byte_exact(void)
{
	synth s;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_buf out;
	pgp_write_stats st;
	pgp_write_opts o = { 0, NULL, NULL };
	rec r;

	if (!synth_init(&s))
		return;
	set = set_of(s.in.p, s.in.len);
	T_EQ_INT(pgp_certset_count(set), 1);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c == NULL)
		goto out;
	/* canonical input, no filter: the same bytes, appended after a prefix */
	pgp_buf_init(&out, 1 << 20);
	T_EQ_INT(pgp_buf_append(&out, "pre", 3), PGP_OK);
	T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
	T_EQ_INT(out.len, 3 + s.in.len);
	if (out.len == 3 + s.in.len)
		T_EQ_MEM(out.p + 3, s.in.p, s.in.len);
	T_EQ_INT(st.packets, 11);
	T_EQ_INT(st.sigs_kept, 6);
	T_EQ_INT(st.sigs_dropped, 0);
	/* a keep-all filter sees every component and signature, in order */
	memset(&r, 0, sizeof r);
	r.drop_kind = -1;
	o.filter = rec_filter;
	o.ctx = &r;
	out.len = 0;
	T_EQ_INT(pgp_cert_write(&out, c, &o, NULL), PGP_OK);
	T_EQ_STR(r.log, "P0.0 U0.-1 U0.0 U0.1 A1.-1 A1.0 U2.-1 U2.0 K0.-1 K0.0 ");
	T_ASSERT(out.len == s.in.len && memcmp(out.p, s.in.p, s.in.len) == 0);
	pgp_buf_free(&out);
out:
	pgp_certset_free(set);
	synth_free(&s);
}

static void
test_filter_drops_signature_and_component(void)
{
	synth s;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_buf out;
	pgp_write_stats st;
	pgp_write_opts o = { 0, rec_filter, NULL };
	rec r;
	pk w[16];

	if (!synth_init(&s))
		return;
	set = set_of(s.in.p, s.in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c == NULL)
		goto out;
	pgp_buf_init(&out, 1 << 20);
	/* drop the second signature on U0 */
	memset(&r, 0, sizeof r);
	r.drop_kind = PGP_COMP_UID, r.drop_index = 0, r.drop_sig = 1;
	o.ctx = &r;
	T_EQ_INT(pgp_cert_write(&out, c, &o, &st), PGP_OK);
	memcpy(w, s.want, sizeof w);
	memmove(w + 4, w + 5, 6 * sizeof *w);
	T_ASSERT(packets_are(out.p, out.len, w, 10));
	T_EQ_INT(st.sigs_dropped, 1);
	/* drop U0 itself: its signatures go without being asked about */
	memset(&r, 0, sizeof r);
	r.drop_kind = PGP_COMP_UID, r.drop_index = 0, r.drop_sig = -1;
	out.len = 0;
	T_EQ_INT(pgp_cert_write(&out, c, &o, &st), PGP_OK);
	T_EQ_STR(r.log, "P0.0 U0.-1 A1.-1 A1.0 U2.-1 U2.0 K0.-1 K0.0 ");
	memcpy(w, s.want, sizeof w);
	memmove(w + 2, w + 5, 6 * sizeof *w);
	T_ASSERT(packets_are(out.p, out.len, w, 8));
	T_EQ_INT(st.comps_dropped, 1);
	T_EQ_INT(st.sigs_dropped, 2);
	/* drop the subkey */
	memset(&r, 0, sizeof r);
	r.drop_kind = PGP_COMP_SUBKEY, r.drop_index = 0, r.drop_sig = -1;
	out.len = 0;
	T_EQ_INT(pgp_cert_write(&out, c, &o, NULL), PGP_OK);
	T_ASSERT(packets_are(out.p, out.len, s.want, 9));
	pgp_buf_free(&out);
out:
	pgp_certset_free(set);
	synth_free(&s);
}

/* The stripping use: keep only self-signatures; DROP_BARE drops what is left bare. */
static void
test_filter_third_party_and_drop_bare(void)
{
	synth s;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_buf out;
	pgp_write_stats st;
	pgp_write_opts o = { 0, rec_filter, NULL };
	rec r;
	pk w[8];

	if (!synth_init(&s))
		return;
	set = set_of(s.in.p, s.in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c == NULL)
		goto out;
	memset(&r, 0, sizeof r);
	r.drop_kind = -1;
	r.third_party = 1;
	o.ctx = &r;
	pgp_buf_init(&out, 1 << 20);
	T_EQ_INT(pgp_cert_write(&out, c, &o, &st), PGP_OK);
	/* P U0 S0 A1 U2 K0 SB: the bare A1 and U2 stay */
	w[0] = s.want[0], w[1] = s.want[2], w[2] = s.want[3], w[3] = s.want[5];
	w[4] = s.want[7], w[5] = s.want[9], w[6] = s.want[10];
	T_ASSERT(packets_are(out.p, out.len, w, 7));
	T_EQ_INT(st.sigs_kept, 2);
	T_EQ_INT(st.sigs_dropped, 4);
	T_EQ_INT(st.comps_dropped, 0);
	/* with DROP_BARE: P U0 S0 K0 SB */
	o.flags = PGP_WRITE_DROP_BARE;
	out.len = 0;
	T_EQ_INT(pgp_cert_write(&out, c, &o, &st), PGP_OK);
	w[3] = s.want[9], w[4] = s.want[10];
	T_ASSERT(packets_are(out.p, out.len, w, 5));
	T_EQ_INT(st.packets, 5);
	T_EQ_INT(st.sigs_kept, 2);
	T_EQ_INT(st.sigs_dropped, 4);
	T_EQ_INT(st.comps_dropped, 2);
	pgp_buf_free(&out);
out:
	pgp_certset_free(set);
	synth_free(&s);
}

/* A filter error, the cap and out of room all leave the buffer as it was. */
static void
test_errors_leave_buffer_unchanged(void)
{
	synth s;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_buf out;
	pgp_write_opts o = { 0, rec_filter, NULL };
	rec r;
	int k;

	if (!synth_init(&s))
		return;
	set = set_of(s.in.p, s.in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c == NULL)
		goto out;
	pgp_buf_init(&out, 1 << 20);
	T_EQ_INT(pgp_buf_append(&out, "keep", 4), PGP_OK);
	for (k = 1; k <= 10; k++) {
		memset(&r, 0, sizeof r);
		r.drop_kind = -1;
		r.fail_call = k;
		r.fail_at = k % 2 ? PGP_ERR_NOMEM : PGP_ERR_BAD_SIG;
		o.ctx = &r;
		T_EQ_INT(pgp_cert_write(&out, c, &o, NULL), r.fail_at);
		T_EQ_INT(out.len, 4);
	}
	pgp_buf_free(&out);
	/* cap one octet short */
	pgp_buf_init(&out, s.in.len - 1);
	T_EQ_INT(pgp_cert_write(&out, c, NULL, NULL), PGP_ERR_LIMIT);
	T_EQ_INT(out.len, 0);
	pgp_buf_free(&out);
	pgp_buf_init(&out, s.in.len);
	T_EQ_INT(pgp_cert_write(&out, c, NULL, NULL), PGP_OK);
	T_EQ_INT(out.len, s.in.len);
	pgp_buf_free(&out);
	T_EQ_INT(pgp_cert_write(NULL, c, NULL, NULL), PGP_ERR_INVALID);
out:
	pgp_certset_free(set);
	synth_free(&s);
}

/* gpg's legacy framing comes back byte-exact only with KEEP_FRAMING. */
static void
test_keep_framing_legacy_cert(void)
{
	uint8_t *k;
	size_t len;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_buf out;
	pgp_write_stats st;
	pgp_write_opts o = { PGP_WRITE_KEEP_FRAMING, NULL, NULL };
	pk want[8];
	size_t n;

	k = t_slurp(V "rsa2048-subkey.pgp", &len);
	T_ASSERT(k != NULL);
	if (!k)
		return;
	n = split(k, len, want, 8);
	set = set_of(k, len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c) {
		pgp_buf_init(&out, 1 << 20);
		T_EQ_INT(pgp_cert_write(&out, c, &o, &st), PGP_OK);
		T_ASSERT(out.len == len && memcmp(out.p, k, len) == 0);
		T_EQ_INT(st.kept_framing, 5);
		out.len = 0;
		T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
		/* legacy input: differs in framing, same packets */
		T_ASSERT(out.len != len || memcmp(out.p, k, len) != 0);
		T_ASSERT(packets_are(out.p, out.len, want, n));
		T_EQ_INT(st.kept_framing, 0);
		pgp_buf_free(&out);
	}
	pgp_certset_free(set);
	free(k);
}

/* A stand-alone revocation goes after the primary key's own signatures. */
static void
test_loose_revocation_placement(void)
{
	uint8_t *k;
	size_t len, n;
	pk p[8];
	pgp_buf in, out;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_write_stats st;

	k = t_slurp(V "rsa2048-primary-revoked.pgp", &len);
	T_ASSERT(k != NULL);
	if (!k)
		return;
	/* P REV U S */
	n = split(k, len, p, 8);
	T_EQ_INT(n, 4);
	pgp_buf_init(&in, 1 << 20);
	pgp_buf_init(&out, 1 << 20);
	/* REV first, then the cert without it */
	putp(&in, &p[1]);
	putp(&in, &p[0]);
	putp(&in, &p[2]);
	putp(&in, &p[3]);
	set = set_of(in.p, in.len);
	T_EQ_INT(pgp_certset_count(set), 1);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL && c->nloose == 1 && c->ndsigs == 0);
	if (c) {
		T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
		T_ASSERT(packets_are(out.p, out.len, p, 4));
		T_EQ_INT(st.loose_dups, 0);
	}
	pgp_certset_free(set);
	/* REV first and inside the cert too: written once */
	in.len = 0;
	out.len = 0;
	putp(&in, &p[1]);
	putp(&in, &p[0]);
	putp(&in, &p[1]);
	putp(&in, &p[2]);
	putp(&in, &p[3]);
	set = set_of(in.p, in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL && c->nloose == 1 && c->ndsigs == 1);
	if (c) {
		T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
		T_ASSERT(packets_are(out.p, out.len, p, 4));
		T_EQ_INT(st.loose_dups, 1);
	}
	pgp_certset_free(set);
	/* REV first, the cert has another signature D on the primary:
	 * P D REV U S (the loose revocation after the key's own signatures) */
	in.len = 0;
	out.len = 0;
	putp(&in, &p[1]);
	putp(&in, &p[0]);
	putp(&in, &p[3]);
	putp(&in, &p[2]);
	putp(&in, &p[3]);
	set = set_of(in.p, in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL && c->nloose == 1 && c->ndsigs == 1);
	if (c) {
		pk w[5];
		w[0] = p[0], w[1] = p[3], w[2] = p[1], w[3] = p[2], w[4] = p[3];
		T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
		T_ASSERT(packets_are(out.p, out.len, w, 5));
		T_EQ_INT(st.loose_dups, 0);
	}
	pgp_certset_free(set);
	/* REV first, and second of the primary's two signatures: once */
	in.len = 0;
	out.len = 0;
	putp(&in, &p[1]);
	putp(&in, &p[0]);
	putp(&in, &p[3]);
	putp(&in, &p[1]);
	putp(&in, &p[2]);
	putp(&in, &p[3]);
	set = set_of(in.p, in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL && c->nloose == 1 && c->ndsigs == 2);
	if (c) {
		pk w[5];
		w[0] = p[0], w[1] = p[3], w[2] = p[1], w[3] = p[2], w[4] = p[3];
		T_EQ_INT(pgp_cert_write(&out, c, NULL, &st), PGP_OK);
		T_ASSERT(packets_are(out.p, out.len, w, 5));
		T_EQ_INT(st.loose_dups, 1);
	}
	pgp_certset_free(set);
	pgp_buf_free(&in);
	pgp_buf_free(&out);
	free(k);
}

/*
 * Secret keys: refused by default; with SECRET_AS_PUBLIC their public part
 * is written as tag 6/14, unless the end of the public part is unknown.
 */
static void
test_secret_keys(void)
{
	synth s;
	pgp_buf in, out, pub;
	pgp_certset *set;
	const pgp_cert *c;
	pgp_write_opts o = { PGP_WRITE_SECRET_AS_PUBLIC, NULL, NULL };
	uint8_t sec[600], opq[16];
	/* s2k usage 0, then made-up secret MPIs and a checksum: not parsed */
	static const uint8_t tail[] = { 0x00, 0x00, 0x08, 0xAB, 0x12, 0x34 };

	if (!synth_init(&s))
		return;
	pgp_buf_init(&in, 1 << 20);
	pgp_buf_init(&out, 1 << 20);
	pgp_buf_init(&pub, 1 << 20);
	/* P(secret) U S SK(secret) SB */
	memcpy(sec, s.r[0].body, s.r[0].len);
	memcpy(sec + s.r[0].len, tail, sizeof tail);
	put(&in, PGP_TAG_SECRET_KEY, sec, s.r[0].len + sizeof tail);
	putp(&in, &s.r[1]);
	putp(&in, &s.r[2]);
	memcpy(sec, s.r[3].body, s.r[3].len);
	memcpy(sec + s.r[3].len, tail, sizeof tail);
	put(&in, PGP_TAG_SECRET_SUBKEY, sec, s.r[3].len + sizeof tail);
	putp(&in, &s.r[4]);
	set = set_of(in.p, in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c) {
		T_ASSERT(c->primary.is_secret && c->nsubs == 1 && c->subs[0].key.is_secret);
		T_EQ_INT(pgp_cert_write(&out, c, NULL, NULL), PGP_ERR_UNSUPPORTED);
		T_EQ_INT(out.len, 0);
		T_EQ_INT(pgp_cert_write(&out, c, &o, NULL), PGP_OK);
		T_ASSERT(packets_are(out.p, out.len, s.r, 5));
		/* the same bytes as the public certificate written canonically */
		putp(&pub, &s.r[0]);
		putp(&pub, &s.r[1]);
		putp(&pub, &s.r[2]);
		putp(&pub, &s.r[3]);
		putp(&pub, &s.r[4]);
		T_ASSERT(out.len == pub.len && memcmp(out.p, pub.p, pub.len) == 0);
	}
	pgp_certset_free(set);
	/* v4 secret key of an unknown algorithm (99): public part unknown */
	in.len = 0;
	out.len = 0;
	opq[0] = 4;
	pgp_put_be32(opq + 1, 0x5F000000u);
	opq[5] = 99;
	memset(opq + 6, 0x42, sizeof opq - 6);
	put(&in, PGP_TAG_SECRET_KEY, opq, sizeof opq);
	putp(&in, &s.r[1]);
	set = set_of(in.p, in.len);
	c = pgp_certset_get(set, 0);
	T_ASSERT(c != NULL);
	if (c) {
		T_ASSERT(c->primary.opaque);
		T_EQ_INT(pgp_cert_write(&out, c, &o, NULL), PGP_ERR_UNSUPPORTED);
		T_EQ_INT(out.len, 0);
	}
	pgp_certset_free(set);
	pgp_buf_free(&in);
	pgp_buf_free(&out);
	pgp_buf_free(&pub);
	synth_free(&s);
}

/* ---- armor ---- */

static void
test_armor_kinds_and_headers(void)
{
	pgp_buf b;
	pgp_armor a;
	size_t pos = 0, hl;
	static const pgp_armor_hdr h[] = {
		{ "Comment", "wotkit test" }, { "Comment", "Gr\xc3\xbc\xc3\x9f" "e" } };
	const char *want =
	    "-----BEGIN PGP MESSAGE-----\n"
	    "Comment: wotkit test\n"
	    "Comment: Gr\xc3\xbc\xc3\x9f" "e\n"
	    "\n"
	    "aGVsbG8=\n"
	    "=R/WK\n"
	    "-----END PGP MESSAGE-----\n";

	pgp_buf_init(&b, 4096);
	T_EQ_INT(pgp_buf_append(&b, "x", 1), PGP_OK);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_MESSAGE, h, 2,
	    (const uint8_t *)"hello", 5), PGP_OK);
	T_EQ_INT(b.len, 1 + strlen(want));
	T_ASSERT(b.len == 1 + strlen(want) && memcmp(b.p + 1, want, b.len - 1) == 0);
	/* the decoder gives back data and headers */
	pos = 1;
	T_EQ_INT(pgp_armor_next(&a, b.p, b.len, &pos, NULL), PGP_OK);
	T_EQ_STR(a.label, "PGP MESSAGE");
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	hl = (size_t)(strstr(want, "\n\n") + 1 - (want + 28));
	T_ASSERT(a.headers.len == hl && memcmp(a.headers.p, want + 28, hl) == 0);
	T_EQ_INT(a.has_crc, 1);
	pgp_armor_release(&a);
	/* labels */
	T_EQ_STR(pgp_armor_kind_label(PGP_ARMOR_PUBLIC_KEY), "PGP PUBLIC KEY BLOCK");
	T_EQ_STR(pgp_armor_kind_label(PGP_ARMOR_SIGNATURE), "PGP SIGNATURE");
	T_EQ_STR(pgp_armor_kind_label(PGP_ARMOR_MESSAGE), "PGP MESSAGE");
	T_ASSERT(pgp_armor_kind_label((pgp_armor_kind)7) == NULL);
	/* one enum with classify.h: the kinds wotkit does not write have no label */
	T_ASSERT(pgp_armor_kind_label(PGP_ARMOR_NONE) == NULL);
	T_ASSERT(pgp_armor_kind_label(PGP_ARMOR_PRIVATE_KEY) == NULL);
	T_ASSERT(pgp_armor_kind_label(PGP_ARMOR_OTHER) == NULL);
	b.len = 0;
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_SIGNATURE, NULL, 0, NULL, 0), PGP_OK);
	T_ASSERT(b.len == 65 && memcmp(b.p, "-----BEGIN PGP SIGNATURE-----\n\n=twTO\n"
	    "-----END PGP SIGNATURE-----\n", 65) == 0);
	pgp_buf_free(&b);
}

static void
bad_hdr(const char *k, const char *v, pgp_err want)
{
	pgp_buf b;
	pgp_armor_hdr h;

	h.key = k;
	h.value = v;
	pgp_buf_init(&b, 1 << 20);
	T_EQ_INT(pgp_buf_append(&b, "ab", 2), PGP_OK);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_MESSAGE, &h, 1, (const uint8_t *)"x", 1), want);
	if (want != PGP_OK)
		T_EQ_INT(b.len, 2);
	else
		T_ASSERT(b.len > 2 && memcmp(b.p + 2, "-----BEGIN PGP MESSAGE-----\nComment: ", 37) == 0);
	pgp_buf_free(&b);
}

static void
test_armor_rejects_bad_headers(void)
{
	char *big;
	pgp_buf b;

	bad_hdr("", "v", PGP_ERR_INVALID);
	bad_hdr("Comment", "", PGP_ERR_INVALID);
	bad_hdr(NULL, "v", PGP_ERR_INVALID);
	bad_hdr("Com:ment", "v", PGP_ERR_INVALID);
	bad_hdr("Com ment", "v", PGP_ERR_INVALID);
	bad_hdr("Comment", "a\nb", PGP_ERR_INVALID);
	bad_hdr("Comment", "a\rb", PGP_ERR_INVALID);
	bad_hdr("Comment", "a\x1b[31mb", PGP_ERR_INVALID);
	bad_hdr("Comment", "trailing ", PGP_ERR_INVALID);
	bad_hdr("Comment", " leading", PGP_ERR_INVALID);
	bad_hdr("Comment", "tab\t", PGP_ERR_INVALID);
	bad_hdr("Comment", "\xc0\x80", PGP_ERR_INVALID);        /* overlong NUL */
	bad_hdr("Comment", "\xed\xa0\x80", PGP_ERR_INVALID);    /* surrogate */
	bad_hdr("Comment", "\xe2\x82", PGP_ERR_INVALID);        /* cut short */
	bad_hdr("Comment", "\xe2\x82\xac ok", PGP_OK);          /* euro sign */
	big = malloc(PGP_MAX_ARMOR_LINE + 1);
	T_ASSERT(big != NULL);
	if (big) {
		memset(big, 'a', PGP_MAX_ARMOR_LINE);
		big[PGP_MAX_ARMOR_LINE] = 0;
		bad_hdr("Comment", big, PGP_ERR_LIMIT);
		free(big);
	}
	pgp_buf_init(&b, 1024);
	T_EQ_INT(pgp_armor_write(&b, (pgp_armor_kind)99, NULL, 0, NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_PRIVATE_KEY, NULL, 0, NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_NONE, NULL, 0, NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_MESSAGE, NULL, 0, NULL, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_MESSAGE, NULL, 1, NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(b.len, 0);
	pgp_buf_free(&b);
	/* the cap of out */
	pgp_buf_init(&b, 60);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_MESSAGE, NULL, 0, (const uint8_t *)"x", 1),
	    PGP_ERR_LIMIT);
	T_EQ_INT(b.len, 0);
	pgp_buf_free(&b);
}

/* Long data: 64-column lines with headers, decodes back. */
static void
test_armor_long_lines(void)
{
	static const pgp_armor_hdr h[] = { { "Version", "wotkit" } };
	uint8_t data[3001];
	pgp_buf b, d;
	size_t i, start = 0, nlines = 0;

	for (i = 0; i < sizeof data; i++)
		data[i] = (uint8_t)(i * 31 + 7);
	pgp_buf_init(&b, 1 << 20);
	T_EQ_INT(pgp_armor_write(&b, PGP_ARMOR_PUBLIC_KEY, h, 1, data, sizeof data), PGP_OK);
	for (i = 0; i < b.len; i++) {
		if (b.p[i] != '\n')
			continue;
		if (b.p[start] != '-' && b.p[start] != '=' && i > start &&
		    memcmp(b.p + start, "Version", 7) != 0) {
			nlines++;
			/* 4004 characters: 62 full lines and one of 36 */
			T_ASSERT(i - start == 64 || (nlines == 63 && i - start == 36));
		}
		start = i + 1;
	}
	T_EQ_INT(nlines, 63);
	T_EQ_INT(pgp_armor_decode_all(&d, b.p, b.len, NULL), PGP_OK);
	T_ASSERT(d.len == sizeof data && memcmp(d.p, data, sizeof data) == 0);
	pgp_buf_free(&d);
	pgp_buf_free(&b);
}

/* ---- round trip over real certificates ---- */

typedef struct rt {
	size_t files, certs, secret, packets, bytes, exact, legacy, fails;
	double secs;      /* everything */
	double load;      /* reading + pgp_certset_add */
	double write;     /* one plain pgp_cert_write of every certificate */
} rt;

/* One expected packet of a certificate, derived from cert->raw. */
typedef struct xp {
	unsigned tag;
	pgp_view body;
	pgp_view orig;     /* original header + body; len 0 if converted */
} xp;

#define FAIL(st, ...) do { \
	(st)->fails++; \
	if ((st)->fails <= 10) { fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

/*
 * The writer's component order (cert.h: direct signatures, user IDs and
 * attributes, subkeys, each with the signatures that followed it): a copy
 * with subkeys before user IDs (vectors/certorder) is written in this order.
 * Stable within each kind; *canon = 0 when a packet moved.
 */
static size_t
component_order(xp *x, size_t n, int *canon)
{
	xp *t = n ? malloc(n * sizeof *t) : NULL;
	unsigned *kind = n ? malloc(n * sizeof *kind) : NULL;
	size_t i, m = 0;
	unsigned k = 0, pass;
	if (n && (t == NULL || kind == NULL)) {
		free(t);
		free(kind);
		return (size_t)-1;
	}
	for (i = 0; i < n; i++) {
		if (i > 0 && (x[i].tag == PGP_TAG_USER_ID || x[i].tag == PGP_TAG_USER_ATTRIBUTE))
			k = 1;
		else if (i > 0 && x[i].tag == PGP_TAG_PUBLIC_SUBKEY)
			k = 2;
		kind[i] = k;
	}
	for (pass = 0; pass < 3; pass++)
		for (i = 0; i < n; i++)
			if (kind[i] == pass) {
				if (m != i)
					*canon = 0;
				t[m++] = x[i];
			}
	if (n)
		memcpy(x, t, n * sizeof *t);
	free(t);
	free(kind);
	return n;
}

/*
 * The packets the writer should produce for c, read from c->raw with the
 * certificate grammar of cert.c: trust, marker, padding and unknown packets
 * are not part of a certificate; a subkey that does not parse is dropped
 * with its signatures; secret keys give their public part.
 * Returns the count, or (size_t)-1 on overflow of max.
 * *canon: 1 if raw is exactly these packets in shortest new-format framing.
 */
static size_t
expect_packets(const pgp_cert *c, xp *out, size_t max, int *canon, int *convertible)
{
	pgp_rd r;
	pgp_pkt pkt;
	size_t n = 0;
	int on = 1, first = 1;

	*canon = 1;
	*convertible = 1;
	pgp_rd_init(&r, c->raw.p, c->raw.len);
	while (!pgp_rd_empty(&r)) {
		pgp_key k;
		int add = 0;
		unsigned tag;
		pgp_view body;

		if (pgp_pkt_next(&r, &pkt, NULL) != PGP_OK)
			return (size_t)-1;
		tag = pkt.tag;
		body = pgp_rd_as_view(&pkt.body);
		if (first || tag == PGP_TAG_PUBLIC_SUBKEY || tag == PGP_TAG_SECRET_SUBKEY) {
			if (pgp_key_parse(&k, &pkt, NULL) == PGP_OK) {
				add = 1;
				if (k.is_secret) {
					tag = first ? PGP_TAG_PUBLIC_KEY : PGP_TAG_PUBLIC_SUBKEY;
					body = k.body;
					if (k.opaque && k.version < 5)
						*convertible = 0;
				}
			}
			on = add;
			first = 0;
		} else if (tag == PGP_TAG_USER_ID || tag == PGP_TAG_USER_ATTRIBUTE) {
			add = on = 1;
		} else if (tag == PGP_TAG_SIGNATURE) {
			add = on;
		}
		if (!add || pkt.tag != tag || !pkt.new_format ||
		    pkt.hdr_len != shortest_hdr(pkt.body.len))
			*canon = 0;
		if (add) {
			if (n == max)
				return (size_t)-1;
			out[n].tag = tag;
			out[n].body = body;
			out[n].orig.p = pkt.body.p - pkt.hdr_len;
			out[n].orig.len = pkt.tag == tag ? pkt.hdr_len + pkt.body.len : 0;
			n++;
		}
		pgp_pkt_release(&pkt);
	}
	return component_order(out, n, canon);
}

static pgp_err
no_loose(void *ctx, const pgp_write_item *it, int *keep)
{
	(void)ctx;
	*keep = it->kind != PGP_COMP_LOOSE;
	return PGP_OK;
}

static void
roundtrip_cert(rt *st, const char *name, const pgp_cert *c, xp *x, size_t max)
{
	pgp_write_opts o = { 0, no_loose, NULL };
	pgp_buf out, keep, d;
	pgp_rd r;
	pgp_pkt pkt;
	size_t n, i, hl;
	int canon, conv;
	pgp_err e;

	pgp_buf_init(&out, (size_t)64 << 20);
	pgp_buf_init(&keep, (size_t)64 << 20);
	for (i = 0, conv = c->primary.is_secret; i < c->nsubs; i++)
		conv |= c->subs[i].key.is_secret;
	if (conv) {
		st->secret++;
		if ((e = pgp_cert_write(&out, c, NULL, NULL)) != PGP_ERR_UNSUPPORTED)
			FAIL(st, "%s: secret cert at %zu written without the flag (%d)",
			    name, c->off, e);
		o.flags |= PGP_WRITE_SECRET_AS_PUBLIC;
	}
	n = expect_packets(c, x, max, &canon, &conv);
	if (n == (size_t)-1) {
		FAIL(st, "%s: cert at %zu: raw does not frame", name, c->off);
		goto out;
	}
	st->certs++;
	e = pgp_cert_write(&out, c, &o, NULL);
	if (!conv) {
		if (e != PGP_ERR_UNSUPPORTED)
			FAIL(st, "%s: opaque secret key at %zu: %d", name, c->off, e);
		goto out;
	}
	if (e != PGP_OK) {
		FAIL(st, "%s: cert at %zu: write failed: %s", name, c->off, pgp_strerror(e));
		goto out;
	}
	/* canonical framing: packet by packet, tag + body, shortest headers */
	pgp_rd_init(&r, out.p, out.len);
	for (i = 0; i < n; i++) {
		if (pgp_pkt_next(&r, &pkt, NULL) != PGP_OK) {
			FAIL(st, "%s: cert at %zu: output ends after %zu of %zu packets",
			    name, c->off, i, n);
			goto out;
		}
		hl = pkt.hdr_len;
		pgp_pkt_release(&pkt);
		if (pkt.tag != x[i].tag || pkt.body.len != x[i].body.len ||
		    memcmp(pkt.body.p, x[i].body.p, x[i].body.len) != 0 ||
		    !pkt.new_format || hl != shortest_hdr(pkt.body.len)) {
			FAIL(st, "%s: cert at %zu: packet %zu differs", name, c->off, i);
			goto out;
		}
	}
	if (!pgp_rd_empty(&r))
		FAIL(st, "%s: cert at %zu: %zu extra octets", name, c->off, r.len);
	st->packets += n;
	st->bytes += out.len;
	/* new-format shortest input: byte for byte */
	if (canon) {
		st->exact++;
		if (out.len != c->raw.len || memcmp(out.p, c->raw.p, out.len) != 0)
			FAIL(st, "%s: canonical cert at %zu not byte-exact", name, c->off);
	} else {
		st->legacy++;
	}
	/* original framing: the input's packets byte for byte */
	o.flags |= PGP_WRITE_KEEP_FRAMING;
	if ((e = pgp_cert_write(&keep, c, &o, NULL)) != PGP_OK) {
		FAIL(st, "%s: cert at %zu: keep-framing write: %d", name, c->off, e);
		goto out;
	}
	for (i = 0, hl = 0; i < n; i++) {
		pgp_view v = x[i].orig;
		size_t h = shortest_hdr(x[i].body.len);
		if (v.len == 0) { /* converted secret key: canonical */
			if (hl + h + x[i].body.len > keep.len ||
			    memcmp(keep.p + hl + h, x[i].body.p, x[i].body.len) != 0)
				break;
			hl += h + x[i].body.len;
			continue;
		}
		if (hl + v.len > keep.len || memcmp(keep.p + hl, v.p, v.len) != 0)
			break;
		hl += v.len;
	}
	if (i != n || hl != keep.len)
		FAIL(st, "%s: cert at %zu: keep-framing output differs at packet %zu",
		    name, c->off, i);
	/* armor and back */
	pgp_buf_init(&d, 0);
	keep.len = 0;
	if ((e = pgp_armor_write(&keep, PGP_ARMOR_PUBLIC_KEY, NULL, 0, out.p, out.len)) != PGP_OK ||
	    (e = pgp_armor_decode_all(&d, keep.p, keep.len, NULL)) != PGP_OK ||
	    d.len != out.len || memcmp(d.p, out.p, out.len) != 0)
		FAIL(st, "%s: cert at %zu: armor round trip (%d)", name, c->off, e);
	pgp_buf_free(&d);
out:
	pgp_buf_free(&out);
	pgp_buf_free(&keep);
}

/* Certificates of one file (binary or armored); 0 if it holds none. */
static pgp_certset *
load_file(const char *path, uint8_t **bytes)
{
	size_t len;
	uint8_t *p = t_slurp(path, &len);
	pgp_certset *s = NULL;

	*bytes = NULL;
	if (p == NULL)
		return NULL;
	if (pgp_armor_is_armored(p, len)) {
		pgp_buf d;
		if (pgp_armor_decode_all(&d, p, len, NULL) != PGP_OK) {
			free(p);
			return NULL;
		}
		free(p);
		p = pgp_buf_take(&d, &len);
	}
	if (p == NULL || pgp_certset_new(&s) != PGP_OK) {
		free(p);
		return NULL;
	}
	(void)pgp_certset_add(s, p, len, NULL); /* certs before an error are kept */
	if (pgp_certset_count(s) == 0) {
		pgp_certset_free(s);
		free(p);
		return NULL;
	}
	*bytes = p;
	return s;
}

static double now(void);
static xp *xbuf;
#define XMAX (PGP_MAX_UIDS + PGP_MAX_SUBKEYS + 8u * PGP_MAX_SIGS_PER_COMP)

static void
roundtrip_file(rt *st, const char *path)
{
	uint8_t *bytes;
	double t0 = now();
	pgp_certset *s = load_file(path, &bytes);
	size_t i;
	pgp_buf b;
	pgp_write_opts o = { PGP_WRITE_SECRET_AS_PUBLIC, NULL, NULL };

	if (s == NULL)
		return;
	st->load += now() - t0;
	st->files++;
	/* the cost of writing alone: every certificate into one buffer */
	t0 = now();
	pgp_buf_init(&b, (size_t)1 << 30);
	for (i = 0; i < pgp_certset_count(s); i++)
		(void)pgp_cert_write(&b, pgp_certset_get(s, i), &o, NULL);
	pgp_buf_free(&b);
	st->write += now() - t0;
	/* each copy as parsed (a set merges copies of one key; a merged
	 * certificate has no single input to compare with) */
	for (i = 0; i < pgp_certset_copies(s); i++)
		roundtrip_cert(st, path, pgp_certset_copy(s, i), xbuf, XMAX);
	pgp_certset_free(s);
	free(bytes);
}

static void
roundtrip_dir(rt *st, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[4096];
	struct stat sb;

	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == 0 ||
		    (e->d_name[1] == '.' && e->d_name[2] == 0)))
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= sizeof path)
			continue;
		if (stat(path, &sb) != 0)
			continue;
		if (S_ISDIR(sb.st_mode))
			roundtrip_dir(st, path);
		else if (S_ISREG(sb.st_mode))
			roundtrip_file(st, path);
	}
	closedir(d);
}

static double
now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void
report(const char *what, const rt *st)
{
	printf("# %s: %zu files, %zu certs (%zu secret), %zu packets, %zu octets; "
	    "%zu byte-exact canonical, %zu legacy-framed; %.3f s (load %.3f s, "
	    "write alone %.3f s)\n", what, st->files, st->certs, st->secret,
	    st->packets, st->bytes, st->exact, st->legacy, st->secs, st->load,
	    st->write);
}

static void
test_roundtrip_debian_keyrings(void)
{
	rt all, one;
	DIR *d = opendir("/usr/share/keyrings");
	struct dirent *e;
	char path[4096];

	memset(&all, 0, sizeof all);
	if (d == NULL) {
		printf("skip - /usr/share/keyrings absent: no Debian keyring round trip\n");
		return;
	}
	while ((e = readdir(d)) != NULL) {
		size_t l = strlen(e->d_name);
		double t0;
		if (l < 5 || strcmp(e->d_name + l - 4, ".gpg") != 0)
			continue;
		snprintf(path, sizeof path, "/usr/share/keyrings/%s", e->d_name);
		memset(&one, 0, sizeof one);
		t0 = now();
		roundtrip_file(&one, path);
		one.secs = now() - t0;
		report(e->d_name, &one);
		all.files += one.files, all.certs += one.certs, all.fails += one.fails;
	}
	closedir(d);
	if (all.certs == 0)
		printf("skip - no certificates in /usr/share/keyrings/*.gpg\n");
	T_EQ_INT(all.fails, 0);
}

static void
test_roundtrip_corpus(void)
{
	const char *c = t_corpus();
	rt st;
	double t0 = now();

	memset(&st, 0, sizeof st);
	if (c == NULL) {
		printf("skip - corpus absent (set WOTKIT_CORPUS): no corpus round trip\n");
		return;
	}
	roundtrip_dir(&st, c);
	st.secs = now() - t0;
	report("corpus", &st);
	T_ASSERT(st.certs > 50);
	T_EQ_INT(st.fails, 0);
}

static void
test_roundtrip_vectors(void)
{
	rt st;
	double t0 = now();

	memset(&st, 0, sizeof st);
	roundtrip_dir(&st, "vectors");
	st.secs = now() - t0;
	report("vectors", &st);
	T_ASSERT(st.certs > 50);
	T_EQ_INT(st.fails, 0);
}

/* ---- helper mode for tests/cli/write_roundtrip.sh ---- */

static int
export_file(const char *prefix, const char *path)
{
	uint8_t *bytes;
	pgp_certset *s = load_file(path, &bytes);
	pgp_write_opts o = { 0, NULL, NULL };
	pgp_buf bin, arm;
	char name[4096];
	FILE *f;
	size_t i, n = 0;
	int rc = 1;

	if (s == NULL) {
		fprintf(stderr, "%s: no certificates\n", path);
		return 1;
	}
	pgp_buf_init(&bin, (size_t)1 << 30);
	pgp_buf_init(&arm, (size_t)2 << 30);
	for (i = 0; i < pgp_certset_count(s); i++) {
		const pgp_cert *c = pgp_certset_get(s, i);
		pgp_err e;
		if (c->primary.is_secret)
			continue;
		if ((e = pgp_cert_write(&bin, c, &o, NULL)) != PGP_OK) {
			fprintf(stderr, "%s: cert at %zu: %s\n", path, c->off, pgp_strerror(e));
			goto out;
		}
		n++;
	}
	if (pgp_armor_write(&arm, PGP_ARMOR_PUBLIC_KEY, NULL, 0, bin.p, bin.len) != PGP_OK)
		goto out;
	snprintf(name, sizeof name, "%s.pgp", prefix);
	if ((f = fopen(name, "wb")) == NULL || fwrite(bin.p, 1, bin.len, f) != bin.len ||
	    fclose(f) != 0)
		goto out;
	snprintf(name, sizeof name, "%s.asc", prefix);
	if ((f = fopen(name, "wb")) == NULL || fwrite(arm.p, 1, arm.len, f) != arm.len ||
	    fclose(f) != 0)
		goto out;
	printf("%zu\n", n);
	rc = 0;
out:
	pgp_buf_free(&bin);
	pgp_buf_free(&arm);
	pgp_certset_free(s);
	free(bytes);
	return rc;
}

int
main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "--export") == 0)
		return export_file(argv[2], argv[3]);
	if (argc != 1) {
		fprintf(stderr, "usage: test_write [--export PREFIX FILE]\n");
		return 2;
	}
	xbuf = malloc(XMAX * sizeof *xbuf);
	if (xbuf == NULL)
		return 1;
	T_RUN(test_header_length_boundaries);
	T_RUN(test_header_limits);
	T_RUN(test_packets_parse_back);
	T_RUN(test_reemit_parsed_packets);
	T_RUN(test_cert_unfiltered_is_byte_exact);
	T_RUN(test_filter_drops_signature_and_component);
	T_RUN(test_filter_third_party_and_drop_bare);
	T_RUN(test_errors_leave_buffer_unchanged);
	T_RUN(test_keep_framing_legacy_cert);
	T_RUN(test_loose_revocation_placement);
	T_RUN(test_secret_keys);
	T_RUN(test_armor_kinds_and_headers);
	T_RUN(test_armor_rejects_bad_headers);
	T_RUN(test_armor_long_lines);
	T_RUN(test_roundtrip_vectors);
	T_RUN(test_roundtrip_corpus);
	T_RUN(test_roundtrip_debian_keyrings);
	free(xbuf);
	return T_DONE();
}
