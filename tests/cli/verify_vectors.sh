#!/bin/sh
# Generated verification vectors (see verify_vectors.py).
exec python3 "$(dirname "$0")/verify_vectors.py"
