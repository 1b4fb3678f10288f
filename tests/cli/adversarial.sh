#!/bin/sh
# Red-team verification vectors (see adversarial.py, vectors/gen/adversarial.py).
exec python3 "$(dirname "$0")/adversarial.py" "$@"
