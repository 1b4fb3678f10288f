/*
 * dump_out.c - the emitter of `wotkit dump`: human text or one JSON document.
 * see dump.h
 *
 * JSON strings: '"', '\\' and control characters are escaped, valid UTF-8 is
 * kept, and each invalid octet becomes U+FFFD; a string that was not valid
 * UTF-8 also gets a sibling "<key>_hex" field with the exact octets, so
 * nothing is lost and the document stays valid UTF-8.
 */
#include <stdarg.h>
#include <string.h>
#include "cli.h"
#include "dump.h"

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if invalid. */
static size_t
utf8_len(const uint8_t *p, size_t n)
{
	uint32_t cp;
	size_t len, i;
	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xC2 && p[0] <= 0xDF)
		len = 2, cp = p[0] & 0x1Fu;
	else if (p[0] >= 0xE0 && p[0] <= 0xEF)
		len = 3, cp = p[0] & 0x0Fu;
	else if (p[0] >= 0xF0 && p[0] <= 0xF4)
		len = 4, cp = p[0] & 0x07u;
	else
		return 0;
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (p[i] & 0x3Fu);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF)
		return 0;
	return len;
}

static int
utf8_valid(const uint8_t *p, size_t n)
{
	size_t i = 0, l;
	while (i < n) {
		if ((l = utf8_len(p + i, n - i)) == 0)
			return 0;
		i += l;
	}
	return 1;
}

/* see dump.h */
void
json_escape(FILE *f, const uint8_t *p, size_t n)
{
	size_t i = 0, l;
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
		} else if (c < 0x20) {
			fprintf(f, "\\u%04X", (unsigned)c);
			i++;
		} else if ((l = utf8_len(p + i, n - i)) == 0) {
			fputs("\\uFFFD", f);
			i++;
		} else {
			fwrite(p + i, 1, l, f);
			i += l;
		}
	}
}

/* Human form: printable ASCII and valid UTF-8 as is, the rest as \xNN. */
static void
human_escape(FILE *f, const uint8_t *p, size_t n)
{
	size_t i = 0, l;
	while (i < n) {
		uint8_t c = p[i];
		if (c == '"' || c == '\\') {
			fputc('\\', f);
			fputc(c, f);
			i++;
		} else if (c < 0x20 || c == 0x7F) {
			fprintf(f, "\\x%02X", (unsigned)c);
			i++;
		} else if ((l = utf8_len(p + i, n - i)) == 0) {
			fprintf(f, "\\x%02X", (unsigned)c);
			i++;
		} else {
			fwrite(p + i, 1, l, f);
			i += l;
		}
	}
}

/* see dump.h */
void
out_init(dump_out *o, FILE *f, int json)
{
	memset(o, 0, sizeof *o);
	o->f = f;
	o->json = json;
}

/* Human indentation: the number of open levels that printed a heading. */
static int
hindent(const dump_out *o)
{
	int i, n = 0;
	for (i = 1; i <= o->depth && i < DUMP_MAX_DEPTH; i++)
		n += o->indented[i];
	return n;
}

static void
human_key(dump_out *o, const char *key);

/* Human heading line "key:" (no trailing space). */
static void
human_heading(dump_out *o, const char *key)
{
	const char *k;
	fprintf(o->f, "%*s", 2 * hindent(o), "");
	for (k = key; *k; k++)
		fputc(*k == '_' ? ' ' : *k, o->f);
	fputs(":\n", o->f);
}

static void
human_key(dump_out *o, const char *key)
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
json_sep(dump_out *o, const char *key)
{
	int d = o->depth < DUMP_MAX_DEPTH ? o->depth : DUMP_MAX_DEPTH - 1;
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
push(dump_out *o, int arr, int indented)
{
	o->depth++;
	if (o->depth < DUMP_MAX_DEPTH) {
		o->nonfirst[o->depth] = 0;
		o->is_arr[o->depth] = (unsigned char)arr;
		o->indented[o->depth] = (unsigned char)indented;
	}
}

/* see dump.h */
void
out_open(dump_out *o, const char *key, const char *title)
{
	if (o->json) {
		json_sep(o, key);
		fputc('{', o->f);
	} else if (title) {
		fprintf(o->f, "%*s%s\n", 2 * hindent(o), "", title);
	} else if (key) {
		human_heading(o, key);
	}
	push(o, 0, !o->json && (title || key));
}

/* Leave one level; JSON closes it with `ch` ('}' or ']'). */
static void
pop(dump_out *o, int ch)
{
	int d = o->depth < DUMP_MAX_DEPTH ? o->depth : DUMP_MAX_DEPTH - 1;
	int had = o->nonfirst[d];
	if (o->depth > 0)
		o->depth--;
	if (o->json) {
		if (had)
			fprintf(o->f, "\n%*s", 2 * o->depth, "");
		fputc(ch, o->f);
	}
}

/* see dump.h */
void
out_close(dump_out *o)
{
	pop(o, '}');
}

/* see dump.h */
void
out_arr_open(dump_out *o, const char *key)
{
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
	} else if (key) {
		human_heading(o, key);
	}
	push(o, 1, !o->json && key);
}

/* see dump.h */
void
out_arr_open_q(dump_out *o, const char *key)
{
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
	}
	push(o, 1, 0);
}

/* see dump.h */
void
out_arr_close(dump_out *o)
{
	pop(o, ']');
}

/* see dump.h */
void
out_text(dump_out *o, const char *key, const char *fmt, ...)
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
		json_escape(o->f, (const uint8_t *)buf, strlen(buf));
		fputc('"', o->f);
	} else {
		human_key(o, key);
		fprintf(o->f, "%s\n", buf);
	}
}

/* see dump.h */
void
out_str(dump_out *o, const char *key, const uint8_t *p, size_t n)
{
	if (o->json) {
		json_sep(o, key);
		fputc('"', o->f);
		json_escape(o->f, p, n);
		fputc('"', o->f);
		if (!utf8_valid(p, n) && key) {
			char k[128];
			snprintf(k, sizeof k, "%s_hex", key);
			out_hex(o, k, p, n, 0);
		}
	} else {
		human_key(o, key);
		fputc('"', o->f);
		human_escape(o->f, p, n);
		fputs("\"\n", o->f);
	}
}

/* see dump.h */
void
out_int(dump_out *o, const char *key, long long v)
{
	if (o->json)
		json_sep(o, key);
	else
		human_key(o, key);
	fprintf(o->f, o->json ? "%lld" : "%lld\n", v);
}

/* see dump.h */
void
out_bool(dump_out *o, const char *key, int v)
{
	if (o->json)
		json_sep(o, key);
	else
		human_key(o, key);
	fprintf(o->f, o->json ? "%s" : "%s\n", v ? (o->json ? "true" : "yes") :
	    (o->json ? "false" : "no"));
}

/* see dump.h */
void
out_hex(dump_out *o, const char *key, const uint8_t *p, size_t n, size_t max)
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

/* see dump.h */
void
out_time(dump_out *o, const char *key, int64_t t)
{
	char buf[64];
	cli_format_time(buf, sizeof buf, t);
	out_text(o, key, "%s", buf);
}

/* see dump.h */
void
out_list(dump_out *o, const char *key, const char *const *items, size_t n)
{
	size_t i;
	if (o->json) {
		json_sep(o, key);
		fputc('[', o->f);
		for (i = 0; i < n; i++) {
			fprintf(o->f, "%s\"", i ? ", " : "");
			json_escape(o->f, (const uint8_t *)items[i], strlen(items[i]));
			fputc('"', o->f);
		}
		fputc(']', o->f);
		return;
	}
	human_key(o, key);
	for (i = 0; i < n; i++)
		fprintf(o->f, "%s%s", i ? ", " : "", items[i]);
	fputs(n ? "\n" : "(none)\n", o->f);
}

/* see dump.h */
void
out_note(dump_out *o, const char *fmt, ...)
{
	va_list ap;
	if (o->json)
		return;
	fprintf(o->f, "%*s", 2 * hindent(o), "");
	va_start(ap, fmt);
	vfprintf(o->f, fmt, ap);
	va_end(ap);
	fputc('\n', o->f);
}

/* see dump.h */
void
out_finish(dump_out *o)
{
	if (o->json)
		fputc('\n', o->f);
	fflush(o->f);
}

/* see dump.h */
void
out_named(dump_out *o, const char *key, long long id, const char *name)
{
	char k[128];
	if (!o->json) {
		human_key(o, key);
		fprintf(o->f, "%s (%lld)\n", name, id);
		return;
	}
	out_int(o, key, id);
	snprintf(k, sizeof k, "%s_name", key);
	out_text(o, k, "%s", name);
}
