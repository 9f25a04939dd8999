/* lemke_tableau.c — the compact, blocked tableau of Lemke's method (see lemke.h for the algebra).
 * Holding back the pivot updates and applying them as one dgemm every bmax pivots replaces n^2 memory
 * traffic per pivot by cache-friendly level-3 work (../shared/notes/lemke.md); the entering column and the
 * pivot row cost O(n bmax) each from the held-back factors. The warm start is a principal pivot on M_SS.
 * The flushes update the active columns only: those of B^-1 wait, dormant, until needed (lemke_lazy.c). */
#include "lemke.h"
#include "lemke_kernels.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int lemke_tableau_create(int n_cap, int bmax_cap, int warm, int lazy, struct lemke_tableau **out)
{
  *out = NULL;
  if (n_cap < 1 || bmax_cap < 1) return 1;
  struct lemke_tableau *t = calloc(1, sizeof *t);
  if (!t) return 1;
  size_t nn = (size_t)n_cap, nc = nn + 1, bmax = (size_t)bmax_cap;
  t->cap_n = n_cap;
  t->cap_b = bmax_cap;
  t->T0 = malloc(nn * nc * sizeof *t->T0);
  t->V = malloc(nc * bmax * sizeof *t->V);
  t->x = malloc(nn * sizeof *t->x);
  t->s = malloc(nn * sizeof *t->s);
  t->g = malloc(nc * sizeof *t->g);
  t->corr_i = malloc(bmax * sizeof *t->corr_i);
  t->corr_m = malloc(bmax * sizeof *t->corr_m);
  t->corr_val = malloc(bmax * sizeof *t->corr_val);
  t->wraw = malloc(bmax * sizeof *t->wraw);
  t->basic = malloc(nn * sizeof *t->basic);
  t->nonbasic = malloc(nc * sizeof *t->nonbasic);
  t->where = malloc((2 * nn + 1) * sizeof *t->where);
  t->lex_var = malloc(nn * sizeof *t->lex_var);
  /* G holds a basis (n^2), M_SS (k^2 <= n^2) or M_Sbar,S ((n - k) k <= n^2 / 4); X and Y n x (n + 1) */
  t->wG = malloc(nn * nn * sizeof *t->wG);
  t->wwork = malloc(6 * nn * sizeof *t->wwork);
  t->wS = malloc(nn * sizeof *t->wS);
  t->wpos = malloc(nn * sizeof *t->wpos);
  t->wipiv = malloc(nn * sizeof *t->wipiv);
  t->wiwork = malloc(nn * sizeof *t->wiwork);
  int bad = lemke_lazy_create(t, lazy) || !t->T0 || !t->V || !t->x || !t->s || !t->g || !t->corr_i ||
            !t->corr_m || !t->corr_val || !t->wraw || !t->basic || !t->nonbasic || !t->where || !t->lex_var ||
            !t->wG || !t->wwork || !t->wS || !t->wpos || !t->wipiv || !t->wiwork;
  if (!bad && warm) {
    t->wX = malloc(nn * nc * sizeof *t->wX);
    t->wY = malloc(nn * nc * sizeof *t->wY);
    bad = !t->wX || !t->wY;
  }
  if (bad) {
    lemke_tableau_destroy(&t);
    return 1;
  }
  lemke_tableau_use(t, n_cap, bmax_cap);
  *out = t;
  return 0;
}

int lemke_tableau_use(struct lemke_tableau *t, int n, int bmax)
{
  if (n < 1 || n > t->cap_n || bmax < 1 || bmax > t->cap_b) return 1;
  t->n = n;
  t->ncols = n + 1;
  t->bmax = bmax;
  t->k = 0;
  lemke_lazy_reset(t);
  return 0;
}

void lemke_tableau_destroy(struct lemke_tableau **t)
{
  if (!t || !*t) return;
  free((*t)->T0);
  lemke_lazy_destroy(*t);
  free((*t)->V);
  free((*t)->x);
  free((*t)->s);
  free((*t)->g);
  free((*t)->corr_i);
  free((*t)->corr_m);
  free((*t)->corr_val);
  free((*t)->wraw);
  free((*t)->basic);
  free((*t)->nonbasic);
  free((*t)->where);
  free((*t)->lex_var);
  free((*t)->wG);
  free((*t)->wX);
  free((*t)->wY);
  free((*t)->wwork);
  free((*t)->wS);
  free((*t)->wpos);
  free((*t)->wipiv);
  free((*t)->wiwork);
  free(*t);
  *t = NULL;
}

/* Row i holds w_i (or z_i when in_basis[i]), column i its complement, column n holds z0. */
static void lemke_tableau_label(struct lemke_tableau *t, const int *in_basis)
{
  int n = t->n;
  for (int i = 0; i < n; i++) {
    int z = in_basis && in_basis[i];
    t->basic[i] = z ? n + i : i;
    t->nonbasic[i] = z ? i : n + i;
    t->lex_var[i] = t->basic[i];
    t->where[t->basic[i]] = i;
    t->where[t->nonbasic[i]] = -1 - i;
  }
  t->nonbasic[n] = 2 * n;
  t->where[2 * n] = -1 - n;
  for (int i = 0; i < n; i++)
    t->s[i] = 1.0;
  for (int m = 0; m <= n; m++)
    t->g[m] = 1.0;
  t->k = 0;
  t->refactors = 0;
  lemke_lazy_reset(t);
  t->lazy = t->hist_cap > 1; /* created lazy (-lemke_lazy_columns) */
}

/* |a| into the running maximum m, NaN-blind */
static double lemke_absmax(double m, double a) { return fabs(a) > m ? fabs(a) : m; }

double lemke_tableau_cold(struct lemke_tableau *t, const double *M, const double *q, const double *d)
{
  size_t n = (size_t)t->n, tile = 64; /* transpose by tiles: row-major M, column-major T0 */
  /* max |M_ij| while M is in cache (the drift checks' bound), in four independent chains: one chain of
   * compares per entry made the transpose 1.4 ms instead of 0.75 at n = 1000 (one core, M in L3) */
  double m0 = 0.0, m1 = 0.0, m2 = 0.0, m3 = 0.0;
  for (size_t i0 = 0; i0 < n; i0 += tile) {
    size_t ie = i0 + tile < n ? i0 + tile : n;
    for (size_t j0 = 0; j0 < n; j0 += tile)
      for (size_t j = j0; j < j0 + tile && j < n; j++) {
        double *tj = t->T0 + j * n;
        const double *mj = M + j; /* column j of M: mj[i n] = M_ij */
        size_t i = i0;
        for (; i + 4 <= ie; i += 4) {
          double a0 = mj[i * n], a1 = mj[(i + 1) * n], a2 = mj[(i + 2) * n], a3 = mj[(i + 3) * n];
          tj[i] = -a0;
          tj[i + 1] = -a1;
          tj[i + 2] = -a2;
          tj[i + 3] = -a3;
          m0 = lemke_absmax(m0, a0);
          m1 = lemke_absmax(m1, a1);
          m2 = lemke_absmax(m2, a2);
          m3 = lemke_absmax(m3, a3);
        }
        for (; i < ie; i++) {
          tj[i] = -mj[i * n];
          m0 = lemke_absmax(m0, mj[i * n]);
        }
      }
  }
  for (size_t i = 0; i < n; i++) {
    t->T0[i + n * n] = -d[i];
    t->x[i] = q[i];
  }
  lemke_tableau_label(t, NULL);
  return lemke_absmax(lemke_absmax(m0, m1), lemke_absmax(m2, m3));
}

/* Basic z_S, w_Sbar with P = M_SS^-1 (see lemke.h for the signs, x_B = x - T x_N):
 *   rows S:    x = -P q_S,              T(:, w_S) = -P,          T(:, z_Sbar) = P M_S,Sbar
 *   rows Sbar: x = q_Sbar - M_Sbar,S P q_S,  T(:, w_S) = -M_Sbar,S P,
 *              T(:, z_Sbar) = -(M_Sbar,Sbar - M_Sbar,S P M_S,Sbar);   T(:, z0) = -e. */
int lemke_tableau_warm(struct lemke_tableau *t, const double *M, const double *q, const int *in_basis)
{
  int n = t->n, nc = n + 1, ks = 0;
  size_t nn = (size_t)n;
  if (!t->wX) return 2;
  int *S = t->wS, *pos = t->wpos, *ipiv = t->wipiv;
  double *G = t->wG, *X = t->wX;
  for (int i = 0; i < n; i++) {
    pos[i] = in_basis[i] ? ks : -1;
    if (in_basis[i]) S[ks++] = i;
  }
  /* G = M_SS and X = [columns m: e_pos(m) for m in S, M_S,m otherwise | q_S], column-major k x ... */
  for (int b = 0; b < ks; b++)
    for (int a = 0; a < ks; a++)
      G[a + (size_t)b * ks] = M[(size_t)S[a] * nn + S[b]];
  for (int m = 0; m < n; m++)
    for (int a = 0; a < ks; a++)
      X[a + (size_t)m * ks] = pos[m] >= 0 ? (pos[m] == a) : M[(size_t)S[a] * nn + m];
  for (int a = 0; a < ks; a++)
    X[a + nn * ks] = q[S[a]];
  if (ks > 0) {
    /* the _work variants: LAPACKE's others allocate their work arrays on every call */
    double anorm = LAPACKE_dlange_work(LAPACK_COL_MAJOR, '1', ks, ks, G, ks, NULL), rcond = 0.0;
    if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, ks, ks, G, ks, ipiv) != 0) return 1;
    if (LAPACKE_dgecon_work(LAPACK_COL_MAJOR, '1', ks, G, ks, anorm, &rcond, t->wwork, t->wiwork) != 0 ||
        !(rcond > 1e3 * DBL_EPSILON))
      return 1;
    if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', ks, nc, G, ks, ipiv, X, ks) != 0) return 1;
  }
  /* Rows S: -X on the w_S columns, +X on the z_Sbar columns. Rows Sbar: 0 and -M, corrected below. */
  for (int m = 0; m < n; m++)
    for (int i = 0; i < n; i++) {
      double *tm = t->T0 + (size_t)m * nn;
      if (pos[i] >= 0)
        tm[i] = pos[m] >= 0 ? -X[pos[i] + (size_t)m * ks] : X[pos[i] + (size_t)m * ks];
      else
        tm[i] = pos[m] >= 0 ? 0.0 : -M[(size_t)i * nn + m];
    }
  for (int i = 0; i < n; i++)
    t->x[i] = pos[i] >= 0 ? -X[pos[i] + nn * ks] : q[i];
  /* Rows Sbar: Y = M_Sbar,S X (one dgemm); T(:, w_S) = -Y, T(:, z_Sbar) = -M + Y, x = q_Sbar - Y(:, n). */
  if (ks > 0 && ks < n) {
    size_t nb = nn - (size_t)ks;
    double *A = G, *Y = t->wY; /* the LU of M_SS is no longer needed */
    for (int a = 0; a < ks; a++)
      for (int i = 0, b = 0; i < n; i++)
        if (pos[i] < 0) A[b++ + (size_t)a * nb] = M[(size_t)i * nn + S[a]];
    cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, (int)nb, nc, ks, 1.0, A, (int)nb, X, ks, 0.0, Y,
                (int)nb);
    for (int m = 0; m <= n; m++)
      for (int i = 0, b = 0; i < n; i++) {
        if (pos[i] >= 0) continue;
        double y = Y[b++ + (size_t)m * nb];
        if (m == n)
          t->x[i] -= y;
        else
          t->T0[i + (size_t)m * nn] += pos[m] >= 0 ? -y : y;
      }
  }
  for (int i = 0; i < n; i++)
    t->T0[i + nn * nn] = -1.0;
  lemke_tableau_label(t, in_basis);
  return 0;
}

/* v[idx[l]] *= a * f[idx[l]] for l < k, the rest of v times a: the scale factors f differ from 1 only at
 * the k indices pivoted since the last flush (repeats allowed), so one dscal and k fix-ups do what a loop
 * of n products did (with the same roundings: a * 1 = a). raw: k doubles of scratch. */
static void lemke_scale_listed(int plain, int n, double *v, double a, const double *f, const int *idx, int k,
                               double *raw)
{
  for (int l = 0; l < k; l++)
    raw[l] = v[idx[l]];
  if (a != 1.0) lemke_scal(plain, n, a, v);
  for (int l = 0; l < k; l++)
    v[idx[l]] = raw[l] * (a * f[idx[l]]);
}

void lemke_tableau_column(const struct lemke_tableau *t, int m, double *col)
{
  memcpy(col, t->T0 + (size_t)m * t->n, (size_t)t->n * sizeof *col);
  if (t->k == 0) return;
  lemke_gemv_sub(t->plain, t->n, t->k, t->U, t->n, t->V + m, t->ncols, col);
  lemke_scale_listed(t->plain, t->n, col, t->g[m], t->s, t->corr_i, t->k, t->wraw);
  for (int l = 0; l < t->k; l++)
    if (t->corr_m[l] == m) col[t->corr_i[l]] += t->corr_val[l];
}

void lemke_tableau_row(const struct lemke_tableau *t, int i, double *row)
{
  lemke_copy(t->plain, t->na, t->T0 + i, t->n, row); /* dormant columns' entries: not needed, not set */
  if (t->k == 0) return;
  lemke_gemv_sub(t->plain, t->na, t->k, t->V, t->ncols, t->U + i, t->n, row);
  lemke_scale_listed(t->plain, t->na, row, t->s[i], t->g, t->corr_m, t->k, t->wraw);
  for (int l = 0; l < t->k; l++)
    if (t->corr_i[l] == i) row[t->corr_m[l]] += t->corr_val[l];
}

/* T0 <- diag(s) (T0 - U V^T) diag(g) + C; the scale factors differ from 1 only in pivoted rows/columns. */
static int lemke_int_less(const void *a, const void *b)
{
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

void lemke_tableau_flush(struct lemke_tableau *t)
{
  if (t->k == 0) return;
  int slot = lemke_lazy_slot(t);
  size_t n = (size_t)t->n, base = (size_t)slot * (size_t)t->cap_b;
  /* The rows with s != 1 are among the k pivot rows (repeats possible). They are scaled column by column,
   * in one sweep with the columns' own scaling (row first, then column: the roundings of a dscal per row
   * and then per column): a row of T0 is a stride-n read, one cache line and one TLB entry per element,
   * and a dscal per row cost as much as reading the pivot row again each pivot. The list is kept for the
   * replays of dormant columns (lemke_lazy.c). Measured and dropped: the flush by panels of ~1 MB of
   * columns, each scaled while in L2 (4 % faster at n = 1000 without lazy columns, none with them; 5-15 %
   * slower at n = 2000 and 4000, where each panel's dgemm packs U again). */
  int nr = 0, *rows = t->fl_rows + base;
  double *sr = t->fl_sr + base;
  memcpy(rows, t->corr_i, (size_t)t->k * sizeof *rows);
  qsort(rows, (size_t)t->k, sizeof *rows, lemke_int_less);
  for (int l = 0; l < t->k; l++)
    if ((l == 0 || rows[l] != rows[l - 1]) && t->s[rows[l]] != 1.0) {
      sr[nr] = t->s[rows[l]];
      t->s[rows[l]] = 1.0;
      rows[nr++] = rows[l];
    }
  t->fl_nr[slot] = nr;
  /* BLAS at every size: a flush's n ncols k products amortise the call (plain loops: 14 % of the solve
   * time on the n = 24 contact classes, whose ties flush often) */
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, t->n, t->na, t->k, -1.0, t->U, t->n, t->V, t->ncols,
              1.0, t->T0, t->n);
  for (int m = 0; m < t->na; m++) {
    double *col = t->T0 + (size_t)m * n;
    for (int a = 0; a < nr; a++)
      col[rows[a]] *= sr[a];
    if (t->g[m] != 1.0) {
      lemke_scal(t->plain, t->n, t->g[m], col);
      t->g[m] = 1.0;
    }
  }
  for (int l = 0; l < t->k; l++)
    t->T0[(size_t)t->corr_i[l] + (size_t)t->corr_m[l] * n] += t->corr_val[l];
  int k = t->k;
  t->k = 0;
  lemke_lazy_after_flush(t, k);
}

void lemke_tableau_pivot(struct lemke_tableau *t, int r, int m, const double *col, const double *row)
{
  int n = t->n, k = t->k;
  double piv = col[r], *u = t->U + (size_t)k * n, *v = t->V + (size_t)k * t->ncols;
  /* u = diag(s)^-1 c^, v = diag(g)^-1 T(r,:) / piv with u_r = v_m = 0 (see lemke.h); s and g differ from 1
   * only in the rows and columns of the held-back pivots (x / 1 = x: the same values as dividing all). */
  memcpy(u, col, (size_t)n * sizeof *u);
  for (int l = 0; l < k; l++)
    u[t->corr_i[l]] = col[t->corr_i[l]] / t->s[t->corr_i[l]];
  u[r] = 0.0;
  /* a division per entry: a product by 1 / piv (an ulp apart, ~1 % faster at n = 1000) changed which of
   * the robot-arm grasp's degenerate LCP solutions Lemke returns, and its trajectories with them */
  for (int j = 0; j < t->na; j++) /* a dormant column's v is made when it wakes (lemke_lazy.c) */
    v[j] = row[j] / piv;
  for (int l = 0; l < k; l++)
    v[t->corr_m[l]] = row[t->corr_m[l]] / piv / t->g[t->corr_m[l]];
  v[m] = 0.0;
  /* Earlier corrections sit in the scaled space: rescale those in row r and column m. */
  for (int l = 0; l < k; l++) {
    if (t->corr_i[l] == r) t->corr_val[l] /= piv;
    if (t->corr_m[l] == m) t->corr_val[l] /= -piv;
  }
  size_t slot = (size_t)lemke_lazy_slot(t) * (size_t)t->cap_b + (size_t)k; /* for replays (lemke_lazy.c) */
  t->piv_r[slot] = r;
  t->piv_val[slot] = piv;
  t->piv_s[slot] = t->s[r];
  t->s[r] /= piv;
  t->g[m] /= -piv;
  t->corr_i[k] = r;
  t->corr_m[k] = m;
  t->corr_val[k] = 2.0 / piv;
  double step = t->x[r] / piv;
  for (int i = 0; i < n; i++)
    t->x[i] -= step * col[i];
  t->x[r] = step; /* the entering variable's value */
  t->k = k + 1;
  int entering = t->nonbasic[m], leaving = t->basic[r];
  t->basic[r] = entering;
  t->nonbasic[m] = leaving;
  t->where[entering] = r;
  t->where[leaving] = -1 - m;
  if (t->k == t->bmax) lemke_tableau_flush(t);
}

/* The original column of variable v in w - M z - d z0 = q. */
static void lemke_original_column(int n, int v, const struct lemke_data_ref *ref, double *out)
{
  size_t nn = (size_t)n;
  if (v < n) {
    memset(out, 0, nn * sizeof *out);
    out[v] = 1.0;
  } else if (v < 2 * n) {
    for (size_t i = 0; i < nn; i++)
      out[i] = -ref->M[i * nn + (size_t)(v - n)];
  } else
    for (size_t i = 0; i < nn; i++)
      out[i] = -ref->d[i];
}

/* Y = B [v1 v2] (B the original columns of the basic variables; Y n x 2 row-major, rows interleaved: one
 * pass over M for both); returns bnd[k] = bmax ||v_k||_1, bounds on |B| |v_k|. wwork[4n..6n) holds the z
 * parts. */
static void lemke_basis_times2(struct lemke_tableau *t, const struct lemke_data_ref *ref, const double *v1,
                               const double *v2, double *Y, double *bnd)
{
  int n = t->n;
  double *u1 = t->wwork + 4 * (size_t)n, *u2 = u1 + n, s1 = 0.0, s2 = 0.0, z01 = 0.0, z02 = 0.0;
  int any_z = 0;
  memset(Y, 0, 2 * (size_t)n * sizeof *Y);
  for (int j = 0; j < n; j++) {
    int r = t->where[n + j];
    u1[j] = r >= 0 ? v1[r] : 0.0;
    u2[j] = r >= 0 ? v2[r] : 0.0;
    any_z |= r >= 0;
  }
  for (int r = 0; r < n; r++) {
    int b = t->basic[r];
    s1 += fabs(v1[r]);
    s2 += fabs(v2[r]);
    if (b < n) {
      Y[2 * b] += v1[r];
      Y[2 * b + 1] += v2[r];
    }
    if (b == 2 * n) {
      z01 = v1[r];
      z02 = v2[r];
    }
  }
  /* two dot products per row of M while it is in L1: one pass over M from memory (0.77 ms at n = 1000
   * against 1.37 for the n x 2 dgemm, which packs M first, and 1.1 for two dgemv) */
  for (int i = 0; any_z && i < n; i++) {
    const double *mi = ref->M + (size_t)i * (size_t)n;
    Y[2 * i] -= lemke_dot(t->plain, n, mi, u1);
    Y[2 * i + 1] -= lemke_dot(t->plain, n, mi, u2);
  }
  for (int i = 0; i < n; i++) {
    Y[2 * i] -= z01 * ref->d[i];
    Y[2 * i + 1] -= z02 * ref->d[i];
  }
  bnd[0] = ref->bmax * s1;
  bnd[1] = ref->bmax * s2;
}

double lemke_tableau_drift(struct lemke_tableau *t, const struct lemke_data_ref *ref, int m,
                           const double *col)
{
  int n = t->n;
  double *Y = t->wwork, *a = t->wwork + 2 * (size_t)n, bnd[2], ec = 0.0, ex = 0.0, ac = 0.0, aq = 0.0;
  lemke_original_column(n, t->nonbasic[m], ref, a);
  lemke_basis_times2(t, ref, col, t->x, Y, bnd);
  for (int i = 0; i < n; i++) {
    /* selects, not fmax (a libm call per use at -O2: 4 % of a small solve, whose drift is checked every
     * pivot); a NaN entry is passed over as fmax passes it */
    double dc = fabs(Y[2 * i] - a[i]), da = fabs(a[i]), dx = fabs(Y[2 * i + 1] - ref->q[i]),
           dq = fabs(ref->q[i]);
    ec = dc > ec ? dc : ec;
    ac = da > ac ? da : ac;
    ex = dx > ex ? dx : ex;
    aq = dq > aq ? dq : aq;
  }
  ec /= ac + bnd[0];
  ex /= aq + bnd[1];
  return ex > ec || isnan(ex) ? ex : ec;
}

int lemke_tableau_refactor(struct lemke_tableau *t, const struct lemke_data_ref *ref)
{
  int n = t->n;
  size_t nn = (size_t)n;
  double *B = t->wG, *Y = t->wwork, *dx = t->wwork + 2 * nn, bnd[2];
  for (int r = 0; r < n; r++)
    lemke_original_column(n, t->basic[r], ref, B + (size_t)r * nn);
  for (int m = 0; m < t->ncols; m++)
    lemke_original_column(n, t->nonbasic[m], ref, t->T0 + (size_t)m * nn);
  memcpy(t->x, ref->q, nn * sizeof *t->x);
  if (LAPACKE_dgetrf_work(LAPACK_COL_MAJOR, n, n, B, n, t->wipiv) != 0) return 1;
  if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, t->ncols, B, n, t->wipiv, t->T0, n) != 0) return 1;
  if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, B, n, t->wipiv, t->x, n) != 0) return 1;
  /* one refinement step: x += B^-1 (q - B x) */
  lemke_basis_times2(t, ref, t->x, t->x, Y, bnd);
  for (int i = 0; i < n; i++)
    dx[i] = ref->q[i] - Y[2 * i];
  if (LAPACKE_dgetrs_work(LAPACK_COL_MAJOR, 'N', n, 1, B, n, t->wipiv, dx, n) != 0) return 1;
  for (int i = 0; i < n; i++)
    t->x[i] += dx[i];
  for (int i = 0; i < n; i++)
    t->s[i] = 1.0;
  for (int m = 0; m < t->ncols; m++)
    t->g[m] = 1.0;
  t->k = 0;
  lemke_lazy_reset(t); /* every column fresh: none dormant */
  t->refactors++;
  return 0;
}
