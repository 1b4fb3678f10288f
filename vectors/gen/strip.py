#!/usr/bin/env python3
"""strip.py - vectors for `wotkit strip` / kr_strip (keyring/strip.h).

    python3 vectors/gen/strip.py [OUTDIR]            (default vectors/strip)
    python3 vectors/gen/strip.py --flood DIR [N] [REAL]

OUTDIR gets one binary input per case (cases/NAME.pgp), the issuer keyring
(ring.pgp: keys B and D, never C), a MANIFEST (one case a line: name, then
what `wotkit strip --json --at AT --keyring ring.pgp cases/NAME.pgp`
must report for the first certificate: kept_certifications=N, uids=N,
subkeys=N, drop.REASON=N; a reason not listed must be 0), and order/: the
same four certificates in differently ordered and split inputs, whose
stripped output must be byte-identical.

--flood writes DIR/flood.pgp (a key with N certifications on one user ID,
default 100000: REAL of them, default 10000, made by 5 issuers of the set,
the rest junk naming issuers outside the set) and DIR/ring.pgp (the 5
issuers).

Keys are Ed25519 (EdDSALegacy) from fixed seeds, so the output is the same
on every run (helpers from adversarial.py). Expected values follow the rules
of docs/semantics.md, "Stripping", not what wotkit prints.
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from adversarial import (  # noqa: E402
    KT, BT, AT, EdKey, be32, body_of, bind, certify, pkt, sp, uidpkt, v4sig,
    uid_input)

UA = b"Alice <alice@example.org>"
UA2 = b"Alice (second) <alice2@example.org>"


def keys():
    A = EdKey("strip A", KT)
    B = EdKey("strip B", KT)
    C = EdKey("strip C outside", KT)
    D = EdKey("strip D revoker", KT)
    BS = EdKey("strip B certify subkey", KT + 10)
    BN = EdKey("strip B sign-only subkey", KT + 20)
    return A, B, C, D, BS, BN


def ring(B, D, BS, BN):
    b = B.packet() + uidpkt(b"Bob <bob@example.org>") + certify(B, B, b"Bob <bob@example.org>")
    b += BS.packet(sub=True) + bind(B, B, BS, flags=0x01, back=False)
    b += BN.packet(sub=True) + bind(B, B, BN, flags=0x02)
    d = D.packet() + uidpkt(b"Dave <dave@example.org>") + certify(D, D, b"Dave <dave@example.org>")
    return b + d


def tp(signer, key, uid, created=BT + 500, **kw):
    """A third-party certification (0x10) of key's uid by signer."""
    return certify(signer, key, uid, created=created, typ=0x10, flags=None, **kw)


def flip(packet):
    """The same packet with the last octet of its signature changed."""
    return packet[:-1] + bytes([packet[-1] ^ 0x01])


def with_hash(packet, halg):
    b = bytearray(body_of(packet))
    b[3] = halg
    return pkt(2, bytes(b))


def cases(A, B, C, D, BS, BN):
    self_ = certify(A, A, UA)
    good = tp(B, A, UA)
    out = []

    def case(name, data, **expect):
        out.append((name, data, expect))

    base = A.packet() + uidpkt(UA) + self_
    case("good", base + good, kept_certifications=1, uids=1)
    case("bad_signature", base + flip(good), kept_certifications=0, uids=1,
         **{"drop.bad-signature": 1})
    case("issuer_outside", base + tp(C, A, UA), kept_certifications=0, uids=1,
         **{"drop.issuer-outside": 1})
    case("duplicate", base + good + good, kept_certifications=1, uids=1,
         **{"drop.duplicate": 1})
    case("superseded", A.packet() + uidpkt(UA) + certify(A, A, UA, created=BT) +
         certify(A, A, UA, created=BT + 1000) + good, kept_certifications=1, uids=1,
         **{"drop.superseded": 1})
    case("local", base + tp(B, A, UA, extra=sp(4, b"\x00")), kept_certifications=0,
         uids=1, **{"drop.local": 1})
    # no issuer subpacket at all (hashed area: creation time only)
    noiss = v4sig(B, 0x10, A.hash_input() + uid_input(UA), BT + 500,
                  hashed=sp(2, be32(BT + 500)), unhashed=b"")
    case("no_issuer", base + noiss, kept_certifications=0, uids=1,
         **{"drop.no-issuer": 1})
    case("misplaced", base + bind(A, A, BS, flags=0x02, back=False) + good,
         kept_certifications=1, uids=1, **{"drop.misplaced": 1})
    case("component", base + good + uidpkt(UA2) + tp(B, A, UA2),
         kept_certifications=1, uids=1, **{"drop.component": 1})
    case("unparsed", base + pkt(2, bytes([9, 0x10]) + b"\x00" * 20) + good,
         kept_certifications=1, uids=1, **{"drop.unparsed": 1})
    case("unsupported", base + with_hash(good, 99), kept_certifications=0, uids=1,
         **{"drop.unsupported": 1})
    # a forged self-signature: the user ID has no valid binding. Stripped,
    # the key must not become a bare (hence valid) primary key: the user ID
    # stays with its unverified binding, the certification on it goes
    case("bad_binding", A.packet() + uidpkt(UA) + flip(self_) + good,
         kept_certifications=0, uids=1, **{"drop.component": 1})
    # a certification by B's certification-capable subkey counts; one by
    # B's signing-only subkey does not (no certification-capable key)
    case("subkey_issuer", base + tp(BS, A, UA) + tp(BN, A, UA, created=BT + 600),
         kept_certifications=1, uids=1, **{"drop.issuer-outside": 1})
    # a "certification" by the certificate's own certification subkey is
    # not a third party's
    AS = EdKey("strip A certify subkey", KT + 35)
    case("own_subkey", base + tp(AS, A, UA) + AS.packet(sub=True) +
         bind(A, A, AS, flags=0x01, back=False), kept_certifications=0, uids=1, subkeys=1,
         **{"drop.misplaced": 1})
    # a revoked user ID without a valid binding stays (never drop a revocation)
    rev = certify(A, A, UA2, created=BT + 50, typ=0x30, flags=None)
    case("revoked_uid", base + uidpkt(UA2) + rev, kept_certifications=0, uids=2)
    # designated revoker D: its revocation is kept when D is absent
    # (unchecked) and when D is present and it verifies; a forged one by D
    # (D in the ring) is dropped
    dsg = sp(12, bytes([0x80, D.algo]) + D.fpr)
    selfd = certify(A, A, UA, extra=dsg)
    krev = v4sig(D, 0x20, A.hash_input(), BT + 2000)
    case("designated_ok", A.packet() + krev + uidpkt(UA) + selfd, kept_certifications=0,
         uids=1)
    case("designated_forged", A.packet() + flip(krev) + uidpkt(UA) + selfd,
         kept_certifications=0, uids=1, **{"drop.bad-signature": 1})
    # a key revocation by C, whom nothing designates
    crev = v4sig(C, 0x20, A.hash_input(), BT + 2000)
    case("undesignated_revocation", A.packet() + crev + uidpkt(UA) + self_,
         kept_certifications=0, uids=1, **{"drop.misplaced": 1})
    # a subkey with a forged binding is dropped with its signatures
    S = EdKey("strip A sub", KT + 30)
    case("bad_subkey", base + S.packet(sub=True) + flip(bind(A, A, S, flags=0x0C, back=False)),
         kept_certifications=0, uids=1, subkeys=0, **{"drop.bad-signature": 1})
    case("good_subkey", base + S.packet(sub=True) + bind(A, A, S, flags=0x0C, back=False),
         kept_certifications=0, uids=1, subkeys=1)
    return out


def order_inputs(A, B, D, BS, BN):
    """The same content, differently ordered and split: output must match."""
    S1 = EdKey("strip A sub 1", KT + 40)
    S2 = EdKey("strip A sub 2", KT + 41)
    E = EdKey("strip E", KT)
    UE = b"Erin <erin@example.org>"
    a_uid1 = [certify(A, A, UA), tp(B, A, UA), tp(E, A, UA, created=BT + 700),
              tp(D, A, UA, created=BT + 800)]
    a_uid2 = [certify(A, A, UA2, created=BT + 5), tp(B, A, UA2, created=BT + 900)]
    a_s1 = [bind(A, A, S1, flags=0x0C, back=False)]
    a_s2 = [bind(A, A, S2, flags=0x02)]
    e_cert = E.packet() + uidpkt(UE) + certify(E, E, UE) + tp(A, E, UE)
    b_d = ring(B, D, BS, BN)

    def acert(uids, subs):
        out = A.packet()
        for u, sigs in uids:
            out += uidpkt(u) + b"".join(sigs)
        for k, sigs in subs:
            out += k.packet(sub=True) + b"".join(sigs)
        return out

    rng = random.Random(13)
    variants = {}
    variants["v0"] = acert([(UA, a_uid1), (UA2, a_uid2)], [(S1, a_s1), (S2, a_s2)]) + e_cert + b_d
    variants["v1"] = b_d + e_cert + acert([(UA2, a_uid2[::-1]), (UA, a_uid1[::-1])],
                                          [(S2, a_s2), (S1, a_s1)])
    # A split into two copies (the set merges them), keys interleaved
    s = a_uid1[:]
    rng.shuffle(s)
    variants["v2"] = (acert([(UA, s[:2])], [(S2, a_s2)]) + b_d +
                      acert([(UA2, a_uid2), (UA, s[2:])], [(S1, a_s1)]) + e_cert)
    # overlapping copies (duplicates across copies) in reverse
    variants["v3"] = (e_cert + acert([(UA, a_uid1[1:])], [(S1, a_s1)]) +
                      acert([(UA, a_uid1[:3]), (UA2, a_uid2)], [(S2, a_s2), (S1, a_s1)]) + b_d)
    return variants


def flood(top, n=100000, real=10000):
    os.makedirs(top, exist_ok=True)
    A = EdKey("flood target", KT)
    issuers = [EdKey("flood issuer %d" % i, KT) for i in range(5)]
    r = b""
    for i, k in enumerate(issuers):
        u = b"Issuer %d <issuer%d@example.org>" % (i, i)
        r += k.packet() + uidpkt(u) + certify(k, k, u)
    with open(os.path.join(top, "ring.pgp"), "wb") as f:
        f.write(r)
    out = [A.packet(), uidpkt(UA), certify(A, A, UA)]
    for i in range(real):
        out.append(tp(issuers[i % 5], A, UA, created=BT + 1000 + i))
    rng = random.Random(2019)
    for i in range(n - real):
        # junk naming a key outside the set: cheap to reject, never checked
        kid = rng.getrandbits(64).to_bytes(8, "big")
        hashed = sp(2, be32(BT + i))
        body = (bytes([4, 0x10, 22, 8]) + len(hashed).to_bytes(2, "big") + hashed +
                b"\x00\x0a" + sp(16, kid) + b"\x00\x00" +
                b"\x01\x00" + rng.randbytes(32) + b"\x01\x00" + rng.randbytes(32))
        out.append(pkt(2, body))
    with open(os.path.join(top, "flood.pgp"), "wb") as f:
        f.write(b"".join(out))


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--flood":
        n = int(sys.argv[3]) if len(sys.argv) > 3 else 100000
        real = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
        flood(sys.argv[2], n, real)
        return
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "strip")
    A, B, C, D, BS, BN = keys()
    os.makedirs(os.path.join(top, "cases"), exist_ok=True)
    os.makedirs(os.path.join(top, "order"), exist_ok=True)
    with open(os.path.join(top, "ring.pgp"), "wb") as f:
        f.write(ring(B, D, BS, BN))
    rows = []
    for name, data, expect in cases(A, B, C, D, BS, BN):
        with open(os.path.join(top, "cases", name + ".pgp"), "wb") as f:
            f.write(data)
        rows.append(name + "\t" + "\t".join("%s=%s" % kv for kv in sorted(expect.items())))
    for name, data in order_inputs(A, B, D, BS, BN).items():
        with open(os.path.join(top, "order", name + ".pgp"), "wb") as f:
            f.write(data)
    with open(os.path.join(top, "MANIFEST"), "w") as f:
        f.write("# generated by vectors/gen/strip.py; at=%d keyring=ring.pgp\n" % AT)
        f.write("# name\texpectations for the first certificate (unlisted drop reasons: 0)\n")
        f.write("\n".join(rows) + "\n")
    print("%d cases, %d order variants in %s" % (len(rows), 4, top))


if __name__ == "__main__":
    main()
