/*
 * gpg_fmt.c - GnuPG 2.2's text formats, as the drop-in must reproduce them:
 * the escapes of status lines, colon listings and human lines, dates,
 * fingerprints, algorithm and curve names. Pure (no I/O). See gpg.h.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "gpg.h"

/* Append c to out[0..n) at *k (counting what would not fit). */
static void
put(char *out, size_t n, size_t *k, char c)
{
	if (*k + 1 < n)
		out[*k] = c;
	(*k)++;
}

static void
put_hex(char *out, size_t n, size_t *k, const char *prefix, uint8_t c, int upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";

	for (; *prefix; prefix++)
		put(out, n, k, *prefix);
	put(out, n, k, digits[c >> 4]);
	put(out, n, k, digits[c & 15]);
}

static size_t
finish(char *out, size_t n, size_t k)
{
	if (n)
		out[k < n ? k : n - 1] = '\0';
	return k;
}

/* see gpg.h */
size_t
gpg_esc_status(char *out, size_t n, const uint8_t *s, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < len; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f || s[i] == '%')
			put_hex(out, n, &k, "%", s[i], 1);
		else
			put(out, n, &k, (char)s[i]);
	}
	return finish(out, n, k);
}

/* see gpg.h */
size_t
gpg_esc_imported(char *out, size_t n, const uint8_t *s, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < len; i++) {
		if (s[i] == '\n' || s[i] == '\r' || s[i] == 0)
			put_hex(out, n, &k, "%", s[i], 1);
		else
			put(out, n, &k, (char)s[i]);
	}
	return finish(out, n, k);
}

/* see gpg.h */
size_t
gpg_esc_colon(char *out, size_t n, const uint8_t *s, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < len; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f || s[i] == ':' || s[i] == '\\')
			put_hex(out, n, &k, "\\x", s[i], 0);
		else
			put(out, n, &k, (char)s[i]);
	}
	return finish(out, n, k);
}

/* see gpg.h */
size_t
gpg_esc_human(char *out, size_t n, const uint8_t *s, size_t len)
{
	size_t i, k = 0;

	for (i = 0; i < len; i++) {
		if (s[i] < 0x20 || s[i] == 0x7f)
			put_hex(out, n, &k, "\\x", s[i], 0);
		else
			put(out, n, &k, (char)s[i]);
	}
	return finish(out, n, k);
}

/* see gpg.h */
void
gpg_fmt_asctime(char *out, size_t n, int64_t t)
{
	static const char days[7][4] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
	static const char months[12][4] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
		"Aug", "Sep", "Oct", "Nov", "Dec"};
	time_t tt = (time_t)t;
	struct tm tm;
	int k;

	/* gpg: strftime("%c %Z") in the C locale, "%a %b %e %H:%M:%S %Y %Z"
	 * (written out: strftime would pull locale code into a static binary) */
	if (n == 0)
		return;
	out[0] = '\0';
	if (localtime_r(&tt, &tm) == NULL || tm.tm_wday < 0 || tm.tm_wday > 6 || tm.tm_mon < 0 ||
	    tm.tm_mon > 11 ||
	    (k = snprintf(out, n, "%s %s %2d %02d:%02d:%02d %lld %s", days[tm.tm_wday],
	    months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
	    (long long)tm.tm_year + 1900, tm.tm_zone ? tm.tm_zone : "")) < 0 || (size_t)k >= n)
		snprintf(out, n, "%lld", (long long)t);
}

/* The decimal value of n digits at s (checked to be digits by the caller). */
static unsigned
digits(const char *s, int n)
{
	unsigned v = 0;
	while (n-- > 0)
		v = v * 10 + (unsigned)(*s++ - '0');
	return v;
}

/* see gpg.h */
void
gpg_fmt_date(char *out, size_t n, int64_t t)
{
	char iso[32];

	pgp_time_format(iso, sizeof iso, t, 0);
	snprintf(out, n, "%.10s", iso);
}

/* see gpg.h */
void
gpg_fmt_fpr(char *out, size_t n, const pgp_fpr *f)
{
	size_t i, k = 0;

	for (i = 0; i < f->len; i++)
		put_hex(out, n, &k, "", f->v[i], 1);
	finish(out, n, k);
}

/* see gpg.h */
void
gpg_fmt_fpr_human(char *out, size_t n, const pgp_fpr *f)
{
	size_t i, k = 0;

	/* gpg's format_hexfingerprint: v4 (20 octets) in 10 groups of 4 with
	 * a double space after the fifth; 32 octets in 8 groups of 8 */
	for (i = 0; i < f->len; i++) {
		if (f->len == 20 && i > 0 && i % 2 == 0) {
			put(out, n, &k, ' ');
			if (i == 10)
				put(out, n, &k, ' ');
		} else if (f->len != 20 && i > 0 && i % 4 == 0) {
			put(out, n, &k, ' ');
		}
		put_hex(out, n, &k, "", f->v[i], 1);
	}
	finish(out, n, k);
}

/* see gpg.h */
void
gpg_fmt_keyid(char out[17], const pgp_fpr *f)
{
	size_t i, k = 0, start = f->len == 20 ? 12 : 0;

	if (f->len < 8) {
		memcpy(out, "0000000000000000", 17);
		return;
	}
	for (i = start; i < start + 8; i++)
		put_hex(out, 17, &k, "", f->v[i], 1);
	finish(out, 17, k);
}

/* see gpg.h */
int
gpg_sig_id(char out[32], const pgp_sig *sig)
{
	static const char b64[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	uint8_t buf[6 + 2 * (2 + 1024)], d[PGP_HASH_MAX_LEN];
	size_t n = 0, i, k = 0;
	uint32_t t = sig->created;
	unsigned m;

	if (sig->nmpi == 0)
		return -1;
	buf[n++] = sig->pk_algo;
	buf[n++] = sig->hash_algo;
	buf[n++] = (uint8_t)(t >> 24);
	buf[n++] = (uint8_t)(t >> 16);
	buf[n++] = (uint8_t)(t >> 8);
	buf[n++] = (uint8_t)t;
	for (m = 0; m < sig->nmpi && m < 2; m++) {
		const uint8_t *p = sig->mpi[m].v.p;
		size_t len = sig->mpi[m].v.len, bits;
		while (len > 0 && *p == 0) {
			p++;
			len--;
		}
		if (len > 1024)
			return -1;
		bits = len ? (len - 1) * 8 : 0;
		if (len)
			for (uint8_t c = p[0]; c; c >>= 1)
				bits++;
		buf[n++] = (uint8_t)(bits >> 8);
		buf[n++] = (uint8_t)bits;
		if (len)
			memcpy(buf + n, p, len);
		n += len;
	}
	if (pgp_hash_buf(PGP_HASH_SHA1, buf, n, d) != PGP_OK)
		return -1;
	/* 20 octets: six 3-octet groups and 2 octets, no padding */
	for (i = 0; i + 3 <= 20; i += 3) {
		uint32_t v = (uint32_t)d[i] << 16 | (uint32_t)d[i + 1] << 8 | d[i + 2];
		out[k++] = b64[v >> 18 & 63];
		out[k++] = b64[v >> 12 & 63];
		out[k++] = b64[v >> 6 & 63];
		out[k++] = b64[v & 63];
	}
	{
		uint32_t v = (uint32_t)d[18] << 16 | (uint32_t)d[19] << 8;
		out[k++] = b64[v >> 18 & 63];
		out[k++] = b64[v >> 12 & 63];
		out[k++] = b64[v >> 6 & 63];
	}
	out[k] = '\0';
	return 0;
}

/* see gpg.h */
const char *
gpg_algo_upper(int pk_algo)
{
	switch (pk_algo) {
	case 1: case 2: case 3: return "RSA";
	case 16: case 20: return "ELG";
	case 17: return "DSA";
	case 18: return "ECDH";
	case 19: return "ECDSA";
	case 22: return "EDDSA";
	case 25: return "X25519";
	case 26: return "X448";
	case 27: return "ED25519";
	case 28: return "ED448";
	default: return "?";
	}
}

/* see gpg.h */
const char *
gpg_curve_colon(pgp_curve curve)
{
	switch (curve) {
	case PGP_CURVE_P256: return "nistp256";
	case PGP_CURVE_P384: return "nistp384";
	case PGP_CURVE_P521: return "nistp521";
	case PGP_CURVE_BP256: return "brainpoolP256r1";
	case PGP_CURVE_BP384: return "brainpoolP384r1";
	case PGP_CURVE_BP512: return "brainpoolP512r1";
	case PGP_CURVE_ED25519: return "ed25519";
	case PGP_CURVE_CV25519: return "cv25519";
	case PGP_CURVE_ED448: return "ed448";
	case PGP_CURVE_X448: return "cv448";
	case PGP_CURVE_SECP256K1: return "secp256k1";
	default: return "";
	}
}

/* see gpg.h */
int
gpg_parse_faked_time(const char *s, int64_t *out)
{
	char buf[32];
	size_t n = strlen(s), i;
	int64_t v = 0;

	if (n && s[n - 1] == '!')
		n--;
	if (n == 0 || n >= sizeof buf)
		return -1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (n == 15 && buf[8] == 'T') {
		/* YYYYMMDDTHHMMSS (UTC) */
		unsigned y, mo, d, h, mi, se;
		for (i = 0; i < 15; i++)
			if (i != 8 && (buf[i] < '0' || buf[i] > '9'))
				return -1;
		/* no time before the epoch: "now" is never negative */
		y = digits(buf, 4), mo = digits(buf + 4, 2), d = digits(buf + 6, 2);
		h = digits(buf + 9, 2), mi = digits(buf + 11, 2), se = digits(buf + 13, 2);
		if (y < 1970 || mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
			return -1;
		*out = pgp_days_from_civil((int64_t)y, mo, d) * 86400 + h * 3600 + mi * 60 + se;
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9' || v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (buf[i] - '0');
	}
	*out = v;
	return 0;
}
