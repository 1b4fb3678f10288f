#!/bin/sh
# tests/layering.sh ROOT [BUILD] - the dependency rules of the source tree.
#
#   pgp/      the library: includes nothing from keyring/ or cmd/, never
#             prints, exits or aborts (checked on the compiled objects: no
#             undefined reference to stdio output, exit or abort);
#   keyring/  builds on pgp/ only: nothing from cmd/, same output rule;
#   cmd/      the only code that prints or exits; only the git executable's
#             sources (cmd/git/) may include git2.h, nothing else in the
#             tree (tests/, bench/ included); from pgp/ it includes
#             only the umbrella pgp/pgp.h (also in cmd/git/);
#   pgp/*.h   public headers (all but pgp/*_int.h) declare no pgp__ name,
#             include no internal header (*_int.h) and no mbedtls, sodium
#             or zlib header; pgp/pgp.h includes every public header;
#   wotkit    itself never links libgit2.
#
# Prints one "ok"/"not ok" line per rule (TAP style) and exits 1 on any
# violation. tests/cli/layering.sh runs it on the tree and on a planted
# violation, so the check itself is tested.
root=${1:?usage: layering.sh ROOT [BUILD]}
build=${2:-}
fail=0

rule() { # name, offending lines (empty = ok)
	if [ -z "$2" ]; then
		echo "ok - $1"
	else
		echo "not ok - $1"
		printf '%s\n' "$2" | sed 's/^/#   /' | head -20
		fail=1
	fi
}

# #include lines naming a file of another layer, by path or by a relative hop
includes() { # dir, pattern
	[ -d "$root/$1" ] || return 0
	grep -HnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[\"<]($2)" \
	    "$root/$1"/*.c "$root/$1"/*.h 2>/dev/null | sed "s|^$root/||"
}

rule "pgp/ includes nothing from keyring/ or cmd/" \
    "$(includes pgp '(\.\./)*(keyring|cmd)/')"
rule "keyring/ includes nothing from cmd/" \
    "$(includes keyring '(\.\./)*cmd/')"
rule "pgp/ and keyring/ never include git2.h" \
    "$(includes pgp 'git2'; includes keyring 'git2')"
rule "only cmd/git/ includes git2.h" \
    "$(includes cmd 'git2')"
# the whole tree (tests/, bench/, nested folders): cmd/git/ is the only user
git2_anywhere() {
	find "$root" \( -name .git -o -name 'build*' \) -prune -o -type f \( -name '*.c' -o -name '*.h' \) -print 2>/dev/null |
	    while read -r f; do
		case ${f#"$root"/} in cmd/git/*) continue ;; esac
		grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]git2' "$f"
	    done | sed "s|^$root/||"
}
rule "no file outside cmd/git/ includes git2.h" "$(git2_anywhere)"

# The public API of pgp/: cmd/ sees it only through the umbrella header.
cmd_pgp_includes() {
	[ -d "$root/cmd" ] || return 0
	find "$root/cmd" -type f \( -name '*.c' -o -name '*.h' \) -exec \
	    grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](\.\./)*pgp/' {} + 2>/dev/null |
	    grep -vE '#[[:space:]]*include[[:space:]]*"(\.\./)*pgp/pgp\.h"' | sed "s|^$root/||"
}
rule "cmd/ includes from pgp/ only pgp/pgp.h" "$(cmd_pgp_includes)"

# Public headers: pgp/*.h except the internal pgp/*_int.h.
public_headers() {
	for h in "$root"/pgp/*.h; do
		[ -f "$h" ] || continue
		case $h in *_int.h) continue ;; esac
		echo "$h"
	done
}
pub=$(public_headers)
# pgp__ names (internal, see pgp/pgp.h) outside comment lines
rule "public pgp/ headers declare no pgp__ name" \
    "$(for h in $pub; do grep -HniE '(^|[^_[:alnum:]])pgp__' "$h" |
	grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)'; done | sed "s|^$root/||")"
rule "public pgp/ headers include no internal header" \
    "$(for h in $pub; do grep -HnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<][^">]*_int\.h[">]' "$h"; done |
	sed "s|^$root/||")"
rule "public pgp/ headers include no mbedtls, sodium or zlib header" \
    "$(for h in $pub; do grep -HniE '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<](mbedtls/|psa/|sodium|zlib\.h|zconf\.h)' "$h"; done |
	sed "s|^$root/||")"
# every public header is reachable from the umbrella (no orphan)
orphans() {
	[ -n "$pub" ] || return 0
	if [ ! -f "$root/pgp/pgp.h" ]; then echo "pgp/pgp.h: missing"; return 0; fi
	for h in $pub; do
		n=$(basename "$h")
		[ "$n" = pgp.h ] && continue
		re=$(printf '%s' "$n" | sed 's/\./\\./g')
		grep -qE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"$re\"" "$root/pgp/pgp.h" ||
		    echo "pgp/pgp.h: does not include pgp/$n"
	done
}
rule "pgp/pgp.h includes every public pgp/ header" "$(orphans)"

# Output and exit, in the source: calls of stdio output functions, exit and
# abort (comments and string contents are not calls, so match "name(").
calls() { # dir
	[ -d "$root/$1" ] || return 0
	grep -HnE '(^|[^_[:alnum:]])(printf|fprintf|vfprintf|puts|fputs|putchar|fputc|putc|perror|fwrite|exit|_exit|abort|err|errx|warn|warnx)[[:space:]]*\(' \
	    "$root/$1"/*.c 2>/dev/null | grep -vE '^[^:]*:[0-9]+:[[:space:]]*(/?\*|//)' | sed "s|^$root/||"
}
rule "pgp/ never prints or exits (source)" "$(calls pgp)"
rule "keyring/ never prints or exits (source)" "$(calls keyring)"

# The same on the objects: what the compiler actually left as a reference.
if [ -n "$build" ]; then
	bad='^(printf|fprintf|vfprintf|__printf_chk|__fprintf_chk|__vfprintf_chk|puts|fputs|putchar|fputc|putc|_IO_putc|perror|fwrite|exit|_exit|abort|err|errx|warn|warnx|stdout|stderr)$'
	for layer in pgp keyring; do
		found=""
		for o in "$build/$layer"/*.o; do
			[ -f "$o" ] || continue
			s=$(nm -u "$o" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | grep -E "$bad" | tr '\n' ' ')
			[ -n "$s" ] && found="$found$(basename "$o"): $s
"
		done
		rule "$layer/ objects reference no output or exit functions" "$found"
	done
	if [ -x "$build/wotkit" ]; then
		rule "wotkit does not link libgit2" \
		    "$( (ldd "$build/wotkit" 2>/dev/null | grep -i git2; nm "$build/wotkit" 2>/dev/null | grep -E ' [TU] git_' | head -3) )"
	fi
fi
exit $fail
