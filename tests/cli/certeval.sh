#!/bin/sh
# Certificate evaluation vectors (vectors/gen/certeval.py): the verify
# MANIFEST through adversarial.py, then inspect states and the flood.
d=$(dirname "$0")
python3 "$d/adversarial.py" "$d/../../vectors/certeval" || rc=1
python3 "$d/certeval.py" "$d/../../vectors/certeval" || rc=1
exit ${rc:-0}
