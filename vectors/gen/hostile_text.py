#!/usr/bin/env python3
"""hostile_text.py - vectors for terminal injection: attacker-controlled
bytes (user IDs, notations, literal file names, armor headers) that hold
terminal control sequences and invalid UTF-8.

    python3 vectors/gen/hostile_text.py [OUTDIR]     (default vectors/hostile)

Writes OUTDIR/ (run them with tests/cli/hostile_text.sh):
  hostile-uid.pgp    Ed25519 (EdDSALegacy) certificate whose only user ID is
                     HOSTILE_UID below: ESC [ 2 J (clear screen), BEL, CR,
                     the invalid UTF-8 octets FF FE, and a C1 CSI (U+009B)
  msg.txt            the signed data
  msg.txt.sig        a detached signature by that key; its hashed area holds a
                     notation (RFC 9580 §5.2.3.24) whose name and value hold
                     ESC sequences and a U+202E RIGHT-TO-LEFT OVERRIDE
  msg.txt.asc        the same signature armored, with an armor header
                     "Comment: " + ESC sequences (RFC 9580 §6.2)
  inline.pgp         an inline-signed message (§10.3) whose literal data
                     packet's file name (§5.9) holds ESC [ 2 J and BEL
  plain-uid.pgp      the control: a certificate whose user ID is valid UTF-8
                     with no control character ("Jürgen Müller ..."), which
                     every output must show unchanged
  plain.sig          a detached signature over msg.txt by that key
Deterministic: fixed seeds and times, no gpg (helpers of adversarial.py).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adversarial import (EdKey, KT, ST, armor, certify, cert, literal, ops,  # noqa: E402
                         sp, v4sig)

HOSTILE_UID = b"Mallory \x1b[2J\x07\rX\xff\xfe\xc2\x9b31m <mallory@example.org>"
PLAIN_UID = "Jürgen Müller <juergen@example.org>".encode()
NOTE_NAME = b"evil\x1b]0;owned\x07@example.org"
NOTE_VALUE = b"\x1b[2J\x1b[31mGOOD SIGNATURE\x1b[0m\xe2\x80\xaetxt.exe"  # U+202E RIGHT-TO-LEFT OVERRIDE
FILE_NAME = b"\x1b[2Jevil\x07.txt"
ARMOR_COMMENT = b"\x1b[2J\x1b[32mgood\x07"


def notation(name, value):
    # flags: 0x80 human-readable (RFC 9580 §5.2.3.24)
    return sp(20, b"\x80\x00\x00\x00" + len(name).to_bytes(2, "big") +
              len(value).to_bytes(2, "big") + name + value)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hostile")
    os.makedirs(top, exist_ok=True)

    def put(name, data):
        with open(os.path.join(top, name), "wb") as f:
            f.write(data)

    key = EdKey("hostile-text-primary", KT)
    put("hostile-uid.pgp", cert(key, [(HOSTILE_UID, [certify(key, key, HOSTILE_UID, primary=True)])]))
    plain = EdKey("plain-text-primary", KT)
    put("plain-uid.pgp", cert(plain, [(PLAIN_UID, [certify(plain, plain, PLAIN_UID, primary=True)])]))

    data = b"A message whose signer has a hostile user ID.\n"
    put("msg.txt", data)
    sig = v4sig(key, 0x00, data, ST, extra=notation(NOTE_NAME, NOTE_VALUE))
    put("msg.txt.sig", sig)
    arm = armor("PGP SIGNATURE", sig)
    arm = arm.replace(b"-----BEGIN PGP SIGNATURE-----\n",
                      b"-----BEGIN PGP SIGNATURE-----\nComment: " + ARMOR_COMMENT + b"\n", 1)
    put("msg.txt.asc", arm)
    put("plain.sig", v4sig(plain, 0x00, data, ST))

    content = b"inline content\n"
    lit = literal(content, b"b", FILE_NAME, ST)
    # the signature covers the literal data only (§5.2.4), not the file name
    put("inline.pgp", ops(key) + lit + v4sig(key, 0x00, content, ST))


if __name__ == "__main__":
    main()
