/*
 * sig.c - signature packets (RFC 9580 §5.2): v3 (RFC 4880 §5.2.2), v4, v5
 * (LibrePGP: the v4 layout, 2-octet area lengths) and v6 (4-octet area
 * lengths and a salt). Subpackets are decoded by subpkt.c. see packet.h
 */
#include <string.h>
#include "hash.h"
#include "packet.h"
#include "err_int.h"
#include "packet_int.h"

/* RFC 9580 §9.5 table: v6 salt size per hash algorithm; 0 if not listed. */
static size_t
salt_len(uint8_t hash)
{
	switch (hash) {
	case PGP_HASH_SHA256: return 16;
	case PGP_HASH_SHA384: return 24;
	case PGP_HASH_SHA512: return 32;
	case PGP_HASH_SHA224: return 16;
	case PGP_HASH_SHA3_256: return 16;
	case PGP_HASH_SHA3_512: return 32;
	default: return 0;
	}
}

static pgp_err
read_mpis(pgp_sig *s, pgp_rd *r, unsigned n, pgp_diag *diag)
{
	unsigned i;
	pgp_err e;

	for (i = 0; i < n; i++) {
		size_t off = r->off;
		if ((e = pgp_mpi_read(r, &s->mpi[i])) != PGP_OK)
			return pgp__fail(diag, e, off, PGP_TAG_SIGNATURE, e == PGP_ERR_LIMIT ?
			    "MPI larger than 16384 bits (PGP_MAX_MPI_BITS)" : "signature MPI truncated");
	}
	s->nmpi = (uint8_t)n;
	return PGP_OK;
}

/* §5.2.3 algorithm-specific signature material; the rest of the body. */
static pgp_err
parse_material(pgp_sig *s, pgp_rd *r, pgp_diag *diag)
{
	pgp_err e;

	switch (s->pk_algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_E:
	case PGP_PK_RSA_S:
		e = read_mpis(s, r, 1, diag);
		break;
	case PGP_PK_DSA:
	case PGP_PK_ECDSA:
	case PGP_PK_EDDSA_LEGACY:
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		e = read_mpis(s, r, 2, diag);
		break;
	case PGP_PK_ED25519:
		if ((e = pgp_rd_view(r, 64, &s->native)) != PGP_OK)
			e = pgp__fail(diag, e, r->off, PGP_TAG_SIGNATURE, "Ed25519 signature truncated");
		break;
	case PGP_PK_ED448:
		if ((e = pgp_rd_view(r, 114, &s->native)) != PGP_OK)
			e = pgp__fail(diag, e, r->off, PGP_TAG_SIGNATURE, "Ed448 signature truncated");
		break;
	default:
		/* unknown algorithm: keep the material raw */
		(void)pgp_rd_view(r, r->len, &s->native);
		return PGP_OK;
	}
	if (e != PGP_OK)
		return e;
	if (!pgp_rd_empty(r))
		return pgp__fail(diag, PGP_ERR_MALFORMED, r->off, PGP_TAG_SIGNATURE,
		    "trailing data after signature");
	return PGP_OK;
}

/*
 * RFC 4880 §5.2.2 v3:
 *   3 | 5 | type | created(4) | keyid(8) | pk | hash | prefix(2) | material
 */
static pgp_err
parse_v3(pgp_sig *s, pgp_rd *r, pgp_diag *diag)
{
	uint8_t hlen;
	pgp_rd hp;
	size_t off = r->off;
	pgp_err e;

	if ((e = pgp_rd_u8(r, &hlen)) != PGP_OK)
		return pgp__fail(diag, e, off, PGP_TAG_SIGNATURE, "v3 signature truncated");
	if (hlen != 5)
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
		    "v3 hashed material length must be 5");
	if ((e = pgp_rd_sub(r, 5, &hp)) != PGP_OK ||
	    (e = pgp_rd_copy(r, s->issuer, 8)) != PGP_OK ||
	    (e = pgp_rd_u8(r, &s->pk_algo)) != PGP_OK ||
	    (e = pgp_rd_u8(r, &s->hash_algo)) != PGP_OK ||
	    (e = pgp_rd_copy(r, s->prefix, 2)) != PGP_OK)
		return pgp__fail(diag, e, r->off, PGP_TAG_SIGNATURE, "v3 signature truncated");
	s->hashed_part = pgp_rd_as_view(&hp);
	(void)pgp_rd_u8(&hp, &s->type);
	(void)pgp_rd_be32(&hp, &s->created);
	s->has_created = 1;
	s->has_issuer = 1;
	s->exportable = 1;
	s->revocable = 1;
	return parse_material(s, r, diag);
}

/*
 * RFC 9580 §5.2.3 v4/v6 (v5 as v4):
 *   ver | type | pk | hash | hashed len (2; v6: 4) | hashed area
 *       | unhashed len (2; v6: 4) | unhashed area | prefix(2)
 *       | v6 only: salt len (1) | salt | material
 */
static pgp_err
parse_v4v6(pgp_sig *s, pgp_rd *r, const uint8_t *start, pgp_diag *diag)
{
	pgp_rd hashed, unhashed;
	uint8_t slen;
	size_t off;
	pgp_err e;

	if ((e = pgp_rd_u8(r, &s->type)) != PGP_OK ||
	    (e = pgp_rd_u8(r, &s->pk_algo)) != PGP_OK ||
	    (e = pgp_rd_u8(r, &s->hash_algo)) != PGP_OK)
		return pgp__fail(diag, e, r->off, PGP_TAG_SIGNATURE, "signature header truncated");
	off = r->off;
	e = s->version == 6 ? pgp_rd_sub32(r, &hashed) : pgp_rd_sub16(r, &hashed);
	if (e != PGP_OK)
		return pgp__fail(diag, e, off, PGP_TAG_SIGNATURE, "hashed subpacket area truncated");
	s->hashed = pgp_rd_as_view(&hashed);
	s->hashed_part.p = start;
	s->hashed_part.len = (size_t)(r->p - start);
	off = r->off;
	e = s->version == 6 ? pgp_rd_sub32(r, &unhashed) : pgp_rd_sub16(r, &unhashed);
	if (e != PGP_OK)
		return pgp__fail(diag, e, off, PGP_TAG_SIGNATURE, "unhashed subpacket area truncated");
	s->unhashed = pgp_rd_as_view(&unhashed);
	if ((e = pgp_rd_copy(r, s->prefix, 2)) != PGP_OK)
		return pgp__fail(diag, e, r->off, PGP_TAG_SIGNATURE, "hash prefix truncated");
	if (s->version == 6) {
		size_t want = salt_len(s->hash_algo);
		off = r->off;
		if ((e = pgp_rd_u8(r, &slen)) != PGP_OK ||
		    (e = pgp_rd_view(r, slen, &s->salt)) != PGP_OK)
			return pgp__fail(diag, e, off, PGP_TAG_SIGNATURE, "salt truncated");
		/* an unlisted hash has no defined salt size: the verifier
		 * refuses the hash itself */
		if (want && slen != want)
			return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
			    "salt size does not match the hash algorithm");
	}
	if ((e = parse_material(s, r, diag)) != PGP_OK)
		return e;
	return pgp__sig_decode_subpkts(s, &hashed, &unhashed, diag);
}

/* see packet.h */
pgp_err
pgp_sig_parse(pgp_sig *out, const pgp_rd *body, pgp_diag *diag)
{
	pgp_rd r = *body;
	pgp_err e;

	memset(out, 0, sizeof *out);
	out->body = pgp_rd_as_view(body);
	if ((e = pgp_rd_u8(&r, &out->version)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_SIGNATURE, "signature version missing");
	switch (out->version) {
	case 2: /* RFC 4880 §5.2: v2 is v3 */
	case 3:
		return parse_v3(out, &r, diag);
	case 4:
	case 5:
	case 6:
		return parse_v4v6(out, &r, body->p, diag);
	default:
		out->opaque = 1;
		return pgp__fail(diag, PGP_ERR_UNSUPPORTED, body->off, PGP_TAG_SIGNATURE,
		    "unknown signature version");
	}
}

/* see packet.h */
const char *
pgp_sigtype_name(int type)
{
	switch (type) {
	case PGP_SIG_BINARY: return "Binary document";
	case PGP_SIG_TEXT: return "Text document";
	case PGP_SIG_STANDALONE: return "Standalone";
	case PGP_SIG_CERT_GENERIC: return "Generic certification";
	case PGP_SIG_CERT_PERSONA: return "Persona certification";
	case PGP_SIG_CERT_CASUAL: return "Casual certification";
	case PGP_SIG_CERT_POSITIVE: return "Positive certification";
	case PGP_SIG_SUBKEY_BINDING: return "Subkey binding";
	case PGP_SIG_PRIMARY_BINDING: return "Primary key binding";
	case PGP_SIG_DIRECT_KEY: return "Direct key";
	case PGP_SIG_KEY_REVOCATION: return "Key revocation";
	case PGP_SIG_SUBKEY_REVOCATION: return "Subkey revocation";
	case PGP_SIG_CERT_REVOCATION: return "Certification revocation";
	case PGP_SIG_TIMESTAMP: return "Timestamp";
	case PGP_SIG_THIRD_PARTY: return "Third-party confirmation";
	default: return "Unknown";
	}
}

/* see packet.h */
int
pgp_sig_names_fpr(const pgp_sig *sig, const pgp_fpr *fpr)
{
	if (sig->issuer_fpr.len)
		return sig->issuer_fpr.len == fpr->len &&
		    memcmp(sig->issuer_fpr.v, fpr->v, fpr->len) == 0;
	if (sig->has_issuer)
		return memcmp(sig->issuer, fpr->len == 20 ? fpr->v + 12 : fpr->v, 8) == 0;
	return 0;
}
