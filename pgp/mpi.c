/*
 * mpi.c - multiprecision integers (RFC 9580 §3.2): a 2-octet bit count, then
 * ceil(bits / 8) magnitude octets, most significant first. A non-canonical
 * bit count or a leading zero octet is recorded, not rejected: RFC 9580
 * Appendix A.2 has a signature whose MPI carries such a count, and it must
 * still parse (the verifier decides). see packet.h
 */
#include "limits.h"
#include "packet.h"

/* see packet.h */
pgp_err
pgp_mpi_read(pgp_rd *r, pgp_mpi *out)
{
	pgp_rd save = *r;
	uint16_t bits;
	pgp_err e;

	if ((e = pgp_rd_be16(r, &bits)) != PGP_OK)
		return e;
	if (bits > PGP_MAX_MPI_BITS) {
		*r = save;
		return PGP_ERR_LIMIT;
	}
	if ((e = pgp_rd_view(r, ((size_t)bits + 7) / 8, &out->v)) != PGP_OK) {
		*r = save;
		return e;
	}
	out->bits = bits;
	out->leading_zero = (out->v.len > 0 && out->v.p[0] == 0) ? 1 : 0;
	out->bad_bits = pgp_mpi_bitlen(out) != bits ? 1 : 0;
	return PGP_OK;
}

/* see packet.h */
unsigned
pgp_mpi_bitlen(const pgp_mpi *m)
{
	size_t i;
	unsigned bits;
	uint8_t top;

	for (i = 0; i < m->v.len && m->v.p[i] == 0; i++)
		;
	if (i == m->v.len)
		return 0;
	top = m->v.p[i];
	bits = (unsigned)(m->v.len - i - 1) * 8;
	while (top) {
		bits++;
		top = (uint8_t)(top >> 1);
	}
	return bits;
}
