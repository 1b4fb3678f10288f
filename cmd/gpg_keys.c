/* gpg_keys.c - placeholder */
#include "gpg.h"
int gpg_cmd_list(gpg_run *r, int fingerprint) { (void)r; (void)fingerprint; return 2; }
