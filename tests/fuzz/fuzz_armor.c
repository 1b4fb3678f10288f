/*
 * fuzz_armor.c - ASCII armor and cleartext parsing (pgp/armor.h).
 * Walks every block with pgp_armor_next, checks that re-encoding a decoded
 * block decodes to the same octets, runs pgp_armor_decode_all, and
 * pgp_cleartext_parse + pgp_cleartext_canon. Invariant violations abort().
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/armor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
check_roundtrip(const pgp_armor *a)
{
	pgp_buf enc;
	pgp_armor b;
	size_t pos = 0;

	if (pgp_armor_encode(&enc, a->label, a->data, a->data_len) != PGP_OK)
		abort();
	if (pgp_armor_next(&b, enc.p, enc.len, &pos, NULL) != PGP_OK ||
	    b.data_len != a->data_len || strcmp(a->label, b.label) != 0 ||
	    (a->data_len > 0 && memcmp(a->data, b.data, a->data_len) != 0) ||
	    pos != enc.len)
		abort();
	pgp_armor_release(&b);
	pgp_buf_free(&enc);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	pgp_armor a;
	pgp_buf b;
	pgp_cleartext c;
	pgp_diag d;
	size_t pos = 0, total = 0, prev;
	int ok_blocks = 1;
	pgp_err e;

	for (;;) {
		prev = pos;
		e = pgp_armor_next(&a, data, size, &pos, &d);
		if (e != PGP_OK) {
			if (pos != prev)
				abort();
			if (e != PGP_ERR_NOT_FOUND)
				ok_blocks = 0;
			break;
		}
		if (pos <= prev || pos > size || a.begin_off < prev || a.end_off != pos ||
		    (a.has_crc && !a.crc_ok))
			abort();
		check_roundtrip(&a);
		total += a.data_len;
		pgp_armor_release(&a);
	}
	e = pgp_armor_decode_all(&b, data, size, &d);
	if (e == PGP_OK) {
		if (!ok_blocks || b.len != total)
			abort();
		pgp_buf_free(&b);
	}
	if (pgp_armor_is_armored(data, size) == 0 && e != PGP_ERR_NOT_FOUND)
		abort();

	if (pgp_cleartext_parse(&c, data, size, &d) == PGP_OK) {
		if (c.end_off > size || c.begin_off >= c.end_off ||
		    c.n_hash > PGP_CLEARTEXT_MAX_HASHES)
			abort();
		if (pgp_cleartext_canon(&b, c.text, c.text_len) != PGP_OK)
			abort();
		pgp_buf_free(&b);
		pgp_cleartext_release(&c);
	}
	return 0;
}
