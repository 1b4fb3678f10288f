/*
 * maint.h - the Linux kernel's MAINTAINERS file (docs/maintainers.md):
 * sections of typed entries, the e-mail addresses of their M:/R: entries,
 * and which sections cover a file, read the way scripts/get_maintainer.pl
 * reads them (read_maintainer_file, get_maintainers, file_match_pattern).
 *
 * The format, as get_maintainer.pl reads it:
 *  - a type line is a line starting with one upper-case letter and ':'
 *    (`^([A-Z]):\s*(.*)`): the type is the letter, the value the rest after
 *    the colon and any whitespace (trailing whitespace is kept, as Perl's
 *    `(.*)` keeps it; only the line feed goes);
 *  - blank lines and lines whose first non-blank character is '#' are
 *    ignored (they neither open nor close a section);
 *  - every other line is a title line; a section is the last title line
 *    before a run of type lines and that run. Title lines without type
 *    lines (the preamble, whose example lines are indented) make no
 *    section. Type lines before any title line form a section with an empty
 *    title.
 *
 * File patterns (F: and X:), as read_maintainer_file converts them: '.'
 * becomes "\." (a literal dot), '*' becomes ".*" (any run of characters,
 * '/' included), '?' becomes '.' (any one character); the value is then a
 * Perl regular expression matched at the start of the path
 * (file_match_pattern: `$file =~ m@^$pattern@`). A pattern ending in '/'
 * matches every path below it. A pattern without a trailing '/' matches
 * only when the path holds as many '/' as the converted pattern (a file of
 * that directory level, not deeper).
 *
 * get_maintainer.pl appends the '/' to a pattern that names a directory of
 * the checkout it runs in (`-d $value`, tested after the conversion, so a
 * value with '.', '*' or '?' is never a directory). Without a checkout the
 * decision is made on a set of known paths (maint_paths: pull-check passes
 * the changed files): a converted pattern without glob or regular
 * expression characters and without a trailing '/' is a directory when a
 * known path lies below it ("PATTERN/..."). docs/maintainers.md says where
 * that differs from a checkout.
 *
 * Patterns made only of literal characters and the three converted globs
 * are matched here without regcomp; a pattern holding another regular
 * expression character (\ ^ $ | ( ) [ ] { } +) is compiled with POSIX
 * regcomp(REG_EXTENDED) after the same conversion. N: values are Perl
 * extended regular expressions (`$file =~ m/$value/x`, searched anywhere in
 * the path): unescaped whitespace and '#' comments outside bracket
 * expressions are removed (Perl's /x), "(?:" becomes "(", lazy quantifiers
 * become greedy (the same yes/no answer), \d \D become [0-9] [^0-9]; the
 * rest goes to regcomp(REG_EXTENDED) as it is (glibc also knows \w \W \s \S
 * \b \B). An expression regcomp refuses marks its entry bad (it matches
 * nothing); maint_entry.bad says so, as it does for an expression over
 * MAINT_MAX_REGEX_DUP or with a back-reference.
 *
 * X: excludes: a section none of whose X: patterns matches a path covers it
 * when one of its F: patterns or N: expressions matches it
 * (get_maintainers).
 *
 * Nothing here prints. A maint_file borrows the input: keep it alive and
 * unchanged until maint_free.
 */
#ifndef KR_MAINT_H
#define KR_MAINT_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

/* ---- named limits ---- */

/* Octets of a MAINTAINERS file (the kernel's is about 1 MiB). */
#define MAINT_MAX_FILE      ((size_t)64 << 20)
/* Octets of one line (line feed excluded). */
#define MAINT_MAX_LINE      4096u
/* Sections, and type lines over all sections. */
#define MAINT_MAX_SECTIONS  (1u << 16)
#define MAINT_MAX_ENTRIES   (1u << 20)
/* Octets of an e-mail address (RFC 5321 §4.5.3.1.3 path length, less <>). */
#define MAINT_MAX_EMAIL     254u
/* Octets of a path matched (as git's PATH_MAX-sized paths). */
#define MAINT_MAX_PATH      4096u
/* Octets of a converted pattern or expression handed to regcomp. */
#define MAINT_MAX_REGEX     (2u * MAINT_MAX_LINE + 2u)
/* Copies glibc's regcomp may make of an expression: it expands "x+" to
 * "xx*" and "x{m,n}" to n copies, nested ones multiplying, so "x++++..."
 * or "((x+)+)+..." needs memory exponential in its length. An expression
 * whose product of repetition factors ('+' 2, "{m,n}" n + 1, "{m,}" m + 1)
 * exceeds this is refused (bad). Back-references (\1-\9), which make
 * matching exponential, are refused too. */
#define MAINT_MAX_REGEX_DUP 64u

typedef struct maint_entry {
	char type;            /* 'A'..'Z': M maintainer, R reviewer, L list, F file, X excluded,
	                         N name regex, K keyword, S status, ... */
	pgp_view value;       /* after "T:" and leading whitespace (a view into the input) */
	pgp_view email;       /* M:/R:/L: the address (maint_email), len 0 when none */
	uint32_t line;        /* 1-based line number */
	uint8_t bad;          /* F:/X:/N: refused by regcomp or a limit: matches nothing */
	const char *reason;   /* why bad (static), or NULL */
} maint_entry;

typedef struct maint_section {
	pgp_view title;       /* the title line (trailing whitespace removed); empty when none */
	uint32_t line;        /* the title's line, or the first entry's when there is no title */
	uint32_t first, n;    /* entries [first, first + n) */
} maint_section;

typedef struct maint_file maint_file;

/*
 * Parse p[0..len). Errors: PGP_ERR_LIMIT (a MAINT_MAX_* limit; diag names
 * it and the offset), PGP_ERR_MALFORMED (a NUL octet: not a text file),
 * PGP_ERR_NOMEM. Bad patterns are no error (see maint_entry.bad).
 */
pgp_err maint_parse(maint_file **out, const uint8_t *p, size_t len, pgp_diag *diag);
void maint_free(maint_file *m);

size_t maint_nsections(const maint_file *m);
const maint_section *maint_section_at(const maint_file *m, size_t i);
size_t maint_nentries(const maint_file *m);
const maint_entry *maint_entry_at(const maint_file *m, size_t i);

/*
 * The e-mail address of an M:/R:/L: value: the octets inside the last
 * "<...>" pair ("Name <addr>", "\"Last, First\" <addr>", "Name <addr>
 * (comment)"), else the first whitespace-separated word holding an '@'
 * ("addr", "addr (Name)"), with surrounding '(' ')' ',' ';' '"' removed.
 * The address must have one '@' with octets on both sides, no whitespace,
 * control octet, '<', '>', '(' ')' ',' ';' or '"', and at most
 * MAINT_MAX_EMAIL octets. 1 with *out a view into value, or 0 (out empty).
 */
int maint_email(pgp_view value, pgp_view *out);

/* Known paths deciding which patterns name directories: sorted by strcmp,
 * no duplicates needed. n == 0: no pattern names a directory unless it
 * ends in '/'. */
typedef struct maint_paths {
	const char *const *v;
	size_t n;
} maint_paths;

/* 1 when the F: or X: entry i matches path[0..plen) (file_match_pattern
 * with the directory decision above); 0 otherwise, also for a bad entry,
 * an entry of another type, or a path longer than MAINT_MAX_PATH. */
int maint_pattern_match(const maint_file *m, size_t i, const char *path, size_t plen,
    const maint_paths *known);
/* 1 when the N: entry i matches path (searched anywhere, Perl /x). */
int maint_regex_match(const maint_file *m, size_t i, const char *path, size_t plen);
/* 1 when section s covers path: no X: matches, and an F: or N: does. */
int maint_covers(const maint_file *m, size_t s, const char *path, size_t plen,
    const maint_paths *known);

/* 1 when the M: (role 'M') or R: entries of section s hold addr (ASCII
 * case ignored, pgp_email_cmp). */
int maint_has_email(const maint_file *m, size_t s, char role, const uint8_t *addr, size_t alen);

/* Conversion helpers, exposed for tests: the regular expression text of an
 * F:/X: value as get_maintainer.pl builds it ('.' -> "\.", '*' -> ".*",
 * '?' -> '.'), and of an N: value after the /x and Perl-to-POSIX mapping
 * above, NUL-terminated into out[0..cap). PGP_ERR_LIMIT when it does not
 * fit. */
pgp_err maint_glob_to_regex(pgp_view value, char *out, size_t cap, size_t *len);
pgp_err maint_perlx_to_ere(pgp_view value, char *out, size_t cap, size_t *len);

#endif
