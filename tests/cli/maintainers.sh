#!/bin/sh
# tests/cli/maintainers.sh - `wotkit maintainers` (cmd/maintainers.c,
# keyring/maint.h) on the hand-written MAINTAINERS fixture
# (tests/cli/lib/maintainers.fixture) against the keyring of the shared
# gpg-made fixture (tests/cli/lib/git_fixture.sh: root, a (root certified
# it), b (a certified it), untrusted (no certification), unknown (not in the
# keyring), expired (certified by root, expires 2024-01-01), revoked
# (certified by root, revoked when the fixture is made)):
#   - the human report at 2023-12-15 (expired expires in 17 days; "revoked"
#     is revoked although its revocation is made later: a compromise
#     revocation is final whatever its date, docs/semantics.md) and at
#     2100-01-01, written by hand from the fixture and the rules;
#   - --json: every address's status, role, sections and keys; counts;
#   - --within, --reviewers, exit codes (0 all ok, 1 listed, 2 errors);
#   - malformed files (NUL, an over-long line) refused with exit 2, a bad
#     N: expression warned about.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
WOTKIT=$W
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
check() { # name, command...: passes when the command succeeds
	n=$1; shift
	if "$@"; then ok "$n"; else nok "$n"; fi
}
if [ ! -x "$W" ]; then
	echo "not ok - maintainers: $W is not built"
	exit 1
fi
for t in git gpg python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skip - maintainers: $t not installed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/cli/lib/git_fixture.sh"
git_fixture_or_exit maintainers "$tmp/fx"
FX=$tmp/fx
K=$FX/keyring.wk
M=$top/tests/cli/lib/maintainers.fixture
fpr() { awk -v n="$1" '$1 == n { print $2 }' "$FX/keys.tsv"; }
mt() { "$W" maintainers --keyring "$K" "$@"; }
gf_fpr_in() { gpg --batch --with-colons --show-keys "$1" 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }'; }
jget() { python3 -c 'import json,sys; a=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$@"; }
jget_ok() { jget "$@" >/dev/null; }
same() { # name, expected file, got file
	if cmp -s "$2" "$3"; then ok "$1"; else nok "$1"; diff "$2" "$3" | sed 's/^/#   /' | head -20; fi
}

# ---- the human report at 2023-12-15, by hand
mt "$M" --at 2023-12-15 >"$tmp/h1.txt" 2>"$tmp/h1.err"; rc=$?
check "2023-12-15: exit 1 (problems listed) (got $rc)" [ $rc -eq 1 ]
check "2023-12-15: nothing on stderr" [ ! -s "$tmp/h1.err" ]
cat >"$tmp/h1.want" <<EOF
8 addresses (M:) in 6 sections, at 2023-12-15T00:00:00Z, window 30 days
no key in the keyring (2):
  nobody@example.org (GAMMA NETWORKING)
  unknown@example.org (GAMMA NETWORKING)
no path to the root (1):
  untrusted@example.org: key $(fpr untrusted): no path from the root within 4 hops (BETA SUBSYSTEM)
revoked or not valid (1):
  revoked@example.org: key $(fpr revoked): revoked (GAMMA NETWORKING)
expiring or expired (1):
  expired@example.org: key $(fpr expired): expires 2024-01-01T00:00:00Z (in 17 days) (ARM/SUNXI PLATFORM)
entries without an e-mail address (1):
  line 58: M: Somebody without an address (ORPHANED THING)
ok: 3 of 8
EOF
same "2023-12-15: the report" "$tmp/h1.want" "$tmp/h1.txt"

# ---- 2100-01-01, with reviewers: expired has expired, revoked is revoked
mt "$M" --at 2100-01-01 --reviewers >"$tmp/h2.txt"; rc=$?
check "2100: exit 1 (got $rc)" [ $rc -eq 1 ]
cat >"$tmp/h2.want" <<EOF
8 addresses (M: and R:) in 6 sections, at 2100-01-01T00:00:00Z, window 30 days
no key in the keyring (2):
  nobody@example.org (GAMMA NETWORKING)
  unknown@example.org (GAMMA NETWORKING)
no path to the root (1):
  untrusted@example.org: key $(fpr untrusted): no path from the root within 4 hops (BETA SUBSYSTEM)
revoked or not valid (1):
  revoked@example.org: key $(fpr revoked): revoked (GAMMA NETWORKING)
expiring or expired (1):
  expired@example.org: key $(fpr expired): expired 2024-01-01T00:00:00Z (ARM/SUNXI PLATFORM)
entries without an e-mail address (1):
  line 58: M: Somebody without an address (ORPHANED THING)
ok: 3 of 8
EOF
same "2100: the report" "$tmp/h2.want" "$tmp/h2.txt"

# ---- JSON
mt "$M" --at 2023-12-15 --json >"$tmp/j1.json"; rc=$?
check "json: exit 1 (got $rc)" [ $rc -eq 1 ]
check "json: parses" jget_ok "$tmp/j1.json" 'a["file"]'
got=$(jget "$tmp/j1.json" '" ".join(x["email"] + "=" + x["status"] for x in a["addresses"])')
want="a@example.org=ok b@example.org=ok expired@example.org=expiring nobody@example.org=no-key revoked@example.org=revoked root@example.org=ok unknown@example.org=no-key untrusted@example.org=no-path"
check "json: statuses ($got)" [ "$got" = "$want" ]
got=$(jget "$tmp/j1.json" '",".join(str(a["counts"][k]) for k in ["ok","expiring","no-path","expired","revoked","invalid","no-key","no-address"])')
check "json: counts ($got)" [ "$got" = "3,1,1,0,1,0,2,1" ]
got=$(jget "$tmp/j1.json" '[x for x in a["addresses"] if x["email"] == "b@example.org"][0]["keys"][0]["path"]')
check "json: b's path root, a, b" [ "$got" = "['$(fpr root)', '$(fpr a)', '$(fpr b)']" ]
got=$(jget "$tmp/j1.json" '[x for x in a["addresses"] if x["email"] == "expired@example.org"][0]["keys"][0]["expires"]')
check "json: expired's expiry ($got)" [ "$got" = "2024-01-01T00:00:00Z" ]
got=$(jget "$tmp/j1.json" '[x for x in a["addresses"] if x["email"] == "nobody@example.org"][0]["keys"]')
check "json: no keys for nobody" [ "$got" = "[]" ]
got=$(jget "$tmp/j1.json" 'a["no_address"][0]["line"], a["no_address"][0]["section"]')
check "json: no-address entry ($got)" [ "$got" = "(58, 'ORPHANED THING')" ]
check "json: root and time" [ "$(jget "$tmp/j1.json" 'a["root"] + " " + a["at"]')" = "$(fpr root) 2023-12-15T00:00:00Z" ]
mt "$M" --at 2023-12-15 --json --reviewers >"$tmp/j2.json"
got=$(jget "$tmp/j2.json" '[(x["role"], x["sections"]) for x in a["addresses"] if x["email"] in ("a@example.org", "b@example.org")]')
check "json --reviewers: R: addresses merged case-insensitively into their sections ($got)" \
	[ "$got" = "[('M', ['ALPHA DRIVER', 'GAMMA NETWORKING']), ('M', ['ALPHA DRIVER', 'BETA SUBSYSTEM'])]" ]
got=$(jget "$tmp/j1.json" '[x["sections"] for x in a["addresses"] if x["email"] == "a@example.org"][0]')
check "json without --reviewers: a's M: sections only" [ "$got" = "['ALPHA DRIVER']" ]

# ---- --within and exit 0: a file whose maintainers are all fine
cat >"$tmp/small" <<'EOF'
SMALL
M:	Alice <a@example.org>
M:	b@example.org
F:	small/

OTHER
M:	Expired <EXPIRED@example.org>
F:	other/
EOF
mt "$tmp/small" --at 2023-12-15 >"$tmp/s1.txt"; rc=$?
check "small, 30d: expired listed, exit 1 (got $rc)" [ $rc -eq 1 ]
check "small, 30d: one expiring" grep -qx 'expiring or expired (1):' "$tmp/s1.txt"
check "small, 30d: the address as written" grep -q '^  EXPIRED@example.org: key ' "$tmp/s1.txt"
mt "$tmp/small" --at 2023-12-15 --within 17d >"$tmp/s2.txt"; rc=$?
check "small, 17d: 17 days left is within (exit 1, got $rc)" [ $rc -eq 1 ]
mt "$tmp/small" --at 2023-12-15 --within 16d >"$tmp/s3.txt"; rc=$?
check "small, 16d: exit 0 (got $rc)" [ $rc -eq 0 ]
check "small, 16d: all ok" grep -qx 'ok: 3 of 3' "$tmp/s3.txt"
mt "$tmp/small" --at 2023-12-15 --within 2w >/dev/null; rc=$?
check "small, 2w: exit 0 (got $rc)" [ $rc -eq 0 ]

# ---- errors
mt >/dev/null 2>&1; rc=$?
check "no file: exit 2 (got $rc)" [ $rc -eq 2 ]
mt "$tmp/absent" >/dev/null 2>"$tmp/e.txt"; rc=$?
check "missing file: exit 2 (got $rc)" [ $rc -eq 2 ]
check "missing file: named" grep -q absent "$tmp/e.txt"
mt "$M" --within 3x >/dev/null 2>&1; rc=$?
check "bad --within: exit 2 (got $rc)" [ $rc -eq 2 ]
mt "$M" --bogus >/dev/null 2>&1; rc=$?
check "unknown option: exit 2 (got $rc)" [ $rc -eq 2 ]
printf 'T\nM:\ta@example.org\nF:\tx\000y\n' >"$tmp/nul"
mt "$tmp/nul" >"$tmp/o.txt" 2>"$tmp/e.txt"; rc=$?
check "NUL octet: exit 2 (got $rc)" [ $rc -eq 2 ]
check "NUL octet: said so" grep -q 'NUL' "$tmp/e.txt"
check "NUL octet: no report" [ ! -s "$tmp/o.txt" ]
{ printf 'T\nF:\t'; head -c 5000 /dev/zero | tr '\0' a; printf '\n'; } >"$tmp/long"
mt "$tmp/long" >/dev/null 2>"$tmp/e.txt"; rc=$?
check "over-long line: exit 2 (got $rc)" [ $rc -eq 2 ]
check "over-long line: the limit named" grep -q 'MAINT_MAX_LINE' "$tmp/e.txt"
printf 'T\nM:\ta@example.org\nN:\t[abc\n' >"$tmp/badn"
mt "$tmp/badn" >/dev/null 2>"$tmp/e.txt"; rc=$?
check "bad N: still checks the addresses (exit 0, got $rc)" [ $rc -eq 0 ]
check "bad N: warned with its line" grep -q 'line 3: N: pattern ignored' "$tmp/e.txt"
"$W" maintainers --keyring "$FX/pgpkeys" "$M" >/dev/null 2>&1; rc=$?
check "raw keys without a root: exit 2 (got $rc)" [ $rc -eq 2 ]

# ---- an address whose user ID is revoked does not count for the key
(
	GNUPGHOME=$FX/gen; export GNUPGHOME
	gf_gpg --faked-system-time "${GF_T0}!" --quick-gen-key 'multi <multi@example.org>' ed25519 sign,cert never &&
	mf=$(gf_fpr multi) &&
	gf_gpg --faked-system-time "${GF_T0}!" --quick-add-uid "$mf" 'multi <gone@example.org>' &&
	gf_gpg --faked-system-time "${GF_T0}!" -u "$(fpr root)" --quick-sign-key "$mf" &&
	gf_gpg --quick-revoke-uid "$mf" 'multi <gone@example.org>' &&
	gpg --batch -a --export "$mf" >"$tmp/multi.asc" &&
	"$W" keyring build -o "$tmp/k2.wk" --root "$(fpr root)" "$FX/pgpkeys" "$tmp/multi.asc"
) >"$tmp/multi.log" 2>&1
mr=$?
gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
if [ $mr -eq 0 ]; then
	printf 'MULTI\nM:\tmulti@example.org\nM:\tMulti <gone@example.org>\nF:\tm/\n' >"$tmp/multi"
	"$W" maintainers --keyring "$tmp/k2.wk" --at 2100-01-01 --json "$tmp/multi" >"$tmp/m.json"; rc=$?
	check "revoked user ID: exit 1 (got $rc)" [ $rc -eq 1 ]
	got=$(jget "$tmp/m.json" '[(x["email"], x["status"], x["keys"][0]["reason"] if x["keys"][0]["status"] != "ok" else None) for x in a["addresses"]]')
	check "revoked user ID: gone invalid, multi ok ($got)" \
		[ "$got" = "[('gone@example.org', 'invalid', 'user ID revoked or not bound'), ('multi@example.org', 'ok', None)]" ]
	"$W" maintainers --keyring "$tmp/k2.wk" --at 2100-01-01 "$tmp/multi" >"$tmp/m.txt"
	check "revoked user ID: human line" grep -qx "  gone@example.org: key $(gf_fpr_in "$tmp/multi.asc"): the user ID with this address is revoked or not bound (MULTI)" "$tmp/m.txt"
	"$W" maintainers --keyring "$tmp/k2.wk" --at 2023-12-15 "$tmp/multi" >/dev/null; rc=$?
	check "revoked user ID: before the revocation both ok (exit 0, got $rc)" [ $rc -eq 0 ]
else
	cat "$tmp/multi.log" >&2
	nok "revoked user ID: making the key"
fi

[ "$fails" -eq 0 ]
