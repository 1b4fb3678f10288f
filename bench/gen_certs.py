#!/usr/bin/env python3
"""bench/gen_certs.py N OUTDIR - N synthetic v4 certificates for the keyring
scaling benchmark (bench/keyring.sh), written from first principles
(RFC 9580 §5.5.2 key packets, §5.2 signatures, §5.2.4 hashing):

  OUTDIR/certs-N.pgp   N certificates: an Ed25519 (legacy EdDSA, algorithm 22)
                       primary key, one user ID "Synthetic I <synth-I@bench.invalid>"
                       and its positive self-certification (0x13, SHA-256),
                       and every tenth certificate certified by the previous
                       one (a third-party 0x10 certification: edges to keep);
  OUTDIR/msg.txt       a small message;
  OUTDIR/msg.sig       a detached binary signature over it by certificate N/2.

Keys come from SHA-256(seed || index), so a run is reproducible. Needs
python3 with `cryptography`.
"""
import hashlib, os, struct, sys
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives import serialization

CREATED = 1700000000
OID_ED25519 = bytes.fromhex("2B06010401DA470F01")


def pkt(tag, body):
    n = len(body)
    if n < 192:
        h = bytes([n])
    elif n < 8384:
        n2 = n - 192
        h = bytes([(n2 >> 8) + 192, n2 & 0xFF])
    else:
        h = b"\xff" + struct.pack(">I", n)
    return bytes([0xC0 | tag]) + h + body


def mpi(b):
    b = b.lstrip(b"\x00")
    bits = (len(b) - 1) * 8 + b[0].bit_length() if b else 0
    return struct.pack(">H", bits) + b


def sub(typ, body):
    return bytes([len(body) + 1, typ]) + body


class Key:
    def __init__(self, i, seed):
        self.sk = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(seed + struct.pack(">Q", i)).digest())
        pub = self.sk.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
        self.body = bytes([4]) + struct.pack(">I", CREATED) + bytes([22, len(OID_ED25519)]) + OID_ED25519 + mpi(b"\x40" + pub)
        self.fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(self.body)) + self.body).digest()
        self.keyid = self.fpr[12:]


def sig(signer, typ, prefix_data, extra_hashed=b""):
    hashed = sub(2, struct.pack(">I", CREATED + 60)) + sub(33, b"\x04" + signer.fpr) + extra_hashed
    head = bytes([4, typ, 22, 8]) + struct.pack(">H", len(hashed)) + hashed
    trailer = b"\x04\xff" + struct.pack(">I", len(head))
    digest = hashlib.sha256(prefix_data + head + trailer).digest()
    rs = signer.sk.sign(digest)
    unhashed = sub(16, signer.keyid)
    return pkt(2, head + struct.pack(">H", len(unhashed)) + unhashed + digest[:2] + mpi(rs[:32]) + mpi(rs[32:]))


def key_prefix(k):
    return b"\x99" + struct.pack(">H", len(k.body)) + k.body


def uid_prefix(u):
    return b"\xb4" + struct.pack(">I", len(u)) + u


def main():
    n = int(sys.argv[1])
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seed = b"wotkit bench gen_certs v1"
    prev = None
    mid = None
    with open(os.path.join(out, "certs-%d.pgp" % n), "wb") as f:
        for i in range(n):
            k = Key(i, seed)
            uid = b"Synthetic %d <synth-%d@bench.invalid>" % (i, i)
            parts = [pkt(6, k.body), pkt(13, uid),
                     sig(k, 0x13, key_prefix(k) + uid_prefix(uid), sub(27, b"\x03"))]
            if prev is not None and i % 10 == 0:
                parts.append(sig(prev, 0x10, key_prefix(k) + uid_prefix(uid)))
            f.write(b"".join(parts))
            if i == n // 2:
                mid = k
            prev = k
    msg = b"a small message for the keyring benchmark\n"
    with open(os.path.join(out, "msg.txt"), "wb") as f:
        f.write(msg)
    with open(os.path.join(out, "msg.sig"), "wb") as f:
        f.write(sig(mid, 0x00, msg))


if __name__ == "__main__":
    main()
