#!/bin/sh
# Differential mutation test of `wotkit verify` against gpgv and sqv (see
# tests/diff/difftest.py, docs/differential.md): a bounded run with a fixed
# seed, one TAP line per mutation class, "not ok" for every wotkit-good-but-
# both-oracles-bad case (or crash) that no documented difference explains.
# Then the reproducers of known wotkit bugs (vectors/diff/MANIFEST).
# DIFF_SEED / DIFF_COUNT override the seed and the number of mutations.
top=$(cd "$(dirname "$0")/../.." && pwd)
for t in gpgv sqv sq python3; do
	if ! command -v "$t" >/dev/null 2>&1; then
		echo "skip - differential test: $t not installed"
		exit 0
	fi
done
: "${WOTKIT:=$top/wotkit}"; export WOTKIT
if [ ! -x "$WOTKIT" ]; then
	echo "not ok - differential test: $WOTKIT not built"
	exit 1
fi
rc=0
python3 "$top/tests/diff/difftest.py" --tap --seed "${DIFF_SEED:-20240601}" \
	--count "${DIFF_COUNT:-900}" --jobs 3 --time-limit 25 || rc=1
python3 "$top/tests/diff/run_vectors.py" || rc=1
exit $rc
