#!/bin/sh
# tests/cli/wot.sh - the `wotkit wot` interface on the generated web
# (vectors/wot/; the verdicts themselves are in wot_vectors.sh):
#   - a keyring file and the raw keys give the same paths; --root and the
#     keyring's recorded root agree;
#   - KEY lookup: fingerprint, key ID, 0x key ID, e-mail; unknown and
#     ambiguous KEYs are usage errors (exit 2) naming the candidates;
#   - usage errors exit 2: no TARGET, unknown option, bad numbers,
#     --json with --dot, -o without --dot/--svg, --svg without Graphviz;
#   - --json of path/why/audit/stats/validity is valid JSON with the same
#     content as the text;
#   - --dot: one record node per key of the paths, one edge per hop,
#     wotmate's colours (the root purple); --svg through Graphviz when
#     installed;
#   - graphs --outdir: one .txt per key with a path, equal to `wot path`;
#     a second run rewrites nothing; a changed file is rewritten; a key
#     whose path vanished (--at later) gets its file emptied;
#   - a damaged keyring file is an input error (exit 2), never a path.
# TAP-style output.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
V=$top/vectors/wot
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
expect_rc() { # name, rc, command...
	n=$1 want=$2; shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$want" ]; then ok "$n (exit $rc)"; else nok "$n: exit $rc, want $want: $(head -c 300 "$tmp/err")"; fi
}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
key() { awk -v n="$1" '$1 == n { print $2 }' "$V/KEYS"; }
fpr() { awk -v n="$1" '$1 == n { print $3 }' "$V/KEYS"; }
R=$(fpr R) AT=2026-06-01T00:00:00Z
RAW="--keyring $V/keyring.asc --at $AT --root $R"
K=$tmp/w.wk
"$W" keyring build -o "$K" --root "$R" --at $AT "$V/keyring.asc" 2>/dev/null || nok "keyring build"
KR="--keyring $K --at $AT"

# ---- keyring file vs raw keys, recorded root vs --root ----
"$W" wot path --all $RAW >"$tmp/raw" 2>/dev/null
"$W" wot path --all $KR >"$tmp/kr" 2>/dev/null
if [ -s "$tmp/raw" ] && cmp -s "$tmp/raw" "$tmp/kr"; then ok "path --all: keyring file = raw keys ($(grep -c '^from' "$tmp/kr") paths)"
else nok "path --all: keyring file and raw keys differ"; fi

# ---- KEY lookup ----
Y=$(key Y)
"$W" wot path $KR "$Y" >"$tmp/a" 2>/dev/null
for q in "$(fpr Y)" "0x$Y" "$(echo "$Y" | tr 'A-F' 'a-f')"; do
	"$W" wot path $KR "$q" >"$tmp/b" 2>/dev/null
	if [ -s "$tmp/a" ] && cmp -s "$tmp/a" "$tmp/b"; then ok "KEY $q names Y"; else nok "KEY $q"; fi
done
uid_y=$(awk '$1 == "Y" { sub(/^[^ ]+ [^ ]+ [^ ]+ /, ""); print }' "$V/KEYS" | sed 's/.*<\(.*\)>.*/\1/')
"$W" wot path $KR "$uid_y" >"$tmp/b" 2>/dev/null
if cmp -s "$tmp/a" "$tmp/b"; then ok "KEY by e-mail ($uid_y)"; else nok "KEY by e-mail ($uid_y)"; fi
expect_rc "unknown KEY" 2 "$W" wot path $KR nobody@nowhere.invalid
expect_rc "ambiguous KEY" 2 "$W" wot path $KR example.org
if [ "$(grep -c '^  [0-9A-F]\{16\}  ' "$tmp/err")" -ge 2 ]; then ok "ambiguous KEY lists the candidates"
else nok "ambiguous KEY: no candidates listed"; fi

# ---- usage errors ----
expect_rc "no TARGET" 2 "$W" wot path $KR
expect_rc "unknown option" 2 "$W" wot path $KR --frobnicate "$Y"
expect_rc "unknown subcommand" 2 "$W" wot frobnicate
expect_rc "--maxdepth 0" 2 "$W" wot path $KR --maxdepth 0 "$Y"
expect_rc "--maxdepth 17" 2 "$W" wot path $KR --maxdepth 17 "$Y"
expect_rc "--maxpaths x" 2 "$W" wot path $KR --maxpaths x "$Y"
expect_rc "--json with --dot" 2 "$W" wot path $KR --json --dot "$Y"
expect_rc "-o without --dot" 2 "$W" wot path $KR -o "$tmp/x" "$Y"
expect_rc "bad --at" 2 "$W" wot path --keyring "$K" --at yesterday "$Y"
expect_rc "no root" 2 "$W" wot path --keyring "$V/keyring.asc" "$Y"
expect_rc "missing keyring" 2 "$W" wot path --keyring "$tmp/none.wk" "$Y"
mkdir "$tmp/nodot"
for t in sh cat awk head; do ln -s "$(command -v $t)" "$tmp/nodot/$t"; done
PATH="$tmp/nodot" expect_rc "--svg without Graphviz" 2 "$W" wot path $KR --svg "$Y"
if grep -q 'graphviz' "$tmp/err"; then ok "--svg without Graphviz says what to install"; else nok "--svg message: $(cat "$tmp/err")"; fi

# ---- JSON ----
json_ok() { python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null; }
"$W" wot path $KR --json "$Y" >"$tmp/j" 2>/dev/null
if json_ok "$tmp/j" && python3 - "$tmp/j" "$tmp/a" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
text = [p.split("\n") for p in open(sys.argv[2]).read().strip("\n").split("\n\n")]
ids = [[l.split()[1] for l in p] for p in text]
assert [[n["keyid"] for n in p] for p in j["paths"]] == ids, (j, ids)
EOF
then ok "path --json = text"; else nok "path --json"; fi
for c in "why $(key V)" "audit" "stats" "validity"; do
	"$W" wot $c $KR --json >"$tmp/j" 2>/dev/null
	if json_ok "$tmp/j"; then ok "$c --json is JSON"; else nok "$c --json: $(head -c 200 "$tmp/j")"; fi
done

# ---- DOT and SVG ----
"$W" wot path $KR --dot "$Y" >"$tmp/dot" 2>/dev/null
nodes=$(grep -c 'shape=record' "$tmp/dot"); edges=$(grep -c -- '->' "$tmp/dot")
want_nodes=$(awk 'NF { print $2 }' "$tmp/a" | sort -u | wc -l)
want_edges=$(awk '/^$/ { p = ""; next } { if (p) print p, $2; p = $2 }' "$tmp/a" | sort -u | wc -l)
if [ "$nodes" = "$want_nodes" ] && [ "$edges" = "$want_edges" ]; then ok "dot: $nodes nodes, $edges edges as the paths"
else nok "dot: $nodes nodes / $edges edges, want $want_nodes / $want_edges"; fi
if grep -q "color=purple, label=\"{Root\\\\nexample.org|{[A-Za-z0-9]* [0-9]*|$(key R)}}\"" "$tmp/dot"; then
	ok "dot: the root is a purple record (name, domain, ALGO bits, KEYID)"
else nok "dot: root node: $(grep "$(key R)" "$tmp/dot")"; fi
if command -v dot >/dev/null; then
	"$W" wot path $KR --svg -o "$tmp/y.svg" "$Y" 2>/dev/null
	if grep -q '<svg' "$tmp/y.svg" && [ "$(grep -c 'class="node"' "$tmp/y.svg")" = "$want_nodes" ]; then
		ok "svg through Graphviz: $want_nodes nodes"; else nok "svg"; fi
else echo "skip - svg: Graphviz's dot is not installed"; fi

# ---- graphs --outdir ----
G=$tmp/graphs
"$W" wot graphs $KR --outdir "$G" --dot 2>"$tmp/err"
n=$(ls "$G"/*.txt 2>/dev/null | wc -l)
with=$(grep -c '^from' "$tmp/kr")
keys_with=$(awk '/^$/ { print last; next } { last = $2 }' "$tmp/kr" | sort -u | wc -l)
if [ "$n" = "$keys_with" ]; then ok "graphs: $n .txt files, one per key with a path"; else nok "graphs: $n files, $keys_with keys with a path"; fi
if cmp -s "$G/$Y.txt" "$tmp/a"; then ok "graphs: $Y.txt = wot path"; else nok "graphs: $Y.txt differs"; fi
[ -f "$G/$Y.dot" ] && ok "graphs --dot: $Y.dot" || nok "graphs --dot: no $Y.dot"
touch -d 2000-01-01 "$G/$Y.txt"
"$W" wot graphs $KR --outdir "$G" --dot 2>"$tmp/err"
if grep -q ' 0 graphs written' "$tmp/err" && [ "$(find "$G/$Y.txt" -newermt 2001-01-01)" = "" ]; then
	ok "graphs: a second run rewrites nothing"; else nok "graphs second run: $(cat "$tmp/err")"; fi
echo junk >"$G/$Y.txt"
"$W" wot graphs $KR --outdir "$G" 2>"$tmp/err"
if grep -q ' 1 graphs written' "$tmp/err" && cmp -s "$G/$Y.txt" "$tmp/a"; then ok "graphs: a changed file is rewritten"
else nok "graphs rewrite: $(cat "$tmp/err")"; fi
# later, the chain's keys expire or lose certifications: some files empty
"$W" wot graphs --keyring "$K" --at 2040-01-01 --outdir "$G" 2>/dev/null
empty=$(find "$G" -name '*.txt' -empty | wc -l)
if [ "$empty" -ge 1 ]; then ok "graphs: $empty keys without a path any more get an empty file"
else nok "graphs: no file emptied at 2040"; fi

# ---- damaged keyring ----
cp "$K" "$tmp/bad.wk"
size=$(wc -c <"$tmp/bad.wk")
printf '\377\377\377\377' | dd of="$tmp/bad.wk" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect_rc "damaged keyring" 2 "$W" wot path --keyring "$tmp/bad.wk" --at $AT "$Y"
echo "# wot: $fails failures"
[ $fails = 0 ]
