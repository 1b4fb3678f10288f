/* test_cleartext.c - Cleartext Signature Framework (RFC 9580 §7). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/armor.h"
#include "pgp/hash.h"
#include "t.h"

/* RFC 9580 Appendix A.6 (also ../shared/corpus/rfc9580/). */
static const char rfc_a6[] =
    "-----BEGIN PGP SIGNED MESSAGE-----\n"
    "\n"
    "What we need from the grocery store:\n"
    "\n"
    "- - tofu\n"
    "- - vegetables\n"
    "- - noodles\n"
    "\n"
    "-----BEGIN PGP SIGNATURE-----\n"
    "\n"
    "wpgGARsKAAAAKQWCY5ijYyIhBssYbE8GCaaX5NUt+mxyKwwfHifBilZwj2Ul7Ce6\n"
    "2azJAAAAAGk2IHZJX1AhiJD39eLuPBgiUU9wUA9VHYblySHkBONKU/usJ9BvuAqo\n"
    "/FvLFuGWMbKAdA+epq7V4HOtAPlBWmU8QOd6aud+aSunHQaaEJ+iTFjP2OMW0KBr\n"
    "NK2ay45cX1IVAQ==\n"
    "-----END PGP SIGNATURE-----\n";

/* The octets RFC 9580 A.6 says are signed (after dash-unescaping, CRLF). */
static const char rfc_a6_canon[] =
    "What we need from the grocery store:\r\n"
    "\r\n"
    "- tofu\r\n"
    "- vegetables\r\n"
    "- noodles\r\n";

/* A minimal valid signature block ("hello", not a real signature). */
#define SIGBLK "-----BEGIN PGP SIGNATURE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n"

static pgp_err
parse(const char *s, pgp_cleartext *c, pgp_diag *d)
{
	return pgp_cleartext_parse(c, (const uint8_t *)s, strlen(s), d);
}

static void
assert_fails(const char *s, pgp_err e, const char *what)
{
	pgp_cleartext c;
	pgp_diag d = { 0, 0, NULL };

	T_EQ_INT(parse(s, &c, &d), e);
	if (what != NULL)
		T_EQ_STR(d.what, what);
	T_ASSERT(c.text == NULL && c.sig == NULL && c.text_len == 0);
}

static void
assert_canon(const char *text, const char *want)
{
	pgp_buf b;

	T_EQ_INT(pgp_cleartext_canon(&b, (const uint8_t *)text, strlen(text)), PGP_OK);
	T_EQ_INT(b.len, strlen(want));
	if (b.len == strlen(want) && b.len > 0)
		T_EQ_MEM(b.p, want, b.len);
	pgp_buf_free(&b);
}

static void
test_rfc_a6(void)
{
	static const char want[] =
	    "What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n";
	pgp_cleartext c;
	pgp_buf b;

	T_EQ_INT(parse(rfc_a6, &c, NULL), PGP_OK);
	T_EQ_INT(c.text_len, strlen(want));
	if (c.text_len == strlen(want))
		T_EQ_MEM(c.text, want, c.text_len);
	T_EQ_INT(c.n_hash, 0);
	T_EQ_INT(c.hash_headers.len, 0);
	T_EQ_INT(c.odd_dash, 0);
	T_EQ_INT(c.begin_off, 0);
	T_EQ_INT(c.end_off, strlen(rfc_a6));
	/* v6 signature packet: new-format tag 2 (0xC2), version 6 */
	T_EQ_INT(c.sig_len, 154);
	T_ASSERT(c.sig != NULL && c.sig[0] == 0xC2 && c.sig[2] == 6);
	T_EQ_INT(pgp_cleartext_canon(&b, c.text, c.text_len), PGP_OK);
	T_EQ_INT(b.len, strlen(rfc_a6_canon));
	if (b.len == strlen(rfc_a6_canon))
		T_EQ_MEM(b.p, rfc_a6_canon, b.len);
	pgp_buf_free(&b);
	pgp_cleartext_release(&c);
	T_ASSERT(c.text == NULL && c.sig == NULL);
}

static void
test_rfc_a6_corpus_file(void)
{
	const char *dir = t_corpus();
	char path[4096];
	unsigned char *p;
	size_t n;
	pgp_cleartext c;

	if (dir == NULL) {
		printf("skip - corpus absent (set WOTKIT_CORPUS)\n");
		return;
	}
	snprintf(path, sizeof path, "%s/rfc9580/A.6.-sample-cleartext-signed-message.asc", dir);
	p = t_slurp(path, &n);
	T_ASSERT(p != NULL);
	if (p == NULL)
		return;
	T_EQ_INT(pgp_cleartext_parse(&c, p, n, NULL), PGP_OK);
	T_EQ_INT(c.text_len, 68);
	T_EQ_INT(c.sig_len, 154);
	pgp_cleartext_release(&c);
	free(p);
}

static void
test_hash_headers(void)
{
	pgp_cleartext c;
	const char *in = "-----BEGIN PGP SIGNED MESSAGE-----\n"
	    "Hash: SHA256, SHA512\n"
	    "Hash: SHA1,SHA256\n"
	    "\n"
	    "hi\n" SIGBLK;

	T_EQ_INT(parse(in, &c, NULL), PGP_OK);
	T_EQ_INT(c.n_hash, 3);
	T_EQ_INT(c.hash_ids[0], PGP_HASH_SHA256);
	T_EQ_INT(c.hash_ids[1], PGP_HASH_SHA512);
	T_EQ_INT(c.hash_ids[2], PGP_HASH_SHA1);
	T_EQ_INT(c.hash_headers.len, strlen("Hash: SHA256, SHA512\nHash: SHA1,SHA256\n"));
	T_ASSERT(c.text_len == 2 && memcmp(c.text, "hi", 2) == 0);
	T_ASSERT(c.sig_len == 5 && memcmp(c.sig, "hello", 5) == 0);
	pgp_cleartext_release(&c);

	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA257\n\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "unknown hash name in Hash header");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nHash: sha256\n\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "unknown hash name in Hash header");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256,\n\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "empty name in Hash header");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nHash:\n\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "empty name in Hash header");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nComment: x\n\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "unexpected cleartext header");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nNotDashEscaped: You need GnuPG\n\nhi\n"
	    SIGBLK, PGP_ERR_UNSUPPORTED, NULL);
}

static void
test_dash_escaping(void)
{
	pgp_cleartext c;
	const char *in = "-----BEGIN PGP SIGNED MESSAGE-----\n\n"
	    "- From x\n"
	    "- -----BEGIN PGP SIGNATURE-----\n"
	    "-odd\n"
	    "- \n"
	    "plain - x\n" SIGBLK;
	static const char want[] =
	    "From x\n-----BEGIN PGP SIGNATURE-----\n-odd\n\nplain - x";

	T_EQ_INT(parse(in, &c, NULL), PGP_OK);
	T_EQ_INT(c.text_len, strlen(want));
	if (c.text_len == strlen(want))
		T_EQ_MEM(c.text, want, c.text_len);
	T_EQ_INT(c.odd_dash, 1);
	pgp_cleartext_release(&c);

	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\n-----BEGIN PGP MESSAGE-----\n"
	    SIGBLK, PGP_ERR_MALFORMED, "unescaped dash line in cleartext");
}

static void
test_line_endings_kept(void)
{
	pgp_cleartext c;
	const char *in = "-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA256\r\n\r\n"
	    "a  \r\n- b\t\r\nc\n\r\n"
	    "-----BEGIN PGP SIGNATURE-----\r\n\r\naGVsbG8=\r\n-----END PGP SIGNATURE-----\r\n";
	static const char want[] = "a  \r\nb\t\r\nc\n";
	pgp_buf b;

	T_EQ_INT(parse(in, &c, NULL), PGP_OK);
	T_EQ_INT(c.text_len, strlen(want));
	if (c.text_len == strlen(want))
		T_EQ_MEM(c.text, want, c.text_len);
	T_EQ_INT(pgp_cleartext_canon(&b, c.text, c.text_len), PGP_OK);
	T_ASSERT(b.len == 9 && memcmp(b.p, "a\r\nb\r\nc\r\n", 9) == 0);
	pgp_buf_free(&b);
	pgp_cleartext_release(&c);
}

static void
test_canon(void)
{
	pgp_buf b;

	assert_canon("a \t\r\nb\n", "a\r\nb\r\n");
	assert_canon("x", "x");
	assert_canon("x  ", "x");
	assert_canon("\n", "\r\n");
	assert_canon("a\n\nb", "a\r\n\r\nb");
	assert_canon("a\rb \n", "a\rb\r\n");       /* a lone CR is not a line ending */
	assert_canon("a\r\r\n", "a\r\r\n");
	assert_canon("a \r", "a \r");
	T_EQ_INT(pgp_cleartext_canon(&b, NULL, 0), PGP_OK);
	T_EQ_INT(b.len, 0);
	pgp_buf_free(&b);
}

static void
test_text_shapes(void)
{
	pgp_cleartext c;
	const char *lead = "Some mail text\n-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n" SIGBLK;

	/* gpg --clearsign of an empty file: one empty line */
	T_EQ_INT(parse("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n\n" SIGBLK,
	    &c, NULL), PGP_OK);
	T_EQ_INT(c.text_len, 0);
	pgp_cleartext_release(&c);
	/* leading text is skipped, begin_off says where the message starts */
	T_EQ_INT(parse(lead, &c, NULL), PGP_OK);
	T_EQ_INT(c.begin_off, 15);
	T_ASSERT(c.text_len == 2 && memcmp(c.text, "hi", 2) == 0);
	pgp_cleartext_release(&c);
	/* two signature blocks are concatenated; trailing blank lines are fine */
	T_EQ_INT(parse("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n" SIGBLK "\n" SIGBLK " \n\n",
	    &c, NULL), PGP_OK);
	T_ASSERT(c.sig_len == 10 && memcmp(c.sig, "hellohello", 10) == 0);
	T_EQ_INT(c.end_off, strlen("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n" SIGBLK "\n" SIGBLK));
	pgp_cleartext_release(&c);
}

static void
test_malformed(void)
{
	assert_fails("no cleartext\n", PGP_ERR_NOT_FOUND, NULL);
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n", PGP_ERR_TRUNCATED,
	    "no signature after cleartext");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n-----BEGIN PGP SIGNATURE-----\n\n"
	    "aGVsbG8=\n", PGP_ERR_TRUNCATED, "input ends before armor END line");
	/* rnp's message.txt.cleartext-signed-nonewline shape; gpgv: invalid armor header */
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\nhi\n" SIGBLK,
	    PGP_ERR_MALFORMED, "missing blank line after cleartext headers");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\n" SIGBLK, PGP_ERR_MALFORMED,
	    "missing cleartext (need the empty line before the signature)");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n" SIGBLK, PGP_ERR_MALFORMED,
	    "missing blank line after cleartext headers");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n" SIGBLK "trailing\n",
	    PGP_ERR_MALFORMED, "data after cleartext signature");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n\nhi\n-----BEGIN PGP SIGNATURE-----\n\n"
	    "aGVsbG8=\n=AAAA\n-----END PGP SIGNATURE-----\n", PGP_ERR_MALFORMED,
	    "armor checksum mismatch");
	assert_fails("-----BEGIN PGP SIGNED MESSAGE-----\n", PGP_ERR_TRUNCATED, NULL);
}

/* Every prefix of A.6 shorter than its END line fails. */
static void
test_truncation_prefixes(void)
{
	size_t len = strlen(rfc_a6), end = len - strlen("-----END PGP SIGNATURE-----\n");
	size_t mark = end + strlen("-----END PGP SIGNATURE-----"), k, bad = 0;

	for (k = 0; k <= len; k++) {
		pgp_cleartext c;
		uint8_t *cp = malloc(k ? k : 1);
		pgp_err e;

		if (cp == NULL)
			break;
		memcpy(cp, rfc_a6, k);
		e = pgp_cleartext_parse(&c, cp, k, NULL);
		if ((k < mark) != (e != PGP_OK) && bad++ == 0)
			fprintf(stderr, "prefix %zu gives %d\n", k, e);
		pgp_cleartext_release(&c);
		free(cp);
	}
	T_EQ_INT(bad, 0);
}

/*
 * Corpus cleartext files. The SHA-256 values are of our canonical text,
 * checked once offline: `gpgv --keyring KEY sig canon.txt` with the decoded
 * signature (a text signature, 0x01) over our canon output said "Good
 * signature" (GnuPG 2.2.40) for each.
 */
static void
test_corpus(void)
{
	static const struct {
		const char *file;
		pgp_err e;
		size_t text_len;
		const char *canon_sha256;
	} cases[] = {
		{ "sequoia/messages/a-problematic-poem.txt.cleartext.sig", PGP_OK, 241,
		  "13c2462a497301240d907d2ae36f4d88e4d58d51df505c54675c5ac466dcb919" },
		{ "sequoia/messages/InRelease", PGP_OK, 113486,
		  "edb28107a1e5f4a93fa8914dc6c6ee1fb9ba4c9503e482299e4eb8de5056db3b" },
		{ "rnp/test_stream_signatures/source.txt.asc", PGP_OK, 63,
		  "6bcf3d988127cb2080589741eddc957107d2f50f6b145e07cfb0bd926d0e326e" },
		{ "sequoia/messages/a-cypherpunks-manifesto.txt.cleartext.sig", PGP_OK, 5157, NULL },
		{ "rnp/test_key_validity/case8/message.txt.asc", PGP_OK, 16, NULL },
		{ "rnp/test_messages/message.txt.clear-2-sigs", PGP_OK, 142, NULL },
		{ "rnp/test_messages/message.txt.cleartext-signed", PGP_OK, 140, NULL },
		/* the armor is fine; the signature inside is what is broken */
		{ "rnp/test_messages/message.txt.cleartext-malf", PGP_OK, 142, NULL },
		{ "rnp/test_messages/message.txt.cleartext-signed-nonewline", PGP_ERR_MALFORMED, 0, NULL },
		{ "rfc9580/A.6.-sample-cleartext-signed-message.asc", PGP_OK, 68, NULL },
	};
	const char *dir = t_corpus();
	size_t i;

	if (dir == NULL) {
		printf("skip - corpus absent (set WOTKIT_CORPUS)\n");
		return;
	}
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char path[4096];
		unsigned char *p;
		size_t n;
		pgp_cleartext c;
		pgp_err e;

		snprintf(path, sizeof path, "%s/%s", dir, cases[i].file);
		p = t_slurp(path, &n);
		T_ASSERT(p != NULL);
		if (p == NULL)
			continue;
		e = pgp_cleartext_parse(&c, p, n, NULL);
		if (e != cases[i].e || c.text_len != cases[i].text_len) {
			fprintf(stderr, "%s: %d text_len %zu\n", cases[i].file, e, c.text_len);
			T_ASSERT(0);
		}
		if (e == PGP_OK) {
			T_EQ_INT(c.n_hash, cases[i].file[0] == 'r' && cases[i].file[1] == 'f' ? 0 : 1);
			T_ASSERT(c.sig_len > 0);
		}
		if (e == PGP_OK && cases[i].canon_sha256 != NULL) {
			pgp_buf b;
			uint8_t h[PGP_HASH_MAX_LEN], want[32];

			T_EQ_INT(pgp_cleartext_canon(&b, c.text, c.text_len), PGP_OK);
			T_EQ_INT(pgp_hash_buf(PGP_HASH_SHA256, b.p, b.len, h), PGP_OK);
			T_EQ_INT(t_unhex(want, sizeof want, cases[i].canon_sha256), 32);
			T_EQ_MEM(h, want, 32);
			pgp_buf_free(&b);
		}
		pgp_cleartext_release(&c);
		free(p);
	}
}

/* Collects streamed pieces; counts them. */
typedef struct collect {
	pgp_buf b;
	size_t npieces;
	size_t max_piece;
} collect;

static pgp_err
collect_emit(void *ctx, const uint8_t *p, size_t n)
{
	collect *c = ctx;

	c->npieces++;
	if (n > c->max_piece)
		c->max_piece = n;
	return pgp_buf_append(&c->b, p, n);
}

static pgp_err
refuse_emit(void *ctx, const uint8_t *p, size_t n)
{
	(void)ctx;
	(void)p;
	(void)n;
	return PGP_ERR_IO;
}

/*
 * The streamed canonical form (what the verifier hashes) and the in-place
 * output form are octet for octet pgp_cleartext_canon() and
 * pgp_cleartext_output(), on awkward shapes and on a text longer than one
 * 64 KiB piece (lines across piece boundaries).
 */
static void
test_streamed_and_inplace_forms(void)
{
	static const char *texts[] = {
		"", "a", "a\n", "a \t\r\n", "a\r \nb", "\r\n\r\n", "x\r", "a\rb\n \n",
		"trailing  \nspaces\t\t\r\nmixed \r \n\n", "\n", "- dash\r\n-\n",
	};
	static const char *ends[] = { "\n", "\r\n", " \n", "\t\r\n", "\r \n" };
	size_t i, k;

	for (i = 0; i <= sizeof texts / sizeof texts[0]; i++) {
		pgp_buf want, wout, big;
		collect c;
		uint8_t *copy;
		size_t n;
		const uint8_t *t;

		pgp_buf_init(&big, 1u << 24);
		if (i < sizeof texts / sizeof texts[0]) {
			T_EQ_INT(pgp_buf_append(&big, texts[i], strlen(texts[i])), PGP_OK);
		} else {
			/* about 150 KB of lines of many lengths and odd endings */
			for (k = 0; k < 6000; k++) {
				char line[80];
				int m = snprintf(line, sizeof line, "%0*zu%s", (int)(k % 40), k, ends[k % 5]);
				T_EQ_INT(pgp_buf_append(&big, line, (size_t)m), PGP_OK);
			}
		}
		t = big.p ? big.p : (const uint8_t *)"";
		n = big.len;
		T_EQ_INT(pgp_cleartext_canon(&want, t, n), PGP_OK);
		T_EQ_INT(pgp_cleartext_output(&wout, t, n), PGP_OK);
		memset(&c, 0, sizeof c);
		pgp_buf_init(&c.b, 1u << 25);
		T_EQ_INT(pgp_cleartext_canon_to(t, n, collect_emit, &c), PGP_OK);
		T_EQ_INT(c.b.len, want.len);
		T_ASSERT(want.len == 0 || memcmp(c.b.p, want.p, want.len) == 0);
		T_ASSERT(c.max_piece <= 65536);
		if (want.len > 65536)
			T_ASSERT(c.npieces > 1);
		if (want.len > 0)
			T_EQ_INT(pgp_cleartext_canon_to(t, n, refuse_emit, NULL), PGP_ERR_IO);
		copy = malloc(n ? n : 1);
		T_ASSERT(copy != NULL);
		memcpy(copy, t, n);
		T_EQ_INT(pgp_cleartext_output_inplace(copy, &n), PGP_OK);
		T_EQ_INT(n, wout.len);
		T_ASSERT(n == 0 || memcmp(copy, wout.p, n) == 0);
		free(copy);
		pgp_buf_free(&c.b);
		pgp_buf_free(&want);
		pgp_buf_free(&wout);
		pgp_buf_free(&big);
	}
}

int
main(void)
{
	T_RUN(test_rfc_a6);
	T_RUN(test_rfc_a6_corpus_file);
	T_RUN(test_hash_headers);
	T_RUN(test_dash_escaping);
	T_RUN(test_line_endings_kept);
	T_RUN(test_canon);
	T_RUN(test_text_shapes);
	T_RUN(test_malformed);
	T_RUN(test_truncation_prefixes);
	T_RUN(test_corpus);
	T_RUN(test_streamed_and_inplace_forms);
	return T_DONE();
}
