/*
 * krsrc_git.c - a git repository as a keyring source: wotkit-git reads its
 * object database and writes the stream of docs/git-reader.md on its
 * stdout; this file runs it and feeds the stream to the same loaders as a
 * working tree. wotkit itself never links libgit2. see krsrc.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include "cmd/krsrc_int.h"
#include "cmd/gitproc.h"

typedef struct gitctx {
	krsrc_ctx *x;
	const char *repo;
	char commit[16];
	int rc;
} gitctx;

static pgp_err
on_item(void *ctx, const pgpkeys_item *it)
{
	gitctx *g = ctx;
	char name[PGPKEYS_STREAM_MAX_PATH + 256];
	const char *path = (const char *)it->path.p;
	size_t pl = it->path.len;
	if (it->kind == PGPKEYS_ITEM_COMMIT) {
		size_t n = it->data.len < 12 ? it->data.len : 12;
		memcpy(g->commit, it->data.p, n);
		g->commit[n] = 0;
		return PGP_OK;
	}
	snprintf(name, sizeof name, "%s@%s:%.*s", g->repo, g->commit[0] ? g->commit : "?",
	    (int)pl, path);
	if (pl > 5 && memcmp(path, "keys/", 5) == 0) {
		const char *base = path + 5;
		size_t bl = pl - 5;
		char b[PGPKEYS_STREAM_MAX_PATH + 1];
		uint8_t *p;
		/* only keys/<name>.asc, as in a working tree */
		if (memchr(base, '/', bl) || bl < 5 || memcmp(base + bl - 4, ".asc", 4) != 0 ||
		    base[0] == '.')
			return PGP_OK;
		if (it->mode == PGPKEYS_MODE_LINK) {
			g->rc = krsrc_report_add(g->x, name, 0, PGPKEYS_WARN,
			    "keys/ file is a symlink in the repository; not followed");
			return g->rc ? PGP_ERR_NOMEM : PGP_OK;
		}
		memcpy(b, base, bl);
		b[bl] = 0;
		if ((p = malloc(it->data.len ? it->data.len : 1)) == NULL)
			return PGP_ERR_NOMEM;
		if (it->data.len)
			memcpy(p, it->data.p, it->data.len);
		g->rc = krsrc_add_keyfile(g->x, name, b, p, it->data.len);
		return g->rc ? PGP_ERR_NOMEM : PGP_OK;
	}
	if (pl > 17 && memcmp(path, ".keyring/openpgp/", 17) == 0) {
		const char *d = path + 17, *l, *s;
		size_t rest = pl - 17, dl, ll;
		if ((l = memchr(d, '/', rest)) == NULL)
			return PGP_OK;
		dl = (size_t)(l - d);
		l++;
		if ((s = memchr(l, '/', rest - dl - 1)) == NULL)
			return PGP_OK;
		ll = (size_t)(s - l);
		if ((size_t)(path + pl - s) != sizeof "/default" - 1 ||
		    memcmp(s, "/default", sizeof "/default" - 1) != 0)
			return PGP_OK;
		if (it->data.len > KRSRC_MAX_LINK) {
			g->rc = krsrc_report_add(g->x, name, 0, PGPKEYS_ERROR, "entry larger than a link text");
			return g->rc ? PGP_ERR_NOMEM : PGP_OK;
		}
		g->rc = krsrc_add_entry(g->x, name, d, dl, l, ll, it->data.p, it->data.len);
		return g->rc ? PGP_ERR_NOMEM : PGP_OK;
	}
	return PGP_OK;
}

/* The first pass: the stream's commit record, kept whole. */
typedef struct commitrec {
	char hex[2 * 32 + 1];
} commitrec;

static pgp_err
on_commit(void *ctx, const pgpkeys_item *it)
{
	commitrec *c = ctx;
	if (it->kind == PGPKEYS_ITEM_COMMIT && it->data.len < sizeof c->hex) {
		memcpy(c->hex, it->data.p, it->data.len);
		c->hex[it->data.len] = 0;
	}
	return PGP_OK;
}

/* 1 when rev is a full object id (40 or 64 hex digits): then the commit
 * wotkit-git read must be exactly that one (refresh loads the tip it
 * verified, by id, and nothing else). */
static int
full_id(const char *rev)
{
	size_t n = strspn(rev, "0123456789abcdefABCDEF");
	return rev[n] == 0 && (n == 40 || n == 64);
}

/* see krsrc_int.h */
int
krsrc_git(krsrc_ctx *x, const char *repo, const char *rev)
{
	char msg[PGPKEYS_STREAM_MAX_MSG + 128];
	const char *args[5];
	int st = 0, rd, rc = 0;
	gitproc gp;
	pgp_buf b;
	pgp_view emsg;
	pgp_diag d = {0, -1, NULL};
	commitrec cr;
	gitctx g;
	pgp_err e;

	args[0] = "pgpkeys";
	args[1] = "--rev";
	args[2] = rev ? rev : "HEAD";
	args[3] = "--";
	args[4] = repo;
	if ((st = gitproc_start(&gp, args, 5)) != 0) {
		snprintf(msg, sizeof msg, "cannot run %.512s (needed to read a git repository): %s",
		    gp.path, strerror(st));
		return krsrc_source_lost(x, repo, msg);
	}
	pgp_buf_init(&b, PGPKEYS_STREAM_MAX_TOTAL);
	rd = gitproc_read_all(&gp, &b);
	/* over the cap or a read error: stop it, its output is refused */
	st = gitproc_finish(&gp, rd != 0);
	if (rd < 0) {
		pgp_buf_free(&b);
		return -1;
	}
	if (rd > 0) {
		pgp_buf_free(&b);
		return krsrc_source_lost(x, repo,
		    "wotkit-git wrote more than PGPKEYS_STREAM_MAX_TOTAL octets; nothing loaded");
	}
	memset(&g, 0, sizeof g);
	g.x = x;
	g.repo = repo;
	/* all or nothing: the whole stream is checked before anything is loaded */
	memset(&cr, 0, sizeof cr);
	e = pgpkeys_stream_parse(b.p, b.len, on_commit, &cr, &emsg, &d);
	if (e == PGP_OK && rev != NULL && full_id(rev) && strcasecmp(cr.hex, rev) != 0) {
		snprintf(msg, sizeof msg, "wotkit-git read commit %.64s, not %.64s as asked; "
		    "nothing loaded", cr.hex[0] ? cr.hex : "(none)", rev);
		pgp_buf_free(&b);
		return krsrc_source_lost(x, repo, msg);
	}
	if (e == PGP_OK)
		e = pgpkeys_stream_parse(b.p, b.len, on_item, &g, &emsg, &d);
	if (g.rc != 0 || e == PGP_ERR_NOMEM) {
		rc = -1;
	} else if (e == PGP_ERR_IO) {
		snprintf(msg, sizeof msg, "wotkit-git: %.*s", (int)emsg.len, (const char *)emsg.p);
		rc = krsrc_source_lost(x, repo, msg);
	} else if (e != PGP_OK) {
		snprintf(msg, sizeof msg, "stream from wotkit-git refused at offset %zu: %s (%s)%s",
		    d.offset, d.what ? d.what : "", pgp_strerror(e), "; nothing loaded");
		rc = krsrc_source_lost(x, repo, msg);
	} else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		rc = krsrc_source_lost(x, repo,
		    "wotkit-git failed after a complete stream");
	}
	pgp_buf_free(&b);
	return rc;
}
