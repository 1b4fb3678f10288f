/*
 * sopv_verify.c - `sopv verify` and `sopv inline-verify`: a front end on
 * pgp/verify.h, like `wotkit verify`. see sopv.h
 *
 * draft-dkg-openpgp-stateless-cli §"verify": success (0) when at least one
 * signature in SIGNATURES is valid over the data on stdin and made by one
 * of the CERTS; one VERIFICATIONS line per valid signature on stdout;
 * otherwise NO_SIGNATURE. §"inline-verify": the same for an inline-signed
 * or cleartext-signed message on stdin; the signed content goes to stdout
 * only if a valid signature was found ("emits nothing on standard output"
 * otherwise); the VERIFICATIONS go to --verifications-out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "sopv.h"
#include "vout.h"
#include "out.h"
#include "certs.h"
#include "pgp/pgp.h"

static int
put_fpr(pgp_buf *b, const pgp_fpr *f)
{
	char h[2 * PGP_FPR_MAX + 1];
	pgp_hex_encode(h, f->v, f->len);
	return pgp_buf_append(b, h, 2 * (size_t)f->len) == PGP_OK ? 0 : -1;
}

static int
put_str(pgp_buf *b, const char *s)
{
	return pgp_buf_append(b, s, strlen(s)) == PGP_OK ? 0 : -1;
}

/* A JSON string: the file name as given, through out_json_str(). */
static int
put_json_str(pgp_buf *b, const char *s)
{
	char *mem = NULL;
	size_t n = 0;
	int rc;
	FILE *f = open_memstream(&mem, &n);
	if (f == NULL)
		return -1;
	out_json_str(f, s);
	if (fclose(f) != 0) {
		free(mem);
		return -1;
	}
	rc = pgp_buf_append(b, mem, n) == PGP_OK ? 0 : -1;
	free(mem);
	return rc;
}

/*
 * VERIFICATIONS (draft-dkg-openpgp-stateless-cli §"VERIFICATIONS"): one
 * line per valid signature,
 *   <creation time, ISO 8601 UTC> <signing key fpr> <primary key fpr>
 *   mode:binary|mode:text {"signers":["<CERTS argument>", ...]}
 * listing every CERTS argument that holds a copy of the signing certificate
 * the trailer being the JSON object of the later drafts' examples.
 */
static int
verifications(pgp_buf *b, const pgp_verifier *v, const sopv_certs *c)
{
	size_t i, n = pgp_verifier_count(v);
	char t[32];
	for (i = 0; i < n; i++) {
		const pgp_result *r = pgp_verifier_result(v, i);
		size_t a;
		int listed = 0;
		if (r->status != PGP_OK)
			continue;
		pgp_time_format(t, sizeof t, r->created, 0);
		if (put_str(b, t) || put_str(b, " ") || put_fpr(b, &r->key_fpr) ||
		    put_str(b, " ") || put_fpr(b, &r->cert_fpr) ||
		    put_str(b, r->text_mode ? " mode:text" : " mode:binary"))
			return -1;
		/* every CERTS argument holding a copy of the signer, in order */
		for (a = 0; a < c->n; a++) {
			if (!sopv_certs_holds(c, a, r->cert))
				continue;
			if (put_str(b, listed ? "," : " {\"signers\":[") || put_json_str(b, c->names[a]))
				return -1;
			listed = 1;
		}
		if (listed && put_str(b, "]}"))
			return -1;
		if (put_str(b, "\n"))
			return -1;
	}
	return 0;
}

static void
opts_to_verify(pgp_verify_opts *vo, const sopv_opts *o)
{
	pgp_verify_opts_init(vo, o->now);
	vo->not_before = o->not_before;
	vo->not_after = o->not_after;
}

/* stdin, streamed through the verifier */
static int
write_stdout(const uint8_t *p, size_t len)
{
	if ((len && fwrite(p, 1, len, stdout) != len) || fflush(stdout) != 0) {
		fprintf(stderr, "%s: <stdout>: write failed\n", cli_prog);
		return -1;
	}
	return 0;
}

/* see sopv.h */
int
sopv_verify(char *const *pos, size_t npos, const sopv_opts *o)
{
	sopv_certs c;
	cli_file sig = {0};
	pgp_verifier *v = NULL;
	pgp_verify_opts vo;
	pgp_certsrc src;
	pgp_diag d = {0, -1, NULL};
	pgp_buf out;
	pgp_err e;
	int rc;

	memset(&c, 0, sizeof c);
	pgp_buf_init(&out, (size_t)1 << 24);
	if (npos < 2) {
		fprintf(stderr, "%s: verify: needs SIGNATURES and at least one CERTS\n", cli_prog);
		rc = SOPV_MISSING_ARG;
		goto out;
	}
	if ((rc = sopv_input_open(&sig, pos[0])) != SOPV_OK)
		goto out;
	if ((e = pgp_verifier_new(&v, sig.p, sig.len, &d)) != PGP_OK) {
		/* not signatures at all (malformed, or no signature packet) */
		cli_report(pos[0], e, &d);
		rc = e == PGP_ERR_NOMEM ? SOPV_GENERIC : SOPV_BAD_DATA;
		goto out;
	}
	if ((rc = sopv_certs_load(&c, pos + 1, npos - 1)) != SOPV_OK)
		goto out;
	if (cli_feed_verifier(v, "-") != 0) {
		rc = SOPV_GENERIC;
		goto out;
	}
	opts_to_verify(&vo, o);
	pgp_certset_source(c.set, &src);
	if ((e = pgp_verifier_finish(v, &src, &vo)) != PGP_OK) {
		cli_report(pos[0], e, NULL);
		rc = SOPV_GENERIC;
		goto out;
	}
	if (o->debug)
		vout_human(stderr, v, 1, o->now);
	if (pgp_verifier_good(v) == 0) {
		fprintf(stderr, "%s: no valid signature from the given certificates\n", cli_prog);
		rc = SOPV_NO_SIGNATURE;
		goto out;
	}
	if (verifications(&out, v, &c) != 0) {
		rc = SOPV_GENERIC;
		goto out;
	}
	rc = write_stdout(out.p, out.len) == 0 ? SOPV_OK : SOPV_GENERIC;
out:
	pgp_buf_free(&out);
	pgp_verifier_free(v);
	cli_file_close(&sig);
	sopv_certs_free(&c);
	return rc;
}

/* see sopv.h */
int
sopv_inline_verify(char *const *pos, size_t npos, const sopv_opts *o)
{
	sopv_certs c;
	cli_file msg = {0};
	pgp_verifier *v = NULL;
	pgp_verify_opts vo;
	pgp_certsrc src;
	pgp_diag d = {0, -1, NULL};
	pgp_buf out;
	pgp_view content;
	pgp_err e;
	int rc;

	memset(&c, 0, sizeof c);
	pgp_buf_init(&out, (size_t)1 << 24);
	if (npos < 1) {
		fprintf(stderr, "%s: inline-verify: needs at least one CERTS\n", cli_prog);
		rc = SOPV_MISSING_ARG;
		goto out;
	}
	if (o->verifications_out && (rc = sopv_output_check(o->verifications_out)) != SOPV_OK)
		goto out;
	if ((rc = sopv_certs_load(&c, pos, npos)) != SOPV_OK)
		goto out;
	if (cli_file_open(&msg, "-") != 0) {
		rc = SOPV_GENERIC;
		goto out;
	}
	opts_to_verify(&vo, o);
	pgp_certset_source(c.set, &src);
	e = pgp_verify_message(&v, msg.p, msg.len, &src, &vo, &d);
	if (e == PGP_ERR_NO_SIG) {
		/* a well-formed message that carries no signature */
		cli_report("<stdin>", e, &d);
		rc = SOPV_NO_SIGNATURE;
		goto out;
	}
	if (e != PGP_OK) {
		cli_report("<stdin>", e, &d);
		rc = e == PGP_ERR_NOMEM ? SOPV_GENERIC : SOPV_BAD_DATA;
		goto out;
	}
	if (o->debug)
		vout_human(stderr, v, 1, o->now);
	if (pgp_verifier_good(v) == 0) {
		fprintf(stderr, "%s: no valid signature from the given certificates\n", cli_prog);
		rc = SOPV_NO_SIGNATURE;
		goto out;
	}
	if (verifications(&out, v, &c) != 0) {
		rc = SOPV_GENERIC;
		goto out;
	}
	if (o->verifications_out &&
	    (rc = sopv_output_write(o->verifications_out, out.p, out.len)) != SOPV_OK)
		goto out;
	/* The signed content exactly: for a cleartext-signed message, the
	 * dash-unescaped text without the line ending before the armor
	 * (RFC 9580 §7.1: that line ending is not part of the signed text). */
	content = pgp_verifier_content(v);
	rc = write_stdout(content.p, content.len) == 0 ? SOPV_OK : SOPV_GENERIC;
out:
	pgp_buf_free(&out);
	pgp_verifier_free(v);
	cli_file_close(&msg);
	sopv_certs_free(&c);
	return rc;
}
