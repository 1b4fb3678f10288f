#!/bin/sh
# Install the Debian packages wotkit needs to build and test, when missing.
# Called by `make`; does nothing when everything is present.
set -e
need=""
pkg-config --exists libsodium 2>/dev/null || need="$need libsodium-dev"
pkg-config --exists zlib 2>/dev/null || need="$need zlib1g-dev"
pkg-config --exists libgit2 2>/dev/null || need="$need libgit2-dev"
[ -f /usr/include/mbedtls/rsa.h ] || need="$need libmbedtls-dev"
command -v pkg-config >/dev/null 2>&1 || need="$need pkg-config"
command -v clang >/dev/null 2>&1 || need="$need clang"
command -v git >/dev/null 2>&1 || need="$need git" # make run's demo repository
command -v musl-gcc >/dev/null 2>&1 || need="$need musl-tools" # make static
# test-only oracles and tools
if [ "${WOTKIT_TEST_DEPS:-1}" = 1 ]; then
	command -v gpg >/dev/null 2>&1 || need="$need gnupg"
	command -v gpgv >/dev/null 2>&1 || need="$need gpgv"
	command -v sq >/dev/null 2>&1 || need="$need sq"
	command -v sqv >/dev/null 2>&1 || need="$need sqv"
	command -v sqop >/dev/null 2>&1 || need="$need sqop" # the sopv differential
	[ -f /usr/share/keyrings/debian-keyring.gpg ] || need="$need debian-keyring"
	command -v python3 >/dev/null 2>&1 || need="$need python3"
	# the vector generators (run at test time for large inputs) import cryptography
	python3 -c 'import cryptography' 2>/dev/null || /usr/bin/python3 -c 'import cryptography' 2>/dev/null ||
	    need="$need python3-cryptography"
	[ -f /usr/share/keyrings/debian-archive-keyring.gpg ] || need="$need debian-archive-keyring"
	dpkg-query -W libclang-rt-14-dev >/dev/null 2>&1 || need="$need libclang-rt-14-dev"
fi
[ -z "$need" ] && exit 0
echo "deps.sh: installing:$need" >&2
SUDO=""
[ "$(id -u)" = 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $need >&2
