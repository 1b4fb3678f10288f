#!/bin/sh
# tests/cli/git_fetch.sh - `wotkit-git fetch -C REPO [--init] [--] SOURCE
# [BRANCH]` (cmd/git/fetch.c) against real git, on local repositories only
# (no network):
#   - fetch by remote name (a clone's origin), by file:// URL, by plain path,
#     into a fresh --init cache (bare); the printed id is `git ls-remote`'s
#     and `git rev-parse`'s, the tracking ref is written, tags are not;
#   - the default branch follows origin's HEAD; an explicit BRANCH;
#   - after a new commit (and a force-push) in origin the printed id is the
#     new tip;
#   - a named remote's own refspec (one branch, another destination);
#     url.*.insteadOf not applied;
#   - errors (exit 1, nothing on stdout, one "wotkit-git: fetch:" line):
#     unknown branch, unknown remote, not a repository (REPO and SOURCE), no
#     --init, a SHA-256 repository (as REPO and as SOURCE), a connection
#     refused on https://; usage errors exit 2.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
G=${WOTKIT_GIT:-$top/wotkit-git}
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
if [ ! -x "$G" ]; then
	echo "not ok - git_fetch: $G is not built"
	exit 1
fi
if ! command -v git >/dev/null 2>&1; then
	echo "skip - git_fetch: git not installed"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp"
git config --global init.defaultBranch main
git config --global gc.auto 0
cd "$tmp" || exit 2

# fetched LABEL WANT-ID BRANCH ARGS...: the fetch prints exactly "WANT refs/heads/BRANCH"
fetched() {
	label=$1 want=$2 br=$3
	shift 3
	got=$("$G" fetch "$@" 2>"$tmp/err")
	rc=$?
	if [ $rc -eq 0 ] && [ -n "$want" ] && [ "$got" = "$want refs/heads/$br" ] && [ ! -s "$tmp/err" ]; then
		ok "$label: $want refs/heads/$br"
	else
		nok "$label: rc $rc, want '$want refs/heads/$br', got '$got' $(cat "$tmp/err")"
	fi
}
# refused LABEL PATTERN ARGS...: exit 1, nothing on stdout, the message matches
refused() {
	label=$1 pat=$2
	shift 2
	"$G" fetch "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^wotkit-git: fetch: .*$pat" "$tmp/err" &&
	    [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok "$label: refused ($(cat "$tmp/err"))"
	else
		nok "$label: rc $rc, stdout '$(cat "$tmp/out")', stderr '$(cat "$tmp/err")'"
	fi
}
usage() {
	label=$1
	shift
	"$G" fetch "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^usage: wotkit-git fetch' "$tmp/err"; then
		ok "usage: $label: exit 2"
	else
		nok "usage: $label: rc $rc, stdout '$(cat "$tmp/out")'"
	fi
}
remote_id() { # URL REF: what git ls-remote says
	git ls-remote "$1" "$2" | cut -f1
}

git init -q origin
(cd origin && echo a >a && git add a && git commit -qm one && git tag -a v1 -m v1 &&
	git checkout -qb dev && echo b >b && git add b && git commit -qm two &&
	git checkout -q main && echo c >c && git add c && git commit -qm three) || exit 2
git clone -q origin clone || exit 2
O=$tmp/origin

# --- by remote name ---------------------------------------------------------
main1=$(git -C origin rev-parse main)
dev1=$(git -C origin rev-parse dev)
fetched "remote name, default branch (origin's HEAD: main)" "$main1" main -C clone origin
fetched "remote name, explicit BRANCH dev" "$dev1" dev -C clone origin dev
fetched "remote name after --" "$dev1" dev -C clone -- origin dev
[ "$(git -C clone rev-parse refs/remotes/origin/dev)" = "$dev1" ] &&
	ok "remote name: refs/remotes/origin/dev written as git fetch would" ||
	nok "remote name: refs/remotes/origin/dev is $(git -C clone rev-parse refs/remotes/origin/dev)"
[ "$(git -C origin ls-remote --heads . main | cut -f1)" = "$(remote_id "$O" refs/heads/main)" ] &&
	[ "$main1" = "$(remote_id "$O" refs/heads/main)" ] && ok "oracle: git ls-remote agrees with git rev-parse" ||
	nok "oracle: git ls-remote disagrees"

# --- URL and path into a fresh --init cache --------------------------------
fetched "--init, plain path, default branch" "$main1" main -C cache --init "$O"
if [ -f cache/HEAD ] && [ "$(git -C cache rev-parse --is-bare-repository)" = true ]; then
	ok "--init: the cache is a bare repository"
else
	nok "--init: no bare repository made"
fi
[ "$(git -C cache rev-parse refs/remotes/wotkit/main)" = "$main1" ] &&
	[ "$(git -C cache rev-parse refs/remotes/wotkit/dev)" = "$dev1" ] &&
	ok "URL: every branch under refs/remotes/wotkit/ (+refs/heads/*:refs/remotes/wotkit/*)" ||
	nok "URL: refs/remotes/wotkit/* not as origin's branches: $(git -C cache for-each-ref)"
# (libgit2's local transport may copy the tag object itself: no ref names it)
[ -z "$(git -C cache for-each-ref refs/tags)" ] && [ -n "$(git -C origin for-each-ref refs/tags)" ] &&
	ok "tags are not fetched (no auto-follow): no refs/tags/ in the cache" ||
	nok "tags were fetched: $(git -C cache for-each-ref refs/tags)"
[ -z "$(git -C cache config --get-regexp '^remote\.')" ] &&
	ok "URL: the remote is in memory (nothing added to the cache's config)" ||
	nok "URL: the cache's config gained $(git -C cache config --get-regexp '^remote\.')"
fetched "file:// URL, explicit BRANCH" "$dev1" dev -C cache "file://$O" dev
fetched "--init on an existing repository is a plain fetch" "$dev1" dev -C cache --init "$O" dev
mkdir empty
fetched "--init into an empty directory" "$dev1" dev -C empty --init "$O" dev
git -C clone fsck --connectivity-only >/dev/null 2>&1 && git -C cache fsck --connectivity-only >/dev/null 2>&1 &&
	ok "git fsck: the fetched objects are complete" || nok "git fsck fails after the fetch"

# --- the default branch follows origin's HEAD ----------------------------------
git -C origin symbolic-ref HEAD refs/heads/dev
fetched "origin's HEAD -> dev: by path" "$dev1" dev -C cache "$O"
fetched "origin's HEAD -> dev: by remote name" "$dev1" dev -C clone origin
git -C origin symbolic-ref HEAD refs/heads/main

# --- a new tip --------------------------------------------------------------
(cd origin && echo d >d && git add d && git commit -qm four) || exit 2
main2=$(git -C origin rev-parse main)
[ "$main2" != "$main1" ] || nok "setup: no new commit"
fetched "new commit in origin: remote name prints the new tip" "$main2" main -C clone origin
fetched "new commit in origin: URL prints the new tip" "$main2" main -C cache "file://$O"
[ "$(remote_id "$O" refs/heads/main)" = "$main2" ] && [ "$(git -C clone rev-parse origin/main)" = "$main2" ] &&
	ok "new tip: git ls-remote and the clone's origin/main agree" || nok "new tip: disagreement"
(cd origin && git reset -q --hard HEAD~2 && echo e >e && git add e && git commit -qm rewritten) || exit 2
main3=$(git -C origin rev-parse main)
fetched "rewritten history (forced update, + refspec): the new tip" "$main3" main -C cache "$O"
fetched "rewritten history: remote name (+ in origin's refspec)" "$main3" main -C clone origin

# --- a named remote's own refspecs ---------------------------------------------
git -C clone remote add up "$O"
git -C clone config --replace-all remote.up.fetch '+refs/heads/main:refs/remotes/up-main'
fetched "named remote with a one-branch refspec: its tracking ref" "$main3" main -C clone up
[ "$(git -C clone rev-parse refs/remotes/up-main)" = "$main3" ] &&
	ok "named remote: the configured refspec's destination written (refs/remotes/up-main)" ||
	nok "named remote: refs/remotes/up-main not written"
refused "named remote: a branch its refspecs do not fetch" "not fetched by the remote's refspecs" -C clone up dev
# (if it were, $tmp/alias would become origin and the fetch would succeed)
git -C clone config url."$O".insteadOf "$tmp/alias"
git -C clone remote add rw "$tmp/alias"
git -C clone ls-remote rw >/dev/null 2>&1 && ok "oracle: git applies the insteadOf (ls-remote rw works)" ||
	nok "oracle: git ls-remote rw fails: the insteadOf setup is wrong"
refused "url.*.insteadOf is not applied (the configured URL is used as it is)" "$tmp/alias: no such repository" -C clone rw
git -C clone remote add relative ../origin
fetched "named remote with a relative path (from the work tree's top, as git)" "$main3" main -C clone relative
(cd "$tmp/empty/objects" && "$G" fetch -C ../../clone relative) >"$tmp/out" 2>&1 &&
	grep -q "^$main3 refs/heads/main\$" "$tmp/out" && ok "relative remote path: not taken from the cwd" ||
	nok "relative remote path from another cwd: $(cat "$tmp/out")"
refused "an invalid remote name" "not a valid remote name" -C clone "bad..name"

# --- errors ------------------------------------------------------------------
refused "unknown branch" "has no branch nosuch" -C cache "$O" nosuch
refused "unknown remote name" "no such remote" -C clone nosuch
refused "REPO not a repository" "not a git repository" -C "$tmp/nothere" "$O"
mkdir notrepo && echo x >notrepo/x
refused "--init refuses a non-empty directory that is no repository" "not a git repository" -C notrepo --init "$O"
refused "SOURCE path does not exist" "no such repository" -C cache "$tmp/nothere"
refused "SOURCE not a repository" "" -C cache "file://$tmp/notrepo"
refused "invalid branch name" "not a valid branch name" -C cache "$O" "a..b"
refused "https:// is handed to libgit2 (connection refused here)" "https://127.0.0.1:9/x.git" -C cache "https://127.0.0.1:9/x.git"
git init -q --bare noheads
refused "a remote with no branches" "no branch\|names no branch" -C cache "$tmp/noheads"
if git init -q --object-format=sha256 sha 2>/dev/null; then
	(cd sha && echo a >a && git add a && git commit -qm one) || exit 2
	refused "SHA-256 REPO" "SHA-256 repository" -C sha "$O"
	refused "SHA-256 SOURCE (path)" "SHA-256 repository" -C cache "$tmp/sha"
	refused "SHA-256 SOURCE (file://)" "SHA-256 repository" -C cache "file://$tmp/sha"
else
	echo "skip - git_fetch: this git cannot make SHA-256 repositories"
fi
before=$(git -C cache for-each-ref)
refused "failed fetch (unknown branch) leaves the cache's refs" "has no branch" -C cache "$O" nosuch
[ "$(git -C cache for-each-ref)" = "$before" ] && ok "refs unchanged after a refused fetch" || nok "refs changed"

usage "no -C" "$O"
usage "no SOURCE" -C cache
usage "three operands" -C cache "$O" main extra
usage "unknown option" -C cache --depth 1 "$O"
usage "empty SOURCE" -C cache ""

echo "# git_fetch: $fails failed"
[ "$fails" -eq 0 ]
