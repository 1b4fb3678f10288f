#!/bin/sh
# tests/cli/submission.sh - `wotkit submission check` and `submission nonce`:
# every "submission" line of vectors/submission/MANIFEST (written with its keys
# by vectors/gen/gen_submission.sh; expected verdicts from the intent of each
# case, never from wotkit's output): exit status, the checks that must fail
# (and that no other fails), the checks that must pass; then the JSON output,
# the nonce round trip, usage errors, and a cross-check of the SHA-1 and
# back-signature findings with sq where it is installed.
# TAP-ish: "ok - ...", "not ok - ...", "skip - ...".
#   WOTKIT  the binary (default ./wotkit)
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-./wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
V=$top/vectors/submission
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
tab=$(printf '\t')
AT=2026-06-01
# no default keyring: the path check runs only where a case names RING
WOTKIT_KEYRING=$T/no-such-keyring
export WOTKIT_KEYRING

pass() { echo "ok - $1"; }
flunk() { echo "not ok - $1"; fail=1; }
check() { # NAME, then a test command
	n=$1; shift
	if "$@"; then pass "$n"; else flunk "$n"; fi
}

[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }
[ -f "$V/MANIFEST" ] || { echo "not ok - $V/MANIFEST missing (sh vectors/gen/gen_submission.sh)"; exit 1; }

ROOT=$(sed -n 's/^#   root \([0-9A-F]*\) .*/\1/p' "$V/MANIFEST")
RING=$T/ring.wk
"$W" keyring build -o "$RING" --root "$ROOT" --at $AT "$V/ring/ring.pgp" >"$T/out" 2>"$T/err"
check "the path keyring builds (root $ROOT)" [ $? -eq 0 ]

# run OPTIONS KEY: `submission check` from $V, status in $rc, stdout in $T/out
run() {
	opts=$1 key=$2
	set --
	if [ "$opts" != - ]; then
		oldifs=$IFS; IFS=,
		for o in $opts; do
			[ "$o" = RING ] && o=$RING
			set -- "$@" "$o"
		done
		IFS=$oldifs
	fi
	(cd "$V" && "$W" submission check "$key" "$@" --at $AT >"$T/out" 2>"$T/err")
	rc=$?
}

# the verdict of check NAME in $T/out: fail when any line fails, else pass
# when some line passes or warns, else skip; "none" when it is not reported
verdict() {
	if grep -q "^FAIL $1: " "$T/out"; then echo fail
	elif grep -q "^\(PASS\|WARN\) $1: " "$T/out"; then echo pass
	elif grep -q "^SKIP $1: " "$T/out"; then echo skip
	else echo none; fi
}

npos=0 nneg=0
grep '^submission	' "$V/MANIFEST" >"$T/cases"
while IFS=$tab read -r kind id key opts want fails passes; do
	if [ "$want" -eq 0 ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi
	run "$opts" "$key"
	if [ "$rc" -eq "$want" ]; then pass "$id: exit $want"; else
		flunk "$id: exit $rc, want $want"; sed 's/^/#   /' "$T/out" "$T/err" | head -20; fi
	oldifs=$IFS; IFS=,
	for c in $fails; do
		[ "$c" = - ] && continue
		v=$(verdict "$c")
		if [ "$v" = fail ]; then pass "$id: $c fails"; else flunk "$id: $c is $v, want fail"; fi
	done
	for c in $passes; do
		[ "$c" = - ] && continue
		v=$(verdict "$c")
		if [ "$v" = pass ]; then pass "$id: $c passes"; else flunk "$id: $c is $v, want pass"; fi
	done
	IFS=$oldifs
	# no check fails that the MANIFEST does not name
	others=$(sed -n 's/^FAIL \([a-z-]*\): .*/\1/p' "$T/out" | sort -u | while read -r c; do
		case ",$fails," in *",$c,"*) ;; *) echo "$c" ;; esac; done | tr '\n' ' ')
	check "$id: no other check fails${others:+ (but: $others)}" [ -z "$others" ]
	# the result line agrees with the exit status
	if [ "$want" -eq 0 ]; then r=PASS; else r=FAIL; fi
	check "$id: result line says $r" grep -q "^result: $r (" "$T/out"
done <"$T/cases"
check "MANIFEST: $npos positive, $nneg negative submission cases, at least as many negatives" \
	[ "$npos" -gt 0 ] && [ "$nneg" -ge "$npos" ]

# --- what the lines say ---------------------------------------------------
run - keys/sha1-only.asc
check "sha1-only: the SHA-1 rule is named" grep -q "^FAIL self-sig-hash: .*uses SHA1: policy: SHA-1 self-signatures are rejected after 2023-02-01" "$T/out"
check "sha1-only: both bindings are named (user ID and subkey)" \
	sh -c "[ \$(grep -c '^FAIL self-sig-hash: ' '$T/out') -eq 2 ] && grep -q '^FAIL self-sig-hash: user ID \"Old Hash <sha1@example.org>\" binding' '$T/out'"
run - keys/sha1-superseded.asc
check "sha1-superseded: the older SHA-1 binding is a warning" grep -q "^WARN self-sig-hash: .*SHA1 (superseded by a newer self-signature)" "$T/out"
run - keys/no-signing.asc
check "no-signing: back-sig is skipped, not passed (no signing subkey)" grep -q "^SKIP back-sig: no signing-capable subkey" "$T/out"
run - keys/no-backsig.asc
check "no-backsig: the subkey and the missing 0x19 are named" grep -q "^FAIL back-sig: signing subkey [0-9A-F]\{40\}: the binding carries no back-signature (0x19)" "$T/out"
run --email,good@example.org,--keyring,RING keys/good.asc
check "good-key: the path and the key it goes through" \
	grep -q '^PASS path: 2 hops from the root, certified by [0-9A-F]\{16\} "Middle Key <middle@example.org>": [0-9A-F]\{16\} "Root Key <root@example.org>" -> ' "$T/out"
run --nonce,@nonce/nonce.txt,--nonce-sig,nonce/good.sig keys/good.asc
check "good-nonce: the signing subkey is named" grep -q "^PASS nonce: good signature over the exact nonce text by subkey [0-9A-F]\{40\}, made 2026-05-30T12:00:00Z" "$T/out"
check "good-nonce: the e-mail comes from the nonce" grep -q '^PASS email: user ID "Good Submitter <good@example.org>" is valid' "$T/out"
run --nonce,@nonce/nonce.txt,--nonce-sig,nonce/other-key.sig keys/good.asc
check "nonce-other-key: says it is not a key of the certificate" grep -q "^FAIL nonce: .*not a key of the submitted certificate" "$T/out"
run --nonce,@nonce/nonce.txt,--nonce-sig,nonce/wrong-text.sig keys/good.asc
check "wrong-nonce-text: does not verify over the text" grep -q "^FAIL nonce: .*does not verify over the nonce text" "$T/out"
# the nonce as an argument (the exact text, as `submission nonce` prints it)
run "--nonce,$(cat "$V/nonce/nonce.txt"),--nonce-sig,nonce/good.sig" keys/good.asc
check "nonce given as text: exit 0" [ "$rc" -eq 0 ]
# one more octet (a newline) is another text
printf '\n' | cat "$V/nonce/nonce.txt" - >"$T/nl.txt"
run "--nonce,@$T/nl.txt,--nonce-sig,nonce/good.sig" keys/good.asc
check "nonce text with a trailing newline: fails" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL nonce: ' '$T/out'"
# --email and the nonce's address disagree
run --email,other@example.org,--nonce,@nonce/nonce.txt,--nonce-sig,nonce/good.sig keys/good.asc
check "--email against the nonce's address: email fails" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL email: --email and the nonce name different addresses' '$T/out'"
run --keyring,RING keys/no-path.asc
check "no-path: says nobody in the keyring certified it" grep -q "^FAIL path: no path from the root [0-9A-F]\{16\} \"Root Key <root@example.org>\": no certification by any key in the keyring" "$T/out"
run - keys/expired.asc
check "expired: the date is named" grep -q "^FAIL expired: the primary key expired on 2026-01-01" "$T/out"
# an expired key was fine before it expired
(cd "$V" && "$W" submission check keys/expired.asc --at 2025-06-01 >"$T/out" 2>"$T/err"); rc=$?
check "expired key before its expiry: exit 0" [ "$rc" -eq 0 ]
# (the dated SHA-1 cutoff itself: tests/unit/test_selfsig.c, before and after 2023-02-01)
# armored text after the block
{ cat "$V/keys/good.asc"; echo "trailing words"; } >"$T/trail.asc"
(cd "$V" && "$W" submission check "$T/trail.asc" --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "text after the armor block: parse fails" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL parse: .* octets after the armor block' '$T/out'"
# a secret key is refused
# (no secret key vector: a private key block label is enough to refuse)
sed 's/PUBLIC KEY BLOCK/PRIVATE KEY BLOCK/' "$V/keys/good.asc" >"$T/priv.asc"
(cd "$V" && "$W" submission check "$T/priv.asc" --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "a PRIVATE KEY BLOCK: parse fails" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL parse: .*never send a secret key' '$T/out'"
# the default keyring ($WOTKIT_KEYRING) is used when it exists
(cd "$V" && WOTKIT_KEYRING=$RING "$W" submission check keys/good.asc --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "default keyring: the path is checked" sh -c "[ $rc -eq 0 ] && grep -q '^PASS path: ' '$T/out'"
(cd "$V" && WOTKIT_KEYRING=$RING "$W" submission check keys/good.asc --no-keyring --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "--no-keyring: the path is skipped" grep -q '^SKIP path: --no-keyring' "$T/out"
# a raw keyring needs --root
(cd "$V" && "$W" submission check keys/good.asc --keyring ring/ring.pgp --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "raw keyring without --root: path skipped, says why" grep -q '^SKIP path: the keyring records no root key' "$T/out"
(cd "$V" && "$W" submission check keys/good.asc --keyring ring/ring.pgp --root "$ROOT" --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "raw keyring with --root: path passes" sh -c "[ $rc -eq 0 ] && grep -q '^PASS path: 2 hops' '$T/out'"
mkdir "$T/keydir" && cp "$V/ring/ring.pgp" "$T/keydir/"
(cd "$V" && "$W" submission check keys/good.asc --keyring "$T/keydir" --root "$ROOT" --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "a directory of key files with --root: path passes" sh -c "[ $rc -eq 0 ] && grep -q '^PASS path: 2 hops' '$T/out'"
(cd "$V" && "$W" submission check keys/good.asc --keyring ring/ring.pgp --root "$ROOT" --maxdepth 1 --at $AT >"$T/out" 2>"$T/err"); rc=$?
check "--maxdepth 1: the 2-hop path is beyond it" sh -c "[ $rc -eq 1 ] && grep -q '^FAIL path: .*within 1 hops' '$T/out'"

# --- JSON -------------------------------------------------------------------
(cd "$V" && "$W" submission check keys/no-backsig.asc --at $AT --json >"$T/out" 2>"$T/err"); rc=$?
check "--json: exit 1 for a failing key" [ "$rc" -eq 1 ]
check "--json: valid JSON with the failing check" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["result"] == "fail"
assert d["at"] == "2026-06-01T00:00:00Z"
fails = {c["check"] for c in d["checks"] if c["verdict"] == "fail"}
assert fails == {"back-sig", "signing"}, fails
' "$T/out"

# --- nonce --------------------------------------------------------------------
"$W" submission nonce good@example.org --at 2026-05-30T12:00:00Z >"$T/out" 2>"$T/err"; rc=$?
check "nonce: exit 0" [ "$rc" -eq 0 ]
N=$(grep '^wotkit-submission-nonce ' "$T/out")
check "nonce: the text names the address and the date" sh -c "echo '$N' | grep -q '^wotkit-submission-nonce good@example.org 2026-05-30T12:00:00Z [0-9a-f]\{32\}\$'"
check "nonce: the printf and gpg commands" sh -c "grep -qF \"printf '%s' '$N' > wotkit-nonce.txt\" '$T/out' && grep -qF 'gpg --local-user good@example.org --armor --detach-sign wotkit-nonce.txt' '$T/out'"
"$W" submission nonce good@example.org >"$T/out2" 2>"$T/err"
N2=$(grep '^wotkit-submission-nonce ' "$T/out2")
check "nonce: two nonces differ" [ "$N" != "$N2" ]
"$W" submission nonce good@example.org --json >"$T/out" 2>"$T/err"
check "nonce --json" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["email"] == "good@example.org" and d["nonce"].startswith("wotkit-submission-nonce good@example.org ")
assert len(d["commands"]) == 3
' "$T/out"
if command -v gpg >/dev/null 2>&1; then
	# the round trip: sign the printed text exactly as told, with a throwaway key
	G=$T/gnupg; mkdir -m 700 "$G"
	if GNUPGHOME=$G gpg --batch --pinentry-mode loopback --passphrase '' --quick-gen-key \
	    'Round Trip <trip@example.org>' ed25519 cert,sign never >/dev/null 2>&1; then
		GNUPGHOME=$G gpg --batch -a --export trip@example.org >"$T/trip.asc" 2>/dev/null
		"$W" submission nonce trip@example.org >"$T/out"
		(cd "$T" && eval "$(sed -n "s/^    \(printf '%s' .*\)/\1/p" "$T/out")" &&
		    GNUPGHOME=$G gpg --batch --local-user trip@example.org --armor --detach-sign wotkit-nonce.txt 2>/dev/null)
		NT=$(grep '^wotkit-submission-nonce ' "$T/out")
		"$W" submission check "$T/trip.asc" --nonce "$NT" --nonce-sig "$T/wotkit-nonce.txt.asc" >"$T/res" 2>&1; rc=$?
		check "nonce round trip with gpg: exit 0, nonce and e-mail pass" sh -c \
		    "[ $rc -eq 0 ] && grep -q '^PASS nonce: ' '$T/res' && grep -q '^PASS email: ' '$T/res'"
		GNUPGHOME=$G gpgconf --kill gpg-agent >/dev/null 2>&1
	else
		echo "skip - gpg could not make a key: no nonce round trip"
	fi
else
	echo "skip - gpg not installed: no nonce round trip"
fi

# --- usage ------------------------------------------------------------------
u() { "$W" submission "$@" >"$T/out" 2>"$T/err"; rc=$?; }
u; check "no subcommand: exit 2" [ "$rc" -eq 2 ]
u check; check "check without KEY: exit 2" [ "$rc" -eq 2 ]
u check "$V/keys/good.asc" --nonce x; check "--nonce without --nonce-sig: exit 2" [ "$rc" -eq 2 ]
u check "$V/keys/good.asc" --frob; check "unknown option: exit 2" [ "$rc" -eq 2 ]
u check "$T/absent.asc"; check "unreadable KEY: exit 2" [ "$rc" -eq 2 ]
u nonce "bad address'; rm -rf /"; check "nonce with an unsafe address: exit 2" [ "$rc" -eq 2 ]
u nonce; check "nonce without EMAIL: exit 2" [ "$rc" -eq 2 ]

# --- cross-check with sq (sq 0.27 has no `cert lint`: `sq inspect` reports
# the same SHA-1 and back-signature findings; it judges at the current time,
# which these never-expiring vectors do not depend on) ----------------------
if command -v sq >/dev/null 2>&1; then
	for k in good good-primary-signs sha1-only sha1-superseded no-backsig no-signing; do
		sq inspect "$V/keys/$k.asc" >"$T/sq" 2>&1
		(cd "$V" && "$W" submission check "keys/$k.asc" >"$T/out" 2>&1)
		sq_sha1=0; grep -q 'SHA1 is not considered secure' "$T/sq" && sq_sha1=1
		wk_sha1=0; grep -q '^FAIL self-sig-hash: .*uses SHA1' "$T/out" && wk_sha1=1
		check "sq agrees on SHA-1 self-signatures of $k ($sq_sha1)" [ "$sq_sha1" = "$wk_sha1" ]
		sq_back=0; grep -q 'Bad Signature: .*typ: SubkeyBinding' "$T/sq" && sq_back=1
		wk_back=0; grep -q '^FAIL back-sig: ' "$T/out" && wk_back=1
		check "sq agrees on the back-signature of $k ($sq_back)" [ "$sq_back" = "$wk_back" ]
	done
	# the real pgpkeys.git sample: SHA-1 self-signatures in force, key by key
	C=${WOTKIT_CORPUS:-$top/../shared/corpus}/pgpkeys/keys
	if [ -d "$C" ]; then
		for f in "$C"/*.asc; do
			k=$(basename "$f" .asc)
			sq inspect "$f" >"$T/sq" 2>&1
			"$W" submission check "$f" --no-keyring >"$T/out" 2>&1
			sq_sha1=0; grep -q 'SHA1 is not considered secure' "$T/sq" && sq_sha1=1
			wk_sha1=0; grep -q '^FAIL self-sig-hash: .*uses SHA1' "$T/out" && wk_sha1=1
			check "sq agrees on SHA-1 self-signatures of pgpkeys $k ($sq_sha1)" [ "$sq_sha1" = "$wk_sha1" ]
		done
	else
		echo "skip - corpus not found: no pgpkeys.git cross-check"
	fi
else
	echo "skip - sq not installed: no cross-check"
fi

exit $fail
