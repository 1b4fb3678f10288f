#!/bin/sh
# vectors/gen/gpg_validity.sh - GnuPG's web-of-trust validity of every key
# and user ID in a keyring, for one set of ownertrust values: the oracle of
# vectors/gen/gen_trust.sh and of tests/cli/wot_validity.sh's live check.
#
#   sh vectors/gen/gpg_validity.sh KEYRING OWNERTRUST AT [gpg options...]
#
# KEYRING: OpenPGP keys (binary or armored); OWNERTRUST: a file in
# `gpg --export-ownertrust` format ("FPR:N:" lines); AT: the reference time
# (Unix seconds, given to --faked-system-time); gpg options such as
# --marginals-needed 2, --completes-needed 2, --max-cert-depth 3,
# --min-cert-level 1. In a throwaway GNUPGHOME: import, import the
# ownertrust, --check-trustdb (trust model pgp), then --list-keys
# --with-colons. Prints, TAB-separated,
#
#   pub  FPR  LETTER
#   uid  FPR  LETTER  USER-ID      (user IDs only: no attributes)
#
# LETTER is column 2 of the listing: u f m q - e r (n: never; GnuPG 2.2's
# pgp model does not give it).
set -eu
[ $# -ge 3 ] || { echo "usage: gpg_validity.sh KEYRING OWNERTRUST AT [gpg options]" >&2; exit 2; }
ring=$1 otf=$2 at=$3
shift 3
h=$(mktemp -d)
trap 'GNUPGHOME=$h gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$h"' EXIT
chmod 700 "$h"
g() {
	GNUPGHOME=$h gpg --batch --yes --no-tty --quiet --no-auto-check-trustdb \
	    --faked-system-time "$at!" --trust-model pgp "$@"
}
g --import "$ring" 2>/dev/null
g --import-ownertrust "$otf" 2>/dev/null
g "$@" --check-trustdb 2>/dev/null
g "$@" --list-keys --with-colons 2>/dev/null | awk -F: '
	$1 == "pub" { want = 1; v = $2; next }
	$1 == "fpr" && want { fpr = $10; want = 0; printf "pub\t%s\t%s\n", fpr, v; next }
	$1 == "uid" { u = $10; gsub(/\\x3a/, ":", u); printf "uid\t%s\t%s\t%s\n", fpr, $2, u }
'
