#!/bin/sh
# gen_write_corpus.sh - writes the seed corpus of fuzz_write into
# tests/fuzz/corpus/write/: the project's own vector keys (vectors/verify,
# vectors/adversarial) and hand-made framings of one of them (legacy
# 1/2/4-octet lengths, non-shortest new-format lengths, trust and marker
# packets in between, a secret primary key, a stand-alone revocation first).
# usage: sh tests/fuzz/gen_write_corpus.sh [OUTDIR]   (run from the top)
set -eu
out=${1:-tests/fuzz/corpus/write}
mkdir -p "$out"
for f in vectors/verify/keys/*.pgp vectors/adversarial/keys/*.pgp; do
	cp "$f" "$out/$(basename "$(dirname "$(dirname "$f")")")-$(basename "$f")"
done
python3 - "$out" <<'PY'
import sys
out = sys.argv[1]

def packets(b):
    """(tag, body) of a binary packet sequence (legacy or new format)."""
    i, r = 0, []
    while i < len(b):
        ctb = b[i]; i += 1
        if ctb & 0x40:
            tag = ctb & 0x3f; o = b[i]; i += 1
            if o < 192: n = o
            elif o < 224: n = ((o - 192) << 8) + b[i] + 192; i += 1
            else: n = int.from_bytes(b[i:i+4], 'big'); i += 4
        else:
            tag = (ctb >> 2) & 15; lt = ctb & 3
            k = [1, 2, 4][lt]; n = int.from_bytes(b[i:i+k], 'big'); i += k
        r.append((tag, b[i:i+n])); i += n
    return r

def new(tag, body, five=False):
    n = len(body)
    if five: h = bytes([0xff]) + n.to_bytes(4, 'big')
    elif n < 192: h = bytes([n])
    elif n < 8384: h = bytes([((n - 192) >> 8) + 192, (n - 192) & 0xff])
    else: h = bytes([0xff]) + n.to_bytes(4, 'big')
    return bytes([0xc0 | tag]) + h + body

def old(tag, body, lt):
    k = [1, 2, 4][lt]
    return bytes([0x80 | (tag << 2) | lt]) + len(body).to_bytes(k, 'big') + body

def save(name, b):
    open(f"{out}/{name}", "wb").write(b)

key = packets(open("vectors/verify/keys/rsa2048-subkey.pgp", "rb").read())
rev = packets(open("vectors/verify/keys/rsa2048-primary-revoked.pgp", "rb").read())
small = [(t, b) for t, b in key if len(b) < 256]
save("frame-new-canonical", b"".join(new(t, b) for t, b in key))
save("frame-new-five-octet", b"".join(new(t, b, True) for t, b in key))
save("frame-old-4octet", b"".join(old(t, b, 2) for t, b in key))
save("frame-old-mixed", b"".join(old(t, b, 0 if len(b) < 256 else 1) for t, b in key))
trust = new(12, b"\x00\x00")
marker = new(10, b"PGP")
save("frame-trust-marker", b"".join(new(t, b) + trust for t, b in key[:1]) + marker +
     b"".join(new(t, b) + trust for t, b in key[1:]))
sec = [(5, key[0][1] + b"\x00\x00\x01\x01\x00\x01")] + key[1:3] + \
      [(7, key[3][1] + b"\x00\x00\x01\x01\x00\x01")] + key[4:]
save("frame-secret", b"".join(new(t, b) for t, b in sec))
save("frame-loose-first", new(2, rev[1][1]) + new(rev[0][0], rev[0][1]) +
     b"".join(new(t, b) for t, b in rev[2:]))
save("frame-loose-dup", new(2, rev[1][1]) + b"".join(new(t, b) for t, b in rev))
PY
