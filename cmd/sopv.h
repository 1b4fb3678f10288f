/*
 * sopv.h - internals of `wotkit sopv`, the verification-only subset of the
 * Stateless OpenPGP CLI (draft-dkg-openpgp-stateless-cli, "sopv 1.0").
 * Shared by cmd/sopv.c (dispatch, version), cmd/sopv_io.c (indirect
 * inputs/outputs, DATE), cmd/sopv_certs.c (CERTS arguments),
 * cmd/sopv_verify.c (verify, inline-verify) and cmd/sopv_validate.c
 * (validate-userid, sopv 1.2).
 */
#ifndef WOTKIT_SOPV_H
#define WOTKIT_SOPV_H

#include <stddef.h>
#include <stdint.h>
#include "cli.h"
#include "pgp/pgp.h"

/* Exit codes: draft-dkg-openpgp-stateless-cli §"Failure Modes". */
enum {
	SOPV_OK = 0,
	SOPV_GENERIC = 1,                 /* unspecified failure (I/O, malformed DATE) */
	SOPV_NO_SIGNATURE = 3,
	SOPV_MISSING_ARG = 19,
	SOPV_UNSUPPORTED_OPTION = 37,
	SOPV_BAD_DATA = 41,
	SOPV_OUTPUT_EXISTS = 59,
	SOPV_MISSING_INPUT = 61,
	SOPV_UNSUPPORTED_SUBCOMMAND = 69,
	SOPV_UNSUPPORTED_SPECIAL_PREFIX = 71,
	SOPV_AMBIGUOUS_INPUT = 73,
	SOPV_INCOMPATIBLE_OPTIONS = 83,
	SOPV_CERT_USERID_NO_MATCH = 107   /* validate-userid: a certificate fails */
};

/* Common options of the verifying subcommands. */
typedef struct sopv_opts {
	int64_t now;         /* the current time: the reference time of every check */
	int64_t not_before;  /* INT64_MIN: "-" (the beginning of time) */
	int64_t not_after;   /* INT64_MAX: "-" (the end of time) */
	int debug;           /* --debug: per-signature verdicts on stderr */
	const char *verifications_out; /* inline-verify only; NULL: none */
	int addr_spec_only;  /* validate-userid --addr-spec-only */
	int64_t validate_at; /* validate-userid --validate-at (default: now) */
} sopv_opts;

/*
 * Opens an indirect input: a file name, "@ENV:NAME" (the variable's value)
 * or "@FD:N" (everything readable from descriptor N). An argument starting
 * with "@" that names an existing file is AMBIGUOUS_INPUT; another "@"
 * prefix is UNSUPPORTED_SPECIAL_PREFIX. Prints a diagnostic and returns a
 * SOPV_* exit code on failure, SOPV_OK on success (close with cli_file_close).
 */
int sopv_input_open(cli_file *f, const char *arg);

/*
 * Checks that an indirect output can be created, before any work is done:
 * "@FD:N" must be open for writing, "@ENV:" is UNSUPPORTED_SPECIAL_PREFIX,
 * an existing file is OUTPUT_EXISTS. Returns a SOPV_* code.
 */
int sopv_output_check(const char *arg);
/* Writes all of p to the indirect output (a new file, or the descriptor). */
int sopv_output_write(const char *arg, const uint8_t *p, size_t len);

/*
 * DATE: ISO 8601 with a time in UTC or with an offset
 * (2019-10-29T12:11:04Z, 2019-10-29T12:11:04+00:00, 20191029T121104Z,
 * 2019-10-29T12:11Z, optional fraction of a second), a date alone
 * (midnight UTC), "now", or "-" (which is `dash`: INT64_MIN for
 * --not-before, INT64_MAX for --not-after). Returns 0 or -1.
 */
int sopv_parse_date(const char *s, int64_t now, int64_t dash, int64_t *out);

/* The certificates of every CERTS argument, and which argument holds each. */
typedef struct sopv_certs {
	pgp_certset *set;
	cli_file *files;      /* kept open: binary keyrings are borrowed by the set */
	size_t *first;        /* index of the first copy (pgp_certset_copy) of argument i */
	char *const *names;
	size_t n;
} sopv_certs;

/*
 * Loads every CERTS argument (indirect inputs, binary or armored, several
 * armored blocks allowed) into one set; copies of a key in several
 * arguments are merged. Prints a diagnostic and returns a SOPV_* code:
 * BAD_DATA for an argument that is not OpenPGP or holds no certificate.
 * Release with sopv_certs_free (also after a failure).
 */
int sopv_certs_load(sopv_certs *c, char *const *names, size_t n);
void sopv_certs_free(sopv_certs *c);
/* Whether CERTS argument i holds a copy of cert. */
int sopv_certs_holds(const sopv_certs *c, size_t i, const pgp_cert *cert);

/* `verify SIGNATURES CERTS... < DATA` and `inline-verify CERTS... < MESSAGE`;
 * pos holds the positional arguments. Return a SOPV_* exit code. */
int sopv_verify(char *const *pos, size_t npos, const sopv_opts *o);
int sopv_inline_verify(char *const *pos, size_t npos, const sopv_opts *o);
/* `validate-userid USERID CERTS... < CERTS` (sopv 1.2). */
int sopv_validate_userid(char *const *pos, size_t npos, const sopv_opts *o);

#endif
