/* sigmemo.c - tags of signatures whose math was checked. see sigmemo.h */
#include <string.h>
#include "sigmemo.h"
#include "hash_int.h"

static void
put16(pgp_hash *h, size_t n)
{
	uint8_t b[2];
	b[0] = (uint8_t)(n >> 8);
	b[1] = (uint8_t)n;
	pgp_hash_update(h, b, 2);
}

/* see sigmemo.h */
void
pgp_sigmemo_tag(uint8_t tag[PGP_SIGMEMO_TAG_LEN], const pgp_key *signer,
    const pgp_sig *sig, const uint8_t *digest, size_t dlen)
{
	static const uint8_t domain[] = "wotkit sigmemo v1"; /* with its NUL */
	uint8_t out[PGP_HASH_MAX_LEN], b[3];
	pgp_hash h;
	unsigned i;

	(void)pgp_hash_init(&h, PGP_HASH_SHA256);
	pgp_hash_update(&h, domain, sizeof domain);
	b[0] = signer->fpr.len;
	pgp_hash_update(&h, b, 1);
	pgp_hash_update(&h, signer->fpr.v, signer->fpr.len);
	b[0] = sig->pk_algo;
	b[1] = sig->hash_algo;
	pgp_hash_update(&h, b, 2);
	pgp_hash_update(&h, digest, dlen);
	b[0] = sig->nmpi;
	pgp_hash_update(&h, b, 1);
	for (i = 0; i < sig->nmpi && i < 2; i++) {
		put16(&h, sig->mpi[i].bits);
		put16(&h, sig->mpi[i].v.len);
		pgp_hash_update(&h, sig->mpi[i].v.p, sig->mpi[i].v.len);
	}
	put16(&h, sig->native.len);
	pgp_hash_update(&h, sig->native.p, sig->native.len);
	pgp_hash_final(&h, out);
	memcpy(tag, out, PGP_SIGMEMO_TAG_LEN);
}
