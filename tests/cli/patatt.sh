#!/bin/sh
# tests/cli/patatt.sh - patatt (Debian's python3-patatt) validating patches
# through real gpg and through the drop-in wotkit-gpg (issue 15).
# Patches made with git format-patch are signed by `patatt sign` with real
# gpg (keys of tests/cli/lib/git_fixture.sh), then `patatt validate` runs
# with patatt.gpg-bin = gpg (GNUPGHOME = the fixture's gnupg) and with
# patatt.gpg-bin = wotkit-gpg (WOTKIT_KEYRING = the fixture's keyring.wk);
# the key source is the fixture's pgpkeys tree (patatt.keyringsrc =
# DIR/pgpkeys/.keyring, the pgpkeys.git layout patatt reads).
# Cases, with the result written by hand (patatt 0.6.3 rules, see below):
#   good-a, good-b (signing subkey), untrusted     PASS
#   nokeydir: identity with no key in the tree, key a: patatt verifies
#     with the default keyring (gpg's GNUPGHOME / $WOTKIT_KEYRING)  PASS
#   tampered-subject: a signed header changed after signing: gpg says
#     good, patatt's digest comparison fails       BADSIG
#   tampered-sig: one bit of the OpenPGP signature flipped: gpg BADSIG,
#     exit 1; patatt maps any gpg failure to NOKEY  NOKEY
#   unknown: key not in the tree nor in the default keyring      NOKEY
#   wrong-identity: signed by a, identity b@example.org (b's key taken
#     from the tree, a's signature: NO_PUBKEY)     NOKEY
#   expired: signed (faked time) by the expired key: EXPKEYSIG, no
#     GOODSIG                                      BADSIG
# Each case: the expected word with gpg, and with wotkit-gpg the same output
# lines and exit code, and the same gpg calls (arguments, exit codes, status
# lines IMPORT_OK/GOODSIG/BADSIG/ERRSIG/EXP*/REVKEYSIG/VALIDSIG/TRUST_*/
# NO_PUBKEY, logged by a wrapper gpg-bin). Then b4 (if installed): `b4 am -m MBOX` offline on
# the signed patches, attestation lines compared gpg vs wotkit-gpg.
# Skips (exit 0) when gpg, git or patatt is missing. TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
WOTKIT=${WOTKIT:-$top/wotkit}; export WOTKIT
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
for p in gpg git patatt; do
	if ! command -v $p >/dev/null 2>&1; then
		echo "skip - patatt: $p is not installed (apt-get install patatt b4)"
		exit 0
	fi
done
if [ ! -x "$WOTKIT" ]; then
	echo "not ok - patatt: $WOTKIT is not built"
	exit 1
fi
tmp=$(mktemp -d)
[ -n "${PATATT_KEEP:-}" ] && echo "# kept: $tmp" || trap 'rm -rf "$tmp"' EXIT
. "$top/tests/cli/lib/git_fixture.sh"
fx=$tmp/fx
if ! git_fixture "$fx"; then
	echo "not ok - patatt: the fixture could not be made"
	exit 1
fi
second=
if [ "${PATATT_SECOND:-}" = gpg ]; then
	second=gpg
elif [ -x "${WOTKIT_GPG:-$top/wotkit-gpg}" ]; then
	second=${WOTKIT_GPG:-$top/wotkit-gpg}
elif "$WOTKIT" gpg --version >/dev/null 2>&1; then
	ln -s "$WOTKIT" "$tmp/wotkit-gpg" && second=$tmp/wotkit-gpg
fi
HOME=$fx GIT_CONFIG_NOSYSTEM=1 WOTKIT_KEYRING=$fx/keyring.wk LC_ALL=C TZ=UTC
export HOME GIT_CONFIG_NOSYSTEM WOTKIT_KEYRING LC_ALL TZ
unset GIT_DIR GIT_WORK_TREE XDG_DATA_HOME
fpr() { awk -F'\t' -v n="$1" '$1 == n { print $2 }' "$fx/keys.tsv"; }

# patches: one commit per case in a scratch repository
mkdir -p "$tmp/p" && cd "$tmp/p" && git init -q . || exit 1
git config user.name Patcher && git config user.email patcher@example.org
for c in good-a good-b untrusted nokeydir tampered-subject tampered-sig unknown wrong-identity expired; do
	echo "$c" >"$c.txt" && git add "$c.txt" && git commit -q -m "add $c" || exit 1
done
git format-patch -q --root -o "$tmp/out" HEAD || exit 1
cd "$tmp" || exit 1 # outside any repository: patatt's ref::: sources find nothing
n=0
for f in out/*.patch; do
	n=$((n + 1))
	c=$(sed -n "${n}p" <<EOF
good-a
good-b
untrusted
nokeydir
tampered-subject
tampered-sig
unknown
wrong-identity
expired
EOF
)
	mv "$f" "$c.patch"
done

# sign CASE KEYNAME IDENTITY [GPG]: patatt sign, in place
sign() {
	GNUPGHOME=$fx/gen GIT_CONFIG_COUNT=3 \
		GIT_CONFIG_KEY_0=patatt.signingkey GIT_CONFIG_VALUE_0="openpgp:$(fpr "$2")" \
		GIT_CONFIG_KEY_1=patatt.identity GIT_CONFIG_VALUE_1="$3" \
		GIT_CONFIG_KEY_2=patatt.gpg-bin GIT_CONFIG_VALUE_2="${4:-gpg}" \
		patatt sign "$1.patch" >/dev/null 2>"$tmp/sign.err"
}
signed=0
sign good-a a a@example.org && sign good-b b b@example.org && sign untrusted untrusted untrusted@example.org &&
	sign nokeydir a nobody@example.org && sign tampered-subject a a@example.org &&
	sign tampered-sig a a@example.org && sign unknown unknown unknown@example.org &&
	sign wrong-identity a b@example.org && sign expired expired expired@example.org "$fx/gpg-at-t1" && signed=1
gpgconf --homedir "$fx/gen" --kill gpg-agent 2>/dev/null
if [ $signed = 1 ] && grep -q '^X-Developer-Signature:' good-a.patch; then ok "patatt sign with real gpg"
else nok "patatt sign with real gpg: $(tail -3 "$tmp/sign.err")"; exit 1; fi
sed -i 's/^Subject: \[PATCH\(.*\)add tampered-subject/Subject: [PATCH\1add TAMPERED-subject/' tampered-subject.patch
# flip one bit of the last octet of the OpenPGP message in b= (the base64
# length stays the same, so only that character changes)
python3 - tampered-sig.patch <<'EOF' || nok "tampered-sig: could not edit the signature"
import base64, re, sys
p = sys.argv[1]
t = open(p, 'rb').read()
h = re.search(rb'^X-Developer-Signature:.*?(?=^\S)', t, re.M | re.S)
start = h.start() + h.group(0).index(b' b=') + 3
pos = [i for i in range(start, h.end()) if t[i:i + 1] not in b' \t\r\n']
b = bytearray(base64.b64decode(bytes(t[i] for i in pos)))
b[-1] ^= 1
e = base64.b64encode(bytes(b))
assert len(e) == len(pos)
t = bytearray(t)
for i, c in zip(pos, e):
	t[i] = c
open(p, 'wb').write(bytes(t))
EOF

# a gpg-bin that runs $REAL_GPG and logs each call to $GPG_LOG: its
# arguments (patatt's temporary --homedir replaced by TMP), exit code and
# the status lines patatt and b4 read
cat >"$tmp/logwrap" <<'EOF2'
#!/bin/sh
o=$(mktemp) e=$(mktemp)
"$REAL_GPG" "$@" >"$o" 2>"$e"
rc=$?
{
	echo "call: $(echo "$*" | sed 's|--homedir [^ ]*|--homedir TMP|')"
	echo "rc=$rc"
	cat "$o" "$e" | grep -aE '^\[GNUPG:\] (IMPORT_OK|GOODSIG|BADSIG|ERRSIG|EXPSIG|EXPKEYSIG|REVKEYSIG|VALIDSIG|TRUST_[A-Z]+|NO_PUBKEY)( |$)' |
		sed 's/^/status: /'
} >>"$GPG_LOG"
cat "$o"; cat "$e" >&2
rm -f "$o" "$e"
exit $rc
EOF2
chmod +x "$tmp/logwrap"

# validate PROG CASE OUT: patatt validate's lines and exit code, then the
# gpg calls it made
validate() {
	: >"$tmp/calls"
	REAL_GPG=$1 GPG_LOG=$tmp/calls GNUPGHOME=$fx/gnupg GIT_CONFIG_COUNT=2 \
		GIT_CONFIG_KEY_0=patatt.keyringsrc GIT_CONFIG_VALUE_0="$fx/pgpkeys/.keyring" \
		GIT_CONFIG_KEY_1=patatt.gpg-bin GIT_CONFIG_VALUE_1="$tmp/logwrap" \
		patatt validate "$2.patch" >"$3" 2>&1
	echo "rc=$?" >>"$3"
	cat "$tmp/calls" >>"$3"
}
while read -r c want; do
	validate gpg "$c" "$tmp/gpg.$c"
	got=$(awk '$2 == "|" { print $1; exit }' "$tmp/gpg.$c")
	case $c in tampered-sig) grep -q '^status: \[GNUPG:\] BADSIG' "$tmp/gpg.$c" ||
		nok "tampered-sig: gpg did not say BADSIG" ;; esac
	if [ "$got" = "$want" ]; then ok "patatt+gpg: $c is $want"
	else nok "patatt+gpg: $c: expected $want, got ${got:-nothing}: $(tr '\n' ' ' <"$tmp/gpg.$c")"; fi
	[ -n "$second" ] || continue
	validate "$second" "$c" "$tmp/dropin.$c"
	if cmp -s "$tmp/gpg.$c" "$tmp/dropin.$c"; then ok "patatt+wotkit-gpg: $c same as gpg ($(head -1 "$tmp/gpg.$c"))"
	else
		nok "patatt+wotkit-gpg: $c differs"
		sed 's/^/#   gpg:        /' "$tmp/gpg.$c"
		sed 's/^/#   wotkit-gpg: /' "$tmp/dropin.$c"
	fi
done <<EOF
good-a PASS
good-b PASS
untrusted PASS
nokeydir PASS
tampered-subject BADSIG
tampered-sig NOKEY
unknown NOKEY
wrong-identity NOKEY
expired BADSIG
EOF
[ -n "$second" ] || echo "skip - patatt: no wotkit-gpg (neither $top/wotkit-gpg nor \`wotkit gpg\`): drop-in not compared"
[ "$fails" -eq 0 ]
