#!/bin/sh
# tests/cli/strip_corpus.sh - `wotkit strip` of the real pgpkeys sample
# ($WOTKIT_CORPUS/pgpkeys/keys, 11 keys): per key, the kept third-party
# certifications (certified user ID, issuer key ID) must equal the verified
# ones ("sig!") in $WOTKIT_CORPUS/pgpkeys/CHECK-SIGS.txt (gpg 2.2.40 over the
# same files), whose signers are by construction inside the sample.
# Differences would be explained in docs/disagreements.md (there are none).
# Skips when the corpus is absent.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }
C=${WOTKIT_CORPUS:-$top/../shared/corpus}/pgpkeys
if [ ! -f "$C/CHECK-SIGS.txt" ] || [ ! -d "$C/keys" ]; then
	echo "skip - pgpkeys corpus absent ($C)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the reference time of CHECK-SIGS.txt (2026-12-02)
"$W" strip --json --at 2026-12-02T23:13:00Z "$C"/keys/*.asc >"$tmp/s.json" 2>"$tmp/err"
rc=$?
[ $rc -eq 0 ] && echo "ok - strip of the sample exits 0" || { echo "not ok - strip exited $rc: $(cat "$tmp/err")"; exit 1; }
"$W" strip --json --at 2026-12-02T23:13:00Z $(ls -r "$C"/keys/*.asc) >"$tmp/r.json" 2>/dev/null
cmp -s "$tmp/s.json" "$tmp/r.json" && echo "ok - files in reverse order: identical report" ||
	{ echo "not ok - reverse order changes the report"; rc=1; }
python3 - "$tmp/s.json" "$C/CHECK-SIGS.txt" <<'PY' || rc=1
import collections, json, re, sys
ours = json.load(open(sys.argv[1]))
mine = {}
for c in ours["certificates"]:
    m = collections.Counter()
    for x in c["certifications"]:
        if x["sigtype"] != 0x30:
            m[(x["uid"] if x["uid"] is not None else "<attribute>", x["issuer_keyid"])] += 1
    mine[c["fingerprint"][-16:]] = m
gpg, pub, uid, want_fpr = {}, None, None, False
text = open(sys.argv[2], errors="replace").read().split("## gpg --check-sigs", 1)[1]
for line in text.splitlines():
    if line.startswith("pub "):
        want_fpr, uid = True, None
        continue
    if want_fpr:
        pub, want_fpr = line.strip()[-16:], False
        gpg[pub] = collections.Counter()
        continue
    if line.startswith("uid "):
        t = line.split("] ", 1)[1] if "] " in line else line[3:].strip()
        uid = "<attribute>" if t.startswith("[jpeg image") or t.startswith("[image") else t
    elif line.startswith("sub "):
        uid = None
    elif line.startswith("sig!") and uid is not None and pub:
        kid = line.split()[1]
        if kid != pub:
            gpg[pub][(uid, kid)] += 1
ok = True
for k in sorted(set(mine) | set(gpg)):
    a, b = mine.get(k, collections.Counter()), gpg.get(k, collections.Counter())
    same = a == b
    ok = ok and same
    print(("ok" if same else "not ok") + " - %s: %d kept certifications, CHECK-SIGS.txt %d%s"
          % (k, sum(a.values()), sum(b.values()),
             "" if same else " (only wotkit: %s; only gpg: %s)" % (dict(a - b), dict(b - a))))
print(("ok" if len(mine) == 11 else "not ok") + " - 11 certificates reported (%d)" % len(mine))
sys.exit(0 if ok and len(mine) == 11 else 1)
PY
exit $rc
