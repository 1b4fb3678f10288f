/*
 * key.c - public key and subkey packets (RFC 9580 §5.5.2; v3 from RFC 4880
 * §5.5.2; v5 from LibrePGP): algorithm-specific public material, fingerprint
 * and key ID. For secret key packets only the public part is parsed.
 * see packet.h
 */
#include <string.h>
#include "hash_int.h"
#include "packet.h"
#include "err_int.h"

/* RFC 9580 §9.2 curve OIDs (DER value octets, without tag and length). */
static const struct {
	pgp_curve curve;
	uint8_t len;
	uint8_t oid[10];
} curves[] = {
	{ PGP_CURVE_P256, 8, { 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07 } },
	{ PGP_CURVE_P384, 5, { 0x2B, 0x81, 0x04, 0x00, 0x22 } },
	{ PGP_CURVE_P521, 5, { 0x2B, 0x81, 0x04, 0x00, 0x23 } },
	{ PGP_CURVE_BP256, 9, { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x07 } },
	{ PGP_CURVE_BP384, 9, { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0B } },
	{ PGP_CURVE_BP512, 9, { 0x2B, 0x24, 0x03, 0x03, 0x02, 0x08, 0x01, 0x01, 0x0D } },
	/* 1.3.6.1.4.1.11591.15.1 (Ed25519Legacy) */
	{ PGP_CURVE_ED25519, 9, { 0x2B, 0x06, 0x01, 0x04, 0x01, 0xDA, 0x47, 0x0F, 0x01 } },
	/* 1.3.6.1.4.1.3029.1.5.1 (Curve25519Legacy) */
	{ PGP_CURVE_CV25519, 10, { 0x2B, 0x06, 0x01, 0x04, 0x01, 0x97, 0x55, 0x01, 0x05, 0x01 } },
	/* RFC 8410 ids, used by LibrePGP for the 448 curves: id-Ed448 1.3.101.113,
	 * id-X448 1.3.101.111; id-Ed25519 1.3.101.112 and id-X25519 1.3.101.110
	 * are accepted as aliases of the legacy 25519 OIDs (as libgcrypt does). */
	{ PGP_CURVE_ED448, 3, { 0x2B, 0x65, 0x71 } },
	{ PGP_CURVE_X448, 3, { 0x2B, 0x65, 0x6F } },
	{ PGP_CURVE_ED25519, 3, { 0x2B, 0x65, 0x70 } },
	{ PGP_CURVE_CV25519, 3, { 0x2B, 0x65, 0x6E } },
	{ PGP_CURVE_SECP256K1, 5, { 0x2B, 0x81, 0x04, 0x00, 0x0A } },
};

/* see packet.h */
pgp_curve
pgp_curve_from_oid(const uint8_t *oid, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof curves / sizeof curves[0]; i++)
		if (curves[i].len == len && memcmp(curves[i].oid, oid, len) == 0)
			return curves[i].curve;
	return PGP_CURVE_UNKNOWN;
}

/* see packet.h */
unsigned
pgp_curve_bits(pgp_curve c)
{
	switch (c) {
	case PGP_CURVE_P256: return 256;
	case PGP_CURVE_P384: return 384;
	case PGP_CURVE_P521: return 521;
	case PGP_CURVE_BP256: return 256;
	case PGP_CURVE_BP384: return 384;
	case PGP_CURVE_BP512: return 512;
	case PGP_CURVE_ED25519: return 255;
	case PGP_CURVE_CV25519: return 255;
	case PGP_CURVE_ED448: return 448;
	case PGP_CURVE_X448: return 448;
	case PGP_CURVE_SECP256K1: return 256;
	default: return 0;
	}
}

/* see packet.h */
const char *
pgp_curve_name(pgp_curve c)
{
	switch (c) {
	case PGP_CURVE_NONE: return "none";
	case PGP_CURVE_P256: return "NIST P-256";
	case PGP_CURVE_P384: return "NIST P-384";
	case PGP_CURVE_P521: return "NIST P-521";
	case PGP_CURVE_BP256: return "brainpoolP256r1";
	case PGP_CURVE_BP384: return "brainpoolP384r1";
	case PGP_CURVE_BP512: return "brainpoolP512r1";
	case PGP_CURVE_ED25519: return "Ed25519";
	case PGP_CURVE_CV25519: return "Curve25519";
	case PGP_CURVE_ED448: return "Ed448";
	case PGP_CURVE_X448: return "X448";
	case PGP_CURVE_SECP256K1: return "secp256k1";
	default: return "unknown";
	}
}

/* see packet.h */
const char *
pgp_pk_name(int algo)
{
	switch (algo) {
	case PGP_PK_RSA: return "RSA";
	case PGP_PK_RSA_E: return "RSA(encrypt-only)";
	case PGP_PK_RSA_S: return "RSA(sign-only)";
	case PGP_PK_ELGAMAL: return "ElGamal";
	case PGP_PK_DSA: return "DSA";
	case PGP_PK_ECDH: return "ECDH";
	case PGP_PK_ECDSA: return "ECDSA";
	case PGP_PK_ELGAMAL_ES: return "ElGamal(encrypt-or-sign)";
	case PGP_PK_EDDSA_LEGACY: return "EdDSA(legacy)";
	case PGP_PK_X25519: return "X25519";
	case PGP_PK_X448: return "X448";
	case PGP_PK_ED25519: return "Ed25519";
	case PGP_PK_ED448: return "Ed448";
	default: return "Unknown";
	}
}

static pgp_err
read_mpis(pgp_key *k, pgp_rd *m, unsigned n, pgp_diag *diag)
{
	pgp_err e;
	unsigned i;

	for (i = 0; i < n; i++) {
		size_t off = m->off;
		if ((e = pgp_mpi_read(m, &k->mpi[i])) != PGP_OK)
			return pgp__fail(diag, e, off, diag ? diag->tag : -1, e == PGP_ERR_LIMIT ?
			    "MPI larger than 16384 bits (PGP_MAX_MPI_BITS)" : "key MPI truncated");
	}
	k->nmpi = (uint8_t)n;
	return PGP_OK;
}

/* RFC 9580 §5.5.5.5-7: 1-octet OID length (0 and 0xFF reserved), OID octets. */
static pgp_err
read_oid(pgp_key *k, pgp_rd *m, pgp_diag *diag)
{
	pgp_rd save = *m;
	uint8_t n;
	pgp_err e;

	if ((e = pgp_rd_u8(m, &n)) != PGP_OK)
		return pgp__fail(diag, e, m->off, diag ? diag->tag : -1, "curve OID truncated");
	if (n == 0 || n == 0xFF) {
		*m = save;
		return pgp__fail(diag, PGP_ERR_MALFORMED, save.off, diag ? diag->tag : -1,
		    "reserved curve OID length");
	}
	if ((e = pgp_rd_view(m, n, &k->oid)) != PGP_OK) {
		*m = save;
		return pgp__fail(diag, e, save.off, diag ? diag->tag : -1, "curve OID truncated");
	}
	k->curve = pgp_curve_from_oid(k->oid.p, k->oid.len);
	return PGP_OK;
}

static pgp_err
read_native(pgp_key *k, pgp_rd *m, size_t n, pgp_curve c, pgp_diag *diag)
{
	pgp_err e;

	if ((e = pgp_rd_view(m, n, &k->native)) != PGP_OK)
		return pgp__fail(diag, e, m->off, diag ? diag->tag : -1, "native public key truncated");
	k->curve = c;
	k->bits = pgp_curve_bits(c);
	return PGP_OK;
}

/*
 * Algorithm-specific public key material (RFC 9580 §5.5.5), read from *m.
 * An unknown algorithm takes all of *m as opaque material.
 */
static pgp_err
parse_material(pgp_key *k, pgp_rd *m, pgp_diag *diag)
{
	const uint8_t *start = m->p;
	pgp_rd kdf;
	pgp_err e = PGP_OK;

	switch (k->algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_E:
	case PGP_PK_RSA_S:
		if ((e = read_mpis(k, m, 2, diag)) == PGP_OK)
			k->bits = pgp_mpi_bitlen(&k->mpi[0]);
		break;
	case PGP_PK_DSA:
		if ((e = read_mpis(k, m, 4, diag)) == PGP_OK)
			k->bits = pgp_mpi_bitlen(&k->mpi[0]);
		break;
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		if ((e = read_mpis(k, m, 3, diag)) == PGP_OK)
			k->bits = pgp_mpi_bitlen(&k->mpi[0]);
		break;
	case PGP_PK_ECDSA:
	case PGP_PK_EDDSA_LEGACY:
		if ((e = read_oid(k, m, diag)) != PGP_OK)
			break;
		if ((e = read_mpis(k, m, 1, diag)) == PGP_OK)
			k->bits = pgp_curve_bits(k->curve);
		break;
	case PGP_PK_ECDH:
		if ((e = read_oid(k, m, diag)) != PGP_OK)
			break;
		if ((e = read_mpis(k, m, 1, diag)) != PGP_OK)
			break;
		k->bits = pgp_curve_bits(k->curve);
		/* §5.5.5.6: KDF parameters: length, 0x01 (reserved), hash, cipher */
		if ((e = pgp_rd_sub8(m, &kdf)) != PGP_OK) {
			e = pgp__fail(diag, e, m->off, diag ? diag->tag : -1, "ECDH KDF parameters truncated");
			break;
		}
		if (kdf.len < 3) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, kdf.off - 1, diag ? diag->tag : -1,
			    "ECDH KDF parameters too short");
			break;
		}
		k->kdf = pgp_rd_as_view(&kdf);
		break;
	case PGP_PK_X25519:
		e = read_native(k, m, 32, PGP_CURVE_CV25519, diag);
		break;
	case PGP_PK_X448:
		e = read_native(k, m, 56, PGP_CURVE_X448, diag);
		break;
	case PGP_PK_ED25519:
		e = read_native(k, m, 32, PGP_CURVE_ED25519, diag);
		break;
	case PGP_PK_ED448:
		e = read_native(k, m, 57, PGP_CURVE_ED448, diag);
		break;
	default:
		k->opaque = 1;
		pgp_rd_skip(m, m->len);
		break;
	}
	if (e != PGP_OK)
		return e;
	k->material.p = start;
	k->material.len = (size_t)(m->p - start);
	return PGP_OK;
}

/* Hash prefix || length || body (v4: 0x99 + 2 octets; v5: 0x9A, v6: 0x9B + 4). */
static pgp_err
fingerprint(pgp_key *k, int alg, uint8_t prefix, size_t lenlen, size_t off,
    pgp_diag *diag)
{
	uint8_t hdr[5], out[PGP_HASH_MAX_LEN];
	pgp_hash h;
	pgp_err e;

	hdr[0] = prefix;
	if (lenlen == 2) {
		if (k->body.len > 0xFFFF)
			return pgp__fail(diag, PGP_ERR_MALFORMED, off, diag ? diag->tag : -1,
			    "key packet too long for a v4 fingerprint");
		hdr[1] = (uint8_t)(k->body.len >> 8);
		hdr[2] = (uint8_t)k->body.len;
	} else {
		if (k->body.len > 0xFFFFFFFFu)
			return pgp__fail(diag, PGP_ERR_MALFORMED, off, diag ? diag->tag : -1,
			    "key packet too long");
		pgp_put_be32(hdr + 1, (uint32_t)k->body.len);
	}
	if ((e = pgp_hash_init(&h, alg)) != PGP_OK)
		return e;
	pgp_hash_update(&h, hdr, 1 + lenlen);
	pgp_hash_update(&h, k->body.p, k->body.len);
	pgp_hash_final(&h, out);
	k->fpr.len = (uint8_t)pgp_hash_len(alg);
	memcpy(k->fpr.v, out, k->fpr.len);
	return PGP_OK;
}

/* RFC 4880 §12.2: v3 fingerprint = MD5(n || e) over the MPI magnitudes
 * (without the bit counts); key ID = the low 64 bits of n. */
static pgp_err
v3_ids(pgp_key *k)
{
	uint8_t out[PGP_HASH_MAX_LEN];
	const pgp_mpi *n = &k->mpi[0];
	pgp_hash h;
	pgp_err e;
	size_t i;

	if ((e = pgp_hash_init(&h, PGP_HASH_MD5)) != PGP_OK)
		return e;
	pgp_hash_update(&h, n->v.p, n->v.len);
	pgp_hash_update(&h, k->mpi[1].v.p, k->mpi[1].v.len);
	pgp_hash_final(&h, out);
	k->fpr.len = 16;
	memcpy(k->fpr.v, out, 16);
	memset(k->keyid, 0, 8);
	for (i = 0; i < 8 && i < n->v.len; i++)
		k->keyid[7 - i] = n->v.p[n->v.len - 1 - i];
	return PGP_OK;
}

/* see packet.h */
pgp_err
pgp_key_parse(pgp_key *out, const pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = pkt->body, m;
	const uint8_t *start = r.p;
	uint8_t ver, algo;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if (diag)
		diag->tag = pkt->tag;
	switch (pkt->tag) {
	case PGP_TAG_SECRET_KEY:
	case PGP_TAG_PUBLIC_KEY:
	case PGP_TAG_SECRET_SUBKEY:
	case PGP_TAG_PUBLIC_SUBKEY:
		break;
	default:
		e = pgp__fail(diag, PGP_ERR_INVALID, pkt->off, diag ? diag->tag : -1, "not a key packet");
		goto out;
	}
	out->is_subkey = (pkt->tag == PGP_TAG_PUBLIC_SUBKEY ||
	    pkt->tag == PGP_TAG_SECRET_SUBKEY);
	out->is_secret = (pkt->tag == PGP_TAG_SECRET_KEY ||
	    pkt->tag == PGP_TAG_SECRET_SUBKEY);

	if ((e = pgp_rd_u8(&r, &ver)) != PGP_OK) {
		e = pgp__fail(diag, e, r.off, diag ? diag->tag : -1, "key version missing");
		goto out;
	}
	out->version = ver;
	switch (ver) {
	case 2: /* RFC 4880 §5.5.2: v2 is identical to v3 */
	case 3:
		/* version, created(4), validity days(2), algo, MPIs */
		if ((e = pgp_rd_be32(&r, &out->created)) != PGP_OK ||
		    (e = pgp_rd_be16(&r, &out->v3_days)) != PGP_OK ||
		    (e = pgp_rd_u8(&r, &algo)) != PGP_OK) {
			e = pgp__fail(diag, e, r.off, diag ? diag->tag : -1, "key header truncated");
			goto out;
		}
		out->algo = algo;
		if (algo != PGP_PK_RSA && algo != PGP_PK_RSA_E &&
		    algo != PGP_PK_RSA_S) {
			/* v3 keys are RSA; anything else has no defined IDs */
			out->opaque = 1;
			out->material = pgp_rd_as_view(&r);
			out->body = pgp_rd_as_view(&pkt->body);
			e = pgp__fail(diag, PGP_ERR_UNSUPPORTED, r.off, diag ? diag->tag : -1,
			    "v3 key with a non-RSA algorithm");
			goto out;
		}
		if ((e = parse_material(out, &r, diag)) != PGP_OK)
			goto out;
		break;
	case 4:
		/* version, created(4), algo, material */
		if ((e = pgp_rd_be32(&r, &out->created)) != PGP_OK ||
		    (e = pgp_rd_u8(&r, &algo)) != PGP_OK) {
			e = pgp__fail(diag, e, r.off, diag ? diag->tag : -1, "key header truncated");
			goto out;
		}
		out->algo = algo;
		if ((e = parse_material(out, &r, diag)) != PGP_OK)
			goto out;
		break;
	case 5:
	case 6:
		/* version, created(4), algo, material length(4), material */
		if ((e = pgp_rd_be32(&r, &out->created)) != PGP_OK ||
		    (e = pgp_rd_u8(&r, &algo)) != PGP_OK) {
			e = pgp__fail(diag, e, r.off, diag ? diag->tag : -1, "key header truncated");
			goto out;
		}
		out->algo = algo;
		if ((e = pgp_rd_sub32(&r, &m)) != PGP_OK) {
			e = pgp__fail(diag, e, r.off, diag ? diag->tag : -1, "key material truncated");
			goto out;
		}
		if ((e = parse_material(out, &m, diag)) != PGP_OK)
			goto out;
		if (!pgp_rd_empty(&m)) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, m.off, diag ? diag->tag : -1,
			    "key material length does not match the material");
			goto out;
		}
		break;
	default:
		out->opaque = 1;
		out->body = pgp_rd_as_view(&pkt->body);
		e = pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, diag ? diag->tag : -1,
		    "unknown key version");
		goto out;
	}

	/* Public packets end with the material; secret ones continue with the
	 * secret part (§5.5.3), which we do not parse. An opaque algorithm in a
	 * v3/v4 packet took everything. */
	if (!out->is_secret && !pgp_rd_empty(&r)) {
		e = pgp__fail(diag, PGP_ERR_MALFORMED, r.off, diag ? diag->tag : -1,
		    "trailing data after key material");
		goto out;
	}
	out->body.p = start;
	out->body.len = (size_t)(r.p - start);

	switch (ver) {
	case 2:
	case 3:
		e = v3_ids(out);
		break;
	case 4:
		if ((e = fingerprint(out, PGP_HASH_SHA1, 0x99, 2,
		    pkt->body.off, diag)) == PGP_OK)
			memcpy(out->keyid, out->fpr.v + 12, 8);
		break;
	default:
		e = fingerprint(out, PGP_HASH_SHA256, ver == 5 ? 0x9A : 0x9B,
		    4, pkt->body.off, diag);
		if (e == PGP_OK)
			memcpy(out->keyid, out->fpr.v, 8);
		break;
	}
out:
	return e;
}

/* see packet.h */
int
pgp_fpr_cmp(const pgp_fpr *a, const pgp_fpr *b)
{
	if (a->len != b->len)
		return a->len < b->len ? -1 : 1;
	return memcmp(a->v, b->v, a->len);
}
