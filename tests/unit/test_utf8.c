/* test_utf8.c - pgp_utf8_decode / pgp_utf8_valid (RFC 3629). */
#include "t.h"
#include "pgp/utf8.h"

#define U(s) (const uint8_t *)(s), sizeof(s) - 1

static void
test_valid_sequences(void)
{
	uint32_t cp = 0;
	T_EQ_INT(pgp_utf8_decode(U("A"), &cp), 1);
	T_EQ_INT(cp, 0x41);
	T_EQ_INT(pgp_utf8_decode(U("\xC2\x80"), &cp), 2);           /* U+0080, smallest 2-octet */
	T_EQ_INT(cp, 0x80);
	T_EQ_INT(pgp_utf8_decode(U("\xE0\xA0\x80"), &cp), 3);       /* U+0800 */
	T_EQ_INT(cp, 0x800);
	T_EQ_INT(pgp_utf8_decode(U("\xEF\xBF\xBD"), &cp), 3);       /* U+FFFD */
	T_EQ_INT(cp, 0xFFFD);
	T_EQ_INT(pgp_utf8_decode(U("\xF0\x90\x80\x80"), &cp), 4);   /* U+10000 */
	T_EQ_INT(cp, 0x10000);
	T_EQ_INT(pgp_utf8_decode(U("\xF4\x8F\xBF\xBF"), &cp), 4);   /* U+10FFFF, the largest */
	T_EQ_INT(cp, 0x10FFFF);
	T_EQ_INT(pgp_utf8_decode(U("\xE2\x80\xAE"), NULL), 3);      /* U+202E: valid (escaping is the caller's) */
	T_EQ_INT(pgp_utf8_valid(U("J\xC3\xBCrgen <j@example.org>")), 1);
	T_EQ_INT(pgp_utf8_valid(U("")), 1);
}

static void
test_invalid_sequences(void)
{
	uint32_t cp = 7;
	T_EQ_INT(pgp_utf8_decode(U(""), &cp), 0);
	T_EQ_INT(pgp_utf8_decode(U("\x80"), &cp), 0);               /* lone continuation */
	T_EQ_INT(pgp_utf8_decode(U("\xC0\xAF"), &cp), 0);           /* overlong '/' */
	T_EQ_INT(pgp_utf8_decode(U("\xC1\xBF"), &cp), 0);           /* overlong */
	T_EQ_INT(pgp_utf8_decode(U("\xE0\x9F\xBF"), &cp), 0);       /* overlong U+07FF */
	T_EQ_INT(pgp_utf8_decode(U("\xF0\x8F\xBF\xBF"), &cp), 0);   /* overlong U+FFFF */
	T_EQ_INT(pgp_utf8_decode(U("\xED\xA0\x80"), &cp), 0);       /* surrogate U+D800 */
	T_EQ_INT(pgp_utf8_decode(U("\xED\xBF\xBF"), &cp), 0);       /* surrogate U+DFFF */
	T_EQ_INT(pgp_utf8_decode(U("\xF4\x90\x80\x80"), &cp), 0);   /* U+110000 */
	T_EQ_INT(pgp_utf8_decode(U("\xF5\x80\x80\x80"), &cp), 0);
	T_EQ_INT(pgp_utf8_decode(U("\xFF"), &cp), 0);
	T_EQ_INT(pgp_utf8_decode(U("\xE2\x82"), &cp), 0);           /* truncated */
	T_EQ_INT(pgp_utf8_decode(U("\xC3\x28"), &cp), 0);           /* bad continuation */
	T_EQ_INT(cp, 7);                                            /* untouched on failure */
	T_EQ_INT(pgp_utf8_valid(U("ok\xC3")), 0);
	T_EQ_INT(pgp_utf8_valid(U("\x1B[2J is valid UTF-8")), 1);
}

int
main(void)
{
	T_RUN(test_valid_sequences);
	T_RUN(test_invalid_sequences);
	return T_DONE();
}
