#!/bin/sh
# gen_kr_corpus.sh - writes the seed corpus of fuzz_kr into tests/fuzz/corpus/kr/:
# keyrings built by `wotkit keyring build` from the project's own vector keys
# (one key, a few keys, the keyset vectors), and damaged copies of one
# (truncated in the section table, a flipped bit in an index block, in the
# certificate data, and in the header checksum).
# usage: sh tests/fuzz/gen_kr_corpus.sh [OUTDIR]   (run from the top, after make)
set -eu
out=${1:-tests/fuzz/corpus/kr}
W=${WOTKIT:-./wotkit}
mkdir -p "$out"
"$W" keyring build -o "$out/one-rsa.wk" vectors/verify/keys/rsa2048.pgp 2>/dev/null
"$W" keyring build -o "$out/four.wk" vectors/verify/keys/rsa2048.pgp \
    vectors/verify/keys/ed25519-subkey.pgp vectors/verify/keys/ed25519-subrev-hard.pgp \
    vectors/verify/keys/dsa2048.pgp 2>/dev/null
"$W" keyring build -o "$out/keyset.wk" vectors/keyset/keys/carol.pgp \
    vectors/keyset/keys/other-revokes-victim-subkey.pgp vectors/keyset/keys/victim-revoked.pgp 2>/dev/null
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]
b = open(out + "/four.wk", "rb").read()
open(out + "/cut-in-table.wk", "wb").write(b[:100])
def flip(name, off):
    c = bytearray(b); c[off] ^= 0x04; open(out + "/" + name, "wb").write(bytes(c))
flip("flip-header-crc.wk", 61)
flip("flip-cert-table.wk", 64 + 8 * 32 + 10)
flip("flip-cert-data.wk", len(b) - 20)
PY
