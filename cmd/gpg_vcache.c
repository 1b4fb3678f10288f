/*
 * gpg_vcache.c - the drop-in's validity cache. `git log --format=%G?` runs
 * the drop-in once per signature, and the trust computation over a large
 * wotkit keyring (wot_build evaluates every certificate) costs far more than
 * one verification. The validities it produced are kept in a small file,
 * $XDG_CACHE_HOME/wotkit/gpg/<SHA-256 of the keyring's path>.validity
 * (~/.cache when XDG_CACHE_HOME is unset), written atomically, and reused
 * while all of this holds:
 *   - the keyring file is the same (device, inode, size, modification time:
 *     `wotkit keyring build` replaces it, so it gets a new inode) and so is
 *     the ownertrust file (or its absence);
 *   - the trust parameters and --allow-weak-digest-algos are the same;
 *   - the reference time lies in the window the values hold for: between
 *     the last and the next event of the graph (a key created, expiring or
 *     revoked; a certification made or expiring), and never more than
 *     GPG_VCACHE_SPAN seconds from the time they were computed at (events
 *     the graph does not list, such as a user ID binding's own expiry or a
 *     policy cutoff date, are late by at most that much).
 * WOTKIT_GPG_NO_CACHE=1 turns it off. A cache that cannot be read or written
 * is ignored: the values are then computed as without it.
 *
 * File: "WKGPGVC1", the stamp (gpg_vstamp), the window, the number of
 * entries, then per key: fingerprint length and octets, key validity,
 * ownertrust letter, number of user IDs, and per user ID 8 octets of the
 * SHA-256 of its octets and its validity.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "gpg.h"
#include "atomic.h"

/* Largest cache file read. */
#define GPG_VCACHE_MAX ((size_t)64 << 20)

static const char magic[8] = {'W', 'K', 'G', 'P', 'G', 'V', 'C', '1'};

/* see gpg.h */
int
gpg_vcache_stamp(gpg_vstamp *s, const gpg_run *r, const char *keyring, const char *trustfile)
{
	struct stat st;

	memset(s, 0, sizeof *s);
	if (stat(keyring, &st) != 0)
		return -1;
	s->kr_dev = (uint64_t)st.st_dev;
	s->kr_ino = (uint64_t)st.st_ino;
	s->kr_size = (uint64_t)st.st_size;
	s->kr_mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	if (trustfile[0] && stat(trustfile, &st) == 0) {
		s->tf_dev = (uint64_t)st.st_dev;
		s->tf_ino = (uint64_t)st.st_ino;
		s->tf_size = (uint64_t)st.st_size + 1;     /* 0: no trust file */
		s->tf_mtime = (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec;
	} else if (trustfile[0] && errno != ENOENT) {
		return -1;
	}
	s->params = (uint64_t)r->o.marginals_needed | (uint64_t)r->o.completes_needed << 8 |
	    (uint64_t)r->o.max_cert_depth << 16 | (uint64_t)(r->o.allow_weak_digest != 0) << 24;
	return 0;
}

/* see gpg.h */
int
gpg_vcache_path(char *out, size_t n, const char *keyring)
{
	const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME"), *off = getenv("WOTKIT_GPG_NO_CACHE");
	char real[GPG_MAX_PATH], hex[65];
	uint8_t d[PGP_HASH_MAX_LEN];
	int l;

	if (off && strcmp(off, "0") != 0 && *off)
		return -1;
	if (realpath(keyring, real) == NULL)
		return -1;
	if (pgp_hash_buf(PGP_HASH_SHA256, real, strlen(real), d) != PGP_OK)
		return -1;
	pgp_hex_encode(hex, d, 32);
	if (x && *x == '/')
		l = snprintf(out, n, "%s/wotkit/gpg/%.32s.validity", x, hex);
	else if (h && *h == '/')
		l = snprintf(out, n, "%s/.cache/wotkit/gpg/%.32s.validity", h, hex);
	else
		return -1;
	return l > 0 && (size_t)l < n ? 0 : -1;
}

/* see gpg.h */
void
gpg_vcache_uid_hash(uint8_t out[8], const pgp_view *uid)
{
	uint8_t d[PGP_HASH_MAX_LEN];

	if (pgp_hash_buf(PGP_HASH_SHA256, uid->p, uid->len, d) != PGP_OK)
		memset(d, 0, 8);
	memcpy(out, d, 8);
}

static void
put64(pgp_buf *b, uint64_t v, int *ok)
{
	uint8_t o[8];
	int i;

	for (i = 0; i < 8; i++)
		o[i] = (uint8_t)(v >> (56 - 8 * i));
	if (pgp_buf_append(b, o, 8) != PGP_OK)
		*ok = 0;
}

static void
put_stamp(pgp_buf *b, const gpg_vstamp *s, int *ok)
{
	put64(b, s->kr_dev, ok);
	put64(b, s->kr_ino, ok);
	put64(b, s->kr_size, ok);
	put64(b, (uint64_t)s->kr_mtime, ok);
	put64(b, s->tf_dev, ok);
	put64(b, s->tf_ino, ok);
	put64(b, s->tf_size, ok);
	put64(b, (uint64_t)s->tf_mtime, ok);
	put64(b, s->params, ok);
}

/* see gpg.h */
void
gpg_vcache_store(const char *path, const gpg_vstamp *s, int64_t lo, int64_t hi,
    const gpg_ventry *e, size_t n)
{
	char dir[GPG_MAX_PATH], *slash;
	cli_atomic a;
	pgp_buf b;
	size_t i, j;
	int ok = 1;

	pgp_buf_init(&b, GPG_VCACHE_MAX);
	if (pgp_buf_append(&b, (const uint8_t *)magic, sizeof magic) != PGP_OK)
		ok = 0;
	put_stamp(&b, s, &ok);
	put64(&b, (uint64_t)lo, &ok);
	put64(&b, (uint64_t)hi, &ok);
	put64(&b, n, &ok);
	for (i = 0; i < n && ok; i++) {
		uint8_t h[4] = {e[i].fpr.len, e[i].key_validity, (uint8_t)e[i].ownertrust,
		    (uint8_t)(e[i].nuids > 255 ? 255 : e[i].nuids)};
		if (pgp_buf_append(&b, h, 1) != PGP_OK ||
		    pgp_buf_append(&b, e[i].fpr.v, e[i].fpr.len) != PGP_OK ||
		    pgp_buf_append(&b, h + 1, 3) != PGP_OK)
			ok = 0;
		for (j = 0; j < h[3] && ok; j++)
			if (pgp_buf_append(&b, e[i].uids[j].hash, 8) != PGP_OK ||
			    pgp_buf_append(&b, &e[i].uids[j].validity, 1) != PGP_OK)
				ok = 0;
	}
	snprintf(dir, sizeof dir, "%s", path);
	if ((slash = strrchr(dir, '/')) != NULL)
		*slash = '\0';
	if (!ok || cli_mkdirs(dir, 0700, 1) != 0) {
		pgp_buf_free(&b);
		return;
	}
	if (cli_atomic_open(&a, path) == 0) {
		ok = fwrite(b.p, 1, b.len, a.f) == b.len;
		(void)cli_atomic_close(&a, path, ok, 0);
	}
	pgp_buf_free(&b);
}

static int
get64(pgp_rd *r, uint64_t *v)
{
	uint8_t o[8];
	int i;

	if (pgp_rd_copy(r, o, 8) != PGP_OK)
		return -1;
	*v = 0;
	for (i = 0; i < 8; i++)
		*v = *v << 8 | o[i];
	return 0;
}

/* see gpg.h */
int
gpg_vcache_load(gpg_vcache *c, const char *path, const gpg_vstamp *s, int64_t now)
{
	cli_file f;
	FILE *fp;
	pgp_rd r;
	uint8_t m[8];
	uint64_t v[9], lo, hi, n, i, j;
	gpg_vstamp got;

	memset(c, 0, sizeof *c);
	if ((fp = fopen(path, "rb")) == NULL)
		return 0;
	fclose(fp);
	if (cli_file_open(&f, path) != 0)
		return 0;
	pgp_rd_init(&r, f.p, f.len);
	if (f.len > GPG_VCACHE_MAX || pgp_rd_copy(&r, m, 8) != PGP_OK ||
	    memcmp(m, magic, 8) != 0)
		goto miss;
	for (i = 0; i < 9; i++)
		if (get64(&r, &v[i]) != 0)
			goto miss;
	got.kr_dev = v[0];
	got.kr_ino = v[1];
	got.kr_size = v[2];
	got.kr_mtime = (int64_t)v[3];
	got.tf_dev = v[4];
	got.tf_ino = v[5];
	got.tf_size = v[6];
	got.tf_mtime = (int64_t)v[7];
	got.params = v[8];
	if (memcmp(&got, s, sizeof got) != 0 || get64(&r, &lo) != 0 || get64(&r, &hi) != 0 ||
	    get64(&r, &n) != 0 || now < (int64_t)lo || now >= (int64_t)hi ||
	    n > f.len / 4)
		goto miss;
	if ((c->e = calloc(n ? n : 1, sizeof *c->e)) == NULL)
		goto miss;
	for (i = 0; i < n; i++) {
		gpg_ventry *e = &c->e[i];
		uint8_t h[3];
		if (pgp_rd_u8(&r, &e->fpr.len) != PGP_OK || e->fpr.len > PGP_FPR_MAX ||
		    pgp_rd_copy(&r, e->fpr.v, e->fpr.len) != PGP_OK ||
		    pgp_rd_copy(&r, h, 3) != PGP_OK)
			goto miss;
		e->key_validity = h[0];
		e->ownertrust = (char)h[1];
		e->nuids = h[2];
		if (e->nuids && (e->uids = calloc(e->nuids, sizeof *e->uids)) == NULL)
			goto miss;
		c->n = i + 1;
		for (j = 0; j < e->nuids; j++)
			if (pgp_rd_copy(&r, e->uids[j].hash, 8) != PGP_OK ||
			    pgp_rd_u8(&r, &e->uids[j].validity) != PGP_OK)
				goto miss;
	}
	cli_file_close(&f);
	return 1;
miss:
	cli_file_close(&f);
	gpg_vcache_release(c);
	return 0;
}

/* see gpg.h */
const gpg_ventry *
gpg_vcache_find(const gpg_vcache *c, const pgp_fpr *fpr)
{
	size_t i;

	for (i = 0; i < c->n; i++)
		if (c->e[i].fpr.len == fpr->len && memcmp(c->e[i].fpr.v, fpr->v, fpr->len) == 0)
			return &c->e[i];
	return NULL;
}

/* see gpg.h */
void
gpg_vcache_release(gpg_vcache *c)
{
	size_t i;

	for (i = 0; c->e != NULL && i < c->n; i++)
		free(c->e[i].uids);
	free(c->e);
	memset(c, 0, sizeof *c);
}
