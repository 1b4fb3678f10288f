/*
 * cli.h - shared helpers of the wotkit front ends: input files, errors.
 * cmd/ is the only place that prints, exits or touches the filesystem policy.
 */
#ifndef WOTKIT_CLI_H
#define WOTKIT_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pgp/pgp.h"

/* Exit codes of wotkit (sopv has its own, see cmd/sopv.c). */
enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

/* A whole input file: mmap-ed when possible, else read (stdin, pipes). */
typedef struct cli_file {
	const uint8_t *p;
	size_t len;
	void *map;      /* mmap base or NULL */
	uint8_t *heap;  /* read buffer or NULL */
	const char *name;
} cli_file;

/* "-" is stdin. Returns 0, or -1 after printing "wotkit: NAME: reason". */
int cli_file_open(cli_file *f, const char *path);
void cli_file_close(cli_file *f);

/* mkdir -p with mode (before the umask): every directory of path, the last
 * component included only when with_last (else path names a file). -1
 * (errno set) when a directory could not be made; 0 otherwise. */
int cli_mkdirs(const char *path, unsigned mode, int with_last);

/* 1 if needle occurs in p[0..n), ASCII case ignored (an empty needle
 * always does). */
int cli_has_icase(const uint8_t *p, size_t n, const char *needle);

/* qsort comparator for an array of C strings. */
int cli_strcmp_ptr(const void *a, const void *b);

/* The entries of a directory (no "." or ".."), sorted by strcmp. */
typedef struct cli_names {
	char **v;
	size_t n;
} cli_names;
/* 0; 1 if dir is absent (ENOENT); -1 on other errors (errno set). */
int cli_list_dir(const char *dir, cli_names *out);
void cli_names_free(cli_names *ns);

/* Print "PROG: FILE: message" on stderr (no "FILE: " when file is NULL),
 * the file name and the formatted message escaped with out_esc_text(). */
void cli_msg(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Print "wotkit: FILE: offset N: what (error text)", escaped as cli_msg(). */
void cli_report(const char *file, pgp_err e, const pgp_diag *d);

/* Parse a time: "now", or pgp_time_parse() with PGP_TIME_UNIX (Unix
 * seconds, "@N", ISO 8601 YYYY-MM-DD[THH:MM[:SS]][Z|+HH:MM]). Returns 0 on
 * success. The one time parser of the front ends (sopv DATE and policy
 * files use pgp_time_parse() too). */
int cli_parse_time(const char *s, int64_t now, int64_t *out);

/* A window such as --within's: "N" (days), "Nd", "Nw" (7 days), "Nm" (30
 * days, as gpg's expiry syntax), "Ny" (365 days), into seconds; at most
 * CLI_MAX_DURATION. 0, or -1. The one duration parser of the front ends. */
#define CLI_MAX_DURATION ((int64_t)100 * 365 * 86400)
int cli_parse_duration(const char *s, int64_t *out);

/* "--name=VALUE" or "--name VALUE" at argv[*i]. Returns 0 if argv[*i] is
 * not this option; 1 if it is, with *val set (NULL when the value is missing;
 * *i is advanced past a separate value). */
int cli_opt_value(int argc, char **argv, int *i, const char *name, const char **val);

struct pgp_verifier;
/* Stream a file ("-": stdin) through pgp_verifier_update in reads of
 * CLI_FEED_CHUNK octets (read, never mapped: no SIGBUS if it shrinks).
 * Returns 0, or -1 after printing "PROG: NAME: reason" (also when a regular
 * file ends before the size it had when opened: truncated while read). */
#ifndef CLI_FEED_CHUNK
#define CLI_FEED_CHUNK (1u << 18)   /* 256 KiB: stays in L2 (measured, docs/security.md) */
#endif
int cli_feed_verifier(struct pgp_verifier *v, const char *path);

extern const char *cli_prog;

/* Read all of descriptor fd (not closed) into f, named `name` in messages.
 * Returns 0, or -1 with errno set; prints nothing. */
int cli_file_read_fd(cli_file *f, int fd, const char *name);

#endif
