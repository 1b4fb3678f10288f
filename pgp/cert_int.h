/*
 * cert_int.h - internals shared by cert.c (assembly of one certificate),
 * certset.c (the set) and the users of certificate sources (verify.c,
 * eval.c). Not part of the public API.
 */
#ifndef PGP_CERT_INT_H
#define PGP_CERT_INT_H

#include "cert.h"

/* Counts of one certificate's parts, from a first framing pass. */
typedef struct cert_counts {
	size_t nuids, nsubs, nsigs;
	size_t end;  /* bytes of input the certificate spans */
} cert_counts;

int pgp__is_primary_tag(int tag);

/*
 * Walks the packets of one certificate: start with r at its primary key
 * packet and *first = 1. Returns 1 with the next packet in *pkt (body views
 * into r's input), 0 at the certificate's end: the next primary key or the
 * end of input, or a framing error (then in *pending, diag set); r is left
 * before whatever ended it.
 */
int pgp__cert_next(pgp_rd *r, int *first, pgp_pkt *pkt, pgp_err *pending, pgp_diag *diag);

/*
 * Frame the packets of one certificate starting at a primary key packet.
 * A framing error after the primary key ends the certificate there: it is
 * kept, and the error comes back in *pending for the caller to report.
 * PGP_ERR_LIMIT (diag: certificate offset, component tag) beyond
 * PGP_MAX_UIDS, PGP_MAX_SUBKEYS or max_sigs signatures on one component
 * (PGP_MAX_SIGS_PER_COMP unless the set was made for stripping).
 */
pgp_err pgp__cert_count(cert_counts *c, const pgp_rd *start, size_t max_sigs, pgp_err *pending,
    pgp_diag *diag);

/*
 * The same walk, calling key(ctx, pkt) for the primary key packet and each
 * subkey packet on the way (pkt valid during the call only); an error from
 * key() ends the walk and is returned. One framing pass for a lazy set
 * (certscan.c) that records keys without building the certificate.
 */
pgp_err pgp__cert_scan(cert_counts *c, const pgp_rd *start, size_t max_sigs, pgp_err *pending,
    pgp_diag *diag, pgp_err (*key)(void *ctx, const pgp_pkt *pkt), void *ctx);

/*
 * Second pass: one allocation (free()) holding the cert and its arrays.
 * Components whose key does not parse are dropped with their signatures.
 */
pgp_err pgp__cert_build(pgp_cert **out, const pgp_rd *start, const cert_counts *c,
    pgp_diag *diag);

/*
 * cert_merge.c: one certificate from n >= 1 copies with the same primary
 * key and the stand-alone revocations naming it (the union: see cert.h,
 * pgp_certset_add). The result is one allocation (free()); its views
 * borrow from the copies' input. PGP_ERR_LIMIT (diag set) when the union
 * exceeds PGP_MAX_UIDS, PGP_MAX_SUBKEYS or PGP_MAX_SIGS_PER_COMP.
 */
pgp_err pgp__cert_merge(pgp_cert **out, const pgp_cert *const *copies, size_t n,
    const pgp_rd *loose, size_t nloose, pgp_diag *diag);

/*
 * Every certificate src holds for q, into *list: the caller's stack array
 * (nstack entries) when they fit, else a heap array the caller free()s when
 * *list != stack. More than PGP_MAX_KEYID_CERTS: PGP_ERR_LIMIT (never a
 * partial answer). src may be NULL (no certificates).
 */
pgp_err pgp__certsrc_lookup(const pgp_certsrc *src, const pgp_certq *q, const pgp_cert **stack,
    size_t nstack, const pgp_cert ***list, size_t *n);

#endif
