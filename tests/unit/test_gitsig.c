/*
 * test_gitsig.c - git's payload/signature split (pgp/gitsig.c). Every
 * expected value below is what git 2.39.5 handed to its gpg.program for the
 * same object (observed with a capture program; tests/cli/gitsig_git.sh
 * repeats these comparisons against the installed git).
 */
#include "t.h"
#include "pgp/gitsig.h"

#define TAGGER "tagger T Agger <t@example.org> 1700000000 +0000\n"
#define TAG_HEAD "object 0123456789abcdef0123456789abcdef01234567\ntype commit\ntag v1\n" TAGGER
#define SIG "-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
#define COMMIT_HEAD "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n" \
	"author A <a@example.org> 1700000000 +0000\ncommitter C <c@example.org> 1700000000 +0000\n"

#define U(s) ((const uint8_t *)(s))

typedef struct split {
	pgp_err e;
	pgp_gitsig_format fmt;
	pgp_buf payload, sig;
} split;

static void
split_init(split *s)
{
	pgp_buf_init(&s->payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&s->sig, PGP_GITSIG_MAX_OBJECT);
}

static void
split_free(split *s)
{
	pgp_buf_free(&s->payload);
	pgp_buf_free(&s->sig);
}

static int
buf_is(const pgp_buf *b, const char *want)
{
	size_t n = strlen(want);
	if (b->len != n || (n && memcmp(b->p, want, n) != 0)) {
		fprintf(stderr, "got [%.*s], want [%s]\n", (int)b->len, b->p ? (const char *)b->p : "",
		    want);
		return 0;
	}
	return 1;
}

/* Both tag functions on obj (length given: objects may hold NUL): the cut
 * point must be where git cut, and tag_split must give git's payload (the
 * prefix without gpgsig headers) and signature. */
static void
check_tag_n(const char *obj, size_t len, pgp_gitsig_format want_fmt, const char *want_payload,
    const char *want_sig)
{
	split s;
	size_t cut = 12345;
	pgp_gitsig_format fmt = PGP_GITSIG_UNKNOWN;
	T_EQ_INT(pgp_gitsig_tag(U(obj), len, &cut, &fmt), PGP_OK);
	T_EQ_INT(fmt, want_fmt);
	T_EQ_INT(cut, len - strlen(want_sig));
	T_EQ_MEM(obj + cut, want_sig, strlen(want_sig));
	split_init(&s);
	s.e = pgp_gitsig_tag_split(U(obj), len, &s.payload, &s.sig, &s.fmt);
	T_EQ_INT(s.e, PGP_OK);
	T_EQ_INT(s.fmt, want_fmt);
	T_ASSERT(buf_is(&s.payload, want_payload));
	T_ASSERT(buf_is(&s.sig, want_sig));
	split_free(&s);
}

static void
check_tag(const char *obj, pgp_gitsig_format want_fmt, const char *want_payload,
    const char *want_sig)
{
	check_tag_n(obj, strlen(obj), want_fmt, want_payload, want_sig);
}

static void
check_commit(const char *obj, int sha256, pgp_gitsig_format want_fmt, const char *want_payload,
    const char *want_sig)
{
	split s;
	split_init(&s);
	s.e = pgp_gitsig_commit(U(obj), strlen(obj), sha256, &s.payload, &s.sig, &s.fmt);
	T_EQ_INT(s.e, PGP_OK);
	T_EQ_INT(s.fmt, want_fmt);
	T_ASSERT(buf_is(&s.payload, want_payload));
	T_ASSERT(buf_is(&s.sig, want_sig));
	split_free(&s);
}

static void
test_tag_plain(void)
{
	check_tag(TAG_HEAD "\nmessage\n" SIG, PGP_GITSIG_OPENPGP, TAG_HEAD "\nmessage\n", SIG);
}

static void
test_tag_text_after_end(void)
{
	/* the signature runs to the end of the object, END line or not */
	check_tag(TAG_HEAD "\nmessage\n" SIG "trailing\ntext\n", PGP_GITSIG_OPENPGP,
	    TAG_HEAD "\nmessage\n", SIG "trailing\ntext\n");
}

static void
test_tag_crlf(void)
{
	check_tag("object x\r\ntype commit\r\n" TAGGER "\r\nmsg\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\niHUE\r\n",
	    PGP_GITSIG_OPENPGP, "object x\r\ntype commit\r\n" TAGGER "\r\nmsg\r\n",
	    "-----BEGIN PGP SIGNATURE-----\r\n\r\niHUE\r\n");
}

static void
test_tag_two_blocks_last_wins(void)
{
	const char *second = "-----BEGIN PGP SIGNATURE-----\n\nc2Vj\n-----END PGP SIGNATURE-----\n";
	char obj[512];
	snprintf(obj, sizeof obj, "%s\nmsg\n%s%s", TAG_HEAD, SIG, second);
	check_tag(obj, PGP_GITSIG_OPENPGP, TAG_HEAD "\nmsg\n" SIG, second);
	/* a different format's block later wins too */
	check_tag(TAG_HEAD "\nmsg\n" SIG "-----BEGIN SSH SIGNATURE-----\nU1NI\n", PGP_GITSIG_SSH,
	    TAG_HEAD "\nmsg\n" SIG, "-----BEGIN SSH SIGNATURE-----\nU1NI\n");
}

static void
test_tag_no_trailing_newline(void)
{
	check_tag(TAG_HEAD "\nmsg\n-----BEGIN PGP SIGNATURE-----\n\niHUE", PGP_GITSIG_OPENPGP,
	    TAG_HEAD "\nmsg\n", "-----BEGIN PGP SIGNATURE-----\n\niHUE");
	/* the header line alone, as the object's last bytes */
	check_tag(TAG_HEAD "\nmsg\n-----BEGIN PGP SIGNATURE-----", PGP_GITSIG_OPENPGP,
	    TAG_HEAD "\nmsg\n", "-----BEGIN PGP SIGNATURE-----");
}

static void
test_tag_header_not_at_line_start(void)
{
	/* unsigned: the whole object is the payload, nothing is the signature */
	check_tag(TAG_HEAD "\nmsg\n -----BEGIN PGP SIGNATURE-----\n\niHUE\n", PGP_GITSIG_NONE,
	    TAG_HEAD "\nmsg\n -----BEGIN PGP SIGNATURE-----\n\niHUE\n", "");
	check_tag(TAG_HEAD "\nmsg -----BEGIN PGP SIGNATURE-----\n", PGP_GITSIG_NONE,
	    TAG_HEAD "\nmsg -----BEGIN PGP SIGNATURE-----\n", "");
	/* but a line that merely starts with the header counts */
	check_tag(TAG_HEAD "\nmsg\n-----BEGIN PGP SIGNATURE-----xyz\n", PGP_GITSIG_OPENPGP,
	    TAG_HEAD "\nmsg\n", "-----BEGIN PGP SIGNATURE-----xyz\n");
	/* one dash short is nothing */
	check_tag(TAG_HEAD "\nmsg\n----BEGIN PGP SIGNATURE-----\n", PGP_GITSIG_NONE,
	    TAG_HEAD "\nmsg\n----BEGIN PGP SIGNATURE-----\n", "");
}

static void
test_tag_formats(void)
{
	check_tag(TAG_HEAD "\nm\n-----BEGIN PGP MESSAGE-----\nx\n", PGP_GITSIG_OPENPGP, TAG_HEAD "\nm\n",
	    "-----BEGIN PGP MESSAGE-----\nx\n");
	check_tag(TAG_HEAD "\nm\n-----BEGIN SIGNED MESSAGE-----\nx\n", PGP_GITSIG_X509, TAG_HEAD "\nm\n",
	    "-----BEGIN SIGNED MESSAGE-----\nx\n");
	check_tag(TAG_HEAD "\nm\n-----BEGIN SSH SIGNATURE-----\nx\n", PGP_GITSIG_SSH, TAG_HEAD "\nm\n",
	    "-----BEGIN SSH SIGNATURE-----\nx\n");
	/* a PGP SIGNED MESSAGE (cleartext) header is no signature header */
	check_tag(TAG_HEAD "\nm\n-----BEGIN PGP SIGNED MESSAGE-----\nx\n", PGP_GITSIG_NONE,
	    TAG_HEAD "\nm\n-----BEGIN PGP SIGNED MESSAGE-----\nx\n", "");
}

static void
test_tag_signature_line_in_headers(void)
{
	/* git cuts there (and then runs no program: the payload lacks a tagger) */
	check_tag("object x\ntype commit\n-----BEGIN PGP SIGNATURE-----\ntag v1\n" TAGGER "\nm\n",
	    PGP_GITSIG_OPENPGP, "object x\ntype commit\n",
	    "-----BEGIN PGP SIGNATURE-----\ntag v1\n" TAGGER "\nm\n");
}

static void
test_tag_nul_byte(void)
{
	static const char obj[] = TAG_HEAD "\nmes\0sage\n" SIG;
	static const char payload[] = TAG_HEAD "\nmes\0sage\n";
	split s;
	size_t cut;
	pgp_gitsig_format fmt;
	T_EQ_INT(pgp_gitsig_tag(U(obj), sizeof obj - 1, &cut, &fmt), PGP_OK);
	T_EQ_INT(cut, sizeof payload - 1);
	T_EQ_INT(fmt, PGP_GITSIG_OPENPGP);
	split_init(&s);
	T_EQ_INT(pgp_gitsig_tag_split(U(obj), sizeof obj - 1, &s.payload, &s.sig, &s.fmt), PGP_OK);
	T_EQ_INT(s.payload.len, sizeof payload - 1);
	T_EQ_MEM(s.payload.p, payload, sizeof payload - 1);
	T_ASSERT(buf_is(&s.sig, SIG));
	split_free(&s);
}

static void
test_tag_gpgsig_headers_removed(void)
{
	const char *head = "object x\ntype commit\ntag v1\n" TAGGER;
	char obj[512], want[512];
	/* one header with its continuation lines: removed from the payload */
	snprintf(obj, sizeof obj, "%sgpgsig foo\n bar\n\nmsg\n%s", head, SIG);
	snprintf(want, sizeof want, "%s\nmsg\n", head);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	snprintf(obj, sizeof obj, "%sgpgsig-sha256 foo\n bar\n baz\n\nmsg\n%s", head, SIG);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	/* two, separated by another header: both removed */
	check_tag("object x\ngpgsig a\n a2\ntype commit\ngpgsig-sha256 b\n b2\n" TAGGER "\nmsg\n" SIG,
	    PGP_GITSIG_OPENPGP, "object x\ntype commit\n" TAGGER "\nmsg\n", SIG);
	/* two adjacent: the second restarts git's span, the first stays */
	snprintf(obj, sizeof obj, "%sgpgsig a\n a2\ngpgsig-sha256 b\n b2\n\nmsg\n%s", head, SIG);
	snprintf(want, sizeof want, "%sgpgsig a\n a2\n\nmsg\n", head);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	/* gpgsigx alone stays */
	snprintf(obj, sizeof obj, "%sgpgsigx a\n a2\n\nmsg\n%s", head, SIG);
	snprintf(want, sizeof want, "%sgpgsigx a\n a2\n\nmsg\n", head);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	/* gpgsigx inside a span that a continuation line extends: removed */
	snprintf(obj, sizeof obj, "%sgpgsig a\ngpgsigx b\n b2\nfoo\n\nmsg\n%s", head, SIG);
	snprintf(want, sizeof want, "%sfoo\n\nmsg\n", head);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	/* in the message: untouched */
	snprintf(obj, sizeof obj, "%s\ngpgsig a\n a2\n%s", head, SIG);
	snprintf(want, sizeof want, "%s\ngpgsig a\n a2\n", head);
	check_tag(obj, PGP_GITSIG_OPENPGP, want, SIG);
	/* "\r\n" is no blank line: the scan goes on into the message */
	check_tag("object x\r\n" TAGGER "\r\ngpgsig x\n y\n" SIG, PGP_GITSIG_OPENPGP,
	    "object x\r\n" TAGGER "\r\n", SIG);
	/* an unsigned tag is left whole */
	snprintf(obj, sizeof obj, "%sgpgsig a\n\nmsg\n", head);
	check_tag(obj, PGP_GITSIG_NONE, obj, "");
}

static void
test_tag_three_gpgsig_blocks_refused(void)
{
	/* git's remove_signature writes past its two-entry array here */
	static const char obj[] = "object x\ngpgsig a\ntype commit\ngpgsig b\ntag v\ngpgsig c\n"
	    TAGGER "\nmsg\n" SIG;
	split s;
	size_t cut;
	pgp_gitsig_format fmt;
	split_init(&s);
	T_EQ_INT(pgp_gitsig_tag_split(U(obj), sizeof obj - 1, &s.payload, &s.sig, &s.fmt),
	    PGP_ERR_MALFORMED);
	split_free(&s);
	/* the plain cut point is still defined */
	T_EQ_INT(pgp_gitsig_tag(U(obj), sizeof obj - 1, &cut, &fmt), PGP_OK);
	T_EQ_INT(fmt, PGP_GITSIG_OPENPGP);
}

#define CSIG_PGP "-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
#define CSIG_FOLDED " -----BEGIN PGP SIGNATURE-----\n \n iHUE\n -----END PGP SIGNATURE-----\n"

static void
test_commit_gpgsig(void)
{
	check_commit(COMMIT_HEAD "gpgsig" CSIG_FOLDED "\nmessage\n", 0, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD "\nmessage\n", CSIG_PGP);
	check_commit(COMMIT_HEAD "gpgsig-sha256" CSIG_FOLDED "\nmessage\n", 1, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD "\nmessage\n", CSIG_PGP);
}

static void
test_commit_other_hash_header(void)
{
	/* the other repository format's header: no signature, and dropped
	 * from the payload with its continuation lines */
	check_commit(COMMIT_HEAD "gpgsig-sha256" CSIG_FOLDED "\nmessage\n", 0, PGP_GITSIG_NONE,
	    COMMIT_HEAD "\nmessage\n", "");
	check_commit(COMMIT_HEAD "gpgsig" CSIG_FOLDED "\nmessage\n", 1, PGP_GITSIG_NONE,
	    COMMIT_HEAD "\nmessage\n", "");
	/* both: each repository takes its own, and the payload has neither */
	check_commit(COMMIT_HEAD "gpgsig" CSIG_FOLDED "gpgsig-sha256 -----BEGIN PGP SIGNATURE-----\n b\n"
	    "\nmessage\n", 0, PGP_GITSIG_OPENPGP, COMMIT_HEAD "\nmessage\n", CSIG_PGP);
	check_commit(COMMIT_HEAD "gpgsig" CSIG_FOLDED "gpgsig-sha256 -----BEGIN PGP SIGNATURE-----\n b\n"
	    "\nmessage\n", 1, PGP_GITSIG_OPENPGP, COMMIT_HEAD "\nmessage\n",
	    "-----BEGIN PGP SIGNATURE-----\nb\n");
}

static void
test_commit_gpgsig_in_body(void)
{
	check_commit(COMMIT_HEAD "\nmessage\ngpgsig" CSIG_FOLDED, 0, PGP_GITSIG_NONE,
	    COMMIT_HEAD "\nmessage\ngpgsig" CSIG_FOLDED, "");
}

static void
test_commit_gpgsig_not_at_line_start(void)
{
	check_commit(COMMIT_HEAD " gpgsig" CSIG_FOLDED "\nm\n", 0, PGP_GITSIG_NONE,
	    COMMIT_HEAD " gpgsig" CSIG_FOLDED "\nm\n", "");
	/* two spaces: the value starts with a space, git refuses the format */
	check_commit(COMMIT_HEAD "gpgsig " CSIG_FOLDED "\nm\n", 0, PGP_GITSIG_UNKNOWN,
	    COMMIT_HEAD "\nm\n", " " CSIG_PGP);
}

static void
test_commit_odd_gpgsig_prefixes(void)
{
	/* "gpgsig" alone and "gpgsigx" lines and their continuations are
	 * dropped; a second gpgsig header appends to the signature */
	check_commit(COMMIT_HEAD "gpgsig\n bar\ngpgsig -----BEGIN PGP SIGNATURE-----\n X\ngpgsigx y\n z\n"
	    "encoding x\ngpgsig  second\n\nmsg\n", 0, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD "encoding x\n\nmsg\n", "-----BEGIN PGP SIGNATURE-----\nX\n second\n");
}

static void
test_commit_empty_continuations(void)
{
	check_commit(COMMIT_HEAD "gpgsig -----BEGIN PGP SIGNATURE-----\n \n \n iHUE\n \n"
	    " -----END PGP SIGNATURE-----\n\nm\n", 0, PGP_GITSIG_OPENPGP, COMMIT_HEAD "\nm\n",
	    "-----BEGIN PGP SIGNATURE-----\n\n\niHUE\n\n-----END PGP SIGNATURE-----\n");
}

static void
test_commit_crlf(void)
{
	/* "\r\n" does not end the headers: a gpgsig line in the "body" is read */
	check_commit("tree t\ncommitter C <c@e> 1 +0000\r\ngpgsig -----BEGIN PGP SIGNATURE-----\r\n"
	    " iHUE\r\n\r\nmessage\r\ngpgsig in-body\r\n", 0, PGP_GITSIG_OPENPGP,
	    "tree t\ncommitter C <c@e> 1 +0000\r\n\r\nmessage\r\n",
	    "-----BEGIN PGP SIGNATURE-----\r\niHUE\r\nin-body\r\n");
}

static void
test_commit_no_trailing_newline(void)
{
	check_commit(COMMIT_HEAD "gpgsig" CSIG_FOLDED "\nmessage", 0, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD "\nmessage", CSIG_PGP);
	check_commit(COMMIT_HEAD "gpgsig -----BEGIN PGP SIGNATURE-----\n iHUE", 0, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD, "-----BEGIN PGP SIGNATURE-----\niHUE");
	check_commit(COMMIT_HEAD "gpgsig", 0, PGP_GITSIG_NONE, COMMIT_HEAD, "");
}

static void
test_commit_formats(void)
{
	check_commit(COMMIT_HEAD "gpgsig -----BEGIN SIGNED MESSAGE-----\n MIIB\n\nm\n", 0, PGP_GITSIG_X509,
	    COMMIT_HEAD "\nm\n", "-----BEGIN SIGNED MESSAGE-----\nMIIB\n");
	check_commit(COMMIT_HEAD "gpgsig -----BEGIN SSH SIGNATURE-----\n U1NI\n\nm\n", 0, PGP_GITSIG_SSH,
	    COMMIT_HEAD "\nm\n", "-----BEGIN SSH SIGNATURE-----\nU1NI\n");
	check_commit(COMMIT_HEAD "gpgsig -----BEGIN PGP MESSAGE-----\n x\n\nm\n", 0, PGP_GITSIG_OPENPGP,
	    COMMIT_HEAD "\nm\n", "-----BEGIN PGP MESSAGE-----\nx\n");
	check_commit(COMMIT_HEAD "gpgsig garbage\n more\n\nm\n", 0, PGP_GITSIG_UNKNOWN,
	    COMMIT_HEAD "\nm\n", "garbage\nmore\n");
}

static void
test_commit_appends(void)
{
	/* payload and sig are appended to, not replaced */
	split s;
	static const char obj[] = COMMIT_HEAD "gpgsig -----BEGIN PGP SIGNATURE-----\n x\n\nm\n";
	split_init(&s);
	T_EQ_INT(pgp_buf_append(&s.payload, "P:", 2), PGP_OK);
	T_EQ_INT(pgp_buf_append(&s.sig, "garbage", 7), PGP_OK);
	T_EQ_INT(pgp_gitsig_commit(U(obj), sizeof obj - 1, 0, &s.payload, &s.sig, &s.fmt), PGP_OK);
	/* the format is read from what this call appended */
	T_EQ_INT(s.fmt, PGP_GITSIG_OPENPGP);
	T_ASSERT(buf_is(&s.payload, "P:" COMMIT_HEAD "\nm\n"));
	T_ASSERT(buf_is(&s.sig, "garbage-----BEGIN PGP SIGNATURE-----\nx\n"));
	split_free(&s);
}

static void
test_limits(void)
{
	static const char obj[] = COMMIT_HEAD "gpgsig -----BEGIN PGP SIGNATURE-----\n x\n\nm\n";
	split s;
	size_t cut, pos = 0;
	pgp_gitsig_format fmt;
	pgp_view v;
	/* the length is refused before any byte is read */
	size_t huge = (size_t)PGP_GITSIG_MAX_OBJECT + 1;
	T_EQ_INT(pgp_gitsig_tag(U(obj), huge, &cut, &fmt), PGP_ERR_LIMIT);
	split_init(&s);
	T_EQ_INT(pgp_gitsig_tag_split(U(obj), huge, &s.payload, &s.sig, &s.fmt), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_gitsig_commit(U(obj), huge, 0, &s.payload, &s.sig, &s.fmt), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_gitsig_mergetag_next(U(obj), huge, &pos, &s.payload), PGP_ERR_LIMIT);
	T_EQ_INT(pgp_gitsig_header(U(obj), huge, "tree", &v), PGP_ERR_LIMIT);
	split_free(&s);
	/* a caller's buffer cap is honoured */
	pgp_buf_init(&s.payload, 8);
	pgp_buf_init(&s.sig, PGP_GITSIG_MAX_OBJECT);
	T_EQ_INT(pgp_gitsig_commit(U(obj), sizeof obj - 1, 0, &s.payload, &s.sig, &s.fmt), PGP_ERR_LIMIT);
	split_free(&s);
	/* a position past the end is the caller's mistake */
	pos = sizeof obj;
	pgp_buf_init(&s.payload, PGP_GITSIG_MAX_OBJECT);
	T_EQ_INT(pgp_gitsig_mergetag_next(U(obj), sizeof obj - 1, &pos, &s.payload), PGP_ERR_INVALID);
	pgp_buf_free(&s.payload);
	/* empty objects */
	T_EQ_INT(pgp_gitsig_tag(U(""), 0, &cut, &fmt), PGP_OK);
	T_EQ_INT(cut, 0);
	T_EQ_INT(fmt, PGP_GITSIG_NONE);
	check_commit("", 0, PGP_GITSIG_NONE, "", "");
}

#define MT_SIGNED "mergetag object 1111111111111111111111111111111111111111\n type commit\n tag v1\n" \
	" " TAGGER " \n merged\n -----BEGIN PGP SIGNATURE-----\n \n iHUE\n -----END PGP SIGNATURE-----\n"
#define MT_VALUE "object 1111111111111111111111111111111111111111\ntype commit\ntag v1\n" \
	TAGGER "\nmerged\n-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
#define MERGE_HEAD "tree t\nparent 1111111111111111111111111111111111111111\n" \
	"parent 2222222222222222222222222222222222222222\n"

/* All mergetag values of obj, joined with "|". */
static void
check_mergetags(const char *obj, const char *want)
{
	pgp_buf tag, all;
	size_t pos = 0;
	pgp_err e;
	int n = 0;
	pgp_buf_init(&tag, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&all, PGP_GITSIG_MAX_OBJECT);
	while ((e = pgp_gitsig_mergetag_next(U(obj), strlen(obj), &pos, &tag)) == PGP_OK) {
		if (n++)
			pgp_buf_putc(&all, '|');
		pgp_buf_append(&all, tag.p, tag.len);
		T_ASSERT(pos <= strlen(obj));
	}
	T_EQ_INT(e, PGP_ERR_NOT_FOUND);
	T_EQ_INT(tag.len, 0);
	/* and again at the end: still none */
	T_EQ_INT(pgp_gitsig_mergetag_next(U(obj), strlen(obj), &pos, &tag), PGP_ERR_NOT_FOUND);
	T_ASSERT(buf_is(&all, want));
	pgp_buf_free(&tag);
	pgp_buf_free(&all);
}

static void
test_mergetag_unfolded(void)
{
	check_mergetags(MERGE_HEAD MT_SIGNED "author a\ncommitter c\n\nMerge\n", MT_VALUE);
	/* CRLF continuation lines keep their '\r' */
	check_mergetags(MERGE_HEAD "mergetag object x\r\n type commit\r\n \r\n m\r\n\nM\n",
	    "object x\r\ntype commit\r\n\r\nm\r\n");
}

static void
test_mergetag_several_and_odd_keys(void)
{
	check_mergetags(MERGE_HEAD MT_SIGNED "mergetagx object y\n -----BEGIN PGP SIGNATURE-----\n"
	    "mergetag object z\n tag v0\nencoding x\nmergetag \nmergetag\n cont\n\nmergetag in body\n",
	    MT_VALUE "|object z\ntag v0\n|\n");
	/* "mergetag" with no space at the very end: key matches, value empty */
	check_mergetags(MERGE_HEAD "mergetag", "");
	check_mergetags(MERGE_HEAD "\nmergetag x\n", "");
	/* a continuation line before any header belongs to nothing */
	check_mergetags(" mergetag x\nmergetag y\n", "y\n");
}

static void
test_mergetag_nested_signature(void)
{
	/* a tag with a gpgsig header inside a mergetag: unfolded by one level,
	 * then split as a tag (the inner header dropped from the payload) */
	static const char obj[] = MERGE_HEAD "mergetag object 2222222222222222222222222222222222222222\n"
	    " type commit\n tag v1\n " TAGGER " gpgsig inner\n  inner2\n \n merged\n"
	    " -----BEGIN PGP SIGNATURE-----\n iHUE\n -----END PGP SIGNATURE-----\n"
	    "gpgsig -----BEGIN PGP SIGNATURE-----\n outer\n\nMerge\n";
	pgp_buf tag;
	size_t pos = 0;
	split s;
	pgp_buf_init(&tag, PGP_GITSIG_MAX_OBJECT);
	T_EQ_INT(pgp_gitsig_mergetag_next(U(obj), sizeof obj - 1, &pos, &tag), PGP_OK);
	T_ASSERT(buf_is(&tag, "object 2222222222222222222222222222222222222222\ntype commit\ntag v1\n"
	    TAGGER "gpgsig inner\n inner2\n\nmerged\n-----BEGIN PGP SIGNATURE-----\niHUE\n"
	    "-----END PGP SIGNATURE-----\n"));
	split_init(&s);
	T_EQ_INT(pgp_gitsig_tag_split(tag.p, tag.len, &s.payload, &s.sig, &s.fmt), PGP_OK);
	T_EQ_INT(s.fmt, PGP_GITSIG_OPENPGP);
	T_ASSERT(buf_is(&s.payload, "object 2222222222222222222222222222222222222222\ntype commit\n"
	    "tag v1\n" TAGGER "\nmerged\n"));
	T_ASSERT(buf_is(&s.sig, "-----BEGIN PGP SIGNATURE-----\niHUE\n-----END PGP SIGNATURE-----\n"));
	split_free(&s);
	/* the commit's own signature is not a mergetag, and vice versa */
	split_init(&s);
	T_EQ_INT(pgp_gitsig_commit(U(obj), sizeof obj - 1, 0, &s.payload, &s.sig, &s.fmt), PGP_OK);
	T_ASSERT(buf_is(&s.sig, "-----BEGIN PGP SIGNATURE-----\nouter\n"));
	split_free(&s);
	T_EQ_INT(pgp_gitsig_mergetag_next(U(obj), sizeof obj - 1, &pos, &tag), PGP_ERR_NOT_FOUND);
	pgp_buf_free(&tag);
}

static void
header_is(const char *obj, const char *name, pgp_err want_e, const char *want)
{
	pgp_view v;
	pgp_err e = pgp_gitsig_header(U(obj), strlen(obj), name, &v);
	T_EQ_INT(e, want_e);
	if (e == PGP_OK) {
		T_EQ_INT(v.len, strlen(want));
		T_EQ_MEM(v.p, want, v.len);
		T_ASSERT(v.p >= U(obj) && v.p + v.len <= U(obj) + strlen(obj));
	}
}

static void
test_header(void)
{
	const char *tag = TAG_HEAD "\ntagger in body\n" SIG;
	header_is(tag, "object", PGP_OK, "0123456789abcdef0123456789abcdef01234567");
	header_is(tag, "type", PGP_OK, "commit");
	header_is(tag, "tag", PGP_OK, "v1");
	header_is(tag, "tagger", PGP_OK, "T Agger <t@example.org> 1700000000 +0000");
	header_is(tag, "tree", PGP_ERR_NOT_FOUND, "");
	header_is(tag, "obj", PGP_ERR_NOT_FOUND, "");
	/* the first of two; continuation lines not included; no '\r' stripping */
	header_is(MERGE_HEAD MT_SIGNED, "parent", PGP_OK, "1111111111111111111111111111111111111111");
	header_is(MERGE_HEAD MT_SIGNED, "mergetag", PGP_OK, "object 1111111111111111111111111111111111111111");
	header_is("tree t\r\n", "tree", PGP_OK, "t\r");
	header_is("tree ", "tree", PGP_OK, "");
	header_is("tree\n", "tree", PGP_ERR_NOT_FOUND, "");
	header_is("\ntree t\n", "tree", PGP_ERR_NOT_FOUND, "");
	header_is("tree t\n", "", PGP_ERR_INVALID, "");
	header_is("tree t\n", "tr ee", PGP_ERR_INVALID, "");
}

int
main(void)
{
	T_RUN(test_tag_plain);
	T_RUN(test_tag_text_after_end);
	T_RUN(test_tag_crlf);
	T_RUN(test_tag_two_blocks_last_wins);
	T_RUN(test_tag_no_trailing_newline);
	T_RUN(test_tag_header_not_at_line_start);
	T_RUN(test_tag_formats);
	T_RUN(test_tag_signature_line_in_headers);
	T_RUN(test_tag_nul_byte);
	T_RUN(test_tag_gpgsig_headers_removed);
	T_RUN(test_tag_three_gpgsig_blocks_refused);
	T_RUN(test_commit_gpgsig);
	T_RUN(test_commit_other_hash_header);
	T_RUN(test_commit_gpgsig_in_body);
	T_RUN(test_commit_gpgsig_not_at_line_start);
	T_RUN(test_commit_odd_gpgsig_prefixes);
	T_RUN(test_commit_empty_continuations);
	T_RUN(test_commit_crlf);
	T_RUN(test_commit_no_trailing_newline);
	T_RUN(test_commit_formats);
	T_RUN(test_commit_appends);
	T_RUN(test_limits);
	T_RUN(test_mergetag_unfolded);
	T_RUN(test_mergetag_several_and_odd_keys);
	T_RUN(test_mergetag_nested_signature);
	T_RUN(test_header);
	return T_DONE();
}
