/* test_trust.c - GnuPG's classic trust model (keyring/trust.h), the regular
 * expressions of trust signatures (trust_regex.c) and the ownertrust file
 * format (keyring/ownertrust.h).
 *
 * The web is vectors/trust/web.pgp (vectors/gen/gen_trust.sh), built into
 * an in-memory keyring and evaluated at the MANIFEST's reference time; the
 * keys are found by the names its "key" lines give them. The expectations
 * below are written from each key's purpose (the web's shape), not read
 * from the MANIFEST: tests/cli/wot_validity.sh checks every MANIFEST line
 * (GnuPG's answers). */
#include "t.h"
#include "keyring/kr.h"
#include "keyring/wot.h"
#include "keyring/trust.h"
#include "keyring/ownertrust.h"
#include "pgp/pgp.h"

#define RX(re, s) wot_trust_regex_match((const uint8_t *)(re), strlen(re), \
	(const uint8_t *)(s), strlen(s))

/* ---- regular expressions ---- */

static void
test_regex_gpg_domain(void)
{
	/* what `gpg --tsign` writes for the domain "good.example" */
	const char *re = "<[^>]+[@.]good\\.example>$";
	T_EQ_INT(RX(re, "G1 <g1@good.example>"), 1);
	T_EQ_INT(RX(re, "<g1@good.example>"), 1);
	T_EQ_INT(RX(re, "Sub <x@mail.good.example>"), 1);
	T_EQ_INT(RX(re, "Dot <x.good.example>"), 1);
	T_EQ_INT(RX(re, "Case <X@GOOD.Example>"), 1);
	T_EQ_INT(RX(re, "<<x@good.example>"), 1);
	T_EQ_INT(RX(re, "B1 <b1@bad.example>"), 0);
	T_EQ_INT(RX(re, "Evil <x@good.example.evil>"), 0);
	T_EQ_INT(RX(re, "Evil <x@goodXexample>"), 0);      /* \. is a dot */
	T_EQ_INT(RX(re, "Evil <x@notgood.example>"), 0);   /* [@.] before the domain */
	T_EQ_INT(RX(re, "Empty <@good.example>"), 0);      /* [^>]+: one octet at least */
	T_EQ_INT(RX(re, "Gt <a>b@good.example>"), 0);      /* no '>' after the '<' */
	T_EQ_INT(RX(re, "x@good.example"), 0);
	T_EQ_INT(RX(re, "<x@good.example> "), 0);          /* $: at the very end */
	T_EQ_INT(RX(re, "<x@good.example>\n"), 0);
	T_EQ_INT(RX(re, ""), 0);
	/* the shape needs 12 octets at least: "<[^>]+[@.]>$" is X empty */
	T_EQ_INT(RX("<[^>]+[@.]>$", "<a@>"), 1);
	T_EQ_INT(RX("<[^>]+[@.]>$", "<a>"), 0);
	/* escapes gpg writes for other characters of a domain */
	T_EQ_INT(RX("<[^>]+[@.]my\\-host\\.example>$", "<a@my-host.example>"), 1);
	T_EQ_INT(RX("<[^>]+[@.]my\\-host\\.example>$", "<a@my_host.example>"), 0);
}

static void
test_regex_plain(void)
{
	/* PGP's form: X alone, searched anywhere; '.' is any octet */
	T_EQ_INT(RX("example.com", "Alice <alice@example.com>"), 1);
	T_EQ_INT(RX("example.com", "exampleXcom"), 1);
	T_EQ_INT(RX("example.com", "EXAMPLE.COM"), 1);
	T_EQ_INT(RX("example.com", "examplecom"), 0);
	T_EQ_INT(RX("example\\.com", "exampleXcom"), 0);
	T_EQ_INT(RX("example\\.com", "a@example.com"), 1);
	/* every other operator is escaped by GnuPG, so literal */
	T_EQ_INT(RX("^foo", "foo"), 0);
	T_EQ_INT(RX("^foo", "x^foo"), 1);
	T_EQ_INT(RX("foo$", "foo$"), 1);
	T_EQ_INT(RX("a|b", "a"), 0);
	T_EQ_INT(RX("a|b", "xa|by"), 1);
	T_EQ_INT(RX("(ab)*", "(ab)*"), 1);
	T_EQ_INT(RX("(ab)*", "abab"), 0);
	T_EQ_INT(RX("a+b?", "a+b?"), 1);
	T_EQ_INT(RX("[a-z]", "q"), 0);
	T_EQ_INT(RX("[a-z]", "[a-z]"), 1);
	T_EQ_INT(RX("x{2}", "xx"), 0);
	T_EQ_INT(RX("\\\\", "a\\b"), 1);     /* an escaped backslash */
	T_EQ_INT(RX("\\q", "q"), 1);         /* glibc: a letter that is no operator */
	/* the bracketed shape needs both ends: this is X alone */
	T_EQ_INT(RX("<[^>]+[@.]good", "<[^>]+[@.]good"), 1);
	T_EQ_INT(RX("<[^>]+[@.]good", "<a@good"), 0);
	/* the empty expression matches everything */
	T_EQ_INT(RX("", ""), 1);
	T_EQ_INT(RX("", "anything"), 1);
	T_EQ_INT(wot_trust_regex_match(NULL, 0, (const uint8_t *)"x", 1), 1);
	T_EQ_INT(RX("abc", "ab"), 0);
	T_EQ_INT(RX("abc", "abcabc"), 1);
	T_EQ_INT(RX("aab", "aaab"), 1);
}

static void
test_regex_refused(void)
{
	char big[WOT_TRUST_MAX_REGEX + 2];
	char atoms[WOT_TRUST_MAX_REGEX_ATOMS + 2];

	/* GNU operators and back-references, a trailing backslash: nothing */
	T_EQ_INT(RX("\\w", "a"), 0);
	T_EQ_INT(RX("\\bfoo", "foo"), 0);
	T_EQ_INT(RX("a\\1", "aa"), 0);
	T_EQ_INT(RX("a\\0", "a0"), 0);
	T_EQ_INT(RX("foo\\", "foo\\"), 0);
	T_EQ_INT(RX("<[^>]+[@.]foo\\>$", "<a@foo>"), 0);
	/* over the limits: nothing */
	memset(big, 'a', sizeof big);
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)big, WOT_TRUST_MAX_REGEX + 1,
	    (const uint8_t *)big, sizeof big), 0);
	memset(atoms, 'a', sizeof atoms);
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)atoms, WOT_TRUST_MAX_REGEX_ATOMS + 1,
	    (const uint8_t *)atoms, sizeof atoms), 0);
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)atoms, WOT_TRUST_MAX_REGEX_ATOMS,
	    (const uint8_t *)atoms, sizeof atoms), 1);
	/* GnuPG reads both as C strings: they end at the first NUL */
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)"good\0evil", 9,
	    (const uint8_t *)"a@good", 6), 1);
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)"evil", 4,
	    (const uint8_t *)"a\0evil", 6), 0);
}

/* naive reference for X alone (literal / '.', ASCII case folded) */
static int
naive(const char *x, size_t m, const char *s, size_t n)
{
	size_t i, j;
	for (i = 0; i + m <= n; i++) {
		for (j = 0; j < m; j++) {
			char a = x[j], b = s[i + j];
			if (a == '.')
				continue;
			if (a >= 'A' && a <= 'Z')
				a = (char)(a + 32);
			if (b >= 'A' && b <= 'Z')
				b = (char)(b + 32);
			if (a != b)
				break;
		}
		if (j == m)
			return 1;
	}
	return 0;
}

static void
test_regex_shift_and_words(void)
{
	/* patterns across the 64-bit word boundaries against the naive search */
	static const char alpha[] = "abAB.";
	char x[200], s[600];
	unsigned seed = 12345, k, bad = 0;
	for (k = 0; k < 3000; k++) {
		size_t m = 1 + (seed = seed * 1103515245u + 12345u) % 180, n = (seed >> 8) % 600, i;
		for (i = 0; i < m; i++)
			x[i] = alpha[(seed = seed * 1103515245u + 12345u) >> 16 & 3 ? ((seed >> 20) % 4) : 4];
		for (i = 0; i < n; i++)
			s[i] = "abAB"[(seed = seed * 1103515245u + 12345u) >> 16 & 3];
		/* plant the pattern now and then */
		if (k % 3 == 0 && n >= m)
			for (i = 0; i < m; i++)
				s[n - m + i] = x[i] == '.' ? 'b' : x[i];
		if (wot_trust_regex_match((const uint8_t *)x, m, (const uint8_t *)s, n) !=
		    naive(x, m, s, n))
			bad++;
	}
	T_EQ_INT(bad, 0);
}

static void
test_regex_long_uid(void)
{
	size_t n = 1u << 20;
	char *s = malloc(n), re[256];
	T_ASSERT(s != NULL);
	if (!s)
		return;
	memset(s, 'a', n);
	memset(re, 'a', sizeof re);
	re[sizeof re - 1] = 'b';
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)re, sizeof re, (const uint8_t *)s, n), 0);
	s[n - 1] = 'b';
	T_EQ_INT(wot_trust_regex_match((const uint8_t *)re, sizeof re, (const uint8_t *)s, n), 1);
	free(s);
}

/* ---- the ownertrust file ---- */

static pgp_fpr
fpr_hex(const char *hex)
{
	pgp_fpr f;
	memset(&f, 0, sizeof f);
	f.len = (uint8_t)t_unhex(f.v, sizeof f.v, hex);
	return f;
}

#define OTP(l, text, d) wot_otlist_parse((l), (const uint8_t *)(text), strlen(text), (d))

static void
test_ownertrust_file(void)
{
	static const char FA[] = "ABAF11C65A2970B130ABE3C479BE3E4300411886";
	static const char FB[] = "647F28654894E3BD457199BE38DBBDC86092693E";
	wot_otlist l;
	pgp_fpr a = fpr_hex(FA), b = fpr_hex(FB), c32 = fpr_hex("00112233445566778899AABBCCDDEEFF");
	pgp_buf out;
	pgp_diag d;

	wot_otlist_init(&l);
	T_EQ_INT(OTP(&l, "# List of assigned trustvalues, created Tue\n"
	    "# (Use \"gpg --import-ownertrust\" to restore them)\n"
	    "647f28654894e3bd457199be38dbbdc86092693e:5:\r\n"
	    "\n"
	    "ABAF11C65A2970B130ABE3C479BE3E4300411886:6:\n"
	    "00112233445566778899AABBCCDDEEFF:37:ignored\n"
	    "0000000000000000000000000000000000000000000000000000000000000000:4", NULL), PGP_OK);
	T_EQ_INT(l.n, 4);
	T_EQ_INT(wot_otlist_get(&l, &a), 6);
	T_EQ_INT(wot_otlist_get(&l, &b), 5);
	T_EQ_INT(wot_otlist_get(&l, &c32), 37);   /* the disabled flag is kept */
	/* a later line wins; N = 0 changes nothing (gpg --import-ownertrust) */
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:4:\n"
	    "647F28654894E3BD457199BE38DBBDC86092693E:0:\n", NULL), PGP_OK);
	T_EQ_INT(wot_otlist_get(&l, &a), 4);
	T_EQ_INT(wot_otlist_get(&l, &b), 5);
	/* set, remove */
	T_EQ_INT(wot_otlist_set(&l, &b, 0), PGP_OK);
	T_EQ_INT(wot_otlist_get(&l, &b), 0);
	T_EQ_INT(l.n, 3);
	T_EQ_INT(wot_otlist_set(&l, &b, 3), PGP_OK);
	T_EQ_INT(wot_otlist_set(&l, &b, 0), PGP_OK);
	T_EQ_INT(wot_otlist_set(&l, &b, 0), PGP_OK);   /* removing what is absent */
	T_EQ_INT(l.n, 3);
	/* written sorted by fingerprint length, then octets; read back equal */
	pgp_buf_init(&out, 1 << 20);
	T_EQ_INT(wot_otlist_write(&l, &out), PGP_OK);
	T_ASSERT(out.len > 0 && out.p != NULL);
	if (out.p) {
		wot_otlist l2;
		static const char want[] =
		    "# List of assigned trustvalues (wotkit)\n"
		    "# (Use \"gpg --import-ownertrust\" to restore them)\n"
		    "00112233445566778899AABBCCDDEEFF:37:\n"
		    "ABAF11C65A2970B130ABE3C479BE3E4300411886:4:\n"
		    "0000000000000000000000000000000000000000000000000000000000000000:4:\n";
		T_EQ_INT(out.len, sizeof want - 1);
		T_ASSERT(out.len == sizeof want - 1 && memcmp(out.p, want, out.len) == 0);
		wot_otlist_init(&l2);
		T_EQ_INT(wot_otlist_parse(&l2, out.p, out.len, NULL), PGP_OK);
		T_EQ_INT(l2.n, l.n);
		T_ASSERT(l2.n == l.n && memcmp(l2.v, l.v, l.n * sizeof *l.v) == 0);
		wot_otlist_release(&l2);
	}
	pgp_buf_free(&out);
	wot_otlist_release(&l);

	/* refusals, with the offset of the line */
	wot_otlist_init(&l);
	memset(&d, 0, sizeof d);
	T_EQ_INT(OTP(&l, "# ok\nABAF11C65A2970B130ABE3C479BE3E430041188:6:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(d.offset, 5);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:x:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:6x\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:256:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:1000:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:1:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886:7:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, "ABAF11C65A2970B130ABE3C479BE3E4300411886X:6:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(OTP(&l, " ABAF11C65A2970B130ABE3C479BE3E4300411886:6:\n", &d), PGP_ERR_MALFORMED);
	T_EQ_INT(l.n, 0);
	{
		char line[WOT_OT_MAX_LINE + 2];
		memset(line, '#', sizeof line);
		line[sizeof line - 1] = '\n';
		T_EQ_INT(wot_otlist_parse(&l, (const uint8_t *)line, sizeof line, &d), PGP_ERR_LIMIT);
		T_EQ_INT(wot_otlist_parse(&l, (const uint8_t *)line + 1, sizeof line - 1, &d), PGP_OK);
	}
	T_EQ_INT(OTP(&l, "", &d), PGP_OK);
	T_EQ_INT(l.n, 0);
	wot_otlist_release(&l);
}

/* ---- the web of vectors/trust ---- */

#define MAXKEYS 64

typedef struct web {
	uint8_t *in, *file;
	size_t inlen, len;
	pgp_certset *set;
	kr_strip_result sr;
	kr_keyring *k;
	wot_graph *g;
	int64_t at;
	size_t nkeys;
	char name[MAXKEYS][8];
	uint32_t node[MAXKEYS];
	uint8_t ot[4096];
	int ok;
} web;

static web W;

static int
web_load(web *w)
{
	kr_strip_opts so;
	pgp_policy pol;
	pgp_buf b;
	wot_opts o;
	char line[512];
	FILE *f;

	memset(w, 0, sizeof *w);
	if ((f = fopen("vectors/trust/MANIFEST", "r")) == NULL)
		return -1;
	while (fgets(line, sizeof line, f)) {
		long long at;
		if (sscanf(line, "at\t%lld", &at) == 1)
			w->at = at;
	}
	fclose(f);
	if ((w->in = t_slurp("vectors/trust/web.pgp", &w->inlen)) == NULL)
		return -1;
	if (pgp_certset_new(&w->set) != PGP_OK ||
	    pgp_certset_add(w->set, w->in, w->inlen, NULL) != PGP_OK)
		return -1;
	pgp_policy_init(&pol);
	memset(&so, 0, sizeof so);
	so.now = w->at;
	so.pol = &pol;
	so.threads = 1;
	so.keep_superseded = 1;
	if (kr_strip(w->set, &so, &w->sr) != PGP_OK)
		return -1;
	pgp_buf_init(&b, KR_MAX_FILE);
	if (kr_serialize(&w->sr, NULL, &b) != PGP_OK)
		return -1;
	w->file = pgp_buf_take(&b, &w->len);
	if (kr_open(&w->k, w->file, w->len, NULL) != PGP_OK)
		return -1;
	o.t = w->at;
	o.pol = NULL;
	if (wot_build(&w->g, w->k, &o) != PGP_OK || wot_nnodes(w->g) > sizeof w->ot)
		return -1;
	/* names to nodes, through the fingerprints of the MANIFEST */
	if ((f = fopen("vectors/trust/MANIFEST", "r")) == NULL)
		return -1;
	w->nkeys = 0;
	while (fgets(line, sizeof line, f)) {
		char name[16], hex[80];
		if (sscanf(line, "key\t%15[^\t]\t%79[0-9A-F]", name, hex) == 2 && w->nkeys < MAXKEYS &&
		    strlen(name) < sizeof w->name[0]) {
			pgp_fpr fp = fpr_hex(hex);
			int64_t n = wot_find_fpr(w->g, &fp);
			if (n < 0)
				return -1;
			strcpy(w->name[w->nkeys], name);
			w->node[w->nkeys++] = (uint32_t)n;
		}
	}
	fclose(f);
	return 0;
}

static void
web_free(web *w)
{
	wot_free(w->g);
	if (w->k)
		kr_close(w->k);
	free(w->file);
	kr_strip_free(&w->sr);
	pgp_certset_free(w->set);
	free(w->in);
}

static uint32_t
N(const char *name)
{
	size_t i;
	for (i = 0; i < W.nkeys; i++)
		if (strcmp(W.name[i], name) == 0)
			return W.node[i];
	fprintf(stderr, "no key %s in vectors/trust/MANIFEST\n", name);
	t_failed_checks++;
	return UINT32_MAX;
}

/* ownertrust: "R 6 A1 5 ..." (every other key unset) */
static void
set_ot(const char *spec)
{
	char buf[512], *p, *save = NULL;
	memset(W.ot, 0, sizeof W.ot);
	snprintf(buf, sizeof buf, "%s", spec);
	for (p = strtok_r(buf, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
		char *v = strtok_r(NULL, " ", &save);
		uint32_t n = N(p);
		if (v && n != UINT32_MAX)
			W.ot[n] = (uint8_t)atoi(v);
	}
}

static wot_trust *
compute(const wot_trust_params *p)
{
	wot_trust *t = NULL;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, p), PGP_OK);
	return t;
}

static char
V(const wot_trust *t, const char *name)
{
	return wot_validity_letter(wot_trust_key(t, N(name)));
}

static int
has(const pgp_view *v, const char *needle)
{
	size_t n = strlen(needle), i;
	for (i = 0; i + n <= v->len; i++)
		if (memcmp(v->p + i, needle, n) == 0)
			return 1;
	return 0;
}

static char
U(const wot_trust *t, const char *name, const char *email)
{
	uint32_t n = N(name), j;
	const pgp_cert *c;
	if (n == UINT32_MAX)
		return '?';
	c = wot_node_at(W.g, n)->cert;
	for (j = 0; j < c->nuids; j++)
		if (has(&c->uids[j].data, email))
			return wot_validity_letter(wot_trust_uid(t, n, j));
	return '?';
}

#define WEB_OK() do { if (!W.ok) { T_ASSERT(W.ok && "vectors/trust loaded"); return; } } while (0)

static const char *const B_OT = "R 6 A1 5 A2 5 A3 5 A4 5 A5 5 M1 4 M2 4 M3 4 MX 4 V 3 E 5 RV 5";

static void
test_marginal_counting(void)
{
	wot_trust_params p;
	wot_trust *t;
	unsigned f, m;

	WEB_OK();
	set_ot(B_OT);
	t = compute(NULL);
	/* one, two, three marginally trusted introducers (marginals-needed 3) */
	T_EQ_INT(V(t, "T1"), 'm');
	T_EQ_INT(V(t, "T2"), 'm');
	T_EQ_INT(V(t, "T3"), 'f');
	wot_trust_counts(t, N("T1"), 0, &f, &m);
	T_EQ_INT(f, 0);
	T_EQ_INT(m, 1);
	wot_trust_counts(t, N("T3"), 0, &f, &m);
	T_EQ_INT(m, 3);
	/* marginals add up over levels: M1, M2 at level 1, MX at level 2 */
	T_EQ_INT(V(t, "ACC"), 'f');
	wot_trust_counts(t, N("ACC"), 0, &f, &m);
	T_EQ_INT(m, 3);
	{
		wot_trust_info in;
		wot_trust_get_info(t, N("ACC"), &in);
		T_EQ_INT(in.reached, 1);
		T_EQ_INT(in.level, 2);
	}
	wot_trust_free(t);
	/* marginals-needed 2: two are enough */
	wot_trust_params_default(&p);
	p.marginals_needed = 2;
	t = compute(&p);
	T_EQ_INT(V(t, "T1"), 'm');
	T_EQ_INT(V(t, "T2"), 'f');
	wot_trust_free(t);
	/* completes-needed 2: the root's certification counts 2, a full one 1 */
	wot_trust_params_default(&p);
	p.completes_needed = 2;
	t = compute(&p);
	T_EQ_INT(V(t, "A1"), 'f');
	T_EQ_INT(V(t, "A2"), 'm');
	T_EQ_INT(V(t, "A3"), '-');
	wot_trust_counts(t, N("A1"), 0, &f, &m);
	T_EQ_INT(f, 2);
	wot_trust_free(t);
	/* the same introducers fully trusted: one each is enough */
	set_ot("R 6 M1 5");
	t = compute(NULL);
	T_EQ_INT(V(t, "T1"), 'f');
	T_EQ_INT(V(t, "T2"), 'f');
	T_EQ_INT(V(t, "M2"), 'f');
	T_EQ_INT(V(t, "MX"), 'q');   /* A1 has no ownertrust */
	wot_trust_free(t);
}

static void
test_unknown_never_undefined(void)
{
	wot_trust *t;

	WEB_OK();
	/* reached only through introducers without ownertrust, trusted never or
	 * "undefined": reached (q), never valid */
	set_ot("R 6 V 3 N 2");
	t = compute(NULL);
	T_EQ_INT(V(t, "R"), 'u');
	T_EQ_INT(V(t, "N"), 'f');
	T_EQ_INT(V(t, "Q"), 'q');
	T_EQ_INT(V(t, "W"), 'q');
	T_EQ_INT(V(t, "A2"), 'q');
	T_EQ_INT(V(t, "A3"), '-');   /* A2 is no introducer */
	T_EQ_INT(V(t, "Z"), '-');
	wot_trust_free(t);
	/* no ultimately trusted key: nothing is valid */
	memset(W.ot, 0, sizeof W.ot);
	t = compute(NULL);
	T_EQ_INT(V(t, "R"), '-');
	T_EQ_INT(V(t, "A1"), '-');
	T_EQ_INT(V(t, "E"), 'e');
	T_EQ_INT(V(t, "RV"), 'r');
	wot_trust_free(t);
	/* two ultimately trusted keys */
	set_ot("R 6 M1 6");
	t = compute(NULL);
	T_EQ_INT(V(t, "M1"), 'u');
	T_EQ_INT(V(t, "T1"), 'f');
	T_EQ_INT(V(t, "T3"), 'f');
	wot_trust_free(t);
}

static void
test_max_depth(void)
{
	wot_trust_params p;
	wot_trust *t;
	wot_trust_info in;

	WEB_OK();
	set_ot(B_OT);
	t = compute(NULL);
	T_EQ_INT(V(t, "A5"), 'f');
	T_EQ_INT(V(t, "A6"), '-');   /* 6 hops: beyond max-cert-depth 5 */
	wot_trust_get_info(t, N("A5"), &in);
	T_EQ_INT(in.level, 4);
	T_EQ_INT(in.introducer, 1);
	wot_trust_get_info(t, N("A6"), &in);
	T_EQ_INT(in.reached, 0);
	wot_trust_free(t);
	wot_trust_params_default(&p);
	p.max_cert_depth = 6;
	t = compute(&p);
	T_EQ_INT(V(t, "A6"), 'f');
	wot_trust_free(t);
	p.max_cert_depth = 3;
	t = compute(&p);
	T_EQ_INT(V(t, "A3"), 'f');
	T_EQ_INT(V(t, "A4"), '-');
	T_EQ_INT(V(t, "ACC"), 'f');
	wot_trust_free(t);
	p.max_cert_depth = 1;
	t = compute(&p);
	T_EQ_INT(V(t, "A1"), 'f');
	T_EQ_INT(V(t, "A2"), '-');
	T_EQ_INT(V(t, "T3"), '-');
	wot_trust_free(t);
	p.max_cert_depth = WOT_TRUST_MAX_CERT_DEPTH;
	t = compute(&p);
	T_EQ_INT(V(t, "A6"), 'f');
	wot_trust_free(t);
}

static void
test_trust_signatures(void)
{
	wot_trust *t;
	wot_trust_info in;

	WEB_OK();
	set_ot("R 6");
	t = compute(NULL);
	/* R's depth-1 full trust signature makes TS a full introducer */
	T_EQ_INT(V(t, "TS"), 'f');
	wot_trust_get_info(t, N("TS"), &in);
	T_EQ_INT(in.introducer, 1);
	T_EQ_INT(in.ownertrust, WOT_OT_FULL);
	T_EQ_INT(in.trust_depth, 0);
	T_EQ_INT(in.trust_amount, 120);
	T_EQ_INT(in.has_regex, 1);
	T_EQ_INT(V(t, "G1"), 'f');
	/* ... which passes no depth on: G2 is valid, no introducer */
	T_EQ_INT(V(t, "G2"), 'f');
	T_EQ_INT(V(t, "G3"), 'q');
	/* depth 2: TD passes depth 1 to TD2, which passes nothing to TD4 */
	wot_trust_get_info(t, N("TD"), &in);
	T_EQ_INT(in.trust_depth, 1);
	T_EQ_INT(V(t, "TD2"), 'f');
	T_EQ_INT(V(t, "TD3"), 'f');
	T_EQ_INT(V(t, "TD4"), 'f');
	T_EQ_INT(V(t, "TD5"), 'q');
	wot_trust_get_info(t, N("TD4"), &in);
	T_EQ_INT(in.trust_depth, 0);
	T_EQ_INT(in.trust_amount, 0);
	/* amount 60: a marginal introducer */
	wot_trust_get_info(t, N("TM"), &in);
	T_EQ_INT(in.ownertrust, WOT_OT_MARGINAL);
	T_EQ_INT(V(t, "K1"), 'm');
	/* two trust signatures by R: the newer (amount 60) wins */
	wot_trust_get_info(t, N("LW"), &in);
	T_EQ_INT(in.trust_amount, 60);
	T_EQ_INT(V(t, "K2"), 'm');
	wot_trust_free(t);
	/* "never" is raised by the trust signature; full stays full */
	set_ot("R 6 TS 3 TM 5 G2 5");
	t = compute(NULL);
	wot_trust_get_info(t, N("TS"), &in);
	T_EQ_INT(in.ownertrust, WOT_OT_FULL);
	T_EQ_INT(V(t, "G1"), 'f');
	T_EQ_INT(V(t, "K1"), 'f');
	T_EQ_INT(V(t, "G3"), 'f');   /* G2's own ownertrust */
	wot_trust_free(t);
}

static void
test_regex_in_the_web(void)
{
	wot_trust *t;

	WEB_OK();
	set_ot("R 6");
	t = compute(NULL);
	/* TS counts only for user IDs under good.example */
	T_EQ_INT(V(t, "G1"), 'f');
	T_EQ_INT(V(t, "B1"), '-');
	T_EQ_INT(V(t, "GB"), 'f');
	T_EQ_INT(U(t, "GB", "gb@good.example"), 'f');
	T_EQ_INT(U(t, "GB", "gb@bad.example"), '-');
	wot_trust_free(t);
}

static void
test_expired_revoked(void)
{
	wot_trust *t;

	WEB_OK();
	set_ot(B_OT);
	t = compute(NULL);
	T_EQ_INT(V(t, "E"), 'e');    /* expired, though certified by the root */
	T_EQ_INT(V(t, "X"), '-');    /* an expired introducer introduces no one */
	T_EQ_INT(V(t, "RV"), 'r');
	T_EQ_INT(V(t, "Y"), '-');
	T_EQ_INT(U(t, "RV", "rv@example.org"), 'r');
	T_EQ_INT(U(t, "E", "e@example.org"), 'e');
	T_EQ_INT(V(t, "EC"), '-');   /* the certification expired */
	T_EQ_INT(V(t, "RC"), '-');   /* the certification was revoked */
	wot_trust_free(t);
	/* an expired key trusted ultimately stays expired */
	set_ot("R 6 E 6");
	t = compute(NULL);
	T_EQ_INT(V(t, "E"), 'e');
	T_EQ_INT(V(t, "X"), '-');
	wot_trust_free(t);
}

static void
test_cert_level(void)
{
	wot_trust_params p;
	wot_trust *t;

	WEB_OK();
	set_ot("R 6");
	t = compute(NULL);
	T_EQ_INT(V(t, "P1"), '-');   /* persona (0x11) below min-cert-level 2 */
	T_EQ_INT(V(t, "P3"), 'f');
	wot_trust_free(t);
	wot_trust_params_default(&p);
	p.min_cert_level = 1;
	t = compute(&p);
	T_EQ_INT(V(t, "P1"), 'f');
	wot_trust_free(t);
	p.min_cert_level = 3;
	t = compute(&p);
	T_EQ_INT(V(t, "P3"), 'f');
	T_EQ_INT(V(t, "A1"), 'f');   /* 0x10 carries no level */
	wot_trust_free(t);
}

static void
test_arguments(void)
{
	static char sentinel;
	wot_trust_params p;
	wot_trust *t = (wot_trust *)(void *)&sentinel;

	WEB_OK();
	set_ot("R 6");
	wot_trust_params_default(&p);
	T_EQ_INT(p.completes_needed, 1);
	T_EQ_INT(p.marginals_needed, 3);
	T_EQ_INT(p.max_cert_depth, 5);
	T_EQ_INT(p.min_cert_level, 2);
	p.marginals_needed = 1;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, &p), PGP_ERR_INVALID);
	T_ASSERT(t == NULL);
	wot_trust_params_default(&p);
	p.completes_needed = 0;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, &p), PGP_ERR_INVALID);
	wot_trust_params_default(&p);
	p.max_cert_depth = 256;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, &p), PGP_ERR_INVALID);
	wot_trust_params_default(&p);
	p.min_cert_level = 0;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, &p), PGP_ERR_INVALID);
	T_EQ_INT(wot_trust_compute(&t, W.g, NULL, NULL), PGP_ERR_INVALID);
	W.ot[N("A1")] = 1;   /* "expired" is no ownertrust */
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, NULL), PGP_ERR_INVALID);
	W.ot[N("A1")] = 7;
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, NULL), PGP_ERR_INVALID);
	W.ot[N("A1")] = 0x25;  /* full with gpg's "disabled" flag: flags are ignored */
	T_EQ_INT(wot_trust_compute(&t, W.g, W.ot, NULL), PGP_OK);
	T_EQ_INT(V(t, "A2"), 'f');
	/* out-of-range queries */
	T_EQ_INT(wot_trust_key(t, UINT32_MAX), WOT_V_UNKNOWN);
	T_EQ_INT(wot_trust_uid(t, N("A1"), 99), WOT_V_UNKNOWN);
	T_EQ_INT(wot_trust_nnodes(t), wot_nnodes(W.g));
	wot_trust_free(t);
	wot_trust_free(NULL);
	T_EQ_STR(wot_validity_name(WOT_V_UNDEFINED), "undefined");
	T_EQ_INT(wot_validity_letter(WOT_V_REVOKED), 'r');
	T_EQ_STR(wot_ownertrust_name(WOT_OT_NEVER), "never");
	T_ASSERT(wot_ownertrust_name(1) == NULL);
}

static void
test_apply_ownertrust(void)
{
	wot_otlist l;
	uint8_t ot[4096];
	const wot_node *nd;

	WEB_OK();
	nd = wot_node_at(W.g, N("M1"));
	wot_otlist_init(&l);
	T_EQ_INT(wot_otlist_set(&l, &nd->fpr, 4), PGP_OK);
	{
		pgp_fpr other = fpr_hex("0000000000000000000000000000000000000001");
		T_EQ_INT(wot_otlist_set(&l, &other, 5), PGP_OK);
	}
	memset(ot, 9, sizeof ot);
	T_EQ_INT(wot_otlist_apply(&l, W.g, ot), 1);
	T_EQ_INT(ot[N("M1")], 4);
	T_EQ_INT(ot[N("M2")], 0);
	wot_otlist_release(&l);
}

int
main(void)
{
	W.ok = web_load(&W) == 0;
	if (!W.ok)
		fprintf(stderr, "test_trust: vectors/trust did not load (run from the top directory)\n");
	T_RUN(test_regex_gpg_domain);
	T_RUN(test_regex_plain);
	T_RUN(test_regex_refused);
	T_RUN(test_regex_shift_and_words);
	T_RUN(test_regex_long_uid);
	T_RUN(test_ownertrust_file);
	T_RUN(test_marginal_counting);
	T_RUN(test_unknown_never_undefined);
	T_RUN(test_max_depth);
	T_RUN(test_trust_signatures);
	T_RUN(test_regex_in_the_web);
	T_RUN(test_expired_revoked);
	T_RUN(test_cert_level);
	T_RUN(test_arguments);
	T_RUN(test_apply_ownertrust);
	web_free(&W);
	return T_DONE();
}
