#!/bin/sh
# bench/pk.sh - public-key verification: libpgp vs `openssl speed`, one run.
#
# Builds bench/pkbench.c against build/libpgp.a and prints, per operation,
# microseconds per verification for
#   openssl     `openssl speed -seconds N rsa2048 rsa3072 rsa4096 dsa2048
#               ecdsap256 ecdsap384 ed25519` (the verify column)
#   wotkit      pgp_pk_verify: RSA via pgp/mont.c, ECDSA and DSA via mbedtls,
#               Ed25519 via libsodium
#   mbedtls-ctx RSA through mbedtls_rsa_rsassa_pkcs1_v15_verify, context set
#               up once (what mbedtls can do at best)
#   mbedtls-old RSA as pk_rsa.c did it before mont.c: a context built, checked
#               and freed per verification
#   openssl-inproc  RSA_verify of libcrypto timed inside pkbench like the
#               others (with libssl-dev): the fairest of the ratios, as
#               `openssl speed` reports a mean and pkbench a best-of
# and the ratio of each to openssl (x > 1: slower than openssl).
#   PK_SECONDS=N  seconds per openssl measurement (default 2), best of
#   PK_REPEAT=N   runs (default 3); pkbench takes the best of 400 short
#                 rounds over 1 s per line.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
secs=${PK_SECONDS:-2}
command -v openssl >/dev/null 2>&1 || { echo "pk.sh: openssl not found (apt-get install openssl)" >&2; exit 2; }

make -s build/libpgp.a
mkdir -p build/bench
mbed=$(${CC:-cc} -print-file-name=libmbedcrypto.a)
case $mbed in /*) ;; *) mbed=-lmbedcrypto ;; esac
sodium=$(pkg-config --variable=libdir libsodium 2>/dev/null)/libsodium.a
[ -f "$sodium" ] || sodium=-lsodium
ossl=
[ -f /usr/include/openssl/rsa.h ] && ossl="-DWITH_OPENSSL -lcrypto" # libssl-dev
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_DEFAULT_SOURCE -I. -o build/bench/pkbench \
	bench/pkbench.c build/libpgp.a "$sodium" "$mbed" $ossl

out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "openssl: $(openssl version)"
# openssl speed averages over its whole run; like pkbench, keep the best of
# PK_REPEAT runs (default 3) so that other load on the machine counts less.
i=0
while [ "$i" -lt "${PK_REPEAT:-3}" ]; do
	openssl speed -seconds "$secs" rsa2048 rsa3072 rsa4096 dsa2048 ecdsap256 ecdsap384 ed25519 \
		2>/dev/null | awk '
		/^rsa [0-9]+ bits/ { printf "rsa%s openssl %.3f\n", $2, 1e6 / $NF }
		/^dsa [0-9]+ bits/ { printf "dsa%s openssl %.3f\n", $2, 1e6 / $NF }
		/ecdsa \(nistp256\)/ { printf "ecdsap256 openssl %.3f\n", 1e6 / $NF }
		/ecdsa \(nistp384\)/ { printf "ecdsap384 openssl %.3f\n", 1e6 / $NF }
		/EdDSA \(Ed25519\)/ { printf "ed25519 openssl %.3f\n", 1e6 / $NF }'
	i=$((i + 1))
done | awk '!($1 in best) || $3 < best[$1] { best[$1] = $3 }
	END { for (o in best) printf "%s openssl %.3f\n", o, best[o] }' >"$out"
build/bench/pkbench -t 1 >>"$out"

echo
printf '%-10s %-12s %12s %10s\n' op impl "us/verify" "vs openssl"
for op in rsa2048 rsa3072 rsa4096 ecdsap256 ecdsap384 dsa2048 ed25519; do
	ref=$(awk -v o="$op" '$1 == o && $2 == "openssl" { print $3 }' "$out")
	awk -v o="$op" -v ref="${ref:-0}" '$1 == o && $2 != "openssl-inproc" {
		if (ref > 0) printf "%-10s %-12s %12.1f %9.2fx\n", $1, $2, $3, $3 / ref
		else printf "%-10s %-12s %12.1f %10s\n", $1, $2, $3, "-" }' "$out"
done
echo
# In-process, same timing method: wotkit / openssl-inproc.
awk '$2 == "openssl-inproc" { o[$1] = $3 } $2 == "wotkit" { w[$1] = $3 }
	END { for (k in o) if (k in w) printf "%-10s wotkit %8.1f us, openssl in-process %8.1f us: %5.2fx\n", k, w[k], o[k], w[k] / o[k] }' "$out" | sort
echo
# RSA-4096 certifications in debian-keyring (~38k): time on one core.
awk '$1 == "rsa4096" { printf "38,453 RSA-4096 checks on one core: %-12s %6.2f s\n", $2, $3 * 38453 / 1e6 }' "$out"
