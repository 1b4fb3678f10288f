/*
 * gpg_import.c - `--import [FILE...]` of the drop-in (patatt: the armored
 * key on stdin, `--homedir TMP --no-default-keyring --keyring pub
 * --status-fd=1`, then it reads TMP/pub back). Certificates, armored or
 * binary, are merged (pgp_certset: copies of one key united, as GnuPG's
 * import does) into the first keyring, a raw keyring file of binary
 * transferable public keys (RFC 9580 §10.1), replaced atomically
 * (cmd/atomic.c). A wotkit keyring file, or a GnuPG keybox, is refused:
 * `wotkit keyring build` makes the former. Status and human lines are
 * GnuPG 2.2.40's: IMPORTED, IMPORT_OK (0 unchanged, 1 new key, 2 new user
 * IDs, 4 new signatures, 8 new subkeys), IMPORT_RES, and the
 * "gpg: key KEYID: ..." lines with the summary. Exit 0, or 2 when the
 * input held no key or the keyring could not be written.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "gpg.h"
#include "atomic.h"
#include "keyring/kr.h"

/* Largest keyring file written (the whole file is built in memory). */
#define GPG_IMPORT_MAX_FILE ((size_t)1 << 30)

typedef struct counts {
	uint32_t uids, subs, sigs;
} counts;

static counts
count(const pgp_cert *c)
{
	counts n = {0, 0, 0};
	uint32_t j;

	n.uids = c->nuids;
	n.subs = c->nsubs;
	n.sigs = c->ndsigs + c->nloose;
	for (j = 0; j < c->nuids; j++)
		n.sigs += c->uids[j].nsigs;
	for (j = 0; j < c->nsubs; j++)
		n.sigs += c->subs[j].nsigs;
	return n;
}

/* gpg's primary user ID of c (or its first one). */
static pgp_view
primary_uid(const pgp_cert *c, int64_t now, const pgp_policy *pol)
{
	pgp_view v = {(const uint8_t *)"", 0};
	pgp_certeval ev;
	uint32_t j;

	int p = -1;

	if (pgp_cert_eval(&ev, c, NULL, now, pol) == PGP_OK)
		p = gpg_primary_uid(c, &ev);
	if (p >= 0)
		v = c->uids[p].data;
	else
		for (j = 0; j < c->nuids; j++)
			if (!c->uids[j].is_attr) {
				v = c->uids[j].data;
				break;
			}
	pgp_certeval_release(&ev);
	return v;
}

static const pgp_cert *
find_fpr(const pgp_certset *s, const pgp_fpr *f)
{
	const pgp_cert *out[4];
	pgp_certq q;
	size_t total = 0, i;

	q.kind = PGP_CERTQ_FPR;
	q.p = f->v;
	q.len = f->len;
	if (pgp_certset_find(s, &q, out, 4, &total) != PGP_OK)
		return NULL;
	for (i = 0; i < total && i < 4; i++)
		if (out[i]->primary.fpr.len == f->len && memcmp(out[i]->primary.fpr.v, f->v, f->len) == 0)
			return out[i];
	return NULL;
}

/* Add one input (file or "-") to both sets. 0, or -1 after a message. */
static int
add_input(pgp_certset *in, pgp_certset *all, cli_file *f, const char *name)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;

	if (cli_file_open(f, name) != 0)
		return -1;
	if (kr_is_keyring(f->p, f->len)) {
		gpg_say("%s: a wotkit keyring file is not an import source; use wotkit keyring "
		    "export", name);
		return -1;
	}
	if ((e = certs_add_mem(in, f->p, f->len, &d)) != PGP_OK ||
	    (e = certs_add_mem(all, f->p, f->len, &d)) != PGP_OK) {
		gpg_say("%s: no valid OpenPGP data found (%s at offset %zu)", name, pgp_strerror(e),
		    d.offset);
		return -1;
	}
	return 0;
}

/* 1 for a GnuPG keybox file ("KBXf" in its first blob). */
static int
is_keybox(const uint8_t *p, size_t len)
{
	return len >= 12 && memcmp(p + 8, "KBXf", 4) == 0;
}

static int
write_keyring(const char *path, const pgp_certset *all)
{
	pgp_buf b;
	cli_atomic a;
	size_t i, n = pgp_certset_count(all);
	int ok;

	pgp_buf_init(&b, GPG_IMPORT_MAX_FILE);
	for (i = 0; i < n; i++)
		if (pgp_cert_write(&b, pgp_certset_get(all, i), NULL, NULL) != PGP_OK) {
			pgp_buf_free(&b);
			gpg_say("%s: cannot write the keyring (too large, or out of memory)", path);
			return -1;
		}
	if (cli_atomic_open(&a, path) != 0) {
		pgp_buf_free(&b);
		return -1;
	}
	ok = b.len == 0 || fwrite(b.p, 1, b.len, a.f) == b.len;
	pgp_buf_free(&b);
	return cli_atomic_close(&a, path, ok, 1);
}

int
gpg_cmd_import(gpg_run *r)
{
	const char *target;
	cli_file old = {0}, inputs[GPG_MAX_ARGS + 1];
	pgp_certset *in = NULL, *all = NULL;
	counts *before = NULL;
	pgp_diag d = {0, -1, NULL};
	size_t i, n, nold = 0, nin = 0;
	unsigned long processed = 0, imported = 0, unchanged = 0, new_uids = 0, new_subs = 0,
	    new_sigs = 0;
	int rc = 2, changed = 0, exists;
	char *text = NULL;

	memset(inputs, 0, sizeof inputs);
	if (r->npaths == 0) {
		gpg_say("no keyring to import into: give --keyring FILE");
		return 2;
	}
	target = r->paths[0];
	exists = access(target, F_OK) == 0;
	if (exists && cli_file_open(&old, target) != 0)
		return 2;
	if (kr_is_keyring(old.p, old.len)) {
		gpg_say("%s is a wotkit keyring file: it is built, not imported into "
		    "(wotkit keyring build); give --keyring FILE for a raw keyring", target);
		goto out;
	}
	if (is_keybox(old.p, old.len)) {
		gpg_say("%s is a GnuPG keybox: wotkit-gpg imports into raw OpenPGP keyring files "
		    "only", target);
		goto out;
	}
	if (pgp_certset_new(&in) != PGP_OK || pgp_certset_new(&all) != PGP_OK ||
	    (text = malloc(3 * 65536 + 1)) == NULL)
		goto out;
	if (old.len && certs_add_mem(all, old.p, old.len, &d) != PGP_OK) {
		gpg_say("%s: keyring is damaged at offset %zu: not imported into", target, d.offset);
		goto out;
	}
	nold = pgp_certset_count(all);
	if ((before = calloc(nold ? nold : 1, sizeof *before)) == NULL)
		goto out;
	for (i = 0; i < nold; i++)
		before[i] = count(pgp_certset_get(all, i));
	if (r->o.nargs == 0) {
		if (add_input(in, all, &inputs[nin++], "-") != 0)
			goto out;
	}
	for (i = 0; i < r->o.nargs; i++)
		if (add_input(in, all, &inputs[nin++], r->o.args[i]) != 0)
			goto out;
	n = pgp_certset_count(in);
	for (i = 0; i < n; i++) {
		const pgp_cert *c = pgp_certset_get(in, i), *m = find_fpr(all, &c->primary.fpr);
		char kid[17], fpr[2 * PGP_FPR_MAX + 1];
		pgp_view uid;
		size_t k;
		counts now, was = {0, 0, 0};
		int isnew = 1;
		unsigned flags = 0;

		if (m == NULL)
			continue;
		processed++;
		for (k = 0; k < nold; k++)
			if (pgp_certset_get(all, k)->primary.fpr.len == c->primary.fpr.len &&
			    memcmp(pgp_certset_get(all, k)->primary.fpr.v, c->primary.fpr.v,
			    c->primary.fpr.len) == 0) {
				was = before[k];
				isnew = 0;
				break;
			}
		now = count(m);
		gpg_fmt_keyid(kid, &c->primary.fpr);
		gpg_fmt_fpr(fpr, sizeof fpr, &c->primary.fpr);
		uid = primary_uid(m, r->now, &r->pol);
		gpg_status(r, "KEY_CONSIDERED %s 0", fpr);
		if (isnew) {
			imported++;
			changed = 1;
			gpg_esc_human(text, 3 * 65536 + 1, uid.p, uid.len);
			gpg_say("key %s: public key \"%s\" imported", kid, text);
			gpg_esc_imported(text, 3 * 65536 + 1, uid.p, uid.len);
			gpg_status(r, "IMPORTED %s %s", kid, text);
			gpg_status(r, "IMPORT_OK 1 %s", fpr);
			continue;
		}
		if (now.uids > was.uids)
			flags |= 2;
		if (now.sigs > was.sigs)
			flags |= 4;
		if (now.subs > was.subs)
			flags |= 8;
		gpg_status(r, "IMPORT_OK %u %s", flags, fpr);
		gpg_esc_human(text, 3 * 65536 + 1, uid.p, uid.len);
		if (flags == 0) {
			unchanged++;
			gpg_say("key %s: \"%s\" not changed", kid, text);
			continue;
		}
		changed = 1;
		if (now.uids > was.uids) {
			gpg_say("key %s: \"%s\" %u new user ID%s", kid, text, now.uids - was.uids,
			    now.uids - was.uids == 1 ? "" : "s");
			new_uids += now.uids - was.uids;
		}
		if (now.sigs > was.sigs) {
			gpg_say("key %s: \"%s\" %u new signature%s", kid, text, now.sigs - was.sigs,
			    now.sigs - was.sigs == 1 ? "" : "s");
			new_sigs += now.sigs - was.sigs;
		}
		if (now.subs > was.subs) {
			gpg_say("key %s: \"%s\" %u new subkey%s", kid, text, now.subs - was.subs,
			    now.subs - was.subs == 1 ? "" : "s");
			new_subs += now.subs - was.subs;
		}
	}
	if (processed == 0) {
		gpg_say("no valid OpenPGP data found.");
		gpg_status(r, "NODATA 1");
	}
	gpg_say("Total number processed: %lu", processed);
	if (imported)
		gpg_say("              imported: %lu", imported);
	if (unchanged)
		gpg_say("             unchanged: %lu", unchanged);
	if (new_uids)
		gpg_say("          new user IDs: %lu", new_uids);
	if (new_subs)
		gpg_say("           new subkeys: %lu", new_subs);
	if (new_sigs)
		gpg_say("        new signatures: %lu", new_sigs);
	gpg_status(r, "IMPORT_RES %lu 0 %lu 0 %lu %lu %lu %lu 0 0 0 0 0 0 0", processed, imported,
	    unchanged, new_uids, new_subs, new_sigs);
	if ((changed || !exists) && write_keyring(target, all) != 0)
		goto out;
	rc = processed ? 0 : 2;
out:
	for (i = 0; i < nin; i++)
		cli_file_close(&inputs[i]);
	free(before);
	free(text);
	pgp_certset_free(in);
	pgp_certset_free(all);
	cli_file_close(&old);
	return rc;
}
