/*
 * kr.h - STAND-IN copied from the issue-13 design (DESIGN13.md) for the
 * sources branch; the format helper owns this file and its version replaces
 * this one at merge.
 */
#ifndef KEYRING_KR_H
#define KEYRING_KR_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "keyring/strip.h"

typedef struct kr_keyring kr_keyring;
typedef struct kr_meta { const pgp_fpr *root; int64_t built_at; } kr_meta;
pgp_err kr_serialize(const kr_strip_result *r, const kr_meta *m, pgp_buf *out);
pgp_err kr_open(kr_keyring **out, const uint8_t *p, size_t len, pgp_diag *diag); /* borrows p (mmap) */
void kr_close(kr_keyring *k);
int kr_is_keyring(const uint8_t *p, size_t len);      /* magic check */
void kr_source(kr_keyring *k, pgp_certsrc *out);      /* find + memo */
size_t kr_count(const kr_keyring *k);
pgp_err kr_cert(kr_keyring *k, size_t i, const pgp_cert **out);   /* built on demand, checksum checked */
pgp_err kr_cert_bytes(const kr_keyring *k, size_t i, pgp_view *out);
pgp_err kr_edge_at(const kr_keyring *k, size_t i, kr_edge *out); size_t kr_nedges(const kr_keyring *k);

#endif
