/* cmds.h - the wotkit subcommands; one file in cmd/ each. */
#ifndef WOTKIT_CMDS_H
#define WOTKIT_CMDS_H

int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_sopv(int argc, char **argv);
int cmd_inspect(int argc, char **argv);
int cmd_strip(int argc, char **argv);
int cmd_keyring(int argc, char **argv);
int cmd_wot(int argc, char **argv);
int cmd_verify_tag(int argc, char **argv);
int cmd_verify_commit(int argc, char **argv);
int cmd_gpg(int argc, char **argv);
int cmd_expiring(int argc, char **argv);
int cmd_submission(int argc, char **argv);
int cmd_maintainers(int argc, char **argv);
int cmd_pull_check(int argc, char **argv);

#endif
