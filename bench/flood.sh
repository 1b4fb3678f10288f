#!/bin/sh
# bench/flood.sh - a flooded certificate (issue 12: 1023 junk subkeys, each
# followed by 16 junk key revocations naming the victim; ~2 MB, as anyone can
# append on a keyserver) and four signatures by the victim in one file:
# wotkit vs gpgv vs sqv side by side in one run (hyperfine), and, when
# WOTKIT_OLD names an older wotkit binary, that one too. Prints medians and
# ratios (>1.00 means wotkit is faster).
#   victim-flooded.pgp         junk fails the 2-octet hash-prefix quick reject
#   victim-flooded-prefix.pgp  junk passes it: every check does the math
# Needs hyperfine, gpgv, sqv, python3 with cryptography. Usage: bench/flood.sh [--quick]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
for t in hyperfine gpgv sqv python3; do
	command -v $t >/dev/null || { echo "bench: $t missing (apt-get install hyperfine gpgv sqv python3)" >&2; exit 2; }
done
runs=5
[ "${1:-}" = --quick ] && runs=2
d=${BENCH_DIR:-/tmp/wotkit-bench}/flood
mkdir -p "$d/results"
[ -f "$d/victim-flooded.pgp" ] || python3 "$top/vectors/gen/certeval.py" --flood "$d" >/dev/null
at=1710000000   # the vectors' reference time; gpgv and sqv use the clock (nothing expires)
for ring in victim-flooded victim-flooded-prefix; do
	set -- -n wotkit "$W verify --at @$at --keyring $d/$ring.pgp $d/four.sig $d/data.txt" \
	    -n gpgv "gpgv --keyring $d/$ring.pgp $d/four.sig $d/data.txt" \
	    -n sqv "sqv --keyring $d/$ring.pgp $d/four.sig $d/data.txt"
	[ -n "${WOTKIT_OLD:-}" ] && set -- "$@" -n wotkit-old \
	    "$WOTKIT_OLD verify --at @$at --keyring $d/$ring.pgp $d/four.sig $d/data.txt"
	hyperfine -N -i --warmup 1 --runs "$runs" --export-json "$d/results/$ring.json" "$@" >/dev/null
done
python3 - "$d/results" <<'PY'
import json, os, sys
d = sys.argv[1]
print("%-24s %-11s %10s %9s" % ("keyring", "tool", "median", "wotkit x"))
for name in ("victim-flooded", "victim-flooded-prefix"):
    res = json.load(open(os.path.join(d, name + ".json")))["results"]
    med = {r["command"]: r["median"] for r in res}
    codes = {r["command"]: sorted(set(r.get("exit_codes", []))) for r in res}
    for tool in ("wotkit", "gpgv", "sqv", "wotkit-old"):
        if tool in med:
            print("%-24s %-11s %8.3f s %8.2fx   exit %s" % (name, tool, med[tool], med[tool] / med["wotkit"],
                                                      ",".join(map(str, codes[tool]))))
PY
