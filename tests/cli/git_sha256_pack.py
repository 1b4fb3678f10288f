#!/usr/bin/env python3
"""git_sha256_pack.py KIND OBJDIR - writes a small hand-made SHA-256 pack and
its .idx (version 2, gitformat-pack) into OBJDIR/pack, for
tests/cli/git_sha256.sh. Prints the id (hex) the test should read, then the
expected content (hex) or "-" when reading must fail. KIND:
  good      a blob and a correct OFS_DELTA of it (positive control)
  refdelta  the same with a REF_DELTA
  outside   a delta copying from beyond the end of its base
  srcsize   a delta that declares the wrong base size
  longer    a delta producing more than it declares
  cycle     two REF_DELTAs naming each other as base
  unsorted  an .idx whose ids are not in order
  badtype   an entry of the reserved type 5
  bigoff    the good pack, its offsets in the 64-bit table
  hugesize  a blob entry declaring 128 MiB over a few octets of zlib data
"""
import hashlib, struct, sys, zlib, os

def oid(kind, data):
    return hashlib.sha256(b"%s %d\0" % (kind, len(data)) + data).digest()

def hdr(t, size):
    c = (t << 4) | (size & 15)
    size >>= 4
    out = bytearray()
    while size:
        out.append(c | 0x80)
        c = size & 0x7f
        size >>= 7
    out.append(c)
    return bytes(out)

def ofs(rel):
    b = [rel & 127]
    rel >>= 7
    while rel:
        rel -= 1
        b.insert(0, 0x80 | (rel & 127))
        rel >>= 7
    return bytes(b)

def var(n):
    out = bytearray()
    while True:
        c = n & 0x7f
        n >>= 7
        if n:
            out.append(c | 0x80)
        else:
            out.append(c)
            return bytes(out)

def copy(off, size):
    op, args = 0x80, bytearray()
    for i in range(4):
        if (off >> (8 * i)) & 0xff:
            op |= 1 << i
            args.append((off >> (8 * i)) & 0xff)
    for i in range(3):
        if (size >> (8 * i)) & 0xff:
            op |= 0x10 << i
            args.append((size >> (8 * i)) & 0xff)
    return bytes([op]) + bytes(args)

def write(objdir, entries, order=None, large=False):
    """entries: list of (id, raw entry bytes)."""
    body, offs = b"", []
    for i, e in entries:
        offs.append((i, 12 + len(body)))
        body += e
    pack = b"PACK" + struct.pack(">II", 2, len(entries)) + body
    pack += hashlib.sha256(pack).digest()
    ids = sorted(offs)
    fan = [0] * 256
    for i, _ in ids:
        fan[i[0]] += 1
    for k in range(1, 256):
        fan[k] += fan[k - 1]
    listed = ids if order is None else order(ids)
    idx = b"\xfftOc" + struct.pack(">I", 2) + b"".join(struct.pack(">I", f) for f in fan)
    idx += b"".join(i for i, _ in listed) + b"\0\0\0\0" * len(listed)
    if large:
        # git accepts at most n - 1 large offsets: the last object only
        idx += b"".join(struct.pack(">I", o) for _, o in listed[:-1])
        idx += struct.pack(">I", 0x80000000) + struct.pack(">Q", listed[-1][1])
    else:
        idx += b"".join(struct.pack(">I", o) for _, o in listed)
    idx += pack[-32:]
    idx += hashlib.sha256(idx).digest()
    name = os.path.join(objdir, "pack", "pack-" + pack[-32:].hex())
    os.makedirs(os.path.dirname(name), exist_ok=True)
    open(name + ".pack", "wb").write(pack)
    open(name + ".idx", "wb").write(idx)

def main():
    kind, objdir = sys.argv[1], sys.argv[2]
    base = b"hello, sha-256 world\n"
    bid = oid(b"blob", base)
    result = b"sha-256 hello!\n"
    rid = oid(b"blob", result)
    good = var(len(base)) + var(len(result)) + copy(7, 7) + bytes([1]) + b" " + copy(0, 5) + bytes([2]) + b"!\n"
    be = hdr(3, len(base)) + zlib.compress(base)
    want = result.hex()

    def odelta(d):
        return hdr(6, len(d)) + ofs(len(be)) + zlib.compress(d)
    if kind in ("good", "bigoff"):
        write(objdir, [(bid, be), (rid, odelta(good))], large=(kind == "bigoff"))
    elif kind == "refdelta":
        write(objdir, [(bid, be), (rid, hdr(7, len(good)) + bid + zlib.compress(good))])
    elif kind == "outside":
        d = var(len(base)) + var(5) + copy(len(base) - 2, 5)
        write(objdir, [(bid, be), (rid, odelta(d))])
        want = "-"
    elif kind == "srcsize":
        d = var(len(base) + 1) + good[1:]
        write(objdir, [(bid, be), (rid, odelta(d))])
        want = "-"
    elif kind == "longer":
        d = var(len(base)) + var(3) + copy(0, 5)
        write(objdir, [(bid, be), (rid, odelta(d))])
        want = "-"
    elif kind == "cycle":
        a, b = oid(b"blob", b"a"), oid(b"blob", b"b")
        d = var(1) + var(1) + copy(0, 1)
        write(objdir, [(a, hdr(7, len(d)) + b + zlib.compress(d)), (b, hdr(7, len(d)) + a + zlib.compress(d))])
        rid, want = a, "-"
    elif kind == "unsorted":
        # another blob in the same fan-out bucket, so only the order is wrong
        other = next(o for o in (b"another blob %d\n" % k for k in range(100000))
                     if oid(b"blob", o)[0] == bid[0])
        write(objdir, [(bid, be), (oid(b"blob", other), hdr(3, len(other)) + zlib.compress(other))],
              order=lambda ids: list(reversed(ids)))
        rid, want = bid, "-"
    elif kind == "hugesize":
        write(objdir, [(bid, hdr(3, 1 << 27) + zlib.compress(base))])
        rid, want = bid, "-"
    elif kind == "badtype":
        write(objdir, [(bid, hdr(5, len(base)) + zlib.compress(base))])
        rid, want = bid, "-"
    else:
        sys.exit("unknown kind " + kind)
    print(rid.hex())
    print(want)

main()
