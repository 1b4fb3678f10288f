#!/usr/bin/env python3
"""`wotkit wot validity` against GnuPG 2.2's classic trust model (run by
tests/cli/wot_validity.sh). TAP output.

1. The pgpkeys sample of the corpus ($WOTKIT_CORPUS/pgpkeys): a keyring of
   its 11 keys, and the three ownertrust settings of GPG-VALIDITY.txt
   (A, B, C). The settings and the expected letters are read from that
   file: ownertrust from its "# echo FPR:N: | gpg --import-ownertrust" lines
   and from the "(N)" code of a section heading, applied to the keys the
   heading names: by fingerprint, abbreviated as "647F...693E", or by the
   first word of the user ID its summary shows ("Greg"). Each setting adds
   to the previous one, as the file's gpg session did. The settings read
   are checked against the section's gpg log (as many "inserting /
   setting / changing ownertrust" lines as keys changed) and against the
   ownertrust column (9) of its raw --with-colons listing where there is
   one. Expected: every key's letter of the section's
   summary, and every user ID's letter of its raw listing. Evaluated with
   --at 2026-12-02T23:14:00Z (the file's clock) and --allow-sha1 (GnuPG 2.2
   accepts SHA-1 certifications).
2. vectors/trust (vectors/gen/gen_trust.sh): every key-validity and
   uid-validity line of its MANIFEST, for every scenario.
3. Live, where gpg is installed: vectors/gen/gpg_validity.sh runs GnuPG on
   the same keys and ownertrust (both parts) and every letter is compared
   with wotkit's directly.
"""
import json, os, re, shutil, subprocess, sys, tempfile, time, calendar

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
corpus = os.environ.get("WOTKIT_CORPUS", os.path.join(top, "..", "shared", "corpus"))
tmp = tempfile.mkdtemp(prefix="wotkit-validity-")
have_gpg = shutil.which("gpg") is not None and shutil.which("gpgconf") is not None
NAMES = {"ultimate": "u", "full": "f", "marginal": "m", "undefined": "q", "unknown": "-",
         "expired": "e", "revoked": "r"}
OT_LETTER = {"u": 6, "f": 5, "m": 4, "n": 3, "q": 2, "-": 0}
failed = 0


def ok(cond, name, detail=()):
    global failed
    if cond:
        print("ok - " + name)
    else:
        failed += 1
        print("not ok - " + name)
        for d in list(detail)[:20]:
            print("# " + d)


def run(args, **kw):
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw)


def build(out, sources, root=None):
    args = [wotkit, "keyring", "build", "-o", out]
    if root:
        args += ["--root", root]
    r = run(args + sources)
    if r.returncode != 0:
        print("not ok - keyring build %s: %s" % (sources, r.stderr.decode(errors="replace")[:300]))
        sys.exit(1)


def write_trust(path, ot):
    with open(path, "w") as f:
        f.write("# written by tests/cli/wot_validity.py\n")
        for fpr, v in sorted(ot.items()):
            if v:
                f.write("%s:%d:\n" % (fpr, v))


def wotkit_validity(ring, trust, at, opts=()):
    """{fpr: (key letter, [(uid text or None, letter)], ownertrust)}"""
    r = run([wotkit, "wot", "validity", "--json", "--keyring", ring, "--trust-file", trust,
             "--at", str(at)] + list(opts))
    if r.returncode != 0:
        return None, r.stderr.decode(errors="replace")
    res = {}
    for k in json.loads(r.stdout):
        uids = [(None if u.get("attribute") else u["uid"], NAMES[u["validity"]]) for u in k["uids"]]
        res[k["fpr"]] = (NAMES[k["validity"]], uids, k["ownertrust"])
    return res, ""


def gpg_validity(keyring, ot, at, opts=()):
    """GnuPG's letters through vectors/gen/gpg_validity.sh: {fpr: (letter, [(uid, letter)])}"""
    otf = os.path.join(tmp, "gpg-ot")
    write_trust(otf, ot)
    r = run(["sh", os.path.join(top, "vectors/gen/gpg_validity.sh"), keyring, otf, str(at)] + list(opts))
    if r.returncode != 0:
        return None
    res = {}
    for line in r.stdout.decode("utf-8", errors="replace").splitlines():
        f = line.split("\t")
        if f[0] == "pub":
            res[f[1]] = (f[2], [])
        elif f[0] == "uid" and f[1] in res:
            res[f[1]][1].append((f[3], f[2]))
    return res


def compare_uids(want, got_uids, what):
    """want: [(uid text, letter)] for user IDs (attributes: text None, in order)"""
    diffs = []
    by_text = {}
    attrs = [l for (u, l) in got_uids if u is None]
    for u, l in got_uids:
        if u is not None:
            by_text.setdefault(u, []).append(l)
    ai = 0
    for u, l in want:
        if u is None:
            g = attrs[ai] if ai < len(attrs) else None
            ai += 1
        else:
            g = by_text.get(u, [None])[0]
        if g != l:
            diffs.append("%s %s: wotkit %s, gpg %s" % (what, u if u is not None else "[attribute]", g, l))
    return diffs


# ---- 1. the corpus' pgpkeys sample -------------------------------------------------

def parse_gpg_validity(path):
    """[(name, heading, ownertrust {fpr-or-abbrev: N}, summary {keyid: letter},
         raw {fpr: (letter, ownertrust letter, [(uid or None, letter)])} or None)]"""
    secs = []
    cur = None
    mode = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^## ([A-Z])\) (.*)$", line)
            if m:
                cur = {"name": m.group(1), "heading": m.group(2), "echo": {}, "summary": {},
                       "uid": {}, "raw": None, "otlog": 0}
                secs.append(cur)
                mode = None
                continue
            if cur is None:
                continue
            if re.match(r"^gpg: (inserting|setting|changing) ownertrust ", line):
                cur["otlog"] += 1
                continue
            if line.startswith("### summary"):
                mode = "summary"
                continue
            if line.startswith("### raw"):
                mode = "raw"
                cur["raw"] = {}
                rawpub = None
                continue
            m = re.match(r"^# echo ((?:[0-9A-F]{40}:\d+:\s*)+)\|", line)
            if m:
                for fpr, n in re.findall(r"([0-9A-F]{40}):(\d+):", m.group(1)):
                    cur["echo"][fpr] = int(n)
                continue
            if mode == "summary":
                m = re.match(r"^([0-9A-F]{16}) (\S) (.*)$", line)
                if m:
                    cur["summary"][m.group(1)] = m.group(2)
                    cur["uid"][m.group(1)] = m.group(3)
            elif mode == "raw":
                c = line.split(":")
                if c[0] == "pub":
                    rawpub = {"letter": c[1], "ot": c[8], "uids": []}
                elif c[0] == "fpr" and rawpub is not None and "fpr" not in rawpub:
                    rawpub["fpr"] = c[9]
                    cur["raw"][c[9]] = rawpub
                elif c[0] in ("uid", "uat") and rawpub is not None:
                    text = None if c[0] == "uat" else c[9].replace("\\x3a", ":")
                    rawpub["uids"].append((text, c[1]))
    return secs


def corpus_part():
    pk = os.path.join(corpus, "pgpkeys")
    gv = os.path.join(pk, "GPG-VALIDITY.txt")
    if not os.path.isfile(gv) or not os.path.isdir(os.path.join(pk, "keys")):
        print("skip - %s absent: no GnuPG comparison on the pgpkeys sample" % gv)
        return
    at = "2026-12-02T23:14:00Z"
    at_unix = calendar.timegm(time.strptime(at, "%Y-%m-%dT%H:%M:%SZ"))
    ring = os.path.join(tmp, "pgpkeys.wk")
    build(ring, [os.path.join(pk, "keys")])
    secs = parse_gpg_validity(gv)
    ok(len(secs) >= 3 and all(len(s["summary"]) == 11 for s in secs),
       "GPG-VALIDITY.txt: %d sections with an 11-key summary each" % len(secs))
    empty = os.path.join(tmp, "empty.trust")
    write_trust(empty, {})
    base, err = wotkit_validity(ring, empty, at, ["--allow-sha1"])
    if base is None:
        ok(False, "wot validity over the sample", [err])
        return
    fprs = sorted(base)
    keyid_of = {f: f[-16:] for f in fprs}
    ot = {}
    for s in secs:
        before = dict(ot)
        for fpr, n in s["echo"].items():
            ot[fpr] = n
        m = re.search(r"\((\d)\)", s["heading"])
        if m:
            named = set()
            for a, b in re.findall(r"\b([0-9A-F]{4})\.\.\.([0-9A-F]{4})\b", s["heading"]):
                hit = [f for f in fprs if f.startswith(a) and f.endswith(b)]
                ok(len(hit) == 1, "%s: heading's %s...%s names one key" % (s["name"], a, b))
                named.update(hit)
            named.update(f for f in fprs if f in s["heading"])
            words = set(re.findall(r"[A-Za-z]+", s["heading"]))
            for kid, uid in s["uid"].items():
                first = uid.split()[0] if uid.split() else ""
                named.update(f for f in fprs if keyid_of[f] == kid and first in words)
            for f in named:
                ot[f] = int(m.group(1))
        setting = dict(ot)
        changed = sum(1 for f in set(ot) | set(before) if ot.get(f, 0) != before.get(f, 0))
        ok(changed == s["otlog"] and changed > 0,
           "%s: %d ownertrust values set, as the section's gpg log says (%d)"
           % (s["name"], changed, s["otlog"]))
        if s["raw"]:
            want = {f: OT_LETTER.get(r["ot"], -1) for f, r in s["raw"].items()}
            got = {f: setting.get(f, 0) for f in want}
            ok(want == got, "%s: ownertrust read from the file = its raw listing's column 9 (%s)"
               % (s["name"], ", ".join("%s:%d" % (keyid_of.get(f, f), v) for f, v in sorted(setting.items()))))
        trust = os.path.join(tmp, "pgpkeys-%s.trust" % s["name"])
        write_trust(trust, setting)
        res, err = wotkit_validity(ring, trust, at, ["--allow-sha1"])
        if res is None:
            ok(False, "%s: wot validity" % s["name"], [err])
            continue
        by_keyid = {keyid_of[f]: v for f, v in res.items()}
        for kid, letter in sorted(s["summary"].items()):
            got = by_keyid.get(kid, (None,))[0]
            ok(got == letter, "pgpkeys %s: %s validity %s as gpg (wotkit %s)" % (s["name"], kid, letter, got))
        if s["raw"]:
            diffs, n = [], 0
            for f, r in s["raw"].items():
                n += len(r["uids"])
                diffs += compare_uids(r["uids"], res.get(f, (None, []))[1], keyid_of.get(f, f))
            ok(not diffs, "pgpkeys %s: the validity of all %d user IDs and attributes as gpg's listing"
               % (s["name"], n), diffs)
        if have_gpg:
            keys = os.path.join(tmp, "pgpkeys.pgp")
            if not os.path.exists(keys):
                with open(keys, "wb") as out:
                    for fn in sorted(os.listdir(os.path.join(pk, "keys"))):
                        with open(os.path.join(pk, "keys", fn), "rb") as kf:
                            out.write(kf.read())
            g = gpg_validity(keys, setting, at_unix)
            if g is None:
                ok(False, "pgpkeys %s: gpg_validity.sh ran" % s["name"])
                continue
            diffs = []
            for f, (letter, uids) in g.items():
                w = res.get(f)
                if w is None or w[0] != letter:
                    diffs.append("%s: wotkit %s, live gpg %s" % (keyid_of.get(f, f), w and w[0], letter))
                diffs += compare_uids(uids, w[1] if w else [], keyid_of.get(f, f))
            ok(not diffs and len(g) == 11, "pgpkeys %s: live gpg agrees on %d keys and their user IDs"
               % (s["name"], len(g)), diffs)
    # the keyring's root is ultimate unless the trust file says otherwise
    rooted = os.path.join(tmp, "pgpkeys-root.wk")
    a = secs[0]
    ult = [f for f, n in a["echo"].items() if n == 6]
    if len(ult) == 1:
        build(rooted, [os.path.join(pk, "keys")], root=ult[0])
        res, err = wotkit_validity(rooted, empty, at, ["--allow-sha1"])
        got = {keyid_of[f]: v[0] for f, v in (res or {}).items()}
        ok(res is not None and got == a["summary"], "pgpkeys A through the keyring's --root "
           "(empty trust file) as gpg", [err])
        never = os.path.join(tmp, "never.trust")
        write_trust(never, {ult[0]: 3})
        res, err = wotkit_validity(rooted, never, at, ["--allow-sha1"])
        ok(res is not None and all(v[0] in "-er" for v in res.values()),
           "the trust file overrides the root's default ultimate (never: no key is valid)", [err])
    if not have_gpg:
        print("skip - gpg not installed: no live GnuPG cross-check on the pgpkeys sample")


# ---- 2. vectors/trust ------------------------------------------------------------

def vectors_part():
    d = os.path.join(top, "vectors", "trust")
    man = os.path.join(d, "MANIFEST")
    keys, scen, ots, kv, uv = {}, [], {}, {}, {}
    at = None
    with open(man, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c = line.rstrip("\n").split("\t")
            if c[0] == "at":
                at = int(c[1])
            elif c[0] == "key":
                keys[c[1]] = c[2]
            elif c[0] == "scenario":
                scen.append((c[1], c[2], c[3].split() if len(c) > 3 else []))
            elif c[0] == "ot":
                ots.setdefault(c[1], {})[keys[c[2]]] = int(c[3])
            elif c[0] == "key-validity":
                kv.setdefault(c[1], {})[keys[c[2]]] = c[3]
            elif c[0] == "uid-validity":
                uv.setdefault(c[1], {}).setdefault(keys[c[2]], []).append((c[4], c[3]))
    name_of = {v: k for k, v in keys.items()}
    npos = sum(1 for s in kv.values() for l in s.values() if l in "uf") + \
        sum(1 for s in uv.values() for us in s.values() for u, l in us if l in "uf")
    nneg = sum(1 for s in kv.values() for l in s.values() if l not in "uf") + \
        sum(1 for s in uv.values() for us in s.values() for u, l in us if l not in "uf")
    ok(at is not None and len(keys) > 0 and len(scen) > 0 and nneg >= npos,
       "vectors/trust/MANIFEST: %d keys, %d scenarios, %d positive and %d negative expectations"
       % (len(keys), len(scen), npos, nneg))
    ring = os.path.join(tmp, "web.wk")
    build(ring, [os.path.join(d, "web.pgp")])
    for name, desc, opts in scen:
        trust = os.path.join(tmp, "web-%s.trust" % name)
        write_trust(trust, ots.get(name, {}))
        res, err = wotkit_validity(ring, trust, "@%d" % at, opts)
        if res is None:
            ok(False, "trust vectors %s: wot validity" % name, [err])
            continue
        diffs = []
        for fpr, letter in sorted(kv.get(name, {}).items()):
            got = res.get(fpr, (None,))[0]
            if got != letter:
                diffs.append("%s: wotkit %s, MANIFEST %s" % (name_of[fpr], got, letter))
        nu = 0
        for fpr, us in sorted(uv.get(name, {}).items()):
            nu += len(us)
            diffs += compare_uids(us, res.get(fpr, (None, []))[1], name_of[fpr])
        ok(not diffs and len(kv.get(name, {})) == len(keys),
           "trust vectors %s (%s): %d keys and %d user IDs as the MANIFEST"
           % (name, desc, len(kv.get(name, {})), nu), diffs)
        if have_gpg:
            g = gpg_validity(os.path.join(d, "web.pgp"), ots.get(name, {}), at, opts)
            diffs = []
            if g is None:
                diffs.append("gpg_validity.sh failed")
            else:
                for fpr, (letter, uids) in g.items():
                    w = res.get(fpr)
                    if w is None or w[0] != letter:
                        diffs.append("%s: wotkit %s, live gpg %s" % (name_of.get(fpr, fpr), w and w[0], letter))
                    diffs += compare_uids(uids, w[1] if w else [], name_of.get(fpr, fpr))
            ok(not diffs and g is not None and len(g) == len(keys),
               "trust vectors %s: live gpg agrees on every key and user ID" % name, diffs)
    if not have_gpg:
        print("skip - gpg not installed: no live GnuPG cross-check on vectors/trust")


try:
    corpus_part()
    vectors_part()
finally:
    shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failed else 0)
