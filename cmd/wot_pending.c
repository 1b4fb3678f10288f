/*
 * wot_pending.c - TEMPORARY: `wot trust` and `wot validity` are being
 * written on another branch (cmd/wot_trust.c replaces this file).
 */
#include "wotcli.h"

void
wot_cli_ownertrust(wot_cli *c, uint8_t *ot)
{
	(void)c;
	(void)ot;
}

int
wot_cmd_trust(wot_cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_msg(c->cmd, "not available yet");
	return EXIT_USAGE;
}

int
wot_cmd_validity(wot_cli *c, int argc, char **argv)
{
	(void)argc;
	(void)argv;
	cli_msg(c->cmd, "not available yet");
	return EXIT_USAGE;
}
