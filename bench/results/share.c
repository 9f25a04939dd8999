/* share.c — shares of 0/1 outcomes with their Wilson intervals (share.h). */
#include "share.h"

#include <math.h>

void share_wilson(long k, long n, double *lo, double *hi)
{
  if (n <= 0) {
    *lo = *hi = NAN;
    return;
  }
  const double nn = (double)n, p = (double)k / nn, z2 = SHARE_Z95 * SHARE_Z95, d = 1.0 + z2 / nn;
  const double c = (p + z2 / (2.0 * nn)) / d,
               h = SHARE_Z95 * sqrt(p * (1.0 - p) / nn + z2 / (4.0 * nn * nn)) / d;
  *lo = fmax(0.0, c - h);
  *hi = fmin(1.0, c + h);
}

long share_count(const double *v, int n)
{
  long k = 0;
  for (int i = 0; i < n; i++)
    k += v[i] >= 0.5;
  return k;
}

void share_of_counts(long k, long n, double q[3])
{
  q[0] = n > 0 ? (double)k / (double)n : NAN;
  share_wilson(k, n, &q[1], &q[2]);
}

void share_of_values(const double *v, int n, double q[3]) { share_of_counts(share_count(v, n), n, q); }

void share_difference(long k1, long n1, long k2, long n2, double *lo, double *hi)
{
  if (n1 <= 0 || n2 <= 0) {
    *lo = *hi = NAN;
    return;
  }
  double l1, u1, l2, u2;
  const double p1 = (double)k1 / (double)n1, p2 = (double)k2 / (double)n2;
  share_wilson(k1, n1, &l1, &u1);
  share_wilson(k2, n2, &l2, &u2);
  *lo = p2 - p1 - sqrt((p2 - l2) * (p2 - l2) + (u1 - p1) * (u1 - p1));
  *hi = p2 - p1 + sqrt((u2 - p2) * (u2 - p2) + (p1 - l1) * (p1 - l1));
}
