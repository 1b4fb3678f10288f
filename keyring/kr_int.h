/*
 * kr_int.h - internals shared by kr_write.c and kr_read.c: the constants of
 * the file layout (docs/keyring-format.md) and small helpers. Not part of
 * the keyring API (kr.h).
 */
#ifndef KR_KR_INT_H
#define KR_KR_INT_H

#include <stddef.h>
#include <stdint.h>
#include "kr.h"

#define KR_MAGIC         "WOTKITKR"
#define KR_MAGIC_LEN     8
#define KR_VERSION_MAJOR 1
#define KR_VERSION_MINOR 0
#define KR_HDR_LEN       64   /* header; the section table follows */
#define KR_SECT_LEN      32   /* one section table entry */
#define KR_HDR_CRC_OFF   60   /* header checksum field */

/* Section identifiers, in the order the writer lays them out. */
enum {
	KR_S_CERTS = 1,   /* certificate table, KR_REC_CERT */
	KR_S_FPR = 2,     /* fingerprint index, KR_REC_FPR */
	KR_S_KEYID = 3,   /* key ID index, KR_REC_KEYID */
	KR_S_EMAIL = 4,   /* e-mail index, KR_REC_EMAIL */
	KR_S_EDGES = 5,   /* certification edges, KR_REC_EDGE */
	KR_S_TAGS = 6,    /* memo tags, KR_REC_TAG */
	KR_S_STATS = 7,   /* statistics, variable */
	KR_S_DATA = 8,    /* certificate octets, variable */
	KR_S__N = 9       /* one more than the largest identifier */
};

/* Record sizes of the fixed-record sections. */
#define KR_REC_CERT   72
#define KR_REC_FPR    40
#define KR_REC_KEYID  12
#define KR_REC_EMAIL  12
#define KR_REC_EDGE   40
#define KR_REC_TAG    PGP_SIGMEMO_TAG_LEN
#define KR_EMAIL_HASH 8
#define KR_STATS_VERSION 1

/* CRC-32 (ISO-HDLC, as zlib) of p[0..n), continuing from crc (0 to start):
 * pgp_crc32 (pgp/crc32.h). */
uint32_t kr__crc(uint32_t crc, const uint8_t *p, size_t n);
/* First KR_EMAIL_HASH octets of SHA-256 of the address with ASCII letters
 * lowercased. PGP_ERR_NOMEM, PGP_ERR_LIMIT (longer than PGP_MAX_PACKET_BODY). */
pgp_err kr__email_hash(uint8_t out[KR_EMAIL_HASH], const uint8_t *addr, size_t len);
/* Record size of a fixed-record section, 0 for a variable one, -1 unknown. */
int kr__rec_size(uint32_t id);
/* Name of a section for diagnostics ("fingerprint index", ...). */
const char *kr__sect_name(uint32_t id);

/* Reader accessors for kr_verify.c (keyring/kr_read.c). Record i of the
 * fixed-record section id after its block checksum was checked. */
pgp_err kr__rec(const kr_keyring *k, uint32_t id, uint64_t i, pgp_rd *out, pgp_diag *d);
/* Record count of section id (certificate data: the certificate count). */
uint64_t kr__rec_count(const kr_keyring *k, uint32_t id);
/* Length of the certificate data section. */
uint64_t kr__data_len(const kr_keyring *k);
/* Where the certificate table puts certificate i in the data section. */
pgp_err kr__cert_place(const kr_keyring *k, uint64_t i, uint64_t *off, uint32_t *len);

static inline void
kr__put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static inline void
kr__put32(uint8_t *p, uint32_t v)
{
	pgp_put_be32(p, v);
}

static inline void
kr__put64(uint8_t *p, uint64_t v)
{
	pgp_put_be32(p, (uint32_t)(v >> 32));
	pgp_put_be32(p + 4, (uint32_t)v);
}

#endif
