/*
 * gitobj.h - the object stream of `wotkit-git objects` (docs/git-reader.md,
 * "The object stream"): raw tag and commit objects of a repository, as
 * wotkit-git reads them, for `wotkit verify-tag` / `verify-commit`, which
 * split and verify them (pgp/gitsig.h, pgp/verify.h).
 *
 *   stream  = magic format (object | failure)* (end | fatal)
 *           | magic fatal
 *   magic   = "WKGOBJ1\n"                             8 octets
 *   record  = kind:u8 len:u32 body[len]               every record framed
 *   format  'F'  idlen:u8                             20 (SHA-1) or 32 (SHA-256)
 *   object  'O'  type:u8 id[idlen] nlen:u16 name[nlen] content[rest]
 *                type 1 commit, 4 tag (git's numbers); name: the argument
 *                it was asked by, or the ref of a tag found for a range
 *   failure 'X'  nlen:u16 name[nlen] text[rest]       one argument failed:
 *                "not a tag", "unknown revision", ...
 *   end     'Z'  count:u32                            object + failure records
 *   fatal   'E'  text[rest]                           wotkit-git failed; the
 *                                                     stream ends here
 *
 * Integers big-endian. Every record is framed (kind and length first), so
 * a reader takes one record at a time from a pipe and holds only that one:
 * a range of 100,000 commits is never in memory at once. A stream without
 * its end (or fatal) record was cut short and is refused; nothing may
 * follow the end record.
 *
 * Pure codec and parsers over the bounded reader (pgp/rd.h): no I/O (the
 * reader pulls octets through a callback), no printing.
 */
#ifndef KEYRING_GITOBJ_H
#define KEYRING_GITOBJ_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

#define GITOBJ_MAGIC "WKGOBJ1\n"
#define GITOBJ_MAGIC_LEN 8
#define GITOBJ_MAX_ID 32                  /* octets of an object id */
#define GITOBJ_MAX_OBJECT (16u << 20)     /* octets of one object's content
                                             (= PGP_GITSIG_MAX_OBJECT) */
#define GITOBJ_MAX_NAME 4096              /* octets of a name (argument or ref) */
#define GITOBJ_MAX_MSG 1024               /* octets of a failure or fatal text */
#define GITOBJ_MAX_RECORDS (1u << 24)     /* object + failure records in a stream */
#define GITOBJ_MAX_BODY (1u + GITOBJ_MAX_ID + 2u + GITOBJ_MAX_NAME + GITOBJ_MAX_OBJECT)
#define GITOBJ_MAX_PARENTS 1024           /* parents of one commit (git has no
                                             limit; the kernel's widest has 66) */

/* Object types, git's numbers. */
enum { GITOBJ_COMMIT = 1, GITOBJ_TAG = 4 };

typedef enum gitobj_kind {
	GITOBJ_REC_FORMAT = 'F',
	GITOBJ_REC_OBJECT = 'O',
	GITOBJ_REC_FAILURE = 'X',
	GITOBJ_REC_END = 'Z',
	GITOBJ_REC_FATAL = 'E'
} gitobj_kind;

/* One record as read: views into the reader's buffer, valid until the
 * next gitobj_next() call. */
typedef struct gitobj_record {
	gitobj_kind kind;
	size_t idlen;              /* FORMAT; OBJECT: the stream's */
	int type;                  /* OBJECT: GITOBJ_COMMIT or GITOBJ_TAG */
	uint8_t id[GITOBJ_MAX_ID]; /* OBJECT */
	pgp_view name;             /* OBJECT, FAILURE: 1..GITOBJ_MAX_NAME octets, no NUL */
	pgp_view data;             /* OBJECT: the raw content; FAILURE, FATAL: the
	                              text (1..GITOBJ_MAX_MSG octets, no NUL) */
	uint32_t count;            /* END */
} gitobj_record;

/*
 * Where the reader takes its octets: read up to n octets into p, *got = how
 * many (0 only at the end of the input). A non-PGP_OK return (PGP_ERR_IO)
 * stops the reader and is returned.
 */
typedef pgp_err (*gitobj_read_fn)(void *ctx, uint8_t *p, size_t n, size_t *got);

typedef struct gitobj_reader {
	gitobj_read_fn read;
	void *ctx;
	pgp_buf body;          /* the current record's body */
	size_t off;            /* octets of the stream consumed (for diagnostics) */
	uint32_t records;      /* object + failure records seen */
	uint8_t idlen;         /* from the format record, 0 before it */
	uint8_t state;         /* internal: 0 magic next, 1 format next, 2 records, 3 done */
} gitobj_reader;

void gitobj_reader_init(gitobj_reader *r, gitobj_read_fn fn, void *ctx);
void gitobj_reader_release(gitobj_reader *r);

/*
 * The next record. The first call checks the magic. Every field is checked
 * before the record is returned; the END record is returned only after the
 * reader has seen that nothing follows it (the stream is complete). A
 * FATAL record is returned as PGP_ERR_IO with rec->data its text (nothing
 * may follow it either). Errors: PGP_ERR_TRUNCATED (the input ended
 * inside the stream), PGP_ERR_MALFORMED, PGP_ERR_LIMIT (diag: the offset
 * in the stream and the rule), PGP_ERR_NOMEM, the read function's error;
 * after an error or END, every further call returns PGP_ERR_INVALID.
 */
pgp_err gitobj_next(gitobj_reader *r, gitobj_record *rec, pgp_diag *diag);

/* A read function over memory (tests, fuzzing): ctx is a gitobj_mem. */
typedef struct gitobj_mem {
	const uint8_t *p;
	size_t len, pos;
	size_t chunk;          /* most octets handed out per call; 0: all */
} gitobj_mem;
pgp_err gitobj_mem_read(void *ctx, uint8_t *p, size_t n, size_t *got);

/*
 * Encoders (wotkit-git): append the magic or one record to out. The same
 * checks as the reader: PGP_ERR_INVALID for what it would refuse (an id
 * length other than the format's 20 or 32, a type other than commit or
 * tag, an empty or too long name or text, a NUL in either), PGP_ERR_LIMIT
 * for content over GITOBJ_MAX_OBJECT or out's cap. On error out is as it
 * was.
 */
pgp_err gitobj_put_magic(pgp_buf *out);
pgp_err gitobj_put_format(pgp_buf *out, size_t idlen);
pgp_err gitobj_put_object(pgp_buf *out, int type, const uint8_t *id, size_t idlen,
    const char *name, const uint8_t *data, size_t len);
pgp_err gitobj_put_failure(pgp_buf *out, const char *name, const char *text);
pgp_err gitobj_put_end(pgp_buf *out, uint32_t count);
pgp_err gitobj_put_fatal(pgp_buf *out, const char *text);

/* ---- the headers of raw objects that the revision walk needs ---- */

/*
 * A commit's parents and committer time (git 2.39 commit.c
 * parse_commit_buffer): "tree HEX\n", then each "parent HEX\n" line (HEX:
 * 2 * idlen lower-case digits), in order; the time is the decimal number
 * after the last '>' of the "committer " line (0 when there is none, as
 * git). parents: room for maxp ids of idlen octets each (maxp at most
 * GITOBJ_MAX_PARENTS). PGP_ERR_MALFORMED when the object does not start
 * with a tree line or a parent line is broken, PGP_ERR_LIMIT for more than
 * maxp parents.
 */
pgp_err gitobj_commit_parse(const uint8_t *obj, size_t len, size_t idlen, uint8_t *parents,
    size_t maxp, size_t *nparents, int64_t *time);

/*
 * What a tag object points at (git 2.39 tag.c parse_tag_buffer): "object
 * HEX\n" then "type NAME\n"; *type is GITOBJ_COMMIT, GITOBJ_TAG, 2 (tree)
 * or 3 (blob). PGP_ERR_MALFORMED when either line is missing or broken.
 */
pgp_err gitobj_tag_target(const uint8_t *obj, size_t len, size_t idlen, uint8_t *id, int *type);

#endif
