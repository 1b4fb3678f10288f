#!/usr/bin/env python3
# tests/cli/lib/sign_commits.py REPO SECKEY N - for tests/cli/git_verify.sh:
# N commits, each signed (gpgsig header, OpenPGP v4 EdDSA signature, RFC 9580
# §5.2) with the unprotected ed25519 secret key SECKEY (`gpg
# --export-secret-keys` output, S2K usage 0), on top of an unsigned commit
# refs/heads/perf-base, ending at refs/heads/main. Objects are written as
# loose objects directly (one process for all): gpg would take ~25 ms per
# signature. Needs python3-cryptography.
import hashlib, os, struct, sys, zlib, base64
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

repo, seckey, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
gitdir = os.path.join(repo, ".git")

def packets(data):
    """(tag, body) of each packet (old and new format headers)."""
    i = 0
    while i < len(data):
        c = data[i]; i += 1
        if c & 0x40:
            tag = c & 0x3f
            l = data[i]; i += 1
            if l >= 192 and l < 224:
                l = ((l - 192) << 8) + data[i] + 192; i += 1
            elif l == 255:
                l = struct.unpack(">I", data[i:i + 4])[0]; i += 4
        else:
            tag = (c >> 2) & 0xf
            lt = c & 3
            if lt == 0: l = data[i]; i += 1
            elif lt == 1: l = struct.unpack(">H", data[i:i + 2])[0]; i += 2
            else: l = struct.unpack(">I", data[i:i + 4])[0]; i += 4
        yield tag, data[i:i + l]
        i += l

def mpi(b):
    b = b.lstrip(b"\0")
    bits = (len(b) - 1) * 8 + b[0].bit_length() if b else 0
    return struct.pack(">H", bits) + b

# the primary secret key packet (tag 5): public part, then the seed
data = open(seckey, "rb").read()
body = next(b for t, b in packets(data) if t == 5)
assert body[0] == 4 and body[5] == 22, "need a v4 EdDSA (legacy) key"
ol = body[6]
p = 7 + ol
pbits = struct.unpack(">H", body[p:p + 2])[0]
p += 2 + (pbits + 7) // 8
pub = body[:p]
assert body[p] == 0, "the secret key is protected"
p += 1
sbits = struct.unpack(">H", body[p:p + 2])[0]
seed = body[p + 2:p + 2 + (sbits + 7) // 8].rjust(32, b"\0")
key = Ed25519PrivateKey.from_private_bytes(seed)
fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(pub)) + pub).digest()
keyid = fpr[-8:]

def crc24(d):
    crc = 0xB704CE
    for x in d:
        crc ^= x << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF

def sign(payload, when):
    hashed = bytes([5, 2]) + struct.pack(">I", when) + bytes([22, 33, 4]) + fpr
    head = bytes([4, 0, 22, 8]) + struct.pack(">H", len(hashed)) + hashed
    digest = hashlib.sha256(payload + head + b"\x04\xff" + struct.pack(">I", len(head))).digest()
    sig = key.sign(digest)
    unhashed = bytes([9, 16]) + keyid
    pkt = head + struct.pack(">H", len(unhashed)) + unhashed + digest[:2] + mpi(sig[:32]) + mpi(sig[32:])
    assert len(pkt) < 192
    raw = bytes([0xC2, len(pkt)]) + pkt
    b64 = base64.b64encode(raw).decode()
    lines = [b64[i:i + 64] for i in range(0, len(b64), 64)]
    crc = base64.b64encode(struct.pack(">I", crc24(raw))[1:]).decode()
    return "-----BEGIN PGP SIGNATURE-----\n\n" + "\n".join(lines) + "\n=" + crc + \
        "\n-----END PGP SIGNATURE-----\n"

def write(kind, body):
    obj = kind.encode() + b" " + str(len(body)).encode() + b"\0" + body
    oid = hashlib.sha1(obj).hexdigest()
    d = os.path.join(gitdir, "objects", oid[:2])
    os.makedirs(d, exist_ok=True)
    path = os.path.join(d, oid[2:])
    if not os.path.exists(path):
        with open(path, "wb") as f:
            f.write(zlib.compress(obj, 1))
    return oid

tree = write("tree", b"")
t0 = 1700000000
def commit(parent, i, signed):
    when = t0 + 60 * i
    hdr = "tree %s\n" % tree + ("parent %s\n" % parent if parent else "")
    hdr += "author P <p@example.org> %d +0000\ncommitter P <p@example.org> %d +0000\n" % (when, when)
    msg = "\ncommit %d\n" % i
    if not signed:
        return write("commit", (hdr + msg).encode())
    s = sign((hdr + msg).encode(), when)
    sl = s.rstrip("\n").split("\n")
    gpgsig = "gpgsig " + sl[0] + "\n" + "".join(" " + l + "\n" for l in sl[1:])
    return write("commit", (hdr + gpgsig + msg).encode())

base = commit(None, 0, False)
head = base
for i in range(1, n + 1):
    head = commit(head, i, True)
for ref, oid in (("perf-base", base), ("main", head)):
    with open(os.path.join(gitdir, "refs", "heads", ref), "w") as f:
        f.write(oid + "\n")
print(head)
