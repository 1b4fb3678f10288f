/* sighash.c - hash input per signature type, RFC 9580 §5.2.4. see sighash_int.h */
#include <string.h>
#include "sighash_int.h"
#include "pk.h"
#include "err_int.h"

/* see sighash_int.h */
pgp_err
pgp__sighash_start(pgp_hash *h, const pgp_sig *sig)
{
	pgp_err e = pgp_hash_init(h, sig->hash_algo);
	if (e != PGP_OK)
		return e;
	/* §5.2.4: a v6 signature hashes its salt first */
	if (sig->version == 6)
		pgp_hash_update(h, sig->salt.p, sig->salt.len);
	return PGP_OK;
}

/* see sighash_int.h */
void
pgp__sighash_key(pgp_hash *h, const pgp_sig *sig, const pgp_key *key)
{
	uint8_t hdr[5];
	size_t n = key->body.len;
	if (sig->version >= 5) {
		hdr[0] = sig->version == 5 ? 0x9A : 0x9B;
		pgp_put_be32(hdr + 1, (uint32_t)n);
		pgp_hash_update(h, hdr, 5);
	} else {
		hdr[0] = 0x99;
		hdr[1] = (uint8_t)(n >> 8);
		hdr[2] = (uint8_t)n;
		pgp_hash_update(h, hdr, 3);
	}
	pgp_hash_update(h, key->body.p, n);
}

/* see sighash_int.h */
void
pgp__sighash_uid(pgp_hash *h, const pgp_sig *sig, const pgp_uidc *uid)
{
	uint8_t hdr[5];
	if (sig->version >= 4) {
		hdr[0] = uid->is_attr ? 0xD1 : 0xB4;
		pgp_put_be32(hdr + 1, (uint32_t)uid->data.len);
		pgp_hash_update(h, hdr, 5);
	}
	pgp_hash_update(h, uid->data.p, uid->data.len);
}

/* see sighash_int.h */
pgp_err
pgp__sighash_check(pgp_hash *h, const pgp_sig *sig, const pgp_key *signer,
    const pgp_sigmemo *memo, pgp_diag *diag)
{
	uint8_t tag[PGP_SIGMEMO_TAG_LEN];
	pgp_err e;
	uint8_t digest[PGP_HASH_MAX_LEN], trailer[10];
	size_t n = sig->hashed_part.len, dlen = pgp_hash_len(sig->hash_algo);

	/* RFC 9580 §5.2.3: v6 signatures are made by v6 keys only, and v6
	 * keys make only v6 signatures (v5, LibrePGP, pairs the same way) */
	if ((sig->version >= 5 || signer->version >= 5) && sig->version != signer->version)
		return pgp__fail(diag, PGP_ERR_MALFORMED, 0, PGP_TAG_SIGNATURE,
		    "signature version does not match the key version");
	pgp_hash_update(h, sig->hashed_part.p, n);
	switch (sig->version) {
	case 3:
		break; /* RFC 4880 §5.2.2: type and creation time only */
	case 4:
	case 6:
		/* version, 0xFF, 4-octet length of the hashed part */
		trailer[0] = sig->version;
		trailer[1] = 0xFF;
		pgp_put_be32(trailer + 2, (uint32_t)n);
		pgp_hash_update(h, trailer, 6);
		break;
	case 5:
		/* LibrePGP v5: 8-octet length */
		trailer[0] = 5;
		trailer[1] = 0xFF;
		pgp_put_be32(trailer + 2, (uint32_t)((uint64_t)n >> 32));
		pgp_put_be32(trailer + 6, (uint32_t)n);
		pgp_hash_update(h, trailer, 10);
		break;
	default:
		return PGP_ERR_UNSUPPORTED;
	}
	pgp_hash_final(h, digest);
	if (digest[0] != sig->prefix[0] || digest[1] != sig->prefix[1])
		return pgp__fail(diag, PGP_ERR_BAD_SIG, 0, PGP_TAG_SIGNATURE,
		    "digest does not match the signature's hash prefix");
	if (memo == NULL)
		return pgp_pk_verify(signer, sig, sig->hash_algo, digest, dlen, diag);
	/* sigmemo.h: a memo replaces the public-key operation only */
	pgp_sigmemo_tag(tag, signer, sig, digest, dlen);
	if (memo->known && memo->known(memo->ctx, tag))
		e = PGP_OK;
	else
		e = pgp_pk_verify(signer, sig, sig->hash_algo, digest, dlen, diag);
	if (e == PGP_OK && memo->record)
		memo->record(memo->ctx, tag);
	return e;
}

static void
emit_crs(pgp_hash *h, size_t n)
{
	static const uint8_t crs[16] = {'\r', '\r', '\r', '\r', '\r', '\r', '\r', '\r',
	    '\r', '\r', '\r', '\r', '\r', '\r', '\r', '\r'};
	while (n) {
		size_t k = n < sizeof crs ? n : sizeof crs;
		pgp_hash_update(h, crs, k);
		n -= k;
	}
}

/* see sighash_int.h */
void
pgp__hash_text(pgp_hash *h, pgp_textcanon *st, const uint8_t *p, size_t n)
{
	static const uint8_t crlf[2] = {'\r', '\n'};
	size_t i, run = 0; /* p[run..i) is plain data not yet hashed */
	for (i = 0; i < n; i++) {
		if (p[i] == '\r') {
			pgp_hash_update(h, p + run, i - run);
			run = i + 1;
			st->pending_cr++;
		} else if (p[i] == '\n') {
			pgp_hash_update(h, p + run, i - run);
			pgp_hash_update(h, crlf, 2);
			run = i + 1;
			st->pending_cr = 0;
		} else if (st->pending_cr) {
			/* the CRs were data after all */
			emit_crs(h, st->pending_cr);
			st->pending_cr = 0;
		}
	}
	pgp_hash_update(h, p + run, n - run);
}
