/*
 * wot_out.c - how paths are written: pgpkeys.git's graphs/<KEYID>.txt text,
 * JSON, and Graphviz DOT with the look of pgpkeys.git's SVGs (wotmate's
 * record nodes), rendered to SVG by Graphviz's `dot` when it is installed.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "wot_out.h"
#include "out.h"

void
wot_out_text(FILE *f, const wot_graph *g, const wot_path *p, size_t n)
{
	size_t i;
	uint32_t k;

	/* "from  KEYID  UID", then "   K  KEYID  UID" per hop, a blank line
	 * after each path (graphs/<KEYID>.txt) */
	for (i = 0; i < n; i++) {
		for (k = 0; k <= p[i].len; k++) {
			const wot_node *nd = wot_node_at(g, p[i].node[k]);
			char kid[17];
			pgp_view u = wot_cli_uid(nd);
			wot_cli_keyid(nd, kid);
			if (k == 0)
				fputs("from", f);
			else
				fprintf(f, "   %u", k);
			fprintf(f, "  %s  ", kid);
			out_esc_plain(f, u.p, u.len);
			fputc('\n', f);
		}
		fputc('\n', f);
	}
}

void
wot_out_json_key(FILE *f, const wot_node *nd)
{
	char kid[17], fpr[2 * PGP_FPR_MAX + 1];
	pgp_view u = wot_cli_uid(nd);

	wot_cli_keyid(nd, kid);
	pgp_hex_encode(fpr, nd->fpr.v, nd->fpr.len);
	fprintf(f, "{\"fpr\":\"%s\",\"keyid\":\"%s\",\"uid\":\"", fpr, kid);
	out_esc_json(f, u.p, u.len);
	fputs("\"}", f);
}

void
wot_out_json(FILE *f, const wot_graph *g, uint32_t from, uint32_t to, const wot_path *p,
    size_t n)
{
	size_t i;
	uint32_t k;

	fputs("{\"from\":", f);
	wot_out_json_key(f, wot_node_at(g, from));
	fputs(",\"to\":", f);
	wot_out_json_key(f, wot_node_at(g, to));
	fprintf(f, ",\"at\":%lld,\"paths\":[", (long long)wot_time(g));
	for (i = 0; i < n; i++) {
		fputs(i ? ",[" : "[", f);
		for (k = 0; k <= p[i].len; k++) {
			if (k)
				fputc(',', f);
			wot_out_json_key(f, wot_node_at(g, p[i].node[k]));
		}
		fputc(']', f);
	}
	fputs("]}\n", f);
}

/* ---- DOT ---- */

/* A DOT record-label field: escape what records and strings give meaning
 * to, drop '"' as wotmate does, and escape the rest as human text. */
static void
dot_field(FILE *f, const uint8_t *p, size_t n)
{
	size_t i, start = 0;

	for (i = 0; i <= n; i++) {
		if (i < n && !strchr("{}|<>\\\"", p[i]))
			continue;
		out_esc_plain(f, p + start, i - start);
		if (i < n && p[i] != '"')
			fprintf(f, "\\%c", p[i]);
		start = i + 1;
	}
}

static void
trim(const uint8_t **p, size_t *n)
{
	while (*n && (**p == ' ' || **p == '\t')) {
		(*p)++;
		(*n)--;
	}
	while (*n && ((*p)[*n - 1] == ' ' || (*p)[*n - 1] == '\t'))
		(*n)--;
}

/* wotmate's label: the name (before '<', before '('), then the e-mail's
 * domain (or the whole e-mail when it has no '@'). */
static void
split_uid(pgp_view u, pgp_view *name, pgp_view *show)
{
	const uint8_t *lt = memchr(u.p, '<', u.len), *par;
	size_t nl = lt ? (size_t)(lt - u.p) : u.len;

	par = memchr(u.p, '(', nl);
	if (par)
		nl = (size_t)(par - u.p);
	name->p = u.p;
	name->len = nl;
	trim(&name->p, &name->len);
	show->p = u.p;
	show->len = 0;
	if (lt) {
		const uint8_t *e = lt + 1, *end = u.p + u.len, *gt = memchr(e, '>', (size_t)(end - e));
		const uint8_t *at;
		size_t el = (size_t)((gt ? gt : end) - e);
		at = memchr(e, '@', el);
		if (at) {
			show->p = at + 1;
			show->len = el - (size_t)(at + 1 - e);
		} else {
			show->p = e;
			show->len = el;
		}
		trim(&show->p, &show->len);
	}
}

static const char *
algo_label(int algo)
{
	switch (algo) {
	case 1: return "RSA";
	case 17: return "DSA";
	case 18: return "ECDH";
	case 19: return "ECDSA";
	case 22: return "EdDSA";
	case 27: return "Ed25519";
	case 28: return "Ed448";
	default: return NULL;
	}
}

static const char *
trust_colour(int ownertrust)
{
	switch (ownertrust) {
	case WOT_OUT_ULTIMATE: return "purple";
	case WOT_OUT_FULL: return "red";
	case WOT_OUT_MARGINAL: return "blue";
	default: return "gray";
	}
}

static void
dot_node(FILE *f, const wot_graph *g, uint32_t node, int ownertrust)
{
	const wot_node *nd = wot_node_at(g, node);
	pgp_view name, show, u = wot_cli_uid(nd);
	const char *al = algo_label(nd->algo);
	char kid[17];

	wot_cli_keyid(nd, kid);
	split_uid(u, &name, &show);
	fprintf(f, "a_%u [shape=record, style=rounded, color=%s, label=\"{", nd->rank,
	    trust_colour(ownertrust));
	dot_field(f, name.p, name.len);
	fputs("\\n", f);
	dot_field(f, show.p, show.len);
	if (al)
		fprintf(f, "|{%s %u|%s}}\", URL=\"%s.svg\"];\n", al, nd->bits, kid, kid);
	else
		fprintf(f, "|{%s}}\", URL=\"%s.svg\"];\n", kid, kid);
}

void
wot_out_dot(FILE *f, const wot_graph *g, const wot_path *p, size_t n, const uint8_t *ownertrust)
{
	size_t i, nn = wot_nnodes(g);
	uint32_t k;
	uint8_t *drawn = calloc(nn ? nn : 1, 1);
	uint32_t *edges = NULL;
	size_t nedges = 0;

	fputs("digraph G {\n", f);
	fputs("node [fontname=\"droid sans,dejavu sans,helvetica\", fontsize=11];\n", f);
	/* the paths' first keys in a top-level cluster, the others below */
	fputs("subgraph cluster_toplevel {\ncolor=white;\n", f);
	for (i = 0; i < n; i++) {
		uint32_t a = p[i].node[0];
		if (drawn && !drawn[a]) {
			drawn[a] = 1;
			dot_node(f, g, a, ownertrust ? ownertrust[a] : 0);
		}
	}
	fputs("}\n", f);
	for (i = 0; i < n; i++)
		for (k = 1; k <= p[i].len; k++) {
			uint32_t a = p[i].node[k];
			if (drawn && !drawn[a]) {
				drawn[a] = 1;
				dot_node(f, g, a, ownertrust ? ownertrust[a] : 0);
			}
		}
	/* each edge once, in path order */
	for (i = 0; i < n; i++) {
		for (k = 1; k <= p[i].len; k++) {
			uint32_t a = wot_node_at(g, p[i].node[k - 1])->rank, b = wot_node_at(g, p[i].node[k])->rank;
			size_t x;
			for (x = 0; x < nedges; x++)
				if (edges[2 * x] == a && edges[2 * x + 1] == b)
					break;
			if (x < nedges)
				continue;
			uint32_t *ne = realloc(edges, (nedges + 1) * 2 * sizeof *edges);
			if (ne == NULL)
				break;
			edges = ne;
			edges[2 * nedges] = a;
			edges[2 * nedges + 1] = b;
			nedges++;
			fprintf(f, "a_%u -> a_%u;\n", a, b);
		}
	}
	fputs("}\n", f);
	free(edges);
	free(drawn);
}

int
wot_out_svg(const char *dot, size_t len, const char *outpath)
{
	int in[2];
	pid_t pid;
	int st;

	fflush(stdout);
	if (pipe(in) != 0)
		return -1;
	if ((pid = fork()) < 0) {
		close(in[0]);
		close(in[1]);
		return -1;
	}
	if (pid == 0) {
		dup2(in[0], 0);
		close(in[0]);
		close(in[1]);
		if (outpath != NULL)
			execlp("dot", "dot", "-Tsvg", "-o", outpath, (char *)NULL);
		else
			execlp("dot", "dot", "-Tsvg", (char *)NULL);
		_exit(errno == ENOENT ? 127 : 126);
	}
	close(in[0]);
	{
		/* a `dot` that dies early must not kill us with SIGPIPE */
		void (*old)(int) = signal(SIGPIPE, SIG_IGN);
		size_t off = 0;
		while (off < len) {
			ssize_t w = write(in[1], dot + off, len - off);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				break;
			}
			off += (size_t)w;
		}
		signal(SIGPIPE, old);
	}
	close(in[1]);
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -1;
	if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
		return 127;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int
wot_have_dot(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	if (path == NULL)
		path = "/usr/bin:/bin";
	while (*path) {
		const char *c = strchr(path, ':');
		size_t l = c ? (size_t)(c - path) : strlen(path);
		if (l > 0 && l + 5 < sizeof buf) {
			memcpy(buf, path, l);
			memcpy(buf + l, "/dot", 5);
			if (access(buf, X_OK) == 0)
				return 1;
		}
		path += l;
		if (*path == ':')
			path++;
	}
	return 0;
}
