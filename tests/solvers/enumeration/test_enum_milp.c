/* test_enum_milp.c — the exact solvers: `enum` (solvers/enumeration/enum.c, all complementary basic
 * solutions) and `milp` (solvers/enumeration/milp.c, big-M MILP with GLPK) on LCPs with known solution sets:
 * two isolated solutions, three, a continuum (z1 + z2 = 1, reported by its vertices), a solution reachable
 * only through a singular basis, an SPD LCP, a mixed LCP, and infeasible ones; the -enum_max_n refusal and
 * -milp_objective. */
#include "check.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static struct cp_problem *lcp2(double m00, double m01, double m10, double m11, double q0, double q1)
{
  struct cp_problem *p = cp_lcp_create(2);
  p->M[0] = m00, p->M[1] = m01, p->M[2] = m10, p->M[3] = m11;
  p->q[0] = q0, p->q[1] = q1;
  return p;
}

/* 1 if r holds a solution within tol of want (n entries) */
static int has_solution(const struct solve_result *r, int n, const double *want, double tol)
{
  for (int k = 0; k < r->n_solutions; k++) {
    double diff = 0.0;
    for (int i = 0; i < n; i++)
      diff = fmax(diff, fabs(r->solutions[(size_t)k * n + i] - want[i]));
    if (diff <= tol) return 1;
  }
  return 0;
}

static void test_enum_small(void)
{
  struct solver *e = test_solver("enum", 0.0);
  double z[2];
  struct solve_result r;
  /* exactly two solutions: (0, 0) and (0.8, 0) */
  struct cp_problem *p = lcp2(-1.0, 0.5, 0.25, 2.0, 0.8, 0.3);
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && r.n_solutions == 2,
        "enum: two-solution LCP gives 2 solutions (%s, %d)", solve_status_name(r.status), r.n_solutions);
  CHECK(has_solution(&r, 2, (double[]){0, 0}, 1e-12) && has_solution(&r, 2, (double[]){0.8, 0}, 1e-12),
        "enum: both known solutions found");
  CHECK(z[0] == 0.0 && z[1] == 0.0, "enum: returns the least-norm solution (%g, %g)", z[0], z[1]);
  cp_destroy(&p);
  /* three: (1, 0), (0, 1), (1/3, 1/3) */
  p = lcp2(1, 2, 2, 1, -1, -1);
  solver_solve(e, p, z, &r);
  CHECK(r.n_solutions == 3 && has_solution(&r, 2, (double[]){1.0 / 3.0, 1.0 / 3.0}, 1e-12),
        "enum: M = [1 2; 2 1], q = -e has 3 solutions (%d)", r.n_solutions);
  cp_destroy(&p);
  /* a continuum z1 + z2 = 1 (M = ones): the singular basis {1, 2} is skipped, the vertices reported */
  p = lcp2(1, 1, 1, 1, -1, -1);
  solver_solve(e, p, z, &r);
  CHECK(r.n_solutions == 2 && has_solution(&r, 2, (double[]){1, 0}, 1e-12) &&
            has_solution(&r, 2, (double[]){0, 1}, 1e-12),
        "enum: the segment z1 + z2 = 1 is reported by its 2 vertices (%d)", r.n_solutions);
  cp_destroy(&p);
  /* only a singular face holds solutions: M = [0 1; 0 0], q = (-1, 0), z = (0, t), t >= 1 */
  p = lcp2(0, 1, 0, 0, -1, 0);
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && z[0] == 0.0 && z[1] >= 1.0 - 1e-12,
        "enum: a solution only on a singular face is found by the LP (%s, z = %g, %g)",
        solve_status_name(r.status), z[0], z[1]);
  cp_destroy(&p);
  /* infeasible: w1 + w2 = -1 whatever z is; M singular, so the LP decides the singular bases */
  p = lcp2(1, -1, -1, 1, 1, -2);
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_INFEASIBLE && r.n_solutions == 0, "enum: infeasible LCP is infeasible (%s: %s)",
        solve_status_name(r.status), r.message);
  cp_destroy(&p);
  p = lcp2(2, 1, 1, -1, 1, -1); /* regular bases only, none feasible */
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_INFEASIBLE, "enum: second infeasible LCP (%s: %s)", solve_status_name(r.status),
        r.message);
  cp_destroy(&p);
  solver_destroy(&e);
}

static void test_enum_spd_and_limits(void)
{
  struct solver *e = test_solver("enum", 0.0), *fb = test_solver("fb_newton", 0.0);
  fb->set.tol = 1e-12;
  struct cp_problem *p = cp_test_spd(12, 4242);
  double z[21], zf[21];
  struct solve_result r, rf;
  solver_solve(e, p, z, &r);
  solver_solve(fb, p, zf, &rf);
  double diff = 0.0;
  for (int i = 0; i < 12; i++)
    diff = fmax(diff, fabs(z[i] - zf[i]));
  CHECK(r.status == SOLVE_CONVERGED && r.n_solutions == 1, "enum: SPD n=12 has exactly one solution (%d)",
        r.n_solutions);
  CHECK(r.iterations == 4096, "enum: tried all 2^12 bases (%d)", r.iterations);
  CHECK(diff <= 1e-10, "enum: agrees with fb_newton on SPD n=12 (%.2e)", diff);
  cp_destroy(&p);
  p = cp_test_spd(21, 1);
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_NOT_APPLICABLE && strstr(r.message, "-enum_max_n"),
        "enum: m = 21 above the default limit 20 is refused (%s: %s)", solve_status_name(r.status),
        r.message);
  cp_destroy(&p);
  solver_destroy(&e);
  e = test_solver_with("enum", 0.0, OPTS("-enum_max_n", "4"));
  p = cp_test_spd(5, 2);
  solver_solve(e, p, z, &r);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "enum: -enum_max_n 4 refuses m = 5 (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
  /* mixed LCP: the free unknowns are basic in every one of the 2^m sets (here m = 4 <= 4) */
  p = cp_mlcp_create(2, 4);
  const double zs[6] = {0.3, -0.8, 0.0, 1.25, 0.0, 0.5}, ws[6] = {0, 0, 0.7, 0, 0.2, 0};
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      p->M[i * 6 + j] = (i == j ? 2.5 : 0.0) + 0.3 * sin(1.0 + i + 2.0 * j);
  for (int i = 0; i < 6; i++) {
    p->q[i] = ws[i];
    for (int j = 0; j < 6; j++)
      p->q[i] -= p->M[i * 6 + j] * zs[j];
  }
  solver_solve(e, p, z, &r);
  diff = 0.0;
  for (int i = 0; i < 6; i++)
    diff = fmax(diff, fabs(z[i] - zs[i]));
  CHECK(r.status == SOLVE_CONVERGED && diff <= 1e-12 && r.iterations == 16,
        "enum: mixed LCP known solution (%s, diff %.2e, %d bases)", solve_status_name(r.status), diff,
        r.iterations);
  struct solver *mi = test_solver("milp", 0.0);
  solver_solve(mi, p, zf, &rf);
  diff = 0.0;
  for (int i = 0; i < 6; i++)
    diff = fmax(diff, fabs(zf[i] - zs[i]));
  CHECK(rf.status == SOLVE_CONVERGED && diff <= 1e-10, "milp: mixed LCP known solution (%s, diff %.2e)",
        solve_status_name(rf.status), diff);
  cp_destroy(&p);
  solver_destroy(&mi);
  solver_destroy(&e);
  solver_destroy(&fb);
}

static void test_milp(void)
{
  struct solver *mi = test_solver("milp", 0.0), *fb = test_solver("fb_newton", 0.0);
  fb->set.tol = 1e-12;
  struct cp_problem *p = cp_test_spd(10, 77);
  double z[10], zf[10];
  struct solve_result r, rf;
  solver_solve(mi, p, z, &r);
  solver_solve(fb, p, zf, &rf);
  double diff = 0.0;
  for (int i = 0; i < 10; i++)
    diff = fmax(diff, fabs(z[i] - zf[i]));
  CHECK(r.status == SOLVE_CONVERGED, "milp: SPD n=10 converges (%s: %s)", solve_status_name(r.status),
        r.message);
  CHECK(r.residual <= 1e-12, "milp: polished SPD solution is exact (residual %.2e)", r.residual);
  CHECK(diff <= 1e-10, "milp: agrees with fb_newton on SPD n=10 (%.2e)", diff);
  cp_destroy(&p);
  p = lcp2(1, -1, -1, 1, 1, -2);
  solver_solve(mi, p, z, &r);
  CHECK(r.status == SOLVE_INFEASIBLE && strstr(r.message, "U = 1000"),
        "milp: infeasible LCP proved infeasible within the bound (%s: %s)", solve_status_name(r.status),
        r.message);
  cp_destroy(&p);
  /* a solution beyond the bound is out of reach: z = 5000 */
  p = lcp2(1, 0, 0, 1, -5000, 1);
  solver_solve(mi, p, z, &r);
  CHECK(r.status == SOLVE_INFEASIBLE,
        "milp: solution beyond -milp_bound is reported infeasible within it (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
  /* the two-solution LCP: max_sum picks (0.8, 0), min_sum (0, 0) */
  p = lcp2(-1.0, 0.5, 0.25, 2.0, 0.8, 0.3);
  solver_destroy(&mi);
  mi = test_solver_with("milp", 0.0, OPTS("-milp_objective", "max_sum"));
  solver_solve(mi, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && fabs(z[0] - 0.8) <= 1e-12, "milp: max_sum selects (0.8, 0) (z0 = %g)",
        z[0]);
  solver_destroy(&mi);
  mi = test_solver_with("milp", 0.0, OPTS("-milp_objective", "min_sum"));
  solver_solve(mi, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && z[0] == 0.0 && z[1] == 0.0, "milp: min_sum selects (0, 0)");
  p->M[1] = NAN;
  solver_solve(mi, p, z, &r);
  CHECK(r.status == SOLVE_NAN_OR_INF, "milp: NaN in M is nan_or_inf, never handed to GLPK (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
  solver_destroy(&mi);
  solver_destroy(&fb);
}

/* -cp_time_limit: enum on 2^20 bases and GLPK on a 60-unknown big-M MIP both outlast 0.2 s here. */
static void test_time_limits(void)
{
  const char *names[2] = {"enum", "milp"};
  const int sizes[2] = {20, 60};
  for (int k = 0; k < 2; k++) {
    struct solver *s = test_solver(names[k], 0.0);
    s->set.time_limit = 0.2;
    struct cp_problem *p = cp_test_spd(sizes[k], 5);
    double z[60];
    struct solve_result r;
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_TIME_LIMIT && r.seconds < 2.0, "%s: honours -cp_time_limit 0.2 (%s after %.2f s)",
          names[k], solve_status_name(r.status), r.seconds);
    cp_destroy(&p);
    solver_destroy(&s);
  }
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_enum_small();
  test_enum_spd_and_limits();
  test_milp();
  test_time_limits();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
