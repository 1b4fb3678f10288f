/*
 * classify.h - what kind of OpenPGP input a buffer holds: the one
 * binary-or-armored decision of wotkit (RFC 9580 §4.2, §6.2, §7).
 *
 * The rules:
 *  - binary: the first octet has bit 7 set (a packet's CTB, §4.2.1); such
 *    input is never scanned for text;
 *  - otherwise, after optional whitespace (space, tab, CR, LF), the input
 *    starts with "-----BEGIN PGP SIGNED MESSAGE-----" (cleartext, §7) or
 *    with another "-----BEGIN PGP " armor header line (armored, §6.2);
 *  - anything else is unknown. For unknown text, `later` is the offset of
 *    the first line that starts with "-----BEGIN PGP " further on (or len):
 *    front ends that accept text before the armor (keyring files, dump)
 *    use it; verification of a message does not.
 * Only the header is looked at: whether the armor decodes is the armor
 * parser's business.
 */
#ifndef PGP_CLASSIFY_H
#define PGP_CLASSIFY_H

#include <stddef.h>
#include <stdint.h>

typedef enum pgp_input_kind {
	PGP_INPUT_EMPTY = 0,     /* no octets, or whitespace only */
	PGP_INPUT_BINARY = 1,    /* starts with a CTB */
	PGP_INPUT_ARMORED = 2,   /* starts with an armor header line */
	PGP_INPUT_CLEARTEXT = 3, /* starts with the cleartext header line */
	PGP_INPUT_UNKNOWN = 4
} pgp_input_kind;

/* The label of an armor header line (§6.2). */
typedef enum pgp_armor_kind {
	PGP_ARMOR_NONE = 0,      /* not armored */
	PGP_ARMOR_MESSAGE,       /* "PGP MESSAGE" */
	PGP_ARMOR_PUBLIC_KEY,    /* "PGP PUBLIC KEY BLOCK" */
	PGP_ARMOR_PRIVATE_KEY,   /* "PGP PRIVATE KEY BLOCK" */
	PGP_ARMOR_SIGNATURE,     /* "PGP SIGNATURE" */
	PGP_ARMOR_OTHER          /* any other "PGP ..." label (multi-part, ...) */
} pgp_armor_kind;

typedef struct pgp_input_class {
	pgp_input_kind kind;
	pgp_armor_kind armor;    /* for PGP_INPUT_ARMORED */
	size_t begin;            /* ARMORED, CLEARTEXT: offset of the header line */
	size_t later;            /* UNKNOWN: offset of a later "-----BEGIN PGP " line, or len */
} pgp_input_class;

/* Classifies p[0..len) (p may be NULL when len is 0). Fills *out (optional)
 * and returns out->kind. Never fails; reads only up to the first line that
 * decides. */
pgp_input_kind pgp_classify(const uint8_t *p, size_t len, pgp_input_class *out);

/* 1 for input to decode as armor before use: ARMORED, CLEARTEXT, or
 * UNKNOWN with a later armor header line (the rule of keyring files). */
int pgp_classify_has_armor(const pgp_input_class *c, size_t len);

#endif
