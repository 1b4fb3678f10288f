#!/bin/sh
# Certificates in every packet order a keyserver merge can produce
# (vectors/gen/certorder.py): the verify MANIFEST through adversarial.py,
# then inspect states and keyring-build equality with the canonical order.
d=$(dirname "$0")
python3 "$d/adversarial.py" "$d/../../vectors/certorder" || rc=1
python3 "$d/certorder.py" "$d/../../vectors/certorder" || rc=1
exit ${rc:-0}
