/* rd.c - the bounded reader; the only code that indexes raw input. see rd.h */
#include <string.h>
#include "rd.h"

static void
advance(pgp_rd *r, size_t n)
{
	r->p += n;
	r->len -= n;
	r->off += n;
}

/* see rd.h */
pgp_err
pgp_rd_u8(pgp_rd *r, uint8_t *out)
{
	if (r->len < 1)
		return PGP_ERR_TRUNCATED;
	*out = r->p[0];
	advance(r, 1);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_peek(const pgp_rd *r, uint8_t *out)
{
	if (r->len < 1)
		return PGP_ERR_TRUNCATED;
	*out = r->p[0];
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_be16(pgp_rd *r, uint16_t *out)
{
	if (r->len < 2)
		return PGP_ERR_TRUNCATED;
	*out = (uint16_t)((r->p[0] << 8) | r->p[1]);
	advance(r, 2);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_be32(pgp_rd *r, uint32_t *out)
{
	if (r->len < 4)
		return PGP_ERR_TRUNCATED;
	*out = pgp_be32(r->p);
	advance(r, 4);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_sub(pgp_rd *r, size_t n, pgp_rd *out)
{
	if (n > r->len)
		return PGP_ERR_TRUNCATED;
	out->p = r->p;
	out->len = n;
	out->off = r->off;
	advance(r, n);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_view(pgp_rd *r, size_t n, pgp_view *out)
{
	if (n > r->len)
		return PGP_ERR_TRUNCATED;
	out->p = r->p;
	out->len = n;
	advance(r, n);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_skip(pgp_rd *r, size_t n)
{
	if (n > r->len)
		return PGP_ERR_TRUNCATED;
	advance(r, n);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_copy(pgp_rd *r, void *dst, size_t n)
{
	if (n > r->len)
		return PGP_ERR_TRUNCATED;
	if (n)
		memcpy(dst, r->p, n);
	advance(r, n);
	return PGP_OK;
}

/* see rd.h */
pgp_err
pgp_rd_sub8(pgp_rd *r, pgp_rd *out)
{
	pgp_rd save = *r;
	uint8_t n;
	pgp_err e;
	if ((e = pgp_rd_u8(r, &n)) != PGP_OK)
		return e;
	if ((e = pgp_rd_sub(r, n, out)) != PGP_OK)
		*r = save;
	return e;
}

/* see rd.h */
pgp_err
pgp_rd_sub16(pgp_rd *r, pgp_rd *out)
{
	pgp_rd save = *r;
	uint16_t n;
	pgp_err e;
	if ((e = pgp_rd_be16(r, &n)) != PGP_OK)
		return e;
	if ((e = pgp_rd_sub(r, n, out)) != PGP_OK)
		*r = save;
	return e;
}

/* see rd.h */
pgp_err
pgp_rd_sub32(pgp_rd *r, pgp_rd *out)
{
	pgp_rd save = *r;
	uint32_t n;
	pgp_err e;
	if ((e = pgp_rd_be32(r, &n)) != PGP_OK)
		return e;
	if ((e = pgp_rd_sub(r, n, out)) != PGP_OK)
		*r = save;
	return e;
}

/* see rd.h */
void
pgp_rd_rest(pgp_rd *r, pgp_rd *out)
{
	*out = *r;
	advance(r, r->len);
}
