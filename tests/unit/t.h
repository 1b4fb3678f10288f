/*
 * t.h - a tiny TAP-style unit-test harness.
 *
 *   static void test_foo(void) { T_ASSERT(x == 1); T_EQ_INT(a, b); }
 *   int main(void) { T_RUN(test_foo); return T_DONE(); }
 *
 * Each T_RUN prints "ok - name" or "not ok - name"; tests/run.sh counts them.
 */
#ifndef WOTKIT_T_H
#define WOTKIT_T_H

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static int t_failed_checks;
static int t_tests_passed, t_tests_failed;

#define T_ASSERT(c) do { \
	if (!(c)) { t_failed_checks++; \
		fprintf(stderr, "%s:%d: assertion failed: %s\n", __FILE__, __LINE__, #c); } \
} while (0)

#define T_EQ_INT(a, b) do { \
	long long t_a_ = (long long)(a), t_b_ = (long long)(b); \
	if (t_a_ != t_b_) { t_failed_checks++; \
		fprintf(stderr, "%s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__, \
		    #a, t_a_, #b, t_b_); } \
} while (0)

#define T_EQ_MEM(a, b, n) do { \
	if (memcmp((a), (b), (n)) != 0) { t_failed_checks++; \
		fprintf(stderr, "%s:%d: memory differs: %s vs %s\n", __FILE__, __LINE__, #a, #b); } \
} while (0)

#define T_EQ_STR(a, b) do { \
	const char *t_sa_ = (a), *t_sb_ = (b); \
	if (t_sa_ == NULL || t_sb_ == NULL || strcmp(t_sa_, t_sb_) != 0) { t_failed_checks++; \
		fprintf(stderr, "%s:%d: \"%s\" != \"%s\"\n", __FILE__, __LINE__, \
		    t_sa_ ? t_sa_ : "(null)", t_sb_ ? t_sb_ : "(null)"); } \
} while (0)

#define T_RUN(fn) do { \
	int t_before_ = t_failed_checks; \
	fn(); \
	if (t_failed_checks == t_before_) { t_tests_passed++; printf("ok - %s\n", #fn); } \
	else { t_tests_failed++; printf("not ok - %s\n", #fn); } \
	fflush(stdout); \
} while (0)

#define T_DONE() (t_tests_failed ? 1 : 0)

/* Read a whole file (tests only); NULL if absent. */
__attribute__((unused)) static unsigned char *
t_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = NULL;
	size_t cap = 0, n = 0, r;
	if (!f)
		return NULL;
	for (;;) {
		if (n == cap) {
			unsigned char *np;
			cap = cap ? cap * 2 : 4096;
			np = realloc(p, cap);
			if (!np) { free(p); fclose(f); return NULL; }
			p = np;
		}
		r = fread(p + n, 1, cap - n, f);
		if (r == 0)
			break;
		n += r;
	}
	fclose(f);
	*len = n;
	return p;
}

/* Hex string -> bytes; returns byte count. */
__attribute__((unused)) static size_t
t_unhex(unsigned char *out, size_t max, const char *hex)
{
	size_t n = 0;
	while (hex[0] && hex[1] && n < max) {
		unsigned v;
		if (hex[0] == ' ' || hex[0] == '\n') { hex++; continue; }
		if (sscanf(hex, "%2x", &v) != 1)
			break;
		out[n++] = (unsigned char)v;
		hex += 2;
	}
	return n;
}

/* Path of the shared corpus, or NULL (tests then skip with a message). */
__attribute__((unused)) static const char *
t_corpus(void)
{
	const char *c = getenv("WOTKIT_CORPUS");
	FILE *f;
	char probe[4096];
	if (!c)
		c = "../shared/corpus";
	snprintf(probe, sizeof probe, "%s/README.md", c);
	f = fopen(probe, "r");
	if (!f)
		return NULL;
	fclose(f);
	return c;
}

#endif
