/* lemke_lazy.c — lazy columns of the blocked Lemke tableau (lemke.h, lemke_tableau.c). The column of a
 * nonbasic w_i whose complement z_i is basic is a column of B^-1 B_0 (of B^-1 in a cold start): Lemke needs
 * it again only if w_i re-enters (z_i left) or a lexicographic tie reads it (Cottle-Pang-Stone Sec. 4.9).
 * On a cold run such columns are a quarter of the tableau on average (half of them at the end of a run
 * that brings half the z's in), and each flush's dgemm is the solve's largest cost, so the flushes leave
 * them out ("dormant"), and a dormant column is brought up to date when needed by replaying, block by
 * block, the updates it missed: the same operations the flush would have done (subtract U_b v^T, scale
 * the pivot rows), not a fresh solve, so that it stays consistent with the updated columns to the
 * rounding of the updates (a column recomputed from a fresh factorization and mixed in broke that: the
 * drift jumped after each and the 210-disc pile's LCP ended on a wrong basis).
 *
 * The entries v_j = T(r_j, m) / piv_j that the pivots of a block would have put into V for column m follow
 * from the column at the block's start (T0) by the recurrence of the pivots themselves:
 *   v_j = s_j (T0(r_j, m) - sum_{l<j} U(r_j, l) v_l) / piv_j
 * (r_j, piv_j the pivot row and pivot, s_j the row's scale before the pivot; dormant columns have no
 * column scale and no correction: they never enter while dormant). Then the block's flush is
 * T0(:, m) <- diag(s) (T0(:, m) - U v^T). The history keeps hist_cap blocks; when it is full, its oldest
 * block is replayed on the columns that missed it and dropped. When a tie needs the columns, or dormancy
 * does not pay (contact LCPs whose w's re-enter often), every dormant column is brought up to date and the
 * run goes on without. */
#include "lemke.h"

#include <cblas.h>
#include <stdlib.h>
#include <string.h>

/* Block h (counted from the run's start) is kept in slot h mod hist_cap. */
static size_t lemke_slot(const struct lemke_tableau *t, int h) { return (size_t)(h % t->hist_cap); }

int lemke_lazy_slot(const struct lemke_tableau *t) { return (int)lemke_slot(t, t->hist_n); }

/* A replay on fewer than 8 columns reads its block's U from memory for a few flops a column (a
 * matrix-vector product at memory speed): counted as this many times its flops. */
static const double lemke_narrow_cost = 8.0;

/* Dormancy pays when few of the columns left out come back: a column woken after b blocks costs about
 * what b blocks of leaving it out saved, times lemke_narrow_cost. After 64 retirements (before, a single
 * early wake decides), more than one wake per lemke_wake_ratio retirements, or replays that cost more than
 * the flushes saved, end it for the run. Measured: SPD n = 1000, 0 to 2 wakes per ~500 retirements
 * (13-15 % less solve time); the 210-disc pile's LCP0 (Anitescu-Hart Table 1, mu = 0.1) 100 wakes in 780
 * retirements, where dormancy left on made the solve ~5 % slower (replays of 1.8e10 flops against 3.0e10
 * saved, but narrow ones run at memory speed). Retiring a column only after it stayed eligible for 1, 2
 * or 4 flushes left the wakes there at 13-14 % of the retirements. */
static const double lemke_wake_ratio = 8.0;

static double *lemke_slot_U(const struct lemke_tableau *t, int h)
{
  return t->hist_U + lemke_slot(t, h) * (size_t)t->cap_n * (size_t)t->cap_b;
}

int lemke_lazy_create(struct lemke_tableau *t, int lazy)
{
  /* the history at most the tableau's memory: hist_cap blocks of n x bmax against n x (n + 1) */
  int h = t->cap_n / t->cap_b;
  t->hist_cap = !lazy ? 1 : (h < 2 ? 2 : (h > 64 ? 64 : h));
  size_t hc = (size_t)t->hist_cap, nb = (size_t)t->cap_b, nc = (size_t)t->cap_n + 1;
  t->hist_U = malloc(hc * (size_t)t->cap_n * nb * sizeof *t->hist_U);
  t->piv_val = malloc(hc * nb * sizeof *t->piv_val);
  t->piv_s = malloc(hc * nb * sizeof *t->piv_s);
  t->fl_sr = malloc(hc * nb * sizeof *t->fl_sr);
  t->lazy_v = malloc(nb * nc * sizeof *t->lazy_v);
  t->hist_k = malloc(hc * sizeof *t->hist_k);
  t->piv_r = malloc(hc * nb * sizeof *t->piv_r);
  t->fl_nr = malloc(hc * sizeof *t->fl_nr);
  t->fl_rows = malloc(hc * nb * sizeof *t->fl_rows);
  t->start = malloc(nc * sizeof *t->start);
  t->U = t->hist_U;
  return !t->hist_U || !t->piv_val || !t->piv_s || !t->fl_sr || !t->lazy_v || !t->hist_k || !t->piv_r ||
         !t->fl_nr || !t->fl_rows || !t->start;
}

void lemke_lazy_destroy(struct lemke_tableau *t)
{
  free(t->hist_U);
  free(t->piv_val);
  free(t->piv_s);
  free(t->fl_sr);
  free(t->lazy_v);
  free(t->hist_k);
  free(t->piv_r);
  free(t->fl_nr);
  free(t->fl_rows);
  free(t->start);
  t->U = NULL;
}

void lemke_lazy_reset(struct lemke_tableau *t)
{
  t->na = t->ncols;
  t->hist_n = 0;
  t->hist_lo = 0;
  t->U = lemke_slot_U(t, 0);
  t->saved = 0.0;
  t->spent = 0.0;
  t->retired = 0;
  t->woken = 0;
}

/* Swap the columns in positions a and b (T0 and the labels; both without column scale or correction:
 * dormant, or just flushed; the held-back V rows are the caller's). */
static void lemke_swap_columns(struct lemke_tableau *t, int a, int b)
{
  if (a == b) return;
  size_t n = (size_t)t->n;
  cblas_dswap(t->n, t->T0 + (size_t)a * n, 1, t->T0 + (size_t)b * n, 1);
  int va = t->nonbasic[a], vb = t->nonbasic[b], sa = t->start[a];
  t->nonbasic[a] = vb;
  t->nonbasic[b] = va;
  t->where[va] = -1 - b;
  t->where[vb] = -1 - a;
  t->start[a] = t->start[b];
  t->start[b] = sa;
}

/* The v's of block h (kh pivots, factor Uh) for the w columns from position p0, T0 holding them as at the
 * block's start: out[d + j ldo] = v_j of column p0 + d. */
static void lemke_lazy_recur(const struct lemke_tableau *t, const double *Uh, int h, int kh, int p0, int w,
                             double *out, int ldo)
{
  size_t n = (size_t)t->n, base = lemke_slot(t, h) * (size_t)t->cap_b;
  for (int j = 0; j < kh; j++) {
    int r = t->piv_r[base + (size_t)j];
    double *vj = out + (size_t)j * (size_t)ldo;
    for (int d = 0; d < w; d++)
      vj[d] = t->T0[(size_t)r + (size_t)(p0 + d) * n];
    for (int l = 0; l < j; l++) {
      double u = Uh[(size_t)r + (size_t)l * n];
      const double *vl = out + (size_t)l * (size_t)ldo;
      if (u != 0.0)
        for (int d = 0; d < w; d++)
          vj[d] -= u * vl[d];
    }
    double f = t->piv_s[base + (size_t)j], piv = t->piv_val[base + (size_t)j];
    for (int d = 0; d < w; d++)
      vj[d] = vj[d] * f / piv;
  }
}

/* Replay flushed block h on the dormant columns [p0, p0 + w). */
static void lemke_lazy_replay(struct lemke_tableau *t, int h, int p0, int w)
{
  size_t n = (size_t)t->n, base = lemke_slot(t, h) * (size_t)t->cap_b;
  int kh = t->hist_k[lemke_slot(t, h)], nr = t->fl_nr[lemke_slot(t, h)];
  const double *Uh = lemke_slot_U(t, h);
  lemke_lazy_recur(t, Uh, h, kh, p0, w, t->lazy_v, w);
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, t->n, w, kh, -1.0, Uh, t->n, t->lazy_v, w, 1.0,
              t->T0 + (size_t)p0 * n, t->n);
  for (int d = 0; d < w; d++) {
    double *col = t->T0 + (size_t)(p0 + d) * n;
    for (int a = 0; a < nr; a++)
      col[t->fl_rows[base + (size_t)a]] *= t->fl_sr[base + (size_t)a];
  }
  t->spent += 2.0 * (double)n * kh * w * (w < 8 ? lemke_narrow_cost : 1.0);
}

/* Dormant columns [p0, p0 + w), all dormant since block `from` or earlier: made current. */
static void lemke_lazy_catch_up(struct lemke_tableau *t, int from, int p0, int w)
{
  for (int h = from; h < t->hist_n; h++)
    lemke_lazy_replay(t, h, p0, w);
  if (t->k > 0) /* the block in progress: their entries of V, as its pivots would have set them */
    lemke_lazy_recur(t, t->U, t->hist_n, t->k, p0, w, t->V + p0, t->ncols);
}

int lemke_tableau_wake(struct lemke_tableau *t, int m)
{
  if (m < t->na) return m;
  lemke_lazy_catch_up(t, t->start[m], m, 1);
  if (t->k > 0 && m != t->na) /* its v's to its new place; those of a dormant column are never read */
    cblas_dcopy(t->k, t->V + m, t->ncols, t->V + t->na, t->ncols);
  lemke_swap_columns(t, m, t->na);
  t->woken++;
  return t->na++;
}

/* Block h replayed on every dormant column that missed it: columns of one start are contiguous unless
 * single wakes swapped them, so on the maximal runs of such columns. */
static void lemke_lazy_replay_all(struct lemke_tableau *t, int h)
{
  for (int p = t->na; p < t->ncols;) {
    if (t->start[p] > h) {
      p++;
      continue;
    }
    int q = p;
    while (q < t->ncols && t->start[q] <= h)
      q++;
    lemke_lazy_replay(t, h, p, q - p);
    for (int a = p; a < q; a++)
      t->start[a] = h + 1;
    p = q;
  }
}

/* Every dormant column made current and active. */
static void lemke_lazy_wake_all(struct lemke_tableau *t)
{
  for (int h = t->hist_lo; h < t->hist_n; h++)
    lemke_lazy_replay_all(t, h);
  if (t->k > 0 && t->na < t->ncols)
    lemke_lazy_recur(t, t->U, t->hist_n, t->k, t->na, t->ncols - t->na, t->V + t->na, t->ncols);
  t->na = t->ncols;
}

void lemke_tableau_lazy_off(struct lemke_tableau *t)
{
  lemke_lazy_wake_all(t);
  t->lazy = 0;
}

void lemke_lazy_after_flush(struct lemke_tableau *t, int k)
{
  int dormant = t->ncols - t->na;
  t->hist_k[lemke_slot(t, t->hist_n)] = k;
  t->saved += 2.0 * t->n * k * dormant;
  if (dormant > 0)
    t->hist_n++;
  else /* a block no column missed need not be kept */
    t->hist_lo = t->hist_n = 0;
  if (t->lazy && t->retired >= 64 && (t->spent > t->saved || lemke_wake_ratio * t->woken > t->retired))
    t->lazy = 0;
  if (dormant > 0 && !t->lazy) {
    lemke_lazy_wake_all(t);
    t->hist_lo = t->hist_n = 0;
  } else if (t->hist_n - t->hist_lo == t->hist_cap) /* full: the oldest block replayed where missed */
    lemke_lazy_replay_all(t, t->hist_lo++);
  for (int m = 0; t->lazy && m < t->na;) {
    int v = t->nonbasic[m];
    if (v < t->n && t->where[v + t->n] >= 0) { /* w_i nonbasic, z_i basic */
      t->na--;
      lemke_swap_columns(t, m, t->na);
      t->start[t->na] = t->hist_n;
      t->retired++;
    } else
      m++;
  }
  t->U = lemke_slot_U(t, t->hist_n);
}
