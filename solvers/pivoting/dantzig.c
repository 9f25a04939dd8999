/* dantzig.c — the principal pivoting method for boxed LCPs with a friction index (pivoting.h): indices
 * taken one at a time, each driven until its w is 0 or its z at a bound, the clamped set C changing as the
 * ratio test says. Invariants between pivots: w_C = 0; every taken index outside C is in N, its z at a bound
 * and its w of the sign that bound allows; indices not yet taken keep their starting z (mid(lo, hi, 0)) and
 * get their w when taken. A pivot reads C and N only (ODE's economy): O(|N| |C| + |C|^2). */
#include "cp.h"
#include "pivoting.h"

#include <math.h>
#include <string.h>

enum pivot_state { PS_UNSEEN, PS_LO, PS_HI, PS_CLAMPED };
/* what stopped a step of the ratio test */
enum pivot_block { BLOCK_DONE, BLOCK_BOUND, BLOCK_LEAVE, BLOCK_ENTER };

/* The working state of one solve: sizes of C and N, the driven index and its direction's sign. */
struct pivot_run {
  const struct pivot_problem *pp;
  struct pivot_work *ws;
  double *z;
  int k;  /* |C| */
  int nn; /* |N| */
  int i;  /* the driven index */
  double sgn;
};

/* Bounds, starting z, w = q + M z, states and the order (findex rows last, their bounds set later). */
static void pivot_start(const struct pivot_problem *pp, struct pivot_work *ws, double *z)
{
  int n = pp->n, m = 0, any = 0;
  for (int i = 0; i < n; i++) {
    int friction = pp->findex && pp->findex[i] >= 0;
    ws->lo[i] = friction ? 0.0 : pp->lo[i];
    ws->hi[i] = friction ? 0.0 : pp->hi[i];
    z[i] = friction ? 0.0 : cp_mid(pp->lo[i], pp->hi[i], 0.0);
    any |= z[i] != 0.0;
    ws->state[i] = PS_UNSEEN;
    ws->pos[i] = ws->npos[i] = -1;
    if (!friction) ws->order[m++] = i;
  }
  for (int i = 0; m < n && i < n; i++)
    if (pp->findex[i] >= 0) ws->order[m++] = i;
  for (int i = 0; i < n; i++)
    ws->w[i] = pp->q[i] + (any ? short_dot(pp->M + (size_t)i * n, z, n) : 0.0);
}

static void pivot_n_add(struct pivot_run *r, int j, enum pivot_state at)
{
  r->ws->state[j] = at;
  r->ws->npos[j] = r->nn;
  r->ws->nidx[r->nn++] = j;
}

static void pivot_n_remove(struct pivot_run *r, int j)
{
  struct pivot_work *ws = r->ws;
  int p = ws->npos[j], last = ws->nidx[--r->nn];
  ws->nidx[p] = last;
  ws->npos[last] = p;
  ws->npos[j] = -1;
}

/* Driving z_i by sgn: dz_C = -M_CC^-1 M_Ci sgn, and dw_j = M_ji sgn + M_jC dz_C for j in N and i. */
static void pivot_direction(struct pivot_run *r)
{
  struct pivot_work *ws = r->ws;
  int n = r->pp->n, i = r->i, k = r->k;
  const double *M = r->pp->M;
  double *restrict dz = ws->dz;
  /* v = L^-1 M_Ci is kept: it is the new factor column if i ends clamped (pivot_ldu_append_solved) */
  pivot_ldu_column(ws, k, M, n, i);
  pivot_ldu_forward(ws, k, ws->v);
  for (int c = 0; c < k; c++)
    dz[c] = -r->sgn * ws->v[c];
  pivot_ldu_backward(ws, k, dz);
  for (int e = -1; e < r->nn; e++) {
    int j = e < 0 ? i : ws->nidx[e];
    ws->dw[j] = M[(size_t)j * n + i] * r->sgn + short_dot(ws->MC + (size_t)j * ws->cap, dz, k);
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

/* The longest step that keeps every invariant; t = inf when nothing blocks (an unbounded ray). Components
 * below 1e-12 of their direction's largest do not move (rounding, not motion). */
static struct pivot_step pivot_ratio(const struct pivot_run *r)
{
  const struct pivot_work *ws = r->ws;
  const double *z = r->z;
  int i = r->i;
  struct pivot_step st = {INFINITY, BLOCK_DONE, -1, 0};
  double zmax = 1.0, wmax = fabs(ws->dw[i]);
  for (int c = 0; c < r->k; c++)
    if (fabs(ws->dz[c]) > zmax) zmax = fabs(ws->dz[c]);
  for (int e = 0; e < r->nn; e++)
    if (fabs(ws->dw[ws->nidx[e]]) > wmax) wmax = fabs(ws->dw[ws->nidx[e]]);
  double zeps = 1e-12 * zmax, weps = 1e-12 * wmax;
  if (r->sgn * ws->dw[i] > weps) pivot_candidate(&st, -ws->w[i] / ws->dw[i], BLOCK_DONE, i, 0);
  if (r->sgn > 0.0)
    pivot_candidate(&st, ws->hi[i] - z[i], BLOCK_BOUND, i, 1);
  else
    pivot_candidate(&st, z[i] - ws->lo[i], BLOCK_BOUND, i, 0);
  for (int c = 0; c < r->k; c++) {
    int j = ws->idx[c];
    double dzc = ws->dz[c];
    if (dzc > zeps) pivot_candidate(&st, (ws->hi[j] - z[j]) / dzc, BLOCK_LEAVE, j, 1);
    if (dzc < -zeps) pivot_candidate(&st, (ws->lo[j] - z[j]) / dzc, BLOCK_LEAVE, j, 0);
  }
  for (int e = 0; e < r->nn; e++) {
    int j = ws->nidx[e];
    double dwj = ws->dw[j];
    if ((ws->state[j] == PS_LO && dwj < -weps) || (ws->state[j] == PS_HI && dwj > weps))
      pivot_candidate(&st, -ws->w[j] / dwj, BLOCK_ENTER, j, 0);
  }
  return st;
}

/* Moves z and w by the step and applies its block. 1 when the factor is singular, else 0. */
static int pivot_apply(struct pivot_run *r, const struct pivot_settings *set, const struct pivot_step *st)
{
  struct pivot_work *ws = r->ws;
  int n = r->pp->n, j = st->who;
  double t = st->t, *z = r->z;
  z[r->i] += t * r->sgn;
  ws->w[r->i] += t * ws->dw[r->i];
  for (int c = 0; c < r->k; c++)
    z[ws->idx[c]] += t * ws->dz[c];
  for (int e = 0; e < r->nn; e++)
    ws->w[ws->nidx[e]] += t * ws->dw[ws->nidx[e]];
  if (st->block == BLOCK_DONE || st->block == BLOCK_ENTER) {
    ws->w[j] = 0.0;
    if (st->block == BLOCK_DONE ? pivot_ldu_append_solved(ws, r->k, r->pp->M, n, j, set->pivot_tol)
                                : pivot_ldu_append(ws, r->k, r->pp->M, n, j, set->pivot_tol))
      return 1;
    if (ws->npos[j] >= 0) pivot_n_remove(r, j);
    ws->state[j] = PS_CLAMPED;
    r->k++;
    return 0;
  }
  z[j] = st->at_upper ? ws->hi[j] : ws->lo[j];
  if (ws->state[j] == PS_CLAMPED) {
    ws->w[j] = 0.0;
    pivot_ldu_remove(ws, r->k, ws->pos[j], n);
    r->k--;
  }
  pivot_n_add(r, j, st->at_upper ? PS_HI : PS_LO);
  return 0;
}

/* z_C = -M_CC^-1 (q_C + M_C,rest z_rest) from the factor: removes the drift of the incremental updates.
 * z_C is zeroed first, so that a whole-row dot product is M_C,rest z_rest. */
static void pivot_refine(const struct pivot_problem *pp, struct pivot_work *ws, int k, double *z)
{
  int n = pp->n;
  for (int c = 0; c < k; c++)
    z[ws->idx[c]] = 0.0;
  for (int c = 0; c < k; c++) {
    int r = ws->idx[c];
    ws->dz[c] = -pp->q[r] - short_dot(pp->M + (size_t)r * n, z, n);
  }
  pivot_ldu_solve(ws, k, ws->dz);
  for (int c = 0; c < k; c++)
    z[ws->idx[c]] = ws->dz[c];
}

/* ODE's first step: the free indices (both bounds infinite) are clamped at once — their block factored, z_F
 * solved for, w updated — instead of one pivot each. A free index whose pivot is singular is left to be
 * driven. z_F starts at 0, so w gains M_:F z_F (by symmetry rows of M, read in order). */
static void pivot_free_block(struct pivot_run *r, const struct pivot_settings *set)
{
  const struct pivot_problem *pp = r->pp;
  struct pivot_work *ws = r->ws;
  int n = pp->n;
  for (int i = 0; i < n; i++) {
    if (!(isinf(ws->lo[i]) && ws->lo[i] < 0.0 && isinf(ws->hi[i]) && ws->hi[i] > 0.0)) continue;
    if (pivot_ldu_append(ws, r->k, pp->M, n, i, set->pivot_tol)) continue;
    ws->state[i] = PS_CLAMPED;
    r->k++;
  }
  if (r->k == 0) return;
  pivot_refine(pp, ws, r->k, r->z);
  size_t stride = pp->nonsymmetric ? (size_t)n : 1;
  for (int c = 0; c < r->k; c++) {
    const double *Mc = pp->M + (pp->nonsymmetric ? (size_t)ws->idx[c] : (size_t)ws->idx[c] * n);
    double a = r->z[ws->idx[c]];
    for (int j = 0; j < n; j++)
      ws->w[j] += a * Mc[(size_t)j * stride];
  }
  for (int c = 0; c < r->k; c++)
    ws->w[ws->idx[c]] = 0.0;
}

/* Takes index i: its box (a findex row's from its normal's z, ODE: hi_i = |mu_i z_k|, lo_i = -hi_i), its w
 * (stale while it waited), then pivots until it is placed. */
static enum pivot_status pivot_take(struct pivot_run *r, const struct pivot_settings *set, int *pivots)
{
  const struct pivot_problem *pp = r->pp;
  struct pivot_work *ws = r->ws;
  int i = r->i;
  if (ws->state[i] != PS_UNSEEN) return PIVOT_SOLVED; /* clamped with the free block */
  if (pp->findex && pp->findex[i] >= 0) {
    double b = fabs(pp->hi[i] * r->z[pp->findex[i]]);
    ws->lo[i] = -b;
    ws->hi[i] = b;
  }
  ws->w[i] = pp->q[i] + short_dot(pp->M + (size_t)i * pp->n, r->z, pp->n);
  while (ws->state[i] == PS_UNSEEN) {
    double wi = ws->w[i];
    if (r->z[i] <= ws->lo[i] && wi >= 0.0) {
      pivot_n_add(r, i, PS_LO);
      break;
    }
    if (r->z[i] >= ws->hi[i] && wi <= 0.0) {
      pivot_n_add(r, i, PS_HI);
      break;
    }
    if (*pivots >= set->max_pivots) return PIVOT_MAX_PIVOTS;
    if (set->out_of_time && (*pivots & 63) == 63 && set->out_of_time(set->ctx)) return PIVOT_TIME_LIMIT;
    r->sgn = wi > 0.0 ? -1.0 : 1.0;
    pivot_direction(r);
    struct pivot_step st = pivot_ratio(r);
    if (isinf(st.t)) return PIVOT_UNBOUNDED;
    ++*pivots;
    if (pivot_apply(r, set, &st)) return PIVOT_SINGULAR;
  }
  return PIVOT_SOLVED;
}

/* The warm start of pivot_dantzig_warm: the last solve's clamped set, in index order, factored at once and
 * z_C solved for with the others at the bound they were at (in the new boxes); every other index whose w has
 * the sign its bound allows is placed in N, the rest wait to be taken. 1 when the start is not valid (no
 * last solve of this size, a singular block, a clamped z outside its new box): the caller starts cold. */
static int pivot_warm_start(struct pivot_run *r, const struct pivot_settings *set, int last_n)
{
  const struct pivot_problem *pp = r->pp;
  struct pivot_work *ws = r->ws;
  int n = pp->n;
  double *z = r->z;
  if (last_n != n || pp->findex) return 1;
  for (int i = 0; i < n; i++) {
    int was = ws->state[i];
    ws->lo[i] = pp->lo[i];
    ws->hi[i] = pp->hi[i];
    ws->pos[i] = ws->npos[i] = -1;
    ws->order[i] = i;
    ws->state[i] = PS_UNSEEN;
    if (was == PS_CLAMPED) {
      if (pivot_ldu_append(ws, r->k, pp->M, n, i, set->pivot_tol)) return 1;
      ws->state[i] = PS_CLAMPED;
      r->k++;
    } else /* a bound, or the starting value of an index never taken: within the new box */
      z[i] = was == PS_HI ? pp->hi[i] : (was == PS_LO ? pp->lo[i] : cp_mid(pp->lo[i], pp->hi[i], z[i]));
  }
  pivot_refine(pp, ws, r->k, z);
  for (int c = 0; c < r->k; c++) {
    int j = ws->idx[c];
    if (!(z[j] >= pp->lo[j] && z[j] <= pp->hi[j])) return 1;
  }
  for (int i = 0; i < n; i++) {
    double wi = ws->state[i] == PS_CLAMPED ? 0.0 : pp->q[i] + short_dot(pp->M + (size_t)i * n, z, n);
    ws->w[i] = wi;
    if (ws->state[i] == PS_CLAMPED) continue;
    if (z[i] <= pp->lo[i] && wi >= 0.0)
      pivot_n_add(r, i, PS_LO);
    else if (z[i] >= pp->hi[i] && wi <= 0.0)
      pivot_n_add(r, i, PS_HI);
  }
  return 0;
}

/* Every index in order: taken, pivoted until placed; then z_C refined. */
static enum pivot_status pivot_take_all(struct pivot_run *r, const struct pivot_settings *set, int *pivots)
{
  for (int o = 0; o < r->pp->n; o++) {
    r->i = r->ws->order[o];
    enum pivot_status st = pivot_take(r, set, pivots);
    if (st != PIVOT_SOLVED) return st;
  }
  pivot_refine(r->pp, r->ws, r->k, r->z);
  return PIVOT_SOLVED;
}

enum pivot_status pivot_dantzig_warm(const struct pivot_problem *pp, const struct pivot_settings *set,
                                     struct pivot_work *ws, int last_n, double *z, int *pivots)
{
  struct pivot_run r = {pp, ws, z, 0, 0, -1, 1.0};
  *pivots = 0;
  pivot_ldu_mode(ws, pp->nonsymmetric);
  if (pivot_warm_start(&r, set, last_n)) return pivot_dantzig(pp, set, ws, z, pivots);
  return pivot_take_all(&r, set, pivots);
}

enum pivot_status pivot_dantzig(const struct pivot_problem *pp, const struct pivot_settings *set,
                                struct pivot_work *ws, double *z, int *pivots)
{
  struct pivot_run r = {pp, ws, z, 0, 0, -1, 1.0};
  *pivots = 0;
  pivot_ldu_mode(ws, pp->nonsymmetric);
  pivot_start(pp, ws, z);
  pivot_free_block(&r, set);
  return pivot_take_all(&r, set, pivots);
}
