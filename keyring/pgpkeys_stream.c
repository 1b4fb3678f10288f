/*
 * pgpkeys_stream.c - the stream wotkit-git writes and wotkit reads
 * (docs/git-reader.md). see pgpkeys.h
 *
 *   magic   "WKGIT1\n\0"                                    8 octets
 *   record  kind (1 octet), then by kind:
 *     'C'   u16 len | text                 the commit read (once, first)
 *     'B'   u16 plen | path | u32 mode | u32 size | blob    one file
 *     'E'   u16 len | text                 error; nothing may follow
 *     'Z'   u32 number of 'B' records      end; nothing may follow
 *
 * All integers big-endian. A stream without its 'Z' (or 'E') record was cut
 * short: the reader refuses it, so a crashed or killed wotkit-git never
 * passes for a tree with fewer keys.
 */
#include <string.h>
#include "keyring/pgpkeys.h"

static int
path_ok(const uint8_t *p, size_t n)
{
	size_t i, start = 0;
	if (n == 0 || n > PGPKEYS_STREAM_MAX_PATH)
		return 0;
	if (!((n > 5 && memcmp(p, "keys/", 5) == 0) ||
	    (n > 9 && memcmp(p, ".keyring/", 9) == 0)))
		return 0;
	for (i = 0; i <= n; i++) {
		size_t cl;
		if (i < n && p[i] == 0)
			return 0;
		if (i < n && p[i] != '/')
			continue;
		cl = i - start;
		/* no empty, "." or ".." component (also no leading '/') */
		if (cl == 0 || (cl == 1 && p[start] == '.') ||
		    (cl == 2 && p[start] == '.' && p[start + 1] == '.'))
			return 0;
		start = i + 1;
	}
	return 1;
}

static int
mode_ok(uint32_t m)
{
	return m == PGPKEYS_MODE_FILE || m == PGPKEYS_MODE_EXEC || m == PGPKEYS_MODE_LINK;
}

static pgp_err
fail(pgp_diag *d, const pgp_rd *r, pgp_err e, const char *what)
{
	if (d) {
		d->offset = r->off;
		d->tag = -1;
		d->what = what;
	}
	return e;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_parse(const uint8_t *p, size_t len, pgpkeys_item_fn fn, void *ctx,
    pgp_view *errmsg, pgp_diag *diag)
{
	pgp_rd r, f;
	uint8_t kind;
	uint32_t nblobs = 0, count;
	int seen_commit = 0;
	pgp_err e;

	if (errmsg) {
		errmsg->p = NULL;
		errmsg->len = 0;
	}
	pgp_rd_init(&r, p, len);
	if (len > PGPKEYS_STREAM_MAX_TOTAL)
		return fail(diag, &r, PGP_ERR_LIMIT, "stream longer than PGPKEYS_STREAM_MAX_TOTAL");
	if (pgp_rd_sub(&r, PGPKEYS_STREAM_MAGIC_LEN, &f) != PGP_OK)
		return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside the magic");
	if (memcmp(f.p, PGPKEYS_STREAM_MAGIC, PGPKEYS_STREAM_MAGIC_LEN) != 0)
		return fail(diag, &f, PGP_ERR_MALFORMED, "not a wotkit-git stream (magic)");
	for (;;) {
		pgpkeys_item it;
		pgp_rd at = r;
		if (pgp_rd_u8(&r, &kind) != PGP_OK)
			return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends without its end record");
		memset(&it, 0, sizeof it);
		switch (kind) {
		case 'C':
		case 'E':
			if (pgp_rd_sub16(&r, &f) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside a text record");
			if (f.len > PGPKEYS_STREAM_MAX_MSG || memchr(f.p, 0, f.len) != NULL)
				return fail(diag, &at, PGP_ERR_MALFORMED, "text record too long or holding NUL");
			if (kind == 'E') {
				if (!pgp_rd_empty(&r))
					return fail(diag, &r, PGP_ERR_MALFORMED, "octets after the error record");
				if (errmsg)
					*errmsg = pgp_rd_as_view(&f);
				return fail(diag, &at, PGP_ERR_IO, "wotkit-git reported an error");
			}
			if (seen_commit || nblobs)
				return fail(diag, &at, PGP_ERR_MALFORMED, "commit record not first");
			seen_commit = 1;
			it.kind = PGPKEYS_ITEM_COMMIT;
			it.data = pgp_rd_as_view(&f);
			break;
		case 'B':
			if (nblobs >= PGPKEYS_STREAM_MAX_ENTRIES)
				return fail(diag, &at, PGP_ERR_LIMIT, "more than PGPKEYS_STREAM_MAX_ENTRIES files");
			if (pgp_rd_sub16(&r, &f) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside a path");
			if (!path_ok(f.p, f.len))
				return fail(diag, &f, PGP_ERR_MALFORMED,
				    "path not relative under keys/ or .keyring/");
			it.path = pgp_rd_as_view(&f);
			if (pgp_rd_be32(&r, &it.mode) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside a mode");
			if (!mode_ok(it.mode))
				return fail(diag, &at, PGP_ERR_MALFORMED, "mode not 100644, 100755 or 120000");
			if (pgp_rd_be32(&r, &count) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside a blob size");
			if (count > PGPKEYS_STREAM_MAX_BLOB)
				return fail(diag, &at, PGP_ERR_LIMIT, "blob larger than PGPKEYS_STREAM_MAX_BLOB");
			if (pgp_rd_sub(&r, count, &f) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside a blob");
			it.kind = PGPKEYS_ITEM_BLOB;
			it.data = pgp_rd_as_view(&f);
			nblobs++;
			break;
		case 'Z':
			if (pgp_rd_be32(&r, &count) != PGP_OK)
				return fail(diag, &r, PGP_ERR_TRUNCATED, "stream ends inside the end record");
			if (count != nblobs)
				return fail(diag, &at, PGP_ERR_MALFORMED, "end record counts other files than sent");
			if (!pgp_rd_empty(&r))
				return fail(diag, &r, PGP_ERR_MALFORMED, "octets after the end record");
			return PGP_OK;
		default:
			return fail(diag, &at, PGP_ERR_MALFORMED, "unknown record kind");
		}
		if ((e = fn(ctx, &it)) != PGP_OK)
			return e;
	}
}

static pgp_err
text_record(pgp_buf *out, uint8_t kind, const char *text)
{
	size_t n = strlen(text), save = out->len;
	pgp_err e;
	if (n > PGPKEYS_STREAM_MAX_MSG)
		n = PGPKEYS_STREAM_MAX_MSG;
	if ((e = pgp_buf_putc(out, kind)) != PGP_OK || (e = pgp_buf_put_be16(out, (uint16_t)n)) != PGP_OK ||
	    (e = pgp_buf_append(out, text, n)) != PGP_OK)
		out->len = save;
	return e;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_begin(pgp_buf *out)
{
	return pgp_buf_append(out, PGPKEYS_STREAM_MAGIC, PGPKEYS_STREAM_MAGIC_LEN);
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_commit(pgp_buf *out, const char *text)
{
	return text_record(out, 'C', text);
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_error(pgp_buf *out, const char *msg)
{
	return text_record(out, 'E', msg);
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_blob(pgp_buf *out, const char *path, uint32_t mode, const uint8_t *data,
    size_t len)
{
	size_t pl = strlen(path), save = out->len;
	pgp_err e;
	if (!path_ok((const uint8_t *)path, pl) || !mode_ok(mode))
		return PGP_ERR_INVALID;
	if (len > PGPKEYS_STREAM_MAX_BLOB)
		return PGP_ERR_LIMIT;
	if ((e = pgp_buf_putc(out, 'B')) != PGP_OK || (e = pgp_buf_put_be16(out, (uint16_t)pl)) != PGP_OK ||
	    (e = pgp_buf_append(out, path, pl)) != PGP_OK || (e = pgp_buf_put_be32(out, mode)) != PGP_OK ||
	    (e = pgp_buf_put_be32(out, (uint32_t)len)) != PGP_OK || (e = pgp_buf_append(out, data, len)) != PGP_OK)
		out->len = save;
	return e;
}

/* see pgpkeys.h */
pgp_err
pgpkeys_stream_end(pgp_buf *out, uint32_t nblobs)
{
	size_t save = out->len;
	pgp_err e;
	if ((e = pgp_buf_putc(out, 'Z')) != PGP_OK || (e = pgp_buf_put_be32(out, nblobs)) != PGP_OK)
		out->len = save;
	return e;
}
