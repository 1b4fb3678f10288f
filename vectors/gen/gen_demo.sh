#!/bin/sh
# vectors/gen/gen_demo.sh - generates the git demo of `make run` (vectors/demo/):
#
#   pgpkeys/         a small pgpkeys.git-style tree: keys/<KEYID>.asc (gpg's
#                    pub/uid header above the armored certificate, as in the
#                    kernel's repository) and .keyring/openpgp/<domain>/<local>/default
#                    symlinks to ../../../../keys/<KEYID>.asc
#   demo.bundle      a git bundle: branch main with three commits (the last one
#                    signed by the maintainer), the annotated unsigned tag v0.9
#                    and the maintainer's signed annotated tag v1.0
#   KEYS             NAME FINGERPRINT, one a line (root, middle, maintainer, unrelated)
#
# The web, standing in for the kernel's (Linus -> a well-connected developer ->
# a maintainer sending a pull request):
#   root        "Demo Root <root@example.org>"              ed25519, never expires
#   middle      "Demo Middle <middle@example.org>"          rsa3072, expires 2040-01-01,
#                                                          certified by root
#   maintainer  "Demo Maintainer <maintainer@example.org>"  ed25519, expires 2040-01-01,
#                                                          certified by middle
#   unrelated   "Demo Unrelated <unrelated@example.net>"    ed25519, never expires,
#                                                          certified by nobody
# Secret keys live only in a throwaway GNUPGHOME and are never written out.
#
# Deterministic where it can be: every gpg call runs at a fixed
# --faked-system-time (also the signatures git asks for, through a wrapper
# gpg.program), and commits and tags have fixed names and dates, so the
# commits' object IDs are the same on each run; keys, key IDs, signatures
# and the signed objects are new each time. Run once and commit what it wrote.
#
#   sh vectors/gen/gen_demo.sh        # rewrites vectors/demo/ (~5 s)
# Needs gpg 2.2 and git.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$top/vectors/demo
tmp=$(mktemp -d)
H=$tmp/gnupg
log=$tmp/log
cleanup() {
	GNUPGHOME=$H gpgconf --kill gpg-agent 2>/dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() { echo "gen_demo: $*" >&2; [ -f "$log" ] && tail -20 "$log" >&2; exit 1; }
for t in gpg gpgconf git; do
	command -v $t >/dev/null || fail "$t not found"
done

T_KEY=20250101T000000      # key creation
T_CERT=20250115T000000     # certifications
T_SIGN=20250301T120000     # the signed commit and tag
mkdir -m 700 "$H"
: >"$log"

G() { # TIME gpg-args...
	_t=$1
	shift
	GNUPGHOME=$H gpg --batch --yes --no-tty --quiet --pinentry-mode loopback \
	    --passphrase '' --no-auto-check-trustdb --trust-model always \
	    --faked-system-time "$_t!" "$@" 2>>"$log"
}
fpr_of() { # e-mail -> primary fingerprint
	GNUPGHOME=$H gpg --with-colons --list-keys "<$1>" 2>/dev/null |
	    awk -F: '/^fpr/ { print $10; exit }'
}
mkkey() { # UID ALGO EXPIRE
	G $T_KEY --quick-gen-key "$1" "$2" cert,sign "$3" || fail "generating $1"
}

mkkey "Demo Root <root@example.org>" ed25519 never
mkkey "Demo Middle <middle@example.org>" rsa3072 2040-01-01
mkkey "Demo Maintainer <maintainer@example.org>" ed25519 2040-01-01
mkkey "Demo Unrelated <unrelated@example.net>" ed25519 never
ROOT=$(fpr_of root@example.org)
MID=$(fpr_of middle@example.org)
MAINT=$(fpr_of maintainer@example.org)
UNREL=$(fpr_of unrelated@example.net)
for f in "$ROOT" "$MID" "$MAINT" "$UNREL"; do
	[ ${#f} = 40 ] || fail "key generation failed"
done

# certifications (exportable, SHA-256 as gpg 2.2 makes them for these keys)
G $T_CERT -u "$ROOT!" --quick-sign-key "$MID" >>"$log" || fail "root certifies middle"
G $T_CERT -u "$MID!" --quick-sign-key "$MAINT" >>"$log" || fail "middle certifies maintainer"

# ---- pgpkeys/ ---------------------------------------------------------------
rm -rf "$out"
mkdir -p "$out/pgpkeys/keys"
: >"$out/KEYS"
for pair in "root $ROOT" "middle $MID" "maintainer $MAINT" "unrelated $UNREL"; do
	set -- $pair
	name=$1 fpr=$2 kid=$(echo "$2" | cut -c25-40)
	echo "$name $fpr" >>"$out/KEYS"
	f=$out/pgpkeys/keys/$kid.asc
	# the header pgpkeys.git puts above each key: gpg's listing, long key IDs
	GNUPGHOME=$H gpg --faked-system-time "$T_SIGN!" --keyid-format long \
	    --list-options no-show-uid-validity --list-keys "$fpr" 2>/dev/null |
	    sed -e '/^$/d' -e 's/[[:space:]]*$//' >"$f"
	echo >>"$f"
	G $T_SIGN --armor --export "$fpr" >>"$f" || fail "exporting $name"
	# .keyring/openpgp/<domain>/<local>/default for the key's address
	email=$(GNUPGHOME=$H gpg --with-colons --list-keys "$fpr" 2>/dev/null |
	    awk -F: '/^uid/ { u = $10; sub(/.*</, "", u); sub(/>.*/, "", u); print u; exit }')
	d=$out/pgpkeys/.keyring/openpgp/${email#*@}/${email%@*}
	mkdir -p "$d"
	ln -s "../../../../keys/$kid.asc" "$d/default"
done

# ---- demo.bundle ------------------------------------------------------------
# a gpg.program that signs at the fixed time with the generation home (its
# stderr stays git's: git reads the status lines there when signing)
cat >"$tmp/gpg-at" <<EOF
#!/bin/sh
exec gpg --homedir "$H" --batch --no-tty --pinentry-mode loopback --passphrase '' \\
    --faked-system-time "$T_SIGN!" "\$@"
EOF
chmod +x "$tmp/gpg-at"
R=$tmp/repo
git init -q -b main "$R"
gx() { # DATE git-args...
	_d=$1
	shift
	GIT_AUTHOR_NAME="Demo Maintainer" GIT_AUTHOR_EMAIL=maintainer@example.org \
	GIT_COMMITTER_NAME="Demo Maintainer" GIT_COMMITTER_EMAIL=maintainer@example.org \
	GIT_AUTHOR_DATE="$_d" GIT_COMMITTER_DATE="$_d" \
	    git -C "$R" -c gpg.program="$tmp/gpg-at" -c user.signingkey="$MAINT!" \
	    -c commit.gpgsign=false -c tag.gpgsign=false -c core.autocrlf=false "$@"
}
cat >"$R/README" <<'EOF'
demo: the repository of the wotkit git demo (vectors/gen/gen_demo.sh).
EOF
gx "2025-02-01T10:00:00Z" add README
gx "2025-02-01T10:00:00Z" commit -q -m "Initial commit"
cat >"$R/hello.c" <<'EOF'
#include <stdio.h>

int main(void)
{
	puts("hello, world");
	return 0;
}
EOF
gx "2025-02-10T10:00:00Z" add hello.c
gx "2025-02-10T10:00:00Z" commit -q -m "Add hello.c"
gx "2025-02-10T10:00:00Z" tag -a -m "demo v0.9 (unsigned)" v0.9
printf '\nRelease 1.0.\n' >>"$R/README"
gx "2025-03-01T12:00:00Z" add README
gx "2025-03-01T12:00:00Z" commit -q -S -m "Release 1.0" 2>>"$log" || fail "signing the commit"
gx "2025-03-01T12:00:00Z" tag -s -m "demo v1.0

Signed by the demo maintainer, whose key is certified by the demo middle
key, whose key is certified by the demo root." v1.0 2>>"$log" || fail "signing the tag"
# the oracle: gpg in the generation home accepts both
gx "2025-03-01T12:00:00Z" verify-tag v1.0 2>/dev/null || fail "v1.0 does not verify with gpg"
gx "2025-03-01T12:00:00Z" verify-commit HEAD 2>/dev/null || fail "HEAD does not verify with gpg"
git -C "$R" bundle create -q "$out/demo.bundle" --all 2>>"$log" || fail "git bundle"
git -C "$R" bundle verify -q "$out/demo.bundle" >/dev/null 2>&1 || fail "the bundle does not verify"
echo "gen_demo: root $ROOT, middle $MID, maintainer $MAINT, unrelated $UNREL"
