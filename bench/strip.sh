#!/bin/sh
# bench/strip.sh - `wotkit strip` side by side with its peer in one run:
#   1. debian-keyring (905 certificates, ~48,800 signatures) with 1 and 2
#      threads (all certification checks, superseded self-signatures
#      dropped), against `gpg --import --import-options import-clean` +
#      `gpg --export --export-options export-clean` into an empty GNUPGHOME
#      (skipped with --no-gpg: gpg needs minutes);
#   2. the flood vector (a key with 100,000 certifications,
#      vectors/gen/strip.py --flood).
# Prints elapsed and user seconds, peak RSS and ratios (>1.00: wotkit is
# faster). Usage: bench/strip.sh [--no-gpg] [RING]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
gpg=1
[ "${1:-}" = --no-gpg ] && { gpg=0; shift; }
RING=${1:-/usr/share/keyrings/debian-keyring.gpg}
[ -f "$RING" ] || { echo "bench: $RING missing" >&2; exit 2; }
d=${BENCH_DIR:-/tmp/wotkit-bench}/strip
mkdir -p "$d"
[ -f "$d/flood.pgp" ] || python3 "$top/vectors/gen/strip.py" --flood "$d" >/dev/null
run() { # name, command... -> "name elapsed user kB"
	n=$1; shift
	/usr/bin/time -f "%e %U %M" -o "$d/time.$n" "$@" >/dev/null 2>"$d/err.$n" || true
	echo "$n $(tail -1 "$d/time.$n")" >>"$d/results"
}
: >"$d/results"
run wotkit-t1 "$W" strip --binary --threads 1 "$RING"
run wotkit-t2 "$W" strip --binary --threads 2 "$RING"
run wotkit-flood "$W" strip --binary --keyring "$d/ring.pgp" "$d/flood.pgp"
if [ $gpg -eq 1 ] && command -v gpg >/dev/null; then
	h=$(mktemp -d)
	run gpg-import sh -c "GNUPGHOME=$h gpg --batch --quiet --import --import-options import-clean '$RING'"
	run gpg-export sh -c "GNUPGHOME=$h gpg --batch --export --export-options export-clean"
	gpgconf --homedir "$h" --kill gpg-agent 2>/dev/null || true
	rm -rf "$h"
fi
python3 - "$d/results" <<'PY'
import sys
r = {}
for line in open(sys.argv[1]):
    n, e, u, kb = line.split()
    r[n] = (float(e), float(u), int(kb))
print("%-14s %9s %9s %9s" % ("run", "elapsed", "user", "RSS MB"))
for n, (e, u, kb) in r.items():
    print("%-14s %8.2fs %8.2fs %9.1f" % (n, e, u, kb / 1024))
if "wotkit-t1" in r and "wotkit-t2" in r:
    print("threads 2 vs 1: %.2fx (elapsed)" % (r["wotkit-t1"][0] / r["wotkit-t2"][0]))
if "gpg-import" in r:
    g = r["gpg-import"][0] + r["gpg-export"][0]
    print("gpg import-clean + export-clean %.1fs: wotkit strip (2 threads) %.1fx faster"
          % (g, g / r["wotkit-t2"][0]))
PY
