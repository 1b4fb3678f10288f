/*
 * test_mapguard.c - the SIGBUS guard of mapped files (cmd/mapguard.c): a
 * registered mapping whose file is truncated ends the process with the
 * message and the exit code, its pending temporary files removed; a fault
 * anywhere else still kills (the guard hides no bug). Each case runs in a
 * child process (fork), its stderr captured in a file.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "t.h"
#include "cmd/mapguard.c"

#define CODE 7
static char dir[] = "/tmp/test_mapguard.XXXXXX";
static char path_data[256], path_tmp[256], path_keep[256], path_err[256];

static void
write_file(const char *p, size_t n)
{
	int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	char buf[4096];
	memset(buf, 'x', sizeof buf);
	while (fd >= 0 && n > 0) {
		size_t k = n < sizeof buf ? n : sizeof buf;
		if (write(fd, buf, k) != (ssize_t)k)
			break;
		n -= k;
	}
	if (fd >= 0)
		close(fd);
}

/* map path_data (len octets), read-only */
static const volatile uint8_t *
map_data(size_t len)
{
	int fd = open(path_data, O_RDONLY);
	void *m = fd >= 0 ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	if (fd >= 0)
		close(fd);
	return m == MAP_FAILED ? NULL : m;
}

enum { REGISTER = 1, REMOVE = 2, CATCH_ALL = 4, ODD_NAME = 8 };

/* Child: map a file of len octets, maybe register it, truncate the file, read
 * octet `at`. Parent: the wait status; the child's stderr in path_err. */
static int
run_child(size_t len, size_t at, int how)
{
	pid_t pid;
	int st = 0;
	write_file(path_data, len);
	write_file(path_tmp, 10);
	write_file(path_keep, 10);
	pid = fork();
	if (pid == 0) {
		const volatile uint8_t *m;
		int fd = open(path_err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		dup2(fd, 2);
		mapguard_setup("t_prog", CODE);
		m = map_data(len);
		if (m == NULL)
			_exit(90);
		if (how & CATCH_ALL)
			(void)mapguard_catch_all("the object files");
		if ((how & REGISTER) &&
		    mapguard_add((const void *)m, len, (how & ODD_NAME) ? "a\x1b[31m\xff\xe2\x80\xaez" : path_data) != 0)
			_exit(91);
		if (how & REMOVE)
			mapguard_remove((const void *)m);
		/* guards another mapping either way, so the handler is installed */
		if (mapguard_add((const void *)(uintptr_t)0x1000, 1, "other") != 0)
			_exit(92);
		if (mapguard_tmp_add(path_tmp) != 0)
			_exit(93);
		if (truncate(path_data, 0) != 0)
			_exit(94);
		_exit(m[at] == 'x' ? 0 : 95);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static char *
err_text(void)
{
	size_t n = 0;
	char *p = (char *)t_slurp(path_err, &n), *z = p ? realloc(p, n + 1) : NULL;
	if (z == NULL) {
		free(p);
		return NULL;
	}
	z[n] = '\0';   /* t_slurp does not terminate */
	return z;
}

static int
exists(const char *p)
{
	return access(p, F_OK) == 0;
}

static void
test_guarded_fault_exits_with_message(void)
{
	char want[512];
	char *e;
	int st = run_child(3 * 4096, 2 * 4096 + 5, REGISTER);
	T_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == CODE);
	snprintf(want, sizeof want, "t_prog: %s: changed while being read (truncated?); stopped with no result\n",
	    path_data);
	e = err_text();
	T_EQ_STR(e, want);
	free(e);
	T_ASSERT(!exists(path_tmp));   /* the pending temporary file is removed */
	T_ASSERT(exists(path_keep));   /* nothing else */
}

static void
test_fault_in_the_last_page_tail(void)
{
	/* 100 octets mapped: the page holds them; after the truncation the
	 * whole page is gone */
	int st = run_child(100, 50, REGISTER);
	T_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == CODE);
	T_ASSERT(!exists(path_tmp));
}

static void
test_name_is_escaped(void)
{
	char *e;
	int st = run_child(4096, 0, REGISTER | ODD_NAME);
	T_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == CODE);
	e = err_text();
	T_EQ_STR(e, "t_prog: a\\x1B[31m\\xFF\\xE2\\x80\\xAEz: changed while being read (truncated?); "
	    "stopped with no result\n");
	free(e);
}

/* not our exit: killed by SIGBUS (or a sanitizer's report of it) */
static int
died_of_sigbus(int st)
{
	return (WIFSIGNALED(st) && WTERMSIG(st) == SIGBUS) ||
	    (WIFEXITED(st) && WEXITSTATUS(st) != CODE && WEXITSTATUS(st) != 0 && WEXITSTATUS(st) < 90);
}

static void
test_unregistered_mapping_still_dies(void)
{
	int st = run_child(3 * 4096, 4096, 0);
	T_ASSERT(died_of_sigbus(st));
	T_ASSERT(exists(path_tmp));    /* only the guard removes temporary files */
}

static void
test_removed_mapping_still_dies(void)
{
	int st = run_child(3 * 4096, 4096, REGISTER | REMOVE);
	T_ASSERT(died_of_sigbus(st));
}

static void
test_catch_all_names_what(void)
{
	char *e;
	int st = run_child(3 * 4096, 4096, CATCH_ALL);
	T_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == CODE);
	e = err_text();
	T_EQ_STR(e, "t_prog: the object files: changed while being read (truncated?); stopped with no result\n");
	free(e);
	T_ASSERT(!exists(path_tmp));
}

static void
test_slots_run_out_and_come_back(void)
{
	pid_t pid = fork();
	int st = 0;
	if (pid == 0) {
		size_t i;
		for (i = 0; i < MAPGUARD_MAX_MAPS; i++)
			if (mapguard_add((const void *)(uintptr_t)((i + 1) * 65536), 10, "f") != 0)
				_exit(1);
		if (mapguard_add((const void *)(uintptr_t)((i + 1) * 65536), 10, "f") != -1)
			_exit(2);
		mapguard_remove((const void *)(uintptr_t)(5 * 65536));
		if (mapguard_add((const void *)(uintptr_t)((i + 1) * 65536), 10, "f") != 0)
			_exit(3);
		for (i = 0; i < MAPGUARD_MAX_TMPS; i++)
			if (mapguard_tmp_add(path_tmp) != 0)
				_exit(4);
		_exit(mapguard_tmp_add(path_tmp) == -1 ? 0 : 5);
	}
	T_ASSERT(pid > 0 && waitpid(pid, &st, 0) == pid);
	T_ASSERT(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

int
main(void)
{
	if (mkdtemp(dir) == NULL)
		return 1;
	snprintf(path_data, sizeof path_data, "%s/data", dir);
	snprintf(path_tmp, sizeof path_tmp, "%s/out.tmp.ABCDEF", dir);
	snprintf(path_keep, sizeof path_keep, "%s/keep", dir);
	snprintf(path_err, sizeof path_err, "%s/err", dir);
	T_RUN(test_guarded_fault_exits_with_message);
	T_RUN(test_fault_in_the_last_page_tail);
	T_RUN(test_name_is_escaped);
	T_RUN(test_unregistered_mapping_still_dies);
	T_RUN(test_removed_mapping_still_dies);
	T_RUN(test_catch_all_names_what);
	T_RUN(test_slots_run_out_and_come_back);
	unlink(path_data);
	unlink(path_tmp);
	unlink(path_keep);
	unlink(path_err);
	rmdir(dir);
	return T_DONE();
}
