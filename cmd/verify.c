/* verify.c - placeholder until the subcommand lands. */
#include <stdio.h>
#include "cli.h"
#include "cmds.h"

int
cmd_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wotkit: verify: not implemented yet\n");
	return EXIT_USAGE;
}
