#!/usr/bin/env python3
"""A raw keyring is read lazily (pgp_certset_set_lazy: framed once, only the
certificates a signature names are built). Its verdicts must not depend on
how the certificates are laid out. TAP output.

1. Every case of the vector MANIFESTs: the keyrings given as separate
   --keyring files (or directories) and as ONE raw file, their binary
   concatenation (armor removed; stand-alone revocations first, as they are
   stand-alone only before any key), give the same exit code and the same
   signatures (status, certificate, key) in `verify --json`.
2. With debian-keyring.gpg (28 MB, 905 certificates) in between: every
   vectors/keyset case with its keyring files split around it (copies of
   one key 28 MB apart, the signer's key at the very end) gives the
   MANIFEST's verdict; plus a revocation certificate at the very end of the
   file, after debian-keyring and the key it revokes.
3. Debian's InRelease files against debian-archive-keyring alone, and
   concatenated before and after debian-keyring: the same signers.
"""
import base64, json, os, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
DK = "/usr/share/keyrings/debian-keyring.gpg"
AK = "/usr/share/keyrings/debian-archive-keyring.gpg"
EXTS = (".asc", ".gpg", ".pgp", ".key", ".pub")
fails = 0
n = 0


def tap(ok, what):
    global fails, n
    n += 1
    if not ok:
        fails += 1
    print(("ok - " if ok else "not ok - ") + what)


def dearmor(b):
    """Binary packets of a keyring file: armored blocks decoded, binary as is."""
    text = b.lstrip()
    if not text.startswith(b"-----BEGIN PGP"):
        return b
    out, body, state = b"", [], 0
    for line in b.decode("ascii", "replace").splitlines():
        line = line.strip()
        if state == 0 and line.startswith("-----BEGIN PGP"):
            state, body = 1, []
        elif state == 1 and line == "":
            state = 2
        elif state == 1 and ":" not in line:
            state = 2
            body.append(line)
        elif state == 2 and line.startswith("-----END PGP"):
            out += base64.b64decode("".join(body))
            state = 0
        elif state == 2 and not line.startswith("="):
            body.append(line)
    return out


def first_tag(b):
    if not b or not b[0] & 0x80:
        return -1
    return b[0] & 0x3F if b[0] & 0x40 else (b[0] >> 2) & 0x0F


def files_of(path):
    if os.path.isdir(path):
        return [os.path.join(path, f) for f in sorted(os.listdir(path))
                if not f.startswith(".") and f.endswith(EXTS)]
    return [path]


def raw_parts(paths):
    """Binary contents, stand-alone revocations (no key first) in front."""
    parts = [dearmor(open(f, "rb").read()) for p in paths for f in files_of(p)]
    return [p for p in parts if first_tag(p) == 2] + [p for p in parts if first_tag(p) != 2]


def verify(keyrings, rest, at):
    args = [wotkit, "verify", "--json"]
    for k in keyrings:
        args += ["--keyring", k]
    if at:
        args += ["--at", "@" + at]
    p = subprocess.run(args + rest, capture_output=True)
    sigs = None
    if p.returncode != 2:
        try:
            sigs = [(s.get("status"), s.get("cert"), s.get("key"))
                    for s in json.loads(p.stdout)["signatures"]]
        except (ValueError, KeyError):
            sigs = "unparsable output"
    return p.returncode, sigs


def verdict(rc, sigs):
    if sigs and any(s[0] == "ok" for s in sigs):
        return "good"
    if rc == 2 or not sigs:
        return "malformed"
    return sigs[0][0]


def cases(manifest):
    d = os.path.dirname(manifest)
    for line in open(manifest, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        cid, kind, sig, data, krs, want = f[:6]
        at = None
        for extra in f[8:]:
            if extra.startswith("at="):
                at = extra[3:]
        if krs in ("", "-"):
            continue
        rest = [os.path.join(d, sig)] + ([os.path.join(d, data)] if data != "-" else [])
        yield cid, [os.path.join(d, k) for k in krs.split(",")], rest, at, want


tmp = tempfile.mkdtemp(prefix="wotkit-rawring-")
one = os.path.join(tmp, "one.gpg")

# 1. separate files vs one raw file
for m in ("verify", "keyset", "certeval", "adversarial", "diff"):
    manifest = os.path.join(top, "vectors", m, "MANIFEST")
    if not os.path.exists(manifest):
        continue
    for cid, krs, rest, at, want in cases(manifest):
        with open(one, "wb") as o:
            o.write(b"".join(raw_parts(krs)))
        a = verify(krs, rest, at)
        b = verify([one], rest, at)
        tap(a == b, "%s/%s: separate %s, one raw file %s" % (m, cid, verdict(*a), verdict(*b))
            + ("" if a == b else " (%r vs %r)" % (a, b)))

# 2. around debian-keyring
if not os.path.exists(DK):
    print("skip - %s missing (apt-get install debian-keyring): layout cases" % DK)
else:
    dk = open(DK, "rb").read()
    ks = os.path.join(top, "vectors", "keyset", "MANIFEST")
    for cid, krs, rest, at, want in cases(ks):
        parts = raw_parts(krs)
        loose = [p for p in parts if first_tag(p) == 2]
        keys = [p for p in parts if first_tag(p) != 2]
        # the first key file before debian-keyring, the others after it
        layout = loose + keys[:1] + [dk] + keys[1:] if len(keys) > 1 else loose + [dk] + keys
        with open(one, "wb") as o:
            o.write(b"".join(layout))
        got = verdict(*verify([one], rest, at))
        tap(got == want, "keyset/%s around debian-keyring: %s (want %s)" % (cid, got, want))
    kd = os.path.join(top, "vectors", "keyset")
    stale = open(os.path.join(kd, "keys", "victim-stale.pgp"), "rb").read()
    rev = open(os.path.join(kd, "keys", "victim-revocation-certificate.pgp"), "rb").read()
    rest = [os.path.join(kd, "sig", "victim-primary.sig"), os.path.join(kd, "data", "msg.txt")]
    for name, layout, want in (
            ("copies 28 MB apart", [stale, dk, stale], "good"),
            ("copies 28 MB apart, revocation at the very end", [stale, dk, stale, rev], "revoked"),
            ("revocation first, key at the very end", [rev, dk, stale], "revoked")):
        with open(one, "wb") as o:
            o.write(b"".join(layout))
        got = verdict(*verify([one], rest, "1710000000"))
        tap(got == want, "%s: %s (want %s)" % (name, got, want))

# 3. Debian's InRelease
lists = "/var/lib/apt/lists"
irs = sorted(f for f in os.listdir(lists) if f.endswith("InRelease")) if os.path.isdir(lists) else []
if not (os.path.exists(DK) and os.path.exists(AK) and irs):
    print("skip - debian-keyring, debian-archive-keyring or InRelease files missing")
else:
    ak = open(AK, "rb").read()
    for name, layout in (("after", [dk, ak]), ("before", [ak, dk])):
        with open(os.path.join(tmp, name + ".gpg"), "wb") as o:
            o.write(b"".join(layout))
    for f in irs:
        path = os.path.join(lists, f)
        base = verify([AK], [path], None)
        signers = sorted(s[1] for s in (base[1] or []) if s[0] == "ok")
        tap(base[0] == 0 and signers != [], "%s: good against debian-archive-keyring" % f)
        for name in ("after", "before"):
            got = verify([os.path.join(tmp, name + ".gpg")], [path], None)
            tap(got == base, "%s: archive keyring %s debian-keyring, same signatures" % (f, name))

for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
print("# %d checks, %d failed" % (n, fails))
sys.exit(1 if fails else 0)
