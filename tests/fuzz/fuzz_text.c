/*
 * fuzz_text.c - the small text parsers: policy files (pgp_policy_load),
 * times (pgp_time_parse), the input classifier (pgp_classify) and UTF-8
 * (pgp_utf8_decode). Invariant violations abort().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_policy(const uint8_t *data, size_t size)
{
	pgp_policy p;
	pgp_diag d = {0, -1, NULL};
	const char *rule = NULL;
	pgp_err e;
	pgp_policy_init(&p);
	e = pgp_policy_load(&p, data, size, &d);
	/* a refusal says why, at a line of the file */
	if (e != PGP_OK && (d.what == NULL || d.offset == 0))
		abort();
	if (e != PGP_OK)
		pgp_policy_init(&p);
	/* whatever was loaded answers every question with OK or POLICY + a rule */
	for (int alg = 0; alg < 16; alg++) {
		e = pgp_policy_hash(&p, alg, PGP_USE_COLLISION, 1700000000, &rule);
		if (e != PGP_OK && (e != PGP_ERR_POLICY || rule == NULL))
			abort();
	}
}

static void
check_time(const uint8_t *data, size_t size)
{
	char s[64];
	int64_t t = 42;
	size_t n = size < sizeof s - 1 ? size : sizeof s - 1;
	memcpy(s, data, n);
	s[n] = 0;
	if (pgp_time_parse(s, PGP_TIME_UNIX, &t) != PGP_OK && t != 42)
		abort(); /* a failed parse leaves *out unchanged */
	t = 42;
	if (pgp_time_parse(s, PGP_TIME_NEED_ZONE, &t) != PGP_OK && t != 42)
		abort();
}

static void
check_classify(const uint8_t *data, size_t size)
{
	pgp_input_class c;
	pgp_input_kind k = pgp_classify(data, size, &c);
	if (k != c.kind)
		abort();
	if (k == PGP_INPUT_BINARY && (size == 0 || !(data[0] & 0x80)))
		abort(); /* binary only with a CTB first */
	if ((k == PGP_INPUT_ARMORED || k == PGP_INPUT_CLEARTEXT) && c.begin >= size)
		abort();
	if (k == PGP_INPUT_UNKNOWN && c.later > size)
		abort();
}

static void
check_utf8(const uint8_t *data, size_t size)
{
	size_t i = 0, l;
	int all = 1;
	uint32_t cp;
	while (i < size) {
		if ((l = pgp_utf8_decode(data + i, size - i, &cp)) == 0) {
			all = 0;
			i++;
			continue;
		}
		if (l > 4 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			abort();
		i += l;
	}
	if (all != pgp_utf8_valid(data, size))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_policy(data, size);
	check_time(data, size);
	check_classify(data, size);
	check_utf8(data, size);
	return 0;
}
