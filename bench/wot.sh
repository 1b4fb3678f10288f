#!/bin/sh
# bench/wot.sh - the web of trust against its peers, one run, ratios printed
# (>1.00x means wotkit is faster). On a keyring built from debian-keyring
# (1136 certificates, ~39000 verified certifications), rooted at its best
# connected key (the one certifying the most others, `wot stats`):
#  (a) all paths: `wotkit wot path --all` (wotmate's rule, maxdepth 4,
#      maxpaths 4, to every key), under the standard policy and with SHA-1
#      accepted;
#  (b) all validities: `wotkit wot validity` (GnuPG's trust model) with the
#      root ultimate, and with every key fully trusted, vs
#      `gpg --check-trustdb` on the same ring with the same ownertrust
#      (the trust database is rebuilt before each run);
#  (c) `sq-wot --keyring RING --trust-root ROOT list` (Sequoia's web of trust
#      authenticating every binding) on the raw ring.
# Reports mean wall time (hyperfine) and peak RSS (/usr/bin/time).
# Needs hyperfine, gpg, /usr/bin/time, debian-keyring; sq-wot optional.
# Usage: bench/wot.sh   (BENCH_DIR to keep the imported gpg home between runs)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
for t in hyperfine gpg python3 /usr/bin/time; do
	command -v $t >/dev/null || { echo "bench: $t missing" >&2; exit 2; }
done
DK=/usr/share/keyrings/debian-keyring.gpg
[ -f "$DK" ] || { echo "bench: $DK missing (apt-get install debian-keyring)" >&2; exit 2; }
d=${BENCH_DIR:-/tmp/wotkit-bench-wot}
mkdir -p "$d"
K="$d/deb.wk"
[ -f "$K" ] || "$W" keyring build -o "$K" "$DK" 2>/dev/null
ROOT=$("$W" wot stats --keyring "$K" --allow-sha1 --top 1 --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["top"][0]["fpr"])')
echo "root: $ROOT ($("$W" wot stats --keyring "$K" --allow-sha1 --root "$ROOT" --top 0 | tail -1))"

# gpg: the ring imported once (minutes), ownertrust files for both cases
G="$d/gnupg"
if [ ! -f "$d/imported" ]; then
	rm -rf "$G"; mkdir -m 700 "$G"
	echo "importing debian-keyring into gpg (once)..." >&2
	gpg --homedir "$G" --batch --quiet --import "$DK" 2>/dev/null || true
	touch "$d/imported"
fi
echo "$ROOT:6:" >"$d/ot.root"
gpg --homedir "$G" --batch --with-colons --fingerprint 2>/dev/null |
    awk -F: '/^pub/ { p = 1; next } /^fpr/ && p { print $10 ":5:"; p = 0 }' |
    grep -v "^$ROOT:" >"$d/ot.all"
echo "$ROOT:6:" >>"$d/ot.all"
# the same ownertrust for wotkit (gpg's export-ownertrust format)
cp "$d/ot.root" "$d/wk.root.trust"
cp "$d/ot.all" "$d/wk.all.trust"

measure() { # -> "seconds peakKB"
	/usr/bin/time -f '%e %M' -o "$d/time.out" "$@" >/dev/null 2>"$d/cmd.err" || true
	cat "$d/time.out"
}
mean() { # hyperfine json -> mean seconds of command i
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["mean"])' "$1" "$2"
}
rss() { measure "$@" | awk '{ print $2 }'; }

WK="$W wot --keyring $K --root $ROOT"
echo
echo "== (a) all paths, every key (maxdepth 4, maxpaths 4)"
hyperfine -N -w 2 -r 15 --export-json "$d/a.json" \
    "$W wot path --all --keyring $K --root $ROOT" \
    "$W wot path --all --keyring $K --root $ROOT --allow-sha1" \
    "$W wot stats --keyring $K --root $ROOT --top 0" \
    "$W wot stats --keyring $K --root $ROOT --top 0 --allow-sha1" >/dev/null 2>&1
printf '  wotkit, standard policy:  %6.1f ms  %6s KB peak\n' \
    "$(python3 -c "print($(mean "$d/a.json" 0)*1000)")" \
    "$(rss $W wot path --all --keyring "$K" --root "$ROOT")"
printf '  wotkit, SHA-1 accepted:   %6.1f ms  %6s KB peak\n' \
    "$(python3 -c "print($(mean "$d/a.json" 1)*1000)")" \
    "$(rss $W wot path --all --keyring "$K" --root "$ROOT" --allow-sha1)"
# what the paths themselves cost: the same command minus loading the
# keyring and building the graph (`wot stats` does only that)
printf '  of which the paths (minus `wot stats`, the graph alone): %.1f ms standard, %.1f ms SHA-1\n' \
    "$(python3 -c "print(($(mean "$d/a.json" 0)-$(mean "$d/a.json" 2))*1000)")" \
    "$(python3 -c "print(($(mean "$d/a.json" 1)-$(mean "$d/a.json" 3))*1000)")"

echo
echo "== (b) all validities (GnuPG's trust model; SHA-1 accepted, as gpg does)"
for case in root all; do
	hyperfine -N -w 2 -r 15 --export-json "$d/b.$case.json" \
	    "$W wot validity --keyring $K --root $ROOT --allow-sha1 --trust-file $d/wk.$case.trust" >/dev/null 2>&1
	hyperfine -w 1 -r 5 --export-json "$d/g.$case.json" \
	    --prepare "rm -f $G/trustdb.gpg; gpg --homedir $G --batch --quiet --import-ownertrust < $d/ot.$case 2>/dev/null" \
	    "gpg --homedir $G --batch --quiet --check-trustdb" >/dev/null 2>&1
	wk=$(mean "$d/b.$case.json" 0); gg=$(mean "$d/g.$case.json" 0)
	rm -f "$G/trustdb.gpg"; gpg --homedir "$G" --batch --quiet --import-ownertrust <"$d/ot.$case" 2>/dev/null
	grss=$(rss gpg --homedir "$G" --batch --quiet --check-trustdb)
	wrss=$(rss $W wot validity --keyring "$K" --root "$ROOT" --allow-sha1 --trust-file "$d/wk.$case.trust")
	label="root ultimate"; [ $case = all ] && label="all keys full"
	python3 -c "import sys; w,g=float(sys.argv[1]),float(sys.argv[2]); print(f'  {sys.argv[3]:14s} wotkit {w*1000:7.1f} ms {sys.argv[4]:>7} KB | gpg --check-trustdb {g*1000:8.1f} ms {sys.argv[5]:>7} KB | {g/w:6.2f}x')" \
	    "$wk" "$gg" "$label" "$wrss" "$grss"
done

echo
echo "== (c) sq-wot (authenticate every binding from the root)"
if command -v sq-wot >/dev/null; then
	hyperfine -w 1 -r 5 --export-json "$d/c.json" \
	    "sq-wot --keyring $DK --trust-root $ROOT list" \
	    "$W wot validity --keyring $K --root $ROOT" >/dev/null 2>&1 || true
	sq=$(mean "$d/c.json" 0); wk=$(mean "$d/c.json" 1)
	sqrss=$(rss sq-wot --keyring "$DK" --trust-root "$ROOT" list)
	wrss=$(rss $W wot validity --keyring "$K" --root "$ROOT")
	python3 -c "import sys; s,w=float(sys.argv[1]),float(sys.argv[2]); print(f'  sq-wot list {s*1000:8.1f} ms {sys.argv[3]:>7} KB | wotkit validity (standard policy) {w*1000:7.1f} ms {sys.argv[4]:>7} KB | {s/w:6.2f}x')" \
	    "$sq" "$wk" "$sqrss" "$wrss"
else
	echo "  sq-wot not installed (apt-get install sq-wot): skipped"
fi
