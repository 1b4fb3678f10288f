/*
 * fuzz_strip.c - libFuzzer target for stripping and the keyring writer
 * (keyring/strip.h, keyring/kr.h): any input is read as a keyring (with the
 * strip cap, as `keyring build` does) and stripped, in both modes (the
 * keyring's, keeping superseded self-signatures, and `strip`'s). When the
 * strip succeeds:
 *   - every stripped certificate parses back as exactly one certificate
 *     with its primary fingerprint, in fingerprint order;
 *   - stripping is idempotent: the stripped certificates, stripped again
 *     with the same options, give the same octets, edges and tags;
 *   - the result serializes into a keyring file that opens and holds as
 *     many certificates, each found by its fingerprint.
 * A violation aborts; memory errors are the sanitizers'.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "keyring/strip.h"
#include "keyring/kr.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define AT 1700000000

static int
strip_bytes(const uint8_t *p, size_t n, int keep, kr_strip_result *out, pgp_certset **set)
{
	kr_strip_opts o;
	pgp_policy pol;
	*set = NULL;
	memset(out, 0, sizeof *out);
	if (pgp_certset_new(set) != PGP_OK)
		return -1;
	if (pgp_certset_set_sig_cap(*set, 1u << 12) != PGP_OK)
		abort();
	(void)pgp_certset_add(*set, p, n, NULL);
	pgp_policy_init(&pol);
	memset(&o, 0, sizeof o);
	o.now = AT;
	o.pol = &pol;
	o.threads = 1;
	o.keep_superseded = keep;
	o.max_certs_per_uid = 64;
	o.max_sigs_per_cert = 512;
	return kr_strip(*set, &o, out) == PGP_OK ? 0 : -1;
}

static void
one_mode(const uint8_t *data, size_t size, int keep)
{
	kr_strip_result r1, r2;
	pgp_certset *s1 = NULL, *s2 = NULL;
	pgp_buf all, file;
	kr_keyring *k = NULL;
	size_t i;

	if (strip_bytes(data, size, keep, &r1, &s1) != 0) {
		kr_strip_free(&r1);
		pgp_certset_free(s1);
		return;
	}
	pgp_buf_init(&all, (size_t)64 << 20);
	for (i = 0; i < r1.ncerts; i++) {
		pgp_certset *one = NULL;
		const pgp_cert *c;
		if (pgp_certset_new(&one) != PGP_OK)
			abort();
		if (pgp_certset_add(one, r1.certs[i].bin, r1.certs[i].len, NULL) != PGP_OK ||
		    pgp_certset_count(one) != 1)
			abort();
		c = pgp_certset_get(one, 0);
		if (c->primary.fpr.len != r1.certs[i].cert->primary.fpr.len ||
		    memcmp(c->primary.fpr.v, r1.certs[i].cert->primary.fpr.v, c->primary.fpr.len) != 0)
			abort();
		pgp_certset_free(one);
		if (pgp_buf_append(&all, r1.certs[i].bin, r1.certs[i].len) != PGP_OK)
			abort();
	}
	/* idempotence */
	if (strip_bytes(all.p, all.len, keep, &r2, &s2) != 0)
		abort();
	if (r2.ncerts != r1.ncerts || r2.nedges != r1.nedges || r2.ntags != r1.ntags)
		abort();
	for (i = 0; i < r1.ncerts; i++)
		if (r1.certs[i].len != r2.certs[i].len ||
		    memcmp(r1.certs[i].bin, r2.certs[i].bin, r1.certs[i].len) != 0)
			abort();
	if (r1.ntags && memcmp(r1.tags, r2.tags, r1.ntags * PGP_SIGMEMO_TAG_LEN) != 0)
		abort();
	/* the keyring file */
	pgp_buf_init(&file, (size_t)64 << 20);
	if (keep && kr_serialize(&r1, NULL, &file) == PGP_OK) {
		pgp_certsrc src;
		if (kr_open(&k, file.p, file.len, NULL) != PGP_OK || kr_count(k) != r1.ncerts)
			abort();
		kr_source(k, &src);
		for (i = 0; i < r1.ncerts; i++) {
			const pgp_cert *out[2];
			size_t total = 0;
			if (pgp_certsrc_by_fpr(&src, &r1.certs[i].cert->primary.fpr, out, 2,
			    &total) != PGP_OK || total != 1)
				abort();
		}
		kr_close(k);
	}
	pgp_buf_free(&file);
	pgp_buf_free(&all);
	kr_strip_free(&r2);
	kr_strip_free(&r1);
	pgp_certset_free(s2);
	pgp_certset_free(s1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	one_mode(data, size, 1);
	one_mode(data, size, 0);
	return 0;
}
