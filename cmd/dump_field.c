/*
 * dump_field.c - what every printer of `wotkit dump` shares: offsets,
 * error and warning reports, MPIs, and the names of algorithms and
 * signature types. see dump.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "cli.h"
#include "dump.h"

/* see dump.h */
size_t
dump_off(const dump_ctx *c, const uint8_t *p)
{
	return c->body_off + (size_t)(p - c->body_p);
}

/* see dump.h */
void
dump_error(dump_ctx *c, pgp_err e, const pgp_diag *d)
{
	out_ctx *o = &c->o;
	const char *what = d && d->what ? d->what : "parse error";
	size_t off = d ? d->offset : 0;
	char title[320];

	/* the same problem seen twice (e.g. by the dumper and the parser) */
	if (c->errors && c->last_off == off && c->last_what == what)
		return;
	c->last_off = off;
	c->last_what = what;
	c->errors++;
	fprintf(stderr, "%s: ", cli_prog);
	out_esc_text(stderr, c->file);
	fprintf(stderr, ": offset %zu: %s (%s)%s\n", off, what, pgp_strerror(e), c->where);
	snprintf(title, sizeof title, "error: offset %zu: %s (%s)", off, what, pgp_strerror(e));
	out_open(o, "error", title);
	if (o->json) {
		out_text(o, "error", "%s", pgp_errname(e));
		out_text(o, "message", "%s", pgp_strerror(e));
		out_int(o, "offset", (long long)off);
		out_text(o, "what", "%s", what);
	}
	out_close(o);
}

/* see dump.h */
void
dump_warning(dump_ctx *c, size_t off, const char *what)
{
	c->warnings++;
	fprintf(stderr, "%s: ", cli_prog);
	out_esc_text(stderr, c->file);
	fprintf(stderr, ": offset %zu: warning: %s%s\n", off, what, c->where);
	if (c->nwarn < DUMP_MAX_WARNINGS) {
		c->warn[c->nwarn].off = off;
		c->warn[c->nwarn].what = what;
		c->nwarn++;
	} else
		c->warn_lost++;
}

/* see dump.h */
const char *
dump_named(char *buf, size_t n, const char *name, int id)
{
	if (name && strcmp(name, "unknown") != 0 && strcmp(name, "Unknown") != 0)
		return name;
	snprintf(buf, n, "unknown-%d", id);
	return buf;
}

/* see dump.h */
void
dump_mpi(dump_ctx *c, const char *name, const pgp_mpi *m)
{
	out_ctx *o = &c->o;
	unsigned actual = pgp_mpi_bitlen(m);
	if (o->json) {
		out_open(o, NULL, NULL);
		out_text(o, "name", "%s", name);
		out_int(o, "bits", m->bits);
		out_int(o, "actual_bits", actual);
		out_int(o, "octets", (long long)m->v.len);
		out_bool(o, "bad_bit_count", m->bad_bits);
		out_bool(o, "leading_zero", m->leading_zero);
		if (m->v.len <= 64)
			out_hex(o, "value", m->v.p, m->v.len, 0);
		out_close(o);
	} else {
		char hex[140] = "";
		size_t i;
		if (m->v.len <= 64) {
			hex[0] = ' ';
			for (i = 0; i < m->v.len; i++)
				snprintf(hex + 1 + 2 * i, sizeof hex - 1 - 2 * i, "%02X", m->v.p[i]);
		}
		char bad[64] = "";
		if (m->bad_bits)
			snprintf(bad, sizeof bad, " [BAD BIT COUNT: actual %u bits]", actual);
		out_note(o, "%s: %u bits, %zu octets%s%s%s", name, m->bits, m->v.len, bad,
		    m->leading_zero ? " [LEADING ZERO OCTET]" : "", hex);
	}
	if (m->bad_bits) {
		/* RFC 9580 §3.2: the bit count starts at the most significant
		 * non-zero bit. The octet count (what parsing needs) follows
		 * from it, so the packet is still readable: a warning, as
		 * verification tolerates it too (gpg and sq read such keys). */
		size_t off = m->v.p ? dump_off(c, m->v.p) - 2 : c->body_off;
		dump_warning(c, off, m->leading_zero ?
		    "MPI with a leading zero octet (non-canonical bit count)" :
		    "MPI bit count does not match its value");
	}
}

/* see dump.h */
const char *
dump_sym_name(int a)
{
	switch (a) {
	case 0: return "plaintext";
	case 1: return "IDEA";
	case 2: return "TripleDES";
	case 3: return "CAST5";
	case 4: return "Blowfish";
	case 7: return "AES128";
	case 8: return "AES192";
	case 9: return "AES256";
	case 10: return "Twofish";
	case 11: return "Camellia128";
	case 12: return "Camellia192";
	case 13: return "Camellia256";
	default: return "unknown";
	}
}

/* see dump.h */
const char *
dump_comp_name(int a)
{
	switch (a) {
	case PGP_COMP_NONE: return "uncompressed";
	case PGP_COMP_ZIP: return "ZIP";
	case PGP_COMP_ZLIB: return "ZLIB";
	case PGP_COMP_BZIP2: return "BZip2";
	default: return "unknown";
	}
}

/* see dump.h */
const char *
dump_aead_name(int a)
{
	switch (a) {
	case 1: return "EAX";
	case 2: return "OCB";
	case 3: return "GCM";
	default: return "unknown";
	}
}

/* see dump.h */
void
dump_sigtype(out_ctx *o, int type)
{
	if (o->json)
		out_named(o, "type", type, pgp_sigtype_name(type));
	else
		out_text(o, "type", "%s (0x%02X)", pgp_sigtype_name(type), type);
}
