#!/bin/sh
# tests/cli/git_oracle.sh - git with real gpg vs git with the drop-in
# wotkit-gpg (issue 15), field by field, on the shared fixture
# (tests/cli/lib/git_fixture.sh: keys at distance 1 and 2, untrusted,
# unknown, expired, revoked; tampered, unsigned, two-block tags; a commit
# with two signatures; a merge with a mergetag).
#   1. real gpg gives, for every ref, the %G? letter written by hand in
#      refs.tsv (so the fixture is what it claims to be);
#   2. for every ref, once with gpg.program=gpg (GNUPGHOME = the fixture's
#      gnupg: same keys, same ownertrust) and once with
#      gpg.program=wotkit-gpg (WOTKIT_KEYRING = the fixture's keyring.wk):
#        git verify-tag|verify-commit --raw: exit code, the exclusive status
#          lines (GOODSIG/BADSIG/ERRSIG/EXPSIG/EXPKEYSIG/REVKEYSIG, whole
#          lines), VALIDSIG (all fields), TRUST_*, NO_PUBKEY;
#        git verify-tag|verify-commit (human): exit code, gpg's
#          "Good/BAD signature from" line, its "using ... key" line, and
#          the whole text (gpg's human lines, "|" for newlines);
#        commits: git log -1 --show-signature (whole text, mergetags too);
#        commits: git log -1 --format='%G? %GF %GP %GK %GS', and %GT
#          alone (git 2.39 aborts on %GT after ERRSIG: compared as is);
#        commits: git merge --verify-signatures on a scratch branch: exit
#          code and the first line of its output.
#      Every difference is printed with both values.
# GIT_ORACLE_SECOND=gpg runs gpg on both sides (debugging the script).
# Skips (exit 0) when gpg or git is missing. TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
WOTKIT=${WOTKIT:-$top/wotkit}; export WOTKIT
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
if ! command -v gpg >/dev/null 2>&1 || ! command -v git >/dev/null 2>&1; then
	echo "skip - git_oracle: gpg or git is not installed"
	exit 0
fi
if [ ! -x "$WOTKIT" ]; then
	echo "not ok - git_oracle: $WOTKIT is not built"
	exit 1
fi
tmp=$(mktemp -d)
[ -n "${GIT_ORACLE_KEEP:-}" ] && echo "# kept: $tmp" || trap 'gpgconf --homedir "$tmp/fx/gen" --kill gpg-agent 2>/dev/null; rm -rf "$tmp"' EXIT
. "$top/tests/cli/lib/git_fixture.sh"
fx=$tmp/fx
if ! git_fixture "$fx"; then
	echo "not ok - git_oracle: the fixture could not be made"
	exit 1
fi
ok "fixture made"

# the drop-in: <top>/wotkit-gpg, else a wotkit-gpg symlink to $WOTKIT when
# `wotkit gpg` exists; GIT_ORACLE_SECOND=gpg for gpg on both sides
second=
if [ "${GIT_ORACLE_SECOND:-}" = gpg ]; then
	second=gpg
elif [ -x "${WOTKIT_GPG:-$top/wotkit-gpg}" ]; then
	second=${WOTKIT_GPG:-$top/wotkit-gpg}
elif "$WOTKIT" gpg --version >/dev/null 2>&1; then
	ln -s "$WOTKIT" "$tmp/wotkit-gpg" && second=$tmp/wotkit-gpg
fi

HOME=$fx GIT_CONFIG_NOSYSTEM=1 GNUPGHOME=$fx/gnupg WOTKIT_KEYRING=$fx/keyring.wk LC_ALL=C TZ=UTC
export HOME GIT_CONFIG_NOSYSTEM GNUPGHOME WOTKIT_KEYRING LC_ALL TZ
unset GIT_DIR GIT_WORK_TREE
cd "$fx/repo" || exit 1
TAB=$(printf '\t')

# the %G? letter git's parse_gpg_output gives for a --raw status stream
letter_of() { # file
	awk '
	/^\[GNUPG:\] (GOODSIG|BADSIG|ERRSIG|EXPSIG|EXPKEYSIG|REVKEYSIG) / { n++; k = $2 }
	/^\[GNUPG:\] TRUST_(UNDEFINED|NEVER)/ { low = 1 }
	END {
		if (n == 0) { print "N"; exit }
		if (n > 1) { print "E"; exit }
		l = k == "GOODSIG" ? "G" : k == "BADSIG" ? "B" : k == "ERRSIG" ? "E" : \
		    k == "EXPSIG" ? "X" : k == "EXPKEYSIG" ? "Y" : "R"
		if (l == "G" && low) l = "U"
		print l
	}' "$1"
}

# observe PROG REF KIND OUT: one "field<TAB>value" line per observed field
observe() {
	prog=$1 ref=$2 kind=$3 out=$4
	g="git -c gpg.program=$prog"
	: >"$out"
	$g "verify-$kind" --raw "$ref" >/dev/null 2>"$tmp/raw"
	printf 'raw.rc\t%s\n' $? >>"$out"
	grep -E '^\[GNUPG:\] (GOODSIG|BADSIG|ERRSIG|EXPSIG|EXPKEYSIG|REVKEYSIG|VALIDSIG|TRUST_[A-Z]+|NO_PUBKEY)( |$)' \
		"$tmp/raw" | awk '{ k = $2; sub(/^\[GNUPG:\] /, ""); n[k]++; printf "raw.%s.%d\t%s\n", k, n[k], $0 }' >>"$out"
	printf 'raw.letter\t%s\n' "$(letter_of "$tmp/raw")" >>"$out"
	$g "verify-$kind" "$ref" >/dev/null 2>"$tmp/human"
	printf 'human.rc\t%s\n' $? >>"$out"
	printf 'human.result\t%s\n' "$(grep -E '^gpg: (Good|BAD) signature from|^gpg: Can.t check signature|^error:' "$tmp/human" | head -1)" >>"$out"
	printf 'human.using\t%s\n' "$(grep -E '^gpg: +using ' "$tmp/human" | head -1)" >>"$out"
	printf 'human.all\t%s\n' "$(tr '\n' '|' <"$tmp/human")" >>"$out"
	if [ "$kind" = commit ]; then
		printf 'log.GFPKS\t%s\n' "$($g log -1 --format='%G? %GF %GP %GK %GS' "$ref" 2>/dev/null)" >>"$out"
		printf 'log.show\t%s\n' "$($g log -1 --show-signature --format=%H "$ref" 2>&1 | tr '\n' '|')" >>"$out"
		# in a child shell: git 2.39 aborts here after ERRSIG, and the
		# shell would report it
		v=$(sh -c '"$@" 2>/dev/null; echo " rc=$?"' sh $g log -1 --format=%GT "$ref" 2>/dev/null)
		printf 'log.GT\t%s\n' "$v" | tr -d '\n' >>"$out"; echo >>"$out"
		git checkout -q -B oracle-scratch base 2>/dev/null
		$g merge --verify-signatures --no-edit --no-ff -m scratch "$ref" >"$tmp/merge" 2>&1
		printf 'merge.rc\t%s\n' $? >>"$out"
		printf 'merge.first\t%s\n' "$(head -1 "$tmp/merge")" >>"$out"
		git merge --abort >/dev/null 2>&1
		git checkout -q -f base && git branch -q -D oracle-scratch
	fi
}

# 1. real gpg agrees with the hand-written column
while IFS=$TAB read -r ref kind verdict want; do
	observe gpg "$ref" "$kind" "$tmp/gpg.$ref"
	got=$(awk -F'\t' '$1 == "raw.letter" { print $2 }' "$tmp/gpg.$ref")
	if [ "$kind" = commit ]; then
		lg=$(awk -F'\t' '$1 == "log.GFPKS" { print substr($2, 1, 1) }' "$tmp/gpg.$ref")
		[ "$lg" = "$got" ] || got="$got (log: $lg)"
	fi
	if [ "$got" = "$want" ]; then ok "real gpg: $ref is $want ($verdict)"
	else nok "real gpg: $ref: refs.tsv says $want, git+gpg gives $got"; fi
done <"$fx/refs.tsv"

if [ -z "$second" ]; then
	echo "skip - git_oracle: no wotkit-gpg (neither $top/wotkit-gpg nor \`wotkit gpg\`): drop-in not compared"
	[ "$fails" -eq 0 ]
	exit
fi

# 2. the drop-in, field by field
ndiff=0
while IFS=$TAB read -r ref kind verdict want; do
	observe "$second" "$ref" "$kind" "$tmp/dropin.$ref"
	fields=$(cut -f1 "$tmp/gpg.$ref" "$tmp/dropin.$ref" | sort -u)
	for f in $fields; do
		a=$(awk -F'\t' -v f="$f" '$1 == f { sub(/^[^\t]*\t/, ""); print }' "$tmp/gpg.$ref")
		b=$(awk -F'\t' -v f="$f" '$1 == f { sub(/^[^\t]*\t/, ""); print }' "$tmp/dropin.$ref")
		if [ "$a" = "$b" ]; then ok "$ref $f same"
		else
			nok "$ref $f differs"
			printf '#   gpg:        %s\n#   wotkit-gpg: %s\n' "${a:-(absent)}" "${b:-(absent)}"
			ndiff=$((ndiff + 1))
		fi
	done
done <"$fx/refs.tsv"
echo "# git_oracle: second program $second, $ndiff differences"
[ "$fails" -eq 0 ]
