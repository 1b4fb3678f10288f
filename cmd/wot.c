/*
 * wot.c - `wotkit wot`: the web of trust over verified certifications
 * (docs/wot.md). Dispatch, `wot path` and `wot graphs`; `why` is in
 * wot_why.c, `audit` in wot_audit.c, `trust` and `validity` in
 * wot_trust.c.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cmds.h"
#include "wotcli.h"
#include "wot_out.h"
#include "atomic.h"
#include "out.h"

static void
usage(FILE *f)
{
	fputs("usage: wotkit wot path [--from KEY] [--maxdepth N] [--maxpaths N] "
	    "[--json|--dot|--svg [-o FILE]] TARGET | --all\n"
	    "       wotkit wot why [--from KEY] [--maxdepth N] [--json] TARGET\n"
	    "       wotkit wot graphs --outdir DIR [--maxdepth N] [--maxpaths N] [--dot] [--svg]\n"
	    "       wotkit wot audit [--json] [--maxdepth N]   (audits --policy / --policy-as-of)\n"
	    "       wotkit wot trust KEY [ultimate|full|marginal|never|undefined|unset] | --import FILE\n"
	    "       wotkit wot validity [--json] [--completes-needed N] [--marginals-needed N]\n"
	    "                           [--max-cert-depth N] [--min-cert-level N] [KEY]\n"
	    "       wotkit wot stats [--top N] [--maxdepth N] [--json]\n"
	    "common options: --keyring K (a wotkit keyring, or raw keys/dirs/pgpkeys trees; "
	    "repeatable)\n"
	    "                --root KEY  --at TIME  --policy FILE  --policy-as-of TIME  "
	    "--allow-sha1\n"
	    "                --trust-file FILE  --json\n"
	    "KEY: fingerprint, key ID, or a unique e-mail / user ID substring.\n"
	    "exit: 0 a path (or success), 1 none, 2 usage or input error\n", f);
}

/* "--maxdepth N" style small numbers; 1 taken, 0 not this option, -1 error */
int
wot_num_opt(wot_cli *c, int argc, char **argv, int *i, const char *name, unsigned lo,
    unsigned hi, unsigned *out)
{
	const char *val;
	char *end;
	long v;

	if (!cli_opt_value(argc, argv, i, name, &val))
		return 0;
	if (!val) {
		cli_msg(c->cmd, "%s needs a value", name);
		return -1;
	}
	v = strtol(val, &end, 10);
	if (*end || end == val || v < (long)lo || v > (long)hi) {
		cli_msg(c->cmd, "%s needs a number from %u to %u", name, lo, hi);
		return -1;
	}
	*out = (unsigned)v;
	return 1;
}

/* "--name VALUE" style strings; 1 taken, 0 not this option, -1 error */
int
wot_str_opt(wot_cli *c, int argc, char **argv, int *i, const char *name, const char **out)
{
	const char *val;

	if (!cli_opt_value(argc, argv, i, name, &val))
		return 0;
	if (!val) {
		cli_msg(c->cmd, "%s needs a value", name);
		return -1;
	}
	*out = val;
	return 1;
}

/* Ownertrust colours: the root is ultimate; the trust file, when the
 * trust module has one, adds the rest (wot_trust.c). */
uint8_t *
wot_colours(wot_cli *c)
{
	size_t n = wot_nnodes(c->g);
	uint8_t *ot = calloc(n ? n : 1, 1);

	if (ot == NULL)
		return NULL;
	wot_cli_ownertrust(c, ot);
	if (c->root >= 0)
		ot[c->root] = WOT_OUT_ULTIMATE;
	return ot;
}

/* --svg without Graphviz: say what to install, and what works without it. */
static int
no_graphviz(const wot_cli *c)
{
	cli_msg(c->cmd, "--svg needs Graphviz's `dot`, which is not installed "
	    "(apt-get install graphviz); --dot writes the graph without it");
	return EXIT_USAGE;
}

static int
emit_dot_or_svg(wot_cli *c, const wot_path *p, size_t n, int svg, const char *outpath)
{
	uint8_t *ot = wot_colours(c);
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int r;

	if (!svg) {
		FILE *f = stdout;
		if (outpath != NULL && (f = fopen(outpath, "w")) == NULL) {
			cli_msg(outpath, "cannot write");
			free(ot);
			return EXIT_USAGE;
		}
		wot_out_dot(f, c->g, p, n, ot);
		free(ot);
		if (f != stdout && fclose(f) != 0) {
			cli_msg(outpath, "write failed");
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	if ((m = open_memstream(&buf, &len)) == NULL) {
		free(ot);
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	wot_out_dot(m, c->g, p, n, ot);
	fclose(m);
	free(ot);
	r = wot_out_svg(buf, len, outpath);
	free(buf);
	if (r == 127) {
		return no_graphviz(c);
	}
	if (r != 0) {
		cli_msg(c->cmd, "Graphviz's `dot` failed");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* `wot path --all`: every key's paths, in key ID order, as the graph text
 * (what `wot graphs` writes, without the files). */
static int
all_paths(wot_cli *c, const char *target, const char *from, unsigned maxdepth,
    unsigned maxpaths, int other_format)
{
	wot_search *s = NULL;
	wot_path paths[WOT_MAX_PATHS];
	size_t k, n, with = 0;
	uint32_t fr;

	if (target != NULL || other_format) {
		cli_msg(c->cmd, "--all takes no TARGET and writes text only");
		return EXIT_USAGE;
	}
	if (wot_cli_open(c, from == NULL) != 0)
		return EXIT_USAGE;
	if (wot_cli_from(c, from, &fr) != 0)
		return EXIT_USAGE;
	if (wot_search_new(&s, c->g) != PGP_OK) {
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	for (k = 0; k < wot_nnodes(c->g); k++) {
		uint32_t to = wot_node_by_rank(c->g, (uint32_t)k);
		if (wot_paths(s, fr, to, maxdepth, maxpaths, paths, &n) != PGP_OK)
			break;
		with += n > 0;
		wot_out_text(stdout, c->g, paths, n);
	}
	wot_search_free(s);
	fprintf(stderr, "%s: %s: %zu of %zu keys have a path\n", cli_prog, c->cmd, with,
	    wot_nnodes(c->g));
	return with > 0 ? EXIT_OK : EXIT_FAIL;
}

int
wot_cmd_path(wot_cli *c, int argc, char **argv)
{
	const char *target = NULL, *from = NULL, *outpath = NULL;
	unsigned maxdepth = 4, maxpaths = 4;
	int i, r, dot = 0, svg = 0, all = 0;
	uint32_t to, fr;
	wot_search *s = NULL;
	wot_path paths[WOT_MAX_PATHS];
	size_t n = 0;

	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(c, argc, argv, &i)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--maxdepth", 1, WOT_MAX_DEPTH, &maxdepth)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--maxpaths", 1, WOT_MAX_PATHS, &maxpaths)) != 0 ||
		    (r = wot_str_opt(c, argc, argv, &i, "--from", &from)) != 0 ||
		    (r = wot_str_opt(c, argc, argv, &i, "-o", &outpath)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (strcmp(argv[i], "--dot") == 0) {
			dot = 1;
		} else if (strcmp(argv[i], "--svg") == 0) {
			svg = 1;
		} else if (strcmp(argv[i], "--all") == 0) {
			all = 1;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(c->cmd, "unknown option %s", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		} else if (target == NULL) {
			target = argv[i];
		} else {
			cli_msg(c->cmd, "one TARGET only");
			return EXIT_USAGE;
		}
	}
	if (all)
		return all_paths(c, target, from, maxdepth, maxpaths, dot + svg + c->json);
	if (target == NULL) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (c->json + dot + svg > 1) {
		cli_msg(c->cmd, "give at most one of --json, --dot, --svg");
		return EXIT_USAGE;
	}
	if (outpath != NULL && !dot && !svg) {
		cli_msg(c->cmd, "-o is for --dot and --svg");
		return EXIT_USAGE;
	}
	if (svg && !wot_have_dot()) {
		return no_graphviz(c);
	}
	if (wot_cli_open(c, from == NULL) != 0)
		return EXIT_USAGE;
	if (wot_cli_key(c, target, &to) != 0)
		return EXIT_USAGE;
	if (wot_cli_from(c, from, &fr) != 0)
		return EXIT_USAGE;
	if (wot_search_new(&s, c->g) != PGP_OK ||
	    wot_paths(s, fr, to, maxdepth, maxpaths, paths, &n) != PGP_OK) {
		wot_search_free(s);
		cli_msg(c->cmd, "out of memory");
		return EXIT_USAGE;
	}
	wot_search_free(s);
	if (c->json) {
		wot_out_json(stdout, c->g, fr, to, paths, n);
	} else if (n > 0 && (dot || svg)) {
		if ((r = emit_dot_or_svg(c, paths, n, svg, outpath)) != EXIT_OK)
			return r;
	} else {
		wot_out_text(stdout, c->g, paths, n);
	}
	if (n == 0) {
		char a[17], b[17];
		wot_cli_keyid(wot_node_at(c->g, fr), a);
		wot_cli_keyid(wot_node_at(c->g, to), b);
		cli_msg(c->cmd, "no path from %s to %s within %u hops (wotkit wot why %s)", a, b,
		    maxdepth, b);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

/* ---- graphs: every key's graphs/<KEYID>.txt (and .dot/.svg) ---- */

int
wot_cmd_graphs(wot_cli *c, int argc, char **argv)
{
	const char *outdir = NULL;
	unsigned maxdepth = 4, maxpaths = 4;
	int i, r, dot = 0, svg = 0, rc = EXIT_OK;
	wot_search *s = NULL;
	wot_path paths[WOT_MAX_PATHS];
	size_t n, k, written = 0, unchanged = 0, nopath = 0;
	uint8_t *ot = NULL;
	char path[4096];

	for (i = 1; i < argc; i++) {
		if ((r = wot_cli_opt(c, argc, argv, &i)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--maxdepth", 1, WOT_MAX_DEPTH, &maxdepth)) != 0 ||
		    (r = wot_num_opt(c, argc, argv, &i, "--maxpaths", 1, WOT_MAX_PATHS, &maxpaths)) != 0 ||
		    (r = wot_str_opt(c, argc, argv, &i, "--outdir", &outdir)) != 0) {
			if (r < 0)
				return EXIT_USAGE;
		} else if (strcmp(argv[i], "--dot") == 0) {
			dot = 1;
		} else if (strcmp(argv[i], "--svg") == 0) {
			svg = 1;
		} else {
			cli_msg(c->cmd, "unknown argument %s", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (outdir == NULL) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (svg && !wot_have_dot()) {
		return no_graphviz(c);
	}
	if (wot_cli_open(c, 1) != 0)
		return EXIT_USAGE;
	if (cli_mkdirs(outdir, 0755, 1) != 0) {
		cli_msg(outdir, "cannot create the directory");
		return EXIT_USAGE;
	}
	if (wot_search_new(&s, c->g) != PGP_OK || (ot = wot_colours(c)) == NULL) {
		cli_msg(c->cmd, "out of memory");
		wot_search_free(s);
		return EXIT_USAGE;
	}
	for (k = 0; k < wot_nnodes(c->g) && rc == EXIT_OK; k++) {
		uint32_t node = wot_node_by_rank(c->g, (uint32_t)k);
		char kid[17], *buf = NULL;
		size_t len = 0;
		FILE *m;
		int w;

		wot_cli_keyid(wot_node_at(c->g, node), kid);
		if (wot_paths(s, (uint32_t)c->root, node, maxdepth, maxpaths, paths, &n) != PGP_OK) {
			rc = EXIT_USAGE;
			break;
		}
		snprintf(path, sizeof path, "%s/%s.txt", outdir, kid);
		if (n == 0) {
			/* as wotmate: no graph for a key without a path, and an
			 * existing one is emptied (the key lost its path) */
			struct stat sb;
			nopath++;
			if (stat(path, &sb) != 0)
				continue;
		}
		if ((m = open_memstream(&buf, &len)) == NULL) {
			rc = EXIT_USAGE;
			break;
		}
		wot_out_text(m, c->g, paths, n);
		fclose(m);
		w = cli_atomic_update(path, (const uint8_t *)buf, len);
		free(buf);
		if (w < 0) {
			rc = EXIT_USAGE;
			break;
		}
		if (w == 0) {
			unchanged++;
			continue;
		}
		written++;
		if (n == 0 || (!dot && !svg))
			continue;
		/* the picture is redrawn only when the text changed (wotmate) */
		buf = NULL;
		if ((m = open_memstream(&buf, &len)) == NULL) {
			rc = EXIT_USAGE;
			break;
		}
		wot_out_dot(m, c->g, paths, n, ot);
		fclose(m);
		if (dot) {
			snprintf(path, sizeof path, "%s/%s.dot", outdir, kid);
			if (cli_atomic_update(path, (const uint8_t *)buf, len) < 0)
				rc = EXIT_USAGE;
		}
		if (svg && rc == EXIT_OK) {
			snprintf(path, sizeof path, "%s/%s.svg", outdir, kid);
			if (wot_out_svg(buf, len, path) != 0) {
				cli_msg(path, "Graphviz's `dot` failed");
				rc = EXIT_USAGE;
			}
		}
		free(buf);
	}
	wot_search_free(s);
	free(ot);
	fprintf(stderr, "%s: %s: %zu keys: %zu graphs written, %zu unchanged, %zu without a path\n",
	    cli_prog, c->cmd, wot_nnodes(c->g), written, unchanged, nopath);
	return rc;
}

/* ---- dispatch ---- */

static const struct {
	const char *name;
	int (*fn)(wot_cli *c, int argc, char **argv);
} subs[] = {
	{"path", wot_cmd_path},
	{"why", wot_cmd_why},
	{"graphs", wot_cmd_graphs},
	{"audit", wot_cmd_audit},
	{"trust", wot_cmd_trust},
	{"validity", wot_cmd_validity},
	{"stats", wot_cmd_stats},
};

int
cmd_wot(int argc, char **argv)
{
	static char name[64];
	wot_cli c;
	size_t i;
	int rc;

	if (argc < 2 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : EXIT_OK;
	}
	for (i = 0; i < sizeof subs / sizeof subs[0]; i++)
		if (strcmp(argv[1], subs[i].name) == 0)
			break;
	if (i == sizeof subs / sizeof subs[0]) {
		cli_msg("wot", "unknown subcommand '%s'", argv[1]);
		usage(stderr);
		return EXIT_USAGE;
	}
	for (int a = 2; a < argc; a++)
		if (strcmp(argv[a], "-h") == 0 || strcmp(argv[a], "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		}
	snprintf(name, sizeof name, "wot %s", subs[i].name);
	wot_cli_init(&c, name);
	rc = subs[i].fn(&c, argc - 1, argv + 1);
	wot_cli_close(&c);
	return rc;
}
