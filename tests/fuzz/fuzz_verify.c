/*
 * fuzz_verify.c - the input as a keyring (certificate assembly and
 * evaluation at a fixed time) and as a signed message verified against
 * itself (inline, cleartext, armor, compression, signature checks). The
 * same input as a lazy set (pgp_certset_set_lazy) must give the same
 * answers: a difference aborts.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/cert.h"
#include "pgp/eval.h"
#include "pgp/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input verified as a message against itself as a key set. */
static pgp_err
verify_self(const uint8_t *data, size_t size, pgp_certset *set, pgp_verifier **v)
{
	pgp_certsrc src;
	pgp_verify_opts o;
	pgp_certset_source(set, &src);
	pgp_verify_opts_init(&o, 1700000000);
	return pgp_verify_message(v, data, size, &src, &o, NULL);
}

static int
same_fpr(const pgp_fpr *a, const pgp_fpr *b)
{
	return a->len == b->len && memcmp(a->v, b->v, a->len) == 0;
}

/* Eager and lazy sets of one input: the same load result, the same
 * verdicts (built on demand, before anything lists the lazy set), the
 * same certificates in the same order. */
static void
lazy_agrees(const uint8_t *data, size_t size, pgp_certset *eager, pgp_err eager_add)
{
	pgp_certset *lazy = NULL;
	pgp_verifier *ve = NULL, *vl = NULL;
	pgp_err ee, el;
	size_t i, n;
	if (pgp_certset_new(&lazy) != PGP_OK)
		return;
	if (pgp_certset_set_lazy(lazy) != PGP_OK ||
	    pgp_certset_add(lazy, data, size, NULL) != eager_add)
		abort();
	ee = verify_self(data, size, eager, &ve);
	el = verify_self(data, size, lazy, &vl);
	if (ee != el)
		abort();
	if (ee == PGP_OK) {
		if (pgp_verifier_count(ve) != pgp_verifier_count(vl))
			abort();
		for (i = 0; i < pgp_verifier_count(ve); i++) {
			const pgp_result *a = pgp_verifier_result(ve, i);
			const pgp_result *b = pgp_verifier_result(vl, i);
			if (a->status != b->status || !same_fpr(&a->cert_fpr, &b->cert_fpr) ||
			    !same_fpr(&a->key_fpr, &b->key_fpr))
				abort();
		}
		pgp_verifier_free(ve);
		pgp_verifier_free(vl);
	}
	n = pgp_certset_count(eager);
	if (pgp_certset_count(lazy) != n ||
	    pgp_certset_refused(lazy) != pgp_certset_refused(eager) ||
	    pgp_certset_skipped(lazy) != pgp_certset_skipped(eager))
		abort();
	for (i = 0; i < n; i++)
		if (!same_fpr(&pgp_certset_get(eager, i)->primary.fpr,
		    &pgp_certset_get(lazy, i)->primary.fpr) ||
		    pgp_certset_get(eager, i)->ncopies != pgp_certset_get(lazy, i)->ncopies)
			abort();
	pgp_certset_free(lazy);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_certset *set = NULL;
	pgp_certsrc src;
	pgp_verifier *v = NULL;
	pgp_verify_opts o;
	pgp_policy pol;
	size_t i, n;
	pgp_err added;
	if (pgp_certset_new(&set) != PGP_OK)
		return 0;
	added = pgp_certset_add(set, data, size, NULL);
	lazy_agrees(data, size, set, added);
	pgp_policy_init(&pol);
	/* the set is its own source: designated revokers are looked up in it */
	pgp_certset_source(set, &src);
	n = pgp_certset_count(set);
	for (i = 0; i < n && i < 16; i++) {
		pgp_certeval ev;
		if (pgp_cert_eval(&ev, pgp_certset_get(set, i), &src, 1700000000, &pol) == PGP_OK)
			pgp_certeval_release(&ev);
	}
	pgp_verify_opts_init(&o, 1700000000);
	if (pgp_verify_message(&v, data, size, &src, &o, NULL) == PGP_OK)
		pgp_verifier_free(v);
	if (pgp_verifier_new(&v, data, size, NULL) == PGP_OK) {
		pgp_verifier_update(v, data, size / 2);
		(void)pgp_verifier_finish(v, &src, &o);
		pgp_verifier_free(v);
	}
	pgp_certset_free(set);
	return 0;
}
