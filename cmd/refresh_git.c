/*
 * refresh_git.c - `wotkit refresh` talking to wotkit-git (the executable
 * linking libgit2, cmd/git/): `fetch` (issue 16's Contract A: one line
 * "<hex id> refs/heads/<BRANCH>" on stdout) and `objects --commits` (the
 * raw commit objects, stream of keyring/gitobj.h). see refresh.h
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cli.h"
#include "gitproc.h"
#include "out.h"
#include "refresh.h"
#include "keyring/gitobj.h"

void
rf_commits_free(rf_commits *c)
{
	size_t i;
	for (i = 0; i < c->n; i++)
		free(c->v[i].obj);
	free(c->v);
	memset(c, 0, sizeof *c);
}

static int
add_commit(rf_commits *c, const gitobj_record *rec)
{
	rf_commit *nv, *k;
	if ((nv = realloc(c->v, (c->n + 1) * sizeof *c->v)) == NULL)
		return -1;
	c->v = nv;
	k = &c->v[c->n];
	memset(k, 0, sizeof *k);
	pgp_hex_encode_lower(k->id, rec->id, rec->idlen);
	if ((k->obj = malloc(rec->data.len ? rec->data.len : 1)) == NULL)
		return -1;
	if (rec->data.len)
		memcpy(k->obj, rec->data.p, rec->data.len);
	k->len = rec->data.len;
	c->n++;
	return 0;
}

/* see refresh.h */
int
rf_git_commits(const char *cmd, const char *repo, const char *const *args, size_t nargs,
    size_t max, rf_commits *out)
{
	const char *av[16];
	size_t ac = 0, i;
	gitproc gp;
	gitobj_reader rd;
	gitobj_record rec;
	pgp_diag d = {0, -1, NULL};
	pgp_err e = PGP_OK;
	int st, rc = 0, done = 0;

	memset(out, 0, sizeof *out);
	if (nargs > 8)
		return -1;
	av[ac++] = "objects";
	av[ac++] = "--commits";
	av[ac++] = "-C";
	av[ac++] = repo;
	av[ac++] = "--";
	for (i = 0; i < nargs; i++)
		av[ac++] = args[i];
	if ((st = gitproc_start(&gp, av, ac)) != 0) {
		cli_msg(cmd, "cannot run %s (it reads git repositories): %s", gp.path, strerror(st));
		return -1;
	}
	gitobj_reader_init(&rd, gitproc_read, &gp);
	while (!done && (e = gitobj_next(&rd, &rec, &d)) == PGP_OK) {
		switch (rec.kind) {
		case GITOBJ_REC_FORMAT:
			out->sha256 = rec.idlen == 32;
			break;
		case GITOBJ_REC_OBJECT:
			if (out->n >= max) {
				cli_msg(cmd, "more than %zu commits in the range", max);
				rc = -1;
				done = 1;
			} else if (add_commit(out, &rec) != 0) {
				cli_msg(cmd, "out of memory");
				rc = -1;
				done = 1;
			}
			break;
		case GITOBJ_REC_FAILURE:
			fprintf(stderr, "%s: %s: ", cli_prog, cmd);
			out_esc_plain(stderr, rec.name.p, rec.name.len);
			fputs(": ", stderr);
			out_esc_plain(stderr, rec.data.p, rec.data.len);
			fputc('\n', stderr);
			rc = -1;
			break;
		default: /* END */
			done = 1;
			break;
		}
	}
	if (!done) {
		if (e == PGP_ERR_IO && rec.kind == GITOBJ_REC_FATAL)
			cli_msg(cmd, "wotkit-git: %.*s", (int)rec.data.len, (const char *)rec.data.p);
		else
			cli_msg(cmd, "the stream from wotkit-git was refused at offset %zu: %s (%s)",
			    d.offset, d.what ? d.what : "", pgp_strerror(e));
		rc = -1;
	}
	gitobj_reader_release(&rd);
	st = gitproc_finish(&gp, !done || rc != 0);
	if (rc == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		cli_msg(cmd, "wotkit-git failed after a complete stream");
		rc = -1;
	}
	if (rc != 0)
		rf_commits_free(out);
	return rc;
}

/* see refresh.h */
int
rf_git_fetch(const char *cmd, const char *repo, int init, const char *source,
    const char *branch, char tip[RF_HEX_MAX])
{
	const char *av[10];
	size_t ac = 0, n;
	gitproc gp;
	pgp_buf b;
	int st, r;
	const uint8_t *sp;

	av[ac++] = "fetch";
	av[ac++] = "-C";
	av[ac++] = repo;
	if (init)
		av[ac++] = "--init";
	av[ac++] = "--";
	av[ac++] = source;
	if (branch)
		av[ac++] = branch;
	if ((st = gitproc_start(&gp, av, ac)) != 0) {
		cli_msg(cmd, "cannot run %s (it fetches git repositories): %s", gp.path, strerror(st));
		return -1;
	}
	pgp_buf_init(&b, 1u << 20); /* grown by 64 KiB reads */
	r = gitproc_read_all(&gp, &b);
	st = gitproc_finish(&gp, r != 0);
	if (r != 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		cli_msg(cmd, "the fetch failed (wotkit-git fetch exit %d): nothing changed",
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		pgp_buf_free(&b);
		return -1;
	}
	/* "<hex id> refs/heads/<BRANCH>\n": exactly one line */
	sp = b.len ? memchr(b.p, ' ', b.len) : NULL;
	n = sp ? (size_t)(sp - b.p) : 0;
	if (sp == NULL || (n != 40 && n != 64) || b.p[b.len - 1] != '\n' ||
	    memchr(b.p, '\n', b.len) != b.p + b.len - 1) {
		cli_msg(cmd, "wotkit-git fetch printed no tip line");
		pgp_buf_free(&b);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		if (!((b.p[i] >= '0' && b.p[i] <= '9') || (b.p[i] >= 'a' && b.p[i] <= 'f'))) {
			cli_msg(cmd, "wotkit-git fetch printed a malformed id");
			pgp_buf_free(&b);
			return -1;
		}
	memcpy(tip, b.p, n);
	tip[n] = 0;
	pgp_buf_free(&b);
	return 0;
}
