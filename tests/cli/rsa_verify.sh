#!/bin/sh
# RSA verification vectors (vectors/gen/rsa_verify.py): moduli above 8192
# bits, SHA3 DigestInfos, encodings other than the expected one.
exec python3 "$(dirname "$0")/adversarial.py" "$(dirname "$0")/../../vectors/rsa"
