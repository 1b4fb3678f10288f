/* atomic.c - replacing a file atomically. see atomic.h */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "atomic.h"
#include "cli.h"
#include "mapguard.h"

/* see atomic.h */
int
cli_atomic_open(cli_atomic *a, const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dl = slash ? (size_t)(slash - path) : 0;
	a->fd = -1;
	a->f = NULL;
	a->failed = 0;
	if (dl >= sizeof a->dir ||
	    (size_t)snprintf(a->tmp, sizeof a->tmp, "%s.tmp.XXXXXX", path) >= sizeof a->tmp) {
		cli_msg(path, "path too long");
		return -1;
	}
	if (slash == NULL)
		strcpy(a->dir, ".");
	else if (dl == 0)
		strcpy(a->dir, "/");
	else {
		memcpy(a->dir, path, dl);
		a->dir[dl] = '\0';
	}
	if ((a->fd = mkstemp(a->tmp)) < 0 || (a->f = fdopen(a->fd, "wb")) == NULL) {
		cli_msg(a->tmp, "%s", strerror(errno));
		if (a->fd >= 0) {
			close(a->fd);
			unlink(a->tmp);
		}
		return -1;
	}
	(void)setvbuf(a->f, NULL, _IOFBF, 1 << 20);
	/* removed if a mapped input shrinks before the rename (mapguard.h) */
	(void)mapguard_tmp_add(a->tmp);
	return 0;
}

/* see atomic.h */
pgp_err
cli_atomic_sink(void *ctx, const uint8_t *p, size_t n)
{
	cli_atomic *a = ctx;
	if (fwrite(p, 1, n, a->f) != n) {
		a->failed = errno ? errno : EIO;
		return PGP_ERR_IO;
	}
	return PGP_OK;
}

/* see atomic.h */
int
cli_atomic_close(cli_atomic *a, const char *path, int ok, int sync_dir)
{
	int dfd, e0 = errno;
	/* a write the caller saw fail (fwrite/fprintf into a->f) and did not
	 * report: say why, else the command fails silently */
	if (!ok && a->failed == 0 && ferror(a->f))
		cli_msg(a->tmp, "write: %s", strerror(e0 ? e0 : EIO));
	if (fflush(a->f) != 0 || fchmod(a->fd, 0644) != 0 || fsync(a->fd) != 0) {
		if (ok)
			cli_msg(a->tmp, "write: %s", strerror(errno));
		ok = 0;
	}
	if (fclose(a->f) != 0 && ok) {
		cli_msg(a->tmp, "close: %s", strerror(errno));
		ok = 0;
	}
	if (ok && rename(a->tmp, path) != 0) {
		cli_msg(path, "rename: %s", strerror(errno));
		ok = 0;
	}
	if (!ok)
		unlink(a->tmp);
	mapguard_tmp_remove(a->tmp);
	if (!ok)
		return -1;
	if (sync_dir && (dfd = open(a->dir, O_RDONLY | O_DIRECTORY)) >= 0) {
		if (fsync(dfd) != 0) {
			cli_msg(a->dir, "fsync: %s", strerror(errno));
			close(dfd);
			return -1;
		}
		close(dfd);
	}
	return 0;
}


/* see atomic.h */
int
cli_atomic_update(const char *path, const uint8_t *data, size_t len)
{
	cli_atomic a;
	uint8_t *old = NULL;
	size_t olen = 0;
	int fd, ok = 1;
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len) {
		fd = open(path, O_RDONLY);
		if (fd >= 0) {
			if ((old = malloc(len ? len : 1)) != NULL) {
				ssize_t r = len ? read(fd, old, len) : 0;
				olen = r > 0 ? (size_t)r : 0;
			}
			close(fd);
		}
		if (old && olen == len && memcmp(old, data, len) == 0) {
			free(old);
			return 0;
		}
		free(old);
	}
	if (cli_atomic_open(&a, path) != 0)
		return -1;
	if (len && fwrite(data, 1, len, a.f) != len) {
		cli_msg(path, "cannot write: %s", strerror(errno));
		ok = 0;
	}
	if (cli_atomic_close(&a, path, ok, 0) != 0)
		return -1;
	return 1;
}
