#!/bin/sh
# RFC 9580 Appendix A: the v4 Ed25519Legacy signature over "OpenPGP" (A.2),
# the v6 cleartext (A.6) and inline-signed (A.7) samples verify good; a
# one-bit change in the data or in the signature fails. TAP output.
W=${WOTKIT:-./wotkit}
C=${WOTKIT_CORPUS:-../shared/corpus}/rfc9580
if [ ! -d "$C" ]; then echo "skip - corpus rfc9580/ not found"; exit 0; fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
AT="--at 2026-12-02T12:00:00Z"

check() { # expected-rc, name, args...
	want=$1 name=$2; shift 2
	"$W" verify $AT "$@" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then echo "ok - $name (rc=$rc)"; else
		echo "not ok - $name: rc=$rc, want $want"; sed 's/^/# /' "$t/out"; fi
}
# flip one bit of octet N (0-based) of file IN into OUT
flip() {
	python3 -c 'import sys
d = bytearray(open(sys.argv[1], "rb").read()); n = int(sys.argv[3])
d[n] ^= 1; open(sys.argv[2], "wb").write(d)' "$1" "$2" "$3"
}

check 0 "A.2 v4 Ed25519Legacy signature over OpenPGP" --keyring "$C/A.1.v4-ed25519legacy-key.asc" \
	"$C/A.2.v4-ed25519legacy-sig.asc" "$C/A.2.message-OpenPGP.txt"
printf 'OpenPGQ' > "$t/data"
check 1 "A.2 with one bit of the data flipped" --keyring "$C/A.1.v4-ed25519legacy-key.asc" \
	"$C/A.2.v4-ed25519legacy-sig.asc" "$t/data"
# the binary signature, then one bit flipped in the last octet (inside S)
python3 - "$C/A.2.v4-ed25519legacy-sig.asc" "$t/sig.bin" <<'PY'
import sys, base64
lines = open(sys.argv[1]).read().splitlines()
b = [l for l in lines[lines.index("") + 1:] if l and not l.startswith("-----") and not l.startswith("=")]
s = "".join(b); s += "=" * (-len(s) % 4)
open(sys.argv[2], "wb").write(base64.b64decode(s))
PY
n=$(($(wc -c < "$t/sig.bin") - 1))
check 0 "A.2 signature de-armored" --keyring "$C/A.1.v4-ed25519legacy-key.asc" "$t/sig.bin" "$C/A.2.message-OpenPGP.txt"
flip "$t/sig.bin" "$t/sig.flip" "$n"
check 1 "A.2 with one bit of the signature flipped" --keyring "$C/A.1.v4-ed25519legacy-key.asc" \
	"$t/sig.flip" "$C/A.2.message-OpenPGP.txt"
check 0 "A.2 variant with MPI bit count 256" --keyring "$C/A.1.v4-ed25519legacy-key.asc" \
	"$C/A.2.variant-mpi-bitcount-256.sig.asc" "$C/A.2.message-OpenPGP.txt"

check 0 "A.6 v6 cleartext-signed" --keyring "$C/A.3.transferable-pubkey-v6.asc" \
	"$C/A.6.-sample-cleartext-signed-message.asc"
sed 's/What we need from the grocery store/What we need from the grocery storE/' \
	"$C/A.6.-sample-cleartext-signed-message.asc" > "$t/a6"
if cmp -s "$t/a6" "$C/A.6.-sample-cleartext-signed-message.asc"; then
	echo "not ok - A.6 tamper did not change the file"
else
	check 1 "A.6 with one letter of the text changed" --keyring "$C/A.3.transferable-pubkey-v6.asc" "$t/a6"
fi
check 0 "A.7 v6 inline-signed" --keyring "$C/A.3.transferable-pubkey-v6.asc" \
	"$C/A.7.-sample-inline-signed-message.asc"
"$W" verify $AT --keyring "$C/A.3.transferable-pubkey-v6.asc" --output "$t/content" \
	"$C/A.7.-sample-inline-signed-message.asc" >/dev/null 2>&1
if grep -q 'What we need from the grocery store' "$t/content" 2>/dev/null; then
	echo "ok - A.7 --output writes the literal data"
else
	echo "not ok - A.7 --output did not write the literal data"
fi
check 1 "A.2 against the v6 certificate (wrong key)" --keyring "$C/A.3.transferable-pubkey-v6.asc" \
	"$C/A.2.v4-ed25519legacy-sig.asc" "$C/A.2.message-OpenPGP.txt"
rm -f "$t/none"
"$W" verify $AT --keyring "$C/A.1.v4-ed25519legacy-key.asc" --output "$t/none" \
	"$C/A.7.-sample-inline-signed-message.asc" >/dev/null 2>&1
rc=$?
if [ "$rc" = 1 ] && [ ! -e "$t/none" ]; then
	echo "ok - failed verification writes no --output file"
else
	echo "not ok - failed verification: rc=$rc, output file $(test -e "$t/none" && echo exists || echo absent)"
fi
