#!/usr/bin/env python3
"""Checks of vectors/certorder (vectors/gen/certorder.py) beyond its verify
MANIFEST (which tests/cli/adversarial.py runs):

  1. INSPECT through `wotkit inspect --json`: primary key, subkey and user ID
     states of the first certificate (the format of vectors/certeval/INSPECT);
  2. SAME: `wotkit keyring build` of each permuted file set must be byte for
     byte the build of its canonical set (the order is irrelevant there).

TAP output; exits 1 on any failure.
"""
import json
import os
import subprocess
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
vdir = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "vectors", "certorder")
fails = 0


def report(ok, what):
    global fails
    fails += not ok
    print("%s - %s" % ("ok" if ok else "not ok", what))


def rows(name):
    for line in open(os.path.join(vdir, name), encoding="utf-8"):
        if not line.startswith("#") and line.strip():
            yield line.rstrip("\n").split("\t")


for cid, krs, at, expect in rows("INSPECT"):
    r = subprocess.run([wotkit, "inspect", "--json", "--at", "@" + at.split("=", 1)[1]] +
                       [os.path.join(vdir, k) for k in krs.split(",")],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        c = json.loads(r.stdout.decode())["certificates"][0]
    except (ValueError, KeyError, IndexError):
        report(False, "inspect %s: no JSON (rc=%d)" % (cid, r.returncode))
        continue
    got = {"primary": c["primary"]["status"], "primary_expires": c["primary"]["expires"] or "null"}
    got.update(("sub%d" % i, s["status"]) for i, s in enumerate(c["subkeys"]))
    got.update(("uid%d" % i, u["state"]) for i, u in enumerate(c["user_ids"]))
    bad = ["%s=%s, want %s" % (k, got.get(k), v) for k, v in
           (kv.split("=", 1) for kv in expect.split()) if got.get(k) != v]
    report(not bad, "inspect %s%s" % (cid, (": " + "; ".join(bad)) if bad else ""))

tmp = tempfile.mkdtemp(prefix="wotkit-certorder-")
built = {}


def build(files):
    key = tuple(files)
    if key not in built:
        out = os.path.join(tmp, "%d.wk" % len(built))
        r = subprocess.run([wotkit, "keyring", "build", "--at", "@1710000000", "-o", out] +
                           [os.path.join(vdir, f) for f in files],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        built[key] = open(out, "rb").read() if r.returncode == 0 else None
    return built[key]


for cid, a, b in rows("SAME"):
    x, y = build(a.split(",")), build(b.split(","))
    report(x is not None and x == y, "keyring build %s equals its canonical order%s" % (
        cid, "" if x is not None and x == y else " (%s vs %s octets)" % (
            x and len(x), y and len(y))))
for f in os.listdir(tmp):
    os.unlink(os.path.join(tmp, f))
os.rmdir(tmp)
sys.exit(1 if fails else 0)
