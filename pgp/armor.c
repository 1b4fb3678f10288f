/* armor.c - ASCII armor decode/encode and CRC-24 (RFC 9580 §6). see armor.h */
#include <stdlib.h>
#include <string.h>
#include "armor.h"
#include "limits.h"
#include "armor_int.h"
#include "err_int.h"

static const char b64chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static int
b64val(uint8_t c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* see armor.h */
uint32_t
pgp_crc24(const uint8_t *p, size_t n)
{
	uint32_t crc = 0xB704CEu;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		crc ^= (uint32_t)p[i] << 16;
		for (k = 0; k < 8; k++) {
			crc <<= 1;
			if (crc & 0x1000000u)
				crc ^= 0x1864CFBu;
		}
	}
	return crc & 0xFFFFFFu;
}

/* see armor_int.h */
pgp_err
pgp__armor_getline(pgp_rd *r, pgp__line *out)
{
	const uint8_t *nl;
	size_t n;
	pgp_err e;

	if (r->len == 0)
		return PGP_ERR_TRUNCATED;
	out->off = r->off;
	nl = memchr(r->p, '\n', r->len);
	n = nl != NULL ? (size_t)(nl - r->p) + 1 : r->len;
	if ((e = pgp_rd_view(r, n, &out->raw)) != PGP_OK)
		return e;
	out->has_nl = nl != NULL;
	out->body = out->raw;
	if (out->has_nl)
		out->body.len--;
	if (out->body.len > 0 && out->body.p[out->body.len - 1] == '\r')
		out->body.len--;
	out->trim = out->body;
	while (out->trim.len > 0 && (out->trim.p[out->trim.len - 1] == ' ' ||
	    out->trim.p[out->trim.len - 1] == '\t'))
		out->trim.len--;
	return PGP_OK;
}

/* see armor_int.h */
int
pgp__view_eq(pgp_view v, const char *s)
{
	size_t n = strlen(s);
	return v.len == n && memcmp(v.p, s, n) == 0;
}

/* see armor_int.h */
int
pgp__view_prefix(pgp_view v, const char *s)
{
	size_t n = strlen(s);
	return v.len >= n && memcmp(v.p, s, n) == 0;
}

/* see armor.h */
int
pgp_armor_is_armored(const uint8_t *in, size_t len)
{
	pgp_rd r;
	pgp__line line;

	pgp_rd_init(&r, in, len);
	while (pgp__armor_getline(&r, &line) == PGP_OK)
		if (pgp__view_prefix(line.body, "-----BEGIN PGP "))
			return 1;
	return 0;
}

static int
label_char_ok(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	    c == ' ' || c == ',' || c == '/';
}

/* "PGP " + [A-Z0-9 ,/]*, shorter than PGP_ARMOR_LABEL_MAX. */
static int
label_ok(const uint8_t *p, size_t n)
{
	size_t i;

	if (n < 5 || n >= PGP_ARMOR_LABEL_MAX || memcmp(p, "PGP ", 4) != 0)
		return 0;
	for (i = 4; i < n; i++)
		if (!label_char_ok(p[i]))
			return 0;
	return 1;
}

/*
 * RFC 9580 §6.2 Armor Header Line: "-----BEGIN " label "-----" with nothing
 * but whitespace after it. Writes the NUL-terminated label.
 */
static pgp_err
parse_begin(const pgp__line *line, char label[PGP_ARMOR_LABEL_MAX], pgp_diag *diag)
{
	pgp_view t = line->trim;
	size_t n;

	if (!line->has_nl && (t.len < 5 || memcmp(t.p + t.len - 5, "-----", 5) != 0)) {
		pgp__diag_set(diag, line->off + line->raw.len, -1, "input ends in armor BEGIN line");
		return PGP_ERR_TRUNCATED;
	}
	if (t.len < 16 + 5 || memcmp(t.p + t.len - 5, "-----", 5) != 0) {
		pgp__diag_set(diag, line->off, -1, "malformed armor BEGIN line");
		return PGP_ERR_MALFORMED;
	}
	n = t.len - 11 - 5;
	if (!label_ok(t.p + 11, n)) {
		pgp__diag_set(diag, line->off + 11, -1, "invalid armor label");
		return PGP_ERR_MALFORMED;
	}
	memcpy(label, t.p + 11, n);
	label[n] = '\0';
	return PGP_OK;
}

/* A line made only of base64 characters and '=' (the body without a blank line). */
static int
is_b64_line(pgp_view t)
{
	size_t i;

	if (t.len == 0)
		return 0;
	for (i = 0; i < t.len; i++)
		if (b64val(t.p[i]) < 0 && t.p[i] != '=')
			return 0;
	return 1;
}

/* RFC 9580 §6.2.2: "Key: Value" (or "Key:" with an empty value). */
static int
is_header_line(pgp_view t)
{
	size_t i;

	for (i = 0; i < t.len; i++) {
		if (t.p[i] == ':')
			break;
		if (t.p[i] <= ' ' || t.p[i] >= 0x7F)
			return 0;
	}
	if (i == 0 || i == t.len)
		return 0;
	return i + 1 == t.len || t.p[i + 1] == ' ';
}

/* Streaming base64 decoder state for one armor body. */
typedef struct b64dec {
	uint32_t acc;    /* bits of the current quantum */
	unsigned nq;     /* characters in the current quantum, '=' included */
	unsigned pad;    /* '=' in the current quantum */
	int done;        /* a padded quantum has ended the data */
	pgp_buf out;
} b64dec;

static pgp_err
emit(b64dec *d, unsigned nbytes)
{
	uint8_t b[3];

	b[0] = (uint8_t)(d->acc >> 16);
	b[1] = (uint8_t)(d->acc >> 8);
	b[2] = (uint8_t)d->acc;
	d->acc = 0;
	d->nq = 0;
	d->pad = 0;
	return pgp_buf_append(&d->out, b, nbytes);
}

/* Feed one body line (trailing whitespace already removed). */
static pgp_err
feed_line(b64dec *d, const pgp__line *line, pgp_diag *diag)
{
	pgp_view t = line->trim;
	size_t i;
	pgp_err e;

	for (i = 0; i < t.len; i++) {
		uint8_t c = t.p[i];
		int v;

		if (c == '=') {
			if (d->done || (d->pad == 0 && d->nq < 2)) {
				pgp__diag_set(diag, line->off + i, -1, "misplaced base64 padding");
				return PGP_ERR_MALFORMED;
			}
			d->pad++;
			d->nq++;
			d->acc <<= 6;
			if (d->nq == 4) {
				d->done = 1;
				if ((e = emit(d, 3 - d->pad)) != PGP_OK)
					goto limit;
			}
			continue;
		}
		if (d->done || d->pad > 0) {
			pgp__diag_set(diag, line->off + i, -1, "data after base64 padding");
			return PGP_ERR_MALFORMED;
		}
		if ((v = b64val(c)) < 0) {
			pgp__diag_set(diag, line->off + i, -1, "invalid base64 character");
			return PGP_ERR_MALFORMED;
		}
		d->acc = (d->acc << 6) | (uint32_t)v;
		if (++d->nq == 4 && (e = emit(d, 3)) != PGP_OK)
			goto limit;
	}
	return PGP_OK;
limit:
	pgp__diag_set(diag, line->off + i, -1, e == PGP_ERR_LIMIT ?
	    "armor data larger than 512 MiB (PGP_MAX_ARMOR_DECODED)" : "out of memory");
	return e;
}

/* End of data: a partial quantum (padding omitted) yields 1 or 2 octets. */
static pgp_err
finish(b64dec *d, size_t off, pgp_diag *diag)
{
	unsigned data_chars = d->nq - d->pad;
	pgp_err e;

	if (d->nq == 0)
		return PGP_OK;
	if (data_chars < 2) {
		pgp__diag_set(diag, off, -1, "truncated base64 quantum");
		return PGP_ERR_MALFORMED;
	}
	d->acc <<= 6 * (4 - d->nq);
	if ((e = emit(d, data_chars - 1)) != PGP_OK)
		pgp__diag_set(diag, off, -1, "armor data larger than 512 MiB (PGP_MAX_ARMOR_DECODED)");
	return e;
}

/* RFC 9580 §6.1: "=" followed by the 24-bit CRC as 4 base64 characters. */
static int
is_crc_line(pgp_view t, uint32_t *crc)
{
	uint32_t v = 0;
	size_t i;

	if (t.len != 5 || t.p[0] != '=')
		return 0;
	for (i = 1; i < 5; i++) {
		int x = b64val(t.p[i]);
		if (x < 0)
			return 0;
		v = (v << 6) | (uint32_t)x;
	}
	*crc = v;
	return 1;
}

static int
is_end_line(pgp_view t, const char *label)
{
	size_t n = strlen(label);

	return t.len == 9 + n + 5 && memcmp(t.p, "-----END ", 9) == 0 &&
	    memcmp(t.p + 9, label, n) == 0 && memcmp(t.p + 9 + n, "-----", 5) == 0;
}

static int
too_long(const pgp__line *line, pgp_diag *diag)
{
	if (line->raw.len <= PGP_MAX_ARMOR_LINE)
		return 0;
	pgp__diag_set(diag, line->off, -1, "armor line longer than 64 KiB (PGP_MAX_ARMOR_LINE)");
	return 1;
}

/*
 * Decode one block whose BEGIN line is `begin`; r is positioned after it.
 *   BEGIN line, headers, blank line, base64 lines, [=CRC], END line
 */
static pgp_err
decode_block(pgp_armor *out, pgp_rd *r, const pgp__line *begin, pgp_diag *diag)
{
	b64dec d;
	pgp__line line;
	size_t hdr_start, crc_off = 0;
	uint32_t crc = 0;
	unsigned nhdr = 0;
	int pending = 0;
	pgp_err e;

	memset(&d, 0, sizeof d);
	pgp_buf_init(&d.out, PGP_MAX_ARMOR_DECODED);
	if (too_long(begin, diag)) {
		e = PGP_ERR_LIMIT;
		goto out;
	}
	if ((e = parse_begin(begin, out->label, diag)) != PGP_OK)
		goto out;
	out->begin_off = begin->off;

	/* RFC 9580 §6.2.2 Armor Headers, up to a blank line. */
	hdr_start = r->off;
	out->headers.p = r->p;
	for (;;) {
		if ((e = pgp__armor_getline(r, &line)) != PGP_OK) {
			pgp__diag_set(diag, r->off, -1, "input ends in armor headers");
			goto out;
		}
		if (too_long(&line, diag)) {
			e = PGP_ERR_LIMIT;
			goto out;
		}
		if (!line.has_nl && !is_end_line(line.trim, out->label)) {
			pgp__diag_set(diag, line.off, -1, "input ends in armor headers");
			e = PGP_ERR_TRUNCATED;
			goto out;
		}
		if (line.trim.len == 0)
			break;
		if (is_header_line(line.trim)) {
			nhdr++;
			continue;
		}
		if (nhdr == 0 && (is_b64_line(line.trim) ||
		    pgp__view_prefix(line.trim, "-----"))) {
			pending = 1; /* no headers and no blank line */
			break;
		}
		pgp__diag_set(diag, line.off, -1, nhdr > 0 && is_b64_line(line.trim) ?
		    "missing blank line after armor headers" : "invalid armor header");
		e = PGP_ERR_MALFORMED;
		goto out;
	}
	out->headers.len = line.off - hdr_start;

	/* Body, optional checksum, END line. */
	for (;;) {
		if (!pending) {
			if ((e = pgp__armor_getline(r, &line)) != PGP_OK) {
				pgp__diag_set(diag, r->off, -1, "input ends before armor END line");
				goto out;
			}
			if (too_long(&line, diag)) {
				e = PGP_ERR_LIMIT;
				goto out;
			}
			/* the last line of the input: only the END line may lack a LF */
			if (!line.has_nl && !is_end_line(line.trim, out->label)) {
				pgp__diag_set(diag, line.off, -1, "input ends before armor END line");
				e = PGP_ERR_TRUNCATED;
				goto out;
			}
		}
		pending = 0;
		if (pgp__view_prefix(line.trim, "-----")) {
			if (!is_end_line(line.trim, out->label)) {
				pgp__diag_set(diag, line.off, -1, pgp__view_prefix(line.trim, "-----END ") ?
				    "armor END label does not match BEGIN" :
				    "unexpected dash line in armor body");
				e = PGP_ERR_MALFORMED;
				goto out;
			}
			break;
		}
		if (out->has_crc) {
			pgp__diag_set(diag, line.off, -1, "data after armor checksum");
			e = PGP_ERR_MALFORMED;
			goto out;
		}
		if (is_crc_line(line.trim, &crc)) {
			out->has_crc = 1;
			crc_off = line.off;
			continue;
		}
		if (line.trim.len == 0) {
			pgp__diag_set(diag, line.off, -1, "blank line in armor body");
			e = PGP_ERR_MALFORMED;
			goto out;
		}
		if ((e = feed_line(&d, &line, diag)) != PGP_OK)
			goto out;
	}
	if ((e = finish(&d, line.off, diag)) != PGP_OK)
		goto out;
	if (out->has_crc) {
		if (pgp_crc24(d.out.p, d.out.len) != crc) {
			pgp__diag_set(diag, crc_off, -1, "armor checksum mismatch");
			e = PGP_ERR_MALFORMED;
			goto out;
		}
		out->crc_ok = 1;
	}
	out->end_off = r->off;
	out->data = pgp_buf_take(&d.out, &out->data_len);
	e = PGP_OK;
out:
	pgp_buf_free(&d.out);
	return e;
}

/* see armor.h */
pgp_err
pgp_armor_next(pgp_armor *out, const uint8_t *in, size_t len, size_t *pos,
    pgp_diag *diag)
{
	pgp_rd r;
	pgp__line line;
	pgp_err e;

	memset(out, 0, sizeof *out);
	if (*pos > len || (in == NULL && len > 0)) {
		pgp__diag_set(diag, 0, -1, "bad arguments");
		return PGP_ERR_INVALID;
	}
	pgp_rd_init(&r, in, len);
	if ((e = pgp_rd_skip(&r, *pos)) != PGP_OK)
		return e;
	for (;;) {
		if (pgp__armor_getline(&r, &line) != PGP_OK) {
			pgp__diag_set(diag, len, -1, "no armor BEGIN line");
			return PGP_ERR_NOT_FOUND;
		}
		if (!pgp__view_prefix(line.body, "-----BEGIN PGP "))
			continue;
		/* RFC 9580 §7: the dash-escaped text is skipped like other text. */
		if (pgp__view_eq(line.trim, "-----BEGIN PGP SIGNED MESSAGE-----"))
			continue;
		break;
	}
	if ((e = decode_block(out, &r, &line, diag)) != PGP_OK) {
		pgp_armor_release(out);
		return e;
	}
	*pos = out->end_off;
	return PGP_OK;
}

/* see armor.h */
void
pgp_armor_release(pgp_armor *a)
{
	if (a == NULL)
		return;
	free(a->data);
	memset(a, 0, sizeof *a);
}

/* see armor.h */
pgp_err
pgp_armor_decode_all(pgp_buf *out, const uint8_t *in, size_t len, pgp_diag *diag)
{
	pgp_armor a;
	size_t pos = 0, blocks = 0, off;
	pgp_err e;

	pgp_buf_init(out, PGP_MAX_ARMOR_DECODED);
	for (;;) {
		e = pgp_armor_next(&a, in, len, &pos, diag);
		if (e == PGP_ERR_NOT_FOUND && blocks > 0) {
			e = PGP_OK;
			break;
		}
		if (e != PGP_OK)
			goto fail;
		blocks++;
		off = a.begin_off;
		e = pgp_buf_append(out, a.data, a.data_len);
		pgp_armor_release(&a);
		if (e != PGP_OK) {
			pgp__diag_set(diag, off, -1, "armored data larger than 512 MiB (PGP_MAX_ARMOR_DECODED)");
			goto fail;
		}
	}
	return PGP_OK;
fail:
	pgp_buf_free(out);
	return e;
}

static int
cstr_label_ok(const char *label)
{
	size_t n;

	if (label == NULL)
		return 0;
	n = strlen(label);
	return label_ok((const uint8_t *)label, n);
}

/* Base64 of up to 3 octets into 4 characters, '=' padded. */
static void
enc_quantum(char dst[4], const uint8_t *p, size_t n)
{
	uint32_t v = (uint32_t)p[0] << 16;

	if (n > 1)
		v |= (uint32_t)p[1] << 8;
	if (n > 2)
		v |= p[2];
	dst[0] = b64chars[(v >> 18) & 63];
	dst[1] = b64chars[(v >> 12) & 63];
	dst[2] = n > 1 ? b64chars[(v >> 6) & 63] : '=';
	dst[3] = n > 2 ? b64chars[v & 63] : '=';
}

/* see armor.h */
pgp_err
pgp_armor_encode(pgp_buf *out, const char *label, const uint8_t *data, size_t len)
{
	char line[64 + 1];
	uint8_t crcb[3];
	size_t i, n = 0, lab, b64len, total;
	uint32_t crc;
	pgp_err e;

	pgp_buf_init(out, 0);
	if (!cstr_label_ok(label) || (data == NULL && len > 0))
		return PGP_ERR_INVALID;
	if (len > PGP_MAX_ARMOR_DECODED)
		return PGP_ERR_LIMIT;
	lab = strlen(label);
	b64len = (len + 2) / 3 * 4;
	/* BEGIN + "\n" blank + body lines + "=XXXX\n" + END */
	total = (11 + lab + 6) + 1 + b64len + (b64len + 63) / 64 + 6 + (9 + lab + 6);
	pgp_buf_init(out, total);

	if ((e = pgp_buf_append(out, "-----BEGIN ", 11)) != PGP_OK ||
	    (e = pgp_buf_append(out, label, lab)) != PGP_OK ||
	    (e = pgp_buf_append(out, "-----\n\n", 7)) != PGP_OK)
		goto fail;
	for (i = 0; i < len; i += 3) {
		enc_quantum(line + n, data + i, len - i < 3 ? len - i : 3);
		n += 4;
		if (n == 64 || i + 3 >= len) {
			line[n++] = '\n';
			if ((e = pgp_buf_append(out, line, n)) != PGP_OK)
				goto fail;
			n = 0;
		}
	}
	crc = pgp_crc24(data, len);
	crcb[0] = (uint8_t)(crc >> 16);
	crcb[1] = (uint8_t)(crc >> 8);
	crcb[2] = (uint8_t)crc;
	line[0] = '=';
	enc_quantum(line + 1, crcb, 3);
	line[5] = '\n';
	if ((e = pgp_buf_append(out, line, 6)) != PGP_OK ||
	    (e = pgp_buf_append(out, "-----END ", 9)) != PGP_OK ||
	    (e = pgp_buf_append(out, label, lab)) != PGP_OK ||
	    (e = pgp_buf_append(out, "-----\n", 6)) != PGP_OK)
		goto fail;
	return PGP_OK;
fail:
	pgp_buf_free(out);
	return e;
}
