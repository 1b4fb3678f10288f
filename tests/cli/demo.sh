#!/bin/sh
# tests/cli/demo.sh - `make run`'s git demo keeps working (vectors/demo/,
# written by vectors/gen/gen_demo.sh): the keyring built from the demo
# pgpkeys tree rooted at the demo root, a fresh clone of demo.bundle,
#   - `wotkit verify-tag v1.0` exits 0 and names the maintainer and the path
#     root -> middle -> maintainer; `verify-commit HEAD` exits 0;
#   - plain git with gpg.program=wotkit-gpg: verify-tag / verify-commit exit 0,
#     `%G?` of HEAD is U (validity unknown, as with gpg), G once the middle
#     key is fully trusted (make run's `wot trust`);
# and the negatives: the unsigned tag v0.9, a tampered v1.0 (git mktag) in a
# clone, a keyring without the middle key (no path), a keyring rooted at the
# unrelated key, each through wotkit and (where git sees it) through git.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
D=$top/vectors/demo
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); [ -f "$t/out" ] && sed 's/^/# /' "$t/out" | head -12; }
if [ ! -x "$W" ]; then
	echo "not ok - demo: $W is not built"
	exit 1
fi
if ! command -v git >/dev/null 2>&1; then
	echo "skip - demo: git missing (scripts/deps.sh installs it)"
	exit 0
fi
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# the drop-in is the same binary under the name wotkit-gpg (argv[0])
ln -s "$W" "$t/wotkit-gpg"
WG=$t/wotkit-gpg
WOTKIT_KEYRING=$t/none.wk; export WOTKIT_KEYRING
key() { awk -v n="$1" '$1 == n { print $2 }' "$D/KEYS"; }
ROOT=$(key root) MID=$(key middle) MAINT=$(key maintainer) UNREL=$(key unrelated)
kid() { echo "$1" | cut -c25-40; }

rc_is() { # expected-rc, name, command... (stdout and stderr to $t/out)
	want=$1 name=$2; shift 2
	"$@" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name (rc=$rc)"; else nok "$name: rc=$rc, want $want"; fi
}
rc_not0() { # name, command...
	name=$1; shift
	"$@" >"$t/out" 2>&1
	rc=$?
	if [ "$rc" != 0 ]; then ok "$name (rc=$rc)"; else nok "$name: rc=0, want a failure"; fi
}
out_has() { # name, extended regexp (the last run's output)
	if grep -Eq -- "$2" "$t/out"; then ok "$1"; else nok "$1: output lacks '$2'"; fi
}

# the vectors as gen_demo.sh writes them
n=0
for f in "$ROOT" "$MID" "$MAINT" "$UNREL"; do
	[ ${#f} = 40 ] && [ -f "$D/pgpkeys/keys/$(kid "$f").asc" ] && n=$((n + 1))
done
[ $n = 4 ] && ok "vectors/demo/KEYS names 4 keys, each in pgpkeys/keys/" || nok "vectors/demo/KEYS or pgpkeys/keys/ incomplete ($n of 4)"
if [ -L "$D/pgpkeys/.keyring/openpgp/example.org/maintainer/default" ] &&
    [ "$(readlink "$D/pgpkeys/.keyring/openpgp/example.org/maintainer/default")" = "../../../../keys/$(kid "$MAINT").asc" ]; then
	ok "the maintainer's .keyring entry is a pgpkeys-style symlink"
else
	nok "the maintainer's .keyring entry"
fi
if grep -rqs 'PRIVATE KEY' "$D"; then nok "a secret key in vectors/demo/"; else ok "no secret key in vectors/demo/"; fi

# the keyring, as make run builds it
K=$t/keyring.wk
rc_is 0 "keyring build of the demo tree with the demo root" "$W" keyring build -o "$K" --root "$ROOT" "$D/pgpkeys"
out_has "... keeps both certifications" "4 certificates, 2 certifications kept"
rc_is 0 "wot path: the maintainer has a path from the root" "$W" wot path --keyring "$K" "$MAINT"
if awk -v r="$(kid "$ROOT")" -v m="$(kid "$MID")" -v x="$(kid "$MAINT")" '
    $1 == "from" && $2 == r { s = 1 } $1 == "1" && $2 == m && s == 1 { s = 2 } $1 == "2" && $2 == x && s == 2 { s = 3 }
    END { exit s == 3 ? 0 : 1 }' "$t/out"; then
	ok "... root -> middle -> maintainer"
else
	nok "the path is not root -> middle -> maintainer"
fi
rc_is 1 "wot path: the unrelated key has none" "$W" wot path --keyring "$K" "$UNREL"

# a fresh clone, no network
R=$t/repo
rc_is 0 "git clone of demo.bundle" git clone -q "$D/demo.bundle" "$R"

# built in
rc_is 0 "wotkit verify-tag v1.0" "$W" verify-tag -C "$R" --keyring "$K" v1.0
out_has "... verdict good" "verdict: +good"
out_has "... names the maintainer" "signer: +Demo Maintainer <maintainer@example.org>"
out_has "... and the maintainer's fingerprint" "$MAINT|$(kid "$MAINT")"
out_has "... and the path through the middle key" "$(kid "$MID")|$MID"
out_has "... from the demo root" "$(kid "$ROOT")|$ROOT"
rc_is 0 "wotkit verify-tag --json v1.0" "$W" verify-tag --json -C "$R" --keyring "$K" v1.0
if python3 -c 'import json, sys
r = json.load(open(sys.argv[1]))
assert len(r) == 1 and r[0]["verdict"] == "good" and r[0]["ok"] is True
assert r[0]["signer"]["fpr"] == sys.argv[4]
assert [k["fpr"] for k in r[0]["path"]] == sys.argv[2:5]' "$t/out" "$ROOT" "$MID" "$MAINT" 2>/dev/null; then
	ok "... verdict good, signer the maintainer, path root, middle, maintainer"
else
	nok "--json: not good, or not the maintainer, or not the path root, middle, maintainer"
fi
rc_is 0 "wotkit verify-commit HEAD (signed by the maintainer)" "$W" verify-commit -C "$R" --keyring "$K" HEAD
rc_is 1 "wotkit verify-tag v0.9 (unsigned)" "$W" verify-tag -C "$R" --keyring "$K" v0.9
out_has "... verdict unsigned" "verdict: +unsigned"
rc_is 1 "wotkit verify-commit HEAD~1 (unsigned commit)" "$W" verify-commit -C "$R" --keyring "$K" HEAD~1

# keyrings in which the maintainer is not connected to the root
mkdir -p "$t/nomid/keys"
cp "$D/pgpkeys/keys/$(kid "$ROOT").asc" "$D/pgpkeys/keys/$(kid "$MAINT").asc" "$t/nomid/keys/"
"$W" keyring build -o "$t/nomid.wk" --root "$ROOT" "$t/nomid/keys" 2>/dev/null
rc_is 1 "wotkit verify-tag v1.0, the middle key missing (no path)" "$W" verify-tag -C "$R" --keyring "$t/nomid.wk" v1.0
out_has "... verdict untrusted" "verdict: +untrusted"
"$W" keyring build -o "$t/unrel.wk" --root "$UNREL" "$D/pgpkeys" 2>/dev/null
rc_is 1 "wotkit verify-tag v1.0, rooted at the unrelated key" "$W" verify-tag -C "$R" --keyring "$t/unrel.wk" v1.0
"$W" keyring build -o "$t/nomaint.wk" --root "$ROOT" "$t/nomid/keys/$(kid "$ROOT").asc" 2>/dev/null
rc_is 1 "wotkit verify-tag v1.0, the maintainer's key missing" "$W" verify-tag -C "$R" --keyring "$t/nomaint.wk" v1.0
out_has "... verdict unknown-key" "verdict: +unknown-key"

# through git and the drop-in
gw() { WOTKIT_KEYRING=$K git -C "$R" -c gpg.program="$WG" "$@"; }
rc_is 0 "git verify-tag v1.0 with gpg.program=wotkit-gpg" gw verify-tag v1.0
out_has "... Good signature from the maintainer" 'Good signature from "Demo Maintainer'
rc_is 0 "git verify-tag --raw v1.0" gw verify-tag --raw v1.0
out_has "... GOODSIG" "^\[GNUPG:\] GOODSIG $(kid "$MAINT") "
out_has "... VALIDSIG with the maintainer's primary fingerprint" "^\[GNUPG:\] VALIDSIG .* $MAINT\$"
out_has "... TRUST_UNDEFINED (the middle key's ownertrust is unset: gpg says the same)" "^\[GNUPG:\] TRUST_UNDEFINED 0 pgp"
rc_is 0 "git verify-commit HEAD with wotkit-gpg" gw verify-commit HEAD
gw log -1 --format='%G? %GF' HEAD >"$t/out" 2>/dev/null
if [ "$(cat "$t/out")" = "U $MAINT" ]; then ok "git log %G? %GF of HEAD: U (good, validity unknown) and the maintainer"; else nok "git log %G? %GF of HEAD: '$(cat "$t/out")', want U"; fi
# make run's ownertrust: the middle key fully trusted makes the maintainer fully valid
rc_is 0 "wot trust middle full" "$W" wot trust --keyring "$K" middle@example.org full
rc_is 0 "git verify-tag --raw v1.0, middle trusted" gw verify-tag --raw v1.0
out_has "... TRUST_FULLY" "^\[GNUPG:\] TRUST_FULLY 0 pgp"
gw log -1 --format='%G? %GF' HEAD >"$t/out" 2>/dev/null
if [ "$(cat "$t/out")" = "G $MAINT" ]; then ok "git log %G? %GF of HEAD: G and the maintainer"; else nok "git log %G? %GF of HEAD: '$(cat "$t/out")', want G"; fi
rc_not0 "git verify-tag v0.9 (unsigned) with wotkit-gpg" gw verify-tag v0.9

# a tampered clone: v1.0 re-made by git mktag with one word of its message changed
T=$t/tampered
git clone -q "$D/demo.bundle" "$T"
git -C "$T" cat-file tag v1.0 | sed 's/^demo v1\.0$/demo v1.1/' >"$t/tag.txt"
grep -q '^demo v1\.1$' "$t/tag.txt" || nok "tampering the tag's message"
bad=$(git -C "$T" mktag <"$t/tag.txt" 2>"$t/out") && git -C "$T" update-ref refs/tags/v1.0 "$bad" &&
    ok "a tampered v1.0 made by git mktag" || nok "git mktag of the tampered tag"
rc_is 1 "wotkit verify-tag of the tampered v1.0" "$W" verify-tag -C "$T" --keyring "$K" v1.0
out_has "... verdict bad" "verdict: +bad"
gt() { WOTKIT_KEYRING=$K git -C "$T" -c gpg.program="$WG" "$@"; }
rc_not0 "git verify-tag of the tampered v1.0 with wotkit-gpg" gt verify-tag v1.0
out_has "... BAD signature" 'BAD signature'
rc_is 0 "the untouched clone still verifies" "$W" verify-tag -C "$R" --keyring "$K" v1.0

echo "# demo: $fails failed"
[ $fails = 0 ]
