/*
 * atomic.h - replacing a file atomically: the new content goes to a
 * temporary file in the same directory, which is flushed, fsync()ed and
 * renamed over the file, so a reader (or a kill at any moment) sees the old
 * file or the new one, never a part. Used by `keyring build` (the keyring
 * file), `keyring export` (the keys/ files of a pgpkeys tree) and `wot
 * graphs` (graphs/<KEYID>.txt).
 */
#ifndef WOTKIT_ATOMIC_H
#define WOTKIT_ATOMIC_H

#include <stdint.h>
#include <stdio.h>
#include "pgp/pgp.h"

typedef struct cli_atomic {
	char tmp[4096], dir[4096];
	int fd;
	FILE *f;       /* write the content here (or through cli_atomic_sink) */
	int failed;    /* errno of a failed cli_atomic_sink write, 0 if none */
} cli_atomic;

/* Create PATH.tmp.XXXXXX; -1 after a message. */
int cli_atomic_open(cli_atomic *a, const char *path);
/* A kr_serialize_to()-style sink writing into a (ctx: the cli_atomic). */
pgp_err cli_atomic_sink(void *ctx, const uint8_t *p, size_t n);
/*
 * ok: flush, mode 0644, fsync, rename over path, and with sync_dir fsync the
 * directory too; !ok (or any failure): remove the temporary file. 0 when
 * path was replaced, -1 otherwise (failures after ok are reported).
 */
int cli_atomic_close(cli_atomic *a, const char *path, int ok, int sync_dir);

/*
 * Make path hold data[0..len): nothing is written when it is a regular file
 * holding exactly that, else it is replaced atomically as above (no
 * directory fsync). 1 written, 0 unchanged, -1 after a message.
 */
int cli_atomic_update(const char *path, const uint8_t *data, size_t len);

#endif
