/*
 * ownertrust.h - ownertrust assignments in GnuPG's --export-ownertrust
 * text format (what `gpg --import-ownertrust` reads), the format of
 * wotkit's trust file beside a keyring:
 *
 *   # comment
 *   ABAF11C65A2970B130ABE3C479BE3E4300411886:6:
 *
 * one "FINGERPRINT:N:" line per key: 32, 40 or 64 hex digits (either
 * case), N the ownertrust in decimal (trust.h wot_ownertrust: 6 ultimate,
 * 5 full, 4 marginal, 3 never, 2 undefined; GnuPG's flag bits above the
 * low four, such as 0x20 "disabled", are kept as they are). Lines that are
 * empty or start with '#' are skipped; what follows the second ':' is
 * ignored; a CR before the LF is accepted.
 *
 * Parsing only: the caller reads and writes the file.
 */
#ifndef KR_OWNERTRUST_H
#define KR_OWNERTRUST_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"
#include "wot.h"

/* Longest line (GnuPG reads 255 characters) and most entries. */
#define WOT_OT_MAX_LINE     1024u
#define WOT_OT_MAX_ENTRIES  (1u << 24)

typedef struct wot_otentry {
	pgp_fpr fpr;
	uint8_t value;         /* never 0: an unset key has no entry */
} wot_otentry;

/* Sorted by fingerprint (length, then octets), one entry per key. */
typedef struct wot_otlist {
	wot_otentry *v;
	size_t n, cap;
} wot_otlist;

void wot_otlist_init(wot_otlist *l);
void wot_otlist_release(wot_otlist *l);

/*
 * Parse p[0..len) and merge it into l, as `gpg --import-ownertrust` does:
 * each line sets its key's ownertrust (a later line wins); N = 0 changes
 * nothing. PGP_ERR_MALFORMED (diag: offset of the line, what was wrong)
 * for a line that is not "FINGERPRINT:N" followed by ':' or the end of the
 * line, N above 255 or with a low nibble (the ownertrust) other than
 * 0, 2..6; PGP_ERR_LIMIT for a line over WOT_OT_MAX_LINE or more than
 * WOT_OT_MAX_ENTRIES keys; PGP_ERR_NOMEM. On error l may hold the lines
 * before the bad one.
 */
pgp_err wot_otlist_parse(wot_otlist *l, const uint8_t *p, size_t len, pgp_diag *diag);

/* Set fpr's value (0 removes its entry). PGP_ERR_INVALID for an empty or
 * oversized fingerprint, PGP_ERR_LIMIT, PGP_ERR_NOMEM. */
pgp_err wot_otlist_set(wot_otlist *l, const pgp_fpr *fpr, uint8_t value);
/* The value stored for fpr, 0 when none. */
uint8_t wot_otlist_get(const wot_otlist *l, const pgp_fpr *fpr);

/* Append the file text to out (pgp_buf_init'ed by the caller): two comment
 * lines, then one line per entry in fingerprint order. Deterministic. */
pgp_err wot_otlist_write(const wot_otlist *l, pgp_buf *out);

/*
 * The per-node ownertrust array of trust.h for graph g: ot[i] = the value
 * stored for node i's fingerprint, 0 when none (wot_nnodes(g) entries).
 * Entries naming keys not in g are ignored. Returns how many matched.
 */
size_t wot_otlist_apply(const wot_otlist *l, const wot_graph *g, uint8_t *ot);

#endif
