#!/bin/sh
# gitsig_git.sh - the splitter (pgp/gitsig.c, through build/tests/gitsig_tool)
# against real git: odd tag and commit objects are written with
# `git hash-object --literally` into a SHA-1 and a SHA-256 repository, git
# verifies them with gpg.program (and the x509/ssh programs) set to a capture
# script that saves the signature file and stdin, and those bytes must equal
# what the splitter gives. Expected values come from git, never from us.
# TAP output; skips when git is missing.
top=$(cd "$(dirname "$0")/../.." && pwd)
TOOL=${GITSIG_TOOL:-$top/build/tests/gitsig_tool}
if ! command -v git >/dev/null 2>&1; then
	echo "skip - git not installed: splitter not compared with git"
	exit 0
fi
if [ ! -x "$TOOL" ]; then
	echo "not ok - gitsig_git: $TOOL is not built (make tests)"
	exit 1
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
pass=0 fail=0
ok() { echo "ok - $1"; pass=$((pass + 1)); }
nok() { echo "not ok - $1"; fail=$((fail + 1)); }

# The capture program: one script, three names (the format is its name).
# gpg/gpgsm: ARGS... --verify SIGFILE - ; ssh-keygen: -Y find-principals
# (answered "none", so git goes on) then -Y check-novalidate ... -s SIGFILE
# with the payload on stdin. Each call saves N.sig, N.payload, N.fmt.
cat >"$t/cap" <<'EOF'
#!/bin/sh
fmt=${0##*/cap-}
sig= prev=
for a; do
	case $prev in --verify|-s) sig=$a ;; esac
	case $a in find-principals) exit 1 ;; esac
	prev=$a
done
n=$(ls "$CAPDIR" | grep -c '\.sig$')
cp "$sig" "$CAPDIR/$n.sig"
cat >"$CAPDIR/$n.payload"
echo "$fmt" >"$CAPDIR/$n.fmt"
exit 1
EOF
chmod +x "$t/cap"
for f in openpgp x509 ssh; do ln -s "$t/cap" "$t/cap-$f"; done
: >"$t/allowed"
export CAPDIR="$t/cap.d"
GIT_CONFIG_NOSYSTEM=1; export GIT_CONFIG_NOSYSTEM
HOME=$t; export HOME
GIT_AUTHOR_NAME=a GIT_AUTHOR_EMAIL=a@example.org GIT_COMMITTER_NAME=c GIT_COMMITTER_EMAIL=c@example.org
export GIT_AUTHOR_NAME GIT_AUTHOR_EMAIL GIT_COMMITTER_NAME GIT_COMMITTER_EMAIL
rungit() { # repo, git args... (captures into a fresh $CAPDIR)
	r=$1; shift
	rm -rf "$CAPDIR"; mkdir "$CAPDIR"
	git -C "$r" -c gpg.program="$t/cap-openpgp" -c gpg.x509.program="$t/cap-x509" \
	    -c gpg.ssh.program="$t/cap-ssh" -c gpg.ssh.allowedSignersFile="$t/allowed" \
	    "$@" >"$t/git.out" 2>"$t/git.err"
	echo $? >"$t/git.rc"
}

# Compare $CAPDIR (git) with $t/exp.d (the splitter). A split whose format is
# "unknown" must be one git refuses ("bad/incompatible signature", no call).
compare() { # name
	name=$1 note=
	if grep -qx unknown "$t/exp.d"/*.fmt 2>/dev/null; then
		note="git refuses: bad/incompatible signature"
		for f in "$t/exp.d"/*.fmt; do
			grep -qx unknown "$f" && rm -f "${f%.fmt}".*
		done
		if ! grep -q 'bad/incompatible signature' "$t/git.err"; then
			nok "$name: splitter says unknown format, git did not refuse it"; return
		fi
	fi
	# git runs no program when the payload has no signer line
	# (gpg-interface.c parse_payload_metadata: tagger / committer header)
	for f in "$t/exp.d"/*.payload; do
		[ -f "$f" ] && [ ! -f "$CAPDIR/${f##*/}" ] || continue
		if ! sed '/^$/q' "$f" | grep -q '^\(tagger\|committer\) [^<]*<[^>]*> [0-9]'; then
			rm -f "${f%.payload}".*
			note="git runs nothing: the payload has no tagger/committer"
		fi
	done
	a=$(cd "$CAPDIR" && ls | sort | tr '\n' ' ')
	b=$(cd "$t/exp.d" && ls | sort | tr '\n' ' ')
	if [ "$a" != "$b" ]; then
		nok "$name: git ran the program for [$a], the splitter gives [$b]"
		sed 's/^/# git: /' "$t/git.err" | head -3
		return
	fi
	for f in $a; do
		if ! cmp -s "$CAPDIR/$f" "$t/exp.d/$f"; then
			nok "$name: $f differs from git's"
			diff "$CAPDIR/$f" "$t/exp.d/$f" | head -6 | sed 's/^/# /'
			return
		fi
	done
	if [ -n "$note" ]; then ok "$name ($note)"
	elif [ -z "$a" ]; then ok "$name (unsigned for git and for us)"
	else ok "$name ($(echo $a | wc -w) files equal)"; fi
}

split() { # kind, objfile [, first]
	rm -rf "$t/exp.d"; mkdir "$t/exp.d"
	"$TOOL" "$1" "$2" "$t/exp.d" $3 >/dev/null || nok "gitsig_tool $1 failed on $2"
}

TAGGER='tagger T Agger <t@example.org> 1700000000 +0000'
COMMITTER='committer C Ommitter <c@example.org> 1700000000 +0000'
AUTHOR='author A Uthor <a@example.org> 1700000000 +0000'
SIG='-----BEGIN PGP SIGNATURE-----\n\niHUEABYKAB0WIQQ=\n=abcd\n-----END PGP SIGNATURE-----\n'
SIG2='-----BEGIN PGP SIGNATURE-----\n\nc2Vjb25k\n-----END PGP SIGNATURE-----\n'
# a signature as commit header continuation lines
CSIG=' -----BEGIN PGP SIGNATURE-----\n \n iHUEABYKAB0WIQQ=\n =abcd\n -----END PGP SIGNATURE-----\n'

c() { printf '%s\n' "$1"; } # one case: NAME|printf-%b text of the object
# tag objects
tag_cases() {
	H="object $OBJ\ntype commit\ntag v1\n$TAGGER\n"
	c "tag-plain|$H\nmessage\n$SIG"
	c "tag-text-after-end|$H\nmessage\n$SIG""trailing text\nmore\n"
	c "tag-crlf|object $OBJ\r\ntype commit\r\ntag v1\r\n$TAGGER\r\n\r\nmessage\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\niHUE\r\n-----END PGP SIGNATURE-----\r\n"
	c "tag-two-blocks|$H\nmessage\n$SIG$SIG2"
	c "tag-no-trailing-newline|$H\nmessage\n-----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----"
	c "tag-header-not-at-line-start|$H\nmessage\n  -----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
	c "tag-header-mid-line|$H\nmessage -----BEGIN PGP SIGNATURE-----\n\niHUE\n-----END PGP SIGNATURE-----\n"
	c "tag-header-with-suffix|$H\nmessage\n-----BEGIN PGP SIGNATURE-----xyz\niHUE\n"
	c "tag-pgp-message|$H\nmessage\n-----BEGIN PGP MESSAGE-----\n\niHUE\n-----END PGP MESSAGE-----\n"
	c "tag-x509|$H\nmessage\n-----BEGIN SIGNED MESSAGE-----\nMIIB\n-----END SIGNED MESSAGE-----\n"
	c "tag-ssh|$H\nmessage\n-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"
	c "tag-pgp-then-ssh|$H\nmessage\n$SIG-----BEGIN SSH SIGNATURE-----\nU1NIU0lH\n-----END SSH SIGNATURE-----\n"
	c "tag-only-header-line|$H\nmessage\n-----BEGIN PGP SIGNATURE-----"
	c "tag-signature-in-headers|object $OBJ\ntype commit\n-----BEGIN PGP SIGNATURE-----\ntag v1\n$TAGGER\n\nmessage\n"
	c "tag-gpgsig-header|$H""gpgsig foo\n bar\n\nmessage\n$SIG"
	c "tag-gpgsig-sha256-header|$H""gpgsig-sha256 foo\n bar\n baz\n\nmessage\n$SIG"
	c "tag-gpgsig-both-adjacent|$H""gpgsig a\n a2\ngpgsig-sha256 b\n b2\n\nmessage\n$SIG"
	c "tag-gpgsig-both-separated|object $OBJ\ngpgsig a\n a2\ntype commit\ngpgsig-sha256 b\n b2\ntag v1\n$TAGGER\n\nmessage\n$SIG"
	c "tag-gpgsigx-header|$H""gpgsigx a\n a2\n\nmessage\n$SIG"
	c "tag-gpgsig-then-gpgsigx|$H""gpgsig a\ngpgsigx b\n b2\n\nmessage\n$SIG"
	c "tag-gpgsig-in-message|$H\ngpgsig a\n a2\n$SIG"
	c "tag-gpgsig-crlf-blank|object $OBJ\r\ntype commit\r\ntag v1\r\n$TAGGER\n\r\ngpgsig x\n y\n$SIG"
	c "tag-unsigned|$H\nmessage\n"
	c "tag-empty-message|$H\n$SIG"
	c "tag-nul-byte|$H\nmes\0sage\n$SIG"
}

# commit objects (after tree/parent lines)
commit_cases() {
	H="$AUTHOR\n$COMMITTER\n"
	c "commit-sig|$H""$S$CSIG\nmessage\n"
	c "commit-other-header|$H""$O$CSIG\nmessage\n"
	c "commit-both|$H""$S$CSIG""$O -----BEGIN PGP SIGNATURE-----\n \n b3RoZXI=\n -----END PGP SIGNATURE-----\n\nmessage\n"
	c "commit-both-reversed|$H""$O -----BEGIN PGP SIGNATURE-----\n \n b3RoZXI=\n -----END PGP SIGNATURE-----\n$S$CSIG\nmessage\n"
	c "commit-sig-after-blank|$H\nmessage\n$S$CSIG"
	c "commit-sig-not-at-line-start|$H"" $S$CSIG\nmessage\n"
	c "commit-sig-double-space|$H""$S $CSIG\nmessage\n"
	c "commit-sigx|$H""gpgsigx foo\n bar\n$S$CSIG\nmessage\n"
	c "commit-sig-no-value|$H""$S\n bar\n$S$CSIG\nmessage\n"
	c "commit-two-gpgsig|$H""$S$CSIG""encoding UTF-8\n$S$CSIG\nmessage\n"
	c "commit-empty-continuations|$H""$S -----BEGIN PGP SIGNATURE-----\n \n \n iHUE\n \n -----END PGP SIGNATURE-----\n\nmessage\n"
	c "commit-crlf|author A Uthor <a@example.org> 1700000000 +0000\r\n$COMMITTER\r\n$S -----BEGIN PGP SIGNATURE-----\r\n \r\n iHUE\r\n -----END PGP SIGNATURE-----\r\n\r\nmessage\r\n$S in-body\r\n"
	c "commit-no-trailing-newline|$H""$S$CSIG\nmessage"
	c "commit-sig-last-line|$H""$S -----BEGIN PGP SIGNATURE-----\n iHUE\n -----END PGP SIGNATURE-----"
	c "commit-x509|$H""$S -----BEGIN SIGNED MESSAGE-----\n MIIB\n -----END SIGNED MESSAGE-----\n\nmessage\n"
	c "commit-ssh|$H""$S -----BEGIN SSH SIGNATURE-----\n U1NIU0lH\n -----END SSH SIGNATURE-----\n\nmessage\n"
	c "commit-pgp-message|$H""$S -----BEGIN PGP MESSAGE-----\n iHUE\n -----END PGP MESSAGE-----\n\nmessage\n"
	c "commit-garbage-sig|$H""$S garbage\n more\n\nmessage\n"
	c "commit-unsigned|$H\nmessage\n"
}

# merge commits with mergetag headers (after tree/parent lines); a tag value
# as continuation lines: its blank line is " \n"
mergetag_cases() {
	H="$AUTHOR\n$COMMITTER\n"
	MT="mergetag object $P2\n type commit\n tag v1\n $TAGGER\n \n merged\n -----BEGIN PGP SIGNATURE-----\n \n iHUE\n -----END PGP SIGNATURE-----\n"
	c "merge-mergetag|$MT$H\nMerge\n"
	c "merge-mergetag-and-gpgsig|$MT$H""$S$CSIG\nMerge\n"
	c "merge-two-mergetags|$MT""mergetag object $P1\n type commit\n tag v0\n $TAGGER\n \n other\n -----BEGIN SSH SIGNATURE-----\n U1NI\n -----END SSH SIGNATURE-----\n$H\nMerge\n"
	c "merge-mergetag-nested-gpgsig|mergetag object $P2\n type commit\n tag v1\n $TAGGER\n gpgsig inner\n  inner2\n \n merged\n -----BEGIN PGP SIGNATURE-----\n iHUE\n -----END PGP SIGNATURE-----\n$H\nMerge\n"
	c "merge-mergetag-two-blocks|mergetag object $P2\n type commit\n tag v1\n $TAGGER\n \n merged\n -----BEGIN PGP SIGNATURE-----\n iHUE\n -----END PGP SIGNATURE-----\n -----BEGIN PGP SIGNATURE-----\n c2Vj\n -----END PGP SIGNATURE-----\n$H\nMerge\n"
	c "merge-mergetag-unsigned|mergetag object $P2\n type commit\n tag v1\n $TAGGER\n \n merged\n$H\nMerge\n"
	c "merge-mergetag-crlf|mergetag object $P2\r\n type commit\r\n tag v1\r\n $TAGGER\r\n \r\n merged\r\n -----BEGIN PGP SIGNATURE-----\r\n iHUE\r\n -----END PGP SIGNATURE-----\r\n$H\nMerge\n"
	c "merge-mergetagx-ignored|mergetagx object $P2\n -----BEGIN PGP SIGNATURE-----\n$MT$H\nMerge\n"
	c "merge-mergetag-in-body|$H\nMerge\n$MT"
}

each_case() { # generator, handler
	$1 >"$t/cases"
	while IFS='|' read -r name body; do
		$2 "$name" "$body"
	done <"$t/cases"
}

obj() { # type, printf-%b body -> object id (and $t/obj.raw)
	printf '%b' "$2" >"$t/obj.in"
	git -C "$R" hash-object -t "$1" -w --literally "$t/obj.in"
}

do_tag() {
	id=$(obj tag "$2") || { nok "$HASH $1: hash-object"; return; }
	rungit "$R" verify-tag --raw "$id"
	git -C "$R" cat-file tag "$id" >"$t/obj.raw"
	split tag "$t/obj.raw"
	compare "$HASH $1 (verify-tag)"
	# the same tag object embedded as a mergetag of a merge commit (one more
	# newline when the tag lacks its last one: the value then ends in it)
	[ -s "$t/obj.raw" ] || return
	{
		printf 'tree %s\nparent %s\nparent %s\n' "$TREE" "$P1" "$P2"
		sed '1s/^/mergetag /; 2,$s/^/ /' "$t/obj.raw"
		[ "$(tail -c 1 "$t/obj.raw" | od -An -c | tr -d ' ')" = '\n' ] || printf '\n'
		printf '%s\n%s\n\nMerge\n' "$AUTHOR" "$COMMITTER"
	} >"$t/obj.in"
	cid=$(git -C "$R" hash-object -t commit -w --literally "$t/obj.in") || { nok "$HASH $1 as mergetag: hash-object"; return; }
	rungit "$R" log -1 --show-signature --format=%H "$cid"
	git -C "$R" cat-file commit "$cid" >"$t/obj.raw"
	split mergetags "$t/obj.raw"
	compare "$HASH $1 (as a mergetag, git log --show-signature)"
}

commit_obj() { # body -> id
	obj commit "tree $TREE\nparent $P1\n$1"
}

do_commit() {
	id=$(commit_obj "$2") || { nok "$HASH $1: hash-object"; return; }
	rungit "$R" verify-commit --raw "$id"
	git -C "$R" cat-file commit "$id" >"$t/obj.raw"
	split "$CKIND" "$t/obj.raw"
	compare "$HASH $1 (verify-commit)"
	rungit "$R" log -1 --show-signature --format=%H "$id"
	split "$CKIND" "$t/obj.raw"
	compare "$HASH $1 (log --show-signature)"
}

do_merge() {
	id=$(obj commit "tree $TREE\nparent $P1\nparent $P2\n$2") || { nok "$HASH $1: hash-object"; return; }
	rungit "$R" log -1 --show-signature --format=%H "$id"
	git -C "$R" cat-file commit "$id" >"$t/obj.raw"
	split "$CKIND" "$t/obj.raw"
	n=$(ls "$t/exp.d" | grep -c '\.sig$')
	"$TOOL" mergetags "$t/obj.raw" "$t/exp.d" "$n" >/dev/null || nok "$HASH $1: gitsig_tool mergetags"
	compare "$HASH $1 (log --show-signature)"
}

for HASH in sha1 sha256; do
	R=$t/repo-$HASH
	if ! git init -q --object-format=$HASH "$R" 2>"$t/init.err"; then
		echo "skip - git init --object-format=$HASH: $(head -1 "$t/init.err")"
		continue
	fi
	# S: this repository's commit signature header, O: the other one
	CKIND=commit S=gpgsig O=gpgsig-sha256
	[ $HASH = sha256 ] && CKIND=commit256 S=gpgsig-sha256 O=gpgsig
	TREE=$(git -C "$R" mktree </dev/null)
	P1=$(git -C "$R" commit-tree -m p1 "$TREE")
	P2=$(git -C "$R" commit-tree -m p2 "$TREE")
	OBJ=$P2
	each_case tag_cases do_tag
	each_case commit_cases do_commit
	each_case mergetag_cases do_merge
done
echo "# gitsig_git: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
