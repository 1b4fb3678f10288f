#!/bin/sh
# tests/cli/faults.sh - faults while reading and writing files (issue 17).
#  A. a file truncated while it is read (build/tests/fault_shim.so, an
#     LD_PRELOAD shim: truncate right after mmap / after the first read):
#     keyring files, raw keyrings, signatures, inline messages, detached
#     data, the gpg drop-in, sopv, wotkit-git's packs (own reader and
#     libgit2). Never a SIGBUS death, never a verdict: a message naming the
#     file and the command's I/O exit code (cmd/mapguard.h).
#  B. writes that fail: a full filesystem and a read-only one (a real small
#     tmpfs in a private mount namespace, `unshare -rm`; skipped with a
#     message when unavailable), fsync/fflush/rename failing (the shim), for
#     `keyring build`, the gpg drop-in's --import and `wot trust`: a clear
#     error, the old file byte-identical, no temporary file left.
#  C. kill -9 at FAULTS_KILLS (default 40) moments spread over one `keyring
#     build` (and 20 over the drop-in's --import): the file always opens and
#     is byte for byte the old or the new one.
#  D. `refresh` (needs git and gpg: tests/cli/lib/git_fixture.sh): the same
#     write faults and a truncated keyring.
# TAP output; counts in the last lines.
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 2
W=${WOTKIT:-$top/wotkit}
WG=$top/wotkit-git
SHIM=${FAULT_SHIM:-$top/build/tests/fault_shim.so}
V=$top/vectors/verify
KILLS=${FAULTS_KILLS:-40}
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() {
	n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"
	[ -f "$t/err" ] && sed 's/^/# err: /' "$t/err" | head -6
	[ -f "$t/out" ] && sed 's/^/# out: /' "$t/out" | head -4
}
skip() { echo "skip - $1"; }
check() { # name, command...
	nm=$1; shift
	if "$@"; then ok "$nm"; else nok "$nm"; fi
}
if [ ! -x "$W" ]; then echo "not ok - faults: $W is not built"; exit 1; fi
if [ ! -f "$SHIM" ]; then echo "not ok - faults: $SHIM is not built (make tests)"; exit 1; fi
t=$(mktemp -d)
t=$(cd "$t" && pwd -P)   # canonical: the shim compares /proc/self/fd links
trap 'chmod -R u+w "$t" 2>/dev/null; rm -rf "$t"' EXIT
[ -n "$FAULTS_KEEP" ] && trap - EXIT && echo "# kept $t"
WOTKIT_KEYRING=$t/none-default.wk; export WOTKIT_KEYRING
ln -s "$W" "$t/wotkit-gpg"
G=$t/wotkit-gpg

# run NAME-of-the-case ... : rc in $rc, stdout in $t/out, stderr in $t/err
run() { "$@" >"$t/out" 2>"$t/err"; rc=$?; }
# the shim truncates FILE (to SIZE, default 0) WHEN (mmap|read|fwrite)
shim() { # FILE WHEN SIZE command...
	f=$1 w=$2 s=$3; shift 3
	LD_PRELOAD=$SHIM WOTKIT_SHIM_TRUNC=$f WOTKIT_SHIM_TRUNC_WHEN=$w WOTKIT_SHIM_TRUNC_TO=$s "$@" \
	    >"$t/out" 2>"$t/err"
	rc=$?
}
err_has() { grep -q -- "$1" "$t/err"; }
no_good() { ! grep -qiE "good|GOODSIG|VALIDSIG" "$t/out"; }
# the truncation happened, the run ended with rc WANT, the message names
# FILE, and nothing reads as a verdict
truncated_ok() { # name, want-rc, file-named, message
	if [ "$rc" = "$2" ] && err_has "fault_shim: truncated" && err_has "$3: $4" && no_good; then
		ok "$1 (rc=$rc)"
	else
		nok "$1: rc=$rc, want $2 and '$3: $4' on stderr, no verdict"
	fi
}
MSG='changed while being read'

# ---- A. files truncated while read
SIG=$V/sig/rsa2048-sha256.sig DATA=$V/data/msg.bin
"$W" keyring build -o "$t/k.wk" "$V/keys" 2>/dev/null
cp "$t/k.wk" "$t/k.orig"
run "$W" verify --keyring "$t/k.wk" "$SIG" "$DATA"
check "baseline: verify through the keyring file is good" test "$rc" = 0
shim "$t/k.wk" mmap 0 "$W" verify --keyring "$t/k.wk" "$SIG" "$DATA"
truncated_ok "keyring file truncated to 0 after mmap: verify stops" 2 "$t/k.wk" "$MSG"
half=$(($(wc -c <"$t/k.orig") / 2))
cp "$t/k.orig" "$t/k.wk"
shim "$t/k.wk" mmap "$half" "$W" verify --keyring "$t/k.wk" "$SIG" "$DATA"
truncated_ok "keyring file truncated to half after mmap: verify stops" 2 "$t/k.wk" "$MSG"
cp "$t/k.orig" "$t/k.wk"
shim "$t/k.wk" mmap 0 "$W" keyring list --keyring "$t/k.wk"
truncated_ok "keyring file truncated after mmap: keyring list stops" 2 "$t/k.wk" "$MSG"
cp "$t/k.orig" "$t/k.wk"
shim "$t/k.wk" mmap 0 "$W" inspect "$t/k.wk"
if [ "$rc" = 2 ] && err_has "$MSG"; then ok "keyring file truncated after mmap: inspect stops (rc=2)"
else nok "inspect of a truncated keyring: rc=$rc"; fi

cp "$V/keys/rsa2048.pgp" "$t/raw.pgp"
shim "$t/raw.pgp" mmap 0 "$W" verify --keyring "$t/raw.pgp" "$SIG" "$DATA"
truncated_ok "raw keyring truncated after mmap: verify stops" 2 "$t/raw.pgp" "$MSG"
cp "$SIG" "$t/s.sig"
shim "$t/s.sig" mmap 0 "$W" verify --keyring "$t/k.wk" "$t/s.sig" "$DATA"
truncated_ok "signature file truncated after mmap: verify stops" 2 "$t/s.sig" "$MSG"
cp "$V/sig/rsa2048-inline.pgp" "$t/inline.pgp"
run "$W" verify --keyring "$V/keys/rsa2048.pgp" "$t/inline.pgp"
check "baseline: the inline message is good" test "$rc" = 0
shim "$t/inline.pgp" mmap 0 "$W" verify --keyring "$V/keys/rsa2048.pgp" "$t/inline.pgp"
truncated_ok "inline message truncated after mmap: verify stops" 2 "$t/inline.pgp" "$MSG"
cp "$V/sig/rsa2048-cleartext.asc" "$t/clear.asc"
shim "$t/clear.asc" mmap 0 "$W" verify --keyring "$V/keys/rsa2048.pgp" "$t/clear.asc"
truncated_ok "cleartext message truncated after mmap: verify stops" 2 "$t/clear.asc" "$MSG"
# cut inside its one page: the page stays mapped, zeros after the end (no
# SIGBUS to catch); what is read is malformed, still no verdict
cp "$V/sig/rsa2048-cleartext.asc" "$t/clear.asc"
shim "$t/clear.asc" mmap 10 "$W" verify --keyring "$V/keys/rsa2048.pgp" "$t/clear.asc"
if [ "$rc" = 2 ] && err_has "fault_shim: truncated" && no_good; then
	ok "cleartext message cut to 10 octets inside its page: an error, no verdict (rc=2)"
else nok "cleartext cut to 10 octets: rc=$rc"; fi

# the gpg drop-in (git's gpg.program): status lines are verdicts too
cp "$t/k.orig" "$t/k.wk"
LD_PRELOAD=$SHIM WOTKIT_SHIM_TRUNC=$t/k.wk WOTKIT_KEYRING=$t/k.wk \
    "$G" --status-fd=1 --verify "$SIG" "$DATA" >"$t/out" 2>"$t/err"
rc=$?
truncated_ok "gpg drop-in: keyring truncated after mmap: exit 2, no GOODSIG/VALIDSIG" 2 "$t/k.wk" "$MSG"
run env WOTKIT_KEYRING="$t/k.orig" "$G" --status-fd=1 --verify "$SIG" "$DATA"
check "baseline: the drop-in says GOODSIG with the intact keyring" grep -q GOODSIG "$t/out"
# sopv: its I/O failure is exit 1 (SOPV's generic error)
cp "$V/keys/rsa2048.pgp" "$t/cert.pgp"
LD_PRELOAD=$SHIM WOTKIT_SHIM_TRUNC=$t/cert.pgp "$W" sopv verify "$SIG" "$t/cert.pgp" <"$DATA" >"$t/out" 2>"$t/err"
rc=$?
truncated_ok "sopv verify: certificate file truncated after mmap: exit 1, nothing on stdout" 1 "$t/cert.pgp" "$MSG"
check "... stdout empty" test ! -s "$t/out"

# detached data: read (never mapped); a file shorter than when it was opened
# is an error, not a verdict on a part
if command -v gpg >/dev/null 2>&1; then
	GH=$t/gnupg; mkdir -m 700 "$GH"
	gpg --homedir "$GH" --batch --quiet --passphrase '' --quick-gen-key 'faults <f@example.org>' ed25519 sign never 2>/dev/null
	gpg --homedir "$GH" --batch --export >"$t/big-key.pgp"
	head -c 3000000 /dev/urandom >"$t/big.bin"
	gpg --homedir "$GH" --batch --yes --quiet -b -o "$t/big.sig" "$t/big.bin"
	gpgconf --homedir "$GH" --kill gpg-agent 2>/dev/null
	cp "$t/big.bin" "$t/big.orig"
	run "$W" verify --keyring "$t/big-key.pgp" "$t/big.sig" "$t/big.bin"
	check "baseline: 3 MB detached data is good" test "$rc" = 0
	shim "$t/big.bin" read 1000 "$W" verify --keyring "$t/big-key.pgp" "$t/big.sig" "$t/big.bin"
	truncated_ok "data truncated after the first read: verify stops" 2 "$t/big.bin" "shrank while being read"
	cp "$t/big.orig" "$t/big.bin"
	run "$W" sopv verify "$t/big.sig" "$t/big-key.pgp" <"$t/big.bin"
	check "baseline: sopv verify of the data on stdin is good" test "$rc" = 0
	shim "$t/big.bin" read 1000 "$W" sopv verify "$t/big.sig" "$t/big-key.pgp" <"$t/big.bin"
	truncated_ok "sopv: data (stdin, a file) truncated after the first read: exit 1" 1 "<stdin>" \
	    "shrank while being read"
	check "... stdout empty" test ! -s "$t/out"
	cp "$t/big.orig" "$t/big.bin"
else
	skip "detached data truncated while read: gpg not installed"
fi

# wotkit-git: packs of a SHA-256 repository (own reader, cmd/git/gx_own_odb.c)
# and of a SHA-1 one (libgit2 maps them itself: caught by si_code)
if [ -x "$WG" ] && command -v git >/dev/null 2>&1; then
	mkrepo() { # DIR FORMAT
		(
			unset GIT_DIR GIT_WORK_TREE
			export GIT_CONFIG_NOSYSTEM=1 HOME=$t
			git init -q --object-format="$2" "$1" && cd "$1" &&
			    mkdir keys && cp "$V"/keys/rsa2048.pgp keys/F176C90F8A965B47.asc &&
			    cp "$V"/keys/ed25519.pgp keys/ED25519000000000.asc && git add -A &&
			    git -c user.name=t -c user.email=t@example.org commit -q -m keys &&
			    git gc -q && ls .git/objects/pack/*.pack >/dev/null
		) >/dev/null 2>&1
	}
	for fmt in sha256 sha1; do
		R=$t/repo-$fmt
		if ! mkrepo "$R" $fmt; then skip "wotkit-git $fmt pack: git cannot make a $fmt repository"; continue; fi
		P=$(ls "$R"/.git/objects/pack/*.pack)
		run "$WG" pgpkeys "$R"
		check "baseline: wotkit-git reads the $fmt repository" test "$rc" = 0 -a -s "$t/out"
		cp "$P" "$t/pack.orig"
		shim "$P" mmap 0 "$WG" pgpkeys "$R"
		if [ $fmt = sha256 ]; then what=$P; else what="a file of the git object database"; fi
		truncated_ok "wotkit-git ($fmt): pack truncated after mmap: exit 1" 1 "$what" "$MSG"
		check "... and no stream on stdout" test ! -s "$t/out"
		cp "$t/pack.orig" "$P"
		if [ $fmt = sha256 ]; then
			I=$(ls "$R"/.git/objects/pack/*.idx)
			cp "$I" "$t/idx.orig"
			shim "$I" mmap 0 "$WG" pgpkeys "$R"
			truncated_ok "wotkit-git (sha256): pack index truncated after mmap: exit 1" 1 "$I" "$MSG"
			cp "$t/idx.orig" "$I"
		fi
		cp "$t/k.orig" "$t/kg.wk"
		shim "$P" mmap 0 "$W" keyring build -o "$t/kg.wk" "$R"
		if [ "$rc" = 2 ] && err_has "not written" && cmp -s "$t/kg.wk" "$t/k.orig" &&
		    ! ls "$t"/kg.wk.tmp.* >/dev/null 2>&1; then
			ok "keyring build from the $fmt repository, pack truncated: not written (rc=$rc), old keyring byte-identical"
		else nok "keyring build from a truncated $fmt pack: rc=$rc"; fi
		cp "$t/pack.orig" "$P"
	done
else
	skip "wotkit-git packs: wotkit-git or git missing"
fi

# ---- B. writes that fail
cat "$V"/keys/*.pgp >"$t/all.pgp"
FPR=F176C90F8A965B47A8FF9CFE8E268F9AD32C2BFD
# op_setup OP DIR: the old state; op_run OP DIR: the command; op_file OP DIR:
# the file it replaces (must stay byte-identical when the write fails)
op_setup() {
	mkdir -p "$2"
	case $1 in
	build) "$W" keyring build -o "$2/k.wk" "$V/keys/rsa2048.pgp" 2>/dev/null ;;
	import) cp "$V/keys/rsa2048.pgp" "$2/ring.pgp" ;;
	trust) "$W" keyring build -o "$2/k.wk" "$V/keys/rsa2048.pgp" 2>/dev/null &&
	    "$W" wot trust --keyring "$2/k.wk" $FPR full >/dev/null 2>&1 ;;
	esac
}
op_run() {
	case $1 in
	build) "$W" keyring build -o "$2/k.wk" "$V/keys" ;;
	import) "$G" --no-default-keyring --keyring "$2/ring.pgp" --import "$t/all.pgp" ;;
	trust) "$W" wot trust --keyring "$2/k.wk" $FPR marginal ;;
	esac
}
op_file() {
	case $1 in build) echo "$2/k.wk" ;; import) echo "$2/ring.pgp" ;; trust) echo "$2/k.wk.trust" ;; esac
}
# the write failed cleanly: rc, the reason on stderr, the old file as it
# was, no temporary file left
failed_clean() { # name, dir, file, saved copy, reason
	tmps=$(ls "$2" | grep -c '\.tmp\.')
	if [ "$rc" != 0 ] && err_has "$5" && cmp -s "$3" "$4" && [ "$tmps" = 0 ]; then
		ok "$1 (rc=$rc)"
	else
		nok "$1: rc=$rc, want non-zero, '$5' on stderr, old file kept (cmp), no temp ($tmps)"
	fi
}
for op in build import trust; do
	for f in "fsync ENOSPC No space left" "fsync EIO Input/output error" "fflush ENOSPC No space left" \
	    "rename EIO Input/output error"; do
		set -- $f; call=$1 en=$2; shift 2; reason="$*"
		d=$t/w-$op-$call-$en
		op_setup $op "$d"
		file=$(op_file $op "$d")
		cp "$file" "$d.orig"
		match=.tmp.
		[ $call = rename ] && match=$(basename "$file")
		LD_PRELOAD=$SHIM WOTKIT_SHIM_FAIL=$call WOTKIT_SHIM_MATCH=$match WOTKIT_SHIM_ERRNO=$en \
		    op_run $op "$d" >"$t/out" 2>"$t/err"
		rc=$?
		if ! err_has "fault_shim: $call"; then nok "$op: $call $en: the fault was not hit"; continue; fi
		failed_clean "$op: $call fails with $en: clear error, old file byte-identical, no temp file" \
		    "$d" "$file" "$d.orig" "$reason"
		run op_run $op "$d"
		check "$op: the same run without the fault succeeds" test "$rc" = 0
	done
done

# a full and a read-only filesystem: a small tmpfs in a private mount namespace
mkdir -p "$t/probe"
if unshare -rm sh -c "mount -t tmpfs -o size=256k tmpfs '$t/probe'" 2>/dev/null; then
	cat >"$t/inner.sh" <<'INNER'
# in the namespace: $1 op, $2 fault (full|ro), $3 the mount point
. "$T/funcs.sh"
op=$1 fault=$2 d=$3
mount -t tmpfs -o size=1m tmpfs "$d" || { echo "FAIL mount"; exit 0; }
op_setup $op "$d/s"
file=$(op_file $op "$d/s")
cp "$file" "$T/$op-$fault.orig"
if [ $fault = full ]; then
	cat /dev/zero >"$d/fill" 2>/dev/null   # every block taken
	reason="No space left on device"
else
	mount -o remount,ro "$d"
	reason="Read-only file system"
fi
op_run $op "$d/s" >"$T/out" 2>"$T/err"; rc=$?
tmps=$(ls "$d/s" | grep -c '\.tmp\.')
if [ "$rc" != 0 ] && grep -q "$reason" "$T/err" && cmp -s "$file" "$T/$op-$fault.orig" && [ "$tmps" = 0 ]; then
	echo "PASS $op on a $fault filesystem: '$reason', old file byte-identical, no temp file (rc=$rc)"
else
	echo "FAIL $op on a $fault filesystem: rc=$rc, temps $tmps"; sed 's/^/# err: /' "$T/err" | head -5
fi
INNER
	# the functions the inner script needs, with the values of this run
	{ echo "W='$W' G='$G' V='$V' t='$t' FPR=$FPR"; sed -n '/^op_setup()/,/^}/p;/^op_run()/,/^}/p;/^op_file()/,/^}/p' "$0"; } >"$t/funcs.sh"
	for op in build import trust; do
		for fault in full ro; do
			mkdir -p "$t/mnt-$op-$fault"
			T=$t unshare -rm sh "$t/inner.sh" $op $fault "$t/mnt-$op-$fault" >"$t/inner.out" 2>&1
			while IFS= read -r line; do
				case $line in
				PASS*) ok "${line#PASS }" ;;
				FAIL*) nok "${line#FAIL }" ;;
				*) echo "$line" ;;
				esac
			done <"$t/inner.out"
			grep -qE '^(PASS|FAIL)' "$t/inner.out" || nok "$op on a $fault filesystem: no result"
		done
	done
else
	skip "full and read-only filesystems: unshare -rm with a tmpfs is not available here"
fi

# ---- C. kill -9 during writes
# kill_loop NAME COUNT OLD NEW FILE command...: COUNT runs from OLD, each
# killed at a moment spread over the time one run takes; FILE must then be
# OLD or NEW byte for byte and open (keyring stats / a parse by the drop-in)
kill_loop() {
	name=$1 count=$2 old=$3 new=$4 file=$5; shift 5
	cp "$old" "$file"
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	ms=$((($(date +%s%N) - t0) / 1000000))
	cmp -s "$file" "$new" || { nok "$name: an uninterrupted run does not give the new file"; return; }
	o=0 nw=0 bad=0 killed=0 left=0 i=0
	while [ $i -lt "$count" ]; do
		cp "$old" "$file"
		"$@" >/dev/null 2>&1 &
		p=$!
		# moment i of count, over 1.2 x the run's time
		sleep "$(awk -v i=$i -v c="$count" -v ms=$ms 'BEGIN { printf "%.3f", (i + 0.5) / c * ms * 1.2 / 1000 }')"
		kill -9 $p 2>/dev/null && killed=$((killed + 1))
		wait $p 2>/dev/null
		if cmp -s "$file" "$old"; then o=$((o + 1))
		elif cmp -s "$file" "$new"; then nw=$((nw + 1))
		else bad=$((bad + 1)); fi
		case $file in
		*.wk) "$W" keyring stats --keyring "$file" >/dev/null 2>&1 || bad=$((bad + 1)) ;;
		*) "$W" inspect "$file" >/dev/null 2>&1 || bad=$((bad + 1)) ;;
		esac
		n_tmp=$(ls "$(dirname "$file")" | grep -c '\.tmp\.')
		left=$((left + n_tmp))
		rm -f "$file".tmp.*
		i=$((i + 1))
	done
	check "$name: kill -9 at $count moments over ${ms} ms ($killed while running): old $o, new $nw, damaged $bad; temp files left by kills: $left" \
	    test "$bad" = 0
	echo "# figure: $name kill -9 x$count over ${ms} ms: old=$o new=$nw damaged=$bad killed=$killed temps-left=$left"
}
KD=$t/kill; mkdir -p "$KD"
# a source that takes a while: the debian keyring when installed, else the
# vectors and the corpus keys
if [ -f /usr/share/keyrings/debian-keyring.gpg ]; then
	python3 - /usr/share/keyrings/debian-keyring.gpg "$KD/src.pgp" <<'PY' || cat "$V"/keys/*.pgp >"$KD/src.pgp"
import sys
# the first certificates up to ~4 MB, cut at a public-key packet (tag 6)
d = open(sys.argv[1], "rb").read(); i = 0; cut = 0
while i < len(d) and i < 4_000_000:
    h = d[i]
    if h & 0x40:
        tag = h & 0x3f; l0 = d[i + 1]
        if l0 < 192: hl, n = 2, l0
        elif l0 < 224: hl, n = 3, ((l0 - 192) << 8) + d[i + 2] + 192
        else: hl, n = 6, int.from_bytes(d[i + 2:i + 6], "big")
    else:
        tag = (h >> 2) & 0x0f; lt = h & 3; hl = 1 + [1, 2, 4][lt]
        n = int.from_bytes(d[i + 1:i + hl], "big")
    if tag == 6: cut = i
    i += hl + n
open(sys.argv[2], "wb").write(d[:cut])
PY
else
	cat "$V"/keys/*.pgp >"$KD/src.pgp"
fi
"$W" keyring build -o "$KD/old.wk" "$V/keys/rsa2048.pgp" 2>/dev/null
"$W" keyring build -o "$KD/new.wk" "$KD/src.pgp" 2>/dev/null
kill_loop "keyring build" "$KILLS" "$KD/old.wk" "$KD/new.wk" "$KD/live.wk" \
    "$W" keyring build -o "$KD/live.wk" "$KD/src.pgp"
cp "$V/keys/rsa2048.pgp" "$KD/ring-old.pgp"
cp "$KD/ring-old.pgp" "$KD/ring-new.pgp"
"$G" --no-default-keyring --keyring "$KD/ring-new.pgp" --import "$KD/src.pgp" >/dev/null 2>&1
kill_loop "gpg drop-in --import" 20 "$KD/ring-old.pgp" "$KD/ring-new.pgp" "$KD/ring.pgp" \
    "$G" --no-default-keyring --keyring "$KD/ring.pgp" --import "$KD/src.pgp"

# ---- D. refresh (needs the git fixture: gpg and git)
if [ -x "$WG" ] && command -v git >/dev/null 2>&1 && command -v gpg >/dev/null 2>&1; then
	. "$top/tests/cli/lib/git_fixture.sh"
	WOTKIT=$W
	git_fixture_or_exit faults "$t/fx"
	FX=$t/fx
	fpr() { awk -v n="$1" '$1 == n { print $2 }' "$FX/keys.tsv"; }
	kid() { fpr "$1" | cut -c25-40; }
	UP=$t/up
	(
		unset GIT_DIR GIT_WORK_TREE GIT_CONFIG_GLOBAL
		GIT_CONFIG_NOSYSTEM=1 HOME=$t GNUPGHOME=$FX/gen
		export GIT_CONFIG_NOSYSTEM HOME GNUPGHOME
		g() { gpg --batch --yes --quiet --no-tty --passphrase '' --pinentry-mode loopback "$@"; }
		set -e
		git init -q -b master "$UP"
		cd "$UP"
		git config user.name 'Keys Maintainer'
		git config user.email 'keys@example.org'
		cp -a "$FX/pgpkeys/keys" "$FX/pgpkeys/.keyring" .
		git add -A
		git commit -q -S"$(fpr root)" -m 'C0: the keys'
		# C1: root certifies b (the keyring changes)
		g -u "$(fpr root)" --quick-sign-key "$(fpr b)" >/dev/null 2>&1
		g -a --export "$(fpr b)" >"keys/$(kid b).asc"
		git add -A
		git commit -q -S"$(fpr a)!" -m 'C1: root certifies b'
		git gc -q
	) >"$t/setup.log" 2>&1 || { sed 's/^/# /' "$t/setup.log"; nok "refresh: making the repository failed"; }
	gpgconf --homedir "$FX/gen" --kill gpg-agent 2>/dev/null
	AT=$(($(date +%s) + 1))
	RD=$t/rf; mkdir -p "$RD"
	rf_setup() { # DIR: the user's keyring and its trust file, no state yet
		mkdir -p "$1"; rm -f "$1"/keyring.wk*
		cp "$FX/keyring.wk" "$FX/keyring.wk.trust" "$1/"
	}
	rf() { "$W" refresh --at "$AT" --keyring "$1/keyring.wk" --repo "$UP" --no-fetch --branch master -q; }
	rf_setup "$RD/base"
	run rf "$RD/base"
	check "baseline: refresh to C1 writes a new keyring" test "$rc" = 0 && ! cmp -s "$RD/base/keyring.wk" "$FX/keyring.wk"
	cp "$RD/base/keyring.wk" "$RD/new.wk"
	# the state file records the tip once the keyring is written
	ls "$RD/base" >"$t/rf.files"
	rf_unchanged() { # name, dir
		tmps=$(ls "$2" | grep -c '\.tmp\.')
		if [ "$rc" != 0 ] && cmp -s "$2/keyring.wk" "$FX/keyring.wk" && [ "$tmps" = 0 ] &&
		    [ ! -f "$2/keyring.wk.refresh" ] && err_has "$3"; then ok "$1 (rc=$rc)"
		else nok "$1: rc=$rc, keyring changed or state written or $tmps temp files or no '$3'"; fi
	}
	for f in "fsync ENOSPC No space left" "fflush ENOSPC No space left" "rename EIO Input/output error"; do
		set -- $f; call=$1 en=$2; shift 2; reason="$*"
		rf_setup "$RD/$call"
		match=.tmp.; [ $call = rename ] && match=keyring.wk
		LD_PRELOAD=$SHIM WOTKIT_SHIM_FAIL=$call WOTKIT_SHIM_MATCH=$match WOTKIT_SHIM_ERRNO=$en \
		    rf "$RD/$call" >"$t/out" 2>"$t/err"
		rc=$?
		rf_unchanged "refresh: $call of the new keyring fails with $en: keyring byte-identical, no state, no temp" \
		    "$RD/$call" "$reason"
	done
	# the report comes after the writes: a failed write is not announced as a change
	rf_setup "$RD/report"
	LD_PRELOAD=$SHIM WOTKIT_SHIM_FAIL=fsync WOTKIT_SHIM_MATCH=.tmp. WOTKIT_SHIM_ERRNO=ENOSPC \
	    "$W" refresh --at "$AT" --keyring "$RD/report/keyring.wk" --repo "$UP" --no-fetch --branch master \
	    --json >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = 2 ] && ! grep -q keyring_changed "$t/out" && err_has "No space left"; then
		ok "refresh --json: fsync fails: exit 2 and no report announcing a changed keyring"
	else nok "refresh --json: fsync fails: rc=$rc, stdout: $(head -c 200 "$t/out")"; fi
	# the keyring truncated while refresh reads it
	rf_setup "$RD/trunc"
	shim "$RD/trunc/keyring.wk" mmap 0 rf "$RD/trunc"
	if [ "$rc" = 2 ] && err_has "keyring.wk: $MSG" && [ "$(ls "$RD/trunc" | grep -c '\.tmp\.')" = 0 ] &&
	    [ ! -f "$RD/trunc/keyring.wk.refresh" ]; then
		ok "refresh: the keyring truncated after mmap: stops (rc=2), no state, no temp file"
	else nok "refresh with a truncated keyring: rc=$rc"; fi
	# wotkit-git failing at each of its runs in turn (the tip's check, the
	# tree's load, ...): the keyring is never replaced by a partial one
	cat >"$t/flakygit" <<FLAKY
#!/bin/sh
c=\$(cat "$t/git.count" 2>/dev/null || echo 0); c=\$((c + 1)); echo \$c >"$t/git.count"
[ "\$c" = "\$(cat "$t/git.fail")" ] && exit 1
exec "$WG" "\$@"
FLAKY
	chmod +x "$t/flakygit"
	rf_setup "$RD/count"; rm -f "$t/git.count"; echo 0 >"$t/git.fail"
	WOTKIT_GIT=$t/flakygit rf "$RD/count" >/dev/null 2>&1
	runs=$(cat "$t/git.count" 2>/dev/null || echo 0)
	i=1
	while [ "$i" -le "$runs" ]; do
		rf_setup "$RD/flaky$i"; rm -f "$t/git.count"; echo $i >"$t/git.fail"
		WOTKIT_GIT=$t/flakygit rf "$RD/flaky$i" >"$t/out" 2>"$t/err"
		rc=$?
		rf_unchanged "refresh: wotkit-git run $i of $runs fails: keyring byte-identical, no state" "$RD/flaky$i" ""
		i=$((i + 1))
	done
	[ "$runs" -gt 0 ] || nok "refresh ran wotkit-git $runs times"
	# full and read-only filesystems under the keyring
	if unshare -rm sh -c "mount -t tmpfs -o size=256k tmpfs '$t/probe'" 2>/dev/null; then
		for fault in full ro; do
			mkdir -p "$RD/m-$fault"
			cat >"$t/rfin.sh" <<RFIN
mount -t tmpfs -o size=1m tmpfs "$RD/m-$fault" || exit 3
mkdir "$RD/m-$fault/s" && cp "$FX/keyring.wk" "$FX/keyring.wk.trust" "$RD/m-$fault/s/"
if [ $fault = full ]; then cat /dev/zero >"$RD/m-$fault/fill" 2>/dev/null; else mount -o remount,ro "$RD/m-$fault"; fi
"$W" refresh --at "$AT" --keyring "$RD/m-$fault/s/keyring.wk" --repo "$UP" --no-fetch --branch master -q >"$t/out" 2>"$t/err"
echo \$? >"$t/rc"
cmp -s "$RD/m-$fault/s/keyring.wk" "$FX/keyring.wk" && echo same >"$t/same"
ls "$RD/m-$fault/s" >"$t/ls"
RFIN
			rm -f "$t/same" "$t/rc"
			unshare -rm sh "$t/rfin.sh"
			rc=$(cat "$t/rc" 2>/dev/null || echo none)
			if [ $fault = full ]; then reason="No space left"; else reason="Read-only file system"; fi
			if [ "$rc" != 0 ] && [ "$rc" != none ] && [ -f "$t/same" ] && ! grep -q '\.tmp\.\|\.refresh' "$t/ls" &&
			    err_has "$reason"; then
				ok "refresh on a $fault filesystem: '$reason', keyring byte-identical, no state, no temp (rc=$rc)"
			else nok "refresh on a $fault filesystem: rc=$rc"; sed 's/^/# ls: /' "$t/ls"; fi
		done
	else
		skip "refresh on full and read-only filesystems: unshare -rm with a tmpfs is not available here"
	fi
else
	skip "refresh: needs wotkit-git, git and gpg"
fi

echo "# faults: $n checks, $fails failed"
[ "$fails" = 0 ]
