/*
 * wot_why.c - `wotkit wot why TARGET`: whether TARGET has a path from the
 * root, and if not, why (keyring/wot.h wot_explain; docs/wot.md "Why").
 */
#include <stdlib.h>
#include <string.h>
#include "wotcli.h"
#include "wot_out.h"
#include "out.h"

static size_t outside_issuers(const wot_cli *c, uint32_t target, uint8_t (*ids)[8], size_t max,
    size_t *ncerts);

static const char *
verdict_code(const wot_cli *c, uint32_t target, const wot_why *w)
{
	uint8_t ids[1][8];
	size_t nc;

	switch (w->verdict) {
	case WOT_WHY_PATH: return "path";
	case WOT_WHY_TARGET_INVALID: return "target-invalid";
	case WOT_WHY_ROOT_INVALID: return "root-invalid";
	case WOT_WHY_NO_CERTS:
		/* raw sources name the certifications stripping dropped */
		return outside_issuers(c, target, ids, 1, &nc) > 0 ? "issuers-outside" :
		    "no-certifications";
	case WOT_WHY_NOT_CONNECTED: return "not-connected";
	case WOT_WHY_BEYOND: return "beyond-maxdepth";
	default: break;
	}
	/* blocked: the kinds on the cheapest path, '+'-joined in a fixed order */
	switch (w->kinds) {
	case WOT_BLOCK_POLICY: return "policy";
	case WOT_BLOCK_KEY: return "through-invalid-key";
	case WOT_BLOCK_CERT: return "cert-invalid";
	case WOT_BLOCK_POLICY | WOT_BLOCK_KEY: return "policy+through-invalid-key";
	case WOT_BLOCK_POLICY | WOT_BLOCK_CERT: return "policy+cert-invalid";
	case WOT_BLOCK_KEY | WOT_BLOCK_CERT: return "through-invalid-key+cert-invalid";
	default: return "policy+through-invalid-key+cert-invalid";
	}
}

static const char *
node_word(int st)
{
	switch (st) {
	case WOT_NODE_VALID: return "valid";
	case WOT_NODE_EXPIRED: return "expired";
	case WOT_NODE_REVOKED: return "revoked";
	case WOT_NODE_POLICY: return "refused by policy";
	default: return "not valid";
	}
}

static const char *
cert_word(int st)
{
	switch (st) {
	case WOT_CERT_OK: return "counts";
	case WOT_CERT_REVOKED: return "revoked";
	case WOT_CERT_EXPIRED: return "expired";
	case WOT_CERT_POLICY: return "refused by policy";
	case WOT_CERT_FUTURE: return "made after the reference time";
	case WOT_CERT_ISSUER_KEY: return "made by a subkey that may not certify";
	case WOT_CERT_UID: return "on a user ID that is not valid";
	case WOT_CERT_ISSUER: return "issuer not valid";
	default: return "target not valid";
	}
}

static void
keyline(FILE *f, const wot_graph *g, uint32_t node)
{
	const wot_node *nd = wot_node_at(g, node);
	char kid[17];
	pgp_view u = wot_cli_uid(nd);

	wot_cli_keyid(nd, kid);
	fprintf(f, "%s \"", kid);
	out_esc_human(f, u.p, u.len);
	fputc('"', f);
}

static void
date(FILE *f, int64_t t)
{
	char buf[32];
	pgp_time_format(buf, sizeof buf, t, PGP_TIME_SHORT);
	fputs(buf, f);
}

/* The issuers of certifications on `target` that stripping dropped because
 * the issuer is not in the keyring (raw sources only). */
static size_t
outside_issuers(const wot_cli *c, uint32_t target, uint8_t (*ids)[8], size_t max,
    size_t *ncerts)
{
	const kr_scert *sc;
	size_t n = 0, i, j;

	*ncerts = 0;
	if (!c->have_strip || target >= c->strip.ncerts)
		return 0;
	sc = &c->strip.certs[target];
	for (i = 0; i < sc->nsigs; i++) {
		const kr_sigrec *r = &sc->sigs[i];
		if (r->kept || r->reason != KR_DROP_ISSUER_OUTSIDE || !r->has_issuer)
			continue;
		++*ncerts;
		for (j = 0; j < n; j++)
			if (memcmp(ids[j], r->issuer, 8) == 0)
				break;
		if (j == n && n < max)
			memcpy(ids[n++], r->issuer, 8);
	}
	return n;
}

static void
text_report(wot_cli *c, uint32_t root, uint32_t target, unsigned maxdepth, const wot_why *w)
{
	const wot_graph *g = c->g;
	const wot_node *tn = wot_node_at(g, target), *rn = wot_node_at(g, root);
	char tk[17], rk[17];
	uint32_t k;

	wot_cli_keyid(tn, tk);
	wot_cli_keyid(rn, rk);
	if (w->verdict == WOT_WHY_PATH) {
		printf("%s: path from %s: %u hops\n", tk, rk, w->hops);
		return;
	}
	printf("%s: no path from %s: %s\n", tk, rk, verdict_code(c, target, w));
	switch (w->verdict) {
	case WOT_WHY_TARGET_INVALID:
	case WOT_WHY_ROOT_INVALID: {
		const wot_node *bad = w->verdict == WOT_WHY_TARGET_INVALID ? tn : rn;
		fputs("  ", stdout);
		keyline(stdout, g, w->verdict == WOT_WHY_TARGET_INVALID ? target : root);
		printf(" is %s", node_word(bad->state));
		if (bad->state == WOT_NODE_EXPIRED && bad->expires) {
			fputs(" since ", stdout);
			date(stdout, bad->expires);
		} else if (bad->state == WOT_NODE_REVOKED && bad->revoked_at) {
			fputs(" since ", stdout);
			date(stdout, bad->revoked_at);
		}
		if (bad->reason) {
			fputs(": ", stdout);
			out_esc_text(stdout, bad->reason);
		}
		fputc('\n', stdout);
		return;
	}
	case WOT_WHY_NO_CERTS: {
		uint8_t ids[64][8];
		size_t nc, n = outside_issuers(c, target, ids, 64, &nc), i;
		if (n > 0) {
			printf("  every certification (%zu) is by a key outside the keyring (%zu "
			    "issuer%s):", nc, n, n == 1 ? "" : "s");
			for (i = 0; i < n; i++) {
				char h[17];
				pgp_hex_encode(h, ids[i], 8);
				printf(" %s", h);
			}
			fputc('\n', stdout);
		} else if (!c->have_strip) {
			kr_certinfo ci;
			printf("  no certification by a key in the keyring");
			if (kr_cert_info(c->kr, target, &ci) == PGP_OK && ci.dropped > 0)
				printf(" (%u signatures were dropped when the keyring was built; run "
				    "`wot why` on the sources to name their issuers)", ci.dropped);
			fputc('\n', stdout);
		} else {
			printf("  nobody certified any of its user IDs\n");
		}
		return;
	}
	case WOT_WHY_NOT_CONNECTED: {
		const uint32_t *cs;
		size_t n = wot_received(g, target, &cs), i;
		uint32_t last = UINT32_MAX;
		printf("  certified by keys in the keyring, none of them reachable from %s:\n", rk);
		for (i = 0; i < n; i++) {
			const wot_cert *ct = wot_cert_at(g, cs[i]);
			if (ct->issuer == last)
				continue;
			last = ct->issuer;
			fputs("    ", stdout);
			keyline(stdout, g, ct->issuer);
			fputc('\n', stdout);
		}
		return;
	}
	case WOT_WHY_BEYOND:
		printf("  the shortest path has %u hops; --maxdepth is %u\n", w->hops, maxdepth);
		break;
	default:
		printf("  the closest chain has %u hop%s, %u of them blocked:\n", w->hops,
		    w->hops == 1 ? "" : "s", w->blocked);
		break;
	}
	if (!w->stored)
		return;
	for (k = 0; k < w->hops; k++) {
		const wot_cert *ct = wot_cert_at(g, w->cert[k]);
		const wot_node *tgt = wot_node_at(g, w->node[k + 1]);
		const pgp_view uid = tgt->cert->uids[ct->uid].data;
		unsigned b = wot_cert_block(g, ct);
		char ik[17], gk[17];
		wot_cli_keyid(wot_node_at(g, w->node[k]), ik);
		wot_cli_keyid(tgt, gk);
		printf("  %s -> %s \"", ik, gk);
		out_esc_human(stdout, uid.p, uid.len);
		printf("\" (%s, ", pgp_hash_name(ct->hash_algo));
		date(stdout, ct->created);
		fputs(")", stdout);
		if (b & (WOT_BLOCK_POLICY | WOT_BLOCK_CERT)) {
			printf(": %s", cert_word(ct->state));
			if (ct->reason) {
				fputs(": ", stdout);
				out_esc_text(stdout, ct->reason);
			}
		}
		fputc('\n', stdout);
		if (k + 1 < w->hops && tgt->state != WOT_NODE_VALID) {
			fputs("    through ", stdout);
			keyline(stdout, g, w->node[k + 1]);
			printf(", which is %s", node_word(tgt->state));
			if (tgt->state == WOT_NODE_EXPIRED && tgt->expires) {
				fputs(" since ", stdout);
				date(stdout, tgt->expires);
			}
			if (tgt->reason) {
				fputs(": ", stdout);
				out_esc_text(stdout, tgt->reason);
			}
			fputc('\n', stdout);
		}
	}
}

static void
json_fpr(FILE *f, const wot_node *nd)
{
	char h[2 * PGP_FPR_MAX + 1];
	pgp_hex_encode(h, nd->fpr.v, nd->fpr.len);
	fprintf(f, "\"%s\"", h);
}

static void
json_report(wot_cli *c, uint32_t root, uint32_t target, const wot_why *w)
{
	const wot_graph *g = c->g;
	uint32_t k;

	fputs("{\"target\":", stdout);
	json_fpr(stdout, wot_node_at(g, target));
	fputs(",\"root\":", stdout);
	json_fpr(stdout, wot_node_at(g, root));
	printf(",\"at\":%lld,\"reason\":\"%s\",\"hops\":%u,\"blocked\":%u", (long long)wot_time(g),
	    verdict_code(c, target, w), w->hops, w->blocked);
	fputs(",\"chain\":[", stdout);
	if (w->stored && w->verdict != WOT_WHY_NO_CERTS && w->verdict != WOT_WHY_NOT_CONNECTED)
		for (k = 0; k < w->hops; k++) {
			const wot_cert *ct = wot_cert_at(g, w->cert[k]);
			const wot_node *tgt = wot_node_at(g, w->node[k + 1]);
			pgp_view uid = tgt->cert->uids[ct->uid].data;
			fputs(k ? ",{\"issuer\":" : "{\"issuer\":", stdout);
			json_fpr(stdout, wot_node_at(g, w->node[k]));
			fputs(",\"target\":", stdout);
			json_fpr(stdout, tgt);
			fputs(",\"uid\":\"", stdout);
			out_esc_json(stdout, uid.p, uid.len);
			printf("\",\"hash\":\"%s\",\"created\":%lld,\"state\":\"%s\",\"target_state\":\"%s\"}",
			    pgp_hash_name(ct->hash_algo), (long long)ct->created, cert_word(ct->state),
			    node_word(tgt->state));
		}
	fputs("],\"outside_issuers\":[", stdout);
	if (w->verdict == WOT_WHY_NO_CERTS) {
		uint8_t ids[64][8];
		size_t nc, n = outside_issuers(c, target, ids, 64, &nc), i;
		for (i = 0; i < n; i++) {
			char h[17];
			pgp_hex_encode(h, ids[i], 8);
			printf("%s\"%s\"", i ? "," : "", h);
		}
	}
	fputs("]}\n", stdout);
}

int
wot_cmd_why(wot_cli *c, int argc, char **argv)
{
	const char *target = NULL, *from = NULL;
	unsigned maxdepth = 4;
	uint32_t to, fr;
	wot_why w;
	int i, r;

	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(c, argc, argv, &i)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--maxdepth", 1, WOT_MAX_DEPTH, &maxdepth)) != 0 ||
		    (r = wot_str_opt(c, argc, argv, &i, "--from", &from)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(c->cmd, "unknown option %s", argv[i]);
			return EXIT_USAGE;
		} else if (target == NULL) {
			target = argv[i];
		} else {
			cli_msg(c->cmd, "one TARGET only");
			return EXIT_USAGE;
		}
	}
	if (target == NULL) {
		cli_msg(c->cmd, "usage: wotkit wot why [--from KEY] [--maxdepth N] [--json] TARGET");
		return EXIT_USAGE;
	}
	if (wot_cli_open(c, from == NULL) != 0 || wot_cli_key(c, target, &to) != 0)
		return EXIT_USAGE;
	if (wot_cli_from(c, from, &fr) != 0)
		return EXIT_USAGE;
	if (wot_explain(c->g, fr, to, maxdepth, &w) != PGP_OK) {
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	if (c->json)
		json_report(c, fr, to, &w);
	else
		text_report(c, fr, to, maxdepth, &w);
	return w.verdict == WOT_WHY_PATH ? EXIT_OK : EXIT_FAIL;
}

