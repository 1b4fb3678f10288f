#!/usr/bin/env python3
"""Cross-check `wotkit verify` against ../shared/corpus/EXPECTED.tsv.

For every signature case:
- gpg and sq agree that it verifies: wotkit must exit 0, and every primary
  fingerprint gpg reports as good (or good-but-expired) must be among the
  certificates of wotkit's good signatures;
- they agree that it does not verify: wotkit must exit non-zero;
- they disagree: docs/disagreements.md must hold a row for the case, and
  wotkit's statuses must equal that row's "wotkit" column exactly;
- a case with a row in docs/disagreements.md is always checked against the
  row (that is how cases where the RFC overrules both tools are recorded).
All runs use --at 2026-12-02T12:00:00Z, the clock the corpus results were
made with. Prints TAP lines.
"""
import json, os, re, subprocess, sys, tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
corpus = os.environ.get("WOTKIT_CORPUS", os.path.join(top, "..", "shared", "corpus"))
wotkit = os.environ.get("WOTKIT", os.path.join(top, "wotkit"))
AT = "2026-12-02T12:00:00Z"

if not os.path.exists(os.path.join(corpus, "EXPECTED.tsv")):
    print("skip - corpus not found at %s" % corpus)
    sys.exit(0)


def load_table():
    rows = {}
    path = os.path.join(top, "docs", "disagreements.md")
    for line in open(path, encoding="utf-8"):
        if not line.startswith("| ") or line.startswith("| case") or line.startswith("|--"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) >= 5:
            rows[cells[0].strip("`")] = cells[3].strip("`")
    return rows


def gpg_accepts(g):
    # gpgv exit 0 or any entry good / good-with-expired-key
    return bool(re.search(r"(^|\+)(good|expired-key):", g))


def gpg_good_fprs(g):
    return set(re.findall(r"(?:^|\+)(?:good|expired-key):([0-9A-F]{40})", g))


def sq_accepts(s):
    return ":good:" in s


tmp = tempfile.mkdtemp()
table = load_table()
fails = 0
seen_disagree = set()
for line in open(os.path.join(corpus, "EXPECTED.tsv"), encoding="utf-8"):
    f = line.rstrip("\n").split("\t")
    if f[0] == "case_id" or len(f) < 7 or f[1] == "cert":
        continue
    cid, kind, sig, data, krs, gpg, sq = f[:7]
    args = [wotkit, "verify", "--json", "--at", AT]
    for k in krs.split():
        if k != "-":
            args += ["--keyring", os.path.join(corpus, k)]
    if not any(a == "--keyring" for a in args):
        args += ["--keyring", "/dev/null"]
    args.append(os.path.join(corpus, sig))
    if data.startswith("GEN:zeros:"):
        p = os.path.join(tmp, "zeros")
        with open(p, "wb") as z:
            n = int(data.split(":")[2])
            while n > 0:
                k = min(n, 1 << 20)
                z.write(b"\0" * k)
                n -= k
        args.append(p)
    elif data == "GEN:empty":
        p = os.path.join(tmp, "empty")
        open(p, "wb").close()
        args.append(p)
    elif data != "-":
        args.append(os.path.join(corpus, data))
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        j = json.loads(r.stdout.decode())
        statuses = "+".join(s["status"] for s in j["signatures"])
        good_certs = set(s["cert"] for s in j["signatures"] if s["status"] == "ok")
    except ValueError:
        statuses = "error(rc=%d)" % r.returncode
        good_certs = set()
    if r.returncode == 139 or r.returncode < 0:
        print("not ok - %s: crashed (rc=%d)" % (cid, r.returncode))
        fails += 1
        continue
    ga, sa = gpg_accepts(gpg), sq_accepts(sq)
    if cid in table:
        # a documented disagreement (with one tool, or with both where the
        # RFC text decides): wotkit must say exactly what the table says
        seen_disagree.add(cid)
        if table[cid] != statuses:
            print("not ok - %s: docs/disagreements.md says %s, wotkit says %s" % (cid, table[cid], statuses))
            fails += 1
        else:
            print("ok - %s: documented verdict (%s)" % (cid, statuses))
    elif ga == sa:
        if ga:
            want = gpg_good_fprs(gpg)
            if r.returncode != 0:
                print("not ok - %s: gpg and sq accept, wotkit says %s (rc=%d)" % (cid, statuses, r.returncode))
                fails += 1
            elif not want <= good_certs:
                print("not ok - %s: signer %s, gpg says %s" % (cid, sorted(good_certs), sorted(want)))
                fails += 1
            else:
                print("ok - %s: agree good (%s)" % (cid, statuses))
        else:
            if r.returncode == 0:
                print("not ok - %s: gpg and sq reject, wotkit accepts (%s)" % (cid, statuses))
                fails += 1
            else:
                print("ok - %s: agree not good (%s)" % (cid, statuses))
    else:
        print("not ok - %s: gpg/sq disagree and docs/disagreements.md has no row; wotkit: %s"
              % (cid, statuses))
        fails += 1
for cid in sorted(set(table) - seen_disagree):
    print("not ok - docs/disagreements.md row %s is not a signature case of EXPECTED.tsv" % cid)
    fails += 1
sys.exit(1 if fails else 0)
