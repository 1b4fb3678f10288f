/*
 * gpg.h - the gpg drop-in (`wotkit gpg ARGS`, or the binary run as
 * `wotkit-gpg`): the command lines git, b4 and patatt run, answered the way
 * GnuPG 2.2.40 answers them (status lines, human lines, exit codes), from
 * wotkit's keyrings and its GnuPG trust model. docs/gpg.md is the contract.
 *
 *   gpg_opts.c    the option table and argv parsing (pure)
 *   gpg_fmt.c     gpg's escapes and number formats (pure)
 *   gpg.c         the entry point: keyring selection, dispatch, refusals
 *   gpg_out.c     status and human lines, in order, to their descriptors
 *   gpg_trust.c   validity of a certificate (root + ownertrust file)
 *   gpg_verify.c  --verify: per-signature status sequences
 *   gpg_keys.c    --list-keys / --fingerprint --with-colons
 *   gpg_import.c  --import into a raw keyring file
 *   gpg_vcache.c  the validity cache (trust computed once per keyring state)
 */
#ifndef WOTKIT_GPG_H
#define WOTKIT_GPG_H

#include <stddef.h>
#include <stdint.h>
#include "certs.h"
#include "pgp/pgp.h"

/* The version gpg's clients may parse (gpg --version's first line). */
#define GPG_COMPAT_VERSION "2.2.40"
/* At most this many --keyring options and positional arguments. */
#define GPG_MAX_KEYRINGS 16
#define GPG_MAX_ARGS 64
/* Longest path built from --homedir and a relative --keyring. */
#define GPG_MAX_PATH 4096

/* ---- options (gpg_opts.c, pure) ---- */

typedef enum gpg_command {
	GPG_CMD_NONE = 0,
	GPG_CMD_VERIFY,
	GPG_CMD_IMPORT,
	GPG_CMD_LIST_KEYS,
	GPG_CMD_FINGERPRINT,
	GPG_CMD_VERSION,
	GPG_CMD_HELP,
	GPG_CMD_REFUSED      /* signing, encryption, decryption, key generation ... */
} gpg_command;

typedef struct gpg_opts {
	gpg_command cmd;
	const char *refused;           /* the option that asked for a refused command */
	int conflict;                  /* two different commands were given */
	const char *homedir;
	const char *keyrings[GPG_MAX_KEYRINGS];
	size_t nkeyrings;
	int too_many;                  /* more keyrings or arguments than the bounds */
	int no_default_keyring;
	int status_fd;                 /* -1: none */
	const char *output;            /* --output / -o, or NULL */
	int with_colons;
	int allow_weak_digest;         /* --allow-weak-digest-algos: SHA-1 data signatures */
	const char *faked_time;        /* --faked-system-time value, or NULL */
	unsigned marginals_needed, completes_needed, max_cert_depth; /* 0: default */
	const char *bad_number;        /* an option whose number did not parse */
	const char *missing_value;     /* an option given without its value */
	const char *args[GPG_MAX_ARGS];
	size_t nargs;
} gpg_opts;

/* How an option of the table is handled. */
typedef enum gpg_opt_kind {
	GPG_OPT_FLAG = 0,     /* no value (known and ignored, or a setting) */
	GPG_OPT_VALUE,        /* takes a value (used, or known and ignored) */
	GPG_OPT_COMMAND       /* selects a command */
} gpg_opt_kind;

typedef struct gpg_opt_def {
	const char *name;     /* long name without "--" */
	char short_name;      /* 0: none */
	uint8_t kind;         /* gpg_opt_kind */
	uint8_t cmd;          /* gpg_command, for GPG_OPT_COMMAND */
} gpg_opt_def;

/* The option named `name` (no leading dashes, no "=value"; n octets), or
 * NULL when the table does not know it. */
const gpg_opt_def *gpg_opt_find(const char *name, size_t n);
/* The option with this short letter, or NULL. */
const gpg_opt_def *gpg_opt_find_short(char c);
/* The whole table (for docs and tests). */
const gpg_opt_def *gpg_opt_table(size_t *n);
/*
 * Parse argv[1..argc) as gpg does: "--name=value" and "--name value",
 * clusters of short options ("-bsau KEY": the last letter taking a value
 * takes the next argument), "--" ending the options. An option the table
 * does not know is ignored and takes no value. Never prints; problems are
 * left in the fields (conflict, missing_value, bad_number, too_many).
 */
void gpg_opts_parse(gpg_opts *o, int argc, char **argv);

/* ---- formats (gpg_fmt.c, pure) ---- */

/* Status-line text (gpg's write_status_text_and_buffer): octets below 0x20,
 * 0x7f and '%' as %XX (upper-case hex), everything else as is. Writes at
 * most n-1 octets and a NUL into out; returns the length it needed. */
size_t gpg_esc_status(char *out, size_t n, const uint8_t *s, size_t len);
/* IMPORTED's user ID: gpg writes it raw; only LF, CR and NUL are written
 * as %XX here, so a user ID cannot start a status line of its own. */
size_t gpg_esc_imported(char *out, size_t n, const uint8_t *s, size_t len);
/* A --with-colons field (gpg's es_write_sanitized with ":" delimiter):
 * octets below 0x20, 0x7f, ':' and '\' as \xNN (lower-case hex). */
size_t gpg_esc_colon(char *out, size_t n, const uint8_t *s, size_t len);
/* A user ID in a human line: octets below 0x20 and 0x7f as \xNN. */
size_t gpg_esc_human(char *out, size_t n, const uint8_t *s, size_t len);
/* "Thu Dec  3 20:08:59 2026 UTC": gpg's asctimestamp in the C locale, in
 * local time (TZ) with the zone's abbreviation. */
void gpg_fmt_asctime(char *out, size_t n, int64_t t);
/* "2026-12-03": gpg's strtimestamp (UTC). */
void gpg_fmt_date(char *out, size_t n, int64_t t);
/* "5421 CB36 FFA2 A121 DD42  7FF3 2F4C 9AE1 0E3D 225D" (v4: two spaces in
 * the middle) or the v5/v6 grouping gpg uses. */
void gpg_fmt_fpr_human(char *out, size_t n, const pgp_fpr *f);
/* Upper-case hex of a fingerprint. */
void gpg_fmt_fpr(char *out, size_t n, const pgp_fpr *f);
/* The 16-hex-digit key ID of a key with fingerprint f (v4: the low 64
 * bits; v5/v6: the high 64 bits). */
void gpg_fmt_keyid(char out[17], const pgp_fpr *f);
/*
 * gpg's SIG_ID value (g10/sig-check.c): SHA-1 over the public-key
 * algorithm, the hash algorithm, the 4-octet creation time and the
 * signature's MPIs in OpenPGP format (bit count normalised, as libgcrypt
 * prints them), in base64 without padding (27 characters). sig is a parsed
 * signature (pgp_sig). 0, or -1 when it has no MPIs (v6 native signatures).
 */
struct pgp_sig;
int gpg_sig_id(char out[32], const struct pgp_sig *sig);
/* "EDDSA", "RSA", ... as gpg's "using ... key" line names the algorithm. */
const char *gpg_algo_upper(int pk_algo);
/* gpg's curve names of --with-colons field 17 ("ed25519", "nistp256", ...);
 * "" when the key has no curve. */
const char *gpg_curve_colon(pgp_curve curve);
/* Parse --faked-system-time: "EPOCH", "YYYYMMDDTHHMMSS", each with an
 * optional trailing '!'. 0, or -1. */
int gpg_parse_faked_time(const char *s, int64_t *out);

/* ---- the run (gpg.c, gpg_out.c) ---- */

typedef struct gpg_run {
	gpg_opts o;
	int64_t now;
	pgp_policy pol;
	const char *paths[GPG_MAX_KEYRINGS];  /* resolved keyring files */
	char pathbuf[GPG_MAX_KEYRINGS][GPG_MAX_PATH];
	size_t npaths;
	int status_fd;       /* -1: none */
} gpg_run;

/* "[GNUPG:] " + the formatted text + "\n" to the status descriptor. */
void gpg_status(gpg_run *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "gpg: " + the formatted text + "\n" on stderr (one write). */
void gpg_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The formatted text as is on stderr (one write). */
void gpg_raw(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- trust (gpg_trust.c) ---- */

typedef struct gpg_trust gpg_trust;
/* Lazy: nothing is loaded until gpg_trust_validity is first asked. */
gpg_trust *gpg_trust_new(gpg_run *r);
void gpg_trust_free(gpg_trust *t);
/*
 * Validity (keyring/trust.h wot_validity) of the certificate with primary
 * fingerprint fpr, and of its user ID whose octets are uid (NULL: not
 * asked): from a wotkit keyring with its recorded root (ultimate) and the
 * ownertrust file KEYRING.trust; a raw keyring has no root, so every key is
 * unknown (WOT_V_UNKNOWN), as in a fresh GnuPG home.
 */
int gpg_trust_validity(gpg_trust *t, const pgp_fpr *fpr, const pgp_view *uid, int *key_validity,
    int *uid_validity);
/* Ownertrust letter of gpg's colon listings for fpr ('-' when unset). */
char gpg_trust_ownertrust(gpg_trust *t, const pgp_fpr *fpr);
/* "ultimate", "full", "marginal", "undefined", "unknown", "expired", "revoked". */
const char *gpg_validity_word(int v);

/* ---- the validity cache (gpg_vcache.c) ---- */

/* Longest (seconds) cached validities are used after or before the time
 * they were computed at. */
#define GPG_VCACHE_SPAN 3600

/* What the cached values depend on besides the reference time. */
typedef struct gpg_vstamp {
	uint64_t kr_dev, kr_ino, kr_size;
	int64_t kr_mtime;                 /* nanoseconds */
	uint64_t tf_dev, tf_ino, tf_size; /* tf_size: size + 1, 0 without a trust file */
	int64_t tf_mtime;
	uint64_t params;                  /* trust parameters, weak digests allowed */
} gpg_vstamp;

typedef struct gpg_ventry {
	pgp_fpr fpr;                      /* primary key */
	uint8_t key_validity;             /* wot_validity */
	char ownertrust;                  /* colon listing letter */
	uint32_t nuids;
	struct {
		uint8_t hash[8];          /* gpg_vcache_uid_hash */
		uint8_t validity;
	} *uids;
} gpg_ventry;

typedef struct gpg_vcache {
	gpg_ventry *e;
	size_t n;
} gpg_vcache;

/* 0, or -1 when the keyring (or an existing trust file) cannot be stat'ed. */
int gpg_vcache_stamp(gpg_vstamp *s, const gpg_run *r, const char *keyring, const char *trustfile);
/* The cache file of a keyring; -1 when there is none (no home, or
 * WOTKIT_GPG_NO_CACHE set). */
int gpg_vcache_path(char *out, size_t n, const char *keyring);
/* 1 and c filled when path holds values for stamp s valid at now; else 0. */
int gpg_vcache_load(gpg_vcache *c, const char *path, const gpg_vstamp *s, int64_t now);
/* Write the values (valid for reference times in [lo, hi)); failures are
 * ignored. */
void gpg_vcache_store(const char *path, const gpg_vstamp *s, int64_t lo, int64_t hi,
    const gpg_ventry *e, size_t n);
const gpg_ventry *gpg_vcache_find(const gpg_vcache *c, const pgp_fpr *fpr);
void gpg_vcache_release(gpg_vcache *c);
void gpg_vcache_uid_hash(uint8_t out[8], const pgp_view *uid);

/* ---- certificates (gpg_keys.c) ---- */

struct pgp_certeval;
/*
 * GnuPG's primary user ID (g10/getkey.c merge_selfsigs_main): among the
 * user IDs validly bound and neither revoked nor expired (ev), those whose
 * binding carries the primary flag if any; of them the newest binding,
 * ties broken by the longer user ID, then the greater octets
 * (cmp_user_ids). Index into c->uids, or -1.
 */
int gpg_primary_uid(const pgp_cert *c, const struct pgp_certeval *ev);

/* ---- commands ---- */

int gpg_cmd_verify(gpg_run *r);
int gpg_cmd_list(gpg_run *r, int fingerprint);
int gpg_cmd_import(gpg_run *r);

#endif
