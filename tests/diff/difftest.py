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
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import framer  # noqa: E402
from framer import SIG, PUBKEY, PUBSUB, UID  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
VDIR = os.path.join(TOP, "vectors", "verify")
WOTKIT = os.environ.get("WOTKIT", os.path.join(TOP, "wotkit"))
TIMEOUT = 20


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
        if f[5] != "good" or any(x.startswith("at=") for x in f[8:]):
            continue
        out.append(Base(f[0], f[1], f[2], f[3], f[4], f[6]))
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
]


def make_mutation(seed, idx, bases):
    """Mutation idx of seed: the class cycles, the rest is drawn from a
    generator seeded with (seed, idx)."""
    name, fn = CLASSES[idx % len(CLASSES)]
    rng = random.Random("%d/%d" % (seed, idx))
    for _ in range(50):
        b = rng.choice(bases)
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


def bare_key(m, j, g, s):
    return any(x.get("bare_key") for x in _good_sigs(j))


def mpi_bitcount(m, j, g, s):
    return any(_mpi_noncanonical(b) for b in _all_binary(m))


EXPECTED = [
    ("bare-key", "semantics.md 'Certificates at the reference time' (bare key); "
     "disagreements.md rfc-A2-v4-ed25519legacy", bare_key),
    ("mpi-bitcount", "semantics.md 'Tolerated on input' (non-canonical MPI bit count); "
     "disagreements.md rfc-A2-variant-mpi256", mpi_bitcount),
]

# wotkit not good while gpgv and sqv both say good
EXPECTED_REVERSE = []


def classify(table, m, j, g, s):
    for (cid, doc, pred) in table:
        try:
            if pred(m, j, g, s):
                return cid
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
    """Keep the bases on which all three verifiers say good."""
    keep, drop = [], []
    for b in bases:
        d = tempfile.mkdtemp(prefix="wotkit-diff-")
        try:
            wr, gr, sr = verdicts(d, b.sig, b.data, b.keys, b.kind)
        finally:
            shutil.rmtree(d, ignore_errors=True)
        if wr[0] == 0 and gr[0] == 0 and sr[0] == 0:
            keep.append(b)
        else:
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
