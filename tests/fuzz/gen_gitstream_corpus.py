#!/usr/bin/env python3
"""gen_gitstream_corpus.py - seeds for tests/fuzz/fuzz_gitstream.c: streams
as wotkit-git writes them (docs/git-reader.md) and broken ones.

    python3 tests/fuzz/gen_gitstream_corpus.py [OUTDIR]  (default tests/fuzz/corpus/gitstream)
"""
import os
import struct
import sys

MAGIC = b"WKGIT1\n\x00"


def text(kind, s):
    return kind + struct.pack(">H", len(s)) + s


def blob(path, mode, data):
    return b"B" + struct.pack(">H", len(path)) + path + struct.pack(">II", mode, len(data)) + data


def end(n):
    return b"Z" + struct.pack(">I", n)


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus", "gitstream")
    os.makedirs(top, exist_ok=True)
    commit = text(b"C", b"3f1c0d5e9a7b2c4d6e8f0a1b2c3d4e5f6a7b8c9d")
    key = blob(b"keys/79BE3E4300411886.asc", 0o100644, b"-----BEGIN PGP PUBLIC KEY BLOCK-----\n")
    link = blob(b".keyring/openpgp/kernel.org/torvalds/default", 0o120000,
                b"../../../../keys/79BE3E4300411886.asc")
    plain = blob(b".keyring/openpgp/1wt.eu/w/default", 0o100644,
                 b"../../../../keys/4E386D9C9C61702F.asc")
    seeds = {
        "empty-tree": MAGIC + commit + end(0),
        "tree": MAGIC + commit + key + link + plain + end(3),
        "no-commit": MAGIC + key + end(1),
        "error": MAGIC + text(b"E", b"HEAD~9: no commit: revspec not found"),
        "truncated": (MAGIC + commit + key + link + end(2))[:-30],
        "no-end": MAGIC + commit + key,
        "count-mismatch": MAGIC + commit + key + end(2),
        "trailing": MAGIC + commit + key + end(1) + b"\x00",
        "dotdot": MAGIC + blob(b"keys/../../etc/passwd", 0o100644, b"x") + end(1),
        "absolute": MAGIC + blob(b"/keys/x", 0o100644, b"x") + end(1),
        "outside": MAGIC + blob(b"graphs/x.svg", 0o100644, b"x") + end(1),
        "nul-path": MAGIC + blob(b"keys/a\x00b", 0o100644, b"x") + end(1),
        "bad-mode": MAGIC + blob(b"keys/x", 0o040000, b"") + end(1),
        "huge-size": MAGIC + b"B" + struct.pack(">H", 6) + b"keys/x" + struct.pack(">II", 0o100644, 0x7fffffff),
        "bad-magic": b"WKGIT2\n\x00" + end(0),
        "unknown-kind": MAGIC + b"Q" + end(0),
        "commit-late": MAGIC + key + commit + end(1),
    }
    for n, d in seeds.items():
        with open(os.path.join(top, n), "wb") as f:
            f.write(d)


if __name__ == "__main__":
    main()
