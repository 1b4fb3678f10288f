#!/bin/sh
# Real Debian data: every /var/lib/apt/lists/*InRelease verifies against
# debian-archive-keyring.gpg, with the same signer (primary) fingerprints
# as gpgv reports (VALIDSIG field 10). TAP output.
W=${WOTKIT:-./wotkit}
KR=/usr/share/keyrings/debian-archive-keyring.gpg
if [ ! -f "$KR" ]; then
	echo "skip - $KR missing (apt-get install debian-archive-keyring)"
	exit 0
fi
if ! command -v gpgv >/dev/null 2>&1; then
	echo "skip - gpgv not installed (the oracle)"
	exit 0
fi
n=0
for f in /var/lib/apt/lists/*InRelease; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	name=$(basename "$f")
	want=$(gpgv --keyring "$KR" --status-fd 1 "$f" 2>/dev/null | awk '$2 == "VALIDSIG" { print $12 }' | sort -u)
	got=$("$W" verify --json --keyring "$KR" "$f" 2>/dev/null |
	    python3 -c 'import sys, json
for s in json.load(sys.stdin)["signatures"]:
    if s["status"] == "ok": print(s["cert"])' | sort -u)
	if [ -z "$want" ]; then
		echo "skip - $name: gpgv reports no valid signature"
	elif [ "$want" = "$got" ]; then
		echo "ok - $name: signers $(echo $got | tr '\n' ' ')"
	else
		echo "not ok - $name: gpgv says [$(echo $want)], wotkit says [$(echo $got)]"
	fi
	# a one-bit change must fail
	t=$(mktemp)
	sed '0,/^Date:/s/^Date: ./Date: X/' "$f" > "$t"
	if "$W" verify --keyring "$KR" "$t" >/dev/null 2>&1; then
		echo "not ok - $name: tampered copy verifies"
	else
		echo "ok - $name: tampered copy fails"
	fi
	rm -f "$t"
done
[ "$n" -gt 0 ] || echo "skip - no InRelease files in /var/lib/apt/lists (run apt-get update)"
