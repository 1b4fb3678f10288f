#!/bin/sh
# Cross-check against the corpus's gpg/sq results (see verify_corpus.py).
exec python3 "$(dirname "$0")/verify_corpus.py"
