/*
 * strip_stub.c - STAND-IN for the strip helper's kr_strip (sources branch
 * only; deleted at merge): every certificate written whole
 * (pgp_cert_write, no filter), sorted by primary fingerprint. No signature
 * is checked or dropped.
 */
#include <stdlib.h>
#include <string.h>
#include "keyring/strip.h"

/* see strip.h */
const char *
kr_drop_name(kr_drop d)
{
	static const char *const n[KR_DROP__N] = {"bad-signature", "unparsed", "unsupported",
	    "issuer-outside", "no-issuer", "misplaced", "duplicate", "superseded", "local",
	    "cap-uid", "cap-cert", "cap-file", "component"};
	return (unsigned)d < KR_DROP__N ? n[d] : "?";
}

static int
fpr_cmp(const void *a, const void *b)
{
	const pgp_fpr *x = &((const kr_scert *)a)->cert->primary.fpr;
	const pgp_fpr *y = &((const kr_scert *)b)->cert->primary.fpr;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->v, y->v, x->len);
}

/* see strip.h */
pgp_err
kr_strip(const pgp_certset *set, const kr_strip_opts *o, kr_strip_result *out)
{
	size_t i, n = pgp_certset_count(set);
	(void)o;
	memset(out, 0, sizeof *out);
	if (n && (out->certs = calloc(n, sizeof *out->certs)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		pgp_buf b;
		pgp_err e;
		pgp_buf_init(&b, (size_t)1 << 30);
		out->certs[i].cert = pgp_certset_get(set, i);
		if ((e = pgp_cert_write(&b, out->certs[i].cert, NULL, NULL)) != PGP_OK) {
			pgp_buf_free(&b);
			out->ncerts = i;
			kr_strip_free(out);
			return e;
		}
		out->certs[i].bin = pgp_buf_take(&b, &out->certs[i].len);
	}
	out->ncerts = n;
	if (n)
		qsort(out->certs, n, sizeof *out->certs, fpr_cmp);
	return PGP_OK;
}

/* see strip.h */
void
kr_strip_free(kr_strip_result *r)
{
	size_t i;
	for (i = 0; i < r->ncerts; i++)
		free(r->certs[i].bin);
	free(r->certs);
	memset(r, 0, sizeof *r);
}
