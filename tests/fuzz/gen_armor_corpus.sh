#!/bin/sh
# gen_armor_corpus.sh - writes the seed corpus of fuzz_armor into
# tests/fuzz/corpus/armor/ (small hand-written armor and cleartext shapes).
# Deterministic; needs only printf. Run from anywhere:
#   sh tests/fuzz/gen_armor_corpus.sh
set -e
top=$(cd "$(dirname "$0")/../.." && pwd)
d="$top/tests/fuzz/corpus/armor"
mkdir -p "$d"
w() { printf '%b' "$2" >"$d/$1"; }

# gpg --enarmor of "hello" (GnuPG 2.2.40)
w hello-gpg-enarmor '-----BEGIN PGP ARMORED FILE-----\nComment: Use "gpg --dearmor" for unpacking\n\naGVsbG8=\n=R/WK\n-----END PGP ARMORED FILE-----\n'
w hello-crlf '-----BEGIN PGP MESSAGE-----\r\nVersion: x\r\n\r\naGVsbG8=\r\n=R/WK\r\n-----END PGP MESSAGE-----\r\n'
w hello-no-padding '-----BEGIN PGP MESSAGE-----\n\naGVsbG8\n-----END PGP MESSAGE-----'
w hello-no-blank-line '-----BEGIN PGP MESSAGE-----\naGVsbG8=\n-----END PGP MESSAGE-----\n'
w hello-bad-crc '-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n=R/WL\n-----END PGP MESSAGE-----\n'
w hello-wrong-end '-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n'
w hello-space-inside '-----BEGIN PGP MESSAGE-----\n\naGVs bG8=\n-----END PGP MESSAGE-----\n'
w hello-truncated '-----BEGIN PGP MESSAGE-----\n\naGVsbG8=\n=R/W'
w empty-block '-----BEGIN PGP MESSAGE-----\n\n=twTO\n-----END PGP MESSAGE-----\n'
w padding-split '-----BEGIN PGP MESSAGE-----\n\naGV\nsbA\n==\n-----END PGP MESSAGE-----\n'
# RFC 9580 Appendix A.1 (no checksum)
w rfc9580-a1-key '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxjMEU/NfCxYJKwYBBAHaRw8BAQdAPwmJlL3ZFu1AUxl5NOSofIBzOhKA1i+AEJku\nQ+47JAY=\n-----END PGP PUBLIC KEY BLOCK-----\n'
# pgpkeys.git style: listing text, then two concatenated blocks
w keyring-two-blocks 'pub   ed25519 2014-08-19 [SC]\nuid  x <x@example>\n\n-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxjMEU/NfCxYJKwYBBAHaRw8BAQdAPwmJlL3ZFu1AUxl5NOSofIBzOhKA1i+AEJku\nQ+47JAY=\n-----END PGP PUBLIC KEY BLOCK-----\n-----BEGIN PGP PUBLIC KEY BLOCK-----\nComment: second\n\naGVsbG8=\n=R/WK\n-----END PGP PUBLIC KEY BLOCK-----\n'
# RFC 9580 Appendix A.6 cleartext (dash-escaped, v6 signature)
w rfc9580-a6-cleartext '-----BEGIN PGP SIGNED MESSAGE-----\n\nWhat we need from the grocery store:\n\n- - tofu\n- - vegetables\n- - noodles\n\n-----BEGIN PGP SIGNATURE-----\n\nwpgGARsKAAAAKQWCY5ijYyIhBssYbE8GCaaX5NUt+mxyKwwfHifBilZwj2Ul7Ce6\n2azJAAAAAGk2IHZJX1AhiJD39eLuPBgiUU9wUA9VHYblySHkBONKU/usJ9BvuAqo\n/FvLFuGWMbKAdA+epq7V4HOtAPlBWmU8QOd6aud+aSunHQaaEJ+iTFjP2OMW0KBr\nNK2ay45cX1IVAQ==\n-----END PGP SIGNATURE-----\n'
w cleartext-hash-crlf '-----BEGIN PGP SIGNED MESSAGE-----\r\nHash: SHA256, SHA512\r\n\r\nline one  \r\n- -dash\r\n\r\n-----BEGIN PGP SIGNATURE-----\r\n\r\naGVsbG8=\r\n=R/WK\r\n-----END PGP SIGNATURE-----\r\n'
w cleartext-two-sigs '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA1\n\nx\n-----BEGIN PGP SIGNATURE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n-----BEGIN PGP SIGNATURE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n'
w cleartext-no-blank '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\ntext\n-----BEGIN PGP SIGNATURE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n'
w cleartext-unknown-hash '-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA257\n\ntext\n-----BEGIN PGP SIGNATURE-----\n\naGVsbG8=\n-----END PGP SIGNATURE-----\n'
w cleartext-no-sig '-----BEGIN PGP SIGNED MESSAGE-----\n\ntext\n'
