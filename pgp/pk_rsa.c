/*
 * pk_rsa.c - RSA PKCS#1 v1.5 signature verification (RFC 9580 §5.2.3.1,
 * RFC 8017 §8.2.2).
 *
 * The signature MPI is left-padded to the modulus length k (OpenPGP MPIs drop
 * leading zero octets, RFC 9580 §3.2), m = s^e mod n is computed by mont.c
 * (RSAVP1, RFC 8017 §5.2.2), and the expected encoding
 *   EM = 00 01 FF..FF 00 || DigestInfo(hash OID) || digest
 * (EMSA-PKCS1-v1_5, RFC 8017 §9.2) is built here and compared with m whole.
 * The padding of m is never parsed.
 */
#include <string.h>
#include "pk_int.h"
#include "hash.h"
#include "mont_int.h"

/*
 * The DER prefix of DigestInfo, SEQUENCE { AlgorithmIdentifier { OID, NULL },
 * OCTET STRING of the digest length }, per hash: RFC 9580 §5.2.2 lists the
 * OIDs and these octets ("ASN.1 DER"), RFC 8017 §9.2 note 1 the SHA-1/SHA-2
 * ones. Only the form with the NULL parameters is accepted, as in both.
 */
static const uint8_t di_md5[] = {
	0x30, 0x20, 0x30, 0x0c, 0x06, 0x08, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d,
	0x02, 0x05, 0x05, 0x00, 0x04, 0x10
};
static const uint8_t di_sha1[] = {
	0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x0e, 0x03, 0x02, 0x1a, 0x05,
	0x00, 0x04, 0x14
};
static const uint8_t di_ripemd160[] = {
	0x30, 0x21, 0x30, 0x09, 0x06, 0x05, 0x2b, 0x24, 0x03, 0x02, 0x01, 0x05,
	0x00, 0x04, 0x14
};
/* SHA-2 and SHA-3 share 2.16.840.1.101.3.4.2.x; x and the lengths differ. */
#define DI_NIST(len, x, dlen) { \
	0x30, (len), 0x30, 0x0d, 0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, \
	0x04, 0x02, (x), 0x05, 0x00, 0x04, (dlen) }
static const uint8_t di_sha224[] = DI_NIST(0x2d, 0x04, 0x1c);
static const uint8_t di_sha256[] = DI_NIST(0x31, 0x01, 0x20);
static const uint8_t di_sha384[] = DI_NIST(0x41, 0x02, 0x30);
static const uint8_t di_sha512[] = DI_NIST(0x51, 0x03, 0x40);
static const uint8_t di_sha3_256[] = DI_NIST(0x31, 0x08, 0x20);
static const uint8_t di_sha3_512[] = DI_NIST(0x51, 0x0a, 0x40);

/* The DigestInfo prefix for an OpenPGP hash ID (RFC 9580 §9.5); NULL if we
 * know none. Its last octet is the digest length. */
static const uint8_t *
digest_info(int hash_alg, size_t *len)
{
#define DI(a) do { *len = sizeof (a); return (a); } while (0)
	switch (hash_alg) {
	case PGP_HASH_MD5: DI(di_md5);
	case PGP_HASH_SHA1: DI(di_sha1);
	case PGP_HASH_RIPEMD160: DI(di_ripemd160);
	case PGP_HASH_SHA224: DI(di_sha224);
	case PGP_HASH_SHA256: DI(di_sha256);
	case PGP_HASH_SHA384: DI(di_sha384);
	case PGP_HASH_SHA512: DI(di_sha512);
	case PGP_HASH_SHA3_256: DI(di_sha3_256);
	case PGP_HASH_SHA3_512: DI(di_sha3_512);
	default: *len = 0; return NULL;
	}
#undef DI
}

/* 1 if the big-endian magnitude v is odd (so nonzero). */
static int
is_odd(pgp_view v)
{
	return v.len > 0 && (v.p[v.len - 1] & 1) != 0;
}

/* Big-endian comparison of two trimmed magnitudes. */
static int
cmp_mag(pgp_view a, pgp_view b)
{
	if (a.len != b.len)
		return a.len < b.len ? -1 : 1;
	return a.len ? memcmp(a.p, b.p, a.len) : 0;
}

/* Structural checks of n, e shared by verify and check_key. */
static pgp_err
check_ne(const pgp_key *key, pgp_view *n, pgp_view *e, int strict, pgp_diag *diag)
{
	static const uint8_t one[1] = { 1 };
	pgp_view v1 = { one, 1 };

	if (key->nmpi < 2)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA key lacks n or e");
	*n = pgp__pk_mpi_trim(&key->mpi[0]);
	*e = pgp__pk_mpi_trim(&key->mpi[1]);
	if (n->len > PGP_MAX_MPI_BITS / 8)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "RSA modulus larger than 16384 bits not supported");
	if (!is_odd(*n))
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA modulus n is even");
	if (!is_odd(*e) || cmp_mag(*e, v1) <= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "RSA exponent e must be odd and greater than 1");
	if (cmp_mag(*e, *n) >= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA exponent e >= n");
	if (strict && pgp__pk_mpi_bits(&key->mpi[0]) < 512)
		return pgp__pk_fail(diag, PGP_ERR_POLICY, "RSA modulus shorter than 512 bits");
	return PGP_OK;
}

/* see pk_int.h */
pgp_err
pgp__pk_rsa_check(const pgp_key *key, int strict, pgp_diag *diag)
{
	pgp_view n, e;

	return check_ne(key, &n, &e, strict, diag);
}

/* see pk_int.h */
pgp_err
pgp__pk_rsa_verify(const pgp_key *key, const pgp_sig *sig, int hash_alg,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag)
{
	uint8_t m[PGP_MONT_MAX_BYTES], em[PGP_MONT_MAX_BYTES];
	const uint8_t *di;
	pgp_view n, e, s;
	size_t k, di_len, ps_len;
	uint8_t diff;
	pgp_err err;
	size_t i;

	if ((err = check_ne(key, &n, &e, 0, diag)) != PGP_OK)
		return err;
	if ((di = digest_info(hash_alg, &di_len)) == NULL || di[di_len - 1] != digest_len)
		return pgp__pk_fail(diag, PGP_ERR_UNSUPPORTED,
		    "hash algorithm not supported with RSA");
	if (sig->nmpi < 1)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature lacks its MPI");
	k = n.len;

	/* RFC 9580 §5.2.3.1: the MPI of m^d mod n, so 1 <= s < n (RFC 8017
	 * §5.2.2 step 1). A shorter MPI is an "improbably short" value and is
	 * left-padded to k octets (the value is the same). */
	s = pgp__pk_mpi_trim(&sig->mpi[0]);
	if (s.len == 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature is zero");
	if (s.len > k)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED,
		    "RSA signature longer than the modulus");
	if (cmp_mag(s, n) >= 0)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA signature >= modulus");

	/* RFC 8017 §9.2 step 3: emLen >= tLen + 11, i.e. at least 8 octets of
	 * PS. A modulus too short for this digest cannot carry a valid
	 * signature made with it. */
	if (k < di_len + digest_len + 11)
		return pgp__pk_fail(diag, PGP_ERR_BAD_SIG,
		    "RSA modulus too short for the digest");

	/* RSAVP1: m = s^e mod n, as k octets (I2OSP). */
	if (pgp__mont_modexp(m, n.p, n.len, s.p, s.len, e.p, e.len) != PGP_OK)
		return pgp__pk_fail(diag, PGP_ERR_MALFORMED, "RSA public key rejected");

	/* EM = 0x00 || 0x01 || PS || 0x00 || T (RFC 8017 §9.2 step 5). */
	ps_len = k - di_len - digest_len - 3;
	em[0] = 0x00;
	em[1] = 0x01;
	memset(em + 2, 0xff, ps_len);
	em[2 + ps_len] = 0x00;
	memcpy(em + 3 + ps_len, di, di_len);
	memcpy(em + 3 + ps_len + di_len, digest, digest_len);

	/* RFC 8017 §8.2.2 step 4: compare the two encodings whole. */
	diff = 0;
	for (i = 0; i < k; i++)
		diff |= (uint8_t)(m[i] ^ em[i]);
	if (diff != 0)
		return pgp__pk_fail(diag, PGP_ERR_BAD_SIG, "RSA signature does not verify");
	return PGP_OK;
}
