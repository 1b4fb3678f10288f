#!/bin/sh
# gen_gpg_corpus.sh - writes the seed corpus of fuzz_gpg into
# tests/fuzz/corpus/gpg/: the command lines git, b4 and patatt run
# (docs/gpg.md), refused commands, clusters of short options, values glued
# with '=', "--" and option problems, one argument per NUL-terminated
# string; and user IDs with every octet the escapes must handle.
# usage: sh tests/fuzz/gen_gpg_corpus.sh [OUTDIR]   (run from the top)
set -eu
out=${1:-tests/fuzz/corpus/gpg}
mkdir -p "$out"
# crash-* inputs found by the fuzzer are kept (regressions)
find "$out" -type f ! -name 'crash-*' -delete
# args NAME ARG...: the arguments, each followed by a NUL
args() {
	n=$1
	shift
	: >"$out/$n"
	for a in "$@"; do
		printf '%s\0' "$a" >>"$out/$n"
	done
}
args git-verify --status-fd=1 --verify /tmp/sig.asc -
args git-verify-keyid --keyid-format=long --status-fd=1 --verify s -
args git-sign -bsau 0xABCDEF0123456789
args git-sign2 --status-fd=2 -bsau KEY
args list --with-colons --list-keys --fingerprint alice@example.org
args list-fpr --fingerprint --with-colons --fixed-list-mode --list-keys
args b4 --batch --no-default-keyring --keyring=x.kbx --keyring y.gpg --homedir /h --status-fd 2 --verify a b
args patatt --verify --status-fd=2 --with-colons --faked-system-time 20261203T200859! sig -
args faked --faked-system-time=1796328539 --verify s
args faked-bad --faked-system-time=2026120xT200859 --verify s
args import --import --output - key.asc --allow-weak-digest-algos
args trust --marginals-needed 3 --completes-needed=1 --max-cert-depth 5 --list-keys
args trust-bad --marginals-needed 1 --completes-needed 0 --max-cert-depth 999 --status-fd -3
args missing --homedir
args conflict --verify --import --list-keys -k
args refused --encrypt -r bob --sign --decrypt --gen-key --clearsign
args dashdash --verify -- --not-an-option -x
args short -o- -vvv -q -a -u KEY -k
args version --version --help -h
args unknown --no-such-option=1 --trust-model=always --lock-never x
# many keyrings and arguments (GPG_MAX_KEYRINGS, GPG_MAX_ARGS)
set -- --verify
i=0
while [ $i -lt 20 ]; do set -- "$@" --keyring "k$i"; i=$((i + 1)); done
i=0
while [ $i -lt 70 ]; do set -- "$@" "a$i"; i=$((i + 1)); done
args many "$@"
# user IDs: escapes of status lines, colon fields and human lines
printf 'Ünï: b\\s %%p\ttab\177 <w@example.org>\0a\nb\rc\0:::\\\\x3a\0%%25%%\0' >"$out/uids"
printf '\001\002\003\033[31m\177\200\377\0' >"$out/controls"
ls "$out" | wc -l
