/*
 * test_pk.c - pgp/pk.h: RSA, DSA, ECDSA and EdDSA verification.
 *
 * Positive vectors come from vectors/pk/pk_vectors.txt, generated with the
 * OpenSSL CLI by vectors/gen/pk_vectors.sh; every negative is derived from
 * them here (flipped digest/signature bits, wrong keys, out-of-range values).
 * The keys and signatures are built by hand into pgp_key / pgp_sig the way
 * the packet parser presents them: MPI magnitudes without leading zeros.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "t.h"
#include "pgp/pk.h"
#include "pgp/hash_int.h"

#define VECTORS "vectors/pk/pk_vectors.txt"
#define MAX_CASES 128
#define MAX_BUF 2048

typedef struct vcase {
	char name[64];
	int algo, hash;
	pgp_curve curve;
	uint8_t kb[4][MAX_BUF];
	size_t klen[4];
	int nk;
	uint8_t db[64];
	size_t dlen;
	uint8_t sb[2][MAX_BUF];
	size_t slen[2];
	int ns;
} vcase;

static vcase cases[MAX_CASES];
static int ncases;

static pgp_curve
curve_of(const char *s)
{
	static const struct { const char *n; pgp_curve c; } t[] = {
		{ "p256", PGP_CURVE_P256 }, { "p384", PGP_CURVE_P384 },
		{ "p521", PGP_CURVE_P521 }, { "bp256", PGP_CURVE_BP256 },
		{ "bp384", PGP_CURVE_BP384 }, { "bp512", PGP_CURVE_BP512 },
		{ "secp256k1", PGP_CURVE_SECP256K1 }, { "ed25519", PGP_CURVE_ED25519 },
	};
	size_t i;

	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (strcmp(s, t[i].n) == 0)
			return t[i].c;
	return PGP_CURVE_NONE;
}

/* Split a comma-separated hex list into bufs; returns the count. */
static int
parse_list(char *s, uint8_t bufs[][MAX_BUF], size_t *lens, int max)
{
	int n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(s, ",", &save); tok && n < max; tok = strtok_r(NULL, ",", &save)) {
		if (strlen(tok) / 2 > MAX_BUF)
			return -1;
		lens[n] = t_unhex(bufs[n], MAX_BUF, tok);
		n++;
	}
	return n;
}

static int
load_vectors(void)
{
	static char k[12000], d[200], sg[4200];
	size_t len = 0, pos = 0;
	unsigned char *buf = t_slurp(VECTORS, &len);

	if (!buf) {
		fprintf(stderr, "cannot read %s (run from the repository top)\n", VECTORS);
		return -1;
	}
	while (pos < len && ncases < MAX_CASES) {
		char line[16384], name[64], curve[32], exp[16];
		size_t n = 0;
		vcase *c = &cases[ncases];

		while (pos < len && buf[pos] != '\n' && n < sizeof line - 1)
			line[n++] = (char)buf[pos++];
		while (pos < len && buf[pos] != '\n')
			pos++; /* an overlong line is cut and then fails to parse */
		pos++;
		line[n] = 0;
		if (line[0] == '#' || line[0] == 0)
			continue;
		if (sscanf(line, "%63s %d %31s %d %11999s %199s %4199s %15s", name, &c->algo,
		    curve, &c->hash, k, d, sg, exp) != 8 || strcmp(exp, "ok") != 0) {
			fprintf(stderr, "bad vector line: %.60s\n", line);
			continue;
		}
		snprintf(c->name, sizeof c->name, "%s", name);
		c->curve = curve_of(curve);
		c->nk = parse_list(k, c->kb, c->klen, 4);
		c->ns = parse_list(sg, c->sb, c->slen, 2);
		c->dlen = t_unhex(c->db, sizeof c->db, d);
		if (c->nk > 0 && c->ns > 0)
			ncases++;
	}
	free(buf);
	return ncases;
}

/* An MPI as the parser presents it: leading zero octets dropped. */
static void
set_mpi(pgp_mpi *m, const uint8_t *p, size_t n)
{
	unsigned bits = 0;

	while (n > 0 && p[0] == 0) {
		p++;
		n--;
	}
	if (n > 0) {
		unsigned top = p[0];
		bits = (unsigned)(n - 1) * 8;
		while (top) {
			bits++;
			top >>= 1;
		}
	}
	memset(m, 0, sizeof *m);
	m->v.p = p;
	m->v.len = n;
	m->bits = (uint16_t)bits;
}

static void
build(const vcase *c, pgp_key *key, pgp_sig *sig)
{
	int i;

	memset(key, 0, sizeof *key);
	memset(sig, 0, sizeof *sig);
	key->version = 4;
	key->algo = (uint8_t)c->algo;
	key->curve = c->curve;
	sig->version = 4;
	sig->pk_algo = (uint8_t)c->algo;
	sig->hash_algo = (uint8_t)c->hash;
	if (c->algo == PGP_PK_ED25519) {
		key->version = 6;
		sig->version = 6;
		key->native.p = c->kb[0];
		key->native.len = c->klen[0];
		sig->native.p = c->sb[0];
		sig->native.len = c->slen[0];
		return;
	}
	for (i = 0; i < c->nk; i++)
		set_mpi(&key->mpi[i], c->kb[i], c->klen[i]);
	key->nmpi = (uint8_t)c->nk;
	for (i = 0; i < c->ns; i++)
		set_mpi(&sig->mpi[i], c->sb[i], c->slen[i]);
	sig->nmpi = (uint8_t)c->ns;
}

static pgp_err
verify_case(const vcase *c, pgp_diag *diag)
{
	pgp_key key;
	pgp_sig sig;

	build(c, &key, &sig);
	return pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, diag);
}

static const vcase *
find(const char *name)
{
	int i;

	for (i = 0; i < ncases; i++)
		if (strcmp(cases[i].name, name) == 0)
			return &cases[i];
	fprintf(stderr, "vector %s missing\n", name);
	return NULL;
}

/* Trimmed-magnitude comparison a >= b. */
static int
ge(pgp_view a, pgp_view b)
{
	if (a.len != b.len)
		return a.len > b.len;
	return memcmp(a.p, b.p, a.len) >= 0;
}

static vcase scratch;

/* ---- positives ---- */

static void
test_vectors_load(void)
{
	T_ASSERT(load_vectors() >= 30);
}

static void
test_vectors_valid(void)
{
	int i;

	for (i = 0; i < ncases; i++) {
		pgp_diag d = { 0, -1, NULL };
		pgp_err e = verify_case(&cases[i], &d);
		if (e != PGP_OK)
			fprintf(stderr, "%s: %s (%s)\n", cases[i].name, pgp_errname(e),
			    d.what ? d.what : "");
		T_EQ_INT(e, PGP_OK);
	}
}

static void
test_vectors_check_key(void)
{
	int i;

	for (i = 0; i < ncases; i++) {
		pgp_key key;
		pgp_sig sig;
		build(&cases[i], &key, &sig);
		T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_OK);
	}
}

/* ---- the math fails ---- */

/* Octets of the digest DSA/ECDSA use in full: floor(bitlen(order) / 8)
 * (FIPS 186-4 §4.6, SEC1 §4.1.4); all of it for RSA and EdDSA. */
static size_t
used_octets(const vcase *c)
{
	size_t n = c->dlen, order = n;
	pgp_key key;
	pgp_sig sig;

	build(c, &key, &sig);
	if (c->algo == PGP_PK_DSA)
		order = key.mpi[1].v.len - ((key.mpi[1].v.p[0] & 0x80) ? 0 : 1);
	else if (c->algo == PGP_PK_ECDSA)
		order = c->curve == PGP_CURVE_P521 ? 65 : (c->klen[0] - 1) / 2;
	return order < n ? order : n;
}

static void
test_flipped_digest(void)
{
	int i;
	uint8_t bit;
	size_t last, tail = 0;

	for (i = 0; i < ncases; i++) {
		/* The first octet is always inside the bits DSA/ECDSA use. */
		for (bit = 0x01; bit; bit = (uint8_t)(bit << 1)) {
			scratch = cases[i];
			scratch.db[0] ^= bit;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
		}
		/* The last octet the algorithm uses. */
		last = used_octets(&cases[i]) - 1;
		scratch = cases[i];
		scratch.db[last] ^= 0x01;
		T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
		/* Octets beyond the order's length are ignored by DSA and ECDSA
		 * (the hash is truncated, RFC 9580 §5.2.3.2). */
		if (last + 1 < cases[i].dlen) {
			scratch = cases[i];
			scratch.db[cases[i].dlen - 1] ^= 0x01;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_OK);
			tail++;
		}
	}
	T_ASSERT(tail >= 4); /* dsa2048-sha512, dsa*-sha256 on small q, p256-sha512 */
}

static void
test_flipped_signature(void)
{
	int i, j;

	for (i = 0; i < ncases; i++) {
		for (j = 0; j < cases[i].ns; j++) {
			size_t last = cases[i].slen[j] - 1;
			scratch = cases[i];
			scratch.sb[j][last] ^= 0x01;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
			scratch = cases[i];
			scratch.sb[j][last / 2] ^= 0x10;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
		}
		if (cases[i].algo == PGP_PK_ED25519) { /* R and S halves of the native sig */
			scratch = cases[i];
			scratch.sb[0][40] ^= 0x04;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
			scratch = cases[i];
			scratch.sb[0][3] ^= 0x04;
			T_EQ_INT(verify_case(&scratch, NULL), PGP_ERR_BAD_SIG);
		}
	}
}

/* Each signature against every other key of the same algorithm and curve. */
static void
test_wrong_key(void)
{
	int i, j, tried = 0;

	for (i = 0; i < ncases; i++) {
		for (j = 0; j < ncases; j++) {
			const vcase *a = &cases[i], *b = &cases[j];
			pgp_key key, kb;
			pgp_sig sig, sb;
			pgp_err want = PGP_ERR_BAD_SIG;

			if (a->algo != b->algo || a->curve != b->curve ||
			    (a->klen[0] == b->klen[0] && memcmp(a->kb[0], b->kb[0], a->klen[0]) == 0))
				continue;
			build(a, &key, &sig);
			build(b, &kb, &sb);
			/* Against a smaller modulus or order the value may be out of range. */
			if (a->algo == PGP_PK_RSA && ge(sig.mpi[0].v, kb.mpi[0].v))
				want = PGP_ERR_MALFORMED;
			if (a->algo == PGP_PK_DSA && (ge(sig.mpi[0].v, kb.mpi[1].v) ||
			    ge(sig.mpi[1].v, kb.mpi[1].v)))
				want = PGP_ERR_MALFORMED;
			T_EQ_INT(pgp_pk_verify(&kb, &sig, a->hash, a->db, a->dlen, NULL), want);
			tried++;
		}
	}
	T_ASSERT(tried >= 20);
}

static void
test_algo_mismatch(void)
{
	const vcase *c = find("p256-sha256");
	const vcase *r = find("rsa2048-sha256");
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c && r);
	if (!c || !r)
		return;
	build(c, &key, &sig);
	sig.pk_algo = PGP_PK_DSA;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_BAD_SIG);
	/* RSA 1 and RSA sign-only 3 are the same key type. */
	build(r, &key, &sig);
	sig.pk_algo = PGP_PK_RSA_S;
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, r->db, r->dlen, NULL), PGP_OK);
	key.algo = PGP_PK_RSA_S;
	sig.pk_algo = PGP_PK_RSA;
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, r->db, r->dlen, NULL), PGP_OK);
	/* The hash ID is bound by the DigestInfo: the same 20 octets claimed as
	 * RIPEMD-160 instead of SHA-1 fail. */
	r = find("rsa2048-sha1");
	T_ASSERT(r != NULL);
	if (!r)
		return;
	build(r, &key, &sig);
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA1, r->db, r->dlen, NULL), PGP_OK);
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_RIPEMD160, r->db, r->dlen, NULL),
	    PGP_ERR_BAD_SIG);
}

/* ---- RSA encodings ---- */

static void
test_rsa_short_signature(void)
{
	const vcase *c = find("rsa2048-sha256-shortsig");
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	/* The vector is only meaningful if the MPI really is shorter. */
	T_ASSERT(sig.mpi[0].v.len < key.mpi[0].v.len);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_OK);
}

static void
test_rsa_out_of_range(void)
{
	const vcase *c = find("rsa2048-sha256");
	static uint8_t big[MAX_BUF + 1];
	static const uint8_t zero[1] = { 0 };
	pgp_key key;
	pgp_sig sig;
	pgp_diag d = { 0, -1, NULL };

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	/* One octet longer than the modulus. */
	big[0] = 0x01;
	memcpy(big + 1, sig.mpi[0].v.p, sig.mpi[0].v.len);
	set_mpi(&sig.mpi[0], big, sig.mpi[0].v.len + 1);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, &d), PGP_ERR_MALFORMED);
	T_ASSERT(d.what != NULL);
	/* s == n, and s == 0. */
	sig.mpi[0] = key.mpi[0];
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	set_mpi(&sig.mpi[0], zero, 1);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* No MPI at all. */
	sig.nmpi = 0;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
}

static void
test_rsa_leading_zero_octets_read_by_value(void)
{
	const vcase *c = find("rsa2048-sha256");
	static uint8_t padded[MAX_BUF + 2];
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	padded[0] = 0;
	padded[1] = 0;
	memcpy(padded + 2, sig.mpi[0].v.p, sig.mpi[0].v.len);
	sig.mpi[0].v.p = padded; /* a non-canonical MPI as stored, same value */
	sig.mpi[0].v.len += 2;
	sig.mpi[0].leading_zero = 1;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_OK);
}

static void
test_rsa_bad_keys(void)
{
	const vcase *c = find("rsa2048-sha256");
	static const uint8_t e_even[3] = { 0x01, 0x00, 0x00 }, e_one[1] = { 1 };
	static uint8_t n_even[MAX_BUF];
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	set_mpi(&key.mpi[1], e_even, sizeof e_even);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
	set_mpi(&key.mpi[1], e_one, sizeof e_one);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	memcpy(n_even, c->kb[0], c->klen[0]);
	n_even[c->klen[0] - 1] &= 0xfe;
	set_mpi(&key.mpi[0], n_even, c->klen[0]);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
	/* A 256-bit modulus is well-formed but too small. */
	build(c, &key, &sig);
	n_even[0] = 0x80;
	memcpy(n_even + 1, c->kb[0] + c->klen[0] - 31, 31); /* top bit set, odd */
	set_mpi(&key.mpi[0], n_even, 32);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_POLICY);
	key.nmpi = 1;
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
}

/* ---- DSA ranges ---- */

static void
test_dsa_r_s_range(void)
{
	const vcase *c = find("dsa2048-sha256");
	static const uint8_t zero[1] = { 0 };
	static uint8_t qp1[64];
	pgp_key key;
	pgp_sig sig;
	pgp_mpi r, s;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	r = sig.mpi[0];
	s = sig.mpi[1];
	set_mpi(&sig.mpi[0], zero, 1);  /* r = 0 */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	sig.mpi[0] = key.mpi[1];        /* r = q */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	sig.mpi[0] = r;
	set_mpi(&sig.mpi[1], zero, 1);  /* s = 0 */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	sig.mpi[1] = key.mpi[1];        /* s = q */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* s = q + 1 (q is odd, so add 1 to the last octet) */
	memcpy(qp1, key.mpi[1].v.p, key.mpi[1].v.len);
	qp1[key.mpi[1].v.len - 1]++;
	set_mpi(&sig.mpi[1], qp1, key.mpi[1].v.len);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* r = q - 1 is in range: the math decides. */
	memcpy(qp1, key.mpi[1].v.p, key.mpi[1].v.len);
	qp1[key.mpi[1].v.len - 1]--;
	sig.mpi[1] = s;
	set_mpi(&sig.mpi[0], qp1, key.mpi[1].v.len);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_BAD_SIG);
	/* One MPI only. */
	sig.mpi[0] = r;
	sig.nmpi = 1;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* r longer than q */
	sig.nmpi = 2;
	memset(qp1, 0xff, sizeof qp1);
	set_mpi(&sig.mpi[0], qp1, sizeof qp1);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
}

static void
test_dsa_bad_keys(void)
{
	const vcase *c = find("dsa2048-sha256");
	const vcase *c1 = find("dsa1024-sha1");
	static const uint8_t one[1] = { 1 };
	static uint8_t pe[MAX_BUF];
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c && c1);
	if (!c || !c1)
		return;
	build(c, &key, &sig);
	set_mpi(&key.mpi[2], one, 1);   /* g = 1 */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	key.mpi[3] = key.mpi[0];        /* y = p */
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	memcpy(pe, key.mpi[0].v.p, key.mpi[0].v.len);
	pe[key.mpi[0].v.len - 1] &= 0xfe; /* p even */
	set_mpi(&key.mpi[0], pe, key.mpi[0].v.len);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* q of 192 bits: check_key refuses the size (FIPS 186-4 §4.2). */
	build(c, &key, &sig);
	set_mpi(&key.mpi[1], c->kb[1] + c->klen[1] - 24, 24);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	key.nmpi = 3;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
}

/* ---- ECDSA encodings ---- */

static void
test_ecdsa_bad_points(void)
{
	static const char *names[] = { "p256-sha256", "p384-sha384", "p521-sha512",
	    "bp256-sha256", "bp512-sha512", "secp256k1-sha256" };
	static uint8_t pt[200];
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		const vcase *c = find(names[i]);
		pgp_key key;
		pgp_sig sig;
		pgp_diag d = { 0, -1, NULL };
		size_t n;

		T_ASSERT(c != NULL);
		if (!c)
			continue;
		n = c->klen[0];
		build(c, &key, &sig);
		memcpy(pt, c->kb[0], n);
		pt[n - 1] ^= 0x01;      /* y off the curve */
		set_mpi(&key.mpi[0], pt, n);
		T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, &d), PGP_ERR_MALFORMED);
		T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
		memcpy(pt, c->kb[0], n);
		pt[0] = 0x02;           /* compressed prefix: not used by OpenPGP */
		set_mpi(&key.mpi[0], pt, n);
		T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
		pt[0] = 0x40;
		T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
		memcpy(pt, c->kb[0], n);
		set_mpi(&key.mpi[0], pt, n - 1); /* short */
		T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
		/* The point of the wrong curve size. */
		build(c, &key, &sig);
		key.curve = c->curve == PGP_CURVE_P384 ? PGP_CURVE_P256 : PGP_CURVE_P384;
		T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	}
}

static void
test_ecdsa_r_s_range(void)
{
	const vcase *c = find("p256-sha256");
	static const uint8_t zero[1] = { 0 };
	static uint8_t ff[33];
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	set_mpi(&sig.mpi[0], zero, 1);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	memset(ff, 0xff, sizeof ff);    /* 2^256 - 1 > n */
	set_mpi(&sig.mpi[1], ff, 32);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	set_mpi(&sig.mpi[1], ff, 33);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* Curves we do not have, or that are not ECDSA curves. */
	build(c, &key, &sig);
	key.curve = PGP_CURVE_UNKNOWN;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNSUPPORTED);
	key.curve = PGP_CURVE_ED25519;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* v3 signatures MUST NOT be used with ECDSA (RFC 9580 §5.2.3.2). */
	build(c, &key, &sig);
	sig.version = 3;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
}

/* ---- EdDSA ---- */

static void
test_eddsa_short_r(void)
{
	const vcase *c = find("ed25519legacy-sha256-shortr");
	pgp_key key;
	pgp_sig sig;

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	T_ASSERT(sig.mpi[0].v.len < 32); /* R's MPI lost its leading zero octet */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_OK);
}

static void
test_eddsa_legacy_malformed(void)
{
	const vcase *c = find("ed25519legacy-sha256");
	static uint8_t big[33], pt[34];
	pgp_key key;
	pgp_sig sig;
	pgp_diag d = { 0, -1, NULL };

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	big[0] = 0x01;                  /* R of 33 octets */
	memcpy(big + 1, c->sb[0], 32);
	set_mpi(&sig.mpi[0], big, 33);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, &d), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	memcpy(big + 1, c->sb[1], 32);  /* S of 33 octets */
	set_mpi(&sig.mpi[1], big, 33);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* Key point without the 0x40 prefix, or too long. */
	build(c, &key, &sig);
	set_mpi(&key.mpi[0], c->kb[0] + 1, 32);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	memcpy(pt, c->kb[0], 33);
	pt[33] = 0;
	set_mpi(&key.mpi[0], pt, 34);
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* RFC 9580 §5.2.3.3: not in v6 signatures. */
	build(c, &key, &sig);
	sig.version = 6;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* Curve: Ed448 legacy is unsupported; a NIST curve is wrong. */
	build(c, &key, &sig);
	key.curve = PGP_CURVE_ED448;
	d.what = NULL;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, &d), PGP_ERR_UNSUPPORTED);
	T_EQ_STR(d.what, "Ed448 not supported");
	key.curve = PGP_CURVE_P256;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	/* The legacy signature (R||S) verifies the same as the native one. */
	build(c, &key, &sig);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_OK);
	memset(pt, 0xff, sizeof pt);
	pt[0] = 0x40;
	set_mpi(&key.mpi[0], pt, 33);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_MALFORMED);
}

static void
test_ed25519_native_rules(void)
{
	const vcase *c = find("ed25519-sha256");
	pgp_key key;
	pgp_sig sig;
	pgp_diag d = { 0, -1, NULL };

	T_ASSERT(c != NULL);
	if (!c)
		return;
	build(c, &key, &sig);
	/* RFC 9580 §5.2.3.4: digests shorter than 256 bits MUST be rejected. */
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA1, c->db, 20, &d), PGP_ERR_MALFORMED);
	T_ASSERT(d.what != NULL);
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA224, c->db, 28, NULL), PGP_ERR_MALFORMED);
	sig.native.len = 63;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	key.native.len = 31;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
	build(c, &key, &sig);
	sig.version = 3;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_MALFORMED);
}

/*
 * RFC 9580 Appendix A.1 (v4 Ed25519Legacy key) and A.2 (its signature over
 * the text "OpenPGP"). Digest = SHA-256 over
 *   "OpenPGP" || 04 00 16 08 00 06 05 02 55 f9 5f 95 || 04 ff 00 00 00 0c
 * (the hashed part and v4 trailer, RFC 9580 §5.2.4); its first two octets
 * f6 22 match the signature's hash prefix.
 */
static void
test_rfc9580_a2(void)
{
	static const uint8_t trailer[] =
	    "\x04\x00\x16\x08\x00\x06\x05\x02\x55\xf9\x5f\x95"
	    "\x04\xff\x00\x00\x00\x0c";
	uint8_t pt[33], r[32], s[32], dig[PGP_HASH_MAX_LEN], want[32];
	const char *corpus = t_corpus();
	unsigned char *text = NULL;
	size_t text_len = 7;
	pgp_hash h;
	pgp_key key;
	pgp_sig sig;

	/* The signed text, from the corpus copy of A.2 when present. */
	if (corpus) {
		char path[4096];
		snprintf(path, sizeof path, "%s/rfc9580/A.2.message-OpenPGP.txt", corpus);
		text = t_slurp(path, &text_len);
	}
	if (!text)
		printf("skip - corpus A.2 message absent, using the RFC text\n");
	T_EQ_INT(pgp_hash_init(&h, PGP_HASH_SHA256), PGP_OK);
	pgp_hash_update(&h, text ? (const void *)text : "OpenPGP", text_len);
	pgp_hash_update(&h, trailer, sizeof trailer - 1);
	pgp_hash_final(&h, dig);
	free(text);

	t_unhex(pt, sizeof pt, "403f098994bdd916ed4053197934e4a87c80733a1280d62f8010992e43ee3b2406");
	t_unhex(r, sizeof r, "56f90cca98e2102637bd983fdb16c131dfd27ed82bf4dde5606e0d756aed3366");
	t_unhex(s, sizeof s, "d09c4fa11527f038e0f57f2201d82f2ea2c9033265fa6ceb489e854bae61b404");
	t_unhex(want, sizeof want, "f6220a3f757814f4c2176ffbb68b00249cd4ccdc059c4b34ad871f30b1740280");
	T_EQ_MEM(dig, want, 32);

	memset(&key, 0, sizeof key);
	memset(&sig, 0, sizeof sig);
	key.version = 4;
	key.algo = PGP_PK_EDDSA_LEGACY;
	key.curve = PGP_CURVE_ED25519;
	set_mpi(&key.mpi[0], pt, sizeof pt);
	key.nmpi = 1;
	sig.version = 4;
	sig.pk_algo = PGP_PK_EDDSA_LEGACY;
	sig.hash_algo = PGP_HASH_SHA256;
	set_mpi(&sig.mpi[0], r, sizeof r);
	set_mpi(&sig.mpi[1], s, sizeof s);
	sig.nmpi = 2;
	T_EQ_INT(sig.mpi[0].bits, 255);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_OK);
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA256, dig, 32, NULL), PGP_OK);
	dig[31] ^= 0x80;
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA256, dig, 32, NULL), PGP_ERR_BAD_SIG);
}

/* ---- algorithms we do not verify ---- */

static void
test_unsupported_and_unusable(void)
{
	const vcase *c = find("ed25519-sha256");
	const vcase *r = find("rsa2048-sha256");
	pgp_key key;
	pgp_sig sig;
	pgp_diag d = { 0, -1, NULL };

	T_ASSERT(c && r);
	if (!c || !r)
		return;
	build(c, &key, &sig);
	key.algo = sig.pk_algo = PGP_PK_ED448;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, &d), PGP_ERR_UNSUPPORTED);
	T_EQ_STR(d.what, "Ed448 not supported");
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_UNSUPPORTED);
	key.algo = sig.pk_algo = PGP_PK_ELGAMAL_ES;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNSUPPORTED);
	key.algo = sig.pk_algo = PGP_PK_ELGAMAL;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNSUPPORTED);
	key.algo = sig.pk_algo = 30; /* ML-DSA-65+Ed25519 (PQC draft) */
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNSUPPORTED);
	key.algo = sig.pk_algo = 100;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNSUPPORTED);
	key.algo = sig.pk_algo = PGP_PK_ECDH;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNUSABLE);
	key.algo = sig.pk_algo = PGP_PK_X25519;
	T_EQ_INT(pgp_pk_verify(&key, &sig, c->hash, c->db, c->dlen, NULL), PGP_ERR_UNUSABLE);

	build(r, &key, &sig);
	key.algo = sig.pk_algo = PGP_PK_RSA_E;
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, r->db, r->dlen, NULL), PGP_ERR_UNUSABLE);
	T_EQ_INT(pgp_pk_check_key(&key, NULL), PGP_ERR_UNUSABLE);
	build(r, &key, &sig);
	key.opaque = 1;
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, r->db, r->dlen, NULL), PGP_ERR_UNSUPPORTED);
	/* RSA with SHA3-256 has a DigestInfo (RFC 9580 §5.2.2): the SHA-256
	 * digest claimed as SHA3-256 is a bad signature; an unknown hash is
	 * unsupported. */
	build(r, &key, &sig);
	T_EQ_INT(pgp_pk_verify(&key, &sig, PGP_HASH_SHA3_256, r->db, 32, NULL), PGP_ERR_BAD_SIG);
	T_EQ_INT(pgp_pk_verify(&key, &sig, 99, r->db, 32, NULL), PGP_ERR_UNSUPPORTED);
	/* Caller errors. */
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, r->db, 20, NULL), PGP_ERR_INVALID);
	T_EQ_INT(pgp_pk_verify(NULL, &sig, r->hash, r->db, r->dlen, NULL), PGP_ERR_INVALID);
	T_EQ_INT(pgp_pk_verify(&key, NULL, r->hash, r->db, r->dlen, NULL), PGP_ERR_INVALID);
	T_EQ_INT(pgp_pk_verify(&key, &sig, r->hash, NULL, r->dlen, NULL), PGP_ERR_INVALID);
	T_EQ_INT(pgp_pk_check_key(NULL, NULL), PGP_ERR_INVALID);
}

static void
test_can_sign(void)
{
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_RSA), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_RSA_S), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_DSA), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_ECDSA), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_EDDSA_LEGACY), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_ED25519), 1);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_RSA_E), 0);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_ELGAMAL), 0);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_ECDH), 0);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_X25519), 0);
	T_EQ_INT(pgp_pk_can_sign(PGP_PK_ED448), 0);
	T_EQ_INT(pgp_pk_can_sign(0), 0);
	T_EQ_INT(pgp_pk_can_sign(255), 0);
}

int
main(void)
{
	T_RUN(test_vectors_load);
	T_RUN(test_vectors_valid);
	T_RUN(test_vectors_check_key);
	T_RUN(test_flipped_digest);
	T_RUN(test_flipped_signature);
	T_RUN(test_wrong_key);
	T_RUN(test_algo_mismatch);
	T_RUN(test_rsa_short_signature);
	T_RUN(test_rsa_out_of_range);
	T_RUN(test_rsa_leading_zero_octets_read_by_value);
	T_RUN(test_rsa_bad_keys);
	T_RUN(test_dsa_r_s_range);
	T_RUN(test_dsa_bad_keys);
	T_RUN(test_ecdsa_bad_points);
	T_RUN(test_ecdsa_r_s_range);
	T_RUN(test_eddsa_short_r);
	T_RUN(test_eddsa_legacy_malformed);
	T_RUN(test_ed25519_native_rules);
	T_RUN(test_rfc9580_a2);
	T_RUN(test_unsupported_and_unusable);
	T_RUN(test_can_sign);
	return T_DONE();
}
