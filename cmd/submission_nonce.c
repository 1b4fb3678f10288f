/*
 * submission_nonce.c - the nonce challenge of `wotkit submission`: the text
 * "wotkit-submission-nonce EMAIL DATE HEX" (one line, no newline; HEX is
 * SUB_NONCE_OCTETS random octets from libsodium's randombytes_buf), and the
 * check that a detached signature over exactly that text verifies with a key
 * of the submitted certificate (pgp/verify.h, the verification every wotkit
 * front end uses).
 */
#include <stdio.h>
#include <string.h>
#include <sodium.h>
#include "keymail.h"
#include "submission.h"

#define DAY 86400
/* a nonce older than this at the check is a warning (a stale challenge) */
#define SUB_NONCE_MAX_AGE (14 * DAY)

int
sub_nonce_make(char *buf, size_t bn, const char *addr, int64_t t)
{
	uint8_t rnd[SUB_NONCE_OCTETS];
	char hex[2 * SUB_NONCE_OCTETS + 1], when[32];
	int n;
	if (sodium_init() < 0)
		return -1;
	randombytes_buf(rnd, sizeof rnd);
	pgp_hex_encode_lower(hex, rnd, sizeof rnd);
	pgp_time_format(when, sizeof when, t, 0);
	n = snprintf(buf, bn, "%s %s %s %s", SUB_NONCE_TAG, addr, when, hex);
	return n > 0 && (size_t)n < bn ? 0 : -1;
}

int
sub_nonce_parse(const uint8_t *p, size_t n, char *addr, size_t an, int64_t *issued)
{
	const size_t tl = sizeof SUB_NONCE_TAG - 1;
	const uint8_t *a, *d, *h, *end = p + n;
	char date[40];
	size_t i;

	if (n < tl + 1 || memcmp(p, SUB_NONCE_TAG, tl) != 0 || p[tl] != ' ')
		return -1;
	a = p + tl + 1;
	if ((d = memchr(a, ' ', (size_t)(end - a))) == NULL || !keymail_safe(a, (size_t)(d - a)) ||
	    (size_t)(d - a) >= an)
		return -1;
	d++;
	if ((h = memchr(d, ' ', (size_t)(end - d))) == NULL || (size_t)(h - d) >= sizeof date)
		return -1;
	memcpy(date, d, (size_t)(h - d));
	date[h - d] = '\0';
	if (pgp_time_parse(date, 0, issued) != PGP_OK)
		return -1;
	h++;
	if ((size_t)(end - h) != 2 * SUB_NONCE_OCTETS)
		return -1;
	for (i = 0; i < 2 * SUB_NONCE_OCTETS; i++)
		if (!((h[i] >= '0' && h[i] <= '9') || (h[i] >= 'a' && h[i] <= 'f')))
			return -1;
	memcpy(addr, a, (size_t)(d - 1 - a));
	addr[d - 1 - a] = '\0';
	return 0;
}

void
sub_check_nonce(sub_report *r, const sub_key *k, const uint8_t *text, size_t tl,
    const uint8_t *sig, size_t sl, int64_t t, const pgp_policy *pol)
{
	pgp_verifier *v = NULL;
	pgp_verify_opts o;
	pgp_diag d;
	char addr[KEYMAIL_MAX + 1], when[32], fpr[2 * PGP_FPR_MAX + 1], kid[17];
	int64_t issued;
	size_t i, good = 0;
	pgp_err e;

	if (sub_nonce_parse(text, tl, addr, sizeof addr, &issued) != 0) {
		sub_add(r, "nonce", SUB_WARN, "the nonce text is not in the form \"%s EMAIL DATE HEX\": "
		    "verified as given", SUB_NONCE_TAG);
	} else if (issued > t + DAY) {
		pgp_time_format(when, sizeof when, issued, 0);
		sub_add(r, "nonce", SUB_WARN, "the nonce says it was issued %s, after the reference time",
		    when);
	} else if (t - issued > SUB_NONCE_MAX_AGE) {
		pgp_time_format(when, sizeof when, issued, 0);
		sub_add(r, "nonce", SUB_WARN, "the nonce was issued %s, %lld days before the reference "
		    "time: a stale challenge", when, (long long)((t - issued) / DAY));
	}
	memset(&d, 0, sizeof d);
	if ((e = pgp_verifier_new(&v, sig, sl, &d)) != PGP_OK) {
		sub_add(r, "nonce", SUB_FAIL, "the nonce signature is unreadable: offset %zu: %s (%s)",
		    d.offset, d.what ? d.what : "malformed", pgp_strerror(e));
		return;
	}
	pgp_verifier_update(v, text, tl);
	pgp_verify_opts_init(&o, t);
	o.policy = pol;
	if ((e = pgp_verifier_finish(v, &k->src, &o)) != PGP_OK) {
		sub_add(r, "nonce", SUB_FAIL, "verification could not run: %s", pgp_strerror(e));
		pgp_verifier_free(v);
		return;
	}
	for (i = 0; i < pgp_verifier_count(v); i++) {
		const pgp_result *res = pgp_verifier_result(v, i);
		if (res->has_issuer)
			pgp_hex_encode(kid, res->issuer, 8);
		else
			snprintf(kid, sizeof kid, "(none)");
		if (res->status == PGP_OK && res->cert_fpr.len == k->cert->primary.fpr.len &&
		    memcmp(res->cert_fpr.v, k->cert->primary.fpr.v, res->cert_fpr.len) == 0) {
			good++;
			pgp_hex_encode(fpr, res->key_fpr.v, res->key_fpr.len);
			pgp_time_format(when, sizeof when, res->created, 0);
			sub_add(r, "nonce", SUB_PASS, "good signature over the exact nonce text by %s %s, "
			    "made %s", res->subkey < 0 ? "primary key" : "subkey", fpr, when);
		} else if (res->status == PGP_ERR_NO_KEY) {
			sub_add(r, "nonce", SUB_FAIL, "signature %zu was made by key ID %s, which is not a "
			    "key of the submitted certificate", i + 1, kid);
		} else if (res->status == PGP_ERR_BAD_SIG) {
			sub_add(r, "nonce", SUB_FAIL, "signature %zu by key ID %s does not verify over the "
			    "nonce text (a different text was signed, or the signature was altered)%s%s",
			    i + 1, kid, res->reason ? ": " : "", res->reason ? res->reason : "");
		} else {
			sub_add(r, "nonce", SUB_FAIL, "signature %zu by key ID %s: %s%s%s", i + 1, kid,
			    pgp_strerror(res->status), res->reason ? ": " : "",
			    res->reason ? res->reason : "");
		}
	}
	if (pgp_verifier_count(v) == 0)
		sub_add(r, "nonce", SUB_FAIL, "the nonce signature file holds no signature");
	pgp_verifier_free(v);
}
