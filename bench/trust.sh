#!/bin/sh
# bench/trust.sh - time of GnuPG's classic trust model in wotkit
# (keyring/trust.h) over a real web: Debian's keyrings (debian-keyring,
# debian-maintainers, debian-nonupload: ~1200 keys, ~41k certifications)
# built into a wotkit keyring, the best-connected key ultimately trusted and
# every key it certified fully trusted. Builds bench/trustbench.c against
# build/libpgp.a; prints the graph build time and the computation's best and
# median of 50 runs, then the end-to-end `wotkit wot validity` time.
#   BENCH_DIR (default /tmp/wotkit-bench-trust), AT (default 2022-12-24)
# Needs debian-keyring (apt-get install debian-keyring).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
d=${BENCH_DIR:-/tmp/wotkit-bench-trust}
at=${AT:-1671840000}
k=/usr/share/keyrings
for f in debian-keyring.gpg debian-maintainers.gpg debian-nonupload.gpg; do
	[ -f "$k/$f" ] || { echo "bench: $k/$f missing (apt-get install debian-keyring)" >&2; exit 2; }
done
make -s wotkit build/libpgp.a
mkdir -p "$d" build/bench
mbed=$(${CC:-cc} -print-file-name=libmbedcrypto.a)
case $mbed in /*) ;; *) mbed=-lmbedcrypto ;; esac
sodium=$(pkg-config --variable=libdir libsodium 2>/dev/null)/libsodium.a
[ -f "$sodium" ] || sodium=-lsodium
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -I. \
	-o build/bench/trustbench bench/trustbench.c build/libpgp.a "$mbed" "$sodium" -lz -pthread
[ -f "$d/debian.wk" ] || ./wotkit keyring build -o "$d/debian.wk" \
	"$k/debian-keyring.gpg" "$k/debian-maintainers.gpg" "$k/debian-nonupload.gpg"
build/bench/trustbench "$d/debian.wk" "$at" auto 50
s=$(date +%s%N)
./wotkit wot validity --keyring "$d/debian.wk" --at "@$at" \
	--root "$(build/bench/trustbench "$d/debian.wk" "$at" auto 1 | sed -n 's/^root: //p')" >/dev/null
e=$(date +%s%N)
echo "wotkit wot validity (open, graph, compute, print): $(( (e - s) / 1000000 )) ms"
