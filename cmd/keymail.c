/* keymail.c - addresses and fingerprints for printed commands. see keymail.h */
#include <string.h>
#include "keymail.h"

int
keymail_safe(const uint8_t *p, size_t n)
{
	size_t i, at = 0, ats = 0;
	if (n == 0 || n > KEYMAIL_MAX)
		return 0;
	for (i = 0; i < n; i++) {
		uint8_t ch = p[i];
		if (ch == '@') {
			ats++;
			at = i;
		} else if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '.' || ch == '_' || ch == '+' || ch == '-')) {
			return 0;
		}
	}
	/* a leading '-' would read as an option of gpg or mail */
	return ats == 1 && at > 0 && at + 1 < n && p[0] != '-';
}

int
keymail_of_uid(const pgp_cert *c, int uid, char buf[KEYMAIL_MAX + 1])
{
	pgp_view e;
	buf[0] = '\0';
	if (uid < 0 || (uint32_t)uid >= c->nuids || c->uids[uid].is_attr)
		return 0;
	if (!pgp_uid_email(c->uids[uid].data, &e) || !keymail_safe(e.p, e.len))
		return 0;
	memcpy(buf, e.p, e.len);
	buf[e.len] = '\0';
	return 1;
}

int
keymail_uid_index(const pgp_cert *c, const pgp_certeval *ev)
{
	uint32_t i;
	if (ev != NULL && ev->primary_uid >= 0)
		return ev->primary_uid;
	for (i = 0; i < c->nuids; i++)
		if (!c->uids[i].is_attr)
			return (int)i;
	return -1;
}

void
keymail_fpr_hex(const pgp_fpr *f, char out[2 * PGP_FPR_MAX + 1])
{
	pgp_hex_encode(out, f->v, f->len);
	out[2 * f->len] = '\0';
}
