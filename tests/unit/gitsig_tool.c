/*
 * gitsig_tool.c - exposes the splitter (pgp/gitsig.h) to tests/cli/gitsig_git.sh,
 * which compares its output with what real git hands to gpg.program. A test
 * tool only (build/tests/gitsig_tool), never part of ./wotkit.
 *
 *   gitsig_tool tag|commit|commit256 OBJFILE OUTDIR
 *       writes OUTDIR/0.payload, OUTDIR/0.sig and OUTDIR/0.fmt (the format
 *       name and a newline); nothing at all when the object is unsigned
 *   gitsig_tool mergetags OBJFILE OUTDIR [FIRST]
 *       the same for every mergetag value, split as a tag: N.payload, N.sig,
 *       N.fmt, N = FIRST (default 0), FIRST + 1, ... (unsigned values
 *       skipped: git runs no program for them)
 * OBJFILE is the raw object content (`git cat-file TYPE OID`). Prints the
 * number of splits written on stdout; exit 0, or 2 on usage/IO/split errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/gitsig.h"

/* The whole file, capped at the splitter's limit plus one (so a larger
 * object still reaches the splitter and is refused there). */
static unsigned char *
slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = (size_t)PGP_GITSIG_MAX_OBJECT + 1;
	unsigned char *p;
	if (!f)
		return NULL;
	if (!(p = malloc(cap))) {
		fclose(f);
		return NULL;
	}
	*len = fread(p, 1, cap, f);
	if (ferror(f)) {
		free(p);
		p = NULL;
	}
	fclose(f);
	return p;
}

static const char *
fmt_name(pgp_gitsig_format f)
{
	switch (f) {
	case PGP_GITSIG_NONE: return "none";
	case PGP_GITSIG_OPENPGP: return "openpgp";
	case PGP_GITSIG_X509: return "x509";
	case PGP_GITSIG_SSH: return "ssh";
	case PGP_GITSIG_UNKNOWN: return "unknown";
	}
	return "?";
}

static int
put(const char *dir, int n, const char *ext, const void *p, size_t len)
{
	char path[4096];
	FILE *f;
	snprintf(path, sizeof path, "%s/%d.%s", dir, n, ext);
	if (!(f = fopen(path, "wb")))
		return -1;
	if (len && fwrite(p, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f) == 0 ? 0 : -1;
}

static int
write_split(const char *dir, int n, const pgp_buf *payload, const pgp_buf *sig,
    pgp_gitsig_format fmt)
{
	const char *name = fmt_name(fmt);
	char line[32];
	snprintf(line, sizeof line, "%s\n", name);
	if (put(dir, n, "payload", payload->p, payload->len) != 0 ||
	    put(dir, n, "sig", sig->p, sig->len) != 0 ||
	    put(dir, n, "fmt", line, strlen(line)) != 0)
		return -1;
	return 0;
}

static int
split_tag(const char *dir, int n, const uint8_t *obj, size_t len, int *written)
{
	pgp_buf payload, sig;
	pgp_gitsig_format fmt;
	int rc = 0;
	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	if (pgp_gitsig_tag_split(obj, len, &payload, &sig, &fmt) != PGP_OK)
		rc = -1;
	else if (fmt != PGP_GITSIG_NONE) {
		rc = write_split(dir, n, &payload, &sig, fmt);
		(*written)++;
	}
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
	return rc;
}

int
main(int argc, char **argv)
{
	unsigned char *obj;
	size_t len;
	int rc = 0, written = 0, first = 0;
	if (argc == 5 && strcmp(argv[1], "mergetags") == 0)
		first = atoi(argv[4]);
	else if (argc != 4) {
		fprintf(stderr, "usage: gitsig_tool tag|commit|commit256|mergetags OBJFILE OUTDIR [FIRST]\n");
		return 2;
	}
	if (!(obj = slurp(argv[2], &len))) {
		fprintf(stderr, "gitsig_tool: cannot read %s\n", argv[2]);
		return 2;
	}
	if (strcmp(argv[1], "tag") == 0) {
		rc = split_tag(argv[3], 0, obj, len, &written);
	} else if (strcmp(argv[1], "commit") == 0 || strcmp(argv[1], "commit256") == 0) {
		pgp_buf payload, sig;
		pgp_gitsig_format fmt;
		pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
		pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
		if (pgp_gitsig_commit(obj, len, strcmp(argv[1], "commit256") == 0, &payload, &sig,
		    &fmt) != PGP_OK)
			rc = -1;
		else if (fmt != PGP_GITSIG_NONE) {
			rc = write_split(argv[3], 0, &payload, &sig, fmt);
			written++;
		}
		pgp_buf_free(&payload);
		pgp_buf_free(&sig);
	} else if (strcmp(argv[1], "mergetags") == 0) {
		pgp_buf tag;
		size_t pos = 0;
		pgp_err e;
		pgp_buf_init(&tag, PGP_GITSIG_MAX_OBJECT);
		while (rc == 0 && (e = pgp_gitsig_mergetag_next(obj, len, &pos, &tag)) == PGP_OK)
			rc = split_tag(argv[3], first + written, tag.p, tag.len, &written);
		if (rc == 0 && e != PGP_ERR_NOT_FOUND)
			rc = -1;
		pgp_buf_free(&tag);
	} else {
		fprintf(stderr, "gitsig_tool: unknown kind %s\n", argv[1]);
		rc = -1;
	}
	free(obj);
	if (rc != 0) {
		fprintf(stderr, "gitsig_tool: split failed\n");
		return 2;
	}
	printf("%d\n", written);
	return 0;
}
