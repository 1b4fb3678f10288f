#!/bin/sh
# bench/rawring.sh - wotkit vs gpgv vs sqv with RAW keyring files, side by
# side in one run (hyperfine), ratios printed (>1.00: wotkit is faster).
#  end:     a small signature by a key appended to debian-keyring (28.5 MB,
#           905 certificates): the signer is the last certificate
#  start:   the same key put before debian-keyring
#  dd:      a signature naming a Debian developer's RSA-4096 key in the middle
#           of debian-keyring (bench/issuer_sig.py: a random value, so BAD,
#           after the same lookup, certificate evaluation and RSA operation)
#  inrel:   Debian's InRelease against debian-archive-keyring (3 signatures)
#  inrel-dk: the same against debian-keyring + debian-archive-keyring in one file
# WOTKIT_OLD=path adds an older wotkit binary as a fourth column.
# Needs hyperfine, gpg, gpgv, sqv, python3, debian-keyring, debian-archive-keyring.
# Usage: bench/rawring.sh [--quick]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
for t in hyperfine gpg gpgv sqv python3; do
	command -v $t >/dev/null || { echo "bench: $t missing (apt-get install hyperfine gnupg gpgv sqv)" >&2; exit 2; }
done
DK=/usr/share/keyrings/debian-keyring.gpg
AK=/usr/share/keyrings/debian-archive-keyring.gpg
for f in $DK $AK; do [ -f "$f" ] || { echo "bench: $f missing" >&2; exit 2; }; done
IR=$(ls /var/lib/apt/lists/*_dists_*[a-z]_InRelease 2>/dev/null | grep -v -e updates -e security | head -1)
[ -n "$IR" ] || IR=$(ls /var/lib/apt/lists/*InRelease 2>/dev/null | head -1)
[ -n "$IR" ] || { echo "bench: no InRelease in /var/lib/apt/lists (apt-get update)" >&2; exit 2; }
runs=30
[ "${1:-}" = --quick ] && runs=5
d=${BENCH_DIR:-/tmp/wotkit-bench-rawring}
mkdir -p "$d"
export GNUPGHOME="$d/gnupg"
if [ ! -f "$d/key.pgp" ]; then
	rm -rf "$GNUPGHOME"; mkdir -m 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key 'wotkit bench <bench@wotkit.invalid>' ed25519 sign never
	gpg --batch --export > "$d/key.pgp"
fi
echo "small file" > "$d/small.txt"
gpg --batch --yes --quiet -b -o "$d/small.sig" "$d/small.txt"
cat "$DK" "$d/key.pgp" > "$d/end.gpg"
cat "$d/key.pgp" "$DK" > "$d/start.gpg"
cat "$DK" "$AK" > "$d/dk-ak.gpg"
# the RSA-4096 primary key in the middle of debian-keyring (file order)
fpr=$(gpg --no-default-keyring --trust-model always --keyring "$DK" --with-colons --fingerprint 2>/dev/null |
    awk -F: '$1 == "pub" { p = ($4 == 1 && $3 == 4096 && $12 ~ /S/); getline; if (p) print $10 }' |
    awk '{ a[NR] = $0 } END { print a[int((NR + 1) / 2)] }')
python3 "$top/bench/issuer_sig.py" "$fpr" "$d/small.txt" "$d/dd.sig"

json="$d/results"
mkdir -p "$json"
old=${WOTKIT_OLD:-}
bench() { # name, with-sqv, args...
	n=$1; s=$2; shift 2
	set -- -n wotkit "$W verify $*" -n gpgv "gpgv $*" ${s:+-n sqv "sqv $*"} \
	    ${old:+-n wotkit-old "$old verify $*"}
	hyperfine -N -i --warmup 3 --runs "$runs" --export-json "$json/$n.json" "$@" >/dev/null 2>&1
}
# sqv verifies detached signatures only: not the cleartext InRelease
bench end sqv --keyring "$d/end.gpg" "$d/small.sig" "$d/small.txt"
bench start sqv --keyring "$d/start.gpg" "$d/small.sig" "$d/small.txt"
bench dd sqv --keyring "$DK" "$d/dd.sig" "$d/small.txt"
bench inrel "" --keyring "$AK" "$IR"
bench inrel-dk "" --keyring "$d/dk-ak.gpg" "$IR"

python3 - "$json" "$fpr" "$IR" <<'PY'
import json, os, sys
d = sys.argv[1]
print("dd: signature naming %s; InRelease: %s" % (sys.argv[2], os.path.basename(sys.argv[3])))
# wall-clock medians, and CPU time (user + system, mean): on a shared
# machine the CPU time is the steadier of the two
print("%-9s %-10s %9s %9s %9s %9s %9s" % ("case", "tool", "median", "min", "cpu", "x median", "x cpu"))
for name in ("end", "start", "dd", "inrel", "inrel-dk"):
    res = json.load(open(os.path.join(d, name + ".json")))["results"]
    by = {r["command"]: r for r in res}
    w = by["wotkit"]["median"]
    wc = by["wotkit"]["user"] + by["wotkit"]["system"]
    for tool in ("wotkit", "gpgv", "sqv", "wotkit-old"):
        if tool not in by:
            continue
        r = by[tool]
        c = r["user"] + r["system"]
        print("%-9s %-10s %6.1f ms %6.1f ms %6.1f ms %8.2fx %8.2fx" % (name, tool,
              r["median"] * 1e3, r["min"] * 1e3, c * 1e3, r["median"] / w, c / wc))
PY
