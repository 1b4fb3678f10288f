# tests/lib/tap.sh - the counting of TAP-style output shared by tests/run.sh,
# tests/arm64.sh and tests/valgrind.sh (sourced; defines a function only).
# tap_count LOG NAME RC [NOTE]: adds LOG's "ok", "not ok" and "skip" lines to
# $pass, $fail and $skip (an RC other than 0 with no "not ok" line counts as
# one failure), then prints "== NAME: N passed[, M failed | , K skipped][ NOTE]"
# followed by the failures, or by the first skips.
tap_count() {
	tap_log=$1 tap_name=$2 tap_rc=$3 tap_note=${4:+ $4}
	tap_p=$(grep -c '^ok' "$tap_log"); tap_f=$(grep -c '^not ok' "$tap_log")
	tap_s=$(grep -c '^skip' "$tap_log")
	if [ "$tap_rc" -ne 0 ] && [ "$tap_f" -eq 0 ]; then
		tap_f=1; echo "not ok - $tap_name exited $tap_rc" >>"$tap_log"
	fi
	pass=$((pass + tap_p)); fail=$((fail + tap_f)); skip=$((skip + tap_s))
	if [ "$tap_f" -ne 0 ]; then
		echo "== $tap_name: $tap_p passed, $tap_f failed$tap_note"; grep -v '^ok' "$tap_log" | tail -40
	else
		if [ "$tap_s" -gt 0 ]; then echo "== $tap_name: $tap_p passed, $tap_s skipped$tap_note"
		else echo "== $tap_name: $tap_p passed$tap_note"; fi
		grep '^skip' "$tap_log" | head -5
	fi
}
