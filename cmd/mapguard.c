/* mapguard.c - no SIGBUS death when a mapped file shrinks. see mapguard.h */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mapguard.h"
#include "pgp/pgp.h"

typedef struct guard_slot {
	atomic_uintptr_t base;  /* 0: free; published last (release) */
	size_t len;             /* rounded up to whole pages */
	size_t msglen;
	char *msg;              /* the whole message, composed by mapguard_add */
} guard_slot;

static guard_slot slots[MAPGUARD_MAX_MAPS];
static atomic_uintptr_t tmps[MAPGUARD_MAX_TMPS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct sigaction previous;
static int installed;
static const char *guard_prog = "wotkit";
static volatile sig_atomic_t guard_code = 2;
static char *catch_all_msg;       /* mapguard_catch_all's message */
static size_t catch_all_len;
static const char reason[] = "changed while being read (truncated?); stopped with no result\n";

static void
write_all(const char *p, size_t n)
{
	while (n > 0) {
		ssize_t w = write(2, p, n);
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* SIGBUS: see mapguard.h. Only async-signal-safe calls from here on. */
static void
on_sigbus(int sig, siginfo_t *si, void *uc)
{
	uintptr_t a = (uintptr_t)si->si_addr;
	size_t i;
	(void)sig;
	(void)uc;
	for (i = 0; i < MAPGUARD_MAX_MAPS; i++) {
		uintptr_t b = atomic_load_explicit(&slots[i].base, memory_order_acquire);
		if (b == 0 || a < b || a - b >= slots[i].len)
			continue;
		write_all(slots[i].msg, slots[i].msglen);
		for (i = 0; i < MAPGUARD_MAX_TMPS; i++) {
			uintptr_t t = atomic_load_explicit(&tmps[i], memory_order_acquire);
			if (t != 0)
				(void)unlink((const char *)t);
		}
		_exit(guard_code);
	}
	/* a mapped file past its end (BUS_ADRERR) that a library mapped */
	if (catch_all_msg != NULL && si->si_code == BUS_ADRERR) {
		write_all(catch_all_msg, catch_all_len);
		for (i = 0; i < MAPGUARD_MAX_TMPS; i++) {
			uintptr_t t = atomic_load_explicit(&tmps[i], memory_order_acquire);
			if (t != 0)
				(void)unlink((const char *)t);
		}
		_exit(guard_code);
	}
	/* not a guarded mapping: fault again under the previous disposition */
	(void)sigaction(SIGBUS, &previous, NULL);
}

/* see mapguard.h */
void
mapguard_setup(const char *prog, int exit_code)
{
	pthread_mutex_lock(&lock);
	guard_prog = prog;
	guard_code = exit_code;
	pthread_mutex_unlock(&lock);
}

/* Append name to msg (msg[*len..cap)) escaped as out_esc_text() does
 * (cmd/out.c): octets of invalid UTF-8 and of control code points (C0, DEL,
 * C1, bidi controls) as \xHH, the rest as is; cut at MAPGUARD_MAX_NAME. */
static void
append_name(char *msg, size_t *len, size_t cap, const char *name)
{
	const uint8_t *p = (const uint8_t *)name;
	size_t n = strlen(name), i = 0, k, l;
	uint32_t cp;
	if (n > MAPGUARD_MAX_NAME)
		n = MAPGUARD_MAX_NAME;
	while (i < n && *len + 16 < cap) {
		l = pgp_utf8_decode(p + i, n - i, &cp);
		if (l == 0 || cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) ||
		    (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
			for (k = 0; k < (l ? l : 1); k++)
				*len += (size_t)snprintf(msg + *len, cap - *len, "\\x%02X", (unsigned)p[i + k]);
			i += l ? l : 1;
		} else {
			memcpy(msg + *len, p + i, l);
			*len += l;
			i += l;
		}
	}
	if (i < strlen(name)) {
		memcpy(msg + *len, "...", 3);
		*len += 3;
	}
}

static int
install(void)
{
	struct sigaction sa;
	if (installed)
		return 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGBUS, &sa, &previous) != 0)
		return -1;
	installed = 1;
	return 0;
}

/* see mapguard.h */
int
mapguard_add(const void *base, size_t len, const char *name)
{
	long pg = sysconf(_SC_PAGESIZE);
	size_t page = pg > 0 ? (size_t)pg : 4096, i, cap, mlen;
	char *msg;
	int rc = -1;
	if (base == NULL || len == 0)
		return -1;
	pthread_mutex_lock(&lock);
	cap = strlen(guard_prog) + 4 * MAPGUARD_MAX_NAME + sizeof reason + 32;
	if (install() != 0 || (msg = malloc(cap)) == NULL) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	mlen = (size_t)snprintf(msg, cap, "%s: ", guard_prog);
	append_name(msg, &mlen, cap, name);
	memcpy(msg + mlen, ": ", 2);
	memcpy(msg + mlen + 2, reason, sizeof reason - 1);
	mlen += 2 + sizeof reason - 1;
	for (i = 0; i < MAPGUARD_MAX_MAPS; i++) {
		guard_slot *s = &slots[i];
		if (atomic_load_explicit(&s->base, memory_order_relaxed) != 0)
			continue;
		free(s->msg);
		s->len = len > SIZE_MAX - page ? len : (len + page - 1) / page * page;
		s->msg = msg;
		s->msglen = mlen;
		atomic_store_explicit(&s->base, (uintptr_t)base, memory_order_release);
		rc = 0;
		break;
	}
	if (rc != 0)
		free(msg);
	pthread_mutex_unlock(&lock);
	return rc;
}

/* see mapguard.h */
void
mapguard_remove(const void *base)
{
	size_t i;
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAPGUARD_MAX_MAPS; i++)
		if (atomic_load_explicit(&slots[i].base, memory_order_relaxed) == (uintptr_t)base) {
			/* the message is freed when the slot is reused: a handler
			 * that has just read base may still print it */
			atomic_store_explicit(&slots[i].base, 0, memory_order_release);
			break;
		}
	pthread_mutex_unlock(&lock);
}

/* see mapguard.h */
int
mapguard_catch_all(const char *what)
{
	size_t cap, len;
	char *msg;
	int rc = -1;
	pthread_mutex_lock(&lock);
	cap = strlen(guard_prog) + 4 * MAPGUARD_MAX_NAME + sizeof reason + 32;
	if (catch_all_msg == NULL && install() == 0 && (msg = malloc(cap)) != NULL) {
		len = (size_t)snprintf(msg, cap, "%s: ", guard_prog);
		append_name(msg, &len, cap, what);
		memcpy(msg + len, ": ", 2);
		memcpy(msg + len + 2, reason, sizeof reason - 1);
		catch_all_len = len + 2 + sizeof reason - 1;
		catch_all_msg = msg;
		rc = 0;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* see mapguard.h */
int
mapguard_tmp_add(const char *path)
{
	size_t i;
	int rc = -1;
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAPGUARD_MAX_TMPS; i++)
		if (atomic_load_explicit(&tmps[i], memory_order_relaxed) == 0) {
			atomic_store_explicit(&tmps[i], (uintptr_t)path, memory_order_release);
			rc = 0;
			break;
		}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* see mapguard.h */
void
mapguard_tmp_remove(const char *path)
{
	size_t i;
	pthread_mutex_lock(&lock);
	for (i = 0; i < MAPGUARD_MAX_TMPS; i++)
		if (atomic_load_explicit(&tmps[i], memory_order_relaxed) == (uintptr_t)path) {
			atomic_store_explicit(&tmps[i], 0, memory_order_release);
			break;
		}
	pthread_mutex_unlock(&lock);
}
