/*
 * maintainers.c - `wotkit maintainers` (docs/maintainers.md):
 *
 *   wotkit maintainers MAINTAINERS [--keyring K] [--root KEY] [--at TIME]
 *                      [--within 30d] [--reviewers] [--json]
 *
 * Every distinct e-mail address of an M: entry (and R: with --reviewers)
 * of a MAINTAINERS file (keyring/maint.h), looked up in the keyring by
 * e-mail (its e-mail index, kr_find): no key (the people to ask for one),
 * a key without a path from the root (wotmate's path search, as verify-tag
 * and `wot path`: at most MAINT_CLI_MAX_DEPTH hops), a key that expires
 * within the window or has expired, or ok. An address with several keys
 * takes its best key. M: entries without an address are listed too.
 *
 * Exit 0 when every address is ok, 1 when any is listed, 2 for usage or
 * input errors (an unreadable MAINTAINERS, a keyring without a root).
 */
#include <stdlib.h>
#include <string.h>
#include "cmds.h"
#include "maintcli.h"
#include "out.h"
#include "wot_out.h"

/* best first: the order an address's keys are ranked in */
typedef enum addr_status {
	ST_OK = 0, ST_EXPIRING, ST_NO_PATH, ST_EXPIRED, ST_REVOKED, ST_INVALID, ST_NO_KEY
} addr_status;

static const char *const status_word[] = {
	"ok", "expiring", "no-path", "expired", "revoked", "invalid", "no-key",
};

typedef struct key_info {
	uint32_t node;
	addr_status st;
	int uid_invalid;         /* no valid user ID holds the address */
	int has_path;
	wot_path path;
} key_info;

typedef struct addr_info {
	pgp_view email;          /* the first spelling seen */
	char role;               /* 'M', or 'R' when only a reviewer */
	uint32_t first_entry;    /* for the order in the file */
	uint32_t *secs;          /* section indexes, file order, distinct */
	size_t nsecs;
	key_info *keys;
	size_t nkeys;
	addr_status st;          /* of the best key, or ST_NO_KEY */
} addr_info;

typedef struct mt_run {
	wot_cli c;
	const char *file;
	int64_t within;
	int reviewers;
	maint_file *m;
	addr_info *a;
	size_t na;
	wot_search *search;
} mt_run;

static void
usage(FILE *f)
{
	fputs("usage: wotkit maintainers MAINTAINERS [--keyring K] [--root KEY] [--at TIME]\n"
	    "                          [--within 30d] [--reviewers] [--json]\n"
	    "lists the M: addresses (R: too with --reviewers) with no key in the keyring, a key\n"
	    "without a path to the root, or a key expiring within the window (default 30d)\n"
	    "exit: 0 all ok, 1 something listed, 2 usage or input error\n", f);
}

static int
lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + 32 : c;
}

/* case-insensitive order of two addresses */
static int
addr_cmp(pgp_view a, pgp_view b)
{
	size_t i, n = a.len < b.len ? a.len : b.len;
	for (i = 0; i < n; i++) {
		int x = lower(a.p[i]), y = lower(b.p[i]);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return a.len < b.len ? -1 : a.len > b.len;
}

typedef struct ent_ref {
	pgp_view email;
	uint32_t entry, section;
	char role;
} ent_ref;

static int
ref_cmp(const void *x, const void *y)
{
	const ent_ref *a = x, *b = y;
	int c = addr_cmp(a->email, b->email);
	if (c)
		return c;
	return a->entry < b->entry ? -1 : a->entry > b->entry;
}

/* The distinct addresses, sorted case-insensitively. 0 or -1 (memory). */
static int
collect(mt_run *r)
{
	size_t ns = maint_nsections(r->m), s, k, n = 0, i;
	ent_ref *refs = calloc(maint_nentries(r->m) + 1, sizeof *refs);

	if (refs == NULL)
		return -1;
	for (s = 0; s < ns; s++) {
		const maint_section *sec = maint_section_at(r->m, s);
		for (k = 0; k < sec->n; k++) {
			const maint_entry *e = maint_entry_at(r->m, sec->first + k);
			if ((e->type == 'M' || (e->type == 'R' && r->reviewers)) && e->email.len) {
				refs[n].email = e->email;
				refs[n].entry = (uint32_t)(sec->first + k);
				refs[n].section = (uint32_t)s;
				refs[n].role = e->type;
				n++;
			}
		}
	}
	qsort(refs, n, sizeof *refs, ref_cmp);
	if ((r->a = calloc(n + 1, sizeof *r->a)) == NULL) {
		free(refs);
		return -1;
	}
	for (i = 0; i < n; i++) {
		addr_info *a;
		if (r->na == 0 || addr_cmp(r->a[r->na - 1].email, refs[i].email) != 0) {
			a = &r->a[r->na++];
			a->email = refs[i].email;
			a->role = refs[i].role;
			a->first_entry = refs[i].entry;
			if ((a->secs = calloc(n - i, sizeof *a->secs)) == NULL) {
				free(refs);
				return -1;
			}
		}
		a = &r->a[r->na - 1];
		if (refs[i].role == 'M')
			a->role = 'M';
		/* entries are sorted within one address, so sections come in file order */
		if (a->nsecs == 0 || a->secs[a->nsecs - 1] != refs[i].section)
			a->secs[a->nsecs++] = refs[i].section;
	}
	free(refs);
	return 0;
}

/* 1 when a user ID of nd that is validly bound and not revoked at t holds
 * the address (a revoked "Name <addr>" does not speak for addr). */
static int
uid_valid_for(const wot_node *nd, pgp_view addr)
{
	uint32_t j;

	for (j = 0; j < nd->cert->nuids; j++) {
		pgp_view em;
		if (!nd->cert->uids[j].is_attr && nd->uid_status[j] == PGP_OK &&
		    pgp_uid_email(nd->cert->uids[j].data, &em) && addr_cmp(em, addr) == 0)
			return 1;
	}
	return 0;
}

static addr_status
key_status(mt_run *r, const addr_info *a, key_info *k)
{
	const wot_node *nd = wot_node_at(r->c.g, k->node);
	size_t np = 0;

	switch (nd->state) {
	case WOT_NODE_VALID:
		break;
	case WOT_NODE_EXPIRED:
		return ST_EXPIRED;
	case WOT_NODE_REVOKED:
		return ST_REVOKED;
	default:
		return ST_INVALID;
	}
	if (!uid_valid_for(nd, a->email)) {
		k->uid_invalid = 1;
		return ST_INVALID;
	}
	if (wot_paths(r->search, (uint32_t)r->c.root, k->node, MAINT_CLI_MAX_DEPTH, 1, &k->path,
	    &np) == PGP_OK && np == 1)
		k->has_path = 1;
	if (!k->has_path)
		return ST_NO_PATH;
	if (nd->expires != 0 && nd->expires - r->c.t <= r->within)
		return ST_EXPIRING;
	return ST_OK;
}

/* Look every address up. 0, or -1 after a message. */
static int
evaluate(mt_run *r)
{
	size_t i, nk = kr_count(r->c.kr), total = 0, j;
	uint32_t *hits = calloc(nk + 1, sizeof *hits);
	pgp_err e;

	if (hits == NULL || wot_search_new(&r->search, r->c.g) != PGP_OK) {
		free(hits);
		cli_msg(r->c.cmd, "out of memory");
		return -1;
	}
	for (i = 0; i < r->na; i++) {
		addr_info *a = &r->a[i];
		pgp_certq q;
		q.kind = PGP_CERTQ_EMAIL;
		q.p = a->email.p;
		q.len = a->email.len;
		if ((e = kr_find(r->c.kr, &q, hits, nk, &total)) != PGP_OK) {
			cli_report(r->c.defpath[0] ? r->c.defpath : "keyring", e, kr_last_error(r->c.kr));
			free(hits);
			return -1;
		}
		if (total > nk)
			total = nk;
		a->st = ST_NO_KEY;
		if (total && (a->keys = calloc(total, sizeof *a->keys)) == NULL) {
			free(hits);
			cli_msg(r->c.cmd, "out of memory");
			return -1;
		}
		for (j = 0; j < total; j++) {
			pgp_fpr f;
			int64_t node;
			key_info *k;
			if (kr_cert_fpr(r->c.kr, hits[j], &f) != PGP_OK ||
			    (node = wot_find_fpr(r->c.g, &f)) < 0)
				continue;
			k = &a->keys[a->nkeys++];
			k->node = (uint32_t)node;
			k->st = key_status(r, a, k);
			if (k->st < a->st)
				a->st = k->st;
		}
	}
	free(hits);
	return 0;
}

/* ---- output ---- */

static void
fpr_hex(char *out, const wot_node *nd)
{
	pgp_hex_encode(out, nd->fpr.v, nd->fpr.len);
}

static const key_info *
best_key(const addr_info *a)
{
	size_t j;
	for (j = 0; j < a->nkeys; j++)
		if (a->keys[j].st == a->st)
			return &a->keys[j];
	return NULL;
}

static void
human_sections(mt_run *r, const addr_info *a)
{
	size_t j, shown = a->nsecs < 3 ? a->nsecs : 3;

	fputs(" (", stdout);
	for (j = 0; j < shown; j++) {
		const maint_section *s = maint_section_at(r->m, a->secs[j]);
		if (j)
			fputs(", ", stdout);
		if (s->title.len)
			out_esc_plain(stdout, s->title.p, s->title.len);
		else
			printf("line %u", s->line);
	}
	if (a->nsecs > shown)
		printf(", +%zu more", a->nsecs - shown);
	putchar(')');
}

static void
human_line(mt_run *r, const addr_info *a)
{
	const key_info *k = best_key(a);
	char h[2 * PGP_FPR_MAX + 1], t[64];

	fputs("  ", stdout);
	out_esc_plain(stdout, a->email.p, a->email.len);
	if (a->role == 'R')
		fputs(" [R]", stdout);
	if (k != NULL) {
		const wot_node *nd = wot_node_at(r->c.g, k->node);
		fpr_hex(h, nd);
		printf(": key %s", h);
		switch (a->st) {
		case ST_NO_PATH:
			printf(": no path from the root within %u hops", MAINT_CLI_MAX_DEPTH);
			break;
		case ST_REVOKED:
			fputs(": revoked", stdout);
			break;
		case ST_INVALID:
			if (k->uid_invalid)
				fputs(": the user ID with this address is revoked or not bound", stdout);
			else
				printf(": not valid (%s)", nd->reason ? nd->reason : "no valid binding");
			break;
		case ST_EXPIRED:
		case ST_EXPIRING:
			pgp_time_format(t, sizeof t, nd->expires, 0);
			printf(": %s %s", a->st == ST_EXPIRED ? "expired" : "expires", t);
			if (a->st == ST_EXPIRING)
				printf(" (in %lld days)", (long long)((nd->expires - r->c.t) / 86400));
			break;
		default:
			break;
		}
		if (a->nkeys > 1)
			printf(" (best of %zu keys)", a->nkeys);
	}
	human_sections(r, a);
	putchar('\n');
}

static size_t
count(const mt_run *r, addr_status lo, addr_status hi)
{
	size_t i, n = 0;
	for (i = 0; i < r->na; i++)
		n += r->a[i].st >= lo && r->a[i].st <= hi;
	return n;
}

static size_t
no_address_count(const mt_run *r)
{
	size_t i, n = 0;
	for (i = 0; i < maint_nentries(r->m); i++) {
		const maint_entry *e = maint_entry_at(r->m, i);
		n += (e->type == 'M' || (e->type == 'R' && r->reviewers)) && e->email.len == 0;
	}
	return n;
}

static void
human_group(mt_run *r, const char *head, unsigned mask)
{
	size_t i, n = 0;
	for (i = 0; i < r->na; i++)
		n += (mask >> r->a[i].st) & 1u;
	if (n == 0)
		return;
	printf("%s (%zu):\n", head, n);
	for (i = 0; i < r->na; i++)
		if ((mask >> r->a[i].st) & 1u)
			human_line(r, &r->a[i]);
}

/* The section holding entry i (sections are in entry order). */
static size_t
section_of(const maint_file *m, size_t i)
{
	size_t lo = 0, hi = maint_nsections(m);
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;
		if (maint_section_at(m, mid)->first <= i)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

static void
print_human(mt_run *r)
{
	char t[64];
	size_t i, nbad = no_address_count(r);

	pgp_time_format(t, sizeof t, r->c.t, 0);
	printf("%zu addresses (%s) in %zu sections, at %s, window %lld days\n", r->na,
	    r->reviewers ? "M: and R:" : "M:", maint_nsections(r->m), t,
	    (long long)(r->within / 86400));
	human_group(r, "no key in the keyring", 1u << ST_NO_KEY);
	human_group(r, "no path to the root", 1u << ST_NO_PATH);
	human_group(r, "revoked or not valid", 1u << ST_REVOKED | 1u << ST_INVALID);
	human_group(r, "expiring or expired", 1u << ST_EXPIRING | 1u << ST_EXPIRED);
	if (nbad) {
		printf("entries without an e-mail address (%zu):\n", nbad);
		for (i = 0; i < maint_nentries(r->m); i++) {
			const maint_entry *e = maint_entry_at(r->m, i);
			if ((e->type == 'M' || (e->type == 'R' && r->reviewers)) && e->email.len == 0) {
				char tb[64];
				pgp_view tv;
				maint_cli_title(r->m, section_of(r->m, i), tb, sizeof tb, &tv);
				printf("  line %u: %c: ", e->line, e->type);
				out_esc_plain(stdout, e->value.p, e->value.len);
				fputs(" (", stdout);
				out_esc_plain(stdout, tv.p, tv.len);
				fputs(")\n", stdout);
			}
		}
	}
	printf("ok: %zu of %zu\n", count(r, ST_OK, ST_OK), r->na);
}

static void
json_key(mt_run *r, out_ctx *o, const key_info *k)
{
	const wot_node *nd = wot_node_at(r->c.g, k->node);
	pgp_view u = wot_cli_uid(nd);
	uint32_t j;

	out_open(o, NULL, NULL);
	out_hex(o, "fpr", nd->fpr.v, nd->fpr.len, 0);
	out_str(o, "uid", u.p, u.len);
	out_text(o, "status", "%s", status_word[k->st]);
	if (k->st == ST_INVALID)
		out_str0(o, "reason", k->uid_invalid ? "user ID revoked or not bound" :
		    nd->reason ? nd->reason : "no valid binding");
	out_time_opt(o, "expires", nd->expires);
	if (k->has_path) {
		out_arr_open(o, "path");
		for (j = 0; j <= k->path.len; j++) {
			const wot_node *p = wot_node_at(r->c.g, k->path.node[j]);
			out_hex(o, NULL, p->fpr.v, p->fpr.len, 0);
		}
		out_arr_close(o);
	} else {
		out_null(o, "path");
	}
	out_close(o);
}

static void
print_json(mt_run *r)
{
	out_ctx o;
	size_t i, j;
	const wot_node *root = wot_node_at(r->c.g, (uint32_t)r->c.root);

	out_init(&o, stdout, 1);
	out_open(&o, NULL, NULL);
	out_str0(&o, "file", r->file);
	out_time(&o, "at", r->c.t);
	out_int(&o, "within", (long long)r->within);
	out_hex(&o, "root", root->fpr.v, root->fpr.len, 0);
	out_int(&o, "max_depth", MAINT_CLI_MAX_DEPTH);
	out_arr_open(&o, "addresses");
	for (i = 0; i < r->na; i++) {
		const addr_info *a = &r->a[i];
		out_open(&o, NULL, NULL);
		out_str(&o, "email", a->email.p, a->email.len);
		out_text(&o, "role", "%c", a->role);
		out_text(&o, "status", "%s", status_word[a->st]);
		out_arr_open(&o, "sections");
		for (j = 0; j < a->nsecs; j++) {
			const maint_section *s = maint_section_at(r->m, a->secs[j]);
			out_str(&o, NULL, s->title.p, s->title.len);
		}
		out_arr_close(&o);
		out_arr_open(&o, "keys");
		for (j = 0; j < a->nkeys; j++)
			json_key(r, &o, &a->keys[j]);
		out_arr_close(&o);
		out_close(&o);
	}
	out_arr_close(&o);
	out_arr_open(&o, "no_address");
	for (i = 0; i < maint_nentries(r->m); i++) {
		const maint_entry *e = maint_entry_at(r->m, i);
		if ((e->type == 'M' || (e->type == 'R' && r->reviewers)) && e->email.len == 0) {
			out_open(&o, NULL, NULL);
			out_int(&o, "line", e->line);
			out_text(&o, "type", "%c", e->type);
			out_str(&o, "value", e->value.p, e->value.len);
			out_str(&o, "section", maint_section_at(r->m, section_of(r->m, i))->title.p,
			    maint_section_at(r->m, section_of(r->m, i))->title.len);
			out_close(&o);
		}
	}
	out_arr_close(&o);
	out_open(&o, "counts", NULL);
	for (i = 0; i <= ST_NO_KEY; i++)
		out_int(&o, status_word[i], (long long)count(r, (addr_status)i, (addr_status)i));
	out_int(&o, "no-address", (long long)no_address_count(r));
	out_close(&o);
	out_close(&o);
	out_finish(&o);
}

static void
mt_free(mt_run *r)
{
	size_t i;
	for (i = 0; i < r->na; i++) {
		free(r->a[i].secs);
		free(r->a[i].keys);
	}
	free(r->a);
	wot_search_free(r->search);
	maint_free(r->m);
	wot_cli_close(&r->c);
}

int
cmd_maintainers(int argc, char **argv)
{
	mt_run r;
	cli_file f;
	const char *val;
	int i, rc, x;

	memset(&r, 0, sizeof r);
	wot_cli_init(&r.c, "maintainers");
	r.within = 30 * 86400;
	for (i = 1; i < argc; i++) {
		if ((x = wot_cli_opt(&r.c, argc, argv, &i)) != 0) {
			if (x < 0)
				return EXIT_USAGE;
		} else if (cli_opt_value(argc, argv, &i, "--within", &val)) {
			if (!val || cli_parse_duration(val, &r.within) != 0) {
				cli_msg(r.c.cmd, "--within needs a duration: N[s|m|h|d|w|y] (N days alone)");
				return EXIT_USAGE;
			}
		} else if (strcmp(argv[i], "--reviewers") == 0) {
			r.reviewers = 1;
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			usage(stdout);
			return EXIT_OK;
		} else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			cli_msg(r.c.cmd, "unknown option %s", argv[i]);
			usage(stderr);
			return EXIT_USAGE;
		} else if (r.file == NULL) {
			r.file = argv[i];
		} else {
			usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (r.file == NULL) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (maint_cli_load(r.file, &f, &r.m) != 0)
		return EXIT_USAGE;
	if (wot_cli_open(&r.c, 1) != 0 || collect(&r) != 0 || evaluate(&r) != 0) {
		cli_file_close(&f);
		mt_free(&r);
		return EXIT_USAGE;
	}
	if (r.c.json)
		print_json(&r);
	else
		print_human(&r);
	rc = count(&r, ST_EXPIRING, ST_NO_KEY) || no_address_count(&r) ? EXIT_FAIL : EXIT_OK;
	fflush(stdout);
	mt_free(&r);
	cli_file_close(&f);
	return rc;
}
