/*
 * sopv_validate.c - `sopv validate-userid` (sopv 1.2): a front end on
 * pgp/uidvalid.h. see sopv.h
 *
 *   sopv validate-userid [--addr-spec-only] [--validate-at=DATE] [--]
 *        USERID CERTS... < CERTS
 *
 * draft-dkg-openpgp-stateless-cli §"validate-userid": the CERTS arguments
 * are the authorities; standard input holds the certificates to check;
 * nothing goes to standard output. Success (0) if and only if every
 * certificate on standard input has a user ID matching USERID (the whole
 * user ID, or with --addr-spec-only its e-mail address) that one of the
 * authorities vouches for at the reference time (--validate-at, default
 * now); otherwise CERT_USERID_NO_MATCH, with one line on stderr per
 * certificate that failed, saying why. The rule itself is pgp/uidvalid.h's.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sopv.h"
#include "certs.h"
#include "out.h"
#include "vout.h"

#define STDIN_NAME "<stdin>"

/* The certificates on standard input. */
typedef struct subjects {
	pgp_certset *set;
	cli_file in;          /* kept open: a binary keyring is borrowed by the set */
} subjects;

static int
subjects_load(subjects *s)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	if (pgp_certset_new(&s->set) != PGP_OK) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		return SOPV_GENERIC;
	}
	if (cli_file_open(&s->in, "-") != 0)
		return SOPV_GENERIC;
	e = certs_add_mem(s->set, s->in.p, s->in.len, &d);
	certs_warn_refused(s->set, 0, STDIN_NAME);
	if (e != PGP_OK) {
		cli_report(STDIN_NAME, e, &d);
		return e == PGP_ERR_NOMEM ? SOPV_GENERIC : SOPV_BAD_DATA;
	}
	if (pgp_certset_copies(s->set) == 0 && pgp_certset_refused(s->set) == 0) {
		cli_msg(STDIN_NAME, "no OpenPGP certificate in it");
		return SOPV_BAD_DATA;
	}
	return SOPV_OK;
}

/* "<stdin>: FPR: " */
static void
about(const pgp_cert *c)
{
	fprintf(stderr, "%s: %s: ", cli_prog, STDIN_NAME);
	vout_fpr(stderr, &c->primary.fpr);
	fputs(": ", stderr);
}

static void
report(const pgp_cert *c, const pgp_uidvalid *r, const char *userid, const sopv_opts *o,
    const pgp_cert *const *auth)
{
	char t[32];
	about(c);
	if (r->status != PGP_OK) {
		fputs(o->addr_spec_only ? "address \"" : "user ID \"", stderr);
		out_esc_human(stderr, (const uint8_t *)userid, strlen(userid));
		fputs("\" not validated: ", stderr);
		if (r->whose == PGP_UIDVALID_TARGET)
			fputs("the certificate is not valid: ", stderr);
		else if (r->whose == PGP_UIDVALID_AUTHORITY)
			fputs("the authority's key: ", stderr);
		out_esc_text(stderr, r->reason ? r->reason : pgp_strerror(r->status));
		fputc('\n', stderr);
		return;
	}
	pgp_time_format(t, sizeof t, r->certified, 0);
	fputs("user ID \"", stderr);
	out_esc_human(stderr, c->uids[r->uid].data.p, c->uids[r->uid].data.len);
	fprintf(stderr, "\" %s ", r->self ? "is self-bound by the authority" : "certified by");
	if (!r->self)
		vout_fpr(stderr, &auth[r->authority]->primary.fpr);
	fprintf(stderr, " at %s\n", t);
}

/* see sopv.h */
int
sopv_validate_userid(char *const *pos, size_t npos, const sopv_opts *o)
{
	sopv_certs auth;
	subjects subj;
	const pgp_cert **av = NULL;
	const char *userid;
	pgp_policy pol;
	pgp_certsrc src;
	size_t i, nav, failed = 0;
	int rc;

	memset(&auth, 0, sizeof auth);
	memset(&subj, 0, sizeof subj);
	if (npos < 2) {
		fprintf(stderr, "%s: validate-userid: needs USERID and at least one CERTS\n", cli_prog);
		rc = SOPV_MISSING_ARG;
		goto out;
	}
	userid = pos[0];
	if ((rc = sopv_certs_load(&auth, pos + 1, npos - 1)) != SOPV_OK ||
	    (rc = subjects_load(&subj)) != SOPV_OK)
		goto out;
	nav = pgp_certset_count(auth.set);
	if ((av = calloc(nav ? nav : 1, sizeof *av)) == NULL) {
		fprintf(stderr, "%s: out of memory\n", cli_prog);
		rc = SOPV_GENERIC;
		goto out;
	}
	for (i = 0; i < nav; i++)
		av[i] = pgp_certset_get(auth.set, i);
	pgp_policy_init(&pol);
	pgp_certset_source(subj.set, &src);
	for (i = 0; i < pgp_certset_count(subj.set); i++) {
		const pgp_cert *c = pgp_certset_get(subj.set, i);
		pgp_uidvalid r;
		if (pgp_uidvalid_check(&r, c, (const uint8_t *)userid, strlen(userid),
		    o->addr_spec_only ? PGP_UIDMATCH_ADDR_SPEC : PGP_UIDMATCH_EXACT,
		    av, nav, &src, o->validate_at, &pol) != PGP_OK) {
			fprintf(stderr, "%s: out of memory\n", cli_prog);
			rc = SOPV_GENERIC;
			goto out;
		}
		if (r.status != PGP_OK)
			failed++;
		if (r.status != PGP_OK || o->debug)
			report(c, &r, userid, o, av);
	}
	/* a certificate refused for a limit was not checked: it fails */
	if (pgp_certset_refused(subj.set)) {
		fprintf(stderr, "%s: %s: %zu certificate(s) refused for a limit: not validated\n",
		    cli_prog, STDIN_NAME, pgp_certset_refused(subj.set));
		failed += pgp_certset_refused(subj.set);
	}
	rc = failed ? SOPV_CERT_USERID_NO_MATCH : SOPV_OK;
out:
	free(av);
	pgp_certset_free(subj.set);
	cli_file_close(&subj.in);
	sopv_certs_free(&auth);
	return rc;
}
