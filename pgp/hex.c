/* hex.c - hexadecimal text. see hex.h */
#include <string.h>
#include "hex.h"

/* see hex.h */
static void
encode(char *out, const uint8_t *p, size_t n, const char digits[16])
{
	size_t i;
	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* see hex.h */
void
pgp_hex_encode(char *out, const uint8_t *p, size_t n)
{
	encode(out, p, n, "0123456789ABCDEF");
}

/* see hex.h */
void
pgp_hex_encode_lower(char *out, const uint8_t *p, size_t n)
{
	encode(out, p, n, "0123456789abcdef");
}

/* see hex.h */
int
pgp_hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

int
pgp_hex_decode(uint8_t *out, const char *s, size_t n)
{
	size_t i;

	if (strlen(s) != 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		int hi = pgp_hex_digit(s[2 * i]), lo = pgp_hex_digit(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}
