/*
 * out.c - the output module of the front ends: the escaping routines and
 * the emitter (human text or one JSON document). see out.h
 *
 * JSON strings from out_str() that were not valid UTF-8 also get a sibling
 * "<key>_hex" field with the exact octets, so nothing is lost and the
 * document stays valid UTF-8.
 */
#include <stdarg.h>
#include <string.h>
#include "cli.h"
#include "out.h"

/* Code points a terminal may act on: C0, DEL, C1, and the bidirectional
 * embeddings/overrides/isolates (Unicode UAX #9) that reorder what follows. */
static int
is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) ||
	    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/* The human escaping; `quoted`: also escape '"' and '\\' (values shown in
 * quotes); without it, for text the front end composed itself. */
static void
esc_human(FILE *f, const uint8_t *p, size_t n, int quoted)
{
	size_t i = 0, l, k;
	uint32_t cp;
	while (i < n) {
		uint8_t c = p[i];
		if (quoted && (c == '"' || c == '\\')) {
			fputc('\\', f);
			fputc(c, f);
			i++;
		} else if ((l = pgp_utf8_decode(p + i, n - i, &cp)) == 0) {
			fprintf(f, "\\x%02X", (unsigned)c);
			i++;
		} else if (is_control(cp)) {
			for (k = 0; k < l; k++)
				fprintf(f, "\\x%02X", (unsigned)p[i + k]);
			i += l;
		} else {
			fwrite(p + i, 1, l, f);
			i += l;
		}
	}
}

/* see out.h */
void
out_esc_human(FILE *f, const uint8_t *p, size_t n)
{
	esc_human(f, p, n, 1);
}

/* see out.h */
void
out_esc_text(FILE *f, const char *s)
{
	esc_human(f, (const uint8_t *)s, strlen(s), 0);
}

void
out_esc_plain(FILE *f, const uint8_t *p, size_t n)
{
	esc_human(f, p, n, 0);
}

/* see out.h */
void
out_esc_json(FILE *f, const uint8_t *p, size_t n)
{
	size_t i = 0, l;
	uint32_t cp;
	while (i < n) {
		uint8_t c = p[i];
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			i++;
		} else if (c == '\n') {
			fputs("\\n", f);
			i++;
		} else if (c == '\t') {
			fputs("\\t", f);
			i++;
		} else if (c == '\r') {
			fputs("\\r", f);
			i++;
		} else if ((l = pgp_utf8_decode(p + i, n - i, &cp)) == 0) {
			fputs("\\uFFFD", f);
			i++;
		} else if (is_control(cp)) {
			fprintf(f, "\\u%04X", (unsigned)cp);
			i += l;
		} else {
			fwrite(p + i, 1, l, f);
			i += l;
		}
	}
}

/* see out.h */
void
out_json_str(FILE *f, const char *s)
{
	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	out_esc_json(f, (const uint8_t *)s, strlen(s));
	fputc('"', f);
}

/* see out.h */
void
out_init(out_ctx *o, FILE *f, int json)
{
	memset(o, 0, sizeof *o);
	o->f = f;
	o->json = json;
}

/* Human indentation: the number of open levels that printed a heading. */
static int
hindent(const out_ctx *o)
{
	int i, n = 0;
	for (i = 1; i <= o->depth && i < OUT_MAX_DEPTH; i++)
		n += o->indented[i];
	return n;
}

static void
human_key(out_ctx *o, const char *key);

/* Human heading line "key:" (no trailing space). */
static void
human_heading(out_ctx *o, const char *key)
{
	const char *k;
	fprintf(o->f, "%*s", 2 * hindent(o), "");
	for (k = key; *k; k++)
		fputc(*k == '_' ? ' ' : *k, o->f);
	fputs(":\n", o->f);
}

static void
human_key(out_ctx *o, const char *key)
{
	const char *k;
	fprintf(o->f, "%*s", 2 * hindent(o), "");
	if (!key) {
		fputs("- ", o->f);
		return;
	}
	for (k = key; *k; k++)
		fputc(*k == '_' ? ' ' : *k, o->f);
	fputs(": ", o->f);
}

/* JSON: comma, newline, indent and "key": for the next element. */
static void
json_sep(out_ctx *o, const char *key)
{
	int d = o->depth < OUT_MAX_DEPTH ? o->depth : OUT_MAX_DEPTH - 1;
	if (o->nonfirst[d])
		fputc(',', o->f);
	o->nonfirst[d] = 1;
	if (o->depth > 0)
		fprintf(o->f, "\n%*s", 2 * o->depth, "");
	/* keys are dropped inside arrays so the document stays well-formed */
	if (key && !o->is_arr[d])
		fprintf(o->f, "\"%s\": ", key);
	else if (!key && o->depth > 0 && !o->is_arr[d])
		fprintf(o->f, "\"_\": ");
}

static void
push(out_ctx *o, int arr, int indented)
{
	o->depth++;
	if (o->depth < OUT_MAX_DEPTH) {
		o->nonfirst[o->depth] = 0;
		o->is_arr[o->depth] = (unsigned char)arr;
		o->indented[o->depth] = (unsigned char)indented;
	}
}

/* see out.h */
void
out_open(out_ctx *o, const char *key, const char *title)
{
	if (o->json) {
		json_sep(o, key);
		fputc('{', o->f);
	} else if (title) {
		fprintf(o->f, "%*s", 2 * hindent(o), "");
		esc_human(o->f, (const uint8_t *)title, strlen(title), 0);
		fputc('\n', o->f);
	} else if (key) {
		human_heading(o, key);
	}
	push(o, 0, !o->json && (title || key));
}

/* Leave one level; JSON closes it with `ch` ('}' or ']'). */
static void
pop(out_ctx *o, int ch)
{
	int d = o->depth < OUT_MAX_DEPTH ? o->depth : OUT_MAX_DEPTH - 1;
	int had = o->nonfirst[d];
	if (o->depth > 0)
		o->depth--;
	if (o->json) {
		if (had)
			fprintf(o->f, "\n%*s", 2 * o->depth, "");
		fputc(ch, o->f);
	}
}

/* see out.h */
void
out_close(out_ctx *o)
{
	pop(o, '}');
}

/* see out.h */
void
out_arr_open(out_ctx *o, const char *key)
{
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
	} else if (key) {
		human_heading(o, key);
	}
	push(o, 1, !o->json && key);
}

/* see out.h */
void
out_arr_open_q(out_ctx *o, const char *key)
{
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
	}
	push(o, 1, 0);
}

/* see out.h */
void
out_arr_close(out_ctx *o)
{
	pop(o, ']');
}

/* see out.h */
void
out_text(out_ctx *o, const char *key, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[0] = 0;
	if (o->json) {
		json_sep(o, key);
		fputc('"', o->f);
		out_esc_json(o->f, (const uint8_t *)buf, strlen(buf));
		fputc('"', o->f);
	} else {
		human_key(o, key);
		esc_human(o->f, (const uint8_t *)buf, strlen(buf), 0);
		fputc('\n', o->f);
	}
}

/* see out.h */
void
out_str(out_ctx *o, const char *key, const uint8_t *p, size_t n)
{
	if (o->json) {
		json_sep(o, key);
		fputc('"', o->f);
		out_esc_json(o->f, p, n);
		fputc('"', o->f);
		if (!pgp_utf8_valid(p, n) && key) {
			char k[128];
			snprintf(k, sizeof k, "%s_hex", key);
			out_hex(o, k, p, n, 0);
		}
	} else {
		human_key(o, key);
		fputc('"', o->f);
		out_esc_human(o->f, p, n);
		fputs("\"\n", o->f);
	}
}

/* see out.h */
void
out_str0(out_ctx *o, const char *key, const char *s)
{
	if (s)
		out_str(o, key, (const uint8_t *)s, strlen(s));
	else
		out_null(o, key);
}

/* see out.h */
void
out_null(out_ctx *o, const char *key)
{
	if (o->json) {
		json_sep(o, key);
		fputs("null", o->f);
	} else {
		human_key(o, key);
		fputs("(none)\n", o->f);
	}
}

/* see out.h */
void
out_time_opt(out_ctx *o, const char *key, int64_t t)
{
	if (t)
		out_time(o, key, t);
	else
		out_null(o, key);
}

/* see out.h */
void
out_int(out_ctx *o, const char *key, long long v)
{
	if (o->json)
		json_sep(o, key);
	else
		human_key(o, key);
	fprintf(o->f, o->json ? "%lld" : "%lld\n", v);
}

/* see out.h */
void
out_bool(out_ctx *o, const char *key, int v)
{
	if (o->json)
		json_sep(o, key);
	else
		human_key(o, key);
	fprintf(o->f, o->json ? "%s" : "%s\n", v ? (o->json ? "true" : "yes") :
	    (o->json ? "false" : "no"));
}

/* see out.h */
void
out_hex(out_ctx *o, const char *key, const uint8_t *p, size_t n, size_t max)
{
	size_t i, m = (max && n > max) ? max : n;
	if (o->json) {
		json_sep(o, key);
		fputc('"', o->f);
	} else {
		human_key(o, key);
	}
	for (i = 0; i < m; i++)
		fprintf(o->f, "%02X", (unsigned)p[i]);
	if (m < n)
		fputs("...", o->f);
	fputs(o->json ? "\"" : "\n", o->f);
}

/* see out.h */
void
out_time(out_ctx *o, const char *key, int64_t t)
{
	char buf[64];
	pgp_time_format(buf, sizeof buf, t, 0);
	out_text(o, key, "%s", buf);
}

/* see out.h */
void
out_list(out_ctx *o, const char *key, const char *const *items, size_t n)
{
	size_t i;
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
		for (i = 0; i < n; i++) {
			fprintf(o->f, "%s\"", i ? ", " : "");
			out_esc_json(o->f, (const uint8_t *)items[i], strlen(items[i]));
			fputc('"', o->f);
		}
		fputc(']', o->f);
		return;
	}
	human_key(o, key);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", o->f);
		esc_human(o->f, (const uint8_t *)items[i], strlen(items[i]), 0);
	}
	fputs(n ? "\n" : "(none)\n", o->f);
}

/* see out.h */
void
out_note(out_ctx *o, const char *fmt, ...)
{
	va_list ap;
	if (o->json)
		return;
	char buf[1024];
	int n;
	fprintf(o->f, "%*s", 2 * hindent(o), "");
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		buf[0] = 0;
	esc_human(o->f, (const uint8_t *)buf, strlen(buf), 0);
	fputc('\n', o->f);
}

/* see out.h */
void
out_finish(out_ctx *o)
{
	if (o->json)
		fputc('\n', o->f);
	fflush(o->f);
}

/* see out.h */
void
out_named(out_ctx *o, const char *key, long long id, const char *name)
{
	char k[128];
	if (!o->json) {
		human_key(o, key);
		esc_human(o->f, (const uint8_t *)name, strlen(name), 0);
		fprintf(o->f, " (%lld)\n", id);
		return;
	}
	out_int(o, key, id);
	snprintf(k, sizeof k, "%s_name", key);
	out_text(o, k, "%s", name);
}
