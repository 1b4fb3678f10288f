/*
 * armor_int.h - the line reader and view comparisons shared by armor.c and
 * cleartext.c. Internal to pgp/ (the public API is armor.h).
 */
#ifndef PGP_ARMOR_INT_H
#define PGP_ARMOR_INT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rd.h"
#include "armor.h"

typedef struct pgp__line {
	size_t off;      /* offset of the line start in the input */
	pgp_view raw;    /* the whole line including its line ending */
	pgp_view body;   /* without the line ending (LF, or CRLF) */
	pgp_view trim;   /* body without trailing spaces and tabs */
	uint8_t has_nl;  /* 1: ended in LF; 0: last line of the input */
} pgp__line;

/* Next line of r (advances past it). PGP_ERR_TRUNCATED if r is empty. */
pgp_err pgp__armor_getline(pgp_rd *r, pgp__line *out);
/* 1 if v is "-----BEGIN PGP SIGNATURE-----" etc.: exactly the text s. */
int pgp__view_eq(pgp_view v, const char *s);
/* 1 if v starts with s. */
int pgp__view_prefix(pgp_view v, const char *s);

#endif
