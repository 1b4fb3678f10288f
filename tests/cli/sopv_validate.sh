#!/bin/sh
# tests/cli/sopv_validate.sh - `wotkit sopv validate-userid` (sopv 1.2,
# draft-dkg-openpgp-stateless-cli §"validate-userid"): every line of
# vectors/sopv-validate/MANIFEST (written with its keys by
# vectors/gen/gen_sopv_validate.sh; expected exit codes from the intent of
# each case, never from wotkit's output), the options and exit codes around
# it, and, where another sop implements validate-userid, a cross-check.
# TAP-ish: "ok - ...", "not ok - ...", "skip - ...".
#   WOTKIT  the binary (default ./wotkit)
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-./wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
V=$top/vectors/sopv-validate
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
tab=$(printf '\t')

# draft-dkg-openpgp-stateless-cli §"Failure Modes"
MISSING_ARG=19 UNSUPPORTED_OPTION=37 BAD_DATA=41 MISSING_INPUT=61
UNSUPPORTED_SPECIAL_PREFIX=71 AMBIGUOUS_INPUT=73 CERT_USERID_NO_MATCH=107

pass() { echo "ok - $1"; }
flunk() { echo "not ok - $1"; fail=1; }
expect() { # RC NAME: the exit status of the command just run
	r=$?
	if [ "$r" -eq "$1" ]; then pass "$2"; else flunk "$2 (exit $r, want $1)"; sed 's/^/#   /' "$T/err" | head -3; fi
}
check() { # NAME, then a test command
	n=$1; shift
	if "$@"; then pass "$n"; else flunk "$n"; fi
}
empty() { [ ! -s "$1" ]; }

[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }
[ -f "$V/MANIFEST" ] || { echo "not ok - $V/MANIFEST missing (sh vectors/gen/gen_sopv_validate.sh)"; exit 1; }

# run_case TOOL OPTIONS USERID AUTHORITIES STDIN: TOOL validate-userid, exit
# status in $rc, stdout in $T/out, stderr in $T/err (run from $V)
run_case() {
	tool=$1 opts=$2 uid=$3 auths=$4 in=$5
	set --
	[ "$opts" = - ] || for o in $opts; do set -- "$@" "$o"; done
	set -- "$@" -- "$uid"
	if [ "$auths" != - ]; then
		oldifs=$IFS; IFS=,
		for a in $auths; do set -- "$@" "$a"; done
		IFS=$oldifs
	fi
	: >"$T/in"
	if [ "$in" != - ]; then
		oldifs=$IFS; IFS=,
		for f in $in; do cat "$V/$f" >>"$T/in"; done
		IFS=$oldifs
	fi
	(cd "$V" && $tool validate-userid "$@" <"$T/in" >"$T/out" 2>"$T/err")
	rc=$?
}

# --- every MANIFEST case -----------------------------------------------------
npos=0 nneg=0
grep -v '^#' "$V/MANIFEST" >"$T/cases"
while IFS=$tab read -r id want uid auths in opts xcheck note; do
	[ -n "$id" ] || continue
	if [ "$want" -eq 0 ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi
	run_case "$W sopv" "$opts" "$uid" "$auths" "$in"
	if [ "$rc" -eq "$want" ]; then
		pass "$id: exit $want ($note)"
	else
		flunk "$id: exit $rc, want $want ($note)"
		sed 's/^/#   /' "$T/err" | head -3
	fi
	# §"validate-userid": Standard Output: none
	check "$id: nothing on stdout" empty "$T/out"
	# a failure names the certificate (or the input) on stderr
	if [ "$want" -eq $CERT_USERID_NO_MATCH ]; then
		check "$id: stderr says why" grep -q 'not validated\|refused' "$T/err"
	fi
done <"$T/cases"
check "MANIFEST: $npos positive, $nneg negative cases, at least as many negatives" \
	[ "$npos" -gt 0 ] && [ "$nneg" -ge "$npos" ]
grep -q "^# $((npos + nneg)) cases: $npos positive (0), $nneg negative\$" "$V/MANIFEST"
check "MANIFEST count line matches its cases" [ $? -eq 0 ]

# --- what a verdict reports ---------------------------------------------------
K=$V/keys
fpr() { "$W" inspect "$1" | awk '/^pub/ { print $NF; exit }'; }
AUTH=$(fpr "$K/auth.pgp") ALICE=$(fpr "$K/alice.pgp")
"$W" sopv --debug validate-userid "Alice <alice@example.org>" "$K/auth.pgp" <"$K/alice.pgp" \
	>"$T/out" 2>"$T/err"; expect 0 "--debug: validated"
check "--debug names the target and the certifying authority" \
	grep -q "$ALICE: user ID \"Alice <alice@example.org>\" certified by $AUTH at 2021-06-01T00:00:00Z" "$T/err"
"$W" sopv validate-userid "Alice <alice@example.org>" "$K/auth.pgp" <"$K/alice.pgp" >"$T/out" 2>"$T/err"
expect 0 "without --debug"
check "without --debug a success prints nothing" empty "$T/err"
"$W" sopv validate-userid --debug "Authority <ca@example.org>" "$K/auth.pgp" <"$K/auth.pgp" >"$T/out" 2>"$T/err"
expect 0 "authority's own user ID"
check "--debug: self-bound by the authority" grep -q "is self-bound by the authority" "$T/err"
cat "$K/alice.pgp" "$K/impostor.pgp" >"$T/two"
"$W" sopv validate-userid "Alice <alice@example.org>" "$K/auth.pgp" <"$T/two" >"$T/out" 2>"$T/err"
expect $CERT_USERID_NO_MATCH "one of two certificates fails"
check "the failing certificate is named, the good one is not" \
	sh -c "grep -q '$(fpr "$K/impostor.pgp")' '$T/err' && ! grep -q '$ALICE' '$T/err'"
"$W" sopv validate-userid "Carol <carol@example.org>" "$K/auth.pgp" <"$K/carol.pgp" >"$T/out" 2>"$T/err"
expect $CERT_USERID_NO_MATCH "revoked certification"
check "revoked certification: reason given" grep -q "revoked its certification" "$T/err"
"$W" sopv validate-userid "Bob <bob@example.org>" "$K/auth.pgp" <"$K/bob.pgp" >"$T/out" 2>"$T/err"
expect $CERT_USERID_NO_MATCH "SHA-1 certification"
check "SHA-1 certification: the policy rule is named" grep -qi "sha-\?1" "$T/err"

# --- options, arguments and indirect inputs ------------------------------------
sv() { "$W" sopv "$@" >"$T/out" 2>"$T/err"; }
A=$K/auth.pgp U="Alice <alice@example.org>"
sv validate-userid <"$K/alice.pgp"; expect $MISSING_ARG "no USERID, no CERTS -> MISSING_ARG"
sv validate-userid "$U" <"$K/alice.pgp"; expect $MISSING_ARG "USERID without CERTS -> MISSING_ARG"
sv validate-userid --validate-at <"$K/alice.pgp"; expect $MISSING_ARG "--validate-at without a value -> MISSING_ARG"
sv validate-userid --validate-at 2021-07-01T00:00:00Z "$U" "$A" <"$K/alice.pgp"; expect 0 "--validate-at DATE (separate argument)"
sv validate-userid --validate-at=2021-03-01 "$U" "$A" <"$K/alice.pgp"; expect $CERT_USERID_NO_MATCH "--validate-at=DATE alone (midnight UTC), before the certification"
sv validate-userid --validate-at=20210701T000000Z "$U" "$A" <"$K/alice.pgp"; expect 0 "--validate-at basic ISO format"
sv validate-userid --validate-at=2021-07-01T02:00:00+02:00 "$U" "$A" <"$K/alice.pgp"; expect 0 "--validate-at with an offset"
sv validate-userid --validate-at=now "$U" "$A" <"$K/alice.pgp"; expect 0 "--validate-at=now"
sv validate-userid --validate-at=2021-07-01T00:00:00 "$U" "$A" <"$K/alice.pgp"; expect 1 "--validate-at without a zone: malformed"
sv validate-userid --not-before=- "$U" "$A" <"$K/alice.pgp"; expect $UNSUPPORTED_OPTION "--not-before is verify's -> UNSUPPORTED_OPTION"
sv validate-userid --frobnicate "$U" "$A" <"$K/alice.pgp"; expect $UNSUPPORTED_OPTION "unknown option -> UNSUPPORTED_OPTION"
sv verify --addr-spec-only x "$A" </dev/null; expect $UNSUPPORTED_OPTION "--addr-spec-only is validate-userid's -> UNSUPPORTED_OPTION"
sv verify --validate-at=now x "$A" </dev/null; expect $UNSUPPORTED_OPTION "--validate-at is validate-userid's -> UNSUPPORTED_OPTION"
sv validate-userid "$U" "$A" --addr-spec-only <"$K/alice.pgp"; expect $CERT_USERID_NO_MATCH "options after operands count (whole user ID with --addr-spec-only)"
sv validate-userid -- --addr-spec-only "$A" <"$K/alice.pgp"; expect $CERT_USERID_NO_MATCH "after -- an option-like USERID is a USERID"
sv --debug validate-userid --addr-spec-only alice@example.org "$A" <"$K/alice.pgp"; expect 0 "--debug before the subcommand"
sv validate-userid "$U" "$A" "$K/auth2.asc" "$K/mallory.pgp" <"$K/alice.pgp"; expect 0 "three authorities"
sv validate-userid "$U" "$A" "$A" <"$K/alice.pgp"; expect 0 "one authority given twice"
cat "$K/auth2.pgp" "$K/auth.pgp" >"$T/ring"
sv validate-userid "$U" "$T/ring" <"$K/alice.pgp"; expect 0 "a keyring file of two authorities"
AUTHENV=$(cat "$K/auth.asc"); export AUTHENV
sv validate-userid "$U" @ENV:AUTHENV <"$K/alice.pgp"; expect 0 "authority from @ENV:"
sv validate-userid "$U" @ENV:WOTKIT_NO_SUCH_VAR <"$K/alice.pgp"; expect $MISSING_INPUT "@ENV: unset -> MISSING_INPUT"
"$W" sopv validate-userid "$U" @FD:3 <"$K/alice.pgp" 3<"$A" >"$T/out" 2>"$T/err"; expect 0 "authority from @FD:3"
sv validate-userid "$U" @FOO:bar <"$K/alice.pgp"; expect $UNSUPPORTED_SPECIAL_PREFIX "unknown @ prefix -> UNSUPPORTED_SPECIAL_PREFIX"
(cd "$T" && cp "$A" ./@ENV:AUTHENV && "$W" sopv validate-userid "$U" @ENV:AUTHENV <"$K/alice.pgp" >"$T/out" 2>"$T/err")
expect $AMBIGUOUS_INPUT "@ENV: that is also a file -> AMBIGUOUS_INPUT"
sv validate-userid "$U" "$T" <"$K/alice.pgp"; expect $MISSING_INPUT "a directory as CERTS -> MISSING_INPUT"
"$W" sopv validate-userid "$U" "$A" <"$K/auth.asc" >/dev/null 2>"$T/err"; expect $CERT_USERID_NO_MATCH "armored stdin (the authority) without that user ID"
"$W" sopv validate-userid "Authority <ca@example.org>" "$A" <"$K/auth.asc" >/dev/null 2>"$T/err"; expect 0 "armored stdin"
head -c 100 "$K/alice.pgp" >"$T/trunc"
sv validate-userid "$U" "$A" <"$T/trunc"; expect $BAD_DATA "truncated stdin -> BAD_DATA"
sv version --sopv; expect 0 "version --sopv"
check "version --sopv says 1.2 (validate-userid)" [ "$(cat "$T/out")" = "1.2" ]
sv version --extended; expect 0 "version --extended"
check "version --extended lists validate-userid" grep -q "validate-userid" "$T/out"

# --- cross-check: another sop with validate-userid ------------------------------
# Only the MANIFEST lines marked "sop" (no wotkit-specific choice involved).
xcheck() { # NAME TOOL
	if ! $2 validate-userid --help >/dev/null 2>&1; then
		echo "skip - $1 ($($2 version 2>/dev/null)) has no validate-userid: no cross-check"
		return
	fi
	while IFS=$tab read -r id want uid auths in opts x note; do
		[ "$x" = sop ] || continue
		run_case "$2" "$opts" "$uid" "$auths" "$in"
		if [ "$rc" -eq "$want" ]; then pass "$1 agrees on $id (exit $want)"; else flunk "$1 disagrees on $id (exit $rc, want $want)"; fi
	done <"$T/cases"
}
for s in sqopv sqop rsop; do
	if command -v "$s" >/dev/null 2>&1; then
		xcheck "$s" "$s"
	else
		echo "skip - $s not installed: no cross-check"
	fi
done

exit $fail
