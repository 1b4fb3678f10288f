/*
 * gpg_trust.c - the drop-in's key validity: GnuPG's classic trust model
 * (keyring/trust.h) over a wotkit keyring, its recorded root ultimately
 * trusted and the ownertrust file KEYRING.trust beside it (the file
 * `wotkit wot trust` keeps). A raw keyring has neither: every key is
 * unknown, as in a fresh GnuPG home. Loaded on the first question only, so
 * a run that needs no validity (no public key) never builds the graph.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "gpg.h"
#include "wotcli.h"
#include "keyring/trust.h"
#include "keyring/ownertrust.h"

struct gpg_trust {
	gpg_run *r;
	int loaded, have_graph, have_list;
	wot_cli c;
	wot_otlist list;
	uint8_t *ot;
	wot_trust *t;
};

gpg_trust *
gpg_trust_new(gpg_run *r)
{
	gpg_trust *t = calloc(1, sizeof *t);

	if (t != NULL)
		t->r = r;
	return t;
}

void
gpg_trust_free(gpg_trust *t)
{
	if (t == NULL)
		return;
	wot_trust_free(t->t);
	free(t->ot);
	if (t->have_list)
		wot_otlist_release(&t->list);
	if (t->have_graph)
		wot_cli_close(&t->c);
	free(t);
}

/* 1 when path starts with the wotkit keyring magic. */
static int
is_wotkit_keyring(const char *path)
{
	uint8_t head[16];
	size_t n;
	FILE *fp = fopen(path, "rb");

	if (fp == NULL)
		return 0;
	n = fread(head, 1, sizeof head, fp);
	fclose(fp);
	return n > 0 && kr_is_keyring(head, n);
}

/* The trust file (absent: an empty list). 0 or -1 after a message. */
static int
load_list(gpg_trust *t)
{
	cli_file f;
	FILE *fp;
	pgp_diag d;
	pgp_err e;

	wot_otlist_init(&t->list);
	t->have_list = 1;
	if (t->c.trust_path[0] == '\0')
		return 0;
	if ((fp = fopen(t->c.trust_path, "rb")) == NULL)
		return errno == ENOENT ? 0 : -1;
	fclose(fp);
	if (cli_file_open(&f, t->c.trust_path) != 0)
		return -1;
	memset(&d, 0, sizeof d);
	e = wot_otlist_parse(&t->list, f.p, f.len, &d);
	cli_file_close(&f);
	if (e != PGP_OK) {
		cli_report(t->c.trust_path, e, &d);
		return -1;
	}
	return 0;
}

static void
load(gpg_trust *t)
{
	const gpg_opts *o = &t->r->o;
	wot_trust_params p;
	size_t i, n;
	int any_ultimate = 0;

	t->loaded = 1;
	if (t->r->npaths != 1 || !is_wotkit_keyring(t->r->paths[0]))
		return;          /* raw keyrings: no root, no ownertrust */
	wot_cli_init(&t->c, "gpg");
	t->c.now = t->c.t = t->r->now;
	t->c.allow_sha1 = o->allow_weak_digest;
	t->c.sources[0] = t->r->paths[0];
	t->c.nsources = 1;
	if (wot_cli_open(&t->c, 0) != 0) {
		wot_cli_close(&t->c);
		return;
	}
	t->have_graph = 1;
	if (load_list(t) != 0)
		return;
	n = wot_nnodes(t->c.g);
	if ((t->ot = calloc(n ? n : 1, 1)) == NULL)
		return;
	wot_otlist_apply(&t->list, t->c.g, t->ot);
	if (t->c.root >= 0 && wot_otlist_get(&t->list,
	    &wot_node_at(t->c.g, (uint32_t)t->c.root)->fpr) == 0)
		t->ot[t->c.root] = WOT_OT_ULTIMATE;
	for (i = 0; i < n; i++)
		any_ultimate |= (t->ot[i] & 0x0f) == WOT_OT_ULTIMATE;
	if (!any_ultimate)
		return;          /* nothing can be valid: skip the computation */
	wot_trust_params_default(&p);
	if (o->marginals_needed)
		p.marginals_needed = o->marginals_needed;
	if (o->completes_needed)
		p.completes_needed = o->completes_needed;
	if (o->max_cert_depth)
		p.max_cert_depth = o->max_cert_depth;
	if (wot_trust_compute(&t->t, t->c.g, t->ot, &p) != PGP_OK)
		t->t = NULL;
}

int
gpg_trust_validity(gpg_trust *t, const pgp_fpr *fpr, const pgp_view *uid, int *key_validity,
    int *uid_validity)
{
	int64_t node;
	uint32_t j;
	const wot_node *nd;

	*key_validity = WOT_V_UNKNOWN;
	if (uid_validity)
		*uid_validity = WOT_V_UNKNOWN;
	if (t == NULL)
		return -1;
	if (!t->loaded)
		load(t);
	if (!t->have_graph || (node = wot_find_fpr(t->c.g, fpr)) < 0)
		return 0;
	nd = wot_node_at(t->c.g, (uint32_t)node);
	if (t->t == NULL) {
		/* no ultimately trusted key: only what the key's own state says */
		if (nd->state == WOT_NODE_EXPIRED)
			*key_validity = WOT_V_EXPIRED;
		else if (nd->state == WOT_NODE_REVOKED)
			*key_validity = WOT_V_REVOKED;
		if (uid_validity)
			*uid_validity = *key_validity;
		return 0;
	}
	*key_validity = wot_trust_key(t->t, (uint32_t)node);
	if (uid_validity && uid && uid->p) {
		for (j = 0; j < nd->cert->nuids; j++) {
			const pgp_uidc *u = &nd->cert->uids[j];
			if (!u->is_attr && u->data.len == uid->len &&
			    memcmp(u->data.p, uid->p, uid->len) == 0) {
				*uid_validity = wot_trust_uid(t->t, (uint32_t)node, j);
				break;
			}
		}
	}
	return 0;
}

char
gpg_trust_ownertrust(gpg_trust *t, const pgp_fpr *fpr)
{
	int64_t node;
	uint8_t v;

	if (t == NULL)
		return '-';
	if (!t->loaded)
		load(t);
	if (!t->have_graph || t->ot == NULL || (node = wot_find_fpr(t->c.g, fpr)) < 0)
		return '-';
	v = t->ot[node] & 0x0f;
	switch (v) {
	case WOT_OT_ULTIMATE: return 'u';
	case WOT_OT_FULL: return 'f';
	case WOT_OT_MARGINAL: return 'm';
	case WOT_OT_NEVER: return 'n';
	case WOT_OT_UNDEFINED: return 'q';
	default: return '-';
	}
}

const char *
gpg_validity_word(int v)
{
	switch ((wot_validity)v) {
	case WOT_V_ULTIMATE: return "ultimate";
	case WOT_V_FULL: return "full";
	case WOT_V_MARGINAL: return "marginal";
	case WOT_V_UNDEFINED: return "undefined";
	case WOT_V_EXPIRED: return "expired";
	case WOT_V_REVOKED: return "revoked";
	default: return "unknown";
	}
}
