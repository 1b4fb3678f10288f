#!/usr/bin/env python3
"""krfile.py - keyring file corruption (docs/keyring-format.md, keyring/kr_read.c,
keyring/kr_verify.c). Deterministic: no randomness beyond seeded generators.

    python3 tests/cli/krfile.py KEYRING.wk VERIFY_DIR MANIFEST   run every case (TAP)
    python3 tests/cli/krfile.py --manifest                       print the MANIFEST
                                                                 (vectors/gen/krfile.py writes it)

KEYRING.wk is a keyring built at test time (tests/cli/krfile.sh) from
vectors/verify/keys, vectors/trust/web.pgp and vectors/wot/keyring.asc, so it has
several blocks per index, e-mail entries and certification edges. Each MANIFEST row
names a mutation, a variant and the expected outcome:

  raw    the mutation applied in place, every checksum left as it was
  fixed  the same mutation with every checksum (header, blocks, certificate,
         statistics) recomputed, so only the structural checks can catch it

  open:TEXT   `keyring stats` (header, section table, statistics) and `keyring
              check` refuse the file (exit 2 / non-zero), the message has TEXT
  check:TEXT  the file opens; `wotkit keyring check` exits 1 naming TEXT
  detected    (sampled rows) open or check fails with a message
  ok          harmless by design: check passes and every answer equals the original's

For every mutant, whatever the row says: no crash; `keyring show` of sampled
certificates (by fingerprint, key ID, e-mail) either fails or prints exactly the
certificate asked for (never another); `verify` of sampled signatures through the
mutant is either not good or good from the same signer as through the original
keyring (never good where the original is not).
"""
import os
import random
import struct
import subprocess
import sys
import zlib

HDR, SECT, BREC = 64, 32, 64
REC = {1: 72, 2: 40, 3: 12, 4: 12, 5: 40, 6: 16}
CERT_CRC_AT = 12  # CRC-32 field inside a certificate table record


def crc(b):
    return zlib.crc32(b) & 0xFFFFFFFF


class Ring:
    """A parsed keyring: header fields and sections (fixed ones as records)."""

    def __init__(self, b):
        self.major, self.minor, hlen, flen, n, brecs = struct.unpack(">HHIQII", b[8:32])
        assert b[:8] == b"WOTKITKR" and flen == len(b) and brecs == BREC
        self.sects = []
        for i in range(n):
            sid, rs, off, ln, cnt, scrc = struct.unpack(">IIQQII", b[HDR + SECT * i:HDR + SECT * (i + 1)])
            body = b[off:off + ln]
            s = {"id": sid, "rs": rs, "count": cnt, "crc": scrc}
            if sid in REC:
                nb = (cnt + BREC - 1) // BREC
                s["recs"] = [bytearray(body[4 * nb + rs * j:4 * nb + rs * (j + 1)]) for j in range(cnt)]
            else:
                s["body"] = bytearray(body)
            self.sects.append(s)

    def sect(self, sid):
        return next(s for s in self.sects if s["id"] == sid)

    def emit(self):
        """Bytes with every offset, length, count and checksum recomputed
        (a fixed-record section's count is its records' plus "delta")."""
        n = len(self.sects)
        off = HDR + SECT * n
        table, bodies = b"", b""
        for s in self.sects:
            if "recs" in s:
                recs = s["recs"]
                blocks = [b"".join(recs[i:i + BREC]) for i in range(0, len(recs), BREC)]
                body = b"".join(struct.pack(">I", crc(x)) for x in blocks) + b"".join(recs)
                cnt = len(recs) + s.get("delta", 0)
                scrc = 0
            else:
                body = bytes(s["body"])
                cnt = s["count"]
                scrc = crc(body) if s["id"] == 7 else s["crc"]
            table += struct.pack(">IIQQII", s["id"], s["rs"], off, len(body), cnt, scrc)
            off += len(body)
            bodies += body
        head = b"WOTKITKR" + struct.pack(">HHIQII", self.major, self.minor, HDR + SECT * n, off, n, BREC) + \
            bytes(28)
        return head + struct.pack(">I", crc(head + table)) + table + bodies

    def crc_positions(self, b):
        """Offsets of every checksum octet in the emitted file b (same layout)."""
        pos = set(range(60, 64))
        n = len(self.sects)
        for i, s in enumerate(self.sects):
            e = HDR + SECT * i
            sid, rs, off, ln, cnt = struct.unpack(">IIQQI", b[e:e + 28])
            pos.update(range(e + 28, e + 32))
            if sid in REC:
                nb = (cnt + BREC - 1) // BREC
                pos.update(range(off, off + 4 * nb))
                if sid == 1:
                    for j in range(cnt):
                        r = off + 4 * nb + rs * j + CERT_CRC_AT
                        pos.update(range(r, r + 4))
        return pos


def cert_place(ring, i):
    r = ring.sect(1)["recs"][i]
    return struct.unpack(">QI", r[:12])


def set_cert(ring, i, off=None, ln=None):
    """Certificate table record i: new place; its CRC follows the octets."""
    r = ring.sect(1)["recs"][i]
    o, n = struct.unpack(">QI", r[:12])
    o = o if off is None else off
    n = n if ln is None else ln
    r[0:12] = struct.pack(">QI", o, n)
    data = ring.sect(8)["body"]
    r[12:16] = struct.pack(">I", crc(bytes(data[o:o + n])))


# ---- mutations: each takes a Ring, changes it, returns a note ----

def m_cert_offset_shift(g):
    o, n = cert_place(g, 5)
    set_cert(g, 5, off=o + 1)


def m_cert_offset_outside(g):
    set_cert(g, 5, off=len(g.sect(8)["body"]) + 10)


def m_cert_len_grow(g):
    o, n = cert_place(g, 5)
    set_cert(g, 5, ln=n + 1)


def m_cert_overlap(g):
    o, n = cert_place(g, 5)
    set_cert(g, 6, off=o, ln=n)


def m_cert_duplicate_record(g):
    t = g.sect(1)["recs"]
    t[6][:] = t[5]


def m_cert_swap(g):
    t = g.sect(1)["recs"]
    t[5], t[6] = t[6], t[5]


def m_cert_nuids(g):
    r = g.sect(1)["recs"][5]
    r[52:56] = struct.pack(">I", struct.unpack(">I", r[52:56])[0] + 1)


def m_cert_fpr(g):
    g.sect(1)["recs"][5][25] ^= 0x01


def m_cert_data_swap(g):
    """Two certificates' octets exchanged, the table following (offsets,
    lengths, checksums): every record still tiles and checks."""
    a, b = cert_place(g, 5), cert_place(g, 6)
    data = g.sect(8)["body"]
    A, B = bytes(data[a[0]:a[0] + a[1]]), bytes(data[b[0]:b[0] + b[1]])
    data[a[0]:b[0] + b[1]] = B + A
    set_cert(g, 5, off=a[0], ln=b[1])
    set_cert(g, 6, off=a[0] + b[1], ln=a[1])


def swap(sid, i=None):
    def f(g):
        recs = g.sect(sid)["recs"]
        j = len(recs) // 2 if i is None else i
        recs[j], recs[j + 1] = recs[j + 1], recs[j]
    return f


def redirect(sid):
    """The middle entry names the next certificate (another one)."""
    def f(g):
        r = g.sect(sid)["recs"][len(g.sect(sid)["recs"]) // 2]
        ci = struct.unpack(">I", r[-4:])[0]
        r[-4:] = struct.pack(">I", (ci + 1) % len(g.sect(1)["recs"]))
    return f


def drop(sid):
    def f(g):
        recs = g.sect(sid)["recs"]
        del recs[len(recs) // 2]
    return f


def dup(sid):
    def f(g):
        recs = g.sect(sid)["recs"]
        j = len(recs) // 2
        recs.insert(j, bytearray(recs[j]))
    return f


def edge_field(at, fmt, val):
    def f(g):
        r = g.sect(5)["recs"][len(g.sect(5)["recs"]) // 2]
        n = struct.calcsize(fmt)
        old = struct.unpack(fmt, r[at:at + n])[0]
        r[at:at + n] = struct.pack(fmt, val(old, len(g.sect(1)["recs"])))
    return f


def m_tag_alter(g):
    g.sect(6)["recs"][len(g.sect(6)["recs"]) // 2][15] ^= 0x01


def m_section_count(sid):
    def f(g):
        s = g.sect(sid)
        if "recs" in s:
            s["delta"] = 1
        else:
            s["count"] += 1
    return f


def m_stats_certs(g):
    b = g.sect(7)["body"]
    b[48:56] = struct.pack(">Q", struct.unpack(">Q", b[48:56])[0] + 1)


def m_stats_edges(g):
    b = g.sect(7)["body"]
    b[88:96] = struct.pack(">Q", struct.unpack(">Q", b[88:96])[0] - 1)


def m_sections_reordered(g):
    s = g.sects
    i, j = s.index(g.sect(2)), s.index(g.sect(3))
    s[i], s[j] = s[j], s[i]


def m_section_twice(g):
    s = g.sect(3)
    g.sects.insert(g.sects.index(s), {"id": 3, "rs": s["rs"], "count": s["count"], "crc": 0,
                                      "recs": [bytearray(r) for r in s["recs"]]})


def m_section_unknown(g):
    g.sects.insert(3, {"id": 99, "rs": 0, "count": 0, "crc": 0, "body": bytearray(b"later minor")})


def m_section_missing(g):
    g.sects.remove(g.sect(4))


def m_major(g):
    g.major = 2


def m_minor(g):
    g.minor = 7


# Whole-file edits of the emitted bytes (no model): (name, fn(bytes) -> bytes)
def b_trailing(b):
    return b + b"\0"


def b_filelen(b):
    b = bytearray(b)
    b[16:24] = struct.pack(">Q", len(b) + 1)
    b[60:64] = struct.pack(">I", crc(bytes(b[:60]) + bytes(b[64:64 + SECT * struct.unpack(">I", b[24:28])[0]])))
    return bytes(b)


def b_nsect(b):
    b = bytearray(b)
    n = struct.unpack(">I", b[24:28])[0]
    b[24:28] = struct.pack(">I", n - 1)
    return bytes(b)


def b_magic(b):
    return b"WOTKITKS" + b[8:]


# name -> (mutation, variants, expected outcome per variant)
CASES = [
    # certificate table: bad offsets, overlapping records, wrong counts
    ("cert-offset-shift", m_cert_offset_shift, {"raw": "check:certificate table: block checksum mismatch",
                                                "fixed": "check:keyring certificate data: stored certificate does not parse"}),
    ("cert-offset-outside", m_cert_offset_outside, {"raw": "check:certificate table: block checksum mismatch",
                                                    "fixed": "check:certificate lies outside the data section"}),
    ("cert-length-grow", m_cert_len_grow, {"raw": "check:certificate table: block checksum mismatch",
                                           "fixed": "check:keyring certificate data: stored certificate does not parse"}),
    ("cert-overlap", m_cert_overlap, {"raw": "check:certificate table: block checksum mismatch",
                                      "fixed": "check:not the certificate the table names"}),
    ("cert-record-twice", m_cert_duplicate_record, {"raw": "check:certificate table: block checksum mismatch",
                                                    "fixed": "check:entry names a certificate without that key"}),
    ("cert-records-swapped", m_cert_swap, {"raw": "check:certificate table: block checksum mismatch",
                                           "fixed": "check:entry names a certificate without that key"}),
    ("cert-octets-swapped", m_cert_data_swap, {"fixed": "check:not the certificate the table names"}),
    ("cert-uid-count", m_cert_nuids, {"raw": "check:certificate table: block checksum mismatch",
                                      "fixed": "check:counts or key data differ from the stored certificate"}),
    ("cert-fingerprint", m_cert_fpr, {"raw": "check:certificate table: block checksum mismatch",
                                      "fixed": "check:not the certificate the table names"}),
    # indexes: unsorted, redirected, missing or doubled entries
    ("fpr-index-unsorted", swap(2), {"raw": "check:fingerprint index: block checksum mismatch",
                                     "fixed": "check:fingerprint index: not sorted"}),
    ("fpr-index-redirected", redirect(2), {"raw": "check:fingerprint index: block checksum mismatch",
                                           "fixed": "check:fingerprint index: entry names a certificate without that key"}),
    ("fpr-index-entry-missing", drop(2), {"fixed": "check:fingerprint index: a stored key is not found"}),
    ("fpr-index-entry-twice", dup(2), {"fixed": "check:fingerprint index: not sorted or an entry twice"}),
    ("keyid-index-unsorted", swap(3), {"raw": "check:key ID index: block checksum mismatch",
                                       "fixed": "check:key ID index: not sorted"}),
    ("keyid-index-redirected", redirect(3), {"raw": "check:key ID index: block checksum mismatch",
                                             "fixed": "check:key ID index: entry names a certificate without that key"}),
    ("keyid-index-entry-missing", drop(3), {"fixed": "check:key ID index: a stored key is not found"}),
    ("keyid-index-entry-twice", dup(3), {"fixed": "check:key ID index: not sorted or an entry twice"}),
    ("email-index-unsorted", swap(4), {"raw": "check:e-mail index: block checksum mismatch",
                                       "fixed": "check:e-mail index: not sorted"}),
    ("email-index-redirected", redirect(4), {"raw": "check:e-mail index: block checksum mismatch",
                                             "fixed": "check:e-mail index: entry names a certificate without that address"}),
    ("email-index-entry-missing", drop(4), {"fixed": "check:e-mail index: a stored address is not found"}),
    ("email-index-entry-twice", dup(4), {"fixed": "check:e-mail index: not sorted or an entry twice"}),
    # certification edges: the web of trust reads them without verifying anything
    ("edge-issuer-changed", edge_field(0, ">I", lambda v, n: (v + 1) % n),
     {"raw": "check:certification edges: block checksum mismatch",
      "fixed": "check:an edge no stored certification backs"}),
    ("edge-issuer-out-of-range", edge_field(0, ">I", lambda v, n: n + 5),
     {"raw": "check:certification edges: block checksum mismatch",
      "fixed": "check:edge names a certificate out of range"}),
    ("edge-uid-changed", edge_field(8, ">I", lambda v, n: v + 1),
     {"raw": "check:certification edges: block checksum mismatch",
      "fixed": "check:an edge no stored certification backs"}),
    ("edge-trust-raised", edge_field(19, ">H", lambda v, n: 0x0278),
     {"raw": "check:certification edges: block checksum mismatch",
      "fixed": "check:an edge no stored certification backs"}),
    ("edge-expiry-removed", edge_field(32, ">q", lambda v, n: 0 if v else 1),
     {"raw": "check:certification edges: block checksum mismatch",
      "fixed": "check:an edge no stored certification backs"}),
    ("edges-unsorted", swap(5, 0), {"raw": "check:certification edges: block checksum mismatch",
                                    "fixed": "check:certification edges: not sorted"}),
    ("edge-missing", drop(5), {"fixed": "check:statistics: counts differ"}),
    # memo tags
    ("tags-unsorted", swap(6), {"raw": "check:memo tags: block checksum mismatch",
                                "fixed": "check:memo tags: not sorted"}),
    ("tag-twice", dup(6), {"fixed": "check:memo tags: not sorted or a tag twice"}),
    ("tag-missing", drop(6), {"fixed": "check:statistics: counts differ"}),
    ("tag-altered", m_tag_alter, {"raw": "check:memo tags: block checksum mismatch",
                                  "fixed": "ok"}),
    # section table and counts
    ("cert-count-plus-one", m_section_count(1), {"fixed": "open:certificate table: size does not match its count"}),
    ("fpr-count-plus-one", m_section_count(2), {"fixed": "open:fingerprint index: size does not match its count"}),
    ("data-count-plus-one", m_section_count(8), {"fixed": "open:certificate data: count does not match"}),
    ("stats-certificate-count", m_stats_certs, {"raw": "open:statistics: checksum mismatch",
                                                "fixed": "check:statistics: counts differ"}),
    ("stats-edge-count", m_stats_edges, {"raw": "open:statistics: checksum mismatch",
                                         "fixed": "check:statistics: counts differ"}),
    ("sections-reordered", m_sections_reordered, {"fixed": "ok"}),
    ("section-unknown-added", m_section_unknown, {"fixed": "ok"}),
    ("section-twice", m_section_twice, {"fixed": "open:section appears twice"}),
    ("section-missing", m_section_missing, {"fixed": "open:lacks a required section"}),
    ("major-version", m_major, {"fixed": "open:format version not supported"}),
    ("minor-version", m_minor, {"raw": "open:header checksum mismatch", "fixed": "ok"}),
]
BYTE_CASES = [
    ("trailing-octet", b_trailing, "open:data after its end"),
    ("file-length-field", b_filelen, "open:shorter than its header says"),
    ("section-count-field", b_nsect, "open:bad section count"),
    ("magic", b_magic, "open:invalid CTB"),  # then it is read as a raw OpenPGP keyring
]
FLIPS, FLIPS_RECRC, TRUNCS, SEED = 160, 40, 40, "krfile"


def manifest():
    out = ["# vectors/krfile/MANIFEST - generated by vectors/gen/krfile.py; do not edit.",
           "# Keyring file corruption, run by tests/cli/krfile.sh (tests/cli/krfile.py) on a keyring",
           "# built at test time. Columns (TAB-separated): mutation  variant  expected",
           "#   variant raw: checksums left as they were; fixed: every checksum recomputed",
           "#   expected open:TEXT (`keyring stats`, which reads the header, the section table and the",
           "#   statistics, exits 2 naming TEXT, and so does check), check:TEXT (`keyring check` exits 1",
           "#   naming TEXT), detected (open or check fails), ok (harmless by design: check passes,",
           "#   answers equal the original's), safe (check may pass; answers never wrong)",
           "# Every mutant also: no crash, lookups never return another certificate, verify never good",
           "# where the original keyring is not, nor from another signer."]
    for name, _, exp in CASES:
        for v in ("raw", "fixed"):
            if v in exp:
                out.append("\t".join([name, v, exp[v]]))
    for name, _, exp in BYTE_CASES:
        out.append("\t".join([name, "fixed", exp]))
    out.append("\t".join(["boundary-flips", "raw", "detected"]))
    out.append("\t".join(["sampled-flips-%d" % FLIPS, "raw", "detected"]))
    out.append("\t".join(["boundary-truncations", "raw", "open:truncated"]))
    out.append("\t".join(["sampled-truncations-%d" % TRUNCS, "raw", "open:truncated"]))
    out.append("\t".join(["certificate-octet-flips-%d" % FLIPS_RECRC, "fixed", "safe"]))
    return "\n".join(out) + "\n"


# ---- running ----

def run(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout.decode(errors="replace"), r.stderr.decode(errors="replace")


def main():
    if sys.argv[1:] == ["--manifest"]:
        sys.stdout.write(manifest())
        return 0
    krfile, vdir, mfile = sys.argv[1:4]
    tmp = os.path.dirname(os.path.abspath(krfile))
    wotkit = os.environ.get("WOTKIT", "./wotkit")
    if open(mfile, encoding="utf-8").read() != manifest():
        print("not ok - %s differs from what vectors/gen/krfile.py writes" % mfile)
        return 1
    orig = open(krfile, "rb").read()
    g0 = Ring(orig)
    fails = [0]
    counts = {}

    def report(ok, what):
        if not ok:
            fails[0] += 1
        print("%s - %s" % ("ok" if ok else "not ok", what))

    # the sample of lookups: certificates 4..7 (the mutations' targets) and a spread
    rc, out, err = run([wotkit, "keyring", "list", "--json", "--keyring", krfile])
    import json
    certs = json.loads(out)["certificates"] if rc == 0 else []
    report(len(certs) == len(g0.sect(1)["recs"]), "original keyring lists %d certificates" % len(certs))
    fprs = [c["fingerprint"] for c in certs]
    pick = sorted(set([4, 5, 6, 7] + list(range(0, len(fprs), max(1, len(fprs) // 6)))))
    queries = []
    for i in pick:
        f = fprs[i]
        queries.append((f, f))
        queries.append((f[-16:] if len(f) == 40 else f[:16], f))
    for i in pick:
        t = certs[i].get("primary_uid") or ""
        if "<" in t and t.endswith(">"):
            queries.append((t[t.rindex("<") + 1:-1], None))
    def shown(ring, q):
        rc, out, err = run([wotkit, "keyring", "show", "--keyring", ring, q])
        return rc, set(l.split(":", 1)[1].strip() for l in out.splitlines()
                       if l.startswith("  fingerprint:"))

    # what the original answers: a mutant's answer must be a part of it
    queries = [(q, shown(krfile, q)[1]) for q, _ in queries]
    report(all(len(w) >= 1 for q, w in queries), "every sampled query is answered by the original")
    # the sample of verifications
    sigs = []
    for line in open(os.path.join(vdir, "MANIFEST"), encoding="utf-8"):
        f = line.rstrip("\n").split("\t")
        if line.startswith("#") or len(f) < 7 or f[1] != "detached":
            continue
        sigs.append((os.path.join(vdir, f[2]), os.path.join(vdir, f[3])))
    sigs = sigs[::max(1, len(sigs) // 6)][:6]

    def verify(ring, s):
        rc, out, err = run([wotkit, "verify", "--json", "--at", "@1710000000", "--keyring", ring] + list(s))
        try:
            ss = json.loads(out)["signatures"]
            good = [x.get("cert") for x in ss if x["status"] == "ok"]
        except (ValueError, KeyError):
            good = []
        return (rc, tuple(good))

    base = [verify(krfile, s) for s in sigs]
    report(any(b[1] for b in base) and not all(b[1] for b in base),
           "sample: %d lookups, %d signatures (good and not good) through the original" %
           (len(queries), len(sigs)))

    path = os.path.join(tmp, "mutant.wk")

    def answers_safe(what, full):
        """Lookups never another certificate; verify never more lenient."""
        qs = queries if full else queries[::4]
        if full is None:  # refused at open: one of each is enough
            qs, full = queries[:1], False
        for q, want in qs:
            rc, got = shown(path, q)
            if rc < 0:
                return "show %s crashed (signal %d)" % (q, -rc)
            if rc == 0 and not got <= want:
                return "show %s gave %s, want a part of %s" % (q, sorted(got), sorted(want))
        for s, b in zip(sigs if full else sigs[::2], base if full else base[::2]):
            v = verify(path, s)
            if v[0] < 0:
                return "verify crashed"
            if v[1] and v[1] != b[1]:
                return "verify good from %s through the mutant, %s through the original" % (v[1], b[1])
        return None

    def outcome(data):
        """(kind, message): open / check / ok, and the first message."""
        with open(path, "wb") as f:
            f.write(data)
        rc, out, err = run([wotkit, "keyring", "stats", "--keyring", path])
        if rc < 0:
            return "crash", "stats: signal %d" % -rc
        if rc == 2:
            rc2, _, err2 = run([wotkit, "keyring", "check", path])
            return ("open" if rc2 != 0 else "open-but-check-passes"), err.strip().splitlines()[0] if err.strip() else ""
        rc, out, err = run([wotkit, "keyring", "check", path])
        if rc < 0:
            return "crash", "check: signal %d" % -rc
        if rc == 0:
            return "ok", err.strip()
        return "check", err.strip().splitlines()[0] if err.strip() else "(no message, rc=%d)" % rc

    def expect(name, data, want, full=True):
        kind, msg = outcome(data)
        problems = []
        if kind == "crash":
            problems.append(msg)
        elif want == "detected":
            if kind not in ("open", "check") or not msg:
                problems.append("not detected: %s %s" % (kind, msg))
        elif want in ("ok", "safe"):
            if want == "ok" and kind != "ok":
                problems.append("want ok, got %s: %s" % (kind, msg))
        else:
            wk, wt = want.split(":", 1)
            if kind != wk or wt not in msg:
                problems.append("got %s: %s" % (kind, msg))
        p = answers_safe(name, None if kind == "open" else full)
        if p:
            problems.append(p)
        if want == "ok" and not problems:
            for s, b in zip(sigs, base):
                if verify(path, s) != b:
                    problems.append("verify differs from the original")
                    break
        counts[want.split(":")[0]] = counts.get(want.split(":")[0], 0) + 1
        report(not problems, "%s: %s%s" % (name, want if not problems else "", "; ".join(problems)))
        return not problems

    report(outcome(orig)[0] == "ok", "the original keyring passes keyring check")
    for name, fn, exp in CASES:
        g = Ring(orig)
        fn(g)
        fixed = g.emit()
        if "fixed" in exp:
            expect("%s/fixed" % name, fixed, exp["fixed"])
        if "raw" in exp:
            assert len(fixed) == len(orig), name
            raw = bytearray(fixed)
            for p in g.crc_positions(fixed):
                raw[p] = orig[p]
            expect("%s/raw" % name, bytes(raw), exp["raw"])
    for name, fn, exp in BYTE_CASES:
        expect("%s/fixed" % name, fn(orig), exp)

    # section boundaries: every start, and the octets either side
    n = len(g0.sects)
    bounds = {0, 8, 12, 16, 24, 28, 32, 59, 60, 63, 64, HDR + SECT * n, len(orig) - 1}
    for i in range(n):
        off, ln = struct.unpack(">QQ", orig[HDR + SECT * i + 8:HDR + SECT * i + 24])
        bounds.update({off - 1, off, off + 1, off + ln - 1})
    # (0 excluded from the truncations below: an empty file is an empty raw keyring)
    bounds = sorted(b for b in bounds if 0 < b < len(orig))
    rng = random.Random(SEED)
    ok_flips = 0
    for b in bounds:
        m = bytearray(orig)
        m[b] ^= 1 << rng.randrange(8)
        ok_flips += expect("flip at boundary %d" % b, bytes(m), "detected", full=False)
    for i in range(FLIPS):
        off = rng.randrange(len(orig))
        m = bytearray(orig)
        m[off] ^= 1 << rng.randrange(8)
        ok_flips += expect("sampled flip %d at %d" % (i, off), bytes(m), "detected", full=False)
    for b in bounds + [len(orig) - 1]:
        expect("truncated at boundary %d" % b, orig[:b], "open:truncated" if b >= 8 else
               "open:not a wotkit keyring", full=False)
    for i in range(TRUNCS):
        b = rng.randrange(1, len(orig))
        expect("sampled truncation at %d" % b, orig[:b], "open:truncated" if b >= 8 else
               "open:not a wotkit keyring", full=False)
    # octets of a stored certificate flipped, its checksums recomputed: what only an
    # attacker who can write the file does; lookups and verdicts must stay safe
    data_s = g0.sect(8)
    for i in range(FLIPS_RECRC):
        g = Ring(orig)
        ci = rng.randrange(len(g.sect(1)["recs"]))
        o, ln = cert_place(g, ci)
        g.sect(8)["body"][o + rng.randrange(ln)] ^= 1 << rng.randrange(8)
        set_cert(g, ci)
        expect("certificate %d octet flipped, checksums recomputed" % ci, g.emit(), "safe", full=False)
    del data_s
    print("# cases by expectation: %s" % ", ".join("%s %d" % kv for kv in sorted(counts.items())))
    print("# %d boundary and %d sampled bit flips; %d truncations" % (len(bounds), FLIPS, len(bounds) + 1 + TRUNCS))
    return 1 if fails[0] else 0


if __name__ == "__main__":
    sys.exit(main())
