#!/bin/sh
# The layering rules (tests/layering.sh) hold on this tree, and the checker
# catches a planted violation of each rule (so it can fail): each planted
# tree must make the named rule report "not ok".
top=$(cd "$(dirname "$0")/../.." && pwd)
check="$top/tests/layering.sh"

sh "$check" "$top" "$top/build" || exit 1

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A clean tree: a public header included by the umbrella, an internal header
# (which may name pgp__ and include mbedtls), a cmd/ file on the umbrella.
base() {
	rm -rf "$tmp/t"; mkdir -p "$tmp/t/pgp" "$tmp/t/keyring" "$tmp/t/cmd/git"
	printf '/* ok */\n#include "rd.h"\n' >"$tmp/t/pgp/ok.c"
	printf '/* ok: public */\nint pgp_ok(void);\n' >"$tmp/t/pgp/err.h"
	printf '#include <mbedtls/md5.h>\n#include "err.h"\nint pgp__ok(void);\n#define PGP__OK 1\n' \
	    >"$tmp/t/pgp/err_int.h"
	printf '/* the API; pgp__ names are internal */\n#include "err.h"\n' >"$tmp/t/pgp/pgp.h"
	printf '#include "pgp/pgp.h"\n' >"$tmp/t/cmd/ok.c"
}
plant() { # name, rule that must fail, file, content
	base
	mkdir -p "$(dirname "$tmp/t/$3")"
	printf '%s\n' "$4" >"$tmp/t/$3"
	if sh "$check" "$tmp/t" 2>&1 | grep -qxF "not ok - $2"; then
		echo "ok - layering check catches: $1"
	else
		echo "not ok - layering check misses: $1 (rule: $2)"
	fi
}
r_pgp="pgp/ includes nothing from keyring/ or cmd/"
r_kr="keyring/ includes nothing from cmd/"
r_git="only cmd/git/ includes git2.h"
r_git_lib="pgp/ and keyring/ never include git2.h"
r_umb="cmd/ includes from pgp/ only pgp/pgp.h"
r_name="public pgp/ headers declare no pgp__ name"
r_int="public pgp/ headers include no internal header"
r_dep="public pgp/ headers include no mbedtls, sodium or zlib header"
r_orph="pgp/pgp.h includes every public pgp/ header"

plant "pgp including cmd/" "$r_pgp" pgp/a.c '#include "../cmd/cli.h"'
plant "pgp including keyring/" "$r_pgp" pgp/a.h '#include "keyring/keyring.h"'
plant "keyring including cmd/" "$r_kr" keyring/a.c '#include "cmd/cli.h"'
plant "git2.h outside cmd/git" "$r_git" cmd/a.c '#include <git2.h>'
plant "git2.h in pgp" "$r_git_lib" pgp/a.c '#include <git2/oid.h>'
plant "git2.h in keyring/ (any file)" "no file outside cmd/git/ includes git2.h" keyring/sub_fuzz_x.c '#include <git2.h>'
plant "git2.h in a test" "no file outside cmd/git/ includes git2.h" tests/unit/test_x.c '#include <git2.h>'
plant "git2.h in a nested cmd/ folder" "no file outside cmd/git/ includes git2.h" cmd/a.h '#include "git2.h"'
plant "printing in pgp" "pgp/ never prints or exits (source)" pgp/a.c \
    'void f(void) { fprintf(stderr, "x"); }'
plant "exit in keyring" "keyring/ never prints or exits (source)" keyring/a.c \
    'void f(void) { exit(1); }'

plant "cmd/ including a public header other than pgp.h" "$r_umb" cmd/a.c '#include "pgp/hash.h"'
plant "cmd/ header including an internal header" "$r_umb" cmd/a.h '#include <pgp/hash_int.h>'
plant "cmd/git/ including pgp/ by a relative hop" "$r_umb" cmd/git/a.c '#include "../../pgp/verify.h"'
plant "a pgp__ function in a public header" "$r_name" pgp/err.h 'void pgp__diag_set(int x);'
plant "a PGP__ macro in a public header" "$r_name" pgp/err.h '#define PGP__CPU_AVX2 4u'
plant "a pgp__ type in a public struct" "$r_name" pgp/err.h 'typedef struct { pgp__md md; } pgp_hash;'
plant "a public header including an internal one" "$r_int" pgp/err.h '#include "hash_int.h"'
plant "pgp.h including an internal header" "$r_int" pgp/pgp.h \
    '#include "err.h"
#include "err_int.h"'
plant "a public header including mbedtls" "$r_dep" pgp/err.h '#include <mbedtls/md5.h>'
plant "a public header including sodium" "$r_dep" pgp/err.h '#include <sodium.h>'
plant "a public header including zlib" "$r_dep" pgp/err.h '#include <zlib.h>'
plant "a public header pgp.h does not include" "$r_orph" pgp/new.h '/* public, but an orphan */'

# and a clean tree passes (git2.h allowed in cmd/git/; pgp__ names and
# mbedtls allowed in internal headers; pgp__ named in a comment of pgp.h)
base
printf '/* printf( in a comment */\n#include "rd.h"\n' >"$tmp/t/pgp/ok.c"
printf '#include <git2.h>\n#include "../../pgp/pgp.h"\n' >"$tmp/t/cmd/git/tag.c"
if out=$(sh "$check" "$tmp/t" 2>&1); then
	echo "ok - layering check passes a clean tree"
else
	echo "not ok - layering check refuses a clean tree"
	printf '%s\n' "$out" | grep -v '^ok' | sed 's/^/#   /'
fi
