#!/bin/sh
# tests/cli/wot_corpus.sh - `wotkit wot` on the real pgpkeys.git sample
# ($WOTKIT_CORPUS/pgpkeys: 11 keys, 15 graphs pgpkeys.git drew), against
# what pgpkeys.git and gpg say about it:
#   - every graphs/*.svg whose keys are all in the sample: its chain is one
#     of our paths to that key (at a time all of them were valid, SHA-1
#     accepted as wotmate and gpg did); at least one such graph exists;
#   - every hop of every graphs/*.txt path whose two keys are in the sample
#     is a certification we verified: a one-hop path;
#   - paths within 2 hops from Linus exist exactly for the keys gpg calls
#     fully valid or ultimate when Greg and Konstantin are fully trusted
#     (GPG-VALIDITY.txt, scenario B, same clock);
#   - `wot why` explains the keys cut off inside the sample: Casey and Inga
#     (issuers outside the sample; the number of such certifications is the
#     number gpg could not check, CHECK-SIGS.txt) and Harald (revoked);
#   - `wot audit`: the keys lost when SHA-1 is refused are exactly those
#     with a path under --allow-sha1 and none under the standard policy.
# TAP-style output; skipped when the corpus is absent.
top=$(cd "$(dirname "$0")/../.." && pwd)
W=${WOTKIT:-$top/wotkit}
C=${WOTKIT_CORPUS:-$top/../shared/corpus}/pgpkeys
fails=0
ok() { echo "ok - $1"; }
nok() { echo "not ok - $1"; fails=$((fails + 1)); }
if [ ! -d "$C/keys" ]; then
	echo "skip - wot_corpus: $C is absent (the shared corpus is not installed)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
LINUS=ABAF11C65A2970B130ABE3C479BE3E4300411886
K=$tmp/k.wk
"$W" keyring build -o "$K" --root $LINUS "$C" 2>/dev/null || { nok "keyring build"; exit 1; }
GPGAT=2026-12-02T23:14:00Z     # GPG-VALIDITY.txt's clock
OLD=2024-06-01                 # the pseudonym keys were still valid
inside() { [ -f "$C/keys/$1.asc" ]; }

# ---- graphs/*.svg chains fully inside the sample ----
nsvg=0
for svg in "$C"/graphs/*.svg; do
	target=$(basename "$svg" .svg)
	# node title -> key ID, then the edges in order: the chain from its root
	chain=$(python3 - "$svg" <<'EOF'
import re, sys
s = open(sys.argv[1]).read()
nodes = {}
for m in re.finditer(r'<g id="node\d+" class="node">\s*<title>([^<]+)</title>(.*?)</g>', s, re.S):
    k = re.findall(r'>([0-9A-F]{16})<', m.group(2))
    nodes[m.group(1)] = k[0]
edges = [tuple(t.split('&#45;&gt;')) for t in re.findall(r'<title>([^<]*&#45;&gt;[^<]*)</title>', s)]
succ = dict(edges)
heads = set(succ) - set(succ.values())
if len(heads) != 1 or len(edges) + 1 != len(nodes):
    sys.exit(0)            # not a single chain: not compared
n = heads.pop(); out = [nodes[n]]
while n in succ:
    n = succ[n]; out.append(nodes[n])
print(" ".join(out))
EOF
)
	[ -n "$chain" ] || continue
	all=1
	for k in $chain; do inside "$k" || all=0; done
	[ $all = 1 ] || continue
	nsvg=$((nsvg + 1))
	root=${chain%% *}
	"$W" wot path --keyring "$K" --at $OLD --allow-sha1 --from "$root" "$target" >"$tmp/p" 2>/dev/null
	# our paths as key ID chains, one line per path
	awk '/^$/ { print line; line = ""; next } { line = line (line ? " " : "") $2 }' "$tmp/p" >"$tmp/chains"
	if grep -qx "$chain" "$tmp/chains"; then ok "svg $target: chain $chain is one of our paths"
	else nok "svg $target: chain $chain not among: $(tr '\n' ';' <"$tmp/chains")"; fi
done
if [ $nsvg -gt 0 ]; then ok "svg: $nsvg graphs fully inside the sample compared"
else nok "svg: no graph fully inside the sample (nothing compared)"; fi

# ---- graphs/*.txt hops inside the sample ----
nhops=0
for txt in "$C"/graphs/*.txt; do
	awk '/^$/ { prev = ""; next } { if (prev != "") print prev, $2; prev = $2 }' "$txt" >"$tmp/hops"
	while read -r a b; do
		inside "$a" && inside "$b" || continue
		nhops=$((nhops + 1))
		out=$("$W" wot path --keyring "$K" --at $OLD --allow-sha1 --maxdepth 1 --from "$a" "$b" 2>/dev/null)
		if [ "$(printf '%s\n' "$out" | awk 'NF { n++ } END { print n + 0 }')" = 2 ]; then
			ok "txt $(basename "$txt"): hop $a -> $b is a verified certification"
		else
			nok "txt $(basename "$txt"): hop $a -> $b is not a one-hop path"
		fi
	done <"$tmp/hops"
done
if [ $nhops -ge 3 ]; then ok "txt: $nhops hops inside the sample checked"
else nok "txt: only $nhops hops inside the sample"; fi

# ---- paths within 2 hops == gpg's full/ultimate with Greg and Konstantin full ----
sed -n '/^## B)/,/^## C)/p' "$C/GPG-VALIDITY.txt" | sed -n '/^### summary/,/^### raw/p' |
    awk 'NF >= 2 && length($1) == 16 && $1 ~ /^[0-9A-F]+$/ && ($2 == "f" || $2 == "u") { print $1 }' | sort >"$tmp/gpgfull"
"$W" wot path --all --keyring "$K" --at $GPGAT --allow-sha1 --maxdepth 2 2>/dev/null |
    awk '/^$/ { print last; next } { last = $2 }' | sort -u >"$tmp/ours"
if [ -s "$tmp/gpgfull" ] && cmp -s "$tmp/gpgfull" "$tmp/ours"; then
	ok "paths within 2 hops = gpg's full/ultimate keys ($(wc -l <"$tmp/ours") keys)"
else
	nok "paths within 2 hops differ from gpg: gpg [$(tr '\n' ' ' <"$tmp/gpgfull")] ours [$(tr '\n' ' ' <"$tmp/ours")]"
fi

# ---- why: the three keys cut off inside the sample ----
missing() { awk -F'\t' -v k="$1" '$1 == k { print $5 }' "$C/CHECK-SIGS.txt"; }
why_check() { # name keyid at expected-code [expected-count]
	out=$("$W" wot why --keyring "$C" --root $LINUS --at "$3" --allow-sha1 "$2" 2>/dev/null)
	rc=$?
	code=$(printf '%s\n' "$out" | sed -n '1s/.*: //p')
	if [ $rc = 1 ] && [ "$code" = "$4" ]; then ok "why $1: $4"; else nok "why $1: rc $rc, '$code', want $4"; fi
	if [ -n "${5:-}" ]; then
		n=$(printf '%s\n' "$out" | sed -n 's/.*every certification (\([0-9]*\)).*/\1/p')
		if [ "$n" = "$5" ]; then ok "why $1: names $5 certifications by outside keys (gpg: $5 missing signers)"
		else nok "why $1: '$n' certifications, gpg could not check $5"; fi
		m=$(printf '%s\n' "$out" | sed -n '2p' | tr ' ' '\n' | grep -cE '^[0-9A-F]{16}$')
		if [ "$m" -ge 1 ]; then ok "why $1: names $m issuers"; else nok "why $1: names no issuer"; fi
	fi
}
why_check Casey 0CD904EB673A7C47 $GPGAT issuers-outside "$(missing 0CD904EB673A7C47)"
why_check Inga 0DAFCD80421FC658 2019-01-01 issuers-outside "$(missing 0DAFCD80421FC658)"
why_check Inga-now 0DAFCD80421FC658 $GPGAT target-invalid
why_check Harald 034EB370014DF270 $GPGAT target-invalid
out=$("$W" wot why --keyring "$K" --at $OLD 0AA04DC735ACE2B5 2>/dev/null)
if printf '%s\n' "$out" | head -1 | grep -q ': policy$' && printf '%s\n' "$out" | grep -q 'SHA1.*refused by policy'; then
	ok "why Bothersome Borer under the standard policy: a SHA-1 certification"
else nok "why Bothersome Borer: $out"; fi
if "$W" wot why --keyring "$K" --at $OLD --allow-sha1 0AA04DC735ACE2B5 >/dev/null 2>&1; then
	ok "why with SHA-1 accepted: a path (exit 0)"; else nok "why with SHA-1 accepted: no path"; fi

# ---- audit: lost keys = paths under SHA-1 minus paths under the standard policy ----
for p in sha1 std; do
	opt=; [ $p = sha1 ] && opt=--allow-sha1
	"$W" wot path --all --keyring "$K" --at $OLD $opt 2>/dev/null |
	    awk '/^$/ { print last; next } { last = $2 }' | sort -u >"$tmp/reach.$p"
done
comm -23 "$tmp/reach.sha1" "$tmp/reach.std" >"$tmp/lostwant"
"$W" wot audit --keyring "$K" --at $OLD >"$tmp/audit" 2>/dev/null
rc=$?
sed -n '/^keys losing/,/^re-cert/p' "$tmp/audit" | awk 'length($1) == 16 && $1 ~ /^[0-9A-F]+$/ { print $1 }' | sort >"$tmp/lostgot"
if [ $rc = 1 ] && [ -s "$tmp/lostwant" ] && cmp -s "$tmp/lostwant" "$tmp/lostgot"; then
	ok "audit: $(wc -l <"$tmp/lostgot") keys lose their path when SHA-1 is refused"
else nok "audit: lost [$(tr '\n' ' ' <"$tmp/lostgot")] want [$(tr '\n' ' ' <"$tmp/lostwant")] rc $rc"; fi
if grep -q '^  79BE3E4300411886 must re-certify E63EDCA9329DD07E/' "$tmp/audit"; then
	ok "audit: Linus must re-certify Konstantin"; else nok "audit: no re-certification of Konstantin by Linus"; fi
if "$W" wot audit --keyring "$K" --at $OLD --policy-as-of 2012-01-01 >/dev/null 2>&1; then
	ok "audit under the policy of 2012: nothing lost (exit 0)"; else nok "audit under the policy of 2012"; fi
echo "# wot_corpus: $fails failures"
[ $fails = 0 ]
