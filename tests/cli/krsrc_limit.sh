#!/bin/sh
# tests/cli/krsrc_limit.sh - a keys/ file that breaks the key set (a packet
# longer than PGP_MAX_PACKET_BODY: pgp_certset_add marks the whole set
# unusable, cert.h) must fail `keyring build` with a clear error and write
# nothing, wherever the file sorts among the others. Found by fuzz_pgpkeys:
# before the fix, such a file sorted first gave exit 0 and a keyring of 0
# certificates (every other key silently lost), and sorted later it made
# the layout checks fail on an underflowed copy count.
# Inputs are built here from vectors/pgpkeys (vectors/gen/pgpkeys.py).
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
V=$top/vectors/pgpkeys
AT=@1710000000
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
if [ ! -x "$W" ]; then
	echo "not ok - krsrc_limit: $W is not built"
	exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
kid() { awk -v n="$1" '$1 == n { print $2 }' "$V/KEYIDS"; }
A=$(kid alice) B=$(kid bob)
# bob's certificate, then a signature packet (new format, tag 2) whose
# 5-octet length says 2 MiB: above PGP_MAX_PACKET_BODY (1 MiB)
huge() { cat "$V/bob.pgp"; printf '\302\377\000\040\000\000\004\001'; }

# case NAME WANT_RC WANT_CERTS: keyring build of $tmp/NAME
case_() {
	n=$1 want=$2 certs=$3
	rm -f "$tmp/$n.wk"
	"$W" keyring build --at $AT -o "$tmp/$n.wk" "$tmp/$n" >"$tmp/$n.out" 2>"$tmp/$n.err"
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		nok "$n: exit $rc, expected $want"; sed 's/^/# /' "$tmp/$n.err"; return
	fi
	if [ "$want" -ne 0 ]; then
		if ! grep -q "the key set is unusable: nothing is loaded" "$tmp/$n.err"; then
			nok "$n: no clear error"; sed 's/^/# /' "$tmp/$n.err"; return
		fi
		if [ -e "$tmp/$n.wk" ]; then
			nok "$n: a keyring was written"; return
		fi
		ok "$n: refused, nothing written"
		return
	fi
	if grep -q "$certs certificates" "$tmp/$n.err"; then
		ok "$n: $certs certificates"
	else
		nok "$n: expected $certs certificates"; sed 's/^/# /' "$tmp/$n.err"
	fi
}

mkdir -p "$tmp/control/keys"
cp "$V/alice.pgp" "$tmp/control/keys/$A.asc"
cp "$V/bob.pgp" "$tmp/control/keys/$B.asc"
case_ control 0 2

# the breaking file sorts first: before the fix, exit 0 and 0 certificates
mkdir -p "$tmp/first/keys"
huge >"$tmp/first/keys/0000000000000000.asc"
cp "$V/alice.pgp" "$tmp/first/keys/$A.asc"
cp "$V/bob.pgp" "$tmp/first/keys/$B.asc"
case_ first 2 0

# the breaking file sorts last
mkdir -p "$tmp/last/keys"
cp "$V/alice.pgp" "$tmp/last/keys/$A.asc"
huge >"$tmp/last/keys/FFFFFFFFFFFFFFFF.asc"
case_ last 2 0

# armored: the offset is in the dearmored octets, the verdict the same
mkdir -p "$tmp/armored/keys"
cp "$V/alice.pgp" "$tmp/armored/keys/$A.asc"
huge | "$W" armor >"$tmp/armored/keys/$B.asc" 2>/dev/null ||
	{ printf -- '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n'; huge | base64; printf -- '-----END PGP PUBLIC KEY BLOCK-----\n'; } >"$tmp/armored/keys/$B.asc"
case_ armored 2 0

if [ $fails -eq 0 ]; then echo "# krsrc_limit: all passed"; else echo "# krsrc_limit: $fails failed"; fi
[ $fails -eq 0 ]
