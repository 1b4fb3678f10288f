#!/bin/sh
# tests/cli/static_root.sh - the static wotkit (`make static`, static/wotkit)
# in an empty root: a directory holding only the binary, its two links and
# the test files, entered with chroot inside a user namespace (unshare -r),
# with an empty environment. Nothing else from the filesystem is there: no
# /etc, no /dev, no /proc, no locale, no loader, no shared library.
#   verify (good, and tampered data refused), sopv verify, the gpg drop-in's
#   status lines (GOODSIG/VALIDSIG, and BADSIG), keyring build from a file and
#   from a pgpkeys-style tree, and a verify through the built keyring.
# Skips (with the reason) when user namespaces or chroot are unavailable.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
S=${WOTKIT_STATIC:-$top/static/wotkit}
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; fails=$((fails + 1)); }
if [ ! -x "$S" ]; then
	echo "not ok - static_root: $S is not built (make static)"
	exit 1
fi
if ! unshare -r chroot / /bin/true 2>/dev/null; then
	echo "skip - static_root: no user namespace with chroot here (unshare -r chroot)"
	exit 0
fi
UNSHARE=$(command -v unshare) CHROOT=$(command -v chroot)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
R=$tmp/root
V=$top/vectors/verify
mkdir -p "$R/t"
cp "$S" "$R/wotkit"
ln -s wotkit "$R/wotkit-gpg"
ln -s wotkit "$R/wotkit-sopv"
cp "$V/keys/rsa2048.pgp" "$R/t/k.pgp"
cp "$V/sig/rsa2048-sha256.sig" "$R/t/s.sig"
cp "$V/data/msg.bin" "$R/t/msg.bin"
{ cat "$V/data/msg.bin"; printf x; } >"$R/t/tampered.bin"
cp -R "$top/vectors/demo/pgpkeys" "$R/t/pgpkeys"
FPR=F176C90F8A965B47A8FF9CFE8E268F9AD32C2BFD

# the file is static: no program interpreter, no needed library
if command -v readelf >/dev/null 2>&1; then
	if readelf -l "$S" | grep -q 'INTERP' || readelf -d "$S" 2>/dev/null | grep -q NEEDED; then
		nok "static/wotkit has no interpreter and no NEEDED library"
	else ok "static/wotkit has no interpreter and no NEEDED library"; fi
fi

# in_root [VAR=value...] -- PROGRAM ARGS...: run in the empty root, empty
# environment; stdout in $tmp/out, stderr in $tmp/err, exit code in $rc
in_root() {
	envs=""
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	# shellcheck disable=SC2086
	env -i $envs "$UNSHARE" -r "$CHROOT" "$R" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
	rc=$?
}
in_root_stdin() { # FILE [VAR=value...] -- PROGRAM ARGS...: the same, FILE on stdin
	f=$1; shift
	envs=""
	while [ "$1" != -- ]; do envs="$envs $1"; shift; done
	shift
	# shellcheck disable=SC2086
	env -i $envs "$UNSHARE" -r "$CHROOT" "$R" "$@" >"$tmp/out" 2>"$tmp/err" <"$f"
	rc=$?
}
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err" | head -8; }

in_root -- /wotkit verify --keyring /t/k.pgp /t/s.sig /t/msg.bin
if [ "$rc" = 0 ] && grep -q "signature 1: good" "$tmp/err" && grep -q "$FPR" "$tmp/err"; then
	ok "verify: good, signer $FPR"
else nok "verify: rc=$rc"; show; fi

in_root -- /wotkit verify --keyring /t/k.pgp /t/s.sig /t/tampered.bin
if [ "$rc" = 1 ] && grep -q "signature 1: BAD signature" "$tmp/err"; then
	ok "verify: tampered data is a bad signature (exit 1)"
else nok "verify tampered: rc=$rc"; show; fi

in_root_stdin "$R/t/msg.bin" -- /wotkit-sopv verify /t/s.sig /t/k.pgp
if [ "$rc" = 0 ] && grep -q "^[0-9T:-]*Z $FPR $FPR" "$tmp/out"; then
	ok "sopv verify (as wotkit-sopv): a VERIFICATION line for $FPR"
else nok "sopv verify: rc=$rc"; show; fi

in_root_stdin "$R/t/tampered.bin" -- /wotkit sopv verify /t/s.sig /t/k.pgp
if [ "$rc" = 3 ] && [ ! -s "$tmp/out" ]; then
	ok "sopv verify: tampered data is NO_SIGNATURE (exit 3), nothing on stdout"
else nok "sopv verify tampered: rc=$rc"; show; fi

in_root -- /wotkit keyring build -o /t/k.wk /t/k.pgp
if [ "$rc" = 0 ] && [ -s "$R/t/k.wk" ]; then
	ok "keyring build from a file"
else nok "keyring build: rc=$rc"; show; fi

in_root -- /wotkit verify --keyring /t/k.wk /t/s.sig /t/msg.bin
if [ "$rc" = 0 ] && grep -q "signature 1: good" "$tmp/err"; then
	ok "verify through the built keyring: good"
else nok "verify through the keyring: rc=$rc"; show; fi

in_root -- /wotkit keyring build -o /t/demo.wk /t/pgpkeys
if [ "$rc" = 0 ] && grep -q "4 certificates" "$tmp/err"; then
	ok "keyring build from a pgpkeys-style tree: 4 certificates"
else nok "keyring build pgpkeys: rc=$rc"; show; fi

in_root WOTKIT_KEYRING=/t/k.wk -- /wotkit-gpg --status-fd=1 --keyid-format=long --verify /t/s.sig /t/msg.bin
if [ "$rc" = 0 ] && grep -q "^\[GNUPG:\] GOODSIG " "$tmp/out" &&
    grep -q "^\[GNUPG:\] VALIDSIG $FPR " "$tmp/out"; then
	ok "gpg drop-in: GOODSIG and VALIDSIG $FPR"
else nok "gpg drop-in: rc=$rc"; show; fi

in_root WOTKIT_KEYRING=/t/k.wk -- /wotkit-gpg --status-fd=1 --keyid-format=long --verify /t/s.sig /t/tampered.bin
if [ "$rc" = 1 ] && grep -q "^\[GNUPG:\] BADSIG " "$tmp/out" && ! grep -q "GOODSIG\|VALIDSIG" "$tmp/out"; then
	ok "gpg drop-in: tampered data is BADSIG (exit 1), no GOODSIG/VALIDSIG"
else nok "gpg drop-in tampered: rc=$rc"; show; fi

# the Containerfile's form: one file, the drop-in as a subcommand
in_root WOTKIT_KEYRING=/t/k.wk -- /wotkit gpg --status-fd=1 --verify /t/s.sig /t/msg.bin
if [ "$rc" = 0 ] && grep -q "^\[GNUPG:\] VALIDSIG $FPR " "$tmp/out"; then
	ok "wotkit gpg (subcommand, as in the Containerfile): VALIDSIG $FPR"
else nok "wotkit gpg subcommand: rc=$rc"; show; fi

# nothing was created in the root but what the commands were asked to write
extra=$(cd "$R" && find . -mindepth 1 | grep -v -e '^\./t' -e '^\./wotkit' | head -3)
if [ -z "$extra" ]; then ok "nothing else written in the root"
else nok "the root gained: $extra"; fi

echo "# static_root: $n checks, $fails failed ($(wc -c <"$S") octets)"
[ "$fails" -eq 0 ]
