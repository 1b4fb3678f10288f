/* sopv.c - placeholder until the subcommand lands. */
#include <stdio.h>
#include "cli.h"
#include "cmds.h"

int
cmd_sopv(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wotkit: sopv: not implemented yet\n");
	return EXIT_USAGE;
}
