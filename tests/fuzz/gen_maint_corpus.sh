#!/bin/sh
# gen_maint_corpus.sh - writes the seed corpus of fuzz_maint into
# tests/fuzz/corpus/maint/: the hand-written MAINTAINERS fixture of the CLI
# tests, and small files for each rule (globs, X:, N:, THE REST, odd
# addresses, CRLF, untitled sections, bad expressions).
# usage: sh tests/fuzz/gen_maint_corpus.sh [OUTDIR]   (run from the top)
set -eu
out=${1:-tests/fuzz/corpus/maint}
mkdir -p "$out"
cp tests/cli/lib/maintainers.fixture "$out/fixture"
printf 'THE REST\nM:\tL T <lt@example.org>\nF:\t*\nF:\t*/\n' >"$out/the-rest"
printf 'G\nM:\ta@b\nF:\tdrivers/*/foo?.c\nF:\tarch/*/boot/\nX:\tdrivers/x/\nN:\tsun [x4-9] i # c\n' >"$out/globs"
printf 'R\nM:\t"L, F" <a@b> (c)\nR:\tx@y (Name)\nM:\tnobody\nF:\tlib/[ab]+x/\nN:\t(?:a|b)\\d*?\nN:\t[\\]]\n' >"$out/regex"
printf 'F:\tfirst/\r\nM:\ta@b\r\nT\r\nF:\tx/ \r\n' >"$out/crlf"
printf 'preamble\n\tM: x\n# c\n\nT\nf: lower\nFF: x\nF:\nM:\t<a@b> <c@d>\n' >"$out/odd"
# regcomp's exponential expansion (refused by MAINT_MAX_REGEX_DUP), a back-reference
printf 'T\nM:\ta@b\nN:\tsun<a@b> +++++++++++++++++++++++++++++++|b)\nN:\t((x+)+)+{9}\nF:\t(a)\\1/\nF:\ta++++++++/\n' >"$out/explode"
