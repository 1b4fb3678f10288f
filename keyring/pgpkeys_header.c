/*
 * pgpkeys_header.c - the human header of a pgpkeys.git keys/ file, as
 * `gpg --list-options show-notations --list-options no-show-uid-validity
 * --with-subkey-fingerprints --list-key` prints it. see pgpkeys.h
 *
 * The layout was read off the keys/ files of pgpkeys.git:
 *
 *   "pub   " ALGO " " DATE " [" USAGE "]" [" [revoked: "|" [expired: "|" [expires: " DATE "]"]
 *   "      " FINGERPRINT (upper-case hex)
 *   "uid" 22 spaces USER-ID                   (or "[jpeg image of size N]")
 *   "sub   " ALGO " " DATE " [" USAGE "]" [...]
 *   "      " FINGERPRINT
 */
#include <stdio.h>
#include <string.h>
#include "keyring/pgpkeys.h"

#define UID_INDENT "uid                      "   /* "uid" + 22 spaces */

static pgp_err
puts_(pgp_buf *b, const char *s)
{
	return pgp_buf_append(b, s, strlen(s));
}

/* GnuPG's algorithm string: "rsa4096", "dsa2048", "ed25519", "cv25519", "nistp256", ... */
static void
algo_str(char *out, size_t n, const pgp_key *k)
{
	const char *cv = NULL;
	switch (k->curve) {
	case PGP_CURVE_P256: cv = "nistp256"; break;
	case PGP_CURVE_P384: cv = "nistp384"; break;
	case PGP_CURVE_P521: cv = "nistp521"; break;
	case PGP_CURVE_BP256: cv = "brainpoolP256r1"; break;
	case PGP_CURVE_BP384: cv = "brainpoolP384r1"; break;
	case PGP_CURVE_BP512: cv = "brainpoolP512r1"; break;
	case PGP_CURVE_ED25519: cv = "ed25519"; break;
	case PGP_CURVE_CV25519: cv = "cv25519"; break;
	case PGP_CURVE_ED448: cv = "ed448"; break;
	case PGP_CURVE_X448: cv = "cv448"; break;
	case PGP_CURVE_SECP256K1: cv = "secp256k1"; break;
	default: break;
	}
	switch (k->algo) {
	case PGP_PK_RSA:
	case PGP_PK_RSA_E:
	case PGP_PK_RSA_S:
		snprintf(out, n, "rsa%u", k->bits);
		return;
	case PGP_PK_DSA:
		snprintf(out, n, "dsa%u", k->bits);
		return;
	case PGP_PK_ELGAMAL:
	case PGP_PK_ELGAMAL_ES:
		snprintf(out, n, "elg%u", k->bits);
		return;
	case PGP_PK_ED25519:
		snprintf(out, n, "ed25519");
		return;
	case PGP_PK_X25519:
		snprintf(out, n, "cv25519");
		return;
	case PGP_PK_ED448:
		snprintf(out, n, "ed448");
		return;
	case PGP_PK_X448:
		snprintf(out, n, "cv448");
		return;
	default:
		break;
	}
	if (cv)
		snprintf(out, n, "%s", cv);
	else
		snprintf(out, n, "unknown_%u", k->algo);
}

static void
date_str(char out[11], int64_t t)
{
	char b[24];
	pgp_time_format(b, sizeof b, t, 0);
	memcpy(out, b, 10);
	out[10] = 0;
}

/* pub/sub line and fingerprint line */
static pgp_err
key_lines(pgp_buf *b, const char *what, const pgp_key *k, const pgp_keystate *ks, int primary)
{
	char line[160], alg[32], d[11], use[5], fh[2 * PGP_FPR_MAX + 1];
	size_t u = 0;
	uint8_t fl = ks->flags;
	pgp_err e;

	algo_str(alg, sizeof alg, k);
	date_str(d, (int64_t)k->created);
	/* RFC 9580 §5.2.3.29 key flags: 0x02 sign, 0x01 certify, 0x04|0x08
	 * encrypt, 0x20 authenticate; GnuPG's order S C E A */
	if (fl & PGP_KF_SIGN)
		use[u++] = 'S';
	if ((fl & PGP_KF_CERTIFY) || primary)
		use[u++] = 'C';
	if (fl & (PGP_KF_ENCRYPT_COMMS | PGP_KF_ENCRYPT_STORAGE))
		use[u++] = 'E';
	if (fl & PGP_KF_AUTH)
		use[u++] = 'A';
	use[u] = 0;
	snprintf(line, sizeof line, "%s   %s %s [%s]", what, alg, d, use);
	if ((e = puts_(b, line)) != PGP_OK)
		return e;
	if (ks->status == PGP_ERR_REVOKED) {
		date_str(d, ks->revoked_at);
		snprintf(line, sizeof line, " [revoked: %s]", d);
		e = puts_(b, line);
	} else if (ks->expires != 0) {
		date_str(d, ks->expires);
		snprintf(line, sizeof line, " [%s: %s]",
		    ks->status == PGP_ERR_EXPIRED ? "expired" : "expires", d);
		e = puts_(b, line);
	}
	if (e != PGP_OK || (e = puts_(b, "\n      ")) != PGP_OK)
		return e;
	pgp_hex_encode(fh, k->fpr.v, k->fpr.len);
	if ((e = pgp_buf_append(b, fh, 2 * (size_t)k->fpr.len)) != PGP_OK)
		return e;
	return pgp_buf_putc(b, '\n');
}

/* A user ID, printable octets as they are, the rest \xHH. */
static pgp_err
uid_text(pgp_buf *b, pgp_view v)
{
	size_t i = 0;
	pgp_err e = PGP_OK;
	while (i < v.len && e == PGP_OK) {
		uint32_t cp = 0;
		size_t n;
		if (v.p[i] >= 0x20 && v.p[i] < 0x7f) {
			e = pgp_buf_putc(b, v.p[i++]);
			continue;
		}
		if (v.p[i] >= 0x80 && (n = pgp_utf8_decode(v.p + i, v.len - i, &cp)) > 0 &&
		    cp >= 0xa0) {
			e = pgp_buf_append(b, v.p + i, n);
			i += n;
			continue;
		}
		{
			char h[5];
			snprintf(h, sizeof h, "\\x%02X", v.p[i]);
			e = pgp_buf_append(b, h, 4);
			i++;
		}
	}
	return e;
}

/* RFC 9580 §5.12.1 image attribute: the data after the image header. */
static pgp_err
attr_text(pgp_buf *b, pgp_view v)
{
	pgp_rd r;
	pgp_uattr_sub s;
	char line[80];
	pgp_rd_init(&r, v.p, v.len);
	if (pgp_uattr_next(&r, &s, NULL) != PGP_OK) {
		snprintf(line, sizeof line, "[unknown attribute of size %zu]", v.len);
	} else if (s.type == 1 && s.data.len >= 4) {
		/* image header: 2-octet little-endian length, version 1, encoding (1 = JPEG) */
		size_t hl = (size_t)s.data.p[0] | (size_t)s.data.p[1] << 8;
		size_t n = hl <= s.data.len ? s.data.len - hl : 0;
		snprintf(line, sizeof line, "[%simage of size %zu]",
		    s.data.p[2] == 1 && s.data.p[3] == 1 ? "jpeg " : "", n);
	} else {
		snprintf(line, sizeof line, "[unknown attribute of size %zu]", s.data.len);
	}
	return puts_(b, line);
}

/* see pgpkeys.h */
pgp_err
pgpkeys_header(pgp_buf *out, const pgp_cert *c, const pgp_certsrc *src, int64_t t,
    const pgp_policy *pol)
{
	pgp_certeval ev;
	size_t save = out->len;
	uint32_t i;
	int64_t k, pu;
	pgp_err e;

	if ((e = pgp_cert_eval(&ev, c, src, t, pol)) != PGP_OK)
		goto out;
	if ((e = key_lines(out, "pub", &c->primary, &ev.primary, 1)) != PGP_OK)
		goto out;
	/* the primary user ID first (pgp_cert_eval's choice: flagged,
	 * §5.2.3.27, else the newest binding; GnuPG's rule too), the others in
	 * stored order */
	pu = ev.primary_uid >= 0 && (uint32_t)ev.primary_uid < c->nuids ? ev.primary_uid : -1;
	for (k = -1; k < (int64_t)c->nuids && e == PGP_OK; k++) {
		if (k < 0 && pu < 0)
			continue;
		i = k < 0 ? (uint32_t)pu : (uint32_t)k;
		if ((k >= 0 && (int64_t)i == pu) || ev.uids[i].status != PGP_OK)
			continue;
		if ((e = puts_(out, UID_INDENT)) != PGP_OK)
			break;
		e = c->uids[i].is_attr ? attr_text(out, c->uids[i].data) : uid_text(out, c->uids[i].data);
		if (e == PGP_OK)
			e = pgp_buf_putc(out, '\n');
	}
	for (i = 0; i < c->nsubs && e == PGP_OK; i++) {
		const pgp_keystate *ks = &ev.subs[i];
		if (ev.primary.status == PGP_ERR_REVOKED || ev.primary.status == PGP_ERR_EXPIRED ||
		    !ks->bound ||
		    ks->status == PGP_ERR_REVOKED || ks->status == PGP_ERR_EXPIRED)
			continue;
		e = key_lines(out, "sub", &c->subs[i].key, ks, 0);
	}
out:
	pgp_certeval_release(&ev);
	if (e != PGP_OK)
		out->len = save;
	return e;
}
