/* lemke_kernels.h — private to the Lemke files: the tableau's vector and matrix products, by BLAS or, on
 * small problems, by plain loops. On a small tableau a BLAS call's fixed cost (argument checks, kernel
 * dispatch, the thread test) is most of the call: an n = 9 pivot makes about 25 of them (the entering
 * column and the pivot row, two norms, the drift check's 2 n dot products), several times the arithmetic.
 * `plain` is the tableau's (n <= -lemke_small_n, set per solve); the loops give the same quantities with
 * other roundings (sums in another order), which the tie thresholds of ../shared/notes/lemke.md absorb. */
#ifndef CB_LEMKE_KERNELS_H
#define CB_LEMKE_KERNELS_H

#include "short_dot.h"

#include <cblas.h>
#include <math.h>
#include <stddef.h>

/* y -= A x: A m x k column-major with leading dimension lda, x with stride incx. */
static inline void lemke_gemv_sub(int plain, int m, int k, const double *A, int lda, const double *x,
                                  int incx, double *y)
{
  if (!plain) {
    cblas_dgemv(CblasColMajor, CblasNoTrans, m, k, -1.0, A, lda, x, incx, 1.0, y, 1);
    return;
  }
  /* four columns a pass: y is read and written once per four columns instead of once per column */
  size_t ld = (size_t)lda, inc = (size_t)incx;
  int l = 0;
  for (; l + 4 <= k; l += 4) {
    const double *restrict a0 = A + (size_t)l * ld, *restrict a1 = a0 + ld, *restrict a2 = a1 + ld,
                           *restrict a3 = a2 + ld;
    double x0 = x[l * inc], x1 = x[(l + 1) * inc], x2 = x[(l + 2) * inc], x3 = x[(l + 3) * inc];
    for (int i = 0; i < m; i++)
      y[i] -= (a0[i] * x0 + a1[i] * x1) + (a2[i] * x2 + a3[i] * x3);
  }
  for (; l < k; l++) {
    const double *restrict a = A + (size_t)l * ld;
    double xl = x[l * inc];
    for (int i = 0; i < m; i++)
      y[i] -= a[i] * xl;
  }
}

/* v *= a (the same products either way). */
static inline void lemke_scal(int plain, int n, double a, double *v)
{
  if (!plain) {
    cblas_dscal(n, a, v, 1);
    return;
  }
  for (int i = 0; i < n; i++)
    v[i] *= a;
}

/* y = x, x with stride incx. */
static inline void lemke_copy(int plain, int n, const double *x, int incx, double *y)
{
  if (!plain) {
    cblas_dcopy(n, x, incx, y, 1);
    return;
  }
  for (int i = 0; i < n; i++)
    y[i] = x[(size_t)i * (size_t)incx];
}

/* sum a_i b_i */
static inline double lemke_dot(int plain, int n, const double *a, const double *b)
{
  return plain ? short_dot(a, b, n) : cblas_ddot(n, a, 1, b, 1);
}

/* ||v||_inf, NaN-propagating, so that a NaN anywhere in M, q or a column is seen. */
static inline double lemke_norm_inf(int n, const double *v)
{
  double mx = 0.0;
  for (int i = 0; i < n; i++)
    if (!(fabs(v[i]) <= mx)) mx = fabs(v[i]);
  return mx;
}

/* ||v||_inf: the loop above, or BLAS idamax (vectorised, but it may pass over a NaN). */
static inline double lemke_amax(int plain, int n, const double *v)
{
  return plain ? lemke_norm_inf(n, v) : fabs(v[cblas_idamax(n, v, 1)]);
}

#endif
