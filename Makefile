# wotkit - GnuPG-free OpenPGP toolkit.
#   make            build ./wotkit
#   make run        build (installing missing Debian deps), then verify the demo repository's
#                   signed tag with wotkit and with git + wotkit-gpg (vectors/demo/)
#   make check      build and run every test (unit, vectors, fuzz replay, CLI, corpus)
#   make fuzz       libFuzzer targets (clang)
#   make valgrind   unit and CLI tests under valgrind memcheck (build-vg/, tests/valgrind.sh;
#                   VALGRIND_TESTS="a.sh b.sh" for some CLI scripts only)
#   make static     static/wotkit (+ wotkit-gpg, wotkit-sopv links): fully static, stripped,
#                   musl-gcc with Debian's libsodium.a, libmbedcrypto.a, libz.a
#   make check-arm64  aarch64 cross-build, its unit/replay/vector tests under qemu-aarch64-static
#   make deb        the Debian package (debian/) in build-deb/, checked by lintian
#   make install    PREFIX=/usr/local DESTDIR=
CC      ?= cc
PREFIX  ?= /usr/local
DESTDIR ?=
OPT     ?= -O2
WARN     = -Wall -Wextra -Wconversion -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CFLAGS  ?= $(OPT) -g
ALL_CFLAGS = -std=c11 $(WARN) -D_DEFAULT_SOURCE -D_FILE_OFFSET_BITS=64 -I. $(CPPFLAGS) $(CFLAGS)

# Dependencies. libsodium and mbedcrypto are linked statically where Debian
# ships the .a (start-up cost); mbedtls 2.28 on Debian 12 ships no .pc file.
# libgit2 is never linked into ./wotkit (verify / gpg / sopv paths).
SODIUM_A := $(shell pkg-config --variable=libdir libsodium 2>/dev/null)/libsodium.a
MBED_A   := $(shell $(CC) -print-file-name=libmbedcrypto.a)
LIBS_SODIUM := $(if $(wildcard $(SODIUM_A)),$(SODIUM_A),-lsodium)
LIBS_MBED   := $(if $(filter /%,$(MBED_A)),$(MBED_A),-lmbedcrypto)
# SHARED_DEPS=1 (the Debian package): the shared libraries instead
ifeq ($(SHARED_DEPS),1)
LIBS_SODIUM := -lsodium
LIBS_MBED   := -lmbedcrypto
endif
DEP_LIBS = -pthread $(LIBS_SODIUM) $(LIBS_MBED) $(shell pkg-config --libs zlib 2>/dev/null || echo -lz)

B ?= build
PGP_SRC  := $(sort $(wildcard pgp/*.c))
KR_SRC   := $(sort $(wildcard keyring/*.c))
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
FUZZ_SRC := $(sort $(wildcard tests/fuzz/fuzz_*.c))
LIB_OBJ  := $(PGP_SRC:%.c=$(B)/%.o) $(KR_SRC:%.c=$(B)/%.o)
# Per-executable source lists: each executable names what it links.
# wotkit (also wotkit-sopv, and the gpg drop-in wotkit-gpg) is cmd/*.c and never
# links libgit2; the git executable will be cmd/git/*.c, the only code that
# includes git2.h (tests/layering.sh checks both).
WOTKIT_SRC := $(sort $(wildcard cmd/*.c))
WOTKIT_OBJ := $(WOTKIT_SRC:%.c=$(B)/%.o)
# wotkit-git: reads git object databases for `wotkit keyring build` (cmd/krsrc_git.c
# runs it); the only executable linked with libgit2.
GIT_SRC  := $(sort $(wildcard cmd/git/*.c))
# cmd/mapguard.c (the SIGBUS guard of mapped files) is shared with wotkit
GIT_OBJ  := $(GIT_SRC:%.c=$(B)/%.o) $(B)/cmd/mapguard.o
GIT_CFLAGS := $(shell pkg-config --cflags libgit2 2>/dev/null)
GIT_LIBS := $(shell pkg-config --libs libgit2 2>/dev/null || echo -lgit2)
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=$(B)/tests/%)
REPLAY_BIN := $(FUZZ_SRC:tests/fuzz/fuzz_%.c=$(B)/tests/replay_%)
# Test tools (tests/unit/*_tool.c) for the CLI scripts; built by the unit-test rule.
TOOL_BIN := $(patsubst tests/unit/%.c,$(B)/tests/%,$(sort $(wildcard tests/unit/*_tool.c)))

all: deps wotkit wotkit-gpg wotkit-git

# Installs missing Debian packages when pkg-config / headers are absent.
deps:
	@sh scripts/deps.sh

wotkit: $(B)/wotkit
	cp $(B)/wotkit $@

# the gpg drop-in is the same binary under another name (cmd/main.c, docs/gpg.md)
wotkit-gpg: wotkit
	ln -sf wotkit $@

$(B)/wotkit: $(WOTKIT_OBJ) $(B)/libpgp.a
	$(CC) $(ALL_CFLAGS) -o $@ $(WOTKIT_OBJ) $(B)/libpgp.a $(DEP_LIBS) $(LDFLAGS)

wotkit-git: $(B)/wotkit-git
	cp $(B)/wotkit-git $@

$(B)/wotkit-git: $(GIT_OBJ) $(B)/libpgp.a
	$(CC) $(ALL_CFLAGS) -o $@ $(GIT_OBJ) $(B)/libpgp.a $(GIT_LIBS) $(DEP_LIBS) $(LDFLAGS)

$(B)/cmd/git/%.o: cmd/git/%.c $(wildcard pgp/*.h keyring/*.h cmd/git/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) $(GIT_CFLAGS) -c -o $@ $<

$(B)/libpgp.a: $(LIB_OBJ)
	rm -f $@
	ar rcs $@ $(LIB_OBJ)

# aarch64: the file with the Armv8 SHA instructions (pgp/sha_arm64.c) alone
# is compiled for Armv8.2 with the crypto (SHA1, SHA2) and SHA3 (SHA512)
# extensions; its code runs only when getauxval(AT_HWCAP) reports the
# instructions (pgp/cpu.c).
ifneq ($(filter aarch64%,$(shell $(CC) -dumpmachine 2>/dev/null)),)
$(B)/pgp/sha_arm64.o: ALL_CFLAGS += -march=armv8.2-a+crypto+sha3
endif

$(B)/%.o: %.c $(wildcard pgp/*.h keyring/*.h cmd/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(B)/libpgp.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests/unit -o $@ $< $(B)/libpgp.a $(DEP_LIBS)

# the drop-in's pure parts are compiled into their unit test
$(B)/tests/test_gpgfmt: cmd/gpg_fmt.c cmd/gpg_opts.c cmd/gpg.h
$(B)/tests/test_mapguard: cmd/mapguard.c cmd/mapguard.h

# wotkit's own git reader (cmd/git/gx_own*.c): a tool for tests/cli/git_sha256.sh
# and the fuzz_gxown target
GX_OWN_SRC := $(sort $(wildcard cmd/git/gx_own*.c)) cmd/mapguard.c
# Fuzz targets over cmd/ code name the sources they link (FUZZ_CMD_<target>);
# the others link libpgp.a only.
FUZZ_CMD_gpg   := cmd/gpg_fmt.c cmd/gpg_opts.c
FUZZ_CMD_gxown := $(GX_OWN_SRC)

.SECONDEXPANSION:
$(B)/tests/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/standalone.c $$(FUZZ_CMD_$$*) $(wildcard cmd/*.h cmd/git/*.h) $(B)/libpgp.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< tests/fuzz/standalone.c $(FUZZ_CMD_$*) $(B)/libpgp.a $(DEP_LIBS)

$(B)/tests/gx_own_tool: tests/unit/gx_own_tool.c $(GX_OWN_SRC) $(wildcard cmd/git/*.h) $(B)/libpgp.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ tests/unit/gx_own_tool.c $(GX_OWN_SRC) $(B)/libpgp.a $(DEP_LIBS) $(LDFLAGS)

# An LD_PRELOAD shim for tests/cli/faults.sh (files truncated after mmap or
# read, fsync/rename/fflush failing); plain flags, never sanitized.
$(B)/tests/fault_shim.so: tests/unit/fault_shim.c
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(WARN) -O2 -g -shared -fPIC -o $@ $< -ldl

tests: $(UNIT_BIN) $(REPLAY_BIN) $(TOOL_BIN) $(B)/tests/gx_own_tool $(B)/tests/fault_shim.so

# ASan+UBSan build of everything, in build-san/.
san:
	$(MAKE) B=build-san CC=clang OPT=-O1 \
	    CFLAGS="-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    LDFLAGS="-fsanitize=address,undefined" build-san/wotkit build-san/wotkit-git tests-san

tests-san: $(UNIT_BIN) $(REPLAY_BIN) $(TOOL_BIN) $(B)/tests/gx_own_tool

check: deps wotkit wotkit-gpg wotkit-git tests san static
	@sh tests/run.sh

# aarch64: cross-built with Debian's gcc-aarch64-linux-gnu against the arm64
# -dev packages (scripts/deps-arm64.sh adds the architecture and installs
# them with qemu-user-static), then run under qemu: tests/arm64.sh.
ARM64_CC ?= aarch64-linux-gnu-gcc
check-arm64:
	@sh scripts/deps-arm64.sh
	PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig $(MAKE) --no-print-directory \
	    CC=$(ARM64_CC) B=build-arm64 build-arm64/wotkit $(UNIT_BIN:$(B)/%=build-arm64/%) \
	    $(REPLAY_BIN:$(B)/%=build-arm64/%)
	@sh tests/arm64.sh

# Valgrind memcheck (no sanitizer, -O1 -g) over the unit tests and the CLI
# tests: tests/valgrind.sh, which wraps every executable the scripts run.
valgrind: deps
	$(MAKE) B=build-vg OPT=-O1 CFLAGS="-O1 -g" build-vg/wotkit build-vg/wotkit-git tests
	@sh tests/valgrind.sh

# Slow comparisons with GnuPG (minutes), not part of check.
check-slow: deps wotkit
	@for t in tests/slow/*.sh; do sh $$t || exit 1; done

# The demo (vectors/demo/, written by vectors/gen/gen_demo.sh; no network):
# a keyring from a pgpkeys-style tree rooted at the demo root (the middle key
# trusted fully, gpg's ownertrust, so that git's %G? says G), a clone of the
# demo repository, its maintainer's signed tag v1.0 verified by wotkit and by
# plain git through the gpg drop-in. tests/cli/demo.sh checks the same steps.
DEMO      = $(B)/demo
DEMO_ROOT = $(shell awk '$$1 == "root" { print $$2 }' vectors/demo/KEYS)
run: deps wotkit wotkit-git wotkit-gpg
	@rm -rf $(DEMO) && mkdir -p $(DEMO)
	./wotkit keyring build -o $(DEMO)/keyring.wk --root $(DEMO_ROOT) vectors/demo/pgpkeys
	./wotkit wot trust --keyring $(DEMO)/keyring.wk middle@example.org full
	git clone -q vectors/demo/demo.bundle $(DEMO)/repo
	./wotkit verify-tag -C $(DEMO)/repo --keyring $(DEMO)/keyring.wk v1.0
	WOTKIT_KEYRING=$(CURDIR)/$(DEMO)/keyring.wk git -C $(DEMO)/repo -c gpg.program=$(CURDIR)/wotkit-gpg verify-tag v1.0

FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer,address,undefined
fuzz: deps
	@mkdir -p build-fuzz
	$(MAKE) B=build-fuzz CC=clang CFLAGS="-O1 -g -fsanitize=fuzzer-no-link,address,undefined" build-fuzz/libpgp.a
	$(foreach f,$(FUZZ_SRC),clang $(ALL_CFLAGS) $(FUZZ_FLAGS) -o build-fuzz/$(basename $(notdir $(f))) \
	    $(f) $(FUZZ_CMD_$(patsubst tests/fuzz/fuzz_%.c,%,$(f))) build-fuzz/libpgp.a $(DEP_LIBS) &&) true
	@echo "run e.g.: build-fuzz/fuzz_packet tests/fuzz/corpus/packet"

# The static wotkit (README "Static binary"): compiled with musl-gcc (C library
# musl, statically linked; no NSS, no locale files, no loader), linked with
# Debian's static libsodium, mbedcrypto and zlib archives, which are built
# against glibc: cmd/static/musl_chk.c supplies the three fortify entry points
# they call. -Os, sections garbage-collected, stripped. musl-gcc sees only
# musl's headers: the three libraries' headers come through build-static/inc.
# wotkit-git (libgit2) stays dynamic.
SB       := build-static
STATIC_A  = $(foreach l,libsodium.a libmbedcrypto.a libz.a,$(shell gcc -print-file-name=$(l)))
static: deps
	@mkdir -p $(SB)/inc static
	@for h in sodium.h sodium mbedtls psa zlib.h zconf.h; do \
		if [ -e /usr/include/$$h ]; then ln -sfn /usr/include/$$h $(SB)/inc/$$h; fi; done
	$(MAKE) --no-print-directory CC=musl-gcc B=$(SB) \
	    CFLAGS="-Os -ffunction-sections -fdata-sections -I$(SB)/inc" $(SB)/wotkit-static
	cp $(SB)/wotkit-static static/wotkit
	ln -sf wotkit static/wotkit-gpg
	ln -sf wotkit static/wotkit-sopv

$(SB)/wotkit-static: $(WOTKIT_OBJ) $(B)/cmd/static/musl_chk.o $(B)/libpgp.a
	$(CC) -static -s -Wl,--gc-sections -o $@ $(WOTKIT_OBJ) $(B)/cmd/static/musl_chk.o \
	    $(B)/libpgp.a $(STATIC_A) -pthread

install: wotkit wotkit-git
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 wotkit $(DESTDIR)$(PREFIX)/bin/wotkit
	install -m 755 wotkit-git $(DESTDIR)$(PREFIX)/bin/wotkit-git
	ln -sf wotkit $(DESTDIR)$(PREFIX)/bin/wotkit-sopv
	ln -sf wotkit $(DESTDIR)$(PREFIX)/bin/wotkit-gpg
	install -d $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 644 docs/wotkit.1 $(DESTDIR)$(PREFIX)/share/man/man1/wotkit.1
	install -m 644 docs/wotkit-git.1 $(DESTDIR)$(PREFIX)/share/man/man1/wotkit-git.1
	ln -sf wotkit.1 $(DESTDIR)$(PREFIX)/share/man/man1/wotkit-sopv.1
	ln -sf wotkit.1 $(DESTDIR)$(PREFIX)/share/man/man1/wotkit-gpg.1

# The Debian package (debian/): built from the tracked files copied into
# build-deb/wotkit-VERSION, so the .debs land in build-deb/; then lintian.
DEB_VERSION = $(shell sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
deb:
	rm -rf build-deb && mkdir -p build-deb/wotkit-$(DEB_VERSION)
	git ls-files -z | tar --null -T - -cf - | tar -xf - -C build-deb/wotkit-$(DEB_VERSION)
	cd build-deb/wotkit-$(DEB_VERSION) && dpkg-buildpackage -us -uc -b
	lintian --fail-on error build-deb/*.changes

clean:
	rm -rf build build-san build-fuzz build-vg build-static build-arm64 build-deb static wotkit wotkit-git wotkit-gpg

.PHONY: all deps check check-slow run fuzz install clean tests san tests-san valgrind static check-arm64 deb
