#!/bin/sh
# tests/cli/fingerprints.sh - the fingerprints `wotkit dump` prints agree with GnuPG.
#
# For every certificate file of the corpus (kind=cert rows of EXPECTED.tsv):
#  - the set of "fingerprint: HEX" lines of the human dump (primary keys and
#    subkeys) is compared with the fpr lines of
#    `gpg --with-colons --import-options show-only --import FILE` in a
#    throwaway GNUPGHOME. gpg drops subkeys without a valid binding and keys
#    without a user ID; the files where that happens are listed below with
#    the reason, and there only "every gpg fingerprint is in the dump" is
#    required;
#  - files gpg cannot import (v3/v5/v6 keys, no user ID, broken certs) fall
#    back to the key IDs of `gpg --list-packets` (which shows v4 key packets
#    it does not import), or are skipped with the reason (v5/v6, v3);
#  - fixed answers: RFC 9580 A.3 (v6) and A.1 (v4 Ed25519Legacy), and the v3
#    key IDs of the v3 test keys.
# TAP-style output: "ok - ...", "not ok - ...", "skip - ...".
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
C=${WOTKIT_CORPUS:-$top/../shared/corpus}
fails=0

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }

if [ ! -x "$W" ]; then
	notok "fingerprints: $W is not built"
	exit 1
fi
if [ ! -f "$C/EXPECTED.tsv" ]; then
	echo "skip - fingerprints: corpus not found at $C (set WOTKIT_CORPUS)"
	exit 0
fi
have_gpg=1
command -v gpg >/dev/null 2>&1 || have_gpg=0

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GNUPGHOME="$tmp/gnupg"
export GNUPGHOME
mkdir -m 700 "$GNUPGHOME"

# File -> reason: gpg shows fewer fingerprints than there are key packets.
subset_reason() {
	case "$1" in
	rnp/keyrings/6/pubring.gpg) echo "gpg drops a subkey whose binding it rejects" ;;
	rnp/test_forged_keys/ecc-p256-pub-no-binding.pgp) echo "subkey has no binding signature" ;;
	rnp/test_forged_keys/eddsa-2012-md5-pub.pgp) echo "subkey bound by an MD5 signature, gpg rejects it" ;;
	rnp/test_forged_keys/rsa-rsa-pub-forged-material.pgp) echo "forged subkey material, binding does not verify" ;;
	rnp/test_forged_keys/rsa-rsa-pub-forged-subkey.pgp) echo "forged subkey, binding does not verify" ;;
	rnp/test_key_edge_cases/alice-sub-sig-fp.pgp) echo "subkey binding gpg does not accept" ;;
	rnp/test_key_edge_cases/alice-sub-sig-keyid.pgp) echo "subkey binding gpg does not accept" ;;
	rnp/test_key_edge_cases/key-sub-crit-note-pub.pgp) echo "subkey binding with an unknown critical notation" ;;
	sequoia/keys/hash-algos/MD5.gpg) echo "MD5 subkey binding rejected by gpg" ;;
	sequoia/keys/testy-broken-no-sig-on-subkey.pgp) echo "subkey without a binding signature" ;;
	*) return 1 ;;
	esac
}

# File -> reason: the dump rejects the file (exit 2) while gpg reads it.
dump_rejects() {
	case "$1" in
	sequoia/keys/bobs-cert-badly-mangled.asc) echo "armor has invalid radix64 characters that gpg skips and we reject" ;;
	*) return 1 ;;
	esac
}

dump_fprs() { # file -> sorted fingerprints
	"$W" dump "$1" 2>/dev/null | sed -n 's/^ *fingerprint: \([0-9A-F]*\)$/\1/p' | sort -u
}
dump_keyids() {
	"$W" dump "$1" 2>/dev/null | sed -n 's/^ *key id: \([0-9A-F]*\)$/\1/p' | sort -u
}

# ---- fixed answers ----
check_fixed() { # file fpr description
	if [ ! -f "$C/$1" ]; then
		echo "skip - fingerprints: $1 missing"
		return
	fi
	if dump_fprs "$C/$1" | grep -qx "$2"; then
		ok "fingerprints: $3 ($1)"
	else
		notok "fingerprints: $3: $2 not in the dump of $1"
	fi
}
check_fixed rfc9580/A.3.transferable-pubkey-v6.asc \
	CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9 "RFC 9580 A.3 v6 primary fingerprint"
check_fixed rfc9580/A.4.transferable-seckey-v6.asc \
	CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9 "RFC 9580 A.4 v6 secret key, public fingerprint"
check_fixed rfc9580/A.3.transferable-pubkey-v6.asc \
	12C83F1E706F6308FE151A417743A1F033790E93E9978488D1DB378DA9930885 "RFC 9580 A.3 v6 subkey fingerprint"
check_fixed rfc9580/A.1.v4-ed25519legacy-key.asc \
	C959BDBAFA32A2F89A153B678CFDE12197965A9A "RFC 9580 A.1 v4 fingerprint"

# v3 keys: gpg 2.2 ignores v3 key packets but lists the v3 self-signature's
# issuer, which is the v3 key ID (low 64 bits of n, RFC 4880 §12.2).
for f in sequoia/keys/john-v3.pgp rnp/keyrings/4/rsav3-p.asc; do
	[ -f "$C/$f" ] || continue
	if [ "$have_gpg" = 0 ]; then
		echo "skip - fingerprints: v3 key ID of $f: gpg not installed"
		continue
	fi
	want=$(gpg --batch --list-packets "$C/$f" 2>/dev/null |
	    sed -n 's/^:signature packet: algo [0-9]*, keyid \([0-9A-F]*\)$/\1/p' | head -1)
	got=$(dump_keyids "$C/$f" | head -1)
	if [ -n "$want" ] && [ "$want" = "$got" ]; then
		ok "fingerprints: v3 key ID $got matches its self-signature ($f)"
	else
		notok "fingerprints: v3 key ID of $f: dump '$got', self-signature issuer '$want'"
	fi
done

if [ "$have_gpg" = 0 ]; then
	echo "skip - fingerprints: gpg not installed, no comparison with GnuPG"
	[ "$fails" -eq 0 ]
	exit
fi

# ---- every certificate file ----
files=$(awk -F'\t' '$2 == "cert" { print $3 }' "$C/EXPECTED.tsv")
compared=0
for f in $files; do
	p="$C/$f"
	[ -f "$p" ] || { echo "skip - fingerprints: $f missing"; continue; }
	if r=$(dump_rejects "$f"); then
		echo "skip - fingerprints: $f: $r"
		continue
	fi
	g=$(gpg --batch --with-colons --import-options show-only --import "$p" 2>/dev/null |
	    awk -F: '$1 == "fpr" { print $10 }' | sort -u)
	w=$(dump_fprs "$p")
	if [ -z "$g" ]; then
		# gpg imports nothing: compare the v4 key IDs it lists, if any
		gk=$(gpg --batch --list-packets "$p" 2>/dev/null |
		    sed -n 's/^	keyid: \([0-9A-F]*\)$/\1/p' | sort -u)
		if [ -z "$gk" ]; then
			v=$(gpg --batch --list-packets "$p" 2>&1 >/dev/null |
			    sed -n 's/.*packet([0-9]*) with unknown version \([0-9]*\).*/\1/p' | head -1)
			if [ -n "$v" ]; then
				echo "skip - fingerprints: $f: gpg cannot read v$v keys"
			elif gpg --batch --list-packets "$p" 2>/dev/null | grep -q 'obsolete version 3'; then
				echo "skip - fingerprints: $f: gpg ignores v3 keys (key ID checked above where known)"
			else
				echo "skip - fingerprints: $f: no key packet gpg can list"
			fi
			continue
		fi
		wk=$(dump_keyids "$p")
		missing=$(printf '%s\n' "$gk" | while read -r k; do
			printf '%s\n' "$wk" | grep -qx "$k" || echo "$k"; done)
		if [ -z "$missing" ]; then
			ok "fingerprints: $f: key IDs agree with gpg --list-packets (gpg does not import it)"
		else
			notok "fingerprints: $f: key IDs missing from the dump: $missing"
		fi
		continue
	fi
	compared=$((compared + 1))
	if [ "$g" = "$w" ]; then
		ok "fingerprints: $f ($(printf '%s\n' "$g" | wc -l | tr -d ' ') keys)"
		continue
	fi
	missing=$(printf '%s\n' "$g" | while read -r k; do
		printf '%s\n' "$w" | grep -qx "$k" || echo "$k"; done)
	if [ -n "$missing" ]; then
		notok "fingerprints: $f: gpg shows $(echo $missing) which the dump lacks"
	elif r=$(subset_reason "$f"); then
		ok "fingerprints: $f: gpg's keys all present; dump has more ($r)"
	else
		notok "fingerprints: $f: dump shows keys gpg does not: $(printf '%s\n' "$w" | grep -vxF "$g" | tr '\n' ' ')"
	fi
done
if [ "$compared" -lt 50 ]; then
	notok "fingerprints: only $compared files compared with gpg (expected about 80)"
else
	ok "fingerprints: $compared files compared with gpg"
fi
[ "$fails" -eq 0 ]
