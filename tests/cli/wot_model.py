#!/usr/bin/env python3
"""wot_model.py - an independent model of the web of trust in vectors/wot/,
to cross-check the MANIFEST's path, why and audit expectations.

    python3 tests/cli/wot_model.py [VECTORDIR]     (default vectors/wot)

Prints one TAP line ("ok - ..." / "not ok - ...") per MANIFEST line it can
check; exits 0 when all agree, 1 on a disagreement, 2 on bad input, and
prints "skip - ..." and exits 0 when gpg is missing.

The graph does not come from wotkit: gpg 2.2 lists every signature of the
keyring (--check-sigs --with-colons, in a throwaway GNUPGHOME), once with
SHA-1 key signatures refused (gpg's default, the "std" policy) and once with
--allow-weak-key-signatures ("sha1"). From that listing this model applies
the rules of keyring/wot.h at the reference time t of each line:

  * a key counts when it is not expired at t (expiration <= t) and not
    revoked at t: a key revocation with reason 0x02/0x03 (superseded,
    retired) takes effect at its creation time, any other reason always;
  * a user ID counts when no self-revocation (0x30) created <= t is newer
    than its newest self-signature created <= t;
  * issuer I certifies target T when, on some user ID of T that counts,
    I's newest certification or certification revocation created <= t is a
    certification that gpg verified ("!") and that has not expired at t, and
    both keys count.

Paths follow the rule of wotmate's get_key_paths as documented in
docs/wot.md / DESIGN14 (breadth-first from the root, a node's successors
in key ID order, each node kept with the first path that reaches it; when
the target is among a node's successors only that edge is followed; after
a path is found its intermediate keys are excluded and the search starts
again; it ends after a path of at most one hop or after maxpaths paths).
This file is written from that description, not from wotmate's code.
"""
import itertools
import os
import shutil
import subprocess
import sys
import tempfile
from collections import deque
from datetime import datetime, timezone


def parse_time(s):
    if s.startswith("@"):
        return int(s[1:])
    return int(datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp())


class Listing:
    """One gpg --check-sigs --with-colons listing: keys, user IDs, signatures."""

    def __init__(self, text):
        self.keys = {}          # keyid -> dict
        self.order = []
        key = uid = None
        for line in text.splitlines():
            f = line.split(":")
            if f[0] == "pub":
                key = {"keyid": f[4], "created": int(f[5]), "expires": int(f[6]) if f[6] else 0,
                       "revocations": [], "uids": []}
                self.keys[f[4]] = key
                self.order.append(f[4])
                uid = None
            elif f[0] == "fpr" and key is not None and "fpr" not in key:
                key["fpr"] = f[9]
            elif f[0] == "uid" and key is not None:
                uid = {"text": f[9], "sigs": []}
                key["uids"].append(uid)
            elif f[0] in ("sig", "rev") and key is not None:
                cls, _, reason = f[10].partition(",")
                sig = {"ok": f[1] == "!", "issuer": f[4], "created": int(f[5]),
                       "expires": int(f[6]) if f[6] else 0, "class": cls[:2],
                       "reason": reason}
                if uid is None:
                    if sig["class"] == "20" and sig["issuer"] == key["keyid"] and sig["ok"]:
                        key["revocations"].append(sig)
                else:
                    uid["sigs"].append(sig)
            elif f[0] == "sub":
                uid = None

    def key_counts(self, k, t):
        key = self.keys[k]
        if key["created"] > t or (key["expires"] and key["expires"] <= t):
            return False
        for r in key["revocations"]:
            soft = r["reason"] in ("02", "03")
            if not soft or r["created"] <= t:
                return False
        return True

    def uid_counts(self, k, uid, t):
        own = [s for s in uid["sigs"] if s["issuer"] == k and s["ok"] and s["created"] <= t
               and s["class"] in ("10", "11", "12", "13", "30")]
        if not own:
            return False
        newest = max(own, key=lambda s: (s["created"], s["class"] != "30"))
        return newest["class"] != "30"

    def edges(self, t):
        """issuer keyid -> set of target keyids, at t."""
        succ = {k: set() for k in self.order}
        for tk in self.order:
            if not self.key_counts(tk, t):
                continue
            for uid in self.keys[tk]["uids"]:
                if not self.uid_counts(tk, uid, t):
                    continue
                by_issuer = {}
                for s in uid["sigs"]:
                    if s["issuer"] == tk or s["created"] > t or not s["ok"]:
                        continue
                    if s["class"] not in ("10", "11", "12", "13", "30"):
                        continue
                    best = by_issuer.get(s["issuer"])
                    if best is None or (s["created"], s["class"] == "30") > (best["created"], best["class"] == "30"):
                        by_issuer[s["issuer"]] = s
                for ik, s in by_issuer.items():
                    if ik not in self.keys or not self.key_counts(ik, t):
                        continue
                    if s["class"] == "30" or (s["expires"] and s["expires"] <= t):
                        continue
                    succ[ik].add(tk)
        return succ


def search_once(succ, rank, src, dst, maxdepth, excluded):
    """First path found breadth-first, or None."""
    queue = deque([[src]])
    done = set()
    while queue:
        path = queue.popleft()
        last = path[-1]
        if last in done:
            continue
        if last == dst:
            return path
        done.add(last)
        if len(path) - 1 < maxdepth:
            nxt = succ[last] - excluded - done
            if dst in nxt:
                queue.append(path + [dst])
            else:
                for n in sorted(nxt, key=rank.get):
                    queue.append(path + [n])
    return None


def paths(succ, rank, src, dst, maxdepth, maxpaths):
    found, excluded = [], set()
    while len(found) < maxpaths:
        p = search_once(succ, rank, src, dst, maxdepth, excluded)
        if p is None:
            break
        found.append(p)
        if len(p) - 1 <= 1:
            break
        excluded |= set(p[1:-1])
    return found


def reachable(succ, src):
    seen, queue = {src}, deque([src])
    while queue:
        for n in succ[queue.popleft()]:
            if n not in seen:
                seen.add(n)
                queue.append(n)
    return seen


def gpg_listing(keyring, allow_sha1, home_root):
    home = tempfile.mkdtemp(dir=home_root)
    os.chmod(home, 0o700)
    base = ["gpg", "--batch", "--no-tty", "--homedir", home]
    if allow_sha1:
        base.append("--allow-weak-key-signatures")
    subprocess.run(base + ["--import", keyring], check=True, capture_output=True)
    r = subprocess.run(base + ["--no-auto-check-trustdb", "--with-colons", "--check-sigs"],
                       check=True, capture_output=True, text=True)
    subprocess.run(["gpgconf", "--homedir", home, "--kill", "gpg-agent"], capture_output=True)
    return Listing(r.stdout)


def main():
    vdir = sys.argv[1] if len(sys.argv) > 1 else "vectors/wot"
    if shutil.which("gpg") is None:
        print("skip - wot_model: gpg not installed")
        return 0
    lines, directives = [], {}
    with open(os.path.join(vdir, "MANIFEST"), encoding="utf-8") as fh:
        for raw in fh:
            body = raw.split(" #", 1)[0].strip()
            if not body or body.startswith("#"):
                continue
            f = body.split()
            if f[0] in ("keyring", "root", "at"):
                directives[f[0]] = f[1]
            else:
                lines.append(f)
    keyring = os.path.join(vdir, directives["keyring"])
    root_kid = directives["root"][-16:]
    at = parse_time(directives["at"])
    tmp = tempfile.mkdtemp()
    try:
        listing = {"std": gpg_listing(keyring, False, tmp), "sha1": gpg_listing(keyring, True, tmp)}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    any_l = listing["sha1"]
    rank = {k: i for i, k in enumerate(sorted(any_l.order))}
    graphs = {}

    def graph(pol, t):
        if (pol, t) not in graphs:
            graphs[(pol, t)] = listing[pol].edges(t)
        return graphs[(pol, t)]

    def text(ps):
        out = []
        for p in ps:
            for i, k in enumerate(p):
                uid = any_l.keys[k]["uids"][0]["text"]
                out.append(f"from  {k}  {uid}" if i == 0 else f"{i:4d}  {k}  {uid}")
            out.append("")
        return "".join(s + "\n" for s in out)

    def opts(f):
        o = {}
        for x in f:
            if "=" in x:
                n, _, v = x.partition("=")
                o[n] = v
        return o

    fails = 0

    def report(ok, what):
        nonlocal fails
        print(("ok - " if ok else "not ok - ") + "model: " + what)
        if not ok:
            fails += 1

    lost_expected, kept, recert, norecert, counts = set(), set(), set(), set(), {}
    for f in lines:
        kind = f[0]
        o = opts(f)
        t = parse_time(o["at"]) if "at" in o else at
        src = o.get("from", root_kid)[-16:]
        if kind == "path":
            target, maxdepth, maxpaths, pol, rc, exp = f[1], int(f[2]), int(f[3]), f[4], f[5], f[6]
            got = paths(graph(pol, t), rank, src, target, maxdepth, maxpaths)
            if exp == "-":
                report(rc == "1" and not got, f"path {' '.join(f[1:])}: none"
                       + ("" if not got else f" (model finds {text(got)!r})"))
            else:
                with open(os.path.join(vdir, "expect", exp + ".txt"), encoding="utf-8") as fh:
                    want = fh.read()
                report(rc == "0" and text(got) == want, f"path {' '.join(f[1:])}"
                       + ("" if text(got) == want else f" (model: {text(got)!r})"))
        elif kind == "why":
            target, pol, reason = f[1], f[2], f[3]
            maxdepth = int(o.get("maxdepth", 4))
            has = bool(paths(graph(pol, t), rank, src, target, maxdepth, 1))
            ok = has if reason == "ok" else not has
            if reason == "beyond-maxdepth":
                ok = ok and bool(paths(graph(pol, t), rank, src, target, 16, 1))
            elif reason == "policy":
                ok = ok and bool(paths(graph("sha1", t), rank, src, target, maxdepth, 1))
            elif reason != "ok":
                ok = ok and not paths(graph("sha1", t), rank, src, target, 16, 1)
            report(ok, f"why {' '.join(f[1:])}")
        elif kind == "audit":
            if f[1] == "lost":
                lost_expected.add(f[2])
            elif f[1] == "kept":
                kept.add(f[2])
            elif f[1] == "recert":
                recert.add((f[2], f[3]))
            elif f[1] == "norecert":
                norecert.add((f[2], f[3]))
            else:
                counts[f[1]] = int(f[2])

    # audit: keys reachable with SHA-1 accepted but not under the standard
    # policy; the certifications to make again = edges only SHA-1 gives
    if lost_expected or kept or recert or norecert or counts:
        base, std = graph("sha1", at), graph("std", at)
        rb, rs = reachable(base, root_kid), reachable(std, root_kid)
        lost = rb - rs
        report(lost == lost_expected, f"audit lost = {sorted(lost_expected)}"
               + ("" if lost == lost_expected else f" (model: {sorted(lost)})"))
        report(not (kept & lost), "audit kept keys are not lost")
        report(counts.get("nlost") == len(lost), f"audit nlost {counts.get('nlost')}")
        only_sha1 = sorted((i, t2) for i in base for t2 in base[i] if t2 not in std[i])

        def restores(chosen):
            g = {k: set(v) for k, v in std.items()}
            for i, t2 in chosen:
                g[i].add(t2)
            return lost <= reachable(g, root_kid)

        minimal = []
        for n in range(len(only_sha1) + 1):
            for c in itertools.combinations(only_sha1, n):
                if restores(c) and not any(set(m) <= set(c) for m in minimal):
                    minimal.append(c)
        report(len(minimal) == 1, f"audit: one minimal re-certification set (model: {len(minimal)})")
        report(restores(recert) and all(not restores(recert - {c}) for c in recert),
               "audit recert set restores every lost key and is minimal")
        report(bool(minimal) and set(minimal[0]) == recert, "audit recert set = the model's")
        report(not (norecert & recert), "audit norecert pairs are not in the set")
        report(counts.get("nrecert") == len(recert), f"audit nrecert {counts.get('nrecert')}")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
