/* objects.h - `wotkit-git objects` (objects.c). */
#ifndef WOTKIT_GIT_OBJECTS_H
#define WOTKIT_GIT_OBJECTS_H

/* argv[0] is "objects"; libgit2 initialised by the caller. Exit code. */
int objects_main(int argc, char **argv);

#endif
