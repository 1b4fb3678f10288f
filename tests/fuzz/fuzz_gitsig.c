/*
 * fuzz_gitsig.c - libFuzzer target for git's payload/signature split
 * (pgp/gitsig.c). The input is one object; it is split as a tag, as a
 * commit of a SHA-1 and of a SHA-256 repository, its mergetag values as
 * tags, and a few header lookups. Invariants (a violation aborts):
 *  - tag: the cut lies inside the object, at a line start, on a line that
 *    starts with a signature header; no later line starts with one; the
 *    split's signature is exactly the bytes after the cut, its payload a
 *    subsequence of the bytes before it, and payload + signature never
 *    longer than the object (unsigned: the payload is the object);
 *  - commit: payload and signature are each a subsequence of the object
 *    (every output byte comes from the input, in order), together never
 *    longer than it; no signature means an empty one;
 *  - mergetags: each value is a subsequence of the object, positions only
 *    move forward, and there are never more values than lines;
 *  - header: the value views the object, on the line of its name.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/gitsig.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const sig_headers[] = {
	"-----BEGIN PGP SIGNATURE-----", "-----BEGIN PGP MESSAGE-----",
	"-----BEGIN SIGNED MESSAGE-----", "-----BEGIN SSH SIGNATURE-----",
};

static int
line_is_sig_header(const uint8_t *p, size_t n)
{
	size_t i;
	for (i = 0; i < sizeof sig_headers / sizeof sig_headers[0]; i++) {
		size_t k = strlen(sig_headers[i]);
		if (n >= k && memcmp(p, sig_headers[i], k) == 0)
			return 1;
	}
	return 0;
}

/* b[0..m) is a subsequence of a[0..n) */
static int
subsequence(const uint8_t *a, size_t n, const uint8_t *b, size_t m)
{
	size_t i = 0, j = 0;
	while (j < m) {
		while (i < n && a[i] != b[j])
			i++;
		if (i == n)
			return 0;
		i++;
		j++;
	}
	return 1;
}

static void
check_tag(const uint8_t *obj, size_t len)
{
	size_t cut, i;
	pgp_gitsig_format fmt, fmt2;
	pgp_buf payload, sig;
	pgp_err e;

	if (pgp_gitsig_tag(obj, len, &cut, &fmt) != PGP_OK || cut > len)
		abort();
	if (fmt == PGP_GITSIG_NONE) {
		if (cut != len)
			abort();
	} else {
		if (fmt == PGP_GITSIG_UNKNOWN || (cut > 0 && obj[cut - 1] != '\n') ||
		    !line_is_sig_header(obj + cut, len - cut))
			abort();
		for (i = cut; i < len; i++)
			if (obj[i] == '\n' && line_is_sig_header(obj + i + 1, len - i - 1))
				abort();
	}
	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	e = pgp_gitsig_tag_split(obj, len, &payload, &sig, &fmt2);
	if (e == PGP_OK) {
		if (fmt2 != fmt || payload.len + sig.len > len || payload.len > cut ||
		    sig.len != len - cut || (sig.len && memcmp(sig.p, obj + cut, sig.len) != 0) ||
		    !subsequence(obj, cut, payload.p, payload.len))
			abort();
		if (fmt == PGP_GITSIG_NONE &&
		    (payload.len != len || (len && memcmp(payload.p, obj, len) != 0)))
			abort();
	} else if (e != PGP_ERR_MALFORMED || fmt == PGP_GITSIG_NONE) {
		abort();
	}
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
}

static void
check_commit(const uint8_t *obj, size_t len, int sha256)
{
	pgp_buf payload, sig;
	pgp_gitsig_format fmt;
	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	if (pgp_gitsig_commit(obj, len, sha256, &payload, &sig, &fmt) != PGP_OK)
		abort();
	if (payload.len > len || payload.len + sig.len > len ||
	    !subsequence(obj, len, payload.p, payload.len) ||
	    !subsequence(obj, len, sig.p, sig.len) ||
	    (fmt == PGP_GITSIG_NONE && sig.len != 0))
		abort();
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
}

static void
check_mergetags(const uint8_t *obj, size_t len)
{
	pgp_buf tag;
	size_t pos = 0, lines = 1, i, count = 0;
	pgp_err e;
	for (i = 0; i < len; i++)
		lines += obj[i] == '\n';
	pgp_buf_init(&tag, PGP_GITSIG_MAX_OBJECT);
	for (;;) {
		size_t before = pos;
		e = pgp_gitsig_mergetag_next(obj, len, &pos, &tag);
		if (e != PGP_OK)
			break;
		if (pos <= before || pos > len || ++count > lines ||
		    !subsequence(obj + before, pos - before, tag.p, tag.len))
			abort();
		check_tag(tag.p, tag.len);
	}
	if (e != PGP_ERR_NOT_FOUND || tag.len != 0 || pos > len)
		abort();
	pgp_buf_free(&tag);
}

static void
check_header(const uint8_t *obj, size_t len, const char *name)
{
	pgp_view v;
	size_t n = strlen(name), at;
	pgp_err e = pgp_gitsig_header(obj, len, name, &v);
	if (e == PGP_ERR_NOT_FOUND)
		return;
	if (e != PGP_OK || v.p < obj + n + 1 || v.len > len ||
	    (size_t)(v.p - obj) > len - v.len || memchr(v.p, '\n', v.len))
		abort();
	at = (size_t)(v.p - obj) - n - 1;
	if (memcmp(obj + at, name, n) != 0 || obj[at + n] != ' ' || (at > 0 && obj[at - 1] != '\n'))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > PGP_GITSIG_MAX_OBJECT)
		return 0;
	check_tag(data, size);
	check_commit(data, size, 0);
	check_commit(data, size, 1);
	check_mergetags(data, size);
	check_header(data, size, "object");
	check_header(data, size, "tagger");
	check_header(data, size, "mergetag");
	return 0;
}
