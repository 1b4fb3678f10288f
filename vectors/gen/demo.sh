#!/bin/sh
# vectors/gen/demo.sh - generates the demo key of `make run` (vectors/dump/):
#   demo-key.asc   armored certificate: Ed25519 primary (sign+certify), a
#                  cv25519 encryption subkey and an RSA-2048 signing subkey,
#                  user ID "wotkit demo <demo@wotkit.invalid>", created
#                  2024-01-01, no expiry
#   demo.txt       a short text
#   demo.txt.sig   binary detached signature over demo.txt by the RSA subkey
#
#   sh vectors/gen/demo.sh
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/vectors/dump
GNUPGHOME=$(mktemp -d)
export GNUPGHOME
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$GNUPGHOME"' EXIT
T=1704067200 # 2024-01-01T00:00:00Z
g() {
	gpg --batch --yes --no-tty --quiet --pinentry-mode loopback --passphrase '' \
	    --faked-system-time "$T!" "$@" 2>>"$GNUPGHOME/log"
}
mkdir -p "$out"
g --quick-gen-key "wotkit demo <demo@wotkit.invalid>" ed25519 sign,cert never
fpr=$(gpg --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ { print $10; exit }')
g --quick-add-key "$fpr" cv25519 encr never
g --quick-add-key "$fpr" rsa2048 sign never
rsa=$(gpg --with-colons --list-keys 2>/dev/null | awk -F: '/^fpr/ { if (++n == 3) { print $10; exit } }')
[ -n "$rsa" ] || { echo "demo.sh: key generation failed" >&2; cat "$GNUPGHOME/log" >&2; exit 1; }
g --armor --export "$fpr" >"$out/demo-key.asc"
printf 'Hello from wotkit.\nThis file is signed by the RSA-2048 subkey of demo-key.asc.\n' >"$out/demo.txt"
g -u "$rsa!" -o "$out/demo.txt.sig" --detach-sign "$out/demo.txt"
gpgv --keyring "$GNUPGHOME/pubring.kbx" "$out/demo.txt.sig" "$out/demo.txt" 2>/dev/null ||
    { echo "demo.sh: the demo signature does not verify" >&2; exit 1; }
echo "demo.sh: primary $fpr, signing subkey $rsa"
