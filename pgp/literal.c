/* literal.c - literal data packets (RFC 9580 §5.9). see packet.h */
#include <string.h>
#include "packet.h"
#include "err_int.h"

/*
 * RFC 9580 §5.9: format | name len | name | date (4) | data...
 * Any format octet is accepted and reported; interpreting it is the caller's.
 */
/* see packet.h */
pgp_err
pgp_literal_parse(pgp_literal *out, const pgp_pkt *pkt, pgp_diag *diag)
{
	pgp_rd r = pkt->body, rest;
	uint8_t nlen;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if ((e = pgp_rd_u8(&r, &out->format)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data format");
	if ((e = pgp_rd_u8(&r, &nlen)) != PGP_OK ||
	    (e = pgp_rd_view(&r, nlen, &out->filename)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data file name");
	if ((e = pgp_rd_be32(&r, &out->date)) != PGP_OK)
		return pgp__fail(diag, e, r.off, PGP_TAG_LITERAL, "literal data date (4 octets)");
	pgp_rd_rest(&r, &rest);
	out->data = pgp_rd_as_view(&rest);
	return PGP_OK;
}
