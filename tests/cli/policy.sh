#!/bin/sh
# tests/cli/policy.sh - `wotkit verify --policy FILE`: every refusal names
# the rule actually applied, and malformed policy files are errors that name
# FILE:LINE (issue 12). Vectors: vectors/verify (RSA-2048, RSA-1024, DSA-1024
# and DSA-2048 keys with SHA-256 signatures). TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
V=$top/vectors/verify
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fails=0

run() { # expected-rc name policy-text key sig
	want=$1 name=$2 text=$3 key=$4 sig=$5
	printf '%b' "$text" >"$t/pol"
	"$W" verify --policy "$t/pol" --keyring "$V/keys/$key" "$V/sig/$sig" "$V/data/msg.bin" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then echo "ok - $name (rc=$rc)"; else
		echo "not ok - $name: rc=$rc, want $want"; sed 's/^/# /' "$t/err" | head -6; fails=$((fails + 1)); fi
}
has() { # name pattern
	if grep -qF -- "$2" "$t/err"; then echo "ok - $1"; else
		echo "not ok - $1: stderr lacks '$2'"; sed 's/^/# /' "$t/err" | head -6; fails=$((fails + 1)); fi
}
lacks() { # name pattern
	if grep -qF -- "$2" "$t/err"; then
		echo "not ok - $1: stderr has '$2'"; sed 's/^/# /' "$t/err" | head -6; fails=$((fails + 1)); else
		echo "ok - $1"; fi
}

# the refusal names the policy file's rule, not the built-in one
run 1 "key-min-bits 4096 refuses RSA-2048" 'key-min-bits 4096 2014-02-01\n' rsa2048.pgp rsa2048-sha256.sig
has "the refusal names the file's rule" "policy file line 1: RSA keys below 4096 bits are rejected after 2014-02-01"
lacks "the refusal does not quote the built-in 2048-bit rule" "below 2048 bits"
run 1 "key-min-bits 3072 for rsa only" '# comment\n\nkey-min-bits 3072 2020-01-01T00:00:00Z rsa\n' rsa2048.pgp rsa2048-sha256.sig
has "the refusal names line 3" "policy file line 3: RSA keys below 3072 bits"
run 0 "key-min-bits 3072 for dsa leaves RSA-2048 alone" 'key-min-bits 3072 2020-01-01 dsa\n' rsa2048.pgp rsa2048-sha256.sig
run 0 "key-min-bits 2048 accepts RSA-2048" 'key-min-bits 2048 2014-02-01\n' rsa2048.pgp rsa2048-sha256.sig
# the built-in rule names the family it applies to
run 1 "built-in rule refuses RSA-1024" '# nothing\n' rsa1024.pgp rsa1024-sha256.sig
has "the built-in refusal names RSA and its cutoff" "policy: RSA keys below 2048 bits are rejected after 2014-02-01"
run 0 "key-min-bits 1024 never accepts RSA-1024" 'key-min-bits 1024 never\n' rsa1024.pgp rsa1024-sha256.sig

# malformed files: exit 2, FILE:LINE and what is wrong
run 2 "4096abc is not a number" 'key-min-bits 4096abc never\n' rsa2048.pgp rsa2048-sha256.sig
has "FILE:LINE names line 1" "pol:1: "
has "the error says what is wrong" "decimal number"
run 2 "an over-long line is an error" "# fine\n$(printf '%300s' '' | tr ' ' '#')\nkey-min-bits 1024 never\n" rsa1024.pgp rsa1024-sha256.sig
has "FILE:LINE names line 2" "pol:2: "
has "the error says the line is too long" "too long"
run 2 "a rule pushed past 255 octets is not cut off" "$(printf '%250s' '')key-min-bits 1024 never\n" rsa1024.pgp rsa1024-sha256.sig
run 2 "a date that does not exist" 'key-min-bits 1024 2021-02-29\n' rsa1024.pgp rsa1024-sha256.sig
has "FILE:LINE for the date" "pol:1: "
run 2 "an unknown family" 'key-min-bits 1024 never ecdsa\n' rsa1024.pgp rsa1024-sha256.sig
[ "$fails" -eq 0 ]
