/*
 * gpg_verify.c - `--verify` of the drop-in: detached signatures (git:
 * `--verify SIGFILE -` with the payload on stdin), inline-signed and
 * cleartext-signed messages (patatt: `--verify --output -` with the message
 * on stdin), through pgp/verify.h; for every signature GnuPG 2.2.40's
 * status sequence and human lines (docs/gpg.md lists them), and gpg's exit
 * code: 0 when every signature is good (also by an expired or revoked
 * key: EXPKEYSIG, REVKEYSIG), 1 when one is bad or expired (BADSIG, EXPSIG)
 * and none could not be checked, 2 otherwise (ERRSIG, no signature).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpg.h"
#include "keyring/trust.h"

/* The UIDs quoted in status and human lines are bounded by the packet
 * limits; this is room for one escaped user ID. */
#define GPG_UID_TEXT (3 * 65536 + 1)

typedef struct vctx {
	gpg_run *r;
	gpg_trust *trust;
	certs_ring ring;
	pgp_certset *empty;      /* no keyring file exists: an empty source */
	pgp_certsrc src;
	pgp_verify_opts opts;
	int worst;               /* 0, 1 (bad), 2 (error) */
	char *uidbuf;
	char (*sig_ids)[32];     /* detached: SIG_ID of each signature packet, in order */
	size_t nsig_ids;
} vctx;

/* Most signature packets in one detached signature given SIG_ID lines. */
#define GPG_MAX_SIG_IDS 64

/* The SIG_ID values of a detached signature file's signature packets, in
 * the order the verifier reports them ("" when gpg_sig_id has none). A
 * file that does not parse gets none: the verifier reports it. */
static void
collect_sig_ids(vctx *c, const cli_file *sig)
{
	const uint8_t *p = sig->p;
	size_t len = sig->len;
	uint8_t *dec = NULL;
	pgp_input_class ic;
	pgp_buf b;
	pgp_rd rd;
	pgp_pkt pkt;

	(void)pgp_classify(p, len, &ic);
	if (pgp_classify_has_armor(&ic, len)) {
		if (pgp_armor_decode_all(&b, p, len, NULL) != PGP_OK)
			return;
		p = dec = pgp_buf_take(&b, &len);
	}
	if (p == NULL || (c->sig_ids = calloc(GPG_MAX_SIG_IDS, sizeof *c->sig_ids)) == NULL) {
		free(dec);
		return;
	}
	pgp_rd_init(&rd, p, len);
	while (c->nsig_ids < GPG_MAX_SIG_IDS && pgp_pkt_next(&rd, &pkt, NULL) == PGP_OK) {
		pgp_sig s;
		if (pkt.tag == PGP_TAG_SIGNATURE) {
			if (pgp_sig_parse(&s, &pkt.body, NULL) != PGP_OK ||
			    gpg_sig_id(c->sig_ids[c->nsig_ids], &s) != 0)
				c->sig_ids[c->nsig_ids][0] = '\0';
			c->nsig_ids++;
		}
		pgp_pkt_release(&pkt);
	}
	free(dec);
}

static void
worse(vctx *c, int rc)
{
	if (rc > c->worst)
		c->worst = rc;
}

/* The signature's issuer as gpg's "using" line and ERRSIG name it. */
static void
issuer_keyid(const pgp_result *res, char out[17])
{
	if (res->issuer_fpr.len) {
		gpg_fmt_keyid(out, &res->issuer_fpr);
	} else if (res->has_issuer) {
		pgp_hex_encode(out, res->issuer, 8);
	} else {
		memcpy(out, "0000000000000000", 17);
	}
}

/* The user ID of a status line ("[?]" when the certificate has none). */
static const char *
uid_status(vctx *c, const pgp_result *res)
{
	if (res->primary_uid.p == NULL)
		return "[?]";
	gpg_esc_status(c->uidbuf, GPG_UID_TEXT, res->primary_uid.p, res->primary_uid.len);
	return c->uidbuf;
}

static const char *
uid_human(vctx *c, const pgp_view *u)
{
	if (u->p == NULL)
		return "[?]";
	gpg_esc_human(c->uidbuf, GPG_UID_TEXT, u->p, u->len);
	return c->uidbuf;
}

/* "Primary key fingerprint: ..." and, for a subkey, its fingerprint. */
static void
fingerprint_lines(const pgp_result *res)
{
	char f[128];

	gpg_fmt_fpr_human(f, sizeof f, &res->cert_fpr);
	gpg_raw("Primary key fingerprint: %s\n", f);
	if (res->subkey >= 0) {
		gpg_fmt_fpr_human(f, sizeof f, &res->key_fpr);
		gpg_raw("     Subkey fingerprint: %s\n", f);
	}
}

/* "aka" lines: the certificate's other user IDs that are validly bound and
 * not revoked, in keyring order (gpg skips revoked and expired ones). */
static void
aka_lines(vctx *c, const pgp_result *res, const pgp_certeval *ev)
{
	uint32_t j;

	for (j = 0; ev != NULL && j < res->cert->nuids; j++) {
		const pgp_uidc *u = &res->cert->uids[j];
		int kv, uv;
		if (u->is_attr || ev->uids[j].status != PGP_OK || (res->primary_uid.p &&
		    u->data.p == res->primary_uid.p))
			continue;
		gpg_trust_validity(c->trust, &res->cert_fpr, &u->data, &kv, &uv);
		if (res->key_expired_now || res->status == PGP_ERR_EXPIRED)
			uv = WOT_V_EXPIRED;
		gpg_say("                aka \"%s\" [%s]", uid_human(c, &u->data),
		    gpg_validity_word(uv == WOT_V_REVOKED ? WOT_V_UNKNOWN : uv));
	}
}

/* The user ID gpg names the signer by (gpg_primary_uid), into res; the
 * evaluation is kept in ev for the aka lines. 1 when ev holds one. */
static int
signer_uid(vctx *c, pgp_result *res, pgp_certeval *ev)
{
	const pgp_cert *cert = res->cert;
	int p;
	uint32_t j;

	if (cert == NULL)
		return 0;
	if (pgp_cert_eval(ev, cert, &c->src, c->opts.now, c->opts.policy) != PGP_OK) {
		pgp_certeval_release(ev);
		return 0;
	}
	if ((p = gpg_primary_uid(cert, ev)) >= 0) {
		res->primary_uid = cert->uids[p].data;
	} else if (res->primary_uid.p == NULL) {
		for (j = 0; j < cert->nuids; j++)
			if (!cert->uids[j].is_attr) {
				res->primary_uid = cert->uids[j].data;
				break;
			}
	}
	return 1;
}

/* The newest signature of type `type` with a reason in list[0..n), made
 * by the primary key (its math was checked by the evaluation that found the
 * key revoked; this only picks the text to show). */
static int
newest_reason(const pgp_rd *list, uint32_t n, uint8_t type, const pgp_fpr *primary,
    pgp_sig *best, int have)
{
	pgp_sig s;
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (pgp_sig_parse(&s, &list[i], NULL) != PGP_OK || s.type != type ||
		    !s.has_revocation_reason || !pgp_sig_names_fpr(&s, primary))
			continue;
		if (!have || s.created > best->created) {
			*best = s;
			have = 1;
		}
	}
	return have;
}

/* gpg's show_revocation_reason: the newest key (or, for a revoked signing
 * subkey, subkey) revocation's reason and comment. */
static void
revocation_reason(vctx *c, const pgp_result *res, const char *pfpr, int subkey)
{
	static const char *const words[] = {"No reason specified", "Key is superseded",
	    "Key has been compromised", "Key is no longer used"};
	const pgp_cert *cert = res->cert;
	pgp_sig best;
	int have = 0;

	memset(&best, 0, sizeof best);
	if (cert == NULL)
		return;
	if (subkey) {
		const pgp_subc *sc = &cert->subs[res->subkey];
		have = newest_reason(sc->sigs, sc->nsigs, 0x28, &cert->primary.fpr, &best, 0);
	} else {
		/* a key revocation counts wherever it sits (pgp/eval.h) */
		uint32_t j;
		have = newest_reason(cert->dsigs, cert->ndsigs, 0x20, &cert->primary.fpr, &best, 0);
		have = newest_reason(cert->loose, cert->nloose, 0x20, &cert->primary.fpr, &best, have);
		for (j = 0; j < cert->nuids; j++)
			have = newest_reason(cert->uids[j].sigs, cert->uids[j].nsigs, 0x20,
			    &cert->primary.fpr, &best, have);
		for (j = 0; j < cert->nsubs; j++)
			have = newest_reason(cert->subs[j].sigs, cert->subs[j].nsigs, 0x20,
			    &cert->primary.fpr, &best, have);
	}
	if (!have)
		return;
	gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
	if (best.revocation_code < 4)
		gpg_say("reason for revocation: %s", words[best.revocation_code]);
	else if (best.revocation_code == 32)
		gpg_say("reason for revocation: User ID is no longer valid");
	else
		gpg_say("reason for revocation: code %u", best.revocation_code);
	if (best.revocation_text.len) {
		pgp_view t = best.revocation_text;
		gpg_say("revocation comment: %s", uid_human(c, &t));
	}
}

/* The trust part of a good (or expired-key, revoked-key, expired)
 * signature: gpg's check_signatures_trust. */
static void
trust_block(vctx *c, const pgp_result *res, int kv)
{
	if (kv == WOT_V_EXPIRED) {
		gpg_say("Note: This key has expired!");
		fingerprint_lines(res);
		return;
	}
	switch (kv) {
	case WOT_V_ULTIMATE:
		gpg_status(c->r, "TRUST_ULTIMATE 0 pgp");
		return;
	case WOT_V_FULL:
		gpg_status(c->r, "TRUST_FULLY 0 pgp");
		return;
	case WOT_V_MARGINAL:
		gpg_status(c->r, "TRUST_MARGINAL 0 pgp");
		gpg_say("WARNING: This key is not certified with sufficiently trusted signatures!");
		gpg_say("         It is not certain that the signature belongs to the owner.");
		break;
	default:
		gpg_status(c->r, "TRUST_UNDEFINED 0 pgp");
		gpg_say("WARNING: This key is not certified with a trusted signature!");
		gpg_say("         There is no indication that the signature belongs to the owner.");
		break;
	}
	fingerprint_lines(res);
}

/* ERRSIG's return code: gpg's error code for why it could not check. */
static int
errsig_code(pgp_err e)
{
	switch (e) {
	case PGP_ERR_NO_KEY: return 9;          /* GPG_ERR_NO_PUBKEY */
	case PGP_ERR_POLICY: return 5;          /* GPG_ERR_DIGEST_ALGO */
	case PGP_ERR_UNUSABLE: return 125;      /* GPG_ERR_WRONG_KEY_USAGE */
	default: return 4;                      /* GPG_ERR_PUBKEY_ALGO */
	}
}

typedef enum verdict {
	V_GOOD, V_EXPKEY, V_REVKEY, V_EXPSIG, V_BAD, V_ERR
} verdict;

static verdict
classify(const pgp_result *res, const pgp_result *at_creation)
{
	switch (res->status) {
	case PGP_OK:
		return res->key_expired_now ? V_EXPKEY : V_GOOD;
	case PGP_ERR_BAD_SIG:
		return res->cert ? V_BAD : V_ERR;
	case PGP_ERR_REVOKED:
		return res->cert ? V_REVKEY : V_ERR;
	case PGP_ERR_EXPIRED:
		if (res->cert)          /* the key had expired when it signed */
			return V_EXPKEY;
		/* the signature itself expired: gpg still checks it */
		if (at_creation && at_creation->cert) {
			if (at_creation->status == PGP_OK || at_creation->status == PGP_ERR_REVOKED)
				return V_EXPSIG;
			if (at_creation->status == PGP_ERR_BAD_SIG)
				return V_BAD;
		}
		return V_ERR;
	default:
		return V_ERR;
	}
}

static void
one_signature(vctx *c, const pgp_result *res0, const pgp_result *at_creation, size_t idx)
{
	verdict vd = classify(res0, at_creation);
	const pgp_result *res = (vd == V_EXPSIG || (vd == V_BAD && !res0->cert)) ? at_creation : res0;
	char date[64], kid[17], skid[17], fpr[2 * PGP_FPR_MAX + 1], pfpr[2 * PGP_FPR_MAX + 1];
	int kv = WOT_V_UNKNOWN, uv = WOT_V_UNKNOWN, have_ev = 0;
	pgp_result signer;
	pgp_certeval ev;

	gpg_status(c->r, "NEWSIG");
	gpg_fmt_asctime(date, sizeof date, res->created);
	gpg_say("Signature made %s", date);
	issuer_keyid(res, kid);
	if (res->issuer_fpr.len) {
		gpg_fmt_fpr(fpr, sizeof fpr, &res->issuer_fpr);
		gpg_say("               using %s key %s", gpg_algo_upper(res->pk_algo), fpr);
	} else {
		gpg_say("               using %s key %s", gpg_algo_upper(res->pk_algo), kid);
	}
	if (vd == V_ERR) {
		if (res->issuer_fpr.len)
			gpg_fmt_fpr(fpr, sizeof fpr, &res->issuer_fpr);
		else
			strcpy(fpr, "-");
		gpg_status(c->r, "ERRSIG %s %u %u %02X %lld %d %s", kid, res->pk_algo, res->hash_algo,
		    res->sig_type, (long long)res->created, errsig_code(res->status), fpr);
		if (res->status == PGP_ERR_NO_KEY) {
			gpg_status(c->r, "NO_PUBKEY %s", kid);
			gpg_say("Can't check signature: No public key");
		} else {
			gpg_say("Can't check signature: %s", res->reason ? res->reason :
			    pgp_strerror(res->status));
		}
		worse(c, 2);
		return;
	}
	signer = *res;
	have_ev = signer_uid(c, &signer, &ev);
	res = &signer;
	/* gpg's precedence (mainproc.c): EXPSIG, EXPKEYSIG, REVKEYSIG, GOODSIG,
	 * judged at the reference time: a key revoked after the signature
	 * (superseded, retired: good for wotkit) is REVKEYSIG to gpg, and a
	 * revoked key that has also expired is EXPKEYSIG */
	if (have_ev && vd == V_GOOD && (ev.primary.revoked ||
	    (res->subkey >= 0 && (uint32_t)res->subkey < res->cert->nsubs &&
	    ev.subs[res->subkey].revoked)))
		vd = V_REVKEY;
	if (have_ev && vd == V_REVKEY && ev.primary.expires && ev.primary.expires <= c->opts.now) {
		vd = V_EXPKEY;
		signer.key_expires = ev.primary.expires;
	}
	gpg_fmt_fpr(pfpr, sizeof pfpr, &res->cert_fpr);
	gpg_fmt_fpr(fpr, sizeof fpr, &res->key_fpr);
	gpg_fmt_keyid(skid, &res->key_fpr);
	gpg_trust_validity(c->trust, &res->cert_fpr, &res->primary_uid, &kv, &uv);
	if (vd == V_EXPKEY)
		kv = uv = WOT_V_EXPIRED;
	if (kv == WOT_V_REVOKED)      /* gpg's trustdb leaves revoked keys unknown */
		kv = uv = WOT_V_UNKNOWN;
	gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
	if (vd == V_BAD) {
		gpg_trust_validity(c->trust, &res->cert_fpr, &res->primary_uid, &kv, &uv);
		if (kv == WOT_V_REVOKED)
			kv = uv = WOT_V_UNKNOWN;
		gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
		gpg_status(c->r, "BADSIG %s %s", skid, uid_status(c, res));
		gpg_say("BAD signature from \"%s\" [%s]", uid_human(c, &res->primary_uid),
		    gpg_validity_word(uv));
		worse(c, 1);
		goto out;
	}
	if (vd == V_EXPKEY && res->key_expires)
		gpg_status(c->r, "KEYEXPIRED %lld", (long long)res->key_expires);
	/* gpg: for good signatures of class 0 or 1 */
	if (idx < c->nsig_ids && c->sig_ids[idx][0] && res->sig_type < 2) {
		gpg_fmt_date(date, sizeof date, res->created);
		gpg_status(c->r, "SIG_ID %s %s %lld", c->sig_ids[idx], date, (long long)res->created);
	}
	gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
	gpg_status(c->r, "%s %s %s", vd == V_GOOD ? "GOODSIG" : vd == V_EXPKEY ? "EXPKEYSIG" :
	    vd == V_REVKEY ? "REVKEYSIG" : "EXPSIG", skid, uid_status(c, res));
	gpg_say("%s signature from \"%s\" [%s]", vd == V_EXPSIG ? "Expired" : "Good",
	    uid_human(c, &res->primary_uid), gpg_validity_word(uv));
	aka_lines(c, res, have_ev ? &ev : NULL);
	gpg_fmt_date(date, sizeof date, res->created);
	gpg_status(c->r, "VALIDSIG %s %s %lld %lld %u 0 %u %u %02X %s", fpr, date,
	    (long long)res->created, (long long)res->sig_expires, res->sig_version, res->pk_algo,
	    res->hash_algo, res->sig_type, pfpr);
	gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
	if (res->subkey >= 0)
		gpg_status(c->r, "KEY_CONSIDERED %s 0", pfpr);
	if (vd == V_REVKEY) {
		int sub_only = have_ev && !ev.primary.revoked && res->subkey >= 0 &&
		    (uint32_t)res->subkey < res->cert->nsubs && ev.subs[res->subkey].revoked;
		gpg_status(c->r, "KEYREVOKED");
		if (sub_only) {
			gpg_say("WARNING: This subkey has been revoked by its owner!");
		} else {
			gpg_say("WARNING: This key has been revoked by its owner!");
			gpg_say("         This could mean that the signature is forged.");
		}
		revocation_reason(c, res, pfpr, sub_only);
	}
	trust_block(c, res, kv);
	if (vd == V_EXPSIG) {
		gpg_fmt_asctime(date, sizeof date, res->sig_expires);
		gpg_say("Signature expired %s", date);
		worse(c, 1);
	} else if (res->sig_expires) {
		gpg_fmt_asctime(date, sizeof date, res->sig_expires);
		gpg_say("Signature expires %s", date);
	}
out:
	if (have_ev)
		pgp_certeval_release(&ev);
}

/* Verify once at time `now` (a detached signature with its data, or a
 * message). */
static pgp_err
run_verify(vctx *c, int64_t now, const cli_file *sig, const cli_file *data, pgp_verifier **out,
    pgp_diag *d)
{
	pgp_verify_opts o = c->opts;
	pgp_err e;

	o.now = now;
	*out = NULL;
	if (data == NULL)
		return pgp_verify_message(out, sig->p, sig->len, &c->src, &o, d);
	if ((e = pgp_verifier_new(out, sig->p, sig->len, d)) != PGP_OK)
		return e;
	pgp_verifier_update(*out, data->p, data->len);
	return pgp_verifier_finish(*out, &c->src, &o);
}

static int
write_content(const char *path, pgp_view content)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "wb");
	int ok;

	if (f == NULL) {
		gpg_say("can't create '%s': %s", path, "cannot open");
		return -1;
	}
	ok = content.len == 0 || fwrite(content.p, 1, content.len, f) == content.len;
	ok = (f == stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
	return ok ? 0 : -1;
}

/* Open the keyrings: the ones that exist (a keyring gpg would create on
 * first use is an empty one here). */
static int
open_source(vctx *c)
{
	const char *exist[GPG_MAX_KEYRINGS];
	size_t i, n = 0;

	for (i = 0; i < c->r->npaths; i++)
		if (access(c->r->paths[i], F_OK) == 0)
			exist[n++] = c->r->paths[i];
	if (n == 0) {
		if (pgp_certset_new(&c->empty) != PGP_OK)
			return -1;
		pgp_certset_source(c->empty, &c->src);
		return 0;
	}
	if (certs_ring_open(&c->ring, exist, n, 1) != 0)
		return -1;
	c->src = c->ring.src;
	return 0;
}

/* A name ending in .sig, .asc or .sign without it (gpg's guess of the
 * data file of a lone detached signature), or NULL. */
static char *
data_name(const char *sig)
{
	static const char *const ext[] = {".sig", ".asc", ".sign"};
	size_t n = strlen(sig), i;

	for (i = 0; i < 3; i++) {
		size_t k = strlen(ext[i]);
		if (n > k && strcmp(sig + n - k, ext[i]) == 0) {
			char *s = malloc(n - k + 1);
			if (s) {
				memcpy(s, sig, n - k);
				s[n - k] = '\0';
			}
			return s;
		}
	}
	return NULL;
}

int
gpg_cmd_verify(gpg_run *r)
{
	vctx c;
	cli_file sig = {0}, data = {0};
	cli_file *datap = NULL;
	pgp_verifier *v = NULL, *v2 = NULL;
	pgp_diag d = {0, -1, NULL};
	char *guess = NULL;
	size_t i, n;
	pgp_err e;
	int rc = 2;

	memset(&c, 0, sizeof c);
	c.r = r;
	pgp_verify_opts_init(&c.opts, r->now);
	c.opts.policy = &r->pol;
	if ((c.uidbuf = malloc(GPG_UID_TEXT)) == NULL || (c.trust = gpg_trust_new(r)) == NULL)
		goto out;
	if (r->o.nargs > 2) {
		gpg_say("wotkit-gpg: --verify takes SIGFILE [DATAFILE|-] or one signed message");
		goto out;
	}
	if (cli_file_open(&sig, r->o.nargs ? r->o.args[0] : "-") != 0)
		goto out;
	if (r->o.nargs == 2) {
		if (cli_file_open(&data, r->o.args[1]) != 0)
			goto out;
		datap = &data;
	}
	if (open_source(&c) != 0)
		goto out;
	e = run_verify(&c, r->now, &sig, datap, &v, &d);
	if (e != PGP_OK && datap == NULL && r->o.nargs == 1 &&
	    (guess = data_name(r->o.args[0])) != NULL && access(guess, R_OK) == 0) {
		pgp_verifier_free(v);
		if (cli_file_open(&data, guess) != 0)
			goto out;
		datap = &data;
		memset(&d, 0, sizeof d);
		e = run_verify(&c, r->now, &sig, datap, &v, &d);
	}
	if (e != PGP_OK) {
		if (e == PGP_ERR_NO_SIG || e == PGP_ERR_MALFORMED || e == PGP_ERR_TRUNCATED) {
			gpg_say("no valid OpenPGP data found.");
			gpg_status(r, "NODATA 1");
			gpg_status(r, "NODATA 2");
			gpg_say("the signature could not be verified.");
			gpg_raw("Please remember that the signature file (.sig or .asc)\n"
			    "should be the first file given on the command line.\n");
		} else {
			gpg_say("verify signatures failed: %s", pgp_strerror(e));
		}
		goto out;
	}
	if (datap == NULL && r->o.output && write_content(r->o.output, pgp_verifier_content(v)) != 0)
		goto out;
	n = pgp_verifier_count(v);
	if (datap != NULL)
		collect_sig_ids(&c, &sig);
	if (n == 0) {
		gpg_say("no signature found");
		goto out;
	}
	for (i = 0; i < n; i++) {
		const pgp_result *res = pgp_verifier_result(v, i), *res2 = NULL;
		if (res->status == PGP_ERR_EXPIRED && res->cert == NULL && res->sig_expires &&
		    res->created) {
			/* gpg checks an expired signature and says EXPSIG: verify
			 * again as of its creation to learn whether it was good */
			pgp_verifier_free(v2);
			memset(&d, 0, sizeof d);
			if (run_verify(&c, res->created, &sig, datap, &v2, &d) == PGP_OK &&
			    pgp_verifier_count(v2) == n)
				res2 = pgp_verifier_result(v2, i);
		}
		one_signature(&c, res, res2, i);
	}
	rc = c.worst;
out:
	if (c.ring.set || c.ring.kr)
		certs_ring_warn(&c.ring);
	pgp_verifier_free(v);
	pgp_verifier_free(v2);
	cli_file_close(&sig);
	cli_file_close(&data);
	certs_ring_close(&c.ring);
	pgp_certset_free(c.empty);
	gpg_trust_free(c.trust);
	free(c.uidbuf);
	free(c.sig_ids);
	free(guess);
	return rc;
}
