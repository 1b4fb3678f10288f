#!/bin/sh
# tests/arm64.sh - `make check-arm64`: the aarch64 cross-build (build-arm64/,
# Debian's gcc-aarch64-linux-gnu and the arm64 -dev packages) run under
# qemu-aarch64-static: every unit test (test_hash compares the Armv8 SHA-1,
# SHA-256 and SHA-512 instructions with the portable code and mbedtls), every
# fuzz corpus replay, and the vector and corpus CLI scripts with wotkit
# (under every name it is run by) executed through qemu. Run twice for the
# hash code: on qemu's default CPU ("max": SHA1, SHA2, SHA512 instructions)
# and on a Cortex-A53 (SHA1/SHA2 only: SHA-512 takes the portable path).
# Prints "N passed, M failed, K skipped" like tests/run.sh.
#   ARM64_CLI="a.sh b.sh"   the CLI scripts (default: below)
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
B=build-arm64
Q=$(command -v qemu-aarch64-static || command -v qemu-aarch64)
[ -n "$Q" ] || { echo "not ok - qemu-aarch64-static missing (apt-get install qemu-user-static)"; exit 1; }
[ -x "$B/wotkit" ] || { echo "not ok - $B/wotkit missing (make check-arm64 builds it)"; exit 1; }
# the loader and libraries of the arm64 packages (libc6:arm64, zlib1g:arm64)
QEMU_LD_PREFIX=${QEMU_LD_PREFIX:-/}; export QEMU_LD_PREFIX
log=$(mktemp)
qbin=$top/$B/qbin
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0
. "$top/tests/lib/tap.sh"
component() { # name, command...
	name=$1; shift
	"$@" >"$log" 2>&1
	tap_count "$log" "arm64 $name" $?
	grep '^#.*cpu features' "$log" | head -1
}

# the file really is aarch64
if file "$B/wotkit" | grep -q 'ARM aarch64'; then pass=$((pass + 1)); echo "== arm64 $B/wotkit is an aarch64 executable"
else fail=$((fail + 1)); echo "not ok - $B/wotkit is not aarch64: $(file "$B/wotkit")"; fi

for t in "$B"/tests/test_*; do
	[ -x "$t" ] || continue
	component "unit $(basename "$t")" "$Q" "$t"
done
component "unit test_hash (cortex-a53: no SHA512 instructions)" "$Q" -cpu cortex-a53 "$B/tests/test_hash"
for r in "$B"/tests/replay_*; do
	[ -x "$r" ] || continue
	n=$(basename "$r" | sed 's/^replay_//')
	[ -d "tests/fuzz/corpus/$n" ] && component "fuzz-replay $n" "$Q" "$r" "tests/fuzz/corpus/$n"
done

# wrappers: the CLI scripts run these as $WOTKIT, wotkit-gpg, wotkit-sopv;
# qemu's -0 passes the name, so cmd/main.c's argv[0] dispatch sees it
rm -rf "$qbin" && mkdir -p "$qbin" || exit 2
for n in wotkit wotkit-gpg wotkit-sopv; do
	printf '#!/bin/sh\nexec "%s" -0 "${0##*/}" "%s" "$@"\n' "$Q" "$top/$B/wotkit" >"$qbin/$n"
	chmod +x "$qbin/$n"
done
WOTKIT=$qbin/wotkit; export WOTKIT
: "${WOTKIT_CORPUS:=$top/../shared/corpus}"; export WOTKIT_CORPUS
if ! python3 -c 'import cryptography' 2>/dev/null && /usr/bin/python3 -c 'import cryptography' 2>/dev/null; then
	PATH="/usr/bin:$PATH"; export PATH
fi
for c in ${ARM64_CLI:-verify_vectors.sh adversarial.sh interop.sh certorder.sh certeval.sh keyset.sh \
    message.sh rsa_verify.sh verify_corpus.sh inrelease.sh sopv.sh gpg_dropin.sh policy.sh}; do
	component "cli $c" sh "tests/cli/$c"
done
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
