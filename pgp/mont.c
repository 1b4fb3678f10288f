/*
 * mont.c - s^e mod n for public RSA operations (RFC 8017 §5.2.2 RSAVP1).
 * see mont_int.h
 *
 * Numbers are little-endian arrays of 64-bit limbs; w is the limb count of
 * n and R = 2^(64w). Montgomery multiplication (P. L. Montgomery, "Modular
 * multiplication without trial division", 1985) is done by separated operand
 * scanning: the full 2w-limb product (or square, which needs about half the
 * limb products), then w reduction steps, each adding m*n with
 * m = t[i] * (-n^-1 mod 2^64) so that limb i becomes zero. For a, b < n the
 * result is below 2n and one conditional subtraction makes it < n.
 *
 * Entering the Montgomery domain takes one division, s*R mod n (Knuth,
 * TAOCP vol. 2 §4.3.1, algorithm D), instead of computing R^2 mod n and
 * multiplying by it. Leaving it is free when e is odd: the last multiply of
 * the left-to-right ladder takes s itself, not s*R, and
 * mont(x*R, s) = x*s mod n. For e = 65537 a verification is one division,
 * 16 Montgomery squarings and one Montgomery multiplication.
 *
 * e is public: the ladder branches on its bits, and carries decide the final
 * subtraction. Not for secrets.
 */
#include <string.h>
#include "mont_int.h"

typedef uint64_t limb;

#if defined(__SIZEOF_INT128__) && !defined(PGP_MONT_NO_INT128)
typedef unsigned __int128 dlimb;

/* hi:lo = a * b */
static inline limb
mul_wide(limb a, limb b, limb *hi)
{
	dlimb p = (dlimb)a * b;

	*hi = (limb)(p >> 64);
	return (limb)p;
}
#else
/* hi:lo = a * b from four 32x32 products (no 128-bit type). */
static inline limb
mul_wide(limb a, limb b, limb *hi)
{
	limb al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	limb ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	limb mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);

	*hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	return (mid << 32) | (ll & 0xffffffffu);
}
#endif

/* r[0..k) = a[0..k) * b; returns the carry limb. */
static limb
mul_1(limb *r, const limb *a, size_t k, limb b)
{
	limb c = 0, hi, lo;
	size_t i;

	for (i = 0; i < k; i++) {
		lo = mul_wide(a[i], b, &hi);
		lo += c;
		c = hi + (lo < c);
		r[i] = lo;
	}
	return c;
}

/* r[0..k) += a[0..k) * b; returns the carry limb. The inner loop of
 * everything below: a*b + r + c <= (2^64-1)^2 + 2(2^64-1) < 2^128. */
static limb
addmul_1(limb *r, const limb *a, size_t k, limb b)
{
	limb c = 0, hi, lo, t;
	size_t i;

	for (i = 0; i < k; i++) {
		lo = mul_wide(a[i], b, &hi);
		lo += c;
		hi += lo < c;
		t = r[i];
		lo += t;
		hi += lo < t;
		r[i] = lo;
		c = hi;
	}
	return c;
}

/* r[0..k) -= a[0..k) * b; returns the borrow limb. */
static limb
submul_1(limb *r, const limb *a, size_t k, limb b)
{
	limb c = 0, hi, lo, t;
	size_t i;

	for (i = 0; i < k; i++) {
		lo = mul_wide(a[i], b, &hi);
		lo += c;
		hi += lo < c;
		t = r[i];
		r[i] = t - lo;
		c = hi + (t < lo);
	}
	return c;
}

/* r[0..k) = a[0..k) + b[0..k); returns the carry bit. */
static limb
add_n(limb *r, const limb *a, const limb *b, size_t k)
{
	limb c = 0, s, t;
	size_t i;

	for (i = 0; i < k; i++) {
		s = a[i] + c;
		c = s < c;
		t = s + b[i];
		c += t < s;
		r[i] = t;
	}
	return c;
}

/* r[0..k) = a[0..k) - b[0..k); returns the borrow bit. */
static limb
sub_n(limb *r, const limb *a, const limb *b, size_t k)
{
	limb c = 0, d, t;
	size_t i;

	for (i = 0; i < k; i++) {
		d = a[i] - c;
		c = a[i] < c;
		t = d - b[i];
		c += d < b[i];
		r[i] = t;
	}
	return c;
}

/* 1 if a[0..k) >= b[0..k). */
static int
geq(const limb *a, const limb *b, size_t k)
{
	while (k-- > 0)
		if (a[k] != b[k])
			return a[k] > b[k];
	return 1;
}

/* t[0..2k) = a * b. */
static void
mul_full(limb *t, const limb *a, const limb *b, size_t k)
{
	size_t i;

	t[k] = mul_1(t, a, k, b[0]);
	for (i = 1; i < k; i++)
		t[i + k] = addmul_1(t + i, a, k, b[i]);
}

/* t[0..2k) = a^2: the products a[i]*a[j] with i < j once, doubled, plus the
 * squares a[i]^2 on the diagonal. */
static void
sqr_full(limb *t, const limb *a, size_t k)
{
	limb top = 0, cy = 0, lo, hi, plo, phi, x, y;
	size_t i;

	t[0] = 0;
	t[2 * k - 1] = 0;
	if (k > 1)
		t[k] = mul_1(t + 1, a + 1, k - 1, a[0]);
	/* Row i adds a[i] * a[i+1..k) at t[2i+1..i+k) and its carry lands
	 * in t[i+k], which no earlier row has written. */
	for (i = 1; i + 1 < k; i++)
		t[i + k] = addmul_1(t + 2 * i + 1, a + i + 1, k - i - 1, a[i]);
	for (i = 0; i < k; i++) {
		lo = t[2 * i];
		hi = t[2 * i + 1];
		x = (lo << 1) | top;
		y = (hi << 1) | (lo >> 63);
		top = hi >> 63;
		plo = mul_wide(a[i], a[i], &phi);
		x += cy;
		cy = x < cy;
		x += plo;
		cy += x < plo;
		y += cy;
		cy = y < cy;
		y += phi;
		cy += y < phi;
		t[2 * i] = x;
		t[2 * i + 1] = y;
	}
}

/* r[0..k) = t * R^-1 mod n for t[0..2k) < n*R (t is destroyed). n0 is
 * -n^-1 mod 2^64. */
static void
redc(limb *r, limb *t, const limb *n, limb n0, size_t k)
{
	limb hi = 0, c, s;
	size_t i;

	for (i = 0; i < k; i++) {
		c = addmul_1(t + i, n, k, t[i] * n0);
		/* t[i] is now 0; the carry goes to limb i+k, the overflow of
		 * limb i+k to limb i+k+1 (the next round's i+k). */
		s = t[i + k] + hi;
		hi = s < hi;
		s += c;
		hi += s < c;
		t[i + k] = s;
	}
	/* t[k..2k) + hi*R < 2n */
	if (hi || geq(t + k, n, k))
		sub_n(r, t + k, n, k);
	else
		memcpy(r, t + k, k * sizeof *r);
}

/* -n0^-1 mod 2^64 for odd n0, by Newton's iteration x <- x(2 - n0 x), which
 * doubles the correct low bits; n0 * n0 = 1 mod 8 gives the first three. */
static limb
neg_inv(limb n0)
{
	limb x = n0;
	int i;

	for (i = 0; i < 5; i++)
		x *= 2 - n0 * x;
	return (limb)0 - x;
}

/* r[0..k) = a * R mod n for a < n (Knuth's algorithm D on the 2k-limb
 * dividend a * 2^(64k); only the remainder is kept). k >= 2. */
static void
to_mont(limb *r, const limb *a, const limb *n, size_t k)
{
	limb u[2 * PGP_MONT_MAX_LIMBS + 1], v[PGP_MONT_MAX_LIMBS];
	limb v1, v2, qhat, rhat, b, nb;
	unsigned sh = 0;
	size_t i, j;

	/* Normalise: shift so that the divisor's top bit is set. */
	for (v1 = n[k - 1]; !(v1 & ((limb)1 << 63)); v1 <<= 1)
		sh++;
	memset(u, 0, k * sizeof *u);
	if (sh == 0) {
		memcpy(v, n, k * sizeof *v);
		memcpy(u + k, a, k * sizeof *u);
		u[2 * k] = 0;
	} else {
		for (i = k - 1; i > 0; i--) {
			v[i] = (n[i] << sh) | (n[i - 1] >> (64 - sh));
			u[k + i] = (a[i] << sh) | (a[i - 1] >> (64 - sh));
		}
		v[0] = n[0] << sh;
		u[k] = a[0] << sh;
		u[2 * k] = a[k - 1] >> (64 - sh);
	}
	v1 = v[k - 1];
	v2 = v[k - 2];
	for (j = k; j-- > 0;) {
		/* u[j..j+k] < v * 2^64: estimate the quotient digit from the top
		 * two limbs, then correct it with the third (at most twice). */
		if (u[j + k] >= v1) {
			qhat = ~(limb)0;
			rhat = u[j + k - 1] + v1;
			if (rhat < v1)
				goto sub; /* rhat >= 2^64: qhat is right or one high */
		} else {
#if defined(__SIZEOF_INT128__) && !defined(PGP_MONT_NO_INT128)
			dlimb num = ((dlimb)u[j + k] << 64) | u[j + k - 1];

			qhat = (limb)(num / v1);
			rhat = (limb)(num - (dlimb)qhat * v1);
#else
			/* Bitwise long division of u[j+k]:u[j+k-1] by v1. */
			limb nh = u[j + k], nl = u[j + k - 1];
			int bit;

			qhat = 0;
			for (bit = 0; bit < 64; bit++) {
				limb carry = nh >> 63;

				nh = (nh << 1) | (nl >> 63);
				nl <<= 1;
				qhat <<= 1;
				if (carry || nh >= v1) {
					nh -= v1;
					qhat |= 1;
				}
			}
			rhat = nh;
#endif
		}
		for (;;) {
			limb phi, plo = mul_wide(qhat, v2, &phi);

			if (phi < rhat || (phi == rhat && plo <= u[j + k - 2]))
				break;
			qhat--;
			rhat += v1;
			if (rhat < v1)
				break; /* rhat >= 2^64 */
		}
sub:
		b = submul_1(u + j, v, k, qhat);
		nb = u[j + k] < b;
		u[j + k] -= b;
		if (nb) /* qhat was one too high: add v back */
			u[j + k] += add_n(u + j, u + j, v, k);
	}
	/* The remainder is u[0..k) >> sh. */
	if (sh == 0) {
		memcpy(r, u, k * sizeof *r);
	} else {
		for (i = 0; i + 1 < k; i++)
			r[i] = (u[i] >> sh) | (u[i + 1] << (64 - sh));
		r[k - 1] = u[k - 1] >> sh;
	}
}

/* a[0..k) from the big-endian p[0..len), len <= 8k. */
static void
load_be(limb *a, size_t k, const uint8_t *p, size_t len)
{
	size_t i;

	memset(a, 0, k * sizeof *a);
	for (i = 0; i < len; i++)
		a[i / 8] |= (limb)p[len - 1 - i] << (8 * (i % 8));
}

/* p[0..len) big-endian from a[0..k), left-padded with zeros (the value must
 * fit). */
static void
store_be(uint8_t *p, size_t len, const limb *a, size_t k)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[len - 1 - i] = i / 8 < k ? (uint8_t)(a[i / 8] >> (8 * (i % 8))) : 0;
}

/* Drop leading zero octets. */
static const uint8_t *
trim(const uint8_t *p, size_t *len)
{
	while (*len > 0 && p[0] == 0) {
		p++;
		(*len)--;
	}
	return p;
}

/* see mont_int.h */
pgp_err
pgp__mont_modexp(uint8_t *out, const uint8_t *np, size_t nlen,
    const uint8_t *sp, size_t slen, const uint8_t *ep, size_t elen)
{
	limb n[PGP_MONT_MAX_LIMBS], s[PGP_MONT_MAX_LIMBS], sm[PGP_MONT_MAX_LIMBS];
	limb x[PGP_MONT_MAX_LIMBS], t[2 * PGP_MONT_MAX_LIMBS];
	const uint8_t *tn, *ts, *te;
	size_t tnlen = nlen, tslen = slen, telen = elen, k, bit, nbits;
	limb n0;
	int plain = 0;

	memset(out, 0, nlen);
	tn = trim(np, &tnlen);
	ts = trim(sp, &tslen);
	te = trim(ep, &telen);
	if (tnlen == 0 || tnlen > PGP_MAX_MPI_BITS / 8 || (tn[tnlen - 1] & 1) == 0 ||
	    (tnlen == 1 && tn[0] == 1) || tslen > tnlen)
		return PGP_ERR_INVALID;
	k = (tnlen + 7) / 8;
	load_be(n, k, tn, tnlen);
	load_be(s, k, ts, tslen);
	if (geq(s, n, k))
		return PGP_ERR_INVALID;
	if (telen == 0) { /* s^0 = 1 (n > 1) */
		out[nlen - 1] = 1;
		return PGP_OK;
	}
	n0 = neg_inv(n[0]);

	/* s*R mod n: a division for k >= 2; for one limb, (s << 64) % n. */
	if (k == 1) {
#if defined(__SIZEOF_INT128__) && !defined(PGP_MONT_NO_INT128)
		sm[0] = (limb)(((dlimb)s[0] << 64) % n[0]);
#else
		limb r = s[0];
		int i;

		for (i = 0; i < 64; i++) { /* r = 2r mod n, 64 times */
			limb top = r >> 63;

			r <<= 1;
			if (top || r >= n[0])
				r -= n[0];
		}
		sm[0] = r;
#endif
	} else {
		to_mont(sm, s, n, k);
	}

	/* Left to right over the bits of e below its top bit (RFC 8017 leaves
	 * the method open; e is public, RFC 9580 §5.2.3.1). */
	memcpy(x, sm, k * sizeof *x);
	nbits = telen * 8;
	while (!(te[0] & (0x80u >> (8 * telen - nbits))))
		nbits--;
	for (bit = nbits - 1; bit-- > 0;) {
		sqr_full(t, x, k);
		redc(x, t, n, n0, k);
		if (te[telen - 1 - bit / 8] & (1u << (bit % 8))) {
			/* The last multiply by s itself leaves the domain. */
			plain = bit == 0;
			mul_full(t, x, plain ? s : sm, k);
			redc(x, t, n, n0, k);
		}
	}
	if (!plain) { /* x * R^-1 */
		memcpy(t, x, k * sizeof *t);
		memset(t + k, 0, k * sizeof *t);
		redc(x, t, n, n0, k);
	}
	store_be(out, nlen, x, k);
	return PGP_OK;
}
