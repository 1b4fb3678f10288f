/*
 * out.h - the one output module of the wotkit front ends: the two escaping
 * routines every command uses for bytes it did not write itself, and the
 * emitter (human text or one JSON document) of `wotkit dump`.
 *
 * Any byte that comes from input (user IDs, notations, literal file names,
 * armor headers, reason strings, file names given on the command line) is
 * printed through out_esc_human() or out_esc_json(), never raw:
 *
 *   human: valid UTF-8 is kept, except control characters (C0, DEL, C1
 *          U+0080..U+009F) and the bidirectional overrides/isolates
 *          (U+202A..U+202E, U+2066..U+2069), which are written as \xNN per
 *          octet, as is every octet of invalid UTF-8; '"' and '\\' are
 *          written \" and \\ so a quoted value stays unambiguous. The output
 *          holds no control octet at all.
 *   JSON:  the inside of a JSON string (RFC 8259 §7): '"', '\\' and controls
 *          escaped (\n \r \t, else \u00XX for U+0000..U+001F, U+007F and
 *          U+0080..U+009F), valid UTF-8 kept, and each octet that is not
 *          part of valid UTF-8 replaced by \uFFFD (lossy: where the exact
 *          octets matter the caller also emits them as hex, e.g. dump's
 *          "<key>_hex" and inspect's "value_hex"). The result is always
 *          valid UTF-8 JSON.
 */
#ifndef WOTKIT_OUT_H
#define WOTKIT_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define OUT_MAX_DEPTH 64

/* Human escaping of p[0..n) (see above); the quotes are the caller's. */
void out_esc_human(FILE *f, const uint8_t *p, size_t n);
/* The same for a NUL-terminated string shown unquoted (file names and
 * reasons in messages): '"' and '\\' are kept as they are. */
void out_esc_text(FILE *f, const char *s);
/* The same for p[0..n) shown unquoted (user IDs in pgpkeys.git's graph
 * text): '"' and '\\' are kept as they are. */
void out_esc_plain(FILE *f, const uint8_t *p, size_t n);
/* JSON escaping of p[0..n) as the inside of a string (without quotes). */
void out_esc_json(FILE *f, const uint8_t *p, size_t n);
/* A whole JSON string value: '"', out_esc_json(), '"'; NULL gives null. */
void out_json_str(FILE *f, const char *s);

/*
 * The emitter: human output is "  key: value" lines indented by nesting,
 * '_' in keys shown as ' '; JSON output is one document.
 */
typedef struct out_ctx {
	FILE *f;
	int json;
	int depth;
	unsigned char nonfirst[OUT_MAX_DEPTH]; /* json: level already has an element */
	unsigned char is_arr[OUT_MAX_DEPTH];
	unsigned char indented[OUT_MAX_DEPTH]; /* human: level printed a heading */
} out_ctx;

void out_init(out_ctx *o, FILE *f, int json);
/* Objects and arrays; key NULL inside arrays. Human: title (or key) line, then indent. */
void out_open(out_ctx *o, const char *key, const char *title);
void out_close(out_ctx *o);
void out_arr_open(out_ctx *o, const char *key);
void out_arr_close(out_ctx *o);
/* Array with no heading and no indentation in human mode (JSON key only). */
void out_arr_open_q(out_ctx *o, const char *key);
/* Scalars. out_text: trusted ASCII (names, numbers) shown bare in human mode. */
void out_text(out_ctx *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Untrusted octets: JSON-escaped / human quoted with \xNN for control and non-UTF-8. */
void out_str(out_ctx *o, const char *key, const uint8_t *p, size_t n);
/* out_str() of a NUL-terminated string; NULL: JSON null, human "(none)". */
void out_str0(out_ctx *o, const char *key, const char *s);
void out_int(out_ctx *o, const char *key, long long v);
/* JSON null, human "(none)". */
void out_null(out_ctx *o, const char *key);
void out_bool(out_ctx *o, const char *key, int v);
/* Uppercase hex; at most `max` octets shown (0 = all), "..." marks the cut. */
void out_hex(out_ctx *o, const char *key, const uint8_t *p, size_t n, size_t max);
/* UTC ISO-8601 time ("never"/0 handling is the caller's). */
void out_time(out_ctx *o, const char *key, int64_t t);
/* out_time(), or out_null() when t is 0 (not set). */
void out_time_opt(out_ctx *o, const char *key, int64_t t);
/* Human "key: NAME (id)"; JSON "key": id, "key_name": "NAME". */
void out_named(out_ctx *o, const char *key, long long id, const char *name);
/* Human: one line; JSON: an array of strings. */
void out_list(out_ctx *o, const char *key, const char *const *items, size_t n);
/* Human only: a free text line (ignored in JSON). */
void out_note(out_ctx *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_finish(out_ctx *o);


#endif
