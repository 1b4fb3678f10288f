/*
 * decompress_int.h - a test and fuzzing hook of decompress.c. Internal to
 * pgp/ (the public API is decompress.h).
 */
#ifndef PGP_DECOMPRESS_INT_H
#define PGP_DECOMPRESS_INT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "packet.h"
#include "decompress.h"

/* Tests, fuzzing: pgp_decompress with an explicit fresh budget
 * of cap octets instead of PGP_MAX_DECOMPRESSED. */
pgp_err pgp__decompress_capped(uint8_t **out, size_t *out_len, const pgp_pkt *pkt,
    uint8_t *algo_out, size_t cap, pgp_diag *diag);

#endif
