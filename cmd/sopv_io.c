/*
 * sopv_io.c - indirect inputs and outputs, and DATE, for `wotkit sopv`.
 * see sopv.h
 *
 * draft-dkg-openpgp-stateless-cli §"Special Designators for Indirect
 * Inputs": "@ENV:NAME" reads the value of environment variable NAME and
 * "@FD:N" reads file descriptor N; an argument that starts with "@" and is
 * also the name of an existing file is AMBIGUOUS_INPUT; an "@" prefix the
 * implementation does not know is UNSUPPORTED_SPECIAL_PREFIX. For outputs,
 * "@FD:N" writes to descriptor N and "@ENV:" is refused; an output file
 * that already exists is OUTPUT_EXISTS.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "sopv.h"
#include "pgp/pgp.h"

#define PFX_ENV "@ENV:"
#define PFX_FD "@FD:"

/* "@FD:N": N is 1 to 9 decimal digits. Returns the descriptor or -1. */
static int
fd_number(const char *s)
{
	long v = 0;
	size_t i, n = strlen(s);
	if (n == 0 || n > 9)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return (int)v;
}

/* see sopv.h */
int
sopv_input_open(cli_file *f, const char *arg)
{
	struct stat st;
	memset(f, 0, sizeof *f);
	f->name = arg;
	if (arg[0] == '@') {
		if (stat(arg, &st) == 0) {
			cli_msg(arg, "both a special designator and an existing file "
			    "(use ./%s for the file)", arg);
			return SOPV_AMBIGUOUS_INPUT;
		}
		if (strncmp(arg, PFX_ENV, strlen(PFX_ENV)) == 0) {
			const char *v = getenv(arg + strlen(PFX_ENV));
			if (v == NULL) {
				cli_msg(arg, "environment variable not set");
				return SOPV_MISSING_INPUT;
			}
			/* The environment outlives the command: a borrowed view. */
			f->p = (const uint8_t *)v;
			f->len = strlen(v);
			return SOPV_OK;
		}
		if (strncmp(arg, PFX_FD, strlen(PFX_FD)) == 0) {
			int fd = fd_number(arg + strlen(PFX_FD));
			if (fd < 0) {
				cli_msg(arg, "@FD: needs a decimal descriptor number");
				return SOPV_UNSUPPORTED_SPECIAL_PREFIX;
			}
			if (fcntl(fd, F_GETFD) < 0) {
				cli_msg(arg, "descriptor not open");
				return SOPV_MISSING_INPUT;
			}
			if (cli_file_read_fd(f, fd, arg) != 0) {
				cli_msg(arg, "%s", strerror(errno));
				return SOPV_GENERIC;
			}
			return SOPV_OK;
		}
		cli_msg(arg, "unsupported special designator (use ./%s for a file)", arg);
		return SOPV_UNSUPPORTED_SPECIAL_PREFIX;
	}
	if (stat(arg, &st) != 0) {
		cli_msg(arg, "%s", strerror(errno));
		return errno == ENOENT || errno == ENOTDIR ? SOPV_MISSING_INPUT : SOPV_GENERIC;
	}
	if (S_ISDIR(st.st_mode)) {
		cli_msg(arg, "is a directory, not a file");
		return SOPV_MISSING_INPUT;
	}
	return cli_file_open(f, arg) == 0 ? SOPV_OK : SOPV_GENERIC;
}

/* see sopv.h */
int
sopv_output_check(const char *arg)
{
	struct stat st;
	if (strncmp(arg, PFX_ENV, strlen(PFX_ENV)) == 0) {
		cli_msg(arg, "@ENV: cannot be an output");
		return SOPV_UNSUPPORTED_SPECIAL_PREFIX;
	}
	if (strncmp(arg, PFX_FD, strlen(PFX_FD)) == 0) {
		int fd = fd_number(arg + strlen(PFX_FD)), fl;
		if (fd < 0) {
			cli_msg(arg, "@FD: needs a decimal descriptor number");
			return SOPV_UNSUPPORTED_SPECIAL_PREFIX;
		}
		fl = fcntl(fd, F_GETFL);
		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
			cli_msg(arg, "descriptor not open for writing");
			return SOPV_GENERIC;
		}
		return SOPV_OK;
	}
	if (arg[0] == '@') {
		cli_msg(arg, "unsupported special designator (use ./%s for a file)", arg);
		return SOPV_UNSUPPORTED_SPECIAL_PREFIX;
	}
	if (lstat(arg, &st) == 0) {
		cli_msg(arg, "output file exists");
		return SOPV_OUTPUT_EXISTS;
	}
	return SOPV_OK;
}

static int
write_all(int fd, const uint8_t *p, size_t len)
{
	while (len) {
		ssize_t w = write(fd, p, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

/* see sopv.h */
int
sopv_output_write(const char *arg, const uint8_t *p, size_t len)
{
	int fd, rc;
	if (strncmp(arg, PFX_FD, strlen(PFX_FD)) == 0) {
		fd = fd_number(arg + strlen(PFX_FD));
		if (fd < 0 || write_all(fd, p, len) != 0) {
			cli_msg(arg, "write failed");
			return SOPV_GENERIC;
		}
		return SOPV_OK;
	}
	fd = open(arg, O_WRONLY | O_CREAT | O_EXCL, 0666);
	if (fd < 0) {
		int err = errno;
		cli_msg(arg, "%s", strerror(err));
		return err == EEXIST ? SOPV_OUTPUT_EXISTS : SOPV_GENERIC;
	}
	rc = write_all(fd, p, len);
	if (close(fd) != 0)
		rc = -1;
	if (rc != 0) {
		cli_msg(arg, "write failed");
		return SOPV_GENERIC;
	}
	return SOPV_OK;
}

/* see sopv.h */
int
sopv_parse_date(const char *s, int64_t now, int64_t dash, int64_t *out)
{
	if (strcmp(s, "now") == 0) {
		*out = now;
		return 0;
	}
	if (strcmp(s, "-") == 0) {
		*out = dash;
		return 0;
	}
	/* the draft's DATE is ISO 8601 with a zone; no Unix seconds */
	return pgp_time_parse(s, PGP_TIME_NEED_ZONE, out) == PGP_OK ? 0 : -1;
}
