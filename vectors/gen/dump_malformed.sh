#!/bin/sh
# vectors/gen/dump_malformed.sh - hand-made malformed inputs for `wotkit dump`.
# usage: sh vectors/gen/dump_malformed.sh [OUTDIR]   (default vectors/dump/malformed)
# Every file is written with printf octal escapes, so the bytes are exactly
# what this script says. Expected results are in vectors/dump/MANIFEST.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$top/vectors/dump/malformed}
mkdir -p "$out"

# octal escape of one byte value
o() { printf '\\%03o' "$1"; }
# write bytes given as octal-escaped text
w() { printf "$2" >"$out/$1"; }

# new-format CTB for tag 2 (signature) without its length octet
w truncated-header.pgp '\302'
# user ID (tag 13) claiming 16 octets, 3 present
w body-past-end.pgp '\315\020abc'
# bit 7 of the first octet clear: not a packet
w invalid-ctb.pgp '\000\001\002'
# a good user ID packet "alice" (7 octets), then an invalid CTB at offset 7
w garbage-after-uid.pgp '\315\005alice\077'
# compressed (tag 8), ZLIB, stream cut after one deflate octet
w zlib-truncated.pgp '\310\005\002\170\234\113\004'
# compressed, raw deflate (ZIP): a stored block "x", then one extra octet
w zip-trailing-octet.pgp '\310\010\001\001\001\000\376\377x\000'
# compressed, BZip2 is not implemented (not malformed: exit 0, shown unsupported)
w bzip2-unsupported.pgp '\310\005\003BZh9'
# v4 signature whose hashed area (3 octets at offset 8) holds a subpacket of length 5
w subpacket-past-area.pgp '\302\020\004\000\001\010\000\003\005\002\000\000\000\253\315\000\001\001'
# user attribute (tag 17) with a zero-length subpacket at offset 2
w uattr-zero-length.pgp '\321\001\000'
# v4 RSA key: n = 0x01FF stored with bit count 10 (actual 9), MPI at offset 8
w mpi-bad-bit-count.pgp '\306\015\004\000\000\000\000\001\000\012\001\377\000\002\003'
# literal data: file name length 5, 1 octet left
w literal-truncated.pgp '\313\003b\005a'
# v3 one-pass signature with one octet too many (offset 15)
w ops-trailing-octet.pgp '\304\016\003\000\010\001\021\042\063\104\125\146\167\210\001\000'
# armored user ID "abc" with a wrong CRC-24
printf -- '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nzQNhYmM=\n=AAAA\n-----END PGP PUBLIC KEY BLOCK-----\n' \
    >"$out/armor-bad-checksum.asc"

# 9 compressed packets (algorithm 0, uncompressed) nested in each other around
# a literal packet: one more than PGP_MAX_NESTING (8).
lit='\313\007b\000\000\000\000\000x'
printf "$lit" >"$out/.nest"
i=0
while [ "$i" -lt 9 ]; do
	n=$(($(wc -c <"$out/.nest") + 1))
	{ printf "\\310$(o "$n")\\000"; cat "$out/.nest"; } >"$out/.nest2"
	mv "$out/.nest2" "$out/.nest"
	i=$((i + 1))
done
mv "$out/.nest" "$out/compressed-nested-9.pgp"
