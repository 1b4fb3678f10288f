/*
 * fuzz_wot.c - libFuzzer target for the web of trust (keyring/wot.h,
 * keyring/trust.h, keyring/ownertrust.h). Any input is opened as a keyring
 * file; when it opens, graphs are built at one time under the standard
 * policy and with SHA-1 accepted, and every algorithm runs on them: paths
 * and distances between the first keys, why, the audit of one graph
 * against the other, and GnuPG's trust model with the first key ultimate
 * and the rest by input octets. Invariants are checked, not just run:
 * every path's hops are usable certifications between valid keys within
 * maxdepth, why says PATH exactly when a distance within maxdepth exists,
 * the audit's lost keys are reachable in the baseline only. The input is
 * also parsed as an ownertrust file and matched as a trust-signature
 * regular expression against itself. A violation aborts; memory errors
 * are the sanitizers'.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/kr.h"
#include "keyring/wot.h"
#include "keyring/trust.h"
#include "keyring/ownertrust.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
has_edge(const wot_graph *g, uint32_t a, uint32_t b)
{
	const uint32_t *s;
	size_t n = wot_succ(g, a, &s), i;

	for (i = 0; i < n; i++)
		if (s[i] == b)
			return 1;
	return 0;
}

static void
run_graph(const wot_graph *g, const uint8_t *data, size_t size)
{
	size_t n = wot_nnodes(g), a, b;
	wot_search *s;
	uint32_t *dist;
	wot_path p[8];

	if (n == 0 || wot_search_new(&s, g) != PGP_OK)
		return;
	if ((dist = malloc(n * sizeof *dist)) == NULL) {
		wot_search_free(s);
		return;
	}
	for (a = 0; a < n && a < 6; a++) {
		if (wot_distances(s, (uint32_t)a, 4, dist) != PGP_OK)
			abort();
		for (b = 0; b < n && b < 6; b++) {
			size_t np, k;
			wot_why w;
			if (wot_paths(s, (uint32_t)a, (uint32_t)b, 4, 8, p, &np) != PGP_OK)
				abort();
			for (k = 0; k < np; k++) {
				if (p[k].len > 4 || p[k].node[0] != a || p[k].node[p[k].len] != b)
					abort();
				for (uint32_t h = 0; h <= p[k].len; h++)
					if (wot_node_at(g, p[k].node[h])->state != WOT_NODE_VALID)
						abort();
				for (uint32_t h = 0; h < p[k].len; h++)
					if (!has_edge(g, p[k].node[h], p[k].node[h + 1]))
						abort();
			}
			if ((np > 0) != (dist[b] <= 4))
				abort();
			if (wot_explain(g, (uint32_t)a, (uint32_t)b, 4, &w) != PGP_OK)
				abort();
			if (wot_node_at(g, (uint32_t)a)->state == WOT_NODE_VALID &&
			    wot_node_at(g, (uint32_t)b)->state == WOT_NODE_VALID &&
			    (w.verdict == WOT_WHY_PATH) != (dist[b] <= 4))
				abort();
		}
	}
	for (a = 0; a < wot_ncerts(g) && a < 64; a++) {
		pgp_view re;
		(void)wot_cert_regex(g, wot_cert_at(g, (uint32_t)a), &re);
	}
	{
		uint8_t *ot = calloc(n, 1);
		wot_trust *t = NULL;
		if (ot != NULL) {
			static const uint8_t vals[] = {WOT_OT_UNKNOWN, WOT_OT_NEVER, WOT_OT_MARGINAL,
			    WOT_OT_FULL, WOT_OT_ULTIMATE};
			for (a = 0; a < n; a++)
				ot[a] = a == 0 ? WOT_OT_ULTIMATE : vals[data[a % size] % 5];
			if (wot_trust_compute(&t, g, ot, NULL) == PGP_OK) {
				for (a = 0; a < n; a++)
					(void)wot_trust_key(t, (uint32_t)a);
				wot_trust_free(t);
			}
			free(ot);
		}
	}
	free(dist);
	wot_search_free(s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kr_keyring *k = NULL;
	pgp_diag d;

	{
		wot_otlist l;
		wot_otlist_init(&l);
		if (wot_otlist_parse(&l, data, size, &d) == PGP_OK) {
			pgp_buf b;
			pgp_buf_init(&b, 1 << 20);
			(void)wot_otlist_write(&l, &b);
			pgp_buf_free(&b);
		}
		wot_otlist_release(&l);
	}
	if (size > 1) {
		size_t cut = data[0] % size;
		(void)wot_trust_regex_match(data + 1, cut, data + 1 + cut, size - 1 - cut);
	}
	if (kr_open(&k, data, size, &d) != PGP_OK)
		return 0;
	{
		pgp_policy std, sha1;
		wot_opts o;
		wot_graph *g1 = NULL, *g2 = NULL;
		pgp_policy_init(&std);
		pgp_policy_init(&sha1);
		pgp_policy_allow_hash(&sha1, PGP_HASH_SHA1, PGP_USE_COLLISION);
		pgp_policy_allow_hash(&sha1, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
		o.t = 1780272000;     /* 2026-06-01 */
		o.pol = &std;
		if (wot_build(&g1, k, &o) == PGP_OK)
			run_graph(g1, data, size);
		o.pol = &sha1;
		if (wot_build(&g2, k, &o) == PGP_OK)
			run_graph(g2, data, size);
		if (g1 != NULL && g2 != NULL && wot_nnodes(g1) > 0) {
			wot_audit au;
			if (wot_audit_run(g2, g1, 0, 4, &au) != PGP_OK)
				abort();
			wot_audit_free(&au);
		}
		wot_free(g1);
		wot_free(g2);
	}
	kr_close(k);
	return 0;
}
