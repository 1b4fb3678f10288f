#!/usr/bin/env python3
"""krfile.py - writes vectors/krfile/MANIFEST: the keyring file mutations of
tests/cli/krfile.py and the outcome each must have (the mutants themselves are
made at test time from a keyring built then; tests/cli/krfile.sh).

    python3 vectors/gen/krfile.py [OUTDIR]     (default vectors/krfile)
"""
import os
import sys

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(top, "tests", "cli"))
import krfile  # noqa: E402

out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "vectors", "krfile")
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "MANIFEST"), "w", encoding="utf-8") as f:
    f.write(krfile.manifest())
