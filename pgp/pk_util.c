/*
 * pk_util.c - what the per-algorithm files (pk_rsa.c, pk_dsa.c, pk_ecdsa.c,
 * pk_eddsa.c) share: MPI views without leading zeros, bit lengths, and the
 * diagnostic helper. see pk_int.h
 */
#include "pk_int.h"

/* see pk_int.h */
pgp_view
pgp__pk_mpi_trim(const pgp_mpi *m)
{
	pgp_view v = m->v;

	while (v.len > 0 && v.p[0] == 0) {
		v.p++;
		v.len--;
	}
	return v;
}

/* see pk_int.h */
size_t
pgp__pk_mpi_bits(const pgp_mpi *m)
{
	pgp_view v = pgp__pk_mpi_trim(m);
	size_t bits;
	unsigned top;

	if (v.len == 0)
		return 0;
	bits = (v.len - 1) * 8;
	for (top = v.p[0]; top; top >>= 1)
		bits++;
	return bits;
}

/* see pk_int.h */
pgp_err
pgp__pk_fail(pgp_diag *diag, pgp_err e, const char *what)
{
	if (diag)
		diag->what = what;
	return e;
}
