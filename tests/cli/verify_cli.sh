#!/bin/sh
# `wotkit verify` options and exit codes, on the generated vectors. TAP output.
W=${WOTKIT:-./wotkit}
V=vectors/verify
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
# no default keyring (the "no --keyring" case below)
WOTKIT_KEYRING=$t/none.wk; export WOTKIT_KEYRING

rc_is() { # expected-rc, name, args...
	want=$1 name=$2; shift 2
	"$W" verify "$@" >"$t/out" 2>"$t/err"
	rc=$?
	if [ "$rc" = "$want" ]; then echo "ok - $name (rc=$rc)"; else
		echo "not ok - $name: rc=$rc, want $want"; sed 's/^/# /' "$t/err" | head -8; fi
}
err_has() { # name, pattern: in the last run's stderr
	if grep -q -- "$2" "$t/err"; then echo "ok - $1"; else
		echo "not ok - $1: stderr lacks '$2'"; sed 's/^/# /' "$t/err" | head -8; fi
}

K="--keyring $V/keys/rsa2048.pgp"
rc_is 0 "detached good" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "human output names the signer" 'signer:    "wotkit vector rsa2048'
err_has "human output names the certificate" "cert:      "
rc_is 0 "data from stdin" $K $V/sig/rsa2048-sha256.sig - < $V/data/msg.bin
rc_is 1 "tampered data" $K $V/sig/rsa2048-sha256.sig $V/data/msg-bitflip.bin
err_has "bad signature is named" "BAD signature"
# keyring files that are read, not mapped (a pipe, an empty file), among
# others: the set owns their buffers (under make valgrind: freed, no leak)
: >"$t/empty.pgp"
rc_is 0 "keyring from stdin beside an empty keyring file" --keyring - --keyring "$t/empty.pgp" \
    $V/sig/rsa2048-sha256.sig $V/data/msg.bin <$V/keys/rsa2048.pgp
rc_is 1 "an empty keyring file among others holds no key" --keyring "$t/empty.pgp" \
    --keyring $V/keys/rsa3072.pgp $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 1 "no key" --keyring $V/keys/rsa3072.pgp $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "no public key is named" "no public key"
rc_is 2 "no --keyring is a usage error" $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 2 "unknown option" --frobnicate $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 2 "missing keyring file" --keyring $t/none $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 2 "missing data file" $K $V/sig/rsa2048-sha256.sig $t/none
rc_is 2 "bad time" $K --at yesterday $V/sig/rsa2048-sha256.sig $V/data/msg.bin
head -c 40 $V/sig/rsa2048-sha256.sig > "$t/trunc.sig"
rc_is 2 "truncated signature file" $K "$t/trunc.sig" $V/data/msg.bin
err_has "malformed input names file and offset" "trunc.sig: offset [0-9]*:"

# --signatures N with a file of two signatures, one or both keys known
rc_is 0 "two sigs, one known, N=1" $K $V/sig/rsa2048-two-sigs.sig $V/data/msg.bin
rc_is 1 "two sigs, one known, N=2" --signatures 2 $K $V/sig/rsa2048-two-sigs.sig $V/data/msg.bin
rc_is 0 "two sigs, both known, N=2" --signatures 2 $K --keyring $V/keys/rsa2048-other.pgp \
	$V/sig/rsa2048-two-sigs.sig $V/data/msg.bin
rc_is 2 "--signatures 0 is a usage error" --signatures 0 $K $V/sig/rsa2048-two-sigs.sig $V/data/msg.bin

# times: --at, --not-before, --not-after, --policy-as-of, --allow-sha1, --policy
created=$("$W" verify --json $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin | python3 -c \
	'import sys, json; print(json.load(sys.stdin)["signatures"][0]["created"])')
before=$(python3 -c 'import sys, datetime as d
t = d.datetime.strptime(sys.argv[1], "%Y-%m-%dT%H:%M:%SZ")
print((t - d.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ"))' "$created")
after=$(python3 -c 'import sys, datetime as d
t = d.datetime.strptime(sys.argv[1], "%Y-%m-%dT%H:%M:%SZ")
print((t + d.timedelta(seconds=1)).strftime("%Y-%m-%dT%H:%M:%SZ"))' "$created")
rc_is 0 "--not-before at the creation time" --not-before "$created" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 1 "--not-before one second later" --not-before "$after" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 0 "--not-after at the creation time" --not-after "$created" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 1 "--not-after one second earlier" --not-after "$before" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
rc_is 1 "--at before the signature was made" --at "$before" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "future signature is named" "created after the reference time"
rc_is 1 "SHA-1 data signature refused" $K $V/sig/rsa2048-sha1.sig $V/data/msg.bin
err_has "the policy rule is named" "policy: SHA-1 data signatures"
rc_is 0 "--allow-sha1" --allow-sha1 $K $V/sig/rsa2048-sha1.sig $V/data/msg.bin
rc_is 1 "2012 SHA-1 signature now" --keyring $V/keys/rsa2048-2011.pgp $V/sig/rsa2048-sha1-2012.sig $V/data/msg.bin
rc_is 0 "2012 SHA-1 signature, --policy-as-of 2012-12-01" --policy-as-of 2012-12-01 \
	--keyring $V/keys/rsa2048-2011.pgp $V/sig/rsa2048-sha1-2012.sig $V/data/msg.bin
printf 'hash SHA1 data never\n' > "$t/pol"
rc_is 0 "--policy file allowing SHA-1 data signatures" --policy "$t/pol" $K $V/sig/rsa2048-sha1.sig $V/data/msg.bin
printf 'hash SHA256 data 2000-01-01\n' > "$t/pol"
rc_is 1 "--policy file refusing SHA-256" --policy "$t/pol" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "the policy file rule is named" "policy file line 1: SHA256 data signatures and third-party certifications are rejected after 2000-01-01"
printf 'hash SHA256 data whenever\n' > "$t/pol"
rc_is 2 "malformed policy file" --policy "$t/pol" $K $V/sig/rsa2048-sha256.sig $V/data/msg.bin
err_has "policy file error names the file and line" "pol:1: "

# keyrings: directories, armored, several files; JSON
mkdir "$t/ring"
cp $V/keys/rsa3072.pgp $V/keys/rsa2048.pgp "$t/ring/"
rc_is 0 "keyring directory" --keyring "$t/ring" $V/sig/rsa2048-sha256.sig $V/data/msg.bin
"$W" verify --json --keyring "$t/ring" $V/sig/rsa2048-sha256.sig $V/data/msg.bin > "$t/j"
if python3 -c 'import sys, json
j = json.load(open(sys.argv[1]))
s = j["signatures"][0]
assert j["ok"] is True and j["good"] == 1 and j["kind"] == "detached"
assert s["status"] == "ok" and s["hash_algo"] == "SHA256" and s["pk_algo"] == "RSA"
assert len(s["cert"]) == 40 and s["signer_uid"].startswith("wotkit vector rsa2048")' "$t/j"; then
	echo "ok - --json fields"
else
	echo "not ok - --json fields"; sed 's/^/# /' "$t/j"
fi
rc_is 0 "cleartext message" $K $V/sig/rsa2048-cleartext.asc
rc_is 2 "detached signature given as a message" $K $V/sig/rsa2048-sha256.sig
err_has "it says the data is missing" "needs the signed data"
