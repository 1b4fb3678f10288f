#!/bin/sh
# vectors/gen/gen_submission.sh - writes vectors/submission/ (all of it,
# including MANIFEST): keys submitted to a pgpkeys.git-style keyring, nonce
# challenges and their signatures for `wotkit submission check`, and a
# keyring of keys that expire around a fixed date for `wotkit expiring`.
# Made by gpg 2.2 in a throwaway GNUPGHOME with fixed --faked-system-time;
# the expected outcome of every case is written from its intent, never from
# wotkit's output. Run by hand, commit what it wrote:
#
#     sh vectors/gen/gen_submission.sh      # ~15 s
#
# The keys (and so the bytes) are new on every run; the meaning of every
# case is not. tests/cli/submission.sh and tests/cli/expiring.sh run every
# MANIFEST line. Tools: gpg 2.2 (gnupg), python3 (vectors/gen/pgp_edit.py).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/vectors/submission
tmp=$(mktemp -d)
export GNUPGHOME=$tmp/gnupg
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill gpg-agent >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out/keys" "$out/ring" "$out/nonce" "$out/expiring"

# Times (UTC, faked). Submission checks run at AT=2026-06-01 (after the
# 2023-02-01 SHA-1 self-signature cutoff of the policy).
T0=20250101T000000     # submission keys are made
T1=20250201T000000     # certifications of the path-to-root keyring
NONCE_T=20260530T120000 # the nonce is signed
# Expiring keys are judged at 2026-06-01T00:00:00Z = 1780272000 with a 30-day window.
AT_UNIX=1780272000
DAY=86400

g() { # TIME ARGS...: gpg at a faked time, unattended
	when=$1
	shift
	gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase '' --yes \
	    --faked-system-time "${when}!" "$@" >>"$tmp/log" 2>&1
}

# newkey VAR TIME "USER ID" ALGO USAGE EXPIRE [gpg options]: VAR gets the
# fingerprint (the new file in openpgp-revocs.d names it)
newkey() {
	var=$1 when=$2 uid=$3 algo=$4 usage=$5 exp=$6
	shift 6
	ls "$GNUPGHOME/openpgp-revocs.d" 2>/dev/null | sort >"$tmp/before"
	g "$when" "$@" --quick-gen-key "$uid" "$algo" "$usage" "$exp"
	f=$(ls "$GNUPGHOME/openpgp-revocs.d" | sort | comm -13 "$tmp/before" - | sed 's/\.rev$//')
	[ -n "$f" ] || { echo "no new key for $uid" >&2; cat "$tmp/log" >&2; exit 1; }
	eval "$var=$f"
}

addkey() { # TIME FPR ALGO USAGE EXPIRE [gpg options]: a subkey
	when=$1 fpr=$2 algo=$3 usage=$4 exp=$5
	shift 5
	g "$when" "$@" --quick-add-key "$fpr" "$algo" "$usage" "$exp"
}

certify() { # TIME CERTIFIER TARGET: a SHA-256 certification (0x10) of every user ID
	g "$1" --default-key "$2" --cert-digest-algo SHA256 --no-ask-cert-expire \
	    --quick-sign-key "$3"
}

revoke_key() { # TIME FPR: a key revocation (0x20, reason 1 compromised), imported
	printf 'y\n1\nwotkit test vector\n\ny\n' |
	    gpg --no-tty --pinentry-mode loopback --passphrase '' --yes \
	    --faked-system-time "$1!" --command-fd 0 -a --gen-revoke "$2" >"$tmp/rev.asc" 2>>"$tmp/log"
	g "$1" --import "$tmp/rev.asc"
}

put() { # DIR/NAME FPR: DIR/NAME.asc, armored (as `gpg -a --export` submits it)
	gpg --batch -a --export "$2" >"$out/$1.asc"
	[ -s "$out/$1.asc" ] || { echo "empty export of $1" >&2; exit 1; }
}

# --- the path-to-root keyring: ROOT certifies MIDDLE -----------------------
newkey ROOT $T0 "Root Key <root@example.org>" ed25519 cert never
newkey MIDDLE $T0 "Middle Key <middle@example.org>" ed25519 cert never
certify $T1 "$ROOT" "$MIDDLE"
gpg --batch --export "$ROOT" "$MIDDLE" >"$out/ring/ring.pgp"

# --- submitted keys ------------------------------------------------------
# good: certify-only primary, an Ed25519 signing subkey (with its
# back-signature), a Curve25519 encryption subkey; certified by MIDDLE
newkey GOOD $T0 "Good Submitter <good@example.org>" ed25519 cert never
addkey $T0 "$GOOD" ed25519 sign never
addkey $T0 "$GOOD" cv25519 encr never
certify $T1 "$MIDDLE" "$GOOD"
put keys/good "$GOOD"

# good-primary-signs: one RSA-3072 key that certifies and signs, no subkey;
# certified by ROOT itself (a path of one hop)
newkey SIGNS $T0 "Plain Signer <signer@example.org>" rsa3072 cert,sign never
certify $T1 "$ROOT" "$SIGNS"
put keys/good-primary-signs "$SIGNS"

# sha1-only: every self-signature (user ID binding, subkey binding) made
# with SHA-1. An RSA key that certifies and signs, and an encryption subkey:
# gpg 2.2.40 refuses to make a SHA-1 back-signature for a signing subkey.
newkey SHA1 $T0 "Old Hash <sha1@example.org>" rsa2048 cert,sign never \
    --cert-digest-algo SHA1 --digest-algo SHA1
addkey $T0 "$SHA1" rsa2048 encr never --cert-digest-algo SHA1 --digest-algo SHA1
put keys/sha1-only "$SHA1"

# sha1-superseded: made with SHA-1 self-signatures, then re-bound with
# SHA-512 (a new expiry re-signs the user ID and the subkey): the SHA-1 ones
# are superseded, so only a warning
newkey SHA1NEW $T0 "Rebound Hash <rebound@example.org>" rsa2048 cert,sign never \
    --cert-digest-algo SHA1 --digest-algo SHA1
addkey $T0 "$SHA1NEW" rsa2048 encr never --cert-digest-algo SHA1 --digest-algo SHA1
gpg --batch --export "$SHA1NEW" >"$tmp/sha1new-old.pgp"
g $T1 --cert-digest-algo SHA512 --quick-set-expire "$SHA1NEW" 5y
g $T1 --cert-digest-algo SHA512 --quick-set-expire "$SHA1NEW" 5y '*'
# --quick-set-expire replaces the old self-signatures: import them back, so
# the export holds both (as a key refreshed from several sources does)
g $T1 --import "$tmp/sha1new-old.pgp"
put keys/sha1-superseded "$SHA1NEW"

# no-backsig: the good shape, with the embedded primary key binding signature
# (0x19) removed from the signing subkey's binding. GnuPG 2.2 puts it in the
# unhashed area, so the binding itself still verifies (pgp_edit.py).
newkey NOBACK $T0 "Missing Backsig <noback@example.org>" ed25519 cert never
addkey $T0 "$NOBACK" ed25519 sign never
gpg --batch --export "$NOBACK" >"$tmp/noback.pgp"
python3 "$top/vectors/gen/pgp_edit.py" strip-backsig "$tmp/noback.pgp" "$tmp/noback-stripped.pgp"
gpg --batch --enarmor <"$tmp/noback-stripped.pgp" >"$tmp/noback.arm"
# --enarmor writes "ARMORED FILE": the submission is a key block
sed 's/ARMORED FILE/PUBLIC KEY BLOCK/; /^Comment:/d' "$tmp/noback.arm" >"$out/keys/no-backsig.asc"

# rsa1024: a 1024-bit RSA key (policy: RSA below 2048 bits rejected since 2014)
newkey WEAK $T0 "Weak Key <weak@example.org>" rsa1024 cert,sign never
put keys/rsa1024 "$WEAK"

# expired: made with a one-year expiry; expired by 2026-06-01
newkey EXPIRED $T0 "Expired Key <expired@example.org>" ed25519 cert,sign 1y
put keys/expired "$EXPIRED"

# revoked: a hard key revocation
newkey REVOKED $T0 "Revoked Key <revoked@example.org>" ed25519 cert,sign never
revoke_key $T1 "$REVOKED"
put keys/revoked "$REVOKED"

# no-signing: certify-only primary, encryption subkey only
newkey NOSIGN $T0 "Cannot Sign <nosign@example.org>" ed25519 cert never
addkey $T0 "$NOSIGN" cv25519 encr never
put keys/no-signing "$NOSIGN"

# two-keys: two certificates in one submission
newkey OTHER $T0 "Other Person <other@example.org>" ed25519 cert,sign never
gpg --batch -a --export "$GOOD" "$OTHER" >"$out/keys/two-keys.asc"
# no-path: a good key that nobody in the keyring certified
put keys/no-path "$OTHER"
# trailing-garbage: a good binary export followed by octets that are no packet
gpg --batch --export "$GOOD" >"$out/keys/trailing-garbage.pgp"
printf 'this is not an OpenPGP packet\n' >>"$out/keys/trailing-garbage.pgp"

# --- nonce challenges ----------------------------------------------------
# the exact text `wotkit submission nonce` prints (one line, no newline)
printf 'wotkit-submission-nonce good@example.org 2026-05-30T12:00:00Z 6b1f0e8a3c5d4f2e9a7b1c3d5e7f9012' \
    >"$out/nonce/nonce.txt"
printf 'wotkit-submission-nonce good@example.org 2026-05-30T12:00:00Z 00000000000000000000000000000000' \
    >"$out/nonce/other-nonce.txt"
ns() { # FPR IN OUT: armored detached signature with the key's signing key
	g $NONCE_T --local-user "$1" --digest-algo SHA256 -a --output "$3" --detach-sign "$2"
}
ns "$GOOD" "$out/nonce/nonce.txt" "$out/nonce/good.sig"
ns "$GOOD" "$out/nonce/other-nonce.txt" "$out/nonce/wrong-text.sig"
ns "$OTHER" "$out/nonce/nonce.txt" "$out/nonce/other-key.sig"
g $NONCE_T --local-user "$GOOD" --digest-algo SHA256 --output "$tmp/good.bin" --detach-sign "$out/nonce/nonce.txt"
python3 "$top/vectors/gen/pgp_edit.py" flip-last "$tmp/good.bin" "$out/nonce/tampered.sig"

# --- expiring (judged at AT_UNIX = 2026-06-01, window 30 days) -------------
# Each key is made at a faked time; expiries are given in seconds after the
# key's creation so they fall on exact dates.
at() { date -u -d "@$1" +%Y%m%dT%H%M%S; }
secs() { echo $(($2 - $1)); } # FROM TO
E0=$((AT_UNIX - 400 * DAY))   # keys made 400 days before AT
e() { newkey "$1" "$(at $E0)" "$2" ed25519 "$3" "seconds=$(secs $E0 "$4")"; }
e SOON "Soon Expiring <soon@example.org>" cert,sign $((AT_UNIX + 14 * DAY))
e LATE "Far Expiry <far@example.org>" cert,sign $((AT_UNIX + 400 * DAY))
newkey NEVER "$(at $E0)" "Never Expires <never@example.org>" ed25519 cert,sign never
e RECENT "Just Expired <recent@example.org>" cert,sign $((AT_UNIX - 5 * DAY))
e LONGAGO "Long Expired <longago@example.org>" cert,sign $((AT_UNIX - 200 * DAY))
# extended: expired in the window once, then a newer self-signature moved the expiry
e EXTENDED "Extended Expiry <extended@example.org>" cert,sign $((AT_UNIX + 5 * DAY))
gpg --batch --export "$EXTENDED" >"$tmp/extended-old.pgp"
g "$(at $((AT_UNIX - 10 * DAY)))" --quick-set-expire "$EXTENDED" "seconds=$((2 * 365 * DAY))"
# gpg replaced the old self-signature: import it back, so both are in the
# export and evaluation must pick the newer one
g "$(at $((AT_UNIX - 10 * DAY)))" --import "$tmp/extended-old.pgp"
# revoked while expiring soon: not "expiring"
e REVSOON "Revoked Soon <revsoon@example.org>" cert,sign $((AT_UNIX + 7 * DAY))
revoke_key "$(at $((AT_UNIX - 20 * DAY)))" "$REVSOON"
# a signing subkey expiring before its primary (primary: far)
newkey SUBEXP "$(at $E0)" "Subkey Expiring <subexp@example.org>" ed25519 cert \
    "seconds=$(secs $E0 $((AT_UNIX + 500 * DAY)))"
addkey "$(at $E0)" "$SUBEXP" ed25519 sign "seconds=$(secs $E0 $((AT_UNIX + 20 * DAY)))"
# an encryption subkey expiring soon: not a signing key, not listed
newkey ENCEXP "$(at $E0)" "Encryption Expiring <encexp@example.org>" ed25519 cert,sign never
addkey "$(at $E0)" "$ENCEXP" cv25519 encr "seconds=$(secs $E0 $((AT_UNIX + 3 * DAY)))"
# a hostile user ID: shell syntax in the name and the address; the printed
# commands must name the fingerprint instead of the address
e EVIL 'Evil $(id) <evil$(id)@example.org>' cert,sign $((AT_UNIX + 25 * DAY))
gpg --batch --export "$EVIL" "$SOON" "$LATE" "$NEVER" "$RECENT" "$LONGAGO" "$EXTENDED" "$REVSOON" \
    "$SUBEXP" "$ENCEXP" >"$out/expiring/ring.pgp"
subfpr() { # FPR: the fingerprint of the key's signing subkey
	gpg --batch --with-colons --fingerprint --fingerprint "$1" 2>/dev/null |
	    awk -F: '$1 == "sub" && $12 ~ /s/ { want = 1; next } want && $1 == "fpr" { print $10; exit }'
}
SUBEXP_SUB=$(subfpr "$SUBEXP")
[ -n "$SUBEXP_SUB" ] || { echo "no signing subkey of $SUBEXP" >&2; exit 1; }

# --- MANIFEST ------------------------------------------------------------
cat >"$out/MANIFEST" <<EOF
# vectors/submission/MANIFEST - written by vectors/gen/gen_submission.sh.
# Fingerprints of this run's keys:
#   evil $EVIL (expiring/ring.pgp: shell syntax in its user ID)
#   soon $SOON  subexp $SUBEXP/$SUBEXP_SUB
#   root $ROOT  middle $MIDDLE (ring/ring.pgp; root certifies middle)
#   good $GOOD (certified by middle)  other $OTHER
#
# submission	NAME	KEY	OPTIONS	EXIT	FAILS	PASSES
#   \`wotkit submission check KEY OPTIONS --at 2026-06-01\`, with no default
#   keyring; RING in OPTIONS stands for the keyring built from ring/ring.pgp
#   with --root $ROOT. KEY and files in OPTIONS are relative to this
#   directory; OPTIONS are comma-separated, "-" for none. EXIT the exit
#   status; FAILS the checks that must fail (and no other may; "-" none);
#   PASSES checks that must pass ("-" none).
submission	good-key	keys/good.asc	--email,good@example.org,--keyring,RING	0	-	parse,single,primary-bound,revoked,expired,self-sig-hash,key-size,back-sig,signing,email,path
submission	good-primary-signs	keys/good-primary-signs.asc	--keyring,RING	0	-	parse,single,primary-bound,self-sig-hash,key-size,signing,path
submission	good-nonce	keys/good.asc	--nonce,@nonce/nonce.txt,--nonce-sig,nonce/good.sig,--keyring,RING	0	-	email,nonce,path
submission	sha1-only	keys/sha1-only.asc	-	1	self-sig-hash,primary-bound,signing	parse,single,key-size
submission	sha1-superseded	keys/sha1-superseded.asc	--email,rebound@example.org	0	-	primary-bound,self-sig-hash,signing,email
submission	no-backsig	keys/no-backsig.asc	-	1	back-sig,signing	self-sig-hash,key-size,primary-bound
submission	rsa1024	keys/rsa1024.asc	-	1	key-size,primary-bound,signing	parse,single
submission	expired	keys/expired.asc	-	1	expired,signing	revoked,self-sig-hash
submission	revoked	keys/revoked.asc	-	1	revoked,signing	self-sig-hash
submission	no-signing	keys/no-signing.asc	-	1	signing	self-sig-hash,primary-bound
submission	two-keys	keys/two-keys.asc	-	1	single	parse
submission	trailing-garbage	keys/trailing-garbage.pgp	-	1	parse	-
submission	wrong-email	keys/good.asc	--email,someone@example.org	1	email	self-sig-hash,signing
submission	wrong-nonce-text	keys/good.asc	--nonce,@nonce/nonce.txt,--nonce-sig,nonce/wrong-text.sig	1	nonce	email
submission	nonce-other-key	keys/good.asc	--nonce,@nonce/nonce.txt,--nonce-sig,nonce/other-key.sig	1	nonce	email
submission	nonce-tampered	keys/good.asc	--nonce,@nonce/nonce.txt,--nonce-sig,nonce/tampered.sig	1	nonce	email
submission	no-path	keys/no-path.asc	--keyring,RING	1	path	signing,self-sig-hash
#
# expiring	NAME	OPTIONS	EXIT	LISTED	NOT-LISTED
#   \`wotkit expiring --keyring expiring/ring.pgp --at 2026-06-01 OPTIONS\`;
#   LISTED: keys that must be listed (a primary fingerprint, or PRIMARY/SUBKEY
#   for a subkey), NOT-LISTED: primary fingerprints that must not appear at all
#   ("-" none).
expiring	window-30d	-	1	$EVIL,$SOON,$RECENT,$SUBEXP/$SUBEXP_SUB	$LATE,$NEVER,$LONGAGO,$EXTENDED,$REVSOON,$ENCEXP
expiring	window-7d	--within,7d	1	$RECENT	$EVIL,$SOON,$SUBEXP,$LATE,$NEVER,$LONGAGO,$EXTENDED,$REVSOON,$ENCEXP
expiring	all-expired	--all-expired	1	$EVIL,$SOON,$RECENT,$LONGAGO,$SUBEXP/$SUBEXP_SUB	$LATE,$NEVER,$EXTENDED,$REVSOON,$ENCEXP
expiring	window-2y	--within,2y	1	$EVIL,$SOON,$RECENT,$LONGAGO,$LATE,$EXTENDED,$SUBEXP,$SUBEXP/$SUBEXP_SUB	$NEVER,$REVSOON,$ENCEXP
expiring	before-extension	--at,2026-05-15	1	$RECENT,$EXTENDED	$EVIL,$SOON,$LATE,$NEVER,$LONGAGO,$REVSOON,$SUBEXP,$ENCEXP
expiring	nothing-soon	--at,2025-06-01	0	-	$EVIL,$SOON,$LATE,$NEVER,$RECENT,$LONGAGO,$EXTENDED,$REVSOON,$SUBEXP,$ENCEXP
EOF
echo "wrote $out"
