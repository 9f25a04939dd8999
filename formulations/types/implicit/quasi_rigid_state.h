/* quasi_rigid_state.h — private to quasi_rigid.c / quasi_rigid_state.c: the 2D quasi-rigid step's answers per
 * pair of shapes (Chakraborty, Berard, Akella & Trinkle, Sec. 5.1), the warm start of the next step and the
 * state the formulation carries between steps (formulation.h carry_get / carry_set). */
#ifndef CB_QUASI_RIGID_STATE_H
#define CB_QUASI_RIGID_STATE_H

#include "shape.h"

#include <stddef.h>

#define QR_FREE 6 /* aC (2), aR (2), delta_bar, delta; + p_t with friction */
#define QR_COMP 4 /* l1, l2, p_ns, p_nr; + sigma with friction */
#define QR_BLK                                                                                               \
  (QR_FREE + QR_COMP + 2) /* a pair's answers as carried: the frictionless ones, then p_t, sigma */

/* A pair's answers: blk in the frictionless layout plus p_t, sigma, with R's first multiplier in the l2 slot;
 * a polygon's other m2 - 1 multipliers in l2x. */
struct qr_prev {
  int sc, sr, m2;
  double blk[QR_BLK];
  double l2x[CONVEX_PART_MAX - 1];
};

/* The carried layout of np pairs (fr: the run has friction) into buf when it fits in cap; returns the length
 * needed. */
int qr_state_export(const struct qr_prev *p, int np, int fr, double *buf, int cap);
/* Reads a carried state of n values into *p (grown to fit, *cap its room), *np pairs; 0, or 1 with msg (*np
 * then 0). */
int qr_state_import(struct qr_prev **p, int *cap, int *np, const double *buf, int n, char *msg, size_t len);

#endif
