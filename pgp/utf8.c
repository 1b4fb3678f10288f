/* utf8.c - RFC 3629 decoding. see utf8.h */
#include "utf8.h"

/* see utf8.h */
size_t
pgp_utf8_decode(const uint8_t *p, size_t n, uint32_t *cp)
{
	size_t len, i;
	uint32_t v, min;

	if (n == 0)
		return 0;
	if (p[0] < 0x80) {
		len = 1, v = p[0], min = 0;
	} else if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		len = 2, v = p[0] & 0x1Fu, min = 0x80;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		len = 3, v = p[0] & 0x0Fu, min = 0x800;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		len = 4, v = p[0] & 0x07u, min = 0x10000;
	} else {
		return 0;
	}
	if (len > n)
		return 0;
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		v = (v << 6) | (p[i] & 0x3Fu);
	}
	if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
		return 0;
	if (cp)
		*cp = v;
	return len;
}

/* see utf8.h */
int
pgp_utf8_valid(const uint8_t *p, size_t n)
{
	size_t i = 0, l;
	while (i < n) {
		if ((l = pgp_utf8_decode(p + i, n - i, NULL)) == 0)
			return 0;
		i += l;
	}
	return 1;
}
