#!/bin/sh
# tests/cli/pull_check.sh - `wotkit pull-check` (cmd/pullcheck*.c) end to
# end: the keys and keyring of the shared gpg-made fixture
# (tests/cli/lib/git_fixture.sh), the hand-written MAINTAINERS fixture
# (tests/cli/lib/maintainers.fixture), and a repository made here whose
# tags (signed with real gpg through `git tag -s`) touch files inside and
# outside their signers' sections:
#   v-a       a (ALPHA DRIVER): ALPHA files, an X:-excluded one, GAMMA's, Makefile
#   v-a2      a, one commit on top of v-a's (--base v-a's branch: only that one)
#   v-clean   a: only ALPHA files (modified, added, a deleted F: file)
#   v-b       b (M: BETA, R: ALPHA): F: drivers/beta (a directory here),
#             drivers/betamax.c (not below it), an ALPHA file (R: does not count)
#   v-untrusted, v-unsigned   the same commit as v-b
#   v-root    root (THE REST: F: * and F: */): everything is its own
#   v-a-rest  a, the same commit: N: sun[x4-9]i, X: net/gamma/*.h, F: lib/thing?.c
# Expected lists are written by hand from get_maintainer.pl's rules; the
# base and commit are checked against git merge-base / rev-parse; the tag
# block is verify-tag's own output. TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
WOTKIT=$W
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
check() { # name, command...: passes when the command succeeds
	n=$1; shift
	if "$@"; then ok "$n"; else nok "$n"; fi
}
if [ ! -x "$W" ] || [ ! -x "${WOTKIT_GIT:-$top/wotkit-git}" ]; then
	echo "not ok - pull_check: $W or wotkit-git is not built"
	exit 1
fi
for t in git gpg python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skip - pull_check: $t not installed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/cli/lib/git_fixture.sh"
git_fixture_or_exit pull_check "$tmp/fx"
FX=$tmp/fx
K=$FX/keyring.wk
M=$top/tests/cli/lib/maintainers.fixture
R=$tmp/repo
fpr() { awk -v n="$1" '$1 == n { print $2 }' "$FX/keys.tsv"; }

# ---- the repository (see the header)
make_repo() (
	unset GIT_DIR GIT_WORK_TREE
	GNUPGHOME=$FX/gen HOME=$tmp GIT_CONFIG_NOSYSTEM=1
	export GNUPGHOME HOME GIT_CONFIG_NOSYSTEM
	git init -q -b master "$R" && cd "$R" || exit 1
	git config user.name 'PC Committer' && git config user.email 'committer@example.org' &&
		git config commit.gpgsign false && git config tag.gpgsign false || exit 1
	w() { mkdir -p "$(dirname "$1")" && echo "$2" >>"$1"; }
	st() { git tag -s -u "$(fpr "$1")" -m "$3" "$2"; }
	w README base; w Makefile base; w drivers/alpha/a.c base; w drivers/beta/b.c base
	w net/gamma/g.c base; w include/linux/alpha.h base
	git add -A && git commit -q -m base || exit 1
	git checkout -q -b work master
	w drivers/alpha/a.c work; w drivers/alpha/sub/x.c work; w include/linux/alpha.h work
	w drivers/alpha/legacy/old.c work; w net/gamma/g.c work; w Makefile work
	git add -A && git commit -q -m work && st a v-a 'pull alpha' || exit 1
	git checkout -q -b work2 work
	w drivers/alpha/a.c work2
	git add -A && git commit -q -m work2 && st a v-a2 'pull alpha 2' || exit 1
	git checkout -q -b clean master
	w drivers/alpha/a.c clean; w drivers/alpha/sub/y.c clean; git rm -q include/linux/alpha.h
	git add -A && git commit -q -m clean && st a v-clean 'pull alpha clean' || exit 1
	git checkout -q -b beta master
	w drivers/beta/b.c beta; w drivers/beta/new/n.c beta; w drivers/betamax.c beta
	w drivers/alpha/a.c beta
	git add -A && git commit -q -m beta && st b v-b 'pull beta' &&
		st untrusted v-untrusted 'pull beta, untrusted' &&
		git tag -a -m 'unsigned' v-unsigned || exit 1
	git checkout -q -b rest master
	w arch/arm/mach-sun8i/s.c rest; w lib/thing1.c rest; w net/gamma/g.h rest; w TOPLEVEL rest
	git add -A && git commit -q -m rest && st root v-root 'pull rest' &&
		st a v-a-rest 'pull rest, by a' || exit 1
	git tag light master
	git checkout -q --orphan lonely && git rm -rqf . && w lonely.txt x && git add -A &&
		git commit -q -m lonely && st a v-lonely 'no merge base' || exit 1
	git checkout -q master
)
if ! make_repo >"$tmp/repo.out" 2>&1; then
	cat "$tmp/repo.out" >&2
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	echo "not ok - pull_check: making the repository failed"
	exit 1
fi
gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null

pc() { "$W" pull-check -C "$R" --keyring "$K" "$@"; }
pcm() { pc --maintainers "$M" "$@"; }
jget() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
same() { # name, expected file, got file
	if cmp -s "$2" "$3"; then ok "$1"; else nok "$1"; diff "$2" "$3" | sed 's/^/#   /' | head -20; fi
}
# the report after the tag block and the changes line
tail_of() { sed -n '/^changes: /,$p' "$1" | sed 1d; }
mb() { git -C "$R" merge-base "${2:-master}" "$1"; }
cid() { git -C "$R" rev-parse "$1^{commit}"; }

# ---- v-a: three files outside a's section
pcm v-a >"$tmp/a.txt" 2>"$tmp/a.err"; rc=$?
check "v-a: exit 1 (got $rc)" [ $rc -eq 1 ]
check "v-a: nothing on stderr" [ ! -s "$tmp/a.err" ]
"$W" verify-tag -C "$R" --keyring "$K" v-a >"$tmp/a.vt"
sed '/^changes: /,$d' "$tmp/a.txt" >"$tmp/a.head"
same "v-a: the tag block is verify-tag's" "$tmp/a.vt" "$tmp/a.head"
check "v-a: changes line (git merge-base, rev-parse)" \
	grep -qx "changes: 6 files from merge base $(mb v-a) to commit $(cid v-a)" "$tmp/a.txt"
cat >"$tmp/a.want" <<'EOF'
signer's addresses: a@example.org
outside the signer's sections (3 of 6):
  M Makefile
      THE REST: root@example.org
  A drivers/alpha/legacy/old.c
      THE REST: root@example.org
  M net/gamma/g.c
      GAMMA NETWORKING: revoked@example.org, nobody@example.org, unknown@example.org
      THE REST: root@example.org
result: good, trusted; 3 of 6 files outside the signer's sections
EOF
tail_of "$tmp/a.txt" >"$tmp/a.got"
same "v-a: files outside (X: excludes legacy/, GAMMA and THE REST)" "$tmp/a.want" "$tmp/a.got"

# ---- v-clean: everything inside (a deleted F: file counts too)
pcm v-clean >"$tmp/c.txt"; rc=$?
check "v-clean: exit 0 (got $rc)" [ $rc -eq 0 ]
printf '%s\n' "signer's addresses: a@example.org" \
	"result: good, trusted; 0 of 3 files outside the signer's sections" >"$tmp/c.want"
tail_of "$tmp/c.txt" >"$tmp/c.got"
same "v-clean: nothing outside" "$tmp/c.want" "$tmp/c.got"

# ---- --base
pcm v-a2 >"$tmp/a2.txt"; rc=$?
check "v-a2 from HEAD: exit 1 (got $rc)" [ $rc -eq 1 ]
check "v-a2 from HEAD: 6 files" grep -q '^changes: 6 files from merge base ' "$tmp/a2.txt"
pcm --base work v-a2 >"$tmp/a2b.txt"; rc=$?
check "v-a2 --base work: exit 0 (got $rc)" [ $rc -eq 0 ]
check "v-a2 --base work: one file from the merge base with work" \
	grep -qx "changes: 1 file from merge base $(mb v-a2 work) to commit $(cid v-a2)" "$tmp/a2b.txt"
check "v-a2 --base work: that base is v-a's commit" [ "$(mb v-a2 work)" = "$(cid v-a)" ]
pcm v-a2 --base work >"$tmp/a2c.txt"; rc=$?
check "TAG before --base (the issue's order): exit 0 (got $rc)" [ $rc -eq 0 ]
check "TAG before --base: the same report" cmp -s "$tmp/a2b.txt" "$tmp/a2c.txt"

# ---- v-b: a directory without '/', R: does not count
pcm v-b >"$tmp/b.txt"; rc=$?
check "v-b: exit 1 (got $rc)" [ $rc -eq 1 ]
cat >"$tmp/b.want" <<'EOF'
signer's addresses: b@example.org
outside the signer's sections (2 of 4):
  M drivers/alpha/a.c
      ALPHA DRIVER: a@example.org
      THE REST: root@example.org
  A drivers/betamax.c
      THE REST: root@example.org
result: good, trusted; 2 of 4 files outside the signer's sections
EOF
tail_of "$tmp/b.txt" >"$tmp/b.got"
same "v-b: files outside" "$tmp/b.want" "$tmp/b.got"
check "v-b: signed by b's subkey (verify-tag's lines)" \
	grep -qx "  primary:   $(fpr b)" "$tmp/b.txt"

# ---- untrusted and unsigned tags of the same commit
pcm v-untrusted >"$tmp/u.txt"; rc=$?
check "v-untrusted: exit 1 (got $rc)" [ $rc -eq 1 ]
check "v-untrusted: verdict line" grep -qx 'tag v-untrusted: good signature, untrusted' "$tmp/u.txt"
check "v-untrusted: result" grep -qx "result: good, untrusted; 2 of 4 files outside the signer's sections" "$tmp/u.txt"
pcm v-unsigned >"$tmp/n.txt"; rc=$?
check "v-unsigned: exit 1 (got $rc)" [ $rc -eq 1 ]
check "v-unsigned: no signer address" grep -qx "signer's addresses: (none)" "$tmp/n.txt"
check "v-unsigned: every file outside" grep -qx "result: unsigned; 4 of 4 files outside the signer's sections" "$tmp/n.txt"

# ---- THE REST, N:, X: with a glob, F: with '?'
pcm v-root >"$tmp/r.txt"; rc=$?
check "v-root: exit 0 (THE REST covers all) (got $rc)" [ $rc -eq 0 ]
pcm v-a-rest >"$tmp/ar.txt"; rc=$?
check "v-a-rest: exit 1 (got $rc)" [ $rc -eq 1 ]
cat >"$tmp/ar.want" <<'EOF'
signer's addresses: a@example.org
outside the signer's sections (4 of 4):
  A TOPLEVEL
      THE REST: root@example.org
  A arch/arm/mach-sun8i/s.c
      ARM/SUNXI PLATFORM: expired@example.org
      THE REST: root@example.org
  A lib/thing1.c
      ORPHANED THING: Somebody without an address
      THE REST: root@example.org
  A net/gamma/g.h
      THE REST: root@example.org
result: good, trusted; 4 of 4 files outside the signer's sections
EOF
tail_of "$tmp/ar.txt" >"$tmp/ar.got"
same "v-a-rest: N:, X: net/gamma/*.h, F: lib/thing?.c" "$tmp/ar.want" "$tmp/ar.got"

# ---- without --maintainers: the verdict and the changed files
pc v-b >"$tmp/nm.txt"; rc=$?
check "no MAINTAINERS, v-b: exit 0 (good, trusted) (got $rc)" [ $rc -eq 0 ]
printf '%s\n' '  M drivers/alpha/a.c' '  M drivers/beta/b.c' '  A drivers/beta/new/n.c' \
	'  A drivers/betamax.c' 'result: good, trusted' >"$tmp/nm.want"
tail_of "$tmp/nm.txt" >"$tmp/nm.got"
same "no MAINTAINERS: the changed files" "$tmp/nm.want" "$tmp/nm.got"
pc v-untrusted >/dev/null; rc=$?
check "no MAINTAINERS, v-untrusted: exit 1 (got $rc)" [ $rc -eq 1 ]
pc v-clean >"$tmp/cl.txt"
check "no MAINTAINERS: a deleted file is listed with D" grep -qx '  D include/linux/alpha.h' "$tmp/cl.txt"

# ---- JSON
pcm --json v-b >"$tmp/b.json"; rc=$?
check "json v-b: exit 1 (got $rc)" [ $rc -eq 1 ]
got=$(jget "$tmp/b.json" '(a["ok"], a["tag"]["verdict"], a["tag"]["good"], a["tag"]["trusted"], a["outside"])')
check "json v-b: ok, verdict, good, trusted, outside ($got)" [ "$got" = "(False, 'good', True, True, 2)" ]
got=$(jget "$tmp/b.json" '" ".join(f["status"] + ":" + f["path"] + ":" + str(f["inside"]) for f in a["files"])')
check "json v-b: files ($got)" [ "$got" = "M:drivers/alpha/a.c:False M:drivers/beta/b.c:True A:drivers/beta/new/n.c:True A:drivers/betamax.c:False" ]
got=$(jget "$tmp/b.json" '[[s["title"] for s in f["sections"]] for f in a["files"]][1]')
check "json v-b: sections of drivers/beta/b.c ($got)" [ "$got" = "['BETA SUBSYSTEM', 'THE REST']" ]
got=$(jget "$tmp/b.json" 'a["files"][1]["sections"][0]["maintainers"]')
check "json v-b: BETA's maintainers" [ "$got" = "['b@example.org', 'untrusted@example.org']" ]
check "json v-b: base and commit" \
	[ "$(jget "$tmp/b.json" 'a["base"] + " " + a["commit"]')" = "$(mb v-b) $(cid v-b)" ]
check "json v-b: signer and path" \
	[ "$(jget "$tmp/b.json" 'a["tag"]["signer"]["fpr"] + " " + ",".join(a["tag"]["path"])')" = "$(fpr b) $(fpr root),$(fpr a),$(fpr b)" ]
check "json v-b: signer e-mails" [ "$(jget "$tmp/b.json" 'a["signer_emails"]')" = "['b@example.org']" ]
pcm --json v-clean >"$tmp/c.json"; rc=$?
check "json v-clean: exit 0, ok true" [ $rc -eq 0 ] && [ "$(jget "$tmp/c.json" 'a["ok"]')" = True ]
pcm --json v-untrusted >"$tmp/u.json"
got=$(jget "$tmp/u.json" '(a["ok"], a["tag"]["verdict"], a["tag"]["good"], a["tag"]["trusted"], a["tag"]["path"])')
check "json v-untrusted ($got)" [ "$got" = "(False, 'untrusted', True, False, None)" ]
pcm --json v-unsigned >"$tmp/n.json"
got=$(jget "$tmp/n.json" '(a["tag"]["verdict"], a["tag"]["signer"], a["tag"]["good"], a["outside"])')
check "json v-unsigned ($got)" [ "$got" = "('unsigned', None, False, 4)" ]
pc --json v-b >"$tmp/nm.json"; rc=$?
got=$(jget "$tmp/nm.json" '(a["ok"], a["maintainers"], a["outside"], a["files"][0]["inside"], len(a["files"]))')
check "json without MAINTAINERS ($got, exit $rc)" [ "$got" = "(True, None, None, None, 4)" ] && [ $rc -eq 0 ]

# ---- errors: exit 2, nothing on stdout
err() { # name, args...
	n=$1; shift
	pc "$@" >"$tmp/e.out" 2>"$tmp/e.err"; rc=$?
	check "$n: exit 2 (got $rc)" [ $rc -eq 2 ]
	check "$n: a message" [ -s "$tmp/e.err" ]
	check "$n: nothing on stdout" [ ! -s "$tmp/e.out" ]
}
err "no such tag" nosuch
err "a lightweight tag (not a tag object)" light
err "--base names nothing" --base nosuch v-a
err "no merge base" v-lonely
err "no repository" -C "$tmp/none" v-a
err "MAINTAINERS missing" --maintainers "$tmp/none" v-a
err "no TAG"
err "two TAGs" v-a v-b
err "unknown option" --bogus v-a

# ---- the changes must belong to the verified tag: a wotkit-git that lies
# (WOTKIT_GIT, cmd/gitproc.h) about `changes` is refused, nothing printed
G=${WOTKIT_GIT:-$top/wotkit-git}
other=$(cid v-clean)
cat >"$tmp/liar" <<EOF
#!/bin/sh
[ "\$1" = changes ] || exec "$G" "\$@"
case \$LIE in
other) exec "$G" changes -C "$R" -- "$other" ;;
garbage) printf 'base zz\ncommit 1\n'; exit 0 ;;
late) "$G" "\$@"; exit 1 ;;
esac
EOF
chmod +x "$tmp/liar"
for lie in other garbage late; do
	LIE=$lie WOTKIT_GIT=$tmp/liar pcm v-a >"$tmp/l.out" 2>"$tmp/l.err"; rc=$?
	check "lying wotkit-git ($lie): exit 2 (got $rc)" [ $rc -eq 2 ]
	check "lying wotkit-git ($lie): nothing on stdout" [ ! -s "$tmp/l.out" ]
done
LIE=other WOTKIT_GIT=$tmp/liar pcm v-a >/dev/null 2>"$tmp/l.err"
check "lying wotkit-git: names both commits" grep -q "answered for commit $other, not the tag's $(cid v-a)" "$tmp/l.err"

# ---- a SHA-256 repository (wotkit-git's own reader): same answers
R2=$tmp/r256
if (
	unset GIT_DIR GIT_WORK_TREE
	GNUPGHOME=$FX/gen HOME=$tmp GIT_CONFIG_NOSYSTEM=1
	export GNUPGHOME HOME GIT_CONFIG_NOSYSTEM
	git init -q -b master --object-format=sha256 "$R2" && cd "$R2" &&
		git config user.name 'PC Committer' && git config user.email 'committer@example.org' &&
		mkdir -p drivers/alpha && echo 1 >drivers/alpha/a.c && echo 1 >Makefile &&
		git add -A && git commit -q -m base && git checkout -q -b w &&
		echo 2 >>drivers/alpha/a.c && echo 2 >>Makefile && git commit -q -am w &&
		git tag -s -u "$(fpr a)" -m 'sha256 tag' v256 && git checkout -q master
) >"$tmp/r256.out" 2>&1; then
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	"$W" pull-check -C "$R2" --keyring "$K" --maintainers "$M" v256 >"$tmp/s.txt"; rc=$?
	check "sha256: exit 1 (got $rc)" [ $rc -eq 1 ]
	check "sha256: changes line" grep -qx "changes: 2 files from merge base $(git -C "$R2" merge-base master v256) to commit $(git -C "$R2" rev-parse 'v256^{commit}')" "$tmp/s.txt"
	printf '%s\n' "signer's addresses: a@example.org" "outside the signer's sections (1 of 2):" \
		'  M Makefile' '      THE REST: root@example.org' \
		"result: good, trusted; 1 of 2 files outside the signer's sections" >"$tmp/s.want"
	tail_of "$tmp/s.txt" >"$tmp/s.got"
	same "sha256: files outside" "$tmp/s.want" "$tmp/s.got"
else
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	echo "skip - pull_check sha256: this git cannot make a SHA-256 repository"
fi

[ "$fails" -eq 0 ]
