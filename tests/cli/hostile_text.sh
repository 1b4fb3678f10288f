#!/bin/sh
# tests/cli/hostile_text.sh - terminal injection: no control byte from the
# input reaches the terminal, and JSON carries hostile bytes exactly.
# Vectors: vectors/hostile/ (python3 vectors/gen/hostile_text.py): a user ID
# with ESC [ 2 J, BEL, CR, invalid UTF-8 and a C1 CSI; a notation, an armor
# header and a literal file name with ESC sequences; hostile file names made
# here. The control: a valid UTF-8 user ID ("Jürgen Müller") shown unchanged.
# Checks, for inspect, verify, dump and sopv (human output and messages):
# valid UTF-8 with no C0 (but LF), DEL or C1 control; the escaped form
# (\x1B[2J) present. JSON: parses, and the value round-trips (the string, and
# "value_hex"/"user_id_hex" give the exact octets). TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
V=$top/vectors/hostile
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fails=0
ok() { echo "ok - $*"; }
notok() { echo "not ok - $*"; fails=$((fails + 1)); }
if [ ! -x "$W" ]; then
	notok "hostile_text: $W is not built"
	exit 1
fi
if ! command -v python3 >/dev/null 2>&1; then
	echo "skip - hostile_text: python3 missing"
	exit 0
fi
AT=2024-01-01
HOSTILE_HEX=4D616C6C6F7279201B5B324A070D58FFFEC29B33316D203C6D616C6C6F7279406578616D706C652E6F72673E

# clean FILE: valid UTF-8, no control character but LF
clean() {
	python3 - "$1" <<'PY'
import sys
b = open(sys.argv[1], "rb").read()
try:
    s = b.decode("utf-8")
except UnicodeDecodeError as e:
    print("invalid UTF-8 at %d" % e.start); sys.exit(1)
for i, ch in enumerate(s):
    o = ord(ch)
    if (o < 0x20 and ch != "\n") or 0x7F <= o <= 0x9F or 0x202A <= o <= 0x202E or 0x2066 <= o <= 0x2069:
        print("control U+%04X at character %d" % (o, i)); sys.exit(1)
PY
}
# human CASE COMMAND...: stdout and stderr clean, and the escaped ESC shown
human() {
	name=$1; want=$2; shift 2
	"$@" >"$tmp/o" 2>&1
	if ! why=$(clean "$tmp/o"); then
		notok "$name: $why"
	elif [ -n "$want" ] && ! grep -qF "$want" "$tmp/o"; then
		notok "$name: '$want' not in: $(head -c 300 "$tmp/o")"
	else
		ok "$name: no control byte, escaped form shown"
	fi
}
# json CASE PYEXPR COMMAND...: stdout parses as JSON and PYEXPR (over d) holds
json() {
	name=$1; expr=$2; shift 2
	"$@" >"$tmp/j" 2>"$tmp/e"
	if python3 - "$tmp/j" "$expr" "$HOSTILE_HEX" <<'PY'
import json, sys
raw = open(sys.argv[1], "rb").read()
d = json.loads(raw.decode("utf-8"))
H = bytes.fromhex(sys.argv[3])
# what the JSON escaping documents: each invalid octet is U+FFFD
HS = H.decode("utf-8", errors="replace")
assert "\x1b" not in raw.decode("utf-8"), "raw ESC in the JSON text"
sys.exit(0 if eval(sys.argv[2]) else 1)
PY
	then ok "$name"; else notok "$name: $(head -c 400 "$tmp/j") $(head -c 200 "$tmp/e")"; fi
}

# ---- inspect ----
human "inspect: hostile user ID" '\x1B[2J\x07\x0DX\xFF\xFE\xC2\x9B' "$W" inspect --at $AT "$V/hostile-uid.pgp"
json "inspect --json: user ID round-trips" \
    'd["certificates"][0]["user_ids"][0]["value"] == HS and bytes.fromhex(d["certificates"][0]["user_ids"][0]["value_hex"]) == H' \
    "$W" inspect --json --at $AT "$V/hostile-uid.pgp"
human "inspect: valid UTF-8 user ID unchanged" 'uid Jürgen Müller <juergen@example.org>' "$W" inspect --at $AT "$V/plain-uid.pgp"
json "inspect --json: valid UTF-8 user ID unchanged, no value_hex" \
    'd["certificates"][0]["user_ids"][0]["value"] == "Jürgen Müller <juergen@example.org>" and "value_hex" not in d["certificates"][0]["user_ids"][0]' \
    "$W" inspect --json --at $AT "$V/plain-uid.pgp"

# ---- verify ----
human "verify: hostile signer user ID" '\x1B[2J' "$W" verify --at $AT --keyring "$V/hostile-uid.pgp" "$V/msg.txt.sig" "$V/msg.txt"
human "verify: armored signature with a hostile armor header" '\x1B[2J' "$W" verify --at $AT --keyring "$V/hostile-uid.pgp" "$V/msg.txt.asc" "$V/msg.txt"
human "verify: inline message with a hostile literal file name" '\x1B[2J' "$W" verify --at $AT --keyring "$V/hostile-uid.pgp" "$V/inline.pgp"
json "verify --json: signer user ID round-trips" \
    'd["signatures"][0]["signer_uid"] == HS and bytes.fromhex(d["signatures"][0]["signer_uid_hex"]) == H and d["signatures"][0]["verdict"] == "good"' \
    "$W" verify --json --at $AT --keyring "$V/hostile-uid.pgp" "$V/msg.txt.sig" "$V/msg.txt"
human "verify: valid UTF-8 signer unchanged" '"Jürgen Müller <juergen@example.org>"' "$W" verify --at $AT --keyring "$V/plain-uid.pgp" "$V/plain.sig" "$V/msg.txt"

# ---- dump ----
human "dump: hostile user ID" '\x1B[2J' "$W" dump "$V/hostile-uid.pgp"
human "dump: hostile notation" 'evil\x1B]0;owned\x07@example.org=\x1B[2J' "$W" dump "$V/msg.txt.sig"
human "dump: hostile armor header" 'Comment: \x1B[2J' "$W" dump "$V/msg.txt.asc"
human "dump: hostile literal file name" 'filename: "\x1B[2Jevil\x07.txt"' "$W" dump "$V/inline.pgp"
json "dump --json: user ID round-trips" \
    '[p for p in d["packets"] if p["tag"] == 13][0]["user_id"] == HS and bytes.fromhex([p for p in d["packets"] if p["tag"] == 13][0]["user_id_hex"]) == H' \
    "$W" dump --json "$V/hostile-uid.pgp"
json "dump --json: literal file name round-trips" \
    '[p for p in d["packets"] if p["tag"] == 11][0]["filename"] == "\x1b[2Jevil\x07.txt"' \
    "$W" dump --json "$V/inline.pgp"
human "dump: valid UTF-8 user ID unchanged" 'user id: "Jürgen Müller <juergen@example.org>"' "$W" dump "$V/plain-uid.pgp"

# ---- file names in messages ----
evil=$(printf '%s/evil\033[2J\007name' "$tmp")
human "verify: hostile missing keyring file name" 'evil\x1B[2J\x07name' "$W" verify --keyring "$evil" "$V/msg.txt.sig" "$V/msg.txt"
human "dump: hostile missing file name" 'evil\x1B[2J\x07name' "$W" dump "$evil"
human "inspect: hostile missing file name" 'evil\x1B[2J\x07name' "$W" inspect "$evil"
printf '\377\377garbage' >"$evil"
human "dump: hostile file name in a parse error" 'evil\x1B[2J\x07name' "$W" dump "$evil"
human "sopv verify: hostile missing CERTS name" 'nope\x1B[2J' sh -c '"$1" sopv verify "$2" "$3/nope$4" <"$5"' x "$W" "$V/msg.txt.sig" "$tmp" "$(printf '\033[2J')" "$V/msg.txt"
cp "$V/hostile-uid.pgp" "$evil"
"$W" sopv verify "$V/msg.txt.sig" "$evil" <"$V/msg.txt" >"$tmp/sv" 2>"$tmp/sve"; rc=$?
if [ "$rc" = 0 ] && why=$(clean "$tmp/sv") && python3 -c '
import json, sys
line = open(sys.argv[1], encoding="utf-8").read().splitlines()[0]
d = json.loads(line[line.index("{"):])
sys.exit(0 if d["signers"] == [sys.argv[2]] else 1)' "$tmp/sv" "$evil"; then
	ok "sopv verify: a hostile CERTS name round-trips in VERIFICATIONS JSON"
else
	notok "sopv verify: hostile CERTS name (exit $rc): $why $(cat "$tmp/sv" "$tmp/sve" | od -c | head -5)"
fi
[ "$fails" -eq 0 ]
