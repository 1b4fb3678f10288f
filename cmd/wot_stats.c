/*
 * wot_stats.c - `wotkit wot stats`: the size of the web at t under the
 * policy (keys by state, certifications by state), the keys that certify
 * the most others (candidates for a root), and how many keys the root
 * reaches within 1..maxdepth hops.
 */
#include <stdlib.h>
#include <string.h>
#include "wotcli.h"
#include "out.h"

static const char *const node_names[] = {"valid", "expired", "revoked", "policy", "invalid"};
static const char *const cert_names[] = {"usable", "revoked", "expired", "policy", "future",
    "issuer-subkey", "uid-invalid", "issuer-invalid", "target-invalid"};

int
wot_cmd_stats(wot_cli *c, int argc, char **argv)
{
	unsigned top = 10, maxdepth = 4;
	size_t nodes[5] = {0}, certs[9] = {0}, i, n;
	uint32_t *order = NULL, *dist = NULL;
	wot_search *s = NULL;
	int a, r;

	for (a = 1; a < argc; a++) {
		if ((r = wot_cli_opt(c, argc, argv, &a)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &a, "--top", 0, 1000, &top)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &a, "--maxdepth", 1, WOT_MAX_DEPTH, &maxdepth)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else {
			cli_msg(c->cmd, "unknown argument %s", argv[a]);
			return EXIT_USAGE;
		}
	}
	if (wot_cli_open(c, 0) != 0)
		return EXIT_USAGE;
	n = wot_nnodes(c->g);
	for (i = 0; i < n; i++)
		nodes[wot_node_at(c->g, (uint32_t)i)->state < 5 ? wot_node_at(c->g, (uint32_t)i)->state : 4]++;
	for (i = 0; i < wot_ncerts(c->g); i++) {
		unsigned st = wot_cert_at(c->g, (uint32_t)i)->state;
		certs[st < 9 ? st : 8]++;
	}
	if ((order = malloc((n ? n : 1) * sizeof *order)) == NULL ||
	    (dist = malloc((n ? n : 1) * sizeof *dist)) == NULL ||
	    wot_search_new(&s, c->g) != PGP_OK) {
		free(order);
		free(dist);
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	/* by out-degree (usable key-level edges), then rank: selection of top */
	for (i = 0; i < n; i++)
		order[i] = wot_node_by_rank(c->g, (uint32_t)i);
	if (top > n)
		top = (unsigned)n;
	for (i = 0; i < top; i++) {
		size_t best = i, j;
		const uint32_t *x;
		size_t bd = wot_succ(c->g, order[i], &x);
		for (j = i + 1; j < n; j++) {
			size_t d = wot_succ(c->g, order[j], &x);
			if (d > bd) {
				bd = d;
				best = j;
			}
		}
		uint32_t t = order[i];
		order[i] = order[best];
		order[best] = t;
	}
	if (c->json) {
		printf("{\"at\":%lld,\"keys\":{", (long long)c->t);
		for (i = 0; i < 5; i++)
			printf("%s\"%s\":%zu", i ? "," : "", node_names[i], nodes[i]);
		fputs("},\"certifications\":{", stdout);
		for (i = 0; i < 9; i++)
			printf("%s\"%s\":%zu", i ? "," : "", cert_names[i], certs[i]);
		fputs("},\"top\":[", stdout);
	} else {
		printf("keys: %zu (", n);
		for (i = 0; i < 5; i++)
			printf("%s%s %zu", i ? ", " : "", node_names[i], nodes[i]);
		printf(")\ncertifications: %zu (", wot_ncerts(c->g));
		for (i = 0; i < 9; i++)
			printf("%s%s %zu", i ? ", " : "", cert_names[i], certs[i]);
		printf(")\nkeys certifying the most others:\n");
	}
	for (i = 0; i < top; i++) {
		const wot_node *nd = wot_node_at(c->g, order[i]);
		const uint32_t *x;
		char fpr[2 * PGP_FPR_MAX + 1];
		pgp_view u = wot_cli_uid(nd);
		size_t d = wot_succ(c->g, order[i], &x);
		pgp_hex_encode(fpr, nd->fpr.v, nd->fpr.len);
		if (c->json) {
			printf("%s{\"fpr\":\"%s\",\"certifies\":%zu,\"uid\":\"", i ? "," : "", fpr, d);
			out_esc_json(stdout, u.p, u.len);
			fputs("\"}", stdout);
		} else {
			printf("  %5zu  %s  ", d, fpr);
			out_esc_plain(stdout, u.p, u.len);
			fputc('\n', stdout);
		}
	}
	if (c->json)
		fputc(']', stdout);
	if (c->root >= 0 && wot_distances(s, (uint32_t)c->root, maxdepth, dist) == PGP_OK) {
		size_t within[WOT_MAX_DEPTH + 1] = {0};
		for (i = 0; i < n; i++)
			if (dist[i] != UINT32_MAX)
				within[dist[i]]++;
		if (c->json)
			fputs(",\"reached\":[", stdout);
		else
			printf("reached from the root:");
		for (i = 1; i <= maxdepth; i++) {
			within[i] += within[i - 1];
			if (c->json)
				printf("%s%zu", i > 1 ? "," : "", within[i] - 1);
			else
				printf(" %zu within %zu hop%s%s", within[i] - 1, i, i == 1 ? "" : "s",
				    i < maxdepth ? "," : "\n");
		}
		if (c->json)
			fputc(']', stdout);
	}
	if (c->json)
		fputs("}\n", stdout);
	wot_search_free(s);
	free(order);
	free(dist);
	return EXIT_OK;
}
