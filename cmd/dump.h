/*
 * dump.h - internals of `wotkit dump`: one output emitter with two back ends
 * (human-readable text and one JSON document), and the packet printers.
 *
 * Every printer writes fields through the emitter, so the human and the JSON
 * output always carry the same content. Human output: "  key: value" lines
 * indented by nesting, '_' in keys shown as ' '; the key fingerprint line is
 * always "<indent>fingerprint: <UPPERCASE HEX>" (tests grep for it).
 */
#ifndef WOTKIT_DUMP_H
#define WOTKIT_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pgp/err.h"
#include "pgp/packet.h"
#include "pgp/decompress.h"

#define DUMP_MAX_DEPTH 64

typedef struct dump_out {
	FILE *f;
	int json;
	int depth;
	unsigned char nonfirst[DUMP_MAX_DEPTH]; /* json: level already has an element */
	unsigned char is_arr[DUMP_MAX_DEPTH];
	unsigned char indented[DUMP_MAX_DEPTH]; /* human: level printed a heading */
} dump_out;

/* One run of the dumper over one file. */
typedef struct dump_ctx {
	dump_out o;
	const char *file;
	int nesting;          /* compressed-in-compressed depth */
	size_t zleft;         /* decompression budget left in this message (all levels) */
	int sig_depth;        /* embedded-signature depth */
	int errors;           /* malformed things seen (exit 2) */
	size_t last_off;      /* last error reported, to drop duplicates */
	const char *last_what;
	/* where the current packet body lives: offset = body_off + (p - body_p) */
	const uint8_t *body_p;
	size_t body_off;
	/* context for error messages: armor block / compressed packet */
	char where[400];
	/* creation times for "key expires at" */
	uint32_t primary_created, subkey_created;
	int have_primary, have_subkey;
} dump_ctx;

/* ---- emitter (dump_out.c) ---- */
void out_init(dump_out *o, FILE *f, int json);
/* Objects and arrays; key NULL inside arrays. Human: title (or key) line, then indent. */
void out_open(dump_out *o, const char *key, const char *title);
void out_close(dump_out *o);
void out_arr_open(dump_out *o, const char *key);
void out_arr_close(dump_out *o);
/* Array with no heading and no indentation in human mode (JSON key only). */
void out_arr_open_q(dump_out *o, const char *key);
/* Scalars. out_text: trusted ASCII (names, numbers) shown bare in human mode. */
void out_text(dump_out *o, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Untrusted octets: JSON-escaped / human quoted with \xNN for control and non-UTF-8. */
void out_str(dump_out *o, const char *key, const uint8_t *p, size_t n);
void out_int(dump_out *o, const char *key, long long v);
void out_bool(dump_out *o, const char *key, int v);
/* Uppercase hex; at most `max` octets shown (0 = all), "..." marks the cut. */
void out_hex(dump_out *o, const char *key, const uint8_t *p, size_t n, size_t max);
/* UTC ISO-8601 time ("never"/0 handling is the caller's). */
void out_time(dump_out *o, const char *key, int64_t t);
/* Human "key: NAME (id)"; JSON "key": id, "key_name": "NAME". */
void out_named(dump_out *o, const char *key, long long id, const char *name);
/* Human: one line; JSON: an array of strings. */
void out_list(dump_out *o, const char *key, const char *const *items, size_t n);
/* Human only: a free text line (ignored in JSON). */
void out_note(dump_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void out_finish(dump_out *o);

/* Escapes p[0..n) as the inside of a JSON string (without quotes). */
void json_escape(FILE *f, const uint8_t *p, size_t n);

/* ---- printers (dump_pkt.c, dump_sig.c) ---- */
size_t dump_off(const dump_ctx *c, const uint8_t *p);
/* Dumps every packet of buf (offsets relative to buf), into an open array. */
void dump_packets(dump_ctx *c, const uint8_t *buf, size_t len);
/* One MPI as an array element: name, bit count, flags. */
void dump_mpi(dump_ctx *c, const char *name, const pgp_mpi *m);
/* Fields of a signature body (also used for embedded signatures). */
void dump_sig_body(dump_ctx *c, const pgp_rd *body);
/* Report a malformed item: human/JSON "error" field + stderr line; counts it. */
void dump_error(dump_ctx *c, pgp_err e, const pgp_diag *d);
/* Signature type: human "Name (0xNN)", JSON "type": N, "type_name". */
void dump_sigtype(dump_out *o, int type);
const char *dump_sym_name(int a);
const char *dump_comp_name(int a);
const char *dump_aead_name(int a);

#endif
