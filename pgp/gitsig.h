/*
 * gitsig.h - the signed parts of git objects, split exactly as git does
 * (git 2.39: gpg-interface.c parse_signed_buffer, commit.c
 * parse_buffer_signed_by_header, log-tree.c mergetags), on in-memory
 * objects (the raw content, without git's "type size\0" object header).
 *
 * Tag objects, and the tag objects carried in `mergetag` headers:
 *   payload   = everything before the LAST line that starts with a signature
 *               header of any format git knows;
 *   signature = that line to the end of the object.
 * Commit objects: the `gpgsig` header (SHA-1 repositories) or
 * `gpgsig-sha256` header (SHA-256 repositories) with its continuation lines,
 * the leading space of each removed, is the signature; the object without
 * those header lines is the payload.
 *
 * Nothing here verifies anything: the split is what the signer signed, and
 * what git would hand to gpg.
 *
 * What git 2.39 does around the split (for callers that want to match it):
 *  - it runs no program at all, and reports failure, when the payload has no
 *    parsable signer line in its header block: `tagger` for tags and
 *    mergetags, `committer` for commits (gpg-interface.c
 *    parse_payload_metadata). A signed tag without a tagger header
 *    therefore never verifies in git 2.39;
 *  - a commit signature of unknown format (PGP_GITSIG_UNKNOWN) makes git die
 *    "bad/incompatible signature" (verify-commit, log --show-signature);
 *  - a mergetag that does not name a parent of the merge is only reported
 *    ("tag NAME names a non-parent OID" in log --show-signature); its
 *    signature verdict is unaffected (log-tree.c show_one_mergetag).
 */
#ifndef PGP_GITSIG_H
#define PGP_GITSIG_H

#include <stddef.h>
#include <stdint.h>
#include "buf.h"
#include "err.h"
#include "rd.h"

/* Which program git would give the signature to (gpg-interface.c
 * get_format_by_sig: the signature's first line). */
typedef enum pgp_gitsig_format {
	PGP_GITSIG_NONE = 0,     /* no signature */
	PGP_GITSIG_OPENPGP,      /* -----BEGIN PGP SIGNATURE----- or PGP MESSAGE----- */
	PGP_GITSIG_X509,         /* -----BEGIN SIGNED MESSAGE----- */
	PGP_GITSIG_SSH,          /* -----BEGIN SSH SIGNATURE----- */
	PGP_GITSIG_UNKNOWN       /* a commit's gpgsig value that starts with none
	                          * of them: git dies "bad/incompatible signature" */
} pgp_gitsig_format;

/* The largest object split (a tag or commit larger than this is
 * PGP_ERR_LIMIT; git objects of these kinds are a few KB). */
#define PGP_GITSIG_MAX_OBJECT (16u << 20)

/* git's remove_signature (commit.c) records at most this many gpgsig /
 * gpgsig-sha256 header blocks of a tag payload; a further block makes git
 * write past its array (undefined behaviour), so we refuse it as
 * PGP_ERR_MALFORMED. */
#define PGP_GITSIG_TAG_MAX_SIG_HEADERS 2

/*
 * A tag object (or a mergetag value). *payload_len is the length of the
 * payload: obj[0 .. *payload_len); the signature is obj[*payload_len .. len)
 * and its format *fmt. An unsigned tag: *payload_len = len, *fmt =
 * PGP_GITSIG_NONE. Errors: PGP_ERR_LIMIT above PGP_GITSIG_MAX_OBJECT.
 */
pgp_err pgp_gitsig_tag(const uint8_t *obj, size_t len, size_t *payload_len,
    pgp_gitsig_format *fmt);

/*
 * A tag object (or a mergetag value) split into the exact bytes git hands to
 * the verifying program. git (gpg-interface.c parse_signature) does more than
 * cut at *payload_len of pgp_gitsig_tag: it also removes `gpgsig` and
 * `gpgsig-sha256` header lines with their continuation lines from the payload
 * (commit.c remove_signature), so a tag carrying such a header verifies with
 * it left out. payload and sig are caller-initialised buffers, appended to.
 * An unsigned tag: *fmt = PGP_GITSIG_NONE, the whole object appended to
 * payload (git says "no signature found" and verifies nothing), sig
 * untouched. Errors: PGP_ERR_LIMIT (object above PGP_GITSIG_MAX_OBJECT, or a
 * buffer's max), PGP_ERR_NOMEM, PGP_ERR_MALFORMED (more than
 * PGP_GITSIG_TAG_MAX_SIG_HEADERS header blocks to remove).
 */
pgp_err pgp_gitsig_tag_split(const uint8_t *obj, size_t len, pgp_buf *payload, pgp_buf *sig,
    pgp_gitsig_format *fmt);

/*
 * A commit object. sha256: the repository's object format is SHA-256
 * (header gpgsig-sha256), else SHA-1 (header gpgsig). payload and sig are
 * caller-initialised buffers, appended to. *fmt is the format of the
 * signature (PGP_GITSIG_NONE when the commit has no such header; then sig is
 * untouched; PGP_GITSIG_UNKNOWN when its value starts with no known header).
 * As git: two headers of the repository's kind give one signature, the two
 * concatenated; every other header line starting with "gpgsig" (the other
 * hash's header, "gpgsigx", ...) is dropped from the payload with its
 * continuation lines; "\r\n" is not the blank line that ends the headers.
 * Errors: PGP_ERR_LIMIT (object above PGP_GITSIG_MAX_OBJECT, or a buffer's
 * max), PGP_ERR_NOMEM.
 */
pgp_err pgp_gitsig_commit(const uint8_t *obj, size_t len, int sha256, pgp_buf *payload,
    pgp_buf *sig, pgp_gitsig_format *fmt);

/*
 * The mergetag headers of a commit, one per call: *pos starts at 0; each
 * call appends the next tag object (continuation lines unfolded) to `tag`
 * (emptied first: tag->len = 0) and returns PGP_OK, or PGP_ERR_NOT_FOUND
 * when there is none left (the header block ended). Split each value with
 * pgp_gitsig_tag_split, as git does. PGP_ERR_INVALID: *pos > len;
 * PGP_ERR_LIMIT as above.
 */
pgp_err pgp_gitsig_mergetag_next(const uint8_t *obj, size_t len, size_t *pos, pgp_buf *tag);

/*
 * The value of the first header line `name` ("object", "type", "tag",
 * "tagger", "tree", "committer", ...) of a tag or commit object, up to the
 * end of its line (continuations not included): *out views obj.
 * PGP_ERR_NOT_FOUND when the header block has no such line.
 */
pgp_err pgp_gitsig_header(const uint8_t *obj, size_t len, const char *name, pgp_view *out);

#endif
