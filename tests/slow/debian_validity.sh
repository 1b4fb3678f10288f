#!/bin/sh
# tests/slow/debian_validity.sh - `wotkit wot validity` (GnuPG's classic
# trust model, keyring/trust.h) against `gpg --check-trustdb` over Debian's
# keyring (905 keys) (make check-slow; a few minutes: gpg's import).
# Both at 2022-12-24 (the keyring's date; gpg with --faked-system-time),
# SHA-1 accepted as gpg 2.2 does, the key certifying the most others
# (`wot stats`) ultimately trusted, nothing else. Every key's validity
# letter must equal gpg's, except the keys listed in
# tests/slow/debian_validity.known with the letters given there and the
# reason (a certificate-semantics or policy difference, docs/wot.md and
# docs/disagreements.md). A listed key that now agrees fails too: the list
# must stay exact.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
RING=${1:-/usr/share/keyrings/debian-keyring.gpg}
KNOWN=$top/tests/slow/debian_validity.known
AT=2022-12-24T00:00:00Z
FAKE=20221224T000000!
if [ ! -f "$RING" ]; then echo "skip - $RING absent"; exit 0; fi
if ! command -v gpg >/dev/null; then echo "skip - gpg absent"; exit 0; fi
tmp=$(mktemp -d)
home=$tmp/gnupg
trap 'gpgconf --homedir "$home" --kill gpg-agent 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -m 700 "$home"
"$W" keyring build -o "$tmp/k.wk" "$RING" 2>/dev/null || { echo "not ok - keyring build"; exit 1; }
ROOT=$("$W" wot stats --keyring "$tmp/k.wk" --at $AT --allow-sha1 --top 1 --json |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["top"][0]["fpr"])')
echo "$ROOT:6:" >"$tmp/ot"
t0=$(date +%s)
gpg --homedir "$home" --batch --quiet --import "$RING" 2>/dev/null
gpg --homedir "$home" --batch --quiet --import-ownertrust <"$tmp/ot" 2>/dev/null
gpg --homedir "$home" --batch --quiet --faked-system-time $FAKE --check-trustdb 2>/dev/null
gpg --homedir "$home" --batch --faked-system-time $FAKE --with-colons --list-keys 2>/dev/null |
    awk -F: '$1 == "pub" { print $5, $2 }' | sort >"$tmp/gpg"
t1=$(date +%s)
"$W" wot validity --keyring "$tmp/k.wk" --root "$ROOT" --at $AT --allow-sha1 --trust-file "$tmp/ot" |
    awk '{ print $1, $2 }' | sed -e 's/ ultimate$/ u/;s/ full$/ f/;s/ marginal$/ m/;s/ undefined$/ q/' \
    -e 's/ unknown$/ -/;s/ expired$/ e/;s/ revoked$/ r/' | sort >"$tmp/wk"
t2=$(date +%s)
n=$(wc -l <"$tmp/gpg")
if [ "$n" -lt 800 ] || [ "$(cut -d' ' -f1 "$tmp/wk")" != "$(cut -d' ' -f1 "$tmp/gpg")" ]; then
	echo "not ok - debian validity: the key lists differ ($n keys from gpg, $(wc -l <"$tmp/wk") from wotkit)"
	exit 1
fi
# differences as "KEYID gpg wotkit"
join "$tmp/gpg" "$tmp/wk" | awk '$2 != $3' >"$tmp/diff"
grep -v '^#' "$KNOWN" | awk 'NF >= 3 { print $1, $2, $3 }' | sort >"$tmp/known"
fails=0
while read -r k g w; do
	if grep -q "^$k $g $w\$" "$tmp/known"; then
		echo "# known difference: $k gpg $g wotkit $w: $(grep "^$k " "$KNOWN" | cut -d' ' -f4-)"
	else
		echo "not ok - debian validity: $k gpg '$g' wotkit '$w' (not a known difference)"
		fails=$((fails + 1))
	fi
done <"$tmp/diff"
while read -r k g w; do
	grep -q "^$k $g $w\$" "$tmp/diff" || {
		echo "not ok - debian validity: known difference $k ($g/$w) is gone: update $KNOWN"
		fails=$((fails + 1)); }
done <"$tmp/known"
same=$((n - $(wc -l <"$tmp/diff")))
echo "# $n keys: $same letters equal to gpg's, $(wc -l <"$tmp/diff") known differences; gpg $((t1 - t0)) s (import + check-trustdb), wotkit $((t2 - t1)) s"
if [ $fails = 0 ]; then echo "ok - debian validity: $same of $n keys as gpg --check-trustdb, the rest explained"; fi
[ $fails = 0 ]
