#!/bin/sh
# bench/verify.sh - wotkit vs gpgv vs sqv, side by side in one run (hyperfine).
#  (a) a small detached signature against the full debian-keyring (signer's
#      key appended), and against a one-key keyring;
#  (b) 1 GiB of data signed with SHA-256 and with SHA-512, plus the hashing
#      floor `openssl speed -evp sha256|sha512`.
# Prints medians and ratios (>1.00 means wotkit is faster). Needs hyperfine,
# gpg, gpgv, sqv, openssl, debian-keyring. Usage: bench/verify.sh [--quick]
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
for t in hyperfine gpg gpgv sqv openssl python3; do
	command -v $t >/dev/null || { echo "bench: $t missing (apt-get install hyperfine gnupg gpgv sqv openssl)" >&2; exit 2; }
done
DK=/usr/share/keyrings/debian-keyring.gpg
[ -f "$DK" ] || { echo "bench: $DK missing (apt-get install debian-keyring)" >&2; exit 2; }
runs=10; bigruns=3
[ "${1:-}" = --quick ] && { runs=3; bigruns=1; }
d=${BENCH_DIR:-/tmp/wotkit-bench}
mkdir -p "$d"
export GNUPGHOME="$d/gnupg"
if [ ! -f "$d/key.pgp" ]; then
	rm -rf "$GNUPGHOME"; mkdir -m 700 "$GNUPGHOME"
	gpg --batch --quiet --passphrase '' --quick-gen-key 'wotkit bench <bench@wotkit.invalid>' ed25519 sign never
	gpg --batch --export > "$d/key.pgp"
fi
echo "small file" > "$d/small.txt"
gpg --batch --yes --quiet -b -o "$d/small.sig" "$d/small.txt"
cat "$DK" "$d/key.pgp" > "$d/full.gpg"
if [ ! -f "$d/1g.bin" ]; then
	head -c 1073741824 /dev/urandom > "$d/1g.bin"
fi
for h in SHA256 SHA512; do
	[ -f "$d/1g.$h.sig" ] || gpg --batch --yes --quiet --digest-algo $h -b -o "$d/1g.$h.sig" "$d/1g.bin"
done

json="$d/results"
mkdir -p "$json"
bench() { # name, runs, cmds...
	n=$1; r=$2; shift 2
	hyperfine -N --warmup 1 --runs "$r" --export-json "$json/$n.json" "$@" >/dev/null 2>&1 || \
	hyperfine --warmup 1 --runs "$r" --export-json "$json/$n.json" "$@" >/dev/null
}
bench ring-full $runs \
	-n wotkit "$W verify --keyring $d/full.gpg $d/small.sig $d/small.txt" \
	-n gpgv "gpgv --keyring $d/full.gpg $d/small.sig $d/small.txt" \
	-n sqv "sqv --keyring $d/full.gpg $d/small.sig $d/small.txt"
bench ring-one $runs \
	-n wotkit "$W verify --keyring $d/key.pgp $d/small.sig $d/small.txt" \
	-n gpgv "gpgv --keyring $d/key.pgp $d/small.sig $d/small.txt" \
	-n sqv "sqv --keyring $d/key.pgp $d/small.sig $d/small.txt"
for h in SHA256 SHA512; do
	bench "1g-$h" $bigruns \
		-n wotkit "$W verify --keyring $d/key.pgp $d/1g.$h.sig $d/1g.bin" \
		-n gpgv "gpgv --keyring $d/key.pgp $d/1g.$h.sig $d/1g.bin" \
		-n sqv "sqv --keyring $d/key.pgp $d/1g.$h.sig $d/1g.bin"
done
s256=$(openssl speed -evp sha256 -bytes 16384 -seconds 2 2>/dev/null | awk '/^sha256/ {print $NF}')
s512=$(openssl speed -evp sha512 -bytes 16384 -seconds 2 2>/dev/null | awk '/^sha512/ {print $NF}')
python3 - "$json" "$s256" "$s512" <<'PY'
import json, sys, os
d, s256, s512 = sys.argv[1], sys.argv[2], sys.argv[3]
def floor(s):  # openssl prints e.g. 1771234.56k (1000-byte units per second)
    s = s.rstrip("k")
    return float(s) * 1000.0
print("%-12s %-8s %10s %8s" % ("case", "tool", "median", "wotkit x"))
for name in ("ring-full", "ring-one", "1g-SHA256", "1g-SHA512"):
    res = json.load(open(os.path.join(d, name + ".json")))["results"]
    med = {r["command"]: r["median"] for r in res}
    w = med["wotkit"]
    for tool in ("wotkit", "gpgv", "sqv"):
        m = med[tool]
        unit = "%8.1f ms" % (m * 1000) if m < 1 else "%8.3f s " % m
        print("%-12s %-8s %s %7.2fx" % (name, tool, unit, m / w))
    if name.startswith("1g"):
        bps = floor(s256 if name.endswith("256") else s512)
        fl = (1 << 30) / bps
        print("%-12s %-8s %8.3f s  %7.2fx   (openssl speed -evp %s: %.2f GB/s; wotkit %.2f GB/s = %.2f of the floor)"
              % (name, "floor", fl, fl / w, name[3:].lower(), bps / 1e9, (1 << 30) / w / 1e9, fl / w))
PY
