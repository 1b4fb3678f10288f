#!/bin/sh
# `wotkit wot trust` and `wotkit wot validity` (keyring/trust.h): the
# ownertrust file (set, unset, show, --import of gpg's --export-ownertrust,
# atomic replacement, refusals), the output formats and exit codes, then
# tests/cli/wot_validity.py: every validity letter against GnuPG 2.2 on the
# corpus' pgpkeys sample (GPG-VALIDITY.txt) and on vectors/trust (MANIFEST),
# and live against gpg where it is installed. TAP output.
W=${WOTKIT:-./wotkit}
V=vectors/trust
: "${WOTKIT_CORPUS:=../shared/corpus}"
export WOTKIT_CORPUS
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
WOTKIT_KEYRING=$t/none-default.wk; export WOTKIT_KEYRING

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$t/err" ] && sed 's/^/# /' "$t/err" | head -8; }
rc_is() { # expected-rc, name, command...
	want=$1 name=$2; shift 2
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name (rc=$rc)"; else nok "$name: rc=$rc, want $want"; fi
}
out_has() { # name, pattern (stdout of the last run)
	if grep -q -- "$2" "$t/out"; then ok "$1"; else echo "not ok - $1: stdout lacks '$2'"; sed 's/^/# /' "$t/out" | head -8; fi
}
out_lacks() {
	if grep -q -- "$2" "$t/out"; then echo "not ok - $1: stdout has '$2'"; else ok "$1"; fi
}
err_has() { # name, pattern (stderr of the last run)
	if grep -q -- "$2" "$t/err"; then ok "$1"; else nok "$1: stderr lacks '$2'"; fi
}
file_is() { # name, file, expected content
	if [ "$(cat "$2" 2>/dev/null)" = "$3" ]; then ok "$1"; else
		echo "not ok - $1"; sed 's/^/# /' "$2" 2>/dev/null | head -8; fi
}
fpr_of() { awk -F'\t' -v n="$1" '$1 == "key" && $2 == n { print $3 }' $V/MANIFEST; }

AT=@$(awk -F'\t' '$1 == "at" { print $2 }' $V/MANIFEST)
K=$t/web.wk
R=$(fpr_of R) A1=$(fpr_of A1) A2=$(fpr_of A2) M1=$(fpr_of M1) M2=$(fpr_of M2) M3=$(fpr_of M3)
T1=$(fpr_of T1) T3=$(fpr_of T3)
rc_is 0 "build the trust vectors' keyring with --root R" "$W" keyring build -o "$K" --root "$R" $V/web.pgp
TF=$K.trust
HEAD='# List of assigned trustvalues (wotkit)
# (Use "gpg --import-ownertrust" to restore them)'

# ---- wot trust ----
rc_is 0 "show R's ownertrust (no trust file: the root is ultimate)" "$W" wot trust --keyring "$K" "$R"
out_has "... ultimate" "^${R#????????????????????????}  ultimate  R <root@example.org>"
[ ! -e "$TF" ] && ok "... showing writes no trust file" || nok "showing wrote $TF"
rc_is 0 "trust A1 full (by e-mail)" "$W" wot trust --keyring "$K" a1@example.org full
out_has "... says so" "full  A1 <a1@example.org>"
file_is "... the trust file beside the keyring, gpg's format" "$TF" "$HEAD
$A1:5:"
rc_is 0 "trust M1 marginal (by key ID)" "$W" wot trust --keyring "$K" "${M1#????????????????????????}" marginal
rc_is 0 "trust M1 never (replaces)" "$W" wot trust --keyring "$K" "$M1" never
rc_is 0 "trust M2 undefined" "$W" wot trust --keyring "$K" "$M2" undefined
rc_is 0 "unset M2" "$W" wot trust --keyring "$K" "$M2" unset
out_has "... now unknown" "unknown  M2"
lines=$(grep -v '^#' "$TF" | sort)
want=$(printf '%s:5:\n%s:3:\n' "$A1" "$M1" | sort)
[ "$lines" = "$want" ] && ok "the file holds A1:5 and M1:3, one line each" || { echo "not ok - trust file lines"; sed 's/^/# /' "$TF"; }
rc_is 0 "show M1" "$W" wot trust --json --keyring "$K" "$M1"
out_has "... as JSON" "\"ownertrust\":\"never\""
ls "$t" | grep -q '\.tmp' && nok "a temporary file was left behind" || ok "no temporary file left behind"
rc_is 2 "an unknown ownertrust level" "$W" wot trust --keyring "$K" "$A1" fully
rc_is 2 "KEY not in the keyring" "$W" wot trust --keyring "$K" 0123456789ABCDEF full
rc_is 2 "an ambiguous KEY" "$W" wot trust --keyring "$K" example.org full
rc_is 2 "KEY and --import together" "$W" wot trust --keyring "$K" "$A1" --import "$TF"
rc_is 2 "raw --keyring input without --trust-file" "$W" wot trust --keyring $V/web.pgp "$A1" full
rc_is 0 "raw --keyring input with --trust-file" "$W" wot trust --keyring $V/web.pgp --trust-file "$t/raw.trust" "$A1" full
file_is "... writes that file" "$t/raw.trust" "$HEAD
$A1:5:"
# gpg --export-ownertrust output (with its date comment), imported
printf '# List of assigned trustvalues, created Tue 02 Dec 2026 11:14:00 PM UTC\n# (Use "gpg --import-ownertrust" to restore them)\n%s:4:\n%s:4:\n%s:0:\n0000000000000000000000000000000000000000:5:\n' \
    "$M2" "$M3" "$A1" >"$t/gpg-export"
rc_is 0 "--import gpg's --export-ownertrust file" "$W" wot trust --keyring "$K" --import "$t/gpg-export"
err_has "... reports the count (the N=0 line is no value)" "3 ownertrust values imported (2 of keys in the keyring)"
lines=$(grep -v '^#' "$TF" | sort)
want=$(printf '%s:5:\n%s:3:\n%s:4:\n%s:4:\n0000000000000000000000000000000000000000:5:\n' "$A1" "$M1" "$M2" "$M3" | sort)
[ "$lines" = "$want" ] && ok "... merged: M2, M3 set, A1 kept (N=0 changes nothing), unknown keys kept" ||
	{ echo "not ok - import merge"; sed 's/^/# /' "$TF"; }
cp "$TF" "$t/before"
printf '%s:5:\nnot-a-line\n' "$A2" >"$t/bad-import"
rc_is 2 "--import of a malformed file" "$W" wot trust --keyring "$K" --import "$t/bad-import"
err_has "... names the problem" "not a fingerprint"
cmp -s "$TF" "$t/before" && ok "... leaves the trust file as it was" || nok "the trust file changed"
printf '%s:7:\n' "$A2" >"$t/bad-value"
rc_is 2 "--import of an ownertrust value gpg does not have (7)" "$W" wot trust --keyring "$K" --import "$t/bad-value"
printf '%s:5\n' "$A2" >"$t/no-colon"
rc_is 0 "--import of a line without the last colon (gpg reads it)" "$W" wot trust --keyring "$K" --import "$t/no-colon"
rc_is 0 "unset A2 again" "$W" wot trust --keyring "$K" "$A2" unset
cp "$TF" "$t/good.trust"
printf 'garbage\n' >>"$TF"
rc_is 2 "validity with a damaged trust file" "$W" wot validity --keyring "$K" --at "$AT"
err_has "... names the file" "web.wk.trust"
cp "$t/good.trust" "$TF"
if [ "$(id -u)" != 0 ]; then
	mkdir "$t/ro"; cp "$K" "$t/ro/web.wk"; chmod 555 "$t/ro"
	rc_is 2 "a trust file that cannot be written" "$W" wot trust --keyring "$t/ro/web.wk" "$A1" full
	chmod 755 "$t/ro"
else
	echo "skip - running as root: an unwritable directory cannot be tested"
fi

# ---- wot validity ----
# the trust file now says: A1 full, M1 never, M2 M3 marginal (R: the root)
rc_is 0 "validity of every key" "$W" wot validity --keyring "$K" --at "$AT"
n=$(wc -l <"$t/out")
[ "$n" = "$(grep -c '^key	' $V/MANIFEST)" ] && ok "... one line per key ($n)" || nok "$n lines"
LC_ALL=C sort -c "$t/out" 2>/dev/null && ok "... in key ID order" || nok "not in key ID order"
out_has "... R ultimate" "^${R#????????????????????????}  ultimate  R <root@example.org>"
out_has "... A2 full (A1 full)" "^${A2#????????????????????????}  full  A2 "
out_has "... T1 undefined (M1 never)" "^${T1#????????????????????????}  undefined  T1 "
out_has "... T3 marginal (two marginals)" "^${T3#????????????????????????}  marginal  T3 "
rc_is 0 "--marginals-needed 2" "$W" wot validity --keyring "$K" --at "$AT" --marginals-needed 2 "$T3"
out_has "... T3 full" "full  T3"
out_has "... with its user ID line" "^  uid  full  T3 <t3@example.org>"
rc_is 1 "validity KEY of a marginal key: exit 1" "$W" wot validity --keyring "$K" --at "$AT" "$T3"
rc_is 0 "--max-cert-depth 1" "$W" wot validity --keyring "$K" --at "$AT" --max-cert-depth 1
out_has "... A2 unknown" "^${A2#????????????????????????}  unknown  A2 "
rc_is 0 "--completes-needed 2" "$W" wot validity --keyring "$K" --at "$AT" --completes-needed 2
out_has "... A2 marginal" "^${A2#????????????????????????}  marginal  A2 "
rc_is 0 "--json" "$W" wot validity --json --keyring "$K" --at "$AT"
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); k=[x for x in d if x["fpr"]==sys.argv[2]][0]; sys.exit(0 if len(d) > 40 and k["validity"]=="full" and k["ownertrust"]=="full" and k["uids"][0]["validity"]=="full" and k["keyid"]==sys.argv[2][-16:] else 1)' "$t/out" "$A1"; then
	ok "... parses, with fpr, keyid, validity, ownertrust, uids"; else nok "--json content"; fi
rc_is 2 "--marginals-needed 1 (gpg's minimum is 2)" "$W" wot validity --keyring "$K" --marginals-needed 1
rc_is 2 "--max-cert-depth 0" "$W" wot validity --keyring "$K" --max-cert-depth 0
rc_is 2 "--min-cert-level 4" "$W" wot validity --keyring "$K" --min-cert-level 4
rc_is 2 "two KEYs" "$W" wot validity --keyring "$K" "$A1" "$A2"
rc_is 2 "an unknown option" "$W" wot validity --keyring "$K" --frobnicate
# no root and no trust file: nothing is valid
"$W" keyring build -o "$t/noroot.wk" $V/web.pgp 2>/dev/null
rc_is 0 "a keyring without a root and no trust file" "$W" wot validity --keyring "$t/noroot.wk" --at "$AT"
out_lacks "... no key ultimate" "  ultimate  "
out_lacks "... no key full" "  full  "
err_has "... and says why" "no ultimately trusted key"

# ---- every letter against GnuPG ----
python3 tests/cli/wot_validity.py
