#!/bin/sh
# tests/cli/gpg_dropin.sh - the gpg drop-in (`wotkit gpg`, `wotkit-gpg`;
# docs/gpg.md) side by side with GnuPG 2.2 on the same keys and ownertrust:
# every case runs real gpg and the drop-in with the same command line and
# compares status lines (KEY_CONSIDERED, SIG_ID and PLAINTEXT* left out:
# docs/gpg.md), the human lines on stderr and the exit code. Keys are made
# here with gpg (ed25519). Skips when gpg is absent. TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
if [ ! -x "$W" ]; then
	echo "not ok - gpg_dropin: $W is not built"
	exit 1
fi
if ! command -v gpg >/dev/null 2>&1; then
	echo "skip - gpg_dropin: gpg is not installed (the oracle)"
	exit 0
fi
t=$(mktemp -d)
trap 'gpgconf --homedir "$t/g" --kill all >/dev/null 2>&1; gpgconf --homedir "$t/v" --kill all >/dev/null 2>&1; rm -rf "$t"' EXIT
LC_ALL=C TZ=UTC; export LC_ALL TZ
unset GNUPGHOME
WOTKIT_KEYRING=$t/none.wk; export WOTKIT_KEYRING
XDG_CACHE_HOME=$t/cache; export XDG_CACHE_HOME   # the validity cache (cmd/gpg_vcache.c)
ln -s "$W" "$t/wotkit-gpg"
WG=$t/wotkit-gpg
pass=0 fail=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; }

G() { gpg --homedir "$t/g" --batch --quiet --pinentry-mode loopback --passphrase '' "$@"; }
fpr_of() { G --with-colons --list-keys "$1" 2>/dev/null | awk -F: '/^fpr/ { print $10; exit }'; }
now=$(date +%s)
past=$((now - 30 * 86400))

# ---- keys ----
mkdir -m 700 "$t/g" "$t/v"
G --quick-gen-key 'root <root@example.org>' ed25519 sign never
G --quick-gen-key 'alice <alice@example.org>' ed25519 sign never
G --quick-gen-key 'bob <bob@example.org>' ed25519 sign never
G --quick-gen-key 'carol <carol@example.org>' ed25519 sign never
G --quick-gen-key 'rev <rev@example.org>' ed25519 sign never
G --quick-gen-key 'sub <sub@example.org>' ed25519 cert never
G --quick-gen-key 'unknown <unknown@example.org>' ed25519 sign never
G --faked-system-time "$past!" --quick-gen-key 'exp <exp@example.org>' ed25519 sign 1d 2>/dev/null
G --faked-system-time "$past!" --quick-gen-key 'old <old@example.org>' ed25519 sign never 2>/dev/null
R=$(fpr_of root@example.org) A=$(fpr_of alice@example.org) B=$(fpr_of bob@example.org)
C=$(fpr_of carol@example.org) V=$(fpr_of rev@example.org) S=$(fpr_of sub@example.org)
U=$(fpr_of unknown@example.org) X=$(fpr_of exp@example.org) O=$(fpr_of old@example.org)
G --quick-add-key "$S" ed25519 sign never
# more user IDs, added in octet order (a wotkit keyring stores them sorted, gpg
# in keyring order: docs/gpg.md); the longest is gpg's primary (same second)
G --quick-add-uid "$A" 'alice second <alice2@example.org>'
G --quick-add-uid "$A" 'alice third: b\s %p <alice3@example.org>'
G -u "$R" --quick-sign-key "$A" >/dev/null 2>&1
G -u "$R" --quick-sign-key "$V" >/dev/null 2>&1
G -u "$A" --quick-sign-key "$C" >/dev/null 2>&1
if [ -z "$R" ] || [ -z "$A" ] || [ -z "$X" ] || [ -z "$O" ]; then
	echo "not ok - gpg_dropin: could not make the test keys"
	exit 1
fi

# ---- signatures ----
printf 'hello\n' >"$t/data"
printf 'hellx\n' >"$t/bad"
G -u "$R" -b -o "$t/r.sig" "$t/data"
G -u "$A" -b -a -o "$t/a.sig" "$t/data"
G -u "$B" -b -a -o "$t/b.sig" "$t/data"
G -u "$C" -b -a -o "$t/c.sig" "$t/data"
G -u "$V" -b -a -o "$t/v.sig" "$t/data"
G -u "$S" -b -a -o "$t/s.sig" "$t/data"
G -u "$U" -b -a -o "$t/u.sig" "$t/data"
G -u "$A" -u "$S" -b -a -o "$t/two.sig" "$t/data"
G -u "$B" -u "$U" -b -a -o "$t/two_nokey.sig" "$t/data"
G --faked-system-time "$((past + 3600))!" -u "$X" -b -a -o "$t/x.sig" "$t/data" 2>/dev/null
G --faked-system-time "$((past + 3600))!" --default-sig-expire 1d -u "$O" -b -a \
    -o "$t/es.sig" "$t/data" 2>/dev/null
G -u "$A" -s -o "$t/inline.gpg" "$t/data"
G -u "$U" -s -o "$t/inline_nokey.gpg" "$t/data"
G -u "$A" --clearsign -o "$t/clear.asc" "$t/data"
# rev is revoked after it signed (a revocation without a reason: "No reason specified")
sed 's/^:-----BEGIN/-----BEGIN/' "$t/g/openpgp-revocs.d/$V.rev" >"$t/rev.asc"
G --import "$t/rev.asc" 2>/dev/null
for f in r a b c v s u two two_nokey x es; do
	[ -s "$t/$f.sig" ] || { echo "not ok - gpg_dropin: gpg made no $f.sig"; exit 1; }
done

# ---- the verifier's side: gpg home and wotkit keyring, same keys and ownertrust ----
G --export "$R" "$A" "$B" "$C" "$V" "$S" "$X" "$O" >"$t/pub.gpg"
V_() { gpg --homedir "$t/v" --batch "$@"; }
V_ --import "$t/pub.gpg" 2>/dev/null
printf '%s:6:\n%s:4:\n' "$R" "$A" | V_ --import-ownertrust 2>/dev/null
V_ --check-trustdb >/dev/null 2>&1
"$W" keyring build -o "$t/k.wk" --root "$R" "$t/pub.gpg" >/dev/null 2>&1
V_ --export-ownertrust >"$t/ot.txt" 2>/dev/null
if "$W" wot trust --keyring "$t/k.wk" --import "$t/ot.txt" >/dev/null 2>&1; then
	ok "wotkit keyring with the root and gpg's ownertrust"
else
	nok "wotkit keyring with the root and gpg's ownertrust"
fi

# filter: status lines the drop-in does not write, and gpg's trustdb chatter
# SIG_ID is written for detached signatures only: NOSIGID=1 filters it too
filt() {
	if [ "${NOSIGID:-0}" = 1 ]; then sigid='^\[GNUPG:\] SIG_ID'; else sigid='^\[GNUPG:\] NO SUCH LINE'; fi
	grep -v -e '^\[GNUPG:\] KEY_CONSIDERED' -e "$sigid" -e '^\[GNUPG:\] PLAINTEXT' \
	    -e 'checking the trustdb' -e 'marginals needed' -e 'gpg: depth:' \
	    -e 'next trustdb check' -e 'unsafe permissions' -e 'keybox .* created' \
	    -e 'trustdb created' -e 'signatures\? not checked due to missing key' \
	    -e 'no ultimately trusted keys found' -e '^tru:' -e 'please do a --check-trustdb' "$1"
}

# same NAME STDIN -- ARGS...: gpg (home $t/v) vs the drop-in (keyring k.wk)
same() {
	name=$1 in=$2; shift 3
	gpg --homedir "$t/v" "$@" <"$in" >"$t/g.out" 2>"$t/g.err"; grc=$?
	WOTKIT_KEYRING=$t/k.wk "$WG" "$@" <"$in" >"$t/w.out" 2>"$t/w.err"; wrc=$?
	compare "$name"
}
compare() {
	filt "$t/g.out" >"$t/g.o"; filt "$t/w.out" >"$t/w.o"
	filt "$t/g.err" >"$t/g.e"; filt "$t/w.err" >"$t/w.e"
	if [ "$grc" != "$wrc" ]; then
		nok "$1: exit $wrc, gpg $grc"; sed 's/^/# /' "$t/w.e" | head -5
	elif ! cmp -s "$t/g.o" "$t/w.o"; then
		nok "$1: stdout differs from gpg's"; diff "$t/g.o" "$t/w.o" | sed 's/^/# /' | head -12
	elif ! cmp -s "$t/g.e" "$t/w.e"; then
		nok "$1: stderr differs from gpg's"; diff "$t/g.e" "$t/w.e" | sed 's/^/# /' | head -12
	else
		ok "$1 (exit $wrc, as gpg)"
	fi
}
has() { # name, file, pattern
	if grep -q -- "$3" "$2"; then ok "$1"; else nok "$1: no '$3'"; sed 's/^/# /' "$2" | head -6; fi
}

# ---- git: --status-fd=1 --keyid-format=long --verify SIGFILE - ----
GIT="--status-fd=1 --keyid-format=long --verify"
same "git: good, root (ultimate), binary signature" "$t/data" -- $GIT "$t/r.sig" -
has "... TRUST_ULTIMATE 0 pgp" "$t/w.out" '^\[GNUPG:\] TRUST_ULTIMATE 0 pgp$'
same "git: good, alice (full, with aka lines)" "$t/data" -- $GIT "$t/a.sig" -
has "... GOODSIG after NEWSIG, not first" "$t/w.out" '^\[GNUPG:\] GOODSIG '
[ "$(head -1 "$t/w.out")" = "[GNUPG:] NEWSIG" ] && ok "... NEWSIG first" || nok "... NEWSIG first"
has "... SIG_ID as gpg computes it" "$t/g.out" '^\[GNUPG:\] SIG_ID '
has "... VALIDSIG with 10 fields" "$t/w.out" "^\[GNUPG:\] VALIDSIG $A [0-9-]* [0-9]* 0 4 0 22 8 00 $A\$"
same "git: good, carol (marginal: alice is a marginal introducer)" "$t/data" -- $GIT "$t/c.sig" -
has "... TRUST_MARGINAL" "$t/w.out" '^\[GNUPG:\] TRUST_MARGINAL 0 pgp$'
same "git: good, bob (no path: undefined)" "$t/data" -- $GIT "$t/b.sig" -
has "... TRUST_UNDEFINED" "$t/w.out" '^\[GNUPG:\] TRUST_UNDEFINED 0 pgp$'
same "git: bad signature (BADSIG)" "$t/bad" -- $GIT "$t/a.sig" -
has "... BADSIG" "$t/w.out" "^\[GNUPG:\] BADSIG ${A#????????????????????????} alice third: b.s %25p <alice3@example.org>\$"
same "git: no public key (ERRSIG + NO_PUBKEY)" "$t/data" -- $GIT "$t/u.sig" -
has "... ERRSIG rc 9" "$t/w.out" "^\[GNUPG:\] ERRSIG ${U#????????????????????????} 22 8 00 [0-9]* 9 $U\$"
same "git: expired key (EXPKEYSIG, no TRUST line)" "$t/data" -- $GIT "$t/x.sig" -
has "... EXPKEYSIG" "$t/w.out" '^\[GNUPG:\] EXPKEYSIG '
same "git: revoked key (REVKEYSIG, KEYREVOKED, reason)" "$t/data" -- $GIT "$t/v.sig" -
has "... REVKEYSIG" "$t/w.out" '^\[GNUPG:\] REVKEYSIG '
same "git: expired signature (EXPSIG, exit 1)" "$t/data" -- $GIT "$t/es.sig" -
has "... EXPSIG" "$t/w.out" '^\[GNUPG:\] EXPSIG '
same "git: signing subkey (VALIDSIG field 10 = primary)" "$t/data" -- $GIT "$t/s.sig" -
has "... primary fingerprint in field 10" "$t/w.out" "^\[GNUPG:\] VALIDSIG [0-9A-F]* .* $S\$"
same "git: two signatures, two sequences" "$t/data" -- $GIT "$t/two.sig" -
[ "$(grep -c '^\[GNUPG:\] NEWSIG' "$t/w.out")" = 2 ] && ok "... two NEWSIG" || nok "... two NEWSIG"
same "git: two signatures, one without key (exit 2)" "$t/data" -- $GIT "$t/two_nokey.sig" -
same "git: bad data against two signatures" "$t/bad" -- $GIT "$t/two.sig" -
same "git: status on fd 2, interleaved with the human lines" "$t/data" -- \
    --status-fd=2 --keyid-format=long --verify "$t/a.sig" -
same "detached with the data file named" /dev/null -- --status-fd=1 --verify "$t/a.sig" "$t/data"
same "not a signature" "$t/data" -- --status-fd=1 --verify "$t/data" -

# ---- patatt / b4: inline-signed message on stdin, content on stdout ----
PAT="--batch --no-auto-key-retrieve --no-auto-check-trustdb"
NOSIGID=1
same "patatt: inline-signed, --output -, status on fd 2" "$t/inline.gpg" -- \
    $PAT --verify --output - --status-fd=2
has "... the content on stdout" "$t/w.out" '^hello$'
same "patatt: inline-signed, no public key" "$t/inline_nokey.gpg" -- \
    $PAT --verify --output - --status-fd=2
same "cleartext-signed message" "$t/clear.asc" -- $PAT --verify --status-fd=1
NOSIGID=0

# ---- patatt: --import into --homedir TMP --keyring pub, then verify ----
mkdir -m 700 "$t/pg" "$t/pw"
G --export -a "$A" >"$t/a.asc"
KR="--no-default-keyring --keyring pub"
gpg $PAT --homedir "$t/pg" $KR --status-fd=1 --import <"$t/a.asc" >"$t/g.out" 2>"$t/g.err"; grc=$?
"$WG" $PAT --homedir "$t/pw" $KR --status-fd=1 --import <"$t/a.asc" >"$t/w.out" 2>"$t/w.err"; wrc=$?
compare "patatt: --import an armored key into a new keyring"
has "... IMPORT_OK" "$t/w.out" "^\[GNUPG:\] IMPORT_OK 1 $A\$"
[ -s "$t/pw/pub" ] && ok "... the keyring file pub was written" || nok "... no keyring file pub"
if gpg --show-keys --with-colons "$t/pw/pub" 2>/dev/null | grep -q "^fpr:::::::::$A:"; then
	ok "... pub holds the key (binary OpenPGP, gpg reads it)"
else
	nok "... pub does not hold the key"
fi
gpg $PAT --homedir "$t/pg" $KR --status-fd=1 --import <"$t/pub.gpg" >"$t/g.out" 2>"$t/g.err"; grc=$?
"$WG" $PAT --homedir "$t/pw" $KR --status-fd=1 --import <"$t/pub.gpg" >"$t/w.out" 2>"$t/w.err"; wrc=$?
compare "patatt: --import binary keys, one unchanged, six new"
cp "$t/pw/pub" "$t/pub.before"
"$WG" $PAT --homedir "$t/pw" $KR --status-fd=1 --import <"$t/pub.gpg" >"$t/w.out" 2>&1
cmp -s "$t/pw/pub" "$t/pub.before" && ok "... importing again changes nothing" || nok "... importing again changed pub"
has "... IMPORT_RES: 8 unchanged" "$t/w.out" '^\[GNUPG:\] IMPORT_RES 8 0 0 0 8 0 0 0 0 0 0 0 0 0 0$'
gpg $PAT --homedir "$t/pg" $KR --verify --output - --status-fd=2 <"$t/inline.gpg" \
	    >"$t/g.out" 2>"$t/g.err"; grc=$?
"$WG" $PAT --homedir "$t/pw" $KR --verify --output - --status-fd=2 <"$t/inline.gpg" \
    >"$t/w.out" 2>"$t/w.err"; wrc=$?
NOSIGID=1
compare "patatt: verify against the imported raw keyring (no root: undefined)"
NOSIGID=0
has "... TRUST_UNDEFINED, as gpg in a fresh home" "$t/w.err" '^\[GNUPG:\] TRUST_UNDEFINED 0 pgp$'
gpg $PAT --homedir "$t/pg" $KR --status-fd=1 --verify "$t/x.sig" - <"$t/data" >"$t/g.out" 2>"$t/g.err"; grc=$?
"$WG" $PAT --homedir "$t/pw" $KR --status-fd=1 --verify "$t/x.sig" - <"$t/data" >"$t/w.out" 2>"$t/w.err"; wrc=$?
compare "raw keyring: expired key"
mkdir -p "$t/sub"
gpg $PAT --homedir "$t/pg" --no-default-keyring --keyring "$t/pg/pub" --status-fd=1 --verify "$t/b.sig" - \
    <"$t/data" >"$t/g.out" 2>"$t/g.err"; grc=$?
(cd "$t/sub" && "$WG" $PAT --no-default-keyring --keyring ../pw/pub --status-fd=1 --verify "$t/b.sig" - \
    <"$t/data" >"$t/w.out" 2>"$t/w.err"); wrc=$?
compare "--keyring with a '/' is a path (relative to the working directory)"

# ---- b4: --with-colons --list-keys / --fingerprint ----
for k in "$A" "${A#????????????????????????}" "$S" "${S#????????????????????????}" "$X" "$V" \
    "$C" "$R" bob@example.org "<carol@example.org>"; do
	same "--with-colons --list-keys $k" /dev/null -- $PAT --with-colons --list-keys "$k"
done
same "--with-colons --fingerprint (sub)key" /dev/null -- $PAT --with-colons --fingerprint "$S"
same "--with-colons --list-keys of a missing key (exit 2)" /dev/null -- \
    $PAT --with-colons --list-keys 0123456789ABCDEF
# (gpg prints a "tru:" record of its trustdb: the drop-in has none; filt drops it)
for k in "$A" "$X"; do
	gpg $PAT --homedir "$t/pg" $KR --with-colons --list-keys "$k" >"$t/g.out" 2>"$t/g.err"; grc=$?
	"$WG" $PAT --homedir "$t/pw" $KR --with-colons --list-keys "$k" >"$t/w.out" 2>"$t/w.err"; wrc=$?
	compare "raw keyring: --with-colons --list-keys $k"
done
same "uid field 10 escaped as gpg (':' and '\\' as \\x3a, \\x5c)" /dev/null -- \
    $PAT --with-colons --list-keys alice3@example.org

# the user ID in status lines: %XX escapes
G --quick-gen-key "$(printf 'Esc %%p\ttab <esc@example.org>')" ed25519 sign never
E=$(fpr_of esc@example.org)
G -u "$E" -b -o "$t/e.sig" "$t/data"
G --export "$E" | V_ --import 2>/dev/null
G --export "$E" >"$t/e.gpg"
V_ --check-trustdb >/dev/null 2>&1
"$W" keyring build -o "$t/k.wk" --root "$R" "$t/pub.gpg" "$t/e.gpg" >/dev/null 2>&1
same "status-line escapes of the user ID (%25, %09)" "$t/data" -- $GIT "$t/e.sig" -
has "... %XX" "$t/w.out" 'GOODSIG [0-9A-F]* Esc %25p%09tab <esc@example.org>$'

# a soft revocation (superseded) made after the signature: good for wotkit's
# verifier (RFC 9580), REVKEYSIG for gpg, and so for the drop-in. gpg makes
# such a revocation only on a terminal: script(1) gives it one.
if command -v script >/dev/null 2>&1; then
	G --quick-gen-key 'sup <sup@example.org>' ed25519 sign never
	P=$(fpr_of sup@example.org)
	G -u "$P" -b -o "$t/p.sig" "$t/data"
	G --export "$P" >"$t/p.gpg"
	printf 'y\n2\nnew key\n\ny\n' | script -qc "gpg --homedir '$t/g' --command-fd 0 \
	    --pinentry-mode loopback --passphrase '' -o '$t/p.rev' --gen-revoke $P" /dev/null \
	    >/dev/null 2>&1
	if [ -s "$t/p.rev" ]; then
		mkdir -m 700 "$t/v3"
		gpg --homedir "$t/v3" --batch --import "$t/p.gpg" "$t/p.rev" >/dev/null 2>&1
		gpg --homedir "$t/v3" --check-trustdb >/dev/null 2>&1
		{ cat "$t/p.gpg"; gpg --dearmor <"$t/p.rev"; } >"$t/p.ring"
		gpg --homedir "$t/v3" $GIT "$t/p.sig" - <"$t/data" >"$t/g.out" 2>"$t/g.err"; grc=$?
		"$WG" --keyring "$t/p.ring" $GIT "$t/p.sig" - <"$t/data" >"$t/w.out" 2>"$t/w.err"; wrc=$?
		compare "key revoked as superseded after the signature (REVKEYSIG, reason, comment)"
		has "... REVKEYSIG" "$t/w.out" '^\[GNUPG:\] REVKEYSIG '
	else
		echo "skip - soft revocation: gpg --gen-revoke failed under script(1)"
	fi
else
	echo "skip - soft revocation: script(1) is not installed"
fi

# ---- the validity cache: same answers warm and cold, invalidated by a trust change ----
"$W" keyring build -o "$t/k.wk" --root "$R" "$t/pub.gpg" "$t/e.gpg" >/dev/null 2>&1
rm -rf "$t/cache"
WOTKIT_KEYRING=$t/k.wk "$WG" $GIT "$t/c.sig" - <"$t/data" >"$t/cold.out" 2>"$t/cold.err"
n=$(ls "$t/cache/wotkit/gpg" 2>/dev/null | grep -c '\.validity$')
[ "$n" = 1 ] && ok "the first run writes the validity cache" || nok "validity cache files: $n"
WOTKIT_KEYRING=$t/k.wk "$WG" $GIT "$t/c.sig" - <"$t/data" >"$t/warm.out" 2>"$t/warm.err"
cmp -s "$t/cold.out" "$t/warm.out" && cmp -s "$t/cold.err" "$t/warm.err" &&
    ok "... a run from the cache says the same (TRUST_MARGINAL)" || nok "... cached run differs"
grep -q '^\[GNUPG:\] TRUST_MARGINAL' "$t/warm.out" || nok "... cached run: no TRUST_MARGINAL"
"$W" wot trust --keyring "$t/k.wk" "$A" full >/dev/null 2>&1
WOTKIT_KEYRING=$t/k.wk "$WG" $GIT "$t/c.sig" - <"$t/data" >"$t/w.out" 2>"$t/w.err"
has "... a changed trust file invalidates it (carol now full)" "$t/w.out" '^\[GNUPG:\] TRUST_FULLY 0 pgp$'
WOTKIT_GPG_NO_CACHE=1 WOTKIT_KEYRING=$t/k.wk "$WG" $GIT "$t/c.sig" - <"$t/data" >"$t/n.out" 2>&1
has "... WOTKIT_GPG_NO_CACHE=1: computed, the same" "$t/n.out" '^\[GNUPG:\] TRUST_FULLY 0 pgp$'
WOTKIT_KEYRING=$t/k.wk "$WG" --faked-system-time "$((now + 400 * 86400))" $GIT "$t/c.sig" - \
    <"$t/data" >"$t/w.out" 2>"$t/w.err"
WOTKIT_GPG_NO_CACHE=1 WOTKIT_KEYRING=$t/k.wk "$WG" --faked-system-time "$((now + 400 * 86400))" \
    $GIT "$t/c.sig" - <"$t/data" >"$t/n.out" 2>"$t/n.err"
cmp -s "$t/w.out" "$t/n.out" && ok "... another reference time is not answered from the cache" ||
    nok "... another reference time answered from the cache"
"$W" wot trust --keyring "$t/k.wk" "$A" marginal >/dev/null 2>&1

# ---- refusals, ignored options, names ----
refused() {
	name=$1; shift
	"$WG" "$@" </dev/null >"$t/w.out" 2>"$t/w.err"; wrc=$?
	if [ "$wrc" = 2 ] && grep -q 'not supported' "$t/w.err" && [ ! -s "$t/w.out" ]; then
		ok "$name: refused, exit 2"
	else
		nok "$name: exit $wrc"; sed 's/^/# /' "$t/w.err" | head -3
	fi
}
refused "git signing (--status-fd=2 -bsau KEY)" --status-fd=2 -bsau "$A"
refused "patatt signing (-s -u KEY)" --batch -s -u "$A"
refused "--clearsign" --clearsign
refused "--encrypt -r KEY" --encrypt -r "$A"
refused "--decrypt" --decrypt "$t/inline.gpg"
refused "--export" --export "$A"
refused "--list-secret-keys" --list-secret-keys
cp "$t/k.wk" "$t/k2.wk"
WOTKIT_KEYRING=$t/k2.wk "$WG" --import <"$t/a.asc" >"$t/w.out" 2>"$t/w.err"; wrc=$?
if [ "$wrc" = 2 ] && grep -q 'wotkit keyring file' "$t/w.err" && cmp -s "$t/k.wk" "$t/k2.wk"; then
	ok "--import into a wotkit keyring file: refused, file unchanged"
else
	nok "--import into a wotkit keyring file: exit $wrc"
fi
WOTKIT_KEYRING=$t/k.wk "$WG" --no-tty --some-future-option --trust-model pgp --keyserver \
    hkps://keys.example --status-fd=1 --verify "$t/a.sig" - <"$t/data" >"$t/w.out" 2>"$t/w.err"; wrc=$?
[ "$wrc" = 0 ] && grep -q '^\[GNUPG:\] GOODSIG' "$t/w.out" && ok "unknown options ignored, known ones skip their value" \
    || nok "unknown / value options: exit $wrc"
WOTKIT_KEYRING=$t/k.wk "$W" gpg --status-fd=1 --verify "$t/a.sig" - <"$t/data" >"$t/w.out" 2>"$t/w.err"; wrc=$?
[ "$wrc" = 0 ] && grep -q '^\[GNUPG:\] GOODSIG' "$t/w.out" && ok "wotkit gpg ARGS (subcommand)" || nok "wotkit gpg: exit $wrc"
"$WG" --version >"$t/w.out" 2>&1
[ "$(head -1 "$t/w.out")" = "gpg (GnuPG) 2.2.40" ] && ok "--version: gpg's first line" || nok "--version: $(head -1 "$t/w.out")"
"$WG" --keyring "$t/k.wk" --faked-system-time "$((past + 7200))" --status-fd=1 --verify "$t/x.sig" - \
    <"$t/data" >"$t/w.out" 2>"$t/w.err"
has "--faked-system-time: the expired key was valid then (GOODSIG)" "$t/w.out" '^\[GNUPG:\] GOODSIG '
if [ -x "$top/wotkit-gpg" ]; then
	[ "$(readlink "$top/wotkit-gpg")" = wotkit ] && ok "make links ./wotkit-gpg -> wotkit" || nok "./wotkit-gpg is no link to wotkit"
fi
exit 0
