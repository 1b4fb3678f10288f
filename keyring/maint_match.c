/*
 * maint_match.c - F:/X: file patterns and N: expressions of MAINTAINERS,
 * matched as scripts/get_maintainer.pl matches them (read_maintainer_file
 * converts the globs, file_match_pattern applies the trailing-slash and
 * slash-count rules, get_maintainers applies X: and N:). see maint.h
 */
#include <stdlib.h>
#include <string.h>
#include "maint_int.h"

/* Regular expression characters other than the three converted globs: a
 * pattern holding one goes to regcomp. */
static int
is_meta(uint8_t c)
{
	return c == '\\' || c == '^' || c == '$' || c == '|' || c == '(' || c == ')' ||
	    c == '[' || c == ']' || c == '{' || c == '}' || c == '+';
}

/* see maint.h */
pgp_err
maint_glob_to_regex(pgp_view v, char *out, size_t cap, size_t *len)
{
	size_t i, n = 0;

	for (i = 0; i < v.len; i++) {
		const char *rep;
		size_t rl;
		char one[2] = {(char)v.p[i], 0};
		/* read_maintainer_file: s@\.@\\\.@g; s/\*\/\.\*\/g; s/\?/\./g */
		rep = v.p[i] == '.' ? "\\." : v.p[i] == '*' ? ".*" : v.p[i] == '?' ? "." : one;
		rl = strlen(rep);
		if (rl == 0)
			return PGP_ERR_MALFORMED;    /* a NUL octet: never in a parsed file */
		if (cap - n <= rl)
			return PGP_ERR_LIMIT;
		memcpy(out + n, rep, rl);
		n += rl;
	}
	if (cap == 0)
		return PGP_ERR_LIMIT;
	out[n] = 0;
	*len = n;
	return PGP_OK;
}

static int
is_ws(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static pgp_err
put(char *out, size_t cap, size_t *n, const char *s)
{
	size_t l = strlen(s);
	if (cap - *n <= l)
		return PGP_ERR_LIMIT;
	memcpy(out + *n, s, l);
	*n += l;
	return PGP_OK;
}

/* see maint.h: Perl's /x (perlre "/x and /xx"), then Perl-only syntax to
 * POSIX ERE where the meaning is the same for a yes/no match. */
pgp_err
maint_perlx_to_ere(pgp_view v, char *out, size_t cap, size_t *len)
{
	size_t i = 0, n = 0, class_start = 0;
	int in_class = 0;
	pgp_err e = PGP_OK;

	if (cap == 0)
		return PGP_ERR_LIMIT;
	while (i < v.len && e == PGP_OK) {
		uint8_t c = v.p[i];
		char one[2] = {(char)c, 0};
		if (in_class) {
			if (c == ']' && i > class_start) {
				in_class = 0;
				e = put(out, cap, &n, "]");
				i++;
			} else if (c == '\\' && i + 1 < v.len) {
				uint8_t d = v.p[i + 1];
				char lit[2] = {(char)d, 0};
				if (d == 'd')
					e = put(out, cap, &n, "0-9");
				else if (d == 'w')
					e = put(out, cap, &n, "[:alnum:]_");
				else if (d == 's')
					e = put(out, cap, &n, "[:space:]");
				else if (d == ']' || d == '^' || d == '-' ||
				    (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z') ||
				    (d >= '0' && d <= '9'))
					return PGP_ERR_UNSUPPORTED;  /* no POSIX spelling here */
				else
					e = put(out, cap, &n, lit);   /* \. \\ \/ ...: the character */
				i += 2;
			} else {
				e = put(out, cap, &n, one);
				i++;
			}
			continue;
		}
		if (is_ws(c)) {
			i++;                            /* /x: unescaped whitespace is ignored */
		} else if (c == '#') {
			break;                          /* /x: a comment to the end */
		} else if (c == '\\' && i + 1 < v.len) {
			uint8_t d = v.p[i + 1];
			char esc[3] = {'\\', (char)d, 0};
			e = put(out, cap, &n, d == 'd' ? "[0-9]" : d == 'D' ? "[^0-9]" : esc);
			i += 2;
		} else if (c == '[') {
			e = put(out, cap, &n, "[");
			i++;
			if (i < v.len && v.p[i] == '^') {
				e = e == PGP_OK ? put(out, cap, &n, "^") : e;
				i++;
			}
			class_start = i;                /* a ']' here is a literal */
			in_class = 1;
		} else if (c == '(' && i + 2 < v.len && v.p[i + 1] == '?' && v.p[i + 2] == ':') {
			e = put(out, cap, &n, "(");     /* (?:...) groups without capturing */
			i += 3;
		} else if ((c == '*' || c == '+' || c == '?' || c == '}') && i + 1 < v.len &&
		    v.p[i + 1] == '?') {
			e = put(out, cap, &n, one);     /* lazy: the same yes/no answer */
			i += 2;
		} else {
			e = put(out, cap, &n, one);
			i++;
		}
	}
	if (e != PGP_OK)
		return e;
	if (in_class)
		return PGP_ERR_MALFORMED;
	out[n] = 0;
	*len = n;
	return PGP_OK;
}

static void
mark_bad(maint_file *m, size_t i, const char *why)
{
	m->ent[i].bad = 1;
	m->ent[i].reason = why;
	m->pat[i].kind = MAINT_PAT_NONE;
}

/*
 * 1 when regcomp can be given text without an exponential expansion and
 * regexec without back-references: the repetitions ('+' and "{m,n}") multiply
 * to at most MAINT_MAX_REGEX_DUP, and no atom carries more than two
 * quantifiers in a row (a quantifier and Perl's lazy or possessive mark;
 * Perl refuses more as "Nested quantifiers"). glibc's regcomp takes 11 s on
 * "^.*+++++" and does not finish on longer runs (fuzz_maint: an F: pattern
 * "*++++++" converted to "^.*++++++").
 */
static int
bounded(const char *t)
{
	size_t i = 0, product = 1;
	int in_class = 0, run = 0;

	while (t[i]) {
		char c = t[i];
		if (in_class) {
			/* POSIX brackets: ']' first is a literal; [:class:] holds no ']' before ':]' */
			if (c == '[' && t[i + 1] == ':') {
				const char *e = strstr(t + i + 2, ":]");
				if (e == NULL)
					return 0;
				i = (size_t)(e - t) + 2;
				continue;
			}
			if (c == ']')
				in_class = 0;
			i++;
			continue;
		}
		if (c == '*' || c == '+' || c == '?' || c == '{') {
			if (++run > 2)
				return 0;                     /* stacked quantifiers */
		} else
			run = 0;
		if (c == '\\') {
			if (t[i + 1] >= '1' && t[i + 1] <= '9')
				return 0;                     /* a back-reference */
			i += t[i + 1] ? 2 : 1;
			continue;
		}
		if (c == '[') {
			in_class = 1;
			i++;
			if (t[i] == '^')
				i++;
			if (t[i] == ']')
				i++;                          /* a literal ']' first */
			continue;
		}
		if (c == '+' || c == '{') {
			size_t factor = 2;
			if (c == '{') {
				size_t a = 0, b = 0, k = i + 1;
				int comma = 0;
				while (t[k] >= '0' && t[k] <= '9' && a <= MAINT_MAX_REGEX_DUP)
					a = a * 10 + (size_t)(t[k++] - '0');
				if (t[k] == ',') {
					comma = 1;
					k++;
					while (t[k] >= '0' && t[k] <= '9' && b <= MAINT_MAX_REGEX_DUP)
						b = b * 10 + (size_t)(t[k++] - '0');
				}
				factor = (comma && b ? b : a) + 1;
				if (t[k] == '}')
					i = k;                /* a quantifier after it stacks */
			}
			product *= factor;
			if (product > MAINT_MAX_REGEX_DUP)
				return 0;
		}
		i++;
	}
	return 1;
}

static pgp_err
compile(maint_file *m, size_t i, const char *text)
{
	regex_t *re;

	if (!bounded(text)) {
		mark_bad(m, i, "too many repetitions (MAINT_MAX_REGEX_DUP) or a back-reference");
		return PGP_OK;
	}
	if ((re = malloc(sizeof *re)) == NULL)
		return PGP_ERR_NOMEM;
	if (regcomp(re, text, REG_EXTENDED | REG_NOSUB) != 0) {
		free(re);
		mark_bad(m, i, "refused by regcomp");
		return PGP_OK;
	}
	m->pat[i].re = re;
	m->pat[i].kind = MAINT_PAT_REGEX;
	return PGP_OK;
}

/* see maint_int.h */
pgp_err
maint__prepare(maint_file *m, size_t i)
{
	maint_entry *en = &m->ent[i];
	maint_pat *pt = &m->pat[i];
	char *text;
	size_t k, len = 0;
	int meta = 0, glob = 0;
	pgp_err e;

	if ((text = malloc(MAINT_MAX_REGEX + 2)) == NULL)
		return PGP_ERR_NOMEM;
	if (en->type == 'N') {
		e = maint_perlx_to_ere(en->value, text, MAINT_MAX_REGEX + 1, &len);
		if (e == PGP_OK)
			e = compile(m, i, text);
		else
			mark_bad(m, i, e == PGP_ERR_UNSUPPORTED ?
			    "a Perl escape without a POSIX spelling in a bracket expression" :
			    "an unterminated bracket expression");
		free(text);
		return e == PGP_ERR_NOMEM ? e : PGP_OK;
	}
	for (k = 0; k < en->value.len; k++) {
		uint8_t c = en->value.p[k];
		if (c == '/')
			pt->slashes++;
		if (is_meta(c))
			meta = 1;
		if (c == '*' || c == '?' || c == '.')
			glob = 1;
	}
	pt->trailing_slash = en->value.len && en->value.p[en->value.len - 1] == '/';
	/* `-d $value` after the conversion: only a literal value can be a directory */
	pt->dir_candidate = !meta && !glob && !pt->trailing_slash && en->value.len > 0;
	if (!meta) {
		pt->kind = MAINT_PAT_GLOB;
		free(text);
		return PGP_OK;
	}
	/* "^" + the converted value, as `m@^$pattern@` */
	text[0] = '^';
	e = maint_glob_to_regex(en->value, text + 1, MAINT_MAX_REGEX + 1, &len);
	if (e == PGP_OK)
		e = compile(m, i, text);
	else
		mark_bad(m, i, "longer than MAINT_MAX_REGEX once converted");
	free(text);
	return e == PGP_ERR_NOMEM ? e : PGP_OK;
}

void
maint__release(maint_file *m, size_t i)
{
	if (m->pat[i].re) {
		regfree(m->pat[i].re);
		free(m->pat[i].re);
		m->pat[i].re = NULL;
	}
}

/*
 * 1 when the converted glob matches a prefix of s (`m@^...@`): '*' any run
 * and '?' any one character, neither across a line feed (Perl's '.'),
 * every other octet itself. Backtracking only to the last '*': linear in
 * practice, at most |pattern| x |s|.
 */
static int
glob_prefix(const uint8_t *pat, size_t plen, const uint8_t *s, size_t slen)
{
	size_t i = 0, j = 0, star = SIZE_MAX, mark = 0;

	for (;;) {
		if (j == plen)
			return 1;
		if (pat[j] == '*') {
			star = j++;
			mark = i;
			continue;
		}
		if (i < slen && ((pat[j] == '?' && s[i] != '\n') || pat[j] == s[i])) {
			i++;
			j++;
			continue;
		}
		if (star != SIZE_MAX && mark < slen && s[mark] != '\n') {
			i = ++mark;
			j = star + 1;
			continue;
		}
		return 0;
	}
}

/* strcmp order of s against prefix value + "/" (only the first
 * vlen + 1 octets of s count): <0, 0 (s starts with it), >0. */
static int
cmp_dir(const char *s, const uint8_t *v, size_t vlen)
{
	size_t i;

	for (i = 0; i < vlen; i++) {
		if (s[i] == 0)
			return -1;
		if ((uint8_t)s[i] != v[i])
			return (uint8_t)s[i] < v[i] ? -1 : 1;
	}
	if (s[vlen] == '/')
		return 0;
	return (uint8_t)s[vlen] < '/' ? -1 : 1;
}

/* A known path lies below value (binary search over the sorted set). */
static int
is_dir(const maint_paths *known, const uint8_t *v, size_t vlen)
{
	size_t lo = 0, hi;

	if (known == NULL)
		return 0;
	hi = known->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = cmp_dir(known->v[mid], v, vlen);
		if (c == 0)
			return 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

static uint32_t
count_slashes(const char *p, size_t n)
{
	uint32_t c = 0;
	size_t i;
	for (i = 0; i < n; i++)
		c += p[i] == '/';
	return c;
}

/* A path fit for regexec: NUL-terminated copy, bounded. */
static int
path_copy(char *dst, const char *p, size_t n)
{
	if (n > MAINT_MAX_PATH || memchr(p, 0, n) != NULL)
		return 0;
	memcpy(dst, p, n);
	dst[n] = 0;
	return 1;
}

/* see maint.h */
int
maint_pattern_match(const maint_file *m, size_t i, const char *path, size_t plen,
    const maint_paths *known)
{
	const maint_entry *en;
	const maint_pat *pt;
	int prefix, dir;

	if (i >= m->nent)
		return 0;
	en = &m->ent[i];
	pt = &m->pat[i];
	if ((en->type != 'F' && en->type != 'X') || en->bad || plen > MAINT_MAX_PATH)
		return 0;
	dir = pt->trailing_slash;
	if (pt->dir_candidate && is_dir(known, en->value.p, en->value.len)) {
		/* get_maintainer.pl: s@([^/])$@$1/@ for a directory */
		if (plen <= en->value.len || memcmp(path, en->value.p, en->value.len) != 0)
			return 0;
		return path[en->value.len] == '/';
	}
	if (pt->kind == MAINT_PAT_GLOB) {
		prefix = glob_prefix(en->value.p, en->value.len, (const uint8_t *)path, plen);
	} else {
		char buf[MAINT_MAX_PATH + 1];
		if (!path_copy(buf, path, plen))
			return 0;
		prefix = regexec(pt->re, buf, 0, NULL, 0) == 0;
	}
	if (!prefix)
		return 0;
	/* file_match_pattern: without a trailing '/', as many '/' as the pattern */
	return dir || count_slashes(path, plen) == pt->slashes;
}

/* see maint.h */
int
maint_regex_match(const maint_file *m, size_t i, const char *path, size_t plen)
{
	char buf[MAINT_MAX_PATH + 1];

	if (i >= m->nent || m->ent[i].type != 'N' || m->ent[i].bad ||
	    m->pat[i].kind != MAINT_PAT_REGEX || !path_copy(buf, path, plen))
		return 0;
	return regexec(m->pat[i].re, buf, 0, NULL, 0) == 0;
}

/* see maint.h: get_maintainers, X: first, then F: and N: */
int
maint_covers(const maint_file *m, size_t s, const char *path, size_t plen,
    const maint_paths *known)
{
	uint32_t k, first, n;

	if (s >= m->nsec)
		return 0;
	first = m->sec[s].first;
	n = m->sec[s].n;
	for (k = 0; k < n; k++)
		if (m->ent[first + k].type == 'X' && maint_pattern_match(m, first + k, path, plen, known))
			return 0;
	for (k = 0; k < n; k++) {
		char t = m->ent[first + k].type;
		if ((t == 'F' && maint_pattern_match(m, first + k, path, plen, known)) ||
		    (t == 'N' && maint_regex_match(m, first + k, path, plen)))
			return 1;
	}
	return 0;
}
