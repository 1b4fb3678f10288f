/*
 * gpg_trust.c - the drop-in's key validity: GnuPG's classic trust model
 * (keyring/trust.h) over a wotkit keyring, its recorded root ultimately
 * trusted and the ownertrust file KEYRING.trust beside it (the file
 * `wotkit wot trust` keeps). A raw keyring has neither: every key is
 * unknown, as in a fresh GnuPG home. Loaded on the first question only, so
 * a run that needs no validity (no public key) never builds the graph; the
 * values computed are kept in the validity cache (gpg_vcache.c), so the
 * next run over the same keyring and trust file builds nothing either.
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
	int loaded;
	gpg_vcache v;            /* the values, from the cache or computed */
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
	gpg_vcache_release(&t->v);
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
load_list(const char *path, wot_otlist *l)
{
	cli_file f;
	FILE *fp;
	pgp_diag d;
	pgp_err e;

	if ((fp = fopen(path, "rb")) == NULL)
		return errno == ENOENT ? 0 : -1;
	fclose(fp);
	if (cli_file_open(&f, path) != 0)
		return -1;
	memset(&d, 0, sizeof d);
	e = wot_otlist_parse(l, f.p, f.len, &d);
	cli_file_close(&f);
	if (e != PGP_OK) {
		cli_report(path, e, &d);
		return -1;
	}
	return 0;
}

static char
ot_letter(uint8_t v)
{
	switch (v & 0x0f) {
	case WOT_OT_ULTIMATE: return 'u';
	case WOT_OT_FULL: return 'f';
	case WOT_OT_MARGINAL: return 'm';
	case WOT_OT_NEVER: return 'n';
	case WOT_OT_UNDEFINED: return 'q';
	default: return '-';
	}
}

/* Widen nothing, narrow [*lo, *hi) around t by event time e. */
static void
event(int64_t e, int64_t t, int64_t *lo, int64_t *hi)
{
	if (e == 0)
		return;
	if (e <= t && e > *lo)
		*lo = e;
	if (e > t && e < *hi)
		*hi = e;
}

/* Compute every key's validity over the graph of c (at c->t) into t->v,
 * and the window [lo, hi) of reference times they hold for. */
static int
compute(gpg_trust *t, wot_cli *c, const uint8_t *ot, const wot_trust *tr, int64_t *lo,
    int64_t *hi)
{
	size_t n = wot_nnodes(c->g), i, k;
	uint32_t j;

	*lo = c->t - GPG_VCACHE_SPAN;
	*hi = c->t + GPG_VCACHE_SPAN;
	if ((t->v.e = calloc(n ? n : 1, sizeof *t->v.e)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		const wot_node *nd = wot_node_at(c->g, (uint32_t)i);
		gpg_ventry *e = &t->v.e[i];
		uint8_t kv = WOT_V_UNKNOWN;
		t->v.n = i + 1;
		if (tr != NULL)
			kv = (uint8_t)wot_trust_key(tr, (uint32_t)i);
		else if (nd->state == WOT_NODE_EXPIRED)
			kv = WOT_V_EXPIRED;
		else if (nd->state == WOT_NODE_REVOKED)
			kv = WOT_V_REVOKED;
		e->fpr = nd->fpr;
		e->key_validity = kv;
		e->ownertrust = ot_letter(ot[i]);
		e->nuids = nd->cert->nuids > 255 ? 255 : nd->cert->nuids;
		if (e->nuids && (e->uids = calloc(e->nuids, sizeof *e->uids)) == NULL)
			return -1;
		for (j = 0; j < e->nuids; j++) {
			gpg_vcache_uid_hash(e->uids[j].hash, &nd->cert->uids[j].data);
			e->uids[j].validity = tr != NULL ? (uint8_t)wot_trust_uid(tr, (uint32_t)i, j) : kv;
		}
		event(nd->created, c->t, lo, hi);
		event(nd->expires, c->t, lo, hi);
		event(nd->revoked_at, c->t, lo, hi);
	}
	for (k = 0; k < wot_ncerts(c->g); k++) {
		const wot_cert *wc = wot_cert_at(c->g, (uint32_t)k);
		event(wc->created, c->t, lo, hi);
		event(wc->expires, c->t, lo, hi);
	}
	return 0;
}

static void
load(gpg_trust *t)
{
	const gpg_opts *o = &t->r->o;
	char trust_path[GPG_MAX_PATH], cache[GPG_MAX_PATH];
	wot_trust_params p;
	wot_trust *tr = NULL;
	wot_otlist list;
	gpg_vstamp stamp;
	uint8_t *ot = NULL;
	size_t i, n;
	int64_t lo, hi;
	int any_ultimate = 0, cached;
	wot_cli c;

	t->loaded = 1;
	if (t->r->npaths != 1 || !is_wotkit_keyring(t->r->paths[0]))
		return;          /* raw keyrings: no root, no ownertrust */
	if (snprintf(trust_path, sizeof trust_path, "%s.trust", t->r->paths[0]) >=
	    (int)sizeof trust_path)
		return;
	cached = gpg_vcache_stamp(&stamp, t->r, t->r->paths[0], trust_path) == 0 &&
	    gpg_vcache_path(cache, sizeof cache, t->r->paths[0]) == 0;
	if (cached && gpg_vcache_load(&t->v, cache, &stamp, t->r->now))
		return;
	wot_cli_init(&c, "gpg");
	c.now = c.t = t->r->now;
	c.allow_sha1 = o->allow_weak_digest;
	c.sources[0] = t->r->paths[0];
	c.nsources = 1;
	wot_otlist_init(&list);
	if (wot_cli_open(&c, 0) != 0 || load_list(trust_path, &list) != 0)
		goto out;
	n = wot_nnodes(c.g);
	if ((ot = calloc(n ? n : 1, 1)) == NULL)
		goto out;
	wot_otlist_apply(&list, c.g, ot);
	if (c.root >= 0 && wot_otlist_get(&list, &wot_node_at(c.g, (uint32_t)c.root)->fpr) == 0)
		ot[c.root] = WOT_OT_ULTIMATE;
	for (i = 0; i < n; i++)
		any_ultimate |= (ot[i] & 0x0f) == WOT_OT_ULTIMATE;
	/* nothing ultimately trusted: nothing can be valid, skip the computation */
	if (any_ultimate) {
		wot_trust_params_default(&p);
		if (o->marginals_needed)
			p.marginals_needed = o->marginals_needed;
		if (o->completes_needed)
			p.completes_needed = o->completes_needed;
		if (o->max_cert_depth)
			p.max_cert_depth = o->max_cert_depth;
		if (wot_trust_compute(&tr, c.g, ot, &p) != PGP_OK)
			goto out;
	}
	if (compute(t, &c, ot, tr, &lo, &hi) != 0) {
		gpg_vcache_release(&t->v);
		goto out;
	}
	if (cached)
		gpg_vcache_store(cache, &stamp, lo, hi, t->v.e, t->v.n);
out:
	wot_trust_free(tr);
	free(ot);
	wot_otlist_release(&list);
	wot_cli_close(&c);
}

int
gpg_trust_validity(gpg_trust *t, const pgp_fpr *fpr, const pgp_view *uid, int *key_validity,
    int *uid_validity)
{
	const gpg_ventry *e;
	uint8_t h[8];
	uint32_t j;

	*key_validity = WOT_V_UNKNOWN;
	if (uid_validity)
		*uid_validity = WOT_V_UNKNOWN;
	if (t == NULL)
		return -1;
	if (!t->loaded)
		load(t);
	if ((e = gpg_vcache_find(&t->v, fpr)) == NULL)
		return 0;
	*key_validity = e->key_validity;
	if (uid_validity && uid && uid->p) {
		gpg_vcache_uid_hash(h, uid);
		for (j = 0; j < e->nuids; j++)
			if (memcmp(e->uids[j].hash, h, 8) == 0) {
				*uid_validity = e->uids[j].validity;
				break;
			}
	}
	return 0;
}

char
gpg_trust_ownertrust(gpg_trust *t, const pgp_fpr *fpr)
{
	const gpg_ventry *e;

	if (t == NULL)
		return '-';
	if (!t->loaded)
		load(t);
	return (e = gpg_vcache_find(&t->v, fpr)) != NULL ? e->ownertrust : '-';
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
