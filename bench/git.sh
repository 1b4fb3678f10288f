#!/bin/sh
# bench/git.sh - git signature verification, wotkit against gpg, one run,
# side by side, ratios printed (>1.00x means wotkit is faster):
#  (a) one signed tag: `git verify-tag` with gpg vs `wotkit verify-tag` vs
#      `git -c gpg.program=wotkit-gpg verify-tag`;
#  (b) `git log --format=%G?` over 1000 signed commits with gpg vs with
#      wotkit-gpg (git runs the program once per signature), and the cost
#      per signature: (log %G? - log %H) / 1000;
#  (c) built-in `wotkit verify-commit BASE..HEAD` of the same 1000 commits.
# Targets (issue 15): wotkit-gpg >= 10x faster than gpg per signature in
# `git log`; built-in verify of 1000 signed commits < 150 ms.
# Each row: median wall time and mean cpu time (user + system, children
# included: what the machine spent, less sensitive to a busy machine than
# wall time); (b) also runs git with gpg.program=true, the floor of one
# process start per signature.
#
# The material, made once and cached in BENCH_DIR (default build/bench/git;
# ~30 s: one gpg call per commit through `git commit-tree -S`, one agent):
# a root key and a signer it certifies (Ed25519), a GNUPGHOME with both and
# the root ultimately trusted, a wotkit keyring rooted at the same root, and
# a repository: an unsigned base commit, 1000 commits signed by the signer
# on top of it, the signed tag v1.0 on the last one. The signer is fully
# valid to both (gpg: certified by an ultimately trusted key; wotkit: a path
# from the root), so every signature is G for both: checked before timing.
# Needs git, gpg, hyperfine, python3. Usage: bench/git.sh [N]  (N commits, default 1000)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
W="$top/wotkit"
[ -x "$W" ] && [ -x "$top/wotkit-git" ] || { echo "build first: make" >&2; exit 2; }
for t in git gpg gpgconf hyperfine python3; do
	command -v $t >/dev/null || { echo "bench: $t missing" >&2; exit 2; }
done
n=${1:-1000}
d=${BENCH_DIR:-$top/build/bench/git}
mkdir -p "$d"
d=$(cd "$d" && pwd)
WG="$d/wotkit-gpg"
ln -sf "$W" "$WG"
# signing home (secret keys, their own keys ultimately trusted) and the
# verifying home (public keys only, the root ultimately trusted)
S="$d/gnupg-sign"
GNUPGHOME="$d/gnupg"; export GNUPGHOME
K="$d/keyring.wk"
WOTKIT_KEYRING="$K"; export WOTKIT_KEYRING
R="$d/repo.$n"

if [ ! -f "$d/keys.asc" ]; then
	rm -rf "$S" "$GNUPGHOME"; mkdir -m 700 "$S" "$GNUPGHOME"
	g() { gpg --homedir "$S" --batch --quiet --no-tty --pinentry-mode loopback --passphrase '' "$@"; }
	g --quick-gen-key 'Bench Root <root@bench.invalid>' ed25519 cert,sign never
	g --quick-gen-key 'Bench Signer <signer@bench.invalid>' ed25519 cert,sign never
	root=$(g --with-colons --list-keys '<root@bench.invalid>' | awk -F: '/^fpr/ { print $10; exit }')
	signer=$(g --with-colons --list-keys '<signer@bench.invalid>' | awk -F: '/^fpr/ { print $10; exit }')
	g -u "$root!" --quick-sign-key "$signer" >/dev/null
	g --armor --export >"$d/keys.asc.tmp"
	gpg --batch --quiet --import "$d/keys.asc.tmp" 2>/dev/null
	echo "$root:6:" | gpg --batch --quiet --import-ownertrust
	gpg --batch --quiet --check-trustdb 2>/dev/null || true
	echo "$root $signer" >"$d/fprs"
	mv "$d/keys.asc.tmp" "$d/keys.asc"
	rm -f "$K"
fi
read -r ROOT SIGNER <"$d/fprs"
[ -f "$K" ] || "$W" keyring build -o "$K" --root "$ROOT" "$d/keys.asc" 2>/dev/null

if [ ! -f "$R/done" ]; then
	rm -rf "$R"
	git init -q -b main "$R"
	export GIT_AUTHOR_NAME="Bench Signer" GIT_AUTHOR_EMAIL=signer@bench.invalid
	export GIT_COMMITTER_NAME="Bench Signer" GIT_COMMITTER_EMAIL=signer@bench.invalid
	echo bench >"$R/file"
	git -C "$R" add file
	GIT_AUTHOR_DATE=@1735689600 GIT_COMMITTER_DATE=@1735689600 git -C "$R" commit -q -m base
	git -C "$R" tag base
	tree=$(git -C "$R" rev-parse 'HEAD^{tree}')
	c=$(git -C "$R" rev-parse HEAD)
	echo "making $n signed commits in $R (once)..." >&2
	s=$(date +%s)
	i=1
	while [ $i -le "$n" ]; do
		c=$(GIT_AUTHOR_DATE=@$((1735689600 + i * 60)) GIT_COMMITTER_DATE=@$((1735689600 + i * 60)) \
		    GNUPGHOME="$S" git -C "$R" commit-tree -S"$SIGNER" -p "$c" -m "commit $i" "$tree")
		i=$((i + 1))
	done
	git -C "$R" update-ref refs/heads/main "$c"
	GNUPGHOME="$S" git -C "$R" -c user.signingkey="$SIGNER" tag -s -m "bench v1.0" v1.0 main
	git -C "$R" gc -q    # packed, as real repositories are
	echo "... $(( $(date +%s) - s )) s" >&2
	touch "$R/done"
fi
GNUPGHOME="$S" gpgconf --kill gpg-agent 2>/dev/null || true

# every verdict checked first, so that the times below are of the same work;
# a time whose verdict was wrong is marked (not comparable)
count_g() { tr -cd G | wc -c; }
warn() { echo "WARNING: $*" >&2; }
gg=$(git -C "$R" log --format=%G? base..main | count_g)
gw=$(git -C "$R" -c gpg.program="$WG" log --format=%G? base..main | count_g)
echo "signatures: $n; %G? = G with gpg: $gg, with wotkit-gpg: $gw"
ok_bg=1 ok_bw=1 ok_a0=1 ok_a1=1 ok_a2=1 ok_c=1
[ "$gg" = "$n" ] || { ok_bg=0; warn "gpg does not say G for every commit"; }
[ "$gw" = "$n" ] || { ok_bw=0; warn "wotkit-gpg does not say G for every commit"; }
git -C "$R" verify-tag v1.0 2>/dev/null || { ok_a0=0; warn "git+gpg rejects v1.0"; }
"$W" verify-tag -C "$R" --keyring "$K" v1.0 >"$d/vt.out" 2>&1 ||
    { ok_a1=0; warn "wotkit verify-tag rejects v1.0 ($(tail -1 "$d/vt.out"))"; }
git -C "$R" -c gpg.program="$WG" verify-tag v1.0 2>/dev/null || { ok_a2=0; warn "git+wotkit-gpg rejects v1.0"; }
"$W" verify-commit -C "$R" --keyring "$K" base..main >"$d/vc.out" 2>&1 ||
    { ok_c=0; warn "wotkit verify-commit base..main exits non-zero ($(tail -1 "$d/vc.out"))"; }

mean() { # hyperfine json, index -> median wall seconds (robust on a shared machine)
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]["median"])' "$1" "$2"
}
cpu() { # hyperfine json, index -> mean user+system seconds (the command and its children)
	python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"][int(sys.argv[2])]; print(r["user"]+r["system"])' "$1" "$2"
}
row() { # verdict-ok, label, json, index, [baseline index]: wall, cpu, ratios against the baseline
	python3 -c 'import json, sys
ok, l, j, i = sys.argv[1] == "1", sys.argv[2], json.load(open(sys.argv[3]))["results"], int(sys.argv[4])
w, c = j[i]["median"], j[i]["user"] + j[i]["system"]
line = f"  {l:44s} {w*1000:9.2f} ms wall {c*1000:9.2f} ms cpu"
if len(sys.argv) > 5:
	b = j[int(sys.argv[5])]
	bw, bc = b["median"], b["user"] + b["system"]
	line += f"   {bw/w:6.2f}x wall {bc/c:6.2f}x cpu"
print(line + ("" if ok else "   (WRONG VERDICT: not comparable)"))' "$@"
}

echo
echo "== (a) one signed tag (v1.0)"
hyperfine -N -i -w 3 -r 30 --export-json "$d/a.json" \
    "git -C $R verify-tag v1.0" \
    "$W verify-tag -C $R --keyring $K v1.0" \
    "git -C $R -c gpg.program=$WG verify-tag v1.0" >/dev/null 2>&1
row $ok_a0 "git verify-tag (gpg)" "$d/a.json" 0
row $ok_a1 "wotkit verify-tag" "$d/a.json" 1 0
row $ok_a2 "git -c gpg.program=wotkit-gpg verify-tag" "$d/a.json" 2 0

echo
echo "== (b) git log --format=%G? over $n signed commits"
# the floor: git starting a program that does nothing once per signature
hyperfine -N -i -w 0 -r 3 --export-json "$d/b.json" \
    "git -C $R log --format=%H base..main" \
    "git -C $R -c gpg.program=true log --format=%G? base..main" \
    "git -C $R log --format=%G? base..main" \
    "git -C $R -c gpg.program=$WG log --format=%G? base..main" >/dev/null 2>&1
row 1 "git log %H (no signature checked)" "$d/b.json" 0
row 1 "git log %G?, gpg.program=true (spawn floor)" "$d/b.json" 1
row $ok_bg "git log %G? (gpg)" "$d/b.json" 2
row $ok_bw "git log %G? (wotkit-gpg)" "$d/b.json" 3 2
python3 -c 'import json, sys
j, n = json.load(open(sys.argv[1]))["results"], int(sys.argv[2])
w = [r["median"] for r in j]
c = [r["user"] + r["system"] for r in j]
pg, pw = (w[2] - w[0]) / n, (w[3] - w[0]) / n
print(f"  per signature, wall: gpg {pg*1000:.2f} ms, wotkit-gpg {pw*1000:.2f} ms: {pg/pw:.1f}x (target >= 10x)")
pg, pw = (c[2] - c[0]) / n, (c[3] - c[0]) / n
print(f"  per signature, cpu:  gpg {pg*1000:.2f} ms, wotkit-gpg {pw*1000:.2f} ms: {pg/pw:.1f}x")
pg, pw = (w[2] - w[1]) / n, (w[3] - w[1]) / n
print(f"  above the spawn floor, wall: gpg {pg*1000:.2f} ms, wotkit-gpg {pw*1000:.2f} ms: {pg/pw:.1f}x")' "$d/b.json" "$n"

echo
echo "== (c) built-in: wotkit verify-commit base..main ($n signed commits)"
hyperfine -N -w 2 -r 10 -i --export-json "$d/c.json" \
    "$W verify-commit -C $R --keyring $K base..main" >/dev/null 2>&1
row $ok_c "wotkit verify-commit base..main" "$d/c.json" 0
python3 -c 'import sys
w, c, n = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
print(f"  {w*1000:.1f} ms wall, {c*1000:.1f} ms cpu for {n} commits (target < 150 ms for 1000)")' \
    "$(mean "$d/c.json" 0)" "$(cpu "$d/c.json" 0)" "$n"
