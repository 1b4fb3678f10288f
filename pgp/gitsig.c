/*
 * gitsig.c - the signed parts of git objects, split exactly as git 2.39
 * does (see gitsig.h). Every rule below restates git's code in words; the
 * git functions are named so the two can be compared:
 *   gpg-interface.c  get_format_by_sig, parse_signed_buffer, parse_signature
 *   commit.c         parse_buffer_signed_by_header, remove_signature,
 *                    read_commit_extra_header_lines (mergetag values)
 *
 * Lines are split at '\n' only (a CRLF object keeps its '\r' in every
 * line, so "\r\n" is not the blank line that ends the headers). git
 * compares prefixes with starts_with() on NUL-terminated buffers; a bounded
 * memcmp gives the same answers (a NUL byte in the object never equals a
 * prefix character, and git's terminating NUL past the end is "no match").
 *
 * mergetag and the parents: git (log-tree.c show_one_mergetag) hashes the
 * mergetag value as a tag object and parses it; if the tag's object is the
 * second parent of a two-parent merge it says "merged tag 'NAME'", if it is
 * another parent "parent #N, tagged 'NAME'", otherwise "tag NAME names a
 * non-parent OID", and an unparsable value "malformed mergetag". That text
 * is informational only: the verdict (%G?, the status shown) comes from the
 * signature alone; a mergetag naming a non-parent is still "good". Whether
 * to demand that the tag names a parent is our caller's decision.
 */
#include <string.h>
#include "gitsig.h"

/* gpg-interface.c: the signature headers of each format, in git's order. */
static const struct {
	const char *line;
	pgp_gitsig_format fmt;
} sig_headers[] = {
	{ "-----BEGIN PGP SIGNATURE-----", PGP_GITSIG_OPENPGP },
	{ "-----BEGIN PGP MESSAGE-----", PGP_GITSIG_OPENPGP },
	{ "-----BEGIN SIGNED MESSAGE-----", PGP_GITSIG_X509 },
	{ "-----BEGIN SSH SIGNATURE-----", PGP_GITSIG_SSH },
};

/* commit.c gpg_sig_headers: the commit signature header of each hash. */
#define SIG_HEADER_SHA1 "gpgsig"
#define SIG_HEADER_SHA256 "gpgsig-sha256"
/* commit.c: any header line starting with this is some signature header. */
#define SIG_HEADER_ANY "gpgsig"
#define MERGETAG_KEY "mergetag"

static int
starts_with(pgp_view v, const char *prefix)
{
	size_t n = strlen(prefix);
	return v.len >= n && memcmp(v.p, prefix, n) == 0;
}

/* skip_prefix(line, name, &p) && *p == ' ' */
static int
is_header(pgp_view line, const char *name)
{
	size_t n = strlen(name);
	return line.len > n && memcmp(line.p, name, n) == 0 && line.p[n] == ' ';
}

/* get_format_by_sig: the format whose header `v` starts with. */
static pgp_gitsig_format
format_of(pgp_view v)
{
	size_t i;
	for (i = 0; i < sizeof sig_headers / sizeof sig_headers[0]; i++)
		if (starts_with(v, sig_headers[i].line))
			return sig_headers[i].fmt;
	return PGP_GITSIG_NONE;
}

/* The next line of r, with its '\n' (the last line may lack one). */
static pgp_view
next_line(pgp_rd *r)
{
	const uint8_t *nl = r->len ? memchr(r->p, '\n', r->len) : NULL;
	size_t n = nl ? (size_t)(nl - r->p) + 1 : r->len;
	pgp_view line;
	if (pgp_rd_view(r, n, &line) != PGP_OK) { /* cannot happen: n <= r->len */
		line.p = r->p;
		line.len = 0;
	}
	return line;
}

static size_t
offset_in(const uint8_t *base, pgp_view v)
{
	return (size_t)(v.p - base);
}

/* parse_signed_buffer: the offset of the LAST line that starts with any
 * format's signature header, else len. */
pgp_err
pgp_gitsig_tag(const uint8_t *obj, size_t len, size_t *payload_len, pgp_gitsig_format *fmt)
{
	pgp_rd r;
	*payload_len = len;
	*fmt = PGP_GITSIG_NONE;
	if (len > PGP_GITSIG_MAX_OBJECT)
		return PGP_ERR_LIMIT;
	pgp_rd_init(&r, obj, len);
	while (!pgp_rd_empty(&r)) {
		pgp_view line = next_line(&r);
		pgp_gitsig_format f = format_of(line);
		if (f != PGP_GITSIG_NONE) {
			*payload_len = offset_in(obj, line);
			*fmt = f;
		}
	}
	return PGP_OK;
}

typedef struct sig_span {
	size_t start, end;
} sig_span;

/*
 * remove_signature (commit.c), on p[0..n): up to
 * PGP_GITSIG_TAG_MAX_SIG_HEADERS spans, each a `gpgsig ` or `gpgsig-sha256 `
 * line plus the continuation lines (' ') that follow. Its quirks, kept:
 *  - a second signature header right after a span (no other line between)
 *    restarts the same span, so the first of the two stays in the payload;
 *  - a line that starts with "gpgsig" but is neither header ("gpgsigx",
 *    "gpgsig" alone) neither ends the span nor is removed unless a later
 *    continuation line extends the span over it;
 *  - the scan stops at the blank line "\n" (the message is never touched).
 */
static pgp_err
find_sig_headers(const uint8_t *p, size_t n, sig_span spans[PGP_GITSIG_TAG_MAX_SIG_HEADERS],
    size_t *count)
{
	pgp_rd r;
	size_t cur = 0;
	int in_signature = 0;
	pgp_rd_init(&r, p, n);
	*count = 0;
	while (!pgp_rd_empty(&r)) {
		pgp_view line = next_line(&r);
		size_t start = offset_in(p, line), end = start + line.len;
		if (in_signature && line.p[0] == ' ') {
			spans[cur].end = end;
		} else if (starts_with(line, SIG_HEADER_ANY)) {
			if (is_header(line, SIG_HEADER_SHA1) || is_header(line, SIG_HEADER_SHA256)) {
				if (cur == PGP_GITSIG_TAG_MAX_SIG_HEADERS)
					return PGP_ERR_MALFORMED; /* git writes past sigs[] */
				spans[cur].start = start;
				spans[cur].end = end;
				if (cur + 1 > *count)
					*count = cur + 1;
				in_signature = 1;
			}
		} else {
			if (line.p[0] == '\n')
				break;
			if (in_signature)
				cur++;
			in_signature = 0;
		}
	}
	return PGP_OK;
}

pgp_err
pgp_gitsig_tag_split(const uint8_t *obj, size_t len, pgp_buf *payload, pgp_buf *sig,
    pgp_gitsig_format *fmt)
{
	sig_span spans[PGP_GITSIG_TAG_MAX_SIG_HEADERS];
	size_t cut, count, i, at = 0;
	pgp_err e;

	if ((e = pgp_gitsig_tag(obj, len, &cut, fmt)) != PGP_OK)
		return e;
	if (*fmt == PGP_GITSIG_NONE)
		return pgp_buf_append(payload, obj, len);
	if ((e = find_sig_headers(obj, cut, spans, &count)) != PGP_OK)
		return e;
	/* spans are in order and disjoint: copy what lies between them */
	for (i = 0; i < count; i++) {
		if ((e = pgp_buf_append(payload, obj + at, spans[i].start - at)) != PGP_OK)
			return e;
		at = spans[i].end;
	}
	if ((e = pgp_buf_append(payload, obj + at, cut - at)) != PGP_OK)
		return e;
	return pgp_buf_append(sig, obj + cut, len - cut);
}

/*
 * parse_buffer_signed_by_header (commit.c), line by line until the blank
 * line "\n", after which everything goes to the payload unread:
 *  - `NAME ` (NAME = gpgsig or gpgsig-sha256 by the repository's hash):
 *    the rest of the line is signature; so is each following line that
 *    starts with ' ', without that space. A second such header appends to
 *    the same signature (two signatures, concatenated).
 *  - any other line starting with "gpgsig" (the other hash's header,
 *    "gpgsigx", "gpgsig" alone), and the ' ' lines after it: dropped from
 *    both payload and signature.
 *  - every other line: payload.
 */
pgp_err
pgp_gitsig_commit(const uint8_t *obj, size_t len, int sha256, pgp_buf *payload,
    pgp_buf *sig, pgp_gitsig_format *fmt)
{
	const char *name = sha256 ? SIG_HEADER_SHA256 : SIG_HEADER_SHA1;
	size_t name_len = strlen(name), sig_start = sig->len;
	int in_signature = 0, saw_signature = 0, other_signature = 0;
	pgp_rd r;
	pgp_err e;

	*fmt = PGP_GITSIG_NONE;
	if (len > PGP_GITSIG_MAX_OBJECT)
		return PGP_ERR_LIMIT;
	pgp_rd_init(&r, obj, len);
	while (!pgp_rd_empty(&r)) {
		pgp_view line = next_line(&r), part = { NULL, 0 };
		int is_sig = 0;
		if (in_signature && line.p[0] == ' ') {
			part.p = line.p + 1;
			part.len = line.len - 1;
			is_sig = 1;
		} else if (is_header(line, name)) {
			part.p = line.p + name_len + 1;
			part.len = line.len - name_len - 1;
			is_sig = 1;
			other_signature = 0;
		} else if (starts_with(line, SIG_HEADER_ANY)) {
			other_signature = 1;
		} else if (other_signature && line.p[0] != ' ') {
			other_signature = 0;
		}
		if (is_sig) {
			if ((e = pgp_buf_append(sig, part.p, part.len)) != PGP_OK)
				return e;
			saw_signature = 1;
			in_signature = 1;
			continue;
		}
		if (line.p[0] == '\n') { /* the body: the whole remainder */
			pgp_rd rest;
			pgp_rd_rest(&r, &rest);
			line.len += rest.len;
		}
		if (!other_signature && (e = pgp_buf_append(payload, line.p, line.len)) != PGP_OK)
			return e;
		in_signature = 0;
	}
	if (saw_signature) {
		pgp_view v;
		v.p = sig->p ? sig->p + sig_start : NULL;
		v.len = sig->len - sig_start;
		*fmt = format_of(v);
		if (*fmt == PGP_GITSIG_NONE)
			*fmt = PGP_GITSIG_UNKNOWN;
	}
	return PGP_OK;
}

/* The key of a header line (read_commit_extra_header_lines): up to the
 * first space, or the whole line with its '\n' when there is none. */
static int
key_is(pgp_view line, const char *key)
{
	const uint8_t *sp = memchr(line.p, ' ', line.len);
	size_t klen = sp ? (size_t)(sp - line.p) : line.len;
	return klen == strlen(key) && memcmp(line.p, key, klen) == 0;
}

/*
 * read_commit_extra_header_lines (commit.c) as for_each_mergetag uses it:
 * header lines until the blank line "\n"; a line starting with ' '
 * continues the previous header (the space dropped); a `mergetag` value is
 * the rest of its first line after the first space, then its continuation
 * lines. Every call resumes at *pos, always the start of a header line.
 */
pgp_err
pgp_gitsig_mergetag_next(const uint8_t *obj, size_t len, size_t *pos, pgp_buf *tag)
{
	pgp_rd r;
	pgp_err e;

	tag->len = 0;
	if (len > PGP_GITSIG_MAX_OBJECT)
		return PGP_ERR_LIMIT;
	if (*pos > len)
		return PGP_ERR_INVALID;
	pgp_rd_init(&r, obj + *pos, len - *pos);
	while (!pgp_rd_empty(&r) && r.p[0] != '\n') {
		pgp_view line = next_line(&r);
		const uint8_t *sp;
		if (line.p[0] == ' ' || !key_is(line, MERGETAG_KEY))
			continue;
		sp = memchr(line.p, ' ', line.len);
		if (sp && (e = pgp_buf_append(tag, sp + 1, line.len - (size_t)(sp + 1 - line.p))) != PGP_OK)
			return e;
		while (!pgp_rd_empty(&r) && r.p[0] == ' ') {
			pgp_view cont = next_line(&r);
			if ((e = pgp_buf_append(tag, cont.p + 1, cont.len - 1)) != PGP_OK)
				return e;
		}
		*pos = len - r.len;
		return PGP_OK;
	}
	*pos = len - r.len;
	return PGP_ERR_NOT_FOUND;
}

pgp_err
pgp_gitsig_header(const uint8_t *obj, size_t len, const char *name, pgp_view *out)
{
	size_t n;
	pgp_rd r;

	out->p = NULL;
	out->len = 0;
	if (name == NULL || (n = strlen(name)) == 0 || strchr(name, ' ') || strchr(name, '\n'))
		return PGP_ERR_INVALID;
	if (len > PGP_GITSIG_MAX_OBJECT)
		return PGP_ERR_LIMIT;
	pgp_rd_init(&r, obj, len);
	while (!pgp_rd_empty(&r) && r.p[0] != '\n') {
		pgp_view line = next_line(&r);
		if (!is_header(line, name))
			continue;
		out->p = line.p + n + 1;
		out->len = line.len - n - 1;
		if (out->len && out->p[out->len - 1] == '\n')
			out->len--;
		return PGP_OK;
	}
	return PGP_ERR_NOT_FOUND;
}
