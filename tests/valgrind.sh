#!/bin/sh
# tests/valgrind.sh - `make valgrind`: every unit test, and the CLI tests with
# wotkit, wotkit-git, wotkit-gpg/-sopv and the test tools, under valgrind
# memcheck (non-sanitized -O1 -g build in build-vg/). Prints
# "N passed, M failed, K skipped" like tests/run.sh, then one valgrind line:
# processes run under valgrind, those with errors, and the error and leak
# counts (definite and indirect leaks are errors). Exit 0 when every test
# passed and valgrind found nothing.
#
#   VALGRIND_TESTS="keyring.sh sopv.sh"   only these CLI scripts (default: all
#                                         but layering.sh and no_libgit2.sh,
#                                         static checks of sources and symbols,
#                                         and static_root.sh, which runs the
#                                         static binary in an empty chroot)
#   VALGRIND_UNIT=0                       skip the unit tests
#   VALGRIND_CLI=0                        skip the CLI scripts
#   VALGRIND_REPLAY=1                     also replay the fuzz corpora
#   VALGRIND_SUPP=FILE                    suppressions (default tests/valgrind.supp)
#   VG_OUT=DIR                            wrappers, logs, results (default build-vg)
#   VALGRIND_JOBS=N                       N items at a time (default 1)
#   VALGRIND_DRY=1                        no valgrind: the wrappers only count
#                                         processes (to plan a run)
#   VALGRIND_SAMPLE=N                     only 1 process in N under valgrind,
#                                         chosen by a checksum of its name and
#                                         arguments; the others run natively
#                                         and leave no log (for scripts of
#                                         thousands of processes; default 1)
#
# CLI scripts find their binaries through $WOTKIT, $WOTKIT_GIT, $WOTKIT_GPG,
# $GX_OWN_TOOL, $GITSIG_TOOL, $TEST_WRITE (or next to $WOTKIT): here they
# point into a wrapper directory (build-vg/vgbin) whose scripts exec valgrind
# on the real build-vg executables, each process writing its own log to
# build-vg/vglog/.
# A wrapper invoked under another name (a test's `ln -s $WOTKIT wotkit-gpg`)
# runs the binary under that name, so the argv[0] dispatch of cmd/main.c sees
# it. wotkit finds wotkit-git through $WOTKIT_GIT, which the wrapper sets to
# the wrapped wotkit-git unless a test set it.
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
B=${VG_BUILD:-build-vg}
out=${VG_OUT:-$top/$B}   # wrappers, logs and results: $out/vgbin, vglog, vgres
bin=$out/vgbin
logs=$out/vglog
supp=${VALGRIND_SUPP:-$top/tests/valgrind.supp}
command -v valgrind >/dev/null 2>&1 || { echo "not ok - valgrind not installed (apt-get install valgrind)"; exit 1; }
[ -x "$B/wotkit" ] && [ -x "$B/wotkit-git" ] || { echo "not ok - $B/wotkit or $B/wotkit-git missing (make valgrind builds them)"; exit 1; }

# memcheck, by its full path (a test may run wotkit with a PATH of a few
# tools: wot.sh's --svg without Graphviz). Definite and indirect leaks are
# errors; errors go to one log per process (-q: a clean process leaves an
# empty log). nouserintercepts: the allocation-failure tests (test_cert,
# test_strip) define malloc themselves and call __libc_malloc, which memcheck
# replaces in libc.
VG="$(command -v valgrind) -q --tool=memcheck --leak-check=full --show-leak-kinds=definite,indirect
 --errors-for-leak-kinds=definite,indirect --num-callers=30 --soname-synonyms=somalloc=nouserintercepts"
[ -f "$supp" ] && VG="$VG --suppressions=$supp"

dry=${VALGRIND_DRY:-0}
sample=${VALGRIND_SAMPLE:-1}
case $sample in ''|*[!0-9]*|0) echo "not ok - VALGRIND_SAMPLE must be a positive number"; exit 2 ;; esac
if [ "$1" != --one ]; then
rm -rf "$bin" "$logs" "$out/vgres" && mkdir -p "$bin/real" "$logs" "$out/vgres" || exit 2
# the real executables under every name they are run by
for n in wotkit wotkit-gpg wotkit-sopv; do ln -s "$top/$B/wotkit" "$bin/real/$n"; done
ln -s "$top/$B/wotkit-git" "$bin/real/wotkit-git"
for x in "$top/$B"/tests/*_tool "$top/$B"/tests/test_write; do [ -x "$x" ] && ln -s "$x" "$bin/real/$(basename "$x")"; done
VG1=$(echo $VG)
wrap() { # name: a wrapper script $bin/name running $bin/real/<name it is called by>
	{
		echo '#!/bin/sh'
		echo 'n=${0##*/}'
		echo "[ -e \"$bin/real/\$n\" ] || n=$1"
		echo ": \"\${WOTKIT_GIT:=$bin/wotkit-git}\"; export WOTKIT_GIT"
		[ "$sample" -gt 1 ] &&
		    echo "[ \$((\$(printf '%s\\n' \"\$n\" \"\$@\" | cksum | cut -d' ' -f1) % $sample)) = 0 ] || exec \"$bin/real/\$n\" \"\$@\""
		if [ "$dry" != 0 ]; then
			echo ": >\"\${VG_LOGDIR:-$logs}/\$n.\$\$.log\""
			echo "exec \"$bin/real/\$n\" \"\$@\""
		else
			echo "exec $VG1 --log-file=\"\${VG_LOGDIR:-$logs}/\$n.%p.log\" \"$bin/real/\$n\" \"\$@\""
		fi
	} >"$bin/$1"
	chmod +x "$bin/$1"
}
for x in "$bin"/real/*; do wrap "$(basename "$x")"; done
fi

WOTKIT=$bin/wotkit; WOTKIT_GIT=$bin/wotkit-git; WOTKIT_GPG=$bin/wotkit-gpg
WOTKIT_SAN=$bin/wotkit   # dump.sh's corpus pass: valgrind instead of ASan here
GX_OWN_TOOL=$bin/gx_own_tool; GITSIG_TOOL=$bin/gitsig_tool
TEST_WRITE=$bin/test_write   # write_roundtrip.sh's exporter
export WOTKIT WOTKIT_GIT WOTKIT_GPG WOTKIT_SAN GX_OWN_TOOL GITSIG_TOOL TEST_WRITE
# set for the scripts: limits.sh and message.sh skip their peak-RSS bounds
# (valgrind's own memory would count; their verdict checks stay), krsrc.sh
# its ldd check of $WOTKIT (a wrapper script here)
WOTKIT_UNDER_VALGRIND=1; export WOTKIT_UNDER_VALGRIND
: "${WOTKIT_CORPUS:=$top/../shared/corpus}"; export WOTKIT_CORPUS
# certeval.py bounds the time of its flood cases (10 s natively): valgrind
# runs 20-50 times slower, so the bound is lifted here (the verdicts stay)
: "${WOTKIT_FLOOD_MAX_S:=600}"; export WOTKIT_FLOOD_MAX_S
if ! python3 -c 'import cryptography' 2>/dev/null && /usr/bin/python3 -c 'import cryptography' 2>/dev/null; then
	PATH="/usr/bin:$PATH"; export PATH
fi

res=$out/vgres
# one item (internal: `tests/valgrind.sh --one ITEM`, run by xargs -P):
# unit-NAME, replay-NAME or cli-NAME.sh; its output, exit code, seconds and
# process logs under $res and $logs/ITEM/
run_one() {
	id=$1 d=$logs/$1
	mkdir -p "$d"
	s0=$(date +%s)
	case $id in
	unit-*|replay-*)
		x=$B/tests/${id#unit-}; c=
		case $id in replay-*) x=$B/tests/replay_${id#replay-}; c=tests/fuzz/corpus/${id#replay-} ;; esac
		if [ "$dry" != 0 ]; then
			: >"$d/p.log"; "$x" $c
		else # --error-exitcode: a process valgrind flags fails its test too
			$VG --error-exitcode=99 --log-file="$d/%p.log" "$x" $c
		fi ;;
	cli-*) VG_LOGDIR=$d sh "tests/cli/${id#cli-}" ;;
	esac >"$res/$id.out" 2>&1
	echo $? >"$res/$id.rc"
	echo $(($(date +%s) - s0)) >"$res/$id.secs"
	echo "-- $id: exit $(cat "$res/$id.rc"), $(cat "$res/$id.secs")s" >&2
}
if [ "$1" = --one ]; then
	run_one "$2"
	exit 0
fi
pass=0 fail=0 skip=0
. "$top/tests/lib/tap.sh"
report() { # item: its line(s) as tests/run.sh prints them
	id=$1 o=$res/$1.out
	[ -f "$o" ] || return
	rc=$(cat "$res/$id.rc") secs=$(cat "$res/$id.secs")
	np=$(find "$logs/$id" -name '*.log' | wc -l)
	tap_count "$o" "$id" "$rc" "(${secs}s, $np processes)"
}

# the check can fail: a planted leak and a planted uninitialised read must
# each leave a finding in the log with these options
if [ "$dry" = 0 ] && command -v "${CC:-cc}" >/dev/null 2>&1; then
	pl=$out/vgplant
	mkdir -p "$pl"
	printf '%s\n' '#include <stdlib.h>' 'int main(int argc, char **argv) {' \
	    '	char *p = malloc(32); int u; (void)argv;' \
	    '	if (argc > 1) { if (u) p[0] = 1; free(p); } return p[0] == 7;' '}' >"$pl/plant.c"
	if "${CC:-cc}" -O0 -g -w -o "$pl/plant" "$pl/plant.c"; then
		rm -f "$pl"/*.log
		$VG --log-file="$pl/leak.log" "$pl/plant"
		$VG --log-file="$pl/uninit.log" "$pl/plant" x
		if grep -q 'definitely lost' "$pl/leak.log" && grep -q 'uninitialised' "$pl/uninit.log"; then
			echo "ok - valgrind flags a planted leak and a planted uninitialised read"; pass=$((pass + 1))
		else
			echo "not ok - valgrind missed a planted leak or uninitialised read ($pl)"; exit 1
		fi
	fi
fi

items=
if [ "${VALGRIND_UNIT:-1}" != 0 ]; then
	for t in "$B"/tests/test_*; do [ -x "$t" ] && items="$items unit-$(basename "$t")"; done
fi
if [ "${VALGRIND_REPLAY:-0}" != 0 ]; then
	for r in "$B"/tests/replay_*; do
		n=$(basename "$r" | sed 's/^replay_//')
		[ -x "$r" ] && [ -d "tests/fuzz/corpus/$n" ] && items="$items replay-$n"
	done
fi
if [ "${VALGRIND_CLI:-1}" != 0 ]; then
	for c in ${VALGRIND_TESTS:-$(cd tests/cli && ls ./*.sh | grep -vE '/(layering|no_libgit2|static_root)\.sh$')}; do
		[ -f "tests/cli/${c##*/}" ] && items="$items cli-${c##*/}"
	done
fi
t0=$(date +%s)
printf '%s\n' $items | xargs -r -P "${VALGRIND_JOBS:-1}" -n 1 sh "$0" --one
t1=$(date +%s)
for id in $items; do report "$id"; done

# every process left a log; a non-empty one holds memcheck's findings
procs=$(find "$logs" -name '*.log' | wc -l)
bad=$(find "$logs" -name '*.log' -size +0 | wc -l)
# (-q prints no summaries: each finding starts with an unindented line)
errs=$(find "$logs" -name '*.log' -size +0 -exec cat {} + | grep -cE '^==[0-9]+== [A-Z]')
leaks=$(find "$logs" -name '*.log' -size +0 -exec cat {} + | grep -cE 'are (definitely|indirectly) lost in loss record')
if [ "$bad" -gt 0 ]; then
	echo "== valgrind findings (logs in $logs):"
	find "$logs" -name '*.log' -size +0 | head -20 | while read -r l; do
		echo "# $l"; sed -n '1,40p' "$l" | sed 's/^/#   /'
	done
fi
echo
echo "$pass passed, $fail failed, $skip skipped"
[ "$sample" -gt 1 ] && echo "valgrind: sampled, 1 process in $sample (VALGRIND_SAMPLE)"
echo "valgrind: $procs processes, $bad with findings, $errs errors (of which $leaks definite/indirect leak records); $((t1 - t0)) s"
[ "$fail" -eq 0 ] && [ "$bad" -eq 0 ]
