#!/bin/sh
# tests/cli/refresh.sh - `wotkit refresh` (cmd/refresh*.c, docs/refresh.md)
# end to end, on keys made with real gpg (tests/cli/lib/git_fixture.sh) and a
# local "pgpkeys.git" made here: a real git repository whose commits are
# signed with gpg, and a clone of it.
#   upstream  C0 (signed by root: the fixture's pgpkeys tree, the same keys as
#             the user's keyring) -> C1 (signed by a: root certifies b, a gains
#             a subkey, "expired" gets a new expiry, a new key "newbie"
#             certified by root) = master; branches off C1 for the refusals
#             (unsigned, untrusted, unknown, expired and revoked signers, a
#             tampered commit), "old" = C0 (rollback), two audit branches
#             (an unsigned commit in the middle; a commit signed by a key
#             that only the commit itself adds).
# Checked: merge-only updates only existing keys and reports the changes
# (--json parsed); --all adds the new key; a second run is up to date;
# every refusal exits 1 naming the verdict and leaves the keyring and the
# state file byte-identical (cmp); direct ultimate ownertrust; rollback and
# --allow-rewind; --dry-run; --audit; --remote file:// with --cache; -q;
# kill -9 at random moments during refresh (the keyring is the old or the
# new file, byte for byte, and opens). TAP output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
WOTKIT=$W
fails=0
n=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"
	[ -f "$tmp/err" ] && sed 's/^/# err: /' "$tmp/err" | head -6
	[ -f "$tmp/out" ] && sed 's/^/# out: /' "$tmp/out" | head -6
}
check() { # name, command...
	nm=$1; shift
	if "$@"; then ok "$nm"; else nok "$nm"; fi
}
if [ ! -x "$W" ] || [ ! -x "${WOTKIT_GIT:-$top/wotkit-git}" ]; then
	echo "not ok - refresh: $W or wotkit-git is not built"
	exit 1
fi
for t in git gpg python3; do
	if ! command -v $t >/dev/null 2>&1; then
		echo "skip - refresh: $t not installed"
		exit 0
	fi
done
tmp=$(mktemp -d)
trap 'for h in "$tmp/fx/gen" "$tmp/revhome"; do gpgconf --homedir "$h" --kill gpg-agent 2>/dev/null; done; rm -rf "$tmp"' EXIT
[ -n "$RF_KEEP" ] && trap - EXIT && echo "# kept $tmp"
. "$top/tests/cli/lib/git_fixture.sh"
git_fixture_or_exit refresh "$tmp/fx"
FX=$tmp/fx
fpr() { awk -v n="$1" '$1 == n { print $2 }' "$FX/keys.tsv"; }
kid() { fpr "$1" | cut -c25-40; }
ROOT=$(fpr root) A=$(fpr a) B=$(fpr b) EXP=$(fpr expired) UNTR=$(fpr untrusted)


# ---- the upstream pgpkeys.git and the user's clone
UP=$tmp/up
CL=$tmp/clone
# (not on the left of ||: set -e holds inside)
(
	unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL
	GIT_CONFIG_NOSYSTEM=1 HOME=$tmp GNUPGHOME=$FX/gen
	export GIT_CONFIG_NOSYSTEM HOME GNUPGHOME
	g() { gpg --batch --yes --quiet --no-tty --passphrase '' --pinentry-mode loopback "$@"; }
	exp() { g -a --export "$(fpr "$1")" >"keys/$(kid "$1").asc"; }
	sc() { # BRANCH-or-- KEYNAME|- MESSAGE [gpg.program]: a commit touching notes.txt
		echo "$3" >>notes.txt && git add notes.txt || return 1
		if [ "$2" = - ]; then git commit -q -m "$3"
		elif [ -n "$4" ]; then git -c gpg.program="$4" commit -q -S"$(fpr "$2")!" -m "$3"
		else git commit -q -S"$(fpr "$2")!" -m "$3"; fi
	}
	# the revoked key's secret key without its revocation (gpg signs with
	# no revoked key): the key revocation packets (signature type 0x20)
	# dropped from the export, in a home of its own
	mkdir -m 700 "$tmp/revhome"
	g --export-secret-keys "$(fpr revoked)" | python3 -c '
import sys
d = sys.stdin.buffer.read(); o = bytearray(); i = 0
while i < len(d):
    h = d[i]; assert h & 0x80
    if h & 0x40:
        tag = h & 0x3f; l0 = d[i + 1]
        if l0 < 192: hl, n = 2, l0
        elif l0 < 224: hl, n = 3, ((l0 - 192) << 8) + d[i + 2] + 192
        else: assert l0 == 255; hl, n = 6, int.from_bytes(d[i + 2:i + 6], "big")
    else:
        tag = (h >> 2) & 0x0f; lt = h & 3; hl = 1 + [1, 2, 4][lt]
        n = int.from_bytes(d[i + 1:i + hl], "big")
    p = d[i:i + hl + n]; body = d[i + hl:i + hl + n]
    if not (tag == 2 and body[0] == 4 and body[1] == 0x20): o += p
    i += hl + n
sys.stdout.buffer.write(bytes(o))' >"$tmp/revoked-norev.gpg"
	GNUPGHOME=$tmp/revhome g --import "$tmp/revoked-norev.gpg"
	printf '#!/bin/sh\nGNUPGHOME=%s exec gpg --faked-system-time %s! "$@"\n' "$tmp/revhome" "$GF_T1" >"$tmp/gpg-revoked-t1"
	chmod +x "$tmp/gpg-revoked-t1"
	set -e
	git init -q -b master "$UP"
	cd "$UP"
	git config user.name 'Keys Maintainer'
	git config user.email 'keys@example.org'
	cp -a "$FX/pgpkeys/keys" "$FX/pgpkeys/.keyring" .
	git add -A
	git commit -q -S"$ROOT" -m 'C0: the keys'
	git branch old
	git clone -q "$UP" "$CL"
	# C1: new certification on b (by root), new subkey on a, expiry of
	# "expired" extended, a new key certified by root
	g -u "$ROOT" --quick-sign-key "$B" >/dev/null 2>&1
	g --quick-add-key "$A" ed25519 sign
	g --quick-set-expire "$EXP" 3y
	g --quick-gen-key 'newbie <newbie@example.org>' ed25519 sign,cert never
	NB=$(gpg --batch --with-colons --list-keys '<newbie@example.org>' | awk -F: '$1 == "fpr" { print $10; exit }')
	g -u "$ROOT" --quick-sign-key "$NB" >/dev/null 2>&1
	printf 'newbie\t%s\n' "$NB" >>"$FX/keys.tsv"
	g --quick-add-uid "$B" 'b second <b2@example.org>'
	# "untrusted" revokes itself (0x20, reason 0x02: a hard revocation):
	# its file is the revocation certificate, as an armored block of
	# its own before it: a stand-alone revocation (not imported here: the
	# key still signs r-untrusted)
	printf 'y\n1\nrefresh test\n\ny\n' | gpg --yes --no-tty --command-fd 0 --pinentry-mode loopback \
		--passphrase '' -a -o "$tmp/untrusted-rev.asc" --gen-revoke "$(fpr untrusted)"
	exp b; exp a; exp expired; exp newbie; exp untrusted
	cat "$tmp/untrusted-rev.asc" "keys/$(kid untrusted).asc" >"$tmp/u.asc"
	mv "$tmp/u.asc" "keys/$(kid untrusted).asc"
	mkdir -p .keyring/openpgp/example.org/b2
	ln -s "../../../../keys/$(kid b).asc" .keyring/openpgp/example.org/b2/default
	mkdir -p .keyring/openpgp/example.org/newbie
	ln -s "../../../../keys/$(kid newbie).asc" .keyring/openpgp/example.org/newbie/default
	git add -A
	git commit -q -S"$A!" -m 'C1: updates'
	# refusals, each a child of C1
	for r in unsigned untrusted unknown expired revoked; do
		git checkout -q -b "r-$r" master
		case $r in
		unsigned) sc x - "by nobody" ;;
		expired) GIT_COMMITTER_DATE="$GF_D1" sc x $r "by $r at T1" "$FX/gpg-at-t1" ;;
		revoked) GIT_COMMITTER_DATE="$GF_D1" sc x $r "by $r at T1" "$tmp/gpg-revoked-t1" ;;
		*) sc x $r "by $r" ;;
		esac
	done
	git checkout -q -b r-tampered master
	sc x a 'signed by a, message to be changed'
	git cat-file commit HEAD | sed 's/message to be changed/MESSAGE CHANGED/' >"$tmp/tampered.commit"
	o=$(git hash-object -t commit -w "$tmp/tampered.commit")
	git update-ref refs/heads/r-tampered "$o"
	# audit: an unsigned commit in the middle of signed ones
	git checkout -q -b audit-bad master
	sc x a 'signed 1'
	git rev-parse HEAD >"$tmp/audit-bad.good1"
	sc x - 'unsigned in the middle'
	git rev-parse HEAD >"$tmp/audit-bad.unsigned"
	sc x a 'signed 2'
	# audit: a key that signs the commit adding it (off C0: newbie unknown there)
	git checkout -q -b audit-newkey old
	g -a --export "$NB" >"keys/$(kid newbie).asc"
	git add -A
	git commit -q -S"$NB" -m 'newbie adds itself and signs'
	git rev-parse HEAD >"$tmp/audit-newkey.self"
	sc x a 'signed by a on top'
	git checkout -q master
) >"$tmp/setup.log" 2>&1
if [ $? -ne 0 ]; then
	sed 's/^/# /' "$tmp/setup.log"; echo "not ok - refresh: making the repositories failed"; exit 1
fi
for br in r-unsigned r-untrusted r-unknown r-expired r-revoked r-tampered; do
	if [ "$(git -C "$UP" rev-parse "$br^")" != "$(git -C "$UP" rev-parse master)" ]; then
		echo "not ok - refresh: branch $br is not a commit on top of master"; exit 1
	fi
done
for h in "$FX/gen" "$tmp/revhome"; do gpgconf --homedir "$h" --kill gpg-agent 2>/dev/null; done
NB=$(fpr newbie)
C0=$(git -C "$UP" rev-parse old)
C1=$(git -C "$UP" rev-parse master)
AT=$(($(date +%s) + 1))   # one reference time for every run: reproducible keyrings

# (signatures by the primary keys, "FPR!": the user's keyring does not know
# a's new subkey yet)
# a fresh copy of the user's keyring (the fixture's: root, a, b, untrusted,
# expired, revoked; root ultimate, a full) in $tmp/k/NAME
kc() {
	rm -rf "$tmp/k/$1"; mkdir -p "$tmp/k/$1"
	cp "$FX/keyring.wk" "$FX/keyring.wk.trust" "$tmp/k/$1/"
	echo "$tmp/k/$1/keyring.wk"
}
rf() { "$W" refresh --at "$AT" "$@" >"$tmp/out" 2>"$tmp/err"; }
rc_is() { # want name command...
	want=$1 nm=$2; shift 2
	"$@"; got=$?
	if [ "$got" = "$want" ]; then ok "$nm (exit $got)"; else nok "$nm: exit $got, want $want"; fi
}
jq_py() { # FILE EXPR: python3 over the parsed JSON `d`; true when EXPR holds
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$@" 2>/dev/null
}

# ---- 1. a good signed tip, merge-only, --json
K=$(kc good)
rc_is 0 "refresh --repo CLONE: the tip signed by a (path root -> a) is accepted" rf --keyring "$K" --repo "$CL" --json
quietly() { "$@" >/dev/null 2>&1; }
check "--json parses" quietly python3 -m json.tool "$tmp/out"
cp "$tmp/out" "$tmp/good.json"
check "report: the tip is C1, signed by a, mode merge-only" \
	jq_py "$tmp/good.json" "d['tip'] == '$C1' and d['signer'] == '$A' and d['mode'] == 'merge-only' and d['keyring_changed']"
check "report: b gained root's certification" \
	jq_py "$tmp/good.json" "[e['issuer'] for c in d['certificates'] if c['fingerprint'] == '$B' for e in c.get('certifications_added', [])] == ['$ROOT']"
check "report: a gained one subkey" \
	jq_py "$tmp/good.json" "[len(c.get('subkeys_added', [])) for c in d['certificates'] if c['fingerprint'] == '$A'] == [1]"
check "report: the expiry of 'expired' moved from 2024-01-01" \
	jq_py "$tmp/good.json" "[c['expiry']['old'][:10] for c in d['certificates'] if c['fingerprint'] == '$EXP'] == ['2024-01-01']"
check "report: b gained a user ID" \
	jq_py "$tmp/good.json" "[c.get('user_ids_added') for c in d['certificates'] if c['fingerprint'] == '$B'] == [['b second <b2@example.org>']]"
check "report: 'untrusted' was revoked (hard)" \
	jq_py "$tmp/good.json" "[c.get('revoked') for c in d['certificates'] if c['fingerprint'] == '$UNTR'] == ['hard']"
check "report: exactly these four certificates changed" \
	jq_py "$tmp/good.json" "sorted(c['fingerprint'] for c in d['certificates']) == sorted(['$A', '$B', '$EXP', '$UNTR'])"
check "report: no key left out of the source" jq_py "$tmp/good.json" "d['not_in_source'] == []"
check "merge-only: the new key is not added" jq_py "$tmp/good.json" "d['added'] == []"
"$W" keyring show --keyring "$K" "$NB" >/dev/null 2>&1
check "merge-only: the keyring does not hold newbie" test $? = 1
rc_is 0 "the new keyring opens (keyring stats)" quietly "$W" keyring stats --keyring "$K"
check "the state file records the tip" grep -qx "tip $C1" "$K.refresh"
"$W" wot path --keyring "$K" "$B" >"$tmp/path" 2>&1
check "b is now certified by root directly (wot path: one hop)" grep -q "$(kid root)" "$tmp/path"
cp "$K" "$tmp/new.wk"

# ---- 2. up to date
cp "$K" "$tmp/before.wk"; cp "$K.refresh" "$tmp/before.state"
rc_is 0 "second run: up to date" rf --keyring "$K" --repo "$CL"
check "second run says nothing changed" grep -q "up to date" "$tmp/out"
check "second run: keyring byte-identical" cmp -s "$K" "$tmp/before.wk"
check "second run: state byte-identical" cmp -s "$K.refresh" "$tmp/before.state"
rc_is 0 "-q on success" rf --keyring "$K" --repo "$CL" -q
check "-q prints nothing" test ! -s "$tmp/out" -a ! -s "$tmp/err"

# ---- 3. --all
K=$(kc all)
rc_is 0 "--all --no-fetch --branch master" rf --keyring "$K" --repo "$UP" --no-fetch --branch master --all --json
check "--all: newbie reported added" jq_py "$tmp/out" "[c['fingerprint'] for c in d['added']] == ['$NB']"
rc_is 0 "--all: the keyring holds newbie" quietly "$W" keyring show --keyring "$K" "$NB"

# ---- 4. refusals: the keyring and the state file stay byte-identical
refused() { # NAME BRANCH VERDICT [extra refresh args]
	nm=$1 br=$2 rv=$3; shift 3
	K=$(kc "r-$nm")
	printf 'tip %s\nsource x\nat y\n' "$C1" >"$K.refresh"
	cp "$K" "$tmp/b.wk"; cp "$K.refresh" "$tmp/b.state"; cp "$K.trust" "$tmp/b.trust"
	rc_is 1 "$nm tip refused" rf --keyring "$K" --repo "$CL" --branch "$br" "$@"
	if grep -q "refused: .*: $rv" "$tmp/err"; then ok "$nm: says $rv"; else nok "$nm: stderr lacks $rv"; fi
	if cmp -s "$K" "$tmp/b.wk" && cmp -s "$K.refresh" "$tmp/b.state" && cmp -s "$K.trust" "$tmp/b.trust"; then
		ok "$nm: keyring, trust and state files byte-identical"
	else nok "$nm: a file changed"; fi
}
refused unsigned r-unsigned unsigned
refused untrusted r-untrusted untrusted
refused unknown r-unknown unknown-key
refused expired r-expired expired-key
refused revoked r-revoked revoked-key
refused tampered r-tampered bad
check "the refusal names the signer" grep -q "signer $A" "$tmp/err"
refused rollback old rewind
refused json-unsigned r-unsigned unsigned --json
check "a refusal with --json is a JSON report" jq_py "$tmp/out" "d['refused'] and d['verdict'] == 'unsigned' and d['commit'] == '$(git -C "$UP" rev-parse r-unsigned)'"

# ---- 5. direct trust, rewind allowed
K=$(kc direct)
"$W" wot trust --keyring "$K" "$(fpr untrusted)" ultimate >/dev/null 2>&1
rc_is 0 "untrusted signer with ultimate ownertrust: accepted" rf --keyring "$K" --repo "$CL" --branch r-untrusted --json
check "report: trust is the ownertrust" jq_py "$tmp/out" "d['trust'] == 'ultimate-ownertrust'"
K=$(kc rewind)
rf --keyring "$K" --repo "$CL"
rc_is 0 "--allow-rewind accepts the older tip" rf --keyring "$K" --repo "$CL" --branch old --allow-rewind
check "state file now names C0" grep -qx "tip $C0" "$K.refresh"

# ---- 6. --dry-run
K=$(kc dry)
cp "$K" "$tmp/b.wk"
rc_is 0 "--dry-run" rf --keyring "$K" --repo "$CL" --dry-run
check "--dry-run reports the changes" grep -q "subkeys added" "$tmp/out"
check "--dry-run: keyring byte-identical, no state file" cmp -s "$K" "$tmp/b.wk"
check "--dry-run: no state file" test ! -e "$K.refresh"

# ---- 7. the history audit
K=$(kc audit)
rc_is 0 "--audit --since C0: C1 is signed by a, valid in C0's tree" rf --keyring "$K" --repo "$CL" --audit --since "$C0" --json
check "audit checked one commit" jq_py "$tmp/out" "d['audit']['commits_checked'] == 1"
K=$(kc audit-bad)
cp "$K" "$tmp/b.wk"
rc_is 1 "--audit: an unsigned commit in the middle" rf --keyring "$K" --repo "$CL" --branch audit-bad --audit --since "$C0"
check "the audit names that commit, unsigned" grep -q "history audit: commit $(cat "$tmp/audit-bad.unsigned"): unsigned" "$tmp/err"
check "audit refusal: keyring byte-identical, no state" sh -c "cmp -s '$K' '$tmp/b.wk' && test ! -e '$K.refresh'"
rc_is 0 "the same branch without --audit: the tip alone is accepted" rf --keyring "$K" --repo "$CL" --branch audit-bad --dry-run
rc_is 0 "--audit --since the commit after the gap" rf --keyring "$K" --repo "$CL" --branch audit-bad --audit --since "$(cat "$tmp/audit-bad.unsigned")" --dry-run
K=$(kc audit-newkey)
rc_is 1 "--audit: a commit signed by the key it adds" rf --keyring "$K" --repo "$CL" --branch audit-newkey --audit --since "$C0"
check "the audit names it: unknown-key in its parent's keyring" grep -q "commit $(cat "$tmp/audit-newkey.self"): unknown-key" "$tmp/err"
K=$(kc audit-state)
rf --keyring "$K" --repo "$CL" --branch old
rc_is 1 "--audit since the state file's tip (C0) over audit-bad" rf --keyring "$K" --repo "$CL" --branch audit-bad --audit
rc_is 2 "--audit with no state file and no --since: usage" rf --keyring "$(kc nostate)" --repo "$CL" --audit

# ---- 8. --remote file:// into a --cache
K=$(kc remote)
rc_is 0 "--remote file://UP --cache DIR -q" rf --keyring "$K" --remote "file://$UP" --cache "$tmp/cache/pgpkeys.git" -q
check "--remote -q prints nothing" test ! -s "$tmp/out"
check "--remote: the same keyring as the clone's refresh" cmp -s "$K" "$tmp/new.wk"
check "--remote: the cache is a bare repository" test -f "$tmp/cache/pgpkeys.git/HEAD"
rc_is 2 "--remote of a missing repository: fetch fails" rf --keyring "$K" --remote "file://$tmp/nothing" --cache "$tmp/cache2/p.git"
check "failed fetch: keyring unchanged" cmp -s "$K" "$tmp/new.wk"

# ---- 9. usage
rc_is 2 "no --repo/--remote" rf --keyring "$K"
rc_is 2 "--repo and --remote" rf --keyring "$K" --repo "$CL" --remote "file://$UP"
rc_is 2 "not a keyring" rf --keyring "$FX/keys.tsv" --repo "$CL"

# ---- 10. kill -9 at random moments (within the time one refresh takes)
K=$(kc kill)
cp "$FX/keyring.wk" "$K"
t0=$(date +%s%N)
"$W" refresh --at "$AT" --keyring "$K" --repo "$UP" --no-fetch --branch master -q >/dev/null 2>&1
ms=$((($(date +%s%N) - t0) / 1000000 + 20))
old_ok=0 new_ok=0 bad=0 i=0
while [ $i -lt 12 ]; do
	cp "$FX/keyring.wk" "$K"; rm -f "$K.refresh"
	"$W" refresh --at "$AT" --keyring "$K" --repo "$UP" --no-fetch --branch master -q >/dev/null 2>&1 &
	p=$!
	sleep "$(awk -v s=$i -v ms=$ms 'BEGIN { srand(s * 7 + 1); printf "%.3f", rand() * ms / 1000 }')"
	kill -9 $p 2>/dev/null
	wait $p 2>/dev/null
	if cmp -s "$K" "$FX/keyring.wk"; then old_ok=$((old_ok + 1))
	elif cmp -s "$K" "$tmp/new.wk"; then new_ok=$((new_ok + 1))
	else bad=$((bad + 1)); fi
	"$W" keyring stats --keyring "$K" >/dev/null 2>&1 || bad=$((bad + 1))
	i=$((i + 1))
done
check "kill -9 x12: each time the old ($old_ok) or the new ($new_ok) keyring, byte for byte, and it opens" test $bad = 0
rc_is 0 "after the kills, a refresh completes" "$W" refresh --at "$AT" --keyring "$K" --repo "$UP" --no-fetch --branch master -q
check "and gives the new keyring" cmp -s "$K" "$tmp/new.wk"

# ---- 11. a SHA-256 pgpkeys.git (wotkit-git's own reader; no fetch: libgit2
# 1.5 cannot fetch one): C1's tree committed and signed by a, read with
# --no-fetch, gives the clone's keyring byte for byte
U256=$tmp/up256
if git init -q --object-format=sha256 -b master "$U256" >/dev/null 2>&1; then
	(
		set -e
		cd "$U256"
		git -C "$UP" archive master keys .keyring | tar -xf -
		git add -A
		# signed before the tests' reference time $AT
		printf '#!/bin/sh\nexec gpg --faked-system-time %s! "$@"\n' "$((AT - 1))" >"$tmp/gpg-before-at"
		chmod +x "$tmp/gpg-before-at"
		HOME=$tmp GNUPGHOME=$FX/gen git -c user.name=K -c user.email=k@example.org \
		    -c gpg.program="$tmp/gpg-before-at" commit -q -S"$A!" -m 'C1 in SHA-256'
		HOME=$tmp GNUPGHOME=$FX/gen git -c user.name=K -c user.email=k@example.org \
		    commit -q --allow-empty -m 'unsigned on top'
	) >"$tmp/u256.log" 2>&1 || sed 's/^/# /' "$tmp/u256.log"
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	K=$(kc sha256)
	rc_is 1 "SHA-256: an unsigned tip is refused" rf --keyring "$K" --repo "$U256" --no-fetch
	check "SHA-256: refused, keyring byte-identical" cmp -s "$K" "$FX/keyring.wk"
	git -C "$U256" update-ref refs/heads/master HEAD~1
	rc_is 0 "SHA-256: the tip signed by a is accepted" rf --keyring "$K" --repo "$U256" --no-fetch
	check "SHA-256: the same keyring as the SHA-1 clone's refresh" cmp -s "$K" "$tmp/new.wk"
	check "SHA-256: the state file holds the 64-digit tip" \
	    grep -q "$(git -C "$U256" rev-parse HEAD)" "$K.refresh"
else
	echo "# skip: this git cannot make SHA-256 repositories"
fi

echo "1..$n"
[ $fails -eq 0 ]
