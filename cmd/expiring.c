/*
 * expiring.c - `wotkit expiring [--keyring K]... [--at TIME] [--within DURATION]
 * [--all-expired] [--allow-sha1] [--json | --mail-template]`: the primary keys
 * and signing subkeys of a keyring that expire within the window after the
 * reference time, or expired within the same window before it, each with its
 * owner's address and the exact commands to extend the expiry and resubmit
 * the key to pgpkeys.git (docs/expiring.md).
 *
 * Expiry is evaluation's (pgp/eval.h: the Key Expiration Time of the
 * self-signatures in force at t, RFC 9580 §5.2.3.13), so a key whose expiry
 * was extended by a newer self-signature is judged by the new one. A revoked
 * certificate or subkey is not "expiring": it is skipped and counted.
 * Exit 1 when anything is listed, 0 when nothing, 2 usage or I/O errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "keymail.h"
#include "out.h"
#include "keyring/kr.h"
#include "pgp/pgp.h"

#define DAY 86400
#define EXPIRING_MAX_KEYRINGS 64
/* the longest window: 100 years */

static const char usage_text[] =
    "usage: wotkit expiring [--keyring K]... [--at TIME] [--within DURATION] [--all-expired]\n"
    "                       [--allow-sha1] [--json | --mail-template]\n"
    "  DURATION: N (days), Nd, Nw (weeks), Nm (30 days), Ny (365 days); default 30d\n";

typedef struct item {
	const pgp_cert *cert;
	int sub;              /* subkey index, -1 for the primary key */
	int64_t expires;
	int uid;              /* index of the owner's user ID, -1 none */
} item;

typedef struct opts {
	int64_t t, window;
	int all_expired, json, mail;
} opts;

/* Whether expiry e is reported at o->t: within (t - window, t + window],
 * or any time up to t + window with --all-expired. */
static int
in_window(const opts *o, int64_t e)
{
	if (e == 0 || e > o->t + o->window)
		return 0;
	return o->all_expired || e > o->t - o->window;
}

static int
signs(const pgp_key *k, const pgp_keystate *ks)
{
	return (ks->flags & PGP_KF_SIGN) && pgp_pk_can_sign(k->algo);
}

/* Another signing key of the certificate valid at t and still after the
 * window (a rotated subkey): then an expiring signing subkey is not listed. */
static int
has_lasting_signer(const pgp_cert *c, const pgp_certeval *ev, int except, const opts *o)
{
	uint32_t i;
	if (ev->primary.status == PGP_OK && ev->primary.sign_ok &&
	    (ev->primary.expires == 0 || ev->primary.expires > o->t + o->window))
		return 1;
	for (i = 0; i < c->nsubs; i++) {
		const pgp_keystate *ks = &ev->subs[i];
		if ((int)i == except || ks->status != PGP_OK || !ks->sign_ok)
			continue;
		if (ks->expires == 0 || ks->expires > o->t + o->window)
			return 1;
	}
	return 0;
}

/* The items of one certificate; counts revoked ones it skips. -1: no memory. */
static int
collect(const pgp_cert *c, const pgp_certeval *ev, const opts *o, item **v, size_t *n,
    size_t *cap, size_t *revoked)
{
	const pgp_keystate *ps = &ev->primary;
	int uid = -1;
	uint32_t i;
	int primary_listed;

	if (ps->status == PGP_ERR_REVOKED || ps->revoked) {
		++*revoked;
		return 0;
	}
	if (!ps->bound)
		return 0;  /* no valid self-signature: not a key anyone can extend */
	uid = ev->primary_uid >= 0 ? ev->primary_uid : -1;
	if (uid < 0) {
		for (i = 0; i < c->nuids && uid < 0; i++)
			if (!c->uids[i].is_attr && ev->uids[i].status != PGP_ERR_REVOKED)
				uid = (int)i;
	}
	primary_listed = in_window(o, ps->expires);
	/* a primary key that expired before the window: the certificate is
	 * gone, and so are its subkeys (--all-expired lists it above) */
	if (ps->expires && ps->expires <= o->t && !primary_listed)
		return 0;
	for (i = 0; i <= c->nsubs; i++) {
		int sub = i == 0 ? -1 : (int)i - 1;
		int64_t e;
		if (sub < 0) {
			if (!primary_listed)
				continue;
			e = ps->expires;
		} else {
			const pgp_keystate *ks = &ev->subs[sub];
			if (!ks->bound || !signs(&c->subs[sub].key, ks))
				continue;
			if (ks->revoked) {
				++*revoked;
				continue;
			}
			if (!in_window(o, ks->expires) || has_lasting_signer(c, ev, sub, o))
				continue;
			e = ks->expires;
		}
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 16;
			item *nv = realloc(*v, ncap * sizeof *nv);
			if (nv == NULL)
				return -1;
			*v = nv;
			*cap = ncap;
		}
		(*v)[*n].cert = c;
		(*v)[*n].sub = sub;
		(*v)[*n].expires = e;
		(*v)[*n].uid = uid;
		++*n;
	}
	return 0;
}

static int
item_cmp(const void *a, const void *b)
{
	const item *p = a, *q = b;
	int r;
	if (p->expires != q->expires)
		return p->expires < q->expires ? -1 : 1;
	r = memcmp(p->cert->primary.fpr.v, q->cert->primary.fpr.v, p->cert->primary.fpr.len);
	if (r != 0)
		return r;
	return p->sub < q->sub ? -1 : p->sub > q->sub;
}

static const pgp_key *
item_key(const item *it)
{
	return it->sub < 0 ? &it->cert->primary : &it->cert->subs[it->sub].key;
}

/* Whole days from t to e, rounded towards zero. */
static long long
days_between(int64_t t, int64_t e)
{
	return (long long)((e - t) / DAY);
}

static void
days_text(char *b, size_t n, int64_t t, int64_t e)
{
	long long d = days_between(t, e);
	if (e > t)
		snprintf(b, n, "in %lld day%s", d, d == 1 ? "" : "s");
	else
		snprintf(b, n, "%lld day%s ago", -d, d == -1 ? "" : "s");
}

/* The commands, one per line into cmds[3] (RFC-free: gpg 2.2's options). */
static void
commands(const item *it, char cmds[3][1024])
{
	char fpr[2 * PGP_FPR_MAX + 1], sfpr[2 * PGP_FPR_MAX + 1], addr[KEYMAIL_MAX + 1];
	const char *who;
	keymail_fpr_hex(&it->cert->primary.fpr, fpr);
	if (it->sub < 0) {
		snprintf(cmds[0], sizeof cmds[0], "gpg --quick-set-expire %s 2y", fpr);
	} else {
		keymail_fpr_hex(&it->cert->subs[it->sub].key.fpr, sfpr);
		snprintf(cmds[0], sizeof cmds[0], "gpg --quick-set-expire %s 2y %s", fpr, sfpr);
	}
	who = keymail_of_uid(it->cert, it->uid, addr) ? addr : fpr;
	snprintf(cmds[1], sizeof cmds[1], "gpg -a --export %s | mail -s %s keys@linux.kernel.org",
	    who, who);
	cmds[2][0] = '\0';
}

static void
uid_view(const item *it, pgp_view *u)
{
	static const uint8_t none[] = "";
	if (it->uid >= 0) {
		*u = it->cert->uids[it->uid].data;
	} else {
		u->p = none;
		u->len = 0;
	}
}

static void
human(const item *it, const opts *o)
{
	char fpr[2 * PGP_FPR_MAX + 1], kid[17], when[32], rel[48], cmds[3][1024],
	    addr[KEYMAIL_MAX + 1];
	const pgp_key *k = item_key(it);
	pgp_view u;

	keymail_fpr_hex(&it->cert->primary.fpr, fpr);
	pgp_hex_encode(kid, k->keyid, 8);
	pgp_time_format(when, sizeof when, it->expires, 0);
	days_text(rel, sizeof rel, o->t, it->expires);
	commands(it, cmds);
	uid_view(it, &u);
	printf("%s %s %s", it->expires <= o->t ? "expired" : "expiring",
	    it->sub < 0 ? "primary" : "subkey", fpr);
	if (it->sub >= 0) {
		char sfpr[2 * PGP_FPR_MAX + 1];
		keymail_fpr_hex(&k->fpr, sfpr);
		printf("/%s", sfpr);
	}
	putchar('\n');
	printf("  key ID:  %s%s\n", kid, it->sub < 0 ? "" : " (signing subkey)");
	fputs("  owner:   \"", stdout);
	out_esc_human(stdout, u.p, u.len);
	fputs("\"\n", stdout);
	if (keymail_of_uid(it->cert, it->uid, addr))
		printf("  e-mail:  %s\n", addr);
	else
		puts("  e-mail:  (none usable in a command: the commands name the fingerprint)");
	printf("  %s: %s (%s)\n", it->expires <= o->t ? "expired" : "expires", when, rel);
	printf("  extend:  %s\n", cmds[0]);
	printf("  submit:  %s\n\n", cmds[1]);
}

static void
json_item(out_ctx *oc, const item *it, const opts *o)
{
	char cmds[3][1024], addr[KEYMAIL_MAX + 1];
	const char *list[2];
	const pgp_key *k = item_key(it);
	pgp_view u;

	commands(it, cmds);
	uid_view(it, &u);
	out_open(oc, NULL, NULL);
	out_text(oc, "kind", "%s", it->sub < 0 ? "primary" : "subkey");
	out_text(oc, "state", "%s", it->expires <= o->t ? "expired" : "expiring");
	out_hex(oc, "primary_fingerprint", it->cert->primary.fpr.v, it->cert->primary.fpr.len, 0);
	out_hex(oc, "fingerprint", k->fpr.v, k->fpr.len, 0);
	out_hex(oc, "keyid", k->keyid, 8, 0);
	if (it->uid >= 0)
		out_str(oc, "uid", u.p, u.len);
	else
		out_null(oc, "uid");
	if (keymail_of_uid(it->cert, it->uid, addr))
		out_str0(oc, "email", addr);
	else
		out_null(oc, "email");
	out_time(oc, "expires", it->expires);
	out_int(oc, "days", days_between(o->t, it->expires));
	list[0] = cmds[0];
	list[1] = cmds[1];
	out_list(oc, "commands", list, 2);
	out_close(oc);
}

/* An mbox message per key (RFC 4155): the owner's notification. */
static void
mail(const item *it, const opts *o)
{
	char fpr[2 * PGP_FPR_MAX + 1], when[32], rel[48], cmds[3][1024], addr[KEYMAIL_MAX + 1],
	    at[32];
	const pgp_key *k = item_key(it);
	int expired = it->expires <= o->t;
	pgp_view u;

	keymail_fpr_hex(&k->fpr, fpr);
	pgp_time_format(when, sizeof when, it->expires, PGP_TIME_SHORT);
	pgp_time_format(at, sizeof at, o->t, 0);
	days_text(rel, sizeof rel, o->t, it->expires);
	commands(it, cmds);
	uid_view(it, &u);
	printf("From wotkit-expiring %s\n", at);
	fputs("To: ", stdout);
	if (keymail_of_uid(it->cert, it->uid, addr))
		printf("%s\n", addr);
	else
		puts("(no usable address: see the user ID below)");
	printf("Subject: Your OpenPGP %s %s %s on %s\n\n", it->sub < 0 ? "key" : "signing subkey",
	    fpr, expired ? "expired" : "expires", when);
	puts("Hello,\n");
	printf("the OpenPGP %s\n\n    %s\n    \"", it->sub < 0 ? "key" : "signing subkey", fpr);
	out_esc_plain(stdout, u.p, u.len);
	printf("\"\n\n%s on %s (%s). Until its expiry is extended and the key\n"
	    "resubmitted, signatures made with it can no longer be verified against the\n"
	    "keyring.\n\n", expired ? "expired" : "expires", when, rel);
	puts("To extend it by two years and send the updated key to the keyring:\n");
	printf("    %s\n    %s\n\n", cmds[0], cmds[1]);
	puts("(Extending the expiry needs the secret primary key: if it is kept offline,\n"
	    "run the first command where it is.)\n");
	puts("Thank you.\n");
}

static int
open_ring(certs_ring *ring, const char **paths, size_t n, char *defpath, size_t dn)
{
	if (n == 0) {
		if (certs_default_keyring(defpath, dn) != 0 || access(defpath, R_OK) != 0) {
			cli_msg("expiring", "no --keyring given (and no keyring at $WOTKIT_KEYRING or "
			    "the default location)");
			return -1;
		}
		paths[0] = defpath;
		n = 1;
	}
	return certs_ring_open(ring, paths, n, 0);
}

int
cmd_expiring(int argc, char **argv)
{
	const char *paths[EXPIRING_MAX_KEYRINGS], *val;
	char defpath[4096];
	size_t npaths = 0, ncerts, c, n = 0, cap = 0, revoked = 0, i;
	int a, allow_sha1 = 0, rc = EXIT_USAGE;
	int64_t now = (int64_t)time(NULL);
	certs_ring ring;
	pgp_policy pol;
	item *v = NULL;
	opts o;

	memset(&o, 0, sizeof o);
	o.t = now;
	o.window = 30 * DAY;
	for (a = 1; a < argc; a++) {
		if (cli_opt_value(argc, argv, &a, "--keyring", &val)) {
			if (!val || npaths == EXPIRING_MAX_KEYRINGS)
				goto usage;
			paths[npaths++] = val;
		} else if (cli_opt_value(argc, argv, &a, "--at", &val)) {
			if (!val || cli_parse_time(val, now, &o.t) != 0) {
				cli_msg("expiring", "bad time '%s'", val ? val : "");
				return EXIT_USAGE;
			}
		} else if (cli_opt_value(argc, argv, &a, "--within", &val)) {
			if (!val || cli_parse_duration(val, &o.window) != 0) {
				cli_msg("expiring", "bad duration '%s' (N, Nd, Nw, Nm, Ny; at most 100y)",
				    val ? val : "");
				return EXIT_USAGE;
			}
		} else if (strcmp(argv[a], "--all-expired") == 0) {
			o.all_expired = 1;
		} else if (strcmp(argv[a], "--allow-sha1") == 0) {
			allow_sha1 = 1;
		} else if (strcmp(argv[a], "--json") == 0) {
			o.json = 1;
		} else if (strcmp(argv[a], "--mail-template") == 0) {
			o.mail = 1;
		} else {
			goto usage;
		}
	}
	if (o.json && o.mail)
		goto usage;
	if (open_ring(&ring, paths, npaths, defpath, sizeof defpath) != 0)
		return EXIT_USAGE;
	pgp_policy_init(&pol);
	if (allow_sha1)
		pgp_policy_allow_hash(&pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	ncerts = ring.kr ? kr_count(ring.kr) : pgp_certset_count(ring.set);
	for (c = 0; c < ncerts; c++) {
		const pgp_cert *cert = ring.kr ? NULL : pgp_certset_get(ring.set, c);
		pgp_certeval ev;
		pgp_err e;
		if (ring.kr && (e = kr_cert(ring.kr, c, &cert)) != PGP_OK) {
			cli_report(ring.name, e, kr_last_error(ring.kr));
			goto out;
		}
		if (pgp_cert_eval(&ev, cert, &ring.src, o.t, &pol) != PGP_OK) {
			pgp_certeval_release(&ev);
			cli_msg("expiring", "out of memory");
			goto out;
		}
		e = collect(cert, &ev, &o, &v, &n, &cap, &revoked) == 0 ? PGP_OK : PGP_ERR_NOMEM;
		pgp_certeval_release(&ev);
		if (e != PGP_OK) {
			cli_msg("expiring", "out of memory");
			goto out;
		}
	}
	if (n > 1)
		qsort(v, n, sizeof *v, item_cmp);
	if (o.json) {
		out_ctx oc;
		out_init(&oc, stdout, 1);
		out_open(&oc, NULL, NULL);
		out_time(&oc, "at", o.t);
		out_int(&oc, "within_seconds", o.window);
		out_bool(&oc, "all_expired", o.all_expired);
		out_int(&oc, "certificates", (long long)ncerts);
		out_int(&oc, "revoked_skipped", (long long)revoked);
		out_arr_open(&oc, "keys");
		for (i = 0; i < n; i++)
			json_item(&oc, &v[i], &o);
		out_arr_close(&oc);
		out_close(&oc);
		out_finish(&oc);
	} else if (o.mail) {
		for (i = 0; i < n; i++)
			mail(&v[i], &o);
	} else {
		char at[32];
		for (i = 0; i < n; i++)
			human(&v[i], &o);
		pgp_time_format(at, sizeof at, o.t, 0);
		printf("%zu key%s %s within %lld days of %s (%zu certificates; revoked, so not expiring: %zu"
		    ")\n", n, n == 1 ? "" : "s",
		    o.all_expired ? "expiring, or expired at any time," : "expiring or expired",
		    (long long)(o.window / DAY), at, ncerts, revoked);
	}
	rc = n ? EXIT_FAIL : EXIT_OK;
out:
	free(v);
	certs_ring_close(&ring);
	return rc;
usage:
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}
