#!/bin/sh
# Seeds for fuzz_verify: the project's own generated vectors (certificates,
# detached signatures, inline and cleartext messages), and each signed
# message with its signer's certificate prepended (so the self-verification
# in the target reaches the signature math). Run from the repository top.
set -e
out=tests/fuzz/corpus/verify
rm -rf "$out"; mkdir -p "$out"
v=vectors/verify
i=0
for f in $v/keys/rsa2048.pgp $v/keys/ed25519.pgp $v/keys/dsa2048.pgp $v/keys/nistp256.pgp \
	$v/sig/rsa2048-sha256.sig $v/sig/ed25519-sha256.sig; do
	[ -f "$f" ] && cp "$f" "$out/seed-$(basename "$f")"
done
grep -v '^#' $v/MANIFEST | awk -F'\t' '$2 != "detached" {print $3 "\t" $5}' | head -12 |
while IFS="$(printf '\t')" read -r sig keys; do
	i=$((i + 1))
	k=$(echo "$keys" | cut -d, -f1)
	cat "$v/$k" "$v/$sig" > "$out/msg-$i.bin" 2>/dev/null || true
	cp "$v/$sig" "$out/plain-$i.bin" 2>/dev/null || true
done
# nested compressed levels with padding, marker and 40-63 packets (pktskip.c)
for f in vectors/message/msg/nested-*.pgp; do
	cp "$f" "$out/$(basename "$f" .pgp).bin"
done
ls "$out" | wc -l
