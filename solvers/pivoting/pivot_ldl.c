/* pivot_ldl.c — the workspace of the principal pivoting method and the LDL^T factor of its clamped block
 * M_CC (pivoting.h): one row appended when an index enters C (O(k^2): a forward substitution), a row and
 * column removed when one leaves (the trailing block gets the rank-one term d_p l l^T back, Gill, Golub,
 * Murray & Saunders 1974, method C1: O(k^2)), and solves with the factor. No pivoting: the order is the
 * order indices entered, which is what keeps the updates cheap; a pivot near zero is reported instead. */
#include "pivoting.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int pivot_work_reserve(struct pivot_work *ws, int n)
{
  if (n <= ws->cap) return 0;
  size_t c = (size_t)n;
  size_t doubles = 2 * c * c + 8 * c, ints = 6 * c;
  void *block = malloc(doubles * sizeof(double) + ints * sizeof(int));
  if (!block) return 1;
  free(ws->block);
  ws->block = block;
  ws->cap = n;
  double *x = block;
  ws->L = x, x += c * c;
  ws->MC = x, x += c * c;
  ws->d = x, x += c;
  ws->dinv = x, x += c;
  ws->dz = x, x += c;
  ws->dw = x, x += c;
  ws->v = x, x += c;
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

int pivot_ldl_append_solved(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol)
{
  double *row = ws->L + (size_t)k * ws->cap, *y = ws->v;
  /* y = L^-1 M_Cj, so l = D^-1 y and d_new = M_jj - l . y (the Schur complement of j) */
  double mjj = M[(size_t)j * n + j], dk = mjj;
  for (int r = 0; r < k; r++) {
    row[r] = y[r] * ws->dinv[r];
    dk -= row[r] * y[r];
  }
  if (!(fabs(dk) > pivot_tol * fabs(mjj)) || !isfinite(dk)) return 1;
  row[k] = 1.0;
  ws->d[k] = dk;
  ws->dinv[k] = 1.0 / dk;
  ws->idx[k] = j;
  ws->pos[j] = k;
  /* column k of MC: M_rj = M_jr, row j read in order */
  const double *Mj = M + (size_t)j * n;
  for (int r = 0; r < n; r++)
    ws->MC[(size_t)r * ws->cap + k] = Mj[r];
  return 0;
}

int pivot_ldl_append(struct pivot_work *ws, int k, const double *M, int n, int j, double pivot_tol)
{
  memcpy(ws->v, ws->MC + (size_t)j * ws->cap, (size_t)k * sizeof *ws->v); /* M_Cj = M_jC: symmetric */
  pivot_ldl_forward(ws, k, ws->v);
  return pivot_ldl_append_solved(ws, k, M, n, j, pivot_tol);
}

/* LDL^T <- LDL^T + alpha v v^T on the trailing positions p..m-1 (v indexed by position). */
static void pivot_ldl_rank_one(struct pivot_work *ws, int m, int p, double alpha, double *v)
{
  int cap = ws->cap;
  for (int j = p; j < m; j++) {
    double pj = v[j], dj = ws->d[j] + alpha * pj * pj;
    double beta = pj * alpha / dj;
    alpha *= ws->d[j] / dj;
    ws->d[j] = dj;
    ws->dinv[j] = 1.0 / dj;
    for (int r = j + 1; r < m; r++) {
      double *Lrj = ws->L + (size_t)r * cap + j;
      v[r] -= pj * *Lrj;
      *Lrj += beta * v[r];
    }
  }
}

void pivot_ldl_remove(struct pivot_work *ws, int k, int p, int n)
{
  int cap = ws->cap;
  double dp = ws->d[p], *v = ws->v;
  ws->pos[ws->idx[p]] = -1;
  /* v = column p below the diagonal, then close the gap: rows move up, columns left */
  for (int r = p + 1; r < k; r++)
    v[r - 1] = ws->L[(size_t)r * cap + p];
  for (int r = p + 1; r < k; r++) {
    double *dst = ws->L + (size_t)(r - 1) * cap, *src = ws->L + (size_t)r * cap;
    memmove(dst, src, (size_t)p * sizeof *dst);
    memmove(dst + p, src + p + 1, (size_t)(r - p) * sizeof *dst);
    ws->d[r - 1] = ws->d[r];
    ws->dinv[r - 1] = ws->dinv[r];
    ws->idx[r - 1] = ws->idx[r];
    ws->pos[ws->idx[r - 1]] = r - 1;
  }
  for (int r = 0; r < n; r++) {
    double *MCr = ws->MC + (size_t)r * cap;
    memmove(MCr + p, MCr + p + 1, (size_t)(k - 1 - p) * sizeof *MCr);
  }
  pivot_ldl_rank_one(ws, k - 1, p, dp, v);
}

/* Four rows r..r+3 at a time (ODE's dSolveL1 blocks the same way): their dot products with the final b_0..r-1
 * share each load of b and run as eight independent sums, then the 4 x 4 triangle; one row at a time, the
 * short sums' latency and loop overhead were most of a forward solve at k = 10-50. */
void pivot_ldl_forward(const struct pivot_work *ws, int k, double *b)
{
  size_t cap = (size_t)ws->cap;
  int r = 1;
  for (; r + 4 <= k; r += 4) {
    const double *restrict L0 = ws->L + (size_t)r * cap, *restrict L1 = L0 + cap, *restrict L2 = L1 + cap,
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
    b[r] -= short_dot(ws->L + (size_t)r * cap, b, r);
}

/* L^T x = D^-1 y by rows of L (contiguous): once x_c is final, take it out of the rows above; four columns
 * at a time, so that each x_r is loaded and stored once per four columns. */
void pivot_ldl_backward(const struct pivot_work *ws, int k, double *b)
{
  size_t cap = (size_t)ws->cap;
  for (int r = 0; r < k; r++)
    b[r] *= ws->dinv[r];
  int c = k - 1;
  for (; c >= 4; c -= 4) {
    const double *restrict L0 = ws->L + (size_t)c * cap, *restrict L1 = L0 - cap, *restrict L2 = L1 - cap,
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
    const double *restrict Lc = ws->L + (size_t)c * cap;
    double xc = b[c];
    for (int r = 0; r < c; r++)
      b[r] -= Lc[r] * xc;
  }
}

void pivot_ldl_solve(const struct pivot_work *ws, int k, double *b)
{
  pivot_ldl_forward(ws, k, b);
  pivot_ldl_backward(ws, k, b);
}
