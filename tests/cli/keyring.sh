#!/bin/sh
# `wotkit keyring` and the keyring file (docs/keyring-format.md): build,
# list/show/stats, verify through the keyring, order independence, atomic
# writes under kill -9, damaged files, the default location. TAP output.
W=${WOTKIT:-./wotkit}
V=vectors/verify
: "${WOTKIT_CORPUS:=../shared/corpus}"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
WOTKIT_KEYRING=$t/none-default.wk; export WOTKIT_KEYRING

ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; [ -f "$t/err" ] && sed 's/^/# /' "$t/err" | head -8; }
rc_is() { # expected-rc, name, command...
	want=$1 name=$2; shift 2
	"$@" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$name (rc=$rc)"; else nok "$name: rc=$rc, want $want"; fi
}
out_has() { # name, pattern (stdout of the last run)
	if grep -q -- "$2" "$t/out"; then ok "$1"; else echo "not ok - $1: stdout lacks '$2'"; sed 's/^/# /' "$t/out" | head -8; fi
}
err_has() { # name, pattern (stderr of the last run)
	if grep -q -- "$2" "$t/err"; then ok "$1"; else nok "$1: stderr lacks '$2'"; fi
}

K=$t/v.wk
RSA=F176C90F8A965B47A8FF9CFE8E268F9AD32C2BFD
rc_is 0 "build from the verify vectors' keys" "$W" keyring build -o "$K" $V/keys
err_has "build prints a summary" "certificates, .* certifications kept"
rc_is 0 "stats" "$W" keyring stats --keyring "$K"
out_has "stats counts certificates" "certificates: [1-9]"
rc_is 0 "stats --json" "$W" keyring stats --json --keyring "$K"
n=$(ls $V/keys/*.pgp | wc -l)
if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if d["certificates"] >= 1 and "bad-signature" in d["dropped"] else 1)' "$t/out"; then
	ok "stats --json parses and names drop reasons"; else nok "stats --json"; fi
rc_is 0 "list" "$W" keyring list --keyring "$K"
out_has "list shows the RSA vector key" "^$RSA valid"
rc_is 0 "list --json" "$W" keyring list --json --keyring "$K"
rc_is 0 "show by fingerprint" "$W" keyring show --keyring "$K" $RSA
out_has "show by fingerprint finds it" "fingerprint: $RSA"
rc_is 0 "show by key ID" "$W" keyring show --keyring "$K" 8E268F9AD32C2BFD
out_has "show by key ID finds it" "fingerprint: $RSA"
rc_is 0 "show by e-mail, other case" "$W" keyring show --keyring "$K" RSA2048@WOTKIT.invalid
out_has "show by e-mail finds it" "fingerprint: $RSA"
rc_is 0 "show by name substring" "$W" keyring show --keyring "$K" "vector rsa2048 "
out_has "show by name finds it" "fingerprint: $RSA"
rc_is 1 "show of an unknown key ID" "$W" keyring show --keyring "$K" 0123456789ABCDEF
rc_is 1 "show of an unknown e-mail" "$W" keyring show --keyring "$K" nobody@example.org
rc_is 2 "list of a raw keyring is refused" "$W" keyring list --keyring $V/keys/rsa2048.pgp
rc_is 2 "unknown subcommand" "$W" keyring frobnicate
rc_is 0 "build with --root" "$W" keyring build -o "$t/root.wk" --root $RSA $V/keys/rsa2048.pgp
rc_is 0 "stats shows the root" "$W" keyring stats --keyring "$t/root.wk"
out_has "... as given" "root: $RSA"
SOURCE_DATE_EPOCH=1700000000 rc_is 0 "build --stamp" "$W" keyring build -o "$t/stamp.wk" --stamp $V/keys/rsa2048.pgp
rc_is 0 "stats shows the stamp" "$W" keyring stats --keyring "$t/stamp.wk"
out_has "... from SOURCE_DATE_EPOCH" "built at: 2023-11-14T22:13:20Z"
rc_is 0 "stats of an unstamped keyring" "$W" keyring stats --keyring "$t/root.wk"
out_has "... records no time" "built at: (none)"
rc_is 2 "--root not in the sources" "$W" keyring build -o "$t/root2.wk" --root 0000000000000000000000000000000000000000 $V/keys/rsa2048.pgp
[ ! -f "$t/root2.wk" ] && ok "... writes nothing" || nok "a keyring was written for a bad --root"

# verify through the keyring file
rc_is 0 "verify through the keyring: good" "$W" verify --keyring "$K" $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 1 "verify through the keyring: tampered" "$W" verify --keyring "$K" $V/sig/rsa2048-sha256.sig $V/data/msg-bitflip.bin
rc_is 0 "a keyring file with other --keyring arguments: merged with them" "$W" verify --keyring "$K" --keyring $V/keys/rsa2048.pgp $V/sig/rsa2048-sha256.sig $V/data/msg.bin
# a revocation certificate in a raw file applies to a key stored in a keyring
# file given with it (the certificates merge by fingerprint), whatever the order
CE=vectors/certeval
"$W" keyring build -o "$t/victim.wk" $CE/keys/victim.pgp 2>/dev/null
rc_is 0 "certeval victim through its keyring file: good" "$W" verify --at @1710000000 --keyring "$t/victim.wk" $CE/sig/primary.sig $CE/data/msg.txt
rc_is 1 "... with its revocation certificate as a second --keyring: revoked" "$W" verify --at @1710000000 --keyring "$t/victim.wk" --keyring $CE/keys/key-revocation-cert.rev $CE/sig/primary.sig $CE/data/msg.txt
err_has "... says revoked" "revoked"
rc_is 1 "... revocation certificate first: revoked" "$W" verify --at @1710000000 --keyring $CE/keys/key-revocation-cert.rev --keyring "$t/victim.wk" $CE/sig/sub1.sig $CE/data/msg.txt
rc_is 0 "sopv takes the keyring file as CERTS" sh -c "\"$W\" sopv verify $CE/sig/primary.sig \"$t/victim.wk\" < $CE/data/msg.txt"
rc_is 0 "inspect reads the keyring file" "$W" inspect "$K"
out_has "inspect shows the key" "F176C90F8A965B47A8FF9CFE8E268F9AD32C2BFD"

# every verdict through the keyring equals the verdict through the raw certificates
WOTKIT_CORPUS=$WOTKIT_CORPUS python3 tests/cli/keyring_equiv.py || true

# order independence: the same keys in another order (and twice) give the same octets
ls $V/keys/*.pgp | sort > "$t/fwd"
ls $V/keys/*.pgp | sort -r > "$t/rev"
"$W" keyring build -o "$t/a.wk" $(cat "$t/fwd") 2>/dev/null
"$W" keyring build -o "$t/b.wk" $(cat "$t/rev") $(head -3 "$t/fwd") 2>/dev/null
cat $(cat "$t/rev") > "$t/all.pgp"
"$W" keyring build -o "$t/c.wk" "$t/all.pgp" 2>/dev/null
if [ -s "$t/a.wk" ] && cmp -s "$t/a.wk" "$t/b.wk" && cmp -s "$t/a.wk" "$t/c.wk"; then
	ok "reversed, duplicated and concatenated inputs give a byte-identical keyring"
else
	nok "shuffled inputs give different keyrings"
fi
if cmp -s "$t/a.wk" "$K"; then ok "a directory and its files give the same keyring"; else nok "directory vs files differ"; fi

# the pgpkeys sample of the corpus
P=$WOTKIT_CORPUS/pgpkeys
if [ -d "$P/keys" ]; then
	rc_is 0 "build from the pgpkeys sample" "$W" keyring build -o "$t/p.wk" "$P"
	rc_is 0 "show torvalds by e-mail" "$W" keyring show --keyring "$t/p.wk" torvalds@kernel.org
	out_has "... finds Linus" "ABAF11C65A2970B130ABE3C479BE3E4300411886"
	"$W" inspect "$P/keys" | grep -E '^(pub|sub|uid)' | sort > "$t/raw.txt"
	"$W" inspect "$t/p.wk" | grep -E '^(pub|sub|uid)' | sort > "$t/kr.txt"
	if [ -s "$t/raw.txt" ] && cmp -s "$t/raw.txt" "$t/kr.txt"; then
		ok "inspect through the keyring shows every key, user ID and state as the raw keys"
	else
		nok "inspect differs through the keyring"; diff "$t/raw.txt" "$t/kr.txt" | head -5 | sed 's/^/# /'
	fi
else
	echo "skip - $P absent (set WOTKIT_CORPUS)"
fi

# damaged keyring files: a clear error, never a verdict
sz=$(wc -c < "$K")
head -c $((sz - 1)) "$K" > "$t/trunc.wk"
rc_is 2 "truncated keyring: verify fails" "$W" verify --keyring "$t/trunc.wk" $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "... naming the truncation" "truncated"
python3 - "$K" "$t/flip.wk" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[len(b) - 40] ^= 0x10      # inside the last stored certificate
open(sys.argv[2], "wb").write(b)
EOF
"$W" keyring show --keyring "$t/flip.wk" --json nobody-at-all >/dev/null 2>"$t/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "checksum mismatch" "$t/err"; then ok "bit flip in certificate data: checksum error (rc=2)"; else nok "bit flip in certificate data: rc=$rc"; fi
# a flipped bit in every index section: verify fails naming the section
R=$t/one.wk
"$W" keyring build -o "$R" $V/keys/rsa2048.pgp 2>/dev/null
for id in 2 3; do
	[ $id = 2 ] && sname=fingerprint || sname="key ID"
	python3 - "$R" "$t/idx.wk" "$id" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
for i in range(struct.unpack(">I", b[24:28])[0]):
    sid, rs, off, ln, cnt, crc = struct.unpack(">IIQQII", b[64 + 32 * i:96 + 32 * i])
    if sid == int(sys.argv[3]):
        b[off + ln - 3] ^= 1      # inside the last record
open(sys.argv[2], "wb").write(b)
EOF
	rc_is 2 "flipped bit in the $sname index: verify fails" "$W" verify --keyring "$t/idx.wk" $V/sig/rsa2048-sha256.sig $V/data/msg.bin
	err_has "... naming the $sname index" "keyring $sname index: block checksum mismatch"
done
printf 'WOTKITKR\0\0' > "$t/short.wk"
rc_is 2 "a keyring header cut short" "$W" keyring stats --keyring "$t/short.wk"

# kill -9 during builds: the previous keyring always opens and verifies
cat $V/keys/*.pgp > "$t/big.pgp"
[ -d "$P/keys" ] && cat "$P"/keys/*.asc > "$t/big.asc"
cp "$K" "$t/live.wk"
i=0 bad=0 killed=0
while [ $i -lt 20 ]; do
	"$W" keyring build -o "$t/live.wk" "$t/big.pgp" $( [ -f "$t/big.asc" ] && echo "$t/big.asc") 2>/dev/null &
	pid=$!
	sleep "0.0$(( (i * 7) % 10 ))$(( (i * 3) % 10 ))"
	kill -9 $pid 2>/dev/null && killed=$((killed + 1))
	wait $pid 2>/dev/null
	if ! "$W" keyring stats --keyring "$t/live.wk" >/dev/null 2>"$t/err" ||
	    ! "$W" verify --keyring "$t/live.wk" $V/sig/rsa2048-sha256.sig $V/data/msg.bin 2>>"$t/err"; then
		bad=$((bad + 1))
	fi
	i=$((i + 1))
done
if [ $bad -eq 0 ]; then ok "kill -9 at 20 moments ($killed while running): the keyring always opens and verifies"; else nok "after kill -9 the keyring was damaged $bad times"; fi

# the default location: $WOTKIT_KEYRING, else $XDG_DATA_HOME/wotkit/keyring.wk
WOTKIT_KEYRING=$t/env.wk rc_is 0 "build into \$WOTKIT_KEYRING" "$W" keyring build $V/keys/rsa2048.pgp
[ -f "$t/env.wk" ] && ok "... written there" || nok "no file at \$WOTKIT_KEYRING"
WOTKIT_KEYRING=$t/env.wk rc_is 0 "verify without --keyring uses \$WOTKIT_KEYRING" "$W" verify $V/sig/rsa2048-sha256.sig $V/data/msg.bin
env -u WOTKIT_KEYRING XDG_DATA_HOME=$t/xdg "$W" keyring build $V/keys/rsa2048.pgp 2>/dev/null
[ -f "$t/xdg/wotkit/keyring.wk" ] && ok "build into \$XDG_DATA_HOME/wotkit/keyring.wk" || nok "no file under \$XDG_DATA_HOME"
WOTKIT_KEYRING=$t/absent.wk rc_is 2 "verify without --keyring and no default keyring" "$W" verify $V/sig/rsa2048-sha256.sig $V/data/msg.bin
exit 0
