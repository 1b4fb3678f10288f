/*
 * date.h - calendar dates, the one time parser of wotkit (policy files,
 * `wotkit verify --at`, `wotkit inspect --at`, sopv DATE) and the one time
 * formatter (every time wotkit prints, and policy rule names).
 */
#ifndef PGP_DATE_H
#define PGP_DATE_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"

/* Days from 1970-01-01 to the proleptic Gregorian date y-m-d (m 1..12). */
int64_t pgp_days_from_civil(int64_t y, unsigned m, unsigned d);

/* Flags of pgp_time_parse(). */
#define PGP_TIME_UNIX 0x1      /* also "@N" and bare decimal digits: Unix seconds */
#define PGP_TIME_NEED_ZONE 0x2 /* a time of day must carry "Z" or an offset */

/*
 * Parses a NUL-terminated time into Unix seconds (UTC), ISO 8601:
 *   date        YYYY-MM-DD (extended) or YYYYMMDD (basic): midnight UTC
 *   date-time   date "T" (or "t"; " " in the extended form) then
 *               HH:MM[:SS[.fraction]] (extended) or HHMM[SS[.fraction]]
 *               (basic); the fraction is dropped; SS may be 60
 *   zone        "Z", "z", or +HH[[:]MM] / -HH[[:]MM]; none: UTC, unless
 *               PGP_TIME_NEED_ZONE
 * With PGP_TIME_UNIX, "@N" and a string of digits alone are Unix seconds
 * (so "20240101" is then a Unix time, not a basic date).
 * Words such as "now", "never" or "-" are the caller's. Returns PGP_OK, or
 * PGP_ERR_INVALID for anything else (trailing characters, day 31 in a
 * 30-day month, ...), leaving *out unchanged.
 */
pgp_err pgp_time_parse(const char *s, unsigned flags, int64_t *out);

/* Flags of pgp_time_format(). */
#define PGP_TIME_SHORT 0x1     /* a time at 00:00:00 is written as the date alone */

/*
 * Writes t (Unix seconds) as ISO 8601 UTC, "YYYY-MM-DDTHH:MM:SSZ", into
 * buf[0..n) (NUL-terminated, truncated to fit; 21 octets hold it all). Times
 * outside the years 0000..9999 are written "@t". No locale, no time zone
 * database: the proleptic Gregorian calendar, like pgp_days_from_civil().
 */
void pgp_time_format(char *buf, size_t n, int64_t t, unsigned flags);

#endif
