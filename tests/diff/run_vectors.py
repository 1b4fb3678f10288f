#!/usr/bin/env python3
"""run_vectors.py - run vectors/diff/MANIFEST (reproducers written by
tests/diff/make_vectors.py) through `wotkit verify --json`: verdict and
signer must match. TAP output, one line per case."""
import json
import os
import subprocess
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WOTKIT = os.environ.get("WOTKIT", os.path.join(TOP, "wotkit"))
VDIR = os.path.join(TOP, "vectors", "diff")
WORDS = {"ok": "good", "truncated": "malformed", "no-signature": "malformed"}


def verdict(args):
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode < 0 or r.returncode > 2:
        return "crash(%d)" % r.returncode, "-", r.stderr
    if r.returncode == 2:
        return ("unsupported" if b"unsupported" in r.stderr else "malformed"), "-", r.stderr
    try:
        sigs = json.loads(r.stdout.decode())["signatures"]
    except (ValueError, KeyError):
        return "no JSON", "-", r.stderr
    good = [s for s in sigs if s["status"] == "ok"]
    pick = good[0] if good else sigs[0]
    return WORDS.get(pick["status"], pick["status"]), pick.get("cert") or "-", r.stderr


def main():
    mf = os.path.join(VDIR, "MANIFEST")
    if not os.path.exists(mf):
        print("skip - vectors/diff/MANIFEST absent")
        return 0
    fails = 0
    for line in open(mf, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        cid, kind, sig, data, krs, want, signer = f[:7]
        args = [WOTKIT, "verify", "--json"]
        for x in f[8:]:
            if x.startswith("at="):
                args += ["--at", "@" + x[3:]]
        for k in krs.split(","):
            args += ["--keyring", os.path.join(VDIR, k)]
        args.append(os.path.join(VDIR, sig))
        if data != "-":
            args.append(os.path.join(VDIR, data))
        got, who, err = verdict(args)
        ok = got == want and (signer == "-" or who == "-" or who == signer)
        if not ok:
            fails += 1
        print("%s - diff vector %s: want %s, got %s%s" % (
            "ok" if ok else "not ok", cid, want, got,
            "" if ok else " (%s)" % err.decode(errors="replace").strip().splitlines()[-1:]))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
