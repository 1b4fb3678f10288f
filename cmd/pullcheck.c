/*
 * pullcheck.c - `wotkit pull-check` (docs/maintainers.md):
 *
 *   wotkit pull-check [-C REPO] [--base REV] [--maintainers FILE]
 *                     [--keyring K] [--root KEY] [--at TIME] [--json] [--] TAG
 *
 * The maintainer's question when pulling TAG:
 *  1. the tag's signature and the signer's path to the root, by the
 *     built-in git verification of verify-tag (`wotkit-git objects --tags`,
 *     gv_check_object: the same verdicts and path);
 *  2. the files changed between the merge base of BASE (default HEAD) and
 *     the tag's commit, and the commit itself, from `wotkit-git changes`
 *     (docs/git-reader.md). It is asked about the commit the verified tag
 *     object names (its "object" header), never about the name TAG again,
 *     so the list belongs to the object that was verified;
 *  3. with --maintainers: the sections of MAINTAINERS covering each file
 *     (keyring/maint.h, get_maintainer.pl's rules; directories are decided
 *     on the changed paths), and whether an e-mail address of one of the
 *     signer's valid user IDs is an M: of one of them.
 *
 * Exit 0 when the tag is good and trusted and (with --maintainers) no file
 * lies outside the signer's sections; 1 otherwise; 2 for usage, a
 * repository or MAINTAINERS that cannot be read, a tag that does not
 * exist, or no merge base.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cmds.h"
#include "pullcheck.h"
#include "gitproc.h"
#include "keyring/gitobj.h"

static void
usage(FILE *f)
{
	fputs("usage: wotkit pull-check [-C REPO] [--base REV] [--maintainers FILE] [--keyring K]\n"
	    "                         [--root KEY] [--at TIME] [--json] [--] TAG\n"
	    "verifies the signed tag TAG, its signer's path to the root, and which files changed\n"
	    "since the merge base of REV (default HEAD) lie outside the signer's MAINTAINERS sections\n"
	    "exit: 0 good, trusted and no file outside, 1 not, 2 usage or repository error\n", f);
}

/* see pullcheck.h */
int
pc_good(const pc_run *r)
{
	return r->have_obj && gv_object_ok(&r->obj);
}

static int
start(pc_run *r, gitproc *gp, const char *mode, const char *extra1, const char *extra2,
    const char *rev)
{
	const char *av[10];
	size_t ac = 0;
	int st;

	av[ac++] = mode;
	if (strcmp(mode, "objects") == 0)
		av[ac++] = "--tags";
	if (r->repo) {
		av[ac++] = "-C";
		av[ac++] = r->repo;
	}
	if (extra1) {
		av[ac++] = extra1;
		av[ac++] = extra2;
	}
	av[ac++] = "--";
	av[ac++] = rev;
	if ((st = gitproc_start(gp, av, ac)) != 0) {
		cli_msg(r->x.c.cmd, "cannot run %s (it reads git repositories): %s", gp->path,
		    strerror(st));
		return -1;
	}
	return 0;
}

/* The "object" header of a tag whose "type" is commit, into r->target
 * (gitobj_tag_target: git's parse_tag_buffer). */
static void
tag_target(pc_run *r, const uint8_t *p, size_t n)
{
	uint8_t id[32];
	size_t idlen = r->x.sha256 ? 32 : 20;
	int type = 0;

	if (gitobj_tag_target(p, n, idlen, id, &type) == PGP_OK && type == GITOBJ_COMMIT)
		pgp_hex_encode_lower(r->target, id, idlen);
}

/* Step 1: run objects --tags, verify the one tag. 0, or -1 after a message
 * (also for a failure record: no such tag, not a tag). */
static int
verify_tag(pc_run *r)
{
	gitproc gp;
	gitobj_reader rd;
	gitobj_record rec;
	pgp_diag d = {0, -1, NULL};
	pgp_err e = PGP_OK;
	int done = 0, rc = 0, st;

	if (start(r, &gp, "objects", NULL, NULL, r->tag) != 0)
		return -1;
	if (gv_open_trust(&r->x) != 0) {
		(void)gitproc_finish(&gp, 1);
		return -1;
	}
	gitobj_reader_init(&rd, gitproc_read, &gp);
	while (!done && (e = gitobj_next(&rd, &rec, &d)) == PGP_OK) {
		size_t nl;
		switch (rec.kind) {
		case GITOBJ_REC_FORMAT:
			r->x.sha256 = rec.idlen == 32;
			break;
		case GITOBJ_REC_OBJECT:
			if (r->have_obj || rec.type != GITOBJ_TAG) {
				cli_msg(r->x.c.cmd, "wotkit-git sent an unexpected object");
				rc = -1;
				break;
			}
			memset(&r->obj, 0, sizeof r->obj);
			r->obj.type = rec.type;
			pgp_hex_encode_lower(r->obj.id, rec.id, rec.idlen);
			nl = rec.name.len < sizeof r->obj.name - 1 ? rec.name.len : sizeof r->obj.name - 1;
			memcpy(r->obj.name, rec.name.p, nl);
			r->obj.name[nl] = 0;
			if (gv_check_object(&r->x, rec.data.p, rec.data.len, &r->obj) != 0) {
				cli_msg(r->x.c.cmd, "out of memory");
				rc = -1;
				break;
			}
			r->have_obj = 1;
			tag_target(r, rec.data.p, rec.data.len);
			break;
		case GITOBJ_REC_FAILURE:
			cli_msg(r->x.c.cmd, "%.*s: %.*s", (int)rec.name.len, (const char *)rec.name.p,
			    (int)rec.data.len, (const char *)rec.data.p);
			rc = -1;
			break;
		default:
			done = 1;
			break;
		}
	}
	if (!done) {
		if (e == PGP_ERR_IO && rec.kind == GITOBJ_REC_FATAL)
			cli_msg(r->x.c.cmd, "wotkit-git: %.*s", (int)rec.data.len, (const char *)rec.data.p);
		else
			cli_msg(r->x.c.cmd, "the stream from wotkit-git was refused at offset %zu: %s (%s)",
			    d.offset, d.what ? d.what : "", pgp_strerror(e));
		rc = -1;
	}
	gitobj_reader_release(&rd);
	st = gitproc_finish(&gp, !done);
	if (rc == 0 && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		cli_msg(r->x.c.cmd, "wotkit-git failed after a complete stream");
		rc = -1;
	}
	if (rc == 0 && !r->have_obj) {
		cli_msg(r->x.c.cmd, "%s: no tag", r->tag);
		rc = -1;
	}
	return rc;
}

static int
hex_line(pgp_rd *rd, const char *key, char *out, size_t cap)
{
	size_t kl = strlen(key), n, i;
	const uint8_t *nl = memchr(rd->p, '\n', rd->len);
	pgp_view v;

	if (nl == NULL)
		return -1;
	n = (size_t)(nl - rd->p);
	if (n <= kl || memcmp(rd->p, key, kl) != 0 || (n - kl != 40 && n - kl != 64) ||
	    n - kl >= cap || pgp_rd_view(rd, n, &v) != PGP_OK || pgp_rd_skip(rd, 1) != PGP_OK)
		return -1;
	for (i = kl; i < n; i++)
		if (!((v.p[i] >= '0' && v.p[i] <= '9') || (v.p[i] >= 'a' && v.p[i] <= 'f')))
			return -1;
	memcpy(out, v.p + kl, n - kl);
	out[n - kl] = 0;
	return 0;
}

/* Contract B's output: "base <hex>\n" "commit <hex>\n" ("<S> <path>\0")*. */
static int
parse_changes(pc_run *r)
{
	pgp_rd rd;
	size_t cap = 0;

	pgp_rd_init(&rd, r->out.p, r->out.len);
	if (hex_line(&rd, "base ", r->base_id, sizeof r->base_id) != 0 ||
	    hex_line(&rd, "commit ", r->commit_id, sizeof r->commit_id) != 0)
		return -1;
	while (!pgp_rd_empty(&rd)) {
		uint8_t s, sp;
		const uint8_t *z;
		size_t n;
		pgp_view v;
		if (pgp_rd_u8(&rd, &s) != PGP_OK || pgp_rd_u8(&rd, &sp) != PGP_OK || sp != ' ' ||
		    (s != 'A' && s != 'D' && s != 'M' && s != 'T'))
			return -1;
		if ((z = memchr(rd.p, 0, rd.len)) == NULL)
			return -1;
		n = (size_t)(z - rd.p);
		if (n == 0 || n > PC_MAX_PATH || r->nch >= PC_MAX_CHANGES ||
		    pgp_rd_view(&rd, n, &v) != PGP_OK || pgp_rd_skip(&rd, 1) != PGP_OK)
			return -1;
		if (r->nch == cap) {
			pc_change *nc;
			cap = cap ? cap * 2 : 64;
			if ((nc = realloc(r->ch, cap * sizeof *nc)) == NULL)
				return -2;
			r->ch = nc;
		}
		memset(&r->ch[r->nch], 0, sizeof r->ch[0]);
		r->ch[r->nch].status = (char)s;
		r->ch[r->nch].path = (const char *)v.p;
		r->ch[r->nch].len = n;
		r->nch++;
	}
	return 0;
}

/* Step 2: the changed files. 0, or -1 after a message. */
static int
changes(pc_run *r)
{
	gitproc gp;
	int st, rd, pr;
	const char *rev = r->target[0] ? r->target : r->obj.id;

	pgp_buf_init(&r->out, PC_MAX_OUTPUT);
	if (start(r, &gp, "changes", r->base ? "--base" : NULL, r->base, rev) != 0)
		return -1;
	rd = gitproc_read_all(&gp, &r->out);
	st = gitproc_finish(&gp, rd != 0);
	if (rd > 0) {
		cli_msg(r->x.c.cmd, "the list of changed files is larger than %zu octets", PC_MAX_OUTPUT);
		return -1;
	}
	if (rd < 0) {
		cli_msg(r->x.c.cmd, "cannot read the list of changed files from wotkit-git");
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		/* wotkit-git said why on stderr (no merge base, no such revision) */
		cli_msg(r->x.c.cmd, "wotkit-git changes failed (exit %d): no list of changed files",
		    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		return -1;
	}
	if ((pr = parse_changes(r)) != 0) {
		cli_msg(r->x.c.cmd, pr == -2 ? "out of memory" :
		    "the output of wotkit-git changes was refused (malformed)");
		return -1;
	}
	if (r->target[0] && strcmp(r->target, r->commit_id) != 0) {
		cli_msg(r->x.c.cmd, "wotkit-git changes answered for commit %s, not the tag's %s",
		    r->commit_id, r->target);
		return -1;
	}
	return 0;
}

/* The e-mail addresses of the signer's user IDs valid at t. */
static void
signer_emails(pc_run *r)
{
	const wot_node *nd;
	uint32_t k;

	r->nemails = 0;
	if (!r->have_obj || r->obj.sig.node < 0)
		return;
	nd = wot_node_at(r->x.c.g, (uint32_t)r->obj.sig.node);
	for (k = 0; k < nd->cert->nuids && r->nemails < PC_MAX_SIGNER_EMAILS; k++) {
		pgp_view em;
		if (nd->cert->uids[k].is_attr || nd->uid_status[k] != PGP_OK ||
		    !pgp_uid_email(nd->cert->uids[k].data, &em) || em.len == 0)
			continue;
		r->emails[r->nemails++] = em;
	}
}

/* Step 3: sections of every file, and whether the signer maintains one. */
static int
match(pc_run *r)
{
	const char **sorted = calloc(r->nch + 1, sizeof *sorted);
	size_t i, s, ns = maint_nsections(r->m), k;
	maint_paths known;

	if (sorted == NULL)
		return -1;
	for (i = 0; i < r->nch; i++)
		sorted[i] = r->ch[i].path;
	qsort(sorted, r->nch, sizeof *sorted, cli_strcmp_ptr);
	known.v = sorted;
	known.n = r->nch;
	for (i = 0; i < r->nch; i++) {
		pc_change *c = &r->ch[i];
		for (s = 0; s < ns; s++) {
			if (!maint_covers(r->m, s, c->path, c->len, &known))
				continue;
			if (c->nsecs % 16 == 0) {
				uint32_t *n = realloc(c->secs, (c->nsecs + 16) * sizeof *n);
				if (n == NULL) {
					free(sorted);
					return -1;
				}
				c->secs = n;
			}
			c->secs[c->nsecs++] = (uint32_t)s;
			for (k = 0; k < r->nemails && !c->inside; k++)
				if (maint_has_email(r->m, s, 'M', r->emails[k].p, r->emails[k].len))
					c->inside = 1;
		}
		r->noutside += !c->inside;
	}
	free(sorted);
	return 0;
}

static void
pc_free(pc_run *r)
{
	size_t i;
	for (i = 0; i < r->nch; i++)
		free(r->ch[i].secs);
	free(r->ch);
	free(r->obj.mt);
	pgp_buf_free(&r->out);
	maint_free(r->m);
	gv_close_trust(&r->x);
}

int
cmd_pull_check(int argc, char **argv)
{
	static char outbuf[1 << 16];
	pc_run r;
	cli_file mf;
	int mf_open = 0;
	const char *val;
	int i, x, rc;

	memset(&r, 0, sizeof r);
	memset(&mf, 0, sizeof mf);
	pgp_buf_init(&r.out, PC_MAX_OUTPUT);
	wot_cli_init(&r.x.c, "pull-check");
	for (i = 1; i < argc; i++) {
		if ((x = wot_cli_opt(&r.x.c, argc, argv, &i)) != 0) {
			if (x < 0)
				return EXIT_USAGE;
		} else if (cli_opt_value(argc, argv, &i, "-C", &val)) {
			if (!val)
				goto novalue;
			r.repo = val;
		} else if (cli_opt_value(argc, argv, &i, "--base", &val)) {
			if (!val)
				goto novalue;
			r.base = val;
		} else if (cli_opt_value(argc, argv, &i, "--maintainers", &val)) {
			if (!val)
				goto novalue;
			r.maint_path = val;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--") == 0) {
			if (i + 2 != argc || r.tag) {
				usage(stderr);
				return EXIT_USAGE;
			}
			r.tag = argv[++i];
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(r.x.c.cmd, "unknown option %s", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		} else if (r.tag == NULL) {
			r.tag = argv[i];
		} else {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (r.tag == NULL || r.tag[0] == 0) {
		usage(stderr);
		return EXIT_USAGE;
	}
	r.x.json = r.x.c.json;
	(void)setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	if (r.maint_path) {
		if (maint_cli_load(r.maint_path, &mf, &r.m) != 0)
			return EXIT_USAGE;
		mf_open = 1;
	}
	rc = EXIT_USAGE;
	if (verify_tag(&r) != 0 || changes(&r) != 0)
		goto out;
	signer_emails(&r);
	if (r.m && match(&r) != 0) {
		cli_msg(r.x.c.cmd, "out of memory");
		goto out;
	}
	if (r.x.json)
		pc_print_json(&r);
	else
		pc_print_human(&r);
	rc = pc_good(&r) && r.noutside == 0 ? EXIT_OK : EXIT_FAIL;
out:
	fflush(stdout);
	pc_free(&r);
	if (mf_open)
		cli_file_close(&mf);
	return rc;
novalue:
	cli_msg(r.x.c.cmd, "%s needs a value", argv[i]);
	return EXIT_USAGE;
}
