#!/usr/bin/env python3
"""gen_pgpkeys_corpus.py - writes the seed corpus of fuzz_pgpkeys into
tests/fuzz/corpus/pgpkeys/: in-memory pgpkeys.git trees in the target's
input format (files separated by the line "--8<--", each a path line and
its content; "N:" before a path puts it in source tree N), built from the
demo tree (vectors/demo/pgpkeys) and the keyring-source vectors
(vectors/pgpkeys): a consistent tree, misnamed key files, two certificates
in one file, an empty file, the same key in two trees, dangling and
malformed links, links to a file without the address, url-quoted and badly
quoted addresses, a revoked user ID, an expired key, armored and binary
files. Deterministic. usage: python3 tests/fuzz/gen_pgpkeys_corpus.py
(run from the top)
"""
import os

OUT = "tests/fuzz/corpus/pgpkeys"
SEP = b"\n--8<--\n"
DEMO = "vectors/demo/pgpkeys"
V = "vectors/pgpkeys"


def read(p):
    with open(p, "rb") as f:
        return f.read()


def keyids():
    ids = {}
    for line in read(V + "/KEYIDS").decode().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, kid, _ = line.split("\t")
        ids[name] = kid
    return ids


def link(kid):
    return ("../../../../keys/%s.asc" % kid).encode()


def write(name, files):
    blob = SEP.join(path.encode() + b"\n" + content for path, content in files)
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(blob)


def main():
    os.makedirs(OUT, exist_ok=True)
    # crash-* inputs found by the fuzzer are kept (regressions)
    for f in os.listdir(OUT):
        if not f.startswith("crash-"):
            os.unlink(os.path.join(OUT, f))
    # the demo tree as it is
    demo = []
    for root, _dirs, names in sorted(os.walk(DEMO)):
        for n in sorted(names):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, DEMO)
            demo.append((rel, os.readlink(p).encode() if os.path.islink(p) else read(p)))
    write("demo-tree", demo)
    ids = keyids()
    k = {n: read("%s/%s.pgp" % (V, n)) for n in ids}
    ok = [("keys/%s.asc" % ids["alice"], k["alice"]),
          ("keys/%s.asc" % ids["bob"], k["bob"]),
          (".keyring/openpgp/example.org/alice/default", link(ids["alice"])),
          (".keyring/openpgp/example.org/bob/default", link(ids["bob"]) + b"\n")]
    write("consistent", ok)
    write("misnamed", [("keys/%s.asc" % ids["bob"], k["alice"]),
                       ("keys/alice.asc", k["alice"]),
                       ("keys/%s.asc" % ids["alice"].lower(), k["alice"])])
    write("two-in-one", [("keys/%s.asc" % ids["alice"], read(V + "/alice+bob.pgp"))])
    write("empty-and-garbage", [("keys/%s.asc" % ids["dave"], b""),
                                ("keys/%s.asc" % ids["erin"], read(V + "/garbage.asc")),
                                ("keys/%s.asc" % ids["alice"], read(V + "/alice-truncated.pgp"))])
    write("two-trees", ok + [("1:keys/%s.asc" % ids["alice"], k["alice"]),
                             ("1:.keyring/openpgp/example.org/alice/default", link(ids["bob"]))])
    write("bad-links", [("keys/%s.asc" % ids["alice"], k["alice"]),
                        (".keyring/openpgp/example.org/alice/default", b"../keys/x.asc"),
                        (".keyring/openpgp/example.org/ghost/default", link("0123456789ABCDEF")),
                        (".keyring/openpgp/example.org/bob/default", link(ids["alice"])),
                        (".keyring/openpgp/example.org/alice/default", link(ids["alice"]) + b"\n\n")])
    write("quoted", [("keys/%s.asc" % ids["alice"], k["alice"]),
                     (".keyring/openpgp/Work.Example/Alice/default", link(ids["alice"])),
                     (".keyring/openpgp/example.org/al%69ce/default", link(ids["alice"])),
                     (".keyring/openpgp/example.org/%2E%2E/default", link(ids["alice"])),
                     (".keyring/openpgp/example.org/a%00b/default", link(ids["alice"])),
                     (".keyring/openpgp/example.org/a%zz/default", link(ids["alice"])),
                     (".keyring/openpgp/%F0%9F%94%91/x%20y/default", link(ids["alice"]))])
    write("revoked-expired", [("keys/%s.asc" % ids["carol"], k["carol"]),
                              ("keys/%s.asc" % ids["expired"], k["expired"]),
                              ("keys/%s.asc" % ids["mallory"], k["mallory"]),
                              (".keyring/openpgp/example.org/carol/default", link(ids["carol"])),
                              (".keyring/openpgp/new.example/carol/default", link(ids["carol"])),
                              (".keyring/openpgp/example.org/old/default", link(ids["expired"])),
                              (".keyring/openpgp/example.org/mallory/default", link(ids["mallory"]))])
    write("shared", [("keys/%s.asc" % ids["dave"], k["dave"]),
                     ("keys/%s.asc" % ids["erin"], k["erin"]),
                     (".keyring/openpgp/example.org/shared/default", link(ids["dave"]))])
    twins = [("keys/6F70AA8C1C138A7B.asc", read(V + "/keyid-twin-a.pgp")),
             ("1:keys/6F70AA8C1C138A7B.asc", read(V + "/keyid-twin-b.pgp"))]
    write("keyid-twins", twins)
    write("ignored", [("README", b"x"), ("keys/sub/x.asc", k["alice"]),
                      ("keys/.hidden.asc", k["alice"]), (".keyring/openpgp/a/b/c/default", b"")])
    print("pgpkeys: %d files" % len(os.listdir(OUT)))


main()
