#!/bin/sh
# gen_wot_corpus.sh - writes the seed corpus of fuzz_wot into tests/fuzz/corpus/wot/:
# keyrings built by `wotkit keyring build` from the generated webs
# (vectors/wot: paths, revocations, trust signatures with a regex, SHA-1
# links; vectors/trust: GnuPG trust-model cases), ownertrust files, and a
# regular expression against a user ID.
# usage: sh tests/fuzz/gen_wot_corpus.sh [OUTDIR]   (run from the top, after make)
set -eu
out=${1:-tests/fuzz/corpus/wot}
W=${WOTKIT:-./wotkit}
mkdir -p "$out"
"$W" keyring build -o "$out/wot-web.wk" vectors/wot/keyring.asc 2>/dev/null
"$W" keyring build -o "$out/trust-web.wk" vectors/trust/web.pgp 2>/dev/null
cp vectors/wot/trust-B.txt "$out/ownertrust-B.txt"
printf 'ABAF11C65A2970B130ABE3C479BE3E4300411886:6:\n# comment\nDE0E66E32F1FDD0902666B96E63EDCA9329DD07E:5:\n' >"$out/ownertrust-small.txt"
# first octet: the length of the regex that follows, then the user ID
printf '\035<[^>]+[@.]example\\.org>$Tin <tin@sub.example.org>' >"$out/regex.txt"
