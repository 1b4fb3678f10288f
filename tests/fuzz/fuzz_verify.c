/*
 * fuzz_verify.c - the input as a keyring (certificate assembly and
 * evaluation at a fixed time) and as a signed message verified against
 * itself (inline, cleartext, armor, compression, signature checks).
 */
#include <stdint.h>
#include <stddef.h>
#include "pgp/cert.h"
#include "pgp/eval.h"
#include "pgp/verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_certset *set = NULL;
	pgp_certsrc src;
	pgp_verifier *v = NULL;
	pgp_verify_opts o;
	pgp_policy pol;
	size_t i, n;
	if (pgp_certset_new(&set) != PGP_OK)
		return 0;
	(void)pgp_certset_add(set, data, size, NULL);
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
