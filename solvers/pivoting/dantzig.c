/* dantzig.c — the principal pivoting method for boxed LCPs with a friction index (pivoting.h): indices
 * taken one at a time, each driven until its w is 0 or its z at a bound, the clamped set C changing as the
 * ratio test says. Invariants between pivots: w_C = 0; every taken index outside C has z at a bound and w of
 * the sign that bound allows; indices not yet taken keep their starting z (mid(lo, hi, 0)). */
#include "pivoting.h"

#include <math.h>
#include <string.h>

enum pivot_state { PS_UNSEEN, PS_LO, PS_HI, PS_CLAMPED };
/* what stopped a step of the ratio test */
enum pivot_block { BLOCK_DONE, BLOCK_BOUND, BLOCK_LEAVE, BLOCK_ENTER };

/* Bounds, starting z, w = M z + q, states and the order (findex rows last, their bounds set later). */
static void pivot_start(const struct pivot_problem *pp, struct pivot_work *ws, double *z)
{
  int n = pp->n, m = 0, any = 0;
  for (int i = 0; i < n; i++) {
    int friction = pp->findex && pp->findex[i] >= 0;
    ws->lo[i] = friction ? 0.0 : pp->lo[i];
    ws->hi[i] = friction ? 0.0 : pp->hi[i];
    z[i] = friction ? 0.0 : (pp->lo[i] > 0.0 ? pp->lo[i] : (pp->hi[i] < 0.0 ? pp->hi[i] : 0.0));
    any |= z[i] != 0.0;
    ws->state[i] = PS_UNSEEN;
    ws->pos[i] = -1;
    if (!friction) ws->order[m++] = i;
  }
  for (int i = 0; m < n && i < n; i++)
    if (pp->findex[i] >= 0) ws->order[m++] = i;
  for (int i = 0; i < n; i++) {
    double s = pp->q[i];
    if (any) {
      const double *Mi = pp->M + (size_t)i * n;
      for (int j = 0; j < n; j++)
        s += Mi[j] * z[j];
    }
    ws->w[i] = s;
  }
}

/* Driving z_i by sgn: dz_C = -M_CC^-1 M_Ci sgn, and dw = M_:i sgn + M_:C dz_C (read for every index outside
 * C). M is symmetric, so M_:c is row c: whole rows, read in order (k + 1 axpys of length n). */
static void pivot_direction(const struct pivot_problem *pp, struct pivot_work *ws, int k, int i, double sgn)
{
  int n = pp->n;
  for (int c = 0; c < k; c++)
    ws->dz[c] = -pp->M[(size_t)ws->idx[c] * n + i] * sgn;
  pivot_ldl_solve(ws, k, ws->dz);
  double *dw = ws->dw;
  const double *Mi = pp->M + (size_t)i * n;
  for (int j = 0; j < n; j++)
    dw[j] = Mi[j] * sgn;
  for (int c = 0; c < k; c++) {
    const double *Mc = pp->M + (size_t)ws->idx[c] * n;
    double a = ws->dz[c];
    for (int j = 0; j < n; j++)
      dw[j] += a * Mc[j];
  }
}

struct pivot_step {
  double t;
  enum pivot_block block;
  int who;      /* the index that blocks (i itself for DONE and BOUND) */
  int at_upper; /* BOUND / LEAVE: the bound reached is hi */
};

static void pivot_candidate(struct pivot_step *st, double t, enum pivot_block b, int who, int at_upper)
{
  if (t < 0.0) t = 0.0; /* a sign that rounding flipped: the step is degenerate, not backwards */
  if (t < st->t) *st = (struct pivot_step){t, b, who, at_upper};
}

/* The longest step that keeps every invariant; t = inf when nothing blocks (an unbounded ray). */
static struct pivot_step pivot_ratio(const struct pivot_work *ws, int n, int k, int i, double sgn,
                                     const double *z)
{
  struct pivot_step st = {INFINITY, BLOCK_DONE, -1, 0};
  double zmax = 1.0, wmax = 0.0;
  for (int c = 0; c < k; c++)
    zmax = fmax(zmax, fabs(ws->dz[c]));
  for (int j = 0; j < n; j++)
    if (ws->state[j] != PS_CLAMPED) wmax = fmax(wmax, fabs(ws->dw[j]));
  double zeps = 1e-12 * zmax, weps = 1e-12 * wmax; /* below these a component does not move */
  if (sgn * ws->dw[i] > weps) pivot_candidate(&st, -ws->w[i] / ws->dw[i], BLOCK_DONE, i, 0);
  if (sgn > 0.0)
    pivot_candidate(&st, ws->hi[i] - z[i], BLOCK_BOUND, i, 1);
  else
    pivot_candidate(&st, z[i] - ws->lo[i], BLOCK_BOUND, i, 0);
  for (int c = 0; c < k; c++) {
    int j = ws->idx[c];
    double dzc = ws->dz[c];
    if (dzc > zeps) pivot_candidate(&st, (ws->hi[j] - z[j]) / dzc, BLOCK_LEAVE, j, 1);
    if (dzc < -zeps) pivot_candidate(&st, (ws->lo[j] - z[j]) / dzc, BLOCK_LEAVE, j, 0);
  }
  for (int j = 0; j < n; j++) {
    double dwj = ws->dw[j];
    if ((ws->state[j] == PS_LO && dwj < -weps) || (ws->state[j] == PS_HI && dwj > weps))
      pivot_candidate(&st, -ws->w[j] / dwj, BLOCK_ENTER, j, 0);
  }
  return st;
}

/* Moves z and w by the step and applies its block; returns the new k, -1 when the factor is singular. */
static int pivot_apply(const struct pivot_problem *pp, const struct pivot_settings *set, struct pivot_work *ws,
                       int k, int i, double sgn, const struct pivot_step *st, double *z)
{
  int n = pp->n, j = st->who;
  double t = st->t;
  z[i] += t * sgn;
  for (int c = 0; c < k; c++)
    z[ws->idx[c]] += t * ws->dz[c];
  for (int r = 0; r < n; r++)
    if (ws->state[r] != PS_CLAMPED) ws->w[r] += t * ws->dw[r];
  switch (st->block) {
  case BLOCK_DONE:
  case BLOCK_ENTER:
    ws->w[j] = 0.0;
    if (pivot_ldl_append(ws, k, pp->M, n, j, set->pivot_tol)) return -1;
    ws->state[j] = PS_CLAMPED;
    return k + 1;
  case BLOCK_BOUND:
  case BLOCK_LEAVE:
    z[j] = st->at_upper ? ws->hi[j] : ws->lo[j];
    if (ws->state[j] == PS_CLAMPED) {
      ws->w[j] = 0.0;
      pivot_ldl_remove(ws, k, ws->pos[j]);
      k--;
    }
    ws->state[j] = st->at_upper ? PS_HI : PS_LO;
    return k;
  }
  return k;
}

/* z_C from the factor and the final z outside C: removes the drift of the incremental updates. */
static void pivot_refine(const struct pivot_problem *pp, struct pivot_work *ws, int k, double *z)
{
  int n = pp->n;
  for (int c = 0; c < k; c++) {
    int r = ws->idx[c];
    const double *Mr = pp->M + (size_t)r * n;
    double s = -pp->q[r];
    for (int j = 0; j < n; j++)
      if (ws->state[j] != PS_CLAMPED) s -= Mr[j] * z[j];
    ws->dz[c] = s;
  }
  pivot_ldl_solve(ws, k, ws->dz);
  for (int c = 0; c < k; c++)
    z[ws->idx[c]] = ws->dz[c];
}

/* A findex row's box from its normal's z when the row is reached (ODE: hi_i = |mu_i z_k|, lo_i = -hi_i). */
static void pivot_friction_box(const struct pivot_problem *pp, struct pivot_work *ws, int i, const double *z)
{
  if (!pp->findex || pp->findex[i] < 0) return;
  double b = fabs(pp->hi[i] * z[pp->findex[i]]);
  ws->lo[i] = -b;
  ws->hi[i] = b;
}

enum pivot_status pivot_dantzig(const struct pivot_problem *pp, const struct pivot_settings *set,
                                struct pivot_work *ws, double *z, int *pivots)
{
  int n = pp->n, k = 0;
  *pivots = 0;
  pivot_start(pp, ws, z);
  for (int o = 0; o < n; o++) {
    int i = ws->order[o];
    pivot_friction_box(pp, ws, i, z);
    for (;;) {
      double wi = ws->w[i];
      if (ws->state[i] != PS_UNSEEN) break; /* placed by the last step */
      if (z[i] <= ws->lo[i] && wi >= 0.0) {
        ws->state[i] = PS_LO;
        break;
      }
      if (z[i] >= ws->hi[i] && wi <= 0.0) {
        ws->state[i] = PS_HI;
        break;
      }
      if (*pivots >= set->max_pivots) return PIVOT_MAX_PIVOTS;
      if (set->out_of_time && (*pivots & 63) == 63 && set->out_of_time(set->ctx)) return PIVOT_TIME_LIMIT;
      double sgn = wi > 0.0 ? -1.0 : 1.0;
      pivot_direction(pp, ws, k, i, sgn);
      struct pivot_step st = pivot_ratio(ws, n, k, i, sgn, z);
      if (isinf(st.t)) return PIVOT_UNBOUNDED;
      ++*pivots;
      k = pivot_apply(pp, set, ws, k, i, sgn, &st, z);
      if (k < 0) return PIVOT_SINGULAR;
    }
  }
  pivot_refine(pp, ws, k, z);
  return PIVOT_SOLVED;
}
