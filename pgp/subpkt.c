/*
 * subpkt.c - signature subpackets (RFC 9580 §5.2.3.7): iteration over one
 * area and the typed decoding of the subpackets pgp_sig exposes.
 * see packet.h
 */
#include <string.h>
#include "limits.h"
#include "packet.h"
#include "err_int.h"
#include "packet_int.h"

/*
 * One subpacket: length (1, 2 or 5 octets, like a new-format packet length
 * without partial lengths), then a type octet (bit 7 = critical), then
 * length - 1 octets of data.
 *   0..191           length = o1
 *   192..254 o2      length = ((o1 - 192) << 8) + o2 + 192
 *   255 b3 b2 b1 b0  length = 32-bit big-endian
 */
/* see packet.h */
pgp_err
pgp_subpkt_next(pgp_rd *area, int hashed, pgp_subpkt *out, pgp_diag *diag)
{
	pgp_rd r = *area, s;
	uint8_t o1, o2, type;
	uint32_t len;
	size_t off = r.off;

	if (pgp_rd_u8(&r, &o1) != PGP_OK)
		return PGP_ERR_NOT_FOUND;
	if (o1 < 192) {
		len = o1;
	} else if (o1 < 255) {
		if (pgp_rd_u8(&r, &o2) != PGP_OK)
			return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
			    "subpacket length runs past its area");
		len = ((uint32_t)(o1 - 192) << 8) + o2 + 192;
	} else if (pgp_rd_be32(&r, &len) != PGP_OK) {
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
		    "subpacket length runs past its area");
	}
	if (len == 0)
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
		    "zero-length subpacket");
	if (pgp_rd_sub(&r, len, &s) != PGP_OK)
		return pgp__fail(diag, PGP_ERR_MALFORMED, off, PGP_TAG_SIGNATURE,
		    "subpacket runs past its area");
	(void)pgp_rd_u8(&s, &type); /* len >= 1 */
	memset(out, 0, sizeof *out);
	out->type = (uint8_t)(type & 0x7f);
	out->critical = (type & 0x80) ? 1 : 0;
	out->hashed = hashed ? 1 : 0;
	out->data = s;
	out->off = off;
	*area = r;
	return PGP_OK;
}

/* see packet.h */
const char *
pgp_subpkt_name(int type)
{
	switch (type) {
	case PGP_SUB_CREATED: return "Signature Creation Time";
	case PGP_SUB_SIG_EXPIRES: return "Signature Expiration Time";
	case PGP_SUB_EXPORTABLE: return "Exportable Certification";
	case PGP_SUB_TRUST: return "Trust Signature";
	case PGP_SUB_REGEX: return "Regular Expression";
	case PGP_SUB_REVOCABLE: return "Revocable";
	case PGP_SUB_KEY_EXPIRES: return "Key Expiration Time";
	case PGP_SUB_PLACEHOLDER: return "Placeholder for Backward Compatibility";
	case PGP_SUB_PREF_SYM: return "Preferred Symmetric Ciphers";
	case PGP_SUB_REVOCATION_KEY: return "Revocation Key";
	case PGP_SUB_ISSUER: return "Issuer Key ID";
	case PGP_SUB_NOTATION: return "Notation Data";
	case PGP_SUB_PREF_HASH: return "Preferred Hash Algorithms";
	case PGP_SUB_PREF_COMP: return "Preferred Compression Algorithms";
	case PGP_SUB_KEYSERVER_PREFS: return "Key Server Preferences";
	case PGP_SUB_PREF_KEYSERVER: return "Preferred Key Server";
	case PGP_SUB_PRIMARY_UID: return "Primary User ID";
	case PGP_SUB_POLICY_URI: return "Policy URI";
	case PGP_SUB_KEY_FLAGS: return "Key Flags";
	case PGP_SUB_SIGNERS_UID: return "Signer's User ID";
	case PGP_SUB_REVOCATION_REASON: return "Reason for Revocation";
	case PGP_SUB_FEATURES: return "Features";
	case PGP_SUB_SIG_TARGET: return "Signature Target";
	case PGP_SUB_EMBEDDED_SIG: return "Embedded Signature";
	case PGP_SUB_ISSUER_FPR: return "Issuer Fingerprint";
	case PGP_SUB_PREF_AEAD: return "Preferred AEAD Algorithms";
	case PGP_SUB_INTENDED_RCPT: return "Intended Recipient Fingerprint";
	case PGP_SUB_ATTESTED: return "Attested Certifications";
	case PGP_SUB_KEY_BLOCK: return "Key Block";
	case PGP_SUB_PREF_AEAD_CIPHERS: return "Preferred AEAD Ciphersuites";
	default:
		if (type >= 100 && type <= 110)
			return "Private or Experimental";
		return "Unknown";
	}
}

/*
 * Subpacket types whose criticality we can honour (§5.2.3.7: a critical
 * subpacket of an unknown type makes the signature unusable). Regular
 * expressions (6) are not implemented, so a critical one is "unknown" to us,
 * and so is any critical notation (20): we know no notation names.
 */
static int
understood(uint8_t type)
{
	switch (type) {
	case 2: case 3: case 4: case 5: case 7: case 9: case 11: case 12:
	case 16: case 21: case 22: case 23: case 24: case 25: case 26: case 27:
	case 28: case 29: case 30: case 32: case 33: case 34: case 35: case 37:
	case 38: case 39:
		return 1;
	default:
		return 0;
	}
}

static pgp_err
want_len(const pgp_subpkt *sp, size_t n, pgp_diag *diag, const char *what)
{
	if (sp->data.len != n)
		return pgp__fail(diag, PGP_ERR_MALFORMED, sp->off, PGP_TAG_SIGNATURE, what);
	return PGP_OK;
}

/* §5.2.3.23: class with bit 0x80, algorithm, 20 (v4) or 32 (v6) octets. */
static int
revoker_ok(const uint8_t *d, size_t n)
{
	return (n == 2 + 20 || n == 2 + 32) && (d[0] & 0x80);
}

/* Decode one subpacket into *sig. Unhashed subpackets only supply the
 * issuer, issuer fingerprint and embedded signature (hints, §5.2.3.7). */
static pgp_err
decode(pgp_sig *sig, const pgp_subpkt *sp, int *hashed_issuer,
    int *hashed_fpr, pgp_diag *diag)
{
	const uint8_t *d = sp->data.p;
	size_t n = sp->data.len;
	pgp_err e = PGP_OK;

	if (sp->hashed && sp->critical && !sig->unknown_critical &&
	    !understood(sp->type)) {
		sig->unknown_critical = 1;
		sig->critical_type = sp->type;
	}
	switch (sp->type) {
	case PGP_SUB_ISSUER:
		if ((e = want_len(sp, 8, diag, "issuer key ID must be 8 octets")) != PGP_OK)
			break;
		/* prefer the hashed one if both are present */
		if (sp->hashed || !*hashed_issuer) {
			memcpy(sig->issuer, d, 8);
			sig->has_issuer = 1;
			if (sp->hashed)
				*hashed_issuer = 1;
		}
		return PGP_OK;
	case PGP_SUB_ISSUER_FPR: {
		/* §5.2.3.35: version octet, then 20 (v4) or 32 (v5/v6) octets */
		uint8_t v;
		if (n != 21 && n != 33) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, sp->off, PGP_TAG_SIGNATURE,
			    "issuer fingerprint has a bad length");
			break;
		}
		v = d[0];
		if ((v == 4 && n != 21) || ((v == 5 || v == 6) && n != 33) ||
		    (sig->version == 6 && n != 33)) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, sp->off, PGP_TAG_SIGNATURE,
			    "issuer fingerprint length does not match its version");
			break;
		}
		if (sp->hashed || !*hashed_fpr) {
			sig->issuer_fpr_version = v;
			sig->issuer_fpr.len = (uint8_t)(n - 1);
			memcpy(sig->issuer_fpr.v, d + 1, n - 1);
			if (sp->hashed)
				*hashed_fpr = 1;
		}
		return PGP_OK;
	}
	case PGP_SUB_EMBEDDED_SIG:
		if (sp->hashed || sig->embedded.p == NULL) {
			sig->embedded.p = d;
			sig->embedded.len = n;
		}
		return PGP_OK;
	default:
		break;
	}
	if (e != PGP_OK || !sp->hashed)
		return e;

	switch (sp->type) {
	case PGP_SUB_CREATED:
		if ((e = want_len(sp, 4, diag, "creation time must be 4 octets")) != PGP_OK)
			break;
		if (sig->has_created) {
			/*
			 * §5.2.3.11 names one creation time; two that differ leave
			 * the signing time (expiry, revocation, key liveness) to
			 * whichever a verifier reads: refused (vectors/interop
			 * created-twice-different). Equal copies are harmless.
			 * A key or subkey revocation is the exception: refusing it
			 * would keep the key alive, so it parses and counts as a
			 * hard revocation (pgp__is_hard_revocation; vectors/certorder
			 * soft-revocation-two-creation-times).
			 */
			sig->dup_created = 1;
			if (pgp_be32(d) == sig->created)
				break;
			if (sig->type != PGP_SIG_KEY_REVOCATION && sig->type != PGP_SIG_SUBKEY_REVOCATION)
				e = pgp__fail(diag, PGP_ERR_MALFORMED, sp->off, PGP_TAG_SIGNATURE,
				    "two different signature creation times");
			else if (pgp_be32(d) < sig->created)
				sig->created = pgp_be32(d);
			break;
		}
		sig->created = pgp_be32(d);
		sig->has_created = 1;
		break;
	case PGP_SUB_SIG_EXPIRES:
		if ((e = want_len(sp, 4, diag, "signature expiration must be 4 octets")) != PGP_OK)
			break;
		sig->sig_expires = pgp_be32(d);
		break;
	case PGP_SUB_KEY_EXPIRES:
		if ((e = want_len(sp, 4, diag, "key expiration must be 4 octets")) != PGP_OK)
			break;
		sig->key_expires = pgp_be32(d);
		sig->has_key_expires = 1;
		break;
	case PGP_SUB_EXPORTABLE:
		if ((e = want_len(sp, 1, diag, "exportable must be 1 octet")) != PGP_OK)
			break;
		sig->exportable = d[0] ? 1 : 0;
		break;
	case PGP_SUB_REVOCABLE:
		if ((e = want_len(sp, 1, diag, "revocable must be 1 octet")) != PGP_OK)
			break;
		sig->revocable = d[0] ? 1 : 0;
		break;
	case PGP_SUB_PRIMARY_UID:
		if ((e = want_len(sp, 1, diag, "primary user ID must be 1 octet")) != PGP_OK)
			break;
		sig->primary_uid = d[0] ? 1 : 0;
		break;
	case PGP_SUB_TRUST:
		if ((e = want_len(sp, 2, diag, "trust signature must be 2 octets")) != PGP_OK)
			break;
		sig->trust_level = d[0];
		sig->trust_amount = d[1];
		sig->has_trust = 1;
		break;
	case PGP_SUB_KEY_FLAGS:
		/* zero octets is allowed: no flags */
		sig->key_flags = n ? d[0] : 0;
		sig->has_key_flags = 1;
		break;
	case PGP_SUB_REVOCATION_REASON:
		if (n < 1) {
			e = pgp__fail(diag, PGP_ERR_MALFORMED, sp->off, PGP_TAG_SIGNATURE,
			    "reason for revocation needs a code");
			break;
		}
		sig->revocation_code = d[0];
		sig->has_revocation_reason = 1;
		sig->revocation_text.p = d + 1;
		sig->revocation_text.len = n - 1;
		break;
	case PGP_SUB_SIGNERS_UID:
		sig->signers_uid.p = d;
		sig->signers_uid.len = n;
		break;
	case PGP_SUB_FEATURES:
		sig->features.p = d;
		sig->features.len = n;
		break;
	case PGP_SUB_REVOCATION_KEY:
		/* kept in place; pgp_sig_next_revoker() decodes it */
		if (revoker_ok(d, n))
			sig->has_revoker = 1;
		break;
	default:
		break;
	}
	return e;
}

static pgp_err
decode_area(pgp_sig *sig, const pgp_rd *area, int hashed, int *hashed_issuer,
    int *hashed_fpr, pgp_diag *diag)
{
	pgp_rd r = *area;
	pgp_subpkt sp;
	unsigned count = 0;
	pgp_err e;

	for (;;) {
		size_t off = r.off;
		e = pgp_subpkt_next(&r, hashed, &sp, diag);
		if (e == PGP_ERR_NOT_FOUND)
			return PGP_OK;
		if (e != PGP_OK)
			return e;
		if (++count > PGP_MAX_SUBPACKETS)
			return pgp__fail(diag, PGP_ERR_LIMIT, off, PGP_TAG_SIGNATURE,
			    "more than 512 subpackets in one area (PGP_MAX_SUBPACKETS)");
		sig->nsubpkts = (uint16_t)(sig->nsubpkts + 1);
		if ((e = decode(sig, &sp, hashed_issuer, hashed_fpr, diag)) != PGP_OK)
			return e;
	}
}

/* see packet_int.h */
pgp_err
pgp__sig_decode_subpkts(pgp_sig *sig, const pgp_rd *hashed,
    const pgp_rd *unhashed, pgp_diag *diag)
{
	int hashed_issuer = 0, hashed_fpr = 0;
	pgp_err e;

	sig->exportable = 1;
	sig->revocable = 1;
	if ((e = decode_area(sig, hashed, 1, &hashed_issuer, &hashed_fpr, diag)) != PGP_OK)
		return e;
	if ((e = decode_area(sig, unhashed, 0, &hashed_issuer, &hashed_fpr, diag)) != PGP_OK)
		return e;
	/* No issuer key ID subpacket: derive it from the issuer fingerprint
	 * (v4: the low 64 bits; v5/v6: the high 64 bits, RFC 9580 §5.5.4). */
	if (!sig->has_issuer && sig->issuer_fpr.len == 20) {
		memcpy(sig->issuer, sig->issuer_fpr.v + 12, 8);
		sig->has_issuer = 1;
	} else if (!sig->has_issuer && sig->issuer_fpr.len == 32) {
		memcpy(sig->issuer, sig->issuer_fpr.v, 8);
		sig->has_issuer = 1;
	}
	return PGP_OK;
}

/* see packet.h */
pgp_err
pgp_sig_next_revoker(const pgp_sig *sig, size_t *pos, pgp_revoker *out)
{
	pgp_rd r;
	pgp_subpkt sp;

	if (*pos > sig->hashed.len)
		return PGP_ERR_NOT_FOUND;
	pgp_rd_init(&r, sig->hashed.p + *pos, sig->hashed.len - *pos);
	while (pgp_subpkt_next(&r, 1, &sp, NULL) == PGP_OK) {
		const uint8_t *d = sp.data.p;
		size_t n = sp.data.len;
		if (sp.type != PGP_SUB_REVOCATION_KEY || !revoker_ok(d, n))
			continue;
		*pos = sig->hashed.len - r.len;
		memset(out, 0, sizeof *out);
		out->cls = d[0];
		out->algo = d[1];
		out->fpr.len = (uint8_t)(n - 2);
		memcpy(out->fpr.v, d + 2, n - 2);
		return PGP_OK;
	}
	*pos = sig->hashed.len;
	return PGP_ERR_NOT_FOUND;
}
