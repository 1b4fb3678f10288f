/*
 * gpg.c - `wotkit gpg ARGS` and `wotkit-gpg ARGS`: the gpg drop-in's entry
 * point. Parses the command line as gpg does (gpg_opts.c), picks the
 * keyrings, refuses what needs secret keys, and runs --verify, --import or
 * a --with-colons listing. docs/gpg.md is the contract; gpg.h the map.
 *
 * Keyrings: every --keyring FILE (a name without '/' is under --homedir,
 * else $GNUPGHOME, else ~/.gnupg, as gpg resolves it; "~/" is $HOME), else
 * $WOTKIT_KEYRING, else the XDG default (certs_default_keyring).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gpg.h"
#include "cmds.h"

static void
usage(void)
{
	gpg_raw("usage: wotkit-gpg [options] --verify SIGFILE [DATAFILE|-]\n"
	    "       wotkit-gpg [options] --verify [--output FILE] [MESSAGE]\n"
	    "       wotkit-gpg [options] --import [FILE...]\n"
	    "       wotkit-gpg [options] --with-colons --list-keys|--fingerprint [KEY...]\n"
	    "options: --status-fd N, --keyring FILE, --homedir DIR, --no-default-keyring,\n"
	    "         --faked-system-time T, --allow-weak-digest-algos; others are ignored.\n"
	    "A GnuPG-compatible front end of wotkit (docs/gpg.md): no secret keys, so no\n"
	    "signing, encryption or decryption.\n");
}

/* gpg's home directory: --homedir, $GNUPGHOME, ~/.gnupg. */
static int
homedir(const gpg_opts *o, char *buf, size_t n)
{
	const char *g = getenv("GNUPGHOME"), *h = getenv("HOME");
	int l;

	if (o->homedir)
		l = snprintf(buf, n, "%s", o->homedir);
	else if (g && *g)
		l = snprintf(buf, n, "%s", g);
	else if (h && *h)
		l = snprintf(buf, n, "%s/.gnupg", h);
	else
		return -1;
	return l > 0 && (size_t)l < n ? 0 : -1;
}

static int
resolve_keyrings(gpg_run *r)
{
	char home[GPG_MAX_PATH];
	size_t i;
	int l;

	for (i = 0; i < r->o.nkeyrings; i++) {
		const char *k = r->o.keyrings[i], *h = getenv("HOME");
		char *dst = r->pathbuf[r->npaths];
		if (k[0] == '~' && k[1] == '/' && h && *h) {
			l = snprintf(dst, GPG_MAX_PATH, "%s%s", h, k + 1);
		} else if (strchr(k, '/') != NULL) {
			l = snprintf(dst, GPG_MAX_PATH, "%s", k);
		} else {
			if (homedir(&r->o, home, sizeof home) != 0) {
				gpg_say("no home directory for keyring '%s'", k);
				return -1;
			}
			l = snprintf(dst, GPG_MAX_PATH, "%s/%s", home, k);
		}
		if (l <= 0 || l >= GPG_MAX_PATH) {
			gpg_say("keyring name too long");
			return -1;
		}
		r->paths[r->npaths++] = dst;
	}
	if (r->npaths == 0 && !r->o.no_default_keyring) {
		if (certs_default_keyring(r->pathbuf[0], GPG_MAX_PATH) != 0) {
			gpg_say("no keyring: give --keyring FILE or set WOTKIT_KEYRING");
			return -1;
		}
		r->paths[r->npaths++] = r->pathbuf[0];
	}
	return 0;
}

int
cmd_gpg(int argc, char **argv)
{
	gpg_run *r = calloc(1, sizeof *r);
	int rc = 2;

	if (r == NULL)
		return 2;
	gpg_opts_parse(&r->o, argc, argv);
	r->status_fd = r->o.status_fd;
	r->now = (int64_t)time(NULL);
	if (r->o.missing_value) {
		gpg_say("option \"%s\" requires a value", r->o.missing_value);
		goto out;
	}
	if (r->o.bad_number) {
		gpg_say("invalid value for option \"%s\"", r->o.bad_number);
		goto out;
	}
	if (r->o.too_many) {
		gpg_say("too many keyrings or arguments (at most %d and %d)", GPG_MAX_KEYRINGS,
		    GPG_MAX_ARGS);
		goto out;
	}
	if (r->o.faked_time && gpg_parse_faked_time(r->o.faked_time, &r->now) != 0) {
		gpg_say("invalid value for option \"--faked-system-time\"");
		goto out;
	}
	if (r->o.cmd == GPG_CMD_REFUSED) {
		gpg_say("wotkit-gpg: %s is not supported: wotkit verifies only (no secret keys: "
		    "no signing, encryption, decryption or key management); see docs/gpg.md",
		    r->o.refused);
		goto out;
	}
	if (r->o.conflict) {
		gpg_say("conflicting commands");
		goto out;
	}
	pgp_policy_init(&r->pol);
	if (r->o.allow_weak_digest) {
		pgp_policy_allow_hash(&r->pol, PGP_HASH_SHA1, PGP_USE_COLLISION);
		pgp_policy_allow_hash(&r->pol, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	}
	switch (r->o.cmd) {
	case GPG_CMD_VERSION:
		printf("gpg (GnuPG) %s\nwotkit-gpg: the gpg drop-in of wotkit (verification only)\n",
		    GPG_COMPAT_VERSION);
		rc = fflush(stdout) == 0 ? 0 : 2;
		goto out;
	case GPG_CMD_HELP:
		usage();
		rc = 0;
		goto out;
	case GPG_CMD_NONE:
		/* gpg without a command guesses from the input; the drop-in
		 * only verifies: a signature or signed message is verified */
		if (r->o.nargs == 0 && r->o.status_fd < 0 && r->o.output == NULL) {
			usage();
			goto out;
		}
		break;
	default:
		break;
	}
	if (resolve_keyrings(r) != 0)
		goto out;
	switch (r->o.cmd) {
	case GPG_CMD_IMPORT:
		rc = gpg_cmd_import(r);
		break;
	case GPG_CMD_LIST_KEYS:
		rc = gpg_cmd_list(r, 0);
		break;
	case GPG_CMD_FINGERPRINT:
		rc = gpg_cmd_list(r, 1);
		break;
	default:
		rc = gpg_cmd_verify(r);
		break;
	}
out:
	free(r);
	return rc;
}
