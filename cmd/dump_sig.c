/*
 * dump_sig.c - signature packets and their subpackets for `wotkit dump`
 * (RFC 9580 §5.2, §5.2.3.7 ff.). see dump.h
 *
 * Subpacket values are decoded here for display only, tolerantly: a value
 * of the wrong size is shown as malformed (and counted) instead of stopping
 * the dump. Acceptance decisions stay in pgp/sig.c and pgp/subpkt.c.
 */
#include <stdlib.h>
#include <string.h>
#include "pgp/pgp.h"
#include "dump.h"

#define LIST_MAX 64

static void
pref_list(out_ctx *o, const char *key, const pgp_rd *d, const char *(*name)(int))
{
	char bufs[LIST_MAX][24];
	const char *items[LIST_MAX + 1];
	size_t i, n = 0;
	for (i = 0; i < d->len && n < LIST_MAX; i++) {
		const char *nm = name(d->p[i]);
		char tmp[24];
		snprintf(bufs[n], sizeof bufs[n], "%s", dump_named(tmp, sizeof tmp, nm, d->p[i]));
		items[n] = bufs[n];
		n++;
	}
	if (i < d->len)
		items[n++] = "...";
	out_list(o, key, items, n);
}

static const char *
hash_name(int a)
{
	return pgp_hash_name(a);
}

static void
duration(out_ctx *o, const char *key, uint32_t s)
{
	if (s == 0) {
		out_text(o, key, "0 (never expires)");
		return;
	}
	out_text(o, key, "%lu seconds (%lud %luh %lum %lus)", (unsigned long)s,
	    (unsigned long)(s / 86400), (unsigned long)(s / 3600 % 24),
	    (unsigned long)(s / 60 % 60), (unsigned long)(s % 60));
}

static void
flag_names(out_ctx *o, const char *key, const pgp_rd *d,
    const char *const names[][8], size_t nnames)
{
	const char *items[LIST_MAX];
	char unk[LIST_MAX][24];
	size_t i, n = 0;
	int b;
	for (i = 0; i < d->len && i < 8; i++)
		for (b = 0; b < 8; b++) {
			if (!(d->p[i] & (1u << b)) || n >= LIST_MAX)
				continue;
			if (i < nnames && names[i][b]) {
				items[n++] = names[i][b];
			} else {
				snprintf(unk[n], sizeof unk[n], "unknown-0x%02X@%zu",
				    1u << b, i);
				items[n] = unk[n];
				n++;
			}
		}
	out_list(o, key, items, n);
	out_hex(o, "raw", d->p, d->len, 16);
}

static const char *const key_flag_names[][8] = {
	{"certify", "sign", "encrypt-communications", "encrypt-storage",
	 "split-key", "authentication", NULL, "group-key"},
	{NULL, NULL, "adsk", "timestamping", NULL, NULL, NULL, NULL},
};
static const char *const feature_names[][8] = {
	{"seipd-v1", "aead (LibrePGP)", "v5-keys (LibrePGP)", "seipd-v2",
	 NULL, NULL, NULL, NULL},
};
static const char *const ks_pref_names[][8] = {
	{NULL, NULL, NULL, NULL, NULL, NULL, NULL, "no-modify"},
};

static const char *
reason_name(int c)
{
	switch (c) {
	case 0: return "no reason specified";
	case 1: return "key is superseded";
	case 2: return "key material has been compromised";
	case 3: return "key is retired and no longer used";
	case 32: return "user ID information is no longer valid";
	default: return c >= 100 && c <= 110 ? "private use" : "unknown";
	}
}

typedef struct sig_info {
	uint32_t created;
	int has_created;
	uint8_t type, hash_algo;
} sig_info;

static void
bad_value(dump_ctx *c, const pgp_subpkt *sp, const char *what)
{
	pgp_diag d;
	d.offset = sp->off;
	d.tag = PGP_TAG_SIGNATURE;
	d.what = what;
	dump_error(c, PGP_ERR_MALFORMED, &d);
}

/* Exact-size check for fixed-size values. */
static int
want(dump_ctx *c, const pgp_subpkt *sp, size_t n, const char *what)
{
	if (sp->data.len == n)
		return 1;
	bad_value(c, sp, what);
	out_hex(&c->o, "raw", sp->data.p, sp->data.len, 32);
	return 0;
}

static void
fpr_value(dump_ctx *c, const pgp_subpkt *sp, const char *key)
{
	out_ctx *o = &c->o;
	size_t n;
	if (sp->data.len < 1) {
		bad_value(c, sp, "fingerprint subpacket without a version");
		return;
	}
	n = sp->data.len - 1;
	out_int(o, "key_version", sp->data.p[0]);
	out_hex(o, key, sp->data.p + 1, n, 0);
	if (!((sp->data.p[0] == 4 && n == 20) || ((sp->data.p[0] == 5 || sp->data.p[0] == 6) && n == 32)))
		bad_value(c, sp, "fingerprint length does not match its version");
}

static void
notation(dump_ctx *c, const pgp_subpkt *sp)
{
	out_ctx *o = &c->o;
	pgp_rd r = sp->data;
	pgp_view flags, name, value;
	uint16_t nl, vl;
	if (pgp_rd_view(&r, 4, &flags) != PGP_OK || pgp_rd_be16(&r, &nl) != PGP_OK ||
	    pgp_rd_be16(&r, &vl) != PGP_OK || pgp_rd_view(&r, nl, &name) != PGP_OK ||
	    pgp_rd_view(&r, vl, &value) != PGP_OK || !pgp_rd_empty(&r)) {
		bad_value(c, sp, "notation lengths do not match the subpacket");
		out_hex(o, "raw", sp->data.p, sp->data.len, 32);
		return;
	}
	out_hex(o, "flags", flags.p, 4, 0);
	out_bool(o, "human_readable", flags.p[0] & 0x80);
	if (!o->json && (flags.p[0] & 0x80)) {
		/* human: one "name=value" line, both escaped */
		uint8_t *nv = malloc((size_t)nl + 1 + vl);
		if (nv) {
			memcpy(nv, name.p, nl);
			nv[nl] = '=';
			memcpy(nv + nl + 1, value.p, vl);
			out_str(o, "notation", nv, (size_t)nl + 1 + vl);
			free(nv);
			return;
		}
	}
	out_str(o, "name", name.p, name.len);
	if (flags.p[0] & 0x80)
		out_str(o, "value", value.p, value.len);
	else
		out_hex(o, "value", value.p, value.len, 64);
}

static void
subpkt_value(dump_ctx *c, const pgp_subpkt *sp, const sig_info *si)
{
	out_ctx *o = &c->o;
	const pgp_rd *d = &sp->data;
	char buf[32];
	uint32_t v;

	switch (sp->type) {
	case PGP_SUB_CREATED:
		if (want(c, sp, 4, "creation time is not 4 octets"))
			out_time(o, "time", pgp_be32(d->p));
		break;
	case PGP_SUB_SIG_EXPIRES:
		if (!want(c, sp, 4, "signature expiration is not 4 octets"))
			break;
		v = pgp_be32(d->p);
		duration(o, "expires_after", v);
		if (v && si->has_created)
			out_time(o, "expires_at", (int64_t)si->created + v);
		break;
	case PGP_SUB_KEY_EXPIRES:
		if (!want(c, sp, 4, "key expiration is not 4 octets"))
			break;
		v = pgp_be32(d->p);
		duration(o, "expires_after", v);
		{
			int sub = si->type == PGP_SIG_SUBKEY_BINDING ||
			    si->type == PGP_SIG_SUBKEY_REVOCATION;
			if (v && sub && c->have_subkey)
				out_time(o, "expires_at", (int64_t)c->subkey_created + v);
			else if (v && !sub && c->have_primary)
				out_time(o, "expires_at", (int64_t)c->primary_created + v);
		}
		break;
	case PGP_SUB_EXPORTABLE:
	case PGP_SUB_REVOCABLE:
	case PGP_SUB_PRIMARY_UID:
		if (want(c, sp, 1, "boolean subpacket is not 1 octet"))
			out_bool(o, "value", d->p[0] != 0);
		break;
	case PGP_SUB_TRUST:
		if (want(c, sp, 2, "trust signature is not 2 octets")) {
			out_int(o, "level", d->p[0]);
			out_int(o, "amount", d->p[1]);
		}
		break;
	case PGP_SUB_REGEX:
	case PGP_SUB_PREF_KEYSERVER:
	case PGP_SUB_POLICY_URI:
	case PGP_SUB_SIGNERS_UID:
		out_str(o, "value", d->p, d->len);
		break;
	case PGP_SUB_PREF_SYM:
		pref_list(o, "algorithms", d, dump_sym_name);
		break;
	case PGP_SUB_PREF_HASH:
		pref_list(o, "algorithms", d, hash_name);
		break;
	case PGP_SUB_PREF_COMP:
		pref_list(o, "algorithms", d, dump_comp_name);
		break;
	case PGP_SUB_PREF_AEAD:
		pref_list(o, "algorithms", d, dump_aead_name);
		break;
	case PGP_SUB_PREF_AEAD_CIPHERS: {
		char bufs[LIST_MAX][48];
		const char *items[LIST_MAX];
		size_t i, n = 0;
		char t1[24], t2[24];
		if (d->len % 2) {
			bad_value(c, sp, "AEAD cipher preferences are not pairs");
			break;
		}
		for (i = 0; i + 1 < d->len && n < LIST_MAX; i += 2, n++) {
			snprintf(bufs[n], sizeof bufs[n], "%s/%s",
			    dump_named(t1, sizeof t1, dump_sym_name(d->p[i]), d->p[i]),
			    dump_named(t2, sizeof t2, dump_aead_name(d->p[i + 1]), d->p[i + 1]));
			items[n] = bufs[n];
		}
		out_list(o, "algorithms", items, n);
		break;
	}
	case PGP_SUB_REVOCATION_KEY:
		if (d->len < 2) {
			bad_value(c, sp, "revocation key subpacket too short");
			break;
		}
		out_hex(o, "class", d->p, 1, 0);
		out_named(o, "pk_algo", d->p[1], dump_named(buf, sizeof buf, pgp_pk_name(d->p[1]), d->p[1]));
		out_hex(o, "revoker_fingerprint", d->p + 2, d->len - 2, 0);
		break;
	case PGP_SUB_ISSUER:
		if (want(c, sp, 8, "issuer key ID is not 8 octets"))
			out_hex(o, "issuer_key_id", d->p, 8, 0);
		break;
	case PGP_SUB_NOTATION:
		notation(c, sp);
		break;
	case PGP_SUB_KEYSERVER_PREFS:
		flag_names(o, "flags", d, ks_pref_names, 1);
		break;
	case PGP_SUB_KEY_FLAGS:
		flag_names(o, "flags", d, key_flag_names, 2);
		break;
	case PGP_SUB_FEATURES:
		flag_names(o, "flags", d, feature_names, 1);
		break;
	case PGP_SUB_REVOCATION_REASON:
		if (d->len < 1) {
			bad_value(c, sp, "revocation reason without a code");
			break;
		}
		out_named(o, "code", d->p[0], reason_name(d->p[0]));
		out_str(o, "reason", d->p + 1, d->len - 1);
		break;
	case PGP_SUB_SIG_TARGET:
		if (d->len < 2) {
			bad_value(c, sp, "signature target too short");
			break;
		}
		out_named(o, "pk_algo", d->p[0], dump_named(buf, sizeof buf, pgp_pk_name(d->p[0]), d->p[0]));
		{
			char b2[32];
			out_named(o, "hash_algo", d->p[1],
			    dump_named(b2, sizeof b2, pgp_hash_name(d->p[1]), d->p[1]));
		}
		out_hex(o, "hash", d->p + 2, d->len - 2, 0);
		break;
	case PGP_SUB_EMBEDDED_SIG:
		if (c->sig_depth >= PGP_MAX_NESTING) {
			bad_value(c, sp, "embedded signatures nested too deeply");
			break;
		}
		out_open(o, "signature", NULL);
		c->sig_depth++;
		dump_sig_body(c, d);
		c->sig_depth--;
		out_close(o);
		break;
	case PGP_SUB_ISSUER_FPR:
		fpr_value(c, sp, "issuer_fingerprint");
		break;
	case PGP_SUB_INTENDED_RCPT:
		fpr_value(c, sp, "recipient_fingerprint");
		break;
	case PGP_SUB_ATTESTED: {
		size_t hl = pgp_hash_len(si->hash_algo);
		if (hl && d->len % hl == 0)
			out_int(o, "count", (long long)(d->len / hl));
		out_hex(o, "digests", d->p, d->len, 64);
		break;
	}
	case PGP_SUB_KEY_BLOCK:
		if (d->len >= 1)
			out_int(o, "mode", d->p[0]);
		out_int(o, "length", (long long)d->len);
		break;
	default:
		out_hex(o, "data", d->p, d->len, 32);
		break;
	}
}

static void
subpkt_area(dump_ctx *c, const char *key, pgp_view area, int hashed, const sig_info *si)
{
	out_ctx *o = &c->o;
	pgp_rd r;
	pgp_subpkt sp;
	pgp_diag d;
	pgp_err e;
	unsigned n = 0;

	pgp_rd_init(&r, area.p, area.len);
	r.off = dump_off(c, area.p);
	out_arr_open(o, key);
	for (;;) {
		char title[160], nb[32];
		d.offset = r.off;
		d.tag = PGP_TAG_SIGNATURE;
		d.what = NULL;
		e = pgp_subpkt_next(&r, hashed, &sp, &d);
		if (e == PGP_ERR_NOT_FOUND)
			break;
		if (e != PGP_OK) {
			dump_error(c, e, &d);
			break;
		}
		if (++n > PGP_MAX_SUBPACKETS) {
			d.offset = sp.off;
			d.what = "too many subpackets";
			dump_error(c, PGP_ERR_LIMIT, &d);
			break;
		}
		snprintf(title, sizeof title, "offset %zu: %s (subpacket %d)%s, %zu octet%s",
		    sp.off, dump_named(nb, sizeof nb, pgp_subpkt_name(sp.type), sp.type), sp.type,
		    sp.critical ? ", critical" : "", sp.data.len, sp.data.len == 1 ? "" : "s");
		out_open(o, NULL, title);
		if (o->json) {
			out_int(o, "offset", (long long)sp.off);
			out_named(o, "type", sp.type, dump_named(nb, sizeof nb, pgp_subpkt_name(sp.type), sp.type));
			out_bool(o, "critical", sp.critical);
			out_bool(o, "hashed", hashed);
			out_int(o, "length", (long long)sp.data.len);
		}
		subpkt_value(c, &sp, si);
		out_close(o);
	}
	out_arr_close(o);
}

static void
sig_mpis(dump_ctx *c, const pgp_sig *s)
{
	static const char *const rs[2] = {"r", "s"};
	out_ctx *o = &c->o;
	uint8_t i;
	if (s->nmpi == 0)
		return;
	out_arr_open(o, "mpis");
	for (i = 0; i < s->nmpi && i < 2; i++) {
		const char *nm = s->nmpi == 1 ? "s" : rs[i];
		dump_mpi(c, nm, &s->mpi[i]);
	}
	out_arr_close(o);
}

/* see dump.h */
void
dump_sig_body(dump_ctx *c, const pgp_rd *body)
{
	out_ctx *o = &c->o;
	pgp_sig s;
	pgp_diag d = {0, PGP_TAG_SIGNATURE, NULL};
	pgp_rd b = *body;
	pgp_err e;
	sig_info si;
	char nb[32];

	b.off = dump_off(c, body->p);
	e = pgp_sig_parse(&s, &b, &d);
	if (s.version == 0 && e != PGP_OK) {
		dump_error(c, e, &d);
		return;
	}
	out_int(o, "version", s.version);
	if (e == PGP_ERR_UNSUPPORTED && s.opaque) {
		out_text(o, "unsupported", "%s", d.what ? d.what : "signature version");
		out_hex(o, "data", body->p, body->len, 32);
		return;
	}
	dump_sigtype(o, s.type);
	out_named(o, "pk_algo", s.pk_algo, dump_named(nb, sizeof nb, pgp_pk_name(s.pk_algo), s.pk_algo));
	out_named(o, "hash_algo", s.hash_algo,
	    dump_named(nb, sizeof nb, pgp_hash_name(s.hash_algo), s.hash_algo));
	memset(&si, 0, sizeof si);
	si.type = s.type;
	si.hash_algo = s.hash_algo;
	if (s.version <= 3) {
		if (s.has_created)
			out_time(o, "created", s.created);
		if (s.has_issuer)
			out_hex(o, "issuer_key_id", s.issuer, 8, 0);
	} else {
		/* creation time for "expires at": the hashed one, found by the parser */
		si.created = s.created;
		si.has_created = s.has_created;
		if (s.hashed.p)
			subpkt_area(c, "hashed_subpackets", s.hashed, 1, &si);
		if (s.unhashed.p)
			subpkt_area(c, "unhashed_subpackets", s.unhashed, 0, &si);
	}
	if (e == PGP_OK || s.nmpi || s.native.len) {
		out_hex(o, "hash_prefix", s.prefix, 2, 0);
		if (s.salt.len)
			out_hex(o, "salt", s.salt.p, s.salt.len, 0);
		sig_mpis(c, &s);
		if (s.native.len)
			out_hex(o, "signature", s.native.p, s.native.len, 0);
	}
	if (e == PGP_OK && s.unknown_critical)
		out_text(o, "note", "unknown critical subpacket %d: the signature is unusable",
		    s.critical_type);
	if (e != PGP_OK && e != PGP_ERR_UNSUPPORTED)
		dump_error(c, e, &d);
	else if (e == PGP_ERR_UNSUPPORTED)
		out_text(o, "unsupported", "%s", d.what ? d.what : "signature");
}
