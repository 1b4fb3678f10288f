/*
 * cert.c - certificate assembly (RFC 9580 §10.1 transferable public keys):
 * one certificate from the packets of one copy. The set of certificates
 * (merging copies, indexes, lookups) is certset.c. see cert.h
 *
 *   Primary-Key [Revocation/Direct-Key signatures...]
 *   [User ID | User Attribute [Signature...]]...
 *   [Subkey [Binding/Revocation signature...]]...
 *
 * Grammar violations that do not lose data are tolerated the way keyrings in
 * the wild need (signatures before any component attach to the primary key;
 * trust, marker and padding packets are ignored).
 */
#include <stdlib.h>
#include <string.h>
#include "cert.h"
#include "cert_int.h"
#include "limits.h"
#include "err_int.h"

int
pgp__is_primary_tag(int tag)
{
	return tag == PGP_TAG_PUBLIC_KEY || tag == PGP_TAG_SECRET_KEY;
}

static int
is_subkey_tag(int tag)
{
	return tag == PGP_TAG_PUBLIC_SUBKEY || tag == PGP_TAG_SECRET_SUBKEY;
}

static int
is_uid_tag(int tag)
{
	return tag == PGP_TAG_USER_ID || tag == PGP_TAG_USER_ATTRIBUTE;
}

#define STR_(x) #x
#define STR(x) STR_(x)

/* The refusal when one component carries more than PGP_MAX_SIGS_PER_COMP
 * signatures; diag->offset is the certificate's, diag->tag the component's. */
static pgp_err
too_many_sigs(pgp_diag *diag, size_t cert_off, int comp_tag)
{
	const char *what =
	    is_uid_tag(comp_tag) ? "a user ID of the certificate at this offset carries more than "
	    STR(PGP_MAX_SIGS_PER_COMP) " signatures (PGP_MAX_SIGS_PER_COMP)" :
	    is_subkey_tag(comp_tag) ? "a subkey of the certificate at this offset carries more than "
	    STR(PGP_MAX_SIGS_PER_COMP) " signatures (PGP_MAX_SIGS_PER_COMP)" :
	    "the primary key of the certificate at this offset carries more than "
	    STR(PGP_MAX_SIGS_PER_COMP) " signatures (PGP_MAX_SIGS_PER_COMP)";
	return pgp__fail(diag, PGP_ERR_LIMIT, cert_off, comp_tag, what);
}

/* see cert_int.h */
int
pgp__cert_next(pgp_rd *r, int *first, pgp_pkt *pkt, pgp_err *pending, pgp_diag *diag)
{
	pgp_rd save = *r;
	pgp_err e;
	if (pgp_rd_empty(r))
		return 0;
	if ((e = pgp_pkt_next(r, pkt, diag)) != PGP_OK) {
		*pending = e;
		*r = save;
		return 0;
	}
	pgp_pkt_release(pkt);
	if (pgp__is_primary_tag(pkt->tag) && !*first) {
		*r = save;
		return 0;
	}
	*first = 0;
	return 1;
}

/*
 * A scan reads one header per packet of a large keyring, each the next
 * link of a chain (its place depends on the previous length): without help
 * every one waits for memory. Ask for the input up to PREFETCH octets
 * ahead of the current packet, once per cache line, so that it streams in.
 */
#define PREFETCH 4096
#define LINE 64

static void
prefetch_ahead(const pgp_rd *start, const pgp_rd *r, size_t *ahead)
{
#if defined(__GNUC__)
	/* offsets from start->p: r->p lies within start's input */
	size_t cur = (size_t)(r->p - start->p);
	size_t lim = cur + (r->len < PREFETCH ? r->len : PREFETCH);
	if (*ahead < cur)
		*ahead = cur;
	for (; *ahead < lim; *ahead += LINE)
		__builtin_prefetch(start->p + *ahead);
#else
	(void)start;
	(void)r;
	(void)ahead;
#endif
}

/* see cert_int.h */
pgp_err
pgp__cert_scan(cert_counts *c, const pgp_rd *start, size_t max_sigs, pgp_err *pending,
    pgp_diag *diag, pgp_err (*key)(void *ctx, const pgp_pkt *pkt), void *ctx)
{
	pgp_rd r = *start;
	pgp_pkt pkt;
	int first = 1, comp_tag = PGP_TAG_PUBLIC_KEY;
	size_t comp_sigs = 0, ahead = 0;
	memset(c, 0, sizeof *c);
	*pending = PGP_OK;
	while (!pgp_rd_empty(&r)) {
		pgp_rd save = r;
		pgp_err e;
		if (key)
			prefetch_ahead(start, &r, &ahead);
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK) {
			*pending = e;
			r = save;
			break;
		}
		if (pgp__is_primary_tag(pkt.tag) && !first) {
			pgp_pkt_release(&pkt);
			r = save;
			break;
		}
		if (key && (first || is_subkey_tag(pkt.tag)) &&
		    (e = key(ctx, &pkt)) != PGP_OK) {
			pgp_pkt_release(&pkt);
			return e;
		}
		pgp_pkt_release(&pkt);
		first = 0;
		if (is_uid_tag(pkt.tag) || is_subkey_tag(pkt.tag)) {
			if (is_uid_tag(pkt.tag))
				c->nuids++;
			else
				c->nsubs++;
			comp_tag = pkt.tag;
			comp_sigs = 0;
		} else if (pkt.tag == PGP_TAG_SIGNATURE) {
			c->nsigs++;
			/* a flood on one component refuses the certificate (the
			 * set records what it speaks about: certset.c) */
			if (++comp_sigs > max_sigs)
				return too_many_sigs(diag, start->off, comp_tag);
		}
	}
	if (first && *pending != PGP_OK)
		return *pending; /* not even the primary key frames */
	if (c->nuids > PGP_MAX_UIDS || c->nsubs > PGP_MAX_SUBKEYS) {
		if (diag) {
			diag->offset = start->off;
			diag->tag = PGP_TAG_PUBLIC_KEY;
			diag->what = c->nuids > PGP_MAX_UIDS ?
			    "more than 1024 user IDs in one certificate (PGP_MAX_UIDS)" :
			    "more than 1024 subkeys in one certificate (PGP_MAX_SUBKEYS)";
		}
		return PGP_ERR_LIMIT;
	}
	c->end = (size_t)(r.p - start->p);
	return PGP_OK;
}

/* see cert_int.h */
pgp_err
pgp__cert_count(cert_counts *c, const pgp_rd *start, size_t max_sigs, pgp_err *pending,
    pgp_diag *diag)
{
	return pgp__cert_scan(c, start, max_sigs, pending, diag, NULL, NULL);
}

/* see cert_int.h */
pgp_err
pgp__cert_build(pgp_cert **out, const pgp_rd *start, const cert_counts *c, pgp_diag *diag)
{
	size_t bytes;
	pgp_cert *cert;
	pgp_rd r, *sigpool;
	pgp_pkt pkt;
	pgp_err e;
	/* which component the next signature belongs to */
	enum { ON_PRIMARY, ON_UID, ON_SUB, ON_NOTHING } on = ON_PRIMARY;
	size_t nsig = 0;
	int first = 1;

	/* each component's list is followed by one unused slot, so that an
	 * empty list never starts where the next one does */
	bytes = sizeof *cert + c->nuids * sizeof(pgp_uidc) + c->nsubs * sizeof(pgp_subc) +
	    (c->nsigs + c->nuids + c->nsubs + 1) * sizeof(pgp_rd);
	cert = calloc(1, bytes);
	if (cert == NULL)
		return PGP_ERR_NOMEM;
	cert->uids = (pgp_uidc *)(void *)(cert + 1);
	cert->subs = (pgp_subc *)(void *)(cert->uids + c->nuids);
	sigpool = (pgp_rd *)(void *)(cert->subs + c->nsubs);
	cert->dsigs = sigpool;
	cert->off = start->off;
	cert->ncopies = 1;
	cert->raw.p = start->p;
	cert->raw.len = c->end;

	r.p = start->p;
	r.len = c->end;
	r.off = start->off;
	while (!pgp_rd_empty(&r)) {
		if ((e = pgp_pkt_next(&r, &pkt, diag)) != PGP_OK)
			goto fail;
		if (first) {
			first = 0;
			e = pgp_key_parse(&cert->primary, &pkt, diag);
			pgp_pkt_release(&pkt);
			if (e != PGP_OK)
				goto fail;
			continue;
		}
		switch (pkt.tag) {
		case PGP_TAG_SIGNATURE: {
			pgp_rd *slot = &sigpool[nsig++];
			*slot = pkt.body;
			if (on == ON_PRIMARY) {
				cert->ndsigs++;
			} else if (on == ON_UID) {
				cert->uids[cert->nuids - 1].nsigs++;
			} else if (on == ON_SUB) {
				cert->subs[cert->nsubs - 1].nsigs++;
			} else {
				nsig--;
			}
			break;
		}
		case PGP_TAG_USER_ID:
		case PGP_TAG_USER_ATTRIBUTE: {
			pgp_uidc *u = &cert->uids[cert->nuids++];
			u->is_attr = pkt.tag == PGP_TAG_USER_ATTRIBUTE;
			u->data = pgp_rd_as_view(&pkt.body);
			u->sigs = &sigpool[++nsig];
			on = ON_UID;
			break;
		}
		case PGP_TAG_PUBLIC_SUBKEY:
		case PGP_TAG_SECRET_SUBKEY: {
			pgp_subc *sc = &cert->subs[cert->nsubs];
			if (pgp_key_parse(&sc->key, &pkt, NULL) == PGP_OK) {
				sc->sigs = &sigpool[++nsig];
				cert->nsubs++;
				on = ON_SUB;
			} else {
				memset(sc, 0, sizeof *sc);
				on = ON_NOTHING;
			}
			break;
		}
		default:
			/* trust, marker, padding, unknown: not part of the cert */
			break;
		}
		pgp_pkt_release(&pkt);
	}
	*out = cert;
	return PGP_OK;
fail:
	free(cert);
	return e;
}

/* see cert.h */
const pgp_key *
pgp_cert_key_by_id(const pgp_cert *c, const uint8_t keyid[8], int *subkey_index)
{
	uint32_t i;
	if (memcmp(c->primary.keyid, keyid, 8) == 0) {
		if (subkey_index)
			*subkey_index = -1;
		return &c->primary;
	}
	for (i = 0; i < c->nsubs; i++)
		if (memcmp(c->subs[i].key.keyid, keyid, 8) == 0) {
			if (subkey_index)
				*subkey_index = (int)i;
			return &c->subs[i].key;
		}
	return NULL;
}

/* see cert.h */
const pgp_key *
pgp_cert_key_by_fpr(const pgp_cert *c, const pgp_fpr *fpr, int *subkey_index)
{
	uint32_t i;
	if (fpr->len == 0)
		return NULL;
	if (c->primary.fpr.len == fpr->len && memcmp(c->primary.fpr.v, fpr->v, fpr->len) == 0) {
		if (subkey_index)
			*subkey_index = -1;
		return &c->primary;
	}
	for (i = 0; i < c->nsubs; i++)
		if (c->subs[i].key.fpr.len == fpr->len &&
		    memcmp(c->subs[i].key.fpr.v, fpr->v, fpr->len) == 0) {
			if (subkey_index)
				*subkey_index = (int)i;
			return &c->subs[i].key;
		}
	return NULL;
}
