#!/bin/sh
# tests/run.sh - runs every test of `make check` and prints "N passed, M failed".
# Components print TAP-style "ok - ..." / "not ok - ..." lines; this counts them.
# A component that exits non-zero without printing "not ok" counts as one failure.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0
WOTKIT="$top/wotkit"; export WOTKIT
WOTKIT_SAN="$top/build-san/wotkit"; export WOTKIT_SAN
: "${WOTKIT_CORPUS:=$top/../shared/corpus}"; export WOTKIT_CORPUS
# tests that run vectors/gen generators need python3 with `cryptography`:
# Debian's /usr/bin/python3 (python3-cryptography) when the default lacks it
if ! python3 -c 'import cryptography' 2>/dev/null && /usr/bin/python3 -c 'import cryptography' 2>/dev/null; then
	PATH="/usr/bin:$PATH"; export PATH
fi

. "$top/tests/lib/tap.sh"
component() { # name, command...
	name=$1; shift
	"$@" >"$log" 2>&1
	tap_count "$log" "$name" $?
}

for t in build/tests/test_*; do
	[ -x "$t" ] && component "unit $(basename "$t")" "$t"
done
for t in build-san/tests/test_*; do
	[ -x "$t" ] && component "unit(asan) $(basename "$t")" "$t"
done
for r in build-san/tests/replay_*; do
	[ -x "$r" ] || continue
	n=$(basename "$r" | sed 's/^replay_//')
	[ -d "tests/fuzz/corpus/$n" ] && component "fuzz-replay $n" "$r" "tests/fuzz/corpus/$n"
done
for c in tests/cli/*.sh; do
	[ -f "$c" ] && component "cli $(basename "$c")" sh "$c"
done
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
