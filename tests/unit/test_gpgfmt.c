/*
 * test_gpgfmt.c - the pure parts of the gpg drop-in: cmd/gpg_fmt.c (gpg's
 * escapes, dates, fingerprints) and cmd/gpg_opts.c (the option table and
 * argv parsing). Both are compiled into this test (they print nothing and
 * use only libpgp). The expected strings are what gpg 2.2.40 writes
 * (tests/cli/gpg_dropin.sh compares the whole runs with gpg itself).
 */
#include "t.h"
#include "cmd/gpg_fmt.c"
#include "cmd/gpg_opts.c"

static void
test_esc_status(void)
{
	/* gpg: GOODSIG ... "Ünï: b\s %25p%09tab%7F <w@example.org>" */
	static const char uid[] = "\xc3\x9cn\xc3\xaf: b\\s %p\ttab\x7f <w@example.org>";
	char out[128];
	size_t n;

	n = gpg_esc_status(out, sizeof out, (const uint8_t *)uid, sizeof uid - 1);
	T_EQ_STR(out, "\xc3\x9cn\xc3\xaf: b\\s %25p%09tab%7F <w@example.org>");
	T_EQ_INT(n, strlen(out));
	/* truncation: the length needed, a NUL within the buffer */
	n = gpg_esc_status(out, 4, (const uint8_t *)"%%%%", 4);
	T_EQ_INT(n, 12);
	T_EQ_STR(out, "%25");
	n = gpg_esc_status(out, sizeof out, (const uint8_t *)"a\nb\rc\0d", 7);
	T_EQ_STR(out, "a%0Ab%0Dc%00d");
	T_EQ_INT(n, 13);
}

static void
test_esc_imported(void)
{
	char out[64];

	gpg_esc_imported(out, sizeof out, (const uint8_t *)"a %p\tb\x7f\nc\r", 10);
	T_EQ_STR(out, "a %p\tb\x7f%0Ac%0D");
}

static void
test_esc_colon(void)
{
	/* gpg --with-colons field 10 of the same user ID */
	static const char uid[] = "\xc3\x9cn\xc3\xaf: b\\s %p\ttab\x7f <w@example.org>";
	char out[128];

	gpg_esc_colon(out, sizeof out, (const uint8_t *)uid, sizeof uid - 1);
	T_EQ_STR(out, "\xc3\x9cn\xc3\xaf\\x3a b\\x5cs %p\\x09tab\\x7f <w@example.org>");
}

static void
test_esc_human(void)
{
	static const char uid[] = "b\\s %p\ttab\x7f: \"q\"";
	char out[128];

	gpg_esc_human(out, sizeof out, (const uint8_t *)uid, sizeof uid - 1);
	T_EQ_STR(out, "b\\s %p\\x09tab\\x7f: \"q\"");
}

static void
test_dates(void)
{
	char out[64];

	setenv("TZ", "UTC", 1);
	tzset();
	gpg_fmt_asctime(out, sizeof out, 1796328539);
	T_EQ_STR(out, "Thu Dec  3 20:08:59 2026 UTC");
	gpg_fmt_asctime(out, sizeof out, 1793740192);
	T_EQ_STR(out, "Tue Nov  3 21:09:52 2026 UTC");
	/* a POSIX TZ string (no zone database): local time and its name */
	setenv("TZ", "XYZ-5", 1);
	tzset();
	gpg_fmt_asctime(out, sizeof out, 1796328539 + 86400 * 7);
	T_EQ_STR(out, "Fri Dec 11 01:08:59 2026 XYZ");
	gpg_fmt_asctime(out, 12, 1796328539);
	T_EQ_STR(out, "1796328539");
	setenv("TZ", "UTC", 1);
	tzset();
	gpg_fmt_date(out, sizeof out, 1796328539);
	T_EQ_STR(out, "2026-12-03");
	gpg_fmt_date(out, sizeof out, 0);
	T_EQ_STR(out, "1970-01-01");
}

static void
test_fpr(void)
{
	pgp_fpr f;
	char out[128], kid[17];
	size_t i;
	static const uint8_t v4[20] = {0x54, 0x21, 0xCB, 0x36, 0xFF, 0xA2, 0xA1, 0x21, 0xDD, 0x42,
	    0x7F, 0xF3, 0x2F, 0x4C, 0x9A, 0xE1, 0x0E, 0x3D, 0x22, 0x5D};

	memset(&f, 0, sizeof f);
	memcpy(f.v, v4, 20);
	f.len = 20;
	gpg_fmt_fpr_human(out, sizeof out, &f);
	T_EQ_STR(out, "5421 CB36 FFA2 A121 DD42  7FF3 2F4C 9AE1 0E3D 225D");
	gpg_fmt_fpr(out, sizeof out, &f);
	T_EQ_STR(out, "5421CB36FFA2A121DD427FF32F4C9AE10E3D225D");
	gpg_fmt_keyid(kid, &f);
	T_EQ_STR(kid, "2F4C9AE10E3D225D");
	/* v6: the key ID is the high 64 bits */
	f.len = 32;
	for (i = 0; i < 32; i++)
		f.v[i] = (uint8_t)i;
	gpg_fmt_keyid(kid, &f);
	T_EQ_STR(kid, "0001020304050607");
	gpg_fmt_fpr_human(out, sizeof out, &f);
	T_EQ_STR(out, "00010203 04050607 08090A0B 0C0D0E0F 10111213 14151617 18191A1B 1C1D1E1F");
}

static void
test_names(void)
{
	T_EQ_STR(gpg_algo_upper(22), "EDDSA");
	T_EQ_STR(gpg_algo_upper(1), "RSA");
	T_EQ_STR(gpg_algo_upper(17), "DSA");
	T_EQ_STR(gpg_curve_colon(PGP_CURVE_ED25519), "ed25519");
	T_EQ_STR(gpg_curve_colon(PGP_CURVE_CV25519), "cv25519");
	T_EQ_STR(gpg_curve_colon(PGP_CURVE_NONE), "");
}

static void
test_faked_time(void)
{
	int64_t t = 0;

	T_EQ_INT(gpg_parse_faked_time("1796328539", &t), 0);
	T_EQ_INT(t, 1796328539);
	T_EQ_INT(gpg_parse_faked_time("1796328539!", &t), 0);
	T_EQ_INT(t, 1796328539);
	T_EQ_INT(gpg_parse_faked_time("20261203T200859", &t), 0);
	T_EQ_INT(t, 1796328539);
	T_EQ_INT(gpg_parse_faked_time("20261303T200859", &t), -1);
	/* before the epoch (found by fuzz_gpg: a negative "now"); gpg's
	 * isotime2epoch refuses years before 1970 too */
	T_EQ_INT(gpg_parse_faked_time("19691231T235959", &t), -1);
	T_EQ_INT(gpg_parse_faked_time("00000101T000000", &t), -1);
	T_EQ_INT(gpg_parse_faked_time("19700101T000000", &t), 0);
	T_EQ_INT(t, 0);
	T_EQ_INT(gpg_parse_faked_time("12x", &t), -1);
	T_EQ_INT(gpg_parse_faked_time("", &t), -1);
	T_EQ_INT(gpg_parse_faked_time("!", &t), -1);
}

static void
parse(gpg_opts *o, const char *const *args)
{
	char *argv[32];
	int argc = 0;

	argv[argc++] = (char *)"wotkit-gpg";
	while (*args && argc < 31)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	gpg_opts_parse(o, argc, argv);
}

static void
test_opts_git(void)
{
	static const char *const a[] = {"--status-fd=1", "--keyid-format=long", "--verify",
	    ".git_vtag_tmpXXXXXX", "-", NULL};
	gpg_opts o;

	parse(&o, a);
	T_EQ_INT(o.cmd, GPG_CMD_VERIFY);
	T_EQ_INT(o.status_fd, 1);
	T_EQ_INT(o.nargs, 2);
	T_EQ_STR(o.args[0], ".git_vtag_tmpXXXXXX");
	T_EQ_STR(o.args[1], "-");
	T_ASSERT(!o.conflict && !o.missing_value && !o.bad_number);
}

static void
test_opts_patatt(void)
{
	static const char *const a[] = {"--batch", "--no-auto-key-retrieve",
	    "--no-auto-check-trustdb", "--homedir", "/tmp/x.patatt.gnupg", "--no-default-keyring",
	    "--keyring", "pub", "--verify", "--output", "-", "--status-fd=2", NULL};
	static const char *const b[] = {"--batch", "--with-colons", "--list-keys",
	    "ABCDEF0123456789", NULL};
	static const char *const c[] = {"--with-colons", "--fingerprint", "--list-keys", "K", NULL};
	gpg_opts o;

	parse(&o, a);
	T_EQ_INT(o.cmd, GPG_CMD_VERIFY);
	T_EQ_STR(o.homedir, "/tmp/x.patatt.gnupg");
	T_EQ_INT(o.nkeyrings, 1);
	T_EQ_STR(o.keyrings[0], "pub");
	T_EQ_STR(o.output, "-");
	T_EQ_INT(o.status_fd, 2);
	T_EQ_INT(o.no_default_keyring, 1);
	T_EQ_INT(o.nargs, 0);
	parse(&o, b);
	T_EQ_INT(o.cmd, GPG_CMD_LIST_KEYS);
	T_EQ_INT(o.with_colons, 1);
	T_EQ_INT(o.nargs, 1);
	parse(&o, c);
	T_EQ_INT(o.cmd, GPG_CMD_FINGERPRINT);
	T_ASSERT(!o.conflict);
}

static void
test_opts_values_skipped(void)
{
	/* known value options consume their value, unknown ones nothing */
	static const char *const a[] = {"--trust-model", "pgp", "--no-such-option", "--verify",
	    "--keyserver", "hkps://x", "-u", "KEY", "sig", "--weak-digest", "SHA1", "data", NULL};
	static const char *const b[] = {"--verify", "--", "--keyring", "x", NULL};
	gpg_opts o;

	parse(&o, a);
	T_EQ_INT(o.cmd, GPG_CMD_VERIFY);
	T_EQ_INT(o.nargs, 2);
	T_EQ_STR(o.args[0], "sig");
	T_EQ_STR(o.args[1], "data");
	parse(&o, b);
	T_EQ_INT(o.nargs, 2);
	T_EQ_STR(o.args[0], "--keyring");
	T_EQ_INT(o.nkeyrings, 0);
}

static void
test_opts_refused(void)
{
	static const char *const a[] = {"--status-fd=2", "-bsau", "ABCD", NULL};
	static const char *const b[] = {"--verify", "--clearsign", "x", NULL};
	static const char *const c[] = {"-d", "file", NULL};
	static const char *const d[] = {"--encrypt", "-r", "bob", "--verify", NULL};
	gpg_opts o;

	parse(&o, a);
	T_EQ_INT(o.cmd, GPG_CMD_REFUSED);
	T_EQ_STR(o.refused, "-bsau");
	T_EQ_INT(o.nargs, 0);    /* ABCD was -u's value */
	parse(&o, b);
	T_EQ_INT(o.cmd, GPG_CMD_REFUSED);
	T_EQ_STR(o.refused, "--clearsign");
	parse(&o, c);
	T_EQ_INT(o.cmd, GPG_CMD_REFUSED);
	parse(&o, d);
	T_EQ_INT(o.cmd, GPG_CMD_REFUSED);
	T_EQ_STR(o.refused, "--encrypt");
}

static void
test_opts_errors(void)
{
	static const char *const a[] = {"--verify", "--status-fd", NULL};
	static const char *const b[] = {"--status-fd=x", "--verify", NULL};
	static const char *const c[] = {"--verify", "--import", NULL};
	static const char *const d[] = {"--marginals-needed=1", "--verify", NULL};
	static const char *const e[] = {"--marginals-needed=2", "--completes-needed", "3",
	    "--max-cert-depth=4", "--verify", NULL};
	gpg_opts o;

	parse(&o, a);
	T_EQ_STR(o.missing_value, "--status-fd");
	parse(&o, b);
	T_EQ_STR(o.bad_number, "--status-fd=x");
	parse(&o, c);
	T_EQ_INT(o.conflict, 1);
	parse(&o, d);
	T_EQ_STR(o.bad_number, "--marginals-needed=1");
	parse(&o, e);
	T_ASSERT(o.bad_number == NULL);
	T_EQ_INT(o.marginals_needed, 2);
	T_EQ_INT(o.completes_needed, 3);
	T_EQ_INT(o.max_cert_depth, 4);
}

static void
test_table(void)
{
	size_t n, i, j;
	const gpg_opt_def *t = gpg_opt_table(&n);

	T_ASSERT(n > 50);
	/* no name or short letter twice */
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			T_ASSERT(strcmp(t[i].name, t[j].name) != 0);
			T_ASSERT(t[i].short_name == 0 || t[i].short_name != t[j].short_name);
		}
	T_ASSERT(gpg_opt_find("verify", 6) != NULL);
	T_ASSERT(gpg_opt_find("verif", 5) == NULL);
	T_EQ_INT(gpg_opt_find_short('k')->cmd, GPG_CMD_LIST_KEYS);
	T_ASSERT(gpg_opt_find_short('a') == NULL);
}

int
main(void)
{
	T_RUN(test_esc_status);
	T_RUN(test_esc_imported);
	T_RUN(test_esc_colon);
	T_RUN(test_esc_human);
	T_RUN(test_dates);
	T_RUN(test_fpr);
	T_RUN(test_names);
	T_RUN(test_faked_time);
	T_RUN(test_opts_git);
	T_RUN(test_opts_patatt);
	T_RUN(test_opts_values_skipped);
	T_RUN(test_opts_refused);
	T_RUN(test_opts_errors);
	T_RUN(test_table);
	return T_DONE();
}
