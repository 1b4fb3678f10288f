/* uattr.c - user attribute subpackets (RFC 9580 §5.12). see packet.h */
#include <string.h>
#include "packet.h"
#include "err_int.h"

/*
 * RFC 9580 §5.12: a user attribute body is a sequence of subpackets with
 * signature-subpacket lengths (§5.2.3.7: 1, 2 or 5 octets), each holding a
 * type octet and the data. A zero length (no type octet) is malformed.
 */
/* see packet.h */
pgp_err
pgp_uattr_next(pgp_rd *body, pgp_uattr_sub *out, pgp_diag *diag)
{
	pgp_rd r = *body, sub;
	uint8_t o1, o2;
	uint32_t len;
	size_t start = body->off;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if (pgp_rd_empty(&r))
		return PGP_ERR_NOT_FOUND;
	(void)pgp_rd_u8(&r, &o1);
	if (o1 < 192) {
		len = o1;
	} else if (o1 < 255) {
		if ((e = pgp_rd_u8(&r, &o2)) != PGP_OK)
			return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
			    "user attribute subpacket length");
		len = ((uint32_t)(o1 - 192) << 8) + o2 + 192;
	} else {
		if ((e = pgp_rd_be32(&r, &len)) != PGP_OK)
			return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
			    "user attribute subpacket length");
	}
	if (len == 0)
		return pgp__fail(diag, PGP_ERR_MALFORMED, start, PGP_TAG_USER_ATTRIBUTE,
		    "user attribute subpacket type (length 0)");
	if ((e = pgp_rd_sub(&r, len, &sub)) != PGP_OK)
		return pgp__fail(diag, e, start, PGP_TAG_USER_ATTRIBUTE,
		    "user attribute subpacket body");
	(void)pgp_rd_u8(&sub, &out->type);
	out->data = pgp_rd_as_view(&sub);
	*body = r;
	return PGP_OK;
}
