#!/bin/sh
# bench/crc.sh - CRC-32 speed: zlib's crc32() vs libpgp's pgp_crc32
# (PCLMULQDQ folding where the CPU has it, else slice-by-16), and what it
# does to `wotkit wot stats` on a keyring file, which checks the CRC-32 of
# every certificate and index block it reads (docs/keyring-format.md).
#
#  (a) bench/crcbench.c on a 64 MiB buffer, whole and in calls of 4096,
#      256 and 64 octets: median and best of 11 runs, GB/s; exits 1 if any
#      implementation disagrees with zlib;
#  (b) `wotkit wot stats --keyring K`: hyperfine (--warmup 3 --runs 30)
#      wall-time medians, then (with perf) the medians of the CPU time of
#      30 runs alternating with the old binary. With BEFORE_REV=<git
#      revision> (e.g. the commit before the CRC change) that revision is
#      built from `git archive` in a temporary directory and timed too, and
#      the ratios printed.
#
#   KEYRING=/tmp/deb.wk  the keyring file (built from debian-keyring with
#                        `wotkit keyring build` when missing)
#   RUNS=30              hyperfine runs
# The machine may be shared: compare medians, not single runs.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
kr=${KEYRING:-/tmp/deb.wk}
runs=${RUNS:-30}
DK=/usr/share/keyrings/debian-keyring.gpg

make -s build/libpgp.a wotkit
mkdir -p build/bench
${CC:-cc} -std=c11 -O2 -Wall -Wextra -D_DEFAULT_SOURCE -I. -o build/bench/crcbench \
	bench/crcbench.c build/libpgp.a -lz
echo "== (a) CRC-32 throughput (bench/crcbench.c)"
build/bench/crcbench

echo
echo "== (b) wotkit wot stats --keyring $kr"
command -v hyperfine >/dev/null 2>&1 || { echo "crc.sh: hyperfine not found, (b) skipped"; exit 0; }
if [ ! -f "$kr" ]; then
	[ -f "$DK" ] || { echo "crc.sh: $kr missing and no $DK, (b) skipped"; exit 0; }
	./wotkit keyring build -o "$kr" "$DK"
fi
json=$(mktemp)
cpu=$(mktemp)
tmp=""
trap 'rm -f "$json" "$cpu"; [ -z "$tmp" ] || rm -rf "$tmp"' EXIT
after="$top/wotkit"
before=""
if [ -n "${BEFORE_REV:-}" ]; then
	tmp=$(mktemp -d)
	git archive "$BEFORE_REV" | tar -x -C "$tmp"
	make -s -C "$tmp" -j2 build/wotkit >/dev/null
	before="$tmp/build/wotkit"
fi
set -- -n "after (this tree)" "$after wot stats --keyring $kr"
[ -z "$before" ] || set -- "$@" -n "before ($BEFORE_REV)" "$before wot stats --keyring $kr"
hyperfine -N --warmup 3 --runs "$runs" --style basic --export-json "$json" "$@" >/dev/null
echo "wall time (hyperfine, one command after the other):"
jq -r '.results[] | "\(.command)\t\(.median * 1000)"' "$json" |
	awk -F'\t' '{ printf "  %-26s median %7.1f ms\n", $1, $2; m[NR] = $2 }
	    END { if (NR == 2) printf "  %-26s %.2fx\n", "before / after:", m[2] / m[1] }'

# CPU time (task-clock) per run, the two binaries alternating so that the
# load of other jobs falls on both alike
command -v perf >/dev/null 2>&1 && perf stat -x, -e task-clock true >/dev/null 2>&1 || exit 0
for i in $(seq "$runs"); do
	for b in after $([ -z "$before" ] || echo before); do
		if [ "$b" = after ]; then exe=$after; else exe=$before; fi
		perf stat -x, -e task-clock -o "$cpu.one" "$exe" wot stats --keyring "$kr" >/dev/null
		awk -F, -v b="$b" '$3 ~ /task-clock/ { print b, $1 }' "$cpu.one" >>"$cpu"
	done
done
rm -f "$cpu.one"
echo "CPU time (perf stat task-clock, alternating runs):"
sort -k1,1 -k2,2n "$cpu" | awk '{ n[$1]++; v[$1, n[$1]] = $2 }
    END { for (b in n) { m[b] = v[b, int((n[b] + 1) / 2)]; printf "  %-26s median %7.1f ms\n", b, m[b] }
	  if ("before" in n) printf "  %-26s %.2fx\n", "before / after:", m["before"] / m["after"] }'
