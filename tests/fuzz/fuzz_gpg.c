/*
 * fuzz_gpg.c - libFuzzer target for the gpg drop-in's pure parts
 * (cmd/gpg_opts.c argument handling, cmd/gpg_fmt.c status and colon
 * escapes, dates, fingerprints, SIG_ID; docs/gpg.md). The input is split at
 * NUL octets into argv[1..] (at most FUZZ_MAX_ARGV strings) and parsed as
 * gpg's command line; every argument is also escaped each way.
 * Invariants (a violation aborts):
 *  - what gpg_opts_parse keeps (homedir, keyrings, args, values, the
 *    spelled option of a problem) points into the argv strings; counts
 *    stay within GPG_MAX_KEYRINGS / GPG_MAX_ARGS;
 *  - an escape returns the length it needs, writes at most n-1 octets and
 *    a NUL, a truncated result is a prefix of the full one, the full one
 *    never holds an octet its format must escape (so a user ID cannot end
 *    a status line or a colon field), and unescaping it gives the input;
 *  - a --faked-system-time value that parses formats as a date.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/gpg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_ARGV 96
#define FUZZ_ESC_CAP 4096
#define FUZZ_CHECKED_ARGS 12

typedef size_t (*esc_fn)(char *out, size_t n, const uint8_t *s, size_t len);

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* 1 when octet c may not appear as itself in the output of format kind
 * (0 status, 1 IMPORTED, 2 colons, 3 human). */
static int
forbidden(int kind, uint8_t c)
{
	switch (kind) {
	case 1: return c == '\n' || c == '\r';
	case 2: return c < 0x20 || c == 0x7f || c == ':';
	default: return c < 0x20 || c == 0x7f;
	}
}

/* Decode a status (%XX) or colon (\xNN) escaped text; -1 when an escape
 * is malformed. The other two formats leave '%' or '\' as they are and
 * cannot be decoded unambiguously. */
static long
unescape(int kind, const char *s, size_t len, uint8_t *out)
{
	size_t i = 0, k = 0;
	while (i < len) {
		int h, l;
		if (kind == 0 && s[i] == '%') {
			if (i + 3 > len || (h = hexval(s[i + 1])) < 0 || (l = hexval(s[i + 2])) < 0)
				return -1;
			out[k++] = (uint8_t)(h << 4 | l);
			i += 3;
		} else if (kind == 2 && s[i] == '\\') {
			if (i + 4 > len || s[i + 1] != 'x' || (h = hexval(s[i + 2])) < 0 ||
			    (l = hexval(s[i + 3])) < 0)
				return -1;
			out[k++] = (uint8_t)(h << 4 | l);
			i += 4;
		} else {
			out[k++] = (uint8_t)s[i++];
		}
	}
	return (long)k;
}

static void
check_escape(int kind, esc_fn fn, const uint8_t *s, size_t len)
{
	static char full[FUZZ_ESC_CAP * 4 + 1], part[64];
	static uint8_t back[FUZZ_ESC_CAP * 4];
	size_t need, got, n, i, j;
	long k;

	if (len > FUZZ_ESC_CAP)
		len = FUZZ_ESC_CAP;
	need = fn(full, sizeof full, s, len);
	if (need >= sizeof full || strlen(full) != need)
		abort();
	for (i = 0; i < need; i++)
		if (forbidden(kind, (uint8_t)full[i]))
			abort();
	if (kind == 0 || kind == 2) {
		/* the status and colon escapes are unambiguous: they decode back */
		k = unescape(kind, full, need, back);
		if (k < 0 || (size_t)k != len || memcmp(back, s, len) != 0)
			abort();
	}
	/* small and boundary buffer sizes: the same length needed, a prefix,
	 * NUL-terminated, nothing written past n */
	for (j = 0; j < 8; j++) {
		static const size_t fixed[5] = { 0, 1, 2, 3, 4 };
		n = j < 5 ? fixed[j] : need + 1 - (j - 5);   /* need+1, need, need-1 */
		if (n > sizeof part - 1)
			continue;
		memset(part, 'Z', sizeof part);
		got = fn(part, n, s, len);
		if (got != need)
			abort();
		if (n > 0) {
			size_t w = need < n - 1 ? need : n - 1;
			if (part[w] != '\0' || memcmp(part, full, w) != 0)
				abort();
		}
		if (part[n] != 'Z')
			abort();
	}
}

/* p lies inside one of the argument strings (or is NULL). */
static void
inside_args(const char *p, char **argv, int argc)
{
	int i;
	if (p == NULL)
		return;
	for (i = 1; i < argc; i++)
		if (p >= argv[i] && p <= argv[i] + strlen(argv[i]))
			return;
	abort();
}

static void
check_opts(char **argv, int argc)
{
	gpg_opts o;
	size_t i;

	gpg_opts_parse(&o, argc, argv);
	if (o.nkeyrings > GPG_MAX_KEYRINGS || o.nargs > GPG_MAX_ARGS ||
	    (unsigned)o.cmd > GPG_CMD_REFUSED || o.status_fd < -1 || o.status_fd > (1 << 20) ||
	    o.marginals_needed > 255 || o.completes_needed > 255 || o.max_cert_depth > 255 ||
	    (o.marginals_needed != 0 && o.marginals_needed < 2))
		abort();
	if ((o.cmd == GPG_CMD_REFUSED) != (o.refused != NULL))
		abort();
	inside_args(o.refused, argv, argc);
	inside_args(o.homedir, argv, argc);
	inside_args(o.output, argv, argc);
	inside_args(o.faked_time, argv, argc);
	inside_args(o.bad_number, argv, argc);
	inside_args(o.missing_value, argv, argc);
	for (i = 0; i < o.nkeyrings; i++)
		inside_args(o.keyrings[i], argv, argc);
	for (i = 0; i < o.nargs; i++)
		inside_args(o.args[i], argv, argc);
	if (o.faked_time) {
		int64_t t;
		char buf[64];
		if (gpg_parse_faked_time(o.faked_time, &t) == 0) {
			if (t < 0)
				abort();
			if (t < (int64_t)1 << 40) {
				gpg_fmt_date(buf, sizeof buf, t);
				if (strlen(buf) < 10)
					abort();
				gpg_fmt_asctime(buf, sizeof buf, t);
			}
		}
	}
}

/* Names, the option table, fingerprints and the signature ID of one argument. */
static void
check_arg(const char *a, size_t len)
{
	const gpg_opt_def *d;
	pgp_fpr f;
	char out[128], kid[17];
	size_t n;

	if (len > 2 && a[0] == '-' && a[1] == '-') {
		const char *eq = memchr(a + 2, '=', len - 2);
		n = eq ? (size_t)(eq - a - 2) : len - 2;
		d = gpg_opt_find(a + 2, n);
		if (d && (strlen(d->name) != n || memcmp(d->name, a + 2, n) != 0))
			abort();
	}
	if (len > 1 && (d = gpg_opt_find_short(a[1])) != NULL && d->short_name != a[1])
		abort();
	/* every argument as a --faked-system-time value */
	{
		int64_t t;
		if (gpg_parse_faked_time(a, &t) == 0 && t < 0)
			abort();
	}
	(void)gpg_algo_upper((uint8_t)a[0]);
	(void)gpg_curve_colon((pgp_curve)((uint8_t)a[0] % 16));
	/* a fingerprint of each length from the argument's octets */
	for (n = 0; n < 3; n++) {
		static const uint8_t lens[3] = { 16, 20, 32 };
		memset(&f, 0, sizeof f);
		f.len = lens[n];
		memcpy(f.v, a, len < f.len ? len : f.len);
		gpg_fmt_fpr(out, sizeof out, &f);
		if (strlen(out) != 2u * f.len)
			abort();
		gpg_fmt_fpr_human(out, sizeof out, &f);
		gpg_fmt_keyid(kid, &f);
		if (strlen(kid) != 16)
			abort();
	}
	/* the argument as a signature packet body: SIG_ID */
	{
		pgp_sig s;
		pgp_rd r;
		char id[32];
		pgp_rd_init(&r, (const uint8_t *)a, len);
		if (pgp_sig_parse(&s, &r, NULL) == PGP_OK && gpg_sig_id(id, &s) == 0 && strlen(id) != 27)
			abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf, *argv[FUZZ_MAX_ARGV + 2];
	size_t i, start = 0;
	int argc = 1;

	if ((buf = malloc(size + 1)) == NULL)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[0] = (char *)"gpg";
	for (i = 0; i <= size && argc <= FUZZ_MAX_ARGV; i++) {
		if (buf[i] == '\0') {
			argv[argc++] = buf + start;
			start = i + 1;
		}
	}
	argv[argc] = NULL;
	check_opts(argv, argc);
	/* the per-argument checks on the first arguments only (speed) */
	for (i = 1; i < (size_t)argc && i <= FUZZ_CHECKED_ARGS; i++) {
		size_t len = strlen(argv[i]);
		check_arg(argv[i], len);
		check_escape(0, gpg_esc_status, (const uint8_t *)argv[i], len);
		check_escape(1, gpg_esc_imported, (const uint8_t *)argv[i], len);
		check_escape(2, gpg_esc_colon, (const uint8_t *)argv[i], len);
		check_escape(3, gpg_esc_human, (const uint8_t *)argv[i], len);
	}
	/* the whole input (NULs included) as one user ID */
	check_escape(0, gpg_esc_status, data, size);
	check_escape(1, gpg_esc_imported, data, size);
	check_escape(2, gpg_esc_colon, data, size);
	free(buf);
	return 0;
}
