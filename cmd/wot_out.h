/* wot_out.h - paths as pgpkeys.git's graph text, JSON, DOT and SVG. */
#ifndef WOTKIT_WOT_OUT_H
#define WOTKIT_WOT_OUT_H

#include <stdio.h>
#include "wotcli.h"

/* Ownertrust as the graph colours it (wotmate: u purple, f red, m blue,
 * anything else gray). */
enum { WOT_OUT_NONE = 0, WOT_OUT_MARGINAL = 4, WOT_OUT_FULL = 5, WOT_OUT_ULTIMATE = 6 };

/* pgpkeys.git's graphs/<KEYID>.txt: exactly wotmate's text. */
void wot_out_text(FILE *f, const wot_graph *g, const wot_path *p, size_t n);
/* {"fpr":..,"keyid":..,"uid":..} of one key (its primary user ID at t). */
void wot_out_json_key(FILE *f, const wot_node *nd);
void wot_out_json(FILE *f, const wot_graph *g, uint32_t from, uint32_t to, const wot_path *p,
    size_t n);
/* Graphviz DOT with wotmate's record nodes; ownertrust (one WOT_OUT_* per
 * node, or NULL) picks the colours. */
void wot_out_dot(FILE *f, const wot_graph *g, const wot_path *p, size_t n,
    const uint8_t *ownertrust);
/* Render DOT text to an SVG file (NULL: stdout) with Graphviz's `dot`: 0, 127 when `dot`
 * is not installed, -1 when it failed. */
int wot_out_svg(const char *dot, size_t len, const char *outpath);
/* 1 when `dot` is found on $PATH. */
int wot_have_dot(void);

#endif
