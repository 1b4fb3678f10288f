#!/bin/sh
# tests/cli/interop.sh - vectors/interop (vectors/gen/interop.py): the
# OpenPGP interoperability test suite's verification categories, each case
# through `wotkit verify` (tests/cli/adversarial.py: verdict, signer,
# --output) AND `wotkit sopv verify` / `inline-verify` (exit code and the
# VERIFICATIONS line). The expectation is the MANIFEST's verdict, never an
# oracle's: with INTEROP_ORACLES=1, gpgv and sqv (sqop for inline and
# cleartext messages) are run too and every case where they disagree with the
# MANIFEST on good / not good is printed as a '#' line, for information.
# TAP-ish: "ok - ...", "not ok - ...", "skip - ...".
#   WOTKIT           the binary (default ./wotkit)
#   INTEROP_ORACLES  1: also show gpgv/sqv verdicts (information only)
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-./wotkit}
case $W in /*) ;; *) W=$top/${W#./} ;; esac
V=$top/vectors/interop
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail=0
[ -x "$W" ] || { echo "not ok - $W not built"; exit 1; }
if ! python3 -c 'import json' 2>/dev/null; then echo "skip - interop: no python3"; exit 0; fi

# --- 1. wotkit verify: verdict, signer, --output (the adversarial runner) ---
WOTKIT=$W python3 "$top/tests/cli/adversarial.py" "$V" >"$T/verify.tap"
sed 's/^\(not \)\{0,1\}ok - /&verify /' "$T/verify.tap"
grep -q '^not ok' "$T/verify.tap" && fail=1

# --- 2. wotkit sopv: good -> 0 and a VERIFICATIONS line naming the signer;
# anything else -> NO_SIGNATURE (3), or BAD_DATA (41) for malformed and
# unsupported input, and nothing on stdout (draft-dkg-openpgp-stateless-cli).
NO_SIGNATURE=3 BAD_DATA=41
tab=$(printf '\t')
grep -v '^#' "$V/MANIFEST" | while IFS=$tab read -r id kind sig data keys verdict fpr _note _rest; do
	[ -n "$id" ] || continue
	set --
	oldifs=$IFS; IFS=,
	for k in $keys; do set -- "$@" "$V/$k"; done
	IFS=$oldifs
	rm -f "$T/verif"
	if [ "$kind" = detached ]; then
		"$W" sopv verify "$V/$sig" "$@" <"$V/$data" >"$T/out" 2>"$T/err"
		r=$?; cp "$T/out" "$T/verif" 2>/dev/null
	else
		"$W" sopv inline-verify --verifications-out="$T/verif" "$@" <"$V/$sig" >"$T/out" 2>"$T/err"
		r=$?
	fi
	if [ "$verdict" = good ]; then
		if [ $r -ne 0 ]; then
			echo "not ok - sopv $id: exit $r, want 0"
		elif ! awk -v f="$fpr" '$3 == f { ok = 1 } END { exit !ok }' "$T/verif"; then
			echo "not ok - sopv $id: no VERIFICATIONS line with primary $fpr"
		else
			echo "ok - sopv $id: good"
		fi
	else
		# no-key: CERTS holding no usable certificate is BAD_DATA to sopv
		case $verdict in malformed|unsupported|no-key) alt=$BAD_DATA ;; *) alt=$NO_SIGNATURE ;; esac
		if [ $r -eq 0 ]; then
			echo "not ok - sopv $id ($verdict): FALSE GOOD (exit 0)"
		elif [ $r -ne $NO_SIGNATURE ] && [ $r -ne $alt ]; then
			echo "not ok - sopv $id ($verdict): exit $r, want $NO_SIGNATURE or $alt"
		elif [ -s "$T/out" ] && [ "$kind" = detached ]; then
			echo "not ok - sopv $id ($verdict): output on stdout"
		elif [ -s "$T/verif" ]; then
			echo "not ok - sopv $id ($verdict): VERIFICATIONS written"
		else
			echo "ok - sopv $id: $verdict -> exit $r"
		fi
	fi
done >"$T/sopv.tap"
cat "$T/sopv.tap"
grep -q '^not ok' "$T/sopv.tap" && fail=1
if grep -q 'FALSE GOOD' "$T/sopv.tap" || grep -q '^not ok - .*: verdict good, want' "$T/verify.tap"; then
	echo "not ok - interop: false good verdicts"
else
	echo "ok - interop: 0 false good (verify and sopv)"
fi

# --- 3. information: where gpgv / sqv disagree with the MANIFEST -------------
if [ "${INTEROP_ORACLES:-0}" = 1 ]; then
	if command -v gpgv >/dev/null && command -v sqv >/dev/null; then
		G=$T/gnupg; mkdir -m 700 "$G"
		# gpgv exits 0 for a good signature by a revoked or expired key (a
		# warning only): good = exit 0, GOODSIG, no REVKEYSIG/EXPKEYSIG/KEYREVOKED
		gpgv_verdict() {
			if [ "$1" -eq 0 ] && grep -q GOODSIG "$T/st" &&
			    ! grep -Eq 'REVKEYSIG|EXPKEYSIG|KEYREVOKED|KEYEXPIRED' "$T/st"; then
				g=good
			else
				g=not-good
			fi
		}
		grep -v '^#' "$V/MANIFEST" | while IFS=$tab read -r id kind sig data keys verdict fpr _note _rest; do
			[ -n "$id" ] || continue
			set --; ks=
			oldifs=$IFS; IFS=,
			for k in $keys; do set -- "$@" --keyring "$V/$k"; ks="$ks $V/$k"; done
			IFS=$oldifs
			if [ "$kind" = detached ]; then
				GNUPGHOME=$G gpgv --status-fd 1 "$@" "$V/$sig" "$V/$data" >"$T/st" 2>/dev/null
				gpgv_verdict $?
				sqv "$@" "$V/$sig" "$V/$data" >/dev/null 2>&1 && s=good || s=not-good
				sn=sqv
			else
				GNUPGHOME=$G gpgv --status-fd 1 "$@" "$V/$sig" >"$T/st" 2>/dev/null
				gpgv_verdict $?
				# shellcheck disable=SC2086
				sqop inline-verify $ks <"$V/$sig" >/dev/null 2>&1 && s=good || s=not-good
				sn=sqop
			fi
			[ "$verdict" = good ] && w=good || w=not-good
			if [ "$g" != "$w" ] || [ "$s" != "$w" ]; then
				echo "# oracle $id: MANIFEST $verdict; gpgv $g; $sn $s"
			fi
		done
	else
		echo "skip - INTEROP_ORACLES=1 but gpgv or sqv is missing"
	fi
fi
exit $fail
