/* selfsig.c - every self-signature of a certificate, one by one. see selfsig.h */
#include <stdlib.h>
#include <string.h>
#include "selfsig.h"
#include "certify_int.h"

typedef struct list {
	pgp_selfsig *v;
	size_t n, cap;
	const pgp_cert *c;
	int64_t t;
	const pgp_policy *pol;
} list;

static pgp_selfsig *
grow(list *l)
{
	if (l->n == l->cap) {
		size_t ncap = l->cap ? l->cap * 2 : 16;
		pgp_selfsig *nv = realloc(l->v, ncap * sizeof *nv);
		if (nv == NULL)
			return NULL;
		l->v = nv;
		l->cap = ncap;
	}
	memset(&l->v[l->n], 0, sizeof l->v[l->n]);
	return &l->v[l->n++];
}

static void
fill(list *l, pgp_selfsig *e, const pgp_sig *sig, pgp_sigon on, uint32_t comp, const void *what,
    const pgp_key *signer)
{
	e->on = (uint8_t)on;
	e->comp = comp;
	e->sig_type = sig->type;
	e->version = sig->version;
	e->hash_algo = sig->hash_algo;
	e->pk_algo = sig->pk_algo;
	e->created = sig->has_created ? (int64_t)sig->created : 0;
	e->key_flags = sig->key_flags;
	e->has_key_flags = sig->has_key_flags;
	e->has_backsig = on == PGP_SIGON_SUBKEY && sig->embedded.p != NULL;
	e->math = pgp_keysig_math(&l->c->primary, sig, on, what, signer, NULL, &e->math_why);
	if (e->math == PGP_OK)
		e->math_why = NULL;
	e->hash_policy = pgp_policy_hash(l->pol, sig->hash_algo, PGP_USE_SECOND_PREIMAGE, l->t,
	    &e->rule);
	if (e->hash_policy == PGP_OK)
		e->rule = NULL;
}

/* Whether a signature of this type binds a component of kind `on`. */
static int
binds(int type, pgp_sigon on)
{
	switch (on) {
	case PGP_SIGON_DIRECT: return type == PGP_SIG_DIRECT_KEY;
	case PGP_SIGON_UID: return type >= PGP_SIG_CERT_GENERIC && type <= PGP_SIG_CERT_POSITIVE;
	case PGP_SIGON_SUBKEY: return type == PGP_SIG_SUBKEY_BINDING;
	default: return 0;
	}
}

/* The back-signature (§5.2.3.34) embedded in subkey binding `binding`. */
static pgp_err
add_backsig(list *l, const pgp_sig *binding, uint32_t si)
{
	const pgp_key *sub = &l->c->subs[si].key;
	pgp_selfsig *e;
	pgp_sig back;
	pgp_rd r;

	r.p = binding->embedded.p;
	r.len = binding->embedded.len;
	r.off = 0;
	if (pgp_sig_parse(&back, &r, NULL) != PGP_OK || back.type != PGP_SIG_PRIMARY_BINDING ||
	    !pgp__issued_by(&back, sub))
		return PGP_OK;
	if ((e = grow(l)) == NULL)
		return PGP_ERR_NOMEM;
	fill(l, e, &back, PGP_SIGON_BACKSIG, si, sub, sub);
	return PGP_OK;
}

/* One component's signatures: list the bindings, mark the current one. */
static pgp_err
add_list(list *l, const pgp_rd *sigs, uint32_t nsigs, pgp_sigon on, uint32_t comp,
    const void *what)
{
	size_t best = SIZE_MAX, i;
	uint32_t k;

	for (k = 0; k < nsigs; k++) {
		pgp_selfsig *e;
		pgp_sig sig;
		if (pgp_sig_parse(&sig, &sigs[k], NULL) != PGP_OK || !binds(sig.type, on) ||
		    !pgp__issued_by(&sig, &l->c->primary))
			continue;
		if ((e = grow(l)) == NULL)
			return PGP_ERR_NOMEM;
		fill(l, e, &sig, on, comp, what, &l->c->primary);
		/* newest first; on a tie the later one in the certificate */
		if (e->math == PGP_OK && e->created <= l->t &&
		    (best == SIZE_MAX || e->created >= l->v[best].created))
			best = l->n - 1;
		/* the back-signature right after its binding */
		if (on == PGP_SIGON_SUBKEY && sig.embedded.p != NULL) {
			pgp_err err = add_backsig(l, &sig, comp);
			if (err != PGP_OK)
				return err;
		}
	}
	if (best != SIZE_MAX) {
		l->v[best].current = 1;
		/* a current binding's back-signature is current too */
		for (i = best + 1; i < l->n && l->v[i].on == PGP_SIGON_BACKSIG; i++)
			l->v[i].current = 1;
	}
	return PGP_OK;
}

pgp_err
pgp_selfsigs_list(pgp_selfsig **out, size_t *n, const pgp_cert *c, int64_t t,
    const pgp_policy *pol)
{
	list l;
	uint32_t i;
	pgp_err e;

	memset(&l, 0, sizeof l);
	l.c = c;
	l.t = t;
	l.pol = pol;
	*out = NULL;
	*n = 0;
	e = add_list(&l, c->dsigs, c->ndsigs, PGP_SIGON_DIRECT, 0, NULL);
	for (i = 0; e == PGP_OK && i < c->nuids; i++)
		e = add_list(&l, c->uids[i].sigs, c->uids[i].nsigs, PGP_SIGON_UID, i, &c->uids[i]);
	for (i = 0; e == PGP_OK && i < c->nsubs; i++)
		e = add_list(&l, c->subs[i].sigs, c->subs[i].nsigs, PGP_SIGON_SUBKEY, i,
		    &c->subs[i].key);
	if (e != PGP_OK) {
		free(l.v);
		return e;
	}
	*out = l.v;
	*n = l.n;
	return PGP_OK;
}
