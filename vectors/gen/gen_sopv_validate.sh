#!/bin/sh
# vectors/gen/gen_sopv_validate.sh - writes vectors/sopv-validate/ (all of it,
# including MANIFEST): certificates for `wotkit sopv validate-userid`
# (sopv 1.2, draft-dkg-openpgp-stateless-cli §"validate-userid"), made by
# gpg 2.2 in a throwaway GNUPGHOME with fixed --faked-system-time, and the
# expected exit code of each case. Run by hand, commit what it wrote:
#
#     sh vectors/gen/gen_sopv_validate.sh      # ~10 s
#
# The keys (and so the bytes) are new on every run; the meaning of every
# case is not. tests/cli/sopv_validate.sh runs every MANIFEST line.
# Tools: gpg 2.2 (gnupg), python3 (vectors/gen/pgp_edit.py).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/vectors/sopv-validate
tmp=$(mktemp -d)
export GNUPGHOME=$tmp/gnupg
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill gpg-agent >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
rm -rf "$out"
mkdir -p "$out/keys" "$out/data"

# Times (UTC, faked):
T0=20210101T000000   # every key is made
T1=20210601T000000   # certifications
T2=20220101T000000   # revocations (certification, user ID, key); 1-year key expiries
T3=20220601T000000   # a renewed certification; 1-year certification expiries

# g TIME ARGS...: gpg at a faked time, unattended
g() {
	when=$1
	shift
	gpg --batch --no-tty --quiet --pinentry-mode loopback --passphrase '' --yes \
	    --faked-system-time "${when}!" "$@" >>"$tmp/log" 2>&1
}

# newkey VAR "USER ID" ALGO EXPIRE: a certify-only primary key made at T0;
# VAR gets its fingerprint (the new file in openpgp-revocs.d names it)
newkey() {
	ls "$GNUPGHOME/openpgp-revocs.d" 2>/dev/null | sort >"$tmp/before"
	g $T0 --quick-gen-key "$2" "$3" cert "$4"
	f=$(ls "$GNUPGHOME/openpgp-revocs.d" | sort | comm -13 "$tmp/before" - | sed 's/\.rev$//')
	[ -n "$f" ] || { echo "no new key for $2" >&2; exit 1; }
	eval "$1=$f"
}

adduid() { # FPR "USER ID": a second user ID, self-signed at T0
	g $T0 --quick-add-uid "$1" "$2"
}

# certify TIME CERTIFIER TARGET "USER ID" [gpg options]: a third-party
# certification (0x10), SHA-256 unless the options say otherwise
certify() {
	when=$1 by=$2 target=$3 uid=$4
	shift 4
	g "$when" --default-key "$by" --cert-digest-algo SHA256 --no-ask-cert-expire \
	    "$@" --quick-sign-key "$target" "$uid"
}

# revoke_key TIME FPR CODE: a key revocation (0x20) made at TIME with reason
# CODE (1 compromised: hard; 3 retired: soft), imported
revoke_key() {
	printf 'y\n%s\nwotkit test vector\n\ny\n' "$3" |
	    gpg --no-tty --pinentry-mode loopback --passphrase '' --yes \
	    --faked-system-time "$1!" --command-fd 0 -a --gen-revoke "$2" >"$tmp/rev.asc" 2>>"$tmp/log"
	g "$1" --import "$tmp/rev.asc"
}

put() { # NAME FPR: keys/NAME.pgp, binary
	gpg --batch --export "$2" >"$out/keys/$1.pgp"
	[ -s "$out/keys/$1.pgp" ] || { echo "empty export of $1" >&2; exit 1; }
}

# --- authorities, and a key that is no authority -------------------------
newkey AUTH "Authority <ca@example.org>" rsa2048 never
newkey AUTH2 "Second Authority <ca2@example.org>" ed25519 never
newkey AUTHEXP "Expiring Authority <ca-exp@example.org>" ed25519 1y
newkey AUTHREV "Revoked Authority <ca-rev@example.org>" ed25519 never
newkey MALLORY "Mallory <mallory@example.org>" ed25519 never

# --- targets ---------------------------------------------------------------
newkey ALICE "Alice <alice@example.org>" ed25519 never
newkey ALICE2 "Alice <alice@example.org>" ed25519 never
newkey IMPOSTOR "Alice <alice@example.org>" ed25519 never
newkey BOB "Bob <bob@example.org>" ed25519 never
newkey CAROL "Carol <carol@example.org>" ed25519 never
newkey CAROL2 "Carol Two <carol2@example.org>" ed25519 never
newkey DAVE "Dave <dave@example.org>" ed25519 never
newkey ERIN "Erin <erin@example.org>" ed25519 never
newkey FRANK "Frank <frank@example.org>" ed25519 never
newkey GRACE "Grace <grace@example.org>" ed25519 never
adduid "$GRACE" "Grace Work <grace@work.example>"
newkey HEIDI "Heidi <heidi@example.org>" ed25519 never
adduid "$HEIDI" "Heidi Old <heidi@old.example>"
newkey IVAN "Ivan <ivan@example.org>" ed25519 never
newkey JUDY "Judy <judy@example.org>" ed25519 1y
newkey KARL "Karl <karl@example.org>" ed25519 never
adduid "$KARL" "Karli"
newkey LIAM "Liam <liam@example.org>" ed25519 never
newkey MIA "Mia <mia@example.org>" ed25519 never
newkey NINA "nina@example.org" ed25519 never

# --- certifications (T1 unless said) ----------------------------------------
certify $T1 "$AUTH" "$ALICE" "Alice <alice@example.org>"
certify $T1 "$AUTH" "$ALICE2" "Alice <alice@example.org>"
certify $T1 "$MALLORY" "$IMPOSTOR" "Alice <alice@example.org>"
# SHA-1 only: GnuPG 2.2 makes it only with --allow-weak-key-signatures
certify $T1 "$AUTH" "$BOB" "Bob <bob@example.org>" --cert-digest-algo SHA1 --allow-weak-key-signatures
certify $T1 "$AUTH" "$CAROL" "Carol <carol@example.org>"
g $T2 --quick-revoke-sig "$CAROL" "$AUTH"
certify $T1 "$AUTH" "$CAROL2" "Carol Two <carol2@example.org>"
g $T2 --quick-revoke-sig "$CAROL2" "$AUTH"
# GnuPG counts the revoked certification as "already signed"
certify $T3 "$AUTH" "$CAROL2" "Carol Two <carol2@example.org>" --force-sign-key
certify $T1 "$AUTH" "$DAVE" "Dave <dave@example.org>" --default-cert-expire 1y
certify $T1 "$MALLORY" "$FRANK" "Frank <frank@example.org>"
certify $T1 "$AUTH" "$GRACE" "Grace <grace@example.org>"
certify $T1 "$AUTH" "$HEIDI" "Heidi <heidi@example.org>"
certify $T1 "$AUTH" "$HEIDI" "Heidi Old <heidi@old.example>"
g $T2 --quick-revoke-uid "$HEIDI" "Heidi Old <heidi@old.example>"
certify $T1 "$AUTH" "$IVAN" "Ivan <ivan@example.org>"
revoke_key $T2 "$IVAN" 3
certify $T1 "$AUTH" "$JUDY" "Judy <judy@example.org>"
certify $T1 "$AUTH" "$KARL" "Karli"
certify $T1 "$AUTHREV" "$LIAM" "Liam <liam@example.org>"
revoke_key $T2 "$AUTHREV" 1
certify $T1 "$AUTHEXP" "$MIA" "Mia <mia@example.org>"
certify $T1 "$AUTH" "$NINA" "nina@example.org"

for v in AUTH AUTH2 AUTHEXP AUTHREV MALLORY ALICE ALICE2 IMPOSTOR BOB CAROL CAROL2 DAVE \
    ERIN FRANK GRACE HEIDI IVAN JUDY LIAM MIA NINA; do
	eval "f=\$$v"
	put "$(echo "$v" | tr 'A-Z' 'a-z')" "$f"
done
gpg --batch --export -a "$AUTH" >"$out/keys/auth.asc"
gpg --batch --export -a "$AUTH2" >"$out/keys/auth2.asc"
# a pet name: "Karli" keeps only the authority's certification
put karl-selfsigned "$KARL"
python3 "$top/vectors/gen/pgp_edit.py" drop-self-certs "$out/keys/karl-selfsigned.pgp" \
    "$out/keys/karl.pgp" "Karli"
rm "$out/keys/karl-selfsigned.pgp"
printf 'not an OpenPGP certificate\n' >"$out/data/not-openpgp.txt"
: >"$out/data/empty"

# --- MANIFEST ---------------------------------------------------------------
K=keys
m="$out/MANIFEST"
cat >"$m" <<EOF
# vectors/sopv-validate/MANIFEST - written by vectors/gen/gen_sopv_validate.sh
# One case per line, TAB-separated; paths relative to vectors/sopv-validate/:
#   id  expect  userid  authorities  stdin  options  xcheck  note
# expect: the exit code of \`sopv validate-userid [options] -- USERID AUTHORITIES... < STDIN\`
#   (0 validated, 107 CERT_USERID_NO_MATCH, 41 BAD_DATA, 61 MISSING_INPUT,
#   19 MISSING_ARG, 1 malformed DATE); authorities and stdin: comma-separated
#   files (stdin: their concatenation), - for none; options: space-separated, - for none.
# xcheck: "sop" where another sop's validate-userid should agree (no wotkit
#   choice involved), - otherwise.
# Times: keys 2021-01-01, certifications 2021-06-01, revocations and 1-year key
# expiries 2022-01-01, renewed certification and 1-year certification expiry 2022-06-01.
# Authority: $AUTH (RSA 2048)
EOF
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@" >>"$m"; }
A=$K/auth.pgp
AT2021=--validate-at=2021-07-01T00:00:00Z
# positives
row alice-exact 0 "Alice <alice@example.org>" $A $K/alice.pgp - sop "SHA-256 certification by the authority"
row alice-addr-spec 0 alice@example.org $A $K/alice.pgp --addr-spec-only sop "the address part of a certified user ID"
row alice-addr-spec-case 0 ALICE@Example.ORG $A $K/alice.pgp --addr-spec-only - "addr-spec compared with ASCII case ignored (pgp_email_cmp)"
row alice-armored-authority 0 "Alice <alice@example.org>" $K/auth.asc $K/alice.pgp - sop "the authority armored"
row alice-second-authority-listed 0 "Alice <alice@example.org>" $K/auth2.asc,$A $K/alice.pgp - sop "one of two authorities certified it"
row alice-two-certs 0 "Alice <alice@example.org>" $A $K/alice.pgp,$K/alice2.pgp - sop "two certificates on stdin, both certified"
row alice-validate-at-after-cert 0 "Alice <alice@example.org>" $A $K/alice.pgp $AT2021 sop "a month after the certification"
row carol-before-revocation 0 "Carol <carol@example.org>" $A $K/carol.pgp --validate-at=2021-09-01T00:00:00Z sop "before the authority revoked its certification"
row carol2-recertified 0 "Carol Two <carol2@example.org>" $A $K/carol2.pgp - sop "certified, revoked, certified again: the later certification stands"
row dave-before-cert-expiry 0 "Dave <dave@example.org>" $A $K/dave.pgp --validate-at=2022-05-01T00:00:00Z sop "before the certification expired"
row frank-mallory-as-authority 0 "Frank <frank@example.org>" $K/mallory.pgp $K/frank.pgp - sop "Mallory's certification counts when Mallory is the authority"
row grace-addr-spec 0 grace@example.org $A $K/grace.pgp --addr-spec-only sop "the certified one of two user IDs"
row heidi-current-uid 0 "Heidi <heidi@example.org>" $A $K/heidi.pgp - sop "the user ID that was not revoked"
row heidi-old-uid-before-revocation 0 "Heidi Old <heidi@old.example>" $A $K/heidi.pgp $AT2021 sop "before the holder revoked the user ID"
row ivan-before-key-retired 0 "Ivan <ivan@example.org>" $A $K/ivan.pgp $AT2021 sop "before the key was retired (soft revocation 2022-01-01)"
row judy-before-key-expiry 0 "Judy <judy@example.org>" $A $K/judy.pgp $AT2021 sop "before the key expired"
row karl-pet-name 0 "Karli" $A $K/karl.pgp - - "a user ID bound only by the authority (pet name, sop-java test suite)"
row liam-before-authority-revoked 107 "Liam <liam@example.org>" $K/authrev.pgp $K/liam.pgp $AT2021 sop "a hard revocation is final: the authority's key, revoked as compromised in 2022, is revoked in 2021 too (as Sequoia; docs/semantics.md)"
row mia-before-authority-expiry 0 "Mia <mia@example.org>" $K/authexp.pgp $K/mia.pgp $AT2021 sop "before the authority's key expired"
row nina-bare-address 0 nina@example.org $A $K/nina.pgp - sop "a user ID that is a bare address, exactly"
row nina-bare-address-addr-spec 0 nina@example.org $A $K/nina.pgp --addr-spec-only sop "the same, as an addr-spec"
row authority-self 0 "Authority <ca@example.org>" $A $A - sop "an authority vouches for its own self-bound user ID"
row authority-self-addr-spec 0 ca@example.org $A $A --addr-spec-only sop "the same, by address"
# negatives
row bob-sha1-only 107 "Bob <bob@example.org>" $A $K/bob.pgp - - "the only certification is SHA-1: refused by policy (collision resistance, after 2013-02-01)"
row carol-revoked 107 "Carol <carol@example.org>" $A $K/carol.pgp - sop "the authority revoked its certification (0x30)"
row carol2-between-revocation-and-renewal 107 "Carol Two <carol2@example.org>" $A $K/carol2.pgp --validate-at=2022-03-01T00:00:00Z sop "revoked, not yet certified again"
row dave-cert-expired 107 "Dave <dave@example.org>" $A $K/dave.pgp - sop "the certification expired 2022-06-01"
row erin-uncertified 107 "Erin <erin@example.org>" $A $K/erin.pgp - sop "no certification at all"
row frank-non-authority 107 "Frank <frank@example.org>" $A $K/frank.pgp - sop "certified only by Mallory, who is no authority"
row impostor 107 "Alice <alice@example.org>" $A $K/impostor.pgp - sop "the same user ID on another key, certified only by Mallory"
row alice-and-impostor 107 "Alice <alice@example.org>" $A $K/alice.pgp,$K/impostor.pgp - sop "every certificate on stdin must pass"
row alice-wrong-userid 107 "Alice <alice@example.com>" $A $K/alice.pgp - sop "no such user ID"
row alice-name-only 107 "Alice" $A $K/alice.pgp - sop "a part of the user ID is no match"
row alice-addr-without-flag 107 alice@example.org $A $K/alice.pgp - sop "without --addr-spec-only the whole user ID must match"
row alice-userid-as-addr-spec 107 "Alice <alice@example.org>" $A $K/alice.pgp --addr-spec-only sop "with --addr-spec-only USERID is an address"
row alice-other-addr-spec 107 bob@example.org $A $K/alice.pgp --addr-spec-only sop "another address"
row alice-wrong-authority 107 "Alice <alice@example.org>" $K/auth2.asc $K/alice.pgp - sop "the authority given did not certify it"
row alice-before-cert 107 "Alice <alice@example.org>" $A $K/alice.pgp --validate-at=2021-03-01T00:00:00Z sop "before the certification existed"
row alice-before-key 107 "Alice <alice@example.org>" $A $K/alice.pgp --validate-at=2020-06-01T00:00:00Z sop "before the key existed"
row grace-uncertified-uid 107 "Grace Work <grace@work.example>" $A $K/grace.pgp - sop "the other user ID of a certified key"
row grace-uncertified-addr-spec 107 grace@work.example $A $K/grace.pgp --addr-spec-only sop "the same, by address"
row heidi-old-uid-revoked 107 "Heidi Old <heidi@old.example>" $A $K/heidi.pgp - sop "the holder revoked the certified user ID"
row ivan-key-retired 107 "Ivan <ivan@example.org>" $A $K/ivan.pgp - sop "the key was retired (soft revocation)"
row judy-key-expired 107 "Judy <judy@example.org>" $A $K/judy.pgp - sop "the key expired 2022-01-01"
row karl-pet-name-own-authority 107 "Karli" $K/karl.pgp $K/karl.pgp - - "Karl never bound the pet name himself"
row karl-pet-name-other-authority 107 "Karli" $K/auth2.asc $K/karl.pgp - sop "the pet name, another authority"
row liam-authority-revoked 107 "Liam <liam@example.org>" $K/authrev.pgp $K/liam.pgp - sop "the authority's key is revoked (compromised)"
row mia-authority-expired 107 "Mia <mia@example.org>" $K/authexp.pgp $K/mia.pgp - sop "the authority's key expired 2022-01-01"
row mallory-self-not-authority 107 "Mallory <mallory@example.org>" $A $K/mallory.pgp - sop "a self-signature counts only for an authority"
row authority-self-wrong-uid 107 "Authority <ca@example.com>" $A $A - sop "no such user ID on the authority"
row stdin-not-openpgp 41 "Alice <alice@example.org>" $A data/not-openpgp.txt - sop "stdin is not OpenPGP: BAD_DATA"
row stdin-empty 41 "Alice <alice@example.org>" $A data/empty - - "no certificate on stdin: BAD_DATA"
row authority-not-openpgp 41 "Alice <alice@example.org>" data/not-openpgp.txt $K/alice.pgp - sop "an authority that is not OpenPGP: BAD_DATA"
row authority-missing 61 "Alice <alice@example.org>" data/no-such-file $K/alice.pgp - sop "an authority file that does not exist: MISSING_INPUT"
row no-authority 19 "Alice <alice@example.org>" - $K/alice.pgp - sop "USERID without CERTS: MISSING_ARG"
row validate-at-malformed 1 "Alice <alice@example.org>" $A $K/alice.pgp --validate-at=yesterday - "a malformed DATE"
row validate-at-dash 1 "Alice <alice@example.org>" $A $K/alice.pgp --validate-at=- - "- is no point in time"
npos=$(grep -v '^#' "$m" | awk -F'\t' '$2 == 0' | wc -l)
nneg=$(grep -v '^#' "$m" | awk -F'\t' '$2 != 0' | wc -l)
echo "# $((npos + nneg)) cases: $npos positive (0), $nneg negative" >>"$m"
echo "wrote $out: $npos positive, $nneg negative cases"
