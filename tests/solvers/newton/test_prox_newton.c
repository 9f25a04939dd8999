/* test_prox_newton.c — the stabilized semismooth Newton (solvers/newton/prox_newton.c): random SPD LCPs,
 * Murty's example, the box-stack contact classes of bench_solvers (resting boxes, where the
 * Fischer-Burmeister Newton stops at its iteration cap, and sliding ones), a mixed LCP, the triangle drop's
 * nearly degenerate Stewart-Trinkle LCP, the warm start (a solution on entry takes no Newton step), and the
 * islands (-prox_newton_islands: independent boxes solved one by one, also in path_crash's crash). */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "problem_class.h"
#include "solver.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static struct solve_result run(const char *name, const struct cp_problem *p, double *z, int warm)
{
  struct solver *s = NULL;
  struct solve_result r;
  memset(&r, 0, sizeof r);
  r.status = SOLVE_NUMERICAL_FAILURE;
  if (solver_create(name, &s, NULL, 0) != 0) return r;
  s->set.warm_start = warm;
  solver_solve(s, p, z, &r);
  solver_destroy(&s);
  return r;
}

/* Every seed of a class solved to the tolerance; returns the number solved. */
static int solve_class(const char *cls, int seeds, int *iters)
{
  int ok = 0;
  *iters = 0;
  for (int seed = 0; seed < seeds; seed++) {
    struct cp_problem *p = NULL;
    char err[256];
    if (cp_class_create(cls, (unsigned long)seed + 1, NULL, &p, err, sizeof err) != CP_CLASS_OK) continue;
    double *z = calloc((size_t)p->n, sizeof *z);
    struct solve_result r = run("prox_newton", p, z, 0);
    ok += r.status == SOLVE_CONVERGED;
    *iters += r.iterations;
    if (r.status != SOLVE_CONVERGED)
      printf("# %s seed %d: %s after %d iterations, residual %.2g; %s\n", cls, seed + 1,
             solve_status_name(r.status), r.iterations, r.residual, r.message);
    free(z);
    cp_destroy(&p);
  }
  return ok;
}

static void test_classes(void)
{
  static const struct {
    const char *cls;
    int seeds, need;
  } cases[] = {{"spd100", 5, 5},     {"murty10", 1, 1},   {"resting24", 5, 5},
               {"resting120", 5, 5}, {"sliding24", 5, 5}, {"sliding120", 5, 5}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int iters = 0, ok = solve_class(cases[c].cls, cases[c].seeds, &iters);
    CHECK(ok >= cases[c].need, "%s: %d of %d seeds solved (need %d), %d Newton steps in all", cases[c].cls,
          ok, cases[c].seeds, cases[c].need, iters);
  }
}

/* cls seed through solver name with islands on or off (-prox_newton_islands, which path_crash's crash reads)
 */
static struct solve_result run_islands(const char *name, const char *cls, unsigned long seed, int islands)
{
  struct solver *s = NULL;
  struct cp_problem *p = NULL;
  struct solve_result r = {.status = SOLVE_NUMERICAL_FAILURE};
  char err[256];
  if (solver_create(name, &s, NULL, 0) == 0 &&
      solver_set_option(s, "-prox_newton_islands", islands ? "1" : "0", err, sizeof err) == 0 &&
      cp_class_create(cls, seed, NULL, &p, err, sizeof err) == CP_CLASS_OK) {
    double *z = calloc((size_t)p->n, sizeof *z);
    if (z) solver_solve(s, p, z, &r);
    free(z);
  }
  cp_destroy(&p);
  solver_destroy(&s);
  return r;
}

/* resting120 / resting600 are 5 / 25 independent boxes: with islands each is its own run (the iterations
 * are the largest island's); both ways converge. The speed (islands 0.27x / 0.018x the coupled run's time on
 * resting120 / 600) is bench_solvers', results/reference/README.md. */
static void test_islands(void)
{
  static const struct {
    const char *cls, *message;
  } cases[] = {{"resting120", "5 islands (largest n = 24)"}, {"resting600", "25 islands (largest n = 24)"}};
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int ok = 0, named = 0;
    for (unsigned long seed = 1; seed <= 3; seed++) {
      struct solve_result ri = run_islands("prox_newton", cases[c].cls, seed, 1),
                          rc = run_islands("prox_newton", cases[c].cls, seed, 0);
      ok += ri.status == SOLVE_CONVERGED && rc.status == SOLVE_CONVERGED;
      named += strstr(ri.message, cases[c].message) != NULL;
    }
    CHECK(ok == 3 && named == 3, "prox_newton islands: %s, 3 seeds converge with and without, '%s' (%d, %d)",
          cases[c].cls, cases[c].message, ok, named);
  }
  int ok = 0;
  for (unsigned long seed = 1; seed <= 3; seed++)
    ok += run_islands("path_crash", "resting600", seed, 1).status == SOLVE_CONVERGED;
  CHECK(ok == 3, "path_crash with the crash's islands: resting600, %d of 3 seeds converge", ok);
}

static void test_triangle_drop(void)
{
  const char *path = "tests/data/lemke_triangle_drop_stewart_trinkle_h0.003.txt";
  char err[256];
  struct cp_problem *p = NULL;
  if (cp_read_file(path, CP_FILE_PLAIN, &p, err, sizeof err) != 0) {
    CHECK(0, "%s: %s", path, err);
    return;
  }
  double z[8] = {0};
  struct solve_result r = run("prox_newton", p, z, 0);
  CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-8 * r.scale, "triangle drop LCP: %s, residual %.2g",
        solve_status_name(r.status), r.residual);
  /* warm start from the answer: no Newton step is needed */
  r = run("prox_newton", p, z, 1);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == 0, "warm start at the solution: %s after %d steps",
        solve_status_name(r.status), r.iterations);
  cp_destroy(&p);
}

/* Mixed LCP: u free with u - v = 1 (so u = 1 + v), 0 <= v perp u + 2 v - 4 >= 0: v = 1, u = 2. */
static void test_mlcp(void)
{
  struct cp_problem *p = cp_mlcp_create(1, 1);
  const double M[4] = {1, -1, 1, 2}, q[2] = {-1, -4};
  memcpy(p->M, M, sizeof M);
  memcpy(p->q, q, sizeof q);
  double z[2] = {0, 0};
  struct solve_result r = run("prox_newton", p, z, 0);
  CHECK(r.status == SOLVE_CONVERGED && fabs(z[0] - 2.0) < 1e-7 && fabs(z[1] - 1.0) < 1e-7,
        "mixed LCP: %s, z = (%g, %g) (expect (2, 1))", solve_status_name(r.status), z[0], z[1]);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_classes();
  test_islands();
  test_triangle_drop();
  test_mlcp();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
