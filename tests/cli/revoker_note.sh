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
