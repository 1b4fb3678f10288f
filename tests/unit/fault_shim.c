/*
 * fault_shim.c - an LD_PRELOAD library for tests/cli/faults.sh: faults that
 * are hard to time from outside, made deterministic. Built as
 * build/tests/fault_shim.so (not linked into anything). Configured by the
 * environment; with none of these set it changes nothing.
 *
 *   WOTKIT_SHIM_TRUNC=PATH        truncate PATH (compared with the
 *                                 /proc/self/fd link of the descriptor,
 *                                 so give it canonical) to
 *   WOTKIT_SHIM_TRUNC_TO=N        N octets (default 0),
 *   WOTKIT_SHIM_TRUNC_WHEN=W      W = mmap (default): right after the first
 *                                 successful mmap of it; read: right after
 *                                 the first read of it that returned data;
 *                                 fwrite: at the first fwrite into a file
 *                                 whose name holds ".tmp." (a pending
 *                                 cmd/atomic.c file), before it is written.
 *   WOTKIT_SHIM_FAIL=OP           OP = fsync, rename or fflush: fail the first
 *                                 call whose file (fsync, fflush: the
 *                                 descriptor's path; rename: either name)
 *                                 contains
 *   WOTKIT_SHIM_MATCH=TEXT        TEXT (default: every call), with
 *   WOTKIT_SHIM_ERRNO=NAME        ENOSPC (default), EROFS, EIO or EDQUOT;
 *                                 fflush fails without writing (the data stays
 *                                 buffered, as after a short write).
 *
 * Each fault fires once per process, and the shim writes "fault_shim: OP
 * PATH" on stderr when it does, so a test can tell that it was hit.
 * (The writes stdio itself makes cannot be interposed: glibc calls its own
 * write internally. A full filesystem is a real small tmpfs in faults.sh.)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <unistd.h>

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
void *mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off);
ssize_t read(int fd, void *buf, size_t n);
int fsync(int fd);
int rename(const char *from, const char *to);
int fflush(FILE *f);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);

static int trunc_done, fail_done;

static void
say(const char *op, const char *path)
{
	char line[4200];
	int n = snprintf(line, sizeof line, "fault_shim: %s %s\n", op, path);
	if (n > 0)
		(void)!write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
}

/* the path of descriptor fd into buf ("" when unknown) */
static const char *
fd_path(int fd, char *buf, size_t n)
{
	char link[64];
	ssize_t r;
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	r = readlink(link, buf, n - 1);
	buf[r > 0 ? (size_t)r : 0] = '\0';
	return buf;
}

static void
maybe_truncate(int fd, const char *when)
{
	const char *want = getenv("WOTKIT_SHIM_TRUNC"), *w = getenv("WOTKIT_SHIM_TRUNC_WHEN");
	const char *to = getenv("WOTKIT_SHIM_TRUNC_TO");
	char path[4096];
	if (trunc_done || want == NULL || fd < 0 || strcmp(w ? w : "mmap", when) != 0)
		return;
	if (strcmp(when, "fwrite") == 0) {
		if (strstr(fd_path(fd, path, sizeof path), ".tmp.") == NULL)
			return;
	} else if (strcmp(fd_path(fd, path, sizeof path), want) != 0)
		return;
	trunc_done = 1;
	if (truncate(want, to ? (off_t)strtoll(to, NULL, 10) : 0) == 0)
		say(when[0] == 'm' ? "truncated-after-mmap" : when[0] == 'r' ?
		    "truncated-after-read" : "truncated-at-fwrite", want);
}

/* 1 when the armed write fault OP applies to path */
static int
should_fail(const char *op, const char *path)
{
	const char *want = getenv("WOTKIT_SHIM_FAIL"), *match = getenv("WOTKIT_SHIM_MATCH");
	const char *e = getenv("WOTKIT_SHIM_ERRNO");
	if (fail_done || want == NULL || strcmp(want, op) != 0)
		return 0;
	if (match != NULL && strstr(path, match) == NULL)
		return 0;
	fail_done = 1;
	say(op, path);
	errno = ENOSPC;
	if (e && strcmp(e, "EROFS") == 0)
		errno = EROFS;
	else if (e && strcmp(e, "EIO") == 0)
		errno = EIO;
	else if (e && strcmp(e, "EDQUOT") == 0)
		errno = EDQUOT;
	return 1;
}

void *
mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	void *m;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap");
	m = real(addr, len, prot, flags, fd, off);
	if (m != MAP_FAILED && !(flags & MAP_ANONYMOUS))
		maybe_truncate(fd, "mmap");
	return m;
}

/* what callers built with _FILE_OFFSET_BITS=64 call (off_t is 64 bits on
 * the platforms this runs on) */
void *
mmap64(void *addr, size_t len, int prot, int flags, int fd, off_t off)
{
	static void *(*real)(void *, size_t, int, int, int, off_t);
	void *m;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "mmap64");
	m = real(addr, len, prot, flags, fd, off);
	if (m != MAP_FAILED && !(flags & MAP_ANONYMOUS))
		maybe_truncate(fd, "mmap");
	return m;
}

ssize_t
read(int fd, void *buf, size_t n)
{
	static ssize_t (*real)(int, void *, size_t);
	ssize_t r;
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "read");
	r = real(fd, buf, n);
	if (r > 0)
		maybe_truncate(fd, "read");
	return r;
}

int
fsync(int fd)
{
	static int (*real)(int);
	char path[4096];
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fsync");
	if (should_fail("fsync", fd_path(fd, path, sizeof path)))
		return -1;
	return real(fd);
}

int
rename(const char *from, const char *to)
{
	static int (*real)(const char *, const char *);
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "rename");
	if (should_fail("rename", to) || (!fail_done && should_fail("rename", from)))
		return -1;
	return real(from, to);
}

int
fflush(FILE *f)
{
	static int (*real)(FILE *);
	char path[4096];
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fflush");
	if (f != NULL && should_fail("fflush", fd_path(fileno(f), path, sizeof path)))
		return EOF;
	return real(f);
}

size_t
fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	static size_t (*real)(const void *, size_t, size_t, FILE *);
	if (real == NULL)
		*(void **)&real = dlsym(RTLD_NEXT, "fwrite");
	maybe_truncate(fileno(f), "fwrite");
	return real(p, size, n, f);
}
