/* test_auto.c — the automatic choice (solvers/select/auto.c): a small symmetric problem and a small
 * nonsymmetric one with a positive diagonal (PEG 2D's LNC rows) go to dantzig (its pivots and z), a large one
 * and a contact LCP with zero diagonal entries to lemke (after dantzig's not_applicable, said in the
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
  int same;
  struct cp_problem *p = cp_test_spd(12, 3);
  same = same_as(a, "dantzig", p, &r); /* before the message reads r */
  CHECK(same, "spd12: auto is dantzig (%s, %d pivots)", solve_status_name(r.status), r.iterations);
  cp_destroy(&p);
  p = cp_test_spd(130, 3);
  same = same_as(a, "lemke", p, &r); /* before the message reads r */
  CHECK(same, "spd130 (above the crossover): auto is lemke (%d pivots)", r.iterations);
  cp_destroy(&p);
  /* rows 0, 9, 10 of PEG 2D's LNC problem peg_box2d_task4_step175 (the corpus): M nonsymmetric, a P-matrix */
  p = cp_lcp_create(3);
  static const double lnc[9] = {5.191136, 0.336493, 0, 0.336493, 8.323904, 1, 4.950835, 3.477412, 1};
  for (int i = 0; i < 9; i++)
    p->M[i] = lnc[i];
  p->q[0] = -0.078319, p->q[1] = -0.5, p->q[2] = 0.2;
  same = same_as(a, "dantzig", p, &r); /* before the message reads r */
  CHECK(same && !strstr(r.message, "lemke"),
        "nonsymmetric P-matrix n = 3 (PEG 2D LNC rows): auto is dantzig (%s, %d pivots)",
        solve_status_name(r.status), r.iterations);
  cp_destroy(&p);
  p = cp_test_box_contact_gap(1, 4, 0.5, 0, 1e-3, 1e-6, 2);
  same = same_as(a, "lemke", p, &r); /* before the message reads r */
  CHECK(same && strstr(r.message, "lemke after dantzig's not_applicable"),
        "contact LCP n=%d (nonsymmetric): %s by lemke (%s)", p->n, solve_status_name(r.status), r.message);
  solver_destroy(&a);
  a = test_solver_with("auto", 1e-10, OPTS("-auto_pivoting_max_n", "0"));
  cp_destroy(&p);
  p = cp_test_spd(12, 3);
  same = same_as(a, "lemke", p, &r); /* before the message reads r */
  CHECK(same, "-auto_pivoting_max_n 0: spd12 by lemke (%d pivots)", r.iterations);
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
