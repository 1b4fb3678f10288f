/*
 * eval_int.h - test hooks of certificate evaluation (eval.c). Internal to
 * pgp/ (the public API is eval.h).
 */
#ifndef PGP_EVAL_INT_H
#define PGP_EVAL_INT_H

#include <stddef.h>
#include <stdint.h>
#include "cert.h"
#include "policy.h"
#include "eval.h"

/* Tests: pgp_cert_eval with max_trials instead of
 * PGP_MAX_REVOCATION_TRIALS, and at most alloc_budget allocations
 * (SIZE_MAX: unlimited) to exercise the out-of-memory paths. */
pgp_err pgp__cert_eval_capped(pgp_certeval *out, const pgp_cert *c, const pgp_certsrc *src,
    int64_t t, const pgp_policy *pol, size_t max_trials, size_t alloc_budget);

#endif
