#!/bin/sh
# vectors/wot/MANIFEST through `wotkit wot path|why|validity|audit` (the web
# of trust made by vectors/gen/gen_wot.sh; format in vectors/wot/README.md).
# First the MANIFEST itself is checked: its files exist, it has at least as
# many negative as positive expectations, and tests/cli/wot_model.py (an
# independent model over the signatures gpg lists) agrees with its path, why
# and audit lines. Then every line runs through wotkit; while `wotkit wot`
# does not exist yet that part is skipped with a message. TAP output and a
# pass/fail count at the end.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
W=${WOTKIT:-./wotkit}
V=vectors/wot
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
trap 'exit 1' INT TERM
set -f          # MANIFEST fields are split with `set --`: no globbing

pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() {
	echo "not ok - $1"
	fail=$((fail + 1))
	for _f in "$t/out" "$t/err"; do
		[ -s "$_f" ] && sed 's/^/# /' "$_f" | head -6
	done
	return 0
}
finish() {
	echo "# wot_vectors: $pass passed, $fail failed"
	[ "$fail" -eq 0 ]
	exit $?
}

[ -f $V/MANIFEST ] || { echo "not ok - $V/MANIFEST missing"; exit 1; }

# ---- the MANIFEST on its own ---------------------------------------------------
keyring='' root='' at=''
npos=0 nneg=0 nlines=0
: >"$t/files"
while IFS= read -r line; do
	line=${line%% #*}
	case $line in '' | '#'*) continue ;; esac
	set -- $line
	case $1 in
	keyring) keyring=$V/$2 ;;
	root) root=$2 ;;
	at) at=$2 ;;
	path)
		nlines=$((nlines + 1))
		if [ "$6" = 0 ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi
		[ "$7" = - ] || echo "$7" >>"$t/files" ;;
	why)
		nlines=$((nlines + 1))
		if [ "$4" = ok ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi ;;
	validity | uidvalidity)
		nlines=$((nlines + 1))
		case $5 in u | f | m) npos=$((npos + 1)) ;; *) nneg=$((nneg + 1)) ;; esac ;;
	audit)
		nlines=$((nlines + 1))
		case $2 in kept | norecert) nneg=$((nneg + 1)) ;; *) npos=$((npos + 1)) ;; esac ;;
	*) nok "unknown MANIFEST line: $line" ;;
	esac
done <$V/MANIFEST
if [ -z "$keyring" ] || [ -z "$root" ] || [ -z "$at" ] || [ ! -f "$keyring" ]; then
	nok "MANIFEST names its keyring ($keyring), root ($root) and time ($at)"
	finish
fi
if [ "$nneg" -ge "$npos" ] && [ "$npos" -gt 0 ]; then
	ok "MANIFEST: $nlines lines, $npos positive and $nneg negative expectations"
else
	nok "MANIFEST: fewer negative ($nneg) than positive ($npos) expectations"
fi
missing=0
for f in $(sort -u "$t/files"); do
	[ -f "$V/expect/$f.txt" ] || { nok "expect/$f.txt is missing"; missing=1; }
done
set +f
for f in "$V"/expect/*.txt; do
	n=$(basename "$f" .txt)
	grep -qx "$n" "$t/files" || { nok "$f is used by no MANIFEST line"; missing=1; }
done
set -f
[ $missing -eq 0 ] && ok "every expect/*.txt exists and is used"

# ---- the independent model (needs python3 and gpg) --------------------------------
if command -v python3 >/dev/null && command -v gpg >/dev/null; then
	python3 tests/cli/wot_model.py $V >"$t/model" 2>"$t/err"
	mrc=$?
	grep '^not ok' "$t/model"
	mp=$(grep -c '^ok' "$t/model")
	mf=$(grep -c '^not ok' "$t/model")
	if [ $mrc -eq 0 ] && [ "$mf" -eq 0 ] && [ "$mp" -gt 0 ]; then
		ok "tests/cli/wot_model.py agrees with $mp path/why/audit expectations"
	else
		: >"$t/out"
		nok "tests/cli/wot_model.py: $mf disagreements, exit $mrc"
	fi
else
	echo "skip - tests/cli/wot_model.py needs python3 and gpg"
fi

# ---- wotkit wot --------------------------------------------------------------------
if [ ! -x "$W" ]; then
	echo "skip - $W not built: the MANIFEST was not run through wotkit"
	finish
fi
"$W" wot --help >"$t/help" 2>&1
hrc=$?
if grep -q "unknown command" "$t/help" || { [ $hrc -ne 0 ] && ! grep -q "path" "$t/help"; }; then
	echo "skip - \`wotkit wot\` is not available yet (\`$W wot --help\` exit $hrc: $(head -1 "$t/help")): $nlines MANIFEST lines not run"
	finish
fi

rootkid=$(echo "$root" | cut -c25-40)
# word for a gpg validity letter
word() {
	case $1 in
	u) echo ultimate ;; f) echo full ;; m) echo marginal ;; q) echo undefined ;;
	-) echo unknown ;; e) echo expired ;; r) echo revoked ;; *) echo "gpg-letter-$1" ;;
	esac
}
# run NAME wotkit-args... : stdout in $t/out, stderr in $t/err, exit code in rc
run() {
	"$W" wot "$@" >"$t/out" 2>"$t/err" </dev/null
	rc=$?
	if [ $rc -gt 2 ]; then
		echo "wotkit exited $rc (crash?)" >>"$t/err"
	fi
}
# first line saying why: stdout, or stderr when stdout is empty
firstline() {
	if [ -s "$t/out" ]; then sed -n 1p "$t/out"; else sed -n 1p "$t/err"; fi
}

audit_done=
while IFS= read -r line; do
	line=${line%% #*}
	case $line in '' | '#'* | keyring* | root* | at*) continue ;; esac
	set -- $line
	kind=$1
	shift
	# options at the end of the line
	lat=$at lfrom='' lmaxdepth=''
	for a in "$@"; do
		case $a in
		at=*) lat=${a#at=} ;;
		from=*) lfrom=${a#from=} ;;
		maxdepth=*) lmaxdepth=${a#maxdepth=} ;;
		esac
	done
	common="--keyring $keyring --at $lat --root $root"
	case $kind in
	path)
		target=$1 depth=$2 npaths=$3 pol=$4 want=$5 exp=$6
		pa=
		[ "$pol" = sha1 ] && pa=--allow-sha1
		fa=
		from=$rootkid
		[ -n "$lfrom" ] && { fa="--from $lfrom"; from=$lfrom; }
		name="path $target maxdepth $depth maxpaths $npaths $pol${lfrom:+ from $lfrom} at $lat"
		run path $common $pa $fa --maxdepth "$depth" --maxpaths "$npaths" "$target"
		if [ "$exp" = - ]; then
			msg="wotkit: wot path: no path from $from to $target within $depth hops (wotkit wot why $target)"
			if [ $rc -ne "$want" ]; then
				nok "$name: exit $rc, want $want (no path)"
			elif [ -s "$t/out" ]; then
				nok "$name: no path expected, but stdout is not empty"
			elif ! grep -qxF "$msg" "$t/err"; then
				nok "$name: stderr lacks '$msg'"
			else
				ok "$name: no path"
			fi
		elif [ $rc -ne "$want" ]; then
			nok "$name: exit $rc, want $want ($exp)"
		elif ! cmp -s "$t/out" "$V/expect/$exp.txt"; then
			diff "$V/expect/$exp.txt" "$t/out" >"$t/err"
			nok "$name: output differs from expect/$exp.txt (diff want got)"
		else
			ok "$name: expect/$exp.txt"
		fi ;;
	why)
		target=$1 pol=$2 reason=$3
		pa=
		[ "$pol" = sha1 ] && pa=--allow-sha1
		da=
		[ -n "$lmaxdepth" ] && da="--maxdepth $lmaxdepth"
		name="why $target $pol${lmaxdepth:+ maxdepth $lmaxdepth} at $lat"
		run why $common $pa $da "$target"
		if [ "$reason" = ok ]; then
			if [ $rc -eq 0 ] && ! grep -q ": no path from" "$t/out"; then
				ok "$name: a path"
			else
				nok "$name: exit $rc, want 0 (a path)"
			fi
		else
			want="$target: no path from $rootkid: $reason"
			got=$(firstline)
			if [ $rc -eq 1 ] && [ "$got" = "$want" ]; then
				ok "$name: $reason"
			else
				nok "$name: exit $rc, first line '$got', want exit 1 and '$want'"
			fi
		fi ;;
	validity | uidvalidity)
		kid=$1 sc=$2 pol=$3 letter=$4
		pa=
		[ "$pol" = sha1 ] && pa=--allow-sha1
		want=$(word "$letter")
		# (exit status: 0, or 1 should validity report "not valid" that way; 2 fails)
		run validity $common $pa --trust-file "$V/trust-$sc.txt" "$kid"
		if [ "$kind" = validity ]; then
			name="validity $kid scenario $sc $pol"
			got=$(awk 'NR == 1 { print $1 " " $2 }' "$t/out")
			if [ $rc -le 1 ] && [ "$got" = "$kid $want" ]; then
				ok "$name: $want"
			else
				nok "$name: exit $rc, got '$got', want '$kid $want'"
			fi
		else
			email=$5
			name="validity of $kid's user ID <$email>, scenario $sc $pol"
			got=$(awk -v e="<$email>" '$1 == "uid" && index($0, e) { print $2; exit }' "$t/out")
			if [ $rc -le 1 ] && [ "$got" = "$want" ]; then
				ok "$name: $want"
			else
				nok "$name: exit $rc, got '$got', want '$want'"
			fi
		fi ;;
	audit)
		if [ -z "$audit_done" ]; then
			audit_done=1
			run audit $common
			cp "$t/out" "$t/audit"
			arc=$rc
			# sections: "keys losing their last path: N" / "re-certifications needed: M"
			awk '/^keys losing their last path:/ { s = 1; next }
			     /^re-certifications needed:/ { s = 2; next }
			     s == 1 && /^  / { print $1 }' "$t/audit" >"$t/lost"
			awk '/^re-certifications needed:/ { s = 2; next }
			     s == 2 && / must re-certify / { split($4, a, "/"); print $1, a[1] }' "$t/audit" >"$t/recert"
			nl=$(sed -n 's/^keys losing their last path: *//p' "$t/audit")
			nr=$(sed -n 's/^re-certifications needed: *//p' "$t/audit")
			if [ -s "$t/lost" ] && [ $arc -eq 1 ]; then
				ok "audit exits 1 when keys are lost"
			elif [ ! -s "$t/lost" ] && [ $arc -eq 0 ]; then
				ok "audit exits 0 when nothing is lost"
			else
				nok "audit: exit $arc with $(wc -l <"$t/lost") lost keys"
			fi
		fi
		cp "$t/audit" "$t/out"
		: >"$t/err"
		case $1 in
		lost) if grep -qx "$2" "$t/lost"; then ok "audit: $2 loses its last path"
		    else nok "audit: $2 is not listed as losing its last path"; fi ;;
		kept) if grep -qx "$2" "$t/lost"; then nok "audit: $2 is listed as losing its last path"
		    else ok "audit: $2 is not listed as lost"; fi ;;
		recert) if grep -qx "$2 $3" "$t/recert"; then ok "audit: $2 must re-certify $3"
		    else nok "audit: '$2 must re-certify $3' missing"; fi ;;
		norecert) if grep -qx "$2 $3" "$t/recert"; then
		    nok "audit: '$2 must re-certify $3' is not needed (the set is not minimal)"
		    else ok "audit: $2 need not re-certify $3"; fi ;;
		nlost) if [ "$nl" = "$2" ] && [ "$(wc -l <"$t/lost")" -eq "$2" ]; then ok "audit: $2 keys lost"
		    else nok "audit: header says '$nl', lists $(wc -l <"$t/lost") lost keys, want $2"; fi ;;
		nrecert) if [ "$nr" = "$2" ] && [ "$(wc -l <"$t/recert")" -eq "$2" ]; then ok "audit: $2 re-certifications"
		    else nok "audit: header says '$nr', lists $(wc -l <"$t/recert") re-certifications, want $2"; fi ;;
		*) nok "unknown audit line: $*" ;;
		esac ;;
	esac
done <$V/MANIFEST

# the validity list (no KEY): one line per key in key ID order, the same
# validity as the per-key lines of the MANIFEST
for sc_pol in $(awk '$1 == "validity" { print $3 ":" $4 }' $V/MANIFEST | sort -u); do
	sc=${sc_pol%:*} pol=${sc_pol#*:}
	pa=
	[ "$pol" = sha1 ] && pa=--allow-sha1
	run validity --keyring "$keyring" --at "$at" --root "$root" $pa --trust-file "$V/trust-$sc.txt"
	awk -v sc="$sc" -v pol="$pol" '$1 == "validity" && $3 == sc && $4 == pol { print $2, $5 }' $V/MANIFEST |
	    LC_ALL=C sort | while read -r k l; do echo "$k $(word "$l")"; done >"$t/want"
	awk '{ print $1, $2 }' "$t/out" >"$t/got"
	if [ $rc -le 1 ] && cmp -s "$t/want" "$t/got"; then
		ok "validity list, scenario $sc $pol: $(wc -l <"$t/got") keys in key ID order"
	else
		diff "$t/want" "$t/got" >"$t/err"
		nok "validity list, scenario $sc $pol: exit $rc, differs from the MANIFEST (diff want got)"
	fi
done
finish
