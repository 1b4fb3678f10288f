#!/bin/sh
# bench/hash.sh - libpgp hashing speed vs coreutils and OpenSSL.
#
# Builds bench/hashbench.c against build/libpgp.a, checks that its
# SHA-256/SHA-512 digests of a 1 GiB file equal sha256sum/sha512sum
# (accelerated and portable paths; exits 1 otherwise), then times them
# with hyperfine (--warmup 1 --runs 5) and prints medians and ratios,
# plus `openssl speed -evp sha256/sha512 -bytes 16384 -seconds 2`, and (with
# libssl-dev) bench/hashcmp.c, a best-of-600 in-process libpgp vs OpenSSL run.
#   BENCH_FILE=/path  use another input (default /tmp/wotkit-bench-1g.bin,
#                     created with head -c 1G /dev/urandom when missing)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
f=${BENCH_FILE:-/tmp/wotkit-bench-1g.bin}
hb=build/bench/hashbench
json=$(mktemp)
trap 'rm -f "$json"' EXIT

for tool in hyperfine openssl sha256sum sha512sum jq; do
	command -v "$tool" >/dev/null 2>&1 || { echo "hash.sh: $tool not found" >&2; exit 2; }
done

make -s build/libpgp.a
mkdir -p build/bench
mbed=$(${CC:-cc} -print-file-name=libmbedcrypto.a)
case $mbed in /*) ;; *) mbed=-lmbedcrypto ;; esac
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -I. \
	-o "$hb" bench/hashbench.c build/libpgp.a "$mbed"

[ -f "$f" ] || head -c 1G /dev/urandom >"$f"
echo "input: $f ($(wc -c <"$f") bytes)"
"$hb" -v SHA256 /dev/null >/dev/null
"$hb" -v SHA512 /dev/null >/dev/null

# Digests must match the reference tools, on both code paths.
fail=0
for a in sha256 sha512; do
	want=$(${a}sum "$f" | cut -d' ' -f1)
	for opt in "" -p; do
		got=$("$hb" $opt "$(echo "$a" | tr a-z A-Z)" "$f" | cut -d" " -f1)
		if [ "$got" != "$want" ]; then
			echo "MISMATCH: hashbench $opt $a: $got, ${a}sum: $want" >&2
			fail=1
		fi
	done
done
[ "$fail" -eq 0 ] || exit 1
echo "digests: hashbench (accelerated and portable) == sha256sum/sha512sum"

hyperfine --warmup 1 --runs 5 --style basic --export-json "$json" \
	-n "wotkit sha256" "$hb SHA256 $f" \
	-n "sha256sum" "sha256sum $f" \
	-n "openssl sha256" "openssl dgst -sha256 $f" \
	-n "wotkit sha512" "$hb SHA512 $f" \
	-n "wotkit sha512 portable" "$hb -p SHA512 $f" \
	-n "sha512sum" "sha512sum $f" \
	-n "openssl sha512" "openssl dgst -sha512 $f" >/dev/null

med() { jq -r --arg n "$1" '.results[] | select(.command == $n) | .median' "$json"; }
echo
printf '%-24s %10s %10s\n' "command" "median s" "GB/s"
size=$(wc -c <"$f")
for n in "wotkit sha256" "sha256sum" "openssl sha256" "wotkit sha512" \
    "wotkit sha512 portable" "sha512sum" "openssl sha512"; do
	m=$(med "$n")
	awk -v n="$n" -v m="$m" -v s="$size" 'BEGIN { printf "%-24s %10.3f %10.3f\n", n, m, s / m / 1e9 }'
done
echo
ratio() { awk -v a="$(med "$1")" -v b="$(med "$2")" -v l="$3" 'BEGIN { printf "%-40s %6.2fx\n", l, b / a }'; }
ratio "wotkit sha256" "openssl sha256" "sha256 speed vs openssl dgst:"
ratio "wotkit sha256" "sha256sum" "sha256 speed vs sha256sum:"
ratio "wotkit sha512" "openssl sha512" "sha512 speed vs openssl dgst:"
ratio "wotkit sha512" "sha512sum" "sha512 speed vs sha512sum:"
ratio "wotkit sha512 portable" "openssl sha512" "sha512 (portable C) vs openssl dgst:"
awk -v a="$(med "wotkit sha512")" -v s="$size" 'BEGIN { printf "%-40s %6.2fx\n", "sha512 speed vs sqv (1 GiB in 2.02 s):", (2.02 * s / 1073741824) / a }'
echo
openssl speed -evp sha256 -bytes 16384 -seconds 2 2>/dev/null | tail -1
openssl speed -evp sha512 -bytes 16384 -seconds 2 2>/dev/null | tail -1
# Best-of-600 in-process comparison (robust to other load on the machine).
if [ -f /usr/include/openssl/evp.h ]; then
	${CC:-cc} -std=c11 -O2 -D_DEFAULT_SOURCE -I. -o build/bench/hashcmp bench/hashcmp.c \
		build/libpgp.a "$mbed" -lcrypto
	echo
	build/bench/hashcmp
fi
