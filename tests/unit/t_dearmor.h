/*
 * t_dearmor.h - a tiny test-only ASCII-armor decoder (base64 body, CRC line
 * ignored), so parser tests can read armored vectors without pgp/armor.c.
 * Not a general decoder: the first armor block only, no validation.
 */
#ifndef WOTKIT_T_DEARMOR_H
#define WOTKIT_T_DEARMOR_H

#include <stddef.h>
#include <string.h>

static int
t_b64val(unsigned char c)
{
	if (c >= 'A' && c <= 'Z') return c - 'A';
	if (c >= 'a' && c <= 'z') return c - 'a' + 26;
	if (c >= '0' && c <= '9') return c - '0' + 52;
	if (c == '+') return 62;
	if (c == '/') return 63;
	return -1;
}

/* Decode the first armor block of in[0..n) into out; returns octets written. */
static size_t
t_dearmor(const unsigned char *in, size_t n, unsigned char *out, size_t max)
{
	size_t i = 0, o = 0;
	unsigned long acc = 0;
	int bits = 0, in_body = 0, headers = 0;

	while (i < n) {
		size_t s = i, e;
		while (i < n && in[i] != '\n')
			i++;
		e = i;
		if (i < n)
			i++;
		if (e > s && in[e - 1] == '\r')
			e--;
		if (!headers) {
			if (e - s >= 10 && memcmp(in + s, "-----BEGIN", 10) == 0)
				headers = 1;
			continue;
		}
		if (!in_body) {
			if (e == s)
				in_body = 1;
			continue;
		}
		if (e > s && (in[s] == '=' || in[s] == '-'))
			break;
		for (; s < e; s++) {
			int v = t_b64val(in[s]);
			if (v < 0)
				continue;
			acc = (acc << 6) | (unsigned long)v;
			bits += 6;
			if (bits >= 8) {
				bits -= 8;
				if (o < max)
					out[o++] = (unsigned char)(acc >> bits);
			}
		}
	}
	return o;
}

#endif
