#!/usr/bin/env python3
"""A verdict through the wotkit keyring file equals the verdict through the
raw certificates it was built from (issue 13), for every case of
vectors/*/MANIFEST and of $WOTKIT_CORPUS/EXPECTED.tsv that names a key,
under the default policy, --allow-sha1, --policy-as-of 2010-01-01, a
policy file (RSA below 3072 bits refused from 2020, DSA-1024 allowed) and a
reference time five years later. TAP output: one line per MANIFEST and
variant, and a "not ok" line naming every case that differs.

Compared: the exit code and, per signature, every field of `verify --json`
that carries the verdict (status, verdict, signing certificate and key,
signer user ID, key expiry, unchecked revoker). The human "reason" may
differ and is only reported: the raw certificate can still hold a
signature that stripping dropped (a binding by the wrong key, a
third-party certification posing as a self-signature), and the reason
names what evaluation saw last. For a signature that is NOT good, the
certificate named (cert, key, signer_uid, key_expires, bare_key) may be another
holder of the issuer key: with several candidates the raw set tries them
in input order, the keyring in fingerprint order (input order is exactly
what a keyring build forgets). For the same reason, when the issuer key is
held by several certificates and the signature fails through both, the
failure status reported may differ (pgp/verify.c reports the status of the
first candidate it tried): counted apart, never when either side is good.
A signature by a key that no self-signature binds is refused through the
raw certificates ("unusable-key", or "policy" when the policy refuses the
certificate first) and "no-key" through the keyring, which stores only
components with a self-signature that verifies (docs/semantics.md,
"Stripping"): both refuse it; counted apart, only when the keyring holds no
key with that issuer key ID at all. Skipped (and counted): cases whose raw keyring input could not
be loaded at all (exit 2 before any signature was looked at) and cases
where the raw set refused a certificate for a limit (a flooded component,
docs/semantics.md), which a keyring build strips instead.
"""
import json, os, subprocess, sys, tempfile, time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
corpus = os.environ.get("WOTKIT_CORPUS", os.path.join(top, "..", "shared", "corpus"))
tmp = tempfile.mkdtemp(prefix="wotkit-kreq-")
built = {}
NOW = int(time.time())
FIVE_YEARS = 5 * 365 * 86400
polfile = os.path.join(tmp, "policy")
with open(polfile, "w") as f:
    f.write("key-min-bits 3072 2020-01-01 rsa\nkey-min-bits 1024 never dsa\n")


def run(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return r.returncode, r.stdout, r.stderr


def keyring_for(paths):
    key = tuple(paths)
    if key not in built:
        out = os.path.join(tmp, "k%d.wk" % len(built))
        rc, _, err = run([wotkit, "keyring", "build", "-o", out] + list(paths))
        built[key] = (out if rc == 0 else None, err)
    return built[key]


def cases():
    for d in sorted(os.listdir(os.path.join(top, "vectors"))):
        m = os.path.join(top, "vectors", d, "MANIFEST")
        if os.path.isfile(m):
            yield "vectors/" + d, os.path.join(top, "vectors", d), m
    m = os.path.join(corpus, "EXPECTED.tsv")
    if os.path.isfile(m):
        yield "corpus", corpus, m
    else:
        print("skip - corpus EXPECTED.tsv not found (set WOTKIT_CORPUS)")


def parse(base, path):
    for line in open(path, encoding="utf-8"):
        if line.startswith("#") or line.startswith("case_id\t") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        if len(f) < 5 or f[1] not in ("detached", "inline", "cleartext"):
            continue
        at = None
        for extra in f[5:]:
            if extra.startswith("at="):
                at = int(extra[3:])
        krs = [os.path.join(base, k) for k in f[4].split(",") if k and k != "-"]
        if not krs:
            continue
        data = os.path.join(base, f[3]) if f[3] != "-" else None
        yield f[0], os.path.join(base, f[2]), data, krs, at


def verify(keyrings, sig, data, opts):
    args = [wotkit, "verify", "--json"] + opts
    for k in keyrings:
        args += ["--keyring", k]
    args.append(sig)
    if data:
        args.append(data)
    rc, out, err = run(args)
    try:
        doc = json.loads(out) if out.strip() else None
    except ValueError:
        doc = "unparsable"
    if isinstance(doc, dict):
        doc.pop("file", None)
        for s in doc.get("signatures", []):
            reasons.append(s.pop("reason", None))
            if s.get("status") != "ok":
                holders.append(tuple(s.pop(k, None) for k in ("cert", "key", "signer_uid",
                                                              "key_expires", "subkey", "bare_key",
                                                              "key_expired_now")))
    return rc, doc, err


reasons = []
holders = []


def multi_holder_failure(d1, d2, kr):
    """Both sides fail every signature the same way except for the status of
    signatures whose issuer key ID several certificates of the keyring hold."""
    if not (isinstance(d1, dict) and isinstance(d2, dict)):
        return False
    s1, s2 = d1.get("signatures", []), d2.get("signatures", [])
    if len(s1) != len(s2) or d1.get("good") != d2.get("good"):
        return False
    for a, b in zip(s1, s2):
        if a == b:
            continue
        if a.get("status") == "ok" or b.get("status") == "ok" or not a.get("issuer"):
            return False
        if {k: v for k, v in a.items() if k not in ("status", "verdict")} != \
           {k: v for k, v in b.items() if k not in ("status", "verdict")}:
            return False
        rc, out, _ = run([wotkit, "keyring", "show", "--json", "--keyring", kr, a["issuer"]])
        try:
            if rc != 0 or len(json.loads(out)["certificates"]) < 2:
                return False
        except ValueError:
            return False
    return True


def unbound_dropped(d1, d2, kr):
    """Every difference is a signature the raw set refuses (unusable-key, or
    policy when the policy also refuses the certificate) and the keyring calls
    no-key, and the keyring holds no key with that issuer key ID."""
    if not (isinstance(d1, dict) and isinstance(d2, dict)):
        return False
    s1, s2 = d1.get("signatures", []), d2.get("signatures", [])
    if len(s1) != len(s2) or d1.get("good") != d2.get("good"):
        return False
    for a, b in zip(s1, s2):
        if a == b:
            continue
        if a.get("status") in (None, "ok") or b.get("status") != "no-key" or not b.get("issuer"):
            return False
        rc, out, _ = run([wotkit, "keyring", "show", "--json", "--keyring", kr, b["issuer"]])
        if rc == 0:
            return False
    return True


total_bad = 0
for name, base, manifest in cases():
    variants = [("default", []), ("allow-sha1", ["--allow-sha1"]),
                ("policy-as-of-2010", ["--policy-as-of", "@1262304000"]),
                ("policy-file", ["--policy", polfile]), ("at+5y", None)]
    for vname, vopts in variants:
        same = skipped = nreason = nholder = nmulti = nunbound = 0
        diffs = []
        for cid, sig, data, krs, at in parse(base, manifest):
            t = at if at is not None else NOW
            opts = ["--at", "@%d" % (t + FIVE_YEARS)] if vopts is None else ["--at", "@%d" % t] + vopts
            kr, berr = keyring_for(krs)
            rc1, d1, e1 = verify(krs, sig, data, opts)
            if b"refused" in e1 or (rc1 == 2 and d1 is None):
                skipped += 1
                continue
            if kr is None:
                diffs.append("%s: keyring build failed: %s" % (cid, berr.decode(errors="replace").strip()))
                continue
            del reasons[:]
            del holders[:]
            rc1, d1, e1 = verify(krs, sig, data, opts)
            rc2, d2, e2 = verify([kr], sig, data, opts)
            if rc1 == rc2 and d1 != d2 and multi_holder_failure(d1, d2, kr):
                nmulti += 1
                same += 1
            elif rc1 == rc2 and d1 != d2 and unbound_dropped(d1, d2, kr):
                nunbound += 1
                same += 1
            elif rc1 == rc2 and d1 == d2:
                same += 1
                half = len(reasons) // 2
                if reasons[:half] != reasons[half:]:
                    nreason += 1
                half = len(holders) // 2
                if holders[:half] != holders[half:]:
                    nholder += 1
            else:
                why = "exit %d vs %d" % (rc1, rc2)
                if isinstance(d1, dict) and isinstance(d2, dict):
                    for a, b in zip(d1.get("signatures", []), d2.get("signatures", [])):
                        for k in a:
                            if a.get(k) != b.get(k):
                                why += "; %s: %r vs %r" % (k, a.get(k), b.get(k))
                                break
                diffs.append("%s: %s" % (cid, why))
        if same == 0 and not diffs and skipped == 0:
            continue  # no verification cases in this MANIFEST
        ok = not diffs and same > 0
        print("%s - %s %s: %d cases equal through the keyring (%d with another reason text, "
              "%d naming another holder of a failing key, %d another failure of a key held by "
              "several certificates, %d unbound keys the keyring does not store), %d skipped" %
              ("ok" if ok else "not ok", name, vname, same, nreason, nholder, nmulti, nunbound,
               skipped))
        for d in diffs:
            print("#   differs: " + d)
        total_bad += 0 if ok else 1
sys.exit(1 if total_bad else 0)
