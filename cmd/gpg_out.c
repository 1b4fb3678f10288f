/*
 * gpg_out.c - the drop-in's two output streams, written in program order:
 * status lines ("[GNUPG:] ...") to the --status-fd descriptor and human
 * lines ("gpg: ...") to stderr, one write(2) per line, so that with
 * --status-fd=2 they interleave exactly as gpg's do. See gpg.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "gpg.h"

/* Write all of p[0..n) to fd (a closed or broken descriptor is ignored,
 * as gpg ignores a vanished status reader). */
static void
write_all(int fd, const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* prefix + formatted text + suffix to fd in one write. */
static void
vline(int fd, const char *prefix, const char *suffix, const char *fmt, va_list ap)
{
	char stack[1024], *buf = stack;
	va_list aq;
	int n, m, s;

	va_copy(aq, ap);
	m = snprintf(stack, sizeof stack, "%s", prefix);
	n = vsnprintf(stack + m, sizeof stack - (size_t)m, fmt, ap);
	if (n < 0) {
		va_end(aq);
		return;
	}
	if ((size_t)m + (size_t)n + 2 > sizeof stack) {
		if ((buf = malloc((size_t)m + (size_t)n + 2)) == NULL) {
			va_end(aq);
			return;
		}
		m = sprintf(buf, "%s", prefix);
		(void)vsnprintf(buf + m, (size_t)n + 1, fmt, aq);
	}
	va_end(aq);
	s = sprintf(buf + m + n, "%s", suffix);
	write_all(fd, buf, (size_t)m + (size_t)n + (size_t)s);
	if (buf != stack)
		free(buf);
}

/* see gpg.h */
void
gpg_status(gpg_run *r, const char *fmt, ...)
{
	va_list ap;

	if (r->status_fd < 0)
		return;
	va_start(ap, fmt);
	vline(r->status_fd, "[GNUPG:] ", "\n", fmt, ap);
	va_end(ap);
}

/* see gpg.h */
void
gpg_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(2, "gpg: ", "\n", fmt, ap);
	va_end(ap);
}

/* see gpg.h */
void
gpg_raw(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vline(2, "", "", fmt, ap);
	va_end(ap);
}
