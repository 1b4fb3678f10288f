#!/bin/sh
# tests/cli/sopv.sh - `wotkit sopv` (sopv 1.2: version, verify, inline-verify;
# validate-userid is tests/cli/sopv_validate.sh)
# against draft-dkg-openpgp-stateless-cli. Expected exit codes and the
# VERIFICATIONS format come from the draft's text; expected signers from
# vectors/verify/MANIFEST and RFC 9580 Appendix A, never from wotkit's output.
# TAP-ish: "ok - ...", "not ok - ...", "skip - ...".
#   WOTKIT         the binary (default ./wotkit)
#   WOTKIT_CORPUS  the shared corpus (RFC 9580 vectors); skipped if absent
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-./wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
V=$top/vectors/verify
C=${WOTKIT_CORPUS:-$top/../shared/corpus}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0

# draft-dkg-openpgp-stateless-cli §"Failure Modes"
NO_SIGNATURE=3 MISSING_ARG=19 UNSUPPORTED_OPTION=37 BAD_DATA=41
OUTPUT_EXISTS=59 MISSING_INPUT=61 UNSUPPORTED_SUBCOMMAND=69
UNSUPPORTED_SPECIAL_PREFIX=71 AMBIGUOUS_INPUT=73 INCOMPATIBLE_OPTIONS=83
# §"VERIFICATIONS": <ISO 8601 UTC time> <signing key fpr> <primary fpr> mode:... [free text]
VRE='^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z [0-9A-F]{40,64} [0-9A-F]{40,64} mode:(binary|text)( .*)?$'

pass() { echo "ok - $1"; }
flunk() { echo "not ok - $1"; fail=1; }
# expect RC NAME: checks the exit status of the command just run
expect() {
	r=$?
	if [ "$r" -eq "$1" ]; then pass "$2"; else flunk "$2 (exit $r, want $1)"; sed 's/^/#   /' "$T/err" | head -3; fi
}
check() { # NAME, then a test command
	n=$1; shift
	if "$@"; then pass "$n"; else flunk "$n"; fi
}
empty() { [ ! -s "$1" ]; }
lines() { [ "$(grep -c . "$1")" -eq "$2" ]; }
allvalid() { [ -s "$1" ] && ! grep -Evq "$VRE" "$1"; }
field() { awk -v n="$2" 'NR == 1 { print $n }' "$1"; } # FILE N: field N of line 1
mfpr() { awk -F'\t' -v c="$1" '$1 == c { print $7 }' "$V/MANIFEST"; }
sopv() { "$W" sopv "$@" >"$T/out" 2>"$T/err"; }

[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }

# --- version (§"version") ---------------------------------------------------
sopv version; expect 0 "version"
oneline() { lines "$1" 1 && grep -Eq '^[^ ]+ [^ ]+$' "$1"; }
check "version: one line '<name> <version>'" oneline "$T/out"
cp "$T/out" "$T/plain"
sopv version --extended; expect 0 "version --extended"
check "version --extended: first line is the plain version" [ "$(head -n1 "$T/out")" = "$(cat "$T/plain")" ]
sopv version --backend; expect 0 "version --backend"
check "version --backend prints something" test -s "$T/out"
sopv version --sop-spec; expect 0 "version --sop-spec"
head -n1 "$T/out" >"$T/head"
check "version --sop-spec: first line names the draft, ~ if incomplete" \
	grep -Eq '^~?draft-dkg-openpgp-stateless-cli-[0-9]+$' "$T/head"
check "version --sop-spec: marked incomplete (~): only the sopv subset of sop" grep -q '^~' "$T/head"
sopv version --sopv; expect 0 "version --sopv"
check "version --sopv prints 1.2" [ "$(cat "$T/out")" = "1.2" ]
sopv version --sopv --backend; expect $INCOMPATIBLE_OPTIONS "version: two flags -> INCOMPATIBLE_OPTIONS"
sopv version --frobnicate; expect $UNSUPPORTED_OPTION "version: unknown option -> UNSUPPORTED_OPTION"
sopv frobnicate; expect $UNSUPPORTED_SUBCOMMAND "unknown subcommand -> UNSUPPORTED_SUBCOMMAND"
sopv sign "$V/keys/ed25519.pgp"; expect $UNSUPPORTED_SUBCOMMAND "full-sop subcommand (sign) -> UNSUPPORTED_SUBCOMMAND"
sopv; expect $MISSING_ARG "no subcommand -> MISSING_ARG"
sopv --debug version --sopv; expect 0 "--debug before the subcommand"
ln -s "$W" "$T/wotkit-sopv"
"$T/wotkit-sopv" version --sopv >"$T/out" 2>"$T/err"; expect 0 "argv[0] wotkit-sopv dispatch"
check "wotkit-sopv version --sopv prints 1.2" [ "$(cat "$T/out")" = "1.2" ]

# --- verify: every MANIFEST case without a pinned reference time -----------
# good -> 0 and VERIFICATIONS naming the MANIFEST's signer; any other verdict
# -> NO_SIGNATURE (malformed/unsupported signature files may be BAD_DATA) and
# nothing on stdout (§"verify": "returns 0 if any valid ... signature").
tab=$(printf '\t')
grep -v '^#' "$V/MANIFEST" | while IFS=$tab read -r id kind sig data keys verdict fpr note at; do
	[ -n "$id" ] || continue
	[ -z "$at" ] || continue          # sopv has no reference-time option
	set --
	oldifs=$IFS; IFS=,
	for k in $keys; do set -- "$@" "$V/$k"; done
	IFS=$oldifs
	if [ "$kind" = detached ]; then
		"$W" sopv verify "$V/$sig" "$@" <"$V/$data" >"$T/out" 2>"$T/err"
	else
		"$W" sopv inline-verify "$@" <"$V/$sig" >"$T/out" 2>"$T/err"
	fi
	r=$?
	if [ "$verdict" = good ]; then
		[ "$kind" = detached ] && vf=$T/out || vf=
		if [ $r -ne 0 ]; then
			flunk "manifest $id: exit $r, want 0"
		elif [ -n "$vf" ] && ! allvalid "$vf"; then
			flunk "manifest $id: VERIFICATIONS line format"
		elif [ -n "$vf" ] && ! awk -v f="$fpr" '$3 == f { ok = 1 } END { exit !ok }' "$vf"; then
			flunk "manifest $id: no line with primary fpr $fpr"
		else
			pass "manifest $id: good"
		fi
	else
		case $verdict in malformed|unsupported) alt=$BAD_DATA ;; *) alt=$NO_SIGNATURE ;; esac
		if [ $r -ne $NO_SIGNATURE ] && [ $r -ne $alt ]; then
			flunk "manifest $id ($verdict): exit $r, want $NO_SIGNATURE"
		elif ! empty "$T/out"; then
			flunk "manifest $id ($verdict): output on stdout"
		else
			pass "manifest $id: $verdict -> exit $r, no output"
		fi
	fi
done >"$T/manifest.tap"
cat "$T/manifest.tap"
grep -q '^not ok' "$T/manifest.tap" && fail=1

# --- verify: details ---------------------------------------------------------
ED=$V/keys/ed25519.pgp EDSIG=$V/sig/ed25519-sha256.sig MSG=$V/data/msg.bin
sopv verify "$EDSIG" "$ED" <"$MSG"; expect 0 "verify ed25519 good"
check "verify: one VERIFICATIONS line" lines "$T/out" 1
check "verify: line matches the VERIFICATIONS grammar" allvalid "$T/out"
check "verify: primary fpr from MANIFEST" [ "$(field "$T/out" 3)" = "$(mfpr ed25519-sha256-good)" ]
check "verify: primary key signed: signing fpr = primary fpr" [ "$(field "$T/out" 2)" = "$(field "$T/out" 3)" ]
check "verify: binary signature -> mode:binary" [ "$(field "$T/out" 4)" = mode:binary ]
cp "$T/out" "$T/ed.verif"

sopv verify "$V/sig/rsa2048-subkey.sig" "$V/keys/rsa2048-subkey.pgp" <"$MSG"; expect 0 "verify by a signing subkey"
check "verify subkey: primary fpr from MANIFEST" [ "$(field "$T/out" 3)" = "$(mfpr rsa2048-subkey-good)" ]
check "verify subkey: signing fpr is the subkey's, not the primary's" [ "$(field "$T/out" 2)" != "$(field "$T/out" 3)" ]
sopv verify "$V/sig/rsa2048-text-lf.sig" "$V/keys/rsa2048.pgp" <"$V/data/text-lf.txt"; expect 0 "verify text signature"
check "verify: text signature -> mode:text" [ "$(field "$T/out" 4)" = mode:text ]
sopv verify "$V/sig/rsa2048-two-sigs.sig" "$V/keys/rsa2048.pgp" "$V/keys/rsa2048-other.pgp" <"$MSG"
expect 0 "verify two signatures, both signers given"
check "verify: one line per valid signature (2)" lines "$T/out" 2
check "verify: every line well-formed" allvalid "$T/out"
sopv verify "$V/sig/rsa2048-two-sigs.sig" "$V/keys/rsa2048.pgp" <"$MSG"; expect 0 "verify two signatures, one signer given"
check "verify: only the valid one is listed" lines "$T/out" 1
sopv verify "$EDSIG" "$V/keys/rsa2048.pgp" "$ED" <"$MSG"; expect 0 "verify: signer in the second CERTS"
sopv verify "$EDSIG" "$V/keys/ed25519-other.pgp" <"$MSG"; expect $NO_SIGNATURE "verify: no CERTS holds the signer -> NO_SIGNATURE"
check "verify: nothing on stdout without a valid signature" empty "$T/out"
sopv verify "$EDSIG" "$ED" <"$V/data/msg-bitflip.bin"; expect $NO_SIGNATURE "verify: tampered data -> NO_SIGNATURE"
check "verify: tampered data, no output" empty "$T/out"
sopv verify "$EDSIG" "$ED" </dev/null; expect $NO_SIGNATURE "verify: empty data -> NO_SIGNATURE"
sopv verify "$MSG" "$ED" <"$MSG"; expect $BAD_DATA "verify: SIGNATURES not OpenPGP -> BAD_DATA"
sopv verify "$ED" "$ED" <"$MSG"; expect $BAD_DATA "verify: SIGNATURES is a certificate -> BAD_DATA"
sopv verify "$EDSIG" "$MSG" <"$MSG"; expect $BAD_DATA "verify: CERTS not OpenPGP -> BAD_DATA"
sopv verify "$EDSIG" "$EDSIG" <"$MSG"; expect $BAD_DATA "verify: CERTS holds no certificate -> BAD_DATA"
sopv verify "$T/nonexistent.sig" "$ED" <"$MSG"; expect $MISSING_INPUT "verify: missing SIGNATURES file -> MISSING_INPUT"
sopv verify "$EDSIG" "$ED" "$T/nonexistent.pgp" <"$MSG"; expect $MISSING_INPUT "verify: missing CERTS file -> MISSING_INPUT"
sopv verify "$EDSIG" <"$MSG"; expect $MISSING_ARG "verify: no CERTS -> MISSING_ARG"
sopv verify <"$MSG"; expect $MISSING_ARG "verify: no SIGNATURES -> MISSING_ARG"
sopv verify --frobnicate "$EDSIG" "$ED" <"$MSG"; expect $UNSUPPORTED_OPTION "verify: unknown option -> UNSUPPORTED_OPTION"
sopv verify --verifications-out="$T/v" "$EDSIG" "$ED" <"$MSG"; expect $UNSUPPORTED_OPTION "verify: inline-verify's option -> UNSUPPORTED_OPTION"
sopv verify "$EDSIG" "$ED" --not-after <"$MSG"; expect $MISSING_ARG "verify: --not-after without DATE -> MISSING_ARG"
sopv verify -- "$EDSIG" "$ED" <"$MSG"; expect 0 "verify: -- before the operands"
sopv verify --debug "$EDSIG" "$ED" <"$V/data/msg-bitflip.bin"; expect $NO_SIGNATURE "verify --debug"
check "verify --debug: details on stderr" test -s "$T/err"

# --- DATE windows (§"DATE"; --not-before default "-", --not-after default "now") ---
created=$(field "$T/ed.verif" 1)
if e=$(date -u -d "$created" +%s 2>/dev/null); then
	iso() { date -u -d "@$1" +%Y-%m-%dT%H:%M:%SZ; }
	before=$(iso $((e - 1))) after=$(iso $((e + 1)))
	sopv verify --not-before="$created" "$EDSIG" "$ED" <"$MSG"; expect 0 "--not-before = creation time: inside"
	sopv verify --not-before="$after" "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "--not-before 1 s after creation: outside"
	sopv verify --not-after="$created" "$EDSIG" "$ED" <"$MSG"; expect 0 "--not-after = creation time: inside"
	sopv verify --not-after="$before" "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "--not-after 1 s before creation: outside"
	sopv verify --not-before "$before" --not-after "$after" "$EDSIG" "$ED" <"$MSG"; expect 0 "window around creation, space-separated values"
	sopv verify --not-before=- --not-after=- "$EDSIG" "$ED" <"$MSG"; expect 0 "--not-before=- --not-after=-: all of time"
	sopv verify --not-after=now "$EDSIG" "$ED" <"$MSG"; expect 0 "--not-after=now"
	sopv verify --not-before=now "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "--not-before=now: an old signature is outside"
	# other ISO 8601 spellings of the same instants
	b=$(date -u -d "@$((e + 1))" +%Y%m%dT%H%M%SZ)
	sopv verify --not-before="$b" "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "DATE basic format YYYYMMDDTHHMMSSZ"
	o=$(date -u -d "@$((e + 3600 - 1))" +%Y-%m-%dT%H:%M:%S+01:00)
	sopv verify --not-after="$o" "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "DATE with +01:00 offset is converted to UTC"
	o=$(date -u -d "@$e" +%Y-%m-%dT%H:%M:%S+00:00)
	sopv verify --not-after="$o" "$EDSIG" "$ED" <"$MSG"; expect 0 "DATE with +00:00"
	m=$(date -u -d "@$((e + 60))" +%Y-%m-%dT%H:%MZ)
	sopv verify --not-before="$m" "$EDSIG" "$ED" <"$MSG"; expect $NO_SIGNATURE "DATE without seconds (YYYY-MM-DDTHH:MMZ)"
	sopv inline-verify --not-before="$after" "$ED" <"$V/sig/ed25519-inline.pgp"; expect $NO_SIGNATURE "inline-verify --not-before outside"
	check "inline-verify outside the window: nothing on stdout" empty "$T/out"
	sopv inline-verify --not-after="$created" "$ED" <"$V/sig/ed25519-inline.pgp"; expect 0 "inline-verify --not-after inside"
else
	echo "skip - DATE window tests need GNU date -d"
fi
# a malformed DATE has no code of its own in the draft: generic failure (1)
for bad in yesterday 2023-13-01T00:00:00Z 2023-06-01T00:00:00 1685577600 2023-06-01T25:00:00Z ""; do
	sopv verify --not-before="$bad" "$EDSIG" "$ED" <"$MSG"; expect 1 "malformed DATE '$bad' -> 1"
done

# --- indirect inputs (§"Special Designators") --------------------------------
armor() { # LABEL FILE: ASCII armor without the optional checksum (RFC 9580 §6.2)
	printf -- '-----BEGIN PGP %s-----\n\n' "$1"; base64 -w 64 "$2"; printf -- '-----END PGP %s-----\n' "$1"
}
K=$(armor "PUBLIC KEY BLOCK" "$ED"); export K
S=$(armor SIGNATURE "$EDSIG"); export S
sopv verify "$EDSIG" @ENV:K <"$MSG"; expect 0 "CERTS from @ENV:K"
check "@ENV: verifications equal the file's" [ "$(cut -d' ' -f1-4 "$T/out")" = "$(cut -d' ' -f1-4 "$T/ed.verif")" ]
sopv verify @ENV:S "$ED" <"$MSG"; expect 0 "SIGNATURES from @ENV:S"
sopv verify "$EDSIG" @ENV:WOTKIT_SOPV_UNSET_VARIABLE <"$MSG"; expect $MISSING_INPUT "@ENV: of an unset variable -> MISSING_INPUT"
"$W" sopv verify "$EDSIG" @FD:5 <"$MSG" >"$T/out" 2>"$T/err" 5<"$ED"; expect 0 "CERTS from @FD:5"
check "@FD: verifications equal the file's" [ "$(cut -d' ' -f1-4 "$T/out")" = "$(cut -d' ' -f1-4 "$T/ed.verif")" ]
"$W" sopv verify @FD:6 "$ED" <"$MSG" >"$T/out" 2>"$T/err" 6<"$EDSIG"; expect 0 "SIGNATURES from @FD:6"
sopv verify "$EDSIG" @FD:9 <"$MSG"; expect $MISSING_INPUT "@FD: of a closed descriptor -> MISSING_INPUT"
sopv verify "$EDSIG" @FOO:bar <"$MSG"; expect $UNSUPPORTED_SPECIAL_PREFIX "unknown @ prefix -> UNSUPPORTED_SPECIAL_PREFIX"
(
	cd "$T" && cp "$ED" "@ENV:K" && cp "$ED" "@FD:5"
	"$W" sopv verify "$EDSIG" @ENV:K <"$MSG" >out 2>err; expect $AMBIGUOUS_INPUT "@ENV:K that is also a file -> AMBIGUOUS_INPUT"
	"$W" sopv verify "$EDSIG" @FD:5 <"$MSG" >out 2>err 5<"$ED"; expect $AMBIGUOUS_INPUT "@FD:5 that is also a file -> AMBIGUOUS_INPUT"
	"$W" sopv verify "$EDSIG" ./@ENV:K <"$MSG" >out 2>err; expect 0 "./@ENV:K names the file"
	exit $fail
) || fail=1

# --- inline-verify (§"inline-verify") ----------------------------------------
CSF=$V/sig/ed25519-cleartext.asc
# expected content per RFC 9580 §7: the text between the header's blank line
# and the signature, dash-unescaped, trailing whitespace removed (it is not
# signed, §7.2), without the line ending before the armor
awk 'h && /^-----BEGIN PGP SIGNATURE-----/ { exit }
     h { sub(/^- /, ""); sub(/[ \t]+$/, ""); if (n++) printf "\n"; printf "%s", $0 }
     /^$/ && !h { h = 1 }' "$CSF" >"$T/csf.want"
sopv inline-verify "$ED" <"$CSF"; expect 0 "inline-verify cleartext"
check "inline-verify cleartext: dash-unescaped text, no trailing whitespace or line ending" cmp -s "$T/out" "$T/csf.want"
sopv inline-verify "$ED" <"$V/sig/ed25519-inline.pgp"; expect 0 "inline-verify inline-signed (compressed)"
check "inline-verify inline: the literal data (= data/msg.bin)" cmp -s "$T/out" "$MSG"
sopv inline-verify "$V/keys/rsa2048.pgp" <"$V/sig/rsa2048-inline-uncompressed.pgp"; expect 0 "inline-verify inline-signed (uncompressed)"
check "inline-verify uncompressed: the literal data" cmp -s "$T/out" "$MSG"
sopv inline-verify "$V/keys/ed25519-other.pgp" <"$CSF"; expect $NO_SIGNATURE "inline-verify wrong cert -> NO_SIGNATURE"
check "inline-verify NO_SIGNATURE: nothing on stdout" empty "$T/out"
sopv inline-verify "$ED" <"$V/sig/ed25519-inline-tampered.pgp"; expect $NO_SIGNATURE "inline-verify tampered -> NO_SIGNATURE"
check "inline-verify tampered: nothing on stdout" empty "$T/out"
sopv inline-verify "$ED" <"$MSG"; expect $BAD_DATA "inline-verify: not an OpenPGP message -> BAD_DATA"
sopv inline-verify "$ED" </dev/null; expect $BAD_DATA "inline-verify: empty input -> BAD_DATA"
sopv inline-verify "$MSG" <"$CSF"; expect $BAD_DATA "inline-verify: CERTS not OpenPGP -> BAD_DATA"
sopv inline-verify "$T/nonexistent.pgp" <"$CSF"; expect $MISSING_INPUT "inline-verify: missing CERTS -> MISSING_INPUT"
sopv inline-verify <"$CSF"; expect $MISSING_ARG "inline-verify: no CERTS -> MISSING_ARG"
sopv inline-verify --frobnicate "$ED" <"$CSF"; expect $UNSUPPORTED_OPTION "inline-verify: unknown option"
sopv inline-verify --verifications-out="$T/v1" "$ED" <"$CSF"; expect 0 "inline-verify --verifications-out=FILE"
check "--verifications-out: the content still goes to stdout" cmp -s "$T/out" "$T/csf.want"
check "--verifications-out: one line" lines "$T/v1" 1
check "--verifications-out: VERIFICATIONS grammar" allvalid "$T/v1"
check "--verifications-out: primary fpr from MANIFEST" [ "$(field "$T/v1" 3)" = "$(mfpr ed25519-cleartext-good)" ]
check "--verifications-out: cleartext is mode:text" [ "$(field "$T/v1" 4)" = mode:text ]
sopv inline-verify --verifications-out="$T/v1" "$ED" <"$CSF"; expect $OUTPUT_EXISTS "--verifications-out to an existing file -> OUTPUT_EXISTS"
check "OUTPUT_EXISTS: nothing on stdout" empty "$T/out"
"$W" sopv inline-verify --verifications-out=@FD:3 "$ED" <"$CSF" >"$T/out" 2>"$T/err" 3>"$T/v3"; expect 0 "--verifications-out=@FD:3"
check "@FD: output holds the VERIFICATIONS" allvalid "$T/v3"
sopv inline-verify --verifications-out=@ENV:X "$ED" <"$CSF"; expect $UNSUPPORTED_SPECIAL_PREFIX "--verifications-out=@ENV: -> UNSUPPORTED_SPECIAL_PREFIX"
sopv inline-verify --verifications-out "$ED" ; expect $MISSING_ARG "--verifications-out without a value -> MISSING_ARG"
sopv inline-verify --verifications-out="$T/v4" "$V/keys/ed25519-other.pgp" <"$CSF"; expect $NO_SIGNATURE "--verifications-out, no valid signature"
check "no valid signature: no VERIFICATIONS file" [ ! -e "$T/v4" ]
"$W" sopv inline-verify @FD:4 <"$CSF" >"$T/out" 2>"$T/err" 4<"$ED"; expect 0 "inline-verify CERTS from @FD:4"

# --- RFC 9580 A.6 / A.7: v6 cleartext and inline messages, cert A.3 ----------
R=$C/rfc9580
if [ -f "$R/A.3.transferable-pubkey-v6.asc" ]; then
	# RFC 9580 §A.3: the v6 primary key's fingerprint; A.6/A.7 are signed by it
	V6=CB186C4F0609A697E4D52DFA6C722B0C1F1E27C18A56708F6525EC27BAD9ACC9
	printf 'What we need from the grocery store:\n\n- tofu\n- vegetables\n- noodles\n' >"$T/grocery"
	for m in A.6.-sample-cleartext-signed-message.asc A.7.-sample-inline-signed-message.asc; do
		rm -f "$T/vr"
		sopv inline-verify --verifications-out="$T/vr" "$R/A.3.transferable-pubkey-v6.asc" <"$R/$m"; expect 0 "RFC 9580 $m"
		check "RFC 9580 $m: the grocery list" cmp -s "$T/out" "$T/grocery"
		check "RFC 9580 $m: VERIFICATIONS grammar" allvalid "$T/vr"
		check "RFC 9580 $m: signed by the v6 primary key" [ "$(field "$T/vr" 2) $(field "$T/vr" 3)" = "$V6 $V6" ]
		sopv inline-verify "$ED" <"$R/$m"; expect $NO_SIGNATURE "RFC 9580 $m with another cert -> NO_SIGNATURE"
	done
	sopv verify "$R/A.2.v4-ed25519legacy-sig.asc" "$R/A.1.v4-ed25519legacy-key.asc" <"$R/A.2.message-OpenPGP.txt"
	r=$?
	if [ $r -eq 0 ] && allvalid "$T/out"; then pass "RFC 9580 A.2 detached v4 Ed25519Legacy"; else flunk "RFC 9580 A.2 detached (exit $r)"; fi
else
	echo "skip - RFC 9580 vectors: no corpus at $C"
fi

# --- an independent oracle: sqop (Sequoia's sop), when installed ------------
if command -v sqop >/dev/null 2>&1; then
	for c in ed25519-sha256-good rsa2048-sha256-good sq-ed25519-sha512-good ed25519-sha256-tampered ed25519-wrong-key; do
		line=$(awk -F'\t' -v c="$c" '$1 == c' "$V/MANIFEST")
		sig=$(echo "$line" | cut -f3) data=$(echo "$line" | cut -f4) keys=$(echo "$line" | cut -f5)
		sqop verify "$V/$sig" "$V/$keys" <"$V/$data" >"$T/sq.out" 2>/dev/null; rs=$?
		"$W" sopv verify "$V/$sig" "$V/$keys" <"$V/$data" >"$T/out" 2>/dev/null; rw=$?
		if [ $rs -eq $rw ] && [ "$(cut -d' ' -f1-3 "$T/sq.out")" = "$(cut -d' ' -f1-3 "$T/out")" ]; then
			pass "sqop agrees on $c (exit $rw)"
		else
			flunk "sqop disagrees on $c (sqop $rs, wotkit $rw)"
		fi
	done
else
	echo "skip - sqop not installed (apt-get install sqop): no differential check"
fi

exit $fail
