#!/usr/bin/env python3
"""gen_gxown_corpus.py - writes the seed corpus of fuzz_gxown into
tests/fuzz/corpus/gxown/. Each file is the target's input: flags (bit 0:
SHA-256), the .idx and .pack lengths (4 octets each, big-endian), the .idx,
the .pack, and one loose object. Sources:
  - the hand-made SHA-256 packs of tests/cli/git_sha256_pack.py (a blob and
    its OFS_DELTA, a REF_DELTA, deltas reading outside their base, a wrong
    base size, a result longer than declared, a REF_DELTA cycle, an
    unsorted index, the reserved type 5, 64-bit offsets);
  - small repositories written by git itself (SHA-1 and SHA-256 when this
    git supports it) with commits, trees, tags and deltified blobs
    (git repack -adf), with one of their loose objects.
Deterministic (fixed dates and names). usage: python3
tests/fuzz/gen_gxown_corpus.py (run from the top)
"""
import glob
import os
import shutil
import struct
import subprocess
import tempfile

OUT = "tests/fuzz/corpus/gxown"
KINDS = ["good", "refdelta", "outside", "srcsize", "longer", "cycle", "unsorted", "badtype", "bigoff"]


def rd(p):
    with open(p, "rb") as f:
        return f.read()


def entry(name, sha256, idx, pack, loose=b""):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(bytes([1 if sha256 else 0]) + struct.pack(">II", len(idx), len(pack)) + idx + pack + loose)


def one_pack(objdir):
    idx = sorted(glob.glob(os.path.join(objdir, "pack", "*.idx")))
    if not idx:
        return None, None
    return rd(idx[0]), rd(idx[0][:-4] + ".pack")


def git(repo, *args, env=None):
    e = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.org",
             GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.org",
             GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_DATE="1700000000 +0000",
             GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", "-C", repo] + list(args), env=e, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout


def repo(tmp, fmt):
    r = os.path.join(tmp, "repo-" + fmt)
    try:
        subprocess.run(["git", "init", "-q", "--object-format=" + fmt, r], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except subprocess.CalledProcessError:
        return None
    text = "".join("line %d of a file that changes a little\n" % i for i in range(60))
    for k in range(4):
        with open(os.path.join(r, "f.txt"), "w") as f:
            f.write(text.replace("line %d " % (k * 7), "LINE %d " % k))
        os.makedirs(os.path.join(r, "keys"), exist_ok=True)
        with open(os.path.join(r, "keys", "k%d.asc" % k), "w") as f:
            f.write("key %d\n" % k)
        git(r, "add", "-A")
        git(r, "commit", "-q", "-m", "c%d" % k)
    git(r, "tag", "-a", "-m", "tag", "v1")
    # one loose object before packing: the last commit
    head = git(r, "rev-parse", "HEAD").decode().strip()
    loose = rd(os.path.join(r, ".git", "objects", head[:2], head[2:]))
    git(r, "repack", "-q", "-adf", "--depth=10", "--window=10")
    idx, pack = one_pack(os.path.join(r, ".git", "objects"))
    return idx, pack, loose


def main():
    os.makedirs(OUT, exist_ok=True)
    # crash-* inputs found by the fuzzer are kept (regressions)
    for f in os.listdir(OUT):
        if not f.startswith("crash-"):
            os.unlink(os.path.join(OUT, f))
    with tempfile.TemporaryDirectory() as tmp:
        for k in KINDS:
            objdir = os.path.join(tmp, k)
            subprocess.run(["python3", "tests/cli/git_sha256_pack.py", k, objdir], check=True,
                           stdout=subprocess.DEVNULL)
            idx, pack = one_pack(objdir)
            entry("sha256-" + k, True, idx, pack)
        for fmt in ("sha1", "sha256"):
            got = repo(tmp, fmt)
            if got is None or got[0] is None:
                print("gxown: git cannot write %s repositories; skipped" % fmt)
                continue
            idx, pack, loose = got
            entry("git-" + fmt, fmt == "sha256", idx, pack, loose)
            entry("git-" + fmt + "-loose-only", fmt == "sha256", b"", b"", loose)
    n = len(os.listdir(OUT))
    size = sum(os.path.getsize(os.path.join(OUT, f)) for f in os.listdir(OUT))
    print("gxown: %d files, %d octets" % (n, size))


main()
