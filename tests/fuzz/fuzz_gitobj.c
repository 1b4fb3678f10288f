/*
 * fuzz_gitobj.c - libFuzzer target for the object stream reader of
 * `wotkit-git objects` (gitobj_next, keyring/gitobj.c; docs/git-reader.md).
 * The first input octet picks the read size (short reads, as from a pipe).
 * Every record handed out must obey the rules (kinds, id length, name and
 * text bounds, no NUL); a stream the reader accepts, encoded again from its
 * records with the encoders, must give the same octets (one encoding).
 * A violation aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/gitobj.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
cstr(char *out, size_t cap, pgp_view v)
{
	if (v.len == 0 || v.len >= cap || memchr(v.p, 0, v.len) != NULL)
		abort();
	memcpy(out, v.p, v.len);
	out[v.len] = 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	gitobj_mem m;
	gitobj_reader r;
	gitobj_record rec;
	pgp_buf again;
	char name[GITOBJ_MAX_NAME + 1], text[GITOBJ_MAX_MSG + 1];
	pgp_err e;
	int complete = 0;

	if (size < 1)
		return 0;
	m.p = data + 1;
	m.len = size - 1;
	m.pos = 0;
	m.chunk = data[0] & 15;
	pgp_buf_init(&again, GITOBJ_MAX_BODY + 64);
	if (gitobj_put_magic(&again) != PGP_OK)
		abort();
	gitobj_reader_init(&r, gitobj_mem_read, &m);
	while ((e = gitobj_next(&r, &rec, NULL)) == PGP_OK || e == PGP_ERR_IO) {
		switch (rec.kind) {
		case GITOBJ_REC_FORMAT:
			if (rec.idlen != 20 && rec.idlen != 32)
				abort();
			if (gitobj_put_format(&again, rec.idlen) != PGP_OK)
				abort();
			break;
		case GITOBJ_REC_OBJECT:
			if (rec.type != GITOBJ_COMMIT && rec.type != GITOBJ_TAG)
				abort();
			cstr(name, sizeof name, rec.name);
			if (gitobj_put_object(&again, rec.type, rec.id, rec.idlen, name, rec.data.p,
			    rec.data.len) != PGP_OK)
				abort();
			break;
		case GITOBJ_REC_FAILURE:
			cstr(name, sizeof name, rec.name);
			cstr(text, sizeof text, rec.data);
			if (gitobj_put_failure(&again, name, text) != PGP_OK)
				abort();
			break;
		case GITOBJ_REC_END:
			if (gitobj_put_end(&again, rec.count) != PGP_OK)
				abort();
			complete = 1;
			break;
		case GITOBJ_REC_FATAL:
			cstr(text, sizeof text, rec.data);
			if (gitobj_put_fatal(&again, text) != PGP_OK)
				abort();
			complete = 1;
			break;
		default:
			abort();
		}
		if (e == PGP_ERR_IO || complete)
			break;
	}
	if (complete && (again.len != m.len || memcmp(again.p, m.p, m.len) != 0))
		abort();
	/* nothing after the last record, and nothing after an error */
	if (gitobj_next(&r, &rec, NULL) != PGP_ERR_INVALID)
		abort();
	gitobj_reader_release(&r);
	pgp_buf_free(&again);
	return 0;
}
