#!/bin/sh
# tests/deb.sh - the Debian package, installed: `make deb` (build-deb/, lintian
# clean), then (as root) dpkg -i and, from /usr/bin only (PATH=/usr/bin:/bin,
# no WOTKIT* variables): wotkit verify of a vector (good, and tampered data
# refused), the man pages, and git verify-tag with gpg.program=wotkit-gpg on
# the demo repository against a keyring built by the installed wotkit
# (a tag tampered with must fail). CI runs it after make check
# (.ci/run); it changes the system, so `make check` does not.
# TAP-style output, then "N passed, M failed".
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); echo "not ok $n - $1"; fails=$((fails + 1)); }
deb=$(ls build-deb/wotkit_*_*.deb 2>/dev/null | grep -v dbgsym | head -1)
[ -n "$deb" ] || { echo "not ok - no package in build-deb/ (make deb)"; exit 1; }
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
if ! $SUDO dpkg -i "$deb" >/tmp/wotkit-deb-install.log 2>&1; then
	$SUDO apt-get install -y -f -qq >>/tmp/wotkit-deb-install.log 2>&1
fi
if dpkg-query -W -f='${Status}' wotkit 2>/dev/null | grep -q 'install ok installed'; then
	ok "dpkg -i $(basename "$deb")"
else nok "dpkg -i $(basename "$deb")"; tail -5 /tmp/wotkit-deb-install.log; exit 1; fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { env -i PATH=/usr/bin:/bin HOME="$tmp" "$@"; }
V=vectors/verify
for f in /usr/bin/wotkit /usr/bin/wotkit-git /usr/bin/wotkit-gpg /usr/bin/wotkit-sopv \
    /usr/share/man/man1/wotkit.1.gz /usr/share/man/man1/wotkit-gpg.1.gz /usr/share/doc/wotkit/copyright; do
	if [ -e "$f" ]; then ok "installed: $f"; else nok "missing: $f"; fi
done
if run wotkit verify --keyring $V/keys/rsa2048.pgp $V/sig/rsa2048-sha256.sig $V/data/msg.bin 2>"$tmp/err"; then
	ok "wotkit verify (from /usr/bin): good"
else nok "wotkit verify: $(tail -1 "$tmp/err")"; fi
{ cat $V/data/msg.bin; printf x; } >"$tmp/tampered"
run wotkit verify --keyring $V/keys/rsa2048.pgp $V/sig/rsa2048-sha256.sig "$tmp/tampered" 2>/dev/null
rc=$?
if [ "$rc" = 1 ]; then ok "wotkit verify: tampered data refused (exit 1)"; else nok "wotkit verify tampered: exit $rc"; fi
if run wotkit-sopv verify $V/sig/rsa2048-sha256.sig $V/keys/rsa2048.pgp <$V/data/msg.bin >"$tmp/out" 2>&1 &&
    grep -q F176C90F8A965B47A8FF9CFE8E268F9AD32C2BFD "$tmp/out"; then
	ok "wotkit-sopv verify: a VERIFICATION line"
else nok "wotkit-sopv verify: $(head -2 "$tmp/out")"; fi

# git with gpg.program=wotkit-gpg (found in /usr/bin by name) on the demo
K=$tmp/keyring.wk
run wotkit keyring build -o "$K" --root CE0AD07FE68485CB5232140D63D4B2D156ABE58A vectors/demo/pgpkeys 2>/dev/null &&
    run wotkit wot trust --keyring "$K" middle@example.org full >/dev/null 2>&1
git clone -q vectors/demo/demo.bundle "$tmp/repo" 2>/dev/null
if run WOTKIT_KEYRING="$K" git -C "$tmp/repo" -c gpg.program=wotkit-gpg verify-tag v1.0 >"$tmp/out" 2>&1 &&
    grep -q 'Good signature from "Demo Maintainer' "$tmp/out"; then
	ok "git -c gpg.program=wotkit-gpg verify-tag v1.0: good"
else nok "git verify-tag: $(head -3 "$tmp/out")"; fi
# the same tag with its message altered (a new tag object, same signature)
git -C "$tmp/repo" cat-file tag v1.0 >"$tmp/orig.txt"
sed 's/^demo v1\.0$/demo v1.1/' "$tmp/orig.txt" >"$tmp/tag.txt"
if cmp -s "$tmp/orig.txt" "$tmp/tag.txt"; then
	nok "could not alter the tag message (no 'demo v1.0' line)"
else
	id=$(git -C "$tmp/repo" hash-object -t tag -w "$tmp/tag.txt")
	git -C "$tmp/repo" update-ref refs/tags/v1.0-bad "$id"
	if run WOTKIT_KEYRING="$K" git -C "$tmp/repo" -c gpg.program=wotkit-gpg verify-tag v1.0-bad >"$tmp/out" 2>&1; then
		nok "git verify-tag of an altered tag succeeded"
	else ok "git -c gpg.program=wotkit-gpg verify-tag: an altered tag fails"; fi
fi
echo "$n passed, $fails failed"
[ "$fails" -eq 0 ]
