/* vout.c - verification results for people and for programs. see vout.h */
#include <string.h>
#include "cli.h"
#include "out.h"
#include "vout.h"
#include "pgp/pgp.h"

/* see vout.h */
const char *
vout_status_word(pgp_err s)
{
	switch (s) {
	case PGP_OK: return "good";
	case PGP_ERR_BAD_SIG: return "BAD signature";
	case PGP_ERR_NO_KEY: return "no public key";
	case PGP_ERR_EXPIRED: return "expired";
	case PGP_ERR_REVOKED: return "revoked key";
	case PGP_ERR_POLICY: return "refused";
	case PGP_ERR_UNUSABLE: return "unusable key";
	case PGP_ERR_NOT_YET: return "not valid yet";
	case PGP_ERR_MALFORMED:
	case PGP_ERR_TRUNCATED: return "malformed signature";
	case PGP_ERR_UNSUPPORTED: return "unsupported";
	default: return pgp_strerror(s);
	}
}

/* see vout.h */
void
vout_fpr(FILE *f, const pgp_fpr *fpr)
{
	size_t i;
	for (i = 0; i < fpr->len; i++)
		fprintf(f, "%02X", fpr->v[i]);
}

static void
keyid(FILE *f, const pgp_result *r)
{
	size_t i;
	if (r->issuer_fpr.len) {
		vout_fpr(f, &r->issuer_fpr);
		return;
	}
	if (!r->has_issuer) {
		fputs("(none)", f);
		return;
	}
	for (i = 0; i < 8; i++)
		fprintf(f, "%02X", r->issuer[i]);
}

/* see vout.h */
void
vout_human(FILE *f, const pgp_verifier *v, size_t need, int64_t now)
{
	size_t i, n = pgp_verifier_count(v);
	char t[32];
	for (i = 0; i < n; i++) {
		const pgp_result *r = pgp_verifier_result(v, i);
		fprintf(f, "wotkit: signature %zu: %s", i + 1, vout_status_word(r->status));
		if (r->reason) {
			fputs(": ", f);
			out_esc_text(f, r->reason);
		}
		fputc('\n', f);
		if (r->primary_uid.p) {
			fputs("  signer:    \"", f);
			out_esc_human(f, r->primary_uid.p, r->primary_uid.len);
			fputs("\"\n", f);
		}
		if (r->cert_fpr.len) {
			fputs("  cert:      ", f);
			vout_fpr(f, &r->cert_fpr);
			fputc('\n', f);
			fputs("  key:       ", f);
			vout_fpr(f, &r->key_fpr);
			fputs(r->subkey >= 0 ? " (subkey)\n" : " (primary key)\n", f);
		} else {
			fputs("  issuer:    ", f);
			keyid(f, r);
			fputc('\n', f);
		}
		if (r->created) {
			pgp_time_format(t, sizeof t, r->created, 0);
			fprintf(f, "  made:      %s\n", t);
		}
		if (r->status == PGP_ERR_MALFORMED || r->status == PGP_ERR_TRUNCATED ||
		    r->status == PGP_ERR_UNSUPPORTED)
			fprintf(f, "  offset:    %zu (signature packet)\n", r->offset);
		fprintf(f, "  algorithm: %s/%s, v%u %s signature\n", pgp_pk_name(r->pk_algo),
		    pgp_hash_name(r->hash_algo), r->sig_version, r->text_mode ? "text" : "binary");
		if (r->status == PGP_OK && r->bare_key)
			fputs("  note:      the key is bare (no user ID, no self-signature): nothing states\n"
			    "             its owner, expiry or revocation\n", f);
		if (r->status == PGP_OK && r->revoker_unchecked)
			fputs("  note:      a designated revoker revoked this key, but the revoker's key\n"
			    "             is not in the keyrings, so the revocation could not be checked\n", f);
		if (r->status == PGP_OK && r->key_expired_now) {
			pgp_time_format(t, sizeof t, r->key_expires, 0);
			fprintf(f, "  note:      the key expired on %s, after the signature was made\n", t);
		}
	}
	(void)now;
	{
		size_t good = pgp_verifier_good(v), signers = pgp_verifier_good_signers(v);
		fprintf(f, "wotkit: %zu of %zu signature%s good, from %zu distinct signer%s (%zu required)\n",
		    good, n, n == 1 ? "" : "s", signers, signers == 1 ? "" : "s", need);
	}
}

/* A fingerprint in hex, or null. */
static void
jfpr(out_ctx *o, const char *k, const pgp_fpr *fpr)
{
	if (fpr->len)
		out_hex(o, k, fpr->v, fpr->len, 0);
	else
		out_null(o, k);
}

/* see vout.h */
void
vout_json(FILE *f, const char *file, const pgp_verifier *v, size_t need, int64_t now)
{
	size_t i, n = pgp_verifier_count(v);
	static const char *const kinds[] = {"detached", "cleartext", "inline"};
	int kind = pgp_verifier_kind(v);
	out_ctx o;

	out_init(&o, f, 1);
	out_open(&o, NULL, NULL);
	out_str0(&o, "file", file);
	out_text(&o, "kind", "%s", kinds[kind >= 0 && kind <= 2 ? kind : 0]);
	out_time_opt(&o, "reference_time", now);
	out_int(&o, "good", (long long)pgp_verifier_good(v));
	out_int(&o, "signers", (long long)pgp_verifier_good_signers(v));
	out_int(&o, "required", (long long)need);
	out_bool(&o, "ok", pgp_verifier_good_signers(v) >= need);
	out_arr_open(&o, "signatures");
	for (i = 0; i < n; i++) {
		const pgp_result *r = pgp_verifier_result(v, i);
		out_open(&o, NULL, NULL);
		out_text(&o, "status", "%s", pgp_errname(r->status));
		out_str0(&o, "verdict", vout_status_word(r->status));
		out_str0(&o, "reason", r->reason);
		out_int(&o, "offset", (long long)r->offset);
		out_int(&o, "version", r->sig_version);
		out_int(&o, "type", r->sig_type);
		out_text(&o, "mode", "%s", r->text_mode ? "text" : "binary");
		out_str0(&o, "pk_algo", pgp_pk_name(r->pk_algo));
		out_str0(&o, "hash_algo", pgp_hash_name(r->hash_algo));
		out_time_opt(&o, "created", r->created);
		out_time_opt(&o, "expires", r->sig_expires);
		if (r->has_issuer)
			out_hex(&o, "issuer", r->issuer, 8, 0);
		else
			out_null(&o, "issuer");
		jfpr(&o, "issuer_fpr", &r->issuer_fpr);
		jfpr(&o, "cert", &r->cert_fpr);
		jfpr(&o, "key", &r->key_fpr);
		out_bool(&o, "subkey", r->cert_fpr.len && r->subkey >= 0);
		/* a user ID that is not UTF-8 also gets "signer_uid_hex" */
		if (r->primary_uid.p)
			out_str(&o, "signer_uid", r->primary_uid.p, r->primary_uid.len);
		else
			out_null(&o, "signer_uid");
		out_time_opt(&o, "key_expires", r->key_expires);
		out_bool(&o, "key_expired_now", r->key_expired_now);
		out_bool(&o, "bare_key", r->bare_key);
		out_bool(&o, "revoker_unchecked", r->revoker_unchecked);
		out_close(&o);
	}
	out_arr_close(&o);
	out_close(&o);
	out_finish(&o);
}
