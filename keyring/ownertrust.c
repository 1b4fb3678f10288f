/*
 * ownertrust.c - GnuPG's --export-ownertrust format (ownertrust.h).
 */
#include <stdlib.h>
#include <string.h>
#include "ownertrust.h"

void
wot_otlist_init(wot_otlist *l)
{
	l->v = NULL;
	l->n = l->cap = 0;
}

void
wot_otlist_release(wot_otlist *l)
{
	free(l->v);
	wot_otlist_init(l);
}

/* Index of fpr, or where it would go (*found 0). */
static size_t
find(const wot_otlist *l, const pgp_fpr *fpr, int *found)
{
	size_t lo = 0, hi = l->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = pgp_fpr_cmp(&l->v[mid].fpr, fpr);
		if (c == 0) {
			*found = 1;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	*found = 0;
	return lo;
}

pgp_err
wot_otlist_set(wot_otlist *l, const pgp_fpr *fpr, uint8_t value)
{
	int found;
	size_t at;

	if (fpr->len == 0 || fpr->len > PGP_FPR_MAX)
		return PGP_ERR_INVALID;
	at = find(l, fpr, &found);
	if (found) {
		if (value)
			l->v[at].value = value;
		else {
			memmove(&l->v[at], &l->v[at + 1], (l->n - at - 1) * sizeof *l->v);
			l->n--;
		}
		return PGP_OK;
	}
	if (!value)
		return PGP_OK;
	if (l->n >= WOT_OT_MAX_ENTRIES)
		return PGP_ERR_LIMIT;
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 16;
		wot_otentry *v = realloc(l->v, cap * sizeof *v);
		if (!v)
			return PGP_ERR_NOMEM;
		l->v = v;
		l->cap = cap;
	}
	memmove(&l->v[at + 1], &l->v[at], (l->n - at) * sizeof *l->v);
	memset(&l->v[at], 0, sizeof l->v[at]);
	l->v[at].fpr = *fpr;
	l->v[at].value = value;
	l->n++;
	return PGP_OK;
}

uint8_t
wot_otlist_get(const wot_otlist *l, const pgp_fpr *fpr)
{
	int found;
	size_t at = find(l, fpr, &found);
	return found ? l->v[at].value : 0;
}

static pgp_err
bad(pgp_diag *diag, size_t off, const char *what, pgp_err e)
{
	if (diag) {
		diag->offset = off;
		diag->tag = -1;
		diag->what = what;
	}
	return e;
}

/* One line without its end: "HEX:N" then ':' or nothing. */
static pgp_err
parse_line(wot_otlist *l, pgp_rd *line, pgp_diag *diag)
{
	size_t start = line->off, nhex = 0;
	uint8_t c, hex[2 * PGP_FPR_MAX];
	unsigned value = 0, ndig = 0;
	pgp_fpr fpr;
	size_t i;

	while (pgp_rd_peek(line, &c) == PGP_OK && c != ':') {
		if (pgp_hex_digit(c) < 0 || nhex == sizeof hex)
			return bad(diag, start, "ownertrust line: not a fingerprint", PGP_ERR_MALFORMED);
		hex[nhex++] = c;
		(void)pgp_rd_skip(line, 1);
	}
	if (pgp_rd_u8(line, &c) != PGP_OK)
		return bad(diag, start, "ownertrust line: colon missing", PGP_ERR_MALFORMED);
	if (nhex != 32 && nhex != 40 && nhex != 64)
		return bad(diag, start, "ownertrust line: fingerprint of 32, 40 or 64 hex digits expected",
		    PGP_ERR_MALFORMED);
	while (pgp_rd_peek(line, &c) == PGP_OK && c >= '0' && c <= '9') {
		value = value * 10u + (unsigned)(c - '0');
		if (++ndig > 3 || value > 255)
			return bad(diag, start, "ownertrust line: value above 255", PGP_ERR_MALFORMED);
		(void)pgp_rd_skip(line, 1);
	}
	if (ndig == 0)
		return bad(diag, start, "ownertrust line: value missing", PGP_ERR_MALFORMED);
	if (pgp_rd_u8(line, &c) == PGP_OK && c != ':')
		return bad(diag, start, "ownertrust line: ':' expected after the value", PGP_ERR_MALFORMED);
	if ((value & 0x0f) == 1 || (value & 0x0f) > 6)
		return bad(diag, start, "ownertrust line: not an ownertrust value", PGP_ERR_MALFORMED);
	if (value == 0)
		return PGP_OK;   /* GnuPG: "no otrust defined - no need to update" */
	memset(&fpr, 0, sizeof fpr);
	fpr.len = (uint8_t)(nhex / 2);
	for (i = 0; i < fpr.len; i++)
		fpr.v[i] = (uint8_t)(pgp_hex_digit(hex[2 * i]) * 16 + pgp_hex_digit(hex[2 * i + 1]));
	return wot_otlist_set(l, &fpr, (uint8_t)value);
}

pgp_err
wot_otlist_parse(wot_otlist *l, const uint8_t *p, size_t len, pgp_diag *diag)
{
	pgp_rd r;

	pgp_rd_init(&r, p, len);
	while (!pgp_rd_empty(&r)) {
		const uint8_t *nl = memchr(r.p, '\n', r.len);
		size_t n = nl ? (size_t)(nl - r.p) : r.len;
		pgp_rd line;
		pgp_err e;

		if (n > WOT_OT_MAX_LINE)
			return bad(diag, r.off, "ownertrust line too long", PGP_ERR_LIMIT);
		if (pgp_rd_sub(&r, n, &line) != PGP_OK)
			return bad(diag, r.off, "ownertrust file", PGP_ERR_TRUNCATED);
		if (nl)
			(void)pgp_rd_skip(&r, 1);
		if (line.len && line.p[line.len - 1] == '\r')
			line.len--;
		if (line.len == 0 || line.p[0] == '#')
			continue;
		e = parse_line(l, &line, diag);
		if (e != PGP_OK)
			return e;
	}
	return PGP_OK;
}

pgp_err
wot_otlist_write(const wot_otlist *l, pgp_buf *out)
{
	static const char head[] =
	    "# List of assigned trustvalues (wotkit)\n"
	    "# (Use \"gpg --import-ownertrust\" to restore them)\n";
	char line[2 * PGP_FPR_MAX + 8];
	size_t i;
	pgp_err e = pgp_buf_append(out, head, sizeof head - 1);

	for (i = 0; e == PGP_OK && i < l->n; i++) {
		size_t k;
		unsigned v = l->v[i].value;
		pgp_hex_encode(line, l->v[i].fpr.v, l->v[i].fpr.len);
		k = 2u * l->v[i].fpr.len;
		line[k++] = ':';
		if (v >= 100)
			line[k++] = (char)('0' + v / 100);
		if (v >= 10)
			line[k++] = (char)('0' + v / 10 % 10);
		line[k++] = (char)('0' + v % 10);
		line[k++] = ':';
		line[k++] = '\n';
		e = pgp_buf_append(out, line, k);
	}
	return e;
}

size_t
wot_otlist_apply(const wot_otlist *l, const wot_graph *g, uint8_t *ot)
{
	size_t i, n = wot_nnodes(g), hits = 0;

	memset(ot, 0, n);
	for (i = 0; i < l->n; i++) {
		int64_t at = wot_find_fpr(g, &l->v[i].fpr);
		if (at >= 0 && (size_t)at < n) {
			ot[at] = l->v[i].value;
			hits++;
		}
	}
	return hits;
}
