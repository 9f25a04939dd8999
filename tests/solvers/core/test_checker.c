/* test_checker.c — the independent checker (solvers/core/cp.c) and the harness's verdicts
 * (solvers/core/solver.c): natural-map residuals of known points, NaN never converged, equality residual of a
 * mixed LCP, unknown solver names refused, a non-positive diagonal refused by PGS. */
#include "check.h"
#include "cp.h"
#include "solver.h"

#include <math.h>
#include <petscsys.h>
#include <string.h>

static void test_lcp_residual(void)
{
  /* M = [2 1; 1 2], q = [-5, -6]: solution z = (4/3, 7/3), w = 0. */
  struct cp_problem *p = cp_lcp_create(2);
  double M[4] = {2, 1, 1, 2}, q[2] = {-5, -6};
  for (int i = 0; i < 4; i++)
    p->M[i] = M[i];
  p->q[0] = q[0];
  p->q[1] = q[1];
  struct cp_check c;
  double z[2] = {4.0 / 3.0, 7.0 / 3.0};
  cp_check(p, z, NULL, &c);
  CHECK_CLOSE(c.natural, 0.0, 1e-14, "checker: exact LCP solution has zero residual");
  CHECK_CLOSE(c.scale, 6.0, 0.0, "checker: scale is max(1, ||q||_inf)");
  double z0[2] = {0, 0};
  cp_check(p, z0, NULL, &c);
  CHECK_CLOSE(c.natural, 6.0, 1e-14, "checker: residual at z = 0 is ||min(0, q)||_inf");
  double zneg[2] = {-1, 7.0 / 3.0 + 1.0};
  cp_check(p, zneg, NULL, &c);
  CHECK(c.natural >= 1.0, "checker: a negative z is penalised (residual %g)", c.natural);
  double znan[2] = {NAN, 1};
  cp_check(p, znan, NULL, &c);
  CHECK(c.nonfinite && !cp_check_passes(&c, 1e-3), "checker: NaN in z is never converged");
  p->M[1] = NAN;
  cp_check(p, z, NULL, &c);
  CHECK(c.nonfinite && !cp_check_passes(&c, 1e30), "checker: NaN in M is never converged");
  cp_destroy(&p);
  /* a huge z on a row whose w stays -1 (a solver stopped at a stand-in for an infinite bound): z - w rounds
   * to z, so the residual must be computed without forming it */
  p = cp_lcp_create(1);
  p->M[0] = 0.0, p->q[0] = -1.0;
  double zbig = 1e18;
  cp_check(p, &zbig, NULL, &c);
  CHECK(c.natural == 1.0 && !cp_check_passes(&c, 1e-8),
        "checker: z = 1e18 with w = -1 has residual %g, not 0", c.natural);
  cp_destroy(&p);
}

static void test_mlcp_residual(void)
{
  /* u free, v >= 0: u - v - 1 = 0 ; 0 <= v perp u + v >= 0  ->  u = 1, v = 0. */
  struct cp_problem *p = cp_mlcp_create(1, 1);
  p->M[0] = 1;
  p->M[1] = -1;
  p->M[2] = 1;
  p->M[3] = 1;
  p->q[0] = -1;
  struct cp_check c;
  double z[2] = {1, 0};
  cp_check(p, z, NULL, &c);
  CHECK_CLOSE(c.natural + c.equality, 0.0, 1e-15, "checker: mixed LCP solution has zero residuals");
  double zb[2] = {1.5, 0};
  cp_check(p, zb, NULL, &c);
  CHECK_CLOSE(c.equality, 0.5, 1e-15, "checker: equality residual of a mixed LCP");
  CHECK(p->lo[0] == -INFINITY && p->lo[1] == 0.0, "mlcp: free block first, then complementary");
  cp_destroy(&p);
}

static void test_harness(void)
{
  struct solver *s = NULL;
  CHECK(solver_create("no_such_solver", &s, NULL, 0) != 0 && s == NULL, "registry: unknown name is refused");
  CHECK(solver_create("pgs", &s, NULL, 0) == 0 && s, "registry: pgs is found");
  struct cp_problem *p = cp_lcp_create(2);
  p->M[0] = 0.0; /* zero diagonal */
  p->M[3] = 1.0;
  p->q[0] = -1.0;
  double z[2];
  struct solve_result r;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "pgs: zero diagonal gives not_applicable (got %s)",
        solve_status_name(r.status));
  p->M[0] = 2.0;
  p->M[1] = 1.0;
  p->M[2] = 1.0;
  p->M[3] = 2.0;
  p->q[0] = -5.0;
  p->q[1] = -6.0;
  s->set.tol = 1e-12;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED, "pgs: converges on a 2x2 SPD LCP (%s)", solve_status_name(r.status));
  CHECK_CLOSE(z[0], 4.0 / 3.0, 1e-10, "pgs: z0");
  CHECK_CLOSE(z[1], 7.0 / 3.0, 1e-10, "pgs: z1");
  CHECK(r.residual <= 1e-12 * 6.0, "harness: residual %g within tol x scale", r.residual);
  s->set.max_it = 2;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 2, "pgs: honours -cp_max_it (%s after %d)",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  CHECK(s == NULL, "solver_destroy NULLs the pointer");
  solver_destroy(&s);
  cp_destroy(&p);
}

/* Badly scaled data: with ||q||_inf = 3e271 a tolerance relative to ||q|| would accept a residual of
 * 2e162; the scale is capped at CP_SCALE_MAX, so it does not, while a normal problem keeps max(1, ||q||). */
static void test_scale_cap(void)
{
  struct cp_problem *p = cp_lcp_create(2);
  p->M[0] = p->M[3] = 1.0;
  p->q[0] = -3e271;
  p->q[1] = -1.0;
  struct cp_check c;
  double zbad[2] = {3e271, 2e162}; /* w_2 = 2e162 - 1 beside z_2 = 2e162: residual 2e162 */
  cp_check(p, zbad, NULL, &c);
  CHECK_CLOSE(c.natural, 2e162, 1e150, "scale cap: residual of the bad point is 2e162");
  CHECK(c.scale == CP_SCALE_MAX && c.data_scale == 3e271, "scale cap: scale %g (data %g)", c.scale,
        c.data_scale);
  CHECK(!cp_check_passes(&c, 1e-8), "scale cap: a residual of 2e162 with ||q|| = 3e271 is not converged");
  double zgood[2] = {3e271, 1.0};
  cp_check(p, zgood, NULL, &c);
  CHECK(cp_check_passes(&c, 1e-8), "scale cap: the exact solution still is (residual %g)", c.natural);
  struct solver *s = NULL;
  CHECK(solver_create("psor", &s, NULL, 0) == 0 && s, "registry: psor is found");
  s->set.max_it = 17; /* psor's iterate after 17 sweeps has residual ~4e262: "converged" without the cap */
  double z[2];
  struct solve_result r;
  solver_solve(s, p, z, &r);
  CHECK(r.status != SOLVE_CONVERGED && r.residual > 1.0,
        "harness: badly scaled psor iterate not converged (%s, %g)", solve_status_name(r.status), r.residual);
  CHECK(r.scale == CP_SCALE_MAX && r.data_scale == 3e271, "harness: reports capped %g and data scale %g",
        r.scale, r.data_scale);
  CHECK(strstr(r.message, "badly scaled") != NULL, "harness: the message says badly scaled ('%s')",
        r.message);
  p->q[0] = -5.0; /* a normal problem: scale max(1, ||q||) as before */
  s->set.max_it = 0;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && r.scale == 5.0 && r.data_scale == 5.0 && !strstr(r.message, "badly"),
        "harness: normal scale unchanged (%s, scale %g)", solve_status_name(r.status), r.scale);
  solver_destroy(&s);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_lcp_residual();
  test_mlcp_residual();
  test_harness();
  test_scale_cap();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
