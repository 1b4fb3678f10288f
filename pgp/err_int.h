/*
 * err_int.h - internals of err.c shared by every module of pgp/: setting
 * the caller's pgp_diag. Not part of the public API (pgp/pgp.h).
 */
#ifndef PGP_ERR_INT_H
#define PGP_ERR_INT_H

#include <stddef.h>
#include "err.h"

/* Internal: fill *diag (if diag is not NULL). */
void pgp__diag_set(pgp_diag *diag, size_t offset, int tag, const char *what);
/* Internal: pgp__diag_set(), then return e. */
pgp_err pgp__fail(pgp_diag *diag, pgp_err e, size_t offset, int tag, const char *what);

#endif
