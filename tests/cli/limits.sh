#!/bin/sh
# tests/cli/limits.sh - inputs beyond the named limits of pgp/limits.h
# (bench/gen_limits.py, generated here: about 35 MB, seconds): every one is
# refused (never "good"), the error names its limit macro, and time and peak
# RSS stay bounded. Then memory near the size caps: verifying a signed
# cleartext and an armored message stays a small multiple of the input.
# The full sizes (1 GiB) and gpgv/sqv side by side: bench/limits.sh.
# TAP-ish: "ok - ...", "not ok - ...", "skip - ...".
#   WOTKIT   the binary (default ./wotkit)
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-./wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
G=$top/bench/gen_limits.py
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
AT=1710000000
TIME=/usr/bin/time
fail=0
# Bounds. Every case but the partial-chunk bomb is refused from its headers
# or counts: a few MB. The partial bomb has no header naming its size: it
# is inflated up to PGP_MAX_DECOMPRESSED (256 MiB) before the budget stops it.
MAX_RSS_KB=65536
MAX_RSS_BOMB_KB=327680
MAX_SECONDS=20

pass() { echo "ok - $1"; }
flunk() { echo "not ok - $1"; fail=1; }

[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }
if ! python3 -c 'import cryptography' 2>/dev/null; then
	echo "skip - python3 cryptography missing: no inputs"; exit 0
fi
[ -x "$TIME" ] || { echo "skip - peak RSS and time: $TIME missing (apt-get install time)"; TIME=; }
[ -n "$TIME" ] && [ -n "$WOTKIT_UNDER_VALGRIND" ] &&
    { echo "skip - peak RSS and time: under valgrind, whose own memory would count"; TIME=; }

python3 "$G" limits "$T/in" test || { flunk "bench/gen_limits.py limits"; exit 1; }

# run NAME CMD...: stdout/stderr to $T/out, $T/err; "SECONDS RSS_KB" to $T/res
run() {
	if [ -n "$TIME" ]; then
		"$TIME" -f "%e %M" -o "$T/res" "$@" >"$T/out" 2>"$T/err"
		rc=$?
	else
		"$@" >"$T/out" 2>"$T/err"; rc=$?; echo "0 0" >"$T/res"
	fi
	secs=$(tail -n1 "$T/res" | cut -d' ' -f1)
	rss=$(tail -n1 "$T/res" | cut -d' ' -f2)
}

bounded() { # NAME MAX_RSS_KB
	if [ "$rss" -le "$2" ]; then pass "$1: peak RSS ${rss} KB <= $2 KB"
	else flunk "$1: peak RSS ${rss} KB > $2 KB"; fi
	if awk -v s="$secs" -v m="$MAX_SECONDS" 'BEGIN { exit !(s <= m) }'; then
		pass "$1: ${secs} s <= ${MAX_SECONDS} s"
	else flunk "$1: ${secs} s > ${MAX_SECONDS} s"; fi
}

tab=$(printf '\t')
while IFS="$tab" read -r name file ring macro; do
	[ -n "$name" ] || continue
	data=
	case $name in sig-*|sigs-*|cert-*|uid-*|mpi-*) data=$T/in/data.txt ;; esac
	# shellcheck disable=SC2086
	run "$W" verify --at $AT --keyring "$T/in/$ring" "$T/in/$file" $data
	case $rc in
	0) flunk "$name: verify said good (rc 0)" ;;
	1|2) pass "$name: refused (rc $rc)" ;;
	*) flunk "$name: rc $rc (crash?)" ;;
	esac
	if grep -q "$macro" "$T/err" && grep -q "limit" "$T/err"; then
		pass "$name: the error names $macro"
	else
		flunk "$name: stderr does not name $macro"; head -3 "$T/err" | sed 's/^/#   /'
	fi
	if grep -q "good signature\|1 of 1 signature good" "$T/err"; then
		flunk "$name: a good signature reported"
	fi
	max=$MAX_RSS_KB
	case $name in bomb-*-partial) max=$MAX_RSS_BOMB_KB ;; esac
	[ -n "$TIME" ] && bounded "$name" "$max"
done <"$T/in/CASES"

# the CLI's own line for a limit: "limit: <what> (PGP_MAX_...) (offset N)"
run "$W" verify --at $AT --keyring "$T/in/key.pgp" "$T/in/nesting-100-compressed.pgp"
if grep -q "^wotkit: .*: limit: compressed packets nested more than 8 deep (PGP_MAX_NESTING) (offset 0)$" "$T/err"; then
	pass "the error line starts with 'limit:' and names the value and macro"
else
	flunk "limit error line"; sed 's/^/#   /' "$T/err"
fi

# the same inputs through sopv and dump: refused, bounded
# (sopv: 3 is NO_SIGNATURE, 41 BAD_DATA)
run "$W" sopv verify "$T/in/sig-32k-subpackets.pgp" "$T/in/key.pgp" <"$T/in/data.txt"
case $rc in 3) pass "sopv verify: 32k subpackets refused (rc 3)" ;; *) flunk "sopv verify: 32k subpackets rc $rc, want 3" ;; esac
run "$W" sopv inline-verify "$T/in/key.pgp" <"$T/in/bomb-1GiB.pgp"
if [ "$rc" = 41 ] && grep -q PGP_MAX_DATA_BODY "$T/err"; then pass "sopv inline-verify: bomb refused (rc 41), limit named"
else flunk "sopv inline-verify: bomb rc $rc, want 41 naming PGP_MAX_DATA_BODY"; fi
[ -n "$TIME" ] && bounded "sopv inline-verify bomb" "$MAX_RSS_KB"
run "$W" dump "$T/in/partial-70k-chunks.pgp"
if grep -q PGP_MAX_PARTIAL_CHUNKS "$T/out" "$T/err"; then pass "dump names PGP_MAX_PARTIAL_CHUNKS"
else flunk "dump of 70k partial chunks does not name the limit"; fi

# flooded certificates: keyring build keeps the key and drops the flood
# (CVE-2019-13050), and refuses 100k user IDs with the limit named
run "$W" keyring build -o "$T/c.wk" "$T/in/certs100k.pgp"
if [ "$rc" = 0 ] && grep -q "1 certificates, 0 certifications kept, 100000 signatures dropped" "$T/err"; then
	pass "keyring build strips 100k certifications on one user ID"
else flunk "keyring build of 100k certifications (rc $rc)"; head -3 "$T/err" | sed 's/^/#   /'; fi
[ -n "$TIME" ] && bounded "keyring build of 100k certifications" "$MAX_RSS_KB"
run "$W" keyring build -o "$T/u.wk" "$T/in/uids100k.pgp"
if grep -q "PGP_MAX_UIDS" "$T/err" && grep -q " 0 certificates" "$T/err"; then
	pass "keyring build refuses 100k user IDs, naming PGP_MAX_UIDS"
else flunk "keyring build of 100k user IDs (rc $rc)"; head -3 "$T/err" | sed 's/^/#   /'; fi

# --- memory near the caps: a small multiple of the input -----------------
# Peak RSS of a good verification <= 2.5 x the input + 8 MB (the program).
# Before the cleartext was streamed into the hash, cleartext took 3 x.
for kind in cleartext armor; do
	f=$T/$kind-32.asc
	python3 "$G" "$kind" "$f" 32 || { flunk "gen $kind"; continue; }
	python3 "$G" key "$T/key.pgp"
	run "$W" verify --at $AT --keyring "$T/key.pgp" "$f"
	if [ "$rc" = 0 ]; then pass "$kind 32 MiB: good"; else flunk "$kind 32 MiB: rc $rc"; head -3 "$T/err" | sed 's/^/#   /'; fi
	[ -n "$TIME" ] || continue
	size_kb=$(( $(wc -c <"$f") / 1024 ))
	max=$(( size_kb * 5 / 2 + 8192 ))
	if [ "$rss" -le "$max" ]; then pass "$kind: peak RSS ${rss} KB <= 2.5 x ${size_kb} KB + 8 MB"
	else flunk "$kind: peak RSS ${rss} KB > 2.5 x ${size_kb} KB + 8 MB"; fi
	rm -f "$f"
done
exit $fail
