/*
 * gpg_opts.c - the drop-in's option table and gpg-style argv parsing. Pure:
 * no printing, no state but the caller's gpg_opts. See gpg.h, docs/gpg.md.
 *
 * The table lists every option the drop-in uses, every command it answers
 * or refuses, and the GnuPG 2.2 options that take a value (so that value is
 * skipped, not mistaken for a file). Options not in the table are ignored
 * and take no value, whatever gpg would do with them.
 */
#include <stdlib.h>
#include <string.h>
#include "gpg.h"

#define F(n) {n, 0, GPG_OPT_FLAG, GPG_CMD_NONE}
#define V(n) {n, 0, GPG_OPT_VALUE, GPG_CMD_NONE}
#define C(n, c) {n, 0, GPG_OPT_COMMAND, c}

static const gpg_opt_def table[] = {
	/* commands answered */
	C("verify", GPG_CMD_VERIFY),
	C("import", GPG_CMD_IMPORT),
	{"list-keys", 'k', GPG_OPT_COMMAND, GPG_CMD_LIST_KEYS},
	C("list-public-keys", GPG_CMD_LIST_KEYS),
	C("fingerprint", GPG_CMD_FINGERPRINT),
	C("version", GPG_CMD_VERSION),
	{"help", 'h', GPG_OPT_COMMAND, GPG_CMD_HELP},
	/* commands refused: signing, encryption, decryption, secret keys,
	 * key management, network */
	{"sign", 's', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	{"detach-sign", 'b', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	C("clearsign", GPG_CMD_REFUSED),
	C("clear-sign", GPG_CMD_REFUSED),
	{"encrypt", 'e', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	{"symmetric", 'c', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	{"decrypt", 'd', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	C("decrypt-files", GPG_CMD_REFUSED),
	C("encrypt-files", GPG_CMD_REFUSED),
	{"list-secret-keys", 'K', GPG_OPT_COMMAND, GPG_CMD_REFUSED},
	C("export", GPG_CMD_REFUSED),
	C("export-secret-keys", GPG_CMD_REFUSED),
	C("export-secret-subkeys", GPG_CMD_REFUSED),
	C("import-ownertrust", GPG_CMD_REFUSED),
	C("export-ownertrust", GPG_CMD_REFUSED),
	C("gen-key", GPG_CMD_REFUSED),
	C("generate-key", GPG_CMD_REFUSED),
	C("full-gen-key", GPG_CMD_REFUSED),
	C("full-generate-key", GPG_CMD_REFUSED),
	C("quick-gen-key", GPG_CMD_REFUSED),
	C("quick-generate-key", GPG_CMD_REFUSED),
	C("quick-add-key", GPG_CMD_REFUSED),
	C("quick-sign-key", GPG_CMD_REFUSED),
	C("quick-lsign-key", GPG_CMD_REFUSED),
	C("sign-key", GPG_CMD_REFUSED),
	C("lsign-key", GPG_CMD_REFUSED),
	C("edit-key", GPG_CMD_REFUSED),
	C("delete-keys", GPG_CMD_REFUSED),
	C("delete-secret-keys", GPG_CMD_REFUSED),
	C("gen-revoke", GPG_CMD_REFUSED),
	C("generate-revocation", GPG_CMD_REFUSED),
	C("recv-keys", GPG_CMD_REFUSED),
	C("receive-keys", GPG_CMD_REFUSED),
	C("send-keys", GPG_CMD_REFUSED),
	C("search-keys", GPG_CMD_REFUSED),
	C("refresh-keys", GPG_CMD_REFUSED),
	C("fetch-keys", GPG_CMD_REFUSED),
	C("check-trustdb", GPG_CMD_REFUSED),
	C("update-trustdb", GPG_CMD_REFUSED),
	C("check-sigs", GPG_CMD_REFUSED),
	C("list-sigs", GPG_CMD_REFUSED),
	C("list-packets", GPG_CMD_REFUSED),
	C("store", GPG_CMD_REFUSED),
	C("verify-files", GPG_CMD_REFUSED),
	C("card-edit", GPG_CMD_REFUSED),
	C("card-status", GPG_CMD_REFUSED),
	/* value options the drop-in uses */
	V("homedir"),
	V("keyring"),
	V("status-fd"),
	{"output", 'o', GPG_OPT_VALUE, GPG_CMD_NONE},
	V("faked-system-time"),
	V("marginals-needed"),
	V("completes-needed"),
	V("max-cert-depth"),
	/* flags the drop-in uses */
	F("no-default-keyring"),
	F("with-colons"),
	F("allow-weak-digest-algos"),
	/* GnuPG value options, ignored (their value skipped) */
	{"local-user", 'u', GPG_OPT_VALUE, GPG_CMD_NONE},
	{"recipient", 'r', GPG_OPT_VALUE, GPG_CMD_NONE},
	{"hidden-recipient", 'R', GPG_OPT_VALUE, GPG_CMD_NONE},
	{"compress-level", 'z', GPG_OPT_VALUE, GPG_CMD_NONE},
	{"options", 0, GPG_OPT_VALUE, GPG_CMD_NONE},
	V("keyid-format"),
	V("default-key"),
	V("default-recipient"),
	V("encrypt-to"),
	V("hidden-encrypt-to"),
	V("group"),
	V("trust-model"),
	V("trustdb-name"),
	V("primary-keyring"),
	V("secret-keyring"),
	V("digest-algo"),
	V("cipher-algo"),
	V("compress-algo"),
	V("cert-digest-algo"),
	V("s2k-digest-algo"),
	V("s2k-cipher-algo"),
	V("s2k-mode"),
	V("s2k-count"),
	V("personal-digest-preferences"),
	V("personal-cipher-preferences"),
	V("personal-compress-preferences"),
	V("default-preference-list"),
	V("weak-digest"),
	V("logger-fd"),
	V("log-file"),
	V("logger-file"),
	V("attribute-fd"),
	V("attribute-file"),
	V("command-fd"),
	V("command-file"),
	V("passphrase"),
	V("passphrase-fd"),
	V("passphrase-file"),
	V("passphrase-repeat"),
	V("pinentry-mode"),
	V("keyserver"),
	V("keyserver-options"),
	V("auto-key-locate"),
	V("verify-options"),
	V("list-options"),
	V("import-options"),
	V("export-options"),
	V("import-filter"),
	V("export-filter"),
	V("default-sig-expire"),
	V("default-cert-expire"),
	V("default-cert-level"),
	V("min-cert-level"),
	V("ask-cert-level"),
	V("display-charset"),
	V("charset"),
	V("compliance"),
	V("trusted-key"),
	V("set-filename"),
	V("set-notation"),
	V("sig-notation"),
	V("cert-notation"),
	V("sig-policy-url"),
	V("cert-policy-url"),
	V("sig-keyserver-url"),
	V("comment"),
	V("sender"),
	V("max-output"),
	V("agent-program"),
	V("dirmngr-program"),
	V("debug"),
	V("debug-level"),
	V("request-origin"),
	V("tofu-default-policy"),
	V("tofu-policy"),
	V("known-notation"),
	V("photo-viewer"),
	V("exec-path"),
	V("load-extension"),
	V("disable-cipher-algo"),
	V("disable-pubkey-algo"),
	V("ctapi-driver"),
	V("pcsc-driver"),
	V("reader-port"),
	V("ttyname"),
	V("ttytype"),
	V("lc-ctype"),
	V("lc-messages"),
	V("xauthority"),
	V("display"),
	V("limit-card-insert-tries"),
};

#undef F
#undef V
#undef C

/* see gpg.h */
const gpg_opt_def *
gpg_opt_table(size_t *n)
{
	*n = sizeof table / sizeof table[0];
	return table;
}

/* see gpg.h */
const gpg_opt_def *
gpg_opt_find(const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strlen(table[i].name) == n && memcmp(table[i].name, name, n) == 0)
			return &table[i];
	return NULL;
}

/* see gpg.h */
const gpg_opt_def *
gpg_opt_find_short(char c)
{
	size_t i;

	for (i = 0; c != 0 && i < sizeof table / sizeof table[0]; i++)
		if (table[i].short_name == c)
			return &table[i];
	return NULL;
}

/* A small decimal number (1..255), or 0. */
static unsigned
small_number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && *end == '\0' && v >= 1 && v <= 255 ? (unsigned)v : 0;
}

/* A descriptor number: 0..2^20, or -1. */
static int
fd_number(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *s && *end == '\0' && v >= 0 && v <= (1L << 20) ? (int)v : -1;
}

static void
set_command(gpg_opts *o, const gpg_opt_def *d, const char *spelled)
{
	gpg_command c = (gpg_command)d->cmd;

	/* --list-keys and --fingerprint together list with fingerprints, as
	 * gpg does; anything else twice is a conflict */
	if ((o->cmd == GPG_CMD_LIST_KEYS && c == GPG_CMD_FINGERPRINT) ||
	    (o->cmd == GPG_CMD_FINGERPRINT && c == GPG_CMD_LIST_KEYS)) {
		o->cmd = GPG_CMD_FINGERPRINT;
		return;
	}
	/* refused commands win (-bsau: "sign" and "detach-sign" together) */
	if (c == GPG_CMD_REFUSED) {
		if (o->refused == NULL)
			o->refused = spelled;
		o->cmd = c;
		return;
	}
	if (o->cmd == GPG_CMD_REFUSED)
		return;
	if (o->cmd != GPG_CMD_NONE && o->cmd != c)
		o->conflict = 1;
	o->cmd = c;
}

/* Apply one option with its value (NULL for flags and commands). */
static void
apply(gpg_opts *o, const gpg_opt_def *d, const char *spelled, const char *val)
{
	const char *n = d->name;

	if (d->kind == GPG_OPT_COMMAND) {
		set_command(o, d, spelled);
		return;
	}
	if (strcmp(n, "no-default-keyring") == 0) {
		o->no_default_keyring = 1;
	} else if (strcmp(n, "with-colons") == 0) {
		o->with_colons = 1;
	} else if (strcmp(n, "allow-weak-digest-algos") == 0) {
		o->allow_weak_digest = 1;
	} else if (d->kind != GPG_OPT_VALUE) {
		return;
	} else if (val == NULL) {
		if (o->missing_value == NULL)
			o->missing_value = spelled;
	} else if (strcmp(n, "homedir") == 0) {
		o->homedir = val;
	} else if (strcmp(n, "keyring") == 0) {
		if (o->nkeyrings < GPG_MAX_KEYRINGS)
			o->keyrings[o->nkeyrings++] = val;
		else
			o->too_many = 1;
	} else if (strcmp(n, "status-fd") == 0) {
		if ((o->status_fd = fd_number(val)) < 0 && o->bad_number == NULL)
			o->bad_number = spelled;
	} else if (strcmp(n, "output") == 0) {
		o->output = val;
	} else if (strcmp(n, "faked-system-time") == 0) {
		o->faked_time = val;
	} else if (strcmp(n, "marginals-needed") == 0 || strcmp(n, "completes-needed") == 0 ||
	    strcmp(n, "max-cert-depth") == 0) {
		unsigned v = small_number(val);
		if (v == 0 || (n[0] == 'm' && n[1] == 'a' && n[2] == 'r' && v < 2)) {
			if (o->bad_number == NULL)
				o->bad_number = spelled;
		} else if (n[0] == 'c') {
			o->completes_needed = v;
		} else if (n[2] == 'r') {
			o->marginals_needed = v;
		} else {
			o->max_cert_depth = v;
		}
	}
}

/* see gpg.h */
void
gpg_opts_parse(gpg_opts *o, int argc, char **argv)
{
	int i;

	memset(o, 0, sizeof *o);
	o->status_fd = -1;
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--") == 0) {
			for (i++; i < argc; i++) {
				if (o->nargs < GPG_MAX_ARGS)
					o->args[o->nargs++] = argv[i];
				else
					o->too_many = 1;
			}
			break;
		}
		if (a[0] == '-' && a[1] == '-') {
			const char *name = a + 2, *eq = strchr(name, '=');
			size_t n = eq ? (size_t)(eq - name) : strlen(name);
			const gpg_opt_def *d = gpg_opt_find(name, n);
			const char *val = NULL;
			if (d == NULL)
				continue;        /* unknown: ignored, takes no value */
			if (d->kind == GPG_OPT_VALUE) {
				if (eq)
					val = eq + 1;
				else if (i + 1 < argc)
					val = argv[++i];
			}
			apply(o, d, a, val);
		} else if (a[0] == '-' && a[1] != '\0') {
			/* a cluster of short options: "-bsau KEY", "-o-" */
			const char *p;
			for (p = a + 1; *p; p++) {
				const gpg_opt_def *d = gpg_opt_find_short(*p);
				if (d == NULL)
					continue;
				if (d->kind == GPG_OPT_VALUE) {
					const char *val = p[1] ? p + 1 : (i + 1 < argc ? argv[++i] : NULL);
					apply(o, d, a, val);
					break;
				}
				apply(o, d, a, NULL);
			}
		} else if (o->nargs < GPG_MAX_ARGS) {
			o->args[o->nargs++] = a;
		} else {
			o->too_many = 1;
		}
	}
}
