/*
 * limits.h - every named limit of libpgp, in one place.
 * Inputs beyond these give PGP_ERR_LIMIT, never unbounded work or memory.
 */
#ifndef PGP_LIMITS_H
#define PGP_LIMITS_H

/* Largest packet body we accept, after joining partial bodies (Sequoia: 1 MiB). */
#define PGP_MAX_PACKET_BODY      (1u << 20)
/* Largest literal/compressed data body (messages carry real payloads). */
#define PGP_MAX_DATA_BODY        (256u << 20)
/* Decompressed output of one message: all its compressed data packets, at
 * every nesting level, together (zlib bomb guard; decompress.h). */
#define PGP_MAX_DECOMPRESSED     (256u << 20)
/* Nesting depth of compressed-in-compressed containers. */
#define PGP_MAX_NESTING          8
/* Number of partial body chunks in one packet. */
#define PGP_MAX_PARTIAL_CHUNKS   65536
/* Packets in one input file (keyrings: debian-keyring has ~300k). */
#define PGP_MAX_PACKETS          (4u << 20)
/* Subpackets in one signature area. */
#define PGP_MAX_SUBPACKETS       512
/* User IDs / attributes, subkeys, signatures per component in one certificate. */
#define PGP_MAX_UIDS             1024
#define PGP_MAX_SUBKEYS          1024
#define PGP_MAX_SIGS_PER_COMP    8192
/* A set made for stripping (pgp_certset_set_sig_cap) may accept up to this
 * many signatures on one component: a flooded key (CVE-2019-13050) is read
 * so that it can be stripped, never evaluated as it stands. */
#define PGP_MAX_STRIP_SIGS_PER_COMP (1u << 20)
/*
 * Certificate evaluation (eval.c): a subkey or user ID revocation that is
 * not valid on the component it follows is tried against the other BOUND
 * components of its kind; these trials (#misplaced x #bound components)
 * are capped per evaluation. Beyond the cap the evaluation fails closed:
 * every key state is PGP_ERR_LIMIT, no revocation is ever skipped.
 */
#define PGP_MAX_REVOCATION_TRIALS (1u << 18)
/* Signatures in one message or detached signature file. */
#define PGP_MAX_MSG_SIGS         256
/* Certificates tried for one issuer key ID (look-alike floods). */
#define PGP_MAX_KEYID_CERTS      4096
/* MPI size in bits (RSA 16384 is the largest anyone uses). */
#define PGP_MAX_MPI_BITS         16384
/* Armored input: total decoded size and header line length. */
#define PGP_MAX_ARMOR_DECODED    (512u << 20)
#define PGP_MAX_ARMOR_LINE       (64u << 10)
/* Input file read cap in the CLI (non-mmap path). */
#define PGP_MAX_INPUT_FILE       ((size_t)4 << 30)
/* Policy file line length (RFC-less: our own format, pgp/policy.h). */
#define PGP_MAX_POLICY_LINE      255
/* Web-of-trust path depth (wotmate: --maxdepth 4). */
#define PGP_MAX_WOT_DEPTH        8

/* Error texts state these values ("more than 512 subpackets ... (PGP_MAX_SUBPACKETS)",
 * header.c, subpkt.c, sig.c, key.c, cert.c, message.c, verify.c, decompress.c,
 * armor.c, cleartext.c): a changed value must change its texts too. */
_Static_assert(PGP_MAX_PACKET_BODY == 1u << 20, "header.c says 1 MiB");
_Static_assert(PGP_MAX_DATA_BODY == 256u << 20, "header.c, cleartext.c say 256 MiB");
_Static_assert(PGP_MAX_DECOMPRESSED == 256u << 20, "decompress.c says 256 MiB");
_Static_assert(PGP_MAX_NESTING == 8, "message.c says 8");
_Static_assert(PGP_MAX_PARTIAL_CHUNKS == 65536, "header.c says 65536");
_Static_assert(PGP_MAX_SUBPACKETS == 512, "subpkt.c says 512");
_Static_assert(PGP_MAX_UIDS == 1024 && PGP_MAX_SUBKEYS == 1024, "cert.c says 1024");
_Static_assert(PGP_MAX_MSG_SIGS == 256, "message.c, verify.c say 256");
_Static_assert(PGP_MAX_MPI_BITS == 16384, "sig.c, key.c say 16384 bits");
_Static_assert(PGP_MAX_ARMOR_DECODED == 512u << 20, "armor.c, cleartext.c say 512 MiB");
_Static_assert(PGP_MAX_ARMOR_LINE == 64u << 10, "armor.c, cleartext.c say 64 KiB");

#endif
