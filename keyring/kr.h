/*
 * kr.h - wotkit's own keyring file: one mmap-able file holding stripped
 * certificates in canonical OpenPGP form, sorted indexes (fingerprint, key
 * ID, e-mail), the verified certification edges, the memo of signatures
 * whose public-key math was checked at build time, and build statistics.
 * The byte layout is specified in docs/keyring-format.md.
 *
 * Reading never trusts the file: every offset and length is checked before
 * use, index blocks are checksummed and checked when a lookup first touches
 * them, a certificate's checksum is checked when it is materialised, and
 * every lookup result is confirmed against the parsed certificate. A damaged
 * or truncated file gives PGP_ERR_MALFORMED / PGP_ERR_TRUNCATED (diag names
 * the section and offset), never a wrong answer.
 *
 * A kr_keyring is not thread-safe: lookups build certificates on demand and
 * cache them in the keyring object. Only its memo's known() may be called
 * from several threads at once (pgp/sigmemo.h asks it: it reads the file
 * and sets checked-block bits atomically, and records no diagnostic).
 */
#ifndef KR_KR_H
#define KR_KR_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "strip.h"

/* ---- named limits of the format (every reader bound lives here) ---- */

/* Records per checksummed index block (a lookup touches O(log n) blocks). */
#define KR_BLOCK_RECS        64u
/* Sections in one file (8 are defined by version 1). */
#define KR_MAX_SECTIONS      32u
/* Certificates in one keyring. */
#define KR_MAX_CERTS         (1u << 24)
/* Octets of one stored certificate. */
#define KR_MAX_CERT_LEN      ((size_t)256 << 20)
/* Entries in the fingerprint / key ID / e-mail indexes (per certificate at
 * most 1 + PGP_MAX_SUBKEYS keys and PGP_MAX_UIDS user IDs). */
#define KR_MAX_INDEX         (1u << 28)
/* Edges and memo tags. */
#define KR_MAX_EDGES         (1u << 28)
#define KR_MAX_TAGS          (1u << 28)
/* Octets of the statistics section, drop reasons and notes in it. */
#define KR_MAX_STATS_LEN     ((size_t)4 << 20)
#define KR_MAX_DROP_REASONS  64u
#define KR_MAX_NOTES         4096u
/* Largest keyring file written or read. */
#define KR_MAX_FILE          ((size_t)1 << 40)

/* ---- the file ---- */

typedef struct kr_keyring kr_keyring;

/* What a build records besides the strip result (both optional: root NULL,
 * built_at 0 keep the file free of them, so identical inputs give identical
 * bytes). */
typedef struct kr_meta {
	const pgp_fpr *root;
	int64_t built_at;
} kr_meta;

/*
 * Serialize a strip result into out (pgp_buf_init'ed by the caller, with its
 * cap). Deterministic: the same result and meta give the same octets. Each
 * r->certs[i].bin is parsed again to index what the stored certificate holds
 * (primary key, subkeys, user ID e-mails). PGP_ERR_INVALID when the result is
 * not sorted by fingerprint, holds two certificates with one fingerprint, an
 * edge names a certificate out of range, or a certificate does not parse as
 * exactly one certificate; PGP_ERR_LIMIT beyond a KR_MAX_* limit. On error
 * out is left as it was.
 */
pgp_err kr_serialize(const kr_strip_result *r, const kr_meta *m, pgp_buf *out);
/*
 * The same octets, handed to sink in order (the index sections built in
 * memory first, then each stored certificate as it is): a build writes the
 * file without holding a second copy of the certificates. A sink error
 * aborts and is returned; what was already handed over is then garbage.
 */
typedef pgp_err (*kr_sink)(void *ctx, const uint8_t *p, size_t n);
pgp_err kr_serialize_to(const kr_strip_result *r, const kr_meta *m, kr_sink sink, void *ctx);

/*
 * Open a keyring held in p[0..len) (typically an mmap of the file). p is
 * borrowed: it must outlive the keyring. Checks the magic, the version, the
 * header checksum, the file length and the section table (known sections,
 * sizes, no overlap, nothing outside the file). Index blocks and
 * certificates are checked later, when first touched. PGP_ERR_MALFORMED,
 * PGP_ERR_TRUNCATED or PGP_ERR_UNSUPPORTED (another major version) with diag.
 */
pgp_err kr_open(kr_keyring **out, const uint8_t *p, size_t len, pgp_diag *diag);
void kr_close(kr_keyring *k);
/* 1 when p starts with the keyring magic (whatever follows). */
int kr_is_keyring(const uint8_t *p, size_t len);
/* The last failure of a lookup through kr_source() or of kr_cert*(), with
 * a static text naming the section (valid while k lives). */
const pgp_diag *kr_last_error(const kr_keyring *k);

/*
 * A pgp_certsrc over the keyring: find() answers KEYID, FPR and EMAIL
 * through the indexes and hands out certificates built on demand (valid
 * until kr_close). Its memo knows the tags of every signature whose math was
 * checked at build time, so evaluation recomputes digests and applies time
 * and policy but runs no public-key operation on them. A damaged block or
 * certificate makes find() fail (the verifier then fails), never answer.
 */
void kr_source(kr_keyring *k, pgp_certsrc *out);

size_t kr_count(const kr_keyring *k);
/* Certificate i (in fingerprint order), parsed on first use after its
 * checksum was checked; valid until kr_close. */
pgp_err kr_cert(kr_keyring *k, size_t i, const pgp_cert **out);
/* The stored octets of certificate i (binary, canonical), checksum checked. */
pgp_err kr_cert_bytes(const kr_keyring *k, size_t i, pgp_view *out);
/* The primary fingerprint of certificate i, from the certificate table. */
pgp_err kr_cert_fpr(kr_keyring *k, size_t i, pgp_fpr *out);
size_t kr_nedges(const kr_keyring *k);
pgp_err kr_edge_at(const kr_keyring *k, size_t i, kr_edge *out);
size_t kr_ntags(const kr_keyring *k);

/*
 * Indexes of the certificates matching q (as pgp_certsrc.find, but
 * certificate indexes): up to max into out[], the number in *total.
 * Matches are confirmed against the parsed certificates.
 */
pgp_err kr_find(kr_keyring *k, const pgp_certq *q, uint32_t *out, size_t max,
    size_t *total);

/*
 * The whole-file check (`wotkit keyring check FILE`, keyring/kr_verify.c):
 * every block and certificate checksum, and what no checksum vouches for
 * (a file altered with its checksums recomputed): the certificate table in
 * strictly increasing fingerprint order, its certificates tiling the data
 * section, its counts equal to the parsed certificates'; every index sorted
 * without duplicates, each entry naming a certificate that holds the key or
 * address, every stored key and address found by a lookup, the entry counts
 * equal to the keys and addresses stored; every certification edge backed by
 * a stored certification of that issuer key, type, time and trust; the memo
 * tags sorted and unique; the statistics' counts equal to the sections'.
 * Costs one parse of every certificate and a lookup per key and address.
 * PGP_OK, or the first problem (PGP_ERR_MALFORMED, _TRUNCATED, _LIMIT)
 * described in diag.
 */
pgp_err kr_verify(kr_keyring *k, pgp_diag *diag);

/* Per-certificate counts from the certificate table. */
typedef struct kr_certinfo {
	pgp_fpr fpr;
	uint8_t version, algo;
	uint32_t nuids, nsubs;
	uint32_t kept_sigs, kept_certifications, dropped;
} kr_certinfo;
pgp_err kr_cert_info(kr_keyring *k, size_t i, kr_certinfo *out);

/* The statistics section. */
typedef struct kr_stats {
	int64_t built_at;                  /* 0: not recorded */
	pgp_fpr root;                      /* len 0: none */
	uint64_t certs, uids, subkeys, sigs, certifications, edges, tags;
	size_t ndrops;
	struct {
		char name[32];             /* kr_drop_name() at build time */
		uint64_t count;
	} drops[KR_MAX_DROP_REASONS];
	size_t nnotes;                     /* notes: kr_stats_note() */
} kr_stats;
pgp_err kr_stats_get(const kr_keyring *k, kr_stats *out);
/* Note i of the statistics section (a view into the file). */
pgp_err kr_stats_note(const kr_keyring *k, size_t i, pgp_view *out);

#endif
