/*
 * crc32_int.h - the CRC-32 implementations behind pgp_crc32 (crc32.h),
 * internal to pgp/, its tests and bench/.
 *
 * Every function here has pgp_crc32's contract: crc is the value a previous
 * call returned (0 to start) and the result is the CRC-32 of everything so
 * far (the 0xFFFFFFFF pre- and post-inversion happens inside each call).
 *
 *  - pgp__crc32_portable: slice-by-16 tables (crc32.c), any CPU.
 *  - pgp__crc32_clmul: x86-64 PCLMULQDQ folding (crc32_x86.c) after Gopal
 *    et al., "Fast CRC Computation for Generic Polynomials Using PCLMULQDQ
 *    Instruction", Intel white paper 323102, 2009. Call it only when
 *    pgp__cpu_features() has PGP__CPU_PCLMUL; it hands inputs shorter than
 *    PGP__CRC32_CLMUL_MIN and the last n % 16 octets to the portable code.
 *
 * pgp_crc32 takes the folding path for n >= PGP__CRC32_CLMUL_MIN when the
 * CPU allows, else the portable one.
 */
#ifndef PGP_CRC32_INT_H
#define PGP_CRC32_INT_H

#include <stddef.h>
#include <stdint.h>
#include "crc32.h"

/* Shortest input folded with PCLMULQDQ: four 128-bit lanes. */
#define PGP__CRC32_CLMUL_MIN 64

uint32_t pgp__crc32_portable(uint32_t crc, const uint8_t *p, size_t n);

/* "pclmul" or "portable": the path pgp_crc32 takes for long inputs. */
const char *pgp__crc32_impl(void);

#if defined(__x86_64__)
/*
 * The folding constants, each a 64-bit PCLMULQDQ operand; [0] multiplies
 * the low quadword of a 128-bit lane, [1] the high one. See crc32_x86.c
 * for what each one is and how it is derived; tests/unit/test_crc.c
 * derives them again independently. Passed as a parameter so that the test
 * can run the kernel with a wrong constant and see the comparison fail.
 */
typedef struct pgp__crc32_consts {
	uint64_t fold512[2];  /* fold a lane over 4 lanes (512 bits) */
	uint64_t fold128[2];  /* fold a lane over the next one (128 bits) */
	uint64_t reduce[2];   /* 128 -> 96 -> 64 bits */
	uint64_t barrett[2];  /* mu = floor(x^64 / P), P */
} pgp__crc32_consts;

extern const pgp__crc32_consts pgp__crc32_k;

uint32_t pgp__crc32_clmul(const pgp__crc32_consts *k, uint32_t crc, const uint8_t *p,
    size_t n);
#endif

#endif
