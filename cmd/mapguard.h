/*
 * mapguard.h - no SIGBUS death when a mapped file shrinks under us.
 *
 * A file mapped with mmap(2) that another process truncates (or that sits on
 * a device that fails) makes every access past its new end raise SIGBUS,
 * which kills the process with no message. The front ends map keyring files
 * (cli_file_open: a lookup in a 26 MB keyring costs ~1 ms because it is used
 * in place, docs/performance.md) and wotkit-git maps pack files and their
 * indexes (cmd/git/gx_own_odb.c), so every such mapping is registered here.
 *
 * A SIGBUS handler (sigaction, SA_SIGINFO) looks up the faulting address
 * (si_addr) among the registered mappings. Inside one: it writes
 * "PROG: FILE: changed while being read (truncated?); stopped with no
 * result" on stderr, removes every registered pending temporary file (the
 * PATH.tmp.XXXXXX of cmd/atomic.c, so the old file stays as it was and
 * nothing half-written is left) and ends the process with _exit(code): no
 * verdict, no output is flushed after it. Outside every registered mapping
 * (a real bug, or a mapping of someone else): the previous disposition is
 * restored and the access faults again, so the process dies of SIGBUS as it
 * would have without the guard (or a sanitizer's handler reports it).
 *
 * The handler only uses async-signal-safe calls (write, unlink, _exit) and
 * reads slots published with atomic stores; the message is composed
 * (escaped as out_esc_text does) when the mapping is registered, and freed
 * only when its slot is reused (so memory checkers see it as still
 * reachable, never lost).
 * Registration takes a mutex, so threads may register and remove.
 */
#ifndef WOTKIT_MAPGUARD_H
#define WOTKIT_MAPGUARD_H

#include <stddef.h>

/* How many mappings and temporary files can be guarded at once: enough for
 * wotkit-git's GX_OWN_MAX_PACKS (4096) packs and their indexes. */
#define MAPGUARD_MAX_MAPS 8448
#define MAPGUARD_MAX_TMPS 16
/* A file name longer than this is cut ("...") in the message. */
#define MAPGUARD_MAX_NAME 400

/* The program name of the message and the exit code (defaults: "wotkit", 2).
 * Takes effect for mappings registered afterwards (the message) and at once
 * (the code). prog must outlive the process (a literal). */
void mapguard_setup(const char *prog, int exit_code);

/* Guard [base, base+len) of the file named `name` (any text; it is escaped).
 * Installs the handler on first use. 0, or -1 when every slot is taken or the
 * handler cannot be installed: the caller must then not rely on the mapping
 * (read the file instead). */
int mapguard_add(const void *base, size_t len, const char *name);
/* Stop guarding the mapping that starts at base (before munmap). */
void mapguard_remove(const void *base);

/* Also treat a SIGBUS outside the registered mappings that reports an
 * access past the end of a mapped file (si_code BUS_ADRERR) as one, named
 * `what` in the message: for wotkit-git, where libgit2 maps pack files
 * itself (its pack windows cannot be registered). 0, or -1. */
int mapguard_catch_all(const char *what);

/* A temporary file to unlink if the process ends through the guard.
 * path is not copied: it must stay valid until mapguard_tmp_remove(path).
 * 0, or -1 when all slots are taken (the file is then not removed). */
int mapguard_tmp_add(const char *path);
void mapguard_tmp_remove(const char *path);

#endif
