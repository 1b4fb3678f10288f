#include "wotcli.h"
int wot_cmd_why(wot_cli *c, int argc, char **argv) { (void)c; (void)argc; (void)argv; return 2; }
int wot_cmd_audit(wot_cli *c, int argc, char **argv) { (void)c; (void)argc; (void)argv; return 2; }
