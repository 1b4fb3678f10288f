/*
 * dump_pkt.c - packet walk and the non-signature packet printers of
 * `wotkit dump`: keys (RFC 9580 §5.5), user IDs (§5.11), user attributes
 * (§5.12), literal (§5.9), compressed (§5.6, inner packets dumped
 * recursively up to PGP_MAX_NESTING), one-pass signatures (§5.4), marker,
 * trust, padding and unknown packets. see dump.h
 */
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "cli.h"
#include "dump.h"

/* Lists the warnings pending since `from` (this packet's), then drops them. */
static void
flush_warnings(dump_ctx *c, size_t from, size_t lost_from)
{
	out_ctx *o = &c->o;
	size_t i;
	if (c->nwarn <= from && c->warn_lost <= lost_from)
		return;
	out_arr_open(o, "warnings");
	for (i = from; i < c->nwarn; i++) {
		if (!o->json) {
			out_text(o, NULL, "offset %zu: %s", c->warn[i].off, c->warn[i].what);
			continue;
		}
		out_open(o, NULL, NULL);
		out_int(o, "offset", (long long)c->warn[i].off);
		out_text(o, "what", "%s", c->warn[i].what);
		out_close(o);
	}
	out_arr_close(o);
	if (c->warn_lost > lost_from)
		out_int(o, "warnings_not_listed", (long long)(c->warn_lost - lost_from));
	c->nwarn = from;
	c->warn_lost = lost_from;
}

static const char *const *
mpi_names(int algo)
{
	static const char *const rsa[] = {"n", "e"};
	static const char *const dsa[] = {"p", "q", "g", "y"};
	static const char *const elg[] = {"p", "g", "y"};
	static const char *const ec[] = {"q"};
	static const char *const unk[] = {"mpi0", "mpi1", "mpi2", "mpi3"};
	switch (algo) {
	case PGP_PK_RSA: case PGP_PK_RSA_E: case PGP_PK_RSA_S: return rsa;
	case PGP_PK_DSA: return dsa;
	case PGP_PK_ELGAMAL: case PGP_PK_ELGAMAL_ES: return elg;
	case PGP_PK_ECDH: case PGP_PK_ECDSA: case PGP_PK_EDDSA_LEGACY: return ec;
	default: return unk;
	}
}

static void
dump_key(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	pgp_key k;
	pgp_diag d = {0, pkt->tag, NULL};
	pgp_err e = pgp_key_parse(&k, pkt, &d);
	char b[32];
	uint8_t i;

	if (k.version == 0 && e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	out_int(o, "version", k.version);
	if (e == PGP_ERR_UNSUPPORTED && k.opaque && k.version != 2 && k.version != 3 &&
	    k.algo == 0) {
		out_text(o, "unsupported", "%s", d.what ? d.what : "key version");
		out_hex(o, "data", pkt->body.p, pkt->body.len, 32);
		return;
	}
	out_time(o, "created", k.created);
	if (k.version <= 3)
		out_int(o, "v3_expiry_days", k.v3_days);
	out_named(o, "algorithm", k.algo, dump_named(b, sizeof b, pgp_pk_name(k.algo), k.algo));
	if (k.oid.len) {
		out_text(o, "curve", "%s", pgp_curve_name(k.curve));
		out_hex(o, "curve_oid", k.oid.p, k.oid.len, 0);
	}
	if (k.nmpi) {
		const char *const *names = mpi_names(k.algo);
		out_arr_open(o, "mpis");
		for (i = 0; i < k.nmpi && i < 4; i++)
			dump_mpi(c, names[i], &k.mpi[i]);
		out_arr_close(o);
	}
	if (k.native.len)
		out_hex(o, "public_key", k.native.p, k.native.len, 0);
	if (k.kdf.len >= 3) {
		char b2[32];
		out_open(o, "kdf", NULL);
		out_int(o, "reserved", k.kdf.p[0]);
		out_named(o, "hash", k.kdf.p[1], dump_named(b, sizeof b, pgp_hash_name(k.kdf.p[1]), k.kdf.p[1]));
		out_named(o, "cipher", k.kdf.p[2], dump_named(b2, sizeof b2, dump_sym_name(k.kdf.p[2]), k.kdf.p[2]));
		if (k.kdf.len > 3)
			out_hex(o, "extra", k.kdf.p + 3, k.kdf.len - 3, 32);
		out_close(o);
	}
	if (k.opaque && k.material.len)
		out_hex(o, "material", k.material.p, k.material.len, 32);
	if (e == PGP_ERR_UNSUPPORTED) {
		out_text(o, "unsupported", "%s", d.what ? d.what : "key");
		return;
	}
	if (e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	if (k.bits)
		out_int(o, "key_bits", k.bits);
	if (k.is_secret && pkt->body.len > k.body.len)
		out_int(o, "secret_material_length", (long long)(pkt->body.len - k.body.len));
	if (k.fpr.len) {
		out_hex(o, "fingerprint", k.fpr.v, k.fpr.len, 0);
		out_hex(o, "key_id", k.keyid, 8, 0);
	}
	if (k.is_subkey) {
		c->subkey_created = k.created;
		c->have_subkey = 1;
	} else {
		c->primary_created = k.created;
		c->have_primary = 1;
		c->have_subkey = 0;
	}
}

static void
dump_uattr(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	pgp_rd r = pkt->body;
	pgp_uattr_sub s;
	pgp_diag d = {0, pkt->tag, NULL};
	pgp_err e;
	unsigned n = 0;

	r.off = pkt->body.off;
	out_arr_open(o, "subpackets");
	while ((e = pgp_uattr_next(&r, &s, &d)) == PGP_OK) {
		char title[96];
		const char *tn = s.type == 1 ? "image" : "unknown";
		if (++n > PGP_MAX_SUBPACKETS) {
			d.offset = r.off;
			d.what = "too many user attribute subpackets";
			e = PGP_ERR_LIMIT;
			break;
		}
		snprintf(title, sizeof title, "%s (subpacket %d), %zu octets", tn, s.type, s.data.len);
		out_open(o, NULL, title);
		if (o->json) {
			out_named(o, "type", s.type, tn);
			out_int(o, "length", (long long)s.data.len);
		}
		if (s.type == 1) {
			/* §5.12.1: LE16 header length, version 1, encoding, 12 reserved */
			size_t hl = s.data.len >= 2 ? (size_t)(s.data.p[0] | (s.data.p[1] << 8)) : 0;
			if (s.data.len < 4 || hl < 4 || hl > s.data.len) {
				pgp_diag bd = {dump_off(c, s.data.p), pkt->tag,
				    "image header length runs past the subpacket"};
				dump_error(c, PGP_ERR_MALFORMED, &bd);
			} else {
				int enc = s.data.p[3];
				out_int(o, "header_length", (long long)hl);
				out_int(o, "header_version", s.data.p[2]);
				out_named(o, "format", enc, enc == 1 ? "JPEG" :
				    (enc >= 100 && enc <= 110 ? "private" : "unknown"));
				out_int(o, "image_size", (long long)(s.data.len - hl));
			}
		} else {
			out_hex(o, "data", s.data.p, s.data.len, 32);
		}
		out_close(o);
	}
	out_arr_close(o);
	if (e != PGP_ERR_NOT_FOUND)
		dump_error(c, e, &d);
}

static void
dump_ops(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	pgp_ops s;
	pgp_diag d = {0, pkt->tag, NULL};
	pgp_err e = pgp_ops_parse(&s, pkt, &d);
	char b[32];
	if (e == PGP_ERR_UNSUPPORTED) {
		out_int(o, "version", s.version);
		out_text(o, "unsupported", "%s", d.what);
		out_hex(o, "data", pkt->body.p, pkt->body.len, 32);
		return;
	}
	if (e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	out_int(o, "version", s.version);
	dump_sigtype(o, s.type);
	out_named(o, "hash_algo", s.hash_algo, dump_named(b, sizeof b, pgp_hash_name(s.hash_algo), s.hash_algo));
	out_named(o, "pk_algo", s.pk_algo, dump_named(b, sizeof b, pgp_pk_name(s.pk_algo), s.pk_algo));
	if (s.version == 3)
		out_hex(o, "issuer_key_id", s.keyid, 8, 0);
	else {
		out_hex(o, "salt", s.salt.p, s.salt.len, 0);
		out_hex(o, "issuer_fingerprint", s.fpr.p, s.fpr.len, 0);
	}
	out_int(o, "nested_flag", s.nested);
	out_bool(o, "last", s.nested);
}

static void
dump_literal(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	pgp_literal l;
	pgp_diag d = {0, pkt->tag, NULL};
	pgp_err e = pgp_literal_parse(&l, pkt, &d);
	if (e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	if (l.format >= 0x20 && l.format < 0x7F)
		out_text(o, "format", "%c (0x%02X)", l.format, l.format);
	else
		out_text(o, "format", "0x%02X", l.format);
	out_str(o, "filename", l.filename.p, l.filename.len);
	out_time(o, "date", l.date);
	out_int(o, "data_length", (long long)l.data.len);
	out_hex(o, "data_start", l.data.p, l.data.len, 16);
}

static void
dump_compressed(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	uint8_t *buf = NULL, algo = 0;
	size_t blen = 0, where_len;
	pgp_diag d = {0, pkt->tag, NULL};
	pgp_err e;
	char b[32];
	const uint8_t *sp;
	size_t so;

	/* one budget for a top-level compressed packet and all levels inside */
	if (c->nesting == 0)
		c->zleft = PGP_MAX_DECOMPRESSED;
	e = pgp_decompress_budget(&buf, &blen, pkt, &algo, &c->zleft, &d);
	if (pkt->body.len == 0) {
		dump_error(c, e, &d);
		return;
	}
	out_named(o, "algorithm", algo, dump_named(b, sizeof b, dump_comp_name(algo), algo));
	if (e == PGP_ERR_UNSUPPORTED) {
		out_text(o, "unsupported", "%s", d.what ? d.what : "compression algorithm");
		return;
	}
	if (e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	out_int(o, "decompressed_length", (long long)blen);
	if (c->nesting >= PGP_MAX_NESTING) {
		d.offset = pkt->off;
		d.what = "compressed packets nested too deeply";
		dump_error(c, PGP_ERR_LIMIT, &d);
		free(buf);
		return;
	}
	out_note(o, "(offsets below are in the decompressed data)");
	sp = c->body_p;
	so = c->body_off;
	where_len = strlen(c->where);
	snprintf(c->where + where_len, sizeof c->where - where_len,
	    " (decompressed from offset %zu)", pkt->off);
	c->nesting++;
	dump_packets(c, buf, blen);
	c->nesting--;
	c->where[where_len] = 0;
	c->body_p = sp;
	c->body_off = so;
	free(buf);
}

static void
dump_opaque(dump_ctx *c, const pgp_pkt *pkt, int versioned)
{
	out_ctx *o = &c->o;
	if (versioned && pkt->body.len)
		out_int(o, "version", pkt->body.p[0]);
	out_int(o, "length", (long long)pkt->body.len);
	out_hex(o, "data", pkt->body.p, pkt->body.len, 32);
}

static void
dump_one(dump_ctx *c, const pgp_pkt *pkt)
{
	out_ctx *o = &c->o;
	char title[256], b[32];
	const char *tn = dump_named(b, sizeof b, pgp_tag_name(pkt->tag), pkt->tag);
	size_t wfrom = c->nwarn, wlost = c->warn_lost;

	c->body_p = pkt->body.p;
	c->body_off = pkt->body.off;
	snprintf(title, sizeof title, "offset %zu: %s packet (tag %d), %s format%s%s, header %zu, body %zu",
	    pkt->off, tn, pkt->tag, pkt->new_format ? "new" : "legacy",
	    pkt->partial ? ", partial body" : "",
	    pkt->indeterminate ? ", indeterminate length" : "",
	    pkt->hdr_len, pkt->body.len);
	out_open(o, NULL, title);
	if (o->json) {
		out_int(o, "offset", (long long)pkt->off);
		out_int(o, "header_length", (long long)pkt->hdr_len);
		out_int(o, "body_length", (long long)pkt->body.len);
		out_named(o, "tag", pkt->tag, tn);
		out_text(o, "format", "%s", pkt->new_format ? "new" : "legacy");
		out_bool(o, "partial", pkt->partial);
		out_bool(o, "indeterminate", pkt->indeterminate);
	}
	switch (pkt->tag) {
	case PGP_TAG_PUBLIC_KEY:
	case PGP_TAG_PUBLIC_SUBKEY:
	case PGP_TAG_SECRET_KEY:
	case PGP_TAG_SECRET_SUBKEY:
		dump_key(c, pkt);
		break;
	case PGP_TAG_SIGNATURE:
		dump_sig_body(c, &pkt->body);
		break;
	case PGP_TAG_USER_ID:
		out_str(o, "user_id", pkt->body.p, pkt->body.len);
		break;
	case PGP_TAG_USER_ATTRIBUTE:
		dump_uattr(c, pkt);
		break;
	case PGP_TAG_ONE_PASS_SIG:
		dump_ops(c, pkt);
		break;
	case PGP_TAG_LITERAL:
		dump_literal(c, pkt);
		break;
	case PGP_TAG_COMPRESSED:
		dump_compressed(c, pkt);
		break;
	case PGP_TAG_MARKER:
		out_str(o, "marker", pkt->body.p, pkt->body.len);
		if (pkt->body.len != 3 || memcmp(pkt->body.p, "PGP", 3) != 0)
			out_text(o, "note", "marker is not \"PGP\" (RFC 9580 §5.8)");
		break;
	case PGP_TAG_TRUST:
		out_hex(o, "trust", pkt->body.p, pkt->body.len, 32);
		break;
	case PGP_TAG_PADDING:
		out_int(o, "length", (long long)pkt->body.len);
		break;
	case PGP_TAG_PKESK:
	case PGP_TAG_SKESK:
	case PGP_TAG_SEIPD:
	case PGP_TAG_AEAD:
		dump_opaque(c, pkt, 1);
		break;
	default:
		dump_opaque(c, pkt, 0);
		break;
	}
	flush_warnings(c, wfrom, wlost);
	out_close(o);
}

/* see dump.h */
void
dump_packets(dump_ctx *c, const uint8_t *buf, size_t len)
{
	out_ctx *o = &c->o;
	pgp_rd in;
	size_t n = 0;

	pgp_rd_init(&in, buf, len);
	if (c->nesting)
		out_arr_open(o, "packets");
	else
		out_arr_open_q(o, "packets");
	while (!pgp_rd_empty(&in)) {
		pgp_pkt pkt;
		pgp_diag d = {in.off, -1, NULL};
		pgp_err e;
		if (++n > PGP_MAX_PACKETS) {
			d.what = "too many packets";
			dump_error(c, PGP_ERR_LIMIT, &d);
			break;
		}
		memset(&pkt, 0, sizeof pkt);
		e = pgp_pkt_next(&in, &pkt, &d);
		if (e != PGP_OK) {
			dump_error(c, e, &d);
			break;
		}
		dump_one(c, &pkt);
		pgp_pkt_release(&pkt);
	}
	out_arr_close(o);
}
