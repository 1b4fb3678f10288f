/*
 * pullcheck_out.c - what `wotkit pull-check` prints: the tag as verify-tag
 * prints it, the changed files, those outside the signer's sections with
 * the sections and maintainers that cover them, and a result line; or one
 * JSON document (docs/maintainers.md). see pullcheck.h
 */
#include <string.h>
#include "pullcheck.h"
#include "out.h"
#include "wot_out.h"

static const char *
result_words(const pc_run *r)
{
	if (!r->have_obj)
		return "error";
	if (r->obj.sig.verdict == GV_GOOD)
		return gv_object_ok(&r->obj) ? "good, trusted" : "good, trusted (refused)";
	if (r->obj.sig.verdict == GV_UNTRUSTED)
		return "good, untrusted";
	return gv_verdict_word(r->obj.sig.verdict);
}

/* The maintainers of section s: M: addresses (or the value when it has
 * none), separated by ", ". */
static void
human_maintainers(const maint_file *m, size_t s)
{
	const maint_section *sec = maint_section_at(m, s);
	uint32_t k;
	int any = 0;

	for (k = 0; k < sec->n; k++) {
		const maint_entry *e = maint_entry_at(m, sec->first + k);
		pgp_view v;
		if (e->type != 'M')
			continue;
		v = e->email.len ? e->email : e->value;
		fputs(any ? ", " : " ", stdout);
		out_esc_plain(stdout, v.p, v.len);
		any = 1;
	}
	if (!any)
		fputs(" (no M:)", stdout);
}

static void
human_file(const pc_change *c)
{
	printf("  %c ", c->status);
	out_esc_plain(stdout, (const uint8_t *)c->path, c->len);
	putchar('\n');
}

/* see pullcheck.h */
void
pc_print_human(pc_run *r)
{
	size_t i, j;
	char tb[64];

	gv_print(&r->x, &r->obj);
	printf("changes: %zu file%s from merge base %s to commit %s\n", r->nch,
	    r->nch == 1 ? "" : "s", r->base_id, r->commit_id);
	if (r->m == NULL) {
		for (i = 0; i < r->nch; i++)
			human_file(&r->ch[i]);
		printf("result: %s\n", result_words(r));
		return;
	}
	fputs("signer's addresses:", stdout);
	for (i = 0; i < r->nemails; i++) {
		putchar(' ');
		out_esc_plain(stdout, r->emails[i].p, r->emails[i].len);
	}
	puts(r->nemails ? "" : " (none)");
	if (r->noutside)
		printf("outside the signer's sections (%zu of %zu):\n", r->noutside, r->nch);
	for (i = 0; i < r->nch; i++) {
		const pc_change *c = &r->ch[i];
		if (c->inside)
			continue;
		human_file(c);
		if (c->nsecs == 0)
			puts("      (no section)");
		for (j = 0; j < c->nsecs; j++) {
			pgp_view t;
			maint_cli_title(r->m, c->secs[j], tb, sizeof tb, &t);
			fputs("      ", stdout);
			out_esc_plain(stdout, t.p, t.len);
			putchar(':');
			human_maintainers(r->m, c->secs[j]);
			putchar('\n');
		}
	}
	printf("result: %s; %zu of %zu file%s outside the signer's sections\n", result_words(r),
	    r->noutside, r->nch, r->nch == 1 ? "" : "s");
}

/* ---- JSON ---- */

static void
json_tag(pc_run *r, out_ctx *o)
{
	const gv_sig *s = &r->obj.sig;
	const pgp_result *res = &s->res;
	uint32_t k;

	out_open(o, "tag", NULL);
	out_str0(o, "name", r->obj.name);
	out_text(o, "id", "%s", r->obj.id);
	out_text(o, "verdict", "%s", gv_verdict_word(s->verdict));
	out_str0(o, "reason", s->reason && s->verdict != GV_GOOD ? s->reason : NULL);
	out_bool(o, "good", s->verdict == GV_GOOD || s->verdict == GV_UNTRUSTED);
	out_bool(o, "trusted", s->verdict == GV_GOOD);
	if (s->has_result && res->cert != NULL) {
		pgp_view u = s->node >= 0 ? wot_cli_uid(wot_node_at(r->x.c.g, (uint32_t)s->node)) :
		    res->primary_uid;
		out_open(o, "signer", NULL);
		out_str(o, "uid", u.p, u.len);
		out_hex(o, "fpr", res->cert_fpr.v, res->cert_fpr.len, 0);
		out_hex(o, "signing_key", res->key_fpr.v, res->key_fpr.len, 0);
		out_close(o);
	} else {
		out_null(o, "signer");
	}
	if (s->has_result && res->created)
		out_time(o, "created", res->created);
	else
		out_null(o, "created");
	if (s->node >= 0)
		out_text(o, "validity", "%s", wot_validity_name(s->validity));
	else
		out_null(o, "validity");
	if (s->has_path) {
		out_arr_open(o, "path");
		for (k = 0; k <= s->path.len; k++) {
			const wot_node *nd = wot_node_at(r->x.c.g, s->path.node[k]);
			out_hex(o, NULL, nd->fpr.v, nd->fpr.len, 0);
		}
		out_arr_close(o);
	} else {
		out_null(o, "path");
	}
	out_close(o);
}

static void
json_section(pc_run *r, out_ctx *o, size_t s)
{
	const maint_section *sec = maint_section_at(r->m, s);
	uint32_t k;

	out_open(o, NULL, NULL);
	out_str(o, "title", sec->title.p, sec->title.len);
	out_int(o, "line", sec->line);
	out_arr_open(o, "maintainers");
	for (k = 0; k < sec->n; k++) {
		const maint_entry *e = maint_entry_at(r->m, sec->first + k);
		if (e->type == 'M') {
			pgp_view v = e->email.len ? e->email : e->value;
			out_str(o, NULL, v.p, v.len);
		}
	}
	out_arr_close(o);
	out_close(o);
}

/* see pullcheck.h */
void
pc_print_json(pc_run *r)
{
	out_ctx o;
	size_t i, j;

	out_init(&o, stdout, 1);
	out_open(&o, NULL, NULL);
	out_bool(&o, "ok", pc_good(r) && r->noutside == 0);
	json_tag(r, &o);
	out_text(&o, "base", "%s", r->base_id);
	out_text(&o, "commit", "%s", r->commit_id);
	out_str0(&o, "maintainers", r->maint_path);
	out_arr_open(&o, "signer_emails");
	for (i = 0; i < r->nemails; i++)
		out_str(&o, NULL, r->emails[i].p, r->emails[i].len);
	out_arr_close(&o);
	out_arr_open(&o, "files");
	for (i = 0; i < r->nch; i++) {
		const pc_change *c = &r->ch[i];
		out_open(&o, NULL, NULL);
		out_str(&o, "path", (const uint8_t *)c->path, c->len);
		out_text(&o, "status", "%c", c->status);
		if (r->m) {
			out_bool(&o, "inside", c->inside);
			out_arr_open(&o, "sections");
			for (j = 0; j < c->nsecs; j++)
				json_section(r, &o, c->secs[j]);
			out_arr_close(&o);
		} else {
			out_null(&o, "inside");
			out_null(&o, "sections");
		}
		out_close(&o);
	}
	out_arr_close(&o);
	if (r->m)
		out_int(&o, "outside", (long long)r->noutside);
	else
		out_null(&o, "outside");
	out_close(&o);
	out_finish(&o);
}
