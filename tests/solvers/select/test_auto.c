/* test_auto.c — the automatic choice (solvers/select/auto.c): a small symmetric problem goes to dantzig (its
 * pivots and z), a large one and a nonsymmetric one to lemke (after dantzig's not_applicable, said in the
 * message), -auto_pivoting_max_n 0 sends everything to lemke, and -cp_max_it reaches the method. */
#include "check.h"
#include "cp.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* Solves p with auto and with name; 1 when the pivots and z agree. */
static int same_as(struct solver *a, const char *name, const struct cp_problem *p, struct solve_result *ra)
{
  struct solver *s = test_solver(name, 1e-10);
  double *za = calloc((size_t)p->n, sizeof *za), *zs = calloc((size_t)p->n, sizeof *zs);
  struct solve_result rs;
  solver_solve(a, p, za, ra);
  solver_solve(s, p, zs, &rs);
  int same =
      ra->status == SOLVE_CONVERGED && ra->iterations == rs.iterations && max_abs_diff(za, zs, p->n) == 0.0;
  free(za);
  free(zs);
  solver_destroy(&s);
  return same;
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  struct solver *a = test_solver("auto", 1e-10);
  struct solve_result r;
  struct cp_problem *p = cp_test_spd(12, 3);
  CHECK(same_as(a, "dantzig", p, &r), "spd12: auto is dantzig (%s, %d pivots)", solve_status_name(r.status),
        r.iterations);
  cp_destroy(&p);
  p = cp_test_spd(130, 3);
  CHECK(same_as(a, "lemke", p, &r), "spd130 (above the crossover): auto is lemke (%d pivots)", r.iterations);
  cp_destroy(&p);
  p = cp_test_box_contact_gap(1, 4, 0.5, 0, 1e-3, 1e-6, 2);
  CHECK(same_as(a, "lemke", p, &r) && strstr(r.message, "lemke after dantzig's not_applicable"),
        "contact LCP n=%d (nonsymmetric): %s by lemke (%s)", p->n, solve_status_name(r.status), r.message);
  solver_destroy(&a);
  a = test_solver_with("auto", 1e-10, OPTS("-auto_pivoting_max_n", "0"));
  cp_destroy(&p);
  p = cp_test_spd(12, 3);
  CHECK(same_as(a, "lemke", p, &r), "-auto_pivoting_max_n 0: spd12 by lemke (%d pivots)", r.iterations);
  solver_destroy(&a);
  a = test_solver_with("auto", 1e-10, OPTS("-cp_max_it", "2"));
  double z[12];
  solver_solve(a, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 2,
        "-cp_max_it 2 is the limit of both methods together: %s after %d", solve_status_name(r.status),
        r.iterations);
  cp_destroy(&p);
  solver_destroy(&a);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
