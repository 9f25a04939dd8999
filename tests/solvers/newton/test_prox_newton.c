/* test_prox_newton.c — the stabilized semismooth Newton (solvers/newton/prox_newton.c): random SPD LCPs,
 * Murty's example, the box-stack contact classes of bench_solvers (resting boxes, where the
 * Fischer-Burmeister Newton stops at its iteration cap, and sliding ones), a mixed LCP, the triangle drop's
 * nearly degenerate Stewart-Trinkle LCP, and the warm start (a solution on entry takes no Newton step). */
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
  test_triangle_drop();
  test_mlcp();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
