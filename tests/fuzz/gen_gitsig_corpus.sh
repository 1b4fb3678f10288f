#!/bin/sh
# gen_gitsig_corpus.sh - writes the seed corpus of fuzz_gitsig into
# tests/fuzz/corpus/gitsig/: odd tag, commit and merge objects (the shapes
# tests/cli/gitsig_git.sh compares with real git). Deterministic; needs only
# printf. Run from anywhere:   sh tests/fuzz/gen_gitsig_corpus.sh
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
d="$top/tests/fuzz/corpus/gitsig"
mkdir -p "$d"
w() { printf '%b' "$2" >"$d/$1"; }

O=0123456789abcdef0123456789abcdef01234567
TG='tagger T Agger <t@example.org> 1700000000 +0000'
TH="object $O\ntype commit\ntag v1\n$TG\n"
CH="tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nparent $O\nauthor A <a@example.org> 1700000000 +0000\ncommitter C <c@example.org> 1700000000 +0000\n"
SIG='-----BEGIN PGP SIGNATURE-----\n\niHUEABYKAB0WIQQ=\n=abcd\n-----END PGP SIGNATURE-----\n'
CS=' -----BEGIN PGP SIGNATURE-----\n \n iHUEABYKAB0WIQQ=\n =abcd\n -----END PGP SIGNATURE-----\n'
MT="mergetag object $O\n type commit\n tag v1\n $TG\n \n merged\n$CS"

w tag-plain "$TH\nmessage\n$SIG"
w tag-text-after-end "$TH\nmessage\n${SIG}trailing\n"
w tag-crlf "object $O\r\ntype commit\r\ntag v1\r\n$TG\r\n\r\nmessage\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\niHUE\r\n-----END PGP SIGNATURE-----\r\n"
w tag-two-blocks "$TH\nmessage\n$SIG$SIG"
w tag-no-trailing-newline "$TH\nmessage\n-----BEGIN PGP SIGNATURE-----\n\niHUE"
w tag-header-indented "$TH\nmessage\n -----BEGIN PGP SIGNATURE-----\n"
w tag-pgp-message "$TH\nm\n-----BEGIN PGP MESSAGE-----\nx\n"
w tag-x509 "$TH\nm\n-----BEGIN SIGNED MESSAGE-----\nx\n"
w tag-ssh "$TH\nm\n-----BEGIN SSH SIGNATURE-----\nx\n"
w tag-gpgsig-headers "object $O\ngpgsig a\n a2\ntype commit\ngpgsig-sha256 b\n b2\ngpgsigx c\n$TG\n\nm\n$SIG"
w tag-gpgsig-adjacent "${TH}gpgsig a\n a2\ngpgsig-sha256 b\n b2\n\nm\n$SIG"
w tag-gpgsig-three "object x\ngpgsig a\ntype commit\ngpgsig b\ntag v\ngpgsig c\n$TG\n\nm\n$SIG"
w tag-unsigned "$TH\nmessage\n"
w commit-gpgsig "${CH}gpgsig$CS\nmessage\n"
w commit-gpgsig-sha256 "${CH}gpgsig-sha256$CS\nmessage\n"
w commit-both "${CH}gpgsig${CS}gpgsig-sha256$CS\nmessage\n"
w commit-gpgsig-in-body "$CH\nmessage\ngpgsig$CS"
w commit-odd-prefixes "${CH}gpgsig\n bar\ngpgsig -----BEGIN PGP SIGNATURE-----\n X\ngpgsigx y\n z\nencoding x\ngpgsig  second\n\nmsg\n"
w commit-empty-continuations "${CH}gpgsig -----BEGIN PGP SIGNATURE-----\n \n \n iHUE\n \n -----END PGP SIGNATURE-----\n\nm\n"
w commit-crlf "tree t\ncommitter C <c@e> 1 +0000\r\ngpgsig -----BEGIN PGP SIGNATURE-----\r\n iHUE\r\n\r\nmessage\r\ngpgsig in-body\r\n"
w commit-sig-last-line "${CH}gpgsig -----BEGIN PGP SIGNATURE-----\n iHUE"
w commit-garbage-sig "${CH}gpgsig garbage\n more\n\nm\n"
w merge-mergetag "${CH}parent $O\n$MT\nMerge\n"
w merge-two-mergetags "${CH}parent $O\n${MT}mergetagx y\n z\n$MT""gpgsig$CS\nMerge\n"
w merge-mergetag-nested "${CH}mergetag object $O\n type commit\n $TG\n gpgsig inner\n  inner2\n \n m\n$CS\nMerge\n"
w merge-mergetag-edge "${CH}mergetag \nmergetag\n cont\nmergetag"
