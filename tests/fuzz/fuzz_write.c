/*
 * fuzz_write.c - libFuzzer target for the certificate writer (pgp/write.h):
 * any input is parsed as a keyring; every certificate is written with
 * canonical and with original framing, and each output must parse back to a
 * certificate with the same primary key and the same number of user IDs,
 * subkeys and signatures; writing the re-parsed canonical output again must
 * give the same octets (the writer is idempotent). A violation aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/cert.h"
#include "pgp/write.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint32_t
nsigs(const pgp_cert *c)
{
	uint32_t n = c->ndsigs, i;

	for (i = 0; i < c->nuids; i++)
		n += c->uids[i].nsigs;
	for (i = 0; i < c->nsubs; i++)
		n += c->subs[i].nsigs;
	return n;
}

/* out must hold exactly one certificate shaped like c (loose ones folded in). */
static void
check_reparse(const pgp_cert *c, const pgp_write_stats *st, const pgp_buf *out,
    const pgp_buf *canon)
{
	pgp_certset *s = NULL;
	const pgp_cert *r;
	pgp_buf again;

	if (pgp_certset_new(&s) != PGP_OK)
		return;
	if (pgp_certset_add(s, out->p, out->len, NULL) != PGP_OK ||
	    pgp_certset_count(s) != 1)
		abort();
	r = pgp_certset_get(s, 0);
	if (r->primary.fpr.len != c->primary.fpr.len ||
	    memcmp(r->primary.fpr.v, c->primary.fpr.v, c->primary.fpr.len) != 0 ||
	    r->nuids != c->nuids || r->nsubs != c->nsubs ||
	    nsigs(r) != nsigs(c) + c->nloose - st->loose_dups ||
	    st->sigs_kept != nsigs(r))
		abort();
	if (canon != NULL) {
		pgp_buf_init(&again, (size_t)64 << 20);
		if (pgp_cert_write(&again, r, NULL, NULL) != PGP_OK ||
		    again.len != canon->len || memcmp(again.p, canon->p, again.len) != 0)
			abort();
		pgp_buf_free(&again);
	}
	pgp_certset_free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_certset *s = NULL;
	size_t i;

	if (pgp_certset_new(&s) != PGP_OK)
		return 0;
	(void)pgp_certset_add(s, data, size, NULL);
	for (i = 0; i < pgp_certset_count(s); i++) {
		const pgp_cert *c = pgp_certset_get(s, i);
		pgp_write_opts o = { PGP_WRITE_SECRET_AS_PUBLIC, NULL, NULL };
		pgp_write_stats st, st2;
		pgp_buf canon, keep;
		pgp_err e;

		pgp_buf_init(&canon, (size_t)64 << 20);
		pgp_buf_init(&keep, (size_t)64 << 20);
		e = pgp_cert_write(&canon, c, &o, &st);
		o.flags |= PGP_WRITE_KEEP_FRAMING;
		if (pgp_cert_write(&keep, c, &o, &st2) != e)
			abort();
		if (e == PGP_OK) {
			if (st.packets != st2.packets || st.sigs_kept != st2.sigs_kept)
				abort();
			check_reparse(c, &st, &canon, &canon);
			check_reparse(c, &st2, &keep, NULL);
		} else if (e != PGP_ERR_UNSUPPORTED || canon.len != 0 || keep.len != 0) {
			abort();
		}
		pgp_buf_free(&canon);
		pgp_buf_free(&keep);
	}
	pgp_certset_free(s);
	return 0;
}
