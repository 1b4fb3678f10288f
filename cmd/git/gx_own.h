/*
 * gx_own.h - wotkit's own read-only git object reader, for the repositories
 * libgit2 1.5 refuses: SHA-256 ones (`extensions.objectformat = sha256`,
 * git's hash-function-transition.txt). It reads SHA-1 repositories too, but
 * gx.c routes only SHA-256 ones here. No git process, no libgit2.
 *
 * Same parameters and semantics as gx_open/gx_close/gx_resolve/gx_read/
 * gx_each_tag (cmd/git/gx.h): -1 with a NUL-terminated message in
 * err[0..errlen), 0 on success. Details and what is not supported:
 * docs/git-reader.md, "wotkit's own object reader".
 *
 * Every object handed out has been hashed ("TYPE SIZE\0CONTENT", git's
 * object id) and compared with the id asked for: a corrupted object is an
 * error, never a wrong answer.
 */
#ifndef WOTKIT_GIT_GX_OWN_H
#define WOTKIT_GIT_GX_OWN_H

#include <stddef.h>
#include <stdint.h>
#include "gx.h"

/* Named limits. */
#define GX_OWN_MAX_OBJECT      (1024u * 1024u * 1024u) /* any object inflated, also a delta base */
#define GX_OWN_MAX_DELTA_CHAIN 10000u  /* deltas between an object and its base (git writes <= 4095) */
#define GX_OWN_MAX_PEEL        64u     /* tags peeled through, and parents/ancestors in one ~N/^N step */
#define GX_OWN_MAX_ANCESTRY    1000000u /* N of ~N */
#define GX_OWN_MAX_SYMREF      5u      /* symbolic ref hops (git's SYMREF_MAXDEPTH) */
#define GX_OWN_MAX_PACKS       4096u   /* pack-*.idx files in objects/pack */
#define GX_OWN_MAX_REFS        1000000u /* refs under refs/tags/, loose and packed */
#define GX_OWN_MAX_REF_DEPTH   32u     /* directory levels below refs/tags/ */
#define GX_OWN_MAX_REFNAME     4096u   /* octets of a ref name or a revision */
#define GX_OWN_MAX_SMALL_FILE  (1024u * 1024u) /* config, HEAD, a loose ref, a .git file */
#define GX_OWN_MAX_PACKED_REFS (256u * 1024u * 1024u) /* the packed-refs file */
#define GX_OWN_MAX_COMMIT_HEAD (64u * 1024u * 1024u)  /* a commit or tag read to peel or find parents */

typedef struct gx_own gx_own;

int gx_own_open(gx_own **out, const char *path, char *err, size_t errlen);
void gx_own_close(gx_own *r);
/* The object id length of the repository at path, read from its config as
 * gx_own_open does (no pack is opened): *idlen 20 or 32 and 0; -1 with a
 * message when path is no repository or its format is not one this reader
 * reads. Lets callers keep SHA-256 repositories away from libgit2. */
int gx_own_format(const char *path, size_t *idlen, char *err, size_t errlen);
/* 20 (SHA-1) or 32 (SHA-256). */
size_t gx_own_idlen(const gx_own *r);
int gx_own_resolve(gx_own *r, const char *rev, uint8_t id[GX_MAX_ID], char *err, size_t errlen);
int gx_own_read(gx_own *r, const uint8_t *id, size_t max, int *type, uint8_t **data, size_t *len,
    char *err, size_t errlen);
int gx_own_each_tag(gx_own *r, int (*cb)(void *ctx, const char *refname, const uint8_t *id),
    void *ctx, char *err, size_t errlen);

#endif
