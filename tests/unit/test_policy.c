/* test_policy.c - the dated policy table and policy files. */
#include "t.h"
#include "pgp/policy.h"
#include "pgp/hash.h"

#define D2013_01 1356998400 /* 2013-01-01 */
#define D2013_03 1362096000 /* 2013-03-01 */
#define D2023_01 1672531200 /* 2023-01-01 */
#define D2023_03 1677628800 /* 2023-03-01 */

static void
test_sha1_cutoffs(void)
{
	pgp_policy p;
	const char *rule = NULL;
	pgp_policy_init(&p);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_COLLISION, D2013_01, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_COLLISION, D2013_03, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "SHA-1") && strstr(rule, "2013"));
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE, D2023_01, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE, D2023_03, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "2023"));
}

static void
test_md5_never_sha2_always(void)
{
	pgp_policy p;
	const char *rule = NULL;
	pgp_policy_init(&p);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_MD5, PGP_USE_SECOND_PREIMAGE, 0, &rule), PGP_ERR_POLICY);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA256, PGP_USE_COLLISION, INT64_MAX - 1, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA512, PGP_USE_COLLISION, D2023_03, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, 99, PGP_USE_COLLISION, D2023_03, &rule), PGP_ERR_POLICY);
}

static void
test_as_of_overrides_time(void)
{
	pgp_policy p;
	const char *rule = NULL;
	pgp_policy_init(&p);
	p.as_of = D2013_01;
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_COLLISION, D2023_03, &rule), PGP_OK);
	pgp_policy_init(&p);
	pgp_policy_allow_hash(&p, PGP_HASH_SHA1, PGP_USE_COLLISION);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_COLLISION, D2023_03, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA1, PGP_USE_SECOND_PREIMAGE, D2023_03, &rule), PGP_ERR_POLICY);
}

static void
test_key_size(void)
{
	pgp_policy p;
	pgp_key k;
	const char *rule = NULL;
	pgp_policy_init(&p);
	memset(&k, 0, sizeof k);
	k.algo = 1;
	k.bits = 1024;
	T_EQ_INT(pgp_policy_key(&p, &k, D2013_01, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_ERR_POLICY);
	k.bits = 2048;
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_OK);
	k.algo = 22; /* EdDSA: no size rule */
	k.bits = 255;
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_OK);
}

static void
test_policy_file(void)
{
	pgp_policy p;
	pgp_diag d = {0, -1, NULL};
	pgp_key k;
	const char *rule = NULL;
	static const char good[] = "# comment\nhash SHA256 data 2020-01-01\nkey-min-bits 1024 never\n";
	static const char bad[] = "hash SHA256 data 2020-01-01\nhash NOPE data never\n";
	pgp_policy_init(&p);
	T_EQ_INT(pgp_policy_load(&p, (const uint8_t *)good, sizeof good - 1, &d), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA256, PGP_USE_COLLISION, D2023_01, &rule), PGP_ERR_POLICY);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA256, PGP_USE_SECOND_PREIMAGE, D2023_01, &rule), PGP_OK);
	memset(&k, 0, sizeof k);
	k.algo = 1;
	k.bits = 1024;
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_OK);
	pgp_policy_init(&p);
	T_EQ_INT(pgp_policy_load(&p, (const uint8_t *)bad, sizeof bad - 1, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 2); /* the line number */
}

/* Loads text; returns the error, with *line the line number on failure. */
static int
load(pgp_policy *p, const char *text, size_t *line, const char **what)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	pgp_policy_init(p);
	e = pgp_policy_load(p, (const uint8_t *)text, strlen(text), &d);
	*line = d.offset;
	*what = d.what;
	return e;
}

static pgp_key
key_of(int algo, unsigned bits)
{
	pgp_key k;
	memset(&k, 0, sizeof k);
	k.algo = (uint8_t)algo;
	k.bits = bits;
	return k;
}

/* issue 12: after "key-min-bits 4096", a 2048-bit key was refused with the
 * built-in text "below 2048 bits ... after 2014-02-01" */
static void
test_refusal_names_the_policy_file_rule(void)
{
	pgp_policy p;
	size_t line;
	const char *what, *rule = NULL;
	pgp_key k = key_of(1, 2048);
	T_EQ_INT(load(&p, "# stricter\nkey-min-bits 4096 2020-01-01\n", &line, &what), PGP_OK);
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "4096") && strstr(rule, "line 2") && strstr(rule, "2020-01-01"));
	T_ASSERT(rule && !strstr(rule, "2048") && !strstr(rule, "2014"));
	k.bits = 4096;
	T_EQ_INT(pgp_policy_key(&p, &k, D2023_01, &rule), PGP_OK);
	/* before the file's cutoff the 2048-bit key is fine */
	k.bits = 2048;
	T_EQ_INT(pgp_policy_key(&p, &k, D2013_03, &rule), PGP_OK);
}

static void
test_builtin_refusal_names_the_family(void)
{
	pgp_policy p;
	const char *rule = NULL;
	pgp_key rsa = key_of(1, 1024), dsa = key_of(17, 1024), elg = key_of(16, 1024);
	pgp_policy_init(&p);
	T_EQ_INT(pgp_policy_key(&p, &rsa, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "RSA keys below 2048 bits") && strstr(rule, "2014-02-01"));
	T_EQ_INT(pgp_policy_key(&p, &dsa, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "DSA keys below 2048 bits"));
	T_EQ_INT(pgp_policy_key(&p, &elg, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "ElGamal keys below 2048 bits"));
}

static void
test_key_rule_per_family(void)
{
	pgp_policy p;
	size_t line;
	const char *what, *rule = NULL;
	pgp_key rsa = key_of(1, 2048), dsa = key_of(17, 2048), dsa1k = key_of(17, 1024);
	T_EQ_INT(load(&p, "key-min-bits 3072 2020-01-01 rsa\n", &line, &what), PGP_OK);
	T_EQ_INT(pgp_policy_key(&p, &rsa, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "RSA keys below 3072 bits") && strstr(rule, "line 1"));
	T_EQ_INT(pgp_policy_key(&p, &dsa, D2023_01, &rule), PGP_OK);
	T_EQ_INT(pgp_policy_key(&p, &dsa1k, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "policy: DSA keys below 2048 bits"));
	/* a second line for the family adds a dated row */
	T_EQ_INT(load(&p, "key-min-bits 1024 never rsa\nkey-min-bits 512 2000-01-01 rsa\n",
	    &line, &what), PGP_OK);
	rsa.bits = 768;
	T_EQ_INT(pgp_policy_key(&p, &rsa, D2023_01, &rule), PGP_OK);
	rsa.bits = 511;
	T_EQ_INT(pgp_policy_key(&p, &rsa, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "line 2") && strstr(rule, "512"));
}

static void
test_hash_refusal_names_the_policy_file_rule(void)
{
	pgp_policy p;
	size_t line;
	const char *what, *rule = NULL;
	T_EQ_INT(load(&p, "\n\nhash sha-256 data 2020-01-01\n", &line, &what), PGP_OK);
	T_EQ_INT(pgp_policy_hash(&p, PGP_HASH_SHA256, PGP_USE_COLLISION, D2023_01, &rule), PGP_ERR_POLICY);
	T_ASSERT(rule && strstr(rule, "line 3") && strstr(rule, "SHA256") && strstr(rule, "2020-01-01"));
}

/* issue 12: strtol accepted "4096abc" */
static void
test_number_with_trailing_characters_is_an_error(void)
{
	pgp_policy p;
	size_t line;
	const char *what = NULL;
	static const char *const bad[] = {
		"key-min-bits 4096abc never\n", "key-min-bits -1 never\n", "key-min-bits +4096 never\n",
		"key-min-bits 16385 never\n", "key-min-bits 0x800 never\n", "key-min-bits  never\n",
		"key-min-bits 99999999999999999999 never\n",
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		T_EQ_INT(load(&p, bad[i], &line, &what), PGP_ERR_MALFORMED);
		T_EQ_INT(line, 1);
		T_ASSERT(what != NULL);
	}
	T_EQ_INT(load(&p, "hash SHA1 data never\nkey-min-bits 4096abc never\n", &line, &what),
	    PGP_ERR_MALFORMED);
	T_EQ_INT(line, 2);
	T_ASSERT(what && strstr(what, "number"));
	T_EQ_INT(load(&p, "key-min-bits 16384 never\n", &line, &what), PGP_OK);
	T_EQ_INT(load(&p, "key-min-bits 0 never\n", &line, &what), PGP_OK);
}

/* issue 12: over-long lines were silently truncated */
static void
test_overlong_line_is_an_error(void)
{
	pgp_policy p;
	size_t line;
	const char *what = NULL;
	char text[700];
	/* the rule sits after 250 spaces: truncation at 255 octets used to cut it */
	snprintf(text, sizeof text, "# ok\n%250shash SHA256 data 2020-01-01\n", "");
	T_EQ_INT(load(&p, text, &line, &what), PGP_ERR_MALFORMED);
	T_EQ_INT(line, 2);
	T_ASSERT(what && strstr(what, "too long"));
	/* a comment line that long is refused too (one rule for every line) */
	memset(text, '#', 600);
	text[600] = '\0';
	T_EQ_INT(load(&p, text, &line, &what), PGP_ERR_MALFORMED);
	T_EQ_INT(line, 1);
	/* exactly PGP_MAX_POLICY_LINE octets is fine */
	snprintf(text, sizeof text, "%*shash SHA256 data never\n",
	    (int)(PGP_MAX_POLICY_LINE - strlen("hash SHA256 data never")), "");
	T_EQ_INT(strlen(text), PGP_MAX_POLICY_LINE + 1);
	T_EQ_INT(load(&p, text, &line, &what), PGP_OK);
}

static void
test_other_malformed_lines(void)
{
	pgp_policy p;
	size_t line;
	const char *what = NULL;
	static const char *const bad[] = {
		"key-min-bits 4096 2020-02-30\n", "key-min-bits 4096 never ecdsa\n",
		"key-min-bits 4096 never rsa extra\n", "hash SHA256 data 2020-01-01 extra\n",
		"hash SHA256 sometimes never\n", "hash NOPE data never\n", "frobnicate\n",
		"hash SHA256 data 2020-01-01T25:00:00Z\n",
		"hash SHA256aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa data never\n",
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		T_EQ_INT(load(&p, bad[i], &line, &what), PGP_ERR_MALFORMED);
		T_EQ_INT(line, 1);
	}
	T_EQ_INT(pgp_policy_load(&p, (const uint8_t *)"hash SHA1\0 data never\n", 22, NULL),
	    PGP_ERR_MALFORMED);
	T_EQ_INT(load(&p, "hash SHA256 data 2020-01-01T12:00:00Z # noon\n", &line, &what), PGP_OK);
	/* words: split at C white space; 30 octets is a word, 31 too long */
	T_EQ_INT(load(&p, " hash\tSHA256\vdata\fnever\r\n", &line, &what), PGP_OK);
	T_EQ_INT(load(&p, "hash SHA256aaaaaaaaaaaaaaaaaaaaaaaa data never\n", &line, &what),
	    PGP_ERR_MALFORMED);
	T_ASSERT(what && strstr(what, "unknown hash"));
	T_EQ_INT(load(&p, "hash SHA256aaaaaaaaaaaaaaaaaaaaaaaaa data never\n", &line, &what),
	    PGP_ERR_MALFORMED);
	T_ASSERT(what && strstr(what, "too long"));
	T_EQ_INT(load(&p, "hash SHA256 data never x\n", &line, &what), PGP_ERR_MALFORMED);
	T_ASSERT(what && strstr(what, "too many"));
}

int
main(void)
{
	T_RUN(test_sha1_cutoffs);
	T_RUN(test_md5_never_sha2_always);
	T_RUN(test_as_of_overrides_time);
	T_RUN(test_key_size);
	T_RUN(test_policy_file);
	T_RUN(test_refusal_names_the_policy_file_rule);
	T_RUN(test_builtin_refusal_names_the_family);
	T_RUN(test_key_rule_per_family);
	T_RUN(test_hash_refusal_names_the_policy_file_rule);
	T_RUN(test_number_with_trailing_characters_is_an_error);
	T_RUN(test_overlong_line_is_an_error);
	T_RUN(test_other_malformed_lines);
	return T_DONE();
}
