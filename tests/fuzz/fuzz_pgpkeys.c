/*
 * fuzz_pgpkeys.c - libFuzzer target for the pgpkeys.git tree reader
 * (keyring/pgpkeys.c layout checks and names, keyring/pgpkeys_header.c the
 * human header of a keys/ file) on an in-memory tree built from the input,
 * loaded the way cmd/krsrc.c and cmd/krsrc_git.c load a tree or a git
 * stream.
 *
 * Input: files separated by the line "--8<--" (FUZZ_SEP); each file is a
 * path line and its content. A path may start with "N:" (N a digit: the
 * source tree it belongs to, as with several sources). Paths
 *   keys/<name>.asc                        a key file (armored or binary)
 *   .keyring/openpgp/<dom>/<local>/default an entry: the link text
 * are loaded; anything else is ignored, as the loaders do.
 *
 * A key file that leaves the set unusable (a packet above
 * PGP_MAX_PACKET_BODY: cert.h) ends the load, as cmd/krsrc.c does (an
 * error, never an empty keyring: tests/cli/krsrc_limit.sh).
 *
 * Invariants (a violation aborts):
 *  - the layout checks succeed on what was loaded;
 *  - reports name one of the files or entries given, with a known severity
 *    and a non-empty text; a key file's report offset lies inside it;
 *  - url-quoting a path component and unquoting it gives it back; the
 *    quoted form holds only unreserved octets and %XX and never reads "."
 *    or "..";
 *  - a name pgpkeys_keyfile_name accepts is 16 hex digits + ".asc", and
 *    the key ID it gives, written back as a link text, is a link text
 *    pgpkeys_link_target accepts with the same key ID; a link text it
 *    accepts is that text up to the case of the hex digits (key IDs are
 *    matched in either case, pgpkeys.c);
 *  - the header of every certificate is LF-terminated lines of UTF-8
 *    without control characters.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "keyring/pgpkeys.h"
#include "pgp/armor.h"
#include "pgp/classify.h"
#include "pgp/hex.h"
#include "pgp/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_SEP "\n--8<--\n"
#define FUZZ_MAX_FILES 32
#define FUZZ_MAX_LINK 4096     /* as KRSRC_MAX_LINK */
#define FUZZ_AT 1700000000

typedef struct tree {
	pgpkeys_file files[FUZZ_MAX_FILES];
	size_t nfiles;
	size_t filelen[FUZZ_MAX_FILES];
	pgpkeys_entry entries[FUZZ_MAX_FILES];
	size_t nentries;
	char *strs[4 * FUZZ_MAX_FILES];
	size_t nstrs;
	int broken;          /* the set became unusable: the load failed */
} tree;

static char *
keep(tree *t, const char *p, size_t n)
{
	char *s;
	if (t->nstrs >= sizeof t->strs / sizeof t->strs[0] || (s = malloc(n + 1)) == NULL)
		return NULL;
	memcpy(s, p, n);
	s[n] = 0;
	t->strs[t->nstrs++] = s;
	return s;
}

static pgp_err
report(void *ctx, const char *file, size_t offset, int severity, const char *what)
{
	tree *t = ctx;
	size_t i;
	int known = 0;
	if (file == NULL || what == NULL || what[0] == 0 ||
	    (severity != PGPKEYS_NOTE && severity != PGPKEYS_WARN && severity != PGPKEYS_ERROR))
		abort();
	for (i = 0; i < t->nfiles; i++)
		if (file == t->files[i].path) {
			known = 1;
			/* a certificate's offset in a key file: inside it (binary) */
			if (offset > t->filelen[i])
				abort();
		}
	for (i = 0; i < t->nentries; i++)
		known |= file == t->entries[i].path;
	if (!known)
		abort();
	return PGP_OK;
}

/* quote/unquote round trip of one path component */
static void
check_quote(const uint8_t *p, size_t n)
{
	char q[3 * 256 + 1], back[256 + 1];
	size_t bl = 0, i;
	if (n == 0 || n > 256)
		return;
	if (pgpkeys_quote(q, sizeof q, p, n) != PGP_OK)
		abort();
	if (strcmp(q, ".") == 0 || strcmp(q, "..") == 0)
		abort();
	for (i = 0; q[i]; i++) {
		char c = q[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '.' || c == '_' || c == '~' || c == '%'))
			abort();
	}
	if (memchr(p, 0, n) != NULL) {
		/* a NUL never decodes */
		if (pgpkeys_unquote(back, sizeof back, &bl, q, strlen(q)) == PGP_OK)
			abort();
		return;
	}
	if (pgpkeys_unquote(back, sizeof back, &bl, q, strlen(q)) != PGP_OK || bl != n ||
	    memcmp(back, p, n) != 0)
		abort();
}

static void
check_names(const char *base, size_t bl, const uint8_t *content, size_t cl)
{
	char kid[17], kid2[17], link[64];
	uint8_t raw[8];
	size_t i;
	if (pgpkeys_keyfile_name(base, kid)) {
		if (bl != 20 || strlen(kid) != 16 || strcmp(base + 16, ".asc") != 0)
			abort();
		for (i = 0; i < 16; i++)
			if (pgp_hex_digit((uint8_t)kid[i]) < 0 || (kid[i] >= 'a' && kid[i] <= 'f'))
				abort();
		if (pgp_hex_decode(raw, kid, 8) != 0 ||
		    pgpkeys_link_text(link, sizeof link, raw) != PGP_OK ||
		    !pgpkeys_link_target((const uint8_t *)link, strlen(link), kid2) ||
		    strcmp(kid, kid2) != 0)
			abort();
	}
	if (pgpkeys_link_target(content, cl, kid)) {
		if (strlen(kid) != 16 || pgp_hex_decode(raw, kid, 8) != 0 ||
		    pgpkeys_link_text(link, sizeof link, raw) != PGP_OK ||
		    (cl != strlen(link) && !(cl == strlen(link) + 1 && content[cl - 1] == '\n')) ||
		    strncasecmp(link, (const char *)content, strlen(link)) != 0)
			abort();
	}
}

/* A key file: armored or binary, as krsrc_add_keyfile loads it. */
static void
add_keyfile(tree *t, pgp_certset *set, const char *path, const char *base, unsigned tr,
    const uint8_t *p, size_t len)
{
	pgpkeys_file *f;
	pgp_input_class ic;
	if (t->nfiles >= FUZZ_MAX_FILES)
		return;
	f = &t->files[t->nfiles];
	t->filelen[t->nfiles++] = len;
	f->path = path;
	f->base = base;
	f->tree = tr;
	f->copy0 = pgp_certset_copies(set);
	(void)pgp_classify(p, len, &ic);
	if (pgp_classify_has_armor(&ic, len)) {
		pgp_buf b;
		uint8_t *dec;
		size_t n = 0;
		if (pgp_armor_decode_all(&b, p, len, NULL) == PGP_OK && (dec = pgp_buf_take(&b, &n)) != NULL) {
			(void)pgp_certset_add_owned(set, dec, n, NULL);
			/* offsets are in the dearmored octets */
			t->filelen[t->nfiles - 1] = n;
		}
	} else if (len > 0) {
		(void)pgp_certset_add(set, p, len, NULL);
	}
	if (pgp_certset_status(set) != PGP_OK) {
		t->broken = 1;
		f->ncopies = 0;
		return;
	}
	f->ncopies = pgp_certset_copies(set) - f->copy0;
}

/* One file of the input: path line, content. */
static void
add_item(tree *t, pgp_certset *set, const uint8_t *p, size_t n)
{
	const uint8_t *nl = memchr(p, '\n', n);
	const char *path;
	size_t pl, cl;
	const uint8_t *content;
	unsigned tr = 0;
	if (nl == NULL)
		return;
	pl = (size_t)(nl - p);
	content = nl + 1;
	cl = n - pl - 1;
	if (pl >= 2 && p[0] >= '0' && p[0] <= '9' && p[1] == ':') {
		tr = (unsigned)(p[0] - '0');
		p += 2;
		pl -= 2;
	}
	if (pl == 0 || memchr(p, 0, pl) != NULL || (path = keep(t, (const char *)p, pl)) == NULL)
		return;
	if (pl > 5 && memcmp(path, "keys/", 5) == 0) {
		const char *base = path + 5;
		size_t bl = pl - 5;
		check_names(base, bl, content, cl);
		if (strchr(base, '/') || bl < 5 || strcmp(base + bl - 4, ".asc") != 0 || base[0] == '.')
			return;
		add_keyfile(t, set, path, base, tr, content, cl);
	} else if (pl > 17 && memcmp(path, ".keyring/openpgp/", 17) == 0) {
		const char *d = path + 17, *l, *s;
		char dom[PGPKEYS_MAX_COMPONENT], loc[PGPKEYS_MAX_COMPONENT];
		size_t dn = 0, ln = 0, dl, ll;
		pgpkeys_entry *en;
		if ((l = strchr(d, '/')) == NULL)
			return;
		dl = (size_t)(l - d);
		l++;
		if ((s = strchr(l, '/')) == NULL || strcmp(s, "/default") != 0)
			return;
		ll = (size_t)(s - l);
		check_names(l, ll, content, cl);
		if (cl > FUZZ_MAX_LINK || t->nentries >= FUZZ_MAX_FILES ||
		    pgpkeys_unquote(dom, sizeof dom, &dn, d, dl) != PGP_OK ||
		    pgpkeys_unquote(loc, sizeof loc, &ln, l, ll) != PGP_OK)
			return;
		check_quote((const uint8_t *)dom, dn);
		check_quote((const uint8_t *)loc, ln);
		en = &t->entries[t->nentries];
		en->path = path;
		en->tree = tr;
		if ((en->domain = keep(t, dom, dn)) == NULL || (en->local = keep(t, loc, ln)) == NULL ||
		    (en->link = (const uint8_t *)keep(t, (const char *)content, cl)) == NULL)
			return;
		en->linklen = cl;
		t->nentries++;
	} else {
		check_quote(p, pl);
	}
}

static void
check_header(const pgp_cert *c, const pgp_certsrc *src, const pgp_policy *pol)
{
	pgp_buf out;
	size_t i;
	pgp_buf_init(&out, (size_t)16 << 20);
	if (pgpkeys_header(&out, c, src, FUZZ_AT, pol) == PGP_OK && out.len > 0) {
		if (out.p[out.len - 1] != '\n' || !pgp_utf8_valid(out.p, out.len))
			abort();
		for (i = 0; i < out.len; i++)
			if ((out.p[i] < 0x20 && out.p[i] != '\n') || out.p[i] == 0x7f)
				abort();
	}
	pgp_buf_free(&out);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static tree t;
	pgp_certset *set = NULL;
	pgp_certsrc src;
	pgp_policy pol;
	const uint8_t *p = data, *end = data + size, *sep;
	size_t i, seplen = sizeof FUZZ_SEP - 1;

	memset(&t, 0, sizeof t);
	if (pgp_certset_new(&set) != PGP_OK)
		return 0;
	pgp_policy_init(&pol);
	while (p < end && !t.broken) {
		size_t rest = (size_t)(end - p);
		sep = NULL;
		for (i = 0; i + seplen <= rest; i++)
			if (p[i] == '\n' && memcmp(p + i, FUZZ_SEP, seplen) == 0) {
				sep = p + i;
				break;
			}
		add_item(&t, set, p, sep ? (size_t)(sep - p) : rest);
		p = sep ? sep + seplen : end;
	}
	pgp_certset_source(set, &src);
	if (t.broken)
		goto out;
	if (pgpkeys_check_files(set, t.files, t.nfiles, report, &t) != PGP_OK ||
	    pgpkeys_check_entries(set, t.files, t.nfiles, t.entries, t.nentries, FUZZ_AT, &pol,
	    report, &t) != PGP_OK)
		abort();   /* the callback never fails: neither may the checks */
	for (i = 0; i < pgp_certset_count(set) && i < 8; i++)
		check_header(pgp_certset_get(set, i), &src, &pol);
out:
	for (i = 0; i < t.nstrs; i++)
		free(t.strs[i]);
	pgp_certset_free(set);
	return 0;
}
