#!/bin/sh
# Keyring file corruption (vectors/krfile/MANIFEST, tests/cli/krfile.py): a
# keyring built here from the verify, trust and wot vectors (several blocks
# per index, e-mail entries, certification edges), mutated by every row of
# the MANIFEST, raw and with every checksum recomputed; bit flips and
# truncations at each section boundary and at sampled offsets. TAP output.
W=${WOTKIT:-./wotkit}
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
if ! "$W" keyring build -o "$t/ring.wk" vectors/verify/keys vectors/trust/web.pgp \
	vectors/wot/keyring.asc 2>"$t/err"; then
	echo "not ok - keyring build"; sed 's/^/# /' "$t/err"; exit 1
fi
echo "ok - keyring built ($(wc -c <"$t/ring.wk") octets)"
WOTKIT=$W python3 tests/cli/krfile.py "$t/ring.wk" vectors/verify vectors/krfile/MANIFEST
