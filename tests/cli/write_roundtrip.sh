#!/bin/sh
# The certificate writer against GnuPG (pgp/write.h, pgp/armor_enc.h). For
# each input, build/tests/test_write --export writes every certificate again
# (canonical framing) as binary and armored; then:
#   - `gpg --dearmor` of our armor gives our binary back, octet for octet;
#   - `gpg --import` of our armor succeeds in a throwaway GNUPGHOME, imports
#     as many keys as we wrote, and `gpg --list-sigs` shows the same keys,
#     user IDs and signatures as an import of the original input.
# debian-keyring.gpg is only dearmored: importing it takes gpg ~3 minutes.
# TAP output. Needs gpg.
T=${TEST_WRITE:-build/tests/test_write}
C=${WOTKIT_CORPUS:-../shared/corpus}
command -v gpg >/dev/null 2>&1 || { echo "skip - gpg not installed"; exit 0; }
[ -x "$T" ] || { echo "not ok - $T not built"; exit 1; }
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

listing() { # home -> keys, uids, signatures (trust-db line dropped)
	GNUPGHOME=$1 gpg --batch --no-autostart --with-colons --list-sigs 2>/dev/null |
	    grep -av '^tru:'
}

check() { # name, file, import(0/1)
	name=$1 f=$2 imp=$3
	if ! n=$("$T" --export "$t/out" "$f" 2>"$t/err"); then
		echo "not ok - $name: export failed"; sed 's/^/# /' "$t/err"; return
	fi
	if gpg --batch --dearmor <"$t/out.asc" >"$t/dearmored" 2>"$t/err" &&
	    cmp -s "$t/dearmored" "$t/out.pgp"; then
		echo "ok - $name: gpg --dearmor gives our $n certificates back"
	else
		echo "not ok - $name: gpg --dearmor differs"; sed 's/^/# /' "$t/err"
	fi
	[ "$imp" = 1 ] || return
	rm -rf "$t/a" "$t/b"
	mkdir -m 700 "$t/a" "$t/b"
	# --no-autostart: importing public keys needs no agent (one would be
	# started per throwaway home and can fail to come up on a busy machine)
	GNUPGHOME="$t/a" gpg --batch --quiet --no-autostart --import "$f" >/dev/null 2>&1
	GNUPGHOME="$t/b" gpg --batch --quiet --no-autostart --status-fd 1 --import "$t/out.asc" \
	    >"$t/status" 2>"$t/err"
	rc=$?
	got=$(awk '/IMPORT_RES/ { print $3 }' "$t/status")
	if [ "$rc" = 0 ] && [ "$got" = "$n" ]; then
		echo "ok - $name: gpg --import of our armor: $got of $n"
	else
		echo "not ok - $name: gpg --import rc=$rc, processed '$got' of $n"
		sed 's/^/# /' "$t/err" | head -10
	fi
	listing "$t/a" >"$t/la"
	listing "$t/b" >"$t/lb"
	if [ -s "$t/la" ] && cmp -s "$t/la" "$t/lb"; then
		echo "ok - $name: gpg sees the same keys, user IDs and signatures"
	else
		echo "not ok - $name: gpg listings differ from the original's"
		diff "$t/la" "$t/lb" | head -10 | sed 's/^/# /'
	fi
}

cat vectors/verify/keys/*.pgp >"$t/vectors.pgp"
check "vectors/verify/keys" "$t/vectors.pgp" 1

if [ -d "$C/pgpkeys/keys" ]; then
	# the published files end without a line ending after the END line
	for k in "$C"/pgpkeys/keys/*.asc; do cat "$k"; echo; done >"$t/pgpkeys.asc"
	check "corpus pgpkeys (armored)" "$t/pgpkeys.asc" 1
else
	echo "skip - corpus absent (set WOTKIT_CORPUS): no pgpkeys round trip through gpg"
fi

found=0
for f in /usr/share/keyrings/*.gpg; do
	[ -f "$f" ] || continue
	found=1
	case $f in
	*/debian-keyring.gpg) check "$(basename "$f")" "$f" 0 ;;
	*) check "$(basename "$f")" "$f" 1 ;;
	esac
done
[ "$found" = 1 ] || echo "skip - no /usr/share/keyrings/*.gpg: no Debian keyring round trip through gpg"
