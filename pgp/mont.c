/*
 * mont.c - s^e mod n for public RSA operations (RFC 8017 §5.2.2 RSAVP1).
 * see mont_int.h
 *
 * Numbers are little-endian arrays of 64-bit limbs; k is the limb count of
 * n and R = 2^(64k). Montgomery multiplication (P. L. Montgomery, "Modular
 * multiplication without trial division", 1985) is done by product
 * scanning with the reduction folded in (see mont_mul): column by column,
 * the limb products of a*b (of a*a: each off-diagonal product once,
 * doubled) and of m*n, where m[i] = (column i) * (-n^-1 mod 2^64) makes the
 * low k columns vanish. For a, b < n the result is below 2n and one
 * conditional subtraction makes it < n.
 *
 * Three builds of the column sum (dot): unsigned __int128 for gcc, clang's
 * carry builtins, and 64-bit-only C (PGP_MONT_NO_INT128; tested by
 * test_rsa_mont, which compiles this file a second time that way).
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

/* r[0..k) -= a[0..k) * b; returns the borrow limb. The carry of the
 * products (cm) and the borrow of the subtraction (bw) are two separate
 * chains, each one or two instructions long per limb. */
static limb
submul_1(limb *r, const limb *a, size_t k, limb b)
{
	limb cm = 0, bw = 0, hi, lo, t, d;
	size_t i;

	for (i = 0; i < k; i++) {
		lo = mul_wide(a[i], b, &hi);
		lo += cm;
		cm = hi + (lo < cm); /* hi <= 2^64 - 2 */
		t = r[i];
		d = t - lo;
		r[i] = d - bw;
		bw = (t < lo) | (d < bw);
	}
	return cm + bw; /* no overflow: the true borrow fits a limb */
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

/*
 * The column accumulator of product scanning: three limbs c[0..2], far
 * from overflowing for k <= 256 products of two limbs per column. dot()
 * adds x[j] * y[-j] for j < cnt; with a 128-bit type gcc and clang make
 * each step mov, mul, add, adc, adc.
 */
static inline void
dot(limb *c, const limb *x, const limb *y, size_t cnt)
{
	size_t j;
#if defined(__clang__) && defined(__SIZEOF_INT128__) && !defined(PGP_MONT_NO_INT128)
	/* clang turns the comparisons below into setb/movzx; its carry
	 * builtins give the add/adc/adc chain. */
	unsigned long long c0 = c[0], c1 = c[1], c2 = c[2], cy, cy2;
	dlimb p;

	for (j = 0; j < cnt; j++) {
		p = (dlimb)x[j] * *(y - j);
		c0 = __builtin_addcll(c0, (unsigned long long)p, 0, &cy);
		c1 = __builtin_addcll(c1, (unsigned long long)(p >> 64), cy, &cy2);
		c2 += cy2;
	}
	c[0] = c0;
	c[1] = c1;
	c[2] = c2;
#elif defined(__SIZEOF_INT128__) && !defined(PGP_MONT_NO_INT128)
	dlimb acc = ((dlimb)c[1] << 64) | c[0], p;
	limb c2 = c[2];

	/* two products per iteration: less loop overhead */
	for (j = 0; j + 2 <= cnt; j += 2) {
		p = (dlimb)x[j] * *(y - j);
		acc += p;
		c2 += acc < p;
		p = (dlimb)x[j + 1] * *(y - j - 1);
		acc += p;
		c2 += acc < p;
	}
	if (j < cnt) {
		p = (dlimb)x[j] * *(y - j);
		acc += p;
		c2 += acc < p;
	}
	c[0] = (limb)acc;
	c[1] = (limb)(acc >> 64);
	c[2] = c2;
#else
	limb hi, lo;

	for (j = 0; j < cnt; j++) {
		lo = mul_wide(x[j], *(y - j), &hi);
		c[0] += lo;
		hi += c[0] < lo; /* hi <= 2^64 - 2 */
		c[1] += hi;
		c[2] += c[1] < hi;
	}
#endif
}

/* c += x * y (one product). */
static inline void
acc1(limb *c, limb x, limb y)
{
	dot(c, &x, &y, 1);
}

/* Next column: c >>= 64. */
static inline void
shift(limb *c)
{
	c[0] = c[1];
	c[1] = c[2];
	c[2] = 0;
}

/*
 * r = a * b * R^-1 mod n, for a, b < n; r may be a or b. Product scanning
 * with the reduction folded in (Koç, Acar, Kaliski, "Analyzing and comparing
 * Montgomery multiplication algorithms", 1996: FIPS): column i of a*b and of
 * m*n is summed in one accumulator, and m[i] = acc * n0 mod 2^64 clears its
 * low limb, for i < k; columns k..2k-2 give r. One dependency chain of
 * add/adc/adc per product, which beats a row of multiply-adds whose carry
 * runs through every limb. Column i >= k reads only a, b limbs above i - k,
 * so r[i-k] can be written in place.
 */
static void
mont_mul(limb *r, const limb *a, const limb *b, const limb *n, limb n0, size_t k)
{
	limb m[PGP_MONT_MAX_LIMBS], c[3] = { 0, 0, 0 };
	size_t i, lo;

	for (i = 0; i < k; i++) {
		dot(c, a, b + i, i + 1);
		dot(c, m, n + i, i);
		m[i] = c[0] * n0;
		acc1(c, m[i], n[0]);
		shift(c);
	}
	for (i = k; i < 2 * k - 1; i++) {
		lo = i - k + 1;
		dot(c, a + lo, b + k - 1, k - lo);
		dot(c, m + lo, n + k - 1, k - lo);
		r[i - k] = c[0];
		shift(c);
	}
	r[k - 1] = c[0];
	/* r + c[1]*R < 2n */
	if (c[1] || geq(r, n, k))
		sub_n(r, r, n, k);
}

/*
 * r = a^2 * R^-1 mod n, for a < n; r may be a. As mont_mul, but each column
 * sums the products a[j]*a[i-j] with j < i-j once in a second accumulator,
 * doubles it, and adds the square a[i/2]^2 for even i: about half the
 * products of a*a.
 */
static void
mont_sqr(limb *r, const limb *a, const limb *n, limb n0, size_t k)
{
	limb m[PGP_MONT_MAX_LIMBS], c[3] = { 0, 0, 0 }, s[3], t;
	size_t i, lo;

	for (i = 0; i < 2 * k - 1; i++) {
		lo = i < k ? 0 : i - k + 1;
		s[0] = s[1] = s[2] = 0;
		dot(s, a + lo, a + i - lo, (i + 1) / 2 - lo);
		/* c += 2s */
		s[2] = (s[2] << 1) | (s[1] >> 63);
		s[1] = (s[1] << 1) | (s[0] >> 63);
		s[0] <<= 1;
		c[0] += s[0];
		t = c[0] < s[0];
		s[1] += t;
		s[2] += s[1] < t;
		c[1] += s[1];
		c[2] += s[2] + (c[1] < s[1]);
		if (i % 2 == 0)
			acc1(c, a[i / 2], a[i / 2]);
		if (i < k) {
			dot(c, m, n + i, i);
			m[i] = c[0] * n0;
			acc1(c, m[i], n[0]);
		} else {
			dot(c, m + lo, n + k - 1, k - lo);
			r[i - k] = c[0];
		}
		shift(c);
	}
	r[k - 1] = c[0];
	if (c[1] || geq(r, n, k))
		sub_n(r, r, n, k);
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
	size_t i, j, w = len / 8;
	limb v;

	/* whole limbs from the end, then the partial top one */
	for (i = 0; i < w; i++) {
		const uint8_t *q = p + len - 8 * i - 8;

		v = 0;
		for (j = 0; j < 8; j++)
			v = (v << 8) | q[j];
		a[i] = v;
	}
	if (i < k) {
		v = 0;
		for (j = 0; j < len % 8; j++)
			v = (v << 8) | p[j];
		a[i++] = v;
	}
	for (; i < k; i++)
		a[i] = 0;
}

/* p[0..len) big-endian from a[0..k), left-padded with zeros (the value must
 * fit). */
static void
store_be(uint8_t *p, size_t len, const limb *a, size_t k)
{
	size_t i, j;
	limb v;

	for (i = 0; i < k && 8 * i < len; i++) {
		v = a[i];
		for (j = 0; j < 8 && 8 * i + j < len; j++) {
			p[len - 1 - 8 * i - j] = (uint8_t)v;
			v >>= 8;
		}
	}
	for (i = 8 * i; i < len; i++)
		p[len - 1 - i] = 0;
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
	limb x[PGP_MONT_MAX_LIMBS];
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
		mont_sqr(x, x, n, n0, k);
		if (te[telen - 1 - bit / 8] & (1u << (bit % 8))) {
			/* The last multiply by s itself leaves the domain. */
			plain = bit == 0;
			mont_mul(x, x, plain ? s : sm, n, n0, k);
		}
	}
	if (!plain) { /* x * 1 * R^-1 */
		memset(sm, 0, k * sizeof *sm);
		sm[0] = 1;
		mont_mul(x, x, sm, n, n0, k);
	}
	store_be(out, nlen, x, k);
	return PGP_OK;
}
