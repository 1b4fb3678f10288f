#!/bin/sh
# vectors/gen/verify_vectors.sh - generates vectors/verify/ (signature
# verification vectors) with GnuPG 2.2 and Sequoia sq 0.27, plus the small
# python3 helper vectors/gen/pgp_edit.py for the cases neither tool produces.
#
#   sh vectors/gen/verify_vectors.sh        # rewrites vectors/verify/ entirely
#
# Every key lives in its own throwaway GNUPGHOME; all times are faked
# (--faked-system-time EPOCH!), so the *semantics* of each case are stable
# even though the bytes differ from run to run.  The expected verdict of each
# case is written below from the spec and the intent of the case, never from
# a tool's output; gpgv's and sqv's answers are only recorded in the note.
# See vectors/gen/README.md for the MANIFEST format and the case list.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
gen=$top/vectors/gen
out=$top/vectors/verify
tmp=$(mktemp -d)
log=$tmp/log
cleanup() {
	for h in "$tmp"/h/*; do
		[ -d "$h" ] && GNUPGHOME=$h gpgconf --kill gpg-agent 2>/dev/null
	done
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for t in gpg gpgv gpgconf sq sqv python3; do
	command -v $t >/dev/null || { echo "verify_vectors: $t not found" >&2; exit 1; }
done

rm -rf "$out"
mkdir -p "$out/data" "$out/keys" "$out/sig" "$tmp/h" "$tmp/gpgv"
chmod 700 "$tmp/gpgv"

# ---- times (UTC) ---------------------------------------------------------
T2011=1293840000   # 2011-01-01  key creation for the 2012 SHA-1 / DSA1024 cases
T2012=1338508800   # 2012-06-01  signing time, SHA-1 / DSA1024 "old" signatures
A2012=1341100800   # 2012-07-01  reference time for those (before the 2013-02 cutoff)
T2013=1356998400   # 2013-01-01  rsa1024 key creation
S2013=1370044800   # 2013-06-01  rsa1024 signing time
A2013=1372636800   # 2013-07-01  reference time (before the 2014-02 RSA1024 cutoff)
T2020=1577836800   # 2020-01-01  key creation for expiry / revocation cases
S2020=1590969600   # 2020-06-01  signature "before" expiry / revocation
A2020=1593561600   # 2020-07-01  reference time while the key is still valid
E2021=1609459200   # 2021-01-01  expiry / revocation time
S2021=1622505600   # 2021-06-01  signature "after" expiry / revocation
T2023=1672531200   # 2023-01-01  key creation for the algorithm cases
S2023=1685577600   # 2023-06-01  signing time for the algorithm cases
S2024=1717200000   # 2024-06-01  the "2024" SHA-1 signature
A2024=1719792000   # 2024-07-01

# ---- helpers -------------------------------------------------------------
# G HOME TIME gpg-args...
G() {
	_gh=$1 _gt=$2
	shift 2
	GNUPGHOME=$_gh gpg --batch --yes --no-tty --quiet --pinentry-mode loopback \
	    --passphrase '' --trust-model always --no-auto-check-trustdb \
	    --faked-system-time "$_gt!" "$@" 2>>"$log"
}
home() { echo "$tmp/h/$1"; }
# mkkey NAME TIME ALGO USAGE EXPIRE : new homedir with one primary key
mkkey() {
	mkdir -p "$(home "$1")"
	chmod 700 "$(home "$1")"
	G "$(home "$1")" "$2" --quick-gen-key "wotkit vector $1 <$1@wotkit.invalid>" "$3" "$4" "$5"
	[ -n "$(fpr "$1")" ] || { echo "verify_vectors: generating $1 failed" >&2; exit 1; }
}
# addsub NAME TIME ALGO USAGE EXPIRE
addsub() {
	G "$(home "$1")" "$2" --quick-add-key "$(fpr "$1")" "$3" "$4" "$5"
	[ -n "$(fpr "$1" 2)" ] || { echo "verify_vectors: adding a subkey to $1 failed" >&2; exit 1; }
}
# fpr NAME [N] : fingerprint of the primary (N=1) or of the N-th key
fpr() {
	GNUPGHOME=$(home "$1") gpg --with-colons --list-keys 2>/dev/null |
	    awk -F: -v n="${2:-1}" '/^fpr/ { if (++i == n) { print $10; exit } }'
}
# export_pub NAME FILE-UNDER-keys/
export_pub() {
	# no export-minimal: it drops expired and revoked subkeys
	GNUPGHOME=$(home "$1") gpg --batch --export "$(fpr "$1")" >"$out/keys/$2" 2>>"$log"
	[ -s "$out/keys/$2" ] || { echo "verify_vectors: export of $1 failed" >&2; exit 1; }
}
# clone SRC DST : copy a homedir (to keep a pre-expiry / pre-revocation signer)
clone() {
	GNUPGHOME=$(home "$1") gpgconf --kill gpg-agent 2>/dev/null || :
	cp -a "$(home "$1")" "$(home "$2")"
	rm -f "$(home "$2")"/S.* 2>/dev/null || :
}
# dsign NAME TIME OUT DATA [gpg args] : binary detached signature
dsign() {
	_dn=$1 _dt=$2 _do=$3 _dd=$4
	shift 4
	G "$(home "$_dn")" "$_dt" "$@" --detach-sign -o "$out/$_do" "$out/$_dd"
	[ -s "$out/$_do" ] || { echo "verify_vectors: signing $_do failed" >&2; exit 1; }
}
# revoke_sub NAME TIME REASON-MENU-NUMBER : revoke the first subkey
revoke_sub() {
	printf 'key 1\nrevkey\ny\n%s\n\ny\nsave\n' "$3" |
	    G "$(home "$1")" "$2" --command-fd 0 --edit-key "$(fpr "$1")"
}
# revoke_primary NAME TIME REASON-MENU-NUMBER
revoke_primary() {
	printf 'revkey\ny\n%s\n\ny\nsave\n' "$3" |
	    G "$(home "$1")" "$2" --command-fd 0 --edit-key "$(fpr "$1")"
}
flip() { python3 "$gen/pgp_edit.py" flip-last "$out/$1" "$out/$2"; }

# xref KIND SIG DATA RINGS : what gpgv and sqv (or sq verify) say, now
xref() {
	_xk='' _xs=''
	for _xr in $(echo "$4" | tr , ' '); do
		_xk="$_xk --keyring $out/$_xr"
		_xs="$_xs --signer-cert $out/$_xr"
	done
	if [ "$3" = - ]; then _xd=''; else _xd=$out/$3; fi
	_xrc=0
	# shellcheck disable=SC2086
	_xst=$(GNUPGHOME=$tmp/gpgv gpgv --status-fd 1 $_xk "$out/$2" $_xd 2>/dev/null) || _xrc=$?
	_xt=$(echo "$_xst" | awk '$1 == "[GNUPG:]" {
		t = $2
		if (t == "ERRSIG") t = t "(" $NF ")"
		if (t ~ /^(GOODSIG|BADSIG|ERRSIG|EXPSIG|EXPKEYSIG|REVKEYSIG|NO_PUBKEY|KEYEXPIRED|KEYREVOKED|VALIDSIG)/ && !seen[t]++)
			s = s (s ? "+" : "") t
	} END { print s }')
	_xx="gpgv=$_xrc:${_xt:-none}"
	if [ "$1" = detached ]; then
		_xrc=0
		# shellcheck disable=SC2086
		_xe=$(sqv $_xk "$out/$2" "$out/$3" 2>&1 >/dev/null) || _xrc=$?
		_xx="$_xx sqv=$_xrc"
	else
		_xrc=0
		# shellcheck disable=SC2086
		_xe=$(sq verify $_xs "$out/$2" 2>&1 >/dev/null) || _xrc=$?
		_xx="$_xx sq-verify=$_xrc"
	fi
	if [ "$_xrc" -ne 0 ]; then
		_xe=$(echo "$_xe" | grep -v -e '^$' -e '^Error: Verification failed' -e '^1 bad' -e '^0 good' |
		    head -n 3 | tr '\t\n' '  ' | sed 's/  */ /g; s/ $//' | cut -c1-110)
		_xx="$_xx(${_xe})"
	fi
	echo "$_xx"
}

manifest=$tmp/MANIFEST
npos=0
nneg=0
# case ID KIND SIG DATA RINGS VERDICT SIGNER NOTE [AT]
case_() {
	_cx=$(xref "$2" "$3" "$4" "$5")
	if [ "$6" = good ]; then npos=$((npos + 1)); else nneg=$((nneg + 1)); fi
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s [now: %s]' "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$_cx" >>"$manifest"
	[ $# -ge 9 ] && printf '\tat=%s' "$9" >>"$manifest"
	printf '\n' >>"$manifest"
}
section() { printf '#\n# %s\n' "$1" >>"$manifest"; }

# ---- data ----------------------------------------------------------------
python3 - "$out/data" <<'EOF'
import sys
d = sys.argv[1]
msg = b"wotkit signature test vector\n" + bytes(range(256)) * 2
open(d + "/msg.bin", "wb").write(msg)
b = bytearray(msg)
b[100] ^= 0x01
open(d + "/msg-bitflip.bin", "wb").write(bytes(b))
lines = ["The quick brown fox", "jumps over the lazy dog.", "",
         "- a line starting with a dash", "From the last line"]
open(d + "/text-lf.txt", "w", newline="").write("\n".join(lines) + "\n")
open(d + "/text-crlf.txt", "w", newline="").write("\r\n".join(lines) + "\r\n")
ws = list(lines)
ws[0] += "  \t"
open(d + "/text-trailing-ws.txt", "w", newline="").write("\n".join(ws) + "\n")
tm = list(lines)
tm[1] = "jumps over the lazy cat."
open(d + "/text-tampered.txt", "w", newline="").write("\n".join(tm) + "\n")
EOF

cat >"$manifest" <<'EOF'
# vectors/verify/MANIFEST - generated by vectors/gen/verify_vectors.sh; do not edit.
# Columns (TAB-separated; paths relative to vectors/verify/):
#   case_id  kind(detached|inline|cleartext)  sig_file  data_file|-  keyring_files(comma-separated)
#   expected_verdict  expected_signer_primary_fpr|-  note  [at=<unix time>]
# Verdicts: good bad-signature no-key expired revoked policy unusable-key malformed unsupported.
# Without an at= column the reference time is "now" (every such verdict is stable for years).
# The note ends with what gpgv / sqv (sq verify for inline and cleartext) said when the
# vectors were generated ("now"), as exit code, gpgv status keywords and the first error line.
# The verdict column is decided from RFC 9580 and the intent of the case, not from those tools.
# Order of checks assumed: parse (malformed/unsupported) -> find key (no-key) -> math
# (bad-signature) -> key validity at the reference time (expired/revoked/unusable-key) -> policy.
EOF

# ---- algorithm x hash ----------------------------------------------------
# alg NAME GPGALGO KEYTIME : a signing primary NAME and a second one NAME-other
alg() {
	_name=$1 _ga=$2 _kt=$3
	mkkey "$_name" "$_kt" "$_ga" sign,cert never
	mkkey "$_name-other" "$_kt" "$_ga" sign,cert never
	export_pub "$_name" "$_name.pgp"
	export_pub "$_name-other" "$_name-other.pgp"
}
# algcase NAME HASH SIGTIME GOODVERDICT NOTE [AT GOOD-AT-VERDICT]
algcase() {
	_name=$1 _hash=$2 _st=$3 _gv=$4 _note=$5
	_id=$_name-$(echo "$_hash" | tr '[:upper:]' '[:lower:]')
	_f=$(fpr "$_name")
	dsign "$_name" "$_st" "sig/$_id.sig" data/msg.bin --digest-algo "$_hash" --allow-weak-digest-algos
	flip "sig/$_id.sig" "sig/$_id-sigflip.sig"
	case_ "$_id-good" detached "sig/$_id.sig" data/msg.bin "keys/$_name.pgp" "$_gv" "$_f" "$_note"
	if [ $# -ge 7 ]; then
		case_ "$_id-good-at-$6" detached "sig/$_id.sig" data/msg.bin "keys/$_name.pgp" "$7" "$_f" \
		    "$_note; verified at a reference time before the cutoff" "$6"
	fi
	case_ "$_id-tampered" detached "sig/$_id.sig" data/msg-bitflip.bin "keys/$_name.pgp" bad-signature "$_f" \
	    "one bit of the data flipped (offset 100)"
	case_ "$_id-sigflip" detached "sig/$_id-sigflip.sig" data/msg.bin "keys/$_name.pgp" bad-signature "$_f" \
	    "bit 0 of the last byte of the last signature MPI flipped"
}
wrongkey() {
	case_ "$1-wrong-key" detached "sig/$2.sig" data/msg.bin "keys/$1-other.pgp" no-key - \
	    "good signature, keyring holds another $1 cert only"
}

section "algorithm x hash: good / tampered data / flipped signature MPI / wrong key"
alg rsa2048 rsa2048 $T2023
algcase rsa2048 SHA256 $S2023 good "RSA 2048 PKCS#1 v1.5"
algcase rsa2048 SHA512 $S2023 good "RSA 2048 PKCS#1 v1.5"
algcase rsa2048 SHA1 $S2023 policy "SHA-1 data signature made 2023 (collision cutoff 2013-02)"
wrongkey rsa2048 rsa2048-sha256
alg rsa3072 rsa3072 $T2023
algcase rsa3072 SHA256 $S2023 good "RSA 3072"
wrongkey rsa3072 rsa3072-sha256
alg rsa1024 rsa1024 $T2013
algcase rsa1024 SHA256 $S2013 policy "RSA 1024 key (rejected after 2014-02), key and sig from 2013" $A2013 good
wrongkey rsa1024 rsa1024-sha256
alg dsa2048 dsa2048 $T2023
algcase dsa2048 SHA256 $S2023 good "DSA 2048 (q 224 or 256), RFC 9580 MUST NOT generate but may verify"
wrongkey dsa2048 dsa2048-sha256
alg dsa1024 dsa1024 $T2011
algcase dsa1024 SHA1 $T2012 policy "DSA 1024 + SHA-1 (cutoffs 2014-02 and 2013-02), key 2011 sig 2012" $A2012 good
wrongkey dsa1024 dsa1024-sha1
alg nistp256 nistp256 $T2023
algcase nistp256 SHA256 $S2023 good "ECDSA NIST P-256"
wrongkey nistp256 nistp256-sha256
alg nistp384 nistp384 $T2023
algcase nistp384 SHA384 $S2023 good "ECDSA NIST P-384"
wrongkey nistp384 nistp384-sha384
alg nistp521 nistp521 $T2023
algcase nistp521 SHA512 $S2023 good "ECDSA NIST P-521"
wrongkey nistp521 nistp521-sha512
alg brainpoolp256 brainpoolP256r1 $T2023
algcase brainpoolp256 SHA256 $S2023 good "ECDSA brainpoolP256r1"
wrongkey brainpoolp256 brainpoolp256-sha256
alg ed25519 ed25519 $T2023
algcase ed25519 SHA256 $S2023 good "EdDSA legacy (algo 22) Ed25519 v4"
algcase ed25519 SHA512 $S2023 good "EdDSA legacy (algo 22) Ed25519 v4"
wrongkey ed25519 ed25519-sha256

# ---- Sequoia-made certs (cross-implementation) ---------------------------
section "certificates and signatures made by Sequoia sq 0.27 (signing subkey, SHA-512)"
sqcase() { # NAME SUITE
	_k=$tmp/$1.key
	sq key generate --cipher-suite "$2" --creation-time 20230101 --expires never \
	    --userid "<$1@wotkit.invalid>" --export "$_k" 2>>"$log"
	sq key generate --cipher-suite "$2" --creation-time 20230101 --expires never \
	    --userid "<$1-other@wotkit.invalid>" --export "$tmp/$1-other.key" 2>>"$log"
	sq key extract-cert --binary -o "$out/keys/$1.pgp" "$_k"
	sq key extract-cert --binary -o "$out/keys/$1-other.pgp" "$tmp/$1-other.key"
	_f=$(sq inspect "$out/keys/$1.pgp" | awk '/Fingerprint:/ { print $2; exit }')
	sq sign --binary --detached --time 20230601 --signer-key "$_k" -o "$out/sig/$1-sha512.sig" "$out/data/msg.bin"
	flip "sig/$1-sha512.sig" "sig/$1-sha512-sigflip.sig"
	case_ "$1-sha512-good" detached "sig/$1-sha512.sig" data/msg.bin "keys/$1.pgp" good "$_f" "sq $2 cert, signing subkey"
	case_ "$1-sha512-tampered" detached "sig/$1-sha512.sig" data/msg-bitflip.bin "keys/$1.pgp" bad-signature "$_f" \
	    "one bit of the data flipped"
	case_ "$1-sha512-sigflip" detached "sig/$1-sha512-sigflip.sig" data/msg.bin "keys/$1.pgp" bad-signature "$_f" \
	    "last byte of the last MPI flipped"
	case_ "$1-wrong-key" detached "sig/$1-sha512.sig" data/msg.bin "keys/$1-other.pgp" no-key - \
	    "keyring holds another sq $2 cert only"
}
sqcase sq-ed25519 cv25519
sqcase sq-rsa3072 rsa3k

# ---- per family: text, cleartext, inline, multiple signatures, key state --
family() { # FAM ALGO SUBALGO (FAM is rsa2048 or ed25519: the algorithm key above)
	_fam=$1 _a=$2 _f=$(fpr "$1")
	section "family $_fam: text mode, cleartext, inline, two signatures"
	dsign "$_fam" $S2023 "sig/$_fam-text-lf.sig" data/text-lf.txt --textmode
	dsign "$_fam" $S2023 "sig/$_fam-text-crlf.sig" data/text-crlf.txt --textmode
	dsign "$_fam" $S2023 "sig/$_fam-binary-lf.sig" data/text-lf.txt
	case_ "$_fam-text-good" detached "sig/$_fam-text-lf.sig" data/text-lf.txt "keys/$_fam.pgp" good "$_f" \
	    "text signature (0x01) over LF data, verified over the same data"
	case_ "$_fam-text-lf-sig-crlf-data" detached "sig/$_fam-text-lf.sig" data/text-crlf.txt "keys/$_fam.pgp" good "$_f" \
	    "0x01 made over LF data, data given with CRLF: both canonicalize to CRLF (RFC 9580 §5.2.1, type 0x01)"
	case_ "$_fam-text-crlf-sig-lf-data" detached "sig/$_fam-text-crlf.sig" data/text-lf.txt "keys/$_fam.pgp" good "$_f" \
	    "0x01 made over CRLF data, data given with LF"
	case_ "$_fam-text-trailing-ws" detached "sig/$_fam-text-lf.sig" data/text-trailing-ws.txt "keys/$_fam.pgp" bad-signature "$_f" \
	    "0x01 does not strip trailing whitespace (only the cleartext framework does): one canonicalization"
	case_ "$_fam-text-tampered" detached "sig/$_fam-text-lf.sig" data/text-tampered.txt "keys/$_fam.pgp" bad-signature "$_f" \
	    "0x01 signature, one word of the text changed"
	case_ "$_fam-binary-sig-crlf-data" detached "sig/$_fam-binary-lf.sig" data/text-crlf.txt "keys/$_fam.pgp" bad-signature "$_f" \
	    "binary (0x00) signature over LF data, data given with CRLF: no canonicalization for 0x00"
	G "$(home "$_fam")" $S2023 --armor -o "$out/sig/$_fam-armored.asc" --detach-sign "$out/data/msg.bin"
	case_ "$_fam-armored-good" detached "sig/$_fam-armored.asc" data/msg.bin "keys/$_fam.pgp" good "$_f" \
	    "ASCII-armored detached signature"

	G "$(home "$_fam")" $S2023 -o "$out/sig/$_fam-cleartext.asc" --clearsign "$out/data/text-lf.txt"
	sed 's/lazy dog/lazy cat/' "$out/sig/$_fam-cleartext.asc" >"$out/sig/$_fam-cleartext-tampered.asc"
	sed 's/^The quick brown fox$/The quick brown fox  /' "$out/sig/$_fam-cleartext.asc" >"$out/sig/$_fam-cleartext-trailing-ws.asc"
	case_ "$_fam-cleartext-good" cleartext "sig/$_fam-cleartext.asc" - "keys/$_fam.pgp" good "$_f" \
	    "cleartext signature framework, a dash-escaped line (RFC 9580 §7)"
	case_ "$_fam-cleartext-tampered" cleartext "sig/$_fam-cleartext-tampered.asc" - "keys/$_fam.pgp" bad-signature "$_f" \
	    "one word of the signed text changed"
	case_ "$_fam-cleartext-trailing-ws" cleartext "sig/$_fam-cleartext-trailing-ws.asc" - "keys/$_fam.pgp" good "$_f" \
	    "trailing spaces added to a signed line: the framework ignores trailing whitespace (RFC 9580 §7)"

	G "$(home "$_fam")" $S2023 -o "$out/sig/$_fam-inline.pgp" --sign "$out/data/msg.bin"
	G "$(home "$_fam")" $S2023 -z 0 -o "$out/sig/$_fam-inline-uncompressed.pgp" --sign "$out/data/msg.bin"
	# flip one bit inside the literal data: the data file starts with "wotkit"
	python3 - "$out/sig/$_fam-inline-uncompressed.pgp" "$out/sig/$_fam-inline-tampered.pgp" <<'EOF'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
i = b.index(b"wotkit signature test vector")
b[i + 7] ^= 0x01
open(sys.argv[2], "wb").write(bytes(b))
EOF
	case_ "$_fam-inline-good" inline "sig/$_fam-inline.pgp" - "keys/$_fam.pgp" good "$_f" \
	    "gpg --sign: one-pass sig, compressed literal data, signature"
	case_ "$_fam-inline-uncompressed-good" inline "sig/$_fam-inline-uncompressed.pgp" - "keys/$_fam.pgp" good "$_f" \
	    "gpg --sign -z 0: no compression packet"
	case_ "$_fam-inline-tampered" inline "sig/$_fam-inline-tampered.pgp" - "keys/$_fam.pgp" bad-signature "$_f" \
	    "uncompressed inline message, one bit of the literal data flipped"

	G "$(home "$_fam")" $S2023 --import "$out/keys/$_fam-other.pgp"
	GNUPGHOME=$(home "$_fam-other") gpg --batch --export-secret-keys --pinentry-mode loopback --passphrase '' \
	    "$(fpr "$_fam-other")" 2>>"$log" | G "$(home "$_fam")" $S2023 --import
	G "$(home "$_fam")" $S2023 -u "$_f!" -u "$(fpr "$_fam-other")!" -o "$out/sig/$_fam-two-sigs.sig" \
	    --detach-sign "$out/data/msg.bin"
	case_ "$_fam-two-sigs-one-known" detached "sig/$_fam-two-sigs.sig" data/msg.bin "keys/$_fam.pgp" good "$_f" \
	    "two signature packets: one by the keyring cert, one by $_fam-other (not in the keyring); sopv semantics: one valid sig from a given cert suffices (git mode may reject extra sigs)"
	case_ "$_fam-two-sigs-none-known" detached "sig/$_fam-two-sigs.sig" data/msg.bin "keys/nistp256.pgp,keys/rsa3072.pgp" no-key - \
	    "two signatures, neither issuer in the keyring"
	case_ "$_fam-two-sigs-both-known" detached "sig/$_fam-two-sigs.sig" data/msg.bin "keys/$_fam.pgp,keys/$_fam-other.pgp" good "$_f" \
	    "two good signatures, both issuers in the keyring (signer column: the first one)"
}

keystate() { # FAM ALGO SIGNALGO ENCALGO
	_fam=$1 _a=$2 _sa=$3 _ea=$4
	section "family $_fam: key expiry, revocation, back-signatures, key flags"

	# expired primary: created 2020 without expiry; a clone keeps signing after
	# the expiry (2021-01-01) is set on the original (self-sig of 2020-01-02).
	mkkey "$_fam-exp" $T2020 "$_a" sign,cert never
	clone "$_fam-exp" "$_fam-exp-late"
	GNUPGHOME=$(home "$_fam-exp") gpgconf --kill gpg-agent 2>/dev/null || :
	G "$(home "$_fam-exp")" $((T2020 + 86400)) --quick-set-expire "$(fpr "$_fam-exp")" "seconds=$((E2021 - T2020))"
	export_pub "$_fam-exp" "$_fam-expired.pgp"
	_f=$(fpr "$_fam-exp")
	dsign "$_fam-exp" $S2020 "sig/$_fam-expired-before.sig" data/msg.bin
	dsign "$_fam-exp-late" $S2021 "sig/$_fam-expired-after.sig" data/msg.bin
	case_ "$_fam-expired-key" detached "sig/$_fam-expired-before.sig" data/msg.bin "keys/$_fam-expired.pgp" good "$_f" \
	    "primary expired 2021-01-01, sig made 2020-06-01 while valid, verified now: good, the key was valid when it signed (docs/semantics.md)"
	case_ "$_fam-expired-key-at-2020" detached "sig/$_fam-expired-before.sig" data/msg.bin "keys/$_fam-expired.pgp" good "$_f" \
	    "same, verified at 2020-07-01 (key valid then)" $A2020
	case_ "$_fam-sig-after-expiry" detached "sig/$_fam-expired-after.sig" data/msg.bin "keys/$_fam-expired.pgp" expired "$_f" \
	    "sig made 2021-06-01, after the primary expired (2021-01-01)"

	# expired signing subkey
	mkkey "$_fam-subexp" $T2020 "$_a" cert never
	addsub "$_fam-subexp" $T2020 "$_sa" sign "seconds=$((E2021 - T2020))"
	export_pub "$_fam-subexp" "$_fam-subkey-expired.pgp"
	_f=$(fpr "$_fam-subexp")
	dsign "$_fam-subexp" $S2020 "sig/$_fam-subkey-expired.sig" data/msg.bin -u "$(fpr "$_fam-subexp" 2)!"
	case_ "$_fam-subkey-expired" detached "sig/$_fam-subkey-expired.sig" data/msg.bin "keys/$_fam-subkey-expired.pgp" good "$_f" \
	    "signing subkey expired 2021-01-01 (primary valid), sig 2020-06-01, verified now: good, valid when it signed (docs/semantics.md)"
	case_ "$_fam-subkey-expired-at-2020" detached "sig/$_fam-subkey-expired.sig" data/msg.bin "keys/$_fam-subkey-expired.pgp" good "$_f" \
	    "same, verified at 2020-07-01" $A2020

	# revoked signing subkey: soft reason (0x03 retired) and hard (0x02 compromised)
	for _kind in soft hard; do
		_n=$_fam-subrev-$_kind
		mkkey "$_n" $T2020 "$_a" cert never
		addsub "$_n" $T2020 "$_sa" sign never
		clone "$_n" "$_n-late"
		_s=$(fpr "$_n" 2)
		dsign "$_n" $S2020 "sig/$_n-before.sig" data/msg.bin -u "$_s!"
		dsign "$_n-late" $S2021 "sig/$_n-after.sig" data/msg.bin -u "$_s!"
		if [ $_kind = soft ]; then revoke_sub "$_n" $E2021 3; else revoke_sub "$_n" $E2021 1; fi
		export_pub "$_n" "$_n.pgp"
	done
	_f=$(fpr "$_fam-subrev-soft")
	case_ "$_fam-subkey-revoked-soft-sig-before" detached "sig/$_fam-subrev-soft-before.sig" data/msg.bin "keys/$_fam-subrev-soft.pgp" good "$_f" \
	    "subkey revoked 2021-01-01 reason 0x03 (retired, soft); sig 2020-06-01 predates it and stays valid (RFC 9580 §5.2.3, Reason for Revocation)"
	case_ "$_fam-subkey-revoked-soft-sig-after" detached "sig/$_fam-subrev-soft-after.sig" data/msg.bin "keys/$_fam-subrev-soft.pgp" revoked "$_f" \
	    "subkey revoked 2021-01-01 reason 0x03; sig made 2021-06-01, after the revocation"
	_f=$(fpr "$_fam-subrev-hard")
	case_ "$_fam-subkey-revoked-hard-sig-before" detached "sig/$_fam-subrev-hard-before.sig" data/msg.bin "keys/$_fam-subrev-hard.pgp" revoked "$_f" \
	    "subkey revoked reason 0x02 (compromised, hard): every sig is suspect, even one dated before"
	case_ "$_fam-subkey-revoked-hard-sig-after" detached "sig/$_fam-subrev-hard-after.sig" data/msg.bin "keys/$_fam-subrev-hard.pgp" revoked "$_f" \
	    "subkey revoked reason 0x02; sig made after the revocation"

	# revoked primary (hard, 0x02), sig made before the revocation
	mkkey "$_fam-prirev" $T2020 "$_a" sign,cert never
	_f=$(fpr "$_fam-prirev")
	dsign "$_fam-prirev" $S2020 "sig/$_fam-primary-revoked.sig" data/msg.bin
	revoke_primary "$_fam-prirev" $E2021 1
	export_pub "$_fam-prirev" "$_fam-primary-revoked.pgp"
	case_ "$_fam-primary-revoked" detached "sig/$_fam-primary-revoked.sig" data/msg.bin "keys/$_fam-primary-revoked.pgp" revoked "$_f" \
	    "primary key revoked 2021-01-01 reason 0x02 (compromised); sig 2020-06-01"

	# signing subkey without / with a broken back-signature (0x19)
	_n=$_fam-backsig
	mkkey "$_n" $T2020 "$_a" cert never
	addsub "$_n" $T2020 "$_sa" sign never
	export_pub "$_n" "$_fam-subkey.pgp"
	python3 "$gen/pgp_edit.py" strip-backsig "$out/keys/$_fam-subkey.pgp" "$out/keys/$_fam-no-backsig.pgp"
	python3 "$gen/pgp_edit.py" corrupt-backsig "$out/keys/$_fam-subkey.pgp" "$out/keys/$_fam-bad-backsig.pgp"
	_f=$(fpr "$_n")
	dsign "$_n" $S2020 "sig/$_fam-subkey.sig" data/msg.bin -u "$(fpr "$_n" 2)!"
	case_ "$_fam-subkey-good" detached "sig/$_fam-subkey.sig" data/msg.bin "keys/$_fam-subkey.pgp" good "$_f" \
	    "signature by a properly bound signing subkey (control for the back-signature cases)"
	case_ "$_fam-subkey-no-backsig" detached "sig/$_fam-subkey.sig" data/msg.bin "keys/$_fam-no-backsig.pgp" unusable-key "$_f" \
	    "same cert with the embedded 0x19 back-signature removed from the unhashed area of the 0x18 binding (RFC 9580 §5.2.1, type 0x18)"
	case_ "$_fam-subkey-bad-backsig" detached "sig/$_fam-subkey.sig" data/msg.bin "keys/$_fam-bad-backsig.pgp" unusable-key "$_f" \
	    "same cert, the embedded 0x19 back-signature has a bit flipped in its last MPI"
}

family rsa2048 rsa2048
keystate rsa2048 rsa2048 rsa2048 rsa2048
family ed25519 ed25519
keystate ed25519 ed25519 ed25519 cv25519

# ---- RSA only: a subkey flagged encrypt-only used to sign -----------------
section "encrypt-only subkey used to sign (GnuPG refuses; signed with pgp_edit.py)"
mkkey rsa-encsub $T2020 rsa2048 sign,cert never
addsub rsa-encsub $T2020 rsa2048 encr never
export_pub rsa-encsub rsa2048-encrypt-subkey.pgp
GNUPGHOME=$(home rsa-encsub) gpg --batch --pinentry-mode loopback --passphrase '' --export-secret-keys \
    "$(fpr rsa-encsub)" >"$tmp/encsub.sec" 2>>"$log"
python3 "$gen/pgp_edit.py" sign-with-subkey "$tmp/encsub.sec" "$(fpr rsa-encsub 2)" "$out/data/msg.bin" \
    "$out/sig/rsa2048-encrypt-subkey.sig" $S2020
# control: the same signer code over a real signing subkey must verify
GNUPGHOME=$(home rsa2048-backsig) gpg --batch --pinentry-mode loopback --passphrase '' --export-secret-keys \
    "$(fpr rsa2048-backsig)" >"$tmp/backsig.sec" 2>>"$log"
python3 "$gen/pgp_edit.py" sign-with-subkey "$tmp/backsig.sec" "$(fpr rsa2048-backsig 2)" "$out/data/msg.bin" \
    "$out/sig/rsa2048-subkey-pgp-edit.sig" $S2020
case_ rsa2048-subkey-pgp-edit-good detached sig/rsa2048-subkey-pgp-edit.sig data/msg.bin keys/rsa2048-subkey.pgp \
    good "$(fpr rsa2048-backsig)" "control for the next case: signature made by pgp_edit.py sign-with-subkey with a properly bound signing subkey"
case_ rsa2048-encrypt-subkey-signs detached sig/rsa2048-encrypt-subkey.sig data/msg.bin keys/rsa2048-encrypt-subkey.pgp \
    unusable-key "$(fpr rsa-encsub)" "RSA subkey with key flags 0x0c (encrypt only) made a valid 0x00 signature; key flags forbid signing (RFC 9580 §5.2.3, Key Flags)"

# ---- hash policy by date -------------------------------------------------
section "hash policy: SHA-1 in 2012 and 2024, MD5"
mkkey rsa-old $T2011 rsa2048 sign,cert never
export_pub rsa-old rsa2048-2011.pgp
_f=$(fpr rsa-old)
dsign rsa-old $T2012 sig/rsa2048-sha1-2012.sig data/msg.bin --digest-algo SHA1
dsign rsa-old $S2024 sig/rsa2048-sha1-2024.sig data/msg.bin --digest-algo SHA1
dsign rsa-old $S2023 sig/rsa2048-md5.sig data/msg.bin --digest-algo MD5 --allow-weak-digest-algos
dsign rsa-old $S2023 sig/rsa2048-2011-sha256.sig data/msg.bin --digest-algo SHA256
case_ rsa2048-2011-sha256-good detached sig/rsa2048-2011-sha256.sig data/msg.bin keys/rsa2048-2011.pgp good "$_f" \
    "control: same 2011 key, SHA-256 signature"
case_ rsa2048-sha1-2012 detached sig/rsa2048-sha1-2012.sig data/msg.bin keys/rsa2048-2011.pgp policy "$_f" \
    "SHA-1 data signature made 2012-06-01, verified now (SHA-1 collision cutoff 2013-02)"
case_ rsa2048-sha1-2012-at-2012 detached sig/rsa2048-sha1-2012.sig data/msg.bin keys/rsa2048-2011.pgp good "$_f" \
    "same, reference time 2012-07-01: before the date-aware SHA-1 cutoff (a flat SHA-1 ban would say policy)" $A2012
case_ rsa2048-sha1-2024 detached sig/rsa2048-sha1-2024.sig data/msg.bin keys/rsa2048-2011.pgp policy "$_f" \
    "SHA-1 data signature made 2024-06-01, verified now"
case_ rsa2048-sha1-2024-at-2024 detached sig/rsa2048-sha1-2024.sig data/msg.bin keys/rsa2048-2011.pgp policy "$_f" \
    "same, reference time 2024-07-01: after the cutoff" $A2024
case_ rsa2048-md5 detached sig/rsa2048-md5.sig data/msg.bin keys/rsa2048-2011.pgp policy "$_f" \
    "MD5 data signature (gpg --digest-algo MD5 --allow-weak-digest-algos), 2023"

# ---- malformed / unsupported, derived from rsa2048-sha256 -----------------
section "malformed and unsupported signature packets (edited copies of rsa2048-sha256)"
_f=$(fpr rsa2048)
head -c -8 "$out/sig/rsa2048-sha256.sig" >"$out/sig/rsa2048-truncated.sig"
{ cat "$out/sig/rsa2048-sha256.sig"; printf '\000\000'; } >"$out/sig/rsa2048-trailing-garbage.sig"
python3 "$gen/pgp_edit.py" set-hash-algo "$out/sig/rsa2048-sha256.sig" "$out/sig/rsa2048-hash-100.sig" 100
python3 "$gen/pgp_edit.py" bump-mpi-bits "$out/sig/rsa2048-sha256.sig" "$out/sig/rsa2048-mpi-overlong.sig"
: >"$out/sig/empty.sig"
case_ sig-truncated detached sig/rsa2048-truncated.sig data/msg.bin keys/rsa2048.pgp malformed - \
    "last 8 bytes cut: the packet header promises more than the input holds (truncated)"
case_ sig-trailing-garbage detached sig/rsa2048-trailing-garbage.sig data/msg.bin keys/rsa2048.pgp malformed - \
    "two zero bytes after the signature packet (CTB 0x00 is invalid, RFC 9580 §4.2)"
case_ sig-mpi-overlong detached sig/rsa2048-mpi-overlong.sig data/msg.bin keys/rsa2048.pgp malformed - \
    "MPI bit count claims 64 bytes more than the packet holds"
case_ sig-unknown-hash detached sig/rsa2048-hash-100.sig data/msg.bin keys/rsa2048.pgp unsupported - \
    "hash algorithm octet set to 100 (private/experimental)"
case_ sig-empty detached sig/empty.sig data/msg.bin keys/rsa2048.pgp malformed - \
    "empty signature file (no signature packet)"

printf '#\n# %d positive (good) and %d negative cases\n' "$npos" "$nneg" >>"$manifest"
cp "$manifest" "$out/MANIFEST"
echo "verify_vectors: $npos positive, $nneg negative cases; $(du -sk "$out" | cut -f1) KiB in $out"
