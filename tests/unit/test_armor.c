/* test_armor.c - ASCII armor decode/encode and CRC-24 (RFC 9580 §6). */
#include <dirent.h>
#include <stdint.h>
#include <sys/stat.h>
#include "pgp/armor.h"
#include "pgp/limits.h"
#include "t.h"

/*
 * Produced once with GnuPG 2.2.40: `printf 'hello' | gpg --enarmor`.
 * The checksum line "=R/WK" is CRC-24 0x47F58A.
 */
static const char gpg_hello[] =
    "-----BEGIN PGP ARMORED FILE-----\n"
    "Comment: Use \"gpg --dearmor\" for unpacking\n"
    "\n"
    "aGVsbG8=\n"
    "=R/WK\n"
    "-----END PGP ARMORED FILE-----\n";

/* RFC 9580 Appendix A.1 (no checksum; ends in '=' padding). */
static const char rfc_a1[] =
    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
    "\n"
    "xjMEU/NfCxYJKwYBBAHaRw8BAQdAPwmJlL3ZFu1AUxl5NOSofIBzOhKA1i+AEJku\n"
    "Q+47JAY=\n"
    "-----END PGP PUBLIC KEY BLOCK-----\n";

static pgp_err
decode1(const char *s, pgp_armor *a, pgp_diag *d)
{
	size_t pos = 0;
	return pgp_armor_next(a, (const uint8_t *)s, strlen(s), &pos, d);
}

/* Expect decode of s to fail with code e and reason what at offset off. */
static void
assert_fails(const char *s, pgp_err e, const char *what, size_t off)
{
	pgp_armor a;
	pgp_diag d = { 0, 0, NULL };
	pgp_err got = decode1(s, &a, &d);

	T_EQ_INT(got, e);
	if (what != NULL)
		T_EQ_STR(d.what, what);
	if (off != (size_t)-1)
		T_EQ_INT(d.offset, off);
	T_ASSERT(a.data == NULL && a.data_len == 0);
}

static void
test_crc24_known(void)
{
	/* CRC-24/OPENPGP check value (RevEng catalogue), and gpg --enarmor of
	 * "123456789" gives "=Ic8C" = 0x21CF02. */
	T_EQ_INT(pgp_crc24((const uint8_t *)"123456789", 9), 0x21CF02);
	T_EQ_INT(pgp_crc24((const uint8_t *)"hello", 5), 0x47F58A);
	/* empty input: the initial value (gpg --enarmor of nothing: "=twTO") */
	T_EQ_INT(pgp_crc24(NULL, 0), 0xB704CE);
}

static void
test_gpg_enarmor_hello(void)
{
	pgp_armor a;
	size_t pos = 0;
	const char *hdr = "Comment: Use \"gpg --dearmor\" for unpacking\n";

	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)gpg_hello, strlen(gpg_hello),
	    &pos, NULL), PGP_OK);
	T_EQ_STR(a.label, "PGP ARMORED FILE");
	T_EQ_INT(a.data_len, 5);
	T_ASSERT(a.data != NULL && memcmp(a.data, "hello", 5) == 0);
	T_EQ_INT(a.has_crc, 1);
	T_EQ_INT(a.crc_ok, 1);
	T_EQ_INT(a.begin_off, 0);
	T_EQ_INT(a.end_off, strlen(gpg_hello));
	T_EQ_INT(pos, strlen(gpg_hello));
	T_EQ_INT(a.headers.len, strlen(hdr));
	T_ASSERT(a.headers.len == strlen(hdr) && memcmp(a.headers.p, hdr, a.headers.len) == 0);
	pgp_armor_release(&a);
	T_ASSERT(a.data == NULL);
	/* no further block */
	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)gpg_hello, strlen(gpg_hello),
	    &pos, NULL), PGP_ERR_NOT_FOUND);
}

static void
test_encode_matches_gpg(void)
{
	pgp_buf b;
	const char *want =
	    "-----BEGIN PGP ARMORED FILE-----\n\naGVsbG8=\n=R/WK\n"
	    "-----END PGP ARMORED FILE-----\n";

	T_EQ_INT(pgp_armor_encode(&b, "PGP ARMORED FILE", (const uint8_t *)"hello", 5), PGP_OK);
	T_EQ_INT(b.len, strlen(want));
	T_ASSERT(b.len == strlen(want) && memcmp(b.p, want, b.len) == 0);
	pgp_buf_free(&b);
	/* empty data: just the checksum of nothing */
	T_EQ_INT(pgp_armor_encode(&b, "PGP MESSAGE", NULL, 0), PGP_OK);
	want = "-----BEGIN PGP MESSAGE-----\n\n=twTO\n-----END PGP MESSAGE-----\n";
	T_ASSERT(b.len == strlen(want) && memcmp(b.p, want, b.len) == 0);
	pgp_buf_free(&b);
}

static void
test_encode_bad_label(void)
{
	pgp_buf b;
	uint8_t x = 1;

	T_EQ_INT(pgp_armor_encode(&b, "MESSAGE", &x, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_encode(&b, "PGP message", &x, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_encode(&b, "PGP MESSAGE-----", &x, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_encode(&b, NULL, &x, 1), PGP_ERR_INVALID);
	T_EQ_INT(pgp_armor_encode(&b,
	    "PGP AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	    &x, 1), PGP_ERR_INVALID);
	T_ASSERT(b.p == NULL);
}

/* xorshift: deterministic test data */
static uint32_t
rnd(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void
test_roundtrip(void)
{
	static const size_t big[] = { 1000, 4095, 4096, 4097, 65536, 100003 };
	uint32_t seed = 0x12345678u;
	uint8_t *data = malloc(100003);
	size_t i, k, n;

	T_ASSERT(data != NULL);
	if (data == NULL)
		return;
	for (k = 0; k < 300 + sizeof big / sizeof big[0]; k++) {
		pgp_buf b;
		pgp_armor a;
		size_t pos = 0;
		pgp_err e;

		n = k < 300 ? k : big[k - 300];
		for (i = 0; i < n; i++)
			data[i] = (uint8_t)rnd(&seed);
		T_EQ_INT(pgp_armor_encode(&b, "PGP MESSAGE", data, n), PGP_OK);
		/* 64-column lines */
		for (i = 0, pos = 0; i < b.len; i++) {
			if (b.p[i] == '\n') {
				T_ASSERT(i - pos <= 64);
				pos = i + 1;
			}
		}
		pos = 0;
		e = pgp_armor_next(&a, b.p, b.len, &pos, NULL);
		T_EQ_INT(e, PGP_OK);
		T_EQ_INT(a.data_len, n);
		if (e == PGP_OK && a.data_len == n && n > 0)
			T_EQ_MEM(a.data, data, n);
		T_EQ_INT(a.has_crc, 1);
		T_EQ_INT(a.crc_ok, 1);
		T_EQ_INT(pos, b.len);
		pgp_armor_release(&a);
		pgp_buf_free(&b);
	}
	free(data);
}

static void
test_rfc_a1_no_crc(void)
{
	pgp_armor a;

	T_EQ_INT(decode1(rfc_a1, &a, NULL), PGP_OK);
	T_EQ_STR(a.label, "PGP PUBLIC KEY BLOCK");
	T_EQ_INT(a.data_len, 53);
	T_EQ_INT(a.has_crc, 0);
	T_EQ_INT(a.headers.len, 0);
	/* RFC 9580 A.1 hex: c6 33 04 53 f3 5f 0b 16 09 ... 24 06 */
	{
		unsigned char want[53];
		T_EQ_INT(t_unhex(want, sizeof want,
		    "c633 0453 f35f 0b16 092b 0601 0401 da47 0f01 0107 403f 0989"
		    "94bd d916 ed40 5319 7934 e4a8 7c80 733a 1280 d62f 8010 992e"
		    "43ee 3b24 06"), 53);
		if (a.data_len == 53)
			T_EQ_MEM(a.data, want, 53);
	}
	pgp_armor_release(&a);
}

static void
test_padding_optional(void)
{
	pgp_armor a;

	/* "hello" without '=' padding, with and without checksum */
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\n\naGVsbG8\n=R/WK\n"
	    "-----END PGP MESSAGE-----\n", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	pgp_armor_release(&a);
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\n\naGVsbG8\n"
	    "-----END PGP MESSAGE-----", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	pgp_armor_release(&a);
	/* padding on its own line */
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\n\naGVsbA\n==\n"
	    "-----END PGP MESSAGE-----\n", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 4 && memcmp(a.data, "hell", 4) == 0);
	pgp_armor_release(&a);
	/* a quantum split across lines */
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\n\naGV\nsbG8=\n"
	    "-----END PGP MESSAGE-----\n", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	pgp_armor_release(&a);
}

static void
test_leading_text_and_multiple(void)
{
	const char *in =
	    "pub   rsa4096 2020-02-18 [C]\n"
	    "-----BEGIN PGP looks like text but is not at line start\n"
	    "uid  x -----BEGIN PGP MESSAGE-----\n"
	    "\n"
	    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
	    "\n"
	    "AQID\n"
	    "-----END PGP PUBLIC KEY BLOCK-----\n"
	    "between\n"
	    "-----BEGIN PGP PUBLIC KEY BLOCK-----\n"
	    "Version: x\n"
	    "\n"
	    "BAUG\n"
	    "=xxxx\n"
	    "-----END PGP PUBLIC KEY BLOCK-----\n";
	/* the fake BEGIN on line 2 starts with "-----BEGIN PGP " so is a block */
	pgp_armor a;
	pgp_diag d;
	size_t pos = 0;
	const char *good;
	pgp_buf b;

	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)in, strlen(in), &pos, &d),
	    PGP_ERR_MALFORMED);
	T_EQ_INT(pos, 0);

	good = strstr(in, "uid  x");
	pos = (size_t)(good - in);
	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)in, strlen(in), &pos, &d), PGP_OK);
	T_EQ_INT(a.begin_off, (size_t)(strstr(in, "\n-----BEGIN PGP PUBLIC") + 1 - in));
	T_ASSERT(a.data_len == 3 && memcmp(a.data, "\1\2\3", 3) == 0);
	pgp_armor_release(&a);
	/* second block has a checksum that does not match */
	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)in, strlen(in), &pos, &d),
	    PGP_ERR_MALFORMED);
	T_EQ_STR(d.what, "armor checksum mismatch");
	T_EQ_INT(d.offset, (size_t)(strstr(in, "=xxxx") - in));

	/* decode_all from the good part with a correct checksum */
	{
		char buf[1024];
		snprintf(buf, sizeof buf, "%s", good);
		/* CRC-24 of 04 05 06 */
		{
			uint8_t x[3] = { 4, 5, 6 };
			uint32_t c = pgp_crc24(x, 3);
			static const char b64[] =
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
			char *p = strstr(buf, "=xxxx");
			p[1] = b64[(c >> 18) & 63];
			p[2] = b64[(c >> 12) & 63];
			p[3] = b64[(c >> 6) & 63];
			p[4] = b64[c & 63];
		}
		T_EQ_INT(pgp_armor_decode_all(&b, (const uint8_t *)buf, strlen(buf), &d), PGP_OK);
		T_ASSERT(b.len == 6 && memcmp(b.p, "\1\2\3\4\5\6", 6) == 0);
		pgp_buf_free(&b);
	}
	T_EQ_INT(pgp_armor_decode_all(&b, (const uint8_t *)"no armor\n", 9, &d),
	    PGP_ERR_NOT_FOUND);
	T_EQ_INT(pgp_armor_decode_all(&b, (const uint8_t *)in, strlen(in), &d),
	    PGP_ERR_MALFORMED);
	T_ASSERT(b.p == NULL && b.len == 0);
}

static void
test_is_armored(void)
{
	T_EQ_INT(pgp_armor_is_armored((const uint8_t *)gpg_hello, strlen(gpg_hello)), 1);
	T_EQ_INT(pgp_armor_is_armored((const uint8_t *)"x\n-----BEGIN PGP X", 18), 1);
	T_EQ_INT(pgp_armor_is_armored((const uint8_t *)"x -----BEGIN PGP X\n", 19), 0);
	T_EQ_INT(pgp_armor_is_armored((const uint8_t *)"-----BEGIN PGP", 14), 0);
	T_EQ_INT(pgp_armor_is_armored((const uint8_t *)"\x99\x01\x0d", 3), 0);
	T_EQ_INT(pgp_armor_is_armored(NULL, 0), 0);
}

static void
test_crlf_and_trailing_ws(void)
{
	pgp_armor a;

	T_EQ_INT(decode1("-----BEGIN PGP ARMORED FILE-----  \r\n"
	    "Comment: x\r\n"
	    " \t\r\n"                       /* whitespace-only blank line */
	    "aGVsbG8=\t \r\n"
	    "=R/WK \r\n"
	    "-----END PGP ARMORED FILE----- \r\n", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	T_EQ_INT(a.crc_ok, 1);
	T_EQ_INT(a.headers.len, 12);
	pgp_armor_release(&a);
}

static void
test_missing_blank_line(void)
{
	pgp_armor a;

	/* no headers, no blank line: tolerated when the line is base64 */
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\naGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", &a, NULL), PGP_OK);
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	pgp_armor_release(&a);
	/* empty body */
	T_EQ_INT(decode1("-----BEGIN PGP MESSAGE-----\n-----END PGP MESSAGE-----\n",
	    &a, NULL), PGP_OK);
	T_EQ_INT(a.data_len, 0);
	pgp_armor_release(&a);
	/* headers then base64 with no blank line */
	assert_fails("-----BEGIN PGP MESSAGE-----\nComment: x\naGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED,
	    "missing blank line after armor headers", 39);
	/* not a header, not base64 */
	assert_fails("-----BEGIN PGP MESSAGE-----\nhello world\n\naGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "invalid armor header", 28);
	assert_fails("-----BEGIN PGP MESSAGE-----\nComment:x\n\naGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "invalid armor header", 28);
}

static void
test_bad_blocks(void)
{
	/* checksum mismatch (stricter than RFC 9580 §6.1; see armor.h) */
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n=R/WL\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "armor checksum mismatch", 38);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n"
	    "-----END PGP SIGNATURE-----\n", PGP_ERR_MALFORMED,
	    "armor END label does not match BEGIN", 38);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n"
	    "-----BEGIN PGP MESSAGE-----\n", PGP_ERR_MALFORMED,
	    "unexpected dash line in armor body", 38);
	/* invalid character: offset of the character */
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGV*bG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "invalid base64 character", 32);
	/* space inside a line (GnuPG would skip it) */
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVs bG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "invalid base64 character", 33);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\n aGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "invalid base64 character", 29);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=aGVs\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "data after base64 padding", 37);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\naGVs\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "data after base64 padding", 38);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naG==\n=abc\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "misplaced base64 padding", 34);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\na===\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "misplaced base64 padding", 30);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsb\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "truncated base64 quantum", 35);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n=R/WK\naGVs\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "data after armor checksum", 44);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVs\n\nbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, "blank line in armor body", 34);
	assert_fails("-----BEGIN PGP message-----\n\naGVsbG8=\n"
	    "-----END PGP message-----\n", PGP_ERR_MALFORMED, "invalid armor label", 11);
	assert_fails("-----BEGIN PGP MESSAGE----- x\n\naGVsbG8=\n"
	    "-----END PGP MESSAGE-----\n", PGP_ERR_MALFORMED, NULL, 0);
	assert_fails("-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n",
	    PGP_ERR_TRUNCATED, "input ends before armor END line", 38);
	assert_fails("no armor here\n", PGP_ERR_NOT_FOUND, NULL, (size_t)-1);
}

static void
test_limits(void)
{
	size_t n = PGP_MAX_ARMOR_LINE + 100, i;
	char *s = malloc(n + 200);
	pgp_armor a;
	pgp_diag d;
	size_t pos = 0;

	T_ASSERT(s != NULL);
	if (s == NULL)
		return;
	strcpy(s, "-----BEGIN PGP MESSAGE-----\n\n");
	i = strlen(s);
	memset(s + i, 'A', n);
	strcpy(s + i + n, "\n-----END PGP MESSAGE-----\n");
	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)s, strlen(s), &pos, &d), PGP_ERR_LIMIT);
	T_EQ_STR(d.what, "armor line longer than 64 KiB (PGP_MAX_ARMOR_LINE)");
	T_EQ_INT(d.offset, i);
	free(s);
	/* *pos past the input */
	pos = 10;
	T_EQ_INT(pgp_armor_next(&a, (const uint8_t *)"abc", 3, &pos, &d), PGP_ERR_INVALID);
}

static void
test_skips_cleartext(void)
{
	const char *in =
	    "-----BEGIN PGP SIGNED MESSAGE-----\n"
	    "Hash: SHA256\n"
	    "\n"
	    "- -----BEGIN PGP MESSAGE-----\n"
	    "text\n"
	    "-----BEGIN PGP SIGNATURE-----\n"
	    "\n"
	    "aGVsbG8=\n"
	    "-----END PGP SIGNATURE-----\n";
	pgp_armor a;

	T_EQ_INT(decode1(in, &a, NULL), PGP_OK);
	T_EQ_STR(a.label, "PGP SIGNATURE");
	T_ASSERT(a.data_len == 5 && memcmp(a.data, "hello", 5) == 0);
	T_EQ_INT(a.begin_off, (size_t)(strstr(in, "-----BEGIN PGP SIGNATURE") - in));
	pgp_armor_release(&a);
}

/*
 * Every prefix that cuts before the END line's closing dashes fails; every
 * longer one (only the line ending missing) decodes.
 */
static void
check_prefixes(const uint8_t *in, size_t len, const char *name)
{
	size_t k, i, end = 0, mark = 0, bad = 0;

	for (i = 0; i + 9 <= len; i++)
		if (memcmp(in + i, "-----END ", 9) == 0)
			end = i;
	for (i = end + 9; i + 5 <= len; i++)
		if (memcmp(in + i, "-----", 5) == 0) {
			mark = i + 5;
			break;
		}
	T_ASSERT(end > 0 && mark > end);
	for (k = 0; k <= len; k++) {
		pgp_armor a;
		pgp_diag d;
		size_t pos = 0;
		uint8_t *cp = malloc(k ? k : 1);
		pgp_err e;

		if (cp == NULL)
			break;
		memcpy(cp, in, k);
		e = pgp_armor_next(&a, cp, k, &pos, &d);
		if ((k < mark) != (e != PGP_OK)) {
			if (bad++ == 0)
				fprintf(stderr, "%s: prefix %zu gives %d\n", name, k, e);
		}
		pgp_armor_release(&a);
		free(cp);
	}
	T_EQ_INT(bad, 0);
}

static void
test_truncation_prefixes(void)
{
	check_prefixes((const uint8_t *)gpg_hello, strlen(gpg_hello), "gpg_hello");
	check_prefixes((const uint8_t *)rfc_a1, strlen(rfc_a1), "rfc_a1");
}

/* ---- the shared corpus ---- */

static int corpus_files, corpus_bad;

static void
check_corpus_file(const char *path)
{
	/* Known-mangled inputs and why they fail. */
	static const struct { const char *suffix; pgp_err e; size_t off; } fails[] = {
		/* a space in "mQGN BF2l..." on the first body line; GnuPG skips it */
		{ "sequoia/keys/bobs-cert-badly-mangled.asc", PGP_ERR_MALFORMED, 77 },
	};
	size_t n, i, pl = strlen(path);
	unsigned char *p = t_slurp(path, &n);
	pgp_buf b;
	pgp_diag d = { 0, 0, NULL };
	pgp_err e, want = PGP_OK;
	size_t want_off = 0;

	if (p == NULL) {
		corpus_bad++;
		return;
	}
	for (i = 0; i < sizeof fails / sizeof fails[0]; i++) {
		size_t sl = strlen(fails[i].suffix);
		if (pl >= sl && strcmp(path + pl - sl, fails[i].suffix) == 0) {
			want = fails[i].e;
			want_off = fails[i].off;
		}
	}
	T_EQ_INT(pgp_armor_is_armored(p, n), 1);
	e = pgp_armor_decode_all(&b, p, n, &d);
	if (e != want || (e != PGP_OK && d.offset != want_off)) {
		fprintf(stderr, "%s: %d (%s at %zu), expected %d\n", path, e,
		    d.what ? d.what : "", d.offset, want);
		corpus_bad++;
	}
	if (e == PGP_OK) {
		/* decoded OpenPGP data starts with a packet tag octet */
		if (b.len == 0 || !(b.p[0] & 0x80)) {
			fprintf(stderr, "%s: decoded data is not OpenPGP\n", path);
			corpus_bad++;
		}
		pgp_buf_free(&b);
	}
	corpus_files++;
	free(p);
}

static void
walk(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	if (d == NULL)
		return;
	while ((de = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		size_t l;

		if (de->d_name[0] == '.' && (de->d_name[1] == '\0' ||
		    (de->d_name[1] == '.' && de->d_name[2] == '\0')))
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
		if (stat(path, &st) != 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			walk(path);
			continue;
		}
		l = strlen(path);
		if (l > 4 && strcmp(path + l - 4, ".asc") == 0)
			check_corpus_file(path);
	}
	closedir(d);
}

static void
test_corpus_asc(void)
{
	const char *c = t_corpus();

	if (c == NULL) {
		printf("skip - corpus absent (set WOTKIT_CORPUS)\n");
		return;
	}
	walk(c);
	T_ASSERT(corpus_files >= 40);
	T_EQ_INT(corpus_bad, 0);
}

static void
test_corpus_prefixes(void)
{
	const char *c = t_corpus();
	char path[4096];
	unsigned char *p;
	size_t n;

	if (c == NULL) {
		printf("skip - corpus absent (set WOTKIT_CORPUS)\n");
		return;
	}
	snprintf(path, sizeof path, "%s/rnp/test_key_validity/alice-pub.asc", c);
	p = t_slurp(path, &n);
	T_ASSERT(p != NULL);
	if (p != NULL)
		check_prefixes(p, n, path);
	free(p);
}

int
main(void)
{
	T_RUN(test_crc24_known);
	T_RUN(test_gpg_enarmor_hello);
	T_RUN(test_encode_matches_gpg);
	T_RUN(test_encode_bad_label);
	T_RUN(test_roundtrip);
	T_RUN(test_rfc_a1_no_crc);
	T_RUN(test_padding_optional);
	T_RUN(test_leading_text_and_multiple);
	T_RUN(test_is_armored);
	T_RUN(test_crlf_and_trailing_ws);
	T_RUN(test_missing_blank_line);
	T_RUN(test_bad_blocks);
	T_RUN(test_limits);
	T_RUN(test_skips_cleartext);
	T_RUN(test_truncation_prefixes);
	T_RUN(test_corpus_asc);
	T_RUN(test_corpus_prefixes);
	return T_DONE();
}
