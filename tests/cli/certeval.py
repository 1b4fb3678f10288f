#!/usr/bin/env python3
"""Certificate evaluation checks (vectors/gen/certeval.py):

  1. vectors/certeval/INSPECT through `wotkit inspect --json`: the states of
     the primary key, subkeys and user IDs, and the primary key's expiry.
  2. The flooded certificate of issue 12, generated into a temp dir
     (certeval.py --flood; ~2 MB, so not committed): 4 signatures verified
     against a victim certificate with 1024 junk subkeys x 16 junk
     revocations must be good and take little time; the same flood hiding
     one real subkey revocation must still revoke (no revocation skipped);
     a certificate over PGP_MAX_REVOCATION_TRIALS fails closed ("limit").

TAP output; exits 1 on any failure. WOTKIT_FLOOD_MAX_S (default 10) is the
wall-time bound for one `wotkit verify` of the flood (generous: the machine
is shared; the measured time is printed).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
vdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "vectors", "certeval")
max_s = float(os.environ.get("WOTKIT_FLOOD_MAX_S", "10"))
fails = 0


def report(ok, what):
    global fails
    if not ok:
        fails += 1
    print("%s - %s" % ("ok" if ok else "not ok", what))


def states(cert):
    got = {"primary": cert["primary"]["status"], "primary_expires": cert["primary"]["expires"] or "null"}
    for i, s in enumerate(cert["subkeys"]):
        got["sub%d" % i] = s["status"]
    for i, u in enumerate(cert["user_ids"]):
        got["uid%d" % i] = u["state"]
    return got


for line in open(os.path.join(vdir, "INSPECT"), encoding="utf-8"):
    if line.startswith("#") or not line.strip():
        continue
    cid, krs, at, expect = line.rstrip("\n").split("\t")
    args = [wotkit, "inspect", "--json", "--at", "@" + at.split("=", 1)[1]]
    args += [os.path.join(vdir, k) for k in krs.split(",")]
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        got = states(json.loads(r.stdout.decode())["certificates"][0])
    except (ValueError, KeyError, IndexError):
        report(False, "inspect %s: no JSON (rc=%d) %s" % (cid, r.returncode, r.stderr[:200]))
        continue
    bad = []
    for kv in expect.split():
        k, v = kv.split("=", 1)
        if got.get(k) != v:
            bad.append("%s=%s, want %s" % (k, got.get(k), v))
    report(not bad, "inspect %s%s" % (cid, (": " + "; ".join(bad)) if bad else ""))

# ---- the flood ----
tmp = tempfile.mkdtemp(prefix="wotkit-flood-")
g = subprocess.run([sys.executable, os.path.join(top, "vectors", "gen", "certeval.py"), "--flood", tmp],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
report(g.returncode == 0, "flood vectors generated (%s)" % g.stdout.decode().strip())


def verify(keyring):
    t0 = time.monotonic()
    r = subprocess.run([wotkit, "verify", "--json", "--at", "@1710000000", "--keyring",
                        os.path.join(tmp, keyring), os.path.join(tmp, "four.sig"),
                        os.path.join(tmp, "data.txt")], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    dt = time.monotonic() - t0
    try:
        st = [s["status"] for s in json.loads(r.stdout.decode())["signatures"]]
    except (ValueError, KeyError):
        st = ["no JSON (rc=%d)" % r.returncode]
    return st, dt, r.returncode


if g.returncode == 0:
    st, dt, rc = verify("victim-flooded.pgp")
    report(st == ["ok"] * 4 and rc == 0,
           "flooded certificate: 4 signatures %s, exit %d, in %.2f s" % (st, rc, dt))
    report(dt < max_s, "flooded certificate verified in %.2f s (bound %.0f s)" % (dt, max_s))
    st, dt, rc = verify("victim-flooded-prefix.pgp")
    report(st == ["ok"] * 4 and dt < max_s,
           "flood whose junk passes the hash-prefix quick reject (every check does the math): "
           "%s in %.2f s (bound %.0f s)" % (st, dt, max_s))
    st, dt, rc = verify("victim-flooded-revoked.pgp")
    report(st == ["ok", "revoked", "ok", "revoked"],
           "flood hiding a real subkey revocation: %s in %.2f s (the primary's signatures "
           "stay good, the subkey's are revoked)" % (st, dt))
    st, dt, rc = verify("victim-over-cap.pgp")
    report(st == ["limit"] * 4 and rc != 0,
           "over PGP_MAX_REVOCATION_TRIALS: %s in %.2f s (fails closed)" % (st, dt))
    r = subprocess.run([wotkit, "inspect", "--json", "--at", "@1710000000",
                        os.path.join(tmp, "victim-over-cap.pgp")], stdout=subprocess.PIPE)
    try:
        p = json.loads(r.stdout.decode())["certificates"][0]["primary"]
        report(p["status"] == "limit" and "PGP_MAX_REVOCATION_TRIALS" in (p["reason"] or ""),
               "inspect over the cap: %s (%s)" % (p["status"], p["reason"]))
    except (ValueError, KeyError, IndexError):
        report(False, "inspect over the cap: no JSON")
for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
sys.exit(1 if fails else 0)
