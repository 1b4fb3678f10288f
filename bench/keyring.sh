#!/bin/sh
# bench/keyring.sh - the wotkit keyring file against its peers, one run,
# ratios printed (>1.00x means wotkit is faster):
#  (a) `wotkit keyring build` of debian-keyring (plus one generated signer
#      key) vs `gpg --import` + `gpg --check-sigs` into an empty GNUPGHOME
#      (--quick: gpg is not run; the 168 s measured on this machine for
#      issue 13 is used instead); build time, peak RSS, file size;
#  (b) `wotkit verify` of one small signature with the built keyring vs
#      `gpgv --keyring` and `sqv --keyring` on the raw ring, and wotkit on
#      the raw ring;
#  (c) scaling: synthetic 1k / 10k / 100k Ed25519 certificates
#      (bench/gen_certs.py): build time, peak RSS, file size, verify time.
# Needs hyperfine, gpg, gpgv, sqv, /usr/bin/time, python3 + cryptography,
# debian-keyring. Usage: bench/keyring.sh [--quick]   (BENCH_DIR, THREADS)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
for t in hyperfine gpg gpgv sqv python3 /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench: $t missing" >&2; exit 2; }
done
DK=/usr/share/keyrings/debian-keyring.gpg
[ -f "$DK" ] || { echo "bench: $DK missing (apt-get install debian-keyring)" >&2; exit 2; }
quick=0
[ "${1:-}" = --quick ] && quick=1
d=${BENCH_DIR:-/tmp/wotkit-bench-kr}
threads=${THREADS:-0}
runs=20
mkdir -p "$d"

# a signer whose key is appended to the ring (as bench/verify.sh does)
export GNUPGHOME="$d/gnupg"
if [ ! -f "$d/key.pgp" ]; then
	rm -rf "$GNUPGHOME"; mkdir -m 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key 'wotkit bench <bench@wotkit.invalid>' ed25519 sign never
	gpg --batch --export > "$d/key.pgp"
fi
echo "small file" > "$d/small.txt"
gpg --batch --yes --quiet -b -o "$d/small.sig" "$d/small.txt"
cat "$DK" "$d/key.pgp" > "$d/full.gpg"

# "seconds peakKB" of a command (its output discarded)
measure() {
	/usr/bin/time -f '%e %M' -o "$d/time.out" "$@" >/dev/null 2>"$d/cmd.err" || {
		echo "bench: failed: $*" >&2; cat "$d/cmd.err" >&2; exit 2; }
	cat "$d/time.out"
}
median() { # hyperfine json, command name -> median seconds
	python3 -c 'import json,sys
for r in json.load(open(sys.argv[1]))["results"]:
    if r["command"] == sys.argv[2]: print("%.6f" % r["median"])' "$1" "$2"
}
ratio() { python3 -c "import sys; print('%.2fx' % (float(sys.argv[1]) / float(sys.argv[2])))" "$1" "$2"; }
ms() { python3 -c "import sys; print('%.2f ms' % (float(sys.argv[1]) * 1000))" "$1"; }
mb() { python3 -c "import sys; print('%.1f MB' % (float(sys.argv[1]) / 1024))" "$1"; }

echo "== (a) build: debian-keyring ($(wc -c < "$DK") octets) + 1 key, $(nproc) cores"
set -- $(measure "$W" keyring build --threads "$threads" -o "$d/full.wk" "$d/full.gpg")
wb=$1 wrss=$2
wsize=$(wc -c < "$d/full.wk")
grep -v '^wotkit: keyring build: [0-9][0-9]*/' "$d/cmd.err" | tail -1
if [ $quick -eq 1 ]; then
	gb=168.0
	echo "gpg: not run (--quick): using the recorded 85.9 s import + 82.1 s check-sigs = 168 s"
else
	g="$d/gpg-empty"; rm -rf "$g"; mkdir -m 700 "$g"
	set -- $(GNUPGHOME=$g measure gpg --batch --import "$d/full.gpg")
	gi=$1
	set -- $(GNUPGHOME=$g measure gpg --batch --check-sigs)
	gc=$1
	gb=$(python3 -c "print('%.1f' % ($gi + $gc))")
	echo "gpg: import ${gi} s + check-sigs ${gc} s"
fi
echo "wotkit keyring build: ${wb} s, peak RSS $(mb "$wrss"), file $wsize octets; gpg ${gb} s => $(ratio "$gb" "$wb")"

echo "== (b) verify one small signature (signer in the debian ring)"
"$W" verify --keyring "$d/full.wk" "$d/small.sig" "$d/small.txt" 2>/dev/null || { echo "bench: verify through the keyring failed" >&2; exit 2; }
hyperfine -N --warmup 3 --runs $runs --export-json "$d/verify.json" \
	-n wotkit-keyring "$W verify --keyring $d/full.wk $d/small.sig $d/small.txt" \
	-n wotkit-raw "$W verify --keyring $d/full.gpg $d/small.sig $d/small.txt" \
	-n gpgv "gpgv --keyring $d/full.gpg $d/small.sig $d/small.txt" \
	-n sqv "sqv --keyring $d/full.gpg $d/small.sig $d/small.txt" >/dev/null 2>&1
tk=$(median "$d/verify.json" wotkit-keyring)
tr=$(median "$d/verify.json" wotkit-raw)
tg=$(median "$d/verify.json" gpgv)
ts=$(median "$d/verify.json" sqv)
echo "wotkit --keyring full.wk: $(ms "$tk")"
echo "wotkit --keyring full.gpg (raw): $(ms "$tr")  keyring file $(ratio "$tr" "$tk") faster"
echo "gpgv --keyring full.gpg: $(ms "$tg")  => $(ratio "$tg" "$tk")"
echo "sqv --keyring full.gpg: $(ms "$ts")  => $(ratio "$ts" "$tk")"
echo "gpgv vs wotkit raw ring: $(ratio "$tg" "$tr")"

echo "== (c) scaling: synthetic Ed25519 certificates"
printf '%-8s %-10s %-10s %-12s %-14s %-14s\n' certs build peak-RSS file verify-keyring verify-raw
for n in 1000 10000 100000; do
	g="$d/gen-$n"
	[ -f "$g/certs-$n.pgp" ] || python3 "$top/bench/gen_certs.py" "$n" "$g"
	set -- $(measure "$W" keyring build --threads "$threads" -o "$g/k.wk" "$g/certs-$n.pgp")
	b=$1 rss=$2
	hyperfine -N --warmup 3 --runs $runs --export-json "$g/v.json" \
		-n kr "$W verify --keyring $g/k.wk $g/msg.sig $g/msg.txt" \
		-n raw "$W verify --keyring $g/certs-$n.pgp $g/msg.sig $g/msg.txt" >/dev/null 2>&1
	printf '%-8s %-10s %-10s %-12s %-14s %-14s\n' "$n" "${b} s" "$(mb "$rss")" "$(wc -c < "$g/k.wk")" \
	    "$(ms "$(median "$g/v.json" kr)")" "$(ms "$(median "$g/v.json" raw)")"
done
