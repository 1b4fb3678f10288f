#!/bin/sh
# A designated revoker's key revocation whose revoker key is absent cannot be
# checked: the signature stays good, and verify and inspect say so (JSON
# revoker_unchecked, a note in human output). With the revoker's key present
# the revocation applies; without any designation no note appears.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
V=$top/vectors/certeval
at=1710000000
check() { # name, expected flag (true/false), keyrings...
	name=$1 want=$2; shift 2
	args=
	for k in "$@"; do args="$args --keyring $V/keys/$k"; done
	got=$("$W" verify --json --at @$at $args "$V/sig/designating.sig" "$V/data/msg.txt" |
	    python3 -c 'import json,sys; s=json.load(sys.stdin)["signatures"][0]; print(str(s["revoker_unchecked"]).lower(), s["status"])')
	if [ "$got" = "$want" ]; then echo "ok - verify: $name ($got)"; else echo "not ok - verify: $name: got '$got', want '$want'"; fi
}
check "revoker absent: good, revocation unchecked" "true ok" desig-direct.pgp
check "revoker present: revoked" "false revoked" desig-direct.pgp revoker.pgp
check "no designation: no note" "false ok" desig-other-key.pgp not-designated.pgp revoker.pgp
out=$("$W" verify --at @$at --keyring "$V/keys/desig-direct.pgp" "$V/sig/designating.sig" "$V/data/msg.txt" 2>&1)
case "$out" in
*"designated revoker"*) echo "ok - verify: human output notes the unchecked revocation" ;;
*) echo "not ok - verify: no note in human output: $out" ;;
esac
j=$("$W" inspect --json --at @$at "$V/keys/desig-direct.pgp" | python3 -c 'import json,sys; print(json.load(sys.stdin)["certificates"][0]["revoker_unchecked"])')
[ "$j" = True ] && echo "ok - inspect --json: revoker_unchecked" || echo "not ok - inspect --json: revoker_unchecked is $j"
"$W" inspect --at @$at "$V/keys/desig-direct.pgp" | grep -q "designated revoker" &&
    echo "ok - inspect: human note" || echo "not ok - inspect: no human note"

# The designated revoker's revocation certificate in a file of its own (as
# `gpg --gen-revoke` by the revoker writes it) revokes too, in any load order;
# without that file the certificate stays good.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$V/keys/desig-direct.pgp" "$tmp/cert.pgp" "$tmp/rev.pgp" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
pk, i = [], 0
while i < len(b):                      # new-format packets (RFC 9580 §4.2.1)
    ctb = b[i]; assert ctb & 0xC0 == 0xC0, "new-format packets expected"
    o = b[i + 1]
    if o < 192: n, h = o, 2
    elif o < 224: n, h = ((o - 192) << 8) + b[i + 2] + 192, 3
    else: assert o == 255; n, h = int.from_bytes(b[i + 2:i + 6], "big"), 6
    pk.append((ctb & 0x3F, b[i:i + h + n])); i += h + n
primary = pk[0][1]
def sigtype(p):                        # v4 signature: version, type, ...
    return p[(2 if p[1] < 192 else 3) + 1]
# the key revocation (0x20): the certificate holds only the revoker's one
revs = [p for t, p in pk[1:] if t == 2 and sigtype(p) == 0x20]
assert len(revs) == 1, len(revs)
open(sys.argv[2], "wb").write(b"".join(p for t, p in pk if p not in revs))
open(sys.argv[3], "wb").write(revs[0])
PY
for order in "cert rev revoker" "rev revoker cert" "revoker cert rev"; do
	args=
	for f in $order; do
		case $f in cert) args="$args --keyring $tmp/cert.pgp" ;; rev) args="$args --keyring $tmp/rev.pgp" ;;
		revoker) args="$args --keyring $V/keys/revoker.pgp" ;; esac
	done
	st=$("$W" verify --json --at @$at $args "$V/sig/designating.sig" "$V/data/msg.txt" |
	    python3 -c 'import json,sys; print(json.load(sys.stdin)["signatures"][0]["status"])')
	[ "$st" = revoked ] && echo "ok - designated revocation in its own file revokes ($order)" ||
	    echo "not ok - designated revocation in its own file ($order): $st"
done
st=$("$W" verify --json --at @$at --keyring "$tmp/cert.pgp" --keyring "$V/keys/revoker.pgp" "$V/sig/designating.sig" "$V/data/msg.txt" |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["signatures"][0]["status"])')
[ "$st" = ok ] && echo "ok - without the revocation file the certificate is good" || echo "not ok - control without revocation: $st"
