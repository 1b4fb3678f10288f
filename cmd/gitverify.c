/*
 * gitverify.c - `wotkit verify-tag` and `wotkit verify-commit`
 * (docs/git-verify.md):
 *
 *   wotkit verify-tag    [-C REPO] [--keyring K] [--root KEY] [--at T]
 *                        [--min-trust marginal|full|ultimate] [--allow-sha1]
 *                        [--policy F] [--json] [--] TAG...
 *   wotkit verify-commit [same options] [--] COMMIT...|A..B
 *
 * wotkit-git (the executable linking libgit2, cmd/git/) reads the objects
 * and writes them as the stream of keyring/gitobj.h; this process reads it
 * one record at a time, splits and verifies each object as it arrives
 * (gitverify_sig.c) and prints it (gitverify_out.c). The keyring, graph and
 * trust model are loaded once per run.
 *
 * Exit 0 when every object is good and trusted (and every mergetag of a
 * commit good, trusted and naming a parent); 1 when one is not; 2 for
 * usage, a repository that cannot be read, an argument that names no such
 * object, or a broken stream.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "cmds.h"
#include "gitverify.h"
#include "gitproc.h"
#include "keyring/gitobj.h"

static void
usage(FILE *f, const char *cmd)
{
	fprintf(f, "usage: wotkit %s [-C REPO] [--keyring K] [--root KEY] [--at TIME]\n"
	    "           [--min-trust marginal|full|ultimate] [--allow-sha1] [--policy FILE]\n"
	    "           [--trust-file FILE] [--json] [--] %s\n"
	    "exit: 0 every object good and trusted, 1 not, 2 usage or repository error\n",
	    cmd, strcmp(cmd, "verify-tag") == 0 ? "TAG..." : "COMMIT...|A..B");
}

static int
parse_min_trust(const char *s, unsigned *out)
{
	if (strcmp(s, "marginal") == 0)
		*out = WOT_V_MARGINAL;
	else if (strcmp(s, "full") == 0)
		*out = WOT_V_FULL;
	else if (strcmp(s, "ultimate") == 0)
		*out = WOT_V_ULTIMATE;
	else
		return -1;
	return 0;
}

/* see gitverify.h */
int
gv_open_trust(gv_ctx *x)
{
	size_t n;
	uint8_t *ot = NULL;
	pgp_err e;

	if (wot_cli_open(&x->c, x->min_trust == 0) != 0)
		return -1;
	kr_source(x->c.kr, &x->src);
	pgp_verify_opts_init(&x->vo, x->c.t);
	x->vo.policy = &x->c.pol;
	n = wot_nnodes(x->c.g);
	if (wot_cli_ownertrust_of_nodes(&x->c, &ot) != 0)
		return -1;
	e = wot_trust_compute(&x->trust, x->c.g, ot, NULL);
	free(ot);
	if (e != PGP_OK || wot_search_new(&x->search, x->c.g) != PGP_OK ||
	    (x->cached = calloc(n ? n : 1, 1)) == NULL ||
	    (x->haspath = calloc(n ? n : 1, 1)) == NULL ||
	    (x->path = calloc(n ? n : 1, sizeof *x->path)) == NULL) {
		cli_msg(x->c.cmd, "%s", pgp_strerror(e != PGP_OK ? e : PGP_ERR_NOMEM));
		return -1;
	}
	return 0;
}

/* see gitverify.h */
void
gv_close_trust(gv_ctx *x)
{
	wot_trust_free(x->trust);
	wot_search_free(x->search);
	free(x->cached);
	free(x->haspath);
	free(x->path);
	wot_cli_close(&x->c);
}

/* One object record: check and print. 1 ok, 0 not, -1 out of memory. */
static int
one_object(gv_ctx *x, const gitobj_record *rec)
{
	gv_object o;
	size_t nl = rec->name.len < sizeof o.name - 1 ? rec->name.len : sizeof o.name - 1;
	int ok;

	memset(&o, 0, sizeof o);
	o.type = rec->type;
	pgp_hex_encode_lower(o.id, rec->id, rec->idlen);
	memcpy(o.name, rec->name.p, nl);
	o.name[nl] = 0;
	if (gv_check_object(x, rec->data.p, rec->data.len, &o) != 0) {
		free(o.mt);
		return -1;
	}
	gv_print(x, &o);
	ok = gv_object_ok(&o);
	free(o.mt);
	return ok;
}

/* Start wotkit-git on the arguments. 0, or -1 after a message. */
static int
start_git(gv_ctx *x, gitproc *gp, int type, const char *repo, char **args, size_t nargs)
{
	const char **av;
	size_t ac = 0, i;
	int st;

	if ((av = calloc(nargs + 5, sizeof *av)) == NULL) {
		cli_msg(x->c.cmd, "out of memory");
		return -1;
	}
	av[ac++] = "objects";
	av[ac++] = type == GITOBJ_TAG ? "--tags" : "--commits";
	if (repo) {
		av[ac++] = "-C";
		av[ac++] = repo;
	}
	av[ac++] = "--";
	for (i = 0; i < nargs; i++)
		av[ac++] = args[i];
	st = gitproc_start(gp, av, ac);
	free(av);
	if (st != 0) {
		cli_msg(x->c.cmd, "cannot run %s (it reads git repositories): %s", gp->path,
		    strerror(st));
		return -1;
	}
	return 0;
}

/* Verify what wotkit-git sends. The exit code. */
static int
run(gv_ctx *x, gitproc *gp, int type)
{
	gitobj_reader rd;
	gitobj_record rec;
	pgp_diag d = {0, -1, NULL};
	size_t nobj = 0;
	int st, rc = EXIT_OK, done = 0;
	pgp_err e = PGP_OK;

	gitobj_reader_init(&rd, gitproc_read, gp);
	while (!done && (e = gitobj_next(&rd, &rec, &d)) == PGP_OK) {
		int r;
		switch (rec.kind) {
		case GITOBJ_REC_FORMAT:
			x->sha256 = rec.idlen == 32;
			break;
		case GITOBJ_REC_OBJECT:
			nobj++;
			if ((r = one_object(x, &rec)) < 0) {
				cli_msg(x->c.cmd, "out of memory");
				rc = EXIT_USAGE;
				done = 1;
			} else if (r == 0 && rc == EXIT_OK) {
				rc = EXIT_FAIL;
			}
			break;
		case GITOBJ_REC_FAILURE:
			gv_print_failure(x, type, (const char *)rec.name.p, rec.name.len,
			    (const char *)rec.data.p, rec.data.len);
			rc = EXIT_USAGE;
			break;
		default: /* END */
			done = 1;
			break;
		}
	}
	if (!done) {
		if (e == PGP_ERR_IO && rec.kind == GITOBJ_REC_FATAL)
			cli_msg(x->c.cmd, "wotkit-git: %.*s", (int)rec.data.len, (const char *)rec.data.p);
		else
			cli_msg(x->c.cmd, "the stream from wotkit-git was refused at offset %zu: %s (%s)",
			    d.offset, d.what ? d.what : "", pgp_strerror(e));
		rc = EXIT_USAGE;
	}
	gitobj_reader_release(&rd);
	st = gitproc_finish(gp, !done);
	if (done && rc != EXIT_USAGE && (!WIFEXITED(st) || WEXITSTATUS(st) != 0)) {
		cli_msg(x->c.cmd, "wotkit-git failed after a complete stream");
		rc = EXIT_USAGE;
	}
	if (x->json)
		fputs(x->nprinted ? "]\n" : "[]\n", stdout);
	if (done && nobj == 0 && rc == EXIT_OK)
		cli_msg(x->c.cmd, "nothing to verify (an empty range)");
	return rc;
}

static int
git_verify(int argc, char **argv, int type)
{
	const char *cmd = type == GITOBJ_TAG ? "verify-tag" : "verify-commit", *repo = NULL, *val;
	static char outbuf[1 << 16];
	gitproc gp;
	gv_ctx x;
	int i, r, rc;

	memset(&x, 0, sizeof x);
	wot_cli_init(&x.c, cmd);
	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(&x.c, argc, argv, &i)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (cli_opt_value(argc, argv, &i, "-C", &val)) {
			if (!val)
				goto novalue;
			repo = val;
		} else if (cli_opt_value(argc, argv, &i, "--min-trust", &val)) {
			if (!val)
				goto novalue;
			if (parse_min_trust(val, &x.min_trust) != 0) {
				cli_msg(cmd, "--min-trust is marginal, full or ultimate");
				return EXIT_USAGE;
			}
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout, cmd);
			return EXIT_OK;
		} else if (strcmp(argv[i], "--") == 0) {
			i++;
			break;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(cmd, "unknown option %s", argv[i]);
			usage(stderr, cmd);
			return EXIT_USAGE;
		} else {
			break;
		}
	}
	if (i >= argc) {
		usage(stderr, cmd);
		return EXIT_USAGE;
	}
	x.json = x.c.json;
	/* one object per block: written in large pieces, not per line */
	(void)setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
	/* wotkit-git starts (libgit2's start-up) while the keyring and the
	 * web of trust are loaded here */
	if (start_git(&x, &gp, type, repo, argv + i, (size_t)(argc - i)) != 0)
		return EXIT_USAGE;
	if (gv_open_trust(&x) != 0) {
		(void)gitproc_finish(&gp, 1);
		gv_close_trust(&x);
		return EXIT_USAGE;
	}
	rc = run(&x, &gp, type);
	fflush(stdout);
	gv_close_trust(&x);
	return rc;
novalue:
	cli_msg(cmd, "%s needs a value", argv[i]);
	return EXIT_USAGE;
}

int
cmd_verify_tag(int argc, char **argv)
{
	return git_verify(argc, argv, GITOBJ_TAG);
}

int
cmd_verify_commit(int argc, char **argv)
{
	return git_verify(argc, argv, GITOBJ_COMMIT);
}
