/* vout.c - verification results for people and for programs. see vout.h */
#include <string.h>
#include "cli.h"
#include "dump.h"
#include "vout.h"
#include "pgp/hash.h"
#include "pgp/packet.h"

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

static void
uid_human(FILE *f, pgp_view u)
{
	size_t i;
	fputc('"', f);
	for (i = 0; i < u.len; i++) {
		uint8_t c = u.p[i];
		if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
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
		if (r->reason)
			fprintf(f, ": %s", r->reason);
		fputc('\n', f);
		if (r->primary_uid.p) {
			fputs("  signer:    ", f);
			uid_human(f, r->primary_uid);
			fputc('\n', f);
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
			cli_format_time(t, sizeof t, r->created);
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
		if (r->status == PGP_OK && r->key_expired_now) {
			cli_format_time(t, sizeof t, r->key_expires);
			fprintf(f, "  note:      the key expired on %s, after the signature was made\n", t);
		}
	}
	(void)now;
	fprintf(f, "wotkit: %zu of %zu signatures good, from %zu distinct signers (%zu signers required)\n",
	    pgp_verifier_good(v), n, pgp_verifier_good_signers(v), need);
}

static void
jstr(FILE *f, const char *k, const char *s, int comma)
{
	fprintf(f, "\"%s\": ", k);
	if (s) {
		fputc('"', f);
		json_escape(f, (const uint8_t *)s, strlen(s));
		fputc('"', f);
	} else
		fputs("null", f);
	if (comma)
		fputs(", ", f);
}

static void
jfpr(FILE *f, const char *k, const pgp_fpr *fpr)
{
	fprintf(f, "\"%s\": ", k);
	if (fpr->len) {
		fputc('"', f);
		vout_fpr(f, fpr);
		fputc('"', f);
	} else
		fputs("null", f);
	fputs(", ", f);
}

static void
jtime(FILE *f, const char *k, int64_t t)
{
	char b[32];
	if (t) {
		cli_format_time(b, sizeof b, t);
		fprintf(f, "\"%s\": \"%s\", ", k, b);
	} else
		fprintf(f, "\"%s\": null, ", k);
}

/* see vout.h */
void
vout_json(FILE *f, const char *file, const pgp_verifier *v, size_t need, int64_t now)
{
	size_t i, n = pgp_verifier_count(v);
	static const char *const kinds[] = {"detached", "cleartext", "inline"};
	int kind = pgp_verifier_kind(v);
	fputs("{", f);
	jstr(f, "file", file, 1);
	jstr(f, "kind", kinds[kind >= 0 && kind <= 2 ? kind : 0], 1);
	jtime(f, "reference_time", now);
	fprintf(f, "\"good\": %zu, \"signers\": %zu, \"required\": %zu, \"ok\": %s, \"signatures\": [",
	    pgp_verifier_good(v), pgp_verifier_good_signers(v), need,
	    pgp_verifier_good_signers(v) >= need ? "true" : "false");
	for (i = 0; i < n; i++) {
		const pgp_result *r = pgp_verifier_result(v, i);
		size_t j;
		fputs(i ? ", {" : "{", f);
		jstr(f, "status", pgp_errname(r->status), 1);
		jstr(f, "verdict", vout_status_word(r->status), 1);
		jstr(f, "reason", r->reason, 1);
		fprintf(f, "\"offset\": %zu, \"version\": %u, \"type\": %u, \"mode\": \"%s\", ",
		    r->offset, r->sig_version, r->sig_type, r->text_mode ? "text" : "binary");
		jstr(f, "pk_algo", pgp_pk_name(r->pk_algo), 1);
		jstr(f, "hash_algo", pgp_hash_name(r->hash_algo), 1);
		jtime(f, "created", r->created);
		jtime(f, "expires", r->sig_expires);
		if (r->has_issuer) {
			fputs("\"issuer\": \"", f);
			for (j = 0; j < 8; j++)
				fprintf(f, "%02X", r->issuer[j]);
			fputs("\", ", f);
		} else
			fputs("\"issuer\": null, ", f);
		jfpr(f, "issuer_fpr", &r->issuer_fpr);
		jfpr(f, "cert", &r->cert_fpr);
		jfpr(f, "key", &r->key_fpr);
		fprintf(f, "\"subkey\": %s, ", r->cert_fpr.len && r->subkey >= 0 ? "true" : "false");
		fputs("\"signer_uid\": ", f);
		if (r->primary_uid.p) {
			fputc('"', f);
			json_escape(f, r->primary_uid.p, r->primary_uid.len);
			fputs("\", ", f);
		} else
			fputs("null, ", f);
		jtime(f, "key_expires", r->key_expires);
		fprintf(f, "\"key_expired_now\": %s, \"bare_key\": %s}", r->key_expired_now ? "true" : "false",
		    r->bare_key ? "true" : "false");
	}
	fputs("]}\n", f);
}
