/* test_implicit_scaling.c — Ruiz's equilibration of the geometrically implicit step's Jacobian
 * (implicit_scaling.h): every scale a power of two, each row's and column's largest entry brought near 1,
 * a legitimately small column scaled with the rest, and a column whose only entry is round-off beside the
 * matrix's largest (a contact's sigma while its friction impulse is ~1e-20 N s) left at the scale 1, so the
 * bound lo / C <= y keeps its units (scaled by 2^60, a sigma of -0.277 m/s passed as -2.4e-19). */
#include "check.h"
#include "implicit_scaling.h"

#include <math.h>
#include <string.h>

enum { N = 4 };

static int power_of_two(double a)
{
  int e;
  return a > 0.0 && frexp(a, &e) == 0.5;
}

int main(void)
{
  /* rows and columns of very different sizes; column 2's one entry is 1e-6 (legitimately small), column
   * 3's is 1e-20 beside entries of 4e3 (below the floor N eps 4e3 = 2e-12) */
  const double J[N * N] = {4e3, 2.0,  1e-6, 0.0,   //
                           1.0, 1e-3, 0.0,  1e-20, //
                           0.0, 5.0,  0.0,  0.0,   //
                           3e2, 0.0,  0.0,  0.0};
  struct implicit_scaling sc;
  memset(&sc, 0, sizeof sc);
  if (implicit_scaling_set(&sc, N, J)) return CHECK(0, "scaling computed"), check_finish();
  int pow2 = 1;
  for (int i = 0; i < N; i++)
    pow2 = pow2 && power_of_two(sc.r[i]) && power_of_two(sc.c[i]);
  CHECK(pow2, "every row and column scale is a power of two");
  double row[N] = {0}, col[N] = {0};
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      const double a = fabs(sc.r[i] * J[i * N + j] * sc.c[j]);
      if (j != 3) row[i] = fmax(row[i], a);
      col[j] = fmax(col[j], a);
    }
  int near_one = 1;
  for (int i = 0; i < N; i++)
    near_one = near_one && row[i] > 0.1 && row[i] < 10.0;
  for (int j = 0; j < 3; j++)
    near_one = near_one && col[j] > 0.1 && col[j] < 10.0;
  CHECK(near_one, "each row's and column's largest entry within [0.1, 10] after the sweeps");
  CHECK(sc.c[2] > 1e3, "the small column (1e-6) is scaled up with the rest (c %g)", sc.c[2]);
  CHECK(sc.c[3] == 1.0, "the round-off column (1e-20) keeps the scale 1 (c %g)", sc.c[3]);
  double lo[N] = {-1, -1, -1, -1}, hi[N] = {1, 1, 1, 1};
  implicit_scaling_bounds(&sc, lo, hi);
  CHECK(lo[3] == -1.0 && hi[3] == 1.0, "its bounds keep their units");
  const double y[N] = {1, 1, 1, 1};
  double z[N];
  const double *zz = implicit_scaling_unscale(&sc, y, z);
  CHECK(zz[0] == sc.c[0] && zz[3] == 1.0, "unscaling multiplies by C (z_0 %g, z_3 %g)", zz[0], zz[3]);
  implicit_scaling_free(&sc);
  return check_finish();
}
