#ifndef WOTKIT_GIT_FETCH_H
#define WOTKIT_GIT_FETCH_H
/* `wotkit-git fetch ...` (fetch.c); argv[0] is "fetch". Calls
 * git_libgit2_init itself. Exit status: 0, 1 error, 2 usage. */
int fetch_main(int argc, char **argv);
#endif
