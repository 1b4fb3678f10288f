#!/usr/bin/env python3
"""bench/issuer_sig.py FPR DATA OUT: a v4 RSA/SHA-256 detached signature
over DATA naming the key FPR (hex, v4) as issuer, whose value is random.
No one can sign with the keys of debian-keyring, and verifying such a
signature does all the work a real one does: the issuer lookup, the build
and evaluation of the certificate (self-signatures checked), the data
hash with a correct quick-check prefix, and one RSA public operation;
only its result differs (BAD signature). For bench/rawring.sh only."""
import hashlib, os, struct, sys, time

fpr = bytes.fromhex(sys.argv[1])
data = open(sys.argv[2], "rb").read()


def sub(t, b):
    return bytes([len(b) + 1, t]) + b


hashed = sub(2, struct.pack(">I", int(time.time()) - 3600)) + sub(33, b"\x04" + fpr)
unhashed = sub(16, fpr[-8:])
# RFC 9580 §5.2.3: version 4, type 0x00 (binary), RSA (1), SHA-256 (8)
body = bytes([4, 0x00, 1, 8]) + struct.pack(">H", len(hashed)) + hashed
trailer = body + b"\x04\xff" + struct.pack(">I", len(body))
digest = hashlib.sha256(data + trailer).digest()
s = int.from_bytes(os.urandom(512), "big") >> 3 | (1 << 4092)  # below any 4096-bit n
mpi = struct.pack(">H", s.bit_length()) + s.to_bytes((s.bit_length() + 7) // 8, "big")
pkt = body + struct.pack(">H", len(unhashed)) + unhashed + digest[:2] + mpi
n = len(pkt)
hdr = bytes([0xC2, ((n - 192) >> 8) + 192, (n - 192) & 0xFF]) if n >= 192 else bytes([0xC2, n])
open(sys.argv[3], "wb").write(hdr + pkt)
