/* short_dot.h — the dot product of the pivoting solvers' short vectors (a clamped block's rows, a small
 * tableau's columns), written out because at these lengths a BLAS call's fixed cost exceeds the sum. */
#ifndef CB_SHORT_DOT_H
#define CB_SHORT_DOT_H

/* sum a_c b_c over c < k with four partial sums: the reduction is not one chain of dependent additions (the
 * compiler may not reorder it itself), which is what bounds these short dot products. */
static inline double short_dot(const double *restrict a, const double *restrict b, int k)
{
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  int c = 0;
  for (; c + 4 <= k; c += 4) {
    s0 += a[c] * b[c];
    s1 += a[c + 1] * b[c + 1];
    s2 += a[c + 2] * b[c + 2];
    s3 += a[c + 3] * b[c + 3];
  }
  for (; c < k; c++)
    s0 += a[c] * b[c];
  return (s0 + s1) + (s2 + s3);
}

#endif
