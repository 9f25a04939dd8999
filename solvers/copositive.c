/* copositive.c — a cheap witness that a matrix is not copositive (copositive.h). */
#include "copositive.h"

#include <math.h>
#include <stddef.h>

int cp_not_copositive(const double *M, int n, int *wi, int *wj)
{
  for (int i = 0; i < n; i++) {
    double a = M[(size_t)i * n + i];
    if (a < 0.0) return *wi = *wj = i, 1;
    for (int j = i + 1; j < n; j++) {
      double c = M[(size_t)j * n + j], b = M[(size_t)i * n + j] + M[(size_t)j * n + i];
      if (c >= 0.0 && b < -2.0 * sqrt(a * c) * (1.0 + 1e-12)) return *wi = i, *wj = j, 1;
    }
  }
  return 0;
}
