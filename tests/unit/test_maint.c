/*
 * test_maint.c - keyring/maint.h: MAINTAINERS parsing, e-mail addresses,
 * and file matching as scripts/get_maintainer.pl does it (F: trailing
 * slash and slash-count rule, globs, directories decided on known paths,
 * X: exclusion, N: Perl /x expressions, THE REST's "F: *" and "F: *\/"),
 * malformed lines and limits. Every expectation is written from
 * get_maintainer.pl's rules (docs/maintainers.md), not measured.
 */
#include "t.h"
#include "keyring/maint.h"

static maint_file *
parse_text(const char *text)
{
	maint_file *m = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_err e = maint_parse(&m, (const uint8_t *)text, strlen(text), &d);
	T_EQ_INT(e, PGP_OK);
	return m;
}

static int
view_is(pgp_view v, const char *s)
{
	return v.len == strlen(s) && memcmp(v.p, s, v.len) == 0;
}

/* One F: (or X:, N:) value in a one-section file, matched against path
 * with the known paths k[0..nk). */
static int
match1(char type, const char *value, const char *path, const char *const *k, size_t nk)
{
	static char text[8192];
	maint_paths known = {k, nk};
	maint_file *m;
	int r;

	snprintf(text, sizeof text, "SECTION\n%c:\t%s\n", type, value);
	if ((m = parse_text(text)) == NULL)
		return -1;
	r = type == 'N' ? maint_regex_match(m, 0, path, strlen(path)) :
	    maint_pattern_match(m, 0, path, strlen(path), &known);
	maint_free(m);
	return r;
}

static int
fm(const char *value, const char *path)
{
	return match1('F', value, path, NULL, 0);
}

static int
nm(const char *value, const char *path)
{
	return match1('N', value, path, NULL, 0);
}

/* section text: does its (only) section cover path? */
static int
covers(const char *text, const char *path)
{
	maint_file *m = parse_text(text);
	int r;
	if (m == NULL)
		return -1;
	T_EQ_INT(maint_nsections(m), 1);
	r = maint_covers(m, 0, path, strlen(path), NULL);
	maint_free(m);
	return r;
}

/* ---- F: with a trailing slash: everything below ---- */
static void
test_f_trailing_slash(void)
{
	T_EQ_INT(fm("drivers/net/", "drivers/net/a.c"), 1);
	T_EQ_INT(fm("drivers/net/", "drivers/net/x/y/z.c"), 1);
	T_EQ_INT(fm("drivers/net/", "drivers/netfoo.c"), 0);
	T_EQ_INT(fm("drivers/net/", "drivers/net"), 0);
	T_EQ_INT(fm("drivers/net/", "drivers/ne/t.c"), 0);
	T_EQ_INT(fm("drivers/net/", "xdrivers/net/a.c"), 0);   /* anchored at the start */
	T_EQ_INT(fm("drivers/net/", "Drivers/net/a.c"), 0);    /* case matters */
	T_EQ_INT(fm("Documentation/", "Documentation/a/b/c/d/e.rst"), 1);
}

/* ---- F: without a trailing slash: same number of '/' ---- */
static void
test_f_slash_count(void)
{
	T_EQ_INT(fm("include/linux/foo.h", "include/linux/foo.h"), 1);
	/* a prefix with as many '/' matches too (no end anchor in m@^...@) */
	T_EQ_INT(fm("include/linux/foo.h", "include/linux/foo.hx"), 1);
	T_EQ_INT(fm("include/linux/foo.h", "include/linux/foo.h/bar"), 0);
	T_EQ_INT(fm("include/linux/foo.h", "include/linux/fooxh"), 0);   /* '.' is literal */
	T_EQ_INT(fm("include/linux/foo.h", "include/linux/fo.h"), 0);
	/* a directory name without '/' and nothing known below it: a file pattern */
	T_EQ_INT(fm("drivers/foo", "drivers/foo/a.c"), 0);
	T_EQ_INT(fm("drivers/foo", "drivers/foobar.c"), 1);
	T_EQ_INT(fm("MAINTAINERS", "MAINTAINERS"), 1);
	T_EQ_INT(fm("MAINTAINERS", "x/MAINTAINERS"), 0);
}

/* ---- a directory decided on known paths (get_maintainer.pl's -d) ---- */
static void
test_f_directory_known(void)
{
	const char *k1[] = {"drivers/foo/a.c", "drivers/foobar.c"};
	const char *k2[] = {"drivers/fo/x", "drivers/foo-bar/a.c", "drivers/foo.c", "drivers/foo0/x"};
	const char *k3[] = {"drivers/foo.d/x.c"};
	const char *k4[] = {"drivers/foo"};   /* the path itself is no directory */
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foo/a.c", k1, 2), 1);
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foo/b/c.c", k1, 2), 1);
	/* now a directory: drivers/foo/ no longer matches drivers/foobar.c */
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foobar.c", k1, 2), 0);
	/* known paths that only share a prefix do not make it a directory
	 * ('-' and '.' sort before '/', '0' after) */
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foo.c", k2, 4), 1);
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foo/a.c", k2, 4), 0);
	/* a value with '.' is never a directory (-d on the converted "\.") */
	T_EQ_INT(match1('F', "drivers/foo.d", "drivers/foo.d/x.c", k3, 1), 0);
	T_EQ_INT(match1('F', "drivers/foo", "drivers/foo", k4, 1), 1);
	/* a glob value is never a directory */
	T_EQ_INT(match1('F', "drivers/fo*", "drivers/foo/a.c", k1, 2), 0);
}

/* ---- globs ---- */
static void
test_f_glob_depth(void)
{
	T_EQ_INT(fm("drivers/*/foo*", "drivers/a/foo.c"), 1);
	T_EQ_INT(fm("drivers/*/foo*", "drivers/a/foobar.h"), 1);
	T_EQ_INT(fm("drivers/*/foo*", "drivers/a/b/foo.c"), 0);    /* 3 '/' against 2 */
	T_EQ_INT(fm("drivers/*/foo*", "drivers/a/bar.c"), 0);
	T_EQ_INT(fm("drivers/*foo.c", "drivers/x/foo.c"), 0);      /* '*' crosses '/', the count does not */
	T_EQ_INT(fm("drivers/*foo.c", "drivers/xfoo.c"), 1);
	T_EQ_INT(fm("drivers/fo?.c", "drivers/foo.c"), 1);
	T_EQ_INT(fm("drivers/fo?.c", "drivers/fox.c"), 1);
	T_EQ_INT(fm("drivers/fo?.c", "drivers/fo.c"), 0);
	T_EQ_INT(fm("*.c", "a.c"), 1);
	T_EQ_INT(fm("*.c", "dir/a.c"), 0);
	T_EQ_INT(fm("a*b*c", "axxbyyc"), 1);
	T_EQ_INT(fm("a*b*c", "axxbyy"), 0);
	T_EQ_INT(fm("a*b*c", "abcabc"), 1);
	T_EQ_INT(fm("include/dt-bindings/clock/*imx*", "include/dt-bindings/clock/fsl,imx8.h"), 1);
}

static void
test_f_glob_trailing_slash(void)
{
	T_EQ_INT(fm("arch/*/boot/", "arch/x86/boot/a.c"), 1);
	T_EQ_INT(fm("arch/*/boot/", "arch/x86/boot/z/y.c"), 1);
	/* '*' is ".*": with a trailing '/' there is no count, so it spans levels */
	T_EQ_INT(fm("arch/*/boot/", "arch/a/b/boot/c"), 1);
	T_EQ_INT(fm("arch/*/boot/", "arch/x86/bootx/c"), 0);
	T_EQ_INT(fm("a?b/", "a/b/c"), 1);                            /* '?' is any one, '/' too */
	T_EQ_INT(fm("a?b/", "ab/c"), 0);
	T_EQ_INT(fm("drivers/*/", "drivers/x"), 0);
	T_EQ_INT(fm("drivers/*/", "drivers/x/y"), 1);
}

/* ---- THE REST: "F: *" top-level files, "F: *\/" everything in a directory ---- */
static void
test_the_rest(void)
{
	const char *rest = "THE REST\nM:\tLinus Torvalds <torvalds@linux-foundation.org>\n"
	    "L:\tlinux-kernel@vger.kernel.org\nS:\tBuried alive in reporters\nF:\t*\nF:\t*/\n";
	T_EQ_INT(fm("*", "Makefile"), 1);
	T_EQ_INT(fm("*", "drivers/x.c"), 0);
	T_EQ_INT(fm("*/", "drivers/x.c"), 1);
	T_EQ_INT(fm("*/", "a/b/c/d"), 1);
	T_EQ_INT(fm("*/", "Makefile"), 0);
	T_EQ_INT(covers(rest, "Makefile"), 1);
	T_EQ_INT(covers(rest, "drivers/net/a.c"), 1);
	T_EQ_INT(covers(rest, ".gitignore"), 1);
	T_EQ_INT(covers(rest, "a/.b/c"), 1);
}

/* ---- X: excludes the section ---- */
static void
test_x_exclusion(void)
{
	const char *net = "NET\nM:\ta@example.org\nF:\tdrivers/net/\nX:\tdrivers/net/wireless/\n";
	const char *glob = "G\nM:\ta@example.org\nF:\tfs/\nX:\tfs/*.h\nX:\tfs/ext4\n";
	const char *xonly = "XO\nM:\ta@example.org\nX:\tfoo/\n";
	const char *nx = "NX\nM:\ta@example.org\nN:\tsunxi\nX:\tdrivers/clk/\n";
	T_EQ_INT(covers(net, "drivers/net/a.c"), 1);
	T_EQ_INT(covers(net, "drivers/net/wireless/b.c"), 0);
	T_EQ_INT(covers(net, "drivers/net/wireless"), 1);   /* the path itself is not below it */
	T_EQ_INT(covers(glob, "fs/a.h"), 0);
	T_EQ_INT(covers(glob, "fs/x/a.h"), 1);              /* slash count: fs/x/a.h is deeper */
	T_EQ_INT(covers(glob, "fs/a.c"), 1);
	T_EQ_INT(covers(glob, "fs/ext4"), 0);
	T_EQ_INT(covers(glob, "fs/ext4/inode.c"), 1);       /* X: fs/ext4 is a file pattern here */
	T_EQ_INT(covers(xonly, "bar/a.c"), 0);              /* no F: no cover */
	T_EQ_INT(covers(nx, "drivers/clk/sunxi/a.c"), 0);   /* X: beats N: too */
	T_EQ_INT(covers(nx, "arch/arm/mach-sunxi/a.c"), 1);
}

/* ---- N: Perl extended expressions, searched anywhere ---- */
static void
test_n_regex(void)
{
	T_EQ_INT(nm("sunxi", "arch/arm/mach-sunxi/x.c"), 1);
	T_EQ_INT(nm("sunxi", "drivers/clk/sunxi-ng/a.c"), 1);
	T_EQ_INT(nm("sunxi", "drivers/clk/sun4i/a.c"), 0);
	T_EQ_INT(nm("[^a-z]tegra", "drivers/x/tegra.c"), 1);
	T_EQ_INT(nm("[^a-z]tegra", "drivers/x/nvtegra.c"), 0);
	T_EQ_INT(nm("sun [x4-9] i", "arch/sun8i/a"), 1);       /* /x: whitespace ignored */
	T_EQ_INT(nm("sun [x4-9] i", "arch/sun 8i/a"), 0);
	T_EQ_INT(nm("[ ]x", "a x"), 1);                        /* kept inside brackets */
	T_EQ_INT(nm("foo # a comment", "a/foo"), 1);
	T_EQ_INT(nm("foo # a comment", "a/fo"), 0);
	T_EQ_INT(nm("\\d\\d\\d", "drivers/x123"), 1);
	T_EQ_INT(nm("\\d\\d\\d", "drivers/x12y"), 0);
	T_EQ_INT(nm("x\\D", "x1 xa"), 1);
	T_EQ_INT(nm("x\\D", "x1"), 0);
	T_EQ_INT(nm("(?:foo|bar)\\.c$", "a/bar.c"), 1);
	T_EQ_INT(nm("(?:foo|bar)\\.c$", "a/bar.cc"), 0);
	T_EQ_INT(nm("fo*?x", "a/fooox"), 1);                   /* lazy: same answer */
	T_EQ_INT(nm("\\bmediatek\\b", "arm/mediatek/x"), 1);   /* glibc's \b */
	T_EQ_INT(nm("\\bmediatek\\b", "arm/mediateks/x"), 0);
	T_EQ_INT(nm("[\\d]x", "9x"), 1);
	T_EQ_INT(nm("[\\d]x", "ax"), 0);
	T_EQ_INT(nm("^drivers/", "drivers/a"), 1);
	T_EQ_INT(nm("^drivers/", "x/drivers/a"), 0);
	T_EQ_INT(nm("[]a]b", "]b"), 1);                       /* ']' first is literal */
}

static void
test_n_bad(void)
{
	maint_file *m = parse_text("S\nN:\t[abc\nN:\t(?<=x)y\nN:\t[\\]]\nN:\tok\nF:\tdrivers/[a\n");
	if (m == NULL)
		return;
	T_EQ_INT(maint_nentries(m), 5);
	T_EQ_INT(maint_entry_at(m, 0)->bad, 1);
	T_EQ_INT(maint_entry_at(m, 1)->bad, 1);
	T_EQ_INT(maint_entry_at(m, 2)->bad, 1);
	T_EQ_INT(maint_entry_at(m, 3)->bad, 0);
	T_EQ_INT(maint_entry_at(m, 4)->bad, 1);
	T_ASSERT(maint_entry_at(m, 0)->reason != NULL);
	T_EQ_INT(maint_regex_match(m, 0, "[abc", 4), 0);
	T_EQ_INT(maint_regex_match(m, 1, "xy", 2), 0);
	T_EQ_INT(maint_pattern_match(m, 4, "drivers/[a", 10, NULL), 0);
	T_EQ_INT(maint_covers(m, 0, "x/ok", 4, NULL), 1);
	maint_free(m);
}

/* ---- expressions glibc would expand exponentially, back-references ---- */
static int
is_bad(char type, const char *value)
{
	static char text[8192];
	maint_file *m;
	int r;
	snprintf(text, sizeof text, "S\n%c:\t%s\n", type, value);
	if ((m = parse_text(text)) == NULL)
		return -1;
	r = maint_entry_at(m, 0)->bad;
	maint_free(m);
	return r;
}

static void
test_regex_bounds(void)
{
	T_EQ_INT(is_bad('N', "a+b+"), 0);                       /* 2 x 2 */
	T_EQ_INT(is_bad('N', "a+b+c+d+e+f+"), 0);               /* 2^6 = 64: at the limit */
	T_EQ_INT(is_bad('N', "a+b+c+d+e+f+g+"), 1);             /* 128 */
	T_EQ_INT(is_bad('N', "a+++++++"), 1);
	/* stacked quantifiers: a quantifier and a lazy/possessive mark at most
	 * (glibc's regcomp needs 11 s for ".*+++++"; found by fuzz_maint) */
	T_EQ_INT(is_bad('N', "a.*?b"), 0);
	T_EQ_INT(is_bad('N', "a++b"), 0);
	T_EQ_INT(is_bad('N', "a+++b"), 1);
	T_EQ_INT(is_bad('N', ".*+++++"), 1);
	T_EQ_INT(is_bad('N', "x{2}+"), 0);
	T_EQ_INT(is_bad('N', "x{2}++"), 1);
	T_EQ_INT(is_bad('F', "*++++++"), 1);
	T_EQ_INT(is_bad('F', "drivers/*/foo*.c"), 0);
	T_EQ_INT(is_bad('N', "a+++++++++++++++++++++++++++++++++"), 1);
	T_EQ_INT(is_bad('N', "((a+)+(b+)+)+(c+)+(d+)+"), 1);
	T_EQ_INT(is_bad('N', "x{1,63}"), 0);                    /* 64 copies */
	T_EQ_INT(is_bad('N', "x{1,64}"), 1);
	T_EQ_INT(is_bad('N', "x{65}"), 1);
	T_EQ_INT(is_bad('N', "x{3,}"), 0);
	T_EQ_INT(is_bad('N', "x{99999999999999999999}"), 1);   /* no overflow */
	T_EQ_INT(is_bad('N', "[+{]+"), 0);                      /* inside brackets: literals */
	T_EQ_INT(is_bad('N', "[[:alpha:]+]x"), 0);
	T_EQ_INT(is_bad('N', "\\+x"), 0);                     /* an escaped backslash, then + */
	T_EQ_INT(is_bad('N', "(a)\\1"), 1);                   /* a back-reference */
	T_EQ_INT(is_bad('F', "lib/(a)\\1/"), 1);
	T_EQ_INT(is_bad('F', "lib/a+b"), 0);
	T_EQ_INT(is_bad('F', "lib/a++++++++b"), 1);
	T_EQ_INT(nm("x{3,}", "axxx"), 1);
	T_EQ_INT(nm("x{3,}", "axx"), 0);
}

/* ---- F: holding other regular expression characters: regcomp ---- */
static void
test_f_regex_fallback(void)
{
	T_EQ_INT(fm("drivers/[ab]x/", "drivers/ax/1"), 1);
	T_EQ_INT(fm("drivers/[ab]x/", "drivers/bx/2/3"), 1);
	T_EQ_INT(fm("drivers/[ab]x/", "drivers/cx/3"), 0);
	T_EQ_INT(fm("lib/a+b", "lib/aab"), 1);
	T_EQ_INT(fm("lib/a+b", "lib/b"), 0);
	T_EQ_INT(fm("lib/(x|y)*.c", "lib/xy.c"), 1);       /* '*' -> ".*" inside the group */
	T_EQ_INT(fm("lib/(x|y)*.c", "lib/sub/x.c"), 0);    /* slash count */
}

static void
test_conversions(void)
{
	char out[64];
	size_t n = 0;
	pgp_view v;
	v.p = (const uint8_t *)"drivers/*.c?";
	v.len = 12;
	T_EQ_INT(maint_glob_to_regex(v, out, sizeof out, &n), PGP_OK);
	T_EQ_STR(out, "drivers/.*\\.c.");
	T_EQ_INT(n, strlen("drivers/.*\\.c."));
	T_EQ_INT(maint_glob_to_regex(v, out, 10, &n), PGP_ERR_LIMIT);
	v.p = (const uint8_t *)" sun [x4-9 ] i  (?:a|b)*? \\d # c";
	v.len = strlen((const char *)v.p);
	T_EQ_INT(maint_perlx_to_ere(v, out, sizeof out, &n), PGP_OK);
	T_EQ_STR(out, "sun[x4-9 ]i(a|b)*[0-9]");
	T_EQ_INT(maint_perlx_to_ere(v, out, 8, &n), PGP_ERR_LIMIT);
	v.p = (const uint8_t *)"[^]x]";
	v.len = 5;
	T_EQ_INT(maint_perlx_to_ere(v, out, sizeof out, &n), PGP_OK);
	T_EQ_STR(out, "[^]x]");
	v.p = (const uint8_t *)"[ab";
	v.len = 3;
	T_EQ_INT(maint_perlx_to_ere(v, out, sizeof out, &n), PGP_ERR_MALFORMED);
}

/* ---- e-mail addresses ---- */
static int
em(const char *value, const char *want)
{
	pgp_view v, out;
	int r;
	v.p = (const uint8_t *)value;
	v.len = strlen(value);
	r = maint_email(v, &out);
	if (want == NULL)
		return r == 0 && out.len == 0;
	return r == 1 && view_is(out, want);
}

static void
test_email(void)
{
	char longv[400];
	T_ASSERT(em("Linus Torvalds <torvalds@linux-foundation.org>", "torvalds@linux-foundation.org"));
	T_ASSERT(em("netdev@vger.kernel.org", "netdev@vger.kernel.org"));
	T_ASSERT(em("\"Rafael J. Wysocki\" <rafael@kernel.org>", "rafael@kernel.org"));
	T_ASSERT(em("\"Last, First\" <first.last@example.org>", "first.last@example.org"));
	T_ASSERT(em("Name <a@b.example> (maintainer:FOO)", "a@b.example"));
	T_ASSERT(em("a@b.example (Some Name)", "a@b.example"));
	T_ASSERT(em("(a@b.example)", "a@b.example"));
	T_ASSERT(em("linux-kernel@vger.kernel.org (moderated for non-subscribers)",
	    "linux-kernel@vger.kernel.org"));
	T_ASSERT(em("Jos\xc3\xa9 N\xc3\xba\xc3\xb1""ez <jose@example.org>", "jose@example.org"));
	T_ASSERT(em("<first@x.example> <second@y.example>", "second@y.example"));
	T_ASSERT(em("Name <A@B.Example>", "A@B.Example"));       /* case kept */
	T_ASSERT(em("  a@b  ", "a@b"));
	T_ASSERT(em("Name <a@b", NULL));
	T_ASSERT(em("Name <>", NULL));
	T_ASSERT(em("Name only", NULL));
	T_ASSERT(em("", NULL));
	T_ASSERT(em("Name <a@@b>", NULL));
	T_ASSERT(em("Name <a b@c>", NULL));
	T_ASSERT(em("Name <@b>", NULL));
	T_ASSERT(em("Name <a@>", NULL));
	T_ASSERT(em("Name <a@b\x01>", NULL));
	memset(longv, 'a', sizeof longv);
	memcpy(longv + 100, "@", 1);
	longv[MAINT_MAX_EMAIL + 1] = 0;                          /* 255 octets */
	T_ASSERT(em(longv, NULL));
	longv[MAINT_MAX_EMAIL] = 0;                              /* 254 octets */
	T_ASSERT(em(longv, longv));
}

static void
test_has_email(void)
{
	maint_file *m = parse_text("A\nM:\tAlice <Alice@Example.org>\nR:\tBob <bob@example.org>\n"
	    "L:\tlist@example.org\nB\nM:\tcarol@example.org\n");
	if (m == NULL)
		return;
	T_EQ_INT(maint_nsections(m), 2);
	T_EQ_INT(maint_has_email(m, 0, 'M', (const uint8_t *)"alice@example.ORG", 17), 1);
	T_EQ_INT(maint_has_email(m, 0, 'M', (const uint8_t *)"bob@example.org", 15), 0);
	T_EQ_INT(maint_has_email(m, 0, 'R', (const uint8_t *)"bob@example.org", 15), 1);
	T_EQ_INT(maint_has_email(m, 0, 'M', (const uint8_t *)"alice@example.or", 16), 0);
	T_EQ_INT(maint_has_email(m, 1, 'M', (const uint8_t *)"alice@example.org", 17), 0);
	T_EQ_INT(maint_has_email(m, 1, 'M', (const uint8_t *)"carol@example.org", 17), 1);
	T_EQ_INT(maint_has_email(m, 7, 'M', (const uint8_t *)"carol@example.org", 17), 0);
	T_ASSERT(view_is(maint_entry_at(m, 2)->email, "list@example.org"));
	maint_free(m);
}

/* ---- the structure of the file ---- */
static void
test_structure(void)
{
	const char *text =
	    "List of maintainers\n"
	    "===================\n"
	    "\n"
	    "\tM: Mail patches to: FullName <address@domain>\n"
	    "\tF: *Files* and directories wildcard patterns.\n"
	    "\n"
	    "# a comment\n"
	    "3C59X NETWORK DRIVER  \n"
	    "M:\tSteffen Klassert <klassert@kernel.org>\n"
	    "L:\tnetdev@vger.kernel.org\n"
	    "\n"
	    "   # an indented comment between entries\n"
	    "F:\tdrivers/net/ethernet/3com/3c59x.c\n"
	    "FIRST TITLE\n"
	    "SECOND TITLE\n"
	    "M:x@example.org\n"
	    "F:  \t drivers/x/ \n"
	    "f:\tlower-case is a title\n"
	    "K:\tfoo\n";
	maint_file *m = parse_text(text);
	const maint_section *s;
	if (m == NULL)
		return;
	T_EQ_INT(maint_nsections(m), 3);
	s = maint_section_at(m, 0);
	T_ASSERT(view_is(s->title, "3C59X NETWORK DRIVER"));
	T_EQ_INT(s->line, 8);
	T_EQ_INT(s->n, 3);                       /* a blank line does not split a section */
	T_EQ_INT(maint_entry_at(m, s->first + 2)->type, 'F');
	T_EQ_INT(maint_entry_at(m, s->first + 2)->line, 13);
	T_ASSERT(view_is(maint_entry_at(m, s->first + 1)->email, "netdev@vger.kernel.org"));
	s = maint_section_at(m, 1);
	T_ASSERT(view_is(s->title, "SECOND TITLE"));
	T_EQ_INT(s->n, 2);
	T_ASSERT(view_is(maint_entry_at(m, s->first)->value, "x@example.org"));
	/* whitespace after the colon goes, trailing whitespace stays */
	T_ASSERT(view_is(maint_entry_at(m, s->first + 1)->value, "drivers/x/ "));
	/* so that pattern does not end in '/': slash count 2 */
	T_EQ_INT(maint_pattern_match(m, s->first + 1, "drivers/x/ a", 12, NULL), 1);
	T_EQ_INT(maint_pattern_match(m, s->first + 1, "drivers/x/a", 11, NULL), 0);
	s = maint_section_at(m, 2);
	T_ASSERT(view_is(s->title, "f:\tlower-case is a title"));
	T_EQ_INT(s->n, 1);
	T_EQ_INT(maint_nentries(m), 6);
	T_ASSERT(maint_section_at(m, 3) == NULL);
	T_ASSERT(maint_entry_at(m, 6) == NULL);
	maint_free(m);
}

static void
test_untitled_and_crlf(void)
{
	maint_file *m = parse_text("F:\tfirst/\nM:\ta@b\r\nT\r\nF:\tx/\r\n");
	const maint_section *s;
	if (m == NULL)
		return;
	T_EQ_INT(maint_nsections(m), 2);
	s = maint_section_at(m, 0);
	T_EQ_INT(s->title.len, 0);               /* type lines before any title */
	T_EQ_INT(s->line, 1);
	T_ASSERT(view_is(maint_entry_at(m, 1)->email, "a@b"));
	s = maint_section_at(m, 1);
	T_ASSERT(view_is(s->title, "T"));
	/* "x/\r" keeps its CR (Perl's (.*)): not a trailing-slash pattern */
	T_EQ_INT(maint_pattern_match(m, 2, "x/a", 3, NULL), 0);
	maint_free(m);
}

static void
test_malformed(void)
{
	maint_file *m = NULL;
	pgp_diag d = {0, -1, NULL};
	static const char nul[] = "T\nF:\ta\0b\n";
	maint_file *m2;
	/* a NUL octet */
	T_EQ_INT(maint_parse(&m, (const uint8_t *)nul, sizeof nul - 1, &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 6);
	T_ASSERT(m == NULL);
	/* empty file, only a preamble, no line feed at the end */
	m2 = parse_text("");
	T_EQ_INT(m2 ? maint_nsections(m2) : 99, 0);
	maint_free(m2);
	m2 = parse_text("just text\n\tM: indented\n");
	T_EQ_INT(m2 ? maint_nsections(m2) : 99, 0);
	maint_free(m2);
	m2 = parse_text("T\nM:\ta@b");
	T_EQ_INT(m2 ? maint_nentries(m2) : 99, 1);
	if (m2)
		T_ASSERT(view_is(maint_entry_at(m2, 0)->email, "a@b"));
	maint_free(m2);
	/* an M: without an address, an empty F:, "FF:" (a title) */
	m2 = parse_text("T\nM:\tNobody in particular\nF:\nFF: x\nM:\tz@y\n");
	if (m2) {
		T_EQ_INT(maint_nsections(m2), 2);
		T_EQ_INT(maint_entry_at(m2, 0)->email.len, 0);
		T_EQ_INT(maint_entry_at(m2, 1)->value.len, 0);
		/* an empty F: is "^" with no '/': every top-level file (as get_maintainer.pl) */
		T_EQ_INT(maint_pattern_match(m2, 1, "README", 6, NULL), 1);
		T_EQ_INT(maint_pattern_match(m2, 1, "a/README", 8, NULL), 0);
		T_ASSERT(view_is(maint_section_at(m2, 1)->title, "FF: x"));
	}
	maint_free(m2);
	/* a type letter's entry of another type is never matched as a pattern */
	m2 = parse_text("T\nK:\t*\n");
	if (m2)
		T_EQ_INT(maint_pattern_match(m2, 0, "a", 1, NULL), 0);
	maint_free(m2);
}

static void
test_limits(void)
{
	maint_file *m = NULL;
	pgp_diag d = {0, -1, NULL};
	size_t n, i, len;
	char *big;
	char path[MAINT_MAX_PATH + 2];
	/* a line of MAINT_MAX_LINE octets is read, one more is refused */
	big = malloc(2 * MAINT_MAX_LINE + 16);
	if (big == NULL)
		return;
	memcpy(big, "T\nF:\t", 5);
	memset(big + 5, 'a', MAINT_MAX_LINE - 3);
	big[MAINT_MAX_LINE + 2] = '\n';
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, MAINT_MAX_LINE + 3, &d), PGP_OK);
	maint_free(m);
	m = NULL;
	memset(big + 5, 'a', MAINT_MAX_LINE - 2);
	big[MAINT_MAX_LINE + 3] = '\n';
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, MAINT_MAX_LINE + 4, &d), PGP_ERR_LIMIT);
	T_EQ_INT(d.offset, 2);
	T_ASSERT(d.what != NULL && strstr(d.what, "MAINT_MAX_LINE") != NULL);
	free(big);
	/* the file size is checked before any octet is read */
	T_EQ_INT(maint_parse(&m, (const uint8_t *)"", MAINT_MAX_FILE + 1, &d), PGP_ERR_LIMIT);
	/* sections: MAINT_MAX_SECTIONS read, one more refused */
	n = (size_t)MAINT_MAX_SECTIONS + 1;
	big = malloc(n * 9 + 1);
	if (big == NULL)
		return;
	for (i = 0, len = 0; i < n; i++, len += 9)
		memcpy(big + len, "T\nM:\ta@b\n", 9);
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, len - 9, &d), PGP_OK);
	T_EQ_INT(m ? maint_nsections(m) : 0, MAINT_MAX_SECTIONS);
	maint_free(m);
	m = NULL;
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, len, &d), PGP_ERR_LIMIT);
	T_ASSERT(d.what != NULL && strstr(d.what, "MAINT_MAX_SECTIONS") != NULL);
	T_EQ_INT(d.offset, len - 7);   /* the type line that would open it */
	free(big);
	/* entries */
	n = (size_t)MAINT_MAX_ENTRIES + 1;
	big = malloc(2 + n * 7 + 1);
	if (big == NULL)
		return;
	memcpy(big, "T\n", 2);
	for (i = 0, len = 2; i < n; i++, len += 7)
		memcpy(big + len, "M:\ta@b\n", 7);
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, len - 7, &d), PGP_OK);
	T_EQ_INT(m ? maint_nentries(m) : 0, MAINT_MAX_ENTRIES);
	maint_free(m);
	m = NULL;
	T_EQ_INT(maint_parse(&m, (const uint8_t *)big, len, &d), PGP_ERR_LIMIT);
	T_ASSERT(d.what != NULL && strstr(d.what, "MAINT_MAX_ENTRIES") != NULL);
	T_ASSERT(m == NULL);
	free(big);
	/* a path longer than MAINT_MAX_PATH matches nothing, not even "*\/" */
	memset(path, 'a', sizeof path);
	path[1] = '/';
	T_EQ_INT(fm("*/", "a/b"), 1);
	m = parse_text("T\nF:\t*/\nN:\ta\n");
	if (m) {
		T_EQ_INT(maint_pattern_match(m, 0, path, MAINT_MAX_PATH, NULL), 1);
		T_EQ_INT(maint_pattern_match(m, 0, path, MAINT_MAX_PATH + 1, NULL), 0);
		T_EQ_INT(maint_regex_match(m, 1, path, MAINT_MAX_PATH), 1);
		T_EQ_INT(maint_regex_match(m, 1, path, MAINT_MAX_PATH + 1), 0);
		T_EQ_INT(maint_regex_match(m, 1, "x\0a", 3), 0);   /* a NUL in a path */
	}
	maint_free(m);
}

int
main(void)
{
	T_RUN(test_f_trailing_slash);
	T_RUN(test_f_slash_count);
	T_RUN(test_f_directory_known);
	T_RUN(test_f_glob_depth);
	T_RUN(test_f_glob_trailing_slash);
	T_RUN(test_the_rest);
	T_RUN(test_x_exclusion);
	T_RUN(test_n_regex);
	T_RUN(test_n_bad);
	T_RUN(test_f_regex_fallback);
	T_RUN(test_regex_bounds);
	T_RUN(test_conversions);
	T_RUN(test_email);
	T_RUN(test_has_email);
	T_RUN(test_structure);
	T_RUN(test_untitled_and_crlf);
	T_RUN(test_malformed);
	T_RUN(test_limits);
	return T_DONE();
}
