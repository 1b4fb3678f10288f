/*
 * gx_own_odb.c - git's object database, read-only: loose objects
 * (objects/XX/..., zlib of "TYPE SIZE\0CONTENT") and packs (pack-*.idx
 * version 2 and pack-*.pack versions 2 and 3 with their deltas), as
 * described in git's Documentation/gitformat-pack.txt (2.39:
 * technical/pack-format.txt) and hash-function-transition.txt.
 *
 * Bounds: every object inflated is at most GX_OWN_MAX_OBJECT octets (the one
 * asked for at most the caller's max), its size is known before anything is
 * inflated, and a delta chain is at most GX_OWN_MAX_DELTA_CHAIN long. Every
 * object handed out is hashed and compared with the id it was read for.
 * Not read: objects/info/alternates, the multi-pack-index and
 * commit-graph (the .idx files are enough), .idx version 1 (git writes
 * version 2 since 1.5.2 and always for SHA-256).
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "pgp/pgp.h"
#include "gx_own_int.h"
#include "cmd/mapguard.h"

static const char *const type_names[] = { NULL, "commit", "tree", "blob", "tag" };

/* The most octets n octets of zlib data can inflate to: deflate's largest
 * ratio is 1032:1 (a 258-octet match in 2 bits, RFC 1951), with room for
 * the stream's header and block overhead. A declared size above it is a
 * corrupt (or hostile) entry, refused before its buffer is allocated. */
#define GX_ZLIB_MAX_OUT(n) ((uint64_t)(n) * 1032u + 1032u)

/* Where a packed object's entry is. */
typedef struct gx_loc {
	gx_pack *p;
	uint64_t off;
} gx_loc;

/* ---- mapping files ---- */

static int
map_file(const char *path, const uint8_t **map, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	void *m;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return gx_own__fail(err, errlen, "%s: cannot open", path);
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > (uint64_t)SIZE_MAX) {
		close(fd);
		return gx_own__fail(err, errlen, "%s: empty or not a regular file", path);
	}
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (m == MAP_FAILED)
		return gx_own__fail(err, errlen, "%s: cannot map", path);
	/* a pack truncated while mapped: a message and exit, no SIGBUS death */
	if (mapguard_add(m, (size_t)st.st_size, path) != 0) {
		munmap(m, (size_t)st.st_size);
		return gx_own__fail(err, errlen, "%s: too many files mapped", path);
	}
	*map = m;
	*len = (size_t)st.st_size;
	return 0;
}

static void
unmap(const uint8_t *map, size_t len)
{
	if (map != NULL) {
		mapguard_remove(map);
		munmap((void *)(uintptr_t)map, len);
	}
}

/* ---- packs: the .idx (version 2) and the .pack ---- */

static const uint8_t idx_magic[4] = { 0xff, 't', 'O', 'c' };

static int
check_idx(gx_own *r, gx_pack *p, const char *idxname, char *err, size_t errlen)
{
	uint64_t fixed, i, prev = 0;
	pgp_rd rd;
	uint32_t version, n;
	pgp_rd_init(&rd, p->idx, p->idx_len);
	if (p->idx_len < 8 || memcmp(p->idx, idx_magic, 4) != 0)
		return gx_own__fail(err, errlen, "%s: not a pack index version 2 (version 1 is not read)", idxname);
	pgp_rd_skip(&rd, 4);
	if (pgp_rd_be32(&rd, &version) != PGP_OK || version != 2)
		return gx_own__fail(err, errlen, "%s: pack index version %u is not supported (2 is)", idxname, version);
	if (p->idx_len < 8 + 1024)
		return gx_own__fail(err, errlen, "%s: truncated fan-out table", idxname);
	p->fanout = p->idx + 8;
	for (i = 0; i < 256; i++) {
		uint32_t c = pgp_be32(p->fanout + 4 * i);
		if (c < prev)
			return gx_own__fail(err, errlen, "%s: fan-out table not monotonic", idxname);
		prev = c;
	}
	n = (uint32_t)prev;
	if (n > 0x7fffffffu)
		return gx_own__fail(err, errlen, "%s: %u objects is more than a pack holds", idxname, n);
	fixed = 8 + 1024 + (uint64_t)n * (r->idlen + 8) + 2 * (uint64_t)r->idlen;
	if (p->idx_len < fixed || (p->idx_len - fixed) % 8 != 0)
		return gx_own__fail(err, errlen, "%s: truncated or wrong size for %u objects", idxname, n);
	p->n = n;
	p->ids = p->fanout + 1024;
	p->off32 = p->ids + (size_t)n * r->idlen + (size_t)n * 4;   /* after the CRC table */
	p->off64 = p->off32 + (size_t)n * 4;
	p->nlarge = (uint32_t)((p->idx_len - fixed) / 8);
	return 0;
}

static int
check_pack(gx_own *r, gx_pack *p, char *err, size_t errlen)
{
	pgp_rd rd;
	uint32_t version, count;
	const uint8_t *want = p->idx + p->idx_len - 2 * r->idlen;
	pgp_rd_init(&rd, p->pack, p->pack_len);
	if (p->pack_len < 12 + r->idlen || memcmp(p->pack, "PACK", 4) != 0)
		return gx_own__fail(err, errlen, "%s: not a pack file", p->name);
	pgp_rd_skip(&rd, 4);
	pgp_rd_be32(&rd, &version);
	pgp_rd_be32(&rd, &count);
	if (version != 2 && version != 3)
		return gx_own__fail(err, errlen, "%s: pack version %u is not supported", p->name, version);
	if (count != p->n)
		return gx_own__fail(err, errlen, "%s: holds %u objects, its index %u", p->name, count, p->n);
	/* the pack's trailing checksum is repeated in its index: a truncated or
	 * replaced pack does not match */
	if (memcmp(p->pack + p->pack_len - r->idlen, want, r->idlen) != 0)
		return gx_own__fail(err, errlen, "%s: truncated or does not match its index (checksum)", p->name);
	return 0;
}

static int
cmp_pack_name(const void *a, const void *b)
{
	return strcmp(((const gx_pack *)a)->name, ((const gx_pack *)b)->name);
}

int
gx_own__load_packs(gx_own *r, char *err, size_t errlen)
{
	char dir[PATH_MAX], path[PATH_MAX];
	DIR *d;
	struct dirent *de;
	int rc = 0;
	if ((size_t)snprintf(dir, sizeof dir, "%s/objects/pack", r->commondir) >= sizeof dir)
		return gx_own__fail(err, errlen, "%s: path too long", r->commondir);
	d = opendir(dir);
	if (d == NULL)
		return 0;   /* no packs */
	while (rc == 0 && (de = readdir(d)) != NULL) {
		size_t len = strlen(de->d_name);
		gx_pack *p;
		struct stat st;
		if (len < 10 || strncmp(de->d_name, "pack-", 5) != 0 || strcmp(de->d_name + len - 4, ".idx") != 0)
			continue;
		if ((size_t)snprintf(path, sizeof path, "%s/%.*s.pack", dir, (int)(len - 4), de->d_name) >= sizeof path) {
			rc = gx_own__fail(err, errlen, "%s: path too long", dir);
			break;
		}
		if (stat(path, &st) != 0)
			continue;   /* an index without its pack: git ignores it too */
		if (r->npacks >= GX_OWN_MAX_PACKS) {
			rc = gx_own__fail(err, errlen, "%s: more than %u packs (GX_OWN_MAX_PACKS)", dir, GX_OWN_MAX_PACKS);
			break;
		}
		if (r->npacks % 16 == 0) {
			gx_pack *np = realloc(r->packs, (r->npacks + 16) * sizeof *np);
			if (np == NULL) {
				rc = gx_own__fail(err, errlen, "out of memory");
				break;
			}
			r->packs = np;
		}
		p = &r->packs[r->npacks++];
		memset(p, 0, sizeof *p);
		if ((p->name = strdup(path)) == NULL) {
			rc = gx_own__fail(err, errlen, "out of memory");
			break;
		}
		if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= sizeof path) {
			rc = gx_own__fail(err, errlen, "%s: path too long", dir);
			break;
		}
		if (map_file(path, &p->idx, &p->idx_len, err, errlen) != 0 ||
		    check_idx(r, p, path, err, errlen) != 0 ||
		    map_file(p->name, &p->pack, &p->pack_len, err, errlen) != 0 ||
		    check_pack(r, p, err, errlen) != 0)
			rc = -1;
	}
	closedir(d);
	if (rc == 0 && r->npacks > 1)
		qsort(r->packs, r->npacks, sizeof *r->packs, cmp_pack_name);
	return rc;
}

void
gx_own__free_packs(gx_own *r)
{
	size_t i;
	for (i = 0; i < r->npacks; i++) {
		if (!r->packs[i].borrowed) {
			unmap(r->packs[i].idx, r->packs[i].idx_len);
			unmap(r->packs[i].pack, r->packs[i].pack_len);
		}
		free(r->packs[i].name);
	}
	free(r->packs);
	r->packs = NULL;
	r->npacks = 0;
}

/* see gx_own_int.h */
int
gx_own__add_pack_mem(gx_own *r, const uint8_t *idx, size_t idx_len, const uint8_t *pack,
    size_t pack_len, char *err, size_t errlen)
{
	char name[64];
	gx_pack *p;
	if (r->npacks >= GX_OWN_MAX_PACKS)
		return gx_own__fail(err, errlen, "more than %u packs (GX_OWN_MAX_PACKS)", GX_OWN_MAX_PACKS);
	if (r->npacks % 16 == 0) {
		gx_pack *np = realloc(r->packs, (r->npacks + 16) * sizeof *np);
		if (np == NULL)
			return gx_own__fail(err, errlen, "out of memory");
		r->packs = np;
	}
	p = &r->packs[r->npacks++];
	memset(p, 0, sizeof *p);
	p->borrowed = 1;
	snprintf(name, sizeof name, "<memory>/pack-%zu.pack", r->npacks - 1);
	if ((p->name = strdup(name)) == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	p->idx = idx;
	p->idx_len = idx_len;
	p->pack = pack;
	p->pack_len = pack_len;
	if (check_idx(r, p, name, err, errlen) != 0 || check_pack(r, p, err, errlen) != 0)
		return -1;
	return 0;
}

/* Entries [*lo, *hi) of the fan-out bucket of first octet b, checked once:
 * every id starts with b and the ids are strictly increasing, so a binary
 * search cannot miss an object and a prefix search cannot miss a second. */
static int
bucket(gx_own *r, gx_pack *p, unsigned b, uint32_t *lo, uint32_t *hi, char *err, size_t errlen)
{
	uint32_t i;
	*lo = b == 0 ? 0 : pgp_be32(p->fanout + 4 * (b - 1));
	*hi = pgp_be32(p->fanout + 4 * b);
	if (p->checked[b / 8] & (1u << (b % 8)))
		return 0;
	for (i = *lo; i < *hi; i++) {
		const uint8_t *id = p->ids + (size_t)i * r->idlen;
		if (id[0] != b || (i > *lo && memcmp(id - r->idlen, id, r->idlen) >= 0))
			return gx_own__fail(err, errlen, "%s: index entries not sorted (entry %u)", p->name, i);
	}
	p->checked[b / 8] = (uint8_t)(p->checked[b / 8] | (1u << (b % 8)));
	return 0;
}

/* First entry of [lo, hi) whose id is >= key[0..n). */
static uint32_t
lower_bound(const gx_own *r, const gx_pack *p, uint32_t lo, uint32_t hi, const uint8_t *key, size_t n)
{
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (memcmp(p->ids + (size_t)mid * r->idlen, key, n) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int
entry_offset(gx_own *r, gx_pack *p, uint32_t i, uint64_t *off, char *err, size_t errlen)
{
	uint32_t o = pgp_be32(p->off32 + 4 * (size_t)i);
	(void)r;
	if (o & 0x80000000u) {
		uint32_t k = o & 0x7fffffffu;
		if (k >= p->nlarge)
			return gx_own__fail(err, errlen, "%s: index names large offset %u of %u", p->name, k, p->nlarge);
		*off = ((uint64_t)pgp_be32(p->off64 + 8 * (size_t)k) << 32) | pgp_be32(p->off64 + 8 * (size_t)k + 4);
	} else {
		*off = o;
	}
	return 0;
}

/* 1 and *loc when id is in a pack, 0 when not, -1 on a broken index. */
static int
find_packed(gx_own *r, const uint8_t *id, gx_loc *loc, char *err, size_t errlen)
{
	size_t k;
	for (k = 0; k < r->npacks; k++) {
		gx_pack *p = &r->packs[k];
		uint32_t lo, hi, i;
		if (bucket(r, p, id[0], &lo, &hi, err, errlen) != 0)
			return -1;
		i = lower_bound(r, p, lo, hi, id, r->idlen);
		if (i < hi && memcmp(p->ids + (size_t)i * r->idlen, id, r->idlen) == 0) {
			loc->p = p;
			return entry_offset(r, p, i, &loc->off, err, errlen) != 0 ? -1 : 1;
		}
	}
	return 0;
}

/* ---- pack entries ---- */

typedef struct gx_entry {
	int type;                 /* 1..4, GX_OFS_DELTA or GX_REF_DELTA */
	uint64_t size;            /* inflated size (of the delta data for deltas) */
	uint64_t base_off;        /* GX_OFS_DELTA */
	const uint8_t *base_id;   /* GX_REF_DELTA */
	const uint8_t *z;         /* the zlib stream and what follows it */
	size_t zlen;
} gx_entry;

static int
parse_entry(gx_own *r, gx_pack *p, uint64_t off, gx_entry *e, char *err, size_t errlen)
{
	size_t end = p->pack_len - r->idlen;
	pgp_rd rd;
	uint8_t c;
	unsigned shift = 4;
	memset(e, 0, sizeof *e);
	if (off < 12 || off >= end)
		return gx_own__fail(err, errlen, "%s: entry offset %llu outside the pack", p->name, (unsigned long long)off);
	pgp_rd_init(&rd, p->pack + off, end - (size_t)off);
	/* type and size: gitformat-pack "Object entries" */
	if (pgp_rd_u8(&rd, &c) != PGP_OK)
		goto truncated;
	e->type = (c >> 4) & 7;
	e->size = c & 15;
	while (c & 0x80) {
		if (shift > 57 || pgp_rd_u8(&rd, &c) != PGP_OK)
			goto truncated;
		e->size |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	}
	if (e->type == 0 || e->type == 5)
		return gx_own__fail(err, errlen, "%s: entry at %llu has invalid type %d", p->name, (unsigned long long)off, e->type);
	if (e->type == GX_OFS_DELTA) {
		/* negative offset, big-endian base 128 with +1 per continuation */
		uint64_t rel;
		if (pgp_rd_u8(&rd, &c) != PGP_OK)
			goto truncated;
		rel = c & 0x7f;
		while (c & 0x80) {
			if (rel >= (UINT64_MAX >> 7) - 1 || pgp_rd_u8(&rd, &c) != PGP_OK)
				goto truncated;
			rel = ((rel + 1) << 7) | (c & 0x7f);
		}
		if (rel == 0 || rel > off - 12)
			return gx_own__fail(err, errlen, "%s: delta at %llu has its base outside the pack", p->name, (unsigned long long)off);
		e->base_off = off - rel;
	} else if (e->type == GX_REF_DELTA) {
		pgp_view v;
		if (pgp_rd_view(&rd, r->idlen, &v) != PGP_OK)
			goto truncated;
		e->base_id = v.p;
	}
	e->z = rd.p;
	e->zlen = rd.len;
	return 0;
truncated:
	return gx_own__fail(err, errlen, "%s: entry at %llu truncated or malformed", p->name, (unsigned long long)off);
}

/* Inflate a whole zlib stream from in[0..inlen) into exactly out[0..outlen)
 * (octets after the stream are ignored: in a pack they are the next entry).
 * 0 ok; -1 when the stream is broken, shorter or longer than outlen. */
static int
inflate_exact(const uint8_t *in, size_t inlen, uint8_t *out, size_t outlen, size_t *used)
{
	z_stream z;
	uint8_t spare[1];
	int zr = Z_OK;
	memset(&z, 0, sizeof z);
	if (inflateInit(&z) != Z_OK)
		return -1;
	z.next_out = out;
	z.avail_out = (uInt)outlen;   /* outlen <= GX_OWN_MAX_OBJECT < 4 GiB */
	while (zr == Z_OK) {
		if (z.avail_in == 0) {
			size_t chunk = inlen > (1u << 30) ? (1u << 30) : inlen;
			if (chunk == 0)
				break;    /* input ends inside the stream */
			z.next_in = (Bytef *)(uintptr_t)in;
			z.avail_in = (uInt)chunk;
			in += chunk;
			inlen -= chunk;
		}
		if (z.avail_out == 0) {
			/* all octets produced: only the stream's end may follow */
			z.next_out = spare;
			z.avail_out = sizeof spare;
			zr = inflate(&z, Z_NO_FLUSH);
			if (z.avail_out == 0)
				zr = Z_DATA_ERROR;   /* more output than announced */
			break;
		}
		zr = inflate(&z, Z_NO_FLUSH);
	}
	if (used != NULL)
		*used = (size_t)z.total_in;
	inflateEnd(&z);
	return zr == Z_STREAM_END && z.total_out == outlen ? 0 : -1;
}

/* The 7-bit little-endian sizes of a delta's header. */
static int
delta_size(pgp_rd *d, uint64_t *out)
{
	uint8_t c;
	unsigned shift = 0;
	*out = 0;
	do {
		if (shift > 63 || pgp_rd_u8(d, &c) != PGP_OK)
			return -1;
		*out |= (uint64_t)(c & 0x7f) << shift;
		shift += 7;
	} while (c & 0x80);
	return 0;
}

/* Apply delta[0..dlen) to base[0..blen): gitformat-pack "Deltified
 * representation". Every copy is checked against the base and the result. */
static int
apply_delta(const uint8_t *base, size_t blen, const uint8_t *delta, size_t dlen, size_t max,
    uint8_t **out, size_t *outlen, const char *where, char *err, size_t errlen)
{
	pgp_rd d;
	uint64_t src, dst;
	uint8_t *res, op, c;
	size_t o = 0;
	unsigned i;
	pgp_rd_init(&d, delta, dlen);
	if (delta_size(&d, &src) != 0 || delta_size(&d, &dst) != 0)
		return gx_own__fail(err, errlen, "%s: delta header malformed", where);
	if (src != blen)
		return gx_own__fail(err, errlen, "%s: delta expects a base of %llu octets, the base has %zu",
		    where, (unsigned long long)src, blen);
	if (dst > max)
		return gx_own__fail(err, errlen, "%s: larger than %zu octets", where, max);
	if ((res = malloc(dst ? (size_t)dst : 1)) == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	while (!pgp_rd_empty(&d)) {
		pgp_rd_u8(&d, &op);
		if (op & 0x80) {
			uint64_t off = 0, size = 0;
			for (i = 0; i < 4; i++)
				if (op & (1u << i)) {
					if (pgp_rd_u8(&d, &c) != PGP_OK)
						goto bad;
					off |= (uint64_t)c << (8 * i);
				}
			for (i = 0; i < 3; i++)
				if (op & (0x10u << i)) {
					if (pgp_rd_u8(&d, &c) != PGP_OK)
						goto bad;
					size |= (uint64_t)c << (8 * i);
				}
			if (size == 0)
				size = 0x10000;
			if (off > blen || size > blen - off) {
				free(res);
				return gx_own__fail(err, errlen, "%s: delta copies from outside its base", where);
			}
			if (size > dst - o)
				goto overflow;
			memcpy(res + o, base + off, (size_t)size);
			o += (size_t)size;
		} else if (op != 0) {
			if (op > dst - o)
				goto overflow;
			if (pgp_rd_copy(&d, res + o, op) != PGP_OK)
				goto bad;
			o += op;
		} else {
			goto bad;   /* opcode 0 is reserved */
		}
	}
	if (o != dst) {
		free(res);
		return gx_own__fail(err, errlen, "%s: delta result shorter than its declared size", where);
	}
	*out = res;
	*outlen = (size_t)dst;
	return 0;
overflow:
	free(res);
	return gx_own__fail(err, errlen, "%s: delta result longer than its declared size", where);
bad:
	free(res);
	return gx_own__fail(err, errlen, "%s: delta instructions malformed", where);
}

/* ---- loose objects ---- */

static int
loose_path(gx_own *r, const uint8_t *id, char *path, size_t n)
{
	char hex[2 * GX_MAX_ID + 1];
	pgp_hex_encode_lower(hex, id, r->idlen);
	return (size_t)snprintf(path, n, "%s/objects/%.2s/%s", r->commondir, hex, hex + 2) < n ? 0 : -1;
}

/* Inflate a loose object's "TYPE SIZE\0" header; with want_data, the
 * content too (at most max octets, checked before inflating it).
 * 1 when absent, 0 ok, -1 error. */
static int
read_loose(gx_own *r, const uint8_t *id, size_t max, int want_data, int *type, uint8_t **data,
    size_t *len, char *err, size_t errlen)
{
	char path[PATH_MAX];
	const uint8_t *map = NULL;
	size_t maplen = 0;
	struct stat st;
	int rc;

	if (r->commondir == NULL)
		return 1;   /* an in-memory database has no loose objects */
	if (loose_path(r, id, path, sizeof path) != 0)
		return gx_own__fail(err, errlen, "%s: path too long", r->commondir);
	if (stat(path, &st) != 0)
		return 1;
	if (map_file(path, &map, &maplen, err, errlen) != 0)
		return -1;
	rc = gx_own__loose_mem(map, maplen, path, max, want_data, type, data, len, err, errlen);
	unmap(map, maplen);
	return rc;
}

/* see gx_own_int.h */
int
gx_own__loose_mem(const uint8_t *map, size_t maplen, const char *path, size_t max, int want_data,
    int *type, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	char hdr[33], *sp, *end;
	size_t have, hlen, size;
	unsigned long long sz;
	uint8_t *buf = NULL, spare[1];
	z_stream z;
	int zr, t, rc = -1;

	memset(&z, 0, sizeof z);
	if (inflateInit(&z) != Z_OK)
		return gx_own__fail(err, errlen, "out of memory");
	z.next_in = (Bytef *)(uintptr_t)map;
	z.avail_in = maplen > UINT_MAX ? UINT_MAX : (uInt)maplen;
	/* the header: at most 32 octets (git's MAX_HEADER_LEN) */
	z.next_out = (Bytef *)hdr;
	z.avail_out = sizeof hdr - 1;
	do {
		zr = inflate(&z, Z_NO_FLUSH);
		have = sizeof hdr - 1 - z.avail_out;
	} while (zr == Z_OK && z.avail_out > 0 && memchr(hdr, 0, have) == NULL);
	if ((zr != Z_OK && zr != Z_STREAM_END) || (end = memchr(hdr, 0, have)) == NULL) {
		gx_own__fail(err, errlen, "%s: loose object header unreadable", path);
		goto out;
	}
	hlen = (size_t)(end - hdr) + 1;
	sp = memchr(hdr, ' ', hlen);
	for (t = 1; t <= 4 && sp != NULL; t++)
		if ((size_t)(sp - hdr) == strlen(type_names[t]) && memcmp(hdr, type_names[t], (size_t)(sp - hdr)) == 0)
			break;
	if (sp == NULL || t > 4 || sp[1] < '0' || sp[1] > '9' || (sp[1] == '0' && sp[2] != 0)) {
		gx_own__fail(err, errlen, "%s: loose object header malformed", path);
		goto out;
	}
	sz = strtoull(sp + 1, &end, 10);
	if (*end != 0 || sz > GX_OWN_MAX_OBJECT) {
		gx_own__fail(err, errlen, "%s: loose object size malformed or above GX_OWN_MAX_OBJECT", path);
		goto out;
	}
	size = (size_t)sz;
	*type = t;
	if (!want_data) {
		rc = 0;
		goto out;
	}
	if (size > max) {
		gx_own__fail(err, errlen, "%s: larger than %zu octets", path, max);
		goto out;
	}
	if ((uint64_t)size > GX_ZLIB_MAX_OUT(maplen)) {
		gx_own__fail(err, errlen, "%s: loose object declares more octets than its file can "
		    "inflate to", path);
		goto out;
	}
	if ((buf = malloc(size ? size : 1)) == NULL) {
		gx_own__fail(err, errlen, "out of memory");
		goto out;
	}
	have -= hlen;
	if (have > size) {
		gx_own__fail(err, errlen, "%s: loose object longer than its header says", path);
		goto out;
	}
	memcpy(buf, hdr + hlen, have);
	z.next_out = buf + have;
	z.avail_out = (uInt)(size - have);
	while (zr == Z_OK && z.avail_out > 0)
		zr = inflate(&z, Z_NO_FLUSH);
	if (zr == Z_OK) {
		z.next_out = spare;
		z.avail_out = 1;
		zr = inflate(&z, Z_FINISH);
		if (z.avail_out == 0)
			zr = Z_DATA_ERROR;
	}
	if (zr != Z_STREAM_END || z.total_out != hlen + size) {
		gx_own__fail(err, errlen, "%s: loose object corrupt or not of its header's size", path);
		goto out;
	}
	if (z.avail_in != 0 || z.total_in != maplen) {
		gx_own__fail(err, errlen, "%s: garbage after the loose object", path);
		goto out;
	}
	*data = buf;
	*len = size;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	inflateEnd(&z);
	return rc;
}

/* ---- reading ---- */

/* The chain from an object's entry down to its base. */
typedef struct gx_chain {
	gx_loc *v;
	size_t n, cap;
	int base_type;            /* 1..4 */
	const uint8_t *loose_base;  /* the base is this loose object (REF_DELTA) */
} gx_chain;

static int
chain_push(gx_chain *c, gx_loc l, char *err, size_t errlen)
{
	if (c->n >= GX_OWN_MAX_DELTA_CHAIN)
		return gx_own__fail(err, errlen, "%s: delta chain longer than %u (GX_OWN_MAX_DELTA_CHAIN)",
		    l.p->name, GX_OWN_MAX_DELTA_CHAIN);
	if (c->n == c->cap) {
		size_t ncap = c->cap ? 2 * c->cap : 16;
		gx_loc *nv = realloc(c->v, ncap * sizeof *nv);
		if (nv == NULL)
			return gx_own__fail(err, errlen, "out of memory");
		c->v = nv;
		c->cap = ncap;
	}
	c->v[c->n++] = l;
	return 0;
}

/* Walk from the entry at l down to a non-delta entry (the last of c->v) or
 * a loose base; no content is inflated. */
static int
walk_chain(gx_own *r, gx_loc l, gx_chain *c, char *err, size_t errlen)
{
	gx_entry e;
	for (;;) {
		if (chain_push(c, l, err, errlen) != 0 || parse_entry(r, l.p, l.off, &e, err, errlen) != 0)
			return -1;
		if (e.type <= 4) {
			c->base_type = e.type;
			return 0;
		}
		if (e.type == GX_OFS_DELTA) {
			l.off = e.base_off;
		} else {
			int found = find_packed(r, e.base_id, &l, err, errlen);
			if (found < 0)
				return -1;
			if (found == 0) {
				uint8_t *unused = NULL;
				size_t ulen;
				int rc = read_loose(r, e.base_id, 0, 0, &c->base_type, &unused, &ulen, err, errlen);
				if (rc < 0)
					return -1;
				if (rc > 0)
					return gx_own__fail(err, errlen, "%s: delta base missing", l.p->name);
				c->loose_base = e.base_id;
				return 0;
			}
		}
	}
}

/* Inflate the entry at l (its whole data: an object or delta instructions)
 * of at most max octets. */
static int
inflate_entry(gx_own *r, gx_loc l, size_t max, uint8_t **out, size_t *outlen, char *err, size_t errlen)
{
	gx_entry e;
	uint8_t *buf;
	if (parse_entry(r, l.p, l.off, &e, err, errlen) != 0)
		return -1;
	if (e.size > max)
		return gx_own__fail(err, errlen, "%s: entry at %llu larger than %zu octets", l.p->name,
		    (unsigned long long)l.off, max);
	if (e.size > GX_ZLIB_MAX_OUT(e.zlen))
		return gx_own__fail(err, errlen, "%s: entry at %llu declares more octets than the rest "
		    "of the pack can inflate to", l.p->name, (unsigned long long)l.off);
	if ((buf = malloc(e.size ? (size_t)e.size : 1)) == NULL)
		return gx_own__fail(err, errlen, "out of memory");
	if (inflate_exact(e.z, e.zlen, buf, (size_t)e.size, NULL) != 0) {
		free(buf);
		return gx_own__fail(err, errlen, "%s: entry at %llu corrupt (zlib or size)", l.p->name,
		    (unsigned long long)l.off);
	}
	*out = buf;
	*outlen = (size_t)e.size;
	return 0;
}

static int
read_packed(gx_own *r, gx_loc l, size_t max, int *type, uint8_t **data, size_t *len, char *err, size_t errlen)
{
	gx_chain c;
	uint8_t *obj = NULL, *delta = NULL, *next = NULL;
	size_t olen = 0, dlen, i;
	int rc = -1;
	memset(&c, 0, sizeof c);
	if (walk_chain(r, l, &c, err, errlen) != 0)
		goto out;
	if (c.loose_base != NULL) {
		int t;
		if (read_loose(r, c.loose_base, GX_OWN_MAX_OBJECT, 1, &t, &obj, &olen, err, errlen) != 0)
			goto out;
		i = c.n;
	} else {
		i = c.n - 1;
		if (inflate_entry(r, c.v[i], i == 0 ? max : GX_OWN_MAX_OBJECT, &obj, &olen, err, errlen) != 0)
			goto out;
	}
	while (i-- > 0) {
		if (inflate_entry(r, c.v[i], GX_OWN_MAX_OBJECT, &delta, &dlen, err, errlen) != 0)
			goto out;
		if (apply_delta(obj, olen, delta, dlen, i == 0 ? max : GX_OWN_MAX_OBJECT, &next, &olen,
		    c.v[i].p->name, err, errlen) != 0)
			goto out;
		free(obj);
		free(delta);
		delta = NULL;
		obj = next;
	}
	*type = c.base_type;
	*data = obj;
	*len = olen;
	obj = NULL;
	rc = 0;
out:
	free(obj);
	free(delta);
	free(c.v);
	return rc;
}

/* git's object id: the hash of "TYPE SIZE\0" and the content. */
static int
id_matches(gx_own *r, int type, const uint8_t *data, size_t len, const uint8_t *id)
{
	char hdr[40];
	uint8_t *buf, digest[PGP_HASH_MAX_LEN];
	int n = snprintf(hdr, sizeof hdr, "%s %zu", type_names[type], len), ok;
	if ((buf = malloc((size_t)n + 1 + len)) == NULL)
		return -1;
	memcpy(buf, hdr, (size_t)n + 1);
	if (len > 0)
		memcpy(buf + n + 1, data, len);
	ok = pgp_hash_buf(r->hashalg, buf, (size_t)n + 1 + len, digest) == PGP_OK &&
	    memcmp(digest, id, r->idlen) == 0;
	free(buf);
	return ok ? 1 : 0;
}

int
gx_own_read(gx_own *r, const uint8_t *id, size_t max, int *type, uint8_t **data, size_t *len,
    char *err, size_t errlen)
{
	char hex[2 * GX_MAX_ID + 1];
	gx_loc l;
	int rc, m;
	*data = NULL;
	*len = 0;
	if (max > GX_OWN_MAX_OBJECT)
		max = GX_OWN_MAX_OBJECT;
	pgp_hex_encode_lower(hex, id, r->idlen);
	rc = find_packed(r, id, &l, err, errlen);
	if (rc > 0)
		rc = read_packed(r, l, max, type, data, len, err, errlen);
	else if (rc == 0)
		rc = read_loose(r, id, max, 1, type, data, len, err, errlen);
	if (rc > 0)
		return gx_own__fail(err, errlen, "%s: no such object", hex);
	if (rc < 0) {
		char why[512];
		snprintf(why, sizeof why, "%s", err);
		return gx_own__fail(err, errlen, "%s: cannot read: %s", hex, why);
	}
	m = id_matches(r, *type, *data, *len, id);
	if (m != 1) {
		free(*data);
		*data = NULL;
		*len = 0;
		return gx_own__fail(err, errlen, m < 0 ? "%s: out of memory" :
		    "%s: cannot read: corrupt object (its content does not hash to its id)", hex);
	}
	return 0;
}

int
gx_own__type(gx_own *r, const uint8_t *id, int *type, char *err, size_t errlen)
{
	gx_loc l;
	gx_chain c;
	int rc = find_packed(r, id, &l, err, errlen);
	if (rc > 0) {
		memset(&c, 0, sizeof c);
		rc = walk_chain(r, l, &c, err, errlen);
		free(c.v);
		*type = c.base_type;
		return rc;
	}
	if (rc == 0) {
		uint8_t *unused = NULL;
		size_t ulen;
		return read_loose(r, id, 0, 0, type, &unused, &ulen, err, errlen);
	}
	return -1;
}

/* ---- abbreviated ids ---- */

static void
note_match(gx_own *r, const uint8_t *cand, uint8_t *id, unsigned *count)
{
	if (*count == 0) {
		memcpy(id, cand, r->idlen);
		*count = 1;
	} else if (memcmp(id, cand, r->idlen) != 0) {
		*count = 2;
	}
}

int
gx_own__prefix(gx_own *r, const char *hex, size_t n, uint8_t *id, unsigned *count,
    char *err, size_t errlen)
{
	uint8_t key[GX_MAX_ID], cand[GX_MAX_ID];
	char dir[PATH_MAX];
	size_t i, nb = n / 2, k;
	DIR *d;
	struct dirent *de;
	*count = 0;
	if (n < 2 || n > 2 * r->idlen)
		return gx_own__fail(err, errlen, "%.*s: bad abbreviated id", (int)n, hex);
	memset(key, 0, sizeof key);
	for (i = 0; i < n; i++)
		key[i / 2] = (uint8_t)(key[i / 2] | (pgp_hex_digit(hex[i]) << (i % 2 ? 0 : 4)));
	for (k = 0; k < r->npacks && *count < 2; k++) {
		gx_pack *p = &r->packs[k];
		uint32_t lo, hi, j;
		if (bucket(r, p, key[0], &lo, &hi, err, errlen) != 0)
			return -1;
		/* an odd number of digits: the last one (high nibble of key[nb],
		 * low nibble 0) is part of the search, or ids with a smaller digit
		 * there would come first and end the scan before the matches */
		for (j = lower_bound(r, p, lo, hi, key, nb + n % 2); j < hi && *count < 2; j++) {
			const uint8_t *e = p->ids + (size_t)j * r->idlen;
			if (memcmp(e, key, nb) != 0 || (n % 2 && (e[nb] >> 4) != (key[nb] >> 4)))
				break;
			note_match(r, e, id, count);
		}
	}
	/* loose: objects/XX/ with the rest of the prefix */
	if (r->commondir == NULL)
		return 0;
	if ((size_t)snprintf(dir, sizeof dir, "%s/objects/%c%c", r->commondir, hex[0], hex[1]) >= sizeof dir)
		return gx_own__fail(err, errlen, "%s: path too long", r->commondir);
	if ((d = opendir(dir)) == NULL)
		return 0;
	while (*count < 2 && (de = readdir(d)) != NULL) {
		const char *name = de->d_name;
		int okname = strlen(name) == 2 * r->idlen - 2;
		for (i = 0; okname && i < 2 * r->idlen - 2; i++)
			okname = pgp_hex_digit(name[i]) >= 0 && !(name[i] >= 'A' && name[i] <= 'F');
		if (!okname)
			continue;
		for (i = 2; i < n; i++)
			if (pgp_hex_digit(name[i - 2]) != pgp_hex_digit(hex[i]))
				break;
		if (i < n)
			continue;
		cand[0] = key[0];
		for (i = 0; i < 2 * r->idlen - 2; i++) {
			size_t q = i + 2;
			if (q % 2 == 0)
				cand[q / 2] = (uint8_t)(pgp_hex_digit(name[i]) << 4);
			else
				cand[q / 2] = (uint8_t)(cand[q / 2] | pgp_hex_digit(name[i]));
		}
		note_match(r, cand, id, count);
	}
	closedir(d);
	return 0;
}
