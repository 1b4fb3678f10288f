/* wot_int.h - the layout of a wot_graph (keyring/wot.c, wot_path.c). */
#ifndef KR_WOT_INT_H
#define KR_WOT_INT_H

#include "wot.h"

/* Compressed rows: row i is v[off[i] .. off[i+1]). */
typedef struct wot_adj {
	uint32_t *off;     /* nnodes + 1 entries */
	uint32_t *v;
} wot_adj;

struct wot_graph {
	int64_t t;
	pgp_policy pol_copy;
	const pgp_policy *pol;
	kr_keyring *kr;
	size_t nnodes;
	wot_node *nodes;
	uint32_t *by_rank;        /* rank -> node */
	pgp_err *uid_status;      /* all nodes' user ID states, sliced per node */
	const char **uid_reason;
	uint8_t *sub_certify;     /* per subkey: valid at t with the certify flag */
	uint32_t *sub_off;        /* nnodes + 1: node i's subkeys start here */
	wot_cert *certs;
	size_t ncerts;
	wot_adj issued, received; /* certification indexes, any state */
	wot_adj succ, pred;       /* usable key-level edges, by rank */
};

/* The last step of wot_build, also for tests that assemble a graph by
 * hand: with nnodes, nodes[] (fpr, keyid, state, cert with nuids,
 * uid_status) and certs[] (sorted by (target, uid, issuer)) filled in and
 * everything else zero, compute the ranks and the adjacency. The graph is
 * freed with wot_free(), also after an error. */
pgp_err wot__finish(wot_graph *g);

#endif
