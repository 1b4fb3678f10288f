/*
 * packet_int.h - internals shared by the packet parsers of pgp/ (sig.c,
 * subpkt.c). Not part of the public API (packet.h).
 */
#ifndef PGP_PACKET_INT_H
#define PGP_PACKET_INT_H

#include "err.h"
#include "rd.h"
#include "packet.h"

/* sig.c -> subpkt.c: decode the hashed and unhashed areas (readers
 * over sig->hashed / sig->unhashed, with their input offsets) into the pgp_sig
 * fields. */
pgp_err pgp__sig_decode_subpkts(pgp_sig *sig, const pgp_rd *hashed,
    const pgp_rd *unhashed, pgp_diag *diag);

#endif
