/*
 * refresh_check.c - what `wotkit refresh` accepts (docs/refresh.md):
 *
 *   the tip      its commit signature (gpgsig) verified by the built-in git
 *                verification (gitverify_sig.c) against the user's current
 *                keyring at --at: good and a path from the root, or an
 *                untrusted-but-good signer the user gave ultimate ownertrust
 *                (`wotkit wot trust KEY ultimate`). Every mergetag too.
 *   the audit    sequoia-git's rule applied to pgpkeys.git: each commit of
 *                SINCE..TIP signed by a key accepted, as above, in the
 *                keyring built from the pgpkeys tree of one of its parents
 *                (with the user's root and trust file), evaluated at the
 *                signature's creation time.
 * see refresh.h
 */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "krbuild.h"
#include "krsrc.h"
#include "refresh.h"
#include "keyring/gitobj.h"
#include "keyring/trust.h"

static int
finish_open(rf_ctx *r)
{
	r->open = 1;
	r->x.root_optional = 1;
	if (gv_open_trust(&r->x) != 0)
		return -1;
	return wot_cli_ownertrust_of_nodes(&r->x.c, &r->ot);
}

/* see refresh.h */
int
rf_ctx_open(rf_ctx *r, const char *keyring, int64_t t)
{
	memset(r, 0, sizeof *r);
	wot_cli_init(&r->x.c, "refresh");
	r->x.c.sources[r->x.c.nsources++] = keyring;
	r->x.c.t = t;
	return finish_open(r);
}

/* see refresh.h */
int
rf_ctx_open_mem(rf_ctx *r, uint8_t *mem, size_t len, const char *trust_file, int64_t t)
{
	memset(r, 0, sizeof *r);
	wot_cli_init(&r->x.c, "refresh");
	r->x.c.mem = mem;
	r->x.c.mem_len = len;
	r->x.c.trust_file_arg = trust_file;
	r->x.c.t = t;
	return finish_open(r);
}

/* see refresh.h */
void
rf_ctx_close(rf_ctx *r)
{
	if (r->open)
		gv_close_trust(&r->x);
	free(r->ot);
	memset(r, 0, sizeof *r);
}

/* A good signature by a trusted signer, or by one the user trusts
 * ultimately (direct); 0 otherwise. */
static int
acceptable(const rf_ctx *r, const gv_sig *s, int *direct)
{
	if (s->verdict == GV_GOOD)
		return 1;
	if (s->verdict == GV_UNTRUSTED && s->node >= 0 && r->ot != NULL &&
	    (r->ot[s->node] & 0x0f) == WOT_OT_ULTIMATE) {
		*direct = 1;
		return 1;
	}
	return 0;
}

static void
signer_of(const gv_sig *s, rf_verdict *v)
{
	v->signer[0] = 0;
	if (s->has_result && s->res.cert_fpr.len)
		pgp_hex_encode(v->signer, s->res.cert_fpr.v, s->res.cert_fpr.len);
	v->sig_created = s->has_result ? s->res.created : 0;
}

/* see refresh.h */
int
rf_check_commit(rf_ctx *r, int sha256, const uint8_t *obj, size_t len, rf_verdict *v)
{
	gv_object o;
	size_t i;
	int direct = 0;

	memset(v, 0, sizeof *v);
	memset(&o, 0, sizeof o);
	o.type = GITOBJ_COMMIT;
	r->x.sha256 = sha256;
	if (gv_check_object(&r->x, obj, len, &o) != 0) {
		free(o.mt);
		return -1;
	}
	signer_of(&o.sig, v);
	v->word = gv_verdict_word(o.sig.verdict);
	v->reason = o.sig.reason;
	if (!acceptable(r, &o.sig, &direct)) {
		free(o.mt);
		return 0;
	}
	for (i = 0; i < o.nmt; i++) {
		int d2 = 0;
		if (!acceptable(r, &o.mt[i].sig, &d2)) {
			v->word = gv_verdict_word(o.mt[i].sig.verdict);
			v->reason = "a mergetag of the commit is not accepted";
			free(o.mt);
			return 0;
		}
		if (!o.mt[i].is_parent) {
			v->word = "malformed";
			v->reason = "a mergetag names no parent of the commit";
			free(o.mt);
			return 0;
		}
	}
	free(o.mt);
	v->accepted = 1;
	v->direct = direct;
	v->word = "good";
	v->reason = direct ? "the signer has ultimate ownertrust (no path from the root)" : NULL;
	return 0;
}

/* ---- the audit ---- */

/* The creation time of the commit's signature (0: none), read by a verifier
 * over an empty key set: no key is needed to read it. */
static int64_t
sig_time(const uint8_t *obj, size_t len, int sha256)
{
	pgp_buf payload, sig;
	pgp_gitsig_format fmt = PGP_GITSIG_NONE;
	pgp_certset *empty = NULL;
	pgp_verifier *vf = NULL;
	pgp_verify_opts vo;
	pgp_certsrc src;
	pgp_diag d = {0, -1, NULL};
	int64_t t = 0;

	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	if (pgp_gitsig_commit(obj, len, sha256, &payload, &sig, &fmt) == PGP_OK &&
	    fmt == PGP_GITSIG_OPENPGP && pgp_certset_new(&empty) == PGP_OK &&
	    pgp_verifier_new(&vf, sig.p, sig.len, &d) == PGP_OK) {
		pgp_certset_source(empty, &src);
		pgp_verify_opts_init(&vo, 0);
		pgp_verifier_update(vf, payload.p, payload.len);
		if (pgp_verifier_finish(vf, &src, &vo) == PGP_OK && pgp_verifier_count(vf) >= 1)
			t = pgp_verifier_result(vf, 0)->created;
	}
	pgp_verifier_free(vf);
	pgp_certset_free(empty);
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
	return t;
}

/* The keyring of the pgpkeys tree at commit `rev`, stripped at t with the
 * user's root recorded, into *mem. 0, or -1 after a message. */
static int
tree_keyring(const char *cmd, const char *repo, const char *rev, int64_t t, const pgp_fpr *root,
    const pgp_policy *pol, uint8_t **mem, size_t *len)
{
	char src[4096 + 8];
	const char *srcs[1];
	pgp_certset *set = NULL;
	krsrc_reports rep;
	kr_strip_result sr;
	kr_meta meta;
	krb_opts ko;
	pgp_buf b;
	size_t i;
	int rc = -1, lr;

	memset(&rep, 0, sizeof rep);
	memset(&sr, 0, sizeof sr);
	snprintf(src, sizeof src, "git:%s", repo);
	srcs[0] = src;
	if (pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK) {
		cli_msg(cmd, "out of memory");
		goto out;
	}
	lr = krsrc_load_at(srcs, 1, rev, t, pol, set, &rep);
	if (lr < 0 || rep.lost) {
		/* the tree could not be read: nothing to check it with */
		krsrc_reports_print(&rep);
		goto out;
	}
	memset(&ko, 0, sizeof ko);
	ko.cmd = cmd;
	ko.at = t;
	ko.pol = pol;
	ko.quiet = 1;
	if (krb_strip(set, &ko, &sr) != 0)
		goto out;
	memset(&meta, 0, sizeof meta);
	/* the user's root, when the tree holds it */
	if (root != NULL)
		for (i = 0; i < sr.ncerts; i++)
			if (sr.certs[i].cert->primary.fpr.len == root->len &&
			    memcmp(sr.certs[i].cert->primary.fpr.v, root->v, root->len) == 0)
				meta.root = root;
	pgp_buf_init(&b, KR_MAX_FILE);
	if (krb_to_mem(&ko, &sr, &meta, &b) != 0) {
		pgp_buf_free(&b);
		goto out;
	}
	*mem = pgp_buf_take(&b, len);
	rc = 0;
out:
	kr_strip_free(&sr);
	pgp_certset_free(set);
	krsrc_reports_free(&rep);
	return rc;
}

/* One commit against the keyring of each parent's tree: accepted by any. */
static int
audit_one(const char *cmd, const char *repo, const rf_commit *c, int sha256, const pgp_fpr *root,
    const char *trust_file, const pgp_policy *pol, rf_verdict *v)
{
	uint8_t parents[GITOBJ_MAX_PARENTS * 32];
	size_t np = 0, k, idlen = sha256 ? 32 : 20;
	int64_t when = 0, t;

	memset(v, 0, sizeof *v);
	if (gitobj_commit_parse(c->obj, c->len, idlen, parents, GITOBJ_MAX_PARENTS, &np, &when) !=
	    PGP_OK) {
		v->word = "malformed";
		v->reason = "the commit object cannot be parsed";
		return 0;
	}
	if (np == 0) {
		v->word = "untrusted";
		v->reason = "a root commit: no parent tree holds a keyring to check it with";
		return 0;
	}
	/* evaluated at the signature's creation time; unsigned: the commit's */
	if ((t = sig_time(c->obj, c->len, sha256)) == 0)
		t = when;
	for (k = 0; k < np; k++) {
		char hex[RF_HEX_MAX];
		uint8_t *mem = NULL;
		size_t len = 0;
		rf_ctx r;
		rf_verdict pv;
		int rc;
		pgp_hex_encode_lower(hex, parents + k * idlen, idlen);
		if (tree_keyring(cmd, repo, hex, t, root, pol, &mem, &len) != 0)
			return -1;
		if (rf_ctx_open_mem(&r, mem, len, trust_file, t) != 0) {
			rf_ctx_close(&r);
			return -1;
		}
		rc = rf_check_commit(&r, sha256, c->obj, c->len, &pv);
		rf_ctx_close(&r);
		if (rc != 0) {
			cli_msg(cmd, "out of memory");
			return -1;
		}
		if (k == 0 || pv.accepted)
			*v = pv;
		if (pv.accepted)
			break;
	}
	return 0;
}

/* see refresh.h */
int
rf_audit_range(const char *cmd, const char *repo, const char *since, const char *tip,
    const pgp_fpr *root, const char *trust_file, const pgp_policy *pol, rf_audit *a)
{
	char range[2 * RF_HEX_MAX + 4096];
	const char *args[1];
	rf_commits cs;
	size_t i;
	int rc = 0;

	memset(a, 0, sizeof *a);
	snprintf(range, sizeof range, "%s..%s", since, tip);
	args[0] = range;
	if (rf_git_commits(cmd, repo, args, 1, RF_MAX_AUDIT_COMMITS, &cs) != 0)
		return -1;
	/* rev-list order is newest first: the chain is walked from SINCE on,
	 * so the commit reported is the first one that breaks it */
	for (i = cs.n; i-- > 0;) {
		rf_verdict v;
		if (audit_one(cmd, repo, &cs.v[i], cs.sha256, root, trust_file, pol, &v) != 0) {
			rc = -1;
			break;
		}
		a->checked++;
		if (!v.accepted) {
			a->broken = 1;
			a->v = v;
			memcpy(a->commit, cs.v[i].id, sizeof a->commit);
			break;
		}
	}
	rf_commits_free(&cs);
	return rc;
}
