#!/bin/sh
# tests/cli/dump.sh - `wotkit dump` and `wotkit dump --json`.
#  1. basic behaviour with $WOTKIT: usage errors, stdin, fingerprint line,
#     JSON validity, the malformed vectors of vectors/dump/MANIFEST;
#  2. every file of the corpus ($WOTKIT_CORPUS) under the ASan+UBSan build
#     ($WOTKIT_SAN, from `make san`): no crash and no sanitizer report, exit
#     0 or 2, JSON that python3 -m json.tool accepts; files known to be
#     malformed (list below, with the reason) must exit 2 with "offset N" on
#     stderr, the well-formed OpenPGP files must exit 0, and non-OpenPGP data
#     (plain text, PDF, symlink stubs) may exit 0 or 2.
# TAP-style output: "ok - ...", "not ok - ...", "skip - ...".
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
S=${WOTKIT_SAN:-$top/build-san/wotkit}
C=${WOTKIT_CORPUS:-$top/../shared/corpus}
V=$top/vectors/dump
fails=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }
have_py=1
command -v python3 >/dev/null 2>&1 || have_py=0
json_ok() { [ "$have_py" = 0 ] || python3 -m json.tool "$1" >/dev/null 2>&1; }

if [ ! -x "$W" ]; then
	notok "dump: $W is not built"
	exit 1
fi
[ "$have_py" = 1 ] || echo "skip - dump: python3 missing, JSON not validated"

# ---- 1. basics ----
"$W" dump >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "dump: no argument is a usage error (exit 2)" || notok "dump: no argument exited $rc"
"$W" dump --bogus x >/dev/null 2>&1; rc=$?
[ "$rc" = 2 ] && ok "dump: unknown option is a usage error" || notok "dump: unknown option exited $rc"
"$W" dump "$tmp/does-not-exist" >/dev/null 2>"$tmp/err"; rc=$?
[ "$rc" = 2 ] && grep -q 'does-not-exist' "$tmp/err" && ok "dump: missing file -> exit 2 naming the file" ||
    notok "dump: missing file exited $rc"

# a user ID packet "alice" on stdin, human and JSON
printf '\315\005alice' | "$W" dump - >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" = 0 ] && grep -q 'User ID packet (tag 13)' "$tmp/out" && grep -q 'user id: "alice"' "$tmp/out"; then
	ok "dump: user ID from stdin"
else
	notok "dump: user ID from stdin (exit $rc): $(cat "$tmp/out" "$tmp/err")"
fi
# control characters, quotes and invalid UTF-8 in a user ID are escaped
printf '\315\010a"\001\n\377b\\c' | "$W" dump --json - >"$tmp/j" 2>"$tmp/err"; rc=$?
if [ "$rc" = 0 ] && json_ok "$tmp/j" && grep -q '"user_id_hex": "6122010AFF625C63"' "$tmp/j"; then
	ok "dump --json: hostile user ID is escaped and valid JSON"
else
	notok "dump --json: hostile user ID (exit $rc): $(cat "$tmp/j")"
fi
printf '\315\010a"\001\n\377b\\c' | "$W" dump - >"$tmp/out" 2>&1
if grep -q 'user id: "a\\"\\x01\\x0A\\xFFb\\\\c"' "$tmp/out"; then
	ok "dump: hostile user ID is escaped in human output"
else
	notok "dump: hostile user ID human output: $(cat "$tmp/out")"
fi
# one classifier (pgp/classify.h): a CTB first is binary, even when the data
# holds an armor header line further on (it was dumped as armor before)
printf '\313\044b\000\000\000\000\000x\n-----BEGIN PGP MESSAGE-----\n' >"$tmp/binarmor"
"$W" dump "$tmp/binarmor" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" = 0 ] && grep -q 'Literal Data packet' "$tmp/out" && ! grep -q 'armor' "$tmp/out"; then
	ok "dump: binary input holding an armor header line is dumped as binary"
else
	notok "dump: binary input holding an armor header (exit $rc): $(cat "$tmp/out" "$tmp/err" | head -3)"
fi
# text before the armor (keyring files often have it) still finds the block
{ printf 'Here is my key:\n'; cat "$top/vectors/dump/demo-key.asc"; } >"$tmp/preamble"
"$W" dump "$tmp/preamble" >"$tmp/out" 2>"$tmp/err"; rc=$?
[ "$rc" = 0 ] && grep -q 'armor "PGP PUBLIC KEY BLOCK"' "$tmp/out" &&
    ok "dump: armor after a text preamble" || notok "dump: armor after a preamble (exit $rc)"
# an empty input has no packets and nothing wrong
: | "$W" dump --json - >"$tmp/j" 2>&1; rc=$?
[ "$rc" = 0 ] && json_ok "$tmp/j" && ok "dump --json: empty input" || notok "dump --json: empty input exited $rc"

# 8 nested compressed packets (= PGP_MAX_NESTING) are fine; 9 are not (MANIFEST)
lit='\313\007b\000\000\000\000\000x'
printf "$lit" >"$tmp/nest"
i=0
while [ "$i" -lt 8 ]; do
	n=$(($(wc -c <"$tmp/nest") + 1))
	{ printf "\\310\\$(printf '%03o' "$n")\\000"; cat "$tmp/nest"; } >"$tmp/nest2"
	mv "$tmp/nest2" "$tmp/nest"
	i=$((i + 1))
done
"$W" dump "$tmp/nest" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ "$rc" = 0 ] && grep -q 'Literal Data packet' "$tmp/out"; then
	ok "dump: 8 nested compressed packets reach the literal packet"
else
	notok "dump: 8 nested compressed packets (exit $rc): $(cat "$tmp/err")"
fi

# ---- vectors/dump/MANIFEST ----
if [ -f "$V/MANIFEST" ]; then
	tab=$(printf '\t')
	while IFS="$tab" read -r f expect note prov; do
		case "$f" in ''|'#'*) continue ;; esac
		if [ ! -f "$V/$f" ]; then
			notok "dump vector $f: missing (run sh vectors/gen/dump_malformed.sh)"
			continue
		fi
		"$W" dump "$V/$f" >"$tmp/out" 2>"$tmp/err"; rc=$?
		"$W" dump --json "$V/$f" >"$tmp/j" 2>/dev/null; jrc=$?
		want_rc=${expect#exit=}; want_rc=${want_rc%% *}
		case "$expect" in *offset=*) want_off=${expect##*offset=} ;; *) want_off= ;; esac
		case "$expect" in *warning=*) want_warn=${expect##*warning=} ;; *) want_warn= ;; esac
		why=
		[ "$rc" = "$want_rc" ] || why="exit $rc, want $want_rc"
		[ "$jrc" = "$want_rc" ] || why="$why; --json exit $jrc"
		if [ -n "$want_off" ] && ! grep -q ": offset $want_off: " "$tmp/err"; then
			why="$why; no 'offset $want_off' in: $(head -1 "$tmp/err")"
		fi
		if [ -n "$want_warn" ]; then
			grep -q ": offset $want_warn: warning: " "$tmp/err" ||
			    why="$why; no 'offset $want_warn: warning:' in: $(head -1 "$tmp/err")"
			grep -q "^ *warnings:" "$tmp/out" || why="$why; no warnings list in the text output"
			[ "$have_py" = 0 ] || python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
def walk(x):
    if isinstance(x, dict):
        for w in x.get("warnings", []):
            yield w
        for v in x.values():
            yield from walk(v)
    elif isinstance(x, list):
        for v in x:
            yield from walk(v)
sys.exit(0 if any(w.get("offset") == int(sys.argv[2]) for w in walk(d)) and d.get("warning_count", 0) > 0 else 1)
' "$tmp/j" "$want_warn" || why="$why; no JSON warning at offset $want_warn"
		fi
		json_ok "$tmp/j" || why="$why; invalid JSON"
		[ -z "$why" ] && ok "dump vector $f ($note)" || notok "dump vector $f: $why"
	done <"$V/MANIFEST"
else
	notok "dump: $V/MANIFEST missing"
fi

# ---- 2. the corpus under the sanitizers ----
if [ ! -f "$C/README.md" ]; then
	echo "skip - dump corpus: corpus not found at $C (set WOTKIT_CORPUS)"
	[ "$fails" -eq 0 ]
	exit
fi
B=$S
if [ ! -x "$S" ]; then
	echo "skip - dump corpus under ASan+UBSan: $S absent (run make san); using $W"
	B=$W
fi

# Malformed corpus files: exit 2 and "offset N" on stderr.
malformed_reason() {
	case "$1" in
	sequoia/edge-cases/malformed-notation-name.pgp) echo "notation subpacket runs past its area" ;;
	sequoia/keys/bobs-cert-badly-mangled.asc) echo "invalid radix64 characters in the armor (gpg skips them)" ;;
	sequoia/messages/signature-with-broken-mpis.sig) echo "signature MPI runs past the packet" ;;
	sequoia/messages/compression-quine.gpg) echo "octet after the deflate stream end (what makes the quine)" ;;
	rnp/test_messages/message.txt.cleartext-malf) echo "cleartext signature MPI truncated" ;;
	rnp/test_messages/message.txt.cleartext-signed-nonewline) echo "no blank line after the cleartext header (gpg/sq: invalid armor)" ;;
	rnp/test_partial_length/message.txt.partial-signed) echo "partial body length on a signature packet (RFC 9580 §4.2.1.4)" ;;
	rnp/test_partial_length/pubring.gpg.partial) echo "partial body length on a key packet (RFC 9580 §4.2.1.4)" ;;
	*) return 1 ;;
	esac
}
# MPI bit counts that do not match the value (RFC 9580 §3.2): a warning at
# an offset, the dump goes on. Exit 0 with "offset N: warning:" on stderr, or,
# when the bit count also changes the octet count, exit 2 at an offset.
mpi_warning_reason() {
	case "$1" in
	sequoia/edge-cases/malformed-embedded-sig.pgp) echo "embedded signature r MPI: bit count 256 for a 255-bit value" ;;
	rnp/test_messages/message.txt.sig.wrong-mpi-bitlen) echo "MPI bit length field wrong (sq: malformed; gpg accepts)" ;;
	rnp/test_key_edge_cases/alice-wrong-mpi-bit-count.pgp) echo "key MPI bit count wrong" ;;
	rfc9580/A.2.variant-mpi-bitcount-256.sig.asc) echo "r MPI bit count 256 for a 255-bit value (non-canonical)" ;;
	*) return 1 ;;
	esac
}
# Corpus files that may go either way, with the reason.
either_reason() {
	case "$1" in
	rnp/test_partial_length/message.txt.partial-256) echo "first partial chunk is 256 octets, RFC 9580 §4.2.1.4 says at least 512 (gpg accepts, sq rejects)" ;;
	*) return 1 ;;
	esac
}
# Not OpenPGP at all: data files signed by the corpus signatures, stubs.
is_data() {
	case "$1" in
	*.txt|*.pdf|*/default) return 0 ;;
	rnp/test_messages/message.text-sig-crcr|rnp/test_messages/message.txt.crlf) return 0 ;;
	*) return 1 ;;
	esac
}
# Named "malf" by rnp, but the only oddity is an unknown signature version
# (7, 8, 16): well-formed for the dump (shown as unsupported, exit 0):
#   rnp/test_key_edge_cases/key-malf-sig.pgp, rnp/test_messages/message.txt.sig.malf,
#   rnp/test_messages/message.txt.signed.malfsig
for f in rnp/test_key_edge_cases/key-malf-sig.pgp rnp/test_messages/message.txt.sig.malf; do
	[ -f "$C/$f" ] || continue
	"$W" dump "$C/$f" >"$tmp/out" 2>&1; rc=$?
	if [ "$rc" = 0 ] && grep -q 'unsupported: unknown signature version' "$tmp/out"; then
		ok "dump: $f: unknown signature version shown as unsupported, exit 0"
	else
		notok "dump: $f: unknown signature version (exit $rc)"
	fi
done

n=0 nmal=0
for p in $(cd "$C" && find . -type f | sed 's|^\./||' | sort); do
	case "$p" in
	README.md|SOURCES.md|EXPECTED.tsv|pgpkeys/graphs/*) continue ;;
	esac
	n=$((n + 1))
	"$B" dump "$C/$p" >"$tmp/out" 2>"$tmp/err"; rc=$?
	"$B" dump --json "$C/$p" >"$tmp/j" 2>"$tmp/jerr"; jrc=$?
	why=
	if grep -q 'Sanitizer\|runtime error\|AddressSanitizer' "$tmp/err" "$tmp/jerr"; then
		why="sanitizer report: $(grep -h 'ERROR\|runtime error' "$tmp/err" "$tmp/jerr" | head -2)"
	fi
	case "$rc" in 0|2) ;; *) why="$why; exit $rc" ;; esac
	[ "$rc" = "$jrc" ] || why="$why; human exit $rc but --json exit $jrc"
	json_ok "$tmp/j" || why="$why; --json output is not valid JSON"
	if r=$(malformed_reason "$p"); then
		nmal=$((nmal + 1))
		[ "$rc" = 2 ] || why="$why; known malformed ($r) but exit $rc"
		grep -q ': offset [0-9][0-9]*: ' "$tmp/err" || why="$why; no 'offset N' on stderr"
		label="malformed: $r"
	elif r=$(mpi_warning_reason "$p"); then
		nmal=$((nmal + 1))
		if [ "$rc" = 0 ]; then
			grep -q ': offset [0-9][0-9]*: warning: ' "$tmp/err" || why="$why; exit 0 without a warning"
		else
			grep -q ': offset [0-9][0-9]*: ' "$tmp/err" || why="$why; exit $rc without 'offset N'"
		fi
		label="MPI bit count: $r (exit $rc)"
	elif r=$(either_reason "$p"); then
		label="exit $rc accepted: $r"
	elif is_data "$p"; then
		label="not OpenPGP data, exit $rc"
	else
		[ "$rc" = 0 ] || why="$why; well-formed file exit $rc: $(head -1 "$tmp/err")"
		label="parsed"
	fi
	if [ -z "$why" ]; then
		ok "dump corpus $p ($label)"
	else
		notok "dump corpus $p:$why"
	fi
done
if [ "$n" -lt 150 ] || [ "$nmal" -lt 12 ]; then
	notok "dump corpus: only $n files ($nmal known malformed or MPI warnings) found"
else
	ok "dump corpus: $n files, $nmal known malformed or MPI warnings"
fi
[ "$fails" -eq 0 ]
