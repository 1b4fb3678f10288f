/*
 * policy.c - the dated crypto policy tables. see policy.h
 *
 * Cutoffs follow Sequoia's StandardPolicy (openpgp/src/policy.rs):
 *   MD5:        never accepted here (collisions since 2004, Flame 2012)
 *   SHA-1:      data signatures and third-party certifications rejected
 *               from 2013-02-01; self-signatures and bindings from 2023-02-01
 *   RIPEMD-160: rejected from 2013-02-01
 *   SHA-2, SHA-3: accepted
 *   RSA, DSA, ElGamal below 2048 bits: rejected from 2014-02-01
 */
#include <ctype.h>
#include <stdio.h>
#include <strings.h>
#include <string.h>
#include "policy.h"
#include "hash.h"

#define Y2013M2 1359676800 /* 2013-02-01T00:00:00Z */
#define Y2014M2 1391212800 /* 2014-02-01T00:00:00Z */
#define Y2023M2 1675209600 /* 2023-02-01T00:00:00Z */

static const pgp_hash_rule standard_hashes[] = {
	{PGP_HASH_MD5, {PGP_ALWAYS, PGP_ALWAYS},
	    {"policy: MD5 is never accepted", "policy: MD5 is never accepted"}, {"", ""}},
	{PGP_HASH_SHA1, {Y2013M2, Y2023M2},
	    {"policy: SHA-1 data signatures and third-party certifications are rejected after 2013-02-01",
	     "policy: SHA-1 self-signatures are rejected after 2023-02-01"}, {"", ""}},
	{PGP_HASH_RIPEMD160, {Y2013M2, Y2013M2},
	    {"policy: RIPEMD-160 is rejected after 2013-02-01",
	     "policy: RIPEMD-160 is rejected after 2013-02-01"}, {"", ""}},
	{PGP_HASH_SHA224, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
	{PGP_HASH_SHA256, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
	{PGP_HASH_SHA384, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
	{PGP_HASH_SHA512, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
	{PGP_HASH_SHA3_256, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
	{PGP_HASH_SHA3_512, {PGP_NEVER, PGP_NEVER}, {"", ""}, {"", ""}},
};

static const pgp_key_rule standard_keys[] = {
	{PGP_KEYFAM_RSA, 2048, Y2014M2,
	    "policy: RSA keys below 2048 bits are rejected after 2014-02-01", ""},
	{PGP_KEYFAM_DSA, 2048, Y2014M2,
	    "policy: DSA keys below 2048 bits are rejected after 2014-02-01", ""},
	{PGP_KEYFAM_ELGAMAL, 2048, Y2014M2,
	    "policy: ElGamal keys below 2048 bits are rejected after 2014-02-01", ""},
};

static const char *const family_names[] = {"", "RSA", "DSA", "ElGamal"};

/* see policy.h */
void
pgp_policy_init(pgp_policy *p)
{
	size_t i;
	memset(p, 0, sizeof *p);
	for (i = 0; i < sizeof standard_hashes / sizeof standard_hashes[0]; i++)
		p->hash[i] = standard_hashes[i];
	p->nhash = (uint8_t)i;
	for (i = 0; i < sizeof standard_keys / sizeof standard_keys[0]; i++)
		p->key[i] = standard_keys[i];
	p->nkey = (uint8_t)i;
}

static pgp_hash_rule *
find_rule(pgp_policy *p, int alg)
{
	pgp_hash_rule *r;
	size_t i;
	for (i = 0; i < p->nhash; i++)
		if (p->hash[i].alg == alg)
			return &p->hash[i];
	if (p->nhash >= sizeof p->hash / sizeof p->hash[0])
		return NULL;
	r = &p->hash[p->nhash++];
	memset(r, 0, sizeof *r);
	r->alg = (uint8_t)alg;
	r->cutoff[0] = r->cutoff[1] = PGP_ALWAYS;
	r->name[0] = r->name[1] = "policy: unknown hash algorithm";
	return r;
}

/* see policy.h */
void
pgp_policy_allow_hash(pgp_policy *p, int alg, pgp_hash_use use)
{
	pgp_hash_rule *r = find_rule(p, alg);
	if (r)
		r->cutoff[use] = PGP_NEVER;
}

/* "after 2020-01-01" / "always" / "never" for a rule name. */
static void
cutoff_text(char *b, size_t n, int64_t t)
{
	if (t == PGP_ALWAYS) {
		snprintf(b, n, "always");
		return;
	}
	if (t == PGP_NEVER) {
		snprintf(b, n, "never");
		return;
	}
	if (n <= 6)
		return;
	memcpy(b, "after ", 6);
	pgp_time_format(b + 6, n - 6, t, PGP_TIME_SHORT);
}

static int
parse_date(const char *s, int64_t *out)
{
	if (strcmp(s, "never") == 0) {
		*out = PGP_NEVER;
		return 0;
	}
	if (strcmp(s, "always") == 0) {
		*out = PGP_ALWAYS;
		return 0;
	}
	return pgp_time_parse(s, 0, out) == PGP_OK ? 0 : -1;
}

/* A decimal number: digits only, at most `max`. */
static int
parse_uint(const char *s, unsigned max, unsigned *out)
{
	unsigned long v = 0;
	if (*s == '\0')
		return -1;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -1;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > max)
			return -1;
	}
	*out = (unsigned)v;
	return 0;
}

static int
hash_by_name(const char *s)
{
	/* RFC 9580 text names ("SHA256") in any case, and the spellings
	 * people write ("SHA-256") */
	char up[32];
	size_t i, n = strlen(s);
	if (strcasecmp(s, "SHA-1") == 0) return PGP_HASH_SHA1;
	if (strcasecmp(s, "SHA-256") == 0) return PGP_HASH_SHA256;
	if (strcasecmp(s, "SHA-512") == 0) return PGP_HASH_SHA512;
	if (n >= sizeof up)
		return 0;
	for (i = 0; i < n; i++)
		up[i] = (char)toupper((unsigned char)s[i]);
	return pgp_hash_by_name(up, n);
}

/* Sets one use of a hash rule from policy file line `lineno`. */
static void
set_hash(pgp_hash_rule *r, pgp_hash_use use, int64_t when, size_t lineno)
{
	char c[80];
	const char *hn = pgp_hash_name(r->alg);
	cutoff_text(c, sizeof c, when);
	r->cutoff[use] = when;
	r->name[use] = NULL;
	if (when == PGP_NEVER)
		snprintf(r->text[use], sizeof r->text[use], "policy file line %zu: %s %s are accepted",
		    lineno, hn ? hn : "hash",
		    use == PGP_USE_COLLISION ? "data signatures and third-party certifications" :
		    "self-signatures");
	else
		snprintf(r->text[use], sizeof r->text[use], "policy file line %zu: %s %s are rejected %s",
		    lineno, hn ? hn : "hash",
		    use == PGP_USE_COLLISION ? "data signatures and third-party certifications" :
		    "self-signatures", c);
}

/* Adds the key-size row of policy file line `lineno` for one family; the
 * first row a file gives a family replaces the rows it had. */
static int
add_key_rule(pgp_policy *p, uint8_t fam, unsigned bits, int64_t when, size_t lineno,
    unsigned *replaced)
{
	pgp_key_rule *r;
	char c[80];
	size_t i, j;
	if (!(*replaced & (1u << fam))) {
		for (i = j = 0; i < p->nkey; i++)
			if (p->key[i].family != fam)
				p->key[j++] = p->key[i];
		p->nkey = (uint8_t)j;
		*replaced |= 1u << fam;
	}
	if (p->nkey >= PGP_POLICY_MAX_KEY_RULES)
		return -1;
	r = &p->key[p->nkey++];
	memset(r, 0, sizeof *r);
	r->family = fam;
	r->min_bits = bits;
	r->cutoff = when;
	r->name = NULL;
	cutoff_text(c, sizeof c, when);
	snprintf(r->text, sizeof r->text, "policy file line %zu: %s keys below %u bits are rejected %s",
	    lineno, family_names[fam], bits, c);
	return 0;
}

static pgp_err
bad_line(pgp_diag *diag, size_t lineno, const char *what)
{
	if (diag) {
		diag->offset = lineno;
		diag->tag = -1;
		diag->what = what;
	}
	return PGP_ERR_MALFORMED;
}

/*
 * The words of a policy line, split in place at C-locale white space (what
 * "%s" of scanf splits at): at most 4 words of at most 30 octets each; the
 * number of words, or -1 when there are more or longer ones.
 */
static int
split_words(char *line, const char *w[4])
{
	int nw = 0;
	char *p = line;
	for (;;) {
		size_t k;
		while (*p != '\0' && isspace((unsigned char)*p))
			p++;
		if (*p == '\0')
			return nw;
		if (nw == 4)
			return -1;
		w[nw++] = p;
		for (k = 0; p[k] != '\0' && !isspace((unsigned char)p[k]); k++)
			;
		if (k > 30)
			return -1;
		if (p[k] != '\0')
			p[k++] = '\0';
		p += k;
	}
}

/* see policy.h */
pgp_err
pgp_policy_load(pgp_policy *p, const uint8_t *text, size_t len, pgp_diag *diag)
{
	size_t pos = 0, lineno = 0;
	unsigned replaced = 0;
	while (pos < len) {
		char line[PGP_MAX_POLICY_LINE + 1];
		const char *w[4] = {"", "", "", ""}, *a, *b, *c, *d;
		const uint8_t *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
		int fields, alg;
		int64_t when;
		lineno++;
		if (n > PGP_MAX_POLICY_LINE)
			return bad_line(diag, lineno, "policy file: line too long (at most 255 octets, PGP_MAX_POLICY_LINE)");
		if (memchr(text + pos, '\0', n))
			return bad_line(diag, lineno, "policy file: NUL octet in a line");
		memcpy(line, text + pos, n);
		line[n] = '\0';
		pos += n + 1;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		if ((fields = split_words(line, w)) < 0)
			return bad_line(diag, lineno, "policy file: too many or too long words");
		if (fields == 0)
			continue;
		a = w[0], b = w[1], c = w[2], d = w[3];
		if (strcmp(a, "hash") == 0) {
			pgp_hash_rule *r;
			int data, self;
			if (fields != 4)
				return bad_line(diag, lineno,
				    "policy file: expected 'hash NAME data|self|both DATE|never|always'");
			if ((alg = hash_by_name(b)) == 0)
				return bad_line(diag, lineno, "policy file: unknown hash algorithm");
			data = strcmp(c, "data") == 0 || strcmp(c, "both") == 0;
			self = strcmp(c, "self") == 0 || strcmp(c, "both") == 0;
			if (!data && !self)
				return bad_line(diag, lineno, "policy file: expected data, self or both");
			if (parse_date(d, &when) != 0)
				return bad_line(diag, lineno,
				    "policy file: bad date (YYYY-MM-DD[THH:MM:SSZ], never or always)");
			if ((r = find_rule(p, alg)) == NULL)
				return bad_line(diag, lineno, "policy file: too many hash rules");
			if (data)
				set_hash(r, PGP_USE_COLLISION, when, lineno);
			if (self)
				set_hash(r, PGP_USE_SECOND_PREIMAGE, when, lineno);
		} else if (strcmp(a, "key-min-bits") == 0) {
			unsigned bits, fams = 0, f;
			if (fields != 3 && fields != 4)
				return bad_line(diag, lineno,
				    "policy file: expected 'key-min-bits N DATE|never|always [rsa|dsa|elgamal]'");
			if (parse_uint(b, PGP_MAX_MPI_BITS, &bits) != 0)
				return bad_line(diag, lineno,
				    "policy file: key-min-bits needs a decimal number of bits (0 to 16384)");
			if (parse_date(c, &when) != 0)
				return bad_line(diag, lineno,
				    "policy file: bad date (YYYY-MM-DD[THH:MM:SSZ], never or always)");
			if (fields == 3)
				fams = 1u << PGP_KEYFAM_RSA | 1u << PGP_KEYFAM_DSA | 1u << PGP_KEYFAM_ELGAMAL;
			else if (strcasecmp(d, "rsa") == 0)
				fams = 1u << PGP_KEYFAM_RSA;
			else if (strcasecmp(d, "dsa") == 0)
				fams = 1u << PGP_KEYFAM_DSA;
			else if (strcasecmp(d, "elgamal") == 0)
				fams = 1u << PGP_KEYFAM_ELGAMAL;
			else
				return bad_line(diag, lineno, "policy file: expected rsa, dsa or elgamal");
			for (f = PGP_KEYFAM_RSA; f <= PGP_KEYFAM_ELGAMAL; f++)
				if ((fams & (1u << f)) &&
				    add_key_rule(p, (uint8_t)f, bits, when, lineno, &replaced) != 0)
					return bad_line(diag, lineno, "policy file: too many key-min-bits rules");
		} else
			return bad_line(diag, lineno,
			    "policy file: expected 'hash NAME data|self|both DATE' or 'key-min-bits N DATE'");
	}
	return PGP_OK;
}

static const char *
hash_name_of(const pgp_hash_rule *r, pgp_hash_use use)
{
	return r->name[use] ? r->name[use] : r->text[use];
}

/* see policy.h */
pgp_err
pgp_policy_hash(const pgp_policy *p, int alg, pgp_hash_use use, int64_t t, const char **rule)
{
	size_t i;
	int64_t ref = p->as_of ? p->as_of : t;
	for (i = 0; i < p->nhash; i++) {
		if (p->hash[i].alg != alg)
			continue;
		if (p->hash[i].cutoff[use] == PGP_NEVER || ref < p->hash[i].cutoff[use])
			return PGP_OK;
		*rule = hash_name_of(&p->hash[i], use);
		return PGP_ERR_POLICY;
	}
	*rule = "policy: unknown hash algorithm";
	return PGP_ERR_POLICY;
}

static int
key_family(int algo)
{
	switch (algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_S:
	case PGP_PK_RSA_E:
		return PGP_KEYFAM_RSA;
	case PGP_PK_DSA:
		return PGP_KEYFAM_DSA;
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		return PGP_KEYFAM_ELGAMAL;
	default:
		return 0; /* elliptic curves: the curve fixes the size */
	}
}

/* see policy.h */
pgp_err
pgp_policy_key(const pgp_policy *p, const pgp_key *key, int64_t t, const char **rule)
{
	int64_t ref = p->as_of ? p->as_of : t;
	int fam = key_family(key->algo);
	size_t i;
	if (fam == 0)
		return PGP_OK;
	for (i = 0; i < p->nkey; i++) {
		const pgp_key_rule *r = &p->key[i];
		if (r->family != fam || key->bits >= r->min_bits || r->cutoff == PGP_NEVER ||
		    ref < r->cutoff)
			continue;
		*rule = r->name ? r->name : r->text;
		return PGP_ERR_POLICY;
	}
	return PGP_OK;
}
