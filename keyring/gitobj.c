/*
 * gitobj.c - the object stream of `wotkit-git objects`, and the two object
 * headers its revision walk reads. see gitobj.h
 */
#include <string.h>
#include "keyring/gitobj.h"

#define HEADER_LEN 5u   /* kind:u8 len:u32 */

static pgp_err
fail(pgp_diag *d, size_t off, pgp_err e, const char *what)
{
	if (d) {
		d->offset = off;
		d->tag = -1;
		d->what = what;
	}
	return e;
}

void
gitobj_reader_init(gitobj_reader *r, gitobj_read_fn fn, void *ctx)
{
	memset(r, 0, sizeof *r);
	r->read = fn;
	r->ctx = ctx;
	pgp_buf_init(&r->body, GITOBJ_MAX_BODY);
}

void
gitobj_reader_release(gitobj_reader *r)
{
	pgp_buf_free(&r->body);
	memset(r, 0, sizeof *r);
}

/* Read n octets into p, *got how many arrived before the end of the input. */
static pgp_err
fill(gitobj_reader *r, uint8_t *p, size_t n, size_t *got)
{
	*got = 0;
	while (*got < n) {
		size_t k = 0;
		pgp_err e = r->read(r->ctx, p + *got, n - *got, &k);
		if (e != PGP_OK)
			return e;
		if (k == 0)
			break;
		if (k > n - *got)
			return PGP_ERR_IO;   /* a read function that overran its buffer */
		*got += k;
		r->off += k;
	}
	return PGP_OK;
}

/* 1 when text[0..n) is 1..max octets without NUL. */
static int
text_ok(const uint8_t *p, size_t n, size_t max)
{
	return n >= 1 && n <= max && memchr(p, 0, n) == NULL;
}

/* Nothing may follow the last record. */
static pgp_err
expect_eof(gitobj_reader *r, pgp_diag *d)
{
	uint8_t c;
	size_t got;
	pgp_err e = fill(r, &c, 1, &got);
	if (e != PGP_OK)
		return e;
	if (got != 0)
		return fail(d, r->off - 1, PGP_ERR_MALFORMED, "octets after the last record");
	return PGP_OK;
}

/* The largest body each kind may have (before it is read). */
static int
body_len_ok(uint8_t kind, uint32_t len)
{
	switch (kind) {
	case GITOBJ_REC_FORMAT:
		return len == 1;
	case GITOBJ_REC_END:
		return len == 4;
	case GITOBJ_REC_OBJECT:
		return len <= GITOBJ_MAX_BODY;
	case GITOBJ_REC_FAILURE:
		return len <= 2u + GITOBJ_MAX_NAME + GITOBJ_MAX_MSG;
	case GITOBJ_REC_FATAL:
		return len <= GITOBJ_MAX_MSG;
	default:
		return 0;
	}
}

static pgp_err
parse_name(pgp_rd *b, pgp_view *name, size_t at, pgp_diag *d)
{
	pgp_rd f;
	if (pgp_rd_sub16(b, &f) != PGP_OK)
		return fail(d, at, PGP_ERR_MALFORMED, "name longer than its record");
	if (!text_ok(f.p, f.len, GITOBJ_MAX_NAME))
		return fail(d, at, PGP_ERR_MALFORMED, "name empty, longer than GITOBJ_MAX_NAME or holding NUL");
	*name = pgp_rd_as_view(&f);
	return PGP_OK;
}

static pgp_err
parse_body(gitobj_reader *r, uint8_t kind, size_t at, gitobj_record *rec, pgp_diag *d)
{
	pgp_rd b;
	uint8_t u;
	pgp_err e;

	pgp_rd_init(&b, r->body.p, r->body.len);
	b.off = at + HEADER_LEN;
	rec->kind = (gitobj_kind)kind;
	rec->idlen = r->idlen;
	switch (kind) {
	case GITOBJ_REC_FORMAT:
		if (r->state != 1)
			return fail(d, at, PGP_ERR_MALFORMED, "format record not first");
		if (pgp_rd_u8(&b, &u) != PGP_OK || (u != 20 && u != 32))
			return fail(d, at, PGP_ERR_MALFORMED, "object id length neither 20 nor 32");
		r->idlen = u;
		rec->idlen = u;
		r->state = 2;
		return PGP_OK;
	case GITOBJ_REC_OBJECT:
	case GITOBJ_REC_FAILURE:
		if (r->state != 2)
			return fail(d, at, PGP_ERR_MALFORMED, "record before the format record");
		if (r->records >= GITOBJ_MAX_RECORDS)
			return fail(d, at, PGP_ERR_LIMIT, "more than GITOBJ_MAX_RECORDS records");
		r->records++;
		if (kind == GITOBJ_REC_FAILURE) {
			if ((e = parse_name(&b, &rec->name, at, d)) != PGP_OK)
				return e;
			if (!text_ok(b.p, b.len, GITOBJ_MAX_MSG))
				return fail(d, at, PGP_ERR_MALFORMED,
				    "failure text empty, longer than GITOBJ_MAX_MSG or holding NUL");
			rec->data = pgp_rd_as_view(&b);
			return PGP_OK;
		}
		if (pgp_rd_u8(&b, &u) != PGP_OK || (u != GITOBJ_COMMIT && u != GITOBJ_TAG))
			return fail(d, at, PGP_ERR_MALFORMED, "object type neither commit nor tag");
		rec->type = u;
		if (pgp_rd_copy(&b, rec->id, r->idlen) != PGP_OK)
			return fail(d, at, PGP_ERR_MALFORMED, "object record shorter than its id");
		if ((e = parse_name(&b, &rec->name, at, d)) != PGP_OK)
			return e;
		if (b.len > GITOBJ_MAX_OBJECT)
			return fail(d, at, PGP_ERR_LIMIT, "object larger than GITOBJ_MAX_OBJECT");
		rec->data = pgp_rd_as_view(&b);
		return PGP_OK;
	case GITOBJ_REC_END:
		if (r->state != 2)
			return fail(d, at, PGP_ERR_MALFORMED, "end record before the format record");
		if (pgp_rd_be32(&b, &rec->count) != PGP_OK)
			return fail(d, at, PGP_ERR_MALFORMED, "end record without its count");
		if (rec->count != r->records)
			return fail(d, at, PGP_ERR_MALFORMED, "end record counts other records than sent");
		return PGP_OK;
	default: /* GITOBJ_REC_FATAL */
		if (!text_ok(b.p, b.len, GITOBJ_MAX_MSG))
			return fail(d, at, PGP_ERR_MALFORMED,
			    "fatal text empty, longer than GITOBJ_MAX_MSG or holding NUL");
		rec->data = pgp_rd_as_view(&b);
		return PGP_OK;
	}
}

static pgp_err
next(gitobj_reader *r, gitobj_record *rec, pgp_diag *d)
{
	uint8_t h[GITOBJ_MAGIC_LEN], *dst;
	size_t got, at;
	uint32_t len;
	pgp_err e;

	if (r->state == 0) {
		if ((e = fill(r, h, GITOBJ_MAGIC_LEN, &got)) != PGP_OK)
			return e;
		if (got < GITOBJ_MAGIC_LEN)
			return fail(d, r->off, PGP_ERR_TRUNCATED, "stream ends inside the magic");
		if (memcmp(h, GITOBJ_MAGIC, GITOBJ_MAGIC_LEN) != 0)
			return fail(d, 0, PGP_ERR_MALFORMED, "not a wotkit-git object stream (magic)");
		r->state = 1;
	}
	at = r->off;
	if ((e = fill(r, h, HEADER_LEN, &got)) != PGP_OK)
		return e;
	if (got < HEADER_LEN)
		return fail(d, r->off, PGP_ERR_TRUNCATED, got == 0 ?
		    "stream ends without its end record" : "stream ends inside a record header");
	len = pgp_be32(h + 1);
	if (strchr("FOXZE", h[0]) == NULL || h[0] == 0)
		return fail(d, at, PGP_ERR_MALFORMED, "unknown record kind");
	if (!body_len_ok(h[0], len))
		return fail(d, at, h[0] == GITOBJ_REC_OBJECT ? PGP_ERR_LIMIT : PGP_ERR_MALFORMED,
		    h[0] == GITOBJ_REC_OBJECT ? "object record longer than GITOBJ_MAX_BODY" :
		    "record length out of range for its kind");
	r->body.len = 0;
	if (len > 0) {
		if ((e = pgp_buf_grow(&r->body, len, &dst)) != PGP_OK)
			return e;
		if ((e = fill(r, dst, len, &got)) != PGP_OK)
			return e;
		if (got < len)
			return fail(d, r->off, PGP_ERR_TRUNCATED, "stream ends inside a record");
	}
	memset(rec, 0, sizeof *rec);
	if ((e = parse_body(r, h[0], at, rec, d)) != PGP_OK)
		return e;
	if (rec->kind == GITOBJ_REC_END || rec->kind == GITOBJ_REC_FATAL) {
		if ((e = expect_eof(r, d)) != PGP_OK)
			return e;
		r->state = 3;
		return rec->kind == GITOBJ_REC_FATAL ? PGP_ERR_IO : PGP_OK;
	}
	return PGP_OK;
}

/* see gitobj.h */
pgp_err
gitobj_next(gitobj_reader *r, gitobj_record *rec, pgp_diag *d)
{
	pgp_err e;
	if (r->state == 3)
		return PGP_ERR_INVALID;
	e = next(r, rec, d);
	if (e != PGP_OK)
		r->state = 3;
	return e;
}

/* see gitobj.h */
pgp_err
gitobj_mem_read(void *ctx, uint8_t *p, size_t n, size_t *got)
{
	gitobj_mem *m = ctx;
	size_t k = m->len - m->pos;
	if (k > n)
		k = n;
	if (m->chunk && k > m->chunk)
		k = m->chunk;
	if (k)
		memcpy(p, m->p + m->pos, k);
	m->pos += k;
	*got = k;
	return PGP_OK;
}

/* ---- encoders ---- */

static pgp_err
put_header(pgp_buf *out, uint8_t kind, size_t len)
{
	uint8_t h[HEADER_LEN];
	h[0] = kind;
	pgp_put_be32(h + 1, (uint32_t)len);
	return pgp_buf_append(out, h, HEADER_LEN);
}

/* see gitobj.h */
pgp_err
gitobj_put_magic(pgp_buf *out)
{
	return pgp_buf_append(out, GITOBJ_MAGIC, GITOBJ_MAGIC_LEN);
}

/* see gitobj.h */
pgp_err
gitobj_put_format(pgp_buf *out, size_t idlen)
{
	size_t save = out->len;
	uint8_t u = (uint8_t)idlen;
	pgp_err e;
	if (idlen != 20 && idlen != 32)
		return PGP_ERR_INVALID;
	if ((e = put_header(out, GITOBJ_REC_FORMAT, 1)) != PGP_OK ||
	    (e = pgp_buf_append(out, &u, 1)) != PGP_OK)
		out->len = save;
	return e;
}

/* see gitobj.h */
pgp_err
gitobj_put_object(pgp_buf *out, int type, const uint8_t *id, size_t idlen, const char *name,
    const uint8_t *data, size_t len)
{
	size_t nl = strlen(name), save = out->len;
	uint8_t t = (uint8_t)type;
	pgp_err e;
	if ((type != GITOBJ_COMMIT && type != GITOBJ_TAG) || (idlen != 20 && idlen != 32) ||
	    !text_ok((const uint8_t *)name, nl, GITOBJ_MAX_NAME))
		return PGP_ERR_INVALID;
	if (len > GITOBJ_MAX_OBJECT)
		return PGP_ERR_LIMIT;
	if ((e = put_header(out, GITOBJ_REC_OBJECT, 1 + idlen + 2 + nl + len)) != PGP_OK ||
	    (e = pgp_buf_append(out, &t, 1)) != PGP_OK ||
	    (e = pgp_buf_append(out, id, idlen)) != PGP_OK ||
	    (e = pgp_buf_put_be16(out, (uint16_t)nl)) != PGP_OK ||
	    (e = pgp_buf_append(out, name, nl)) != PGP_OK ||
	    (len && (e = pgp_buf_append(out, data, len)) != PGP_OK))
		out->len = save;
	return e;
}

/* see gitobj.h */
pgp_err
gitobj_put_failure(pgp_buf *out, const char *name, const char *text)
{
	size_t nl = strlen(name), tl = strlen(text), save = out->len;
	pgp_err e;
	if (!text_ok((const uint8_t *)name, nl, GITOBJ_MAX_NAME) ||
	    !text_ok((const uint8_t *)text, tl, GITOBJ_MAX_MSG))
		return PGP_ERR_INVALID;
	if ((e = put_header(out, GITOBJ_REC_FAILURE, 2 + nl + tl)) != PGP_OK ||
	    (e = pgp_buf_put_be16(out, (uint16_t)nl)) != PGP_OK ||
	    (e = pgp_buf_append(out, name, nl)) != PGP_OK ||
	    (e = pgp_buf_append(out, text, tl)) != PGP_OK)
		out->len = save;
	return e;
}

/* see gitobj.h */
pgp_err
gitobj_put_end(pgp_buf *out, uint32_t count)
{
	size_t save = out->len;
	pgp_err e;
	if ((e = put_header(out, GITOBJ_REC_END, 4)) != PGP_OK ||
	    (e = pgp_buf_put_be32(out, count)) != PGP_OK)
		out->len = save;
	return e;
}

/* see gitobj.h */
pgp_err
gitobj_put_fatal(pgp_buf *out, const char *text)
{
	size_t tl = strlen(text), save = out->len;
	pgp_err e;
	if (!text_ok((const uint8_t *)text, tl, GITOBJ_MAX_MSG))
		return PGP_ERR_INVALID;
	if ((e = put_header(out, GITOBJ_REC_FATAL, tl)) != PGP_OK ||
	    (e = pgp_buf_append(out, text, tl)) != PGP_OK)
		out->len = save;
	return e;
}

/* ---- object headers ---- */

/* "NAME HEX\n" at the reader: the id into id; 0, or -1 (r unchanged). */
static int
hex_line(pgp_rd *r, const char *name, size_t idlen, uint8_t *id)
{
	size_t nl = strlen(name), i;
	pgp_rd t = *r;
	pgp_view v;
	if (pgp_rd_view(&t, nl + 1 + 2 * idlen + 1, &v) != PGP_OK ||
	    memcmp(v.p, name, nl) != 0 || v.p[nl] != ' ' || v.p[v.len - 1] != '\n')
		return -1;
	for (i = 0; i < idlen; i++) {
		int hi = v.p[nl + 1 + 2 * i], lo = v.p[nl + 2 + 2 * i];
		/* git's get_oid_hex takes either case */
		if (pgp_hex_digit(hi) < 0 || pgp_hex_digit(lo) < 0)
			return -1;
		id[i] = (uint8_t)(pgp_hex_digit(hi) << 4 | pgp_hex_digit(lo));
	}
	*r = t;
	return 0;
}

/* 1 when the reader starts with s. */
static int
starts(const pgp_rd *r, const char *s)
{
	size_t n = strlen(s);
	return r->len >= n && memcmp(r->p, s, n) == 0;
}

/* Skip to just after the next LF (or to the end). */
static void
skip_line(pgp_rd *r)
{
	const uint8_t *nl = memchr(r->p, '\n', r->len);
	(void)pgp_rd_skip(r, nl ? (size_t)(nl - r->p) + 1 : r->len);
}

/* see gitobj.h */
pgp_err
gitobj_commit_parse(const uint8_t *obj, size_t len, size_t idlen, uint8_t *parents, size_t maxp,
    size_t *nparents, int64_t *time)
{
	uint8_t tree[GITOBJ_MAX_ID];
	pgp_rd r;

	*nparents = 0;
	*time = 0;
	if ((idlen != 20 && idlen != 32) || maxp > GITOBJ_MAX_PARENTS)
		return PGP_ERR_INVALID;
	pgp_rd_init(&r, obj, len);
	if (hex_line(&r, "tree", idlen, tree) != 0)
		return PGP_ERR_MALFORMED;
	while (starts(&r, "parent ")) {
		if (*nparents == maxp)
			return PGP_ERR_LIMIT;
		if (hex_line(&r, "parent", idlen, parents + *nparents * idlen) != 0)
			return PGP_ERR_MALFORMED;
		(*nparents)++;
	}
	/* the header block ends at the first empty line */
	while (!pgp_rd_empty(&r) && r.p[0] != '\n') {
		if (starts(&r, "committer ")) {
			const uint8_t *end = memchr(r.p, '\n', r.len), *gt;
			size_t ll = end ? (size_t)(end - r.p) : r.len, i;
			uint64_t v = 0;
			for (gt = NULL, i = 0; i < ll; i++)
				if (r.p[i] == '>')
					gt = r.p + i;
			if (gt == NULL)
				return PGP_OK;
			/* strtoumax after '>': spaces, then digits (git parse_commit_date) */
			for (i = (size_t)(gt - r.p) + 1; i < ll && r.p[i] == ' '; i++)
				;
			for (; i < ll && r.p[i] >= '0' && r.p[i] <= '9'; i++) {
				if (v > (UINT64_MAX - 9) / 10) {
					v = UINT64_MAX;
					break;
				}
				v = v * 10 + (uint64_t)(r.p[i] - '0');
			}
			*time = v > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)v;
			return PGP_OK;
		}
		skip_line(&r);
	}
	return PGP_OK;
}

/* see gitobj.h */
pgp_err
gitobj_tag_target(const uint8_t *obj, size_t len, size_t idlen, uint8_t *id, int *type)
{
	static const struct { const char *line; int type; } types[] = {
		{"type commit\n", GITOBJ_COMMIT}, {"type tag\n", GITOBJ_TAG},
		{"type tree\n", 2}, {"type blob\n", 3},
	};
	pgp_rd r;
	size_t i;

	if (idlen != 20 && idlen != 32)
		return PGP_ERR_INVALID;
	pgp_rd_init(&r, obj, len);
	if (hex_line(&r, "object", idlen, id) != 0)
		return PGP_ERR_MALFORMED;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (starts(&r, types[i].line)) {
			*type = types[i].type;
			return PGP_OK;
		}
	return PGP_ERR_MALFORMED;
}

