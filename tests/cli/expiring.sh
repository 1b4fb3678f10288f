#!/bin/sh
# tests/cli/expiring.sh - `wotkit expiring`: every "expiring" line of
# vectors/submission/MANIFEST (keys made by vectors/gen/gen_submission.sh
# around 2026-06-01; what is listed follows from each key's intent, never
# from wotkit's output): exit status, keys listed and not listed; then the
# lines of one listing (dates, days, the exact commands), --mail-template,
# --json, a wotkit keyring file as input, and usage errors.
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

# run OPTIONS: `expiring` over the vector keyring; status $rc, stdout $T/out
run() {
	ropts=$1
	set --
	if [ "$ropts" != - ]; then
		oldifs=$IFS; IFS=,
		for o in $ropts; do set -- "$@" "$o"; done
		IFS=$oldifs
	fi
	"$W" expiring --keyring "$V/expiring/ring.pgp" --at $AT "$@" >"$T/out" 2>"$T/err"
	rc=$?
}

npos=0 nneg=0
grep '^expiring	' "$V/MANIFEST" >"$T/cases"
while IFS=$tab read -r kind id opts want listed notlisted; do
	if [ "$want" -eq 0 ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi
	run "$opts"
	if [ "$rc" -eq "$want" ]; then pass "$id: exit $want"; else
		flunk "$id: exit $rc, want $want"; sed 's/^/#   /' "$T/out" "$T/err" | head -10; fi
	cnt=0
	oldifs=$IFS; IFS=,
	for k in $listed; do
		[ "$k" = - ] && continue
		cnt=$((cnt + 1))
		case $k in
		*/*) what=subkey ;;
		*) what=primary ;;
		esac
		check "$id: $what $k listed" grep -q "^expir\(ing\|ed\) $what $k\$" "$T/out"
	done
	for k in $notlisted; do
		[ "$k" = - ] && continue
		check "$id: $k not listed" sh -c "! grep -q '$k' '$T/out'"
	done
	IFS=$oldifs
	got=$(grep -c '^expir\(ing\|ed\) ' "$T/out")
	check "$id: exactly $cnt keys listed (got $got)" [ "$got" -eq "$cnt" ]
	check "$id: the summary counts them" grep -q "^$cnt keys\? expiring" "$T/out"
done <"$T/cases"
# positives: something is listed (exit 1, the CI signal); negatives: nothing is
check "MANIFEST: $nneg listing cases, $npos quiet case(s)" [ "$npos" -gt 0 ] && [ "$nneg" -gt 0 ]

# --- one listing, line by line ----------------------------------------------
SOON=$(sed -n 's/^#   soon \([0-9A-F]*\) .*/\1/p' "$V/MANIFEST")
SUB=$(sed -n 's/^#   soon .* subexp \([0-9A-F/]*\)$/\1/p' "$V/MANIFEST")
EVIL=$(sed -n 's/^#   evil \([0-9A-F]*\) .*/\1/p' "$V/MANIFEST")
SUBP=${SUB%/*} SUBS=${SUB#*/}
run -
check "soon: expires in 14 days, the date" grep -q "^  expires: 2026-06-15T00:00:00Z (in 14 days)\$" "$T/out"
check "soon: the extend command" grep -qx "  extend:  gpg --quick-set-expire $SOON 2y" "$T/out"
check "soon: the submission command" grep -qx "  submit:  gpg -a --export soon@example.org | mail -s soon@example.org keys@linux.kernel.org" "$T/out"
check "subkey: the subkey extend command names both fingerprints" grep -qx "  extend:  gpg --quick-set-expire $SUBP 2y $SUBS" "$T/out"
check "recent: expired 5 days ago" grep -q "^  expired: 2026-05-27T00:00:00Z (5 days ago)\$" "$T/out"
check "sorted by expiry: the expired key first" sh -c "grep '^expir' '$T/out' | head -1 | grep -q '^expired primary'"
check "hostile user ID: no address taken" grep -qx "  e-mail:  (none usable in a command: the commands name the fingerprint)" "$T/out"
check "hostile user ID: the commands name the fingerprint" \
	grep -qx "  submit:  gpg -a --export $EVIL | mail -s $EVIL keys@linux.kernel.org" "$T/out"
check "no printed command holds shell syntax from a user ID" sh -c "! grep -E '^  (extend|submit):' '$T/out' | grep -q '[\$\`;()<>]'"
check "the revoked key is counted as not expiring" grep -q "revoked, so not expiring: 1)" "$T/out"
# the extended key: listed at a time before its new self-signature (2026-05-22)
"$W" expiring --keyring "$V/expiring/ring.pgp" --at 2026-05-15 >"$T/out" 2>&1
check "extended key: listed before the extension was signed" grep -q "^  owner:   \"Extended Expiry <extended@example.org>\"" "$T/out"

# --- --mail-template -----------------------------------------------------------
run --mail-template
check "mail: one message per key (mbox From lines)" [ "$(grep -c '^From wotkit-expiring 2026-06-01T00:00:00Z$' "$T/out")" -eq 4 ]
check "mail: no To: address from a hostile user ID" grep -qx "To: (no usable address: see the user ID below)" "$T/out"
check "mail: To: the owner" grep -qx "To: soon@example.org" "$T/out"
check "mail: Subject names the key and the date" grep -qx "Subject: Your OpenPGP key $SOON expires on 2026-06-15" "$T/out"
check "mail: Subject of the subkey" grep -qx "Subject: Your OpenPGP signing subkey $SUBS expires on 2026-06-21" "$T/out"
check "mail: the commands in the body" grep -qx "    gpg --quick-set-expire $SOON 2y" "$T/out"

# --- --json ---------------------------------------------------------------
run --json
check "--json: exit 1" [ "$rc" -eq 1 ]
check "--json: the keys, their state, days and commands" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
keys = {(k["primary_fingerprint"], k["fingerprint"]): k for k in d["keys"]}
assert len(keys) == 4, keys
soon = keys[(sys.argv[2], sys.argv[2])]
assert soon["state"] == "expiring" and soon["days"] == 14 and soon["email"] == "soon@example.org"
assert soon["commands"][0] == "gpg --quick-set-expire %s 2y" % sys.argv[2]
sub = keys[(sys.argv[3], sys.argv[4])]
assert sub["kind"] == "subkey" and sub["days"] == 20
assert d["revoked_skipped"] == 1 and d["within_seconds"] == 30 * 86400
' "$T/out" "$SOON" "$SUBP" "$SUBS"

# --- a wotkit keyring file gives the same list ---------------------------------
"$W" keyring build -o "$T/ring.wk" --at $AT "$V/expiring/ring.pgp" >/dev/null 2>&1
run -
cp "$T/out" "$T/raw"
"$W" expiring --keyring "$T/ring.wk" --at $AT >"$T/out" 2>"$T/err"; rc=$?
check "wotkit keyring file: exit 1 and the same listing" sh -c "[ $rc -eq 1 ] && cmp -s '$T/raw' '$T/out'"
WOTKIT_KEYRING=$T/ring.wk "$W" expiring --at $AT >"$T/out" 2>"$T/err"; rc=$?
check "the default keyring (\$WOTKIT_KEYRING)" sh -c "[ $rc -eq 1 ] && cmp -s '$T/raw' '$T/out'"

# --- gpg as the oracle of expiry dates -------------------------------------
# every primary key that is not revoked and has an expiry: gpg's date (pub
# field 7, from the self-signatures gpg considers in force) must be wotkit's
# (--all-expired --within 100y lists every one). On the vectors, and on the
# real pgpkeys.git sample when ../shared is there (SHA-1 allowed, as gpg).
gpg_vs_wotkit() { # NAME KEYRING-FILE-OR-DIR TIME
	G=$T/g-$1; mkdir -m 700 "$G"
	if [ -d "$2" ]; then cat "$2"/*.asc; else cat "$2"; fi |
	    GNUPGHOME=$G gpg --batch --import >/dev/null 2>&1
	GNUPGHOME=$G gpg --batch --faked-system-time "$3!" --with-colons --fixed-list-mode \
	    --list-keys 2>/dev/null | awk -F: '$1 == "pub" && $2 != "r" && $7 != "" { print $5, $7 }' |
	    sort >"$T/gpg-$1"
	GNUPGHOME=$G gpgconf --kill gpg-agent >/dev/null 2>&1
	"$W" expiring --keyring "$2" --at "@$3" --all-expired --within 100y --allow-sha1 --json \
	    2>/dev/null | python3 -c '
import json, sys, datetime
for k in json.load(sys.stdin)["keys"]:
    if k["kind"] == "primary":
        t = datetime.datetime.strptime(k["expires"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=datetime.timezone.utc)
        print(k["keyid"], int(t.timestamp()))' | sort >"$T/wk-$1"
	n=$(wc -l <"$T/gpg-$1")
	check "gpg agrees on the expiry of every primary key of $1 ($n keys)" \
	    sh -c "[ $n -gt 0 ] && cmp -s '$T/gpg-$1' '$T/wk-$1'"
}
if command -v gpg >/dev/null 2>&1; then
	gpg_vs_wotkit vectors "$V/expiring/ring.pgp" 1780272000
	C=${WOTKIT_CORPUS:-$top/../shared/corpus}/pgpkeys/keys
	if [ -d "$C" ]; then
		gpg_vs_wotkit pgpkeys "$C" 1796083200   # 2026-12-01
	else
		echo "skip - corpus not found: no pgpkeys.git cross-check"
	fi
else
	echo "skip - gpg not installed: no expiry cross-check"
fi

# --- usage ------------------------------------------------------------------
u() { "$W" expiring "$@" >"$T/out" 2>"$T/err"; rc=$?; }
u --keyring "$V/expiring/ring.pgp" --within 3x; check "--within 3x: exit 2" [ "$rc" -eq 2 ]
u --keyring "$V/expiring/ring.pgp" --within 101y; check "--within beyond 100y: exit 2" [ "$rc" -eq 2 ]
u --keyring "$V/expiring/ring.pgp" --json --mail-template; check "--json with --mail-template: exit 2" [ "$rc" -eq 2 ]
u --keyring "$V/expiring/ring.pgp" --at yesterday; check "bad --at: exit 2" [ "$rc" -eq 2 ]
u; check "no keyring at all: exit 2" sh -c "[ $rc -eq 2 ] && grep -q 'no --keyring given' '$T/err'"
u --keyring "$T/absent.pgp"; check "unreadable keyring: exit 2" [ "$rc" -eq 2 ]
u --keyring "$V/expiring/ring.pgp" --at $AT --within 4w; check "--within 4w (28 days): soon listed" sh -c "[ $rc -eq 1 ] && grep -q 'in 14 days' '$T/out'"

exit $fail
