/* buf.c - capped growable buffer. see buf.h */
#include <stdlib.h>
#include <string.h>
#include "buf.h"

/* see buf.h */
void
pgp_buf_init(pgp_buf *b, size_t max)
{
	b->p = NULL;
	b->len = 0;
	b->cap = 0;
	b->max = max;
}

static pgp_err
reserve(pgp_buf *b, size_t n)
{
	size_t need, ncap;
	uint8_t *np;
	if (n > b->max || b->len > b->max - n)
		return PGP_ERR_LIMIT;
	need = b->len + n;
	if (need <= b->cap)
		return PGP_OK;
	ncap = b->cap ? b->cap : 256;
	while (ncap < need)
		ncap = ncap > b->max / 2 ? b->max : ncap * 2;
	np = realloc(b->p, ncap);
	if (np == NULL)
		return PGP_ERR_NOMEM;
	b->p = np;
	b->cap = ncap;
	return PGP_OK;
}

/* see buf.h */
pgp_err
pgp_buf_append(pgp_buf *b, const void *p, size_t n)
{
	pgp_err e;
	if (n == 0)
		return PGP_OK;
	if ((e = reserve(b, n)) != PGP_OK)
		return e;
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return PGP_OK;
}

/* see buf.h */
pgp_err
pgp_buf_putc(pgp_buf *b, uint8_t c)
{
	return pgp_buf_append(b, &c, 1);
}

/* see buf.h */
pgp_err
pgp_buf_grow(pgp_buf *b, size_t n, uint8_t **out)
{
	pgp_err e;
	if ((e = reserve(b, n ? n : 1)) != PGP_OK)
		return e;
	*out = b->p + b->len;
	b->len += n;
	return PGP_OK;
}

/* see buf.h */
uint8_t *
pgp_buf_take(pgp_buf *b, size_t *len)
{
	uint8_t *p = b->p;
	if (len)
		*len = b->len;
	b->p = NULL;
	b->len = b->cap = 0;
	return p;
}

/* see buf.h */
void
pgp_buf_free(pgp_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}

/* see buf.h */
pgp_err
pgp_buf_put_be16(pgp_buf *b, uint16_t v)
{
	uint8_t o[2];
	o[0] = (uint8_t)(v >> 8);
	o[1] = (uint8_t)v;
	return pgp_buf_append(b, o, 2);
}

/* see buf.h */
pgp_err
pgp_buf_put_be32(pgp_buf *b, uint32_t v)
{
	uint8_t o[4];
	o[0] = (uint8_t)(v >> 24);
	o[1] = (uint8_t)(v >> 16);
	o[2] = (uint8_t)(v >> 8);
	o[3] = (uint8_t)v;
	return pgp_buf_append(b, o, 4);
}
