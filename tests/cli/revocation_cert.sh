#!/bin/sh
# A revocation certificate kept as its own file (gpg writes one per key to
# openpgp-revocs.d/) revokes the key when it is loaded with it, in either
# order and from a keyring directory. TAP output. Needs gpg.
W=${WOTKIT:-$(pwd)/wotkit}
command -v gpg >/dev/null 2>&1 || { echo "skip - gpg not installed"; exit 0; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
export GNUPGHOME="$t/g"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'rev test <rev@wotkit.invalid>' ed25519 sign never 2>/dev/null
gpg --batch --export > "$t/key.pgp"
echo data > "$t/data"
gpg --batch --quiet -b -o "$t/data.sig" "$t/data"
rev=$(ls "$GNUPGHOME"/openpgp-revocs.d/*.rev)
# gpg prefixes the BEGIN line with ':' so that it is not imported by accident
sed 's/^:-----BEGIN/-----BEGIN/' "$rev" > "$t/rev.asc"
check() { # want-rc name args...
	want=$1 name=$2; shift 2
	"$W" verify "$@" "$t/data.sig" "$t/data" > "$t/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then echo "ok - $name (rc=$rc)"; else
		echo "not ok - $name: rc=$rc, want $want"; sed 's/^/# /' "$t/out"; fi
}
check 0 "key alone: good" --keyring "$t/key.pgp"
check 1 "key, then its revocation certificate: revoked" --keyring "$t/key.pgp" --keyring "$t/rev.asc"
check 1 "revocation certificate first: revoked" --keyring "$t/rev.asc" --keyring "$t/key.pgp"
grep -q 'revoked' "$t/out" && echo "ok - the verdict says revoked" || echo "not ok - the verdict does not say revoked"
mkdir "$t/ring"
cp "$t/key.pgp" "$t/ring/key.pgp"
cp "$t/rev.asc" "$t/ring/a-revocation.asc"
check 1 "keyring directory with both: revoked" --keyring "$t/ring"
# a revocation certificate of another key changes nothing
GNUPGHOME="$t/g2"; export GNUPGHOME
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'other <other@wotkit.invalid>' ed25519 sign never 2>/dev/null
sed 's/^:-----BEGIN/-----BEGIN/' "$GNUPGHOME"/openpgp-revocs.d/*.rev > "$t/other-rev.asc"
check 0 "another key's revocation certificate: still good" --keyring "$t/key.pgp" --keyring "$t/other-rev.asc"
