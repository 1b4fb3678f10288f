#!/bin/sh
# gen_packet_corpus.sh - writes the hand-made seed corpus of fuzz_packet into
# tests/fuzz/corpus/packet/ (small valid and malformed packets, RFC 9580 §4-5).
# Every byte is spelled out below in hex; nothing is copied from elsewhere.
# usage: sh tests/fuzz/gen_packet_corpus.sh [OUTDIR]
set -eu
out=${1:-$(dirname "$0")/corpus/packet}
mkdir -p "$out"

# w NAME HEX...: write the octets (whitespace in HEX is ignored).
w() {
	name=$1; shift
	hex=$(printf '%s' "$*" | tr -d ' \n\t')
	: >"$out/$name"
	while [ -n "$hex" ]; do
		b=${hex%"${hex#??}"}
		hex=${hex#??}
		printf "\\$(printf '%03o' "0x$b")" >>"$out/$name"
	done
}

# n TAG HEX...: a new-format packet (RFC 9580 §4.2.1) around the body, with
# its 1- or 2-octet length computed; prints hex.
n() {
	tag=$1; shift
	body=$(printf '%s' "$*" | tr -d ' \n\t')
	len=$((${#body} / 2))
	if [ "$len" -lt 192 ]; then
		printf '%02x%02x%s' $((0xC0 | tag)) "$len" "$body"
	else
		l=$((len - 192))
		printf '%02x%02x%02x%s' $((0xC0 | tag)) $((192 + l / 256)) $((l % 256)) "$body"
	fi
}

X32=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
X64=$X32$X32
X31=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e
CV25519=0a2b060104019755010501
ED25519=092b06010401da470f01
P256=082a8648ce3d030107

# ---- keys ----
# v4 EdDSA legacy public key: ver 4, time, algo 22, OID, MPI 263 bits 0x40||x
w key-v4-eddsa.bin "$(n 6 04 5c000001 16 $ED25519 0107 40 $X32)"
# v4 ECDH Curve25519 subkey with KDF params (03 01 08 07)
w key-v4-ecdh-sub.bin "$(n 14 04 5c000001 12 $CV25519 0107 40 $X32 03010807)"
# v4 ECDSA P-256 with a 515-bit uncompressed point (shortened point: still parses)
w key-v4-ecdsa-p256.bin "$(n 6 04 5c000001 13 $P256 0203 04 $X32 $X32)"
# v4 RSA with a tiny n and e=65537, legacy CTB with 2-octet length
w key-v4-rsa-legacy.bin   99000f 04 50000000 01 0009 01ff 0011 010001
# v6 Ed25519 public key, 4-octet material length
w key-v6-ed25519.bin "$(n 6 06 63877fe3 1b 00000020 $X32)"
# v5 (LibrePGP) Ed25519
w key-v5-ed25519.bin "$(n 6 05 63877fe3 1b 00000020 $X32)"
# v6 X25519 subkey
w key-v6-x25519-sub.bin "$(n 14 06 63877fe3 19 00000020 $X32)"
# v3 RSA key (RFC 4880): ver 3, time, validity days, algo 1, n, e
w key-v3-rsa.bin          9811 03 30000000 0000 01 0010 c001 0011 010001
# secret key: public part + one octet of "secret" data
w key-v4-secret.bin "$(n 5 04 50000000 01 0009 01ff 0011 010001 00)"
# unknown algorithm: opaque material
w key-v4-unknown-algo.bin "$(n 6 04 50000000 64 deadbeef)"
# malformed: OID length 0 / 0xFF, KDF too short, v6 material length mismatch
w key-bad-oid0.bin "$(n 6 04 5c000001 16 00 0107 40 $X32)"
w key-bad-oidff.bin "$(n 6 04 5c000001 16 ff 0107 40 $X32)"
w key-bad-kdf.bin "$(n 14 04 5c000001 12 $CV25519 0107 40 $X32 020108)"
w key-bad-v6-len.bin "$(n 6 06 63877fe3 1b 00000021 $X32 aa)"
w key-bad-trailing.bin "$(n 6 04 50000000 01 0009 01ff 0011 010001 00)"
w key-bad-version.bin "$(n 6 07 00000000 01 00)"

# ---- signatures ----
# v4 Ed25519 sig: created, key flags (critical), issuer fpr v4, features;
# unhashed: issuer, embedded v4 sig (EdDSA legacy, two 1-octet MPIs)
w sig-v4-subpkts.bin "$(n 2 04 00 1b 08 0023  0502 11223344  029b03  1621 04 000102030405060708090a0b0c0d0e0f10111213  021e01  001c 0910 0102030405060708  1120 04 19 16 08 0000 0000 abcd 0001 01 0001 01  abcd $X64)"
# v4 sig with unknown critical (type 99), critical notation, regex, dup created
w sig-v4-critical.bin "$(n 2 04 13 1b 08 0022  02e300  0e9480000000000300026140627879  038661 00  0502 00000001 0502 00000002  0000 abcd $X64)"
# v4 sig, subpacket with a 2-octet and a 5-octet length form
w sig-v4-lenforms.bin "$(n 2 04 00 1b 08 00d0 c000 15 $X64 $X64 $X32 $X31  ff00000009 10 0102030405060708 0000 abcd $X64)"
# v6 sig: 4-octet areas, salt 16 for SHA256
w sig-v6.bin "$(n 2 06 00 1b 08 00000006 0502 63877fe3 00000000 1234 10  $(printf '55%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16) $X64)"
# v3 RSA sig: hashed length 5, type, time, keyid, algo, hash, prefix, MPI
w sig-v3.bin              8817 03 05 13 50000001 0102030405060708 01 02 aabb 000f 7fff
# malformed sigs
w sig-bad-zero-subpkt.bin "$(n 2 04 00 1b 08 0002 0002 0000 abcd $X64)"
w sig-bad-created-size.bin "$(n 2 04 00 1b 08 0005 0402112233 0000 abcd $X64)"
w sig-bad-v3-hlen.bin     8817 03 06 13 50000001 0102030405060708 01 02 aabb 000f 7fff
w sig-bad-trailing.bin "$(n 2 04 00 1b 08 0000 0000 abcd $X64 00 00 00 00 00)"
w sig-bad-v6-salt.bin "$(n 2 06 00 1b 0a 00000000 00000000 1234 10  $(printf '55%.0s' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16) $X64)"
w sig-unknown-version.bin "$(n 2 0a 00 01)"

# ---- framing ----
w frame-legacy-forms.bin  b402 6869 b50002 6869 b60000000268 69 b7 6869
w frame-partial-literal.bin cbe1 6869 e0 21 02 0a0a
w frame-partial-zero-last.bin cbe0 41 00
w frame-partial-in-sig.bin c2e1 0400 01 00
w frame-bad-ctb.bin       cd01 41 7f00
w frame-tag0.bin          c000
w frame-too-large.bin     c2ff00100001 00
w frame-truncated.bin     cdc000 41
w frame-partial-huge.bin  cbfe 00
w frame-sequence.bin      c60a 04 50000000 64 deadbeef cd03 616263 c203 0a 00 01
