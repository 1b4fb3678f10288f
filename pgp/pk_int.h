/*
 * pk_int.h - the per-algorithm verification code behind pk.h (pk_rsa.c,
 * pk_dsa.c, pk_ecdsa.c, pk_eddsa.c), called by pk.c. Internal to pgp/.
 */
#ifndef PGP_PK_INT_H
#define PGP_PK_INT_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "packet.h"
#include "pk.h"

/* Each assumes pk.c has checked the NULL pointers, the digest length and the
 * algorithm; `strict` (check_key only) enables the size/sanity rules. */
pgp_err pgp__pk_rsa_verify(const pgp_key *key, const pgp_sig *sig, int hash_alg,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag);
pgp_err pgp__pk_rsa_check(const pgp_key *key, int strict, pgp_diag *diag);
pgp_err pgp__pk_dsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag);
pgp_err pgp__pk_dsa_check(const pgp_key *key, int strict, pgp_diag *diag);
pgp_err pgp__pk_ecdsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag);
pgp_err pgp__pk_ecdsa_check(const pgp_key *key, pgp_diag *diag);
pgp_err pgp__pk_eddsa_verify(const pgp_key *key, const pgp_sig *sig,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag);
pgp_err pgp__pk_eddsa_check(const pgp_key *key, pgp_diag *diag);

/* The magnitude of m without leading zero octets (the MPI's value). */
pgp_view pgp__pk_mpi_trim(const pgp_mpi *m);
/* Bit length of the value of m (leading zeros ignored). */
size_t pgp__pk_mpi_bits(const pgp_mpi *m);
/* Set diag->what (if diag) and return e. */
pgp_err pgp__pk_fail(pgp_diag *diag, pgp_err e, const char *what);

#endif
