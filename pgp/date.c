/* date.c - calendar dates and the time parser. see date.h */
#include <string.h>
#include <stdio.h>
#include "date.h"

/* see date.h */
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

/* The inverse of pgp_days_from_civil(): the date of day z after 1970-01-01. */
static void
civil_from_days(int64_t z, int64_t *y, unsigned *m, unsigned *d)
{
	int64_t era;
	unsigned doe, yoe, doy, mp;
	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	doe = (unsigned)(z - era * 146097);
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = doy - (153 * mp + 2) / 5 + 1;
	*m = mp < 10 ? mp + 3 : mp - 9;
	*y = (int64_t)yoe + era * 400 + (*m <= 2);
}

/* see date.h */
void
pgp_time_format(char *buf, size_t n, int64_t t, unsigned flags)
{
	/* days and seconds of the day, rounding towards minus infinity */
	int64_t days = t / 86400, secs = t % 86400, y;
	unsigned m, d;
	if (n == 0)
		return;
	if (secs < 0) {
		secs += 86400;
		days--;
	}
	/* outside 0000-01-01 .. 9999-12-31 (and away from int64 overflow) */
	if (t < -62167219200LL || t > 253402300799LL) {
		snprintf(buf, n, "@%lld", (long long)t);
		return;
	}
	civil_from_days(days, &y, &m, &d);
	if ((flags & PGP_TIME_SHORT) && secs == 0)
		snprintf(buf, n, "%04lld-%02u-%02u", (long long)y, m, d);
	else
		snprintf(buf, n, "%04lld-%02u-%02uT%02u:%02u:%02uZ", (long long)y, m, d,
		    (unsigned)(secs / 3600), (unsigned)(secs / 60 % 60), (unsigned)(secs % 60));
}

/* Exactly n decimal digits at *s. */
static int
digits(const char **s, int n, int *out)
{
	int v = 0, i;
	for (i = 0; i < n; i++) {
		char c = (*s)[i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	*s += n;
	*out = v;
	return 0;
}

/* The separator c, unless the basic format has none. */
static int
sep(const char **s, char c, int basic)
{
	if (basic)
		return 0;
	if (**s != c)
		return -1;
	(*s)++;
	return 0;
}

static int
month_days(int y, int m)
{
	static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
	if (m == 2 && ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0))
		return 29;
	return days[m - 1];
}

/* "@N" or digits alone: Unix seconds (at most 18 digits, no overflow). */
static int
unix_seconds(const char *s, int64_t *out)
{
	int64_t v = 0;
	size_t i, n;
	if (*s == '@')
		s++;
	n = strlen(s);
	if (n == 0 || n > 18)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	*out = v;
	return 0;
}

/* see date.h */
pgp_err
pgp_time_parse(const char *s, unsigned flags, int64_t *out)
{
	int y, mo, d, h = 0, mi = 0, se = 0, oh = 0, om = 0, sign = 0, basic;
	size_t n = strlen(s), k;

	if (flags & PGP_TIME_UNIX) {
		for (k = 0; k < n && s[k] >= '0' && s[k] <= '9'; k++)
			;
		if (s[0] == '@' || (n > 0 && k == n))
			return unix_seconds(s, out) == 0 ? PGP_OK : PGP_ERR_INVALID;
	}
	/* ISO 8601 calendar date, extended (YYYY-MM-DD) or basic (YYYYMMDD) */
	basic = n > 4 && s[4] != '-';
	if (digits(&s, 4, &y) || sep(&s, '-', basic) || digits(&s, 2, &mo) ||
	    sep(&s, '-', basic) || digits(&s, 2, &d))
		return PGP_ERR_INVALID;
	if (*s == 'T' || *s == 't' || (*s == ' ' && !basic)) {
		s++;
		if (digits(&s, 2, &h) || sep(&s, ':', basic) || digits(&s, 2, &mi))
			return PGP_ERR_INVALID;
		if (*s == ':' || (basic && *s >= '0' && *s <= '9')) {
			if (sep(&s, ':', basic) || digits(&s, 2, &se))
				return PGP_ERR_INVALID;
			if (*s == '.' || *s == ',') { /* a fraction of a second: dropped */
				s++;
				if (*s < '0' || *s > '9')
					return PGP_ERR_INVALID;
				while (*s >= '0' && *s <= '9')
					s++;
			}
		}
		if (*s == 'Z' || *s == 'z') {
			s++;
		} else if (*s == '+' || *s == '-') {
			sign = *s == '+' ? 1 : -1;
			s++;
			if (digits(&s, 2, &oh))
				return PGP_ERR_INVALID;
			if (*s == ':')
				s++;
			if (*s && digits(&s, 2, &om))
				return PGP_ERR_INVALID;
			if (oh > 23 || om > 59)
				return PGP_ERR_INVALID;
		} else if (flags & PGP_TIME_NEED_ZONE) {
			return PGP_ERR_INVALID; /* a local time without a zone is not UTC */
		}
	}
	if (*s != '\0')
		return PGP_ERR_INVALID;
	if (mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo) || h > 23 || mi > 59 || se > 60)
		return PGP_ERR_INVALID;
	*out = pgp_days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 + mi * 60 + se -
	    (int64_t)sign * (oh * 3600 + om * 60);
	return PGP_OK;
}
