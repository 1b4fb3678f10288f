/*
 * krbuild.c - strip, check the root, serialize and write the wotkit
 * keyring file: the core `keyring build` and `refresh` share. see krbuild.h
 */
#include <stdio.h>
#include <string.h>
#include "atomic.h"
#include "cli.h"
#include "krbuild.h"
#include "out.h"

static void
progress(void *ctx, size_t done, size_t total)
{
	const krb_opts *o = ctx;
	if (done == total || done % 64 == 0)
		fprintf(stderr, "\rwotkit: %s: %zu/%zu certificates", o->cmd, done, total);
	if (done == total)
		fputc('\n', stderr);
}

/* see krbuild.h */
int
krb_strip(pgp_certset *set, const krb_opts *o, kr_strip_result *sr)
{
	kr_strip_opts so;
	size_t i;
	pgp_err e;

	memset(&so, 0, sizeof so);
	so.now = o->at;
	so.pol = o->pol;
	so.threads = o->threads;
	so.keep_superseded = 1;
	so.details = o->details;
	if (o->progress) {
		so.progress = progress;
		so.progress_ctx = (void *)(uintptr_t)o;
	}
	if ((e = kr_strip(set, &so, sr)) != PGP_OK) {
		cli_msg(o->cmd, "stripping failed: %s", pgp_strerror(e));
		return -1;
	}
	for (i = 0; i < sr->nnotes && !o->quiet; i++)
		cli_msg(o->cmd, "note: %s", sr->notes[i]);
	if (o->root != NULL) {
		for (i = 0; i < sr->ncerts; i++)
			if (sr->certs[i].cert->primary.fpr.len == o->root->len &&
			    memcmp(sr->certs[i].cert->primary.fpr.v, o->root->v, o->root->len) == 0)
				break;
		if (i == sr->ncerts) {
			char hex[2 * PGP_FPR_MAX + 1];
			pgp_hex_encode(hex, o->root->v, o->root->len);
			cli_msg(o->cmd, "--root %s is not the primary key of a certificate in the sources",
			    o->root_arg ? o->root_arg : hex);
			return -1;
		}
	}
	return 0;
}

/* see krbuild.h */
int
krb_to_mem(const krb_opts *o, const kr_strip_result *sr, const kr_meta *meta, pgp_buf *out)
{
	pgp_err e = kr_serialize(sr, meta, out);
	if (e != PGP_OK) {
		cli_msg(o->cmd, "building the keyring failed: %s", pgp_strerror(e));
		return -1;
	}
	return 0;
}

typedef struct counter {
	cli_atomic *a;
	size_t n;
} counter;

static pgp_err
count_sink(void *ctx, const uint8_t *p, size_t n)
{
	counter *c = ctx;
	c->n += n;
	return cli_atomic_sink(c->a, p, n);
}

/* see krbuild.h */
int
krb_write(const krb_opts *o, const kr_strip_result *sr, const kr_meta *meta, const char *path,
    size_t *octets)
{
	cli_atomic af;
	counter cnt;
	pgp_err e;

	if (cli_atomic_open(&af, path) != 0)
		return -1;
	cnt.a = &af;
	cnt.n = 0;
	e = kr_serialize_to(sr, meta, count_sink, &cnt);
	if (e != PGP_OK)
		cli_msg(o->cmd, "writing the keyring failed: %s%s%s", pgp_strerror(e),
		    af.failed ? ": " : "", af.failed ? strerror(af.failed) : "");
	if (cli_atomic_close(&af, path, e == PGP_OK, 1) != 0)
		return -1;
	*octets = cnt.n;
	return 0;
}

/* see krbuild.h */
int
krb_write_bytes(const char *path, const uint8_t *data, size_t len)
{
	cli_atomic af;
	int ok;

	if (cli_atomic_open(&af, path) != 0)
		return -1;
	ok = cli_atomic_sink(&af, data, len) == PGP_OK;
	if (!ok)   /* a full disk: refresh failed with no message */
		cli_msg(af.tmp, "write: %s", strerror(af.failed));
	return cli_atomic_close(&af, path, ok, 1);
}

/* see krbuild.h */
void
krb_summary(const krb_opts *o, const kr_strip_result *sr, const char *path, size_t octets)
{
	uint64_t certs = 0, dropped = 0;
	size_t i, d;
	for (i = 0; i < sr->ncerts; i++)
		certs += sr->certs[i].kept_certifications;
	for (d = 0; d < KR_DROP__N; d++)
		dropped += sr->drops[d];
	fprintf(stderr, "wotkit: %s: ", o->cmd);
	out_esc_text(stderr, path);
	fprintf(stderr, ": %zu certificates, %llu certifications kept, %llu signatures "
	    "dropped, %zu octets\n", sr->ncerts, (unsigned long long)certs,
	    (unsigned long long)dropped, octets);
}
