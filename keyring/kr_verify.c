/*
 * kr_verify.c - the whole-file check of a keyring (docs/keyring-format.md,
 * "Integrity"): what kr_open and the lookups check lazily, done for every
 * block and certificate, plus the structure a checksum cannot vouch for
 * (a file whose checksums were all recomputed after a change): order and
 * uniqueness of every index, each index entry against its certificate,
 * every key and address findable, the certificates tiling their section,
 * each edge backed by a stored certification, the counts of the table and
 * of the statistics. see kr.h
 */
#include <stdlib.h>
#include <string.h>
#include "kr_int.h"

static pgp_err
bad(pgp_diag *d, pgp_err e, uint64_t off, const char *what)
{
	if (d) {
		d->offset = (size_t)off;
		d->tag = -1;
		d->what = what;
	}
	return e;
}

/* A lookup failure: the keyring's own diagnostic, if any. */
static pgp_err
from_kr(const kr_keyring *k, pgp_err e, pgp_diag *d, const char *what)
{
	const pgp_diag *l = kr_last_error(k);
	return bad(d, e, l->what ? l->offset : 0, l->what ? l->what : what);
}

/* Every block of fixed-record section id, and the records in strictly
 * increasing octet order over their first cmplen octets (non-decreasing
 * when strict is 0). */
static pgp_err
check_order(const kr_keyring *k, uint32_t id, size_t cmplen, int strict, const char *unsorted,
    pgp_diag *d)
{
	uint64_t i, n = kr__rec_count(k, id);
	pgp_rd r, prev;
	pgp_err e;
	for (i = 0; i < n; i++) {
		if ((e = kr__rec(k, id, i, &r, d)) != PGP_OK)
			return e;
		if (i > 0) {
			int c = memcmp(prev.p, r.p, cmplen);
			if (c > 0 || (strict && c == 0))
				return bad(d, PGP_ERR_MALFORMED, r.off, unsorted);
		}
		prev = r;
	}
	return PGP_OK;
}

static int
found(const uint32_t *v, size_t n, size_t ci)
{
	size_t i;
	for (i = 0; i < n; i++)
		if (v[i] == ci)
			return 1;
	return 0;
}

/* Certificate ci must be among the answers to q. */
static pgp_err
findable(kr_keyring *k, pgp_certq_kind kind, const uint8_t *p, size_t len, size_t ci,
    const char *missing, pgp_diag *d)
{
	uint32_t idx[PGP_MAX_KEYID_CERTS];
	size_t total = 0;
	pgp_certq q;
	pgp_err e;
	q.kind = kind;
	q.p = p;
	q.len = len;
	if ((e = kr_find(k, &q, idx, PGP_MAX_KEYID_CERTS, &total)) != PGP_OK)
		return from_kr(k, e, d, missing);
	if (!found(idx, total < PGP_MAX_KEYID_CERTS ? total : PGP_MAX_KEYID_CERTS, ci))
		return bad(d, PGP_ERR_MALFORMED, 0, missing);
	return PGP_OK;
}

/* Number of distinct addresses (ASCII case ignored) among c's user IDs. */
static size_t
distinct_emails(const pgp_cert *c)
{
	size_t n = 0;
	uint32_t i, j;
	for (i = 0; i < c->nuids; i++) {
		pgp_view a, b;
		int dup = 0;
		if (c->uids[i].is_attr || !pgp_uid_email(c->uids[i].data, &a))
			continue;
		for (j = 0; j < i && !dup; j++)
			dup = !c->uids[j].is_attr && pgp_uid_email(c->uids[j].data, &b) &&
			    pgp_email_cmp(a.p, a.len, b.p, b.len) == 0;
		n += !dup;
	}
	return n;
}

/* The certificate table, the certificates, and their keys and addresses
 * through the lookups. Sums the expected index sizes. */
static pgp_err
check_certs(kr_keyring *k, uint64_t *nkeys, uint64_t *nemails, kr_stats *sum, pgp_diag *d)
{
	uint64_t i, n = kr_count(k), at = 0;
	kr_certinfo info, prev;
	pgp_err e;
	for (i = 0; i < n; i++) {
		const pgp_cert *c;
		uint64_t off;
		uint32_t len, j;
		if ((e = kr_cert_info(k, i, &info)) != PGP_OK ||
		    (e = kr__cert_place(k, i, &off, &len)) != PGP_OK)
			return from_kr(k, e, d, "keyring certificate table: unreadable entry");
		if (i > 0 && pgp_fpr_cmp(&prev.fpr, &info.fpr) >= 0)
			return bad(d, PGP_ERR_MALFORMED, 0,
			    "keyring certificate table: not in strictly increasing fingerprint order");
		if (off != at)
			return bad(d, PGP_ERR_MALFORMED, off,
			    "keyring certificate table: certificates overlap or leave a gap in the data section");
		at = off + len;
		if ((e = kr_cert(k, (size_t)i, &c)) != PGP_OK)
			return from_kr(k, e, d, "keyring certificate data: unusable certificate");
		if (info.nuids != c->nuids || info.nsubs != c->nsubs ||
		    info.version != c->primary.version || info.algo != c->primary.algo)
			return bad(d, PGP_ERR_MALFORMED, 0,
			    "keyring certificate table: counts or key data differ from the stored certificate");
		sum->uids += info.nuids;
		sum->subkeys += info.nsubs;
		sum->sigs += info.kept_sigs;
		sum->certifications += info.kept_certifications;
		/* every key by fingerprint and key ID, every address */
		for (j = 0; j <= c->nsubs; j++) {
			const pgp_key *key = j == 0 ? &c->primary : &c->subs[j - 1].key;
			if ((e = findable(k, PGP_CERTQ_FPR, key->fpr.v, key->fpr.len, (size_t)i,
			    "keyring fingerprint index: a stored key is not found by its fingerprint", d)) != PGP_OK ||
			    (e = findable(k, PGP_CERTQ_KEYID, key->keyid, 8, (size_t)i,
			    "keyring key ID index: a stored key is not found by its key ID", d)) != PGP_OK)
				return e;
		}
		for (j = 0; j < c->nuids; j++) {
			pgp_view a;
			if (c->uids[j].is_attr || !pgp_uid_email(c->uids[j].data, &a))
				continue;
			if ((e = findable(k, PGP_CERTQ_EMAIL, a.p, a.len, (size_t)i,
			    "keyring e-mail index: a stored address is not found", d)) != PGP_OK)
				return e;
		}
		*nkeys += 1u + c->nsubs;
		*nemails += distinct_emails(c);
		prev = info;
	}
	if (at != kr__data_len(k))
		return bad(d, PGP_ERR_MALFORMED, at,
		    "keyring certificate data: octets after the last certificate");
	return PGP_OK;
}

/* Index entries name a certificate that holds the key or address. */
static pgp_err
check_entries(kr_keyring *k, uint32_t id, pgp_diag *d)
{
	uint64_t i, n = kr__rec_count(k, id);
	pgp_rd r;
	pgp_err e;
	for (i = 0; i < n; i++) {
		const pgp_cert *c;
		const uint8_t *p;
		uint32_t ci, j;
		int ok = 0;
		if ((e = kr__rec(k, id, i, &r, d)) != PGP_OK)
			return e;
		p = r.p;
		ci = pgp_be32(p + r.len - 4);
		if (ci >= kr_count(k))
			return bad(d, PGP_ERR_MALFORMED, r.off, "keyring index: entry names a certificate out of range");
		if ((e = kr_cert(k, ci, &c)) != PGP_OK)
			return from_kr(k, e, d, "keyring certificate data: unusable certificate");
		if (id == KR_S_FPR) {
			pgp_fpr f;
			static const uint8_t zero[PGP_FPR_MAX];
			memset(&f, 0, sizeof f);
			f.len = p[0];
			ok = (f.len == 16 || f.len == 20 || f.len == 32) && memcmp(p + 1, zero, 3) == 0 &&
			    memcmp(p + 4 + f.len, zero, PGP_FPR_MAX - f.len) == 0;
			if (ok) {
				memcpy(f.v, p + 4, f.len);
				ok = pgp_cert_key_by_fpr(c, &f, NULL) != NULL;
			}
		} else if (id == KR_S_KEYID) {
			ok = pgp_cert_key_by_id(c, p, NULL) != NULL;
		} else {
			for (j = 0; j < c->nuids && !ok; j++) {
				uint8_t h[KR_EMAIL_HASH];
				pgp_view a;
				ok = !c->uids[j].is_attr && pgp_uid_email(c->uids[j].data, &a) &&
				    kr__email_hash(h, a.p, a.len) == PGP_OK && memcmp(h, p, KR_EMAIL_HASH) == 0;
			}
		}
		if (!ok)
			return bad(d, PGP_ERR_MALFORMED, r.off, id == KR_S_FPR ?
			    "keyring fingerprint index: entry names a certificate without that key" :
			    id == KR_S_KEYID ? "keyring key ID index: entry names a certificate without that key" :
			    "keyring e-mail index: entry names a certificate without that address");
	}
	return PGP_OK;
}

/* Edge e is backed by a signature stored on the target's user ID. */
static int
edge_backed(kr_keyring *k, const kr_edge *ed)
{
	const pgp_cert *t, *is;
	const pgp_key *ik;
	uint32_t j;
	if (kr_cert(k, ed->target, &t) != PGP_OK || kr_cert(k, ed->issuer, &is) != PGP_OK)
		return 0;
	if (ed->uid >= t->nuids || ed->issuer_key < -1 || (ed->issuer_key >= 0 &&
	    (uint32_t)ed->issuer_key >= is->nsubs))
		return 0;
	ik = ed->issuer_key < 0 ? &is->primary : &is->subs[ed->issuer_key].key;
	for (j = 0; j < t->uids[ed->uid].nsigs; j++) {
		pgp_sig s;
		int64_t expires;
		if (pgp_sig_parse(&s, &t->uids[ed->uid].sigs[j], NULL) != PGP_OK)
			continue;
		expires = s.sig_expires ? (int64_t)s.created + s.sig_expires : 0;
		if (s.type == ed->sigtype && s.hash_algo == ed->hash_algo && s.pk_algo == ed->pk_algo &&
		    (int64_t)s.created == ed->created && expires == ed->expires &&
		    (s.has_trust ? s.trust_level : 0) == ed->trust_depth &&
		    (s.has_trust ? s.trust_amount : 0) == ed->trust_amount &&
		    pgp_sig_names_fpr(&s, &ik->fpr))
			return 1;
	}
	return 0;
}

static pgp_err
check_edges(kr_keyring *k, pgp_diag *d)
{
	size_t i, n = kr_nedges(k);
	kr_edge ed, prev = {0};
	pgp_err e;
	for (i = 0; i < n; i++) {
		if ((e = kr_edge_at(k, i, &ed)) != PGP_OK)
			return from_kr(k, e, d, "keyring certification edges: unreadable edge");
		/* sorted by (target, user ID, issuer, creation time) */
		if (i > 0 && (prev.target > ed.target || (prev.target == ed.target &&
		    (prev.uid > ed.uid || (prev.uid == ed.uid && (prev.issuer > ed.issuer ||
		    (prev.issuer == ed.issuer && prev.created > ed.created)))))))
			return bad(d, PGP_ERR_MALFORMED, 0, "keyring certification edges: not sorted");
		if (!edge_backed(k, &ed))
			return bad(d, PGP_ERR_MALFORMED, 0,
			    "keyring certification edges: an edge no stored certification backs");
		prev = ed;
	}
	return PGP_OK;
}

/* see kr.h */
pgp_err
kr_verify(kr_keyring *k, pgp_diag *d)
{
	kr_stats st, sum;
	uint64_t nkeys = 0, nemails = 0;
	pgp_err e;
	memset(&sum, 0, sizeof sum);
	/* every block of every index, in order */
	if ((e = check_order(k, KR_S_CERTS, 0, 0, NULL, d)) != PGP_OK ||
	    (e = check_order(k, KR_S_FPR, KR_REC_FPR, 1,
	    "keyring fingerprint index: not sorted or an entry twice", d)) != PGP_OK ||
	    (e = check_order(k, KR_S_KEYID, KR_REC_KEYID, 1,
	    "keyring key ID index: not sorted or an entry twice", d)) != PGP_OK ||
	    (e = check_order(k, KR_S_EMAIL, KR_REC_EMAIL, 1,
	    "keyring e-mail index: not sorted or an entry twice", d)) != PGP_OK ||
	    (e = check_order(k, KR_S_EDGES, 0, 0, NULL, d)) != PGP_OK ||
	    (e = check_order(k, KR_S_TAGS, KR_REC_TAG, 1,
	    "keyring memo tags: not sorted or a tag twice", d)) != PGP_OK)
		return e;
	if ((e = kr_stats_get(k, &st)) != PGP_OK)
		return from_kr(k, e, d, "keyring statistics: unreadable");
	if ((e = check_entries(k, KR_S_FPR, d)) != PGP_OK ||
	    (e = check_entries(k, KR_S_KEYID, d)) != PGP_OK ||
	    (e = check_entries(k, KR_S_EMAIL, d)) != PGP_OK ||
	    (e = check_certs(k, &nkeys, &nemails, &sum, d)) != PGP_OK ||
	    (e = check_edges(k, d)) != PGP_OK)
		return e;
	if (kr__rec_count(k, KR_S_FPR) != nkeys || kr__rec_count(k, KR_S_KEYID) != nkeys)
		return bad(d, PGP_ERR_MALFORMED, 0,
		    "keyring index: entry count differs from the keys stored");
	if (kr__rec_count(k, KR_S_EMAIL) != nemails)
		return bad(d, PGP_ERR_MALFORMED, 0,
		    "keyring e-mail index: entry count differs from the addresses stored");
	if (st.certs != kr_count(k) || st.edges != kr_nedges(k) || st.tags != kr_ntags(k) ||
	    st.uids != sum.uids || st.subkeys != sum.subkeys || st.sigs != sum.sigs ||
	    st.certifications != sum.certifications)
		return bad(d, PGP_ERR_MALFORMED, 0,
		    "keyring statistics: counts differ from the certificate table and sections");
	return PGP_OK;
}
