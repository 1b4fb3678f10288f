#!/usr/bin/env python3
"""gen_limits.py - inputs at and beyond the named limits of pgp/limits.h, and
signed cleartext/armored messages of a given size, generated at run time
(never committed: some are a gigabyte).

    python3 bench/gen_limits.py limits OUTDIR [SCALE]
    python3 bench/gen_limits.py cleartext OUT MB     signed cleartext, MB MiB of text
    python3 bench/gen_limits.py armor OUT MB         armored inline-signed message, MB MiB literal
    python3 bench/gen_limits.py key OUT              the signer's certificate

`limits` writes OUTDIR/key.pgp (the signer) and one file per case, and
OUTDIR/CASES: "name<TAB>file<TAB>keyring<TAB>limit macro" per line (what
tests/cli/limits.sh and bench/limits.sh run `wotkit verify` on). SCALE
"test" (default) keeps every file small (seconds to make and check);
"full" makes the issue's sizes: a 1 GiB compressed-data bomb (about 1 MB on
disk), a 1 GiB literal and a 1 GiB armored message.

Everything is built with the helpers of vectors/gen/adversarial.py (RFC 9580
v4 packets, fixed Ed25519 seeds): the same bytes on every run.
"""
import hashlib
import os
import sys
import zlib

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "vectors", "gen"))
from adversarial import (KT, ST, EdKey, armor, be16, be32, cert,  # noqa: E402
                         certify, literal, ops, pkt, sp, uidpkt, v4sig)

SIGNER = EdKey("limits-signer", KT)
OTHER = EdKey("limits-other", KT)
UID = b"Limits Signer <limits@example.org>"
MIB = 1 << 20
CHUNK = 16 * MIB


def signer_cert():
    return cert(SIGNER, [(UID, [certify(SIGNER, SIGNER, UID, primary=True)])])


def new_len(n):
    """New-format length octets (RFC 9580 §4.2.1), five-octet form for big n."""
    if n < 192:
        return bytes([n])
    if n < 8384:
        n -= 192
        return bytes([(n >> 8) + 192, n & 0xFF])
    return b"\xff" + be32(n)


def sig_with_areas(hashed, unhashed, data=b""):
    """A v4 binary signature (0x00) by SIGNER over data with the given areas."""
    return v4sig(SIGNER, 0x00, data, hashed=hashed, unhashed=unhashed)


def v6sig_raw(hashed, unhashed):
    """A v6 signature packet (RFC 9580 §5.2.3: 4-octet area lengths); the
    material is junk: the subpacket count is refused before any math."""
    salt = b"\x00" * 16  # SHA2-256: 16 octets (RFC 9580 §9.5)
    body = (bytes([6, 0x00, 27, 8]) + be32(len(hashed)) + hashed + be32(len(unhashed)) +
            unhashed + b"\x00\x00" + bytes([len(salt)]) + salt + b"\x00" * 64)
    return pkt(2, body)


def onepass_message(lit_packet, data):
    """One-pass signed message around lit_packet (whose content is data)."""
    s = v4sig(SIGNER, 0x00, data)
    return ops(SIGNER) + lit_packet + s


def bomb(path, size):
    """A compressed data packet (ZIP, RFC 1951) that inflates to a literal
    data packet of `size` zero octets: a few hundred KB per GiB on disk."""
    lit_hdr = bytes([0xC0 | 11]) + new_len(size + 6) + b"b\x00" + be32(ST)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    parts = [c.compress(lit_hdr) + c.flush(zlib.Z_FULL_FLUSH)]
    # after a full flush the deflater starts afresh, so one chunk of zeros
    # compresses to the same octets every time: compress it once
    zero = bytes(CHUNK)
    if size >= CHUNK:
        unit = c.compress(zero) + c.flush(zlib.Z_FULL_FLUSH)
        parts.append(unit * (size // CHUNK))
    parts.append(c.compress(bytes(size % CHUNK)))
    parts.append(c.flush())
    body = b"\x01" + b"".join(parts)
    with open(path, "wb") as f:
        f.write(ops(SIGNER) + pkt(8, body) + v4sig(SIGNER, 0x00, b"not the data"))


def bomb_partial(path, size):
    """A compressed data packet that inflates to a literal of `size` zero
    octets in 16 MiB partial chunks (RFC 9580 §4.2.1.4): no header names
    the size, so only the decompression budget stops it."""
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    first = b"\xCB\xF8" + b"b\x00" + be32(ST) + bytes(CHUNK - 6)
    parts = [c.compress(first) + c.flush(zlib.Z_FULL_FLUSH)]
    unit = c.compress(b"\xF8" + bytes(CHUNK)) + c.flush(zlib.Z_FULL_FLUSH)
    parts.append(unit * (size // CHUNK - 1))
    parts.append(c.compress(b"\x00") + c.flush())  # the last chunk: empty
    with open(path, "wb") as f:
        f.write(ops(SIGNER) + pkt(8, b"\x01" + b"".join(parts)) +
                v4sig(SIGNER, 0x00, b"not the data"))


def big_literal(path, size):
    """A one-pass signed binary message whose literal holds `size` octets
    (the literal's header names the size up front)."""
    hdr = bytes([0xC0 | 11]) + new_len(size + 6) + b"b\x00" + be32(ST)
    with open(path, "wb") as f:
        f.write(ops(SIGNER) + hdr)
        block = b"A" * CHUNK
        left = size
        while left > 0:
            n = min(left, CHUNK)
            f.write(block[:n])
            left -= n
        f.write(v4sig(SIGNER, 0x00, b"not the data"))


def nested(depth):
    """depth compressed packets, each holding the next; a signed message inside."""
    data = b"nested\n"
    m = onepass_message(literal(data), data)
    for _ in range(depth):
        c = zlib.compressobj(9, zlib.DEFLATED, -15)
        m = pkt(8, b"\x01" + c.compress(m) + c.flush())
    return m


def many_partial(nchunks):
    """A literal data packet cut into nchunks partial chunks of one octet
    each (RFC 9580 §4.2.1.4; the last chunk is a normal length)."""
    head = b"b\x00" + be32(ST)
    body = head + b"x" * (nchunks - len(head))
    out = bytearray([0xC0 | 11])
    for i in range(nchunks - 1):
        out += bytes([0xE0]) + body[i:i + 1]  # partial length 2^0
    out += bytes([1]) + body[-1:]
    data = body[len(head):]
    return onepass_message(bytes(out), data)


def cert_many_uids(n):
    """SIGNER with n user IDs, each with its self-signature copied (the count
    is refused before any signature is checked)."""
    sig = certify(SIGNER, SIGNER, UID, primary=True)
    out = bytearray(SIGNER.packet())
    for i in range(n):
        out += uidpkt(b"u%d <u%d@example.org>" % (i, i)) + sig
    return bytes(out)


def cert_many_certs(n):
    """SIGNER with one user ID carrying n third-party certifications (one
    certification by OTHER repeated: the count is what matters)."""
    third = certify(OTHER, SIGNER, UID, typ=0x10)
    return (SIGNER.packet() + uidpkt(UID) + certify(SIGNER, SIGNER, UID, primary=True) +
            third * n)


def write_armored_message(path, mib):
    """An armored one-pass signed message whose literal holds mib MiB of
    text (written in pieces: the base64 lines are cut every 48 octets). No
    CRC line: RFC 9580 §6.1 makes it optional, and pure Python is too slow
    for a gigabyte of CRC-24."""
    import base64
    size = mib * MIB
    lit_hdr = bytes([0xC0 | 11]) + new_len(size + 6) + b"b\x00" + be32(ST)
    line = b"The quick brown fox jumps over the lazy dog 0123456789 abcdefghij\n"
    block = (line * (CHUNK // len(line) + 1))[:CHUNK]
    h = hashlib.sha256()

    def pieces():
        yield ops(SIGNER) + lit_hdr
        left = size
        while left > 0:
            n = min(left, CHUNK)
            h.update(block[:n])
            yield block[:n]
            left -= n
        yield v4sig_streamed(h)

    with open(path, "wb") as f:
        f.write(b"-----BEGIN PGP MESSAGE-----\n\n")
        pend = b""
        for p in pieces():
            pend += p
            cut = len(pend) - len(pend) % 48
            b = base64.b64encode(pend[:cut])
            f.write(b"\n".join(b[i:i + 64] for i in range(0, len(b), 64)))
            if b:
                f.write(b"\n")
            pend = pend[cut:]
        b = base64.b64encode(pend)
        if b:
            f.write(b + b"\n")
        f.write(b"-----END PGP MESSAGE-----\n")


def v4sig_streamed(h, typ=0x00):
    """v4sig over content already fed to the sha256 object h."""
    hashed = sp(2, be32(ST)) + sp(33, b"\x04" + SIGNER.fpr)
    unhashed = sp(16, SIGNER.keyid)
    head = bytes([4, typ, SIGNER.algo, 8]) + be16(len(hashed)) + hashed
    h.update(head + b"\x04\xff" + be32(len(head)))
    digest = h.digest()
    return pkt(2, head + be16(len(unhashed)) + unhashed + digest[:2] + SIGNER.sign(digest, 8))


def write_cleartext(path, mib):
    """A cleartext-signed message (RFC 9580 §7) of mib MiB of text lines
    (some dash-escaped, some with trailing spaces, LF endings)."""
    size = mib * MIB
    lines = [b"The quick brown fox jumps over the lazy dog 0123456789",
             b"- a line that starts with a dash and ends in spaces   ",
             b"plain text again, tab at the end\t"]
    unit = b"\n".join(lines) + b"\n"
    canon_unit = b"".join(ln.rstrip(b" \t") + b"\r\n" for ln in lines)
    esc_unit = b"\n".join((b"- " + ln) if ln.startswith(b"-") else ln for ln in lines) + b"\n"
    reps = max(1, size // len(unit))
    h = hashlib.sha256()
    with open(path, "wb") as f:
        f.write(b"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\n")
        big = esc_unit * 4096
        cbig = canon_unit * 4096
        left = reps
        while left > 0:
            n = min(left, 4096)
            f.write(big if n == 4096 else esc_unit * n)
            # every line ends in CR LF except the last, which has none (§7.1)
            if left - n > 0:
                h.update(cbig if n == 4096 else canon_unit * n)
            else:
                h.update((canon_unit * n)[:-2])
            left -= n
        f.write(armor("PGP SIGNATURE", v4sig_streamed(h, 0x01)))


def limits(top, scale):
    full = scale == "full"
    os.makedirs(top, exist_ok=True)
    rows = []

    def case(name, data, keyring, macro):
        p = os.path.join(top, name + ".pgp")
        if data is not None:
            with open(p, "wb") as f:
                f.write(data)
        rows.append("\t".join([name, name + ".pgp", keyring, macro]))

    with open(os.path.join(top, "key.pgp"), "wb") as f:
        f.write(signer_cert())
    data = b"limits data\n"
    with open(os.path.join(top, "data.txt"), "wb") as f:
        f.write(data)

    # --- packets ---
    # a signature packet of 2 MiB (PGP_MAX_PACKET_BODY is 1 MiB): the length
    # header alone decides, before any octet of the body is read
    case("sig-packet-2MiB", pkt(2, b"\x04" + b"\x00" * (2 * MIB)), "key.pgp",
         "PGP_MAX_PACKET_BODY")
    # a literal whose header names 1 GiB (PGP_MAX_DATA_BODY is 256 MiB); the
    # test's file is cut after the header: the limit is met before the body
    if full:
        big_literal(os.path.join(top, "literal-1GiB.pgp"), 1 << 30)
        case("literal-1GiB", None, "key.pgp", "PGP_MAX_DATA_BODY")
    else:
        case("literal-1GiB", ops(SIGNER) + bytes([0xC0 | 11]) + new_len((1 << 30) + 6) +
             b"b\x00" + be32(ST) + b"A" * 4096, "key.pgp", "PGP_MAX_DATA_BODY")
    # --- subpackets ---
    # 32000 subpackets in a v4 hashed area (its 2-octet length allows ~32k)
    many = sp(100, b"") * 32000
    case("sig-32k-subpackets", sig_with_areas(sp(2, be32(ST)) + many + sp(33, b"\x04" + SIGNER.fpr),
                                              sp(16, SIGNER.keyid), data), "key.pgp",
         "PGP_MAX_SUBPACKETS")
    # 100000 subpackets in a v6 hashed area (4-octet length; 200 KB)
    case("sig-v6-100k-subpackets", v6sig_raw(sp(2, be32(ST)) + sp(100, b"") * 100000, b""),
         "key.pgp", "PGP_MAX_SUBPACKETS")
    # --- certificates ---
    ring = os.path.join(top, "uids100k.pgp")
    with open(ring, "wb") as f:
        f.write(cert_many_uids(100000))
    case("cert-100k-uids", v4sig(SIGNER, 0x00, data), "uids100k.pgp", "PGP_MAX_UIDS")
    ring = os.path.join(top, "certs100k.pgp")
    with open(ring, "wb") as f:
        f.write(cert_many_certs(100000))
    case("uid-100k-certifications", v4sig(SIGNER, 0x00, data), "certs100k.pgp",
         "PGP_MAX_SIGS_PER_COMP")
    # --- messages ---
    case("sigs-300-in-one-file", v4sig(SIGNER, 0x00, data) * 300, "key.pgp", "PGP_MAX_MSG_SIGS")
    case("nesting-100-compressed", nested(100), "key.pgp", "PGP_MAX_NESTING")
    case("partial-70k-chunks", many_partial(70000), "key.pgp", "PGP_MAX_PARTIAL_CHUNKS")
    # a compressed literal naming 1 GiB: refused at its header, as inflated
    bomb(os.path.join(top, "bomb-1GiB.pgp"), 1 << 30)
    case("bomb-1GiB", None, "key.pgp", "PGP_MAX_DATA_BODY")
    # the same in partial chunks: only the decompression budget stops it
    bomb_partial(os.path.join(top, "bomb-1GiB-partial.pgp"), 1 << 30)
    case("bomb-1GiB-partial", None, "key.pgp", "PGP_MAX_DECOMPRESSED")
    # --- armor ---
    case("armor-line-100KiB", b"-----BEGIN PGP MESSAGE-----\n\n" + b"A" * (100 << 10) +
         b"\n-----END PGP MESSAGE-----\n", "key.pgp", "PGP_MAX_ARMOR_LINE")
    if full:
        write_armored_message(os.path.join(top, "armor-1GiB.pgp"), 768)
        case("armor-1GiB", None, "key.pgp", "PGP_MAX_ARMOR_DECODED")
    # --- MPIs ---
    mat = be16(20000) + b"\x80" + b"\x00" * 2499
    case("mpi-20000-bits", v4sig(SIGNER, 0x00, data, material=mat + mat), "key.pgp",
         "PGP_MAX_MPI_BITS")
    with open(os.path.join(top, "CASES"), "w") as f:
        f.write("\n".join(rows) + "\n")


def main(argv):
    if len(argv) >= 3 and argv[1] == "limits":
        limits(argv[2], argv[3] if len(argv) > 3 else "test")
    elif len(argv) == 4 and argv[1] == "cleartext":
        write_cleartext(argv[2], int(argv[3]))
    elif len(argv) == 4 and argv[1] == "armor":
        write_armored_message(argv[2], int(argv[3]))
    elif len(argv) == 3 and argv[1] == "key":
        with open(argv[2], "wb") as f:
            f.write(signer_cert())
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
