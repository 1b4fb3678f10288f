/*
 * fuzz_gitstream.c - libFuzzer target for the wotkit-git stream parser
 * (pgpkeys_stream_parse, keyring/pgpkeys_stream.c; docs/git-reader.md).
 * Every item handed out must lie inside the input and obey the rules (a
 * blob path under keys/ or .keyring/, no NUL, no empty, "." or ".."
 * component; a known mode). A stream the parser accepts, encoded again from
 * its items with the encoders, must give the same octets (one encoding).
 * A violation aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/pgpkeys.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct fz {
	const uint8_t *base;
	size_t size;
	pgp_buf again;
	uint32_t nblobs;
} fz;

static void
inside(const fz *z, pgp_view v)
{
	if (v.len && (v.p < z->base || v.len > z->size || (size_t)(v.p - z->base) > z->size - v.len))
		abort();
}

static pgp_err
on_item(void *ctx, const pgpkeys_item *it)
{
	fz *z = ctx;
	char path[PGPKEYS_STREAM_MAX_PATH + 1], text[PGPKEYS_STREAM_MAX_MSG + 1];
	size_t i, start = 0;
	inside(z, it->data);
	if (it->kind == PGPKEYS_ITEM_COMMIT) {
		if (it->data.len > PGPKEYS_STREAM_MAX_MSG || memchr(it->data.p, 0, it->data.len))
			abort();
		memcpy(text, it->data.p, it->data.len);
		text[it->data.len] = 0;
		if (pgpkeys_stream_commit(&z->again, text) != PGP_OK)
			abort();
		return PGP_OK;
	}
	if (it->kind != PGPKEYS_ITEM_BLOB)
		abort();
	inside(z, it->path);
	if (it->path.len == 0 || it->path.len > PGPKEYS_STREAM_MAX_PATH ||
	    memchr(it->path.p, 0, it->path.len))
		abort();
	if (!(it->path.len > 5 && memcmp(it->path.p, "keys/", 5) == 0) &&
	    !(it->path.len > 9 && memcmp(it->path.p, ".keyring/", 9) == 0))
		abort();
	for (i = 0; i <= it->path.len; i++) {
		size_t cl;
		if (i < it->path.len && it->path.p[i] != '/')
			continue;
		cl = i - start;
		if (cl == 0 || (cl == 1 && it->path.p[start] == '.') ||
		    (cl == 2 && it->path.p[start] == '.' && it->path.p[start + 1] == '.'))
			abort();
		start = i + 1;
	}
	if (it->mode != PGPKEYS_MODE_FILE && it->mode != PGPKEYS_MODE_EXEC &&
	    it->mode != PGPKEYS_MODE_LINK)
		abort();
	if (it->data.len > PGPKEYS_STREAM_MAX_BLOB)
		abort();
	memcpy(path, it->path.p, it->path.len);
	path[it->path.len] = 0;
	if (pgpkeys_stream_blob(&z->again, path, it->mode, it->data.p, it->data.len) != PGP_OK)
		abort();
	z->nblobs++;
	return PGP_OK;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fz z;
	pgp_view em;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	memset(&z, 0, sizeof z);
	z.base = data;
	z.size = size;
	pgp_buf_init(&z.again, size + 64);
	if (pgpkeys_stream_begin(&z.again) != PGP_OK)
		abort();
	e = pgpkeys_stream_parse(data, size, on_item, &z, &em, &d);
	if (e == PGP_OK) {
		if (pgpkeys_stream_end(&z.again, z.nblobs) != PGP_OK)
			abort();
		if (z.again.len != size || memcmp(z.again.p, data, size) != 0)
			abort();
	} else {
		if (e == PGP_ERR_IO)
			inside(&z, em);
		if (d.offset > size)
			abort();
	}
	pgp_buf_free(&z.again);
	return 0;
}
