#!/usr/bin/env python3
"""difftest.py - seeded, bounded differential mutation test of `wotkit verify`
against gpgv and sqv (sq verify for inline and cleartext messages).

    python3 tests/diff/difftest.py [--seed S] [--count N] [--tap] [--jobs J]
                                   [--only I] [--keep DIR] [--time-limit SEC]
                                   [--json FILE] [--verbose]

Takes the good cases of vectors/verify/MANIFEST that are evaluated at "now"
(the oracles have no --at) and on which all three verifiers agree "good",
applies one structured mutation per run (framer.py finds packet and field
boundaries), and runs the three verifiers on the result. Mutation I of seed
S is a pure function of (S, I): `--only I --keep DIR` rebuilds it and
leaves the files in DIR.

Per mutation, with w / g / s = "exit 0" of wotkit / gpgv / sqv:
  w and not g and not s  -> candidate false good: must match an entry of
                            EXPECTED (a documented difference), else it is
                            UNCLASSIFIED and the run fails;
  not w and g and s      -> reverse difference: must match EXPECTED_REVERSE,
                            else UNCLASSIFIED (a wotkit bug too, less severe);
  a wotkit crash (signal, exit code other than 0/1/2, timeout) always fails.
Other combinations (oracles disagreeing among themselves) are only counted.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from concurrent.futures import ThreadPoolExecutor

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import framer  # noqa: E402
from framer import SIG, PUBKEY, PUBSUB, UID, LIT, ONEPASS  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VDIR = os.path.join(TOP, "vectors", "verify")
WOTKIT = os.environ.get("WOTKIT", os.path.join(TOP, "wotkit"))
TIMEOUT = 20
NEG_SHARE = 0.3      # share of mutations applied to cases all three verifiers reject


# ---------------------------------------------------------------- bases

class Base:
    def __init__(self, cid, kind, sig, data, keys, signer):
        self.id, self.kind, self.signer = cid, kind, signer
        self.sig = open(os.path.join(VDIR, sig), "rb").read()
        self.data = open(os.path.join(VDIR, data), "rb").read() if data != "-" else None
        self.keys = [open(os.path.join(VDIR, k), "rb").read() for k in keys.split(",")]
        self.keynames = keys.split(",")
        self.armored = self.sig[:1] == b"-"


def load_bases():
    out = []
    for line in open(os.path.join(VDIR, "MANIFEST"), encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if any(x.startswith("at=") for x in f[8:]) or f[2].endswith("empty.sig"):
            continue
        b = Base(f[0], f[1], f[2], f[3], f[4], f[6])
        b.expect_good = f[5] == "good"
        out.append(b)
    return out


# ------------------------------------------------------------- mutation

class Mut:
    """One mutated triple. sig: the bytes handed over as SIG (or MESSAGE);
    data: DATA or None; keys: one keyring file per entry."""

    def __init__(self, base, cls):
        self.base, self.cls = base, cls
        self.sig, self.data, self.keys = base.sig, base.data, list(base.keys)
        self.desc = ""
        self.field = None
        self.wotkit_stderr = ""


def flip(buf, off, bit):
    b = bytearray(buf)
    b[off] ^= 1 << bit
    return bytes(b)


def setb(buf, off, val):
    b = bytearray(buf)
    b[off] = val
    return bytes(b)


def sig_octets(base):
    """The signature (or message) packets as binary octets, and a function
    that wraps changed octets the way the base carries them."""
    s = base.sig
    if base.kind == "cleartext":
        i = s.find(b"-----BEGIN PGP SIGNATURE-----")
        raw, a, e = framer.dearmor(s[i:])
        head, tail = s[:i], s[i + e:]
        return raw, lambda r: head + framer.armor(r) + tail
    if base.armored:
        raw, a, e = framer.dearmor(s)
        return raw, lambda r: s[:a] + framer.armor(r) + s[a + e:]
    return s, lambda r: r


def pick_range(rng, f, names):
    """A (name, start, end) among the fields named (lists: one element)."""
    cand = []
    for n in names:
        v = f.get(n)
        if v is None:
            continue
        if isinstance(v, list):
            for r in v:
                cand.append((n, r))
        elif v[1] > v[0]:
            cand.append((n, v))
    if not cand:
        return None
    n, (a, b) = rng.choice(cand)
    return n, a, b


SIG_FIELDS = ["hdr", "sig.version", "sig.type", "sig.pkalgo", "sig.hashalgo", "sig.hashed.len",
              "sig.hashed", "sig.hashed.sptype", "sig.hashed.splen", "sig.unhashed.len",
              "sig.unhashed", "sig.unhashed.sptype", "sig.unhashed.splen", "sig.prefix",
              "sig.mpi", "sig.mpi.count", "sig.salt"]
KEY_FIELDS = ["hdr", "key.version", "key.ctime", "key.pkalgo", "key.material", "key.oid", "uid"]
BIND_FIELDS = SIG_FIELDS + ["sig.embedded", "sig.embedded.hashed", "sig.embedded.mpi",
                            "sig.embedded.type", "sig.embedded.prefix",
                            "sig.uembedded.hashed", "sig.uembedded.mpi",
                            "sig.uembedded.type", "sig.uembedded.prefix"]

OCTETS = {
    "sig.version": [2, 3, 4, 5, 6, 0, 255],
    "sig.type": [0x00, 0x01, 0x02, 0x10, 0x13, 0x18, 0x19, 0x1F, 0x20, 0x28, 0x30, 0x40, 0x50, 0xFF],
    "sig.pkalgo": [1, 2, 3, 16, 17, 19, 22, 27, 28, 100, 255],
    "sig.hashalgo": [1, 2, 3, 8, 9, 10, 11, 12, 14, 100, 0],
    "key.version": [2, 3, 4, 5, 6, 0],
    "key.pkalgo": [1, 2, 3, 16, 17, 18, 19, 22, 27, 100],
}


def m_sig_flip_any(rng, m):
    raw, wrap = sig_octets(m.base)
    off = rng.randrange(len(raw))
    bit = rng.randrange(8)
    m.sig = wrap(flip(raw, off, bit))
    m.desc = "sig: flip bit %d of octet %d" % (bit, off)
    return m


def m_sig_flip_field(rng, m):
    raw, wrap = sig_octets(m.base)
    pk, _ = framer.packets(raw)
    sp = [p for p in pk if p.tag == SIG] or pk
    p = rng.choice(sp)
    r = pick_range(rng, framer.fields(raw, p), SIG_FIELDS + (["uid"] if p.tag == 11 else []))
    if r is None:
        return None
    n, a, b = r
    off = rng.randrange(a, b)
    bit = rng.randrange(8)
    m.sig = wrap(flip(raw, off, bit))
    m.field = n
    m.desc = "sig: flip bit %d of octet %d (field %s of packet at %d)" % (bit, off, n, p.start)
    return m


def m_sig_octet(rng, m):
    raw, wrap = sig_octets(m.base)
    pk, _ = framer.packets(raw)
    sp = [p for p in pk if p.tag == SIG]
    if not sp:
        return None
    p = rng.choice(sp)
    f = framer.fields(raw, p)
    n = rng.choice([k for k in OCTETS if k.startswith("sig.") and k in f])
    val = rng.choice([v for v in OCTETS[n] if v != raw[f[n][0]]])
    m.sig = wrap(setb(raw, f[n][0], val))
    m.field = n
    m.desc = "sig: set %s of packet at %d to %d (was %d)" % (n, p.start, val, raw[f[n][0]])
    return m


def m_sig_truncate(rng, m):
    raw, wrap = sig_octets(m.base)
    cut = rng.randrange(len(raw))
    m.sig = wrap(raw[:cut])
    m.desc = "sig: truncate to %d of %d octets" % (cut, len(raw))
    return m


def m_sig_packets(rng, m):
    """duplicate / drop / reorder / append packets of the signature or message"""
    raw, wrap = sig_octets(m.base)
    pk, _ = framer.packets(raw)
    parts = [raw[p.start:p.end] for p in pk]
    op = rng.choice(["dup", "drop", "swap", "append-junk", "append-other-sig", "legacy-hdr"])
    if op == "dup":
        i = rng.randrange(len(parts))
        parts.insert(i + rng.randrange(2), parts[i])
        m.desc = "sig: duplicate packet %d" % i
    elif op == "drop":
        if len(parts) < 2:
            return None
        i = rng.randrange(len(parts))
        del parts[i]
        m.desc = "sig: drop packet %d" % i
    elif op == "swap":
        if len(parts) < 2:
            return None
        i, j = rng.sample(range(len(parts)), 2)
        parts[i], parts[j] = parts[j], parts[i]
        m.desc = "sig: swap packets %d and %d" % (i, j)
    elif op == "append-junk":
        junk = rng.choice([framer.new_packet(10, b"PGP"), framer.new_packet(13, b"x <x@x>"),
                           b"\x00", b"\n", framer.new_packet(60, b"private"),
                           framer.new_packet(11, b"b\x00\x00\x00\x00\x00hi")])
        parts.insert(rng.randrange(len(parts) + 1), junk)
        m.desc = "sig: insert packet %r" % junk[:12]
    elif op == "append-other-sig":
        other = rng.choice(BASES)
        if other.kind != "detached" or other.armored:
            return None
        parts.insert(rng.randrange(len(parts) + 1), other.sig)
        m.desc = "sig: insert the signature of %s" % other.id
    else:                               # re-frame one packet in the other header format
        i = rng.randrange(len(parts))
        p = pk[i]
        if p.partial:
            return None
        body = raw[p.body:p.end]
        if p.new and p.tag < 16:
            n = len(body)
            lt = 0 if n < 256 else (1 if n < 65536 else 2)
            parts[i] = bytes([0x80 | (p.tag << 2) | lt]) + n.to_bytes(1 << lt, "big") + body
        else:
            parts[i] = framer.new_packet(p.tag, body)
        m.desc = "sig: re-frame packet %d (%s header)" % (i, "new" if p.new else "legacy")
    m.sig = wrap(b"".join(parts))
    return m


def m_armor_flip(rng, m):
    if not m.base.armored:
        return None
    off = rng.randrange(len(m.base.sig))
    bit = rng.randrange(8)
    m.sig = flip(m.base.sig, off, bit)
    m.desc = "armored text: flip bit %d of octet %d" % (bit, off)
    return m


def _literal_body(m):
    """(start, end) of the literal data inside an uncompressed message."""
    pk, _ = framer.packets(m.base.sig)
    for p in pk:
        if p.tag == 11 and not p.partial:
            return p.body + 6 + m.base.sig[p.body + 1], p.end
    return None


def _text_range(m):
    s = m.base.sig
    a = s.find(b"\n\n") + 2
    b = s.find(b"-----BEGIN PGP SIGNATURE-----")
    return a, b


def m_data_flip(rng, m):
    if m.base.kind == "detached":
        off = rng.randrange(len(m.data))
        bit = rng.randrange(8)
        m.data = flip(m.data, off, bit)
    elif m.base.kind == "cleartext":
        a, b = _text_range(m)
        off = rng.randrange(a, b)
        bit = rng.randrange(8)
        m.sig = flip(m.sig, off, bit)
    else:
        r = _literal_body(m)
        if r is None:
            return None
        off = rng.randrange(*r)
        bit = rng.randrange(8)
        m.sig = flip(m.sig, off, bit)
    m.desc = "data: flip bit %d of octet %d" % (bit, off)
    return m


def m_data_edit(rng, m):
    """truncate, extend or edit the data at a line end (text canonicalisation)"""
    if m.base.kind != "detached":
        return None
    d = m.data
    op = rng.choice(["truncate", "append", "insert", "delete"])
    ins = rng.choice([b"\r", b"\n", b"\r\n", b" ", b"\t", b"\r\r", b"x", b"\x00"])
    if op == "truncate":
        k = rng.randrange(len(d))
        m.data = d[:k]
        m.desc = "data: truncate to %d octets" % k
        return m
    if op == "append":
        m.data = d + ins
        m.desc = "data: append %r" % ins
        return m
    eols = [i for i, c in enumerate(d) if c in b"\r\n"] or [rng.randrange(len(d))]
    k = rng.choice(eols)
    if op == "insert":
        m.data = d[:k] + ins + d[k:]
        m.desc = "data: insert %r at %d" % (ins, k)
    else:
        m.data = d[:k] + d[k + 1:]
        m.desc = "data: delete octet %d (%r)" % (k, d[k:k + 1])
    return m


def _keyring(m, rng):
    """Pick one keyring of the case: (index, octets, packets)."""
    i = rng.randrange(len(m.keys))
    pk, _ = framer.packets(m.keys[i])
    return i, m.keys[i], pk


def m_key_flip_any(rng, m):
    i, kr, _ = _keyring(m, rng)
    off = rng.randrange(len(kr))
    bit = rng.randrange(8)
    m.keys[i] = flip(kr, off, bit)
    m.desc = "keyring %d: flip bit %d of octet %d" % (i, bit, off)
    return m


def m_key_flip_field(rng, m):
    i, kr, pk = _keyring(m, rng)
    p = rng.choice(pk)
    names = BIND_FIELDS if p.tag == SIG else KEY_FIELDS
    r = pick_range(rng, framer.fields(kr, p), names)
    if r is None:
        return None
    n, a, b = r
    off = rng.randrange(a, b)
    bit = rng.randrange(8)
    m.keys[i] = flip(kr, off, bit)
    m.field = "%d:%s" % (p.tag, n)
    m.desc = "keyring %d: flip bit %d of octet %d (field %s of tag-%d packet at %d)" % (
        i, bit, off, n, p.tag, p.start)
    return m


def m_key_octet(rng, m):
    i, kr, pk = _keyring(m, rng)
    p = rng.choice([p for p in pk if p.tag in (SIG, PUBKEY, PUBSUB)])
    f = framer.fields(kr, p)
    names = [k for k in OCTETS if k in f and k.split(".")[0] == ("sig" if p.tag == SIG else "key")]
    if not names:
        return None
    n = rng.choice(names)
    val = rng.choice([v for v in OCTETS[n] if v != kr[f[n][0]]])
    m.keys[i] = setb(kr, f[n][0], val)
    m.field = "%d:%s" % (p.tag, n)
    m.desc = "keyring %d: set %s of tag-%d packet at %d to %d (was %d)" % (
        i, n, p.tag, p.start, val, kr[f[n][0]])
    return m


def _role(kr, pk, j):
    """A short name of packet j's role in its certificate."""
    p = pk[j]
    if p.tag != SIG:
        return {PUBKEY: "primary", PUBSUB: "subkey", UID: "uid", 17: "uattr"}.get(p.tag, "tag%d" % p.tag)
    f = framer.fields(kr, p)
    t = kr[f["sig.type"][0]] if "sig.type" in f else -1
    return {0x10: "uid-sig", 0x11: "uid-sig", 0x12: "uid-sig", 0x13: "uid-sig", 0x18: "binding",
            0x1F: "direct-sig", 0x20: "key-rev", 0x28: "subkey-rev", 0x30: "uid-rev"}.get(t, "sig")


def m_key_drop(rng, m):
    i, kr, pk = _keyring(m, rng)
    roles = [_role(kr, pk, j) for j in range(len(pk))]
    want = rng.choice(sorted(set(roles)) + ["any", "all-sigs", "uid+sig", "subkey+binding"])
    if want == "any":
        drop = {rng.randrange(len(pk))}
    elif want == "all-sigs":
        drop = {j for j, p in enumerate(pk) if p.tag == SIG}
    elif want == "uid+sig":
        js = [j for j, r in enumerate(roles) if r == "uid"]
        if not js:
            return None
        j = rng.choice(js)
        drop = {j} | {k for k in range(j + 1, len(pk)) if pk[k].tag == SIG and
                      all(pk[x].tag == SIG for x in range(j + 1, k + 1))}
    elif want == "subkey+binding":
        js = [j for j, r in enumerate(roles) if r == "subkey"]
        if not js:
            return None
        j = rng.choice(js)
        drop = {j} | {k for k in range(j + 1, len(pk)) if
                      all(pk[x].tag == SIG for x in range(j + 1, k + 1))}
    else:
        drop = {rng.choice([j for j, r in enumerate(roles) if r == want])}
    m.keys[i] = b"".join(kr[p.start:p.end] for j, p in enumerate(pk) if j not in drop)
    m.desc = "keyring %d: drop %s (packets %s)" % (i, want, sorted(drop))
    m.field = want
    return m


def m_key_reorder(rng, m):
    i, kr, pk = _keyring(m, rng)
    parts = [kr[p.start:p.end] for p in pk]
    if len(parts) < 2:
        return None
    op = rng.choice(["swap", "move", "dup", "dup-end", "reverse-tail"])
    if op == "swap":
        a, b = rng.sample(range(len(parts)), 2)
        parts[a], parts[b] = parts[b], parts[a]
        m.desc = "keyring %d: swap packets %d and %d" % (i, a, b)
    elif op == "move":
        a = rng.randrange(len(parts))
        x = parts.pop(a)
        b = rng.randrange(len(parts) + 1)
        parts.insert(b, x)
        m.desc = "keyring %d: move packet %d to %d" % (i, a, b)
    elif op == "dup":
        a = rng.randrange(len(parts))
        parts.insert(a, parts[a])
        m.desc = "keyring %d: duplicate packet %d" % (i, a)
    elif op == "dup-end":
        a = rng.randrange(len(parts))
        parts.append(parts[a])
        m.desc = "keyring %d: append a copy of packet %d" % (i, a)
    else:
        a = rng.randrange(1, len(parts))
        parts = parts[:a] + parts[a:][::-1]
        m.desc = "keyring %d: reverse packets %d.." % (i, a)
    m.keys[i] = b"".join(parts)
    return m


def m_key_truncate(rng, m):
    i, kr, _ = _keyring(m, rng)
    cut = rng.randrange(1, len(kr))
    m.keys[i] = kr[:cut]
    m.desc = "keyring %d: truncate to %d of %d octets" % (i, cut, len(kr))
    return m


def _subkey_blocks(kr):
    """[(start, end)] of each subkey packet with the signatures after it."""
    pk, _ = framer.packets(kr)
    out = []
    for j, p in enumerate(pk):
        if p.tag == PUBSUB:
            e = j + 1
            while e < len(pk) and pk[e].tag == SIG:
                e += 1
            out.append((j, pk, e))
    return [(pk[j].start, pk[e - 1].end, pk[j].start, pk[j].end) for (j, pk, e) in out]


def m_key_swap_subkeys(rng, m):
    """Exchange subkeys between this case's certificate and another one: the
    subkey packet alone (bindings stay: they no longer match) or the subkey
    with its binding signatures (a binding made by another primary)."""
    i = rng.randrange(len(m.keys))
    mine = _subkey_blocks(m.keys[i])
    others = [(k, b) for k in sorted(ALLKEYS) if k not in m.base.keynames
              for b in _subkey_blocks(ALLKEYS[k])]
    if not mine or not others:
        return None
    a0, a1, ak0, ak1 = rng.choice(mine)
    name, (b0, b1, bk0, bk1) = rng.choice(others)
    other = ALLKEYS[name]
    kr = m.keys[i]
    op = rng.choice(["packet", "block", "graft"])
    if op == "packet":       # subkey packet only; my bindings now follow their subkey
        new = kr[:ak0] + other[bk0:bk1] + kr[ak1:]
        onew = other[:bk0] + kr[ak0:ak1] + other[bk1:]
    elif op == "block":      # subkey with its bindings
        new = kr[:a0] + other[b0:b1] + kr[a1:]
        onew = other[:b0] + kr[a0:a1] + other[b1:]
    else:                    # my subkey block appended to the other cert (a thief)
        new = kr
        onew = other + kr[a0:a1]
    m.keys[i] = new
    keep = rng.random() < 0.5
    if keep:
        m.keys.append(onew)
    else:
        m.keys[i:i + 1] = [onew] if op == "graft" else [new]
    m.desc = "keyring %d: swap subkeys with %s (%s)%s" % (
        i, name, op, ", both certs in the keyring" if keep else ", only the %s cert" % (
            "other" if op == "graft" else "changed"))
    m.field = op
    return m


def _sp(typ, body):
    n = len(body) + 1
    if n < 192:
        return bytes([n, typ]) + body
    return bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF, typ]) + body


def _other_key_ids(rng):
    """(key ID, v4 fingerprint) of some key packet in vectors/verify/keys."""
    name = rng.choice(sorted(ALLKEYS))
    kr = ALLKEYS[name]
    pk, _ = framer.packets(kr)
    ks = [p for p in pk if p.tag in (PUBKEY, PUBSUB)]
    p = rng.choice(ks)
    f = _fpr_v4(kr, p)
    return bytes.fromhex(f[-16:]), bytes.fromhex(f)


def _other_embedded(rng):
    """An embedded signature subpacket body from some binding in the keys."""
    cands = []
    for name in sorted(ALLKEYS):
        kr = ALLKEYS[name]
        pk, _ = framer.packets(kr)
        for p in pk:
            if p.tag == SIG:
                f = framer.fields(kr, p)
                for k in ("sig.embedded", "sig.uembedded.version"):
                    if k in f:
                        a = f[k][0]
                        if k == "sig.embedded":
                            cands.append(kr[f[k][0]:f[k][1]])
                        else:
                            e = f["sig.uembedded.mpi"][1] if "sig.uembedded.mpi" in f else None
                            if e:
                                cands.append(kr[a:e])
    return rng.choice(cands) if cands else b""


def _injection(rng):
    now = int(time.time())
    kid, fpr = _other_key_ids(rng)
    c = rng.choice([
        ("creation time now", 2, now.to_bytes(4, "big")),
        ("creation time 0", 2, b"\0\0\0\0"),
        ("signature expiry 1 s", 3, (1).to_bytes(4, "big")),
        ("key expiry 1 s", 9, (1).to_bytes(4, "big")),
        ("key expiry 0", 9, b"\0\0\0\0"),
        ("key flags sign", 27, b"\x02"),
        ("key flags certify+sign", 27, b"\x03"),
        ("key flags encrypt only", 27, b"\x0c"),
        ("key flags none", 27, b"\x00"),
        ("issuer key ID of another key", 16, kid),
        ("issuer key ID zero", 16, b"\0" * 8),
        ("issuer fingerprint of another key", 33, b"\x04" + fpr),
        ("primary user ID", 25, b"\x01"),
        ("revocation reason compromised", 29, b"\x02gone"),
        ("revocable no", 7, b"\x00"),
        ("critical unknown subpacket", 0x80 | 100, b"x"),
        ("critical notation", 0x80 | 20, b"\x80\0\0\0\0\x01\0\x01ab"),
        ("embedded signature from another binding", 32, _other_embedded(rng)),
        ("critical key flags sign", 0x80 | 27, b"\x02"),
        ("features", 30, b"\x01"),
    ])
    return c[0], _sp(c[1], c[2])


def _rebuild_unhashed(buf, p, rng):
    """buf with signature packet p's unhashed area changed (v4 only): a
    subpacket added at the front or the end, the area emptied, or each
    subpacket's critical bit set. Returns (octets, description) or None."""
    body = buf[p.body:p.end]
    if len(body) < 10 or body[0] != 4:
        return None
    hl = int.from_bytes(body[4:6], "big")
    if 6 + hl + 2 > len(body):
        return None
    uo = 6 + hl
    ul = int.from_bytes(body[uo:uo + 2], "big")
    if uo + 2 + ul > len(body):
        return None
    area = body[uo + 2:uo + 2 + ul]
    op = rng.choice(["add", "add", "add", "empty", "critical"])
    if op == "add":
        what, sp = _injection(rng)
        area = sp + area if rng.random() < 0.5 else area + sp
        desc = "add unhashed %s" % what
    elif op == "empty":
        area, desc = b"", "empty the unhashed area"
    else:
        out = bytearray(area)
        for (a, b, e, t) in framer.subpackets(area, 0, len(area)):
            out[t] |= 0x80
        area, desc = bytes(out), "set the critical bit of every unhashed subpacket"
    nb = body[:uo] + len(area).to_bytes(2, "big") + area + body[uo + 2 + ul:]
    return buf[:p.start] + framer.new_packet(SIG, nb) + buf[p.end:], desc


def m_sig_unhashed(rng, m):
    raw, wrap = sig_octets(m.base)
    pk, _ = framer.packets(raw)
    sp = [p for p in pk if p.tag == SIG]
    if not sp:
        return None
    p = rng.choice(sp)
    r = _rebuild_unhashed(raw, p, rng)
    if r is None:
        return None
    m.sig = wrap(r[0])
    m.desc = "sig: %s (packet at %d)" % (r[1], p.start)
    return m


def m_key_unhashed(rng, m):
    i, kr, pk = _keyring(m, rng)
    sp = [p for p in pk if p.tag == SIG]
    if not sp:
        return None
    p = rng.choice(sp)
    r = _rebuild_unhashed(kr, p, rng)
    if r is None:
        return None
    m.keys[i] = r[0]
    m.desc = "keyring %d: %s (%s at %d)" % (i, r[1], _role(kr, pk, pk.index(p)), p.start)
    return m


def m_key_graft(rng, m):
    """Insert a packet (or a component with its signatures) taken from
    another certificate of vectors/verify/keys into this keyring."""
    i, kr, pk = _keyring(m, rng)
    name = rng.choice([k for k in sorted(ALLKEYS) if k not in m.base.keynames])
    other = ALLKEYS[name]
    opk, _ = framer.packets(other)
    j = rng.randrange(len(opk))
    e = j + 1
    if opk[j].tag != SIG:
        while e < len(opk) and opk[e].tag == SIG:
            e += 1
    piece = other[opk[j].start:opk[e - 1].end]
    pos = rng.choice([p.end for p in pk] + [0])
    m.keys[i] = kr[:pos] + piece + kr[pos:]
    m.desc = "keyring %d: insert %s of %s at %d" % (i, _role(other, opk, j) +
                                                   ("+sigs" if e > j + 1 else ""), name, pos)
    return m


CLASSES = [
    ("sig-flip-any", m_sig_flip_any),
    ("sig-flip-field", m_sig_flip_field),
    ("sig-octet", m_sig_octet),
    ("sig-truncate", m_sig_truncate),
    ("sig-packets", m_sig_packets),
    ("armor-flip", m_armor_flip),
    ("data-flip", m_data_flip),
    ("data-edit", m_data_edit),
    ("key-flip-any", m_key_flip_any),
    ("key-flip-field", m_key_flip_field),
    ("key-octet", m_key_octet),
    ("key-drop", m_key_drop),
    ("key-reorder", m_key_reorder),
    ("key-truncate", m_key_truncate),
    ("key-swap-subkeys", m_key_swap_subkeys),
    ("sig-unhashed", m_sig_unhashed),
    ("key-unhashed", m_key_unhashed),
    ("key-graft", m_key_graft),
]


def make_mutation(seed, idx, bases):
    """Mutation idx of seed: the class cycles, the rest is drawn from a
    generator seeded with (seed, idx)."""
    name, fn = CLASSES[idx % len(CLASSES)]
    rng = random.Random("%d/%d" % (seed, idx))
    pos = [b for b in bases if b.expect_good]
    neg = [b for b in bases if not b.expect_good]
    for _ in range(50):
        b = rng.choice(neg if neg and rng.random() < NEG_SHARE else pos)
        m = fn(rng, Mut(b, name))
        if m is not None and (m.sig, m.data, m.keys) != (b.sig, b.data, b.keys):
            return m
    return None


# ------------------------------------------------------------ verifiers

def run(args, **kw):
    try:
        r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=TIMEOUT, **kw)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", b"", b""


def verdicts(d, sig, data, keys, kind):
    """Write the triple into d and run the three verifiers."""
    sp = os.path.join(d, "sig")
    open(sp, "wb").write(sig)
    dp = None
    if data is not None:
        dp = os.path.join(d, "data")
        open(dp, "wb").write(data)
    kps = []
    for i, k in enumerate(keys):
        kps.append(os.path.join(d, "key%d.pgp" % i))
        open(kps[-1], "wb").write(k)
    ring = os.path.join(d, "ring.pgp")          # one file for sq verify --signer-cert
    open(ring, "wb").write(b"".join(keys))
    home = os.path.join(d, "gnupg")
    os.makedirs(home, mode=0o700, exist_ok=True)
    tail = [sp] + ([dp] if dp else [])
    w = ["--json"]
    g = ["--homedir", home, "--status-fd", "1"]
    for k in kps:
        w += ["--keyring", k]
        g += ["--keyring", k]
    wr = run([WOTKIT, "verify"] + w + tail)
    gr = run(["gpgv"] + g + tail)
    if kind == "detached":
        s = ["sqv"]
        for k in kps:
            s += ["--keyring", k]
        sr = run(s + tail)
    else:
        sr = run(["sq", "verify", "--signer-cert", ring, "--output", os.path.join(d, "out"), sp])
    return wr, gr, sr


def wotkit_info(wr):
    """(good?, crashed?, json or None)"""
    rc = wr[0]
    crashed = rc == "timeout" or rc not in (0, 1, 2)
    try:
        j = json.loads(wr[1].decode())
    except ValueError:
        j = None
    return rc == 0, crashed, j


# -------------------------------------------------- documented differences
#
# Each entry: (id, where documented, predicate(mutation, wotkit json, gpgv out, sq out)).
# A predicate names the documented reason only when it can check that the
# reason really applies to this input; nothing is matched by class alone.

def _good_sigs(j):
    return [s for s in (j or {}).get("signatures", []) if s.get("status") == "ok"]


def _mpi_noncanonical(buf):
    """Does any signature or key packet in buf (binary) carry an MPI whose bit
    count is not the canonical one for its value (same octet length)?"""
    pk, _ = framer.packets(buf)
    for p in pk:
        f = framer.fields(buf, p)
        for name in ("sig.mpi", "key.material", "sig.embedded.mpi", "sig.uembedded.mpi"):
            r = f.get(name)
            if not r:
                continue
            pos, end = r
            while end - pos >= 2:
                bits = int.from_bytes(buf[pos:pos + 2], "big")
                ln = (bits + 7) // 8
                if ln > end - pos - 2:
                    break
                v = int.from_bytes(buf[pos + 2:pos + 2 + ln], "big")
                if v.bit_length() != bits:
                    return True
                pos += 2 + ln
    return False


def _all_binary(m):
    out = []
    raw, _ = sig_octets(m.base)
    try:
        if m.base.armored or m.base.kind == "cleartext":
            s = m.sig
            if m.base.kind == "cleartext":
                s = s[s.find(b"-----BEGIN PGP SIGNATURE-----"):]
            d = framer.dearmor(s)
            if d:
                out.append(d[0])
        else:
            out.append(m.sig)
    except ValueError:
        pass
    return out + list(m.keys)


def _cert_blocks(buf):
    """Packets of buf grouped into certificates the way RFC 9580 §10.1 frames
    them (a Public-Key or Secret-Key packet starts one); the packets before
    the first primary key come back separately."""
    pk, _ = framer.packets(buf)
    lead, out = [], []
    for p in pk:
        if p.tag in (PUBKEY, 5):
            out.append([p])
        elif out:
            out[-1].append(p)
        else:
            lead.append(p)
    return lead, out


def _fpr_v4(buf, p):
    body = buf[p.body:p.end]
    if not body or body[0] != 4:
        return None
    return hashlib.sha1(b"\x99" + len(body).to_bytes(2, "big") + body).hexdigest().upper()


def _cert_of(m, fpr):
    """(octets of the certificate with this primary fingerprint in the
    mutated keyrings, lone primary?, packets skipped before it?) or None."""
    for kr in m.keys:
        lead, cs = _cert_blocks(kr)
        for c in cs:
            if _fpr_v4(kr, c[0]) == fpr:
                return kr[c[0].start:c[-1].end], len(c) == 1, bool(lead)
    return None


def _isolated_inputs(m):
    """The mutated input once per signature packet, holding only that one
    (detached and cleartext inputs)."""
    if m.base.kind == "inline":
        return _isolated_inline(m.sig)
    if m.base.kind == "cleartext":
        s = m.sig
        i = s.find(b"-----BEGIN PGP SIGNATURE-----")
        d = framer.dearmor(s[i:]) if i >= 0 else None
        if not d:
            return []
        raw = d[0]
        wrap = lambda r: s[:i] + framer.armor(r) + s[i + d[2]:]  # noqa: E731
    elif m.base.armored:
        d = framer.dearmor(m.sig)
        if not d:
            return []
        raw = d[0]
        wrap = lambda r: m.sig[:d[1]] + framer.armor(r) + m.sig[d[2]:]  # noqa: E731
    else:
        raw, wrap = m.sig, (lambda r: r)
    pk, _ = framer.packets(raw)
    return [wrap(raw[p.start:p.end]) for p in pk if p.tag == SIG]


def _decompressed(msg):
    """msg with its one compressed packet (ZIP or ZLIB) replaced by the
    packets inside; msg itself without one; None if it does not inflate."""
    pk, clean = framer.packets(msg)
    comp = [p for p in pk if p.tag == framer.COMP]
    if not clean or len(comp) != 1 or comp[0].partial:
        return msg
    c = comp[0]
    algo, data = msg[c.body], msg[c.body + 1:c.end]
    if algo not in (1, 2):
        return None
    try:
        inner = zlib.decompressobj(-15 if algo == 1 else 15).decompress(data)
    except zlib.error:
        return None
    return msg[:c.start] + inner + msg[c.end:]


def _isolated_inline(msg):
    """An uncompressed one-level message once per signature: a prefix
    signature with the literal packet, or a one-pass packet (made the last
    one) with the literal packet and the signature closing it."""
    msg = _decompressed(msg)
    if msg is None:
        return []
    pk, clean = framer.packets(msg)
    lits = [i for i, p in enumerate(pk) if p.tag == LIT]
    if not clean or len(lits) != 1:
        return []
    li = lits[0]
    lit = msg[pk[li].start:pk[li].end]
    ops = [p for p in pk[:li] if p.tag == ONEPASS]
    pre = [p for p in pk[:li] if p.tag == SIG]
    post = [p for p in pk[li + 1:] if p.tag == SIG]
    out = [msg[p.start:p.end] + lit for p in pre]
    for o, sg in zip(reversed(ops), post):
        body = bytearray(msg[o.body:o.end])
        if len(body) == 13:
            body[12] = 1
        out.append(framer.new_packet(ONEPASS, bytes(body)) + lit + msg[sg.start:sg.end])
    return out


def _gpgv_confirms(m, cert, fpr):
    """Does gpgv find one of the signature packets, standing alone, good
    from this certificate alone (VALIDSIG naming the same primary)?"""
    d = tempfile.mkdtemp(prefix="wotkit-diff-iso-")
    try:
        home = os.path.join(d, "gnupg")
        os.makedirs(home, mode=0o700)
        kp = os.path.join(d, "cert.pgp")
        open(kp, "wb").write(cert)
        dp = None
        if m.data is not None:
            dp = os.path.join(d, "data")
            open(dp, "wb").write(m.data)
        for n, inp in enumerate(_isolated_inputs(m)):
            sp = os.path.join(d, "s%d" % n)
            open(sp, "wb").write(inp)
            r = run(["gpgv", "--homedir", home, "--status-fd", "1", "--keyring", kp, sp] +
                    ([dp] if dp else []))
            if r[0] != 0:
                continue
            for line in r[1].decode(errors="replace").splitlines():
                w = line.split()
                if len(w) > 2 and w[1] == "VALIDSIG" and w[-1] == fpr:
                    return True
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return False


def explain_goods(m, j, g, s):
    """Explain every signature wotkit calls good: from a bare key (a lone
    primary key, maybe after skipped packets), or confirmed by gpgv once
    the signature and its certificate (as they are in the mutated input)
    stand alone, so that only the rest of the input made the oracles fail.
    Returns a label or None."""
    sigs = (j or {}).get("signatures", [])
    good = _good_sigs(j)
    if not good:
        return None
    labels = set()
    for x in good:
        c = _cert_of(m, x.get("cert"))
        if c is None:
            return None
        cert, lone, lead = c
        if x.get("bare_key") and lone:
            labels.add("bare-key-after-skipped-packets" if lead else "bare-key")
        elif not x.get("bare_key") and _gpgv_confirms(m, cert, x.get("cert")):
            labels.add("one-good-suffices" if len(good) < len(sigs) else "oracle-refuses-keyring")
        else:
            return None
    if "oracle-refuses-keyring" in labels and len(labels) > 1:
        labels.discard("oracle-refuses-keyring")
    if labels == {"oracle-refuses-keyring"} and not _keyring_damaged(m):
        if len(sigs) < 2:
            return None
        labels = {"oracle-multi-signature-limit"}
    return "+".join(sorted(labels))


def _keyring_damaged(m):
    """Some keyring holds packets before its first primary key, a primary
    key of a version other than 4, or packets that do not frame."""
    for kr in m.keys:
        pk, clean = framer.packets(kr)
        lead, cs = _cert_blocks(kr)
        if not clean or lead or any(kr[c[0].body:c[0].body + 1] != b"\x04" for c in cs):
            return True
    return False


def mpi_bitcount(m, j, g, s):
    return any(_mpi_noncanonical(b) for b in _all_binary(m))


def onepass_mismatch(m, j, g, s):
    """An inline message whose one-pass signature packet disagrees with its
    signature (version, type, hash or public-key algorithm, key ID)."""
    if m.base.kind != "inline":
        return False
    pk, _ = framer.packets(m.sig)
    ops = [m.sig[p.body:p.end] for p in pk if p.tag == 4]
    sigs = [m.sig[p.body:p.end] for p in pk if p.tag == SIG]
    if len(ops) != 1 or len(sigs) != 1 or len(ops[0]) != 13 or len(sigs[0]) < 4:
        return False
    o, x = ops[0], sigs[0]
    return (o[1], o[2], o[3]) != (x[1], x[3], x[2]) or o[0] != 3


def _strip_unhashed(buf):
    """buf (binary) with the unhashed area of every v4 signature packet
    emptied, or None if nothing changed or buf does not frame."""
    pk, clean = framer.packets(buf)
    if not clean:
        return None
    out, changed = [], False
    for p in pk:
        body = buf[p.body:p.end]
        if p.tag == SIG and len(body) > 8 and body[0] == 4:
            hl = int.from_bytes(body[4:6], "big")
            uo = 6 + hl
            if uo + 2 <= len(body):
                ul = int.from_bytes(body[uo:uo + 2], "big")
                if ul and uo + 2 + ul <= len(body):
                    body = body[:uo] + b"\0\0" + body[uo + 2 + ul:]
                    out.append(framer.new_packet(SIG, body))
                    changed = True
                    continue
        out.append(buf[p.start:p.end])
    return b"".join(out) if changed else None


def oracles_reject_unhashed(m, j, g, s):
    """Only unhashed subpacket areas of keyring signatures changed, and with
    those areas emptied the base and the mutation are the same octets
    (nothing that a signature protects changed), and sqv says good on them:
    the oracles refused unauthenticated octets that wotkit ignores."""
    if m.sig != m.base.sig or m.data != m.base.data or len(m.keys) != len(m.base.keys):
        return False
    if not _good_sigs(j):
        return False
    keys = []
    for a, b in zip(m.base.keys, m.keys):
        if a == b:
            keys.append(b)
            continue
        c = _changed_fields(a, b)
        if c is None or not c or not all(".unhashed" in n for n in c):
            return False
        sb = _strip_unhashed(b)
        if sb is None or sb != _strip_unhashed(a):
            return False
        keys.append(sb)
    d = tempfile.mkdtemp(prefix="wotkit-diff-uh-")
    try:
        wr, gr, sr = verdicts(d, m.sig, m.data, keys, m.base.kind)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return sr[0] == 0       # gpgv 2.2 needs the unhashed issuer key ID of a self-signature


def noncritical_ignored(m, j, g, s):
    """The signature / message input holds packets of non-critical types
    (40-63) and is the base once they are removed: RFC 9580 §4.3 says they
    MUST be ignored, as wotkit does; gpgv and sqv refuse them."""
    if m.data != m.base.data or m.keys != m.base.keys or not _good_sigs(j):
        return False
    b = _all_binary(m)[:1]
    if not b:
        return False
    pk, clean = framer.packets(b[0])
    if not clean or not any(40 <= p.tag <= 63 for p in pk):
        return False
    kept = b"".join(b[0][p.start:p.end] for p in pk if not 40 <= p.tag <= 63)
    return kept == sig_octets(m.base)[0]


EXPECTED = [
    # explain_goods labels: bare-key, bare-key-after-skipped-packets,
    # one-good-suffices, oracle-refuses-keyring (joined with "+")
    ("goods-explained", "bare-key: semantics.md 'Certificates at the reference time' (a bare "
     "key is taken as it is), disagreements.md rfc-A2-v4-ed25519legacy; "
     "bare-key-after-skipped-packets: pgp/cert.h pgp_certset_add (packets before the first "
     "primary key are skipped) + the bare-key rule; one-good-suffices: disagreements.md "
     "rnp-cleartext-2sigs (one good signature suffices unless --signatures N); "
     "oracle-refuses-keyring: pgp/cert.h (a certificate whose primary key does not parse is "
     "skipped) where sqv refuses the whole keyring and gpgv stops reading it; "
     "oracle-multi-signature-limit: several signatures, each good for gpgv alone, in a "
     "structure the oracles do not handle (gpgv: 'can't handle this ambiguous signature "
     "data' for a signature before a one-pass signed message; sq 0.27: 'Hash not computed')",
     explain_goods),
    ("onepass-mismatch", "semantics.md 'Tolerated on input' (a one-pass packet whose fields "
     "disagree with its signature: the signature's own fields are used)", onepass_mismatch),
    ("mpi-bitcount", "semantics.md 'Tolerated on input' (non-canonical MPI bit count); "
     "disagreements.md rfc-A2-variant-mpi256", mpi_bitcount),
    ("noncritical-packet-ignored", "RFC 9580 §4.3 (an unknown non-critical packet, type "
     "40-63, MUST be ignored); gpgv and sqv refuse it: oracle limitation (b)",
     noncritical_ignored),
    ("oracles-reject-unhashed-content", "oracle strictness (b): a self-signature whose "
     "unhashed area holds a malformed subpacket body (e.g. a notation whose lengths do not "
     "add up) is refused by gpgv and sqv; wotkit ignores the unhashed area (semantics.md "
     "reads only the hashed area). Confirmed: the change lies in unhashed areas only, and "
     "with them emptied sqv says good (gpgv 2.2 then misses the issuer key ID)", oracles_reject_unhashed),
]


# ---- reverse: wotkit not good, gpgv and sqv good

def _changed_fields(base, mut):
    """Names of the framer fields holding the octets that differ (same
    length only), or None."""
    if len(base) != len(mut):
        return None
    offs = [i for i in range(len(base)) if base[i] != mut[i]]
    names = set()
    pk, _ = framer.packets(mut)
    for o in offs:
        best = None
        for p in pk:
            if p.start <= o < p.end:
                for n, v in framer.fields(mut, p).items():
                    for (a, b) in (v if isinstance(v, list) else [v]):
                        if a <= o < b and (best is None or b - a < best[1]):
                            best = (n, b - a)
        names.add(best[0] if best else "?")
    return names


def hash_prefix(m, j, g, s):
    """Only the hash prefix (and unhashed octets) changed, and wotkit says
    the prefix does not match."""
    reasons = [x.get("reason") for x in (j or {}).get("signatures", [])]
    if not reasons or any(r != "digest does not match the signature's hash prefix" for r in reasons):
        return False
    a, b = sig_octets(m.base)[0], _all_binary(m)[0]
    if m.base.kind == "inline":
        a, b = _decompressed(a), _decompressed(b)
        if a is None or b is None:
            return False
    pairs = [(a, b)] + list(zip(m.base.keys, m.keys))
    changed = set()
    for a, b in pairs:
        c = _changed_fields(a, b)
        if c is None:
            return False
        changed |= c
    # the prefix, and maybe unhashed octets (a flip inside a deflate stream
    # can change several), neither of which the signature covers
    return any(n.endswith(".prefix") for n in changed) and \
        all(n.endswith(".prefix") or ".unhashed" in n for n in changed)


def _stderr_has(*words):
    def pred(m, j, g, s, _w=words):
        return any(w in (m.wotkit_stderr or "") for w in _w)
    return pred


def trailing_compressed(m, j, g, s):
    """Octets after the end of the deflate stream inside a compressed packet
    of indeterminate length (the packets appended to such a message)."""
    if "octets after the stream end" not in (m.wotkit_stderr or ""):
        return False
    pk, _ = framer.packets(m.base.sig)
    return bool(pk) and pk[0].tag == 8 and not pk[0].new and m.base.sig[0] & 3 == 3 and \
        m.sig.startswith(m.base.sig)


def noncritical_packet(m, j, g, s):
    """The signature / message input holds a packet of a non-critical type
    (40-63), which RFC 9580 §4.3 says MUST be ignored; wotkit refuses it.
    A wotkit bug: reproducers in vectors/diff/MANIFEST (noncrit-*)."""
    for b in _all_binary(m)[:1]:
        pk, _ = framer.packets(b)
        if any(40 <= p.tag <= 63 for p in pk):
            return "not a signature" in (m.wotkit_stderr or "") or \
                "unexpected packet" in (m.wotkit_stderr or "")
    return False


def _owners(buf):
    """{signature packet octets: octets of the key/user ID packet it follows}"""
    pk, _ = framer.packets(buf)
    out, owner = {}, None
    for p in pk:
        if p.tag == SIG:
            out.setdefault(buf[p.start:p.end], owner)
        else:
            owner = buf[p.start:p.end]
    return out


def misplaced_binding(m, j, g, s):
    """A binding or self-signature of the base now follows another component
    (packets inserted or moved between a component and its signatures), and
    wotkit names the missing binding. RFC 9580 §10.1 places a component's
    signatures right after it; only revocations are looked for elsewhere
    (semantics.md 'Revocations anywhere'). sqv re-attaches misplaced
    signatures (Sequoia canonicalisation) and gpgv does not check: oracle
    leniency."""
    reasons = " ".join(str(x.get("reason")) for x in (j or {}).get("signatures", []))
    if "binding" not in reasons and "self-signature" not in reasons:
        return False
    for a, b in zip(m.base.keys, m.keys):
        oa, ob = _owners(a), _owners(b)
        for sg, own in oa.items():
            if sg in ob and ob[sg] != own:
                return True
    return False


# Differences that are wotkit bugs, reported with a reproducer in
# vectors/diff/MANIFEST: they are explained (not failures of this test) and
# vectors/diff fails until the library is fixed.
KNOWN_BUGS = ["bug-noncritical-packet"]

EXPECTED_REVERSE = [
    ("misplaced-binding", "oracle leniency (b): RFC 9580 §10.1 puts a component's "
     "signatures right after it and semantics.md looks elsewhere only for revocations; sqv "
     "re-attaches misplaced bindings, gpgv does not check them", misplaced_binding),
    ("bug-noncritical-packet", "WOTKIT BUG: RFC 9580 §4.3 (an unknown non-critical packet, "
     "type 40-63, MUST be ignored); vectors/diff noncrit-*", noncritical_packet),
    ("hash-prefix", "semantics.md 'Per signature' 6 (the digest's first two octets are compared "
     "with the stored prefix: a mismatch rejects)", hash_prefix),
    ("armor-strict", "semantics.md 'Refused on input' (armor: wrong END label, CRC24 "
     "mismatch, invalid base64; the cleartext BEGIN SIGNATURE line must be exact)",
     _stderr_has("armor END label does not match", "CRC", "base64", "unescaped dash line")),
    ("data-after-deflate-end", "pgp/literal.c (octets behind the end of a compressed stream "
     "are refused, never ignored); semantics.md 'One message per input'", trailing_compressed),
]


def classify(table, m, j, g, s):
    for (cid, doc, pred) in table:
        try:
            r = pred(m, j, g, s)
            if r:
                return r if isinstance(r, str) else cid
        except Exception:       # a predicate must never hide a case
            pass
    return None


# ----------------------------------------------------------------- main

def evaluate(seed, idx, bases, keep=None):
    m = make_mutation(seed, idx, bases)
    if m is None:
        return None
    d = keep or tempfile.mkdtemp(prefix="wotkit-diff-")
    try:
        os.makedirs(d, exist_ok=True)
        wr, gr, sr = verdicts(d, m.sig, m.data, m.keys, m.base.kind)
    finally:
        if not keep:
            shutil.rmtree(d, ignore_errors=True)
    w, crashed, j = wotkit_info(wr)
    m.wotkit_stderr = wr[2].decode(errors="replace")
    g, s = gr[0] == 0, sr[0] == 0
    res = {"idx": idx, "cls": m.cls, "base": m.base.id, "desc": m.desc, "w": w, "g": g, "s": s,
           "crash": crashed, "wrc": wr[0], "grc": gr[0], "src": sr[0]}
    if crashed:
        res["kind"] = "crash"
    elif w and not g and not s:
        res["kind"] = "false-good"
        res["why"] = classify(EXPECTED, m, j, gr, sr)
    elif not w and g and s:
        res["kind"] = "reverse"
        res["why"] = classify(EXPECTED_REVERSE, m, j, gr, sr)
    elif w == g == s:
        res["kind"] = "agree"
    else:
        res["kind"] = "split"
    if res["kind"] in ("false-good", "reverse", "crash"):
        sigs = (j or {}).get("signatures", [])
        res["wotkit"] = [(x.get("status"), x.get("reason"), x.get("cert")) for x in sigs] or \
            wr[2].decode(errors="replace").strip()[:200]
        res["gpgv"] = " ".join(l.split()[1] for l in gr[1].decode(errors="replace").splitlines()
                               if l.startswith("[GNUPG:]") and len(l.split()) > 1)
        res["sq"] = sr[2].decode(errors="replace").strip().splitlines()[:2]
    return res


def baseline(bases):
    """Keep the good bases on which all three verifiers say good, and the
    other bases on which all three say not good."""
    keep, drop = [], []
    for b in bases:
        d = tempfile.mkdtemp(prefix="wotkit-diff-")
        try:
            wr, gr, sr = verdicts(d, b.sig, b.data, b.keys, b.kind)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        want = 0 if b.expect_good else None
        if all((r[0] == 0) == (want == 0) for r in (wr, gr, sr)):
            keep.append(b)
        elif b.expect_good:
            drop.append((b.id, wr[0], gr[0], sr[0]))
    return keep, drop


def main():
    global BASES, ALLKEYS
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=3)
    ap.add_argument("--tap", action="store_true")
    ap.add_argument("--only", type=int)
    ap.add_argument("--keep")
    ap.add_argument("--time-limit", type=float, default=0)
    ap.add_argument("--json")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()

    ALLKEYS = {}
    for k in sorted(os.listdir(os.path.join(VDIR, "keys"))):
        ALLKEYS["keys/" + k] = open(os.path.join(VDIR, "keys", k), "rb").read()
    BASES = load_bases()
    BASES, dropped = baseline(BASES)
    t0 = time.time()
    if a.only is not None:
        r = evaluate(a.seed, a.only, BASES, keep=a.keep)
        print(json.dumps(r, indent=1, default=str))
        if a.keep:
            print("files in", a.keep)
        return 0

    results = []
    idxs = list(range(a.start, a.start + a.count))
    with ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = []
        for i in idxs:
            futs.append(ex.submit(evaluate, a.seed, i, BASES))
        for f in futs:
            if a.time_limit and time.time() - t0 > a.time_limit:
                for x in futs:
                    x.cancel()
            try:
                r = f.result()
            except Exception:
                continue            # cancelled
            if r is not None:
                results.append(r)
    el = time.time() - t0

    stats = {}
    for r in results:
        c = stats.setdefault(r["cls"], {"n": 0, "agree": 0, "split": 0, "false-good": 0,
                                        "reverse": 0, "crash": 0, "unclassified": 0})
        c["n"] += 1
        c[r["kind"]] += 1
        if r["kind"] == "crash" or (r["kind"] in ("false-good", "reverse") and not r.get("why")):
            c["unclassified"] += 1
    bad = [r for r in results if r["kind"] == "crash" or
           (r["kind"] in ("false-good", "reverse") and not r.get("why"))]

    if a.json:
        with open(a.json, "w") as fo:
            json.dump({"seed": a.seed, "count": len(results), "seconds": el, "dropped": dropped,
                       "bases": [b.id for b in BASES], "stats": stats, "results": [
                           r for r in results if r["kind"] != "agree"]}, fo, indent=1, default=str)

    if a.tap:
        if dropped:
            print("# bases left out (not good for all three): %s" % ", ".join(
                "%s(w=%s g=%s s=%s)" % x for x in dropped))
        print("# seed %d, %d mutations of %d bases in %.1f s" % (a.seed, len(results), len(BASES), el))
        for name, _ in CLASSES:
            c = stats.get(name)
            if not c:
                print("skip - %s: no mutation ran" % name)
                continue
            ok = c["unclassified"] == 0
            print("%s - differential %s: %d mutations, %d agree, %d oracle splits, "
                  "%d wotkit-only good (%d unexplained), %d wotkit-only bad, %d crashes" % (
                      "ok" if ok else "not ok", name, c["n"], c["agree"], c["split"],
                      c["false-good"], sum(1 for r in bad if r["cls"] == name and
                                           r["kind"] == "false-good"),
                      c["reverse"], c["crash"]))
        for r in bad:
            if r["kind"] == "false-good" or r["kind"] == "crash":
                print("not ok - %s: wotkit %s, gpgv and sq not good: seed %d mutation %d (%s, %s)" % (
                    r["cls"], "crashed (%s)" % r["wrc"] if r["kind"] == "crash" else "good",
                    a.seed, r["idx"], r["base"], r["desc"]))
            else:
                print("# reverse: seed %d mutation %d (%s, %s): wotkit %s" % (
                    a.seed, r["idx"], r["base"], r["desc"], r.get("wotkit")))
        for r in results:
            if r["kind"] == "false-good" and r.get("why") and a.verbose:
                print("# expected (%s): mutation %d %s %s" % (r["why"], r["idx"], r["base"], r["desc"]))
    else:
        print("seed %d: %d mutations of %d bases in %.1f s; dropped bases: %s" % (
            a.seed, len(results), len(BASES), el, dropped))
        print("%-18s %6s %6s %6s %6s %6s %6s %6s" % ("class", "n", "agree", "split", "wgood",
                                                    "wbad", "crash", "unexpl"))
        for name, _ in CLASSES:
            c = stats.get(name)
            if c:
                print("%-18s %6d %6d %6d %6d %6d %6d %6d" % (name, c["n"], c["agree"], c["split"],
                                                            c["false-good"], c["reverse"],
                                                            c["crash"], c["unclassified"]))
        for r in results:
            if r["kind"] in ("false-good", "reverse", "crash") and (a.verbose or not r.get("why")):
                print(json.dumps(r, default=str))
    return 1 if bad else 0


BASES = []
ALLKEYS = {}

if __name__ == "__main__":
    sys.exit(main())
