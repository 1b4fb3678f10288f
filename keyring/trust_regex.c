/*
 * trust_regex.c - the regular expressions of trust signatures (RFC 9580
 * §5.2.3.22), matched the way GnuPG 2.2 matches them, without regcomp.
 *
 * GnuPG (g10/trustdb.c sanitize_regexp) accepts two shapes and escapes
 * every other operator before handing the text to POSIX regcomp
 * (REG_EXTENDED | REG_ICASE):
 *
 *   "<[^>]+[@.]" X ">$"   (what `gpg --tsign` writes for a domain; at
 *                          least 12 octets)
 *   X                     (PGP's command line: "example.com")
 *
 * where in X only '.' and backslash escapes keep a meaning, so X is a
 * fixed-length sequence of atoms, each one octet: a literal (compared
 * ignoring ASCII case) or '.' (any octet). X alone is searched anywhere in
 * the user ID; the bracketed form matches when the user ID ends with
 * '<', one or more octets other than '>', '@' or '.', X, then '>'.
 *
 * Escapes in X: a backslash before a character other than a letter or a
 * digit makes it literal ("\." is a dot); before a letter that is no GNU
 * operator it is the letter (glibc's reading). The GNU operators \w \W \s
 * \S \b \B \< \> \` \' and back-references \0-\9 (an error without a group)
 * are refused, as is a trailing lone backslash (REG_EESCAPE): such an
 * expression matches nothing, so an introducer restricted by it introduces
 * no one, never more than GnuPG would let it.
 *
 * Not regcomp: the expression comes from a certification anyone can make,
 * and this keeps the work linear in the user ID and bounded by named
 * limits (trust.h), with no allocation. '.' is one octet where glibc in a
 * UTF-8 locale takes one character; case folding is ASCII only.
 */
#include <string.h>
#include "trust.h"

#define PREFIX "<[^>]+[@.]"
#define PREFIX_LEN 10u
#define WORDS ((WOT_TRUST_MAX_REGEX_ATOMS + 63u) / 64u)

typedef struct rx_atoms {
	uint8_t c[WOT_TRUST_MAX_REGEX_ATOMS];   /* folded literal */
	uint8_t any[WOT_TRUST_MAX_REGEX_ATOMS]; /* '.' */
	size_t n;
} rx_atoms;

static uint8_t
fold(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + ('a' - 'A')) : c;
}

static size_t
cstr_len(const uint8_t *p, size_t n)
{
	const uint8_t *z = n ? memchr(p, 0, n) : NULL;
	return z ? (size_t)(z - p) : n;
}

/* X (after the shape is taken off) into atoms; 0 when refused. */
static int
rx_parse(const uint8_t *x, size_t n, rx_atoms *a)
{
	size_t i;
	a->n = 0;
	for (i = 0; i < n; i++) {
		uint8_t c = x[i];
		int any = 0;
		if (c == '\\') {
			if (++i == n)
				return 0;          /* trailing backslash */
			c = x[i];
			if ((c >= '0' && c <= '9') || strchr("wWsSbB<>`'", c) != NULL)
				return 0;          /* GNU operator or back-reference */
		} else if (c == '.') {
			any = 1;
		}
		if (a->n == WOT_TRUST_MAX_REGEX_ATOMS)
			return 0;
		a->c[a->n] = fold(c);
		a->any[a->n] = (uint8_t)any;
		a->n++;
	}
	return 1;
}

static int
atom_at(const rx_atoms *a, size_t k, uint8_t c)
{
	return a->any[k] || a->c[k] == fold(c);
}

/* X occurs somewhere in s: shift-and over WORDS 64-bit words, with a
 * table of the atoms each octet value matches. */
static int
rx_search(const rx_atoms *a, const uint8_t *s, size_t n)
{
	uint64_t table[256][WORDS], any[WORDS], state[WORDS];
	size_t i, k, w, nw, last;

	if (a->n == 0)
		return 1;
	if (a->n > n)
		return 0;
	nw = (a->n + 63u) / 64u;
	last = a->n - 1;
	memset(table, 0, sizeof table);
	memset(any, 0, sizeof any);
	memset(state, 0, sizeof state);
	for (k = 0; k < a->n; k++) {
		uint64_t bit = (uint64_t)1 << (k % 64u);
		uint8_t c = a->c[k];
		if (a->any[k]) {
			any[k / 64u] |= bit;
			continue;
		}
		table[c][k / 64u] |= bit;
		if (c >= 'a' && c <= 'z')
			table[c - ('a' - 'A')][k / 64u] |= bit;
	}
	for (i = 0; i < n; i++) {
		uint64_t carry = 1;   /* a match may start at every position */
		for (w = 0; w < nw; w++) {
			uint64_t next_carry = state[w] >> 63;
			state[w] = ((state[w] << 1) | carry) & (table[s[i]][w] | any[w]);
			carry = next_carry;
		}
		if (state[last / 64u] & ((uint64_t)1 << (last % 64u)))
			return 1;
	}
	return 0;
}

/* X ending at s[k] (exclusive). */
static int
rx_at(const rx_atoms *a, const uint8_t *s, size_t k)
{
	size_t j;
	for (j = 0; j < a->n; j++)
		if (!atom_at(a, j, s[k - a->n + j]))
			return 0;
	return 1;
}

/* "<[^>]+[@.]" X ">$": the user ID ends with '>' right after X, the octet
 * before X is '@' or '.', and before that, with no '>' in between, a '<'
 * followed by at least one octet. */
static int
rx_bracketed(const rx_atoms *a, const uint8_t *s, size_t n)
{
	size_t end, sep, i;

	if (n < a->n + 4 || s[n - 1] != '>')
		return 0;
	end = n - 1;                   /* X is s[end - a->n .. end) */
	if (!rx_at(a, s, end))
		return 0;
	sep = end - a->n - 1;
	if (s[sep] != '@' && s[sep] != '.')
		return 0;
	/* [^>]+ is s[i+1 .. sep) for some '<' at i <= sep - 2 */
	for (i = sep; i-- > 0;) {
		if (s[i] == '>')
			return 0;
		if (s[i] == '<' && i + 2 <= sep)
			return 1;
	}
	return 0;
}

int
wot_trust_regex_match(const uint8_t *re, size_t relen, const uint8_t *s, size_t slen)
{
	rx_atoms a;
	size_t rl = re ? cstr_len(re, relen) : 0;
	size_t sl = s ? cstr_len(s, slen) : 0;

	if (rl > WOT_TRUST_MAX_REGEX)
		return 0;
	if (rl >= PREFIX_LEN + 2 && memcmp(re, PREFIX, PREFIX_LEN) == 0 &&
	    re[rl - 2] == '>' && re[rl - 1] == '$') {
		if (!rx_parse(re + PREFIX_LEN, rl - PREFIX_LEN - 2, &a))
			return 0;
		return rx_bracketed(&a, s, sl);
	}
	if (!rx_parse(re, rl, &a))
		return 0;
	return rx_search(&a, s, sl);
}
