/*
 * submission_path.c - would the submitted key have a path to the root once
 * added? The keyring's certificates and the submitted key are merged in
 * memory (copies of one key merge by fingerprint), stripped and built as
 * `wotkit keyring build` does (cmd/krbuild.h: krb_strip, krb_to_mem, the
 * same options), and the web of trust is evaluated on the result
 * (keyring/wot.h: wotmate's path rule, and wot_explain for why not). No file
 * is written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "certs.h"
#include "cli.h"
#include "out.h"
#include "submission.h"
#include "krbuild.h"
#include "keyring/kr.h"
#include "keyring/strip.h"
#include "keyring/wot.h"

/* 'KEYID "uid"' of a node, escaped, into b. */
static void
node_text(char *b, size_t n, const wot_graph *g, uint32_t node)
{
	const wot_node *nd = wot_node_at(g, node);
	const pgp_cert *c = nd->cert;
	char kid[17], esc[160] = "";
	uint32_t j;

	pgp_hex_encode(kid, nd->keyid, 8);
	if (nd->primary_uid >= 0 && (uint32_t)nd->primary_uid < c->nuids)
		sub_esc(esc, sizeof esc, c->uids[nd->primary_uid].data.p,
		    c->uids[nd->primary_uid].data.len);
	else
		for (j = 0; j < c->nuids; j++)
			if (!c->uids[j].is_attr) {
				sub_esc(esc, sizeof esc, c->uids[j].data.p, c->uids[j].data.len);
				break;
			}
	snprintf(b, n, "%s \"%s\"", kid, esc);
}

/* Key IDs of certifiers of the target that are not in the keyring (the
 * strip details of certifications dropped for that reason). */
static size_t
outside(const kr_strip_result *sr, const pgp_fpr *fpr, char *b, size_t bn)
{
	size_t i, j, n = 0;
	uint8_t seen[8][8];
	b[0] = '\0';
	for (i = 0; i < sr->ncerts; i++) {
		const kr_scert *sc = &sr->certs[i];
		if (sc->cert->primary.fpr.len != fpr->len ||
		    memcmp(sc->cert->primary.fpr.v, fpr->v, fpr->len) != 0)
			continue;
		for (j = 0; j < sc->nsigs; j++) {
			const kr_sigrec *s = &sc->sigs[j];
			size_t k;
			char kid[17];
			if (s->kept || s->reason != KR_DROP_ISSUER_OUTSIDE || !s->has_issuer)
				continue;
			for (k = 0; k < n && k < 8; k++)
				if (memcmp(seen[k], s->issuer, 8) == 0)
					break;
			if (k < n || n == 8)
				continue;
			memcpy(seen[n++], s->issuer, 8);
			pgp_hex_encode(kid, s->issuer, 8);
			if (strlen(b) + 18 < bn) {
				if (b[0])
					strcat(b, " ");
				strcat(b, kid);
			}
		}
	}
	return n;
}

static void
why_text(sub_report *r, const wot_graph *g, const kr_strip_result *sr, const pgp_fpr *fpr,
    uint32_t root, uint32_t target, unsigned maxdepth, const wot_why *w)
{
	char rt[200], tt[200], ids[160];
	const wot_node *tn = wot_node_at(g, target);

	node_text(rt, sizeof rt, g, root);
	switch (w->verdict) {
	case WOT_WHY_TARGET_INVALID:
		sub_add(r, "path", SUB_FAIL, "no path from the root %s: the key itself is not valid "
		    "(%s)", rt, tn->reason ? tn->reason : "see the checks above");
		break;
	case WOT_WHY_ROOT_INVALID:
		sub_add(r, "path", SUB_FAIL, "no path: the root %s is not valid at the reference time",
		    rt);
		break;
	case WOT_WHY_NO_CERTS:
		if (outside(sr, fpr, ids, sizeof ids))
			sub_add(r, "path", SUB_FAIL, "no path from the root %s: no key in the keyring "
			    "certified it (certified only by keys outside the keyring: %s); ask someone "
			    "with a path to sign it, then export again", rt, ids);
		else
			sub_add(r, "path", SUB_FAIL, "no path from the root %s: no certification by any "
			    "key in the keyring; ask someone with a path to sign it (gpg "
			    "--quick-sign-key), then export again", rt);
		break;
	case WOT_WHY_NOT_CONNECTED:
		sub_add(r, "path", SUB_FAIL, "no path from the root %s: certified, but no chain of "
		    "certifications from the root leads there", rt);
		break;
	case WOT_WHY_BEYOND:
		sub_add(r, "path", SUB_FAIL, "no path from the root %s within %u hops (a longer one "
		    "exists: %u hops)", rt, maxdepth, w->hops);
		break;
	default:
		if (w->stored && w->hops >= 1) {
			node_text(tt, sizeof tt, g, w->node[w->hops - 1]);
			sub_add(r, "path", SUB_FAIL, "no path from the root %s: the closest chain (%u hops) "
			    "is blocked%s%s%s, e.g. the last hop from %s", rt, w->hops,
			    (w->kinds & WOT_BLOCK_POLICY) ? " by policy (weak hashes or keys)" : "",
			    (w->kinds & WOT_BLOCK_CERT) ? " by revoked or expired certifications" : "",
			    (w->kinds & WOT_BLOCK_KEY) ? " by invalid keys" : "", tt);
		} else {
			sub_add(r, "path", SUB_FAIL, "no path from the root %s: every chain is blocked",
			    rt);
		}
		break;
	}
}

int
sub_check_path(sub_report *r, const sub_key *k, const char *keyring, const char *root_hex,
    int64_t t, const pgp_policy *pol, unsigned maxdepth)
{
	cli_file kf;
	pgp_certset *set = NULL;
	kr_strip_result sr;
	krb_opts ko;
	kr_keyring *kr = NULL;
	wot_graph *g = NULL;
	wot_search *s = NULL;
	kr_meta meta;
	kr_stats st;
	pgp_fpr root;
	pgp_diag d;
	pgp_buf b;
	uint8_t *mem = NULL;
	size_t mem_len = 0;
	struct stat sb;
	int64_t rn, tn;
	int rc = -1, have_strip = 0, already = 0, have_kf = 0;
	pgp_err e;
	const pgp_cert *one[1];
	wot_opts wo;

	memset(&root, 0, sizeof root);
	memset(&kf, 0, sizeof kf);
	if (root_hex != NULL) {
		const char *h = root_hex;
		if (h[0] == '0' && (h[1] == 'x' || h[1] == 'X'))
			h += 2;
		if (pgp_hex_decode(root.v, h, 20) == 0)
			root.len = 20;
		else if (pgp_hex_decode(root.v, h, 32) == 0)
			root.len = 32;
		else {
			cli_msg("submission check", "--root needs a fingerprint (40 or 64 hex digits)");
			goto out;
		}
	} else if (stat(keyring, &sb) == 0 && S_ISREG(sb.st_mode)) {
		/* a wotkit keyring file records its root */
		if (cli_file_open(&kf, keyring) != 0)
			return -1;
		have_kf = 1;
		if (kr_is_keyring(kf.p, kf.len)) {
			memset(&d, 0, sizeof d);
			if ((e = kr_open(&kr, kf.p, kf.len, &d)) != PGP_OK) {
				cli_report(keyring, e, &d);
				goto out;
			}
			if (kr_stats_get(kr, &st) == PGP_OK)
				root = st.root;
			kr_close(kr);
			kr = NULL;
		}
	}
	if (root.len == 0) {
		sub_add(r, "path", SUB_SKIP, "the keyring records no root key: give --root FPR");
		rc = 0;
		goto out;
	}
	if (pgp_certset_new(&set) != PGP_OK ||
	    pgp_certset_set_sig_cap(set, PGP_MAX_STRIP_SIGS_PER_COMP) != PGP_OK)
		goto nomem;
	/* a wotkit keyring file, a key file, or a directory of key files
	 * (certs.h: the mappings stay while the process runs) */
	if (certs_load(set, keyring) != 0)
		goto out;
	{
		size_t total = 0;
		if (pgp_certset_find(set, &(pgp_certq){PGP_CERTQ_FPR, k->cert->primary.fpr.v,
		    k->cert->primary.fpr.len}, one, 1, &total) == PGP_OK && total > 0)
			already = 1;
	}
	memset(&d, 0, sizeof d);
	if ((e = pgp_certset_add(set, k->bin, k->len, &d)) != PGP_OK) {
		cli_report("(submitted key)", e, &d);
		goto out;
	}
	/* stripped and serialized as `wotkit keyring build` does (krbuild.h),
	 * with the per-signature details why_text reads */
	memset(&ko, 0, sizeof ko);
	ko.cmd = "submission check";
	ko.at = t;
	ko.pol = pol;
	ko.quiet = 1;
	ko.details = 1;
	memset(&sr, 0, sizeof sr);
	have_strip = 1;
	if (krb_strip(set, &ko, &sr) != 0)
		goto out;
	memset(&meta, 0, sizeof meta);
	meta.root = &root;
	meta.built_at = t;
	pgp_buf_init(&b, KR_MAX_FILE);
	if (krb_to_mem(&ko, &sr, &meta, &b) != 0) {
		pgp_buf_free(&b);
		goto out;
	}
	mem = pgp_buf_take(&b, &mem_len);
	memset(&d, 0, sizeof d);
	if ((e = kr_open(&kr, mem, mem_len, &d)) != PGP_OK) {
		cli_report("(in-memory keyring)", e, &d);
		goto out;
	}
	wo.t = t;
	wo.pol = pol;
	if ((e = wot_build(&g, kr, &wo)) != PGP_OK) {
		cli_report("(in-memory keyring)", e, kr_last_error(kr));
		goto out;
	}
	rn = wot_find_fpr(g, &root);
	tn = wot_find_fpr(g, &k->cert->primary.fpr);
	if (rn < 0) {
		sub_add(r, "path", SUB_SKIP, "the root key is not in the keyring");
		rc = 0;
		goto out;
	}
	if (tn < 0) {
		sub_add(r, "path", SUB_FAIL, "the key would not be kept by a keyring build");
		rc = 0;
		goto out;
	}
	if (wot_search_new(&s, g) != PGP_OK)
		goto nomem;
	{
		wot_path p;
		size_t np = 0;
		char line[SUB_TEXT_MAX - 64] = "", nt[200];
		uint32_t h;
		if ((e = wot_paths(s, (uint32_t)rn, (uint32_t)tn, maxdepth, 1, &p, &np)) != PGP_OK) {
			cli_msg("submission check", "path search failed: %s", pgp_strerror(e));
			goto out;
		}
		if (np > 0) {
			for (h = 0; h <= p.len; h++) {
				node_text(nt, sizeof nt, g, p.node[h]);
				if (strlen(line) + strlen(nt) + 5 < sizeof line) {
					if (h)
						strcat(line, " -> ");
					strcat(line, nt);
				}
			}
			if (p.len > 1) {
				node_text(nt, sizeof nt, g, p.node[p.len - 1]);
				sub_add(r, "path", SUB_PASS, "%u hops from the root, certified by %s: %s%s",
				    p.len, nt, line, already ? " (the key is in the keyring already: merged "
				    "with this copy)" : "");
			} else {
				sub_add(r, "path", SUB_PASS, "%u hop%s (%s): %s%s", p.len, p.len == 1 ? "" : "s",
				    p.len == 1 ? "certified by the root itself" : "the key is the root", line,
				    already ? " (the key is in the keyring already: merged with this copy)" : "");
			}
		} else {
			wot_why w;
			if ((e = wot_explain(g, (uint32_t)rn, (uint32_t)tn, maxdepth, &w)) != PGP_OK) {
				cli_msg("submission check", "explaining failed: %s", pgp_strerror(e));
				goto out;
			}
			why_text(r, g, &sr, &k->cert->primary.fpr, (uint32_t)rn, (uint32_t)tn, maxdepth, &w);
		}
	}
	rc = 0;
	goto out;
nomem:
	cli_msg("submission check", "out of memory");
out:
	wot_search_free(s);
	wot_free(g);
	if (kr)
		kr_close(kr);
	free(mem);
	if (have_strip)
		kr_strip_free(&sr);
	pgp_certset_free(set);
	if (have_kf)
		cli_file_close(&kf);
	return rc;
}
