/* test_fb_resting.c — fb_newton on statically indeterminate contact (solvers/newton/fb_newton.c's proximal
 * step and islands): bench_solvers' resting classes, boxes at rest on a plane with all four corners within
 * the step's reach (Stewart-Trinkle, Egan et al. eqs. 5-7), solved with the islands and without them (the
 * coupled problem, one global line search), and the plateau that the proximal step gets off (the same
 * instance without it stops at the iteration cap); sliding boxes and random SPD LCPs unchanged beside. */
#include "check.h"
#include "cp.h"
#include "problem_class.h"
#include "solver.h"
#include "solver_fixture.h"

#include <petscsys.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cls with seed through fb_newton with opts (NULL: defaults); the result, z freed. */
static struct solve_result fb_class(const char *cls, unsigned long seed, const char *const *opts, int *n)
{
  struct solve_result r;
  memset(&r, 0, sizeof r);
  r.status = SOLVE_NUMERICAL_FAILURE;
  struct cp_problem *p = NULL;
  char err[256];
  struct solver *s = test_solver_with("fb_newton", 1e-8, opts);
  if (s && cp_class_create(cls, seed, NULL, &p, err, sizeof err) == CP_CLASS_OK) {
    double *z = calloc((size_t)p->n, sizeof *z);
    if (z) solver_solve(s, p, z, &r);
    *n = p->n;
    free(z);
  }
  cp_destroy(&p);
  solver_destroy(&s);
  return r;
}

/* Every seed of cls converges within max_it Newton iterations (the largest island's count). */
static void check_class(const char *cls, int seeds, const char *const *opts, const char *how, int max_it)
{
  int ok = 0, worst = 0, n = 0;
  for (int seed = 1; seed <= seeds; seed++) {
    struct solve_result r = fb_class(cls, (unsigned long)seed, opts, &n);
    ok += r.status == SOLVE_CONVERGED && r.iterations <= max_it;
    worst = r.iterations > worst ? r.iterations : worst;
    if (r.status != SOLVE_CONVERGED || r.iterations > max_it)
      printf("# %s seed %d (%s): %s after %d iterations, residual %.2g; %s\n", cls, seed, how,
             solve_status_name(r.status), r.iterations, r.residual, r.message);
  }
  CHECK(ok == seeds, "fb_newton %s: %s (n = %d): %d of %d seeds converge within %d iterations (most %d)", how,
        cls, n, ok, seeds, max_it, worst);
}

static void test_resting(void)
{
  /* measured (cpsolve, seeds 1-6): islands 6-26 iterations per box, coupled resting600 14-30, resting120
   * 12-22; before the proximal step the coupled resting600 stopped at 200 on 5 of 6 */
  check_class("resting24", 20, NULL, "islands", 60);
  check_class("resting120", 6, NULL, "islands", 60);
  check_class("resting600", 3, NULL, "islands", 60);
  check_class("resting120", 6, OPTS("-fb_newton_islands", "0"), "coupled", 60);
  check_class("resting600", 2, OPTS("-fb_newton_islands", "0"), "coupled", 80);
  check_class("sliding120", 3, NULL, "islands", 60);
  check_class("spd100", 3, NULL, "one island", 30);
}

/* resting120 seed 6 sits on the plateau: without the proximal step it stops at the cap (residual ~4e-8
 * against 1e-8), with it it converges; the islands report their count. */
static void test_plateau(void)
{
  int n = 0;
  struct solve_result r =
      fb_class("resting120", 6, OPTS("-fb_newton_prox", "0", "-fb_newton_islands", "0"), &n);
  CHECK(r.status != SOLVE_CONVERGED,
        "fb_newton without the proximal step: resting120 seed 6 stalls (%s after %d)",
        solve_status_name(r.status), r.iterations);
  r = fb_class("resting120", 6, OPTS("-fb_newton_islands", "0"), &n);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations <= 40,
        "fb_newton with it: resting120 seed 6 converges (%s after %d: %s)", solve_status_name(r.status),
        r.iterations, r.message);
  r = fb_class("resting120", 6, NULL, &n);
  CHECK(r.status == SOLVE_CONVERGED && strstr(r.message, "5 islands (largest n = 24)") != NULL,
        "fb_newton on islands: resting120 is 5 boxes of 24 (%s: '%s')", solve_status_name(r.status),
        r.message);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_resting();
  test_plateau();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
