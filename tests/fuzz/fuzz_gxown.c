/*
 * fuzz_gxown.c - libFuzzer target for wotkit-git's own object reader
 * (cmd/git/gx_own_odb.c: .idx version 2, pack entries, OFS and REF deltas,
 * loose object inflate; git's gitformat-pack) on in-memory bytes, through
 * gx_own__open_mem / gx_own__add_pack_mem / gx_own__loose_mem.
 *
 * Input: flags (1 octet: bit 0 set = SHA-256 ids, else SHA-1), the .idx
 * length and the .pack length (4 octets each, big-endian, clamped to what
 * is left), the .idx, the .pack, and the rest as one loose object (zlib of
 * "TYPE SIZE\0CONTENT"). Each part is copied to its own allocation so that
 * an overread of one part is caught.
 *
 * Invariants (a violation aborts):
 *  - every object read is of one of the four types and no larger than the
 *    maximum asked for (gx_own_read itself checks that the content hashes
 *    to the id asked for);
 *  - the type of an object read equals gx_own__type's answer;
 *  - a prefix of the id of an object that was read finds at least that
 *    object, unless the index is found inconsistent (an error);
 *  - a loose object's type is the same with and without its content.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/git/gx_own_int.h"
#include "pgp/hex.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_READS 32
#define FUZZ_MAX_OBJECT (1u << 20)
#define FUZZ_SMALL 16

static uint8_t *
dup_part(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);
	if (c != NULL && n)
		memcpy(c, p, n);
	return c;
}

/* A 4-octet big-endian length at *p, clamped to what follows it. */
static size_t
take_len(const uint8_t *p, size_t after)
{
	size_t n = (size_t)p[0] << 24 | (size_t)p[1] << 16 | (size_t)p[2] << 8 | p[3];
	return n < after ? n : after;
}

static void
read_one(gx_own *r, const uint8_t *id)
{
	char err[512], hex[2 * GX_MAX_ID + 1];
	uint8_t *obj = NULL, found[GX_MAX_ID];
	size_t len = 0, n;
	int type = 0, t2 = 0;
	unsigned count = 0;
	int found_it = 0;

	if (gx_own_read(r, id, FUZZ_MAX_OBJECT, &type, &obj, &len, err, sizeof err) == 0) {
		found_it = 1;
		if (type < 1 || type > 4 || len > FUZZ_MAX_OBJECT || (len && obj == NULL))
			abort();
		if (gx_own__type(r, id, &t2, err, sizeof err) == 0 && t2 != type)
			abort();
		free(obj);
		obj = NULL;
		if (gx_own_read(r, id, FUZZ_SMALL, &t2, &obj, &len, err, sizeof err) == 0 &&
		    (len > FUZZ_SMALL || t2 != type))
			abort();
		free(obj);
	} else if (err[0] == 0) {
		abort();   /* an error carries a message */
	}
	pgp_hex_encode_lower(hex, id, gx_own_idlen(r));
	for (n = 2; n <= 2 * gx_own_idlen(r); n += 7)
		if (gx_own__prefix(r, hex, n, found, &count, err, sizeof err) == 0 && found_it && count == 0)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *p = data;
	size_t left = size, il, pl;
	uint8_t *idx = NULL, *pack = NULL, *loose = NULL;
	gx_own *r = NULL;
	char err[512];
	uint8_t flags;

	if (size < 9)
		return 0;
	flags = p[0];
	left = size - 9;
	il = take_len(p + 1, left);
	pl = take_len(p + 5, left - il);
	p += 9;
	idx = dup_part(p, il);
	pack = dup_part(p + il, pl);
	loose = dup_part(p + il + pl, left - il - pl);
	if (idx == NULL || pack == NULL || loose == NULL)
		goto out;
	if (gx_own__open_mem(&r, (flags & 1) ? 32 : 20, err, sizeof err) != 0)
		abort();
	if (gx_own__add_pack_mem(r, idx, il, pack, pl, err, sizeof err) == 0) {
		const gx_pack *pk = &r->packs[0];
		uint32_t j;
		uint8_t other[GX_MAX_ID];
		for (j = 0; j < pk->n && j < FUZZ_MAX_READS; j++)
			read_one(r, pk->ids + (size_t)j * r->idlen);
		/* an id the index does not list */
		memset(other, 0xa5, sizeof other);
		read_one(r, other);
	}
	{
		size_t ll = left - il - pl, len = 0;
		int type = 0, t2 = 0;
		uint8_t *obj = NULL;
		if (gx_own__loose_mem(loose, ll, "<loose>", FUZZ_MAX_OBJECT, 1, &type, &obj, &len,
		    err, sizeof err) == 0) {
			if (type < 1 || type > 4 || len > FUZZ_MAX_OBJECT)
				abort();
			free(obj);
			if (gx_own__loose_mem(loose, ll, "<loose>", FUZZ_MAX_OBJECT, 0, &t2, &obj, &len,
			    err, sizeof err) != 0 || t2 != type)
				abort();
		}
	}
out:
	gx_own_close(r);
	free(idx);
	free(pack);
	free(loose);
	return 0;
}
