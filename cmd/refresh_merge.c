/*
 * refresh_merge.c - the keyring after a refresh: the keys of the pgpkeys
 * tree at the accepted tip (read from the object database through
 * wotkit-git, krsrc "git:DIR" at the tip's id: nothing of a working tree is
 * used) merged by fingerprint with the certificates of the current keyring
 * (pgp_certset merges copies as GnuPG's import does). Merge-only (the
 * default, as `gpg --import-options merge-only`) takes from the tip only
 * the certificates whose primary fingerprint is already in the keyring;
 * --all takes every one. The set is then stripped and serialized exactly as
 * `keyring build` does (krbuild.c), with the keyring's recorded root.
 * see refresh.h
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "krbuild.h"
#include "krsrc.h"
#include "refresh.h"

void
rf_merged_free(rf_merged *m)
{
	free(m->bytes);
	free(m->missing);
	memset(m, 0, sizeof *m);
}

static int
in_keyring(kr_keyring *k, const pgp_fpr *f, int *err)
{
	pgp_certq q;
	uint32_t hit;
	size_t total = 0;
	q.kind = PGP_CERTQ_FPR;
	q.p = f->v;
	q.len = f->len;
	if (kr_find(k, &q, &hit, 1, &total) != PGP_OK) {
		*err = 1;
		return 0;
	}
	/* a subkey fingerprint matches too: only a primary key counts */
	if (total >= 1) {
		pgp_fpr pf;
		if (kr_cert_fpr(k, hit, &pf) == PGP_OK && pf.len == f->len &&
		    memcmp(pf.v, f->v, f->len) == 0)
			return 1;
	}
	return 0;
}

static int
in_set(const pgp_certset *s, const pgp_fpr *f)
{
	size_t i, n = pgp_certset_count(s);
	for (i = 0; i < n; i++) {
		const pgp_fpr *g = &pgp_certset_get(s, i)->primary.fpr;
		if (g->len == f->len && memcmp(g->v, f->v, f->len) == 0)
			return 1;
	}
	return 0;
}

/* see refresh.h */
int
rf_merge(const rf_merge_opts *o, kr_keyring *old, rf_merged *m)
{
	char src[4096 + 8];
	const char *srcs[1];
	pgp_certset *tipset = NULL, *set = NULL;
	krsrc_reports rep;
	kr_strip_result sr;
	kr_meta meta;
	krb_opts ko;
	pgp_buf b;
	pgp_diag d;
	size_t i, n;
	int rc = -1, lr, err = 0;
	pgp_err e;

	memset(m, 0, sizeof *m);
	memset(&rep, 0, sizeof rep);
	memset(&sr, 0, sizeof sr);
	snprintf(src, sizeof src, "git:%s", o->repo);
	srcs[0] = src;
	if (pgp_certset_new(&tipset) != PGP_OK ||
	    pgp_certset_set_sig_cap(tipset, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK ||
	    pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		cli_msg(o->cmd, "out of memory");
		goto out;
	}
	/* the tip's keys, by the exact commit id that was verified */
	lr = krsrc_load_at(srcs, 1, o->tip, o->at, o->pol, tipset, &rep);
	if (!o->quiet || lr != 0)
		krsrc_reports_print(&rep);
	if (lr < 0)
		goto out;
	/* the tip could not be read (wotkit-git failed): nothing is merged */
	if (rep.lost) {
		cli_msg(o->cmd, "the tip's tree could not be read; the keyring is not changed");
		goto out;
	}
	m->nsource = pgp_certset_count(tipset);
	/* the current certificates, as stored */
	n = kr_count(old);
	for (i = 0; i < n; i++) {
		pgp_view v;
		pgp_fpr f;
		memset(&d, 0, sizeof d);
		if ((e = kr_cert_bytes(old, i, &v)) != PGP_OK ||
		    (e = pgp_certset_add(set, v.p, v.len, &d)) != PGP_OK) {
			cli_msg(o->cmd, "the current keyring: certificate %zu: %s", i, pgp_strerror(e));
			goto out;
		}
		if (kr_cert_fpr(old, i, &f) == PGP_OK && !in_set(tipset, &f)) {
			pgp_fpr *nv = realloc(m->missing, (m->nmissing + 1) * sizeof *nv);
			if (nv == NULL) {
				cli_msg(o->cmd, "out of memory");
				goto out;
			}
			m->missing = nv;
			m->missing[m->nmissing++] = f;
		}
	}
	/* every copy of a tip certificate that is wanted, as parsed */
	n = pgp_certset_copies(tipset);
	for (i = 0; i < n; i++) {
		const pgp_cert *c = pgp_certset_copy(tipset, i);
		if (!o->all && !in_keyring(old, &c->primary.fpr, &err)) {
			if (err) {
				cli_msg(o->cmd, "the current keyring: lookup failed");
				goto out;
			}
			continue;
		}
		memset(&d, 0, sizeof d);
		if ((e = pgp_certset_add(set, c->raw.p, c->raw.len, &d)) != PGP_OK) {
			cli_msg(o->cmd, "merging the tip's certificates: %s", pgp_strerror(e));
			goto out;
		}
	}
	/* stand-alone key revocations (a revocation certificate next to a key
	 * in its file) are attached to their issuer's certificate, not to a
	 * copy: taken over, framed as packets again, for the wanted ones */
	n = pgp_certset_count(tipset);
	for (i = 0; i < n; i++) {
		const pgp_cert *c = pgp_certset_get(tipset, i);
		uint32_t k;
		if (c->nloose == 0 || (!o->all && !in_keyring(old, &c->primary.fpr, &err)))
			continue;
		for (k = 0; k < c->nloose; k++) {
			size_t plen;
			uint8_t *pkt;
			pgp_buf_init(&b, PGP_MAX_PACKET_BODY + 8);
			if (pgp_write_packet(&b, 2, c->loose[k].p, c->loose[k].len) != PGP_OK) {
				pgp_buf_free(&b);
				cli_msg(o->cmd, "out of memory");
				goto out;
			}
			pkt = pgp_buf_take(&b, &plen);
			memset(&d, 0, sizeof d);
			if ((e = pgp_certset_add_owned(set, pkt, plen, &d)) != PGP_OK) {
				cli_msg(o->cmd, "merging a revocation certificate: %s", pgp_strerror(e));
				goto out;
			}
		}
	}
	if (err) {
		cli_msg(o->cmd, "the current keyring: lookup failed");
		goto out;
	}
	memset(&ko, 0, sizeof ko);
	ko.cmd = o->cmd;
	ko.at = o->at;
	ko.pol = o->pol;
	ko.root = o->root;
	ko.quiet = o->quiet;
	if (krb_strip(set, &ko, &sr) != 0)
		goto out;
	memset(&meta, 0, sizeof meta);
	meta.root = o->root;
	meta.built_at = o->built_at;
	pgp_buf_init(&b, KR_MAX_FILE);
	if (krb_to_mem(&ko, &sr, &meta, &b) != 0) {
		pgp_buf_free(&b);
		goto out;
	}
	m->bytes = pgp_buf_take(&b, &m->len);
	rc = 0;
out:
	kr_strip_free(&sr);
	pgp_certset_free(set);
	pgp_certset_free(tipset);
	krsrc_reports_free(&rep);
	if (rc != 0)
		rf_merged_free(m);
	return rc;
}
