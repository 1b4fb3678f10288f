#!/usr/bin/env python3
"""adversarial.py - red-team vectors for `wotkit verify`: inputs crafted to
make a verifier say "good signature" when it must not.

    python3 vectors/gen/adversarial.py [OUTDIR]      (default vectors/adversarial)

Writes OUTDIR/{keys,sig,data,msg}/... and OUTDIR/MANIFEST (the column format
of vectors/verify/MANIFEST; run it with tests/cli/adversarial.sh).

Everything is built here from first principles (RFC 9580 packets, v4 keys
and signatures; v3 and v5 signatures where a case needs them) with python3
and the `cryptography` module: no gpg, no randomness. RSA keys come from
seeded primes, Ed25519 keys from fixed seeds, ECDSA signatures use RFC 6979
deterministic nonces, so the output is the same on every run.

Every case carries the verdict the specification demands (docs/semantics.md,
RFC 9580), never what wotkit happens to say; a case wotkit gets wrong is a
finding and its test fails until the library is fixed. Extra MANIFEST
columns beyond at=: out=FILE (with --output, the written content must equal
FILE) and uid=TEXT (the reported signer user ID).
"""
import base64
import hashlib
import os
import random
import struct
import sys
import zlib

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519
from cryptography.hazmat.primitives.asymmetric.utils import (
    Prehashed, decode_dss_signature)

# ---- times (unix) ----
KT = 1600000000          # 2020-09-13: key creation
BT = KT + 100            # self-signatures
ST = 1650000000          # 2022-04-15: data signatures
AT = 1710000000          # 2024-03-09: reference time of every case
YEAR = 365 * 86400

# ---- framing ----


def be16(x):
    return struct.pack(">H", x)


def be32(x):
    return struct.pack(">I", x)


def pkt(tag, body):
    """New-format packet header (RFC 9580 §4.2.1)."""
    n = len(body)
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        n -= 192
        ln = bytes([(n >> 8) + 192, n & 0xFF])
    else:
        ln = b"\xff" + be32(n)
    return bytes([0xC0 | tag]) + ln + body


def mpi(x):
    if isinstance(x, bytes):
        x = int.from_bytes(x, "big")
    return be16(x.bit_length()) + x.to_bytes((x.bit_length() + 7) // 8, "big")


def sp(typ, body, critical=False):
    """One signature subpacket (§5.2.3.7)."""
    n = len(body) + 1
    if n < 192:
        ln = bytes([n])
    elif n < 8384:
        n -= 192
        ln = bytes([(n >> 8) + 192, n & 0xFF])
    else:
        ln = b"\xff" + be32(n)
    return ln + bytes([typ | (0x80 if critical else 0)]) + body


def crc24(data):
    crc = 0xB704CE
    for b in data:
        crc ^= b << 16
        for _ in range(8):
            crc <<= 1
            if crc & 0x1000000:
                crc ^= 0x1864CFB
    return crc & 0xFFFFFF


def armor(label, data):
    b = base64.b64encode(data).decode()
    lines = [b[i:i + 64] for i in range(0, len(b), 64)]
    c = base64.b64encode(crc24(data).to_bytes(3, "big")).decode()
    return ("-----BEGIN %s-----\n\n%s\n=%s\n-----END %s-----\n" %
            (label, "\n".join(lines), c, label)).encode()


HASHES = {2: hashlib.sha1, 8: hashlib.sha256, 10: hashlib.sha512}
DIGESTINFO = {
    2: bytes.fromhex("3021300906052b0e03021a05000414"),
    8: bytes.fromhex("3031300d060960864801650304020105000420"),
    10: bytes.fromhex("3051300d060960864801650304020305000440"),
}
ED25519_L = 2 ** 252 + 27742317777372353535851937790883648493

# ---- deterministic RSA ----


def is_probable_prime(n, rng):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d //= 2
        s += 1
    for _ in range(24):
        a = rng.randrange(2, n - 2)
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def gen_prime(rng, bits, e):
    while True:
        p = rng.getrandbits(bits) | (3 << (bits - 2)) | 1
        if (p - 1) % e and is_probable_prime(p, rng):
            return p


def icbrt(x):
    """Integer cube root, rounded up."""
    lo, hi = 0, 1 << ((x.bit_length() + 2) // 3 + 1)
    while lo < hi:
        mid = (lo + hi) // 2
        if mid ** 3 < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


# ---- keys ----


class Key:
    algo = 0

    def __init__(self, created):
        self.created = created

    def body(self):
        return bytes([4]) + be32(self.created) + bytes([self.algo]) + self.material()

    def packet(self, sub=False):
        return pkt(14 if sub else 6, self.body())

    def hash_input(self):
        b = self.body()
        return b"\x99" + be16(len(b)) + b

    @property
    def fpr(self):
        return hashlib.sha1(self.hash_input()).digest()

    @property
    def keyid(self):
        return self.fpr[-8:]


class RSAKey(Key):
    algo = 1

    def __init__(self, seed, created, bits=2048, e=65537, n=None, d=None):
        super().__init__(created)
        self.e = e
        if n is not None:
            self.n, self.d = n, d
            return
        rng = random.Random(seed)
        while True:
            p = gen_prime(rng, bits // 2, e)
            q = gen_prime(rng, bits // 2, e)
            n = p * q
            if n.bit_length() == bits and p != q:
                break
        self.n = n
        self.d = pow(e, -1, (p - 1) * (q - 1))

    def material(self):
        return mpi(self.n) + mpi(self.e)

    def em(self, digest, halg):
        k = (self.n.bit_length() + 7) // 8
        t = DIGESTINFO[halg] + digest
        return b"\x00\x01" + b"\xff" * (k - len(t) - 3) + b"\x00" + t

    def sign(self, digest, halg):
        m = int.from_bytes(self.em(digest, halg), "big")
        return mpi(pow(m, self.d, self.n))


ED_LEGACY_OID = bytes.fromhex("2b06010401da470f01")


class EdKey(Key):
    """Ed25519 in a v4 key: EdDSALegacy (algorithm 22, what GnuPG 2.2 and
    sq 0.27 understand, so controls can be cross-checked) or, with
    native=True, RFC 9580 Ed25519 (algorithm 27)."""

    def __init__(self, seed, created, raw_pub=None, native=False):
        super().__init__(created)
        self.algo = 27 if native else 22
        self.sk = ed25519.Ed25519PrivateKey.from_private_bytes(
            hashlib.sha256(seed.encode()).digest())
        self.pub = raw_pub if raw_pub is not None else self.sk.public_key().public_bytes_raw()

    def material(self):
        if self.algo == 27:
            return self.pub
        return bytes([len(ED_LEGACY_OID)]) + ED_LEGACY_OID + mpi(b"\x40" + self.pub)

    def fmt(self, rs):
        """Signature material from the 64-octet native R || S."""
        return rs if self.algo == 27 else mpi(rs[:32]) + mpi(rs[32:])

    def sign(self, digest, halg):
        return self.fmt(self.sk.sign(digest))


P256_OID = bytes.fromhex("2a8648ce3d030107")
P256_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551


class ECKey(Key):
    algo = 19

    def __init__(self, seed, created, point=None):
        super().__init__(created)
        x = int.from_bytes(hashlib.sha256(seed.encode()).digest(), "big") % P256_N
        self.sk = ec.derive_private_key(x, ec.SECP256R1())
        nums = self.sk.public_key().public_numbers()
        self.point = point if point is not None else (
            b"\x04" + nums.x.to_bytes(32, "big") + nums.y.to_bytes(32, "big"))

    def material(self):
        return bytes([len(P256_OID)]) + P256_OID + mpi(self.point)

    def rs(self, digest, halg):
        hobj = {8: hashes.SHA256(), 10: hashes.SHA512()}[halg]
        der = self.sk.sign(digest, ec.ECDSA(Prehashed(hobj), deterministic_signing=True))
        return decode_dss_signature(der)

    def sign(self, digest, halg):
        r, s = self.rs(digest, halg)
        return mpi(r) + mpi(s)


class DSAKey(Key):
    algo = 17

    def __init__(self, created, p, q, g, y):
        super().__init__(created)
        self.p, self.q, self.g, self.y = p, q, g, y

    def material(self):
        return mpi(self.p) + mpi(self.q) + mpi(self.g) + mpi(self.y)


# ---- signatures ----


def std_hashed(signer, created, extra=b"", issuer_fpr=None):
    return (sp(2, be32(created)) + extra +
            sp(33, b"\x04" + (issuer_fpr if issuer_fpr is not None else signer.fpr)))


def v4sig(signer, typ, prefix, created=ST, hashed=None, unhashed=None, halg=8,
          extra=b"", issuer_fpr=None, issuer_kid=None, pk_algo=None, material=None):
    """A v4 signature packet (§5.2.3) over prefix (the signed content)."""
    if hashed is None:
        hashed = std_hashed(signer, created, extra, issuer_fpr)
    if unhashed is None:
        unhashed = sp(16, issuer_kid if issuer_kid is not None else signer.keyid)
    head = bytes([4, typ, pk_algo or signer.algo, halg]) + be16(len(hashed)) + hashed
    digest = HASHES[halg](prefix + head + b"\x04\xff" + be32(len(head))).digest()
    if material is None:
        material = signer.sign(digest, halg)
    elif callable(material):
        material = material(digest)
    return pkt(2, head + be16(len(unhashed)) + unhashed + digest[:2] + material)


def v3sig(signer, typ, prefix, created=ST, halg=8):
    """RFC 4880 §5.2.2 v3 signature."""
    digest = HASHES[halg](prefix + bytes([typ]) + be32(created)).digest()
    return pkt(2, bytes([3, 5, typ]) + be32(created) + signer.keyid +
               bytes([signer.algo, halg]) + digest[:2] + signer.sign(digest, halg))


def uid_input(uid):
    return b"\xb4" + be32(len(uid)) + uid


def certify(signer, key, uid, created=BT, flags=0x03, key_exp=None, primary=False,
            typ=0x13, issuer_fpr=None, extra=b"", unhashed=None):
    x = sp(27, bytes([flags])) if flags is not None else b""
    if key_exp is not None:
        x += sp(9, be32(key_exp))
    if primary:
        x += sp(25, b"\x01")
    return v4sig(signer, typ, key.hash_input() + uid_input(uid), created,
                 extra=x + extra, issuer_fpr=issuer_fpr, unhashed=unhashed)


def backsig(sub, primary, created=BT):
    return v4sig(sub, 0x19, primary.hash_input() + sub.hash_input(), created)


def bind(signer, primary, sub, created=BT, flags=0x02, back=True, back_unhashed=False,
         issuer_fpr=None, key_exp=None, unhashed_extra=b""):
    """Subkey binding 0x18 by `signer` over primary+sub; back: True (sub makes
    the 0x19 over primary), a packet (embedded as is), or False."""
    x = sp(27, bytes([flags]))
    if key_exp is not None:
        x += sp(9, be32(key_exp))
    un = sp(16, signer.keyid) + unhashed_extra if unhashed_extra else None
    if back is True:
        back = backsig(sub, primary)
    if back:
        emb = sp(32, body_of(back))
        if back_unhashed:
            un = emb + sp(16, signer.keyid) + unhashed_extra
        else:
            x += emb
    return v4sig(signer, 0x18, primary.hash_input() + sub.hash_input(), created,
                 extra=x, issuer_fpr=issuer_fpr, unhashed=un)


def body_of(packet):
    """Body of one new-format packet made by pkt()."""
    o = packet[1]
    if o < 192:
        return packet[2:]
    if o < 255:
        return packet[3:]
    return packet[6:]


def uidpkt(uid):
    return pkt(13, uid)


def cert(primary, uids=(), subs=(), dsigs=()):
    out = primary.packet()
    for s in dsigs:
        out += s
    for u, sigs in uids:
        out += uidpkt(u)
        for s in sigs:
            out += s
    for k, sigs in subs:
        out += k.packet(sub=True)
        for s in sigs:
            out += s
    return out


# ---- messages ----


def ops(signer, typ=0x00, halg=8, nested=1, keyid=None):
    return pkt(4, bytes([3, typ, halg, signer.algo]) + (keyid or signer.keyid) + bytes([nested]))


def literal(data, fmt=b"b", name=b"", date=ST):
    return pkt(11, fmt + bytes([len(name)]) + name + be32(date) + data)


def compressed(inner):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    return pkt(8, b"\x01" + c.compress(inner) + c.flush())


def text_canon(data):
    """§5.2.1.2 as docs/semantics.md: LF -> CR LF, CRs before LF dropped."""
    lines = data.split(b"\n")
    out = []
    for i, ln in enumerate(lines):
        if i < len(lines) - 1:
            out.append(ln.rstrip(b"\r") + b"\r\n")
        else:
            out.append(ln.rstrip(b"\r"))
    return b"".join(out)


def cleartext_canon(text):
    return b"\r\n".join(ln.rstrip(b"\r").rstrip(b" \t") for ln in text.split(b"\n"))


def cleartext_out(text):
    """What `--output` writes for a cleartext text (docs/semantics.md): the
    signed text, each line without its trailing whitespace (§7.2)."""
    return b"\n".join(ln.rstrip(b" \t") for ln in text.split(b"\n"))


def dash_escape(text):
    return b"\n".join((b"- " + ln) if ln.startswith(b"-") else ln for ln in text.split(b"\n"))


def cleartext_msg(signer, text, hash_hdr=b"SHA256", sig=None, escaped=None):
    if sig is None:
        sig = v4sig(signer, 0x01, cleartext_canon(text))
    hdr = b"-----BEGIN PGP SIGNED MESSAGE-----\n"
    if hash_hdr:
        hdr += b"Hash: " + hash_hdr + b"\n"
    body = escaped if escaped is not None else dash_escape(text)
    return hdr + b"\n" + body + b"\n" + armor("PGP SIGNATURE", sig)


# ---- the generator ----

# What wotkit said when these vectors were written, where it differs from
# the verdict demanded (the test fails until the library is fixed).
FINDINGS = {
    "binary-literal-holding-cleartext":
        "wotkit said good (the cleartext scan runs before the CTB check); gpgv: no signature found, "
        "sq: verification failed",
    "armored-message-then-cleartext":
        "wotkit said good from the victim; gpgv and sq verify the first (attacker's) message instead",
    "keyid-flood-8-certs":
        "wotkit said unusable-key (only MAX_CANDIDATES=8 certs are tried); sqv says good from the victim",
    "inline-sig-in-compressed-literal-outside": "wotkit said good; gpgv and sq refuse the message",
    "inline-ops-in-compressed-sig-outside": "wotkit said good; gpgv and sq refuse the message",
    "dsa-generator-order-2": "wotkit said good (g's order is never checked)",
    "revocation-misplaced-after-subkey": "wotkit said good; sqv: key is bad (revoked)",
    "subkey-revocation-on-other-subkey": "wotkit said good; sqv: key is bad (revoked)",
    "v5-binding-from-v3-oracle":
        "wotkit dd97a34 said GOOD from the victim; since 0a76eed (version match) it says malformed "
        "(the binding's own error, not unusable-key)",
    "binding-made-by-other-key": "wotkit says bad-signature (the binding's error leaks into the verdict)",
    "backsig-unhashed-binding-by-attacker": "wotkit says bad-signature (the binding's error)",
    "third-party-cert-as-selfsig": "wotkit says bad-signature (the user ID binding's error)",
    "subkey-binding-in-future": "wotkit says not-yet-valid (the binding's error)",
}


class Out:
    def __init__(self, top):
        self.top = top
        self.rows = []
        for d in ("keys", "sig", "data", "msg"):
            os.makedirs(os.path.join(top, d), exist_ok=True)

    def file(self, rel, data):
        with open(os.path.join(self.top, rel), "wb") as f:
            f.write(data)
        return rel

    def case(self, cid, kind, sig, data, keyrings, verdict, signer, note, **extra):
        if cid in FINDINGS:
            note += " FINDING: " + FINDINGS[cid]
        if isinstance(signer, Key):
            signer = signer.fpr.hex().upper()
        cols = [cid, kind, sig, data or "-", ",".join(keyrings), verdict, signer or "-", note,
                "at=%d" % extra.pop("at", AT)]
        for k in ("out", "uid"):
            if k in extra:
                cols.append("%s=%s" % (k, extra.pop(k)))
        assert not extra, extra
        assert "\t" not in "".join(cols) and "\n" not in "".join(cols)
        self.rows.append("\t".join(cols))

    def manifest(self):
        hdr = """# vectors/adversarial/MANIFEST - generated by vectors/gen/adversarial.py; do not edit.
# Columns (TAB-separated; paths relative to vectors/adversarial/), as vectors/verify/MANIFEST:
#   case_id  kind(detached|inline|cleartext)  sig_file  data_file|-  keyring_files(comma-separated)
#   expected_verdict  expected_signer_primary_fpr|-  note  at=<unix time>  [out=FILE]  [uid=TEXT]
# out=FILE: `--output` must write exactly FILE.  uid=TEXT: the reported signer user ID.
# The verdict is what RFC 9580 and docs/semantics.md demand, not what wotkit says; a case
# marked FINDING in its note is one wotkit got wrong when the vectors were written.
# Run: sh tests/cli/adversarial.sh
"""
        with open(os.path.join(self.top, "MANIFEST"), "w", encoding="utf-8") as f:
            f.write(hdr + "\n".join(self.rows) + "\n")


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "adversarial")
    o = Out(top)
    F = o.file

    # The cast. V (victim): RSA-2048 primary (certify+sign), Ed25519 signing
    # subkey VS with back-signature. A (attacker): Ed25519 primary.
    VP = RSAKey("victim-primary", KT)
    VS = EdKey("victim-subkey", KT + 10)
    VE = RSAKey("victim-e3", KT, e=3)
    AP = EdKey("attacker-primary", KT)
    AS = EdKey("attacker-subkey", KT + 10)
    W = EdKey("third-victim", KT)
    V_UID = b"Victim <victim@example.org>"
    A_UID = b"Attacker <attacker@example.net>"
    v_selfsig = certify(VP, VP, V_UID, primary=True)
    v_cert = cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)])])
    a_cert = cert(AP, [(A_UID, [certify(AP, AP, A_UID)])], [(AS, [bind(AP, AP, AS)])])
    K_V = F("keys/victim.pgp", v_cert)
    K_A = F("keys/attacker.pgp", a_cert)

    data = b"The quick brown fox pays the invoice of 100 EUR.\nSecond line.\n"
    other = b"The quick brown fox pays the invoice of 999 EUR.\nSecond line.\n"
    D = F("data/msg.txt", data)
    D2 = F("data/other.txt", other)

    # ================= positive controls =================
    F("sig/ctl-primary.sig", v4sig(VP, 0x00, data))
    o.case("ctl-rsa-primary", "detached", "sig/ctl-primary.sig", D, [K_V], "good", VP,
           "control: victim primary RSA-2048 binary signature", uid=V_UID.decode())
    F("sig/ctl-subkey.sig", v4sig(VS, 0x00, data))
    o.case("ctl-ed25519-subkey", "detached", "sig/ctl-subkey.sig", D, [K_V], "good", VP,
           "control: victim Ed25519 signing subkey with back-signature")
    F("sig/ctl-attacker.sig", v4sig(AS, 0x00, other))
    o.case("ctl-attacker-own", "detached", "sig/ctl-attacker.sig", D2, [K_A, K_V], "good", AP,
           "control: the attacker's own subkey signature is good from the attacker")
    crlf = data.replace(b"\n", b"\r\n")
    F("data/msg-crlf.txt", crlf)
    F("sig/ctl-text.sig", v4sig(VP, 0x01, text_canon(data)))
    o.case("ctl-text-crlf", "detached", "sig/ctl-text.sig", "data/msg-crlf.txt", [K_V], "good", VP,
           "control: a text (0x01) signature over LF text verifies the CR LF form (§5.2.1.2)")
    msg = ops(VP) + literal(data) + v4sig(VP, 0x00, data)
    F("msg/ctl-inline.pgp", msg)
    o.case("ctl-inline", "inline", "msg/ctl-inline.pgp", None, [K_V], "good", VP,
           "control: one-pass signed message; --output writes the literal", out=D)
    F("msg/ctl-inline.asc", armor("PGP MESSAGE", msg))
    o.case("ctl-inline-armored", "inline", "msg/ctl-inline.asc", None, [K_V], "good", VP,
           "control: the same, armored", out=D)
    ct_text = b"Pay 100 EUR to Bob.\n-- \nVictim"
    F("data/ct-text.txt", cleartext_out(ct_text))
    ct = cleartext_msg(VS, ct_text)
    F("msg/ctl-cleartext.asc", ct)
    o.case("ctl-cleartext", "cleartext", "msg/ctl-cleartext.asc", None, [K_V], "good", VP,
           "control: cleartext signed by the subkey, dash-escaped line; --output is the text",
           out="data/ct-text.txt")
    F("sig/ctl-v3.sig", v3sig(VP, 0x00, data))
    o.case("ctl-v3-sig", "detached", "sig/ctl-v3.sig", D, [K_V], "good", VP,
           "control: v3 (RFC 4880 §5.2.2) binary signature by the RSA primary")
    ve_cert = cert(VE, [(b"E3 <e3@example.org>", [certify(VE, VE, b"E3 <e3@example.org>")])])
    K_E3 = F("keys/victim-e3.pgp", ve_cert)
    F("sig/ctl-e3.sig", v4sig(VE, 0x00, data))
    o.case("ctl-rsa-e3", "detached", "sig/ctl-e3.sig", D, [K_E3], "good", VE,
           "control: RSA-2048 key with e=3 (legal), genuine signature")
    EC = ECKey("victim-ecdsa", KT)
    ec_cert = cert(EC, [(b"EC <ec@example.org>", [certify(EC, EC, b"EC <ec@example.org>")])])
    K_EC = F("keys/victim-p256.pgp", ec_cert)
    F("sig/ctl-ecdsa.sig", v4sig(EC, 0x00, data))
    o.case("ctl-ecdsa", "detached", "sig/ctl-ecdsa.sig", D, [K_EC], "good", EC,
           "control: ECDSA P-256")

    EN = EdKey("native-ed25519", KT, native=True)
    K_EN = F("keys/ed25519-native.pgp", cert(EN, [(b"Native <n@example.org>", [
        certify(EN, EN, b"Native <n@example.org>")])]))
    F("sig/ctl-ed25519-native.sig", v4sig(EN, 0x00, data))
    o.case("ctl-ed25519-native", "detached", "sig/ctl-ed25519-native.sig", D, [K_EN], "good", EN,
           "control: RFC 9580 Ed25519 (algorithm 27) in a v4 key")
    EDN = EdKey("ed-ident-native", KT, raw_pub=b"\x01" + b"\x00" * 31, native=True)
    K_EDN = F("keys/ed25519-native-identity-bare.pgp", EDN.packet())
    F("sig/ed25519-native-identity.sig", v4sig(EDN, 0x00, data,
                                               material=b"\x01" + b"\x00" * 63))
    o.case("ed25519-native-identity-key", "detached", "sig/ed25519-native-identity.sig", D, [K_EDN],
           "bad-signature", "-", "algorithm 27: identity public key, R = identity, S = 0")

    # ================= key / issuer confusion =================
    F("sig/kid-a-fpr-v.sig", v4sig(AS, 0x00, data, issuer_fpr=VS.fpr, issuer_kid=AS.keyid))
    o.case("issuer-kid-attacker-fpr-victim", "detached", "sig/kid-a-fpr-v.sig", D, [K_A, K_V],
           "bad-signature", VP,
           "made by the attacker subkey; hashed issuer fpr = victim subkey, unhashed key ID = attacker: "
           "the fingerprint wins and the math fails")
    F("sig/kid-v-fpr-a.sig", v4sig(VS, 0x00, data, issuer_fpr=AS.fpr, issuer_kid=VS.keyid))
    o.case("issuer-fpr-attacker-made-by-victim", "detached", "sig/kid-v-fpr-a.sig", D, [K_A, K_V],
           "bad-signature", AP,
           "made by the victim subkey but naming the attacker's fingerprint: never good from either")
    fake_fpr = bytes(b ^ 0x5A for b in VS.fpr[:12]) + VS.fpr[12:]
    F("sig/fpr-low64.sig", v4sig(VS, 0x00, data, issuer_fpr=fake_fpr))
    o.case("issuer-fpr-low64-only", "detached", "sig/fpr-low64.sig", D, [K_V], "no-key", "-",
           "genuine victim signature whose issuer fingerprint matches the subkey only in its low "
           "64 bits (the key ID): the whole fingerprint must match (semantics.md 5)")

    # attacker binds the victim's subkey VS into his own cert, no back-signature
    a_steal = cert(AP, [(A_UID, [certify(AP, AP, A_UID)])], [(VS, [bind(AP, AP, VS, back=False)])])
    K_AST = F("keys/attacker-steals-subkey.pgp", a_steal)
    o.case("stolen-subkey-attacker-only", "detached", "sig/ctl-subkey.sig", D, [K_AST],
           "unusable-key", AP,
           "attacker cert binds the victim's signing subkey (no back-signature): a victim "
           "signature must not be good from the attacker")
    o.case("stolen-subkey-both-certs", "detached", "sig/ctl-subkey.sig", D, [K_AST, K_V], "good", VP,
           "same, with the victim cert too (attacker's first): good, attributed to the victim only",
           uid=V_UID.decode())
    a_steal2 = cert(AP, [(A_UID, [certify(AP, AP, A_UID)])],
                    [(VS, [bind(AP, AP, VS, back=backsig(VS, VP))])])
    K_AST2 = F("keys/attacker-steals-subkey-backsig.pgp", a_steal2)
    o.case("stolen-subkey-copied-backsig", "detached", "sig/ctl-subkey.sig", D, [K_AST2],
           "unusable-key", AP,
           "attacker binds the victim subkey and embeds the victim's genuine back-signature "
           "(made over the victim's primary, not the attacker's)")
    a_steal3 = cert(AP, [(A_UID, [certify(AP, AP, A_UID)])], [(VP, [bind(AP, AP, VP, back=False)])])
    K_AST3 = F("keys/attacker-steals-primary.pgp", a_steal3)
    o.case("stolen-primary-as-subkey", "detached", "sig/ctl-primary.sig", D, [K_AST3],
           "unusable-key", AP,
           "attacker binds the victim's PRIMARY key as his signing subkey (no back-signature)")

    # key ID flooding: 8 attacker certs that each hold VS come before the victim
    flood = b""
    for i in range(8):
        ak = EdKey("flood-%d" % i, KT)
        u = b"Flood %d" % i
        flood += cert(ak, [(u, [certify(ak, ak, u)])], [(VS, [bind(ak, ak, VS, back=False)])])
    K_FLOOD = F("keys/flood-8.pgp", flood)
    o.case("keyid-flood-8-certs", "detached", "sig/ctl-subkey.sig", D, [K_FLOOD, K_V], "good", VP,
           "8 attacker certs carrying the victim subkey are loaded before the victim cert: the "
           "genuine signature must still be found good (MAX_CANDIDATES must not hide the real cert)")

    # subkey binding by another key; back-signature by another key / over another primary
    C = RSAKey("cert-c", KT)
    C_UID = b"Carol <carol@example.org>"
    CS = EdKey("carol-sub", KT + 10)
    CS2 = EdKey("carol-sub2", KT + 10)
    c_selfsig = certify(C, C, C_UID)

    def carol(subs):
        return cert(C, [(C_UID, [c_selfsig])], subs)

    F("sig/carol-sub.sig", v4sig(CS, 0x00, data))
    K_C_OK = F("keys/carol-ok.pgp", carol([(CS, [bind(C, C, CS)])]))
    o.case("ctl-carol-subkey", "detached", "sig/carol-sub.sig", D, [K_C_OK], "good", C,
           "control: Carol's properly bound subkey")
    K_C1 = F("keys/carol-binding-by-attacker.pgp",
             carol([(CS, [bind(AP, C, CS, issuer_fpr=C.fpr)])]))
    o.case("binding-made-by-other-key", "detached", "sig/carol-sub.sig", D, [K_C1], "unusable-key", C,
           "subkey binding (0x18) made by the attacker's key, claiming Carol's issuer fingerprint")
    K_C2 = F("keys/carol-backsig-by-sub2.pgp",
             carol([(CS, [bind(C, C, CS, back=v4sig(CS2, 0x19, C.hash_input() + CS.hash_input(), BT,
                                                     issuer_fpr=CS.fpr, issuer_kid=CS.keyid))]),
                    (CS2, [bind(C, C, CS2)])]))
    o.case("backsig-by-other-subkey", "detached", "sig/carol-sub.sig", D, [K_C2], "unusable-key", C,
           "the embedded 0x19 of CS's binding (over Carol+CS, naming CS as issuer) was made by "
           "Carol's other subkey CS2")
    K_C3 = F("keys/carol-backsig-other-primary.pgp", carol([(CS, [bind(C, C, CS, back=backsig(CS, AP))])]))
    o.case("backsig-over-other-primary", "detached", "sig/carol-sub.sig", D, [K_C3], "unusable-key", C,
           "the back-signature was made by the subkey, but over the attacker's primary")
    # attacker owns subkey X, consents (back-signature over Carol's primary), but Carol never bound it
    X = EdKey("attacker-x", KT + 10)
    F("sig/x.sig", v4sig(X, 0x00, data))
    K_C4 = F("keys/carol-unhashed-backsig-foreign-binding.pgp",
             carol([(X, [bind(AP, C, X, back=backsig(X, C), back_unhashed=True, issuer_fpr=C.fpr)])]))
    o.case("backsig-unhashed-binding-by-attacker", "detached", "sig/x.sig", D, [K_C4], "unusable-key", C,
           "attacker subkey X with a valid back-signature over Carol's primary in the UNHASHED "
           "area of a binding made by the attacker's key (claiming Carol)")
    K_C5 = F("keys/carol-backsig-only.pgp", carol([(X, [backsig(X, C)])]))
    o.case("backsig-without-binding", "detached", "sig/x.sig", D, [K_C5], "unusable-key", C,
           "attacker subkey X followed only by its own 0x19 over Carol's primary, no 0x18")

    K_C6 = F("keys/carol-enc-subkey-unhashed-sign-flag.pgp",
             carol([(CS, [bind(C, C, CS, flags=0x0C, unhashed_extra=sp(27, b"\x02"))])]))
    o.case("key-flags-sign-unhashed", "detached", "sig/carol-sub.sig", D, [K_C6], "unusable-key", C,
           "subkey bound encrypt-only (hashed key flags 0x0C, back-signature present) with a 'sign' "
           "key flags subpacket added to the UNHASHED area")

    # third-party certification as a self-signature
    F("sig/w.sig", v4sig(W, 0x00, data))
    K_W1 = F("keys/w-third-party-only.pgp",
             cert(W, [(b"W <w@example.org>", [certify(AP, W, b"W <w@example.org>", issuer_fpr=W.fpr)])]))
    o.case("third-party-cert-as-selfsig", "detached", "sig/w.sig", D, [K_W1], "unusable-key", W,
           "W's only user ID certification was made by the attacker's key but names W as issuer")
    K_W2 = F("keys/w-third-party-honest.pgp",
             cert(W, [(b"W <w@example.org>", [certify(AP, W, b"W <w@example.org>")])]))
    o.case("third-party-cert-only", "detached", "sig/w.sig", D, [K_W2], "unusable-key", W,
           "W's only user ID certification is an honest third-party one (issuer = attacker)")

    # attacker adds a user ID to the victim's cert with a copied self-signature
    K_VUID = F("keys/victim-extra-uid.pgp",
               cert(VP, [(V_UID, [v_selfsig]),
                         (A_UID, [v_selfsig, certify(AP, VP, A_UID, primary=True)])],
                    [(VS, [bind(VP, VP, VS)])]))
    o.case("added-uid-copied-selfsig", "detached", "sig/ctl-primary.sig", D, [K_VUID], "good", VP,
           "attacker appends user ID 'Attacker' with the victim's self-signature (over the other "
           "user ID, primary flag) copied under it and his own primary-flagged certification: the "
           "reported user ID stays the victim's", uid=V_UID.decode())

    # expiry and direct-key signatures by another key
    VX = RSAKey("victim-expiring", KT)
    VX_UID = b"Expiring <exp@example.org>"
    vx_sig = certify(VX, VX, VX_UID, key_exp=YEAR)
    F("sig/vx-late.sig", v4sig(VX, 0x00, data, created=KT + 2 * YEAR))
    K_VX = F("keys/vx.pgp", cert(VX, [(VX_UID, [vx_sig])]))
    o.case("key-expired-at-signing", "detached", "sig/vx-late.sig", D, [K_VX], "expired", VX,
           "control: key expires after a year, signature made in its second year")
    K_VX1 = F("keys/vx-dk-by-attacker.pgp",
              cert(VX, [(VX_UID, [vx_sig])], dsigs=[
                  v4sig(AP, 0x1F, VX.hash_input(), created=KT + YEAR // 2,
                        extra=sp(27, b"\x03") + sp(9, be32(0)), issuer_fpr=VX.fpr)]))
    o.case("direct-key-by-attacker-unexpires", "detached", "sig/vx-late.sig", D, [K_VX1], "expired", VX,
           "a direct-key signature made by the attacker (issuer = victim) with key expiry 0 must not "
           "undo the expiry")
    F("sig/vx-early.sig", v4sig(VX, 0x00, data, created=KT + 1000))
    older_noexp = certify(VX, VX, VX_UID, created=BT - 50)
    K_VX2 = F("keys/vx-reordered.pgp", cert(VX, [(VX_UID, [vx_sig, older_noexp])]))
    o.case("older-selfsig-last-in-file", "detached", "sig/vx-late.sig", D, [K_VX2], "expired", VX,
           "an older self-signature without expiry is placed after the newer one with expiry: "
           "the newest by creation time is in force, not the last in the file")
    K_VX3 = F("keys/vx-unhashed-no-expiry.pgp", cert(VX, [(VX_UID, [
        certify(VX, VX, VX_UID, key_exp=YEAR, unhashed=sp(16, VX.keyid) + sp(9, be32(0)))])]))
    o.case("key-expiry-zero-unhashed", "detached", "sig/vx-late.sig", D, [K_VX3], "expired", VX,
           "a key expiration of 0 (never) added to the UNHASHED area of the self-signature does not "
           "override the hashed one-year expiry")
    o.case("ctl-vx-early", "detached", "sig/vx-early.sig", D, [K_VX2], "good", VX,
           "control: the same key verifies a signature made before it expired")

    # revocations
    rev_by_a = v4sig(AP, 0x20, VP.hash_input(), created=ST - 100, extra=sp(29, b"\x02"), issuer_fpr=VP.fpr)
    K_VR1 = F("keys/victim-revoked-by-attacker.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)])], dsigs=[rev_by_a]))
    o.case("revocation-by-other-key", "detached", "sig/ctl-primary.sig", D, [K_VR1], "good", VP,
           "a key revocation made by the attacker's key (claiming the victim) is ignored")
    hard_rev_soft_unhashed = v4sig(VP, 0x20, VP.hash_input(), created=ST + 100,
                                   unhashed=sp(16, VP.keyid) + sp(29, b"\x01superseded"))
    K_VR2 = F("keys/victim-revoked-reason-unhashed.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)])], dsigs=[hard_rev_soft_unhashed]))
    o.case("revocation-soft-reason-unhashed", "detached", "sig/ctl-primary.sig", D, [K_VR2], "revoked", VP,
           "key revocation (made after the signature) without a hashed reason (= hard) and a "
           "'superseded' reason in the UNHASHED area: the unhashed reason must not soften it")
    real_rev = v4sig(VP, 0x20, VP.hash_input(), created=ST + 100, extra=sp(29, b"\x02"))
    K_VR3 = F("keys/victim-revoked.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)])], dsigs=[real_rev]))
    o.case("ctl-revoked-hard", "detached", "sig/ctl-primary.sig", D, [K_VR3], "revoked", VP,
           "control: key revocation, reason compromised")
    K_VR4 = F("keys/victim-revocation-after-subkey.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS), real_rev])]))
    o.case("revocation-misplaced-after-subkey", "detached", "sig/ctl-primary.sig", D, [K_VR4],
           "revoked", VP,
           "the same valid key revocation (0x20 over the primary) placed after the subkey instead "
           "of after the primary key (as a careless merge may leave it): it still revokes")
    sub_rev = v4sig(VP, 0x28, VP.hash_input() + VS.hash_input(), created=ST + 100, extra=sp(29, b"\x02"))
    VS2 = EdKey("victim-subkey-2", KT + 10)
    K_VR5 = F("keys/victim-subkey-revocation-misplaced.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)]), (VS2, [bind(VP, VP, VS2), sub_rev])]))
    o.case("subkey-revocation-on-other-subkey", "detached", "sig/ctl-subkey.sig", D, [K_VR5], "revoked", VP,
           "a valid compromise revocation of subkey VS placed under subkey VS2: it still revokes VS")

    # ================= hash framing =================
    good = v4sig(VP, 0x00, data)
    b = body_of(good)
    hl = struct.unpack(">H", b[4:6])[0]
    F("sig/hashed-len-minus.sig", pkt(2, b[:4] + be16(hl - 6) + b[6:]))
    o.case("hashed-length-lie", "detached", "sig/hashed-len-minus.sig", D, [K_V], "malformed", "-",
           "hashed area length of a genuine signature decreased by 6 (the issuer fingerprint subpacket "
           "then runs past the area)")
    F("sig/type-0-as-1.sig", pkt(2, b[:1] + b"\x01" + b[2:]))
    o.case("binary-sig-relabelled-text", "detached", "sig/type-0-as-1.sig", D, [K_V], "bad-signature", VP,
           "a genuine binary signature with its type octet changed to 0x01")
    F("sig/text-over-crlf.sig", v4sig(VP, 0x00, crlf))
    o.case("binary-crlf-vs-lf", "detached", "sig/text-over-crlf.sig", D, [K_V], "bad-signature", VP,
           "binary (0x00) signature over the CR LF form does not verify the LF form")
    # v4 signature rewritten as v3 with the same MPI
    mat = b[8 + hl + struct.unpack(">H", b[6 + hl:8 + hl])[0]:]
    F("sig/v4-as-v3.sig", pkt(2, bytes([3, 5, 0]) + be32(ST) + VP.keyid + bytes([1, 8]) + mat))
    o.case("v4-sig-as-v3", "detached", "sig/v4-as-v3.sig", D, [K_V], "bad-signature", VP,
           "trailer confusion: the v4 signature's prefix and MPI in a v3 packet")
    # v3 signature over D' re-read as a v5 signature over D (same digest!)
    v5_hashed = sp(2, be32(ST)) + sp(33, b"\x04" + VP.fpr)
    v5_head = bytes([5, 0x00, 1, 8]) + be16(len(v5_hashed)) + v5_hashed
    d3 = data + v5_head + b"\x05\xff\x00\x00\x00"
    v3 = body_of(v3sig(VP, 0x00, d3, created=len(v5_head)))
    F("data/v3-oracle-input.bin", d3)
    F("sig/v3-oracle.sig", pkt(2, v3))
    F("sig/v3-to-v5.sig", pkt(2, v5_head + be16(10) + sp(16, VP.keyid) + v3[17:]))
    o.case("v3-sig-reread-as-v5-doc", "detached", "sig/v3-to-v5.sig", D, [K_V], "unsupported", VP,
           "a v3 binary signature (created = 26) over D||v5 head||05 FF 00 00 00 has the digest of a "
           "v5 signature over D: v5 document signatures are refused")
    # the same confusion inside a certificate: a v5 subkey binding forged from a v3 oracle signature
    Z = EdKey("attacker-z", KT + 10)
    zb_hashed = sp(2, be32(BT)) + sp(27, b"\x02") + sp(32, body_of(
        v4sig(Z, 0x19, VP.hash_input() + Z.hash_input(), BT)))
    zb_head = bytes([5, 0x18, 1, 8]) + be16(len(zb_hashed)) + zb_hashed
    vp5 = VP.body()
    z5 = Z.body()
    oracle_in = (b"\x9a" + be32(len(vp5)) + vp5 + b"\x9a" + be32(len(z5)) + z5 +
                 zb_head + b"\x05\xff\x00\x00\x00")
    ov3 = body_of(v3sig(VP, 0x00, oracle_in, created=len(zb_head)))
    zbind = pkt(2, zb_head + be16(10) + sp(16, VP.keyid) + ov3[17:])
    F("data/v5-binding-oracle-input.bin", oracle_in)
    K_V5 = F("keys/victim-v5-binding.pgp",
             cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS)]), (Z, [zbind])]))
    F("sig/z.sig", v4sig(Z, 0x00, other))
    o.case("v5-binding-from-v3-oracle", "detached", "sig/z.sig", D2, [K_V5], "unusable-key", VP,
           "attacker subkey Z bound by a v5 (LibrePGP) 0x18 signature whose digest equals that of a "
           "v3 binary signature the victim made over chosen data (created = hashed length): a v5 "
           "signature over a v4 key must not bind it")

    # cleartext
    F("msg/ct-hash-header-mismatch.asc", cleartext_msg(VS, ct_text, hash_hdr=b"SHA512"))
    o.case("cleartext-hash-header-mismatch", "cleartext", "msg/ct-hash-header-mismatch.asc", None, [K_V],
           "malformed", "-", "Hash: SHA512 header, SHA-256 signature")
    trick = b"Pay 100 EUR to Bob.\n-----BEGIN PGP SIGNATURE-----\nfake\n-----END PGP SIGNATURE-----\nok"
    F("data/ct-trick.txt", cleartext_out(trick))
    F("msg/ct-escaped-armor.asc", cleartext_msg(VS, trick))
    o.case("cleartext-escaped-armor-lines", "cleartext", "msg/ct-escaped-armor.asc", None, [K_V], "good", VP,
           "text holding dash-escaped BEGIN/END PGP SIGNATURE lines: good, and --output is the whole "
           "unescaped text", out="data/ct-trick.txt")
    ct_sig = v4sig(VS, 0x01, cleartext_canon(ct_text))
    unesc = b"-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nPay 100 EUR to Bob.\n" + \
        armor("PGP SIGNATURE", ct_sig) + b"\nPay 9999 EUR to Mallory.\n-- \nVictim\n" + \
        armor("PGP SIGNATURE", ct_sig)
    F("msg/ct-unescaped-early-sig.asc", unesc)
    o.case("cleartext-signature-block-in-text", "cleartext", "msg/ct-unescaped-early-sig.asc", None, [K_V],
           "malformed", "-",
           "an unescaped signature block cuts the text early; text and a second block follow")
    nested = b"Pay 100 EUR to Bob.\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nPay 1 EUR"
    F("msg/ct-nested.asc", cleartext_msg(VS, nested))
    o.case("cleartext-containing-signed-message", "cleartext", "msg/ct-nested.asc", None, [K_V], "good", VP,
           "text that itself contains a (dash-escaped) BEGIN PGP SIGNED MESSAGE header",
           out=F("data/ct-nested.txt", cleartext_out(nested)))
    ws = ct.replace(b"Pay 100 EUR to Bob.", b"Pay 100 EUR to Bob. \t ")
    F("msg/ct-trailing-ws.asc", ws)
    o.case("cleartext-trailing-ws-added", "cleartext", "msg/ct-trailing-ws.asc", None, [K_V], "good", VP,
           "trailing blanks added to a line are not signed (§7.2), so still good")
    F("msg/ct-inner-ws.asc", ct.replace(b"Pay 100 EUR", b"Pay  100 EUR"))
    o.case("cleartext-inner-ws-changed", "cleartext", "msg/ct-inner-ws.asc", None, [K_V], "bad-signature", VP,
           "a blank doubled inside a line")
    F("msg/ct-cr-line.asc", ct.replace(b"Pay 100 EUR to Bob.\n", b"Pay 100 EUR to Bob.\r"))
    o.case("cleartext-cr-only-line-break", "cleartext", "msg/ct-cr-line.asc", None, [K_V], "bad-signature", VP,
           "the LF after the first line replaced by a lone CR (a CR is data unless it precedes LF)")
    F("msg/ct-nul.asc", ct.replace(b"Pay 100 EUR to Bob.", b"Pay 100 EUR to Bob.\x00 and 9999 to Mallory"))
    o.case("cleartext-nul-suffix", "cleartext", "msg/ct-nul.asc", None, [K_V], "bad-signature", VP,
           "a NUL and more text appended to a signed line (no C-string truncation)")
    F("msg/ct-appended.asc", ct + b"\nPay 9999 EUR to Mallory.\n")
    o.case("cleartext-text-after-signature", "cleartext", "msg/ct-appended.asc", None, [K_V], "malformed", "-",
           "unsigned text after the END PGP SIGNATURE line")
    F("msg/ct-second-block-attacker.asc", ct + armor("PGP SIGNATURE", v4sig(AS, 0x01, cleartext_canon(ct_text))))
    o.case("cleartext-second-sig-block", "cleartext", "msg/ct-second-block-attacker.asc", None, [K_V, K_A],
           "good", VP, "a second signature block (the attacker's) after the victim's: both verify; "
           "the first good one is reported, the victim", out="data/ct-text.txt")
    # binary message whose literal data holds the victim's cleartext message
    lit_ct = literal(b"Unsigned note from Mallory: pay 9999 EUR.\n" + ct)
    F("msg/binary-literal-with-cleartext.pgp", lit_ct)
    o.case("binary-literal-holding-cleartext", "inline", "msg/binary-literal-with-cleartext.pgp", None, [K_V],
           "malformed", "-",
           "a BINARY message (first octet is a CTB) with one unsigned literal packet whose data "
           "contains the victim's cleartext message: the message is not signed")
    F("msg/armored-msg-then-cleartext.asc",
      armor("PGP MESSAGE", ops(AS) + literal(b"pay 9999 EUR\n") + v4sig(AS, 0x00, b"pay 9999 EUR\n")) +
      b"\n" + ct)
    o.case("armored-message-then-cleartext", "inline", "msg/armored-msg-then-cleartext.asc", None, [K_V],
           "malformed", "-",
           "an armored one-pass signed message by the attacker followed by the victim's cleartext "
           "message: two messages in one input")

    # detached: two signatures, armor games
    F("sig/two-sigs.sig", v4sig(VP, 0x00, other) + v4sig(AS, 0x00, data))
    o.case("detached-two-sigs-wrong-data", "detached", "sig/two-sigs.sig", D, [K_V], "bad-signature", VP,
           "victim signature over other data, then an attacker signature (key not in the keyring)")
    F("sig/two-blocks.asc", armor("PGP SIGNATURE", v4sig(VP, 0x00, other)) +
      b"garbage\n" + armor("PGP SIGNATURE", v4sig(AS, 0x00, data)))
    o.case("armor-two-blocks", "detached", "sig/two-blocks.asc", D, [K_V], "bad-signature", VP,
           "two armor blocks: the victim's signature is over other data, the second is the "
           "attacker's (no key)")

    # ================= message structure =================
    sigV = v4sig(VP, 0x00, data)
    F("msg/two-literals.pgp", ops(VP) + literal(data) + literal(other) + sigV)
    o.case("inline-two-literals", "inline", "msg/two-literals.pgp", None, [K_V], "malformed", "-",
           "OPS, literal, second literal, signature")
    F("msg/literal-after-sig.pgp", ops(VP) + literal(data) + sigV + literal(other))
    o.case("inline-literal-after-sig", "inline", "msg/literal-after-sig.pgp", None, [K_V], "malformed", "-",
           "a second literal after the signature")
    F("msg/ops2-sig1.pgp", ops(VP) + ops(VP) + literal(data) + sigV)
    o.case("inline-ops-count-2-sigs-1", "inline", "msg/ops2-sig1.pgp", None, [K_V], "malformed", "-",
           "two one-pass signature packets, one signature")
    F("msg/ops1-sig2.pgp", ops(VP) + literal(data) + sigV + v4sig(AS, 0x00, data))
    o.case("inline-ops-count-1-sigs-2", "inline", "msg/ops1-sig2.pgp", None, [K_V], "malformed", "-",
           "one one-pass signature packet, two signatures after the literal")
    F("msg/sigfirst-wrong-literal.pgp", sigV + literal(other))
    o.case("inline-sig-covers-other-literal", "inline", "msg/sigfirst-wrong-literal.pgp", None, [K_V],
           "bad-signature", VP, "signature-first message whose signature covers another literal")
    F("msg/comp-signed-then-literal.pgp", compressed(ops(VP) + literal(data) + sigV) + literal(other))
    o.case("inline-compressed-signed-plus-literal", "inline", "msg/comp-signed-then-literal.pgp", None, [K_V],
           "malformed", "-", "a compressed signed message followed by an unsigned literal")
    F("msg/literal-then-comp-signed.pgp", literal(other) + compressed(ops(VP) + literal(data) + sigV))
    o.case("inline-literal-plus-compressed-signed", "inline", "msg/literal-then-comp-signed.pgp", None, [K_V],
           "malformed", "-", "an unsigned literal followed by a compressed signed message")
    F("msg/ops-comp-literal-sig.pgp", ops(VP) + compressed(literal(data)) + sigV)
    o.case("ctl-inline-ops-compressed-literal", "inline", "msg/ops-comp-literal-sig.pgp", None, [K_V], "good", VP,
           "control: OPS, compressed(literal), signature (valid grammar, §10.3)", out=D)
    F("msg/comp-sig-literal-outside.pgp", compressed(sigV) + literal(data))
    o.case("inline-sig-in-compressed-literal-outside", "inline", "msg/comp-sig-literal-outside.pgp", None, [K_V],
           "malformed", "-",
           "compressed(signature) then a literal outside: the compressed packet is a message of its "
           "own and the literal a second message (§10.3 grammar)")
    F("msg/comp-ops-literal-sig-outside.pgp", compressed(ops(VP) + literal(data)) + sigV)
    o.case("inline-ops-in-compressed-sig-outside", "inline", "msg/comp-ops-literal-sig-outside.pgp", None,
           [K_V], "malformed", "-",
           "compressed(OPS, literal) then the signature outside the compressed packet")
    F("msg/nested-ops.pgp", ops(AS, nested=0) + ops(VP, nested=1) + literal(data) + sigV +
      v4sig(AS, 0x00, data))
    o.case("inline-nested-ops-flags", "inline", "msg/nested-ops.pgp", None, [K_V], "good", VP,
           "two OPS (outer nested=0 by the attacker, key absent); the victim's signature is good "
           "and --output is the literal", out=D)
    F("msg/two-armor-blocks-inline.asc", armor("PGP MESSAGE", msg) + armor("PGP MESSAGE", literal(other)))
    o.case("inline-armor-second-block-literal", "inline", "msg/two-armor-blocks-inline.asc", None, [K_V],
           "malformed", "-", "armored signed message followed by a second armor block with a literal")

    # ================= crypto edge cases =================
    def rsa_with(val):
        return v4sig(VP, 0x00, data, material=lambda dg: mpi(val) if val else b"\x00\x00")
    for name, val, verdict in (("zero", 0, "malformed"), ("one", 1, "bad-signature"),
                               ("n-minus-1", VP.n - 1, "bad-signature"), ("n", VP.n, "malformed"),
                               ("n-plus-1", VP.n + 1, "malformed")):
        F("sig/rsa-s-%s.sig" % name, rsa_with(val))
        o.case("rsa-sig-%s" % name, "detached", "sig/rsa-s-%s.sig" % name, D, [K_V], verdict, VP,
               "RSA signature value %s" % name)

    def s_plus_n(dg):
        s = pow(int.from_bytes(VP.em(dg, 8), "big"), VP.d, VP.n)
        return mpi(s + VP.n)
    F("sig/rsa-s-plus-n.sig", v4sig(VP, 0x00, data, material=s_plus_n))
    o.case("rsa-sig-unreduced", "detached", "sig/rsa-s-plus-n.sig", D, [K_V], "malformed", VP,
           "valid s plus n: (s+n)^e = s^e mod n, but s must be < n (RFC 8017 RSAVP1)")

    def bb06(dg):
        # Bleichenbacher 2006: 00 01 FF 00 DigestInfo H garbage, cube root
        k = (VE.n.bit_length() + 7) // 8
        prefix = b"\x00\x01\xff\x00" + DIGESTINFO[8] + dg
        target = int.from_bytes(prefix + b"\x00" * (k - len(prefix)), "big")
        return mpi(icbrt(target))
    F("sig/rsa-e3-bleichenbacher.sig", v4sig(VE, 0x00, data, material=bb06))
    o.case("rsa-e3-bleichenbacher-forgery", "detached", "sig/rsa-e3-bleichenbacher.sig", D, [K_E3],
           "bad-signature", VE, "cube-root forgery against the e=3 key (short padding, garbage after the digest)")

    # e = 1: the 'signature' is the encoded message itself
    E1 = RSAKey(None, KT, e=1, n=VP.n, d=1)
    K_E1 = F("keys/rsa-e1-bare.pgp", E1.packet())
    F("sig/rsa-e1.sig", v4sig(E1, 0x00, data))
    o.case("rsa-e1-key", "detached", "sig/rsa-e1.sig", D, [K_E1], "malformed", "-",
           "bare RSA key with e=1 (s = EM verifies, anyone can sign): refused")

    # DSA with g of order 2: (p-1)^u mod p is 1 or p-1, so r=1 verifies half the time
    rng = random.Random("dsa-weak")
    q = gen_prime(rng, 256, 65537)
    p = rng.getrandbits(2048) | (1 << 2047) | 1
    weak = DSAKey(KT, p, q, p - 1, p - 1)
    K_DSAW = F("keys/dsa-g-order-2-bare.pgp", weak.packet())

    def dsa_forge(dg):
        z = int.from_bytes(dg[:32], "big") >> max(0, 256 - q.bit_length())
        for s in range(1, 1000):
            w = pow(s, -1, q)
            if ((z * w) % q + w % q) % 2 == 0:
                return mpi(1) + mpi(s)
        raise SystemExit("no DSA forgery found")
    F("sig/dsa-forged.sig", v4sig(weak, 0x00, data, material=dsa_forge))
    o.case("dsa-generator-order-2", "detached", "sig/dsa-forged.sig", D, [K_DSAW], "malformed", "-",
           "bare DSA key with g = y = p-1 (order 2, not a generator of the order-q subgroup): "
           "r=1 with a chosen s verifies for any data, made without any secret")
    weak1 = DSAKey(KT, p, q, 1, 1)
    K_DSA1 = F("keys/dsa-g-1-bare.pgp", weak1.packet())
    F("sig/dsa-g1.sig", v4sig(weak1, 0x00, data, material=lambda dg: mpi(1) + mpi(1)))
    o.case("dsa-g-1-y-1", "detached", "sig/dsa-g1.sig", D, [K_DSA1], "malformed", "-",
           "bare DSA key with g = y = 1: r = 1 verifies anything")

    # ECDSA
    bad_point = bytearray(EC.point)
    bad_point[-1] ^= 1
    ECB = ECKey("victim-ecdsa", KT, point=bytes(bad_point))
    K_ECB = F("keys/ecdsa-off-curve-bare.pgp", ECB.packet())
    F("sig/ecdsa-off-curve.sig", v4sig(ECB, 0x00, data))
    o.case("ecdsa-point-off-curve", "detached", "sig/ecdsa-off-curve.sig", D, [K_ECB], "malformed", "-",
           "bare P-256 key whose point is not on the curve")
    ECI = ECKey("victim-ecdsa", KT, point=b"\x00")
    K_ECI = F("keys/ecdsa-infinity-bare.pgp", ECI.packet())
    F("sig/ecdsa-infinity.sig", v4sig(ECI, 0x00, data, material=lambda dg: mpi(1) + mpi(1)))
    o.case("ecdsa-point-at-infinity", "detached", "sig/ecdsa-infinity.sig", D, [K_ECI], "malformed", "-",
           "bare P-256 key encoding the point at infinity")
    F("sig/ecdsa-r0.sig", v4sig(EC, 0x00, data, material=lambda dg: b"\x00\x00" + mpi(EC.rs(dg, 8)[1])))
    o.case("ecdsa-r-zero", "detached", "sig/ecdsa-r0.sig", D, [K_EC], "malformed", EC, "ECDSA r = 0")
    F("sig/ecdsa-s-n.sig", v4sig(EC, 0x00, data, material=lambda dg: mpi(EC.rs(dg, 8)[0]) + mpi(P256_N)))
    o.case("ecdsa-s-order", "detached", "sig/ecdsa-s-n.sig", D, [K_EC], "malformed", EC, "ECDSA s = n")
    F("sig/ecdsa-high-s.sig", v4sig(EC, 0x00, data, material=lambda dg: mpi(EC.rs(dg, 8)[0]) +
                                     mpi(P256_N - EC.rs(dg, 8)[1])))
    o.case("ctl-ecdsa-high-s", "detached", "sig/ecdsa-high-s.sig", D, [K_EC], "good", EC,
           "control: (r, n-s) is a valid ECDSA signature too (no low-s rule in OpenPGP)")

    # Ed25519
    ident = b"\x01" + b"\x00" * 31
    EDI = EdKey("ed-ident", KT, raw_pub=ident)
    K_EDI = F("keys/ed25519-identity-bare.pgp", EDI.packet())
    F("sig/ed25519-identity.sig", v4sig(EDI, 0x00, data, material=EDI.fmt(ident + b"\x00" * 32)))
    o.case("ed25519-identity-key", "detached", "sig/ed25519-identity.sig", D, [K_EDI], "bad-signature", "-",
           "bare Ed25519 key = identity point, signature R = identity, S = 0 (verifies any message "
           "in a cofactorless check without small-order rejection)")
    EDZ = EdKey("ed-zero", KT, raw_pub=b"\x00" * 32)
    K_EDZ = F("keys/ed25519-zero-bare.pgp", EDZ.packet())
    F("sig/ed25519-zero.sig", v4sig(EDZ, 0x00, data, material=EDZ.fmt(ident + b"\x00" * 32)))
    o.case("ed25519-all-zero-key", "detached", "sig/ed25519-zero.sig", D, [K_EDZ], "bad-signature", "-",
           "bare Ed25519 key of 32 zero octets (a small-order point), R = identity, S = 0")

    def s_plus_l(dg):
        sig = VS.sk.sign(dg)
        s = int.from_bytes(sig[32:], "little") + ED25519_L
        return VS.fmt(sig[:32] + s.to_bytes(32, "little"))
    F("sig/ed25519-s-plus-l.sig", v4sig(VS, 0x00, data, material=s_plus_l))
    o.case("ed25519-noncanonical-s", "detached", "sig/ed25519-s-plus-l.sig", D, [K_V], "bad-signature", VP,
           "genuine Ed25519 signature with S replaced by S + L (non-canonical, RFC 8032 §5.1.7)")

    # ================= time games =================
    F("sig/before-key.sig", v4sig(VP, 0x00, data, created=KT - 1000))
    o.case("sig-older-than-key", "detached", "sig/before-key.sig", D, [K_V], "malformed", VP,
           "signature creation time before the key's creation time")
    K_FUT = F("keys/victim-future-binding.pgp",
              cert(VP, [(V_UID, [v_selfsig])], [(VS, [bind(VP, VP, VS, created=AT + YEAR)])]))
    o.case("subkey-binding-in-future", "detached", "sig/ctl-subkey.sig", D, [K_FUT], "unusable-key", VP,
           "the subkey's only binding is dated a year after the reference time")
    F("sig/sigexp-unhashed.sig", v4sig(VP, 0x00, data,
                                       unhashed=sp(16, VP.keyid) + sp(3, be32(10))))
    o.case("sig-expiry-unhashed-ignored", "detached", "sig/sigexp-unhashed.sig", D, [K_V], "good", VP,
           "a 10-second signature expiration in the UNHASHED area is not part of the signature")
    F("sig/sigexp-hashed.sig", v4sig(VP, 0x00, data, extra=sp(3, be32(10))))
    o.case("sig-expiry-hashed", "detached", "sig/sigexp-hashed.sig", D, [K_V], "expired", VP,
           "control: the same expiration in the hashed area")
    F("sig/created-unhashed.sig", v4sig(VP, 0x00, data, hashed=sp(33, b"\x04" + VP.fpr),
                                        unhashed=sp(2, be32(ST)) + sp(16, VP.keyid)))
    o.case("creation-time-unhashed-only", "detached", "sig/created-unhashed.sig", D, [K_V], "malformed", "-",
           "creation time only in the unhashed area")
    F("sig/future.sig", v4sig(VP, 0x00, data, created=AT + 86400))
    o.case("sig-from-the-future", "detached", "sig/future.sig", D, [K_V], "not-yet-valid", "-",
           "signature created a day after the reference time")
    F("sig/critical-unknown.sig", v4sig(VP, 0x00, data, extra=sp(99, b"x", critical=True)))
    o.case("critical-unknown-subpacket", "detached", "sig/critical-unknown.sig", D, [K_V], "unsupported", "-",
           "hashed critical subpacket of unknown type 99 (§5.2.3.7)")
    F("sig/subkey-before-subkey.sig", v4sig(VS, 0x00, data, created=KT + 5))
    o.case("sig-older-than-subkey", "detached", "sig/subkey-before-subkey.sig", D, [K_V], "malformed", VP,
           "subkey signature made 5 s before the subkey was created (after the primary)")

    o.manifest()
    npos = sum(1 for r in o.rows if r.split("\t")[5] == "good")
    print("%d cases (%d good, %d negative) in %s" % (len(o.rows), npos, len(o.rows) - npos, top))



if __name__ == "__main__":
    main()
