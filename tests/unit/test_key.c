/* test_key.c - key packets, fingerprints, key IDs and MPIs (pgp/key.c, pgp/mpi.c). */
#include "t.h"
#include "t_dearmor.h"
#include "pgp/limits.h"
#include "pgp/packet.h"

static void
hex(char *out, const uint8_t *p, size_t n)
{
	static const char d[] = "0123456789ABCDEF";
	size_t i;
	for (i = 0; i < n; i++) {
		out[2 * i] = d[p[i] >> 4];
		out[2 * i + 1] = d[p[i] & 15];
	}
	out[2 * n] = 0;
}

/* A fake packet around a body, for pgp_key_parse. */
static pgp_pkt
mkpkt(int tag, const unsigned char *body, size_t n)
{
	pgp_pkt pkt;
	memset(&pkt, 0, sizeof pkt);
	pkt.tag = (uint8_t)tag;
	pgp_rd_init(&pkt.body, body, n);
	return pkt;
}

static pgp_err
parse_body(pgp_key *k, int tag, const unsigned char *body, size_t n, pgp_diag *d)
{
	pgp_pkt pkt = mkpkt(tag, body, n);
	return pgp_key_parse(k, &pkt, d);
}

/* Every strict prefix of a valid key body fails with TRUNCATED. */
static void
prefixes_truncated(int tag, const unsigned char *body, size_t n)
{
	size_t k;
	for (k = 0; k < n; k++) {
		pgp_key key;
		pgp_diag d = { 0, 0, NULL };
		pgp_err e = parse_body(&key, tag, body, k, &d);
		T_EQ_INT(e, PGP_ERR_TRUNCATED);
		if (e != PGP_ERR_TRUNCATED)
			fprintf(stderr, "  prefix length %zu\n", k);
		T_ASSERT(d.what != NULL);
	}
}

/*
 * Walk all packets of a binary key file; collect fingerprints (hex) of the
 * key packets in order. Every packet must frame and every key must parse.
 */
static int
fprs_of(const unsigned char *p, size_t n, char out[][65], int max)
{
	pgp_rd in;
	pgp_pkt pkt;
	pgp_diag d;
	int count = 0;
	pgp_err e;

	pgp_rd_init(&in, p, n);
	while ((e = pgp_pkt_next(&in, &pkt, &d)) == PGP_OK) {
		if (pkt.tag == 5 || pkt.tag == 6 || pkt.tag == 7 || pkt.tag == 14) {
			pgp_key k;
			pgp_err ke = pgp_key_parse(&k, &pkt, &d);
			T_EQ_INT(ke, PGP_OK);
			if (ke != PGP_OK)
				fprintf(stderr, "  key at %zu: %s\n", pkt.off, d.what);
			if (ke == PGP_OK && count < max)
				hex(out[count], k.fpr.v, k.fpr.len);
			count++;
		}
		pgp_pkt_release(&pkt);
	}
	T_EQ_INT(e, PGP_ERR_NOT_FOUND);
	return count;
}

struct corpus_key {
	const char *path;
	int armored;
	int nkeys;
	const char *fpr[3];
	int algo;
	unsigned bits;
};

/*
 * Expected fingerprints copied from GnuPG 2.2.40 output:
 *   gpg --with-colons --import-options show-only --import FILE   (fpr lines)
 * and, for the v6 key, from RFC 9580 Appendix A.3 (the primary, and the
 * subkey fingerprint printed in the appendix); A.1 from RFC 9580 Appendix A.1.
 */
static const struct corpus_key corpus_keys[] = {
	{ "sequoia/keys/testy.pgp", 0, 2,
	  { "3E8877C877274692975189F5D03F6F865226FE8B",
	    "01F187575BD45644046564C149E2118166C92632" }, PGP_PK_RSA, 2048 },
	{ "sequoia/keys/dsa2048-elgamal3072.pgp", 0, 2,
	  { "06488229470B7879A4C781C129583FBA14D5B872",
	    "81FF167C6FABF9954F9CD95BDE0A3AD89961F4E1" }, PGP_PK_DSA, 2048 },
	{ "sequoia/keys/erika-corinna-daniela-simone-antonia-nistp521.pgp", 0, 1,
	  { "B9E41C493B8988A7EDC502D99A404C898D411DC8" }, PGP_PK_ECDSA, 521 },
	{ "sequoia/keys/emmelie-dorothea-dina-samantha-awina-ed25519.pgp", 0, 2,
	  { "8E8C33FA4626337976D97978069C0C348DD82C19",
	    "061C3CA44AFF0EC58DC66E9522E3FAFE96B56C32" }, PGP_PK_EDDSA_LEGACY, 255 },
	{ "rnp/keyrings/6/pubring.gpg", 0, -1,
	  { "B8179EB4CA81C63B3DCB808D6BC7EA4A77965273" }, PGP_PK_RSA, 2048 },
	{ "rfc9580/A.1.v4-ed25519legacy-key.asc", 1, 1,
	  { "C959BDBAFA32A2F89A153B678CFDE12197965A9A" }, PGP_PK_EDDSA_LEGACY, 255 },
	{ "rfc9580/A.3.transferable-pubkey-v6.asc", 1, 2,
	  { "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9",
	    "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885" },
	  PGP_PK_ED25519, 255 },
	/* the secret key of A.3: the public part hashes to the same fingerprints */
	{ "rfc9580/A.4.transferable-seckey-v6.asc", 1, 2,
	  { "CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9",
	    "12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885" },
	  PGP_PK_ED25519, 255 },
};

static unsigned char *
load(const char *corpus, const char *rel, int armored, size_t *n)
{
	char path[4096];
	unsigned char *raw, *bin;
	size_t rn = 0;
	snprintf(path, sizeof path, "%s/%s", corpus, rel);
	raw = t_slurp(path, &rn);
	if (!raw || !armored) {
		*n = rn;
		return raw;
	}
	bin = malloc(rn);
	if (bin)
		*n = t_dearmor(raw, rn, bin, rn);
	free(raw);
	return bin;
}

static void
test_corpus_fingerprints(void)
{
	const char *c = t_corpus();
	size_t i;
	if (!c) {
		printf("skip - corpus absent\n");
		return;
	}
	for (i = 0; i < sizeof corpus_keys / sizeof corpus_keys[0]; i++) {
		const struct corpus_key *ck = &corpus_keys[i];
		char got[8][65];
		size_t n = 0;
		unsigned char *p = load(c, ck->path, ck->armored, &n);
		int cnt, j;
		T_ASSERT(p != NULL);
		if (!p)
			continue;
		memset(got, 0, sizeof got);
		cnt = fprs_of(p, n, got, 8);
		if (ck->nkeys >= 0)
			T_EQ_INT(cnt, ck->nkeys);
		for (j = 0; j < 3 && ck->fpr[j]; j++) {
			T_EQ_STR(got[j], ck->fpr[j]);
		}
		/* the primary's algorithm and size as gpg shows them */
		{
			pgp_rd in;
			pgp_pkt pkt;
			pgp_key k;
			pgp_rd_init(&in, p, n);
			T_EQ_INT(pgp_pkt_next(&in, &pkt, NULL), PGP_OK);
			T_EQ_INT(pgp_key_parse(&k, &pkt, NULL), PGP_OK);
			T_EQ_INT(k.algo, ck->algo);
			T_EQ_INT(k.bits, ck->bits);
			/* key ID: v4 low 8 octets, v6 high 8 octets of the fpr */
			if (k.version == 4)
				T_EQ_MEM(k.keyid, k.fpr.v + 12, 8);
			else
				T_EQ_MEM(k.keyid, k.fpr.v, 8);
			pgp_pkt_release(&pkt);
		}
		free(p);
	}
}

/* v3 RSA keys (RFC 4880 §12.2). The key IDs are the issuer of each key's own
 * self-signature (gpg --list-packets: "keyid 554FE2CC2D28B459"); the MD5
 * fingerprints were computed independently with Python hashlib over n || e. */
static void
test_v3_keys(void)
{
	static const struct { const char *path, *fpr, *keyid; } v3[] = {
		{ "sequoia/keys/john-v3.pgp", "B7AF2DF41BD81DF0167A27A432D1778F",
		  "554FE2CC2D28B459" },
		{ "rnp/keyrings/4/rsav3-p.asc", "027861C639D54123053E1144A38D12AE",
		  "7D0BC10E933404C9" },
	};
	const char *c = t_corpus();
	size_t i;
	if (!c) {
		printf("skip - corpus absent\n");
		return;
	}
	for (i = 0; i < 2; i++) {
		size_t n = 0;
		unsigned char *p = load(c, v3[i].path, 1, &n);
		pgp_rd in;
		pgp_pkt pkt;
		pgp_key k;
		char h[65];
		T_ASSERT(p != NULL);
		if (!p)
			continue;
		pgp_rd_init(&in, p, n);
		T_EQ_INT(pgp_pkt_next(&in, &pkt, NULL), PGP_OK);
		T_EQ_INT(pgp_key_parse(&k, &pkt, NULL), PGP_OK);
		T_EQ_INT(k.version, 3);
		T_EQ_INT(k.algo, PGP_PK_RSA);
		T_EQ_INT(k.bits, 1024);
		T_EQ_INT(k.fpr.len, 16);
		hex(h, k.fpr.v, k.fpr.len);
		T_EQ_STR(h, v3[i].fpr);
		hex(h, k.keyid, 8);
		T_EQ_STR(h, v3[i].keyid);
		prefixes_truncated(6, pkt.body.p, pkt.body.len);
		free(p);
	}
}

static const unsigned char cv25519_oid[] = {
	0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01
};

/* v4 ECDH on Curve25519: OID, MPI point (0x40 || 32 octets), KDF params. */
static size_t
mk_ecdh(unsigned char *b, unsigned char kdflen)
{
	size_t n = 0, i;
	b[n++] = 4;
	b[n++] = 0x5C; b[n++] = 0x00; b[n++] = 0x00; b[n++] = 0x01;
	b[n++] = PGP_PK_ECDH;
	b[n++] = sizeof cv25519_oid;
	memcpy(b + n, cv25519_oid, sizeof cv25519_oid);
	n += sizeof cv25519_oid;
	b[n++] = 0x01; b[n++] = 0x07; /* 263 bits */
	b[n++] = 0x40;
	for (i = 0; i < 32; i++)
		b[n++] = (unsigned char)(i + 1);
	b[n++] = kdflen;
	for (i = 0; i < kdflen; i++)
		b[n++] = (unsigned char)(i == 0 ? 1 : i == 1 ? 8 : 7);
	return n;
}

static void
test_ecdh(void)
{
	unsigned char b[128];
	size_t n = mk_ecdh(b, 3);
	pgp_key k;
	pgp_diag d;
	T_EQ_INT(parse_body(&k, 14, b, n, &d), PGP_OK);
	T_EQ_INT(k.version, 4);
	T_EQ_INT(k.is_subkey, 1);
	T_EQ_INT(k.created, 0x5C000001);
	T_EQ_INT(k.curve, PGP_CURVE_CV25519);
	T_EQ_STR(pgp_curve_name(k.curve), "Curve25519");
	T_EQ_INT(k.bits, 255);
	T_EQ_INT(k.nmpi, 1);
	T_EQ_INT(k.mpi[0].bits, 263);
	T_EQ_INT(k.mpi[0].bad_bits, 0);
	T_EQ_INT(k.kdf.len, 3);
	T_EQ_INT(k.kdf.p[1], 8);
	T_EQ_INT(k.oid.len, sizeof cv25519_oid);
	T_EQ_INT(k.material.len, n - 6);
	T_EQ_INT(k.body.len, n);
	T_EQ_INT(k.fpr.len, 20);
	prefixes_truncated(14, b, n);
	/* KDF parameters shorter than 3 octets */
	n = mk_ecdh(b, 2);
	T_EQ_INT(parse_body(&k, 14, b, n, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, n - 3);
	/* reserved OID lengths 0 and 0xFF */
	n = mk_ecdh(b, 3);
	b[6] = 0;
	T_EQ_INT(parse_body(&k, 14, b, n, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 6);
	b[6] = 0xFF;
	T_EQ_INT(parse_body(&k, 14, b, n, &d), PGP_ERR_MALFORMED);
	/* an OID we do not know is not an error */
	b[6] = sizeof cv25519_oid;
	b[16] = 0x02;
	T_EQ_INT(parse_body(&k, 14, b, n, &d), PGP_OK);
	T_EQ_INT(k.curve, PGP_CURVE_UNKNOWN);
	T_EQ_INT(k.bits, 0);
	/* trailing octet after the material of a public packet */
	b[16] = 0x01;
	b[n] = 0;
	T_EQ_INT(parse_body(&k, 14, b, n + 1, &d), PGP_ERR_MALFORMED);
	T_EQ_STR(d.what, "trailing data after key material");
	T_EQ_INT(d.offset, n);
	/* ... but in a secret subkey it is the secret part: body = public part */
	T_EQ_INT(parse_body(&k, 7, b, n + 1, &d), PGP_OK);
	T_EQ_INT(k.is_secret, 1);
	T_EQ_INT(k.body.len, n);
	/* not a key packet */
	T_EQ_INT(parse_body(&k, 2, b, n, &d), PGP_ERR_INVALID);
}

static void
test_curve_table(void)
{
	static const struct { const char *hex; pgp_curve c; unsigned bits; } t[] = {
		{ "2A8648CE3D030107", PGP_CURVE_P256, 256 },
		{ "2B81040022", PGP_CURVE_P384, 384 },
		{ "2B81040023", PGP_CURVE_P521, 521 },
		{ "2B2403030208010107", PGP_CURVE_BP256, 256 },
		{ "2B240303020801010B", PGP_CURVE_BP384, 384 },
		{ "2B240303020801010D", PGP_CURVE_BP512, 512 },
		{ "2B06010401DA470F01", PGP_CURVE_ED25519, 255 },
		{ "2B060104019755010501", PGP_CURVE_CV25519, 255 },
		{ "2B6571", PGP_CURVE_ED448, 448 },
		{ "2B656F", PGP_CURVE_X448, 448 },
		{ "2B8104000A", PGP_CURVE_SECP256K1, 256 },
		{ "2B81040021", PGP_CURVE_UNKNOWN, 0 },
		{ "2A8648CE3D0301", PGP_CURVE_UNKNOWN, 0 },
	};
	size_t i;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		unsigned char oid[16];
		size_t n = t_unhex(oid, sizeof oid, t[i].hex);
		T_EQ_INT(pgp_curve_from_oid(oid, n), t[i].c);
		T_EQ_INT(pgp_curve_bits(t[i].c), t[i].bits);
	}
	T_EQ_STR(pgp_curve_name(PGP_CURVE_P256), "NIST P-256");
	T_EQ_STR(pgp_curve_name(PGP_CURVE_ED25519), "Ed25519");
	T_EQ_STR(pgp_curve_name(PGP_CURVE_UNKNOWN), "unknown");
	T_EQ_STR(pgp_pk_name(PGP_PK_RSA), "RSA");
	T_EQ_STR(pgp_pk_name(PGP_PK_EDDSA_LEGACY), "EdDSA(legacy)");
	T_EQ_STR(pgp_pk_name(PGP_PK_ED25519), "Ed25519");
	T_EQ_STR(pgp_pk_name(99), "Unknown");
}

/* v6 Ed25519 key: 4-octet material length must match the material. */
static void
test_v6_native(void)
{
	unsigned char b[64];
	size_t n = 0, i;
	pgp_key k;
	pgp_diag d;
	b[n++] = 6;
	b[n++] = 0x63; b[n++] = 0x87; b[n++] = 0x7F; b[n++] = 0xE3;
	b[n++] = PGP_PK_ED25519;
	b[n++] = 0; b[n++] = 0; b[n++] = 0; b[n++] = 32;
	for (i = 0; i < 32; i++)
		b[n++] = (unsigned char)i;
	T_EQ_INT(parse_body(&k, 6, b, n, &d), PGP_OK);
	T_EQ_INT(k.version, 6);
	T_EQ_INT(k.native.len, 32);
	T_EQ_INT(k.native.p[31], 31);
	T_EQ_INT(k.bits, 255);
	T_EQ_INT(k.fpr.len, 32);
	T_EQ_MEM(k.keyid, k.fpr.v, 8);
	prefixes_truncated(6, b, n);
	/* length says 33, material is 32 + 1 stray octet */
	b[9] = 33;
	b[n] = 0xAA;
	T_EQ_INT(parse_body(&k, 6, b, n + 1, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, n);
	/* length says 31: the native key is cut */
	b[9] = 31;
	T_EQ_INT(parse_body(&k, 6, b, n - 1, &d), PGP_ERR_TRUNCATED);
	/* unknown algorithm in v6: opaque, material = the declared length */
	b[9] = 32;
	b[5] = 99;
	T_EQ_INT(parse_body(&k, 6, b, n, &d), PGP_OK);
	T_EQ_INT(k.opaque, 1);
	T_EQ_INT(k.material.len, 32);
	T_EQ_INT(k.fpr.len, 32);
	/* v5 (LibrePGP): same layout, 0x9A fingerprint prefix */
	b[0] = 5;
	b[5] = PGP_PK_ED25519;
	T_EQ_INT(parse_body(&k, 6, b, n, &d), PGP_OK);
	T_EQ_INT(k.version, 5);
	T_EQ_INT(k.fpr.len, 32);
	/* unknown key version */
	b[0] = 7;
	T_EQ_INT(parse_body(&k, 6, b, n, &d), PGP_ERR_UNSUPPORTED);
	T_EQ_INT(k.version, 7);
	T_EQ_INT(k.opaque, 1);
}

static void
test_v4_unknown_algo(void)
{
	static const unsigned char b[] = { 4, 0, 0, 0, 1, 100, 0xDE, 0xAD, 0xBE, 0xEF };
	pgp_key k;
	T_EQ_INT(parse_body(&k, 6, b, sizeof b, NULL), PGP_OK);
	T_EQ_INT(k.opaque, 1);
	T_EQ_INT(k.algo, 100);
	T_EQ_INT(k.material.len, 4);
	T_EQ_INT(k.fpr.len, 20);
	T_EQ_STR(pgp_pk_name(k.algo), "Unknown");
}

/* RSA v4 key with small made-up n and e. */
static void
test_v4_rsa_small(void)
{
	static const unsigned char b[] = {
		4, 0x50, 0, 0, 0, PGP_PK_RSA,
		0x00, 0x09, 0x01, 0xFF,   /* n: 9 bits */
		0x00, 0x11, 0x01, 0x00, 0x01 /* e = 65537 */
	};
	pgp_key k;
	T_EQ_INT(parse_body(&k, 6, b, sizeof b, NULL), PGP_OK);
	T_EQ_INT(k.nmpi, 2);
	T_EQ_INT(k.bits, 9);
	T_EQ_INT(k.mpi[1].bits, 17);
	T_EQ_INT(k.material.len, 9);
	prefixes_truncated(6, b, sizeof b);
}

static void
test_mpi(void)
{
	static const unsigned char ok[] = { 0x00, 0x0A, 0x02, 0xFF, 0x99 };
	static const unsigned char badbits[] = { 0x01, 0x00, 0x00, 0x01 };
	static const unsigned char lz[] = { 0x00, 0x10, 0x00, 0x80 };
	static const unsigned char zero[] = { 0x00, 0x00 };
	static const unsigned char big[] = { 0x40, 0x01, 0xFF };
	static const unsigned char maxbits[] = { 0x40, 0x00 };
	pgp_rd r;
	pgp_mpi m;

	pgp_rd_init(&r, ok, sizeof ok);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_OK);
	T_EQ_INT(m.bits, 10);
	T_EQ_INT(m.v.len, 2);
	T_EQ_INT(m.bad_bits, 0);
	T_EQ_INT(m.leading_zero, 0);
	T_EQ_INT(pgp_mpi_bitlen(&m), 10);
	T_EQ_INT(r.len, 1);

	/* 256 bits claimed, 32 octets needed: truncated, reader unchanged */
	pgp_rd_init(&r, badbits, sizeof badbits);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_ERR_TRUNCATED);
	T_EQ_INT(r.len, sizeof badbits);
	{
		unsigned char b[34];
		memset(b, 0, sizeof b);
		b[0] = 0x01; b[1] = 0x00; b[33] = 0x05; /* RFC 9580 A.2 style: count 256, value 3 bits */
		pgp_rd_init(&r, b, sizeof b);
		T_EQ_INT(pgp_mpi_read(&r, &m), PGP_OK);
		T_EQ_INT(m.bits, 256);
		T_EQ_INT(m.bad_bits, 1);
		T_EQ_INT(m.leading_zero, 1);
		T_EQ_INT(pgp_mpi_bitlen(&m), 3);
	}

	pgp_rd_init(&r, lz, sizeof lz);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_OK);
	T_EQ_INT(m.leading_zero, 1);
	T_EQ_INT(m.bad_bits, 1);
	T_EQ_INT(pgp_mpi_bitlen(&m), 8);

	pgp_rd_init(&r, zero, sizeof zero);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_OK);
	T_EQ_INT(m.v.len, 0);
	T_EQ_INT(m.bad_bits, 0);
	T_EQ_INT(pgp_mpi_bitlen(&m), 0);

	pgp_rd_init(&r, big, sizeof big);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_ERR_LIMIT);
	T_EQ_INT(r.len, sizeof big);
	pgp_rd_init(&r, maxbits, sizeof maxbits); /* 16384 bits allowed, but truncated */
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_ERR_TRUNCATED);
	pgp_rd_init(&r, ok, 1);
	T_EQ_INT(pgp_mpi_read(&r, &m), PGP_ERR_TRUNCATED);
}

int
main(void)
{
	T_RUN(test_corpus_fingerprints);
	T_RUN(test_v3_keys);
	T_RUN(test_ecdh);
	T_RUN(test_curve_table);
	T_RUN(test_v6_native);
	T_RUN(test_v4_unknown_algo);
	T_RUN(test_v4_rsa_small);
	T_RUN(test_mpi);
	return T_DONE();
}
