/*
 * submission_check.c - the checks of one submitted key (see submission.h):
 * parsing, then what `sq cert lint` and wotmate's export (pgpkeys.git) look
 * at, judged by the library's evaluation (pgp/eval.h) and its per-binding
 * view (pgp/selfsig.h): revocation, expiry, the hash of every self-signature
 * under the dated policy (pgp/policy.h), key sizes, back-signatures of
 * signing subkeys (RFC 9580 §5.2.3.34) and whether any key can sign.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "certs.h"
#include "keymail.h"
#include "out.h"
#include "submission.h"

#define DAY 86400
/* an expiry this close is a warning: the key would need a new submission soon */
#define SUB_EXPIRY_WARN (30 * DAY)

void
sub_add(sub_report *r, const char *name, int verdict, const char *fmt, ...)
{
	va_list ap;
	sub_check *c;
	if (r->n == SUB_MAX_CHECKS) {
		r->dropped++;
		r->dropped_fail |= verdict == SUB_FAIL;
		return;
	}
	c = &r->v[r->n++];
	c->name = name;
	c->verdict = verdict;
	va_start(ap, fmt);
	vsnprintf(c->text, sizeof c->text, fmt, ap);
	va_end(ap);
}

void
sub_esc(char *buf, size_t bn, const uint8_t *p, size_t n)
{
	char *m = NULL;
	size_t ml = 0;
	FILE *f = open_memstream(&m, &ml);
	if (f == NULL) {
		snprintf(buf, bn, "(?)");
		return;
	}
	out_esc_human(f, p, n);
	fclose(f);
	snprintf(buf, bn, "%s", m ? m : "");
	free(m);
}

int
sub_failed(const sub_report *r)
{
	size_t i;
	if (r->dropped_fail)
		return 1;
	for (i = 0; i < r->n; i++)
		if (r->v[i].verdict == SUB_FAIL)
			return 1;
	return 0;
}

void
sub_key_free(sub_key *k)
{
	pgp_certset_free(k->set);
	free(k->bin);
	memset(k, 0, sizeof *k);
}

static int
only_space(const uint8_t *p, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return 0;
	return 1;
}

/* The input's octets as binary packets into k->bin: one armored block and
 * nothing after it, or binary input as it is. 0 or -1 (a check says why). */
static int
decode(sub_report *r, const uint8_t *p, size_t len, sub_key *k)
{
	pgp_input_class ic;
	pgp_armor a, extra;
	pgp_diag d;
	size_t pos = 0, pos2;
	pgp_err e;

	(void)pgp_classify(p, len, &ic);
	if (!pgp_classify_has_armor(&ic, len)) {
		if ((k->bin = malloc(len ? len : 1)) == NULL)
			return -1;
		memcpy(k->bin, p, len);
		k->len = len;
		return 0;
	}
	memset(&d, 0, sizeof d);
	if ((e = pgp_armor_next(&a, p, len, &pos, &d)) != PGP_OK) {
		sub_add(r, "parse", SUB_FAIL, "armor: offset %zu: %s (%s)", d.offset,
		    d.what ? d.what : "malformed", pgp_strerror(e));
		return -1;
	}
	if (strcmp(a.label, "PGP PUBLIC KEY BLOCK") != 0) {
		sub_add(r, "parse", SUB_FAIL, "the armor block is a \"%s\", not a \"PGP PUBLIC KEY "
		    "BLOCK\"%s", a.label, strstr(a.label, "PRIVATE") ? " (never send a secret key)" : "");
		pgp_armor_release(&a);
		return -1;
	}
	if (!only_space(p, a.begin_off))
		sub_add(r, "parse", SUB_WARN, "%zu octets of text before the armor block are ignored",
		    a.begin_off);
	pos2 = pos;
	if (pgp_armor_next(&extra, p, len, &pos2, NULL) == PGP_OK) {
		sub_add(r, "parse", SUB_FAIL, "a second armor block (\"%s\") at offset %zu: submit one "
		    "key per message", extra.label, extra.begin_off);
		pgp_armor_release(&extra);
		pgp_armor_release(&a);
		return -1;
	}
	if (!only_space(p + a.end_off, len - a.end_off)) {
		sub_add(r, "parse", SUB_FAIL, "%zu octets after the armor block (offset %zu): the "
		    "submission must be the key alone", len - a.end_off, a.end_off);
		pgp_armor_release(&a);
		return -1;
	}
	k->bin = a.data;
	k->len = a.data_len;
	a.data = NULL;
	pgp_armor_release(&a);
	return 0;
}

int
sub_parse(sub_report *r, const uint8_t *p, size_t len, sub_key *k)
{
	pgp_rd rd;
	pgp_pkt pkt;
	pgp_diag d;
	size_t primaries = 0, secrets = 0, npkts = 0;
	int first_tag = 0;
	pgp_err e;

	memset(k, 0, sizeof *k);
	if (decode(r, p, len, k) != 0)
		return -1;
	/* every packet framed to the end of the input (RFC 9580 §4.2) */
	rd.p = k->bin;
	rd.len = k->len;
	rd.off = 0;
	memset(&d, 0, sizeof d);
	while ((e = pgp_pkt_next(&rd, &pkt, &d)) == PGP_OK) {
		if (!pgp_tag_ignorable(pkt.tag) && first_tag == 0)
			first_tag = pkt.tag;
		primaries += pkt.tag == PGP_TAG_PUBLIC_KEY || pkt.tag == PGP_TAG_SECRET_KEY;
		secrets += pkt.tag == PGP_TAG_SECRET_KEY || pkt.tag == PGP_TAG_SECRET_SUBKEY;
		npkts++;
		pgp_pkt_release(&pkt);
	}
	if (e != PGP_ERR_NOT_FOUND) {
		sub_add(r, "parse", SUB_FAIL, "packet framing: offset %zu: %s (%s): the submission must "
		    "hold OpenPGP packets and nothing else", d.offset, d.what ? d.what : "malformed",
		    pgp_strerror(e));
		return -1;
	}
	if (secrets) {
		sub_add(r, "parse", SUB_FAIL, "%zu secret key packet%s: never send secret keys; export "
		    "with gpg -a --export", secrets, secrets == 1 ? "" : "s");
		return -1;
	}
	if (first_tag != PGP_TAG_PUBLIC_KEY) {
		sub_add(r, "parse", SUB_FAIL, "the first packet is a %s, not a public key",
		    first_tag ? pgp_tag_name(first_tag) : "(none: empty input)");
		return -1;
	}
	if (pgp_certset_new(&k->set) != PGP_OK)
		return -1;
	memset(&d, 0, sizeof d);
	if ((e = pgp_certset_add(k->set, k->bin, k->len, &d)) != PGP_OK) {
		sub_add(r, "parse", SUB_FAIL, "certificate: offset %zu: %s (%s)", d.offset,
		    d.what ? d.what : "malformed", pgp_strerror(e));
		return -1;
	}
	if (pgp_certset_skipped(k->set) || pgp_certset_refused(k->set)) {
		sub_add(r, "parse", SUB_FAIL, "%zu certificate%s could not be read (primary key "
		    "unparsable or over a limit)", pgp_certset_skipped(k->set) +
		    pgp_certset_refused(k->set), pgp_certset_skipped(k->set) +
		    pgp_certset_refused(k->set) == 1 ? "" : "s");
		return -1;
	}
	sub_add(r, "parse", SUB_PASS, "%zu packets, %zu octets, nothing else in the input", npkts,
	    k->len);
	if (primaries != 1 || pgp_certset_count(k->set) != 1) {
		sub_add(r, "single", SUB_FAIL, "%zu certificates (%zu primary keys): submit exactly one "
		    "key", pgp_certset_count(k->set), primaries);
		return -1;
	}
	k->cert = pgp_certset_get(k->set, 0);
	pgp_certset_source(k->set, &k->src);
	sub_add(r, "single", SUB_PASS, "exactly one certificate");
	return 0;
}

/* ---- the key's own checks ---- */

static void
fpr_hex(char *out, const pgp_fpr *f)
{
	pgp_hex_encode(out, f->v, f->len);
}

static void
date_text(char *b, size_t n, int64_t t)
{
	pgp_time_format(b, n, t, PGP_TIME_SHORT);
}

/* "user ID \"Alice <a@example.org>\"", "subkey FPR", "direct-key signature" */
static void
what_text(char *b, size_t n, const pgp_cert *c, const pgp_selfsig *s)
{
	char esc[SUB_TEXT_MAX / 2], fpr[2 * PGP_FPR_MAX + 1];
	switch (s->on) {
	case PGP_SIGON_DIRECT:
		snprintf(b, n, "direct-key signature");
		break;
	case PGP_SIGON_UID:
		if (c->uids[s->comp].is_attr)
			snprintf(b, n, "user attribute %u binding", s->comp);
		else {
			sub_esc(esc, sizeof esc, c->uids[s->comp].data.p, c->uids[s->comp].data.len);
			snprintf(b, n, "user ID \"%s\" binding", esc);
		}
		break;
	case PGP_SIGON_SUBKEY:
		fpr_hex(fpr, &c->subs[s->comp].key.fpr);
		snprintf(b, n, "subkey %s binding", fpr);
		break;
	default:
		fpr_hex(fpr, &c->subs[s->comp].key.fpr);
		snprintf(b, n, "subkey %s back-signature (0x19)", fpr);
		break;
	}
}

static void
check_primary(sub_report *r, const pgp_cert *c, const pgp_certeval *ev, int64_t t)
{
	const pgp_keystate *ps = &ev->primary;
	char d1[32], fpr[2 * PGP_FPR_MAX + 1];

	fpr_hex(fpr, &c->primary.fpr);

	if (ps->bound) {
		date_text(d1, sizeof d1, ps->binding_time);
		sub_add(r, "primary-bound", SUB_PASS, "a valid self-signature of %s binds the primary key",
		    d1);
	} else {
		sub_add(r, "primary-bound", SUB_FAIL, "no valid self-signature binds the primary key: %s",
		    ps->reason ? ps->reason : "no valid self-signature");
	}
	if (ps->revoked || ps->status == PGP_ERR_REVOKED || ev->designated_revoked) {
		date_text(d1, sizeof d1, ps->revoked_at);
		sub_add(r, "revoked", SUB_FAIL, "the primary key is revoked (%s%s%s)",
		    ps->revoked == 1 ? "retired or superseded" : "key revocation",
		    ps->revoked_at ? " of " : "", ps->revoked_at ? d1 : "");
	} else {
		sub_add(r, "revoked", SUB_PASS, "no key revocation");
	}
	if (ev->revoker_unchecked)
		sub_add(r, "revoked", SUB_WARN, "a designated revoker's revocation could not be checked "
		    "(the revoker's key is not in the submission)");
	if (!ps->bound) {
		sub_add(r, "expired", SUB_SKIP, "no self-signature in force: the expiry is unknown");
	} else if (ps->expires && ps->expires <= t) {
		date_text(d1, sizeof d1, ps->expires);
		sub_add(r, "expired", SUB_FAIL, "the primary key expired on %s: extend it (gpg "
		    "--quick-set-expire %s 2y) and export again", d1, fpr);
	} else if (ps->expires && ps->expires - t < SUB_EXPIRY_WARN) {
		date_text(d1, sizeof d1, ps->expires);
		sub_add(r, "expired", SUB_WARN, "the primary key expires on %s, in %lld days",
		    d1, (long long)((ps->expires - t) / DAY));
	} else if (ps->expires) {
		date_text(d1, sizeof d1, ps->expires);
		sub_add(r, "expired", SUB_PASS, "not expired (expires %s)", d1);
	} else {
		sub_add(r, "expired", SUB_PASS, "not expired (no expiry)");
	}
}

static void
check_hashes(sub_report *r, const pgp_cert *c, const pgp_certeval *ev, const pgp_selfsig *ss,
    size_t nss)
{
	char what[SUB_TEXT_MAX / 2 + 64], d1[32], used[128] = "";
	size_t i, fails = 0, current = 0;

	for (i = 0; i < nss; i++) {
		const pgp_selfsig *s = &ss[i];
		int revoked_uid = s->on == PGP_SIGON_UID && ev->uids[s->comp].status == PGP_ERR_REVOKED;
		what_text(what, sizeof what, c, s);
		date_text(d1, sizeof d1, s->created);
		if (s->math != PGP_OK) {
			sub_add(r, "self-sig-hash", SUB_WARN, "%s of %s does not verify (%s): ignored", what,
			    d1, s->math_why ? s->math_why : pgp_strerror(s->math));
			continue;
		}
		if (s->current) {
			const char *h = pgp_hash_name(s->hash_algo);
			current++;
			if (strstr(used, h) == NULL && strlen(used) + strlen(h) + 3 < sizeof used) {
				if (used[0])
					strcat(used, ", ");
				strcat(used, h);
			}
		}
		if (s->hash_policy == PGP_OK)
			continue;
		if (s->current && !revoked_uid) {
			fails++;
			sub_add(r, "self-sig-hash", SUB_FAIL, "%s of %s uses %s: %s; make a new one "
			    "(gpg --quick-set-expire refreshes the self-signatures)", what, d1,
			    pgp_hash_name(s->hash_algo), s->rule ? s->rule : "refused by policy");
		} else {
			sub_add(r, "self-sig-hash", SUB_WARN, "%s of %s uses %s (%s): ignored", what, d1,
			    pgp_hash_name(s->hash_algo),
			    revoked_uid ? "the user ID is revoked" : "superseded by a newer self-signature");
		}
	}
	if (nss == 0)
		sub_add(r, "self-sig-hash", SUB_SKIP, "no self-signature to check");
	else if (!fails && current == 0)
		sub_add(r, "self-sig-hash", SUB_SKIP, "%zu self-signature%s, none in force at the "
		    "reference time", nss, nss == 1 ? "" : "s");
	else if (!fails)
		sub_add(r, "self-sig-hash", SUB_PASS, "%zu self-signature%s, the %zu in force hashed "
		    "with %s", nss, nss == 1 ? "" : "s", current, used);
}

static void
key_desc(char *b, size_t n, const pgp_key *k)
{
	snprintf(b, n, "%s %u", pgp_pk_name(k->algo), k->bits);
}

static void
check_sizes(sub_report *r, const pgp_cert *c, int64_t t, const pgp_policy *pol)
{
	char all[SUB_TEXT_MAX / 2] = "", one[64], fpr[2 * PGP_FPR_MAX + 1];
	const char *rule;
	uint32_t i;
	int fails = 0;

	for (i = 0; i <= c->nsubs; i++) {
		const pgp_key *k = i == 0 ? &c->primary : &c->subs[i - 1].key;
		key_desc(one, sizeof one, k);
		if (pgp_policy_key(pol, k, t, &rule) != PGP_OK) {
			fpr_hex(fpr, &k->fpr);
			fails++;
			sub_add(r, "key-size", SUB_FAIL, "%s %s (%s): %s", i == 0 ? "primary key" : "subkey",
			    fpr, one, rule ? rule : "refused by policy");
		}
		if (strlen(all) + strlen(one) + 3 < sizeof all) {
			if (all[0])
				strcat(all, ", ");
			strcat(all, one);
		}
	}
	if (!fails)
		sub_add(r, "key-size", SUB_PASS, "accepted key sizes: %s", all);
}

static void
check_backsigs(sub_report *r, const pgp_cert *c, const pgp_selfsig *ss, size_t nss)
{
	char fpr[2 * PGP_FPR_MAX + 1];
	size_t i, j, ok = 0, fails = 0;

	for (i = 0; i < nss; i++) {
		const pgp_selfsig *b = &ss[i], *back = NULL;
		const pgp_key *k;
		uint8_t flags;
		if (b->on != PGP_SIGON_SUBKEY || !b->current)
			continue;
		k = &c->subs[b->comp].key;
		/* without key flags (§5.2.3.29) the algorithm decides */
		flags = b->has_key_flags ? b->key_flags : (pgp_pk_can_sign(k->algo) ? PGP_KF_SIGN : 0);
		if (!(flags & PGP_KF_SIGN) || !pgp_pk_can_sign(k->algo))
			continue;
		for (j = i + 1; j < nss && ss[j].on == PGP_SIGON_BACKSIG; j++)
			back = &ss[j];
		fpr_hex(fpr, &k->fpr);
		if (back == NULL) {
			fails++;
			sub_add(r, "back-sig", SUB_FAIL, "signing subkey %s: %s (RFC 9580 §5.2.3.34): its "
			    "signatures are refused; recreate the subkey binding with a current gpg",
			    fpr, b->has_backsig ? "the embedded back-signature is malformed or not by "
			    "the subkey" : "the binding carries no back-signature (0x19)");
		} else if (back->math != PGP_OK) {
			fails++;
			sub_add(r, "back-sig", SUB_FAIL, "signing subkey %s: the back-signature does not "
			    "verify (%s)", fpr, back->math_why ? back->math_why : pgp_strerror(back->math));
		} else {
			ok++;
		}
	}
	if (fails)
		return;
	if (ok)
		sub_add(r, "back-sig", SUB_PASS, "%zu signing subkey%s with a valid back-signature", ok,
		    ok == 1 ? "" : "s");
	else
		sub_add(r, "back-sig", SUB_SKIP, "no signing-capable subkey: no back-signature needed");
}

static void
check_signing(sub_report *r, const pgp_cert *c, const pgp_certeval *ev)
{
	char list[SUB_TEXT_MAX / 2] = "", why[SUB_TEXT_MAX / 2] = "", fpr[2 * PGP_FPR_MAX + 1],
	    one[160];
	uint32_t i;
	size_t n = 0;

	for (i = 0; i <= c->nsubs; i++) {
		const pgp_key *k = i == 0 ? &c->primary : &c->subs[i - 1].key;
		const pgp_keystate *ks = i == 0 ? &ev->primary : &ev->subs[i - 1];
		int ok = ks->status == PGP_OK && ks->sign_ok && ev->primary.status == PGP_OK;
		fpr_hex(fpr, &k->fpr);
		if (ok) {
			n++;
			snprintf(one, sizeof one, "%s%s %s (%s %u)", list[0] ? ", " : "",
			    i == 0 ? "primary key" : "subkey", fpr, pgp_pk_name(k->algo), k->bits);
			if (strlen(list) + strlen(one) < sizeof list)
				strcat(list, one);
		} else if ((ks->flags & PGP_KF_SIGN) || (i == 0 && !ks->bound)) {
			const char *reason = ks->status != PGP_OK ? ks->reason : ks->sign_reason;
			if (i > 0 && ev->primary.status != PGP_OK)
				reason = "the primary key is not valid";
			snprintf(one, sizeof one, "%s%s %s: %s", why[0] ? "; " : "",
			    i == 0 ? "primary key" : "subkey", fpr, reason ? reason : "not valid");
			if (strlen(why) + strlen(one) < sizeof why)
				strcat(why, one);
		}
	}
	if (n)
		sub_add(r, "signing", SUB_PASS, "can sign: %s", list);
	else
		sub_add(r, "signing", SUB_FAIL, "no key of the certificate can make signatures%s%s",
		    why[0] ? ": " : " (no key has the signing flag)", why);
}

int
sub_check_key(sub_report *r, const sub_key *k, int64_t t, const pgp_policy *pol)
{
	pgp_certeval ev;
	pgp_selfsig *ss = NULL;
	size_t nss = 0;

	if (pgp_cert_eval(&ev, k->cert, &k->src, t, pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		cli_msg("submission check", "out of memory");
		return -1;
	}
	if (pgp_selfsigs_list(&ss, &nss, k->cert, t, pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		cli_msg("submission check", "out of memory");
		return -1;
	}
	check_primary(r, k->cert, &ev, t);
	check_hashes(r, k->cert, &ev, ss, nss);
	check_sizes(r, k->cert, t, pol);
	check_backsigs(r, k->cert, ss, nss);
	check_signing(r, k->cert, &ev);
	free(ss);
	pgp_certeval_release(&ev);
	return 0;
}

void
sub_check_email(sub_report *r, const sub_key *k, const char *addr, int64_t t,
    const pgp_policy *pol)
{
	pgp_certeval ev;
	char esc[SUB_TEXT_MAX / 2], aesc[SUB_TEXT_MAX / 4];
	int found = -1;
	uint32_t i;

	sub_esc(aesc, sizeof aesc, (const uint8_t *)addr, strlen(addr));
	if (pgp_cert_eval(&ev, k->cert, &k->src, t, pol) != PGP_OK) {
		pgp_certeval_release(&ev);
		sub_add(r, "email", SUB_FAIL, "could not evaluate the certificate (out of memory)");
		return;
	}
	for (i = 0; i < k->cert->nuids; i++) {
		const pgp_uidc *u = &k->cert->uids[i];
		pgp_view e;
		if (u->is_attr || !pgp_uid_email(u->data, &e) ||
		    pgp_email_cmp(e.p, e.len, (const uint8_t *)addr, strlen(addr)) != 0)
			continue;
		if (ev.uids[i].status == PGP_OK) {
			sub_esc(esc, sizeof esc, u->data.p, u->data.len);
			sub_add(r, "email", SUB_PASS, "user ID \"%s\" is valid", esc);
			pgp_certeval_release(&ev);
			return;
		}
		found = (int)i;
	}
	if (found >= 0) {
		sub_esc(esc, sizeof esc, k->cert->uids[found].data.p, k->cert->uids[found].data.len);
		sub_add(r, "email", SUB_FAIL, "user ID \"%s\" carries %s but is not valid: %s", esc, aesc,
		    ev.uids[found].reason ? ev.uids[found].reason : pgp_strerror(ev.uids[found].status));
	} else if (keymail_safe((const uint8_t *)addr, strlen(addr))) {
		sub_add(r, "email", SUB_FAIL, "no user ID with the address %s (add one: gpg "
		    "--quick-add-uid FPR 'Name <%s>')", aesc, aesc);
	} else {
		sub_add(r, "email", SUB_FAIL, "no user ID with the address %s", aesc);
	}
	pgp_certeval_release(&ev);
}
