#!/bin/sh
# bench/static.sh - the static wotkit (`make static`: musl, -Os, stripped)
# against the dynamic one (`make`: glibc, -O2, libsodium and mbedcrypto
# already static, libz dynamic), side by side in one run, with gpgv and sqv
# for scale. Prints sizes (the dynamic binary also stripped, for a fair
# comparison), start-up time (`--version`), a small verify, a verify through
# a keyring file, and hashing a 64 MiB file (the hash code is the same; the C
# library's read and memcpy differ). Ratios > 1.00x: static is faster.
# Needs hyperfine, gpg (to make the signature), gpgv, sqv.
# Usage: bench/static.sh   (BENCH_DIR, RUNS)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
D="$top/wotkit" S="$top/static/wotkit"
[ -x "$D" ] && [ -x "$S" ] || { echo "build first: make && make static" >&2; exit 2; }
for t in hyperfine gpg gpgv sqv; do
	command -v $t >/dev/null || { echo "bench: $t missing" >&2; exit 2; }
done
d=${BENCH_DIR:-/tmp/wotkit-bench-static}
runs=${RUNS:-200}
mkdir -p "$d"
export GNUPGHOME="$d/gnupg"
if [ ! -f "$d/key.pgp" ]; then
	rm -rf "$GNUPGHOME"; mkdir -m 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key 'wotkit bench <bench@wotkit.invalid>' ed25519 sign never
	gpg --batch --export >"$d/key.pgp"
	echo "small file" >"$d/small.txt"
	gpg --batch --yes --quiet -b -o "$d/small.sig" "$d/small.txt"
	head -c 67108864 /dev/urandom >"$d/big.bin"
	gpg --batch --yes --quiet --digest-algo SHA256 -b -o "$d/big.sig" "$d/big.bin"
fi
"$D" keyring build -o "$d/k.wk" "$d/key.pgp" 2>/dev/null

cp "$D" "$d/wotkit-dynamic-stripped" && strip "$d/wotkit-dynamic-stripped"
sz() { wc -c <"$1" | tr -d ' '; }
echo "== size (octets)"
printf '  dynamic, as built (-g):  %s\n' "$(sz "$D")"
printf '  dynamic, stripped:       %s (+ %s)\n' "$(sz "$d/wotkit-dynamic-stripped")" \
    "$(ldd "$D" | awk '/=>/ { printf "%s ", $1 }')"
printf '  static (musl, stripped): %s (nothing else)\n' "$(sz "$S")"

mean() { # the mean of hyperfine's JSON export, seconds
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$@"
}
ratio() { python3 -c 'import sys; print("%.2fx" % (float(sys.argv[1]) / float(sys.argv[2])))' "$1" "$2"; }
row() { # name, json: dynamic index 0, static index 1
	dy=$(mean "$2" 0) st=$(mean "$2" 1)
	printf '  %-34s dynamic %8.3f ms   static %8.3f ms   %s\n' "$1" \
	    "$(python3 -c "print($dy*1000)")" "$(python3 -c "print($st*1000)")" "$(ratio "$dy" "$st")"
}
h() { hyperfine -N --warmup 20 --runs "$runs" --export-json "$@" >/dev/null 2>&1; }

h "$d/startup.json" "$D --version" "$S --version"
h "$d/verify.json" "$D verify --keyring $d/key.pgp $d/small.sig $d/small.txt" \
    "$S verify --keyring $d/key.pgp $d/small.sig $d/small.txt" \
    "gpgv --keyring $d/key.pgp $d/small.sig $d/small.txt" \
    "sqv --keyring $d/key.pgp $d/small.sig $d/small.txt"
h "$d/kr.json" "$D verify --keyring $d/k.wk $d/small.sig $d/small.txt" \
    "$S verify --keyring $d/k.wk $d/small.sig $d/small.txt"
runs=10
h "$d/big.json" "$D verify --keyring $d/key.pgp $d/big.sig $d/big.bin" \
    "$S verify --keyring $d/key.pgp $d/big.sig $d/big.bin"
echo "== time (mean of hyperfine runs; ratio dynamic/static)"
row "start-up (--version)" "$d/startup.json"
row "verify, small file, key file" "$d/verify.json"
row "verify through a keyring file" "$d/kr.json"
row "verify 64 MiB (SHA-256)" "$d/big.json"
printf '  %-34s gpgv %8.3f ms   sqv %8.3f ms\n' "(scale) verify, small file" \
    "$(python3 -c "print($(mean "$d/verify.json" 2)*1000)")" "$(python3 -c "print($(mean "$d/verify.json" 3)*1000)")"
