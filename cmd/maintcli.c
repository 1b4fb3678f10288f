/*
 * maintcli.c - loading MAINTAINERS for the command line; see maintcli.h
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "maintcli.h"
#include "out.h"

/* see maintcli.h */
int
maint_cli_load(const char *path, cli_file *f, maint_file **m)
{
	pgp_diag d = {0, -1, NULL};
	pgp_err e;
	size_t i;

	if (cli_file_open(f, path) != 0)
		return -1;
	if ((e = maint_parse(m, f->p, f->len, &d)) != PGP_OK) {
		cli_report(path, e, &d);
		cli_file_close(f);
		return -1;
	}
	for (i = 0; i < maint_nentries(*m); i++) {
		const maint_entry *en = maint_entry_at(*m, i);
		if (en->bad)
			cli_msg(path, "line %u: %c: pattern ignored (%s)", en->line, en->type,
			    en->reason ? en->reason : "refused");
	}
	return 0;
}

/* see maintcli.h */
void
maint_cli_title(const maint_file *m, size_t s, char *buf, size_t cap, pgp_view *out)
{
	const maint_section *sec = maint_section_at(m, s);

	if (sec != NULL && sec->title.len) {
		*out = sec->title;
		return;
	}
	snprintf(buf, cap, "(untitled, line %u)", sec ? sec->line : 0);
	out->p = (const uint8_t *)buf;
	out->len = strlen(buf);
}
