/* peg2d.h — PEG's 2D contact geometry (Williams, Lu & Trinkle 2016, Secs. 4 and 5.1), shared by the peg
 * and lnc formulations and by the stepper's standard-model trap count. Potential contacts are vertex-edge
 * pairs of polygon parts whose vertex lies within delta = max(factor h, min) of the edge SEGMENT at the
 * current or at the predicted configuration q + h nu (the feasibility test of Sec. 4.2 as the authors'
 * code applies it; ../shared/notes/peg-experiments.md), or — our addition, on by default — that crosses
 * the edge between the two configurations (linear interpolation). Each contact follows world.h: a = the
 * vertex's body (fa = FEATURE_VERTEX, ida), b = the edge's body (fb = FEATURE_EDGE, idb; edge i runs from
 * vertex i to i + 1), n = the edge's outward normal, gap = signed distance of the vertex to the edge's LINE,
 * pa = the vertex, pb = its projection on that line — all at the current configuration. */
#ifndef CB_PEG2D_H
#define CB_PEG2D_H

#include "contact_set.h"

struct peg2d_params {
  double distance_factor; /* delta = max(distance_factor h, distance_min); default 0.5 */
  double distance_min;    /* default 0.0008 m */
  int predict;            /* also test the configuration q + h nu (default 1) */
  int swept;              /* also accept a vertex crossing the edge between the two (default 1; not in the
                           * authors' code, whose band test misses vertices faster than 2 delta / h) */
};

void peg2d_params_default(struct peg2d_params *p);
double peg2d_delta(const struct peg2d_params *p, double h);

/* Appends every potential vertex-edge contact between polygon parts of bodies that may collide (not both
 * static, not in one nonzero group), contacts of one part pair grouped by vertex and sorted by edge.
 * Other shape kinds are skipped. 0 on success, 1 on allocation failure. */
int peg2d_detect(const struct world *w, const struct peg2d_params *p, double h, struct contact_set *out);

/* Relaxed applicability of a vertex-edge contact (eq. 29): min over the vertex's two neighbours v_k of
 * n_b . (v_k - v_a) / |v_k - v_a|, with n_b the edge's outward normal; the contact is applicable when this
 * exceeds epsilon_theta = sin(theta). Needs fa = VERTEX, fb = EDGE on polygon parts; otherwise -2. */
double peg2d_applicability(const struct world *w, const struct contact *c);

/* Contacts keyed for grouping: sorted by (sa, sb, ida, idb), so the contacts of one vertex against one
 * part are adjacent and ordered by edge. */
struct peg2d_key {
  int sa, sb, ida, idb, index;
};
/* qsort comparator of struct peg2d_key. */
int peg2d_key_compare(const void *a, const void *b);
/* keys: cs->n entries, filled and sorted. */
void peg2d_sort_keys(const struct contact_set *cs, struct peg2d_key *keys);
/* Index of the contact (vertex ida of part sa, edge idb of part sb) in sorted keys, or -1. */
int peg2d_find(const struct peg2d_key *keys, int n, int sa, int sb, int ida, int idb);

/* Standard-model traps among PEG potential contacts: the number of (vertex, corner) sets, a vertex of one
 * polygon with potential contacts on BOTH edges meeting at a corner of another polygon — two half-spaces
 * the standard model would enforce together (the paper's SM trap, Sec. 1.2.3, Fig. 2). */
int peg2d_count_corner_sets(const struct world *w, const struct contact_set *cs);
/* The same count on the world's current state with the default parameters (delta from h); scratch is
 * cleared and refilled (kept by the caller to avoid allocations). Returns the count, -1 on failure. */
int peg2d_count_traps(const struct world *w, double h, struct contact_set *scratch);

#endif
