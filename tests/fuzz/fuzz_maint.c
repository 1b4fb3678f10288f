/*
 * fuzz_maint.c - libFuzzer target for the MAINTAINERS parser and matcher
 * (keyring/maint.h). The input is a MAINTAINERS file; every section is
 * then asked about a few paths taken from the input itself (the values of
 * its entries) and a few fixed ones, with the values as known paths.
 * Checked: every view lies inside the input, sections partition the
 * entries in order, an extracted address is valid (one '@' inside, no
 * whitespace, at most MAINT_MAX_EMAIL octets), covers() agrees with the
 * per-entry matchers, and nothing is matched for a bad entry. A violation
 * aborts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/maint.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
inside(const uint8_t *data, size_t size, pgp_view v)
{
	if (v.len && (v.p < data || v.p + v.len > data + size))
		abort();
}

static int
strcmp_ptr(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed[] = {"Makefile", "drivers/net/a.c", "a/b/c/d", ""};
	char *paths[16];
	const char *sorted[16];
	size_t np = 0, i, s, k, next = 0;
	maint_file *m = NULL;
	maint_paths known;

	if (maint_parse(&m, data, size, NULL) != PGP_OK)
		return 0;
	for (s = 0; s < maint_nsections(m); s++) {
		const maint_section *sec = maint_section_at(m, s);
		if (sec->first != next || sec->n == 0)
			abort();
		next += sec->n;
		inside(data, size, sec->title);
	}
	if (next != maint_nentries(m))
		abort();
	for (i = 0; i < maint_nentries(m); i++) {
		const maint_entry *e = maint_entry_at(m, i);
		inside(data, size, e->value);
		if (e->type < 'A' || e->type > 'Z')
			abort();
		if (e->email.len) {
			const uint8_t *at = memchr(e->email.p, '@', e->email.len);
			inside(data, size, e->email);
			if (e->email.p < e->value.p || e->email.p + e->email.len > e->value.p + e->value.len ||
			    e->email.len > MAINT_MAX_EMAIL || at == NULL || at == e->email.p ||
			    at == e->email.p + e->email.len - 1 ||
			    memchr(at + 1, '@', e->email.len - (size_t)(at + 1 - e->email.p)) != NULL ||
			    memchr(e->email.p, ' ', e->email.len) != NULL)
				abort();
		}
		if (np < 12 && e->value.len < 256 && memchr(e->value.p, 0, e->value.len) == NULL &&
		    (paths[np] = malloc(e->value.len + 1)) != NULL) {
			memcpy(paths[np], e->value.p, e->value.len);
			paths[np][e->value.len] = 0;
			np++;
		}
	}
	for (i = 0; i < 4; i++)
		paths[np++] = (char *)fixed[i];
	for (i = 0; i < np; i++)
		sorted[i] = paths[i];
	qsort(sorted, np, sizeof *sorted, strcmp_ptr);
	known.v = sorted;
	known.n = np;
	for (s = 0; s < maint_nsections(m) && s < 64; s++) {
		const maint_section *sec = maint_section_at(m, s);
		for (i = 0; i < np; i++) {
			size_t pl = strlen(paths[i]);
			int x = 0, f = 0, c = maint_covers(m, s, paths[i], pl, &known);
			for (k = 0; k < sec->n; k++) {
				const maint_entry *e = maint_entry_at(m, sec->first + k);
				int hit = e->type == 'N' ? maint_regex_match(m, sec->first + k, paths[i], pl) :
				    maint_pattern_match(m, sec->first + k, paths[i], pl, &known);
				if (hit && e->bad)
					abort();
				if (e->type == 'X')
					x |= hit;
				else if (e->type == 'F' || e->type == 'N')
					f |= hit;
				else if (hit)
					abort();
			}
			if (c != (!x && f))
				abort();
		}
	}
	for (i = 0; i + 4 < np; i++)
		free(paths[i]);
	maint_free(m);
	return 0;
}
