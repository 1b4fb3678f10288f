/*
 * test_gitobj.c - the object stream of `wotkit-git objects` (keyring/gitobj.h):
 * round trip, one record at a time through short reads, every truncation
 * refused, each malformed field refused; the commit and tag header parsers.
 */
#include "t.h"
#include "pgp/pgp.h"
#include "keyring/gitobj.h"

static const char commit1[] =
    "tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n"
    "parent 1111111111111111111111111111111111111111\n"
    "parent 2222222222222222222222222222222222222222\n"
    "author A U Thor <a@example.org> 1700000000 +0000\n"
    "committer C O Mitter <c@example.org> 1700000123 +0100\n"
    "\n"
    "message\n";

static const char tag1[] =
    "object 3333333333333333333333333333333333333333\n"
    "type commit\n"
    "tag v1.0\n"
    "tagger T <t@example.org> 1700000000 +0000\n"
    "\n"
    "v1.0\n";

/* magic, format 20, a commit, a tag, a failure, end 3 */
static void
build(pgp_buf *b)
{
	uint8_t id[20];
	memset(id, 0xab, sizeof id);
	pgp_buf_init(b, 1 << 20);
	T_EQ_INT(gitobj_put_magic(b), PGP_OK);
	T_EQ_INT(gitobj_put_format(b, 20), PGP_OK);
	T_EQ_INT(gitobj_put_object(b, GITOBJ_COMMIT, id, 20, "HEAD",
	    (const uint8_t *)commit1, sizeof commit1 - 1), PGP_OK);
	id[0] = 1;
	T_EQ_INT(gitobj_put_object(b, GITOBJ_TAG, id, 20, "refs/tags/v1.0",
	    (const uint8_t *)tag1, sizeof tag1 - 1), PGP_OK);
	T_EQ_INT(gitobj_put_failure(b, "nope", "unknown revision"), PGP_OK);
	T_EQ_INT(gitobj_put_end(b, 3), PGP_OK);
}

/* Read the whole stream; the last error, the records seen. */
static pgp_err
read_all(const uint8_t *p, size_t len, size_t chunk, size_t *nrec, pgp_diag *d)
{
	gitobj_mem m = {p, len, 0, chunk};
	gitobj_reader r;
	gitobj_record rec;
	pgp_err e;

	*nrec = 0;
	gitobj_reader_init(&r, gitobj_mem_read, &m);
	while ((e = gitobj_next(&r, &rec, d)) == PGP_OK) {
		(*nrec)++;
		if (rec.kind == GITOBJ_REC_END)
			break;
	}
	T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_ERR_INVALID);   /* nothing after */
	gitobj_reader_release(&r);
	return e;
}

static void
test_round_trip(void)
{
	pgp_buf b;
	gitobj_mem m;
	gitobj_reader r;
	gitobj_record rec;
	size_t chunk;

	build(&b);
	for (chunk = 0; chunk < 4; chunk++) {
		m.p = b.p;
		m.len = b.len;
		m.pos = 0;
		m.chunk = chunk;   /* 0: whole, 1..3: short reads from a pipe */
		gitobj_reader_init(&r, gitobj_mem_read, &m);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_OK);
		T_EQ_INT(rec.kind, GITOBJ_REC_FORMAT);
		T_EQ_INT(rec.idlen, 20);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_OK);
		T_EQ_INT(rec.kind, GITOBJ_REC_OBJECT);
		T_EQ_INT(rec.type, GITOBJ_COMMIT);
		T_EQ_INT(rec.id[0], 0xab);
		T_EQ_INT(rec.name.len, 4);
		T_EQ_MEM(rec.name.p, "HEAD", 4);
		T_EQ_INT(rec.data.len, sizeof commit1 - 1);
		T_EQ_MEM(rec.data.p, commit1, sizeof commit1 - 1);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_OK);
		T_EQ_INT(rec.type, GITOBJ_TAG);
		T_EQ_INT(rec.id[0], 1);
		T_EQ_MEM(rec.name.p, "refs/tags/v1.0", 14);
		T_EQ_MEM(rec.data.p, tag1, sizeof tag1 - 1);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_OK);
		T_EQ_INT(rec.kind, GITOBJ_REC_FAILURE);
		T_EQ_INT(rec.data.len, 16);
		T_EQ_MEM(rec.data.p, "unknown revision", 16);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_OK);
		T_EQ_INT(rec.kind, GITOBJ_REC_END);
		T_EQ_INT(rec.count, 3);
		T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_ERR_INVALID);
		gitobj_reader_release(&r);
	}
	pgp_buf_free(&b);
}

static void
test_fatal(void)
{
	pgp_buf b;
	gitobj_mem m;
	gitobj_reader r;
	gitobj_record rec;

	/* magic and fatal alone (the repository could not be opened) */
	pgp_buf_init(&b, 4096);
	T_EQ_INT(gitobj_put_magic(&b), PGP_OK);
	T_EQ_INT(gitobj_put_fatal(&b, "repo: not a git repository"), PGP_OK);
	m.p = b.p;
	m.len = b.len;
	m.pos = 0;
	m.chunk = 0;
	gitobj_reader_init(&r, gitobj_mem_read, &m);
	T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_ERR_IO);
	T_EQ_INT(rec.kind, GITOBJ_REC_FATAL);
	T_EQ_INT(rec.data.len, 26);
	T_EQ_MEM(rec.data.p, "repo: not a git repository", 26);
	gitobj_reader_release(&r);
	/* anything after a fatal record */
	T_EQ_INT(pgp_buf_putc(&b, 0), PGP_OK);
	m.len = b.len;
	m.pos = 0;
	gitobj_reader_init(&r, gitobj_mem_read, &m);
	T_EQ_INT(gitobj_next(&r, &rec, NULL), PGP_ERR_MALFORMED);
	gitobj_reader_release(&r);
	pgp_buf_free(&b);
}

static void
test_truncations(void)
{
	pgp_buf b;
	size_t cut, n;
	pgp_diag d;

	build(&b);
	T_EQ_INT(read_all(b.p, b.len, 0, &n, NULL), PGP_OK);
	T_EQ_INT(n, 5);
	for (cut = 0; cut < b.len; cut++) {
		pgp_err e = read_all(b.p, cut, 0, &n, &d);
		if (e != PGP_ERR_TRUNCATED)
			fprintf(stderr, "prefix of %zu octets: %d\n", cut, (int)e);
		T_EQ_INT(e, PGP_ERR_TRUNCATED);
		T_ASSERT(n < 5);
		T_EQ_INT(read_all(b.p, cut, 1, &n, NULL), PGP_ERR_TRUNCATED);
	}
	/* one octet more than the stream */
	T_EQ_INT(pgp_buf_putc(&b, 'Z'), PGP_OK);
	T_EQ_INT(read_all(b.p, b.len, 0, &n, &d), PGP_ERR_MALFORMED);
	pgp_buf_free(&b);
}

/* A stream of magic + format + one hand-made record + (end), read to its end. */
static pgp_err
one_record(const uint8_t *rec, size_t len, int with_format, int with_end, uint32_t count)
{
	pgp_buf b;
	size_t n;
	pgp_err e;

	pgp_buf_init(&b, 1 << 20);
	T_EQ_INT(gitobj_put_magic(&b), PGP_OK);
	if (with_format)
		T_EQ_INT(gitobj_put_format(&b, 20), PGP_OK);
	T_EQ_INT(pgp_buf_append(&b, rec, len), PGP_OK);
	if (with_end)
		T_EQ_INT(gitobj_put_end(&b, count), PGP_OK);
	e = read_all(b.p, b.len, 0, &n, NULL);
	pgp_buf_free(&b);
	return e;
}

/* kind, u32 len, then body */
static size_t
rec_make(uint8_t *out, uint8_t kind, const void *body, size_t len)
{
	out[0] = kind;
	pgp_put_be32(out + 1, (uint32_t)len);
	memcpy(out + 5, body, len);
	return 5 + len;
}

static void
test_malformed(void)
{
	uint8_t r[256], body[200];
	size_t n, k;
	pgp_buf b;

	/* a good object record by hand: the baseline must pass */
	k = 0;
	body[k++] = GITOBJ_TAG;
	memset(body + k, 7, 20);
	k += 20;
	body[k++] = 0;
	body[k++] = 3;
	memcpy(body + k, "tag", 3);
	k += 3;
	memcpy(body + k, "data", 4);
	k += 4;
	n = rec_make(r, 'O', body, k);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_OK);
	/* no format record first */
	T_EQ_INT(one_record(r, n, 0, 0, 0), PGP_ERR_MALFORMED);
	/* the end counts another number */
	T_EQ_INT(one_record(r, n, 1, 1, 2), PGP_ERR_MALFORMED);
	T_EQ_INT(one_record(r, n, 1, 1, 0), PGP_ERR_MALFORMED);
	/* type neither commit nor tag */
	body[0] = 2;
	n = rec_make(r, 'O', body, k);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	body[0] = GITOBJ_TAG;
	/* name: empty; longer than the record; holding NUL */
	body[22] = 0;
	n = rec_make(r, 'O', body, k);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	body[22] = 200;
	n = rec_make(r, 'O', body, k);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	body[22] = 3;
	body[24] = 0;
	n = rec_make(r, 'O', body, k);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	body[24] = 'a';
	/* shorter than its id */
	n = rec_make(r, 'O', body, 10);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	/* record length over GITOBJ_MAX_BODY: refused before anything is read */
	r[0] = 'O';
	pgp_put_be32(r + 1, GITOBJ_MAX_BODY + 1);
	T_EQ_INT(one_record(r, 5, 1, 0, 0), PGP_ERR_LIMIT);
	/* unknown kind */
	n = rec_make(r, 'Q', body, 4);
	T_EQ_INT(one_record(r, n, 1, 1, 0), PGP_ERR_MALFORMED);
	n = rec_make(r, 0, body, 4);
	T_EQ_INT(one_record(r, n, 1, 1, 0), PGP_ERR_MALFORMED);
	/* format: length, id length 0/21, twice */
	n = rec_make(r, 'F', "\x14\x14", 2);
	T_EQ_INT(one_record(r, n, 0, 0, 0), PGP_ERR_MALFORMED);
	n = rec_make(r, 'F', "\x15", 1);
	T_EQ_INT(one_record(r, n, 0, 0, 0), PGP_ERR_MALFORMED);
	n = rec_make(r, 'F', "\x14", 1);
	T_EQ_INT(one_record(r, n, 0, 1, 0), PGP_OK);
	T_EQ_INT(one_record(r, n, 1, 1, 0), PGP_ERR_MALFORMED);
	/* failure: good, empty text, NUL in text, empty name, text too long */
	n = rec_make(r, 'X', "\0\1ab", 4);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_OK);
	n = rec_make(r, 'X', "\0\1a", 3);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	n = rec_make(r, 'X', "\0\1a\0", 4);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	n = rec_make(r, 'X', "\0\0ab", 4);
	T_EQ_INT(one_record(r, n, 1, 1, 1), PGP_ERR_MALFORMED);
	r[0] = 'X';
	pgp_put_be32(r + 1, 2 + GITOBJ_MAX_NAME + GITOBJ_MAX_MSG + 1);
	T_EQ_INT(one_record(r, 5, 1, 0, 0), PGP_ERR_MALFORMED);
	/* end: wrong length */
	n = rec_make(r, 'Z', "\0\0\0\0\0", 5);
	T_EQ_INT(one_record(r, n, 1, 0, 0), PGP_ERR_MALFORMED);
	/* end before the format record */
	n = rec_make(r, 'Z', "\0\0\0\0", 4);
	T_EQ_INT(one_record(r, n, 0, 0, 0), PGP_ERR_MALFORMED);
	/* fatal: empty, NUL, too long */
	n = rec_make(r, 'E', "", 0);
	T_EQ_INT(one_record(r, n, 1, 0, 0), PGP_ERR_MALFORMED);
	n = rec_make(r, 'E', "a\0", 2);
	T_EQ_INT(one_record(r, n, 1, 0, 0), PGP_ERR_MALFORMED);
	r[0] = 'E';
	pgp_put_be32(r + 1, GITOBJ_MAX_MSG + 1);
	T_EQ_INT(one_record(r, 5, 1, 0, 0), PGP_ERR_MALFORMED);
	n = rec_make(r, 'E', "why", 3);
	T_EQ_INT(one_record(r, n, 1, 0, 0), PGP_ERR_IO);
	/* bad magic */
	pgp_buf_init(&b, 64);
	T_EQ_INT(pgp_buf_append(&b, "WKGOBJ2\n", 8), PGP_OK);
	T_EQ_INT(gitobj_put_format(&b, 20), PGP_OK);
	T_EQ_INT(gitobj_put_end(&b, 0), PGP_OK);
	T_EQ_INT(read_all(b.p, b.len, 0, &n, NULL), PGP_ERR_MALFORMED);
	pgp_buf_free(&b);
}

static void
test_encoder_refuses(void)
{
	pgp_buf b;
	uint8_t id[32] = {0};
	char name[GITOBJ_MAX_NAME + 2];

	pgp_buf_init(&b, 1 << 20);
	T_EQ_INT(gitobj_put_format(&b, 21), PGP_ERR_INVALID);
	T_EQ_INT(gitobj_put_object(&b, 2, id, 20, "x", NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(gitobj_put_object(&b, GITOBJ_TAG, id, 31, "x", NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(gitobj_put_object(&b, GITOBJ_TAG, id, 32, "", NULL, 0), PGP_ERR_INVALID);
	memset(name, 'a', sizeof name - 1);
	name[sizeof name - 1] = 0;
	T_EQ_INT(gitobj_put_object(&b, GITOBJ_TAG, id, 32, name, NULL, 0), PGP_ERR_INVALID);
	T_EQ_INT(gitobj_put_object(&b, GITOBJ_TAG, id, 32, "x", id, GITOBJ_MAX_OBJECT + 1u),
	    PGP_ERR_LIMIT);
	T_EQ_INT(gitobj_put_failure(&b, "x", ""), PGP_ERR_INVALID);
	T_EQ_INT(gitobj_put_fatal(&b, ""), PGP_ERR_INVALID);
	T_EQ_INT(b.len, 0);
	pgp_buf_free(&b);
	/* out's cap: nothing half-written */
	pgp_buf_init(&b, 10);
	T_EQ_INT(gitobj_put_object(&b, GITOBJ_TAG, id, 20, "x", NULL, 0), PGP_ERR_LIMIT);
	T_EQ_INT(b.len, 0);
	pgp_buf_free(&b);
}

static void
test_commit_parse(void)
{
	uint8_t par[4 * 20];
	size_t n;
	int64_t t;
	char bad[sizeof commit1];

	T_EQ_INT(gitobj_commit_parse((const uint8_t *)commit1, sizeof commit1 - 1, 20, par, 4, &n,
	    &t), PGP_OK);
	T_EQ_INT(n, 2);
	T_EQ_INT(par[0], 0x11);
	T_EQ_INT(par[20], 0x22);
	T_EQ_INT(t, 1700000123);
	/* too many parents for the room given */
	T_EQ_INT(gitobj_commit_parse((const uint8_t *)commit1, sizeof commit1 - 1, 20, par, 1, &n,
	    &t), PGP_ERR_LIMIT);
	/* a SHA-1 commit read as SHA-256 */
	T_EQ_INT(gitobj_commit_parse((const uint8_t *)commit1, sizeof commit1 - 1, 32, par, 2, &n,
	    &t), PGP_ERR_MALFORMED);
	/* a broken parent line */
	memcpy(bad, commit1, sizeof commit1);
	bad[60] = 'x';
	T_EQ_INT(gitobj_commit_parse((const uint8_t *)bad, sizeof bad - 1, 20, par, 4, &n, &t),
	    PGP_ERR_MALFORMED);
	/* no tree line */
	T_EQ_INT(gitobj_commit_parse((const uint8_t *)commit1 + 1, sizeof commit1 - 2, 20, par, 4,
	    &n, &t), PGP_ERR_MALFORMED);
	/* no committer: time 0, as git */
	T_EQ_INT(gitobj_commit_parse((const uint8_t *)commit1, 160, 20, par, 4, &n, &t), PGP_OK);
	T_EQ_INT(t, 0);
	T_EQ_INT(n, 2);
}

static void
test_tag_target(void)
{
	uint8_t id[20];
	int type = 0;
	char bad[sizeof tag1];

	T_EQ_INT(gitobj_tag_target((const uint8_t *)tag1, sizeof tag1 - 1, 20, id, &type), PGP_OK);
	T_EQ_INT(type, GITOBJ_COMMIT);
	T_EQ_INT(id[19], 0x33);
	memcpy(bad, tag1, sizeof tag1);
	memcpy(bad + 48, "type tog", 8);
	T_EQ_INT(gitobj_tag_target((const uint8_t *)bad, sizeof bad - 1, 20, id, &type),
	    PGP_ERR_MALFORMED);
	T_EQ_INT(gitobj_tag_target((const uint8_t *)tag1, 30, 20, id, &type), PGP_ERR_MALFORMED);
}

static void
test_hex(void)
{
	uint8_t id[20];
	char h[41];
	memset(id, 0xa5, sizeof id);
	pgp_hex_encode_lower(h, id, 20);
	T_EQ_INT(strlen(h), 40);
	T_EQ_STR(h, "a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5");
}

int
main(void)
{
	T_RUN(test_round_trip);
	T_RUN(test_fatal);
	T_RUN(test_truncations);
	T_RUN(test_malformed);
	T_RUN(test_encoder_refuses);
	T_RUN(test_commit_parse);
	T_RUN(test_tag_target);
	T_RUN(test_hex);
	return T_DONE();
}
