/* version.h - the one place the wotkit version is written. */
#ifndef WOTKIT_VERSION_H
#define WOTKIT_VERSION_H

#define WOTKIT_VERSION "0.1.0"

#endif
