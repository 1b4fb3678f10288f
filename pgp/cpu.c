/*
 * cpu.c - run-time CPU feature detection for the hash and CRC-32 code. see hash_int.h
 *
 * x86: CPUID leaf 1 (ECX: PCLMULQDQ bit 1, SSSE3 bit 9, SSE4.1 bit 19,
 * OSXSAVE bit 27, AVX bit 28) and leaf 7 subleaf 0 (EBX: AVX2 bit 5, BMI2 bit 8, SHA
 * bit 29), Intel SDM vol. 2A "CPUID"; AVX2 also needs the OS to save
 * the YMM state (XGETBV(0) bits 1 and 2).
 * arm64 (Linux): the SHA1, SHA2 and SHA512 bits of getauxval(AT_HWCAP).
 *
 * The answer is cached in one atomic int. Two threads racing on the
 * first call both compute the same value and store it; nothing else
 * is global.
 */
#include <stdatomic.h>
#include "hash_int.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

static unsigned
xgetbv0(void)
{
	unsigned lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	(void)hi;
	return lo;
}

static unsigned
detect(void)
{
	unsigned a, b, c, d, c1, f = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	c1 = c;
	if ((c1 & (1u << 1)) && (c1 & (1u << 19)))
		f |= PGP__CPU_PCLMUL;
	if (__get_cpuid_max(0, NULL) < 7)
		return f;
	__cpuid_count(7, 0, a, b, c, d);
	if ((b & (1u << 29)) && (c1 & (1u << 9)) && (c1 & (1u << 19)))
		f |= PGP__CPU_SHANI;
	if ((b & (1u << 5)) && (b & (1u << 8)) && (c1 & (1u << 27)) &&
	    (c1 & (1u << 28)) && (xgetbv0() & 6u) == 6u)
		f |= PGP__CPU_AVX2;
	return f;
}
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>

/* Linux arm64 hwcaps (Documentation/arch/arm64/elf_hwcaps.rst):
 * HWCAP_SHA1 bit 5, HWCAP_SHA2 bit 6, HWCAP_SHA512 bit 21. */
static unsigned
detect(void)
{
	unsigned long hw = getauxval(AT_HWCAP);
	unsigned f = 0;
	if ((hw & (1ul << 5)) && (hw & (1ul << 6)))
		f |= PGP__CPU_ARM_SHA2;
	if (hw & (1ul << 21))
		f |= PGP__CPU_ARM_SHA512;
	return f;
}
#else
static unsigned
detect(void)
{
	return 0;
}
#endif

/* see hash_int.h */
unsigned
pgp__cpu_features(void)
{
	static atomic_uint cache; /* 0: not yet computed */
	unsigned f = atomic_load_explicit(&cache, memory_order_relaxed);
	if (f == 0) {
		f = detect() | PGP__CPU_DETECTED;
		atomic_store_explicit(&cache, f, memory_order_relaxed);
	}
	return f;
}
