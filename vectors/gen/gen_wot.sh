#!/bin/sh
# vectors/gen/gen_wot.sh - generates vectors/wot/: a small web of trust made
# with GnuPG 2.2 (keyring.asc, KEYS, trust-*.txt, expect/*.txt, MANIFEST).
#
#   sh vectors/gen/gen_wot.sh          # rewrites vectors/wot/ entirely (~10 s)
#
# All keys live in one throwaway GNUPGHOME; every gpg call runs with a fixed
# --faked-system-time, so the *meaning* of each case is the same on every
# run while the bytes (keys, key IDs) are new each time: commit what one run
# wrote.  The web and the MANIFEST format are described in
# vectors/wot/README.md.
#
# Where the expectations come from:
#   path / why / audit  written below from the design of the web and the
#                       documented path rule of wotmate (docs: DESIGN14,
#                       wotmate get_key_paths: breadth-first, successors in
#                       key ID order, intermediates of a found path excluded,
#                       stop after a path of <= 1 hop); the only input from
#                       the run is the key ID order where a tie is decided by
#                       it.  Cross-checked at the end by tests/cli/wot_model.py,
#                       an independent model over the edges gpg reports.
#   validity            gpg's own answer: --check-trustdb and --list-keys
#                       --with-colons at the reference time, one fresh
#                       GNUPGHOME per (ownertrust scenario, policy).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/vectors/wot
tmp=$(mktemp -d)
log=$tmp/log
H=$tmp/home
cleanup() {
	for h in "$H" "$tmp"/v-* "$tmp"/rs-*; do
		[ -d "$h" ] && GNUPGHOME=$h gpgconf --kill gpg-agent 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "gen_wot: $*" >&2; [ -f "$log" ] && tail -20 "$log" >&2; exit 1; }

for t in gpg gpgconf python3; do
	command -v $t >/dev/null || fail "$t not found"
done

# ---- times (UTC, all faked) -----------------------------------------------
T_KEY=20250101T000000     # key creation
T_CERT=20250201T000000    # certifications (SHA-256/512), trust signatures
T_SHA1=20250301T000000    # SHA-1 certifications
T_UID=20250115T000000     # second user IDs; primary user ID flag set
T_REV=20250601T000000     # revocations: certification, key (soft), user ID
AT_ISO=2026-06-01T00:00:00Z       # the reference time (1780272000)
AT_GPG=20260601T000000
EARLY_ISO=2025-04-01T00:00:00Z    # before the revocations and expiries

mkdir -m 700 "$H"
: >"$log"
names=$tmp/names          # NAME FPR, in creation order

# G TIME gpg-args... : gpg in the generation home.  SHA-1 key signatures are
# accepted here (--allow-weak-key-signatures) so that gpg makes and keeps them.
G() {
	_t=$1
	shift
	GNUPGHOME=$H gpg --batch --yes --no-tty --quiet --pinentry-mode loopback \
	    --passphrase '' --trust-model always --no-auto-check-trustdb \
	    --allow-weak-key-signatures --allow-weak-digest-algos \
	    --faked-system-time "$_t!" "$@" 2>>"$log"
}
fpr() { awk -v n="$1" '$1 == n { print $2 }' "$names"; }
kid() { fpr "$1" | cut -c25-40; }
# newest key's fingerprint for a user ID
fpr_of_uid() {
	GNUPGHOME=$H gpg --with-colons --list-keys "=$1" 2>/dev/null |
	    awk -F: '/^fpr/ { f = $10 } END { print f }'
}

# mkkey NAME "USER ID" ALGO EXPIRE
mkkey() {
	G $T_KEY --quick-gen-key "$2" "$3" cert,sign "$4" || fail "generating $1"
	_f=$(fpr_of_uid "$2")
	[ -n "$_f" ] || fail "no fingerprint for $1"
	echo "$1 $_f" >>"$names"
}
# delkey NAME : forget a key (to draw it again)
delkey() {
	G $T_KEY --delete-secret-and-public-key "$(fpr "$1")" || fail "deleting $1"
	awk -v n="$1" '$1 != n' "$names" >"$names.new" && mv "$names.new" "$names"
}
# cert ISSUER TARGET [TIME [gpg options]] : ISSUER certifies every user ID of TARGET
cert() {
	_i=$1 _t=$2 _w=${3:-$T_CERT}
	shift 2
	[ $# -gt 0 ] && shift
	G "$_w" -u "$(fpr "$_i")!" "$@" --quick-sign-key "$(fpr "$_t")" >>"$log" ||
	    fail "$_i certifying $_t"
}
# certuid ISSUER TARGET "USER ID" : only that user ID
certuid() {
	G $T_CERT -u "$(fpr "$1")!" --quick-sign-key "$(fpr "$2")" "$3" >>"$log" ||
	    fail "$1 certifying $2/$3"
}
sha1cert() { cert "$1" "$2" $T_SHA1 --cert-digest-algo SHA1; }
# tsign ISSUER TARGET LEVEL DEPTH DOMAIN : trust signature (gpg --edit-key tsign);
# LEVEL 1 marginal, 2 full; DOMAIN empty for no regular expression
tsign() {
	printf 'tsign\n%s\n%s\n%s\nsave\n' "$3" "$4" "$5" |
	    G $T_CERT -u "$(fpr "$1")!" --command-fd 0 --edit-key "$(fpr "$2")" >>"$log" ||
	    fail "$1 tsign $2"
}
# revsig ISSUER TARGET : ISSUER revokes its certification on TARGET (0x30),
# in a home holding only ISSUER's secret key so that revsig asks about that
# certification alone
revsig() {
	_h=$tmp/rs-$1-$2
	mkdir -m 700 "$_h"
	G $T_REV --export-secret-keys "$(fpr "$1")" >"$tmp/sec" || fail "exporting $1"
	G $T_REV --export "$(fpr "$2")" >"$tmp/pub" || fail "exporting $2"
	GNUPGHOME=$_h gpg --batch --yes --no-tty --quiet --pinentry-mode loopback --passphrase '' \
	    --allow-weak-key-signatures --faked-system-time "$T_REV!" \
	    --import "$tmp/sec" "$tmp/pub" 2>>"$log" || fail "import for revsig"
	printf 'revsig\ny\ny\n0\n\ny\nsave\n' |
	    GNUPGHOME=$_h gpg --batch --yes --no-tty --quiet --pinentry-mode loopback \
	    --passphrase '' --trust-model always --allow-weak-key-signatures \
	    --faked-system-time "$T_REV!" -u "$(fpr "$1")!" --command-fd 0 \
	    --edit-key "$(fpr "$2")" >>"$log" 2>&1 || fail "revsig $1 on $2"
	GNUPGHOME=$_h gpg --export "$(fpr "$2")" >"$tmp/pub" 2>>"$log"
	G $T_REV --import "$tmp/pub" || fail "importing the revocation of $1 on $2"
	GNUPGHOME=$_h gpgconf --kill gpg-agent 2>/dev/null || true
}
# revkey NAME REASON : key revocation (0x20) made at T_REV (gpg --gen-revoke
# does not run under --batch)
revkey() {
	printf 'y\n%s\n\ny\n' "$2" |
	    GNUPGHOME=$H gpg --yes --no-tty --quiet --pinentry-mode loopback --passphrase '' \
	    --faked-system-time "$T_REV!" --command-fd 0 -a -o "$tmp/$1.rev" \
	    --gen-revoke "$(fpr "$1")" 2>>"$log" || fail "revoking $1"
	G $T_REV --import "$tmp/$1.rev" || fail "importing the revocation of $1"
}

# ---- the keys ---------------------------------------------------------------
# (names as in vectors/wot/README.md; SHA-1 issuers are RSA keys)
mkkey R   "Root <root@example.org>" rsa2048 never
mkkey C1  "Chain One <c1@example.org>" ed25519 3y
mkkey C2  "Chain Two <c2@example.org>" ed25519 never
mkkey C3  "Chain Three <c3@example.org>" rsa2048 never
mkkey C4  "Chain Four <c4@example.org>" ed25519 never
mkkey C5  "Chain Five <c5@example.org>" ed25519 never
mkkey C6  "Chain Six <c6@example.org>" ed25519 never
mkkey D   "Direct <direct@example.org>" ed25519 never
mkkey TA  "Tie A <tie-a@example.org>" ed25519 never
# the tie: TA must have the lower key ID of the two
while :; do
	mkkey TB "Tie B <tie-b@example.org>" ed25519 never
	[ "$(printf '%s\n' "$(kid TB)" "$(kid TA)" | LC_ALL=C sort | head -n 1)" = "$(kid TA)" ] && break
	delkey TB
done
mkkey X   "Tie Target <tie-x@example.org>" ed25519 never
mkkey P1  "Path P One <p1@example.org>" ed25519 never
mkkey P2  "Path P Two <p2@example.org>" ed25519 never
mkkey P3  "Path P Three <p3@example.org>" ed25519 never
mkkey P4  "Path P Four <p4@example.org>" ed25519 never
mkkey Q1  "Path Q One <q1@example.org>" ed25519 never
mkkey Q2  "Path Q Two <q2@example.org>" ed25519 never
mkkey Q3  "Path Q Three <q3@example.org>" ed25519 never
mkkey Y   "Many Paths <many@example.org>" ed25519 never
mkkey G1  "Marginal One <g1@example.org>" ed25519 never
mkkey G2  "Marginal Two <g2@example.org>" ed25519 never
mkkey G3  "Marginal Three <g3@example.org>" ed25519 never
mkkey MG3 "Three Marginals <mg3@example.org>" ed25519 never
mkkey MG2 "Two Marginals <mg2@example.org>" ed25519 never
mkkey I1  "Island One <i1@island.example.net>" ed25519 never
mkkey I2  "Island Two <i2@island.example.net>" ed25519 never
mkkey V   "Revoked Certification <revcert@example.org>" ed25519 never
mkkey E   "Expired Key <expired@example.org>" ed25519 365d
mkkey F   "Behind Expired <behind-expired@example.org>" ed25519 never
mkkey RV  "Revoked Key <revoked@example.org>" ed25519 never
mkkey RW  "Behind Revoked <behind-revoked@example.org>" ed25519 never
mkkey O   "Outsider <outsider@example.com>" ed25519 never
mkkey XO  "Only Outsider <only-outsider@example.org>" ed25519 never
mkkey XO2 "Outsider And Root <outsider-and-root@example.org>" ed25519 never
mkkey XC  "Expired Certification <cert-expired@example.org>" ed25519 never
mkkey N0  "Nobody Certified <nobody@example.org>" ed25519 never
mkkey UR  "Uid Keep <uid-keep@example.org>" ed25519 never
G $T_UID --quick-add-uid "$(fpr UR)" "Uid Gone <uid-gone@example.org>" || fail "UR uid"
mkkey T   "Trent Introducer <trent@example.org>" ed25519 never
mkkey TIN "Inside <tin@example.org>" ed25519 never
mkkey TSUB "Sub Domain <tsub@lists.example.org>" ed25519 never
mkkey TOUT "Outside <tout@example.net>" ed25519 never
mkkey TNOT "Not Example <tnot@notexample.org>" ed25519 never
mkkey TSUF "Suffix Trick <tsuf@example.org.example.net>" ed25519 never
mkkey TMIX "Mixed <tmix@example.org>" ed25519 never
G $T_UID --quick-add-uid "$(fpr TMIX)" "Mixed <tmix@example.net>" || fail "TMIX uid"
mkkey U   "Delegate <u@example.org>" ed25519 never
mkkey UW  "Delegated <uw@example.org>" ed25519 never
mkkey UWX "Delegated Outside <uwx@example.net>" ed25519 never
mkkey UV  "Too Deep <uv@example.org>" ed25519 never
mkkey UVW "Beyond Depth <uvw@example.org>" ed25519 never
mkkey S1  "Sha One <sha1@example.org>" ed25519 never
mkkey SA  "Sha A <sha-a@example.org>" rsa2048 never
mkkey SB  "Sha B <sha-b@example.org>" ed25519 never
mkkey SC  "Sha C <sha-c@example.org>" ed25519 never
mkkey SD  "Sha D <sha-d@example.org>" ed25519 never
# the first user ID is the primary one (flag set after the second was added)
G $T_UID --quick-set-primary-uid "$(fpr UR)" "Uid Keep <uid-keep@example.org>" || fail "UR primary"
G $T_UID --quick-set-primary-uid "$(fpr TMIX)" "Mixed <tmix@example.org>" || fail "TMIX primary"

# ---- the certifications -----------------------------------------------------
# chain R -> C1 -> ... -> C6, and C1 -> D beside R -> D (direct path)
cert R C1; cert C1 C2; cert C2 C3; cert C3 C4; cert C4 C5; cert C5 C6
cert R D; cert C1 D
# tie: R -> TA -> X and R -> TB -> X
cert R TA; cert R TB; cert TA X; cert TB X
# two routes and an excluded one: R-P1-P2-Y, R-P1-P3-P4-Y, R-Q1-Q2-Q3-Y
cert R P1; cert P1 P2; cert P1 P3; cert P3 P4; cert P2 Y; cert P4 Y
cert R Q1; cert Q1 Q2; cert Q2 Q3; cert Q3 Y
# marginals: G1, G2, G3 -> MG3; G1, G2 -> MG2
cert R G1; cert R G2; cert R G3
cert G1 MG3; cert G2 MG3; cert G3 MG3; cert G1 MG2; cert G2 MG2
# island
cert I1 I2; cert I2 I1
# revoked certification, expired and revoked intermediates
cert R V
cert R E; cert E F
cert R RV; cert RV RW
# outside issuer (O is not exported)
cert O XO; cert O XO2; cert R XO2
# expired certification: made 2025-02-01, expires after 300 days (2025-11-28)
cert R XC $T_CERT --default-cert-expire 300d
# certification of a user ID that its key revokes later
certuid R UR "Uid Gone <uid-gone@example.org>"
# trust signatures: R -> T full, depth 2, regex for example.org;
# T -> U full depth 1; U -> UV full depth 1
tsign R T 2 2 example.org
cert T TIN; cert T TSUB; cert T TOUT; cert T TNOT; cert T TSUF; cert T TMIX
tsign T U 2 1 ''
cert U UW; cert U UWX
tsign U UV 2 1 ''
cert UV UVW
# SHA-1: R -> S1; R -> SA -> SB (both SHA-1); R -> SC (SHA-1) -> SD (SHA-512)
# and R -> SD (SHA-1)
sha1cert R S1
sha1cert R SA; sha1cert SA SB
sha1cert R SC; cert SC SD; sha1cert R SD

# ---- revocations ------------------------------------------------------------
revsig R V
revkey RV 3                # 0x03 key retired: a soft revocation, from 2025-06-01
G $T_REV --quick-revoke-uid "$(fpr UR)" "Uid Gone <uid-gone@example.org>" || fail "UR revoke uid"

# ---- output -------------------------------------------------------------------
# everything but the hand-written README.md
rm -rf "$out/expect" "$out/keyring.asc" "$out/KEYS" "$out/MANIFEST" "$out"/trust-*.txt
mkdir -p "$out/expect"
exported=$(awk '$1 != "O" { print $2 }' "$names")
# shellcheck disable=SC2086
G $T_REV --armor --export $exported >"$out/keyring.asc" || fail "export"
{
	echo "# NAME KEYID FINGERPRINT USER-ID (O is not in keyring.asc)"
	while read -r n f; do
		printf '%s %s %s %s\n' "$n" "$(echo "$f" | cut -c25-40)" "$f" \
		    "$(GNUPGHOME=$H gpg --with-colons --list-keys "$f" 2>/dev/null |
		    awk -F: '/^uid/ { print $10; exit }')"
	done <"$names"
} >"$out/KEYS"

uidof() { awk -v n="$1" '$1 == n { $1 = $2 = $3 = ""; sub(/^ +/, ""); print; exit }' "$out/KEYS"; }

# ---- ownertrust scenarios (gpg --export-ownertrust format) ----------------------
trustfile() { # SCENARIO NAME:LEVEL...
	_s=$1
	shift
	{
		echo "# ownertrust scenario $_s (6 ultimate, 5 full, 4 marginal, 3 never)"
		for _p in "$@"; do
			printf '%s:%s:\n' "$(fpr "${_p%%:*}")" "${_p#*:}"
		done
	} >"$out/trust-$_s.txt"
}
trustfile A R:6
trustfile B R:6 C1:5 C2:4 TA:4 TB:4 G1:4 G2:4 G3:4 E:5 RV:5 SA:5 SC:5 I1:5 T:3
trustfile C R:6 C1:5 C2:5 C3:5 C4:5 C5:5 P1:5 P2:5 P3:5 P4:5 Q1:5 Q2:5 Q3:5

# ---- MANIFEST -----------------------------------------------------------------
M=$out/MANIFEST
cat >"$M" <<EOF
# vectors/wot/MANIFEST - expectations for \`wotkit wot\` over vectors/wot/keyring.asc
# (generated by vectors/gen/gen_wot.sh; format in vectors/wot/README.md).
# Every line: --keyring vectors/wot/keyring.asc --at $AT_ISO --root $(fpr R)
# unless at=TIME / from=KEYID say otherwise; policy std = the standard policy,
# sha1 = --allow-sha1.  Text after " #" names the keys.
keyring keyring.asc
root $(fpr R)
at $AT_ISO
EOF
npos=0 nneg=0
pos() { npos=$((npos + 1)); }
neg() { nneg=$((nneg + 1)); }

# path_ok NAME FILE MAXDEPTH MAXPATHS POLICY EXTRA "PATH"... : PATH = names, root first
path_ok() {
	_n=$1 _file=$2 _d=$3 _p=$4 _pol=$5 _x=$6
	shift 6
	: >"$out/expect/$_file.txt"
	for _path in "$@"; do
		_i=0
		for _k in $_path; do
			if [ $_i -eq 0 ]; then
				printf 'from  %s  %s\n' "$(kid "$_k")" "$(uidof "$_k")"
			else
				printf '%4d  %s  %s\n' $_i "$(kid "$_k")" "$(uidof "$_k")"
			fi
			_i=$((_i + 1))
		done >>"$out/expect/$_file.txt"
		echo >>"$out/expect/$_file.txt"
	done
	printf 'path %s %s %s %s 0 %s%s  # %s\n' "$(kid "$_n")" "$_d" "$_p" "$_pol" "$_file" "$_x" "$_n" >>"$M"
	pos
}
# path_none NAME MAXDEPTH MAXPATHS POLICY EXTRA COMMENT
path_none() {
	printf 'path %s %s %s %s 1 -%s  # %s: %s\n' "$(kid "$1")" "$2" "$3" "$4" "$5" "$1" "$6" >>"$M"
	neg
}
# why NAME POLICY REASON|ok EXTRA COMMENT
why() {
	printf 'why %s %s %s%s  # %s: %s\n' "$(kid "$1")" "$2" "$3" "$4" "$1" "$5" >>"$M"
	if [ "$3" = ok ]; then pos; else neg; fi
}
early=" at=$EARLY_ISO"

echo "# ---- path: TARGET MAXDEPTH MAXPATHS POLICY EXIT EXPECT-FILE|- [at=T] [from=KEYID]" >>"$M"
path_ok R root-self 4 4 std "" "R"
path_ok C1 c1 4 4 std "" "R C1"
path_ok C2 c2 4 4 std "" "R C1 C2"
path_ok C3 c3 4 4 std "" "R C1 C2 C3"
path_ok C4 c4 4 4 std "" "R C1 C2 C3 C4"
path_none C5 4 4 std "" "distance 5 > maxdepth 4"
path_ok C5 c5-depth5 5 4 std "" "R C1 C2 C3 C4 C5"
path_none C6 5 4 std "" "distance 6 > maxdepth 5"
path_ok C6 c6-depth6 6 4 std "" "R C1 C2 C3 C4 C5 C6"
path_none C3 2 4 std "" "distance 3 > maxdepth 2"
path_ok D direct 4 4 std "" "R D"
path_ok X tie-maxpaths1 4 1 std "" "R TA X"
path_ok X tie 4 4 std "" "R TA X" "R TB X"
path_none X 1 4 std "" "distance 2 > maxdepth 1"
path_ok Y many 4 4 std "" "R P1 P2 Y" "R Q1 Q2 Q3 Y"
path_ok Y many-depth3 3 4 std "" "R P1 P2 Y"
path_ok Y many-maxpaths1 4 1 std "" "R P1 P2 Y"
path_none Y 2 4 std "" "distance 3 > maxdepth 2"
# MG3: three paths of two hops, in the key ID order of G1, G2, G3
gs=$(for g in G1 G2 G3; do echo "$(kid $g) $g"; done | sort | awk '{ print $2 }')
set -- $gs
path_ok MG3 three-ties 4 4 std "" "R $1 MG3" "R $2 MG3" "R $3 MG3"
path_ok MG3 three-ties-maxpaths2 4 2 std "" "R $1 MG3" "R $2 MG3"
path_none I1 4 4 std "" "island"
path_none I2 4 4 std "" "island"
path_ok I2 island-from-i1 4 4 std " from=$(kid I1)" "I1 I2"
path_none V 4 4 std "" "only certification revoked"
path_ok V revcert-early 4 4 std "$early" "R V"
path_none E 4 4 std "" "key expired"
path_none F 4 4 std "" "only path through the expired E"
path_ok F behind-expired-early 4 4 std "$early" "R E F"
path_none RV 4 4 std "" "key revoked (soft, 2025-06-01)"
path_none RW 4 4 std "" "only path through the revoked RV"
path_ok RW behind-revoked-early 4 4 std "$early" "R RV RW"
path_none XO 4 4 std "" "only certified by O, outside the keyring"
path_ok XO2 outsider-and-root 4 4 std "" "R XO2"
path_none XC 4 4 std "" "only certification expired"
path_ok XC cert-expired-early 4 4 std "$early" "R XC"
path_none N0 4 4 std "" "no certification"
path_none UR 4 4 std "" "only certified user ID revoked"
path_ok T tsig 4 4 std "" "R T"
path_ok TOUT tsig-outside-regex 4 4 std "" "R T TOUT"
path_ok UVW tsig-beyond-depth 4 4 std "" "R T U UV UVW"
path_none S1 4 4 std "" "SHA-1 certification"
path_ok S1 sha1-s1 4 4 sha1 "" "R S1"
path_none SA 4 4 std "" "SHA-1 certification"
path_none SB 4 4 std "" "two SHA-1 certifications in sequence"
path_ok SB sha1-sb 4 4 sha1 "" "R SA SB"
path_none SC 4 4 std "" "SHA-1 certification"
path_none SD 4 4 std "" "SHA-1 R->SD, SHA-256 SC->SD behind SHA-1 R->SC"
path_ok SD sha1-sd 4 4 sha1 "" "R SD"
path_ok SD sha1-sd-early 4 4 sha1 "$early" "R SD"
path_none C5 4 4 sha1 "" "distance 5 under sha1 too"

echo "# ---- why: TARGET POLICY REASON|ok [at=T] [maxdepth=N]" >>"$M"
why C4 std ok "" "distance 4"
why C5 std beyond-maxdepth "" "distance 5 > default maxdepth 4"
why C5 std ok " maxdepth=5" "distance 5 = maxdepth"
why C6 std beyond-maxdepth "" "distance 6"
why Y std ok "" "two paths"
why I1 std not-connected "" "island"
why I2 std not-connected "" "island"
why V std cert-invalid "" "only certification revoked"
why V std ok "$early" "before the revocation"
why E std target-invalid "" "key expired"
why F std through-invalid-key "" "behind the expired E"
why RV std target-invalid "" "key revoked"
why RW std through-invalid-key "" "behind the revoked RV"
why XO std issuers-outside "" "only O certified it"
why XO2 std ok "" "O and R"
why XC std cert-invalid "" "certification expired"
why N0 std no-certifications "" "nobody"
why UR std cert-invalid "" "certified user ID revoked"
why TOUT std ok "" "paths ignore trust signature regexes"
why S1 std policy "" "SHA-1"
why S1 sha1 ok "" "SHA-1 allowed"
why SA std policy "" "SHA-1"
why SB std policy "" "two SHA-1 links"
why SB sha1 ok "" "SHA-1 allowed"
why SC std policy "" "SHA-1"
why SD std policy "" "SHA-1 direct, SHA-1 behind SC"
why SD sha1 ok "" "SHA-1 allowed"

echo "# ---- audit (baseline: SHA-1 accepted; audited: standard policy at --at):" >>"$M"
echo "#      lost KEYID | kept KEYID | recert ISSUER TARGET | norecert ISSUER TARGET | nlost N | nrecert N" >>"$M"
for k in S1 SA SB SC SD; do
	printf 'audit lost %s  # %s\n' "$(kid $k)" "$k" >>"$M"; pos
done
for k in C1 C4 Y T XO V N0 I1; do
	printf 'audit kept %s  # %s\n' "$(kid $k)" "$k" >>"$M"; neg
done
for p in "R S1" "R SA" "SA SB" "R SC"; do
	set -- $p
	printf 'audit recert %s %s  # %s -> %s\n' "$(kid $1)" "$(kid $2)" "$1" "$2" >>"$M"; pos
done
for p in "R SD" "SC SD" "R C1" "R V"; do
	set -- $p
	printf 'audit norecert %s %s  # %s -> %s\n' "$(kid $1)" "$(kid $2)" "$1" "$2" >>"$M"; neg
done
echo "audit nlost 5" >>"$M"; pos
echo "audit nrecert 4" >>"$M"; pos

# ---- validity from gpg ----------------------------------------------------------
echo "# ---- validity KEYID SCENARIO POLICY LETTER (gpg 2.2: --check-trustdb, --list-keys --with-colons)" >>"$M"
echo "#      uidvalidity KEYID SCENARIO POLICY LETTER EMAIL" >>"$M"
vgpg() { # HOME POLICY gpg-args...
	_vh=$1 _vp=$2
	shift 2
	if [ "$_vp" = sha1 ]; then set -- --allow-weak-key-signatures "$@"; fi
	GNUPGHOME=$_vh gpg --batch --yes --no-tty --faked-system-time "$AT_GPG!" "$@" 2>>"$log"
}
for sc in A B C; do
	for pol in std sha1; do
		vh=$tmp/v-$sc-$pol
		mkdir -m 700 "$vh"
		vgpg "$vh" $pol --import "$out/keyring.asc" || fail "validity import"
		grep -v '^#' "$out/trust-$sc.txt" | vgpg "$vh" $pol --import-ownertrust || fail "ownertrust $sc"
		vgpg "$vh" $pol --check-trustdb || fail "check-trustdb $sc"
		vgpg "$vh" $pol --with-colons --list-keys >"$tmp/list-$sc-$pol" || fail "list-keys $sc"
		awk -F: -v sc=$sc -v pol=$pol -v names="$names" '
			BEGIN { while ((getline l < names) > 0) { split(l, a, " "); nm[substr(a[2], 25)] = a[1] } }
			/^pub/ { k = $5; if ($2 == "") $2 = "?"; printf "validity %s %s %s %s  # %s\n", k, sc, pol, $2, nm[k] }
			/^uid/ { m = $10; if ($2 == "") $2 = "?"; sub(/.*</, "", m); sub(/>.*/, "", m)
				printf "uidvalidity %s %s %s %s %s  # %s\n", k, sc, pol, $2, m, nm[k] }' \
		    "$tmp/list-$sc-$pol" >"$tmp/val"
		# user ID lines only for keys with more than one user ID
		awk '$1 == "uidvalidity" { n[$2]++ } END { for (k in n) if (n[k] > 1) print k }' "$tmp/val" >"$tmp/multi"
		awk -v multi=" $(tr '\n' ' ' <"$tmp/multi") " '$1 == "validity" || index(multi, " " $2 " ")' "$tmp/val" |
		    sort -k2,2 -k1,1r -k6,6 >>"$M.v"
	done
done
# positive: ultimate, full, marginal
npos=$((npos + $(awk '$5 ~ /^[ufm]$/' "$M.v" | wc -l)))
nneg=$((nneg + $(awk '$5 !~ /^[ufm]$/' "$M.v" | wc -l)))
cat "$M.v" >>"$M"
rm -f "$M.v"
echo "# $npos positive, $nneg negative expectations" >>"$M"

# ---- cross-check paths, why, audit with the independent model ---------------------
python3 "$top/tests/cli/wot_model.py" "$out" >"$tmp/model" 2>&1 || {
	grep -v '^ok' "$tmp/model" >&2
	fail "tests/cli/wot_model.py disagrees with the MANIFEST"
}
echo "gen_wot: wrote $out ($npos positive, $nneg negative expectations)"
