/*
 * gx_own_tool - exposes wotkit's own git reader (cmd/git/gx_own.h) to
 * tests/cli/git_sha256.sh, which compares it with real git:
 *
 *   gx_own_tool resolve REPO REV        the id REV names (hex)
 *   gx_own_tool cat REPO REV [MAX]      the raw content of the object
 *   gx_own_tool type REPO REV           commit, tree, blob or tag
 *   gx_own_tool tags REPO               "refs/tags/NAME ID" lines, in order
 *   gx_own_tool batch REPO              for each id on stdin, what
 *                                       `git cat-file --batch` prints
 *                                       ("ID TYPE SIZE\nCONTENT\n"), or
 *                                       "ID error MESSAGE\n"
 *   gx_own_tool idlen REPO              20 or 32
 *
 * Errors: "gx_own_tool: MESSAGE" on stderr, exit 1; usage: exit 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmd/git/gx_own.h"
#include "cmd/mapguard.h"

static size_t idlen;

static void
put_hex(FILE *f, const uint8_t *id)
{
	size_t i;
	for (i = 0; i < idlen; i++)
		fprintf(f, "%02x", id[i]);
}

static int
on_tag(void *ctx, const char *name, const uint8_t *id)
{
	(void)ctx;
	printf("%s ", name);
	put_hex(stdout, id);
	putchar('\n');
	return 0;
}

static int
batch(gx_own *r)
{
	static const char *const types[] = { "?", "commit", "tree", "blob", "tag" };
	char line[1024], err[1024];
	uint8_t id[GX_MAX_ID], *data;
	size_t len;
	int type;
	while (fgets(line, sizeof line, stdin) != NULL) {
		line[strcspn(line, "\n")] = 0;
		if (gx_own_resolve(r, line, id, err, sizeof err) != 0 ||
		    gx_own_read(r, id, 256u * 1024 * 1024, &type, &data, &len, err, sizeof err) != 0) {
			printf("%s error %s\n", line, err);
			continue;
		}
		printf("%s %s %zu\n", line, types[type], len);
		fwrite(data, 1, len, stdout);
		putchar('\n');
		free(data);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const char *const types[] = { "?", "commit", "tree", "blob", "tag" };
	char err[1024] = "";
	uint8_t id[GX_MAX_ID], *data = NULL;
	size_t len, max = 256u * 1024 * 1024;
	gx_own *r = NULL;
	int type, rc = -1;
	const char *cmd;

	mapguard_setup("gx_own_tool", 1);
	if (argc < 3)
		goto usage;
	cmd = argv[1];
	if (strcmp(cmd, "cat") == 0 && argc == 5)
		max = (size_t)strtoull(argv[4], NULL, 10);
	else if ((strcmp(cmd, "tags") == 0 || strcmp(cmd, "idlen") == 0 || strcmp(cmd, "batch") == 0) ? argc != 3 :
	    (argc != 4 || (strcmp(cmd, "resolve") != 0 && strcmp(cmd, "cat") != 0 && strcmp(cmd, "type") != 0)))
		goto usage;
	if (gx_own_open(&r, argv[2], err, sizeof err) != 0)
		goto out;
	idlen = gx_own_idlen(r);
	if (strcmp(cmd, "batch") == 0) {
		rc = batch(r);
	} else if (strcmp(cmd, "idlen") == 0) {
		printf("%zu\n", idlen);
		rc = 0;
	} else if (strcmp(cmd, "tags") == 0) {
		rc = gx_own_each_tag(r, on_tag, NULL, err, sizeof err);
	} else if (gx_own_resolve(r, argv[3], id, err, sizeof err) != 0) {
		rc = -1;
	} else if (strcmp(cmd, "resolve") == 0) {
		put_hex(stdout, id);
		putchar('\n');
		rc = 0;
	} else if ((rc = gx_own_read(r, id, max, &type, &data, &len, err, sizeof err)) == 0) {
		if (strcmp(cmd, "type") == 0)
			printf("%s\n", types[type]);
		else if (fwrite(data, 1, len, stdout) != len)
			rc = -1;
		free(data);
	}
out:
	gx_own_close(r);
	if (rc != 0) {
		fprintf(stderr, "gx_own_tool: %s\n", err[0] ? err : "failed");
		return 1;
	}
	return fflush(stdout) == 0 ? 0 : 1;
usage:
	fprintf(stderr, "usage: gx_own_tool resolve|cat|type REPO REV [MAX] | tags|idlen|batch REPO\n");
	return 2;
}
