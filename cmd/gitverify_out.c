/*
 * gitverify_out.c - what verify-tag / verify-commit print: one block of
 * human text per object, or one element of a JSON array. see gitverify.h
 */
#include <string.h>
#include "gitverify.h"
#include "wot_out.h"
#include "out.h"
#include "keyring/gitobj.h"

static const char *
phrase(gv_verdict v)
{
	static const char *const p[] = {
		"good signature, trusted", "good signature, untrusted", "no signature",
		"BAD signature", "signature by an unknown key", "signature by an expired key",
		"signature by a revoked key", "expired signature", "signature refused by the policy",
		"more than one signature (refused)", "unsupported signature format",
		"malformed signature",
	};
	return (size_t)v < sizeof p / sizeof p[0] ? p[v] : "malformed signature";
}

static const char *
short_name(const char *name)
{
	return strncmp(name, "refs/tags/", 10) == 0 ? name + 10 : name;
}

static void
fpr_hex(char *out, const pgp_fpr *f)
{
	pgp_hex_encode(out, f->v, f->len);
}

/* The signer's user ID: the graph's primary user ID at t, else the
 * verifier's (it names none for a bad signature). */
static pgp_view
signer_uid(const gv_ctx *x, const gv_sig *s)
{
	if (s->node >= 0)
		return wot_cli_uid(wot_node_at(x->c.g, (uint32_t)s->node));
	return s->res.primary_uid;
}

/* The signature's lines (indent: "  " for an object, "    " for a mergetag).
 * 1 when the last thing printed was a path (which ends with a blank line). */
static int
human_sig(gv_ctx *x, const gv_sig *s, const char *ind)
{
	char h[2 * PGP_FPR_MAX + 1], t[64];
	const pgp_result *r = &s->res;

	printf("%sverdict:   %s\n", ind, gv_verdict_word(s->verdict));
	if (s->reason && s->verdict != GV_GOOD)
		printf("%sreason:    %s\n", ind, s->reason);
	if (!s->has_result)
		return 0;
	if (r->cert != NULL) {
		pgp_view u = signer_uid(x, s);
		printf("%ssigner:    ", ind);
		out_esc_plain(stdout, u.p, u.len);
		putchar('\n');
		fpr_hex(h, &r->key_fpr);
		printf("%skey:       %s%s\n", ind, h, r->subkey >= 0 ? " (subkey)" : "");
		fpr_hex(h, &r->cert_fpr);
		printf("%sprimary:   %s\n", ind, h);
	} else if (r->issuer_fpr.len) {
		fpr_hex(h, &r->issuer_fpr);
		printf("%sissuer:    %s\n", ind, h);
	} else if (r->has_issuer) {
		pgp_hex_encode(h, r->issuer, 8);
		printf("%sissuer:    %s\n", ind, h);
	}
	if (r->created) {
		pgp_time_format(t, sizeof t, r->created, 0);
		printf("%ssigned:    %s\n", ind, t);
	}
	if (s->node < 0)
		return 0;
	printf("%svalidity:  %s\n", ind, wot_validity_name(s->validity));
	if (!s->has_path) {
		printf("%spath:      none from the root within %u hops\n", ind, GV_MAX_DEPTH);
		return 0;
	}
	/* the path from the root, as `wotkit wot path` writes it */
	printf("%spath:\n", ind);
	wot_out_text(stdout, x->c.g, &s->path, 1);
	return 1;
}

static void
json_sig(gv_ctx *x, const gv_sig *s)
{
	char h[2 * PGP_FPR_MAX + 1], t[64];
	const pgp_result *r = &s->res;
	uint32_t k;

	printf("\"verdict\":\"%s\",\"reason\":", gv_verdict_word(s->verdict));
	if (s->reason && s->verdict != GV_GOOD)
		out_json_str(stdout, s->reason);
	else
		fputs("null", stdout);
	fputs(",\"signer\":", stdout);
	if (s->has_result && r->cert != NULL) {
		pgp_view u = signer_uid(x, s);
		fputs("{\"uid\":\"", stdout);
		out_esc_json(stdout, u.p, u.len);
		fpr_hex(h, &r->cert_fpr);
		printf("\",\"fpr\":\"%s\",", h);
		fpr_hex(h, &r->key_fpr);
		printf("\"signing_key\":\"%s\",\"subkey\":%s}", h, r->subkey >= 0 ? "true" : "false");
	} else {
		fputs("null", stdout);
	}
	fputs(",\"issuer\":", stdout);
	if (s->has_result && r->issuer_fpr.len) {
		fpr_hex(h, &r->issuer_fpr);
		printf("\"%s\"", h);
	} else if (s->has_result && r->has_issuer) {
		pgp_hex_encode(h, r->issuer, 8);
		printf("\"%s\"", h);
	} else {
		fputs("null", stdout);
	}
	fputs(",\"created\":", stdout);
	if (s->has_result && r->created) {
		pgp_time_format(t, sizeof t, r->created, 0);
		printf("\"%s\"", t);
	} else {
		fputs("null", stdout);
	}
	fputs(",\"validity\":", stdout);
	if (s->node >= 0)
		printf("\"%s\"", wot_validity_name(s->validity));
	else
		fputs("null", stdout);
	fputs(",\"path\":", stdout);
	if (s->has_path) {
		putchar('[');
		for (k = 0; k <= s->path.len; k++) {
			if (k)
				putchar(',');
			wot_out_json_key(stdout, wot_node_at(x->c.g, s->path.node[k]));
		}
		putchar(']');
	} else {
		fputs("null", stdout);
	}
}

static void
json_open(gv_ctx *x)
{
	fputs(x->nprinted++ ? ",\n" : "[", stdout);
}

/* see gitverify.h */
void
gv_print(gv_ctx *x, const gv_object *o)
{
	size_t i;
	int blank;

	if (x->json) {
		json_open(x);
		printf("{\"type\":\"%s\",\"name\":", o->type == GITOBJ_TAG ? "tag" : "commit");
		out_json_str(stdout, o->name);
		printf(",\"id\":\"%s\",\"ok\":%s,", o->id, gv_object_ok(o) ? "true" : "false");
		json_sig(x, &o->sig);
		if (o->type == GITOBJ_COMMIT) {
			fputs(",\"mergetags\":[", stdout);
			for (i = 0; i < o->nmt; i++) {
				fputs(i ? ",{\"tag\":" : "{\"tag\":", stdout);
				out_json_str(stdout, o->mt[i].tag);
				printf(",\"object\":\"%s\",\"parent\":%s,", o->mt[i].object,
				    o->mt[i].is_parent ? "true" : "false");
				json_sig(x, &o->mt[i].sig);
				putchar('}');
			}
			putchar(']');
		}
		putchar('}');
		return;
	}
	if (o->type == GITOBJ_TAG) {
		fputs("tag ", stdout);
		out_esc_text(stdout, short_name(o->name));
	} else if (strstr(o->name, "..") != NULL || strcmp(o->name, o->id) == 0) {
		printf("commit %s", o->id);
	} else {
		fputs("commit ", stdout);
		out_esc_text(stdout, o->name);
		printf(" (%.12s)", o->id);
	}
	printf(": %s\n", phrase(o->sig.verdict));
	blank = human_sig(x, &o->sig, "  ");
	for (i = 0; i < o->nmt; i++) {
		const gv_mergetag *m = &o->mt[i];
		fputs("  mergetag ", stdout);
		out_esc_text(stdout, m->tag[0] ? m->tag : "?");
		printf(" (object %.12s%s): %s\n", m->object[0] ? m->object : "?",
		    m->is_parent ? ", a parent" : ", NOT a parent of this commit", phrase(m->sig.verdict));
		blank = human_sig(x, &m->sig, "    ");
	}
	if (!blank)
		putchar('\n');
}

/* see gitverify.h */
void
gv_print_failure(gv_ctx *x, int type, const char *name, size_t nlen, const char *text,
    size_t tlen)
{
	if (x->json) {
		json_open(x);
		printf("{\"type\":\"%s\",\"name\":\"", type == GITOBJ_TAG ? "tag" : "commit");
		out_esc_json(stdout, (const uint8_t *)name, nlen);
		fputs("\",\"id\":null,\"ok\":false,\"verdict\":\"error\",\"reason\":\"", stdout);
		out_esc_json(stdout, (const uint8_t *)text, tlen);
		fputs("\"}", stdout);
		return;
	}
	printf("%s ", type == GITOBJ_TAG ? "tag" : "commit");
	out_esc_plain(stdout, (const uint8_t *)name, nlen);
	fputs(": error: ", stdout);
	out_esc_plain(stdout, (const uint8_t *)text, tlen);
	fputs("\n\n", stdout);
}
