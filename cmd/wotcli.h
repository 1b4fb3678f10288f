/*
 * wotcli.h - what every `wotkit wot` subcommand shares: its common options,
 * the keyring (a wotkit keyring file, or raw sources stripped and built in
 * memory), the policy, the reference time, the graph and KEY lookup.
 */
#ifndef WOTKIT_WOTCLI_H
#define WOTKIT_WOTCLI_H

#include <stdint.h>
#include <stdio.h>
#include "cli.h"
#include "certs.h"
#include "keyring/kr.h"
#include "keyring/strip.h"
#include "keyring/wot.h"

#define WOT_CLI_MAX_SOURCES 64

typedef struct wot_cli {
	const char *cmd;                 /* "wot path", ... for messages */
	/* options */
	const char *sources[WOT_CLI_MAX_SOURCES];
	size_t nsources;
	const char *root_arg, *trust_file_arg, *policy_file;
	int64_t now, t;
	int64_t policy_as_of;            /* 0: none */
	int allow_sha1;
	int json;
	/* state after wot_cli_open */
	pgp_policy pol;
	certs_ring ring;                 /* a wotkit keyring file */
	int ring_open;
	kr_keyring *kr;                  /* ring.kr or the in-memory build */
	kr_keyring *mem_kr;
	uint8_t *mem;                    /* the in-memory keyring's octets (malloc'ed;
	                                    a caller may set it, with mem_len and no
	                                    sources, before wot_cli_open) */
	size_t mem_len;
	pgp_certset *set;                /* raw sources */
	kr_strip_result strip;           /* raw sources: with per-signature details */
	int have_strip;
	char defpath[4096];
	char trust_path[4096];           /* "" when there is none */
	wot_graph *g;
	int64_t root;                    /* node, -1 when none */
} wot_cli;

/* Defaults (now = time(NULL), t = now). */
void wot_cli_init(wot_cli *c, const char *cmd);
/*
 * If argv[*i] is a common option (--keyring, --at, --policy, --policy-as-of,
 * --allow-sha1, --root, --trust-file, --json), take it (and its value) and
 * return 1; 0 when it is not; -1 after printing a usage error.
 */
int wot_cli_opt(wot_cli *c, int argc, char **argv, int *i);
/*
 * Load the keyring and build the graph at c->t under the policy. need_root:
 * fail when no root is known (neither --root nor the keyring's recorded
 * root). Prints its errors; 0 or -1.
 */
int wot_cli_open(wot_cli *c, int need_root);
/* Build another graph over the same keyring under another policy (the
 * audit's baseline). Prints its errors; 0 or -1. */
int wot_cli_graph(wot_cli *c, const pgp_policy *pol, wot_graph **out);
void wot_cli_close(wot_cli *c);

/*
 * KEY: a fingerprint (40 or 64 hex digits), a key ID (16 hex digits, an
 * optional 0x), or an e-mail address / user ID substring (ASCII case
 * ignored) that must name one certificate. Prints a usage error naming the
 * candidates when it names none or several; 0 or -1.
 */
int wot_cli_key(wot_cli *c, const char *key, uint32_t *node);

/* Where a search starts: KEY `from`, or the root when from is NULL (open
 * with need_root then). 0, or -1 after a message. */
int wot_cli_from(wot_cli *c, const char *from, uint32_t *node);

/* "79BE3E4300411886" (upper-case hex, 17 octets with NUL). */
void wot_cli_keyid(const wot_node *n, char out[17]);
/* The node's primary user ID at t, or its first user ID, or "" (a view
 * into the certificate: not NUL-terminated). */
pgp_view wot_cli_uid(const wot_node *n);

/* Ownertrust of every node from the trust file, as WOT_OUT_* codes
 * (cmd/wot_out.h: 6 ultimate, 5 full, 4 marginal, 0 otherwise) into
 * ot[wot_nnodes]; nodes without an entry are left as they are
 * (cmd/wot_trust.c). */
void wot_cli_ownertrust(wot_cli *c, uint8_t *ot);
/* Ownertrust of every node as trust.h values (for wot_trust_compute), malloc'ed
 * into *out: the trust file, and the root ultimate unless the file names it
 * (cmd/wot_trust.c). Prints its errors; 0 or -1. */
int wot_cli_ownertrust_of_nodes(wot_cli *c, uint8_t **out);
/* Shared option parsing: "--maxdepth N" style numbers from lo to hi;
 * 1 taken, 0 not this option, -1 after a usage error. */
int wot_num_opt(wot_cli *c, int argc, char **argv, int *i, const char *name, unsigned lo,
    unsigned hi, unsigned *out);
/* "--name VALUE" strings: 1 taken (*out set), 0 not this option, -1
 * after a usage error. */
int wot_str_opt(wot_cli *c, int argc, char **argv, int *i, const char *name, const char **out);
/* Ownertrust colours for graphs (the root ultimate), malloc'ed. */
uint8_t *wot_colours(wot_cli *c);

/* The subcommands (cmd/wot*.c). */
int wot_cmd_path(wot_cli *c, int argc, char **argv);
int wot_cmd_why(wot_cli *c, int argc, char **argv);
int wot_cmd_graphs(wot_cli *c, int argc, char **argv);
int wot_cmd_audit(wot_cli *c, int argc, char **argv);
int wot_cmd_trust(wot_cli *c, int argc, char **argv);
int wot_cmd_validity(wot_cli *c, int argc, char **argv);
int wot_cmd_stats(wot_cli *c, int argc, char **argv);

#endif
