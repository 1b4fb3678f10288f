/* classify.c - binary, armored, cleartext or unknown input. see classify.h */
#include <string.h>
#include "classify.h"

static const char begin_pgp[] = "-----BEGIN PGP ";
static const char begin_signed[] = "-----BEGIN PGP SIGNED MESSAGE-----";

static int
is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static int
at(const uint8_t *p, size_t len, size_t pos, const char *s)
{
	size_t n = strlen(s);
	return len - pos >= n && memcmp(p + pos, s, n) == 0;
}

/* The label after "-----BEGIN " up to "-----" on the same line. */
static pgp_armor_kind
armor_kind(const uint8_t *p, size_t len, size_t pos)
{
	static const struct {
		const char *label;
		pgp_armor_kind kind;
	} labels[] = {
		{"PGP MESSAGE-----", PGP_ARMOR_MESSAGE},
		{"PGP PUBLIC KEY BLOCK-----", PGP_ARMOR_PUBLIC_KEY},
		{"PGP PRIVATE KEY BLOCK-----", PGP_ARMOR_PRIVATE_KEY},
		{"PGP SIGNATURE-----", PGP_ARMOR_SIGNATURE},
	};
	size_t i;
	pos += strlen("-----BEGIN ");
	for (i = 0; i < sizeof labels / sizeof labels[0]; i++)
		if (at(p, len, pos, labels[i].label))
			return labels[i].kind;
	return PGP_ARMOR_OTHER;
}

/* see classify.h */
pgp_input_kind
pgp_classify(const uint8_t *p, size_t len, pgp_input_class *out)
{
	pgp_input_class c;
	size_t pos = 0;

	memset(&c, 0, sizeof c);
	c.later = len;
	if (len > 0 && (p[0] & 0x80)) {
		/* RFC 9580 §4.2.1: bit 7 of a CTB is always one; text never */
		c.kind = PGP_INPUT_BINARY;
		goto done;
	}
	while (pos < len && is_space(p[pos]))
		pos++;
	if (pos == len) {
		c.kind = PGP_INPUT_EMPTY;
	} else if (at(p, len, pos, begin_signed)) {
		c.kind = PGP_INPUT_CLEARTEXT;
		c.begin = pos;
	} else if (at(p, len, pos, begin_pgp)) {
		c.kind = PGP_INPUT_ARMORED;
		c.armor = armor_kind(p, len, pos);
		c.begin = pos;
	} else {
		/* a later line that starts with an armor header */
		const uint8_t *nl;
		c.kind = PGP_INPUT_UNKNOWN;
		while ((nl = memchr(p + pos, '\n', len - pos)) != NULL) {
			pos = (size_t)(nl - p) + 1;
			if (at(p, len, pos, begin_pgp)) {
				c.later = pos;
				break;
			}
		}
	}
done:
	if (out)
		*out = c;
	return c.kind;
}

/* see classify.h */
int
pgp_classify_has_armor(const pgp_input_class *c, size_t len)
{
	return c->kind == PGP_INPUT_ARMORED || c->kind == PGP_INPUT_CLEARTEXT ||
	    (c->kind == PGP_INPUT_UNKNOWN && c->later < len);
}
