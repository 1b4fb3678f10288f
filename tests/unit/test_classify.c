/* test_classify.c - the one input classifier (pgp/classify.h). */
#include "t.h"
#include "pgp/classify.h"

static pgp_input_class
cls(const char *s, size_t n)
{
	pgp_input_class c;
	pgp_classify((const uint8_t *)s, n, &c);
	return c;
}
#define CLS(lit) cls(lit, sizeof lit - 1)

static void
test_binary_is_a_ctb(void)
{
	pgp_input_class c = CLS("\x99\x01\x0d");
	T_EQ_INT(c.kind, PGP_INPUT_BINARY);
	/* a CTB first: never scanned for text, even if armor follows */
	c = CLS("\xcb\x20-----BEGIN PGP SIGNED MESSAGE-----\n");
	T_EQ_INT(c.kind, PGP_INPUT_BINARY);
	T_EQ_INT(pgp_classify_has_armor(&c, 36), 0);
}

static void
test_armored_kinds(void)
{
	pgp_input_class c = CLS("-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nxx\n");
	T_EQ_INT(c.kind, PGP_INPUT_ARMORED);
	T_EQ_INT(c.armor, PGP_ARMOR_PUBLIC_KEY);
	T_EQ_INT(c.begin, 0);
	c = CLS(" \r\n\t\n-----BEGIN PGP SIGNATURE-----\n");
	T_EQ_INT(c.kind, PGP_INPUT_ARMORED);
	T_EQ_INT(c.armor, PGP_ARMOR_SIGNATURE);
	T_EQ_INT(c.begin, 5);
	T_EQ_INT(CLS("-----BEGIN PGP MESSAGE-----\n").armor, PGP_ARMOR_MESSAGE);
	T_EQ_INT(CLS("-----BEGIN PGP PRIVATE KEY BLOCK-----\n").armor, PGP_ARMOR_PRIVATE_KEY);
	T_EQ_INT(CLS("-----BEGIN PGP MESSAGE, PART 1/2-----\n").armor, PGP_ARMOR_OTHER);
	T_EQ_INT(CLS("-----BEGIN PGP SIGNATURE").armor, PGP_ARMOR_OTHER); /* no closing dashes */
}

static void
test_cleartext(void)
{
	pgp_input_class c = CLS("\n-----BEGIN PGP SIGNED MESSAGE-----\nHash: SHA256\n\nhi\n");
	T_EQ_INT(c.kind, PGP_INPUT_CLEARTEXT);
	T_EQ_INT(c.begin, 1);
	T_EQ_INT(c.armor, PGP_ARMOR_NONE);
}

static void
test_unknown_and_empty(void)
{
	pgp_input_class c = CLS("hello\n-----BEGIN PGP SIGNATURE-----\n");
	T_EQ_INT(c.kind, PGP_INPUT_UNKNOWN);
	T_EQ_INT(c.later, 6);
	T_EQ_INT(pgp_classify_has_armor(&c, 36), 1);
	/* the header must start a line */
	c = CLS("x -----BEGIN PGP X\n");
	T_EQ_INT(c.kind, PGP_INPUT_UNKNOWN);
	T_EQ_INT(c.later, 19);
	T_EQ_INT(pgp_classify_has_armor(&c, 19), 0);
	T_EQ_INT(CLS("-----BEGIN PGP").kind, PGP_INPUT_UNKNOWN); /* truncated header */
	T_EQ_INT(CLS("-----BEGIN CERTIFICATE-----\n").kind, PGP_INPUT_UNKNOWN);
	T_EQ_INT(CLS("\x7f\x01").kind, PGP_INPUT_UNKNOWN);
	T_EQ_INT(CLS(" \n\t ").kind, PGP_INPUT_EMPTY);
	T_EQ_INT(pgp_classify(NULL, 0, NULL), PGP_INPUT_EMPTY);
}

int
main(void)
{
	T_RUN(test_binary_is_a_ctb);
	T_RUN(test_armored_kinds);
	T_RUN(test_cleartext);
	T_RUN(test_unknown_and_empty);
	return T_DONE();
}
