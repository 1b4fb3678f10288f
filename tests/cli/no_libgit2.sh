#!/bin/sh
# tests/cli/no_libgit2.sh - ./wotkit (verify, dump, inspect, sopv) stays free
# of libgit2: not linked, no git_* symbol, and no pgp/ or cmd/ source
# includes git2.h. TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
if [ ! -x "$W" ]; then
	echo "not ok - no_libgit2: $W is not built"
	exit 1
fi
fails=0
if command -v ldd >/dev/null 2>&1; then
	if ldd "$W" 2>/dev/null | grep -qi 'libgit2'; then
		echo "not ok - wotkit links libgit2: $(ldd "$W" | grep -i libgit2)"; fails=1
	else
		echo "ok - wotkit is not linked with libgit2"
	fi
else
	echo "skip - ldd missing: dynamic link not checked"
fi
if command -v nm >/dev/null 2>&1; then
	if nm "$W" 2>/dev/null | grep -q ' [TUu] git_'; then
		echo "not ok - wotkit has git_* symbols: $(nm "$W" | grep ' [TUu] git_' | head -3)"; fails=1
	else
		echo "ok - wotkit has no git_* symbol"
	fi
else
	echo "skip - nm missing: symbols not checked"
fi
if grep -ln '#include.*git2' "$top"/pgp/*.c "$top"/pgp/*.h "$top"/cmd/*.c "$top"/cmd/*.h 2>/dev/null; then
	echo "not ok - a pgp/ or cmd/ source includes git2.h"; fails=1
else
	echo "ok - no pgp/ or cmd/ source includes git2.h"
fi
[ "$fails" -eq 0 ]
