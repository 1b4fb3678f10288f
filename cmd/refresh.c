/*
 * refresh.c - `wotkit refresh` (docs/refresh.md): update the keyring from
 * pgpkeys.git, but only from a tip whose signature the user's current
 * keyring trusts.
 *
 *   wotkit refresh [--keyring K] (--repo DIR | --remote URL [--cache DIR])
 *                  [--branch B] [--no-fetch] [--all] [--audit [--since C]]
 *                  [--allow-rewind] [--dry-run] [--at TIME] [--json] [-q]
 *
 * Order (each step refuses before anything is written):
 *   1. fetch through wotkit-git (libgit2) and take the tip id it prints;
 *      that id, never a ref resolved again, is used from then on;
 *   2. the tip's signature: good, by a signer with a path from the root of
 *      the current keyring or with ultimate ownertrust (refresh_check.c);
 *   3. rollback: the tip must descend from the last accepted tip (the
 *      state file KEYRING.refresh), unless --allow-rewind;
 *   4. with --audit, every commit since then (refresh_check.c);
 *   5. the new keyring (refresh_merge.c), compared with the old one
 *      (refresh_diff.c);
 *   6. the keyring written atomically (krbuild.c), then the state file;
 *   7. the report (after the writes: it never announces a change that a
 *      failed write did not make).
 * Exit 0 updated or up to date, 1 refused, 2 usage, I/O or internal error.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "atomic.h"
#include "certs.h"
#include "cli.h"
#include "cmds.h"
#include "krbuild.h"
#include "out.h"
#include "refresh.h"

#define CMD "refresh"

static void
usage(FILE *f)
{
	fprintf(f,
	    "usage: wotkit refresh [--keyring K] (--repo DIR | --remote URL [--cache DIR])\n"
	    "                      [--branch B] [--no-fetch] [--all] [--audit [--since COMMIT]]\n"
	    "                      [--allow-rewind] [--dry-run] [--at TIME] [--json] [-q]\n"
	    "exit: 0 updated or up to date, 1 refused, 2 usage, I/O or internal error\n");
}

typedef struct ropts {
	const char *keyring, *repo, *remote, *cache, *branch, *since;
	int no_fetch, all, audit, allow_rewind, dry_run, json, quiet;
	int64_t now, at;
	char defkr[4096], defcache[4096], state[4096 + 16], trust[4096 + 16];
} ropts;

typedef struct rstate {
	int have;
	char tip[RF_HEX_MAX];
} rstate;

/* ---- the state file: "tip HEX\nsource S\nat TIME\n" ---- */

static int
state_read(const char *path, rstate *s)
{
	FILE *fp;
	char line[8192];

	memset(s, 0, sizeof *s);
	if ((fp = fopen(path, "r")) == NULL) {
		if (errno == ENOENT)
			return 0;
		cli_msg(path, "cannot read: %s", strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof line, fp) != NULL) {
		size_t n = strcspn(line, "\n"), k;
		line[n] = 0;
		if (strncmp(line, "tip ", 4) != 0)
			continue;
		n -= 4;
		for (k = 0; k < n; k++)
			if (!((line[4 + k] >= '0' && line[4 + k] <= '9') ||
			    (line[4 + k] >= 'a' && line[4 + k] <= 'f')))
				break;
		if (k != n || (n != 40 && n != 64)) {
			fclose(fp);
			cli_msg(path, "malformed tip line (40 or 64 lower-case hex digits)");
			return -1;
		}
		memcpy(s->tip, line + 4, n + 1);
		s->have = 1;
	}
	fclose(fp);
	return 0;
}

static int
state_write(const char *path, const char *tip, const char *source, int64_t at)
{
	cli_atomic a;
	char when[32];
	int ok;

	pgp_time_format(when, sizeof when, at, 0);
	if (cli_atomic_open(&a, path) != 0)
		return -1;
	ok = fprintf(a.f, "tip %s\nsource %s\nat %s\n", tip, source, when) > 0;
	return cli_atomic_close(&a, path, ok, 1);
}

/* ---- options ---- */

static int
parse(int argc, char **argv, ropts *o)
{
	const char *val;
	int a;

	memset(o, 0, sizeof *o);
	o->now = (int64_t)time(NULL);
	o->at = o->now;
	for (a = 1; a < argc; a++) {
		if (cli_opt_value(argc, argv, &a, "--keyring", &val)) {
			if (!val)
				goto novalue;
			o->keyring = val;
		} else if (cli_opt_value(argc, argv, &a, "--repo", &val)) {
			if (!val)
				goto novalue;
			o->repo = val;
		} else if (cli_opt_value(argc, argv, &a, "--remote", &val)) {
			if (!val)
				goto novalue;
			o->remote = val;
		} else if (cli_opt_value(argc, argv, &a, "--cache", &val)) {
			if (!val)
				goto novalue;
			o->cache = val;
		} else if (cli_opt_value(argc, argv, &a, "--branch", &val)) {
			if (!val)
				goto novalue;
			o->branch = val;
		} else if (cli_opt_value(argc, argv, &a, "--since", &val)) {
			if (!val)
				goto novalue;
			o->since = val;
		} else if (cli_opt_value(argc, argv, &a, "--at", &val)) {
			if (!val)
				goto novalue;
			if (cli_parse_time(val, o->now, &o->at) != 0) {
				cli_msg(CMD, "bad time '%s'", val);
				return -1;
			}
		} else if (strcmp(argv[a], "--no-fetch") == 0) {
			o->no_fetch = 1;
		} else if (strcmp(argv[a], "--all") == 0) {
			o->all = 1;
		} else if (strcmp(argv[a], "--audit") == 0) {
			o->audit = 1;
		} else if (strcmp(argv[a], "--allow-rewind") == 0) {
			o->allow_rewind = 1;
		} else if (strcmp(argv[a], "--dry-run") == 0) {
			o->dry_run = 1;
		} else if (strcmp(argv[a], "--json") == 0) {
			o->json = 1;
		} else if (strcmp(argv[a], "-q") == 0 || strcmp(argv[a], "--quiet") == 0) {
			o->quiet = 1;
		} else if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
			usage(stdout);
			return 1;
		} else {
			cli_msg(CMD, "unknown argument %s", argv[a]);
			usage(stderr);
			return -1;
		}
	}
	if ((o->repo == NULL) == (o->remote == NULL)) {
		cli_msg(CMD, "give one of --repo DIR or --remote URL");
		usage(stderr);
		return -1;
	}
	if (o->cache && !o->remote) {
		cli_msg(CMD, "--cache goes with --remote");
		return -1;
	}
	if (o->no_fetch && o->remote) {
		cli_msg(CMD, "--no-fetch goes with --repo (a --remote is always fetched)");
		return -1;
	}
	if (o->since && !o->audit) {
		cli_msg(CMD, "--since goes with --audit");
		return -1;
	}
	if (o->keyring == NULL) {
		if (certs_default_keyring(o->defkr, sizeof o->defkr) != 0) {
			cli_msg(CMD, "no --keyring given and no default keyring location");
			return -1;
		}
		o->keyring = o->defkr;
	}
	if (o->remote && o->cache == NULL) {
		const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
		int n;
		if (x && *x)
			n = snprintf(o->defcache, sizeof o->defcache, "%s/wotkit/pgpkeys.git", x);
		else if (h && *h)
			n = snprintf(o->defcache, sizeof o->defcache, "%s/.cache/wotkit/pgpkeys.git", h);
		else
			n = -1;
		if (n < 0 || (size_t)n >= sizeof o->defcache) {
			cli_msg(CMD, "no --cache given and no cache location ($XDG_CACHE_HOME, $HOME)");
			return -1;
		}
		o->cache = o->defcache;
	}
	snprintf(o->state, sizeof o->state, "%s.refresh", o->keyring);
	snprintf(o->trust, sizeof o->trust, "%s.trust", o->keyring);
	return 0;
novalue:
	cli_msg(CMD, "%s needs a value", argv[a]);
	return -1;
}

/* ---- refusals ---- */

/* Say why on stderr (always) and, with --json, as the report. */
static int
refuse(const ropts *o, const char *what, const char *commit, const rf_verdict *v)
{
	fprintf(stderr, "%s: %s: refused: %s: commit %s: %s", cli_prog, CMD, what, commit,
	    v ? v->word : "");
	if (v && v->signer[0])
		fprintf(stderr, " (signer %s)", v->signer);
	if (v && v->reason) {
		fputs(": ", stderr);
		out_esc_text(stderr, v->reason);
	}
	fputs("; the keyring was not changed\n", stderr);
	if (o->json) {
		out_ctx j;
		out_init(&j, stdout, 1);
		out_open(&j, NULL, NULL);
		out_bool(&j, "refused", 1);
		out_text(&j, "check", "%s", what);
		out_text(&j, "commit", "%s", commit);
		if (v) {
			out_text(&j, "verdict", "%s", v->word);
			out_str0(&j, "signer", v->signer[0] ? v->signer : NULL);
			out_str0(&j, "reason", v->reason);
		}
		out_close(&j);
		out_finish(&j);
	}
	return EXIT_FAIL;
}

/* ---- the steps ---- */

/* The tip: fetched (its printed id) or, with --no-fetch, the branch (or
 * HEAD) of the repository resolved once. */
static int
get_tip(const ropts *o, const char *repo, char tip[RF_HEX_MAX])
{
	if (o->remote) {
		char parent[4096];
		char *sl;
		snprintf(parent, sizeof parent, "%s", o->cache);
		if ((sl = strrchr(parent, '/')) != NULL && sl != parent) {
			*sl = 0;
			(void)cli_mkdirs(parent, 0700, 1);
		}
		return rf_git_fetch(CMD, repo, 1, o->remote, o->branch, tip);
	}
	if (!o->no_fetch)
		return rf_git_fetch(CMD, repo, 0, "origin", o->branch, tip);
	{
		char ref[4096 + 16];
		const char *args[1];
		rf_commits cs;
		if (o->branch)
			snprintf(ref, sizeof ref, "refs/heads/%s", o->branch);
		else
			snprintf(ref, sizeof ref, "HEAD");
		args[0] = ref;
		if (rf_git_commits(CMD, repo, args, 1, 1, &cs) != 0)
			return -1;
		if (cs.n != 1) {
			cli_msg(CMD, "%s names no commit", ref);
			rf_commits_free(&cs);
			return -1;
		}
		memcpy(tip, cs.v[0].id, RF_HEX_MAX);
		rf_commits_free(&cs);
	}
	return 0;
}

/* 1 when tip descends from last (or is it), 0 when not, -1 after a message. */
static int
descends(const char *repo, const char *tip, const char *last)
{
	char range[2 * RF_HEX_MAX + 4];
	const char *args[1];
	rf_commits cs;
	int r;
	if (strcmp(tip, last) == 0)
		return 1;
	snprintf(range, sizeof range, "%s..%s", tip, last);
	args[0] = range;
	if (rf_git_commits(CMD, repo, args, 1, RF_MAX_AUDIT_COMMITS, &cs) != 0) {
		cli_msg(CMD, "cannot tell whether %s descends from the last accepted tip %s", tip, last);
		return -1;
	}
	r = cs.n == 0;
	rf_commits_free(&cs);
	return r;
}

static void
report_head(out_ctx *j, const ropts *o, const char *tip, const rstate *st, const rf_verdict *v,
    const rf_audit *au)
{
	out_open(j, NULL, NULL);
	out_text(j, "tip", "%s", tip);
	if (st->have)
		out_text(j, "previous_tip", "%s", st->tip);
	else
		out_null(j, "previous_tip");
	out_text(j, "signer", "%s", v->signer);
	out_text(j, "trust", "%s", v->direct ? "ultimate-ownertrust" : "path-from-root");
	out_text(j, "mode", "%s", o->all ? "all" : "merge-only");
	if (au) {
		out_open(j, "audit", NULL);
		out_int(j, "commits_checked", (long long)au->checked);
		out_close(j);
	}
	out_bool(j, "dry_run", o->dry_run);
}

static int
run(const ropts *o)
{
	const char *repo = o->remote ? o->cache : o->repo;
	const char *source = o->remote ? o->remote : o->repo;
	char absrepo[PATH_MAX];
	char tip[RF_HEX_MAX];
	cli_file oldf;
	kr_keyring *old = NULL, *nw = NULL;
	kr_stats ks;
	rstate st;
	rf_ctx rc_;
	rf_verdict v;
	rf_audit au;
	rf_merged m;
	rf_merge_opts mo;
	rf_commits cs;
	const char *args[1];
	pgp_policy pol;
	pgp_fpr root;
	pgp_diag d;
	out_ctx j;
	size_t nchanged = 0;
	int rc = EXIT_USAGE, have_oldf = 0, r, write_kr, write_state;
	pgp_err e;

	memset(&m, 0, sizeof m);
	memset(&cs, 0, sizeof cs);
	memset(&au, 0, sizeof au);
	pgp_policy_init(&pol);
	if (state_read(o->state, &st) != 0)
		return EXIT_USAGE;
	/* the current keyring, held as it is for the comparison */
	if (cli_file_open(&oldf, o->keyring) != 0)
		return EXIT_USAGE;
	have_oldf = 1;
	memset(&d, 0, sizeof d);
	if (!kr_is_keyring(oldf.p, oldf.len) || (e = kr_open(&old, oldf.p, oldf.len, &d)) != PGP_OK) {
		cli_msg(o->keyring, "not a wotkit keyring (build one with `wotkit keyring build`)");
		goto out;
	}
	if ((e = kr_stats_get(old, &ks)) != PGP_OK) {
		cli_report(o->keyring, e, kr_last_error(old));
		goto out;
	}
	root = ks.root;
	/* the state file names a local repository by its absolute path */
	if (!o->remote && realpath(o->repo, absrepo) != NULL)
		source = absrepo;

	/* 1. fetch: the printed id is the tip from now on */
	if (get_tip(o, repo, tip) != 0)
		goto out;
	args[0] = tip;
	if (rf_git_commits(CMD, repo, args, 1, 1, &cs) != 0 || cs.n != 1 ||
	    strcmp(cs.v[0].id, tip) != 0) {
		cli_msg(CMD, "the tip %s cannot be read", tip);
		goto out;
	}

	/* 2. its signature, by the keyring as it is */
	if (rf_ctx_open(&rc_, o->keyring, o->at) != 0) {
		rf_ctx_close(&rc_);
		goto out;
	}
	r = rf_check_commit(&rc_, cs.sha256, cs.v[0].obj, cs.v[0].len, &v);
	rf_ctx_close(&rc_);
	if (r != 0) {
		cli_msg(CMD, "out of memory");
		goto out;
	}
	if (!v.accepted) {
		rc = refuse(o, "the tip's signature", tip, &v);
		goto out;
	}

	/* 3. no rollback */
	if (st.have && !o->allow_rewind) {
		if ((r = descends(repo, tip, st.tip)) < 0) {
			rc = EXIT_FAIL;
			goto out;
		}
		if (r == 0) {
			rf_verdict rw;
			memset(&rw, 0, sizeof rw);
			rw.word = "rewind";
			rw.reason = "the tip does not descend from the last accepted tip "
			    "(--allow-rewind accepts it)";
			rc = refuse(o, "rollback", tip, &rw);
			goto out;
		}
	}

	/* 4. the history since the last accepted tip */
	if (o->audit) {
		const char *since = o->since ? o->since : st.have ? st.tip : NULL;
		if (since == NULL) {
			cli_msg(CMD, "--audit needs --since COMMIT (no state file %s yet)", o->state);
			goto out;
		}
		if (rf_audit_range(CMD, repo, since, tip, root.len ? &root : NULL, o->trust, &pol,
		    &au) != 0)
			goto out;
		if (au.broken) {
			rc = refuse(o, "the history audit", au.commit, &au.v);
			goto out;
		}
	}

	/* 5. the new keyring */
	memset(&mo, 0, sizeof mo);
	mo.cmd = CMD;
	mo.repo = repo;
	mo.tip = tip;
	mo.all = o->all;
	mo.quiet = o->quiet;
	mo.at = o->at;
	mo.pol = &pol;
	mo.root = root.len ? &root : NULL;
	if (ks.built_at) {
		const char *sde = getenv("SOURCE_DATE_EPOCH");
		mo.built_at = sde && *sde ? strtoll(sde, NULL, 10) : o->now;
	}
	if (rf_merge(&mo, old, &m) != 0)
		goto out;
	memset(&d, 0, sizeof d);
	if ((e = kr_open(&nw, m.bytes, m.len, &d)) != PGP_OK) {
		cli_report("(the new keyring)", e, &d);
		goto out;
	}
	if (rf_diff(NULL, old, nw, &m, o->at, &pol, &nchanged) != 0)
		goto out;
	write_kr = nchanged > 0 || kr_count(old) != kr_count(nw);
	write_state = !st.have || strcmp(st.tip, tip) != 0 || write_kr;
	/* 6. the keyring, then the state; the report follows, so it never says
	 * "changed" about a keyring that could not be written */
	if (!o->dry_run && write_kr && krb_write_bytes(o->keyring, m.bytes, m.len) != 0)
		goto out;
	if (!o->dry_run && write_state && state_write(o->state, tip, source, o->at) != 0)
		goto out;
	if (!o->quiet || o->json) {
		out_init(&j, stdout, o->json);
		report_head(&j, o, tip, &st, &v, o->audit ? &au : NULL);
		out_bool(&j, "keyring_changed", write_kr);
		if (rf_diff(&j, old, nw, &m, o->at, &pol, &nchanged) != 0)
			goto out;
		out_close(&j);
		out_finish(&j);
		if (!o->json) {
			if (o->dry_run)
				printf("dry run: nothing written\n");
			else if (!write_kr)
				printf("up to date: no certificate changed\n");
		}
		fflush(stdout);
	}
	rc = EXIT_OK;
out:
	rf_commits_free(&cs);
	if (nw)
		kr_close(nw);
	rf_merged_free(&m);
	if (old)
		kr_close(old);
	if (have_oldf)
		cli_file_close(&oldf);
	return rc;
}

/* see cmds.h */
int
cmd_refresh(int argc, char **argv)
{
	ropts o;
	int r = parse(argc, argv, &o);
	if (r != 0)
		return r > 0 ? EXIT_OK : EXIT_USAGE;
	return run(&o);
}
