#!/usr/bin/env python3
"""pgp_edit.py - tiny OpenPGP packet editor for vectors/gen/verify_vectors.sh
and vectors/gen/gen_sopv_validate.sh.

Only what the generator needs, for v4 packets (RFC 9580 §4.2, §5.2.3):

  strip-backsig   IN OUT          drop the Embedded Signature subpacket (type 32,
                                  the 0x19 primary-key binding "back-signature")
                                  from the UNHASHED area of every subkey binding
                                  signature (0x18).  GnuPG 2.2 puts it there, so
                                  the binding signature itself stays valid.
  corrupt-backsig IN OUT          same place, but flip one bit in the last byte
                                  of the embedded signature's last MPI, so the
                                  back-signature no longer verifies.
  sign-with-subkey SECKEY FPR DATA OUT TIME
                                  make a binary (0x00) v4 RSA/SHA-256 detached
                                  signature over DATA with the RSA subkey FPR of
                                  the unprotected secret key file SECKEY
                                  (`gpg --export-secret-keys` with an empty
                                  passphrase), created at unix TIME.  Used to sign
                                  with a subkey whose binding says encrypt-only,
                                  which GnuPG refuses to do.
  flip-last       IN OUT          flip bit 0 of the last byte of the file (the
                                  end of the last MPI of a binary signature).
  set-hash-algo   IN OUT ALGO     overwrite the hash algorithm octet of the first
                                  (v4) signature packet.
  bump-mpi-bits   IN OUT          make the first MPI of the first signature packet
                                  claim 64 more bytes than the packet holds.
  drop-self-certs IN OUT UID      drop the self-signatures (issuer: the primary
                                  key, by subpacket 33 or 16) that follow the
                                  user ID packet UID of a v4 certificate, and
                                  keep everything else (other issuers'
                                  certifications): the user ID is then bound
                                  only by third parties (a "pet name").

Needs python3; sign-with-subkey needs the `cryptography` module.
"""
import hashlib
import struct
import sys


def read_packets(buf):
    """Yield (tag, header_bytes, body_bytes) for each packet in buf."""
    i = 0
    while i < len(buf):
        ctb = buf[i]
        if not ctb & 0x80:
            raise ValueError("bad CTB at %d" % i)
        if ctb & 0x40:  # new format
            tag = ctb & 0x3F
            o = buf[i + 1]
            if o < 192:
                n, hl = o, 2
            elif o < 224:
                n, hl = ((o - 192) << 8) + buf[i + 2] + 192, 3
            elif o == 255:
                n, hl = struct.unpack(">I", buf[i + 2:i + 6])[0], 6
            else:
                raise ValueError("partial length not supported")
        else:
            tag = (ctb >> 2) & 0x0F
            lt = ctb & 3
            if lt == 0:
                n, hl = buf[i + 1], 2
            elif lt == 1:
                n, hl = struct.unpack(">H", buf[i + 1:i + 3])[0], 3
            elif lt == 2:
                n, hl = struct.unpack(">I", buf[i + 1:i + 5])[0], 5
            else:
                raise ValueError("indeterminate length not supported")
        yield tag, buf[i:i + hl], buf[i + hl:i + hl + n]
        i += hl + n


def packet(tag, body):
    """Serialize with an old-format header (as GnuPG does for these tags)."""
    n = len(body)
    if n < 256:
        return bytes([0x80 | (tag << 2), n]) + body
    if n < 65536:
        return bytes([0x81 | (tag << 2)]) + struct.pack(">H", n) + body
    return bytes([0x82 | (tag << 2)]) + struct.pack(">I", n) + body


def subpackets(area):
    """Return a list of (raw_bytes, type, body) for a subpacket area."""
    out = []
    i = 0
    while i < len(area):
        o = area[i]
        if o < 192:
            n, ll = o, 1
        elif o < 255:
            n, ll = ((o - 192) << 8) + area[i + 1] + 192, 2
        else:
            n, ll = struct.unpack(">I", area[i + 1:i + 5])[0], 5
        raw = area[i:i + ll + n]
        out.append((raw, raw[ll] & 0x7F, raw[ll + 1:]))
        i += ll + n
    return out


def subpacket(typ, body):
    n = len(body) + 1
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        n -= 192
        ln = bytes([(n >> 8) + 192, n & 0xFF])
    else:
        ln = b"\xff" + struct.pack(">I", n)
    return ln + bytes([typ]) + body


def split_sig(body):
    """v4 signature body -> (head4, hashed, unhashed, rest)."""
    if body[0] != 4:
        raise ValueError("not a v4 signature")
    hl = struct.unpack(">H", body[4:6])[0]
    hashed = body[6:6 + hl]
    ul = struct.unpack(">H", body[6 + hl:8 + hl])[0]
    unhashed = body[8 + hl:8 + hl + ul]
    rest = body[8 + hl + ul:]
    return body[:4], hashed, unhashed, rest


def join_sig(head, hashed, unhashed, rest):
    return (head + struct.pack(">H", len(hashed)) + hashed +
            struct.pack(">H", len(unhashed)) + unhashed + rest)


def edit_backsig(buf, corrupt):
    out = b""
    done = 0
    for tag, hdr, body in read_packets(buf):
        if tag == 2 and body[0] == 4 and body[1] == 0x18:
            head, hashed, unhashed, rest = split_sig(body)
            new_un = b""
            for raw, typ, sbody in subpackets(unhashed):
                if typ == 32:
                    done += 1
                    if not corrupt:
                        continue
                    sbody = sbody[:-1] + bytes([sbody[-1] ^ 0x01])
                    raw = subpacket(raw[len(raw) - len(sbody) - 1], sbody)
                new_un += raw
            out += packet(2, join_sig(head, hashed, new_un, rest))
        else:
            out += hdr + body
    if not done:
        raise SystemExit("no back-signature found in the unhashed area")
    return out


def mpi(buf, i):
    bits = struct.unpack(">H", buf[i:i + 2])[0]
    n = (bits + 7) // 8
    return int.from_bytes(buf[i + 2:i + 2 + n], "big"), i + 2 + n


def mpi_bytes(x):
    b = x.to_bytes((x.bit_length() + 7) // 8, "big")
    return struct.pack(">H", x.bit_length()) + b


def sign_with_subkey(seckey, want_fpr, data, when):
    from cryptography.hazmat.primitives import hashes
    from cryptography.hazmat.primitives.asymmetric import padding, rsa
    from cryptography.hazmat.primitives.asymmetric.utils import Prehashed

    for tag, _hdr, body in read_packets(seckey):
        if tag != 7 or body[0] != 4 or body[5] != 1:
            continue
        n, i = mpi(body, 6)
        e, i = mpi(body, i)
        pub = body[:i]
        fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(pub)) + pub).digest()
        if fpr.hex().upper() != want_fpr.upper():
            continue
        if body[i] != 0:
            raise SystemExit("secret key is protected")
        d, i = mpi(body, i + 1)
        p, i = mpi(body, i)
        q, i = mpi(body, i)
        pn = rsa.RSAPublicNumbers(e, n)
        key = rsa.RSAPrivateNumbers(p, q, d, d % (p - 1), d % (q - 1),
                                    rsa.rsa_crt_iqmp(p, q), pn).private_key()
        hashed = (subpacket(2, struct.pack(">I", when)) +
                  subpacket(33, b"\x04" + fpr))
        unhashed = subpacket(16, fpr[-8:])
        head = bytes([4, 0x00, 1, 8]) + struct.pack(">H", len(hashed)) + hashed
        trailer = head + b"\x04\xff" + struct.pack(">I", len(head))
        digest = hashlib.sha256(data + trailer).digest()
        s = key.sign(digest, padding.PKCS1v15(), Prehashed(hashes.SHA256()))
        body = (head + struct.pack(">H", len(unhashed)) + unhashed +
                digest[:2] + mpi_bytes(int.from_bytes(s, "big")))
        return packet(2, body)
    raise SystemExit("RSA subkey %s not found" % want_fpr)


def sig_issuers(body):
    """Issuer fingerprints (33) and key IDs (16) of a v4 signature, both areas."""
    _head, hashed, unhashed, _rest = split_sig(body)
    out = set()
    for _raw, typ, sbody in subpackets(hashed) + subpackets(unhashed):
        if typ == 33:
            out.add(sbody[1:])
        elif typ == 16:
            out.add(sbody)
    return out


def drop_self_certs(buf, uid):
    out, me, in_uid, done = b"", None, False, 0
    for tag, hdr, body in read_packets(buf):
        if tag == 6:
            fpr = hashlib.sha1(b"\x99" + struct.pack(">H", len(body)) + body).digest()
            me = {fpr, fpr[-8:]}
        if tag == 2 and in_uid and body[0] == 4 and sig_issuers(body) & me:
            done += 1
            continue
        if tag != 2:
            in_uid = tag == 13 and body == uid
        out += hdr + body
    if not done:
        raise SystemExit("no self-signature on that user ID")
    return out


def first_sig(buf):
    for tag, hdr, body in read_packets(buf):
        if tag == 2:
            return hdr, body
    raise SystemExit("no signature packet")


def main(argv):
    if len(argv) < 3:
        raise SystemExit(__doc__)
    cmd, src, dst = argv[0], argv[1], argv[2]
    with open(src, "rb") as f:
        buf = f.read()
    if cmd == "strip-backsig":
        out = edit_backsig(buf, False)
    elif cmd == "corrupt-backsig":
        out = edit_backsig(buf, True)
    elif cmd == "flip-last":
        out = buf[:-1] + bytes([buf[-1] ^ 0x01])
    elif cmd == "set-hash-algo":
        hdr, body = first_sig(buf)
        out = hdr + body[:3] + bytes([int(argv[3])]) + body[4:]
    elif cmd == "bump-mpi-bits":
        hdr, body = first_sig(buf)
        head, hashed, unhashed, rest = split_sig(body)
        bits = struct.unpack(">H", rest[2:4])[0] + 512
        rest = rest[:2] + struct.pack(">H", bits) + rest[4:]
        out = hdr + join_sig(head, hashed, unhashed, rest)
    elif cmd == "drop-self-certs":
        out = drop_self_certs(buf, argv[3].encode())
    elif cmd == "sign-with-subkey":
        # sign-with-subkey SECKEY FPR DATA OUT TIME
        with open(argv[3], "rb") as f:
            data = f.read()
        dst = argv[4]
        out = sign_with_subkey(buf, argv[2], data, int(argv[5]))
    else:
        raise SystemExit(__doc__)
    with open(dst, "wb") as f:
        f.write(out)


if __name__ == "__main__":
    main(sys.argv[1:])
