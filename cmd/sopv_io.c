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

/* Reads exactly n decimal digits. */
static int
digits(const char **s, int n, int *out)
{
	int v = 0, i;
	for (i = 0; i < n; i++) {
		char c = (*s)[i];
		if (c < '0' || c > '9')
			return -1;
		v = v * 10 + (c - '0');
	}
	*s += n;
	*out = v;
	return 0;
}

/* Reads sep if present; with `basic` the separators are absent. */
static int
sep(const char **s, char c, int basic)
{
	if (basic)
		return 0;
	if (**s != c)
		return -1;
	(*s)++;
	return 0;
}

/* see sopv.h */
int
sopv_parse_date(const char *s, int64_t now, int64_t dash, int64_t *out)
{
	int y, mo, d, h = 0, mi = 0, se = 0, oh = 0, om = 0, sign = 0, basic;
	int64_t t;
	char norm[32];
	if (strcmp(s, "now") == 0) {
		*out = now;
		return 0;
	}
	if (strcmp(s, "-") == 0) {
		*out = dash;
		return 0;
	}
	/* ISO 8601 calendar date, extended (YYYY-MM-DD) or basic (YYYYMMDD) */
	basic = strlen(s) > 4 && s[4] != '-';
	if (digits(&s, 4, &y) || sep(&s, '-', basic) || digits(&s, 2, &mo) ||
	    sep(&s, '-', basic) || digits(&s, 2, &d))
		return -1;
	if (*s == 'T' || *s == 't') {
		s++;
		if (digits(&s, 2, &h) || sep(&s, ':', basic) || digits(&s, 2, &mi))
			return -1;
		if (*s == ':' || (basic && *s >= '0' && *s <= '9')) {
			if (sep(&s, ':', basic) || digits(&s, 2, &se))
				return -1;
			if (*s == '.' || *s == ',') { /* a fraction of a second: dropped */
				s++;
				if (*s < '0' || *s > '9')
					return -1;
				while (*s >= '0' && *s <= '9')
					s++;
			}
		}
		/* the zone: Z, or an offset +HH[:MM] / -HH[:MM] */
		if (*s == 'Z' || *s == 'z') {
			s++;
		} else if (*s == '+' || *s == '-') {
			sign = *s == '+' ? 1 : -1;
			s++;
			if (digits(&s, 2, &oh))
				return -1;
			if (*s == ':')
				s++;
			if (*s && digits(&s, 2, &om))
				return -1;
			if (oh > 23 || om > 59)
				return -1;
		} else {
			return -1; /* a local time without a zone is not UTC */
		}
	}
	if (*s != '\0')
		return -1;
	if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
		return -1;
	snprintf(norm, sizeof norm, "%04d-%02d-%02dT%02d:%02d:%02dZ", y, mo, d, h, mi, se);
	if (cli_parse_time(norm, now, &t) != 0)
		return -1;
	*out = t - (int64_t)sign * (oh * 3600 + om * 60);
	return 0;
}
