#!/bin/sh
# tests/cli/keyrings.sh - every OpenPGP keyring a Debian machine ships under
# /usr/share/keyrings (debian-keyring, debian-archive-keyring,
# debian-maintainers, debian-nonupload, debian-role-keys, ...; install the
# debian-keyring and debian-archive-keyring packages) is readable end to end:
#   wotkit dump FILE         exit 0
#   wotkit dump --json FILE  exit 0, and python3's json module parses it
#   wotkit inspect --json FILE  exit 0, valid JSON, one entry per distinct
#                            primary key (copies merge), as many as gpg lists
# The real debian-keyring.gpg holds an MPI whose bit count does not match its
# value (offset 8160240): it must be a warning at that offset, not a stop.
# Set WOTKIT_KEYRINGS to test another directory. TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
K=${WOTKIT_KEYRINGS:-/usr/share/keyrings}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }

if [ ! -x "$W" ]; then
	notok "keyrings: $W is not built"
	exit 1
fi
n=0
for f in "$K"/*.gpg "$K"/*.pgp "$K"/*.asc; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	b=$(basename "$f")
	"$W" dump "$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
	[ "$rc" = 0 ] && ok "dump $b: exit 0" || notok "dump $b: exit $rc: $(head -1 "$tmp/err")"
	"$W" dump --json "$f" >"$tmp/j" 2>"$tmp/jerr"; rc=$?
	if [ "$rc" != 0 ]; then
		notok "dump --json $b: exit $rc: $(head -1 "$tmp/jerr")"
	elif ! command -v python3 >/dev/null 2>&1; then
		echo "skip - dump --json $b: python3 missing, JSON not parsed"
	elif python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$tmp/j" 2>"$tmp/perr"; then
		ok "dump --json $b: exit 0, valid JSON"
	else
		notok "dump --json $b: invalid JSON: $(tail -1 "$tmp/perr")"
	fi
	"$W" inspect --json "$f" >"$tmp/i" 2>"$tmp/ierr"; rc=$?
	if [ "$rc" != 0 ]; then
		notok "inspect --json $b: exit $rc: $(head -1 "$tmp/ierr")"
	elif ni=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1], encoding="utf-8"))["certificates"]))' "$tmp/i" 2>"$tmp/perr"); then
		# the oracle: distinct primary fingerprints as gpg lists them
		if command -v gpg >/dev/null 2>&1; then
			gpg --no-options --homedir "$tmp" --with-colons --show-keys "$f" 2>/dev/null |
			    awk -F: '$1 == "pub" { v = $2; want = 1; next } want && $1 == "fpr" { print $10, v; want = 0 }' |
			    sort -u >"$tmp/g"
			ng=$(wc -l <"$tmp/g")
			[ "$ni" = "$ng" ] && ok "inspect --json $b: $ni certificates, as gpg lists" ||
			    notok "inspect --json $b: $ni certificates, gpg lists $ng"
			# revoked means the same to both: a key revocation, never a revoked
			# user ID or anything else (gpg's validity field "r")
			python3 -c '
import json, sys
w = {c["primary"]["fingerprint"]: c["primary"]["status"]
     for c in json.load(open(sys.argv[1], encoding="utf-8"))["certificates"]}
bad = []
for line in open(sys.argv[2]):
    fpr, v = line.split()
    if (v == "r") != (w.get(fpr) == "revoked"):
        bad.append("%s gpg %s wotkit %s" % (fpr, v, w.get(fpr)))
print("; ".join(bad[:3]) + (" (%d in all)" % len(bad) if bad else ""))
sys.exit(1 if bad else 0)' "$tmp/i" "$tmp/g" >"$tmp/rv" 2>&1 &&
			    ok "inspect $b: revoked exactly where gpg says revoked" ||
			    notok "inspect $b: revocation states differ from gpg: $(cat "$tmp/rv")"
		else
			ok "inspect --json $b: exit 0, $ni certificates (gpg missing: not compared)"
		fi
	else
		notok "inspect --json $b: invalid JSON: $(tail -1 "$tmp/perr")"
	fi
	if [ "$b" = debian-keyring.gpg ]; then
		# the MPI found in the real keyring: reported as a warning, with its offset
		if grep -q ': offset 8160240: warning: MPI bit count does not match its value' "$tmp/err" &&
		    python3 -c '
import json, sys
d = json.load(open(sys.argv[1], encoding="utf-8"))
sys.exit(0 if any(w["offset"] == 8160240 for p in d["packets"] for w in p.get("warnings", [])) else 1)' "$tmp/j"; then
			ok "dump $b: the bad MPI bit count at 8160240 is a warning (text and JSON)"
		else
			notok "dump $b: no warning at offset 8160240: $(head -1 "$tmp/err")"
		fi
	fi
done
if [ "$n" = 0 ]; then
	echo "skip - keyrings: no keyring under $K (apt-get install debian-keyring debian-archive-keyring)"
fi
[ "$fails" -eq 0 ]
