/* onepass.c - one-pass signature packets (RFC 9580 §5.4). see packet.h */
#include <string.h>
#include "packet.h"
#include "err_int.h"

/*
 * RFC 9580 §5.4:
 *   v3: 03 | type | hash | pk | key ID (8) | nested            = 13 octets
 *   v6: 06 | type | hash | pk | salt len | salt | fpr (32) | nested
 */
/* see packet.h */
pgp_err
pgp_ops_parse(pgp_ops *out, const pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = pkt->body;
	uint8_t slen;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if ((e = pgp_rd_u8(&r, &out->version)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature version");
	if (out->version != 3 && out->version != 6)
		return pgp__fail(diag, PGP_ERR_UNSUPPORTED, pkt->body.off, PGP_TAG_ONE_PASS_SIG,
		    "one-pass signature version (3 or 6)");
	if ((e = pgp_rd_u8(&r, &out->type)) != PGP_OK ||
	    (e = pgp_rd_u8(&r, &out->hash_algo)) != PGP_OK ||
	    (e = pgp_rd_u8(&r, &out->pk_algo)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature algorithms");
	if (out->version == 3) {
		if ((e = pgp_rd_copy(&r, out->keyid, 8)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature key ID");
	} else {
		if ((e = pgp_rd_u8(&r, &slen)) != PGP_OK ||
		    (e = pgp_rd_view(&r, slen, &out->salt)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature salt");
		if ((e = pgp_rd_view(&r, 32, &out->fpr)) != PGP_OK)
			return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG,
			    "one-pass signature fingerprint (32 octets)");
	}
	if ((e = pgp_rd_u8(&r, &out->nested)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_ONE_PASS_SIG, "one-pass signature nested flag");
	if (!pgp_rd_empty(&r))
		return pgp__fail(diag, PGP_ERR_MALFORMED, r.off, PGP_TAG_ONE_PASS_SIG,
		    "end of one-pass signature packet");
	return PGP_OK;
}
