#!/bin/sh
# tests/fuzz/campaign.sh - one long libFuzzer run per target, with figures.
#   make fuzz && sh tests/fuzz/campaign.sh [--runs N] [--time S] [TARGET...]
# Defaults: every target, 10,000,000 executions or 1800 s, whichever comes
# first (issue 17). Each target runs on a working corpus in build-fuzz/work/T,
# seeded from tests/fuzz/corpus/T, from the OpenPGP files in vectors/ (targets
# that read OpenPGP data, sig and cert included) and from ../shared/corpus
# when present (read only: those files are never copied into the
# repository; fuzz_pgpkeys gets its pgpkeys.git sample as in-memory trees).
# fuzz_gpg and fuzz_gxown run on their own corpus (gen_gpg_corpus.sh,
# gen_gxown_corpus.py). Crash inputs land in
# build-fuzz/crash/T/; minimise one with `build-fuzz/fuzz_T -minimize_crash=1
# FILE`, fix the bug, and commit the input to tests/fuzz/corpus/T so that
# `make check` replays it. One line per target goes to build-fuzz/figures.tsv:
#   target  executions  seconds  exec/s  coverage  features  corpus  crashes  date
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
runs=10000000 secs=1800
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--time) secs=$2; shift 2 ;;
	--) shift; break ;;
	-*) echo "usage: $0 [--runs N] [--time S] [TARGET...]" >&2; exit 2 ;;
	*) break ;;
	esac
done
if [ $# -eq 0 ]; then
	set -- $(ls build-fuzz/fuzz_* 2>/dev/null | sed 's|.*/fuzz_||')
fi
[ $# -gt 0 ] || { echo "campaign: no targets; run make fuzz first" >&2; exit 2; }
shared=${WOTKIT_CORPUS:-$top/../shared/corpus}
mkdir -p build-fuzz/log
status=0
for t in "$@"; do
	bin=build-fuzz/fuzz_$t
	[ -x "$bin" ] || { echo "campaign: $bin missing (make fuzz)" >&2; status=2; continue; }
	work=build-fuzz/work/$t crash=build-fuzz/crash/$t
	mkdir -p "$work" "$crash"
	[ -d tests/fuzz/corpus/$t ] && cp -n tests/fuzz/corpus/$t/* "$work"/ 2>/dev/null
	case $t in
	armor|packet|dump|verify|strip|write|sig|cert)
		# OpenPGP material: keys, signatures, messages (binary and armored)
		i=0
		for f in $(find vectors -type f \( -name '*.pgp' -o -name '*.asc' -o -name '*.sig' -o -name '*.gpg' \) -size -256k | sort) \
		    $( [ -d "$shared" ] && find "$shared" -type f \( -name '*.pgp' -o -name '*.asc' -o -name '*.sig' -o -name '*.gpg' -o -name '*.key' \) -size -256k | sort); do
			i=$((i + 1)); cp -n "$f" "$work/seed-$i" 2>/dev/null
		done ;;
	pgpkeys)
		# the real pgpkeys.git sample as in-memory trees (fuzz_pgpkeys' input:
		# files separated by "--8<--" lines, each a path line and its content):
		# the whole sample, and each key file with the entries linking to it
		if [ -d "$shared/pgpkeys/keys" ]; then
			( cd "$shared/pgpkeys" && for f in keys/*.asc .keyring/openpgp/*/*/default; do
				[ -f "$f" ] || continue
				printf '%s\n' "$f"; cat "$f"; printf '\n--8<--\n'
			done ) >"$work/seed-shared-tree"
			for f in "$shared"/pgpkeys/keys/*.asc; do
				{ printf 'keys/%s\n' "$(basename "$f")"; cat "$f"; } >"$work/seed-shared-$(basename "$f")"
			done
		fi ;;
	esac
	start=$(date +%s)
	"$bin" -runs="$runs" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2560 \
	    -print_final_stats=1 -artifact_prefix="$crash/" "$work" >build-fuzz/log/$t.log 2>&1
	rc=$?
	end=$(date +%s)
	n=$(sed -n 's/^stat::number_of_executed_units: *//p' build-fuzz/log/$t.log | tail -1)
	eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' build-fuzz/log/$t.log | tail -1)
	last=$(grep -E '^#[0-9]+' build-fuzz/log/$t.log | tail -1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.*ft: \([0-9]*\).*/\1/p')
	corp=$(echo "$last" | sed -n 's|.*corp: \([0-9]*\)/.*|\1|p')
	crashes=$(ls "$crash" | wc -l)
	line=$(printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s' "$t" "${n:-?}" $((end - start)) "${eps:-?}" \
	    "${cov:-?}" "${ft:-?}" "${corp:-?}" "$crashes" "$(date -u +%Y-%m-%dT%H:%MZ)")
	echo "$line" >>build-fuzz/figures.tsv
	echo "$line"
	if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then
		echo "campaign: $t exited $rc with $crashes crash input(s) in $crash" >&2
		grep -m3 -E 'ERROR|SUMMARY|DEADLY|abort' build-fuzz/log/$t.log >&2
		status=1
	fi
done
exit $status
