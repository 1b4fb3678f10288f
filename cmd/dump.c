/* dump.c - placeholder until the subcommand lands. */
#include <stdio.h>
#include "cli.h"
#include "cmds.h"

int
cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "wotkit: dump: not implemented yet\n");
	return EXIT_USAGE;
}
