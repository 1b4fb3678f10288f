#!/bin/sh
# tests/cli/holder_order.sh - when several certificates hold a signature's
# issuer key and the signature fails through all of them, the failure
# reported (status, certificate named) does not depend on the order of the
# key set: a candidate whose math held first, then the lowest primary
# fingerprint (pgp/verify.c). vectors/adversarial stolen-subkey-both-certs
# under a policy refusing RSA below 3072 bits gave `policy` with the
# attacker's file first and `unusable-key` with the victim's first.
W=${WOTKIT:-./wotkit}
V=vectors/adversarial
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'key-min-bits 3072 2020-01-01 rsa\n' >"$tmp/policy"
fail=0
run() { # label, keyring files...
	label=$1; shift
	args=""
	for k in "$@"; do args="$args --keyring $V/keys/$k"; done
	# shellcheck disable=SC2086
	"$W" verify --json --at @1710000000 --policy "$tmp/policy" $args \
	    "$V/sig/ctl-subkey.sig" "$V/data/msg.txt" 2>/dev/null |
	    python3 -c 'import json,sys; d=json.load(sys.stdin); s=d["signatures"][0]; print(s.get("status"), s.get("cert"))'
}
a=$(run a attacker-steals-subkey.pgp victim.pgp)
b=$(run b victim.pgp attacker-steals-subkey.pgp)
if [ -n "$a" ] && [ "$a" = "$b" ]; then
	echo "ok - same failure whatever the order of the key set ($a)"
else
	echo "not ok - failure depends on the order of the key set: '$a' vs '$b'"
	fail=1
fi
case "$a" in
ok*) echo "not ok - the policy refuses RSA-2048 here, yet the signature is good"; fail=1 ;;
*) echo "ok - refused under the policy ($a)" ;;
esac
# the default policy still finds the good candidate, in both orders
for order in "attacker-steals-subkey.pgp victim.pgp" "victim.pgp attacker-steals-subkey.pgp"; do
	args=""
	for k in $order; do args="$args --keyring $V/keys/$k"; done
	# shellcheck disable=SC2086
	if "$W" verify --at @1710000000 $args "$V/sig/ctl-subkey.sig" "$V/data/msg.txt" 2>/dev/null; then
		echo "ok - good through the victim's certificate ($order)"
	else
		echo "not ok - not good with $order"; fail=1
	fi
done
exit $fail
