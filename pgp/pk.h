/*
 * pk.h - public-key signature verification primitives (RFC 9580 §5.2.3,
 * §5.2.4): RSA PKCS#1 v1.5 (pgp/mont.c), DSA, ECDSA (mbedtls) and EdDSA
 * (libsodium).
 *
 * Inputs are the parsed structs of packet.h; nothing here parses packets,
 * hashes data or applies policy (hash cutoffs, key sizes, expiry): the caller
 * computes the digest (RFC 9580 §5.2.4) and the policy layer decides whether
 * a mathematically valid signature is acceptable.
 *
 * Result codes, the same for every algorithm:
 *   PGP_OK              the signature is valid for this key and digest
 *   PGP_ERR_BAD_SIG     well-formed values, but the math fails (includes a
 *                       signature whose algorithm differs from the key's:
 *                       it cannot have been made by this key)
 *   PGP_ERR_MALFORMED   an out-of-range or ill-formed value: RSA signature
 *                       not in [1, n-1] or longer than the modulus; DSA/ECDSA
 *                       r or s not in [1, q-1]; EC point without the 0x04
 *                       prefix, of the wrong length or not on the curve;
 *                       EdDSA R or S longer than 32 octets; a key that is
 *                       not a valid public key of its algorithm; a
 *                       combination the spec forbids: Ed25519 with a digest
 *                       shorter than 256 bits (RFC 9580 §5.2.3.4: an
 *                       Ed25519 signature MUST use such a hash; a format
 *                       rule, not configurable policy),
 *                       v3 signatures with ECDSA/EdDSA (§5.2.3.2-4),
 *                       EdDSALegacy in a v6 signature (§5.2.3.3)
 *   PGP_ERR_UNSUPPORTED an algorithm, curve or size we do not implement:
 *                       Ed448, ElGamal signatures, unknown/PQC algorithms,
 *                       curves without mbedtls support, RSA with a hash
 *                       that has no DigestInfo (RFC 9580 §5.2.2), RSA
 *                       moduli above PGP_MAX_MPI_BITS (16384), DSA primes
 *                       above 8192 bits (MBEDTLS_MPI_MAX_BITS)
 *   PGP_ERR_UNUSABLE    the key's algorithm cannot sign at all (RSA
 *                       encrypt-only (2), ECDH, X25519, X448)
 *   PGP_ERR_INVALID     caller error: NULL pointer, or digest_len does not
 *                       match hash_alg
 * diag->what (if diag is given) names the reason with a static string, e.g.
 * "Ed448 not supported". No state is kept between calls; the functions are
 * reentrant.
 */
#ifndef PGP_PK_H
#define PGP_PK_H

#include <stddef.h>
#include <stdint.h>
#include "err.h"
#include "packet.h"

/*
 * Verify sig (made with hash algorithm hash_alg, usually sig->hash_alg) over
 * digest[0..digest_len) with key. digest_len must be the digest length of
 * hash_alg. Uses key->algo, key->curve, key->mpi[], key->nmpi, key->native
 * and sig->pk_algo, sig->version, sig->mpi[], sig->nmpi, sig->native.
 *
 * MPI values may carry leading zero octets; they are read by value. RSA
 * signatures shorter than the modulus are left-padded (RFC 9580 §5.2.2); the
 * expected EMSA-PKCS1-v1_5 encoding (RFC 8017 §9.2) is built and compared
 * whole with s^e mod n, never parsed; a modulus too short for the digest
 * (fewer than 8 octets of padding) is BAD_SIG. DSA and ECDSA
 * use the leftmost bits of the digest, as many as the group order has
 * (FIPS 186-4 §4.6 / §6.4). EdDSA signs the digest itself (RFC 9580 §5.2.3.3).
 */
pgp_err pgp_pk_verify(const pgp_key *key, const pgp_sig *sig, int hash_alg,
    const uint8_t *digest, size_t digest_len, pgp_diag *diag);

/* 1 if algo (RFC 9580 §9.1) is a signature algorithm pgp_pk_verify
 * implements (RSA 1 and 3, DSA, ECDSA, EdDSALegacy, Ed25519), else 0. */
int pgp_pk_can_sign(int algo);

/*
 * Sanity checks of a public key for signature verification:
 *   MALFORMED    missing or impossible values (RSA: n even, e even or <= 1,
 *                e >= n; DSA: p even, q >= p, q bit size not 160, 224 or 256
 *                (FIPS 186-4 §4.2), g or y not in [2, p-1]; EC: point not on
 *                the curve or wrongly encoded; EdDSA: not 0x40 || 32 octets)
 *                Ed25519: not canonical, not in the prime-order subgroup
 *                or of small order (crypto_core_ed25519_is_valid_point;
 *                stricter than verify, which leaves such keys to libsodium's
 *                signature check and so reports BAD_SIG)
 *   POLICY       valid but too small to trust: RSA n or DSA p under 512 bits
 *   UNSUPPORTED  / UNUSABLE as for pgp_pk_verify
 * PGP_OK otherwise. Only public values are checked (no primality tests).
 */
pgp_err pgp_pk_check_key(const pgp_key *key, pgp_diag *diag);

#endif
