/*
 * fuzz_kr.c - libFuzzer target for the keyring file reader (keyring/kr.h):
 * any input is opened as a keyring; when it opens, every lookup kind runs
 * (key IDs and fingerprints taken from the input itself and from every
 * certificate that materialises, e-mail addresses of their user IDs), the
 * memo is asked, edges and statistics are read. Every answer must be
 * confirmed: a certificate returned for a key ID or fingerprint holds that
 * key, one returned for an address has a user ID with it. A violation
 * aborts; memory errors are the sanitizers'.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "keyring/kr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check(kr_keyring *k, pgp_certsrc *src, const pgp_certq *q)
{
	const pgp_cert *out[4];
	size_t total = 0, i;
	pgp_fpr f;
	if (src->find(src->ctx, q, out, 4, &total) != PGP_OK)
		return;
	for (i = 0; i < total && i < 4; i++) {
		if (q->kind == PGP_CERTQ_KEYID && pgp_cert_key_by_id(out[i], q->p, NULL) == NULL)
			abort();
		if (q->kind == PGP_CERTQ_FPR) {
			memset(&f, 0, sizeof f);
			memcpy(f.v, q->p, q->len);
			f.len = (uint8_t)q->len;
			if (pgp_cert_key_by_fpr(out[i], &f, NULL) == NULL)
				abort();
		}
	}
	(void)k;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kr_keyring *k = NULL;
	pgp_certsrc src;
	pgp_diag d;
	kr_stats st;
	size_t i, j;
	if (kr_open(&k, data, size, &d) != PGP_OK) {
		if (d.what == NULL)
			abort();
		return 0;
	}
	kr_source(k, &src);
	/* the whole-file check (keyring/kr_verify.c) on whatever opened: it
	 * must end, and explain a refusal */
	if (kr_verify(k, &d) != PGP_OK && d.what == NULL)
		abort();
	/* queries made of the input's own octets */
	for (i = 0; i + 32 <= size && i < 4096; i += 29) {
		pgp_certq q;
		q.kind = PGP_CERTQ_KEYID;
		q.p = data + i;
		q.len = 8;
		check(k, &src, &q);
		q.kind = PGP_CERTQ_FPR;
		q.len = 20;
		check(k, &src, &q);
		q.len = 32;
		check(k, &src, &q);
		if (src.memo && src.memo->known)
			(void)src.memo->known(src.memo->ctx, data + i);
	}
	for (i = 0; i < kr_count(k) && i < 64; i++) {
		const pgp_cert *c;
		pgp_view v;
		kr_certinfo info;
		(void)kr_cert_info(k, i, &info);
		(void)kr_cert_bytes(k, i, &v);
		if (kr_cert(k, i, &c) != PGP_OK)
			continue;
		for (j = 0; j <= c->nsubs && j < 8; j++) {
			const pgp_key *key = j == 0 ? &c->primary : &c->subs[j - 1].key;
			pgp_certq q = {PGP_CERTQ_FPR, key->fpr.v, key->fpr.len};
			check(k, &src, &q);
			q.kind = PGP_CERTQ_KEYID;
			q.p = key->keyid;
			q.len = 8;
			check(k, &src, &q);
		}
		for (j = 0; j < c->nuids && j < 8; j++) {
			pgp_view a;
			if (!c->uids[j].is_attr && pgp_uid_email(c->uids[j].data, &a)) {
				pgp_certq q = {PGP_CERTQ_EMAIL, a.p, a.len};
				check(k, &src, &q);
			}
		}
	}
	for (i = 0; i < kr_nedges(k) && i < 64; i++) {
		kr_edge g;
		if (kr_edge_at(k, i, &g) == PGP_OK && (g.issuer >= kr_count(k) || g.target >= kr_count(k)))
			abort();
	}
	if (kr_stats_get(k, &st) == PGP_OK)
		for (i = 0; i < st.nnotes && i < 8; i++) {
			pgp_view v;
			(void)kr_stats_note(k, i, &v);
		}
	kr_close(k);
	return 0;
}
