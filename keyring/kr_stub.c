/*
 * kr_stub.c - STAND-IN for the format helper's keyring file (sources branch
 * only; deleted at merge): "WKSTUB1\n" then the stripped certificates,
 * binary, concatenated. kr_cert_bytes gives each certificate's octets.
 */
#include <stdlib.h>
#include <string.h>
#include "keyring/kr.h"

#define STUB_MAGIC "WKSTUB1\n"

struct kr_keyring {
	pgp_certset *set;
};

/* see kr.h */
pgp_err
kr_serialize(const kr_strip_result *r, const kr_meta *m, pgp_buf *out)
{
	size_t i;
	pgp_err e;
	(void)m;
	if ((e = pgp_buf_append(out, STUB_MAGIC, 8)) != PGP_OK)
		return e;
	for (i = 0; i < r->ncerts; i++)
		if ((e = pgp_buf_append(out, r->certs[i].bin, r->certs[i].len)) != PGP_OK)
			return e;
	return PGP_OK;
}

/* see kr.h */
int
kr_is_keyring(const uint8_t *p, size_t len)
{
	return len >= 8 && memcmp(p, STUB_MAGIC, 8) == 0;
}

/* see kr.h */
pgp_err
kr_open(kr_keyring **out, const uint8_t *p, size_t len, pgp_diag *diag)
{
	kr_keyring *k;
	pgp_err e;
	*out = NULL;
	if (!kr_is_keyring(p, len)) {
		if (diag) {
			diag->offset = 0;
			diag->tag = -1;
			diag->what = "not a wotkit keyring (magic)";
		}
		return PGP_ERR_MALFORMED;
	}
	if ((k = calloc(1, sizeof *k)) == NULL)
		return PGP_ERR_NOMEM;
	if ((e = pgp_certset_new(&k->set)) != PGP_OK ||
	    (e = pgp_certset_add(k->set, p + 8, len - 8, diag)) != PGP_OK) {
		kr_close(k);
		return e;
	}
	*out = k;
	return PGP_OK;
}

/* see kr.h */
void
kr_close(kr_keyring *k)
{
	if (k == NULL)
		return;
	pgp_certset_free(k->set);
	free(k);
}

/* see kr.h */
void
kr_source(kr_keyring *k, pgp_certsrc *out)
{
	pgp_certset_source(k->set, out);
}

/* see kr.h */
size_t
kr_count(const kr_keyring *k)
{
	return pgp_certset_count(k->set);
}

/* see kr.h */
pgp_err
kr_cert(kr_keyring *k, size_t i, const pgp_cert **out)
{
	if (i >= pgp_certset_count(k->set))
		return PGP_ERR_INVALID;
	*out = pgp_certset_get(k->set, i);
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_cert_bytes(const kr_keyring *k, size_t i, pgp_view *out)
{
	if (i >= pgp_certset_count(k->set))
		return PGP_ERR_INVALID;
	*out = pgp_certset_get(k->set, i)->raw;
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_edge_at(const kr_keyring *k, size_t i, kr_edge *out)
{
	(void)k;
	(void)i;
	(void)out;
	return PGP_ERR_INVALID;
}

/* see kr.h */
size_t
kr_nedges(const kr_keyring *k)
{
	(void)k;
	return 0;
}
