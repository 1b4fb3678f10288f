#!/bin/sh
# gen_cert_corpus.sh - writes the seed corpora of fuzz_cert and fuzz_sig
# (tests/fuzz/corpus/cert, tests/fuzz/corpus/sig) from the project's
# generated vectors: binary certificates of every kind the vectors hold
# (bindings, back-signatures, revocations at each place, expiry, designated
# revokers, v4 and v6, keyring-source and strip cases), each under 64 KiB,
# at most 1 MB per corpus. fuzz_sig also gets each detached signature of
# vectors/verify with its signer's certificate before it, so that data
# signatures meet a key.
# usage: sh tests/fuzz/gen_cert_corpus.sh   (run from the top)
set -eu
cert=tests/fuzz/corpus/cert sig=tests/fuzz/corpus/sig
mkdir -p "$cert" "$sig"
# crash-* inputs found by the fuzzers are kept (regressions)
find "$cert" "$sig" -type f ! -name 'crash-*' -delete
total=0
for f in $(find vectors/certeval vectors/keyset vectors/verify/keys vectors/adversarial/keys \
    vectors/pgpkeys vectors/strip vectors/sopv-validate vectors/trust vectors/hostile \
    -type f \( -name '*.pgp' -o -name '*.rev' \) -size -64k 2>/dev/null | LC_ALL=C sort); do
	sz=$(wc -c <"$f")
	[ $((total + sz)) -gt 800000 ] && break
	total=$((total + sz))
	n=$(echo "$f" | sed 's|^vectors/||; s|/|-|g')
	cp "$f" "$cert/$n"
	cp "$f" "$sig/$n"
done
# detached signatures with their signer (vectors/verify/MANIFEST: sig, keys)
v=vectors/verify
grep -v '^#' $v/MANIFEST | awk -F'\t' '$2 == "detached" {print $3 "\t" $5}' | head -40 |
while IFS="$(printf '\t')" read -r s keys; do
	k=$(echo "$keys" | cut -d, -f1)
	[ -f "$v/$s" ] && [ -f "$v/$k" ] || continue
	cat "$v/$k" "$v/$s" >"$sig/detached-$(basename "$s")"
done
echo "cert: $(ls $cert | wc -l) files, $(cat $cert/* | wc -c) octets; sig: $(ls $sig | wc -l) files, $(cat $sig/* | wc -c) octets"
