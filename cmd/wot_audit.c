/*
 * wot_audit.c - `wotkit wot audit`: which keys lose their last path to the
 * root under a stricter policy (by default wotkit's standard policy, which
 * refuses SHA-1 certifications, against the baseline gpg and wotmate
 * accept: the same policy with SHA-1 allowed), and the smallest set of
 * re-certifications and renewals we found that would restore them
 * (keyring/wot.h wot_audit_run; docs/wot.md "Audit").
 */
#include <stdlib.h>
#include <string.h>
#include "wotcli.h"
#include "out.h"
#include "wot_out.h"

static void
key_text(const wot_graph *g, uint32_t node)
{
	const wot_node *nd = wot_node_at(g, node);
	char kid[17];
	pgp_view u = wot_cli_uid(nd);

	wot_cli_keyid(nd, kid);
	printf("%s  ", kid);
	out_esc_plain(stdout, u.p, u.len);
}

int
wot_cmd_audit(wot_cli *c, int argc, char **argv)
{
	unsigned maxdepth = 4;
	pgp_policy base;
	wot_graph *gb = NULL;
	wot_audit au;
	size_t i, nrecert = 0, nrenew = 0;
	int a, r, rc;

	for (a = 1; a < argc; a++) {
		if ((r = wot_cli_opt(c, argc, argv, &a)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &a, "--maxdepth", 1, WOT_MAX_DEPTH, &maxdepth)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else {
			cli_msg(c->cmd, "unknown argument %s", argv[a]);
			cli_msg(c->cmd, "usage: wotkit wot audit [--policy-as-of DATE] [--policy FILE] "
			    "[--maxdepth N] [--json]");
			return EXIT_USAGE;
		}
	}
	if (wot_cli_open(c, 1) != 0)
		return EXIT_USAGE;
	/* the baseline: the standard policy with SHA-1 accepted everywhere */
	pgp_policy_init(&base);
	pgp_policy_allow_hash(&base, PGP_HASH_SHA1, PGP_USE_COLLISION);
	pgp_policy_allow_hash(&base, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE);
	if (wot_cli_graph(c, &base, &gb) != 0)
		return EXIT_USAGE;
	if (wot_audit_run(gb, c->g, (uint32_t)c->root, maxdepth, &au) != PGP_OK) {
		wot_free(gb);
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	for (i = 0; i < au.nact; i++) {
		if (au.act[i].kind == WOT_ACT_RECERTIFY)
			nrecert++;
		else
			nrenew++;
	}
	if (c->json) {
		fputs("{\"lost\":[", stdout);
		for (i = 0; i < au.nlost; i++) {
			if (i)
				fputc(',', stdout);
			wot_out_json_key(stdout, wot_node_at(gb, au.lost[i]));
		}
		fputs("],\"recertify\":[", stdout);
		for (i = 0, r = 0; i < au.nact; i++) {
			const wot_cert *ct;
			char is[2 * PGP_FPR_MAX + 1], tg[2 * PGP_FPR_MAX + 1];
			pgp_view uid;
			if (au.act[i].kind != WOT_ACT_RECERTIFY)
				continue;
			ct = wot_cert_at(c->g, au.act[i].cert);
			uid = wot_node_at(c->g, ct->target)->cert->uids[ct->uid].data;
			pgp_hex_encode(is, wot_node_at(c->g, ct->issuer)->fpr.v, wot_node_at(c->g, ct->issuer)->fpr.len);
			pgp_hex_encode(tg, wot_node_at(c->g, ct->target)->fpr.v, wot_node_at(c->g, ct->target)->fpr.len);
			printf("%s{\"issuer\":\"%s\",\"target\":\"%s\",\"uid\":\"", r++ ? "," : "", is, tg);
			out_esc_json(stdout, uid.p, uid.len);
			printf("\",\"hash\":\"%s\",\"created\":%lld}", pgp_hash_name(ct->hash_algo),
			    (long long)ct->created);
		}
		fputs("],\"renew\":[", stdout);
		for (i = 0, r = 0; i < au.nact; i++) {
			if (au.act[i].kind != WOT_ACT_RENEW)
				continue;
			if (r++)
				fputc(',', stdout);
			wot_out_json_key(stdout, wot_node_at(gb, au.act[i].node));
		}
		fputs("],\"unrestorable\":[", stdout);
		for (i = 0; i < au.nstuck; i++) {
			if (i)
				fputc(',', stdout);
			wot_out_json_key(stdout, wot_node_at(gb, au.stuck[i]));
		}
		fputs("]}\n", stdout);
	} else {
		printf("keys losing their last path: %zu\n", au.nlost);
		for (i = 0; i < au.nlost; i++) {
			fputs("  ", stdout);
			key_text(gb, au.lost[i]);
			fputc('\n', stdout);
		}
		printf("re-certifications needed: %zu\n", nrecert);
		for (i = 0; i < au.nact; i++) {
			const wot_cert *ct;
			char ik[17], tk[17];
			pgp_view uid;
			if (au.act[i].kind != WOT_ACT_RECERTIFY)
				continue;
			ct = wot_cert_at(c->g, au.act[i].cert);
			uid = wot_node_at(c->g, ct->target)->cert->uids[ct->uid].data;
			wot_cli_keyid(wot_node_at(c->g, ct->issuer), ik);
			wot_cli_keyid(wot_node_at(c->g, ct->target), tk);
			printf("  %s must re-certify %s/", ik, tk);
			out_esc_plain(stdout, uid.p, uid.len);
			printf("   (now %s)\n", pgp_hash_name(ct->hash_algo));
		}
		printf("self-signature renewals needed: %zu\n", nrenew);
		for (i = 0; i < au.nact; i++) {
			char kid[17];
			if (au.act[i].kind != WOT_ACT_RENEW)
				continue;
			wot_cli_keyid(wot_node_at(c->g, au.act[i].node), kid);
			printf("  %s must renew its self-signatures (", kid);
			{
				const wot_node *nd = wot_node_at(c->g, au.act[i].node);
				if (nd->reason)
					out_esc_text(stdout, nd->reason);
				else
					fputs("a certified user ID's binding is refused", stdout);
			}
			fputs(")\n", stdout);
		}
		if (au.nstuck > 0) {
			printf("not restorable by re-certifying or renewing: %zu\n", au.nstuck);
			for (i = 0; i < au.nstuck; i++) {
				fputs("  ", stdout);
				key_text(gb, au.stuck[i]);
				fputc('\n', stdout);
			}
		}
	}
	rc = au.nlost == 0 ? EXIT_OK : EXIT_FAIL;
	wot_audit_free(&au);
	wot_free(gb);
	return rc;
}
