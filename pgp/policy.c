/*
 * policy.c - the dated crypto policy table. see policy.h
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
#include <stdlib.h>
#include <strings.h>
#include <string.h>
#include "policy.h"
#include "hash.h"

#define Y2013M2 1359676800 /* 2013-02-01T00:00:00Z */
#define Y2014M2 1391212800 /* 2014-02-01T00:00:00Z */
#define Y2023M2 1675209600 /* 2023-02-01T00:00:00Z */

static const pgp_hash_rule standard_hashes[] = {
	{PGP_HASH_MD5, {PGP_ALWAYS, PGP_ALWAYS},
	    {"policy: MD5 is never accepted", "policy: MD5 is never accepted"}},
	{PGP_HASH_SHA1, {Y2013M2, Y2023M2},
	    {"policy: SHA-1 data signatures and third-party certifications are rejected after 2013-02-01",
	     "policy: SHA-1 self-signatures are rejected after 2023-02-01"}},
	{PGP_HASH_RIPEMD160, {Y2013M2, Y2013M2},
	    {"policy: RIPEMD-160 is rejected after 2013-02-01",
	     "policy: RIPEMD-160 is rejected after 2013-02-01"}},
	{PGP_HASH_SHA224, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
	{PGP_HASH_SHA256, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
	{PGP_HASH_SHA384, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
	{PGP_HASH_SHA512, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
	{PGP_HASH_SHA3_256, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
	{PGP_HASH_SHA3_512, {PGP_NEVER, PGP_NEVER}, {NULL, NULL}},
};

/* see policy.h */
void
pgp_policy_init(pgp_policy *p)
{
	size_t i;
	memset(p, 0, sizeof *p);
	for (i = 0; i < sizeof standard_hashes / sizeof standard_hashes[0]; i++)
		p->hash[i] = standard_hashes[i];
	p->nhash = (uint8_t)i;
	p->weak_key_cutoff = Y2014M2;
	p->min_key_bits = 2048;
}

static pgp_hash_rule *
find_rule(pgp_policy *p, int alg)
{
	size_t i;
	for (i = 0; i < p->nhash; i++)
		if (p->hash[i].alg == alg)
			return &p->hash[i];
	if (p->nhash >= sizeof p->hash / sizeof p->hash[0])
		return NULL;
	p->hash[p->nhash].alg = (uint8_t)alg;
	p->hash[p->nhash].cutoff[0] = p->hash[p->nhash].cutoff[1] = PGP_ALWAYS;
	p->hash[p->nhash].name[0] = p->hash[p->nhash].name[1] = "policy: hash algorithm rejected by policy file";
	return &p->hash[p->nhash++];
}

/* see policy.h */
void
pgp_policy_allow_hash(pgp_policy *p, int alg, pgp_hash_use use)
{
	pgp_hash_rule *r = find_rule(p, alg);
	if (r)
		r->cutoff[use] = PGP_NEVER;
}

/* see policy.h */
int64_t
pgp_days_from_civil(int64_t y, unsigned m, unsigned d)
{
	int64_t era;
	unsigned yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = (unsigned)(y - era * 400);
	doy = (153 * (m + (m > 2 ? (unsigned)-3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int
parse_date(const char *s, int64_t *out)
{
	int y, m, d, n = 0;
	int64_t days;
	if (strcmp(s, "never") == 0) { *out = PGP_NEVER; return 0; }
	if (strcmp(s, "always") == 0) { *out = PGP_ALWAYS; return 0; }
	if (sscanf(s, "%4d-%2d-%2d%n", &y, &m, &d, &n) != 3 || s[n] != '\0')
		return -1;
	if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1970)
		return -1;
	days = pgp_days_from_civil(y, (unsigned)m, (unsigned)d);
	*out = days * 86400;
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

/* see policy.h */
pgp_err
pgp_policy_load(pgp_policy *p, const uint8_t *text, size_t len, pgp_diag *diag)
{
	size_t pos = 0, lineno = 0;
	while (pos < len) {
		char line[256], a[32], b[32], c[32], d[32];
		size_t n = 0;
		int fields, alg;
		int64_t when;
		lineno++;
		while (pos < len && text[pos] != '\n') {
			if (n + 1 < sizeof line)
				line[n++] = (char)text[pos];
			pos++;
		}
		pos++;
		line[n] = '\0';
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		fields = sscanf(line, "%31s %31s %31s %31s", a, b, c, d);
		if (fields <= 0)
			continue;
		if (strcmp(a, "hash") == 0 && fields == 4) {
			pgp_hash_rule *r;
			if ((alg = hash_by_name(b)) == 0 || parse_date(d, &when) != 0)
				goto bad;
			if ((r = find_rule(p, alg)) == NULL)
				goto bad;
			if (strcmp(c, "data") == 0 || strcmp(c, "both") == 0) {
				r->cutoff[PGP_USE_COLLISION] = when;
				r->name[PGP_USE_COLLISION] = "policy: hash algorithm rejected by policy file";
			} else if (strcmp(c, "self") != 0)
				goto bad;
			if (strcmp(c, "self") == 0 || strcmp(c, "both") == 0) {
				r->cutoff[PGP_USE_SECOND_PREIMAGE] = when;
				r->name[PGP_USE_SECOND_PREIMAGE] = "policy: hash algorithm rejected by policy file";
			}
		} else if (strcmp(a, "key-min-bits") == 0 && fields == 3) {
			long bits = strtol(b, NULL, 10);
			if (bits < 0 || bits > 16384 || parse_date(c, &when) != 0)
				goto bad;
			p->min_key_bits = (unsigned)bits;
			p->weak_key_cutoff = when;
		} else
			goto bad;
	}
	return PGP_OK;
bad:
	if (diag) {
		diag->offset = lineno;
		diag->tag = -1;
		diag->what = "policy file: expected 'hash NAME data|self|both DATE' or 'key-min-bits N DATE'";
	}
	return PGP_ERR_MALFORMED;
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
		*rule = p->hash[i].name[use];
		return PGP_ERR_POLICY;
	}
	*rule = "policy: unknown hash algorithm";
	return PGP_ERR_POLICY;
}

/* see policy.h */
pgp_err
pgp_policy_key(const pgp_policy *p, const pgp_key *key, int64_t t, const char **rule)
{
	int64_t ref = p->as_of ? p->as_of : t;
	switch (key->algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_S:
	case PGP_PK_RSA_E:
	case PGP_PK_DSA:
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		if (key->bits < p->min_key_bits && p->weak_key_cutoff != PGP_NEVER &&
		    ref >= p->weak_key_cutoff) {
			*rule = "policy: RSA/DSA/ElGamal keys below 2048 bits are rejected after 2014-02-01";
			return PGP_ERR_POLICY;
		}
		return PGP_OK;
	default:
		return PGP_OK;
	}
}
