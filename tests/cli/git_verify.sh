#!/bin/sh
# tests/cli/git_verify.sh - `wotkit verify-tag` / `wotkit verify-commit`
# (cmd/gitverify*.c) and `wotkit-git objects` (cmd/git/objects.c, walk.c),
# end to end on the shared gpg-made fixture (tests/cli/lib/git_fixture.sh):
#   - the built-in verdict of every ref in refs.tsv, and its exit code;
#   - the signer's fingerprints (primary and signing key), the path to the
#     root, validity, --json fields, the mergetag of the merge;
#   - --min-trust marginal|full|ultimate against GnuPG's validity;
#   - ranges: A..B lists every commit of `git rev-list A..B` once, in that
#     order, then every annotated tag pointing into it; A.. and ..B; random
#     ranges over a generated history with merges and skewed dates;
#   - exit codes: a missing ref, a non-tag given to verify-tag, a tag given
#     to verify-commit, no repository, a broken stream from wotkit-git;
#   - a SHA-256 repository (wotkit's own reader);
#   - 1,000 signed commits verified by `verify-commit A..B` in < 150 ms
#     (signatures made by tests/cli/lib/sign_commits.py, python3-cryptography;
#     skipped without it).
# TAP-style output.
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
	echo "not ok - git_verify: $W or wotkit-git is not built"
	exit 1
fi
for t in git gpg python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skip - git_verify: $t not installed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/cli/lib/git_fixture.sh"
git_fixture_or_exit git_verify "$tmp/fx"
FX=$tmp/fx
R=$FX/repo
K=$FX/keyring.wk
vt() { "$W" verify-tag -C "$R" --keyring "$K" "$@"; }
vc() { "$W" verify-commit -C "$R" --keyring "$K" "$@"; }
fpr() { awk -v n="$1" '$1 == n { print $2 }' "$FX/keys.tsv"; }
sfpr() { awk -v n="$1" '$1 == n { print $5 }' "$FX/keys.tsv"; }
# jq-like: python3 expression over the parsed JSON array `a`
jget() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
jget_ok() { jget "$@" >/dev/null; }

# ---- every ref of refs.tsv: verdict, exit code, signer
while IFS='	' read -r ref kind verdict letter; do
	if [ "$kind" = tag ]; then
		vt --json "$ref" >"$tmp/o.json"
	else
		vc --json "$ref" >"$tmp/o.json"
	fi
	rc=$?
	got=$(jget "$tmp/o.json" 'a[0]["verdict"]' 2>/dev/null)
	check "$ref: verdict $verdict (got $got)" [ "$got" = "$verdict" ]
	want_rc=1
	[ "$verdict" = good ] && want_rc=0
	check "$ref: exit $want_rc (got $rc)" [ "$rc" -eq "$want_rc" ]
	signer=$(awk -v r="$ref" '$1 == r { print $2 }' "$FX/signers.tsv")
	case "$verdict" in good|untrusted|expired-key|revoked-key|bad)
		got=$(jget "$tmp/o.json" 'a[0]["signer"]["fpr"] + " " + a[0]["signer"]["signing_key"]')
		check "$ref: signer $signer (primary and signing key fingerprints)" \
			[ "$got" = "$(fpr "$signer") $(sfpr "$signer")" ] ;;
	esac
done <"$FX/refs.tsv"

# ---- a validly signed tag without a tagger line: git 2.39 runs no program
# for it and reports it unverified; the built-in verdict must not be good
head=$(git -C "$R" rev-parse base)
printf 'object %s\ntype commit\ntag t-notagger\n\nno tagger here\n' "$head" >"$tmp/nt.payload"
if gpg --homedir "$FX/gen" --batch -q --pinentry-mode loopback --passphrase '' \
	-u a@example.org -a --detach-sign -o "$tmp/nt.sig" "$tmp/nt.payload" 2>"$tmp/nt.err"; then
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	cat "$tmp/nt.payload" "$tmp/nt.sig" >"$tmp/nt.obj"
	id=$(git -C "$R" hash-object -t tag -w --literally "$tmp/nt.obj") &&
		git -C "$R" update-ref refs/tags/t-notagger "$id"
	GNUPGHOME="$FX/gnupg" git -C "$R" -c gpg.program=gpg verify-tag t-notagger >/dev/null 2>&1
	check "no tagger: git with real gpg refuses it" [ $? -ne 0 ]
	vt --json t-notagger >"$tmp/o.json"; rc=$?
	check "no tagger: exit 1 (got $rc)" [ "$rc" -eq 1 ]
	check "no tagger: verdict malformed" [ "$(jget "$tmp/o.json" 'a[0]["verdict"]')" = malformed ]
	git -C "$R" tag -d t-notagger >/dev/null
else
	cat "$tmp/nt.err" >&2
	nok "no tagger: signing the payload with gpg"
fi
check "refs.tsv has every kind of ref" [ "$(wc -l <"$FX/refs.tsv")" -ge 18 ]

# ---- human output: verdict line, signer, fingerprints, time, validity, path
vt t-b >"$tmp/h.txt"
check "human: verdict line" grep -qx 'tag t-b: good signature, trusted' "$tmp/h.txt"
check "human: signer uid" grep -q '^  signer:    b <b@example.org>$' "$tmp/h.txt"
check "human: signing subkey" grep -q "^  key:       $(sfpr b) (subkey)\$" "$tmp/h.txt"
check "human: primary" grep -q "^  primary:   $(fpr b)\$" "$tmp/h.txt"
check "human: signature time UTC" grep -Eq '^  signed:    [0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$' "$tmp/h.txt"
check "human: validity full" grep -q '^  validity:  full$' "$tmp/h.txt"
# the path as `wotkit wot path` prints it
"$W" wot path --keyring "$K" "$(fpr b)" | sed -n '1,/^$/p' >"$tmp/wp.txt"
sed -n '/^from /,/^$/p' "$tmp/h.txt" >"$tmp/hp.txt"
check "human: path = wot path's text (3 keys)" cmp -s "$tmp/wp.txt" "$tmp/hp.txt"
check "human: path has root, a, b" [ "$(grep -c '^from \|^   [12] ' "$tmp/hp.txt")" -eq 3 ]
vt t-untrusted >"$tmp/h.txt"
check "human: no path for untrusted" grep -q '^  path:      none' "$tmp/h.txt"
vt t-expired >"$tmp/h.txt"
check "human: expired signature time is T1" grep -q '^  signed:    2023-06-01T00:00:00Z$' "$tmp/h.txt"

# ---- --json fields
vt --json t-a t-unknown >"$tmp/j.json"
check "json: array of 2" [ "$(jget "$tmp/j.json" 'len(a)')" = 2 ]
check "json: every field of an object" [ "$(jget "$tmp/j.json" \
	'",".join(k for k in ["type","name","id","ok","verdict","reason","signer","issuer","created","validity","path"] if k not in a[0])')" = "" ]
check "json: signer fields" [ "$(jget "$tmp/j.json" '",".join(sorted(a[0]["signer"].keys()))')" = "fpr,signing_key,subkey,uid" ]
check "json: ok true, type tag, id 40 hex" [ "$(jget "$tmp/j.json" \
	'str(a[0]["ok"]) + a[0]["type"] + str(len(a[0]["id"]))')" = "Truetag40" ]
check "json: validity full, path root->a" [ "$(jget "$tmp/j.json" \
	'a[0]["validity"] + " " + " ".join(k["fpr"] for k in a[0]["path"])')" = "full $(fpr root) $(fpr a)" ]
check "json: created ISO 8601 UTC" jget_ok "$tmp/j.json" \
	'__import__("re").fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", a[0]["created"]).group(0)'
check "json: unknown key: issuer fingerprint, no signer" [ "$(jget "$tmp/j.json" \
	'str(a[1]["signer"]) + " " + a[1]["issuer"]')" = "None $(fpr unknown)" ]
vc --json c-merge >"$tmp/m.json"
check "json: mergetag t-mergesrc, a parent, good, by b" [ "$(jget "$tmp/m.json" \
	'" ".join([a[0]["mergetags"][0]["tag"], str(a[0]["mergetags"][0]["parent"]), a[0]["mergetags"][0]["verdict"], a[0]["mergetags"][0]["signer"]["fpr"], str(len(a[0]["mergetags"]))])')" = \
	"t-mergesrc True good $(fpr b) 1" ]
check "json: mergetag object = the merged parent" [ "$(jget "$tmp/m.json" 'a[0]["mergetags"][0]["object"]')" = \
	"$(git -C "$R" rev-parse c-merge^2)" ]
vc c-merge >"$tmp/h.txt"
check "human: mergetag line" grep -q '^  mergetag t-mergesrc (object [0-9a-f]*, a parent): good signature, trusted$' "$tmp/h.txt"

# ---- --min-trust (GnuPG validity: root ultimate, a full, b full through a)
vt --min-trust full t-b >/dev/null;      check "min-trust full: t-b good" [ $? -eq 0 ]
vt --min-trust ultimate t-b >/dev/null;  check "min-trust ultimate: t-b refused" [ $? -eq 1 ]
vt --min-trust ultimate t-root >/dev/null; check "min-trust ultimate: t-root good" [ $? -eq 0 ]
vt --min-trust marginal t-untrusted >/dev/null; check "min-trust marginal: t-untrusted refused" [ $? -eq 1 ]
vt --json --min-trust ultimate t-b >"$tmp/j.json"
check "min-trust: verdict untrusted with validity full" [ "$(jget "$tmp/j.json" 'a[0]["verdict"] + " " + a[0]["validity"]')" = "untrusted full" ]
vt --min-trust high t-b >/dev/null 2>&1; check "min-trust: bad level is usage (2)" [ $? -eq 2 ]
# ownertrust matters: without the trust file a is not an introducer, b is not valid
cp "$K" "$tmp/bare.wk"
"$W" verify-tag -C "$R" --keyring "$tmp/bare.wk" --min-trust marginal t-b >/dev/null
check "min-trust: without ownertrust, t-b refused" [ $? -eq 1 ]
"$W" verify-tag -C "$R" --keyring "$tmp/bare.wk" --min-trust full t-a >/dev/null
check "min-trust: without ownertrust, t-a (certified by the root) full" [ $? -eq 0 ]

# ---- exit codes and per-argument errors
vt no-such-tag >"$tmp/h.txt"; rc=$?
check "missing ref: exit 2" [ $rc -eq 2 ]
check "missing ref: 'unknown revision'" grep -q '^tag no-such-tag: error: unknown revision$' "$tmp/h.txt"
vt c-a >"$tmp/h.txt"; rc=$?
check "verify-tag of a commit: exit 2, 'not a tag'" [ $rc -eq 2 ] && grep -q 'error: not a tag' "$tmp/h.txt"
check "verify-tag of a commit: nothing verified" [ "$(grep -c verdict "$tmp/h.txt")" -eq 0 ]
vc t-a >"$tmp/h.txt"; rc=$?
check "verify-commit of a tag: exit 2, 'not a commit' (as git 2.39)" [ $rc -eq 2 ] && grep -q 'error: not a commit' "$tmp/h.txt"
vc 't-a^{commit}' >/dev/null; check "verify-commit TAG^{commit}: the unsigned base commit (1)" [ $? -eq 1 ]
vt t-a no-such-tag >/dev/null; check "good + missing: exit 2" [ $? -eq 2 ]
vt t-a t-untrusted >/dev/null; check "good + untrusted: exit 1" [ $? -eq 1 ]
vt t-a t-root t-b >/dev/null; check "all good: exit 0" [ $? -eq 0 ]
"$W" verify-tag -C "$tmp" --keyring "$K" t-a >/dev/null 2>"$tmp/e.txt"; rc=$?
check "no repository: exit 2 with a message" [ $rc -eq 2 ] && grep -q 'not a git repository' "$tmp/e.txt"
"$W" verify-tag --keyring "$K" >/dev/null 2>&1; check "no TAG: usage (2)" [ $? -eq 2 ]
"$W" verify-tag --bogus t-a >/dev/null 2>&1; check "unknown option: usage (2)" [ $? -eq 2 ]
(cd "$R" && "$W" verify-tag --keyring "$K" t-a >/dev/null); check "without -C: the current repository" [ $? -eq 0 ]
(cd "$R" && mkdir -p sub && cd sub && "$W" verify-tag --keyring "$K" t-a >/dev/null)
check "without -C: found from a subdirectory" [ $? -eq 0 ]

# ---- a broken stream from wotkit-git is an error (2), never a verdict
printf '#!/bin/sh\nprintf "WKGOBJ1\\n"\n' >"$tmp/cut-git"
printf '#!/bin/sh\nprintf "garbage"\n' >"$tmp/junk-git"
printf '#!/bin/sh\n%s "$@" | head -c 200\n' "${WOTKIT_GIT:-$top/wotkit-git}" >"$tmp/short-git"
chmod +x "$tmp/cut-git" "$tmp/junk-git" "$tmp/short-git"
for g in cut junk short; do
	WOTKIT_GIT=$tmp/$g-git vt t-a >/dev/null 2>"$tmp/e.txt"; rc=$?
	check "stream $g: exit 2, refused" [ $rc -eq 2 ] && grep -q 'refused' "$tmp/e.txt"
done
WOTKIT_GIT=$tmp/none-git vt t-a >/dev/null 2>"$tmp/e.txt"; rc=$?
check "wotkit-git missing: exit 2, 'cannot run'" [ $rc -eq 2 ] && grep -q 'cannot run' "$tmp/e.txt"

# ---- ranges
# list: the ids of a --json run, one per line, "type id name"
ids() { python3 -c 'import json,sys
for o in json.load(open(sys.argv[1])): print(o["type"], o["id"], o["name"])' "$1"; }
range_check() { # name A..B: commits = git rev-list A..B (order), then the tags into it
	"$W" verify-commit -C "$2" --keyring "$K" --json "$3" >"$tmp/r.json" 2>/dev/null
	ids "$tmp/r.json" | awk '$1 == "commit" { print $2 }' >"$tmp/got.txt"
	git -C "$2" rev-list "$3" >"$tmp/want.txt"
	check "$1: commits = git rev-list $3 ($(wc -l <"$tmp/want.txt"))" cmp -s "$tmp/got.txt" "$tmp/want.txt"
	ids "$tmp/r.json" | awk '$1 == "tag" { print $3 }' >"$tmp/gottags.txt"
	git -C "$2" for-each-ref --format='%(objecttype) %(refname) %(*objectname)' refs/tags |
		awk '$1 == "tag" { print $3, $2 }' | sort -k2 >"$tmp/alltags.txt"
	: >"$tmp/wanttags.txt"
	while read -r target ref; do
		grep -qx "$target" "$tmp/want.txt" && echo "$ref" >>"$tmp/wanttags.txt"
	done <"$tmp/alltags.txt"
	check "$1: tags into the range, each once, in ref order ($(wc -l <"$tmp/wanttags.txt"))" \
		cmp -s "$tmp/gottags.txt" "$tmp/wanttags.txt"
}
range_check "fixture base..c-merge" "$R" base..c-merge
check "base..c-merge holds t-mergesrc" grep -qx refs/tags/t-mergesrc "$tmp/gottags.txt"
vc base..c-merge >/dev/null; check "base..c-merge: unsigned side commits -> exit 1" [ $? -eq 1 ]
range_check "fixture c-a..c-b" "$R" c-a..c-b
git -C "$R" checkout -q c-a
range_check "fixture base.. (HEAD on the empty side)" "$R" base..
vc --json ..c-b >"$tmp/r.json"
check "..c-b: HEAD..c-b = one commit (c-b)" [ "$(ids "$tmp/r.json" | awk '{ print $2 }')" = "$(git -C "$R" rev-parse c-b)" ]
vc c-a..c-a >"$tmp/h.txt" 2>"$tmp/e.txt"; rc=$?
check "empty range: exit 0, said on stderr" [ $rc -eq 0 ] && grep -q 'nothing to verify' "$tmp/e.txt"
vc c-a...c-b >"$tmp/h.txt"; rc=$?
check "A...B: refused (2)" [ $rc -eq 2 ] && grep -q 'symmetric' "$tmp/h.txt"
vc nope..c-a >/dev/null; check "range with an unknown end: 2" [ $? -eq 2 ]
git -C "$R" checkout -q base

# a generated history: branches, merges, committer dates out of order
H=$tmp/hist
git init -q -b main "$H"
python3 - "$H" <<'EOF'
import hashlib, os, random, subprocess, sys, zlib
h = sys.argv[1]
random.seed(15)
def git(*a):
    return subprocess.run(["git", "-C", h] + list(a), capture_output=True, check=True,
                          text=True).stdout.strip()
def write(kind, body):   # a loose object, without a git process per commit
    obj = b"%s %d\0" % (kind, len(body)) + body
    oid = hashlib.sha1(obj).hexdigest()
    d = os.path.join(h, ".git", "objects", oid[:2])
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, oid[2:]), "wb") as f:
        f.write(zlib.compress(obj, 1))
    return oid
tree = write(b"tree", b"")
ids = []
for i in range(300):
    parents = []
    if ids:
        parents.append(random.choice(ids[-8:]))
        if random.random() < 0.25:
            p = random.choice(ids)
            if p not in parents:
                parents.append(p)
    t = 1700000000 + i * 60 + random.randint(-600, 600)   # skewed clocks
    if random.random() < 0.05:
        t -= 86400                                           # a badly wrong clock
    body = "tree %s\n" % tree + "".join("parent %s\n" % p for p in parents)
    body += "author A <a@x> %d +0000\ncommitter C <c@x> %d +0000\n\nc%d\n" % (t, t, i)
    ids.append(write(b"commit", body.encode()))
for i in range(0, 300, 37):
    git("tag", "-a", "-m", "t%d" % i, "t%03d" % i, ids[i])
git("tag", "lw", ids[10])
git("update-ref", "refs/heads/main", ids[-1])
EOF
python3 - "$H" >"$tmp/ranges.txt" <<'EOF'
import random, subprocess, sys
h = sys.argv[1]
random.seed(16)
ids = subprocess.run(["git", "-C", h, "rev-list", "--all"], capture_output=True, text=True).stdout.split()
for k in range(10):
    a, b = random.sample(ids, 2)
    print("%s..%s" % (a, b))
print("..main"); print("t037..t259"); print("main~40..main")
EOF
while read -r rg; do
	range_check "history $(echo "$rg" | cut -c1-7)..$(echo "$rg" | sed 's/.*\.\.//' | cut -c1-7)" "$H" "$rg"
done <"$tmp/ranges.txt"
# every commit of the whole history once
"$W" verify-commit -C "$H" --keyring "$K" --json main >/dev/null 2>&1
"$W" verify-commit -C "$H" --keyring "$K" --json "$(git -C "$H" rev-list --max-parents=0 main | tail -1)..main" >"$tmp/r.json"
check "whole history: no commit twice" [ "$(ids "$tmp/r.json" | awk '{print $2}' | sort | uniq -d | wc -l)" -eq 0 ]

# ---- SHA-256 repository (wotkit's own reader behind the same interface)
S=$tmp/sha256
git init -q -b main --object-format=sha256 "$S"
(
	export GNUPGHOME=$FX/gen
	cd "$S" && git config user.name T && git config user.email t@example.org &&
	echo 1 >f && git add f && git commit -q -m one &&
	echo 2 >f && git commit -q -a -S"$(fpr a)" -m two &&
	echo 3 >f && git commit -q -a -S"$(fpr untrusted)" -m three &&
	git tag -s -u "$(fpr b)" -m 'sha256 tag' s-b &&
	git tag -a -m unsigned s-unsigned HEAD~1
) >/dev/null 2>&1 || nok "sha256: repository made"
"$W" verify-tag -C "$S" --keyring "$K" --json s-b s-unsigned >"$tmp/s.json"; rc=$?
check "sha256: tags good + unsigned (exit 1)" [ "$(jget "$tmp/s.json" 'a[0]["verdict"] + " " + a[1]["verdict"]')" = "good unsigned" ] && [ $rc -eq 1 ]
check "sha256: ids of 64 hex" [ "$(jget "$tmp/s.json" 'len(a[0]["id"])')" = 64 ]
"$W" verify-commit -C "$S" --keyring "$K" --json main~1 main >"$tmp/s.json"
check "sha256: commits good (a) + untrusted" [ "$(jget "$tmp/s.json" 'a[0]["verdict"] + " " + a[1]["verdict"]')" = "good untrusted" ]
range_check "sha256 main~2..main" "$S" main~2..main
"$W" verify-tag -C "$S" --keyring "$K" main >"$tmp/h.txt"
check "sha256: a commit given to verify-tag: not a tag" grep -q 'error: not a tag' "$tmp/h.txt"

# ---- 1,000 signed commits: verify-commit A..B under 150 ms
if python3 -c 'import cryptography' 2>/dev/null; then
	P=$tmp/perf
	git init -q -b main "$P"
	gpg --homedir "$FX/gen" --batch --pinentry-mode loopback --passphrase '' \
		--export-secret-keys "$(fpr a)" >"$tmp/a.sec" 2>/dev/null
	if python3 "$top/tests/cli/lib/sign_commits.py" "$P" "$tmp/a.sec" 1000 >"$tmp/perf.out" 2>&1; then
		"$W" verify-commit -C "$P" --keyring "$K" perf-base..main >"$tmp/p.txt"; rc=$?
		check "perf: 1000 commits good (exit 0)" [ $rc -eq 0 ]
		check "perf: 1000 verdicts" [ "$(grep -c '^  verdict:   good$' "$tmp/p.txt")" -eq 1000 ]
		# the time is measured by bench/git.sh (side by side with gpg), not asserted here
	else
		cat "$tmp/perf.out" >&2
		nok "perf: signing 1000 commits"
	fi
else
	echo "skip - git_verify perf: python3-cryptography missing"
fi

[ "$fails" -eq 0 ]
