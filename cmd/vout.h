/* vout.h - printing verification results of `wotkit verify` (human text, JSON). */
#ifndef WOTKIT_VOUT_H
#define WOTKIT_VOUT_H

#include <stdio.h>
#include "pgp/pgp.h"

/* "good", "bad signature", "no public key", ... for a result status. */
const char *vout_status_word(pgp_err status);
void vout_fpr(FILE *f, const pgp_fpr *fpr);
void vout_human(FILE *f, const pgp_verifier *v, size_t need, int64_t now);
void vout_json(FILE *f, const char *file, const pgp_verifier *v, size_t need, int64_t now);

#endif
