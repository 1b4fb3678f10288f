#!/bin/sh
# `wotkit inspect`: certificate states at the reference time. TAP output.
W=${WOTKIT:-./wotkit}
V=vectors/verify/keys
C=${WOTKIT_CORPUS:-../shared/corpus}
t=$(mktemp)
trap 'rm -f "$t"' EXIT

expect() { # name, grep-pattern, args...
	name=$1 pat=$2; shift 2
	"$W" inspect "$@" >"$t" 2>&1
	if grep -q -- "$pat" "$t"; then echo "ok - $name"; else
		echo "not ok - $name: no line matching '$pat'"; sed 's/^/# /' "$t" | head -20; fi
}
expect "missing back-signature: cannot sign" "cannot sign: signing subkey has no primary key binding" "$V/rsa2048-no-backsig.pgp"
expect "broken back-signature: cannot sign" "cannot sign:" "$V/rsa2048-bad-backsig.pgp"
expect "revoked primary" "revoked (primary key revoked)" "$V/rsa2048-primary-revoked.pgp"
expect "hard-revoked subkey" "revoked (subkey revoked)" "$V/rsa2048-subrev-hard.pgp"
expect "expired primary now" "expired (primary key expired)" "$V/rsa2048-expired.pgp"
expect "expired primary, valid in 2020" ": valid" --at 2020-07-01 "$V/rsa2048-expired.pgp"
expect "plain key valid" "uid wotkit vector rsa2048 .*: valid (primary)" "$V/rsa2048.pgp"
if "$W" inspect --json "$V"/*.pgp | python3 -m json.tool >/dev/null 2>&1; then
	echo "ok - --json over every vector key is valid JSON"
else
	echo "not ok - --json output is not valid JSON"
fi
if "$W" inspect /nonexistent >/dev/null 2>&1; then echo "not ok - missing file accepted"; else
	echo "ok - missing file: non-zero exit"; fi
if [ -d "$C/pgpkeys/keys" ]; then
	expect "pgpkeys: Harald Hoyer's key is revoked" "revoked (primary key" --at 2026-12-02 "$C/pgpkeys/keys/034EB370014DF270.asc"
	expect "pgpkeys: Linus's primary UID is valid" "uid Linus Torvalds <torvalds@linux-foundation.org>: valid (primary)" --at 2026-12-02 "$C/pgpkeys/keys/79BE3E4300411886.asc"
	expect "pgpkeys: SHA-1 self-signatures refused" "refused by policy (policy: SHA-1 self-signatures" --at 2026-12-02 "$C/pgpkeys/keys/07F4DE8139DD5990.asc"
	expect "pgpkeys: Konstantin's revoked user ID" "(LinuxFoundation.org email address) <konstantin@linuxfoundation.org>: revoked" --at 2026-12-02 "$C/pgpkeys/keys/E63EDCA9329DD07E.asc"
else
	echo "skip - corpus not found"
fi
