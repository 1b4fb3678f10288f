/* gpg_import.c - placeholder */
#include "gpg.h"
int gpg_cmd_import(gpg_run *r) { (void)r; return 2; }
