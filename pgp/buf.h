/*
 * buf.h - growable output buffer with a hard cap (curl dynbuf style).
 * Appends past `max` fail with PGP_ERR_LIMIT and leave the buffer intact.
 */
#ifndef PGP_BUF_H
#define PGP_BUF_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

typedef struct pgp_buf {
	uint8_t *p;
	size_t len;
	size_t cap;
	size_t max;
} pgp_buf;

void pgp_buf_init(pgp_buf *b, size_t max);
pgp_err pgp_buf_append(pgp_buf *b, const void *p, size_t n);
pgp_err pgp_buf_putc(pgp_buf *b, uint8_t c);
/* v as 2 or 4 big-endian octets. */
pgp_err pgp_buf_put_be16(pgp_buf *b, uint16_t v);
pgp_err pgp_buf_put_be32(pgp_buf *b, uint32_t v);
/* Make room for n more octets; *out points at them (len is advanced). */
pgp_err pgp_buf_grow(pgp_buf *b, size_t n, uint8_t **out);
/* Hand the bytes over to the caller (free() them); b becomes empty. */
uint8_t *pgp_buf_take(pgp_buf *b, size_t *len);
void pgp_buf_free(pgp_buf *b);

#endif
