#!/bin/sh
# tests/cli/keyring_real.sh - a keyring built from the real debian-keyring
# (905 certificates) evaluates like the raw keyring: `inspect --json` of both
# gives, per certificate, the same primary key state, the same primary user
# ID (ties between bindings made in the same second are broken by user ID
# octets, not by packet order: stripped certificates are in canonical order)
# and the same valid subkeys.
W=${WOTKIT:-./wotkit}
RING=/usr/share/keyrings/debian-keyring.gpg
if [ ! -r "$RING" ]; then
	echo "skip - $RING absent (apt-get install debian-keyring)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if "$W" keyring build -o "$tmp/deb.wk" "$RING" 2>"$tmp/build.err"; then
	echo "ok - keyring build of debian-keyring"
else
	echo "not ok - keyring build of debian-keyring"; cat "$tmp/build.err"; exit 1
fi
"$W" inspect --json "$RING" >"$tmp/raw.json" 2>/dev/null
"$W" inspect --json "$tmp/deb.wk" >"$tmp/kr.json" 2>/dev/null
python3 - "$tmp/raw.json" "$tmp/kr.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
idx = lambda d: {c["primary"]["fingerprint"]: c for c in d["certificates"]}
ca, cb = idx(a), idx(b)
print(("ok" if len(ca) == len(cb) == 905 else "not ok") +
      " - 905 certificates on both sides (%d raw, %d keyring)" % (len(ca), len(cb)))
bad = {"state": [], "primary uid": [], "valid subkeys": []}
for f, x in ca.items():
    y = cb.get(f)
    if y is None:
        bad["state"].append(f + " missing")
        continue
    if x["primary"].get("state") != y["primary"].get("state"):
        bad["state"].append("%s %s vs %s" % (f, x["primary"].get("state"), y["primary"].get("state")))
    px = [u.get("value") for u in x["user_ids"] if u.get("primary")]
    py = [u.get("value") for u in y["user_ids"] if u.get("primary")]
    if px != py:
        bad["primary uid"].append("%s %r vs %r" % (f, px, py))
    vx = sorted(s["fingerprint"] for s in x["subkeys"] if s.get("state") == "valid")
    vy = sorted(s["fingerprint"] for s in y["subkeys"] if s.get("state") == "valid")
    if vx != vy:
        bad["valid subkeys"].append(f)
for what, l in bad.items():
    print(("ok" if not l else "not ok") + " - same %s through the keyring (%d differ)" % (what, len(l)))
    for d in l[:10]:
        print("#   " + d)
PY
