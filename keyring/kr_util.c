/* kr_util.c - checksums, e-mail hashes and section names of the keyring
 * file. see kr_int.h */
#include <stdlib.h>
#include <string.h>
#include "kr_int.h"

/* see kr_int.h */
uint32_t
kr__crc(uint32_t crc, const uint8_t *p, size_t n)
{
	return pgp_crc32(crc, p, n);
}

/* see kr_int.h */
pgp_err
kr__email_hash(uint8_t out[KR_EMAIL_HASH], const uint8_t *addr, size_t len)
{
	uint8_t stack[256] = {0}, *low = stack, d[PGP_HASH_MAX_LEN];
	size_t i;
	pgp_err e;
	if (len > PGP_MAX_PACKET_BODY)
		return PGP_ERR_LIMIT;
	if (len > sizeof stack && (low = malloc(len)) == NULL)
		return PGP_ERR_NOMEM;
	for (i = 0; i < len; i++)
		low[i] = (uint8_t)(addr[i] >= 'A' && addr[i] <= 'Z' ? addr[i] + 32 : addr[i]);
	e = pgp_hash_buf(PGP_HASH_SHA256, low, len, d);
	if (low != stack)
		free(low);
	if (e == PGP_OK)
		memcpy(out, d, KR_EMAIL_HASH);
	return e;
}

/* see kr_int.h */
int
kr__rec_size(uint32_t id)
{
	switch (id) {
	case KR_S_CERTS:
		return KR_REC_CERT;
	case KR_S_FPR:
		return KR_REC_FPR;
	case KR_S_KEYID:
		return KR_REC_KEYID;
	case KR_S_EMAIL:
		return KR_REC_EMAIL;
	case KR_S_EDGES:
		return KR_REC_EDGE;
	case KR_S_TAGS:
		return KR_REC_TAG;
	case KR_S_STATS:
	case KR_S_DATA:
		return 0;
	default:
		return -1;
	}
}

/* see kr_int.h */
const char *
kr__sect_name(uint32_t id)
{
	switch (id) {
	case KR_S_CERTS:
		return "certificate table";
	case KR_S_FPR:
		return "fingerprint index";
	case KR_S_KEYID:
		return "key ID index";
	case KR_S_EMAIL:
		return "e-mail index";
	case KR_S_EDGES:
		return "certification edges";
	case KR_S_TAGS:
		return "memo tags";
	case KR_S_STATS:
		return "statistics";
	case KR_S_DATA:
		return "certificate data";
	default:
		return "unknown section";
	}
}

