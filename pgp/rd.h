/*
 * rd.h - the bounded reader. ALL parsing in libpgp goes through it.
 *
 * A pgp_rd is a borrowed view (pointer + length) into the caller's input; it
 * never owns memory. `off` is the absolute offset of `p` in the original
 * input, carried into sub-readers, so diagnostics can name exact offsets.
 * Every getter advances only on success, and checks `n > r->len`, never
 * `pos + n > len`. Each length-prefixed field gets its own sub-reader.
 */
#ifndef PGP_RD_H
#define PGP_RD_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

typedef struct pgp_rd {
	const uint8_t *p;
	size_t len;
	size_t off;
} pgp_rd;

/* A borrowed byte range (never NUL-terminated). */
typedef struct pgp_view {
	const uint8_t *p;
	size_t len;
} pgp_view;

static inline void
pgp_rd_init(pgp_rd *r, const uint8_t *p, size_t len)
{
	r->p = p;
	r->len = len;
	r->off = 0;
}

static inline int
pgp_rd_empty(const pgp_rd *r)
{
	return r->len == 0;
}

pgp_err pgp_rd_u8(pgp_rd *r, uint8_t *out);
pgp_err pgp_rd_be16(pgp_rd *r, uint16_t *out);
pgp_err pgp_rd_be32(pgp_rd *r, uint32_t *out);
/* Peek at the next octet without advancing. */
pgp_err pgp_rd_peek(const pgp_rd *r, uint8_t *out);
/* Split the next n octets off into *out (a sub-reader). */
pgp_err pgp_rd_sub(pgp_rd *r, size_t n, pgp_rd *out);
/* Take the next n octets as a view. */
pgp_err pgp_rd_view(pgp_rd *r, size_t n, pgp_view *out);
pgp_err pgp_rd_skip(pgp_rd *r, size_t n);
pgp_err pgp_rd_copy(pgp_rd *r, void *dst, size_t n);
/* Sub-reader with a 1-, 2- or 4-octet big-endian length prefix. */
pgp_err pgp_rd_sub8(pgp_rd *r, pgp_rd *out);
pgp_err pgp_rd_sub16(pgp_rd *r, pgp_rd *out);
pgp_err pgp_rd_sub32(pgp_rd *r, pgp_rd *out);
/* Everything left, as a sub-reader; r becomes empty. */
void pgp_rd_rest(pgp_rd *r, pgp_rd *out);

static inline pgp_view
pgp_rd_as_view(const pgp_rd *r)
{
	pgp_view v;
	v.p = r->p;
	v.len = r->len;
	return v;
}

/* Big-endian helpers for fixed-size buffers already bounds-checked. */
static inline uint32_t
pgp_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void
pgp_put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

#endif
