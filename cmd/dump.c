/*
 * dump.c - `wotkit dump [--json] FILE|-`: show every packet and field.
 *
 * Input: binary packets, or armored text (every block is decoded and dumped;
 * a cleartext signed message shows its Hash headers and text length, then
 * its signature block). Output: human text, or with --json one JSON
 * document:
 *   {"file": ..., "encoding": "binary", "packets": [ {packet}, ... ],
 *    "error_count": N, "warning_count": N}
 *   {"file": ..., "encoding": "armored", "blocks": [
 *      {"kind": "armor", "label": ..., "offset": ..., "packets": [...]},
 *      {"kind": "cleartext", "hashes": [...], "text_length": ..., "packets": [...]}],
 *    "error_count": N, "warning_count": N}
 * A packet with tolerated oddities (an MPI bit count that does not match its
 * value, RFC 9580 §3.2) carries "warnings": [{"offset": N, "what": ...}]
 * (human: a "warnings:" list); they do not change the exit code.
 * Packet offsets are relative to the buffer holding the packets: the file
 * (binary), the decoded armor block, or the decompressed data.
 *
 * Exit: 0 when everything parsed; 2 on usage/I-O errors or malformed input
 * (the dump goes as far as it can; each problem is reported on stderr as
 * "wotkit: FILE: offset N: what (error text)"; each warning as
 * "wotkit: FILE: offset N: warning: what"). Unknown but well-formed
 * things (algorithms, versions, packet tags, subpackets) are shown as such
 * and are not errors.
 */
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "cli.h"
#include "cmds.h"
#include "dump.h"

static const char begin_pgp[] = "-----BEGIN PGP ";

/* Offset of the first line at or after pos (a line start) that starts with
 * "-----BEGIN PGP ", or len if none. */
static size_t
find_begin(const uint8_t *in, size_t len, size_t pos)
{
	size_t n = sizeof begin_pgp - 1;
	while (pos < len) {
		const uint8_t *nl;
		if (len - pos >= n && memcmp(in + pos, begin_pgp, n) == 0)
			return pos;
		nl = memchr(in + pos, '\n', len - pos);
		if (!nl)
			break;
		pos = (size_t)(nl - in) + 1;
	}
	return len;
}

static void
set_where(dump_ctx *c, const char *fmt, int n, size_t off)
{
	snprintf(c->where, sizeof c->where, fmt, n, off);
}

static void
dump_armor_headers(out_ctx *o, pgp_view h)
{
	size_t i = 0, start = 0;
	out_arr_open(o, "headers");
	for (i = 0; i <= h.len; i++) {
		if (i == h.len || h.p[i] == '\n') {
			size_t end = i;
			if (end > start && h.p[end - 1] == '\r')
				end--;
			if (end > start)
				out_str(o, NULL, h.p + start, end - start);
			start = i + 1;
		}
	}
	out_arr_close(o);
}

static void
dump_cleartext(dump_ctx *c, const uint8_t *in, size_t len, size_t at, int n, size_t *next)
{
	out_ctx *o = &c->o;
	pgp_cleartext ct;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	char title[128];
	const char *names[PGP_CLEARTEXT_MAX_HASHES];
	char bufs[PGP_CLEARTEXT_MAX_HASHES][24];
	uint8_t i;

	c->where[0] = 0;
	e = pgp_cleartext_parse(&ct, in + at, len - at, &d);
	if (e != PGP_OK) {
		d.offset += at;
		dump_error(c, e, &d);
		*next = len;
		return;
	}
	snprintf(title, sizeof title, "block %d: cleartext signed message at offset %zu",
	    n, at + ct.begin_off);
	out_open(o, NULL, title);
	if (o->json) {
		out_text(o, "kind", "cleartext");
		out_int(o, "offset", (long long)(at + ct.begin_off));
	}
	for (i = 0; i < ct.n_hash && i < PGP_CLEARTEXT_MAX_HASHES; i++) {
		const char *hn = pgp_hash_name(ct.hash_ids[i]);
		snprintf(bufs[i], sizeof bufs[i], "%s", hn ? hn : "unknown");
		names[i] = bufs[i];
	}
	out_list(o, "hashes", names, ct.n_hash);
	out_int(o, "text_length", (long long)ct.text_len);
	if (ct.odd_dash)
		out_text(o, "note", "a text line starts with '-' but is not dash-escaped");
	out_int(o, "signature_length", (long long)ct.sig_len);
	set_where(c, " (in the signature of the cleartext message %d at offset %zu)", n,
	    at + ct.begin_off);
	out_open(o, o->json ? "signature" : NULL, o->json ? NULL : "signature:");
	dump_packets(c, ct.sig, ct.sig_len);
	out_close(o);
	out_close(o);
	*next = at + ct.end_off;
	pgp_cleartext_release(&ct);
}

static void
dump_armored(dump_ctx *c, const uint8_t *in, size_t len)
{
	out_ctx *o = &c->o;
	size_t pos = 0;
	int n = 0;

	out_arr_open_q(o, "blocks");
	for (;;) {
		pgp_armor a;
		pgp_diag d = {0, -1, NULL};
		pgp_err e;
		char title[200];
		size_t b = find_begin(in, len, pos);

		if (b >= len)
			break;
		n++;
		/* the block's kind: pgp/classify.h at its header line */
		if (pgp_classify(in + b, len - b, NULL) == PGP_INPUT_CLEARTEXT) {
			dump_cleartext(c, in, len, b, n, &pos);
			if (c->errors)
				break;
			continue;
		}
		c->where[0] = 0;
		e = pgp_armor_next(&a, in, len, &pos, &d);
		if (e == PGP_ERR_NOT_FOUND)
			break;
		if (e != PGP_OK) {
			dump_error(c, e, &d);
			break;
		}
		snprintf(title, sizeof title, "block %d: armor \"%s\" at offset %zu, %zu octets decoded, %s",
		    n, a.label, a.begin_off, a.data_len,
		    a.has_crc ? "checksum ok" : "no checksum");
		out_open(o, NULL, title);
		if (o->json) {
			out_text(o, "kind", "armor");
			out_text(o, "label", "%s", a.label);
			out_int(o, "offset", (long long)a.begin_off);
			out_int(o, "decoded_length", (long long)a.data_len);
			out_bool(o, "checksum", a.has_crc);
		}
		if (a.headers.len)
			dump_armor_headers(o, a.headers);
		set_where(c, " (in armor block %d at offset %zu)", n, a.begin_off);
		dump_packets(c, a.data, a.data_len);
		out_close(o);
		pgp_armor_release(&a);
	}
	out_arr_close(o);
}

static void
usage(void)
{
	fprintf(stderr, "usage: wotkit dump [--json] FILE|-\n");
}

/* see cmds.h */
int
cmd_dump(int argc, char **argv)
{
	dump_ctx c;
	cli_file f;
	pgp_input_class cls;
	const char *path = NULL;
	int json = 0, i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			json = 1;
		else if (strcmp(argv[i], "--") == 0 && i + 1 < argc && !path)
			path = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1] != 0) {
			usage();
			return EXIT_USAGE;
		} else if (!path)
			path = argv[i];
		else {
			usage();
			return EXIT_USAGE;
		}
	}
	if (!path) {
		usage();
		return EXIT_USAGE;
	}
	if (cli_file_open(&f, path) != 0)
		return EXIT_USAGE;
	memset(&c, 0, sizeof c);
	c.file = f.name;
	out_init(&c.o, stdout, json);
	out_open(&c.o, NULL, NULL);
	if (json)
		out_str(&c.o, "file", (const uint8_t *)f.name, strlen(f.name));
	/* pgp/classify.h: a CTB first is binary; armor and cleartext headers
	 * (also after text, as in keyring files) are armored; the rest is
	 * dumped as binary, where its first octet is reported */
	pgp_classify(f.p, f.len, &cls);
	if (pgp_classify_has_armor(&cls, f.len)) {
		out_text(&c.o, "encoding", "armored");
		dump_armored(&c, f.p, f.len);
	} else {
		if (json)
			out_text(&c.o, "encoding", "binary");
		dump_packets(&c, f.p, f.len);
	}
	if (json)
		out_int(&c.o, "error_count", c.errors);
	if (json)
		out_int(&c.o, "warning_count", (long long)c.warnings);
	out_close(&c.o);
	out_finish(&c.o);
	cli_file_close(&f);
	return c.errors ? EXIT_USAGE : EXIT_OK;
}
