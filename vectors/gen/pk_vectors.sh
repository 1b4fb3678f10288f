#!/bin/sh
# vectors/gen/pk_vectors.sh - public-key signature vectors for tests/unit/test_pk.c.
#
# Generates fresh keys with the OpenSSL CLI (an implementation independent of
# mbedtls/libsodium), signs random digests with them, and writes
# vectors/pk/pk_vectors.txt: one case per line,
#
#   name algo curve hash key-mpis digest sig-mpis expect
#
#   algo      OpenPGP public-key algorithm ID (RFC 9580 §9.1)
#   curve     p256 p384 p521 bp256 bp384 bp512 secp256k1 ed25519, or -
#   hash      OpenPGP hash algorithm ID (RFC 9580 §9.5)
#   key-mpis  comma-separated hex: RSA n,e; DSA p,q,g,y; ECDSA 04||x||y;
#             EdDSA legacy 40||A; Ed25519 (v6) the native 32-octet key
#   digest    hex of the digest that was signed
#   sig-mpis  comma-separated hex: RSA s; DSA/ECDSA r,s; EdDSA legacy R,S;
#             Ed25519 (v6) the native 64-octet signature
#   expect    ok (negatives are derived from these by the test)
#
# Values are written as OpenSSL prints them (possibly with leading zero
# octets); the test strips leading zeros the way an MPI encoding does.
# Usage: sh vectors/gen/pk_vectors.sh   (from the repository top; needs openssl 3)
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out="$top/vectors/pk/pk_vectors.txt"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$top/vectors/pk"
: >"$tmp/v"

hex() { xxd -p "$1" | tr -d '\n'; }
lc() { tr 'A-F' 'a-f'; }
even() { awk '{ if (length($0) % 2) print "0" $0; else print $0 }'; }

# digest NAME BYTES: random digest into $tmp/d.bin
digest() { head -c "$1" /dev/urandom >"$tmp/d.bin"; }

# INTEGERs of a DER SEQUENCE { r, s } -> "r,s"
der_rs() {
	openssl asn1parse -inform DER -in "$1" | awk -F: '/INTEGER/ { print $NF }' |
	    even | lc | paste -sd, -
}

# pkey text field (P:, Q:, G:, pub:) -> hex
pkey_field() {
	openssl pkey -in "$1" -text -noout | awk -v f="$2" '
	    $0 ~ "^" f ":" { on = 1; next }
	    on && /^    / { gsub(/[ :]/, ""); s = s $0; next }
	    on { on = 0 }
	    END { print s }' | lc
}

mdname() {
	case $1 in
	1) echo md5 ;; 2) echo sha1 ;; 3) echo ripemd160 ;; 8) echo sha256 ;;
	9) echo sha384 ;; 10) echo sha512 ;; 11) echo sha224 ;;
	esac
}
mdlen() {
	case $1 in
	1) echo 16 ;; 2|3) echo 20 ;; 8) echo 32 ;; 9) echo 48 ;; 10) echo 64 ;; 11) echo 28 ;;
	esac
}

emit() { echo "$*" >>"$tmp/v"; }

# ---- RSA (RFC 9580 §5.2.3.1, PKCS#1 v1.5) ----
rsa_key() { # file bits [pubexp]
	openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:"$2" \
	    ${3:+-pkeyopt rsa_keygen_pubexp:$3} -out "$1" 2>/dev/null
}
rsa_case() { # name keyfile hashid [need-leading-zero]
	n=$(openssl rsa -in "$2" -modulus -noout | sed 's/^Modulus=//' | lc)
	e=$(openssl pkey -in "$2" -text -noout | sed -n 's/^publicExponent: [0-9]* (0x\([0-9a-f]*\)).*/\1/p' | even)
	tries=0
	while :; do
		digest "$(mdlen "$3")"
		openssl pkeyutl -sign -inkey "$2" -in "$tmp/d.bin" \
		    -pkeyopt digest:"$(mdname "$3")" -out "$tmp/s.bin"
		s=$(hex "$tmp/s.bin")
		[ -z "${4:-}" ] && break
		case $s in 00*) break ;; esac
		tries=$((tries + 1))
		[ "$tries" -lt 5000 ] || { echo "no short RSA signature" >&2; exit 1; }
	done
	emit "$1 1 - $3 $n,$e $(hex "$tmp/d.bin") $s ok"
}

rsa_key "$tmp/r2048.pem" 2048
rsa_key "$tmp/r2048b.pem" 2048
rsa_key "$tmp/r3072.pem" 3072
rsa_key "$tmp/r1024e3.pem" 1024 3
rsa_case rsa2048-sha256 "$tmp/r2048.pem" 8
rsa_case rsa2048-sha1 "$tmp/r2048.pem" 2
rsa_case rsa2048-sha224 "$tmp/r2048.pem" 11
rsa_case rsa2048-sha384 "$tmp/r2048.pem" 9
rsa_case rsa2048-ripemd160 "$tmp/r2048.pem" 3
rsa_case rsa2048-md5 "$tmp/r2048.pem" 1
rsa_case rsa2048b-sha256 "$tmp/r2048b.pem" 8
rsa_case rsa3072-sha512 "$tmp/r3072.pem" 10
rsa_case rsa3072-sha256 "$tmp/r3072.pem" 8
rsa_case rsa1024e3-sha256 "$tmp/r1024e3.pem" 8
# "improbably short" signature: the top octet is zero, so its MPI is shorter
# than the modulus and must be left-padded (RFC 9580 §5.2.2).
rsa_case rsa2048-sha256-shortsig "$tmp/r2048.pem" 8 short

# ---- DSA (RFC 9580 §5.2.3.2, FIPS 186-4 §4.7) ----
dsa_key() { # file pbits qbits
	openssl genpkey -genparam -algorithm DSA -pkeyopt dsa_paramgen_bits:"$2" \
	    -pkeyopt dsa_paramgen_q_bits:"$3" -out "$1.par" 2>/dev/null
	openssl genpkey -paramfile "$1.par" -out "$1" 2>/dev/null
}
dsa_case() { # name keyfile hashid
	k=$(pkey_field "$2" P),$(pkey_field "$2" Q),$(pkey_field "$2" G),$(pkey_field "$2" pub)
	digest "$(mdlen "$3")"
	openssl pkeyutl -sign -inkey "$2" -in "$tmp/d.bin" \
	    -pkeyopt digest:"$(mdname "$3")" -out "$tmp/s.der"
	emit "$1 17 - $3 $k $(hex "$tmp/d.bin") $(der_rs "$tmp/s.der") ok"
}
dsa_key "$tmp/d2048.pem" 2048 256
dsa_key "$tmp/d2048q224.pem" 2048 224
dsa_key "$tmp/d1024.pem" 1024 160
dsa_case dsa2048-sha256 "$tmp/d2048.pem" 8
dsa_case dsa2048-sha512 "$tmp/d2048.pem" 10         # digest truncated to 256 bits
dsa_case dsa2048q224-sha256 "$tmp/d2048q224.pem" 8  # digest truncated to 224 bits
dsa_case dsa2048q224-sha224 "$tmp/d2048q224.pem" 11
dsa_case dsa1024-sha1 "$tmp/d1024.pem" 2
dsa_case dsa1024-sha256 "$tmp/d1024.pem" 8          # truncated to 160 bits

# ---- ECDSA (RFC 9580 §5.2.3.2; points are 04||x||y, §11.2) ----
ec_case() { # name ossl-curve pgp-curve hashid [pointlen]
	openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:"$2" -out "$tmp/ec.pem"
	openssl pkey -in "$tmp/ec.pem" -pubout -outform DER -out "$tmp/ec.der"
	q=$(pkey_field "$tmp/ec.pem" pub)
	digest "$(mdlen "$4")"
	openssl pkeyutl -sign -inkey "$tmp/ec.pem" -in "$tmp/d.bin" \
	    -pkeyopt digest:"$(mdname "$4")" -out "$tmp/s.der"
	emit "$1 19 $3 $4 $q $(hex "$tmp/d.bin") $(der_rs "$tmp/s.der") ok"
}
ec_case p256-sha256 prime256v1 p256 8
ec_case p256b-sha256 prime256v1 p256 8
ec_case p256-sha512 prime256v1 p256 10   # digest truncated to 256 bits
ec_case p256-sha1 prime256v1 p256 2      # digest shorter than the order
ec_case p384-sha384 secp384r1 p384 9
ec_case p521-sha512 secp521r1 p521 10
ec_case p521-sha256 secp521r1 p521 8
ec_case bp256-sha256 brainpoolP256r1 bp256 8
ec_case bp384-sha384 brainpoolP384r1 bp384 9
ec_case bp512-sha512 brainpoolP512r1 bp512 10
ec_case secp256k1-sha256 secp256k1 secp256k1 8

# ---- EdDSA (RFC 9580 §5.2.3.3 legacy MPIs, §5.2.3.4 native) ----
# The message Ed25519 signs is the OpenPGP digest itself (pure Ed25519, RFC 8032).
ed_key() {
	openssl genpkey -algorithm ed25519 -out "$1"
	openssl pkey -in "$1" -pubout -outform DER | tail -c 32 >"$1.pub"
}
ed_sign() { # keyfile hashid [need-R-leading-zero]
	tries=0
	while :; do
		digest "$(mdlen "$2")"
		openssl pkeyutl -sign -rawin -inkey "$1" -in "$tmp/d.bin" -out "$tmp/s.bin"
		[ -z "${3:-}" ] && break
		[ "$(head -c 1 "$tmp/s.bin" | xxd -p)" = 00 ] && break
		tries=$((tries + 1))
		[ "$tries" -lt 5000 ] || { echo "no short EdDSA R" >&2; exit 1; }
	done
	head -c 32 "$tmp/s.bin" >"$tmp/r.bin"
	tail -c 32 "$tmp/s.bin" >"$tmp/ss.bin"
}
ed_legacy() { # name keyfile hashid [short]
	ed_sign "$2" "$3" "${4:-}"
	emit "$1 22 ed25519 $3 40$(hex "$2.pub") $(hex "$tmp/d.bin") $(hex "$tmp/r.bin"),$(hex "$tmp/ss.bin") ok"
}
ed_native() { # name keyfile hashid
	ed_sign "$2" "$3"
	emit "$1 27 - $3 $(hex "$2.pub") $(hex "$tmp/d.bin") $(hex "$tmp/s.bin") ok"
}
ed_key "$tmp/ed1.pem"
ed_key "$tmp/ed2.pem"
ed_legacy ed25519legacy-sha256 "$tmp/ed1.pem" 8
ed_legacy ed25519legacy-sha512 "$tmp/ed1.pem" 10
ed_legacy ed25519legacyb-sha256 "$tmp/ed2.pem" 8
# R starts with a zero octet: its MPI is 31 octets or shorter (RFC 9580 §5.2.3.3).
ed_legacy ed25519legacy-sha256-shortr "$tmp/ed1.pem" 8 short
ed_native ed25519-sha256 "$tmp/ed1.pem" 8
ed_native ed25519-sha512 "$tmp/ed2.pem" 10
ed_native ed25519-sha384 "$tmp/ed1.pem" 9

{
	echo "# generated by vectors/gen/pk_vectors.sh ($(openssl version | cut -d' ' -f1-2)); do not edit"
	echo "# name algo curve hash key-mpis digest sig-mpis expect"
	cat "$tmp/v"
} >"$out"
echo "wrote $(grep -vc '^#' "$out") cases to $out"
