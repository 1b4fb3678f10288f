#!/bin/sh
# vectors/gen/gen_trust.sh - generates vectors/trust/: a small web of trust
# made with GnuPG 2.2, and the validity GnuPG's classic trust model gives
# every key and user ID in it under several ownertrust settings and
# parameters (MANIFEST). tests/cli/wot_validity.sh and
# tests/unit/test_trust.c check wotkit against it.
#
#   sh vectors/gen/gen_trust.sh        # rewrites vectors/trust/ entirely
#
# All keys are Ed25519 certification-only primaries, made and signed in one
# throwaway GNUPGHOME with frozen times (--faked-system-time EPOCH!); the
# bytes change from run to run, the web's shape does not. The expected
# validities are GnuPG's own answers (vectors/gen/gpg_validity.sh: import,
# --import-ownertrust, --check-trustdb, --list-keys --with-colons) at the
# reference time, recorded when the vectors were generated; each key's note
# says what it is there for (docs/wot.md "Validity").
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
gen=$top/vectors/gen
out=$top/vectors/trust
tmp=$(mktemp -d)
H=$tmp/world
cleanup() {
	GNUPGHOME=$H gpgconf --kill gpg-agent 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for t in gpg gpgconf awk; do
	command -v $t >/dev/null || { echo "gen_trust: $t not found" >&2; exit 1; }
done
gpg --version | head -1 | grep -q ' 2\.2\.' ||
	echo "gen_trust: warning: not GnuPG 2.2 (the MANIFEST records GnuPG 2.2's model)" >&2

# ---- times (UTC, frozen) ----------------------------------------------------
T0=1735689600   # 2025-01-01  keys made
T1=1735776000   # 2025-01-02  certifications
T2=1735862400   # 2025-01-03  a newer trust signature; a certification revoked
AT=1748736000   # 2025-06-01  reference time of every expectation

mkdir -p "$H"
chmod 700 "$H"
rm -rf "$out"
mkdir -p "$out"

gw() { # time, gpg args...
	_t=$1
	shift
	GNUPGHOME=$H gpg --batch --yes --no-tty --quiet --pinentry-mode loopback \
	    --passphrase '' --faked-system-time "$_t!" "$@"
}
fpr_of() { # e-mail
	GNUPGHOME=$H gpg --batch --no-tty --with-colons --list-keys "<$1>" 2>/dev/null |
	    awk -F: '/^fpr/ { print $10; exit }'
}
# key NAME EMAIL NOTE [EXPIRE]: a new key; F_NAME is its fingerprint
key() {
	gw $T0 --quick-gen-key "$1 <$2>" ed25519 cert "${4:-0}" 2>/dev/null
	_f=$(fpr_of "$2")
	[ -n "$_f" ] || { echo "gen_trust: no key for $2" >&2; exit 1; }
	eval "F_$1=$_f"
	printf 'key\t%s\t%s\t%s\n' "$1" "$_f" "$3" >>"$tmp/keys"
}
fpr() { eval "echo \$F_$1"; }
uid() { # NAME EMAIL: a second user ID
	gw $T0 --quick-add-uid "$(fpr "$1")" "$1 <$2>" 2>/dev/null
}
# sign SIGNER TARGET [gpg options]: an exportable certification of every user ID at T1
sign() {
	_s=$1 _g=$2
	shift 2
	gw $T1 "$@" -u "$(fpr "$_s")" --quick-sign-key "$(fpr "$_g")" >/dev/null 2>&1
}
# tsign SIGNER TARGET LEVEL DEPTH DOMAIN [UIDNO [TIME]]: a trust signature
# (`gpg --edit-key tsign`): LEVEL 1 = amount 60 (marginal), 2 = 120 (full);
# DOMAIN "" for none, else gpg writes "<[^>]+[@.]DOMAIN>$" (escaped)
tsign() {
	_sel=
	[ -n "${6:-}" ] && _sel="uid $6"
	printf '%s\n%s\n%s\ny\n' "$3" "$4" "$5" |
	    GNUPGHOME=$H gpg --no-tty --quiet --pinentry-mode loopback --passphrase '' \
	    --faked-system-time "${7:-$T1}!" --command-fd 0 --status-fd 3 \
	    -u "$(fpr "$1")" --edit-key "$(fpr "$2")" $_sel tsign save 3>/dev/null >/dev/null 2>&1
}

# ---- the web ----------------------------------------------------------------
key R root@example.org "the root: ultimately trusted in every scenario"
for i in 1 2 3 4 5 6; do
	key A$i a$i@example.org "chain R>A1>...>A6: distance $i from the root"
done
for i in 1 2 3; do
	key M$i m$i@example.org "introducer certified by the root (marginal in B)"
	key T$i t$i@example.org "certified by $i of M1..M3: marginal counting"
done
key MX mx@example.org "introducer at distance 2 (R>A1>MX; marginal in B)"
key ACC acc@example.org "M1, M2 (distance 1) and MX (distance 2): marginals add up over levels"
key N n@example.org "introducer with no ownertrust in A/B (undefined in C)"
key Q q@example.org "certified only by N: reached, not valid"
key V v@example.org "introducer trusted never in B"
key W w@example.org "certified only by V"
key TS ts@good.example "trust signature by R: depth 1, full, regex good.example"
key G1 g1@good.example "certified by TS, matches its regex"
key B1 b1@bad.example "certified by TS, does not match its regex"
key GB gb@good.example "two user IDs certified by TS: one matches the regex, one not"
uid GB gb@bad.example
key G2 g2@good.example "trust signature by TS (depth 1): TS passes no depth on"
key G3 g3@good.example "certified by G2 only: G2 is no trusted introducer (full in C)"
key TD td@example.org "trust signature by R: depth 2, full"
key TD2 td2@example.org "trust signature by TD: depth 1, full"
key TD3 td3@example.org "certified by TD2, a trusted introducer at depth 2"
key TD4 td4@example.org "trust signature by TD2: TD2 passes no depth on"
key TD5 td5@example.org "certified by TD4 only"
key TM tm@example.org "trust signature by R: depth 1, marginal (amount 60)"
key K1 k1@example.org "certified by TM only: one marginal"
key LW lw1@example.org "two trust signatures by R: full (2025-01-02), then marginal (2025-01-03)"
uid LW lw2@example.org
key K2 k2@example.org "certified by LW only: the newer trust signature counts"
key E e@example.org "certified by R, expired 2025-01-31 (full in B and C)" 30d
key X x@example.org "certified only by E"
key RV rv@example.org "certified by R, revoked (full in B)"
key Y y@example.org "certified only by RV"
key EC ec@example.org "certification by R that expired 2025-01-12"
key RC rc@example.org "certification by R revoked on 2025-01-03"
key Z z@example.org "certified by no one"
key P1 p1@example.org "persona certification (0x11) by R: below min-cert-level 2"
key P3 p3@example.org "positive certification (0x13) by R"

sign R A1
sign A1 A2; sign A2 A3; sign A3 A4; sign A4 A5; sign A5 A6
sign R M1; sign R M2; sign R M3
sign M1 T1
sign M1 T2; sign M2 T2
sign M1 T3; sign M2 T3; sign M3 T3
sign A1 MX
sign M1 ACC; sign M2 ACC; sign MX ACC
sign R N; sign N Q
sign R V; sign V W
tsign R TS 2 1 good.example
sign TS G1; sign TS B1; sign TS GB
tsign TS G2 2 1 ""
sign G2 G3
tsign R TD 2 2 ""
tsign TD TD2 2 1 ""
sign TD2 TD3
tsign TD2 TD4 2 1 ""
sign TD4 TD5
tsign R TM 1 1 ""
sign TM K1
tsign R LW 2 1 "" 1 $T1
tsign R LW 1 1 "" 2 $T2
sign LW K2
sign R E; sign E X
sign R RV; sign RV Y
sed 's/^:-----BEGIN/-----BEGIN/' "$H/openpgp-revocs.d/$(fpr RV).rev" >"$tmp/rv.rev"
gw $T1 --import "$tmp/rv.rev" 2>/dev/null
sign R EC --default-cert-expire 10d
sign R RC
gw $T2 --quick-revoke-sig "$(fpr RC)" "$(fpr R)" 2>/dev/null
sign R P1 --default-cert-level 1
sign R P3 --default-cert-level 3

GNUPGHOME=$H gpg --batch --no-tty --export >"$out/web.pgp"
n=$(wc -l <"$tmp/keys")

# ---- scenarios --------------------------------------------------------------
# ot SCENARIO NAME VALUE...: ownertrust (6 ultimate 5 full 4 marginal 3 never 2 undefined)
ot() {
	_s=$1
	shift
	while [ $# -ge 2 ]; do
		printf 'ot\t%s\t%s\t%s\n' "$_s" "$1" "$2" >>"$tmp/ot"
		shift 2
	done
}
B_OT="R 6 A1 5 A2 5 A3 5 A4 5 A5 5 M1 4 M2 4 M3 4 MX 4 V 3 E 5 RV 5"
ot A R 6
ot B $B_OT
ot C R 6 A1 4 A2 4 A3 4 A4 4 A5 4 M1 5 M2 5 M3 5 TS 3 TD 3 G2 5 N 2 E 5 TM 5
ot D R 6 E 6 RV 6
for s in B-marginals2 B-completes2 B-depth3 B-depth1 B-level1; do
	ot $s $B_OT
done
cat >"$tmp/scen" <<EOF
A	only R ultimately trusted
B	R ultimate; the chain full; M1..M3, MX marginal; V never; E, RV full
C	R ultimate; the chain marginal; M1..M3 full; TS, TD never (trust signatures raise them); N undefined; G2, E, TM full
D	R, and the expired E and the revoked RV, ultimately trusted: they introduce no one
B-marginals2	B with --marginals-needed 2	--marginals-needed 2
B-completes2	B with --completes-needed 2	--completes-needed 2
B-depth3	B with --max-cert-depth 3	--max-cert-depth 3
B-depth1	B with --max-cert-depth 1	--max-cert-depth 1
B-level1	B with --min-cert-level 1 (persona certifications count)	--min-cert-level 1
EOF

{
	echo "# vectors/trust/MANIFEST - written by vectors/gen/gen_trust.sh; web.pgp holds the keys."
	echo "# GnuPG's validity (trust model pgp) at AT, as gpg --check-trustdb computed it."
	echo "# Lines (TAB-separated):"
	echo "#   at        UNIX-TIME                      reference time of every expectation"
	echo "#   key       NAME  FINGERPRINT  NOTE        what the key is there for"
	echo "#   scenario  NAME  DESCRIPTION  [OPTIONS]   options for both gpg and wotkit"
	echo "#   ot        SCENARIO  KEY-NAME  N          ownertrust (gpg's numbers)"
	echo "#   key-validity  SCENARIO  KEY-NAME  LETTER"
	echo "#   uid-validity  SCENARIO  KEY-NAME  LETTER  USER-ID"
	echo "# LETTER: u ultimate, f full, m marginal, q undefined, - unknown, e expired, r revoked."
	echo "# Generated with $(gpg --version | head -1)."
	printf 'at\t%s\n' "$AT"
	cat "$tmp/keys"
	while IFS='	' read -r s desc opts; do
		printf 'scenario\t%s\t%s\t%s\n' "$s" "$desc" "${opts:-}"
	done <"$tmp/scen"
	cat "$tmp/ot"
} >"$out/MANIFEST"

pos=0 neg=0
while IFS='	' read -r s desc opts; do
	awk -F'\t' -v s="$s" '$1 == "ot" && $2 == s { print $3, $4 }' "$tmp/ot" |
	while read -r name v; do
		echo "$(fpr "$name"):$v:"
	done >"$tmp/ot.$s"
	# shellcheck disable=SC2086
	sh "$gen/gpg_validity.sh" "$out/web.pgp" "$tmp/ot.$s" "$AT" ${opts:-} >"$tmp/res.$s"
	awk -F'\t' -v s="$s" '
		FNR == NR { if ($1 == "key") name[$3] = $2; next }
		$1 == "pub" { printf "key-validity\t%s\t%s\t%s\n", s, name[$2], $3 }
		$1 == "uid" { printf "uid-validity\t%s\t%s\t%s\t%s\n", s, name[$2], $3, $4 }
	' "$tmp/keys" "$tmp/res.$s" >>"$out/MANIFEST"
done <"$tmp/scen"

pos=$(awk -F'\t' '/^(key|uid)-validity/ { n += ($4 == "u" || $4 == "f") } END { print n + 0 }' "$out/MANIFEST")
neg=$(awk -F'\t' '/^(key|uid)-validity/ { n += !($4 == "u" || $4 == "f") } END { print n + 0 }' "$out/MANIFEST")
printf '# %s positive (u, f) and %s negative (m q - e r) expectations\n' "$pos" "$neg" >>"$out/MANIFEST"
echo "gen_trust: $n keys, $pos positive and $neg negative expectations in $out/MANIFEST" >&2
