/*
 * err.h - the one error enum of libpgp and the caller-owned diagnostic.
 *
 * Every fallible function returns pgp_err: PGP_OK (0) or a negative code.
 * "Could not parse" (TRUNCATED, MALFORMED), "math failed" (BAD_SIG) and
 * "valid but refused" (POLICY, EXPIRED, REVOKED, UNUSABLE) never share a code.
 * There is no global error state: detail goes into an optional pgp_diag the
 * caller owns; its `what` always points to a static string.
 */
#ifndef PGP_ERR_H
#define PGP_ERR_H

#include <stddef.h>
#include <stdint.h>

typedef enum pgp_err {
	PGP_OK = 0,
	PGP_ERR_TRUNCATED = -1,   /* input ends inside a field */
	PGP_ERR_MALFORMED = -2,   /* input violates the format */
	PGP_ERR_UNSUPPORTED = -3, /* well-formed, but an algorithm/version we do not implement */
	PGP_ERR_LIMIT = -4,       /* a named limit (limits.h) was exceeded */
	PGP_ERR_NOMEM = -5,
	PGP_ERR_IO = -6,
	PGP_ERR_BAD_SIG = -7,     /* the signature math failed */
	PGP_ERR_NO_KEY = -8,      /* no certificate holds the issuer key */
	PGP_ERR_POLICY = -9,      /* valid, but refused by the crypto policy */
	PGP_ERR_EXPIRED = -10,    /* key or signature expired at the reference time */
	PGP_ERR_REVOKED = -11,    /* key or user ID revoked */
	PGP_ERR_NOT_FOUND = -12,  /* lookup found nothing */
	PGP_ERR_NO_SIG = -13,     /* no signature where one was expected */
	PGP_ERR_UNUSABLE = -14,   /* key not bound, no back-signature, or lacks the needed key flag */
	PGP_ERR_INVALID = -15,    /* invalid argument from the caller */
	PGP_ERR_NOT_YET = -16     /* signature or key created after the reference time / window */
} pgp_err;

/* Optional, caller-owned detail about the last failure of one call. */
typedef struct pgp_diag {
	size_t offset;    /* byte offset in the caller's input */
	int tag;          /* packet tag being parsed, or -1 */
	const char *what; /* static string: what was expected or which rule refused */
} pgp_diag;

/* Human-readable name of a code ("truncated input", ...). Never NULL. */
const char *pgp_strerror(pgp_err e);

/* Short stable token of a code ("truncated", "bad-signature", ...), for JSON/tests. */
const char *pgp_errname(pgp_err e);

#endif
