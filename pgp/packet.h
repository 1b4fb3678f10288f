/*
 * packet.h - OpenPGP packets (RFC 9580 §4, §5; RFC 4880 for v3).
 *
 * Parsed structs hold views into the caller's input (zero copy): the input
 * must outlive them. The only owned memory is a packet body reassembled from
 * partial body lengths (pgp_pkt.owned), released by pgp_pkt_release().
 */
#ifndef PGP_PACKET_H
#define PGP_PACKET_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "rd.h"

/* RFC 9580 §5 packet tags. */
enum {
	PGP_TAG_PKESK = 1,
	PGP_TAG_SIGNATURE = 2,
	PGP_TAG_SKESK = 3,
	PGP_TAG_ONE_PASS_SIG = 4,
	PGP_TAG_SECRET_KEY = 5,
	PGP_TAG_PUBLIC_KEY = 6,
	PGP_TAG_SECRET_SUBKEY = 7,
	PGP_TAG_COMPRESSED = 8,
	PGP_TAG_SED = 9,
	PGP_TAG_MARKER = 10,
	PGP_TAG_LITERAL = 11,
	PGP_TAG_TRUST = 12,
	PGP_TAG_USER_ID = 13,
	PGP_TAG_PUBLIC_SUBKEY = 14,
	PGP_TAG_USER_ATTRIBUTE = 17,
	PGP_TAG_SEIPD = 18,
	PGP_TAG_MDC = 19,
	PGP_TAG_AEAD = 20, /* LibrePGP OCB encrypted data, kept opaque */
	PGP_TAG_PADDING = 21
};

/* RFC 9580 §9.1 public-key algorithm IDs. */
enum {
	PGP_PK_RSA = 1,
	PGP_PK_RSA_E = 2,
	PGP_PK_RSA_S = 3,
	PGP_PK_ELGAMAL = 16,
	PGP_PK_DSA = 17,
	PGP_PK_ECDH = 18,
	PGP_PK_ECDSA = 19,
	PGP_PK_ELGAMAL_ES = 20, /* deprecated encrypt-or-sign ElGamal */
	PGP_PK_EDDSA_LEGACY = 22,
	PGP_PK_X25519 = 25,
	PGP_PK_X448 = 26,
	PGP_PK_ED25519 = 27,
	PGP_PK_ED448 = 28
};

/* Named elliptic curves (RFC 9580 §9.2), identified by OID. */
typedef enum pgp_curve {
	PGP_CURVE_NONE = 0,
	PGP_CURVE_UNKNOWN,
	PGP_CURVE_P256,
	PGP_CURVE_P384,
	PGP_CURVE_P521,
	PGP_CURVE_BP256,
	PGP_CURVE_BP384,
	PGP_CURVE_BP512,
	PGP_CURVE_ED25519,  /* legacy EdDSA OID 1.3.6.1.4.1.11591.15.1 */
	PGP_CURVE_CV25519,  /* legacy ECDH OID 1.3.6.1.4.1.3029.1.5.1 */
	PGP_CURVE_ED448,
	PGP_CURVE_X448,
	PGP_CURVE_SECP256K1
} pgp_curve;

/* ---- Framing (RFC 9580 §4.2) ---- */

typedef struct pgp_pkt {
	uint8_t tag;
	uint8_t new_format;   /* 1: new-format CTB (§4.2.1), 0: legacy (§4.2.2) */
	uint8_t partial;      /* body was sent in partial body lengths */
	uint8_t indeterminate;/* legacy length type 3: body runs to end of input */
	size_t off;           /* offset of the CTB in the input */
	size_t hdr_len;       /* octets of CTB + first length */
	size_t total_len;     /* octets consumed from the input (header(s) + body) */
	pgp_rd body;          /* the body; off = offset of first body octet */
	uint8_t *owned;       /* reassembled partial body, or NULL */
} pgp_pkt;

/*
 * Read the next packet from *in and advance past it. Partial body lengths
 * are accepted only for literal, compressed and encrypted data packets
 * (RFC 9580 §4.2.1.4); their chunks are joined into pkt->owned. Bodies larger
 * than PGP_MAX_PACKET_BODY (PGP_MAX_DATA_BODY for data packets) give
 * PGP_ERR_LIMIT. On error *in is unchanged and diag (if given) names the
 * offset and what was expected. At the end of input (nothing left) it returns
 * PGP_ERR_NOT_FOUND. pkt is overwritten without freeing: call
 * pgp_pkt_release() on the previous packet first.
 */
pgp_err pgp_pkt_next(pgp_rd *in, pgp_pkt *pkt, pgp_diag *diag);

/* RFC 9580 §4.3, §5.8, §5.14: marker and padding packets, and packets of
 * the non-critical range 40-63 (which an implementation that does not know
 * them MUST ignore), are skipped wherever they appear. */
static inline int
pgp_tag_ignorable(int tag)
{
	return tag == PGP_TAG_MARKER || tag == PGP_TAG_PADDING || (tag >= 40 && tag <= 63);
}
void pgp_pkt_release(pgp_pkt *pkt);
const char *pgp_tag_name(int tag);

/* ---- MPIs (RFC 9580 §3.2) ---- */

typedef struct pgp_mpi {
	pgp_view v;          /* magnitude octets as stored (after the 2-octet bit count) */
	uint16_t bits;       /* bit count as stored */
	uint8_t bad_bits;    /* 1: stored bit count != actual bit length of v */
	uint8_t leading_zero;/* 1: v starts with a zero octet */
} pgp_mpi;

/* Reads a 2-octet bit count and ceil(bits/8) octets. Length/limit errors only;
 * a non-canonical bit count is recorded, not rejected. */
pgp_err pgp_mpi_read(pgp_rd *r, pgp_mpi *out);
/* Actual bit length of the magnitude (leading zero octets/bits ignored). */
unsigned pgp_mpi_bitlen(const pgp_mpi *m);

/* ---- Public keys (RFC 9580 §5.5.2) ---- */

#define PGP_FPR_MAX 32

typedef struct pgp_fpr {
	uint8_t v[PGP_FPR_MAX];
	uint8_t len; /* 16 (v3, MD5), 20 (v4, SHA-1), 32 (v5/v6, SHA-256) */
} pgp_fpr;

/* The one order of fingerprints: by length, then by octets (memcmp). Key
 * sets, the keyring file's certificate table and everything that merges
 * or searches them use it. <0, 0, >0. */
int pgp_fpr_cmp(const pgp_fpr *a, const pgp_fpr *b);

typedef struct pgp_key {
	uint8_t version;     /* 3, 4, 5 or 6 */
	uint8_t algo;        /* PGP_PK_* */
	uint8_t is_subkey;   /* tag 14/7 */
	uint8_t is_secret;   /* tag 5/7 (only the public part is parsed) */
	uint8_t opaque;      /* algorithm or version unknown: material kept raw */
	uint32_t created;
	uint16_t v3_days;    /* v3 validity period in days, 0 = none */
	pgp_curve curve;
	pgp_view oid;        /* curve OID (ECDSA, ECDH, EdDSA legacy) */
	pgp_mpi mpi[4];      /* RSA: n,e; DSA: p,q,g,y; ElGamal: p,g,y; EC: point */
	uint8_t nmpi;
	pgp_view kdf;        /* ECDH KDF parameters (§5.5.5.6) */
	pgp_view native;     /* X25519/X448/Ed25519/Ed448 native public key octets */
	pgp_view material;   /* all public key material octets */
	pgp_view body;       /* the public part of the packet body: what the fingerprint hashes */
	unsigned bits;       /* key size: RSA/DSA/ElGamal modulus bits, curve bits */
	pgp_fpr fpr;
	uint8_t keyid[8];
} pgp_key;

/* Parses a key packet body (tags 5, 6, 7, 14). Computes fingerprint and key ID
 * (v3: MD5 of n||e, key ID = low 64 bits of n; v4: SHA-1; v5/v6: SHA-256). */
pgp_err pgp_key_parse(pgp_key *out, const pgp_pkt *pkt, pgp_diag *diag);
const char *pgp_pk_name(int algo);
const char *pgp_curve_name(pgp_curve c);
/* Curve of an OID (the octets after the 1-octet length, RFC 9580 §9.2);
 * PGP_CURVE_UNKNOWN if not in the table. */
pgp_curve pgp_curve_from_oid(const uint8_t *oid, size_t len);
/* Nominal size in bits (256 for P-256, 255 for the 25519 curves, 448 for
 * Ed448/X448); 0 for NONE/UNKNOWN. */
unsigned pgp_curve_bits(pgp_curve c);

/* ---- Signatures (RFC 9580 §5.2) ---- */

/* §5.2.1 signature types */
enum {
	PGP_SIG_BINARY = 0x00,
	PGP_SIG_TEXT = 0x01,
	PGP_SIG_STANDALONE = 0x02,
	PGP_SIG_CERT_GENERIC = 0x10,
	PGP_SIG_CERT_PERSONA = 0x11,
	PGP_SIG_CERT_CASUAL = 0x12,
	PGP_SIG_CERT_POSITIVE = 0x13,
	PGP_SIG_SUBKEY_BINDING = 0x18,
	PGP_SIG_PRIMARY_BINDING = 0x19,
	PGP_SIG_DIRECT_KEY = 0x1F,
	PGP_SIG_KEY_REVOCATION = 0x20,
	PGP_SIG_SUBKEY_REVOCATION = 0x28,
	PGP_SIG_CERT_REVOCATION = 0x30,
	PGP_SIG_TIMESTAMP = 0x40,
	PGP_SIG_THIRD_PARTY = 0x50
};

/* §5.2.3.7 signature subpacket types */
enum {
	PGP_SUB_CREATED = 2,
	PGP_SUB_SIG_EXPIRES = 3,
	PGP_SUB_EXPORTABLE = 4,
	PGP_SUB_TRUST = 5,
	PGP_SUB_REGEX = 6,
	PGP_SUB_REVOCABLE = 7,
	PGP_SUB_KEY_EXPIRES = 9,
	PGP_SUB_PLACEHOLDER = 10,
	PGP_SUB_PREF_SYM = 11,
	PGP_SUB_REVOCATION_KEY = 12,
	PGP_SUB_ISSUER = 16,
	PGP_SUB_NOTATION = 20,
	PGP_SUB_PREF_HASH = 21,
	PGP_SUB_PREF_COMP = 22,
	PGP_SUB_KEYSERVER_PREFS = 23,
	PGP_SUB_PREF_KEYSERVER = 24,
	PGP_SUB_PRIMARY_UID = 25,
	PGP_SUB_POLICY_URI = 26,
	PGP_SUB_KEY_FLAGS = 27,
	PGP_SUB_SIGNERS_UID = 28,
	PGP_SUB_REVOCATION_REASON = 29,
	PGP_SUB_FEATURES = 30,
	PGP_SUB_SIG_TARGET = 31,
	PGP_SUB_EMBEDDED_SIG = 32,
	PGP_SUB_ISSUER_FPR = 33,
	PGP_SUB_PREF_AEAD = 34,     /* LibrePGP */
	PGP_SUB_INTENDED_RCPT = 35,
	PGP_SUB_ATTESTED = 37,
	PGP_SUB_KEY_BLOCK = 38,
	PGP_SUB_PREF_AEAD_CIPHERS = 39
};

/* §5.2.3.29 key flags (first octet) */
enum {
	PGP_KF_CERTIFY = 0x01,
	PGP_KF_SIGN = 0x02,
	PGP_KF_ENCRYPT_COMMS = 0x04,
	PGP_KF_ENCRYPT_STORAGE = 0x08,
	PGP_KF_SPLIT = 0x10,
	PGP_KF_AUTH = 0x20,
	PGP_KF_GROUP = 0x80
};

typedef struct pgp_subpkt {
	uint8_t type;      /* without the critical bit */
	uint8_t critical;
	uint8_t hashed;    /* from the hashed area */
	pgp_rd data;       /* body after the type octet */
	size_t off;        /* offset of the subpacket length in the input */
} pgp_subpkt;

/* Iterate one subpacket area (§5.2.3.7): returns PGP_ERR_NOT_FOUND at the end. */
pgp_err pgp_subpkt_next(pgp_rd *area, int hashed, pgp_subpkt *out, pgp_diag *diag);
const char *pgp_subpkt_name(int type);

typedef struct pgp_sig {
	uint8_t version;     /* 3, 4, 5 or 6 */
	uint8_t type;        /* PGP_SIG_* */
	uint8_t pk_algo;
	uint8_t hash_algo;
	uint8_t opaque;      /* unknown version: only version/type kept */
	uint8_t prefix[2];   /* left 16 bits of the digest: a quick reject only */
	pgp_view salt;       /* v6 salt (§5.2.3) */
	pgp_view hashed;     /* hashed subpacket area (without its length) */
	pgp_view unhashed;   /* unhashed subpacket area (without its length) */
	pgp_view hashed_part;/* octets hashed after the data: v3: type+time (5);
	                        v4/v5/v6: version .. end of hashed area */
	pgp_mpi mpi[2];      /* RSA: s; DSA/ECDSA/EdDSA legacy: r,s */
	uint8_t nmpi;
	pgp_view native;     /* Ed25519 (64) / Ed448 (114) native signature */
	pgp_view body;       /* the whole packet body */

	/* Decoded from the subpackets (hashed area unless noted). */
	uint32_t created;       /* v3 field or subpacket 2 */
	uint8_t has_created;
	uint32_t sig_expires;   /* seconds after creation, 0 = never */
	uint32_t key_expires;   /* seconds after key creation, 0 = never */
	uint8_t has_key_expires;
	uint8_t key_flags;      /* first octet of subpacket 27 */
	uint8_t has_key_flags;
	uint8_t issuer[8];      /* subpacket 16 (hashed or unhashed) or v3 field */
	uint8_t has_issuer;
	pgp_fpr issuer_fpr;     /* subpacket 33 (hashed or unhashed); len 0 if absent */
	uint8_t issuer_fpr_version;
	uint8_t exportable;     /* subpacket 4; default 1 */
	uint8_t revocable;      /* subpacket 7; default 1 */
	uint8_t primary_uid;    /* subpacket 25 */
	uint8_t trust_level, trust_amount; /* subpacket 5 */
	uint8_t has_trust;
	uint8_t revocation_code;/* subpacket 29 */
	uint8_t has_revocation_reason;
	pgp_view revocation_text;
	pgp_view embedded;      /* subpacket 32 body (a signature packet body); hashed or unhashed */
	pgp_view signers_uid;   /* subpacket 28 */
	pgp_view features;      /* subpacket 30 */
	uint8_t unknown_critical; /* a critical subpacket or notation we do not understand (§5.2.3.7) */
	uint8_t critical_type;    /* the first such subpacket type, for diagnostics */
	uint8_t dup_created;      /* more than one hashed creation time */
	uint8_t has_revoker;      /* a well-formed hashed Revocation Key (12) is present */
	uint16_t nsubpkts;
} pgp_sig;

/*
 * §5.2.3.23 Revocation Key (a designated revoker): class octet (0x80 must be
 * set; 0x40 "sensitive"), public-key algorithm, then the revoker's
 * fingerprint: 20 octets for a v4 key, 32 for a v6 key.
 *
 *   class | algo | fingerprint (20 or 32)
 */
typedef struct pgp_revoker {
	uint8_t cls;
	uint8_t algo;
	pgp_fpr fpr;
} pgp_revoker;

/*
 * Iterate the designated revokers of sig: only the HASHED area counts (an
 * unhashed designation is not part of what the key owner signed). Start
 * with *pos = 0; each call returns PGP_OK with *out filled and advances
 * *pos, PGP_ERR_NOT_FOUND at the end. Designations that are malformed (a
 * length other than 2 + 20 or 2 + 32, class without bit 0x80) are skipped:
 * they designate no one.
 */
pgp_err pgp_sig_next_revoker(const pgp_sig *sig, size_t *pos, pgp_revoker *out);

/* Parses a signature packet body (tag 2, or an embedded signature body). */
pgp_err pgp_sig_parse(pgp_sig *out, const pgp_rd *body, pgp_diag *diag);
/* 1 if sig names the key with fingerprint fpr as its issuer: its issuer
 * fingerprint (subpacket 33) if present, else its issuer key ID (the low 64
 * bits of a v4 fingerprint, the high 64 bits of a v5/v6 one); 0 if it names
 * no issuer. */
int pgp_sig_names_fpr(const pgp_sig *sig, const pgp_fpr *fpr);
const char *pgp_sigtype_name(int type);

/* ---- One-pass signature (§5.4): onepass.c ---- */

typedef struct pgp_ops {
	uint8_t version;     /* 3 or 6 */
	uint8_t type, hash_algo, pk_algo;
	uint8_t keyid[8];    /* v3 */
	pgp_view salt;       /* v6 */
	pgp_view fpr;        /* v6: 32 octets */
	uint8_t nested;      /* 0: another OPS follows that covers the same data */
} pgp_ops;

pgp_err pgp_ops_parse(pgp_ops *out, const pgp_pkt *pkt, pgp_diag *diag);

/* ---- Literal data (§5.9): literal.c ---- */

typedef struct pgp_literal {
	uint8_t format;      /* 'b', 't', 'u', 'm', 'l', '1' */
	pgp_view filename;
	uint32_t date;
	pgp_view data;
} pgp_literal;

pgp_err pgp_literal_parse(pgp_literal *out, const pgp_pkt *pkt, pgp_diag *diag);

/* ---- Compressed data (§5.6): decompress.h, decompress.c ---- */

/* ---- User attribute (§5.12): uattr.c ---- */

typedef struct pgp_uattr_sub {
	uint8_t type;        /* 1 = image */
	pgp_view data;
} pgp_uattr_sub;

/* Iterate user attribute subpackets: PGP_ERR_NOT_FOUND at the end. */
pgp_err pgp_uattr_next(pgp_rd *body, pgp_uattr_sub *out, pgp_diag *diag);

#endif
