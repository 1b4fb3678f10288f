/*
 * cert_merge.c - one certificate from several copies of the same primary
 * key. see cert_int.h (pgp__cert_merge) and docs/semantics.md "Copies of
 * one key".
 *
 * RFC 9580 §10.1 describes one transferable public key; keyrings in the wild
 * hold several copies of it (two exports, an old and a new file). Like
 * GnuPG's import merge and Sequoia's Cert::merge, the result is the union:
 * user IDs and user attributes by identical packet body, subkeys by
 * fingerprint, and every signature once (identical octets are one
 * signature). Stand-alone key revocations naming the key become its
 * `loose` list. Nothing is checked here: evaluation decides what counts.
 */
#include <stdlib.h>
#include <string.h>
#include "cert.h"
#include "cert_int.h"
#include "limits.h"
#include "err_int.h"

/* One signature on its way into the merged certificate. */
typedef struct msig {
	uint32_t comp;        /* 0 direct, 1..nu user IDs, then subkeys, last loose */
	uint32_t seq;         /* order of first appearance */
	const pgp_rd *sig;
} msig;

static int
by_octets(const void *a, const void *b)
{
	const msig *x = a, *y = b;
	int c;
	if (x->comp != y->comp)
		return x->comp < y->comp ? -1 : 1;
	if (x->sig->len != y->sig->len)
		return x->sig->len < y->sig->len ? -1 : 1;
	if ((c = memcmp(x->sig->p, y->sig->p, x->sig->len)) != 0)
		return c;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
by_order(const void *a, const void *b)
{
	const msig *x = a, *y = b;
	if (x->comp != y->comp)
		return x->comp < y->comp ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int
same_uid(const pgp_uidc *a, const pgp_uidc *b)
{
	return a->is_attr == b->is_attr && a->data.len == b->data.len &&
	    memcmp(a->data.p, b->data.p, a->data.len) == 0;
}

static int
same_key(const pgp_key *a, const pgp_key *b)
{
	return a->fpr.len == b->fpr.len && memcmp(a->fpr.v, b->fpr.v, a->fpr.len) == 0;
}

static pgp_err
too_many(pgp_diag *diag, const pgp_cert *c, int tag, const char *what)
{
	return pgp__fail(diag, PGP_ERR_LIMIT, c->off, tag, what);
}

/* see cert_int.h */
pgp_err
pgp__cert_merge(pgp_cert **out, const pgp_cert *const *copies, size_t n,
    const pgp_rd *loose, size_t nloose, pgp_diag *diag)
{
	const pgp_uidc **uids = NULL;
	const pgp_subc **subs = NULL;
	uint32_t *uid_of = NULL, *sub_of = NULL; /* per copy component: union index */
	size_t maxu = 0, maxs = 0, total = nloose, nu = 0, ns = 0, k, i, j, m, nm = 0;
	size_t bytes, fill, comps;
	msig *sigs = NULL;
	pgp_cert *c = NULL;
	pgp_rd *pool;
	pgp_err e = PGP_ERR_NOMEM;

	*out = NULL;
	for (k = 0; k < n; k++) {
		maxu += copies[k]->nuids;
		maxs += copies[k]->nsubs;
		total += copies[k]->ndsigs;
		for (i = 0; i < copies[k]->nuids; i++)
			total += copies[k]->uids[i].nsigs;
		for (i = 0; i < copies[k]->nsubs; i++)
			total += copies[k]->subs[i].nsigs;
	}
	uids = calloc(maxu ? maxu : 1, sizeof *uids);
	subs = calloc(maxs ? maxs : 1, sizeof *subs);
	uid_of = calloc(maxu ? maxu : 1, sizeof *uid_of);
	sub_of = calloc(maxs ? maxs : 1, sizeof *sub_of);
	sigs = calloc(total ? total : 1, sizeof *sigs);
	if (!uids || !subs || !uid_of || !sub_of || !sigs)
		goto out;

	/* the union of the components, in order of first appearance */
	for (k = 0, m = 0; k < n; k++)
		for (i = 0; i < copies[k]->nuids; i++, m++) {
			const pgp_uidc *u = &copies[k]->uids[i];
			for (j = 0; j < nu && !same_uid(uids[j], u); j++)
				;
			if (j == nu)
				uids[nu++] = u;
			uid_of[m] = (uint32_t)j;
		}
	for (k = 0, m = 0; k < n; k++)
		for (i = 0; i < copies[k]->nsubs; i++, m++) {
			const pgp_subc *sc = &copies[k]->subs[i];
			for (j = 0; j < ns && !same_key(&subs[j]->key, &sc->key); j++)
				;
			if (j == ns)
				subs[ns++] = sc;
			sub_of[m] = (uint32_t)j;
		}
	if (nu > PGP_MAX_UIDS) {
		e = too_many(diag, copies[0], PGP_TAG_USER_ID,
		    "merged copies of one certificate hold more than PGP_MAX_UIDS user IDs");
		goto out;
	}
	if (ns > PGP_MAX_SUBKEYS) {
		e = too_many(diag, copies[0], PGP_TAG_PUBLIC_SUBKEY,
		    "merged copies of one certificate hold more than PGP_MAX_SUBKEYS subkeys");
		goto out;
	}

	/* every signature, tagged with its union component */
	{
		size_t mu = 0, ms = 0;
		uint32_t seq = 0;
		for (k = 0; k < n; k++) {
			const pgp_cert *cp = copies[k];
			for (i = 0; i < cp->ndsigs; i++)
				sigs[nm++] = (msig){0, seq++, &cp->dsigs[i]};
			for (i = 0; i < cp->nuids; i++, mu++)
				for (j = 0; j < cp->uids[i].nsigs; j++)
					sigs[nm++] = (msig){1 + uid_of[mu], seq++, &cp->uids[i].sigs[j]};
			for (i = 0; i < cp->nsubs; i++, ms++)
				for (j = 0; j < cp->subs[i].nsigs; j++)
					sigs[nm++] = (msig){(uint32_t)(1 + nu) + sub_of[ms], seq++,
					    &cp->subs[i].sigs[j]};
		}
		for (i = 0; i < nloose; i++)
			sigs[nm++] = (msig){(uint32_t)(1 + nu + ns), seq++, &loose[i]};
	}
	/* identical octets on one component are one signature (the first) */
	if (nm)
		qsort(sigs, nm, sizeof *sigs, by_octets);
	for (i = 0, j = 0; i < nm; i++)
		if (j == 0 || sigs[j - 1].comp != sigs[i].comp ||
		    sigs[j - 1].sig->len != sigs[i].sig->len ||
		    memcmp(sigs[j - 1].sig->p, sigs[i].sig->p, sigs[i].sig->len) != 0)
			sigs[j++] = sigs[i];
	nm = j;
	if (nm)
		qsort(sigs, nm, sizeof *sigs, by_order);

	/* one allocation; each list gets one unused slot after it, so that no
	 * two lists (an empty one and the next) ever start at the same address */
	comps = 1 + nu + ns + 1;
	bytes = sizeof *c + nu * sizeof(pgp_uidc) + ns * sizeof(pgp_subc) +
	    (nm + comps) * sizeof(pgp_rd);
	if ((c = calloc(1, bytes)) == NULL)
		goto out;
	c->uids = (pgp_uidc *)(void *)(c + 1);
	c->subs = (pgp_subc *)(void *)(c->uids + nu);
	pool = (pgp_rd *)(void *)(c->subs + ns);
	c->primary = copies[0]->primary;
	c->off = copies[0]->off;
	c->raw = copies[0]->raw;
	c->ncopies = (uint32_t)n;
	c->nuids = (uint32_t)nu;
	c->nsubs = (uint32_t)ns;
	for (i = 0; i < nu; i++) {
		c->uids[i].is_attr = uids[i]->is_attr;
		c->uids[i].data = uids[i]->data;
	}
	for (i = 0; i < ns; i++)
		c->subs[i].key = subs[i]->key;
	fill = 0;
	for (m = 0, i = 0; m < comps; m++) {
		pgp_rd *list = &pool[fill];
		uint32_t cnt = 0;
		for (; i < nm && sigs[i].comp == m; i++)
			list[cnt++] = *sigs[i].sig;
		fill += cnt + 1;
		if (cnt > PGP_MAX_SIGS_PER_COMP) {
			int tag = m == 0 || m == comps - 1 ? PGP_TAG_PUBLIC_KEY :
			    m <= nu ? PGP_TAG_USER_ID : PGP_TAG_PUBLIC_SUBKEY;
			e = too_many(diag, copies[0], tag,
			    "merged copies put more than PGP_MAX_SIGS_PER_COMP signatures on one component");
			free(c);
			c = NULL;
			goto out;
		}
		if (m == 0) {
			c->dsigs = list;
			c->ndsigs = cnt;
		} else if (m <= nu) {
			c->uids[m - 1].sigs = list;
			c->uids[m - 1].nsigs = cnt;
		} else if (m < comps - 1) {
			c->subs[m - 1 - nu].sigs = list;
			c->subs[m - 1 - nu].nsigs = cnt;
		} else {
			c->loose = list;
			c->nloose = cnt;
		}
	}
	*out = c;
	e = PGP_OK;
out:
	free(uids);
	free(subs);
	free(uid_of);
	free(sub_of);
	free(sigs);
	return e;
}
