/*
 * dump.h - internals of `wotkit dump`: the packet printers.
 *
 * Every printer writes fields through the emitter of cmd/out.h, so the human
 * and the JSON output always carry the same content. The key fingerprint
 * line is always "<indent>fingerprint: <UPPERCASE HEX>" (tests grep for it).
 */
#ifndef WOTKIT_DUMP_H
#define WOTKIT_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "pgp/pgp.h"
#include "out.h"

#define DUMP_MAX_WARNINGS 16   /* per packet; more are counted, not listed */

/* One run of the dumper over one file. */
typedef struct dump_ctx {
	out_ctx o;
	const char *file;
	int nesting;          /* compressed-in-compressed depth */
	size_t zleft;         /* decompression budget left in this message (all levels) */
	int sig_depth;        /* embedded-signature depth */
	int errors;           /* malformed things seen (exit 2) */
	size_t warnings;      /* tolerated oddities seen (exit 0), see dump_warning */
	/* warnings of the packets being dumped (a stack: nested packets, in
	 * compressed data, list and drop their own) */
	struct dump_warn {
		size_t off;
		const char *what;
	} warn[DUMP_MAX_WARNINGS];
	size_t nwarn;         /* entries pending in warn[] */
	size_t warn_lost;     /* pending warnings beyond DUMP_MAX_WARNINGS */
	size_t last_off;      /* last error reported, to drop duplicates */
	const char *last_what;
	/* where the current packet body lives: offset = body_off + (p - body_p) */
	const uint8_t *body_p;
	size_t body_off;
	/* context for error messages: armor block / compressed packet */
	char where[400];
	/* creation times for "key expires at" */
	uint32_t primary_created, subkey_created;
	int have_primary, have_subkey;
} dump_ctx;

/* ---- shared by the printers (dump_field.c) and the printers (dump_pkt.c, dump_sig.c) ---- */
size_t dump_off(const dump_ctx *c, const uint8_t *p);
/* Dumps every packet of buf (offsets relative to buf), into an open array. */
void dump_packets(dump_ctx *c, const uint8_t *buf, size_t len);
/* One MPI as an array element: name, bit count, flags. */
void dump_mpi(dump_ctx *c, const char *name, const pgp_mpi *m);
/* Fields of a signature body (also used for embedded signatures). */
void dump_sig_body(dump_ctx *c, const pgp_rd *body);
/* Report a malformed item: human/JSON "error" field + stderr line; counts it. */
void dump_error(dump_ctx *c, pgp_err e, const pgp_diag *d);
/*
 * Report a non-canonical but well-defined item (e.g. an MPI bit count that
 * does not match its value, RFC 9580 §3.2, which verification tolerates):
 * "wotkit: FILE: offset N: warning: what" on stderr, and the packet being
 * dumped lists it under "warnings". Does not change the exit code.
 */
void dump_warning(dump_ctx *c, size_t off, const char *what);
/* Signature type: human "Name (0xNN)", JSON "type": N, "type_name". */
void dump_sigtype(out_ctx *o, int type);
const char *dump_sym_name(int a);
const char *dump_comp_name(int a);
const char *dump_aead_name(int a);
/* NAME, or "unknown-ID" into buf when the name is unknown. */
const char *dump_named(char *buf, size_t n, const char *name, int id);

#endif
