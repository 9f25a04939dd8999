/* pivot_ldu.c — the workspace of the principal pivoting method and the factor M_CC = L D U of its clamped
 * block (pivoting.h; U = L^T when M is symmetric): a row and a column appended when an index enters C
 * (O(k^2): one forward substitution, two when M is not symmetric), a row and column removed when one
 * leaves (the trailing block gets the rank-one term d_p l u^T back: Gill, Golub, Murray & Saunders 1974,
 * method C1, for LDL^T; Bennett 1965 for LDU, the same recurrence on two vectors: O(k^2)), and solves with
 * the factor. No pivoting: the order is the order indices entered, which is what keeps the updates cheap
 * (a P-matrix's leading blocks in any order are nonsingular); a pivot near zero is reported instead. */
#include "pivoting.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pivot_work_reserve(struct pivot_work *ws, int n)
{
  if (n <= ws->cap) return 0;
  size_t c = (size_t)n;
  size_t doubles = 3 * c * c + 9 * c, ints = 6 * c;
  void *block = malloc(doubles * sizeof(double) + ints * sizeof(int));
  if (!block) return 1;
  free(ws->block);
  ws->block = block;
  ws->cap = n;
  double *x = block;
  ws->L = x, x += c * c;
  ws->MC = x, x += c * c;
  ws->Ubuf = x, x += c * c;
  ws->U = ws->L;
  ws->d = x, x += c;
  ws->dinv = x, x += c;
  ws->dz = x, x += c;
  ws->dw = x, x += c;
  ws->v = x, x += c;
  ws->x = x, x += c;
  ws->w = x, x += c;
  ws->lo = x, x += c;
  ws->hi = x, x += c;
  int *k = (int *)x;
  ws->state = k, k += c;
  ws->pos = k, k += c;
  ws->idx = k, k += c;
  ws->order = k, k += c;
  ws->nidx = k, k += c;
  ws->npos = k;
  return 0;
}

void pivot_work_free(struct pivot_work *ws)
{
  free(ws->block);
  memset(ws, 0, sizeof *ws);
}

void pivot_ldu_mode(struct pivot_work *ws, int nonsymmetric) { ws->U = nonsymmetric ? ws->Ubuf : ws->L; }

void pivot_ldu_column(struct pivot_work *ws, int k, const double *M, int n, int j)
{
  if (ws->U == ws->L) { /* M_Cj = M_jC: the row kept in clamped order */
    memcpy(ws->v, ws->MC + (size_t)j * ws->cap, (size_t)k * sizeof *ws->v);
    return;
  }
  for (int c = 0; c < k; c++)
    ws->v[c] = M[(size_t)ws->idx[c] * n + j];
}

/* b <- T^-1 b for a unit lower T (cap x cap row-major; L, or U^T). */
static void pivot_lower_solve(const double *T, size_t cap, int k, double *b);

int pivot_ldu_append_solved(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol)
{
  int symmetric = ws->U == ws->L;
  double *lrow = ws->L + (size_t)k * ws->cap, *urow = ws->U + (size_t)k * ws->cap, *y = ws->v, *x = y;
  if (!symmetric) { /* x = U^-T M_jC^T, the row's half of the factor */
    x = ws->x;
    memcpy(x, ws->MC + (size_t)j * ws->cap, (size_t)k * sizeof *x);
    pivot_lower_solve(ws->U, (size_t)ws->cap, k, x);
  }
  /* y = L^-1 M_Cj: then l = D^-1 x, u = D^-1 y and d_new = M_jj - l . y (the Schur complement of j) */
  double mjj = M[(size_t)j * n + j], dk = mjj;
  for (int r = 0; r < k; r++) {
    lrow[r] = x[r] * ws->dinv[r];
    dk -= lrow[r] * y[r];
  }
  int singular = symmetric ? !(fabs(dk) > pivot_tol * fabs(mjj)) : !(dk > pivot_tol * fabs(mjj));
  if (singular || !isfinite(dk)) return 1;
  if (!symmetric)
    for (int r = 0; r < k; r++)
      urow[r] = y[r] * ws->dinv[r];
  lrow[k] = urow[k] = 1.0;
  ws->d[k] = dk;
  ws->dinv[k] = 1.0 / dk;
  ws->idx[k] = j;
  ws->pos[j] = k;
  /* column k of MC: M_rj; by symmetry row j read in order */
  const double *Mj = symmetric ? M + (size_t)j * n : M + j;
  size_t stride = symmetric ? 1 : (size_t)n;
  for (int r = 0; r < n; r++)
    ws->MC[(size_t)r * ws->cap + k] = Mj[(size_t)r * stride];
  return 0;
}

int pivot_ldu_append(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol)
{
  pivot_ldu_column(ws, k, M, n, j);
  pivot_ldu_forward(ws, k, ws->v);
  return pivot_ldu_append_solved(ws, k, M, n, j, pivot_tol);
}

/* LDU <- LDU + alpha a b^T on the trailing positions p..m-1 (a, b indexed by position; a = b and one
 * factor when M is symmetric). */
static void pivot_ldu_rank_one(struct pivot_work *ws, int m, int p, double alpha, double *a, double *b)
{
  int cap = ws->cap, symmetric = ws->U == ws->L;
  for (int j = p; j < m; j++) {
    double aj = a[j], bj = b[j], dj = ws->d[j] + alpha * aj * bj;
    double beta = bj * alpha / dj, gamma = aj * alpha / dj;
    alpha *= ws->d[j] / dj;
    ws->d[j] = dj;
    ws->dinv[j] = 1.0 / dj;
    for (int r = j + 1; r < m; r++) {
      double *Lrj = ws->L + (size_t)r * cap + j;
      a[r] -= aj * *Lrj;
      *Lrj += beta * a[r];
    }
    if (symmetric) continue;
    for (int r = j + 1; r < m; r++) {
      double *Urj = ws->U + (size_t)r * cap + j;
      b[r] -= bj * *Urj;
      *Urj += gamma * b[r];
    }
  }
}

/* Column p of T below the diagonal into out (by position, from 0), then T's row and column p closed up. */
static void pivot_lower_drop(double *T, int cap, int k, int p, double *out)
{
  for (int r = p + 1; r < k; r++)
    out[r - 1] = T[(size_t)r * cap + p];
  for (int r = p + 1; r < k; r++) {
    double *dst = T + (size_t)(r - 1) * cap, *src = T + (size_t)r * cap;
    memmove(dst, src, (size_t)p * sizeof *dst);
    memmove(dst + p, src + p + 1, (size_t)(r - p) * sizeof *dst);
  }
}

void pivot_ldu_remove(struct pivot_work *ws, int k, int p, int n)
{
  int cap = ws->cap;
  double dp = ws->d[p], *u = ws->v;
  ws->pos[ws->idx[p]] = -1;
  pivot_lower_drop(ws->L, cap, k, p, ws->v);
  if (ws->U != ws->L) {
    u = ws->x;
    pivot_lower_drop(ws->U, cap, k, p, u);
  }
  for (int r = p + 1; r < k; r++) {
    ws->d[r - 1] = ws->d[r];
    ws->dinv[r - 1] = ws->dinv[r];
    ws->idx[r - 1] = ws->idx[r];
    ws->pos[ws->idx[r - 1]] = r - 1;
  }
  for (int r = 0; r < n; r++) {
    double *MCr = ws->MC + (size_t)r * cap;
    memmove(MCr + p, MCr + p + 1, (size_t)(k - 1 - p) * sizeof *MCr);
  }
  pivot_ldu_rank_one(ws, k - 1, p, dp, ws->v, u);
}

/* Four rows r..r+3 at a time (ODE's dSolveL1 blocks the same way): their dot products with the final b_0..r-1
 * share each load of b and run as eight independent sums, then the 4 x 4 triangle; one row at a time, the
 * short sums' latency and loop overhead were most of a forward solve at k = 10-50. */
static void pivot_lower_solve(const double *T, size_t cap, int k, double *b)
{
  int r = 1;
  for (; r + 4 <= k; r += 4) {
    const double *restrict L0 = T + (size_t)r * cap, *restrict L1 = L0 + cap, *restrict L2 = L1 + cap,
                           *restrict L3 = L2 + cap;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, t0 = 0.0, t1 = 0.0, t2 = 0.0, t3 = 0.0;
    int c = 0;
    for (; c + 2 <= r; c += 2) {
      double b0 = b[c], b1 = b[c + 1];
      s0 += L0[c] * b0, t0 += L0[c + 1] * b1;
      s1 += L1[c] * b0, t1 += L1[c + 1] * b1;
      s2 += L2[c] * b0, t2 += L2[c + 1] * b1;
      s3 += L3[c] * b0, t3 += L3[c + 1] * b1;
    }
    if (c < r) s0 += L0[c] * b[c], s1 += L1[c] * b[c], s2 += L2[c] * b[c], s3 += L3[c] * b[c];
    double x0 = b[r] - (s0 + t0);
    double x1 = b[r + 1] - (s1 + t1) - L1[r] * x0;
    double x2 = b[r + 2] - (s2 + t2) - L2[r] * x0 - L2[r + 1] * x1;
    double x3 = b[r + 3] - (s3 + t3) - L3[r] * x0 - L3[r + 1] * x1 - L3[r + 2] * x2;
    b[r] = x0, b[r + 1] = x1, b[r + 2] = x2, b[r + 3] = x3;
  }
  for (; r < k; r++)
    b[r] -= short_dot(T + (size_t)r * cap, b, r);
}

void pivot_ldu_forward(const struct pivot_work *ws, int k, double *b)
{
  pivot_lower_solve(ws->L, (size_t)ws->cap, k, b);
}

/* U x = D^-1 y by rows of U^T (contiguous; L's when M is symmetric): once x_c is final, take it out of the
 * rows above; four columns at a time, so that each x_r is loaded and stored once per four columns. */
void pivot_ldu_backward(const struct pivot_work *ws, int k, double *b)
{
  size_t cap = (size_t)ws->cap;
  for (int r = 0; r < k; r++)
    b[r] *= ws->dinv[r];
  int c = k - 1;
  for (; c >= 4; c -= 4) {
    const double *restrict L0 = ws->U + (size_t)c * cap, *restrict L1 = L0 - cap, *restrict L2 = L1 - cap,
                           *restrict L3 = L2 - cap;
    double x0 = b[c];
    double x1 = b[c - 1] -= L0[c - 1] * x0;
    double x2 = b[c - 2] -= L0[c - 2] * x0 + L1[c - 2] * x1;
    double x3 = b[c - 3] -= L0[c - 3] * x0 + L1[c - 3] * x1 + L2[c - 3] * x2;
    double *restrict x = b;
    for (int r = 0; r < c - 3; r++)
      x[r] -= L0[r] * x0 + L1[r] * x1 + L2[r] * x2 + L3[r] * x3;
  }
  for (; c > 0; c--) {
    const double *restrict Lc = ws->U + (size_t)c * cap;
    double xc = b[c];
    for (int r = 0; r < c; r++)
      b[r] -= Lc[r] * xc;
  }
}

void pivot_ldu_solve(const struct pivot_work *ws, int k, double *b)
{
  pivot_ldu_forward(ws, k, b);
  pivot_ldu_backward(ws, k, b);
}
