#!/bin/sh
# bench/limits.sh - the limits of pgp/limits.h at full size (a 1 GiB
# compressed-data bomb in headers and in partial chunks, a 1 GiB literal,
# a 1 GiB armored message, 100k user IDs, 100k certifications on one user
# ID, 100k subpackets, ...; inputs from bench/gen_limits.py, about 2.2 GB in
# $BENCH_DIR, made once): time, peak RSS, exit status and error line of
# wotkit verify, and of gpgv and sqv on the same input where they run
# (sqv: detached signatures only). One run each (use nice: it is long).
# gpgv and sqv are stopped after LIMITS_TIMEOUT seconds (default 300; both
# spend minutes on 100k user IDs): rc 124 in the table.
#   bench/limits.sh            all cases        BENCH_DIR (default /tmp/wotkit-bench)
#   bench/limits.sh --clean    delete the inputs afterwards
# Needs python3 with cryptography, /usr/bin/time; gpgv and sqv optional.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
W=${WOTKIT:-$top/wotkit}
[ -x "$W" ] || { echo "build first: make" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench: /usr/bin/time missing (apt-get install time)" >&2; exit 2; }
d=${BENCH_DIR:-/tmp/wotkit-bench}/limits
at=1710000000
tmo=${LIMITS_TIMEOUT:-300}
[ -f "$d/CASES" ] || python3 "$top/bench/gen_limits.py" limits "$d" full || exit 2
g=$(mktemp -d)
trap 'rm -rf "$g"' EXIT
# gpgv wants a keyring it can read as is: the binary certificate file
printf '%-26s %-6s %4s %9s %10s  %s\n' case tool rc seconds "peak KB" "first line of stderr"
one() { # case tool cmd...
	c=$1 t=$2; shift 2
	/usr/bin/time -f "%e %M" -o "$g/res" "$@" >/dev/null 2>"$g/err" </dev/null
	rc=$?
	set -- $(tail -n1 "$g/res")
	line=$(grep -v '^\s' "$g/err" | grep -v "^Command exited" | head -n1 | cut -c1-110)
	printf '%-26s %-6s %4s %9s %10s  %s\n' "$c" "$t" "$rc" "$1" "$2" "$line"
}
tab=$(printf '\t')
while IFS="$tab" read -r name file ring macro; do
	data=
	case $name in sig-*|sigs-*|cert-*|uid-*|mpi-*) data=$d/data.txt ;; esac
	# shellcheck disable=SC2086
	one "$name" wotkit "$W" verify --at $at --keyring "$d/$ring" "$d/$file" $data
	if command -v gpgv >/dev/null; then
		# shellcheck disable=SC2086
		GNUPGHOME=$g one "$name" gpgv timeout "$tmo" gpgv --homedir "$g" --keyring "$d/$ring" "$d/$file" $data
	fi
	if command -v sqv >/dev/null && [ -n "$data" ]; then
		one "$name" sqv timeout "$tmo" sqv --keyring "$d/$ring" "$d/$file" "$data"
	fi
done <"$d/CASES"
[ "${1:-}" = --clean ] && rm -rf "$d"
exit 0
