/* date.c - calendar dates and the time parser. see date.h */
#include <string.h>
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
