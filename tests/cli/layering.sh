#!/bin/sh
# The layering rules (tests/layering.sh) hold on this tree, and the checker
# catches a planted violation of each rule (so it can fail).
top=$(cd "$(dirname "$0")/../.." && pwd)
check="$top/tests/layering.sh"

sh "$check" "$top" "$top/build" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
plant() { # name, file, content: a tree with one violation must fail
	rm -rf "$tmp/t"; mkdir -p "$tmp/t/pgp" "$tmp/t/keyring" "$tmp/t/cmd/git"
	printf '/* ok */\n#include "rd.h"\n' >"$tmp/t/pgp/ok.c"
	printf '%s\n' "$3" >"$tmp/t/$2"
	if sh "$check" "$tmp/t" >/dev/null 2>&1; then
		echo "not ok - layering check misses: $1"
	else
		echo "ok - layering check catches: $1"
	fi
}
plant "pgp including cmd/" pgp/a.c '#include "../cmd/cli.h"'
plant "pgp including keyring/" pgp/a.h '#include "keyring/keyring.h"'
plant "keyring including cmd/" keyring/a.c '#include "cmd/cli.h"'
plant "git2.h outside cmd/git" cmd/a.c '#include <git2.h>'
plant "git2.h in pgp" pgp/a.c '#include <git2/oid.h>'
plant "printing in pgp" pgp/a.c 'void f(void) { fprintf(stderr, "x"); }'
plant "exit in keyring" keyring/a.c 'void f(void) { exit(1); }'

# and a clean tree passes (git2.h allowed in cmd/git/)
rm -rf "$tmp/t"; mkdir -p "$tmp/t/pgp" "$tmp/t/cmd/git"
printf '/* printf( in a comment */\n#include "rd.h"\n' >"$tmp/t/pgp/ok.c"
printf '#include <git2.h>\n' >"$tmp/t/cmd/git/tag.c"
if sh "$check" "$tmp/t" >/dev/null 2>&1; then
	echo "ok - layering check passes a clean tree"
else
	echo "not ok - layering check refuses a clean tree"
fi
