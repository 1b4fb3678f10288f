#!/usr/bin/env python3
# tests/fuzz/gen_gitobj_corpus.py - seeds of tests/fuzz/corpus/gitobj/ for
# fuzz_gitobj.c: object streams of `wotkit-git objects` (keyring/gitobj.h),
# each prefixed with the read-size octet the target takes first.
import os, struct, sys
out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "corpus", "gitobj")
os.makedirs(out, exist_ok=True)
def rec(kind, body):
    return kind + struct.pack(">I", len(body)) + body
def fmt(n): return rec(b"F", bytes([n]))
def obj(t, oid, name, data): return rec(b"O", bytes([t]) + oid + struct.pack(">H", len(name)) + name + data)
def fail(name, text): return rec(b"X", struct.pack(">H", len(name)) + name + text)
def end(n): return rec(b"Z", struct.pack(">I", n))
def fatal(text): return rec(b"E", text)
M = b"WKGOBJ1\n"
commit = b"tree " + b"4b825dc642cb6eb9a060e54bf8d69288fbee4904" + b"\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n\nm\n"
tag = b"object " + b"1" * 40 + b"\ntype commit\ntag v1\ntagger T <t@x> 1 +0000\n\nv1\n"
seeds = {
    "empty": M + fmt(20) + end(0),
    "objects": M + fmt(20) + obj(1, b"\xab" * 20, b"HEAD", commit) + obj(4, b"\x01" * 20, b"refs/tags/v1", tag) + fail(b"nope", b"unknown revision") + end(3),
    "sha256": M + fmt(32) + obj(1, b"\xcd" * 32, b"a..b", commit) + end(1),
    "fatal": M + fatal(b"repo: not a git repository"),
    "cut": (M + fmt(20) + obj(4, b"\x01" * 20, b"v1", tag))[:-3],
}
for name, s in seeds.items():
    for chunk in (0, 3):
        with open(os.path.join(out, "%s-%d" % (name, chunk)), "wb") as f:
            f.write(bytes([chunk]) + s)
