/*
 * armor_enc.c - armor output with a kind and headers (RFC 9580 §6.2).
 * The base64 body and CRC24 come from pgp_armor_encode. see armor_enc.h
 */
#include <string.h>
#include "armor.h"
#include "armor_enc.h"
#include "utf8.h"
#include "limits.h"

/* see armor_enc.h */
const char *
pgp_armor_kind_label(pgp_armor_kind kind)
{
	switch (kind) {
	case PGP_ARMOR_PUBLIC_KEY: return "PGP PUBLIC KEY BLOCK";
	case PGP_ARMOR_SIGNATURE: return "PGP SIGNATURE";
	case PGP_ARMOR_MESSAGE: return "PGP MESSAGE";
	default: return NULL;
	}
}

/* RFC 9580 §6.2.2: "Key: Value"; see pgp_armor_hdr for what we accept. */
static pgp_err
check_hdr(const pgp_armor_hdr *h)
{
	const uint8_t *v;
	size_t i, kl, vl, s;

	if (h->key == NULL || h->value == NULL)
		return PGP_ERR_INVALID;
	kl = strlen(h->key);
	vl = strlen(h->value);
	if (kl == 0 || vl == 0)
		return PGP_ERR_INVALID;
	for (i = 0; i < kl; i++) {
		uint8_t c = (uint8_t)h->key[i];
		if (c <= ' ' || c >= 0x7F || c == ':')
			return PGP_ERR_INVALID;
	}
	v = (const uint8_t *)h->value;
	if (v[0] == ' ' || v[0] == '\t' || v[vl - 1] == ' ' || v[vl - 1] == '\t')
		return PGP_ERR_INVALID;
	for (i = 0; i < vl; i += s) {
		if (v[i] < 0x20 || v[i] == 0x7F)
			return PGP_ERR_INVALID;
		if ((s = pgp_utf8_decode(v + i, vl - i, NULL)) == 0)
			return PGP_ERR_INVALID;
	}
	/* key ": " value LF */
	if (kl + vl + 3 > PGP_MAX_ARMOR_LINE)
		return PGP_ERR_LIMIT;
	return PGP_OK;
}

/* see armor_enc.h */
pgp_err
pgp_armor_write(pgp_buf *out, pgp_armor_kind kind, const pgp_armor_hdr *hdrs,
    size_t nhdrs, const uint8_t *data, size_t len)
{
	const char *label = pgp_armor_kind_label(kind);
	pgp_buf enc;
	size_t i, mark = out->len, first;
	pgp_err e;

	if (label == NULL || (data == NULL && len > 0) || (hdrs == NULL && nhdrs > 0))
		return PGP_ERR_INVALID;
	for (i = 0; i < nhdrs; i++)
		if ((e = check_hdr(&hdrs[i])) != PGP_OK)
			return e;
	/* BEGIN line, blank line, body, CRC, END line */
	if ((e = pgp_armor_encode(&enc, label, data, len)) != PGP_OK)
		return e;
	first = (size_t)((const uint8_t *)memchr(enc.p, '\n', enc.len) - enc.p) + 1;
	if ((e = pgp_buf_append(out, enc.p, first)) != PGP_OK)
		goto out;
	for (i = 0; i < nhdrs; i++) {
		if ((e = pgp_buf_append(out, hdrs[i].key, strlen(hdrs[i].key))) != PGP_OK ||
		    (e = pgp_buf_append(out, ": ", 2)) != PGP_OK ||
		    (e = pgp_buf_append(out, hdrs[i].value, strlen(hdrs[i].value))) != PGP_OK ||
		    (e = pgp_buf_putc(out, '\n')) != PGP_OK)
			goto out;
	}
	e = pgp_buf_append(out, enc.p + first, enc.len - first);
out:
	if (e != PGP_OK)
		out->len = mark;
	pgp_buf_free(&enc);
	return e;
}
