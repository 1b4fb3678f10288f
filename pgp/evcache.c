/*
 * evcache.c - certificate evaluations cached for one verification run.
 * see verify_int.h (pgp__evcache)
 *
 * A flooded certificate (thousands of junk components; anyone can append
 * packets on a keyserver) is expensive to evaluate; a file of many
 * signatures by it, and the check of other certificates holding a signing
 * key, must not pay that cost again and again.
 */
#include <stdlib.h>
#include <string.h>
#include "verify_int.h"

/* see verify_int.h */
void
pgp__evcache_init(pgp__evcache *c, const pgp_certsrc *src, int64_t t, const pgp_policy *pol)
{
	memset(c, 0, sizeof *c);
	c->src = src;
	c->t = t;
	c->pol = pol;
}

static size_t
slot_of(const pgp_cert *cert, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)cert;
	h ^= h >> 29;
	h *= 0x9e3779b97f4a7c15ull;
	return (size_t)(h >> 17) & (cap - 1);
}

static pgp_err
rehash(pgp__evcache *c)
{
	size_t ncap = c->cap ? c->cap * 2 : 16, i;
	pgp__evcache_ent *nt;
	if (ncap > SIZE_MAX / sizeof *nt)
		return PGP_ERR_NOMEM;
	if ((nt = calloc(ncap, sizeof *nt)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < c->cap; i++) {
		size_t j;
		if (c->tab[i].cert == NULL)
			continue;
		for (j = slot_of(c->tab[i].cert, ncap); nt[j].cert; j = (j + 1) & (ncap - 1))
			;
		nt[j] = c->tab[i];
	}
	free(c->tab);
	c->tab = nt;
	c->cap = ncap;
	return PGP_OK;
}

/* see verify_int.h */
pgp_err
pgp__evcache_get(pgp__evcache *c, const pgp_cert *cert, const pgp_certeval **out)
{
	size_t j;
	pgp_err e;
	pgp_certeval *ev;
	*out = NULL;
	if ((c->n + 1) * 2 > c->cap && (e = rehash(c)) != PGP_OK)
		return e;
	for (j = slot_of(cert, c->cap); c->tab[j].cert; j = (j + 1) & (c->cap - 1))
		if (c->tab[j].cert == cert) {
			*out = c->tab[j].ev;
			return PGP_OK;
		}
	if ((ev = malloc(sizeof *ev)) == NULL)
		return PGP_ERR_NOMEM;
	if ((e = pgp_cert_eval(ev, cert, c->src, c->t, c->pol)) != PGP_OK) {
		free(ev);
		return e;
	}
	c->evals++;
	c->tab[j].cert = cert;
	c->tab[j].ev = ev;
	c->n++;
	*out = ev;
	return PGP_OK;
}

/* see verify_int.h */
void
pgp__evcache_free(pgp__evcache *c)
{
	size_t i;
	for (i = 0; i < c->cap; i++)
		if (c->tab[i].cert) {
			pgp_certeval_release(c->tab[i].ev);
			free(c->tab[i].ev);
		}
	free(c->tab);
	memset(c, 0, sizeof *c);
}
