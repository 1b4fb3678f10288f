"""framer.py - a small OpenPGP packet framer for the differential test.

It finds packet boundaries (RFC 9580 §4.2: legacy and OpenPGP formats,
partial body lengths) and, inside the packets the mutator cares about,
field boundaries: signature version / type / algorithms / hashed and
unhashed subpacket areas / each subpacket / hash prefix / MPIs (§5.2.3),
key version / creation time / algorithm / key material (§5.5.2), user ID
bodies, and the embedded signature subpacket (§5.2.3.34) recursively.

Everything is best effort: a field that does not parse is simply absent, so
the mutator never needs the input to be well formed. Offsets are absolute
(into the buffer given) and ranges are half-open (start, end).
"""
import base64

SIG, PUBKEY, PUBSUB, UID, UATTR, LIT, ONEPASS, COMP, MARKER = 2, 6, 14, 13, 17, 11, 4, 8, 10


class Packet:
    __slots__ = ("start", "body", "end", "tag", "new", "partial")

    def __init__(self, start, body, end, tag, new, partial):
        self.start, self.body, self.end = start, body, end
        self.tag, self.new, self.partial = tag, new, partial

    def __repr__(self):
        return "Packet(tag=%d %d+%d..%d)" % (self.tag, self.start, self.body - self.start, self.end)


def _new_len(buf, pos):
    """OpenPGP-format length at pos: (length, header octets, partial)."""
    if pos >= len(buf):
        return None
    o = buf[pos]
    if o < 192:
        return o, 1, False
    if o < 224:
        if pos + 1 >= len(buf):
            return None
        return ((o - 192) << 8) + buf[pos + 1] + 192, 2, False
    if o == 255:
        if len(buf) - pos < 5:
            return None
        return int.from_bytes(buf[pos + 1:pos + 5], "big"), 5, False
    return 1 << (o & 0x1F), 1, True


def packets(buf):
    """Split buf into packets. Returns (list, clean): clean is False when
    trailing octets did not form a packet."""
    out = []
    pos = 0
    n = len(buf)
    while pos < n:
        ctb = buf[pos]
        if not ctb & 0x80:
            return out, False
        if ctb & 0x40:
            tag = ctb & 0x3F
            hl = _new_len(buf, pos + 1)
            if hl is None:
                return out, False
            ln, lo, partial = hl
            body = pos + 1 + lo
            end = body + ln
            anyp = partial
            while partial:
                if end > n:
                    return out, False
                hl = _new_len(buf, end)
                if hl is None:
                    return out, False
                ln, lo, partial = hl
                end = end + lo + ln
            if end > n:
                return out, False
            out.append(Packet(pos, body, end, tag, True, anyp))
        else:
            tag = (ctb >> 2) & 0x0F
            lt = ctb & 3
            if lt == 3:
                body, end = pos + 1, n
            else:
                lo = 1 << lt
                if pos + 1 + lo > n:
                    return out, False
                body = pos + 1 + lo
                end = body + int.from_bytes(buf[pos + 1:body], "big")
            if end > n:
                return out, False
            out.append(Packet(pos, body, end, tag, False, False))
        pos = end
    return out, True


def _mpis(buf, pos, end, count):
    """count MPIs from pos: list of (start, end) including the bit count."""
    out = []
    for _ in range(count):
        if end - pos < 2:
            break
        bits = int.from_bytes(buf[pos:pos + 2], "big")
        ln = (bits + 7) // 8
        if ln > end - pos - 2:
            break
        out.append((pos, pos + 2 + ln))
        pos += 2 + ln
    return out


SIG_MPIS = {1: 1, 2: 1, 3: 1, 17: 2, 19: 2, 22: 2}


def subpackets(buf, start, end):
    """Subpackets of an area: list of (start, body, end, type octet offset)."""
    out = []
    pos = start
    while pos < end:
        o = buf[pos]
        if o < 192:
            ln, lo = o, 1
        elif o < 255:
            if end - pos < 2:
                break
            ln, lo = ((o - 192) << 8) + buf[pos + 1] + 192, 2
        else:
            if end - pos < 5:
                break
            ln, lo = int.from_bytes(buf[pos + 1:pos + 5], "big"), 5
        if ln < 1 or ln > end - pos - lo:
            break
        out.append((pos, pos + lo + 1, pos + lo + ln, pos + lo))
        pos += lo + ln
    return out


def sig_fields(buf, start, end, prefix="sig"):
    """Fields of a signature body buf[start:end] as {name: (a, b)}."""
    f = {}
    if end - start < 1:
        return f
    v = buf[start]
    f[prefix + ".version"] = (start, start + 1)
    if v == 3:
        if end - start < 19:
            return f
        f[prefix + ".hashed"] = (start + 2, start + 7)       # type + time
        f[prefix + ".type"] = (start + 2, start + 3)
        f[prefix + ".ctime"] = (start + 3, start + 7)
        f[prefix + ".issuer"] = (start + 7, start + 15)
        f[prefix + ".pkalgo"] = (start + 15, start + 16)
        f[prefix + ".hashalgo"] = (start + 16, start + 17)
        f[prefix + ".prefix"] = (start + 17, start + 19)
        pk = buf[start + 15]
        m = _mpis(buf, start + 19, end, SIG_MPIS.get(pk, 1))
        if m:
            f[prefix + ".mpi"] = (m[0][0], m[-1][1])
            f[prefix + ".mpi.count"] = (m[0][0], m[0][0] + 2)
        return f
    if v not in (4, 5, 6) or end - start < 6:
        return f
    f[prefix + ".type"] = (start + 1, start + 2)
    f[prefix + ".pkalgo"] = (start + 2, start + 3)
    f[prefix + ".hashalgo"] = (start + 3, start + 4)
    w = 4 if v == 6 else 2
    pos = start + 4
    if end - pos < w:
        return f
    hl = int.from_bytes(buf[pos:pos + w], "big")
    f[prefix + ".hashed.len"] = (pos, pos + w)
    pos += w
    if hl > end - pos:
        return f
    f[prefix + ".hashed"] = (pos, pos + hl)
    for (a, b, e, t) in subpackets(buf, pos, pos + hl):
        f.setdefault(prefix + ".hashed.sptype", []).append((t, t + 1))
        f.setdefault(prefix + ".hashed.splen", []).append((a, t))
        if buf[t] & 0x7F == 32:                    # embedded signature
            f.update(sig_fields(buf, b, e, prefix + ".embedded"))
            f[prefix + ".embedded"] = (b, e)
    pos += hl
    if end - pos < w:
        return f
    ul = int.from_bytes(buf[pos:pos + w], "big")
    f[prefix + ".unhashed.len"] = (pos, pos + w)
    pos += w
    if ul > end - pos:
        return f
    if ul:
        f[prefix + ".unhashed"] = (pos, pos + ul)
    for (a, b, e, t) in subpackets(buf, pos, pos + ul):
        f.setdefault(prefix + ".unhashed.sptype", []).append((t, t + 1))
        f.setdefault(prefix + ".unhashed.splen", []).append((a, t))
        if buf[t] & 0x7F == 32:
            f.update(sig_fields(buf, b, e, prefix + ".uembedded"))
    pos += ul
    if end - pos < 2:
        return f
    f[prefix + ".prefix"] = (pos, pos + 2)
    pos += 2
    if v == 6:
        if end - pos < 1:
            return f
        sl = buf[pos]
        f[prefix + ".salt"] = (pos, min(end, pos + 1 + sl))
        pos += 1 + sl
    pk = buf[start + 2]
    if pk in SIG_MPIS:
        m = _mpis(buf, pos, end, SIG_MPIS[pk])
        if m:
            f[prefix + ".mpi"] = (m[0][0], m[-1][1])
            f[prefix + ".mpi.count"] = (m[0][0], m[0][0] + 2)
    elif end > pos:
        f[prefix + ".mpi"] = (pos, end)
    return f


def key_fields(buf, start, end, prefix="key"):
    f = {}
    if end - start < 6:
        return f
    v = buf[start]
    f[prefix + ".version"] = (start, start + 1)
    f[prefix + ".ctime"] = (start + 1, start + 5)
    if v == 3:
        f[prefix + ".material"] = (start + 8, end)
        f[prefix + ".pkalgo"] = (start + 7, start + 8)
        return f
    f[prefix + ".pkalgo"] = (start + 5, start + 6)
    pos = start + 6 + (4 if v in (5, 6) else 0)
    if pos < end:
        f[prefix + ".material"] = (pos, end)
    if buf[start + 5] in (18, 19, 22) and pos < end:   # curve OID length
        f[prefix + ".oid"] = (pos, min(end, pos + 1 + buf[pos]))
    return f


def fields(buf, p):
    """Fields of one packet."""
    f = {"hdr": (p.start, p.body)} if p.body > p.start else {}
    if p.partial:
        return f
    if p.tag == SIG:
        f.update(sig_fields(buf, p.body, p.end))
    elif p.tag in (PUBKEY, PUBSUB):
        f.update(key_fields(buf, p.body, p.end))
    elif p.tag in (UID, UATTR):
        f["uid"] = (p.body, p.end)
    return f


def certs(buf, pkts):
    """Group packet indices into certificates (each starts at a primary key)."""
    out = []
    for i, p in enumerate(pkts):
        if p.tag == PUBKEY or not out:
            out.append([])
        out[-1].append(i)
    return out


def new_packet(tag, body):
    """An OpenPGP-format packet (RFC 9580 §4.2.1)."""
    n = len(body)
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        ln = bytes([((n - 192) >> 8) + 192, (n - 192) & 0xFF])
    else:
        ln = b"\xff" + n.to_bytes(4, "big")
    return bytes([0xC0 | tag]) + ln + body


# ---- armor (RFC 9580 §6) ----

def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(data, label="PGP SIGNATURE"):
    b = base64.b64encode(data).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    c = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return ("-----BEGIN %s-----\n\n%s\n=%s\n-----END %s-----\n"
            % (label, "\n".join(lines), c, label)).encode()


def dearmor(text):
    """(octets of the first armored block, start, end) or None."""
    s = text.find(b"-----BEGIN PGP ")
    if s < 0:
        return None
    e = text.find(b"-----END PGP ", s)
    if e < 0:
        return None
    head = text[s:e].split(b"\n")
    i = 1
    while i < len(head) and head[i].strip():
        i += 1
    body = [l.strip() for l in head[i + 1:] if l.strip() and not l.startswith(b"=")]
    le = text.find(b"\n", e)
    return base64.b64decode(b"".join(body)), s, (len(text) if le < 0 else le + 1)
