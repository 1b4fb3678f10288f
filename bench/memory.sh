#!/bin/sh
# bench/memory.sh - peak RSS of `wotkit verify` on good signed cleartext
# (RFC 9580 §7) and armored inline-signed messages of 1, 16, 64 and 250 MiB
# (250: close to PGP_MAX_DATA_BODY, 256 MiB), inputs from bench/gen_limits.py
# made once in $BENCH_DIR/memory (about 0.8 GB). Prints input size, time,
# peak RSS and RSS / input. WOTKIT_OLD=path adds an older binary's figures.
#   bench/memory.sh [SIZES...]     (default: 1 16 64 250)
#   bench/memory.sh --clean        delete the inputs
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
W=${WOTKIT:-$top/wotkit}
d=${BENCH_DIR:-/tmp/wotkit-bench}/memory
[ "${1:-}" = --clean ] && { rm -rf "$d"; exit 0; }
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
sizes=${*:-1 16 64 250}
mkdir -p "$d"
G=$top/bench/gen_limits.py
[ -f "$d/key.pgp" ] || python3 "$G" key "$d/key.pgp"
printf '%-10s %-9s %5s %12s %8s %10s %6s\n' binary kind MiB "input bytes" seconds "peak KB" ratio
for s in $sizes; do
	for kind in cleartext armor; do
		f=$d/$kind-$s.asc
		[ -f "$f" ] || python3 "$G" "$kind" "$f" "$s" || exit 2
		size=$(wc -c <"$f")
		for b in new ${WOTKIT_OLD:+old}; do
			bin=$W; [ "$b" = old ] && bin=$WOTKIT_OLD
			/usr/bin/time -f "%e %M" -o "$d/res" "$bin" verify --at 1710000000 \
			    --keyring "$d/key.pgp" "$f" >/dev/null 2>"$d/err" || { echo "verify failed: $f" >&2; cat "$d/err" >&2; }
			set -- $(tail -n1 "$d/res")
			printf '%-10s %-9s %5s %12s %8s %10s %6s\n' "$b" "$kind" "$s" "$size" "$1" "$2" \
			    "$(awk -v r="$2" -v n="$size" 'BEGIN { printf "%.2f", r * 1024 / n }')"
		done
	done
done
