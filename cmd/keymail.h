/*
 * keymail.h - the e-mail address of a certificate's user ID, in the form
 * wotkit may paste into a shell command it prints (`gpg -a --export ADDR |
 * mail -s ADDR keys@linux.kernel.org`, as the pgpkeys.git README asks) and
 * into a To: header. Shared by `wotkit expiring` and `wotkit submission`.
 */
#ifndef WOTKIT_KEYMAIL_H
#define WOTKIT_KEYMAIL_H

#include <stddef.h>
#include <stdint.h>
#include "pgp/pgp.h"

/* Longest address copied (RFC 5321 §4.5.3.1.3: a path is at most 256 octets). */
#define KEYMAIL_MAX 256

/*
 * 1 when p[0..n) is an address that is safe to print unquoted in a shell
 * command and a mail header: 1..KEYMAIL_MAX octets of [A-Za-z0-9._+-] with
 * exactly one '@' that is neither first nor last. Anything else (quotes,
 * spaces, '$', '`', ';', controls, non-ASCII) is refused: commands then name
 * the key by fingerprint instead.
 */
int keymail_safe(const uint8_t *p, size_t n);

/*
 * The e-mail of user ID uid of c (pgp_uid_email) into buf (NUL-terminated)
 * when keymail_safe(); returns 1, else 0 with buf "".
 */
int keymail_of_uid(const pgp_cert *c, int uid, char buf[KEYMAIL_MAX + 1]);

/* The primary user ID at ev (or the first user ID that is not an attribute):
 * an index into c->uids, -1 when there is none. */
int keymail_uid_index(const pgp_cert *c, const pgp_certeval *ev);

/* "D3CA905806B084DA238A75B201FAD877B6981229": upper-case hex, NUL-terminated. */
void keymail_fpr_hex(const pgp_fpr *f, char out[2 * PGP_FPR_MAX + 1]);

#endif
