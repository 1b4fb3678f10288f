/*
 * pgp.h - the public API of libpgp, wotkit's OpenPGP library (RFC 9580):
 * the one header a program outside pgp/ includes. It includes every public
 * header of pgp/ and nothing else; each is self-contained and documents its
 * module.
 *
 * The rules of the API (details in each header):
 *  - names: functions and types are pgp_<module>_<verb> / pgp_<thing>,
 *    macros and enumerators PGP_*. Names with a double underscore (pgp__*)
 *    and the pgp/<module>_int.h headers that declare them are internal:
 *    shared between files of pgp/ (and used by its tests), never part of
 *    the API. No public header includes mbedtls, libsodium or zlib.
 *  - errors: every fallible function returns pgp_err (err.h): PGP_OK (0)
 *    or a negative code; "could not parse", "math failed" and "refused by
 *    policy" never share a code. Detail goes into an optional caller-owned
 *    pgp_diag; there is no global error state, and nothing prints or exits.
 *  - ownership: out parameters come first; what pgp_x_new() returns is the
 *    caller's, released with pgp_x_free() (a no-op on NULL);
 *    pgp_x_release() frees what a caller-allocated struct owns; getters
 *    return const pointers owned by their parent; pgp_buf_take() hands the
 *    bytes over (free() them).
 *  - lifetimes: parsed structs, certificates and results are views into the
 *    caller's input or into their parent object (set, verifier): the input
 *    and the parent must outlive them, as each header states.
 *  - time: the reference time is always a parameter (int64_t Unix seconds).
 *  - limits: every input size is bounded by a named limit (limits.h);
 *    exceeding one is PGP_ERR_LIMIT, never unbounded work or memory.
 */
#ifndef PGP_PGP_H
#define PGP_PGP_H

#include "err.h"
#include "limits.h"
#include "rd.h"
#include "buf.h"
#include "date.h"
#include "packet.h"
#include "hash.h"
#include "crc32.h"
#include "pk.h"
#include "classify.h"
#include "armor.h"
#include "armor_enc.h"
#include "decompress.h"
#include "policy.h"
#include "cert.h"
#include "eval.h"
#include "sigmemo.h"
#include "certify.h"
#include "selfsig.h"
#include "uidvalid.h"
#include "verify.h"
#include "write.h"
#include "utf8.h"
#include "hex.h"
#include "gitsig.h"

#endif
