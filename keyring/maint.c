/*
 * maint.c - parsing MAINTAINERS into sections and entries, and the e-mail
 * addresses of M:/R:/L: values, as scripts/get_maintainer.pl
 * (read_maintainer_file, find_starting_index, find_ending_index) reads
 * them. see maint.h
 */
#include <stdlib.h>
#include <string.h>
#include "maint_int.h"

static int
is_blank(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* ---- e-mail addresses ---- */

static int
addr_char_ok(uint8_t c)
{
	return c > 0x20 && c != 0x7f && c != '<' && c != '>' && c != '(' && c != ')' &&
	    c != ',' && c != ';' && c != '"';
}

static int
valid_addr(const uint8_t *p, size_t n)
{
	size_t i, at = 0, nat = 0;

	if (n == 0 || n > MAINT_MAX_EMAIL)
		return 0;
	for (i = 0; i < n; i++) {
		if (!addr_char_ok(p[i]))
			return 0;
		if (p[i] == '@') {
			at = i;
			nat++;
		}
	}
	return nat == 1 && at > 0 && at + 1 < n;
}

static int
is_strip(uint8_t c)
{
	return c == '(' || c == ')' || c == ',' || c == ';' || c == '"';
}

/* see maint.h */
int
maint_email(pgp_view v, pgp_view *out)
{
	size_t i, lt = SIZE_MAX;

	out->p = v.p;
	out->len = 0;
	for (i = 0; i < v.len; i++)
		if (v.p[i] == '<')
			lt = i;
	if (lt != SIZE_MAX) {
		/* "Name <addr>": the last <...> pair */
		const uint8_t *gt = memchr(v.p + lt + 1, '>', v.len - lt - 1);
		size_t n;
		if (gt == NULL)
			return 0;
		n = (size_t)(gt - (v.p + lt + 1));
		if (!valid_addr(v.p + lt + 1, n))
			return 0;
		out->p = v.p + lt + 1;
		out->len = n;
		return 1;
	}
	/* a bare address: the first word holding '@' */
	i = 0;
	while (i < v.len) {
		size_t s, e;
		while (i < v.len && is_blank(v.p[i]))
			i++;
		s = i;
		while (i < v.len && !is_blank(v.p[i]))
			i++;
		e = i;
		if (memchr(v.p + s, '@', e - s) == NULL)
			continue;
		while (s < e && is_strip(v.p[s]))
			s++;
		while (e > s && is_strip(v.p[e - 1]))
			e--;
		if (!valid_addr(v.p + s, e - s))
			return 0;
		out->p = v.p + s;
		out->len = e - s;
		return 1;
	}
	return 0;
}

/* ---- the file ---- */

static pgp_err
fail(pgp_diag *d, size_t off, const char *what, pgp_err e)
{
	if (d) {
		d->offset = off;
		d->tag = -1;
		d->what = what;
	}
	return e;
}

static pgp_err
add_section(maint_file *m, pgp_view title, uint32_t line)
{
	maint_section *s;

	if (m->nsec >= MAINT_MAX_SECTIONS)
		return PGP_ERR_LIMIT;
	if (m->nsec == m->capsec) {
		size_t cap = m->capsec ? m->capsec * 2 : 64;
		maint_section *n = realloc(m->sec, cap * sizeof *n);
		if (n == NULL)
			return PGP_ERR_NOMEM;
		m->sec = n;
		m->capsec = cap;
	}
	s = &m->sec[m->nsec++];
	s->title = title;
	s->line = line;
	s->first = (uint32_t)m->nent;
	s->n = 0;
	return PGP_OK;
}

static pgp_err
add_entry(maint_file *m, char type, pgp_view value, uint32_t line)
{
	maint_entry *e;

	if (m->nent >= MAINT_MAX_ENTRIES)
		return PGP_ERR_LIMIT;
	if (m->nent == m->capent) {
		size_t cap = m->capent ? m->capent * 2 : 256;
		maint_entry *n = realloc(m->ent, cap * sizeof *n);
		maint_pat *np;
		if (n == NULL)
			return PGP_ERR_NOMEM;
		m->ent = n;
		if ((np = realloc(m->pat, cap * sizeof *np)) == NULL)
			return PGP_ERR_NOMEM;
		m->pat = np;
		m->capent = cap;
	}
	e = &m->ent[m->nent];
	memset(e, 0, sizeof *e);
	memset(&m->pat[m->nent], 0, sizeof m->pat[0]);
	e->type = type;
	e->value = value;
	e->line = line;
	e->email.p = value.p;
	if (type == 'M' || type == 'R' || type == 'L')
		(void)maint_email(value, &e->email);
	m->nent++;
	m->sec[m->nsec - 1].n++;
	if (type == 'F' || type == 'X' || type == 'N')
		return maint__prepare(m, m->nent - 1);
	return PGP_OK;
}

/* One line (without its line feed). */
static pgp_err
one_line(maint_file *m, pgp_view l, uint32_t lineno, pgp_view *title, uint32_t *title_line,
    int *in_section)
{
	size_t i = 0;

	while (i < l.len && is_blank(l.p[i]))
		i++;
	if (i == l.len || l.p[i] == '#')
		return PGP_OK;                  /* blank or comment: ignored */
	if (l.len >= 2 && l.p[0] >= 'A' && l.p[0] <= 'Z' && l.p[1] == ':') {
		/* a type line: `^([A-Z]):\s*(.*)` */
		pgp_view v;
		pgp_err e;
		i = 2;
		while (i < l.len && (is_blank(l.p[i]) || l.p[i] == '\n'))
			i++;
		v.p = l.p + i;
		v.len = l.len - i;
		if (!*in_section) {
			if ((e = add_section(m, *title, title->len ? *title_line : lineno)) != PGP_OK)
				return e;
			*in_section = 1;
		}
		return add_entry(m, (char)l.p[0], v, lineno);
	}
	/* a title line: it names the next run of type lines */
	title->p = l.p;
	title->len = l.len;
	while (title->len && is_blank(title->p[title->len - 1]))
		title->len--;
	*title_line = lineno;
	*in_section = 0;
	return PGP_OK;
}

/* see maint.h */
pgp_err
maint_parse(maint_file **out, const uint8_t *p, size_t len, pgp_diag *d)
{
	maint_file *m;
	pgp_rd r;
	pgp_view title = {NULL, 0};
	uint32_t lineno = 0, title_line = 0;
	int in_section = 0;
	pgp_err e = PGP_OK;

	*out = NULL;
	if (len > MAINT_MAX_FILE)
		return fail(d, 0, "MAINTAINERS larger than MAINT_MAX_FILE", PGP_ERR_LIMIT);
	if (len && memchr(p, 0, len) != NULL)
		return fail(d, (size_t)((const uint8_t *)memchr(p, 0, len) - p),
		    "a NUL octet (not a text file)", PGP_ERR_MALFORMED);
	if ((m = calloc(1, sizeof *m)) == NULL)
		return PGP_ERR_NOMEM;
	title.p = p;
	pgp_rd_init(&r, p, len);
	while (!pgp_rd_empty(&r)) {
		const uint8_t *nl = memchr(r.p, '\n', r.len);
		size_t n = nl ? (size_t)(nl - r.p) : r.len, off = r.off;
		pgp_view l;
		if (n > MAINT_MAX_LINE) {
			e = fail(d, off, "a line longer than MAINT_MAX_LINE", PGP_ERR_LIMIT);
			break;
		}
		if ((e = pgp_rd_view(&r, n, &l)) != PGP_OK || (nl && (e = pgp_rd_skip(&r, 1)) != PGP_OK))
			break;
		if (lineno == UINT32_MAX) {
			e = fail(d, off, "too many lines", PGP_ERR_LIMIT);
			break;
		}
		lineno++;
		if ((e = one_line(m, l, lineno, &title, &title_line, &in_section)) != PGP_OK) {
			if (e == PGP_ERR_LIMIT)
				(void)fail(d, off, m->nsec >= MAINT_MAX_SECTIONS ?
				    "more sections than MAINT_MAX_SECTIONS" :
				    "more entries than MAINT_MAX_ENTRIES", e);
			break;
		}
	}
	if (e != PGP_OK) {
		maint_free(m);
		return e;
	}
	*out = m;
	return PGP_OK;
}

void
maint_free(maint_file *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->nent; i++)
		maint__release(m, i);
	free(m->sec);
	free(m->ent);
	free(m->pat);
	free(m);
}

size_t
maint_nsections(const maint_file *m)
{
	return m->nsec;
}

const maint_section *
maint_section_at(const maint_file *m, size_t i)
{
	return i < m->nsec ? &m->sec[i] : NULL;
}

size_t
maint_nentries(const maint_file *m)
{
	return m->nent;
}

const maint_entry *
maint_entry_at(const maint_file *m, size_t i)
{
	return i < m->nent ? &m->ent[i] : NULL;
}

static int
email_eq(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
	size_t i;

	if (al != bl)
		return 0;
	for (i = 0; i < al; i++) {
		uint8_t x = a[i], y = b[i];
		if (x >= 'A' && x <= 'Z')
			x = (uint8_t)(x + 32);
		if (y >= 'A' && y <= 'Z')
			y = (uint8_t)(y + 32);
		if (x != y)
			return 0;
	}
	return 1;
}

/* see maint.h */
int
maint_has_email(const maint_file *m, size_t s, char role, const uint8_t *addr, size_t alen)
{
	uint32_t k;

	if (s >= m->nsec)
		return 0;
	for (k = 0; k < m->sec[s].n; k++) {
		const maint_entry *e = &m->ent[m->sec[s].first + k];
		if (e->type == role && e->email.len &&
		    email_eq(e->email.p, e->email.len, addr, alen))
			return 1;
	}
	return 0;
}
