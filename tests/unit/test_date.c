/* test_date.c - the one time parser (pgp_time_parse) and civil dates. */
#include "t.h"
#include "pgp/date.h"

static int64_t
parse(const char *s, unsigned flags, int *ok)
{
	int64_t t = -12345;
	*ok = pgp_time_parse(s, flags, &t) == PGP_OK;
	return t;
}

static void
test_days_from_civil(void)
{
	T_EQ_INT(pgp_days_from_civil(1970, 1, 1), 0);
	T_EQ_INT(pgp_days_from_civil(2000, 3, 1), 11017);
	T_EQ_INT(pgp_days_from_civil(1969, 12, 31), -1);
	T_EQ_INT(pgp_days_from_civil(2014, 2, 1) * 86400, 1391212800);
}

static void
test_iso_forms_agree(void)
{
	static const char *const same[] = {
		"2019-10-29T12:11:04Z", "2019-10-29T12:11:04z", "20191029T121104Z",
		"2019-10-29T12:11:04+00:00", "2019-10-29T13:11:04+01:00", "2019-10-29T07:11:04-05",
		"2019-10-29T12:11:04.999Z", "2019-10-29 12:11:04", "2019-10-29T12:11:04",
		"@1572351064", "1572351064",
	};
	size_t i;
	int ok;
	for (i = 0; i < sizeof same / sizeof same[0]; i++) {
		T_EQ_INT(parse(same[i], PGP_TIME_UNIX, &ok), 1572351064);
		T_ASSERT(ok);
	}
	T_EQ_INT(parse("2019-10-29", 0, &ok), 1572307200);
	T_ASSERT(ok);
	T_EQ_INT(parse("20191029", 0, &ok), 1572307200); /* basic date without UNIX */
	T_ASSERT(ok);
	T_EQ_INT(parse("20191029", PGP_TIME_UNIX, &ok), 20191029);
	T_EQ_INT(parse("2019-10-29T12:11Z", PGP_TIME_NEED_ZONE, &ok), 1572351060);
	T_ASSERT(ok);
	T_EQ_INT(parse("2016-12-31T23:59:60Z", 0, &ok), 1483228800); /* leap second */
	T_ASSERT(ok);
}

static void
test_malformed_times_rejected(void)
{
	static const char *const bad[] = {
		"", "2019-10", "2019-13-01", "2019-02-29", "2019-04-31", "2019-10-29T24:00Z",
		"2019-10-29T12:60Z", "2019-10-29T12:11:04Zjunk", "2019-10-29x", "2019-10-29T",
		"2019-10-29T12:11:04+24:00", "2019-10-29T12:11:04.Z", "@", "@12x", "12x",
		"@1234567890123456789", "now", "-", "never",
	};
	size_t i;
	int ok;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		T_EQ_INT(parse(bad[i], PGP_TIME_UNIX, &ok), -12345);
		T_ASSERT(!ok);
	}
	/* a zone is needed only when asked for; Unix seconds only when asked for */
	parse("2019-10-29T12:11:04", PGP_TIME_NEED_ZONE, &ok);
	T_ASSERT(!ok);
	parse("@1572351064", 0, &ok);
	T_ASSERT(!ok);
	parse("2019", 0, &ok);
	T_ASSERT(!ok);
	parse("2020-02-29", 0, &ok);
	T_ASSERT(ok);
}

/* pgp_time_format: known values, and a round trip through pgp_time_parse
 * over days of every kind (leap years, century rules, before 1970). */
static void
test_format(void)
{
	char b[32];
	int64_t t, back;
	pgp_time_format(b, sizeof b, 0, 0);
	T_EQ_STR(b, "1970-01-01T00:00:00Z");
	pgp_time_format(b, sizeof b, 0, PGP_TIME_SHORT);
	T_EQ_STR(b, "1970-01-01");
	pgp_time_format(b, sizeof b, 1710000000, PGP_TIME_SHORT);
	T_EQ_STR(b, "2024-03-09T16:00:00Z");
	pgp_time_format(b, sizeof b, 951782400, 0);          /* 2000 is a leap year */
	T_EQ_STR(b, "2000-02-29T00:00:00Z");
	pgp_time_format(b, sizeof b, -1, 0);
	T_EQ_STR(b, "1969-12-31T23:59:59Z");
	pgp_time_format(b, sizeof b, 253402300799LL, 0);
	T_EQ_STR(b, "9999-12-31T23:59:59Z");
	pgp_time_format(b, sizeof b, 253402300800LL, 0);
	T_EQ_STR(b, "@253402300800");
	pgp_time_format(b, sizeof b, -62167219201LL, 0);
	T_EQ_STR(b, "@-62167219201");
	pgp_time_format(b, 11, 1710000000, 0);               /* truncated, terminated */
	T_EQ_STR(b, "2024-03-09");
	for (t = -5000000000LL; t < 5000000000LL; t += 86400 * 37 + 3601) {
		pgp_time_format(b, sizeof b, t, 0);
		back = 0;
		T_EQ_INT(pgp_time_parse(b, 0, &back), PGP_OK);
		T_EQ_INT(back, t);
	}
}

int
main(void)
{
	T_RUN(test_days_from_civil);
	T_RUN(test_iso_forms_agree);
	T_RUN(test_malformed_times_rejected);
	T_RUN(test_format);
	return T_DONE();
}
