/*
 * sopv_certs.c - the CERTS arguments of `wotkit sopv` (verify,
 * inline-verify, validate-userid): each an indirect input (sopv_io.c)
 * holding binary or armored certificates, loaded into one set.
 * see sopv.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sopv.h"
#include "certs.h"

/* see sopv.h */
void
sopv_certs_free(sopv_certs *c)
{
	size_t i;
	pgp_certset_free(c->set);
	for (i = 0; c->files && i < c->n; i++)
		cli_file_close(&c->files[i]);
	free(c->files);
	free(c->first);
	memset(c, 0, sizeof *c);
}

/* Adds one CERTS argument: binary or armored (several blocks allowed). */
static int
certs_add(sopv_certs *c, size_t i)
{
	cli_file *f = &c->files[i];
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	size_t before = pgp_certset_copies(c->set), refused = pgp_certset_refused(c->set);
	int rc = sopv_input_open(f, c->names[i]);
	if (rc != SOPV_OK)
		return rc;
	c->first[i] = before;
	e = certs_add_mem(c->set, f->p, f->len, &d);
	certs_warn_refused(c->set, refused, c->names[i]);
	if (e != PGP_OK) {
		cli_report(c->names[i], e, &d);
		return e == PGP_ERR_NOMEM ? SOPV_GENERIC : SOPV_BAD_DATA;
	}
	if (pgp_certset_copies(c->set) == before) {
		cli_msg(c->names[i], "no OpenPGP certificate in it");
		return SOPV_BAD_DATA;
	}
	return SOPV_OK;
}

/* see sopv.h */
int
sopv_certs_load(sopv_certs *c, char *const *names, size_t n)
{
	size_t i;
	int rc;
	memset(c, 0, sizeof *c);
	c->names = names;
	c->n = n;
	c->files = calloc(n, sizeof *c->files);
	c->first = calloc(n, sizeof *c->first);
	if (!c->files || !c->first || pgp_certset_new(&c->set) != PGP_OK) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		return SOPV_GENERIC;
	}
	for (i = 0; i < n; i++)
		if ((rc = certs_add(c, i)) != SOPV_OK)
			return rc;
	return SOPV_OK;
}

/* see sopv.h */
int
sopv_certs_holds(const sopv_certs *c, size_t i, const pgp_cert *cert)
{
	size_t k, end = i + 1 < c->n ? c->first[i + 1] : pgp_certset_copies(c->set);
	for (k = c->first[i]; k < end; k++) {
		const pgp_fpr *f = &pgp_certset_copy(c->set, k)->primary.fpr;
		if (f->len == cert->primary.fpr.len && memcmp(f->v, cert->primary.fpr.v, f->len) == 0)
			return 1;
	}
	return 0;
}
