#!/bin/sh
# tests/cli/git_changes.sh - `wotkit-git changes [-C REPO] [--base REV] [--]
# REV` (cmd/git/changes.c; libgit2 for SHA-1 repositories, mbase.c and
# tdiff.c over wotkit's own reader for SHA-256 ones) against real git, in
# both object formats:
#   - the output must be, octet for octet, "base $(git merge-base BASE REV)",
#     "commit $(git rev-parse REV^{commit})", then `git diff --name-status
#     --no-renames -z BASE' REV` turned into "S path\0" records;
#   - changes: added, deleted, modified files, nested directories, a symlink
#     that becomes a file (T), a file that becomes a directory and back, a
#     rename (D + A), names with spaces, a newline, non-ASCII, a tab; an
#     executable bit (M); git's order where a directory sorts as NAME/
#     (o-x, o.d/, o.txt, o/, o0); a submodule (gitlink) added, moved on, replaced by
#     a file (T);
#   - merge bases: main moved on after the fork, a merge of main into the
#     topic, criss-cross merges (two bases: git prints the newer), REV an
#     ancestor of BASE, REV = BASE, annotated tags (and a tag of a tag) as
#     REV and as --base, HEAD by default, no -C (the repository found from a
#     subdirectory); random histories with merges and skewed dates (every
#     pair of a sample compared);
#   - errors (exit 1, nothing on stdout, one "wotkit-git: changes:" line):
#     unrelated histories (no merge base), an unknown revision, a tree as
#     REV, not a repository; bounds: a path of exactly 4096 octets is listed,
#     4097 is refused; hand-made trees (".." as a name; for the own reader
#     also entries out of order and a name with '/'); usage errors exit 2.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
G=${WOTKIT_GIT:-$top/wotkit-git}
fails=0
ok() { printf 'ok - %s\n' "$1"; }
nok() { printf 'not ok - %s\n' "$1"; fails=$((fails + 1)); }
if [ ! -x "$G" ]; then
	echo "not ok - git_changes: $G is not built"
	exit 1
fi
for t in git python3 perl; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skip - git_changes: $t not installed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GIT_AUTHOR_NAME=A GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=A GIT_COMMITTER_EMAIL=a@example.org
export GIT_CONFIG_NOSYSTEM=1 HOME="$tmp"
git config --global init.defaultBranch main
git config --global gc.auto 0
git config --global core.commitGraph false
git config --global protocol.file.allow always
ts=1700000000

# commit MSG: commit everything staged, one second (or $1s) after the last
commit() {
	ts=$((ts + ${2:-10}))
	GIT_AUTHOR_DATE="$ts +0000" GIT_COMMITTER_DATE="$ts +0000" git commit -q --allow-empty -m "$1"
}

# expected REPO BASE REV OUT: what the contract says, from git itself
expected() {
	mb=$(git -C "$1" merge-base "$2" "$3") || return 1
	c=$(git -C "$1" rev-parse --verify -q "$3^{commit}") || return 1
	printf 'base %s\ncommit %s\n' "$mb" "$c" >"$4"
	git -C "$1" diff --name-status --no-renames -z "$mb" "$c" >"$4.z" || return 1
	# "S\0path\0" pairs -> "S path\0" (perl: starts fast, is in perl-base)
	perl -0777 -ne '@f = split /\0/, $_, -1; pop @f if @f && $f[-1] eq "";
		exit 1 if @f % 2; for ($i = 0; $i < @f; $i += 2) { print "$f[$i] $f[$i + 1]\0" }' \
	    "$4.z" >>"$4" || return 1
}
# same REPO LABEL BASE REV [WANT-STATUSES]: wotkit-git changes = git; the
# statuses ("A:path M:path", sorted) are checked too when given
same() {
	repo=$1 label=$2 base=$3 rev=$4
	if ! expected "$repo" "$base" "$rev" "$tmp/want"; then
		nok "$label: git cannot compute it ($base $rev)"
		return
	fi
	"$G" changes -C "$repo" --base "$base" "$rev" >"$tmp/got" 2>"$tmp/err"
	rc=$?
	n=$(tr -cd '\0' <"$tmp/got" | wc -c)
	if [ $rc -eq 0 ] && cmp -s "$tmp/want" "$tmp/got"; then
		ok "$label: as git merge-base + diff --name-status --no-renames ($n paths)"
	else
		nok "$label: rc $rc $(cat "$tmp/err"); want: $(tr '\0' '|' <"$tmp/want" | head -c 600); got: $(tr '\0' '|' <"$tmp/got" | head -c 600)"
	fi
	if [ -n "$5" ]; then
		st=$(perl -0777 -ne 's/\A[^\n]*\n[^\n]*\n//; @r = split /\0/;
			s/\n/\\n/g for @r; s/^(.) /$1:/ for @r; print join(" ", sort @r)' "$tmp/got")
		if [ "$st" = "$5" ]; then
			ok "$label: statuses $5"
		else
			nok "$label: statuses '$st', want '$5'"
		fi
	fi
}
# refused LABEL PATTERN ARGS...: exit 1, nothing on stdout, one matching line
refused() {
	label=$1 pat=$2
	shift 2
	"$G" changes "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 1 ] && [ ! -s "$tmp/out" ] && grep -q "^wotkit-git: changes: .*$pat" "$tmp/err" &&
	    [ "$(wc -l <"$tmp/err")" -eq 1 ]; then
		ok "$label: refused ($(head -c 200 "$tmp/err"))"
	else
		nok "$label: rc $rc, stdout $(wc -c <"$tmp/out") octets, stderr '$(cat "$tmp/err")'"
	fi
}
usage() {
	label=$1
	shift
	"$G" changes "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^usage: wotkit-git changes' "$tmp/err"; then
		ok "usage: $label: exit 2"
	else
		nok "usage: $label: rc $rc"
	fi
}

# scenario FORMAT DIR: the fixed history
scenario() {
	fmt=$1 d=$2
	git init -q --object-format="$fmt" "$d" || return 1
	(
	cd "$d" || exit 1
	hexlen=40
	[ "$fmt" = sha256 ] && hexlen=64
	fake=$(printf '%0*d' "$hexlen" 0 | tr 0 a)
	fake2=$(printf '%0*d' "$hexlen" 0 | tr 0 b)
	mkdir -p d/e d/g sub/deep/nested df
	echo a >a; echo f >d/e/f; echo g >d/g/h; echo x >x; echo s >"sp ace"; echo r >rn-old
	echo n >sub/deep/nested/file; echo fd >fd; echo i >df/inner; echo k >keep
	ln -s a l
	git add -A && commit base
	git update-index --add --cacheinfo "160000,$fake,gl" && git update-index --add --cacheinfo "160000,$fake,gl2" && commit gitlinks
	mkdir gl gl2   # unpopulated submodules: `git add -A` keeps them
	git tag -a v-base -m "base tag"
	git -c advice.nestedTag=false tag -a v-base2 -m "tag of a tag" v-base
	git checkout -q -b topic
	echo a2 >a; echo new >d/e/new; git rm -q -r d/g; rm l; echo now-a-file >l
	chmod +x x; git mv rn-old rn-new; echo nl >"$(printf 'new\nline')"; echo u >"$(printf '\303\244 utf8')"
	echo t >"$(printf 'tab\there')"; git rm -q fd; mkdir fd; echo fx >fd/x; git rm -q -r df; echo nowfile >df
	echo deep >sub/deep/nested/file2
	# git's order: a directory sorts as NAME/ (o-x, o.d/, o.txt, o/, o0)
	mkdir -p o o.d/x; echo >o.txt; echo >o-x; echo >o/y; echo >o.d/x/z; echo >o0
	git add -A
	git update-index --cacheinfo "160000,$fake2,gl"
	git rm -q --cached gl2; rmdir gl2; echo file >gl2; git add gl2
	commit topic1
	git tag -a v-topic -m "topic tag"
	git checkout -q main
	echo main >m1; echo k2 >keep; git add -A && commit main1
	git checkout -q topic
	GIT_AUTHOR_DATE="$((ts + 5)) +0000" GIT_COMMITTER_DATE="$((ts + 5)) +0000" git merge -q --no-edit main
	ts=$((ts + 5))
	echo t2 >t2; git add -A && commit topic2
	git checkout -q main
	echo main2 >m2; git add -A && commit main2
	# criss-cross: x1 and y1 both merge the other's parent
	git checkout -q -b cx main; echo cx >cx; git add -A && commit cx1
	git checkout -q -b cy main~1; echo cy >cy; git add -A && commit cy1 20
	git checkout -q cx; GIT_COMMITTER_DATE="$((ts + 10)) +0000" git merge -q --no-edit cy; ts=$((ts + 10))
	git checkout -q cy; GIT_COMMITTER_DATE="$((ts + 10)) +0000" git merge -q --no-edit cx~1; ts=$((ts + 10))
	git checkout -q cx; echo cx2 >cx2; git add -A && commit cx2
	git checkout -q cy; echo cy2 >cy2; git add -A && commit cy2
	git checkout -q main
	# an unrelated history
	b=$(echo alone | git hash-object -w --stdin)
	t=$(printf '100644 blob %s\talone\n' "$b" | git mktree)
	git branch lonely "$(git commit-tree -m lonely "$t")"
	) || return 1
}

for fmt in sha1 sha256; do
	r=$tmp/$fmt
	if [ "$fmt" = sha256 ] && ! git init -q --object-format=sha256 "$tmp/probe" 2>/dev/null; then
		echo "skip - git_changes: this git cannot make SHA-256 repositories"
		continue
	fi
	if ! scenario "$fmt" "$r" >"$tmp/setup" 2>&1; then cat "$tmp/setup" >&2
		nok "$fmt: setting up the history failed: $(tail -3 "$tmp/setup")"
		continue
	fi
	same "$r" "$fmt: topic1 since the fork (main moved on)" main topic~1 \
	    "A:d/e/new A:df A:fd/x A:new\\nline A:o-x A:o.d/x/z A:o.txt A:o/y A:o0 A:rn-new A:sub/deep/nested/file2 A:tab	here A:ä utf8 D:d/g/h D:df/inner D:fd D:rn-old M:a M:gl M:x T:gl2 T:l"
	same "$r" "$fmt: topic after merging main (merge base = main1)" main topic
	[ "$(git -C "$r" merge-base main topic)" = "$(git -C "$r" rev-parse main~1)" ] &&
		ok "$fmt: oracle: the merge base is main1, not the fork" || nok "$fmt: oracle: merge base unexpected"
	same "$r" "$fmt: main since topic (the other way round)" topic main
	same "$r" "$fmt: criss-cross cx2 against cy2 (two merge bases)" cy cx
	same "$r" "$fmt: criss-cross cy2 against cx2" cx cy
	nb=$(git -C "$r" merge-base --all cx cy | wc -l)
	[ "$nb" -eq 2 ] && ok "$fmt: oracle: criss-cross has 2 merge bases" || nok "$fmt: criss-cross has $nb merge bases"
	same "$r" "$fmt: REV an ancestor of BASE (empty list)" main main~2 ""
	same "$r" "$fmt: REV = BASE (empty list)" topic topic ""
	same "$r" "$fmt: annotated tag as REV" main v-topic
	same "$r" "$fmt: annotated tag as --base" v-base topic
	same "$r" "$fmt: tag of a tag as --base" v-base2 v-topic
	same "$r" "$fmt: ids as revisions" "$(git -C "$r" rev-parse main)" "$(git -C "$r" rev-parse topic~1)"
	same "$r" "$fmt: submodules (gitlinks) added" "v-base~1" v-base "A:gl A:gl2"
	# default --base HEAD; no -C: found from a subdirectory
	expected "$r" HEAD topic "$tmp/want"
	(cd "$r/sub/deep" && "$G" changes topic) >"$tmp/got" 2>"$tmp/err"
	cmp -s "$tmp/want" "$tmp/got" && ok "$fmt: no -C, no --base: HEAD of the repository around the cwd" ||
		nok "$fmt: no -C: $(cat "$tmp/err")"
	"$G" changes -C "$r" -- topic >"$tmp/got2" 2>"$tmp/err"
	cmp -s "$tmp/want" "$tmp/got2" && ok "$fmt: -- before REV" || nok "$fmt: -- before REV: $(cat "$tmp/err")"

	refused "$fmt: unrelated histories" "no merge base" -C "$r" --base main lonely
	refused "$fmt: unknown revision" "unknown revision" -C "$r" --base main nosuch
	refused "$fmt: unknown --base" "unknown revision" -C "$r" --base nosuch main
	refused "$fmt: a tree as REV" "does not name a commit" -C "$r" "main^{tree}"

	# bounds: paths of 4096 and 4097 octets, made with plumbing
	(
	cd "$r" || exit 1
	name255=$(printf '%0255d' 0 | tr 0 n)
	for total in 4096 4097; do
		blob=$(echo deep | git hash-object -w --stdin)
		# 15 directories of 255 octets and 15 slashes, then a file name
		last=$(printf "%0$((total - 15 * 256))d" 0 | tr 0 f)
		t=$(printf '100644 blob %s\t%s\n' "$blob" "$last" | git mktree) || exit 1
		i=0
		while [ $i -lt 15 ]; do
			t=$(printf '040000 tree %s\t%s\n' "$t" "$name255" | git mktree) || exit 1
			i=$((i + 1))
		done
		c=$(GIT_COMMITTER_DATE="$ts +0000" GIT_AUTHOR_DATE="$ts +0000" git commit-tree -p main -m "long $total" "$t") || exit 1
		git update-ref "refs/heads/long$total" "$c"
	done
	) || nok "$fmt: making long paths failed"
	same "$r" "$fmt: a path of exactly 4096 octets is listed" main long4096
	refused "$fmt: a path of 4097 octets (over GX_CHANGES_MAX_PATH)" "longer than GX_" -C "$r" --base main long4097

	# hand-made trees
	blob=$(echo x | git -C "$r" hash-object -w --stdin)
	python3 - "$r" "$blob" "$fmt" <<'EOF' >"$tmp/bad" || nok "$fmt: making bad trees failed"
import subprocess, sys
repo, blob, fmt = sys.argv[1], bytes.fromhex(sys.argv[2]), sys.argv[3]
def obj(kind, data):
    return subprocess.run(['git', '-C', repo, 'hash-object', '-t', kind, '-w', '--literally', '--stdin'],
                          input=data, capture_output=True, check=True).stdout.decode().strip()
def commit(tree, name):
    c = subprocess.run(['git', '-C', repo, 'commit-tree', '-p', 'main', '-m', name, tree],
                       capture_output=True, check=True).stdout.decode().strip()
    subprocess.run(['git', '-C', repo, 'update-ref', 'refs/heads/' + name, c], check=True)
commit(obj('tree', b'100644 ..\0' + blob), 'dotdot')
commit(obj('tree', b'100644 b\0' + blob + b'100644 a\0' + blob), 'unsorted')
commit(obj('tree', b'100644 a/b\0' + blob), 'slash')
EOF
	refused "$fmt: a tree entry named .." '"\.\."' -C "$r" --base main dotdot
	if [ "$fmt" = sha256 ]; then
		refused "$fmt: own reader: tree entries out of order" "not in tree order" -C "$r" --base main unsorted
		refused "$fmt: own reader: a tree entry name with /" "an entry's name" -C "$r" --base main slash
	fi

	# random histories: branches, merges, skewed dates; sample pairs
	rr=$tmp/rand-$fmt
	python3 - "$rr" "$fmt" <<'EOF' >"$tmp/rand.log" 2>&1 || nok "$fmt: random history failed: $(tail -3 "$tmp/rand.log")"
import os, random, subprocess, sys
repo, fmt = sys.argv[1], sys.argv[2]
rng = random.Random(16 if fmt == 'sha1' else 17)
def git(*a, env=None):
    return subprocess.run(['git', '-C', repo] + list(a), capture_output=True, check=True,
                          env=env).stdout.decode().strip()
subprocess.run(['git', 'init', '-q', '--object-format=' + fmt, repo], check=True)
ts = 1700000000
branches = ['main']
n = 0
def when():
    global ts
    ts += rng.choice([60, 60, 60, 3600, -7200, 0])   # skew and equal dates now and then
    e = dict(os.environ)
    e['GIT_AUTHOR_DATE'] = e['GIT_COMMITTER_DATE'] = '%d +0000' % ts
    return e
def work(b):
    global n
    if n:
        git('checkout', '-q', b)
    n += 1
    with open(os.path.join(repo, 'f%d' % (n % 7)), 'a') as f:
        f.write('%d\n' % n)
    os.makedirs(os.path.join(repo, 'dir%d' % (n % 3)), exist_ok=True)
    with open(os.path.join(repo, 'dir%d' % (n % 3), 'g%d' % n), 'w') as f:
        f.write('%d\n' % n)
    git('add', '-A')
    git('commit', '-q', '-m', 'c%d' % n, env=when())
work('main')
for step in range(100):
    r = rng.random()
    if r < 0.15 and len(branches) < 8:
        b = 'b%d' % len(branches)
        git('branch', b, rng.choice(branches))
        branches.append(b)
    elif r < 0.4 and len(branches) > 1:
        a, b = rng.sample(branches, 2)
        git('checkout', '-q', a)
        e = when()
        try:
            git('merge', '-q', '--no-edit', '-X', 'theirs', b, env=e)
        except subprocess.CalledProcessError:
            git('merge', '--abort')
    else:
        work(rng.choice(branches))
revs = git('rev-list', '--all').split()
rng.shuffle(revs)
pairs = [(branches[i], branches[j]) for i in range(len(branches)) for j in range(len(branches)) if i != j]
pairs += [(revs[i], revs[i + 1]) for i in range(0, min(len(revs) - 1, 30), 2)]
with open(os.path.join(repo, '..', 'pairs-' + fmt), 'w') as f:
    for a, b in pairs:
        f.write('%s %s\n' % (a, b))
EOF
	if [ -f "$tmp/pairs-$fmt" ]; then
		total=0 good=0 nobase=0
		while read -r a b; do
			total=$((total + 1))
			if ! git -C "$rr" merge-base "$a" "$b" >/dev/null 2>&1; then
				"$G" changes -C "$rr" --base "$a" "$b" >"$tmp/got" 2>/dev/null
				[ $? -eq 1 ] && [ ! -s "$tmp/got" ] && good=$((good + 1)) && nobase=$((nobase + 1))
				continue
			fi
			expected "$rr" "$a" "$b" "$tmp/want" &&
				"$G" changes -C "$rr" --base "$a" "$b" >"$tmp/got" 2>"$tmp/err" &&
				cmp -s "$tmp/want" "$tmp/got" && good=$((good + 1))
			cmp -s "$tmp/want" "$tmp/got" || echo "# differs: $a $b: $(head -2 "$tmp/want" | tr '\n' ' ') / $(head -2 "$tmp/got" | tr '\n' ' ') $(cat "$tmp/err")"
		done <"$tmp/pairs-$fmt"
		merges=$(git -C "$rr" rev-list --all --merges | wc -l)
		multi=0
		while read -r a b; do
			[ "$(git -C "$rr" merge-base --all "$a" "$b" 2>/dev/null | wc -l)" -gt 1 ] && multi=$((multi + 1))
		done <"$tmp/pairs-$fmt"
		if [ "$total" -gt 20 ] && [ "$good" -eq "$total" ] && [ "$merges" -gt 3 ]; then
			ok "$fmt: random history ($merges merges): all $total pairs as git ($multi with several merge bases, $nobase without)"
		else
			nok "$fmt: random history: $good of $total pairs as git ($merges merges)"
		fi
	fi
done

r=$tmp/sha1
refused "not a repository" "" -C "$tmp/nothere" main
usage "no REV" -C "$r"
usage "two REVs" -C "$r" main topic
usage "unknown option" -C "$r" --stat main
usage "--base without a value" -C "$r" --base
usage "empty REV" -C "$r" ""
"$G" 2>&1 | grep -q 'wotkit-git changes \[-C REPO\] \[--base REV\] \[--\] REV' &&
	ok "usage text names the changes mode" || nok "usage text lacks changes"
"$G" 2>&1 | grep -q 'wotkit-git fetch -C REPO \[--init\] \[--\] SOURCE \[BRANCH\]' &&
	ok "usage text names the fetch mode" || nok "usage text lacks fetch"

echo "# git_changes: $fails failed"
[ "$fails" -eq 0 ]
