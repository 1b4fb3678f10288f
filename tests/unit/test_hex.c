/* test_hex.c - pgp/hex.h: upper-case encoding, decoding and digit values. */
#include "t.h"
#include "pgp/hex.h"

static void
test_encode(void)
{
	static const uint8_t p[] = {0x00, 0x1f, 0xa0, 0xff, 0x79, 0xbe};
	char out[2 * sizeof p + 1];
	memset(out, 'x', sizeof out);
	pgp_hex_encode(out, p, sizeof p);
	T_EQ_STR(out, "001FA0FF79BE");
	pgp_hex_encode(out, p, 0);
	T_EQ_STR(out, "");
	pgp_hex_encode_lower(out, p, sizeof p);
	T_EQ_STR(out, "001fa0ff79be");
}

static void
test_digit(void)
{
	static const char ok[] = "0123456789abcdefABCDEF";
	static const int val[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
	    10, 11, 12, 13, 14, 15};
	size_t i;
	for (i = 0; i < sizeof ok - 1; i++)
		T_EQ_INT(pgp_hex_digit(ok[i]), val[i]);
	T_EQ_INT(pgp_hex_digit('g'), -1);
	T_EQ_INT(pgp_hex_digit('G'), -1);
	T_EQ_INT(pgp_hex_digit('/'), -1);
	T_EQ_INT(pgp_hex_digit(':'), -1);
	T_EQ_INT(pgp_hex_digit('@'), -1);
	T_EQ_INT(pgp_hex_digit(0), -1);
	T_EQ_INT(pgp_hex_digit(0xff), -1);
}

static void
test_decode(void)
{
	uint8_t out[4];
	memset(out, 0, sizeof out);
	T_EQ_INT(pgp_hex_decode(out, "79be3E43", 4), 0);
	T_EQ_INT(out[0], 0x79);
	T_EQ_INT(out[1], 0xbe);
	T_EQ_INT(out[2], 0x3e);
	T_EQ_INT(out[3], 0x43);
	T_EQ_INT(pgp_hex_decode(out, "79be3E4", 4), -1);    /* too short */
	T_EQ_INT(pgp_hex_decode(out, "79be3E4300", 4), -1); /* too long */
	T_EQ_INT(pgp_hex_decode(out, "79be3E4g", 4), -1);   /* not a digit */
	T_EQ_INT(pgp_hex_decode(out, "", 0), 0);
}

int
main(void)
{
	T_RUN(test_encode);
	T_RUN(test_digit);
	T_RUN(test_decode);
	return T_DONE();
}
