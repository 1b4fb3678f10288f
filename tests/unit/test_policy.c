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

int
main(void)
{
	T_RUN(test_sha1_cutoffs);
	T_RUN(test_md5_never_sha2_always);
	T_RUN(test_as_of_overrides_time);
	T_RUN(test_key_size);
	T_RUN(test_policy_file);
	return T_DONE();
}
