/*
 * gitverify_sig.c - one git object's signatures: split as git 2.39 splits
 * them (pgp/gitsig.h), verified against the keyring (pgp/verify.h), and the
 * signer's trust: a path from the root by wotmate's rule (keyring/wot.h), or
 * with --min-trust GnuPG's validity (keyring/trust.h). see gitverify.h
 */
#include <stdlib.h>
#include <string.h>
#include "gitverify.h"
#include "keyring/gitobj.h"

const char *
gv_verdict_word(gv_verdict v)
{
	static const char *const words[] = {
		"good", "untrusted", "unsigned", "bad", "unknown-key", "expired-key",
		"revoked-key", "expired-signature", "policy", "multiple-signatures",
		"unsupported-format", "malformed",
	};
	return (size_t)v < sizeof words / sizeof words[0] ? words[v] : "malformed";
}

/* The lines of p[0..n) that start with an OpenPGP armor header (git's
 * signature headers: gpg-interface.c sigs[]). */
static size_t
armor_lines(const uint8_t *p, size_t n)
{
	static const char *const heads[] = {
		"-----BEGIN PGP SIGNATURE-----", "-----BEGIN PGP MESSAGE-----",
	};
	size_t i = 0, k, count = 0;
	while (i < n) {
		const uint8_t *nl = memchr(p + i, '\n', n - i);
		size_t end = nl ? (size_t)(nl - p) : n;
		for (k = 0; k < 2; k++) {
			size_t hl = strlen(heads[k]);
			if (end - i >= hl && memcmp(p + i, heads[k], hl) == 0)
				count++;
		}
		i = end + 1;
	}
	return count;
}

/* The signer's path from the root, once per signer (a range of 1,000
 * commits by one maintainer searches once). */
static void
trust_of(gv_ctx *x, gv_sig *s)
{
	int64_t node;
	size_t n = 0;

	if (!s->has_result || s->res.cert_fpr.len == 0)
		return;
	if ((node = wot_find_fpr(x->c.g, &s->res.cert_fpr)) < 0)
		return;
	s->node = node;
	s->validity = x->trust ? wot_trust_key(x->trust, (uint32_t)node) : WOT_V_UNKNOWN;
	if (!x->cached[node]) {
		x->cached[node] = 1;
		if (x->c.root >= 0 && x->search &&
		    wot_paths(x->search, (uint32_t)x->c.root, (uint32_t)node, GV_MAX_DEPTH, 1,
		    &x->path[node], &n) == PGP_OK && n == 1)
			x->haspath[node] = 1;
	}
	if (x->haspath[node]) {
		s->has_path = 1;
		s->path = x->path[node];
	}
}

static int
trusted(const gv_ctx *x, const gv_sig *s)
{
	if (x->min_trust == 0)
		return s->has_path;
	return (s->validity == WOT_V_MARGINAL || s->validity == WOT_V_FULL ||
	    s->validity == WOT_V_ULTIMATE) && (unsigned)s->validity >= x->min_trust;
}

static void
verdict_of_result(gv_ctx *x, gv_sig *s)
{
	const pgp_result *r = &s->res;

	s->reason = r->reason;
	switch (r->status) {
	case PGP_OK:
		if (s->node >= 0 && wot_node_at(x->c.g, (uint32_t)s->node)->state == WOT_NODE_REVOKED) {
			/* a soft revocation (superseded, retired) after the signature:
			 * good when made, but the key is revoked now (gpg's REVKEYSIG) */
			s->verdict = GV_REVOKED_KEY;
			s->reason = "the signing key has been revoked since the signature was made";
		} else if (r->key_expired_now) {
			/* good when made, the key expired since: gpg's EXPKEYSIG */
			s->verdict = GV_EXPIRED_KEY;
			s->reason = "the signing key has expired since the signature was made";
		} else if (trusted(x, s)) {
			s->verdict = GV_GOOD;
		} else {
			s->verdict = GV_UNTRUSTED;
			s->reason = x->min_trust == 0 ? "no path from the root to the signer" :
			    "the signer's validity is below --min-trust";
		}
		return;
	case PGP_ERR_BAD_SIG:
		s->verdict = GV_BAD;
		return;
	case PGP_ERR_NO_KEY:
		s->verdict = GV_UNKNOWN_KEY;
		return;
	case PGP_ERR_EXPIRED:
		s->verdict = (r->sig_expires != 0 && r->sig_expires <= x->vo.now) ?
		    GV_EXPIRED_SIG : GV_EXPIRED_KEY;
		return;
	case PGP_ERR_REVOKED:
		s->verdict = GV_REVOKED_KEY;
		return;
	case PGP_ERR_POLICY:
		s->verdict = GV_POLICY;
		return;
	case PGP_ERR_UNSUPPORTED:
		s->verdict = GV_UNSUPPORTED;
		return;
	case PGP_ERR_NOT_YET:
	case PGP_ERR_UNUSABLE:
		/* made after --at, or by a key not fit for signing: not good */
		s->verdict = GV_BAD;
		return;
	default:
		s->verdict = GV_MALFORMED;
		return;
	}
}

/* see gitverify.h */
void
gv_check(gv_ctx *x, const uint8_t *payload, size_t plen, const uint8_t *sig, size_t slen,
    pgp_gitsig_format fmt, gv_sig *out)
{
	pgp_verifier *v = NULL;
	pgp_diag d = {0, -1, NULL};
	pgp_err e;

	memset(out, 0, sizeof *out);
	out->node = -1;
	switch (fmt) {
	case PGP_GITSIG_NONE:
		out->verdict = GV_UNSIGNED;
		return;
	case PGP_GITSIG_X509:
		out->verdict = GV_UNSUPPORTED;
		out->reason = "an x509 (gpgsm) signature";
		return;
	case PGP_GITSIG_SSH:
		out->verdict = GV_UNSUPPORTED;
		out->reason = "an ssh signature";
		return;
	case PGP_GITSIG_OPENPGP:
		break;
	default:
		out->verdict = GV_UNSUPPORTED;
		out->reason = "a signature of no format git knows";
		return;
	}
	/* two armor blocks in one signature (a commit's gpgsig holding two) */
	if (armor_lines(sig, slen) > 1) {
		out->verdict = GV_MULTIPLE;
		out->reason = "two signature blocks";
		return;
	}
	if ((e = pgp_verifier_new(&v, sig, slen, &d)) != PGP_OK) {
		out->verdict = GV_MALFORMED;
		out->reason = e == PGP_ERR_NO_SIG ? "no signature packet in the signature block" :
		    "the signature block cannot be parsed";
		return;
	}
	if (pgp_verifier_count(v) > 1) {
		out->verdict = GV_MULTIPLE;
		out->reason = "more than one signature packet";
		pgp_verifier_free(v);
		return;
	}
	pgp_verifier_update(v, payload, plen);
	if ((e = pgp_verifier_finish(v, &x->src, &x->vo)) != PGP_OK ||
	    pgp_verifier_count(v) != 1) {
		out->verdict = GV_MALFORMED;
		out->reason = e == PGP_ERR_NOMEM ? "out of memory" : "verification failed to run";
		pgp_verifier_free(v);
		return;
	}
	out->res = *pgp_verifier_result(v, 0);
	out->has_result = 1;
	pgp_verifier_free(v);   /* res points into the keyring, not the verifier */
	trust_of(x, out);
	verdict_of_result(x, out);
}

/* A tag object, or a mergetag's value. */
static void
check_tag(gv_ctx *x, const uint8_t *obj, size_t len, gv_sig *out)
{
	pgp_buf payload, sig;
	pgp_gitsig_format fmt = PGP_GITSIG_NONE;
	pgp_view tagger;
	pgp_err e;

	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	e = pgp_gitsig_tag_split(obj, len, &payload, &sig, &fmt);
	if (e != PGP_OK) {
		memset(out, 0, sizeof *out);
		out->node = -1;
		out->verdict = GV_MALFORMED;
		out->reason = e == PGP_ERR_LIMIT ? "object larger than PGP_GITSIG_MAX_OBJECT" :
		    "the tag cannot be split as git does";
	} else if (fmt != PGP_GITSIG_NONE &&
	    pgp_gitsig_header(payload.p, payload.len, "tagger", &tagger) != PGP_OK) {
		/* git 2.39 runs no program for a tag without a tagger line and
		 * reports it unverified (gpg-interface.c parse_payload_metadata,
		 * pgp/gitsig.h): so do we, whatever the signature says */
		memset(out, 0, sizeof *out);
		out->node = -1;
		out->verdict = GV_MALFORMED;
		out->reason = "no tagger line (git verifies no signature on such a tag)";
	} else if (fmt == PGP_GITSIG_OPENPGP && armor_lines(payload.p, payload.len) > 0) {
		/* git verifies the last block only; an earlier one is refused */
		memset(out, 0, sizeof *out);
		out->node = -1;
		out->verdict = GV_MULTIPLE;
		out->reason = "two signature blocks";
	} else {
		gv_check(x, payload.p, payload.len, sig.p, sig.len, fmt, out);
	}
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
}

/* The value of header `name` as a C string (cut to cap - 1 octets). */
static void
header_str(const uint8_t *obj, size_t len, const char *name, char *out, size_t cap)
{
	pgp_view v;
	size_t n;
	out[0] = 0;
	if (pgp_gitsig_header(obj, len, name, &v) != PGP_OK)
		return;
	n = v.len < cap - 1 ? v.len : cap - 1;
	memcpy(out, v.p, n);
	out[n] = 0;
	if (memchr(out, 0, n) != NULL)
		out[0] = 0;
}

static int
check_mergetags(gv_ctx *x, const uint8_t *obj, size_t len, gv_object *o)
{
	uint8_t *parents = NULL;
	size_t np = 0, pos = 0, k, idlen = x->sha256 ? 32 : 20;
	int64_t when;
	pgp_buf tag;
	int rc = 0;

	if ((parents = malloc(GITOBJ_MAX_PARENTS * 32)) == NULL)
		return -1;
	if (gitobj_commit_parse(obj, len, idlen, parents, GITOBJ_MAX_PARENTS, &np, &when) != PGP_OK)
		np = 0;
	pgp_buf_init(&tag, PGP_GITSIG_MAX_OBJECT);
	while (o->nmt < GV_MAX_MERGETAGS && pgp_gitsig_mergetag_next(obj, len, &pos, &tag) == PGP_OK) {
		gv_mergetag *m, *nv;
		char hex[2 * 32 + 1];
		if ((nv = realloc(o->mt, (o->nmt + 1) * sizeof *o->mt)) == NULL) {
			rc = -1;
			break;
		}
		o->mt = nv;
		m = &o->mt[o->nmt++];
		memset(m, 0, sizeof *m);
		header_str(tag.p, tag.len, "tag", m->tag, sizeof m->tag);
		header_str(tag.p, tag.len, "object", m->object, sizeof m->object);
		for (k = 0; k < np; k++) {
			pgp_hex_encode_lower(hex, parents + k * idlen, idlen);
			if (strcmp(hex, m->object) == 0)
				m->is_parent = 1;
		}
		check_tag(x, tag.p, tag.len, &m->sig);
	}
	pgp_buf_free(&tag);
	free(parents);
	return rc;
}

/* see gitverify.h */
int
gv_check_object(gv_ctx *x, const uint8_t *obj, size_t len, gv_object *o)
{
	pgp_buf payload, sig;
	pgp_gitsig_format fmt = PGP_GITSIG_NONE;
	pgp_err e;

	if (o->type == GITOBJ_TAG) {
		check_tag(x, obj, len, &o->sig);
		return 0;
	}
	pgp_buf_init(&payload, PGP_GITSIG_MAX_OBJECT);
	pgp_buf_init(&sig, PGP_GITSIG_MAX_OBJECT);
	e = pgp_gitsig_commit(obj, len, x->sha256, &payload, &sig, &fmt);
	if (e != PGP_OK) {
		memset(&o->sig, 0, sizeof o->sig);
		o->sig.node = -1;
		o->sig.verdict = GV_MALFORMED;
		o->sig.reason = e == PGP_ERR_LIMIT ? "object larger than PGP_GITSIG_MAX_OBJECT" :
		    "the commit cannot be split as git does";
	} else {
		gv_check(x, payload.p, payload.len, sig.p, sig.len, fmt, &o->sig);
	}
	pgp_buf_free(&payload);
	pgp_buf_free(&sig);
	return check_mergetags(x, obj, len, o);
}

/* see gitverify.h */
int
gv_object_ok(const gv_object *o)
{
	size_t i;
	if (o->sig.verdict != GV_GOOD)
		return 0;
	for (i = 0; i < o->nmt; i++)
		if (o->mt[i].sig.verdict != GV_GOOD || !o->mt[i].is_parent)
			return 0;
	return 1;
}
