/* cleartext.c - Cleartext Signature Framework (RFC 9580 §7). see armor.h */
#include <stdlib.h>
#include <string.h>
#include "armor.h"
#include "hash.h"
#include "limits.h"
#include "armor_int.h"
#include "err_int.h"

static int
is_ws(uint8_t c)
{
	return c == ' ' || c == '\t';
}

/* One name of a Hash header: record its ID once. */
static pgp_err
add_hash(pgp_cleartext *out, const uint8_t *p, size_t n, size_t off, pgp_diag *diag)
{
	size_t k;
	int id;

	while (n > 0 && is_ws(p[0])) {
		p++;
		n--;
		off++;
	}
	while (n > 0 && is_ws(p[n - 1]))
		n--;
	/* RFC 9580 §9.5 Table 23, "Text Name" column */
	if ((id = pgp_hash_by_name((const char *)p, n)) != 0) {
		for (k = 0; k < out->n_hash; k++)
			if (out->hash_ids[k] == id)
				return PGP_OK;
		if (out->n_hash == PGP_CLEARTEXT_MAX_HASHES) {
			pgp__diag_set(diag, off, -1, "too many Hash header names");
			return PGP_ERR_LIMIT;
		}
		out->hash_ids[out->n_hash++] = (uint8_t)id;
		return PGP_OK;
	}
	pgp__diag_set(diag, off, -1, n == 0 ? "empty name in Hash header" :
	    "unknown hash name in Hash header");
	return PGP_ERR_MALFORMED;
}

/* RFC 9580 §6.2.2.3: "Hash: " comma-separated list of hash names. */
static pgp_err
parse_hash_header(pgp_cleartext *out, const pgp__line *line, pgp_diag *diag)
{
	const uint8_t *p = line->trim.p + 5;
	size_t n = line->trim.len - 5, i, start = 0;
	size_t base = line->off + 5;
	pgp_err e;

	for (i = 0; i <= n; i++) {
		if (i < n && p[i] != ',')
			continue;
		if ((e = add_hash(out, p + start, i - start, base + start, diag)) != PGP_OK)
			return e;
		start = i + 1;
	}
	return PGP_OK;
}

/* Append the data of the PGP SIGNATURE block at *pos; advance *pos. */
static pgp_err
take_sig(pgp_buf *sig, const uint8_t *in, size_t len, size_t *pos, pgp_diag *diag)
{
	pgp_armor a;
	pgp_err e;

	if ((e = pgp_armor_next(&a, in, len, pos, diag)) != PGP_OK)
		return e == PGP_ERR_NOT_FOUND ? PGP_ERR_MALFORMED : e;
	if (strcmp(a.label, "PGP SIGNATURE") != 0) {
		pgp__diag_set(diag, a.begin_off, -1, "cleartext signature block is not PGP SIGNATURE");
		e = PGP_ERR_MALFORMED;
	} else if ((e = pgp_buf_append(sig, a.data, a.data_len)) != PGP_OK) {
		pgp__diag_set(diag, a.begin_off, -1, "cleartext signatures larger than 512 MiB (PGP_MAX_ARMOR_DECODED)");
	}
	pgp_armor_release(&a);
	return e;
}

/* see armor.h */
pgp_err
pgp_cleartext_parse(pgp_cleartext *out, const uint8_t *in, size_t len,
    pgp_diag *diag)
{
	static const char sig_begin[] = "-----BEGIN PGP SIGNATURE-----";
	pgp_rd r;
	pgp__line line;
	pgp_buf text, sig;
	size_t hdr_start, pos, nlines = 0, last_eol = 0;
	pgp_err e;

	memset(out, 0, sizeof *out);
	pgp_buf_init(&text, PGP_MAX_DATA_BODY);
	pgp_buf_init(&sig, PGP_MAX_ARMOR_DECODED);
	if (in == NULL && len > 0) {
		e = PGP_ERR_INVALID;
		goto out;
	}
	pgp_rd_init(&r, in, len);

	/* RFC 9580 §7.1: the cleartext header line. */
	for (;;) {
		if (pgp__armor_getline(&r, &line) != PGP_OK) {
			pgp__diag_set(diag, len, -1, "no BEGIN PGP SIGNED MESSAGE line");
			e = PGP_ERR_NOT_FOUND;
			goto out;
		}
		if (pgp__view_eq(line.trim, "-----BEGIN PGP SIGNED MESSAGE-----"))
			break;
	}
	out->begin_off = line.off;

	/* Zero or more "Hash" Armor Headers, then exactly one empty line. */
	hdr_start = r.off;
	out->hash_headers.p = r.p;
	for (;;) {
		if ((e = pgp__armor_getline(&r, &line)) != PGP_OK) {
			pgp__diag_set(diag, len, -1, "input ends in cleartext headers");
			goto out;
		}
		if (line.raw.len > PGP_MAX_ARMOR_LINE) {
			pgp__diag_set(diag, line.off, -1, "armor line longer than 64 KiB (PGP_MAX_ARMOR_LINE)");
			e = PGP_ERR_LIMIT;
			goto out;
		}
		if (line.trim.len == 0)
			break;
		if (pgp__view_prefix(line.trim, "Hash:")) {
			if ((e = parse_hash_header(out, &line, diag)) != PGP_OK)
				goto out;
			continue;
		}
		if (pgp__view_prefix(line.trim, "NotDashEscaped:")) {
			pgp__diag_set(diag, line.off, -1, "NotDashEscaped cleartext not supported");
			e = PGP_ERR_UNSUPPORTED;
			goto out;
		}
		pgp__diag_set(diag, line.off, -1, memchr(line.trim.p, ':', line.trim.len) ?
		    "unexpected cleartext header" :
		    "missing blank line after cleartext headers");
		e = PGP_ERR_MALFORMED;
		goto out;
	}
	out->hash_headers.len = line.off - hdr_start;

	/* RFC 9580 §7.2 dash-escaped text, up to the signature's BEGIN line. */
	for (;;) {
		pgp_view v;

		if ((e = pgp__armor_getline(&r, &line)) != PGP_OK) {
			pgp__diag_set(diag, len, -1, "no signature after cleartext");
			goto out;
		}
		if (pgp__view_eq(line.trim, sig_begin))
			break;
		v = line.raw;
		if (pgp__view_prefix(line.body, "- ")) {
			v.p += 2;
			v.len -= 2;
		} else if (pgp__view_prefix(line.body, "-----")) {
			pgp__diag_set(diag, line.off, -1, "unescaped dash line in cleartext");
			e = PGP_ERR_MALFORMED;
			goto out;
		} else if (pgp__view_prefix(line.body, "-")) {
			out->odd_dash = 1;
		}
		if ((e = pgp_buf_append(&text, v.p, v.len)) != PGP_OK) {
			pgp__diag_set(diag, line.off, -1, "cleartext larger than 256 MiB (PGP_MAX_DATA_BODY)");
			goto out;
		}
		nlines++;
		last_eol = line.raw.len - line.body.len;
	}
	if (nlines == 0) {
		pgp__diag_set(diag, line.off, -1, "missing cleartext (need the empty line before the signature)");
		e = PGP_ERR_MALFORMED;
		goto out;
	}
	/* The line ending before the BEGIN line is not part of the signed text. */
	text.len -= last_eol;

	/* The armored signature(s), then nothing but whitespace. */
	pos = line.off;
	if ((e = take_sig(&sig, in, len, &pos, diag)) != PGP_OK)
		goto out;
	out->end_off = pos;
	pgp_rd_init(&r, in, len);
	if ((e = pgp_rd_skip(&r, pos)) != PGP_OK)
		goto out;
	while (pgp__armor_getline(&r, &line) == PGP_OK) {
		size_t i;
		int blank = 1;

		for (i = 0; i < line.body.len; i++)
			if (!is_ws(line.body.p[i]) && line.body.p[i] != '\r')
				blank = 0;
		if (blank)
			continue;
		if (!pgp__view_eq(line.trim, sig_begin)) {
			pgp__diag_set(diag, line.off, -1, "data after cleartext signature");
			e = PGP_ERR_MALFORMED;
			goto out;
		}
		pos = line.off;
		if ((e = take_sig(&sig, in, len, &pos, diag)) != PGP_OK)
			goto out;
		out->end_off = pos;
		pgp_rd_init(&r, in, len);
		if ((e = pgp_rd_skip(&r, pos)) != PGP_OK)
			goto out;
	}
	out->text = pgp_buf_take(&text, &out->text_len);
	out->sig = pgp_buf_take(&sig, &out->sig_len);
	e = PGP_OK;
out:
	pgp_buf_free(&text);
	pgp_buf_free(&sig);
	if (e != PGP_OK)
		memset(out, 0, sizeof *out);
	return e;
}

/* see armor.h */
void
pgp_cleartext_release(pgp_cleartext *c)
{
	if (c == NULL)
		return;
	free(c->text);
	free(c->sig);
	memset(c, 0, sizeof *c);
}

/*
 * The one walk over a cleartext message's lines (split at LF; a CR is a line
 * ending only right before the LF): each line without its trailing spaces
 * and tabs (RFC 9580 §7.2), then, if it ended, CR LF (`crlf`: the signed
 * form) or its own ending as in the message (the output form). The last
 * line has no ending, so neither form has one after it. The octets go to
 * emit in pieces of at most CLEARTEXT_PIECE, so a caller that hashes them
 * never holds the whole form.
 */
#define CLEARTEXT_PIECE 65536

typedef struct piece {
	uint8_t b[CLEARTEXT_PIECE];
	size_t n;
	pgp_cleartext_sink emit;
	void *ctx;
} piece;

static pgp_err
piece_put(piece *pc, const uint8_t *p, size_t n)
{
	pgp_err e;

	while (n > 0) {
		size_t k = CLEARTEXT_PIECE - pc->n;

		if (k > n)
			k = n;
		memcpy(pc->b + pc->n, p, k);
		pc->n += k;
		p += k;
		n -= k;
		if (pc->n == CLEARTEXT_PIECE) {
			if ((e = pc->emit(pc->ctx, pc->b, pc->n)) != PGP_OK)
				return e;
			pc->n = 0;
		}
	}
	return PGP_OK;
}

static pgp_err
cleartext_lines(const uint8_t *text, size_t len, int crlf, pgp_cleartext_sink emit, void *ctx)
{
	pgp_rd r;
	pgp__line line;
	piece *pc;
	pgp_err e = PGP_OK;

	if (text == NULL && len > 0)
		return PGP_ERR_INVALID;
	if (len > PGP_MAX_DATA_BODY)
		return PGP_ERR_LIMIT;
	if ((pc = malloc(sizeof *pc)) == NULL)
		return PGP_ERR_NOMEM;
	pc->n = 0;
	pc->emit = emit;
	pc->ctx = ctx;
	pgp_rd_init(&r, text, len);
	while (pgp__armor_getline(&r, &line) == PGP_OK) {
		pgp_view v = line.has_nl ? line.body : line.raw;

		while (v.len > 0 && is_ws(v.p[v.len - 1]))
			v.len--;
		if ((e = piece_put(pc, v.p, v.len)) != PGP_OK)
			goto out;
		if (!line.has_nl)
			continue;
		if (crlf)
			e = piece_put(pc, (const uint8_t *)"\r\n", 2);
		else
			e = piece_put(pc, line.body.p + line.body.len, line.raw.len - line.body.len);
		if (e != PGP_OK)
			goto out;
	}
	if (pc->n > 0)
		e = emit(ctx, pc->b, pc->n);
out:
	free(pc);
	return e;
}

static pgp_err
buf_emit(void *ctx, const uint8_t *p, size_t n)
{
	return pgp_buf_append(ctx, p, n);
}

static pgp_err
to_buf(pgp_buf *out, const uint8_t *text, size_t len, size_t cap, int crlf)
{
	pgp_err e;

	pgp_buf_init(out, cap);
	if ((e = cleartext_lines(text, len, crlf, buf_emit, out)) != PGP_OK)
		pgp_buf_free(out);
	return e;
}

/* see armor.h */
pgp_err
pgp_cleartext_canon(pgp_buf *out, const uint8_t *text, size_t len)
{
	return to_buf(out, text, len, (size_t)PGP_MAX_DATA_BODY * 2, 1);
}

/* see armor.h */
pgp_err
pgp_cleartext_canon_to(const uint8_t *text, size_t len, pgp_cleartext_sink emit, void *ctx)
{
	return cleartext_lines(text, len, 1, emit, ctx);
}

/* see armor.h */
pgp_err
pgp_cleartext_output(pgp_buf *out, const uint8_t *text, size_t len)
{
	return to_buf(out, text, len, PGP_MAX_DATA_BODY, 0);
}

/* see armor.h */
pgp_err
pgp_cleartext_output_inplace(uint8_t *text, size_t *len)
{
	pgp_rd r;
	pgp__line line;
	size_t w = 0;

	if (text == NULL && *len > 0)
		return PGP_ERR_INVALID;
	if (*len > PGP_MAX_DATA_BODY)
		return PGP_ERR_LIMIT;
	pgp_rd_init(&r, text, *len);
	/* the output is never longer than what has been read: w <= r.off */
	while (pgp__armor_getline(&r, &line) == PGP_OK) {
		pgp_view v = line.has_nl ? line.body : line.raw;
		size_t end_len = line.has_nl ? line.raw.len - line.body.len : 0;

		while (v.len > 0 && is_ws(v.p[v.len - 1]))
			v.len--;
		memmove(text + w, v.p, v.len);
		w += v.len;
		memmove(text + w, line.body.p + line.body.len, end_len);
		w += end_len;
	}
	*len = w;
	return PGP_OK;
}
