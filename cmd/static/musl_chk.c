/*
 * musl_chk.c - the three glibc fortify entry points that Debian's static
 * libsodium.a and libmbedcrypto.a call (they are built with
 * _FORTIFY_SOURCE), for `make static`, which links them against musl.
 * Each checks what glibc's checks (the object size) and aborts as glibc's
 * __chk_fail does. Linked into the static wotkit only.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__memset_chk(void *dst, int c, size_t n, size_t dstlen);
void __explicit_bzero_chk(void *dst, size_t n, size_t dstlen);
int __printf_chk(int flag, const char *fmt, ...);

void *
__memset_chk(void *dst, int c, size_t n, size_t dstlen)
{
	if (n > dstlen)
		abort();
	return memset(dst, c, n);
}

void
__explicit_bzero_chk(void *dst, size_t n, size_t dstlen)
{
	if (n > dstlen)
		abort();
	explicit_bzero(dst, n);
}

int
__printf_chk(int flag, const char *fmt, ...)
{
	va_list ap;
	int r;
	(void)flag;
	va_start(ap, fmt);
	r = vprintf(fmt, ap);
	va_end(ap);
	return r;
}
