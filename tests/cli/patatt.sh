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
[ -n "${PATATT_KEEP:-}" ] && echo "# kept: $tmp" || trap 'gpgconf --homedir "$tmp/fx/gen" --kill gpg-agent 2>/dev/null; rm -rf "$tmp"' EXIT
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
git format-patch -q -N --root -o "$tmp/out" HEAD || exit 1
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
# tampered-sig is signed without compression, so one bit of its literal
# data can be flipped (a bit in a compressed stream breaks the stream)
printf '#!/bin/sh\nexec gpg --compress-algo none "$@"\n' >"$tmp/gpg-nocompress"
chmod +x "$tmp/gpg-nocompress"
signed=0
sign good-a a a@example.org && sign good-b b b@example.org && sign untrusted untrusted untrusted@example.org &&
	sign nokeydir a nobody@example.org && sign tampered-subject a a@example.org &&
	sign unknown unknown unknown@example.org &&
	sign wrong-identity a b@example.org && sign expired expired expired@example.org "$fx/gpg-at-t1" &&
	sign tampered-sig a a@example.org "$tmp/gpg-nocompress" && signed=1
gpgconf --homedir "$fx/gen" --kill gpg-agent 2>/dev/null
if [ $signed = 1 ] && grep -q '^X-Developer-Signature:' good-a.patch; then ok "patatt sign with real gpg"
else nok "patatt sign with real gpg: $(tail -3 "$tmp/sign.err")"; exit 1; fi
sed -i 's/^Subject: \[PATCH\(.*\)add tampered-subject/Subject: [PATCH\1add TAMPERED-subject/' tampered-subject.patch
# flip one bit of the signed data (the literal data packet, tag 11) of the
# OpenPGP message in b= (the base64 length stays the same)
python3 - tampered-sig.patch <<'EOF' || nok "tampered-sig: could not edit the signature"
import base64, re, sys
p = sys.argv[1]
t = open(p, 'rb').read()
h = re.search(rb'^X-Developer-Signature:.*?(?=^\S)', t, re.M | re.S)
start = h.start() + h.group(0).index(b' b=') + 3
pos = [i for i in range(start, h.end()) if t[i:i + 1] not in b' \t\r\n']
b = bytearray(base64.b64decode(bytes(t[i] for i in pos)))
o = 0
while o < len(b):  # RFC 9580 4.2: packet headers
	c = b[o]
	if c & 0x40:  # new format
		tag, l0 = c & 0x3f, b[o + 1]
		if l0 < 192: n, h = l0, 2
		elif l0 < 224: n, h = ((l0 - 192) << 8) + b[o + 2] + 192, 3
		else: n, h = int.from_bytes(b[o + 2:o + 6], 'big'), 6
	else:  # old format
		tag, lt = (c >> 2) & 0xf, c & 3
		h = 1 + (1, 2, 4)[lt]
		n = int.from_bytes(b[o + 1:o + h], 'big')
	if tag == 11:
		b[o + h + n - 1] ^= 1
		break
	o += h + n
else:
	sys.exit('no literal data packet')
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

# b4 (offline: `b4 am -m FILE` reads a local mbox; b4 runs patatt's
# validation with b4.gpgbin, and for a key from the default keyring also
# `gpg --with-colons --list-keys FPR` to compare its UIDs with the identity)
# b4am PROG CASE OUT: the attestation lines (colours removed) and gpg calls
b4am() {
	: >"$tmp/calls"
	rm -rf "$tmp/b4o" && mkdir "$tmp/b4o"
	REAL_GPG=$1 GPG_LOG=$tmp/calls GNUPGHOME=$fx/gnupg GIT_CONFIG_COUNT=4 \
		GIT_CONFIG_KEY_0=b4.keyringsrc GIT_CONFIG_VALUE_0="$fx/pgpkeys/.keyring" \
		GIT_CONFIG_KEY_1=b4.gpgbin GIT_CONFIG_VALUE_1="$tmp/logwrap" \
		GIT_CONFIG_KEY_2=user.name GIT_CONFIG_VALUE_2=Maintainer \
		GIT_CONFIG_KEY_3=user.email GIT_CONFIG_VALUE_3=maintainer@example.org \
		b4 am -C -m "$2.patch" -o "$tmp/b4o" </dev/null >"$tmp/b4out" 2>&1
	echo "rc=$?" >>"$tmp/b4out"
	sed 's/\x1b\[[0-9;]*m//g' "$tmp/b4out" >"$3"
	cat "$tmp/calls" >>"$3"
	cat "$tmp"/b4o/*.mbx >>"$3" 2>/dev/null
}
if ! command -v b4 >/dev/null 2>&1; then
	echo "skip - patatt: b4 is not installed (apt-get install b4)"
else
	while read -r c want; do
		b4am gpg "$c" "$tmp/b4gpg.$c"
		got=$(grep -E '^ +[^ ]+ (Signed|BADSIG|No key): ' "$tmp/b4gpg.$c" | head -1 | sed 's/^ *[^ ]* //')
		if [ "$got" = "$want" ]; then ok "b4+gpg: $c: $want"
		else nok "b4+gpg: $c: expected \"$want\", got \"$got\": $(tr '\n' ' ' <"$tmp/b4gpg.$c")"; fi
		[ -n "$second" ] || continue
		b4am "$second" "$c" "$tmp/b4dropin.$c"
		if cmp -s "$tmp/b4gpg.$c" "$tmp/b4dropin.$c"; then ok "b4+wotkit-gpg: $c same as gpg"
		else
			nok "b4+wotkit-gpg: $c differs"
			sed 's/^/#   gpg:        /' "$tmp/b4gpg.$c"
			sed 's/^/#   wotkit-gpg: /' "$tmp/b4dropin.$c"
		fi
	done <<EOF
good-a Signed: openpgp/a@example.org (From: patcher@example.org)
good-b Signed: openpgp/b@example.org (From: patcher@example.org)
untrusted Signed: openpgp/untrusted@example.org (From: patcher@example.org)
nokeydir Signed: openpgp/a@example.org (From: patcher@example.org)
tampered-subject BADSIG: openpgp/a@example.org
tampered-sig No key: openpgp/a@example.org
unknown No key: openpgp/unknown@example.org
wrong-identity No key: openpgp/b@example.org
expired BADSIG: openpgp/expired@example.org
EOF
	grep -q -- '--list-keys' "$tmp/b4gpg.nokeydir" && ok "b4 ran gpg --with-colons --list-keys (nokeydir)" ||
		nok "b4 did not run gpg --list-keys for a default-keyring key"
fi
[ -n "$second" ] || echo "skip - patatt: no wotkit-gpg (neither $top/wotkit-gpg nor \`wotkit gpg\`): drop-in not compared"
[ "$fails" -eq 0 ]
