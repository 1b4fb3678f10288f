/* err.c - names of error codes. see err.h */
#include "err.h"
#include "err_int.h"

static const struct {
	pgp_err code;
	const char *name;
	const char *text;
} errtab[] = {
	{PGP_OK, "ok", "success"},
	{PGP_ERR_TRUNCATED, "truncated", "truncated input"},
	{PGP_ERR_MALFORMED, "malformed", "malformed input"},
	{PGP_ERR_UNSUPPORTED, "unsupported", "unsupported algorithm or version"},
	{PGP_ERR_LIMIT, "limit", "limit exceeded"},
	{PGP_ERR_NOMEM, "nomem", "out of memory"},
	{PGP_ERR_IO, "io", "input/output error"},
	{PGP_ERR_BAD_SIG, "bad-signature", "bad signature"},
	{PGP_ERR_NO_KEY, "no-key", "no public key"},
	{PGP_ERR_POLICY, "policy", "rejected by policy"},
	{PGP_ERR_EXPIRED, "expired", "expired"},
	{PGP_ERR_REVOKED, "revoked", "revoked"},
	{PGP_ERR_NOT_FOUND, "not-found", "not found"},
	{PGP_ERR_NO_SIG, "no-signature", "no signature"},
	{PGP_ERR_UNUSABLE, "unusable-key", "key not usable for this purpose"},
	{PGP_ERR_INVALID, "invalid-argument", "invalid argument"},
	{PGP_ERR_NOT_YET, "not-yet-valid", "not valid yet"},
};

/* see err.h */
const char *
pgp_strerror(pgp_err e)
{
	size_t i;
	for (i = 0; i < sizeof errtab / sizeof errtab[0]; i++)
		if (errtab[i].code == e)
			return errtab[i].text;
	return "unknown error";
}

/* see err.h */
const char *
pgp_errname(pgp_err e)
{
	size_t i;
	for (i = 0; i < sizeof errtab / sizeof errtab[0]; i++)
		if (errtab[i].code == e)
			return errtab[i].name;
	return "unknown";
}

/* see err_int.h */
void
pgp__diag_set(pgp_diag *diag, size_t offset, int tag, const char *what)
{
	if (diag) {
		diag->offset = offset;
		diag->tag = tag;
		diag->what = what;
	}
}

/* see err_int.h */
pgp_err
pgp__fail(pgp_diag *diag, pgp_err e, size_t offset, int tag, const char *what)
{
	pgp__diag_set(diag, offset, tag, what);
	return e;
}
