#!/bin/sh
# tests/slow/debian_checksigs.sh - `wotkit strip` of Debian's keyring against
# `gpg --import` + `gpg --check-sigs` of the same file (make check-slow; a
# few minutes: gpg needs ~3). Per certificate, the kept third-party
# certifications (0x10-0x13) must equal gpg's good ("sig!") certifications
# by keys of the ring, under gpg 2.2's rule that SHA-1 third-party
# certifications made after 2019-01-19 are invalid (GnuPG 2.2.18 NEWS).
# Every class of difference is explained in docs/disagreements.md.
# Prints the differences, one "ok"/"not ok" line, and the timings.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
RING=${1:-/usr/share/keyrings/debian-keyring.gpg}
if [ ! -f "$RING" ]; then echo "skip - $RING absent"; exit 0; fi
if ! command -v gpg >/dev/null; then echo "skip - gpg absent"; exit 0; fi
tmp=$(mktemp -d)
trap 'gpgconf --homedir "$tmp/gnupg" --kill gpg-agent 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/gnupg"
t0=$(date +%s.%N)
"$W" strip --json "$RING" >"$tmp/strip.json"
rc=$?
t1=$(date +%s.%N)
if [ "$rc" -gt 1 ]; then echo "not ok - wotkit strip exited $rc"; exit 1; fi
GNUPGHOME="$tmp/gnupg" gpg --batch --quiet --import "$RING" 2>"$tmp/import.log"
t2=$(date +%s.%N)
GNUPGHOME="$tmp/gnupg" gpg --batch --with-colons --check-sigs >"$tmp/colons" 2>"$tmp/check.log"
t3=$(date +%s.%N)
python3 - "$tmp/strip.json" "$tmp/colons" <<'PY'
import json, sys, datetime
ours = json.load(open(sys.argv[1]))
CUT = datetime.datetime(2019, 1, 19, tzinfo=datetime.timezone.utc)
def when(s):
    return datetime.datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
mine, mine_sha1 = {}, {}
for c in ours["certificates"]:
    n = s1 = 0
    for x in c["certifications"]:
        if x["sigtype"] == 0x30:
            continue
        if x["hash_algo"] == 2 and when(x["created"]) >= CUT:
            s1 += 1
        else:
            n += 1
    mine[c["fingerprint"]] = n
    mine_sha1[c["fingerprint"]] = s1
gpg, pub, fpr, in_uid = {}, None, None, False
for line in open(sys.argv[2], errors="replace"):
    f = line.rstrip("\n").split(":")
    if f[0] == "pub":
        pub, fpr, in_uid = f[4], None, False
    elif f[0] == "fpr" and fpr is None:
        fpr = f[9]
        gpg[fpr] = 0
    elif f[0] in ("uid", "uat"):
        in_uid = True
    elif f[0] == "sub":
        in_uid = False
    elif f[0] == "sig" and in_uid and fpr:
        cls = f[10][:2]
        if f[1] == "!" and f[4] != pub and cls in ("10", "11", "12", "13"):
            gpg[fpr] += 1
diff = []
for k in sorted(set(mine) | set(gpg)):
    a, b = mine.get(k), gpg.get(k)
    if a != b:
        diff.append((k, a, b, mine_sha1.get(k, 0)))
tot_m = sum(mine.values()); tot_g = sum(gpg.values())
print("# certificates: wotkit %d, gpg %d" % (len(mine), len(gpg)))
print("# kept certifications: wotkit %d (+%d SHA-1 after 2019-01-19, not counted), gpg sig! %d"
      % (tot_m, sum(mine_sha1.values()), tot_g))
for k, a, b, s1 in diff:
    print("# differs: %s wotkit %s gpg %s" % (k, a, b))
print(("ok" if not diff else "not ok") + " - debian-keyring: kept certifications per key equal gpg --check-sigs (%d differences)" % len(diff))
sys.exit(1 if diff else 0)
PY
rc=$?
echo "# wotkit strip: $(echo "$t1 - $t0" | bc) s; gpg --import: $(echo "$t2 - $t1" | bc) s; gpg --check-sigs: $(echo "$t3 - $t2" | bc) s"
exit $rc
