/* solver_fixture.c — the solver tests' shared set-up (solver_fixture.h). */
#include "solver_fixture.h"

#include <math.h>

struct solver *test_solver(const char *name, double tol)
{
  struct solver *s = NULL;
  if (solver_create(name, &s, NULL, 0) != 0) return NULL;
  solver_set_from_options(s, NULL, NULL, 0);
  if (tol > 0.0) s->set.tol = tol;
  return s;
}

double max_abs_diff(const double *a, const double *b, int n)
{
  double m = 0.0;
  for (int i = 0; i < n; i++) {
    double e = fabs(a[i] - b[i]);
    if (!(e <= m)) m = e;
  }
  return m;
}
