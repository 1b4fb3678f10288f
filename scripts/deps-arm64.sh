#!/bin/sh
# Install what `make check-arm64` needs, when missing: the arm64 architecture
# in dpkg, Debian's aarch64 cross compiler, qemu-user-static, and the arm64
# -dev packages of libsodium, mbedtls and zlib (multiarch).
set -e
need=""
command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 || need="$need gcc-aarch64-linux-gnu libc6-dev-arm64-cross"
command -v qemu-aarch64-static >/dev/null 2>&1 || need="$need qemu-user-static"
[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/libsodium.pc ] || need="$need libsodium-dev:arm64"
[ -f /usr/lib/aarch64-linux-gnu/libmbedcrypto.a ] || need="$need libmbedtls-dev:arm64"
[ -f /usr/lib/aarch64-linux-gnu/pkgconfig/zlib.pc ] || need="$need zlib1g-dev:arm64"
command -v file >/dev/null 2>&1 || need="$need file"
[ -z "$need" ] && exit 0
echo "deps-arm64.sh: installing:$need" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
dpkg --print-foreign-architectures | grep -qx arm64 || $SUDO dpkg --add-architecture arm64
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >&2
