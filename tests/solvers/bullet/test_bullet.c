/* test_bullet.c — Bullet's MLCP solvers as backends (solvers/bullet/): on SPD LCPs all three agree with
 * lemke; on a Stewart-Trinkle contact LCP (nonsymmetric) whatever they claim, a status converged only with
 * a residual the checker passes; bullet_pgs stops at -cp_max_it sweeps; bullet_dantzig refuses a box that
 * excludes 0. Skipped in a build without Bullet. */
#include "check.h"
#include "cp.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <petscsys.h>
#include <stdlib.h>

static const char *const bullet_names[] = {"bullet_dantzig", "bullet_lemke", "bullet_pgs"};

static void test_spd(void)
{
  struct solver *l = test_solver("lemke", 1e-10);
  struct cp_problem *p = cp_test_spd(10, 4);
  double zl[10], z[10];
  struct solve_result r;
  solver_solve(l, p, zl, &r);
  for (int k = 0; k < 3; k++) {
    struct solver *s = test_solver_with(bullet_names[k], 1e-10, OPTS("-bullet_pgs_check_every", "7"));
    solver_solve(s, p, z, &r);
    CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zl, 10) < 1e-8, "spd10: %s %s, |z - lemke's| %.2g",
          bullet_names[k], solve_status_name(r.status), max_abs_diff(z, zl, 10));
    if (k == 2) CHECK(r.iterations % 7 == 0, "bullet_pgs: sweeps in calls of 7 (%d)", r.iterations);
    solver_destroy(&s);
  }
  cp_destroy(&p);
  solver_destroy(&l);
}

static void test_claims_checked(void)
{
  struct cp_problem *p = cp_test_box_contact_gap(1, 4, 0.5, 0, 1e-3, 1e-6, 2);
  double *z = calloc((size_t)p->n, sizeof *z);
  for (int k = 0; k < 3; k++) {
    struct solver *s = test_solver(bullet_names[k], 1e-8);
    struct solve_result r;
    solver_solve(s, p, z, &r);
    CHECK(r.status != SOLVE_CONVERGED || r.residual <= 1e-8 * r.scale,
          "contact LCP n=%d: %s %s with residual %.2g (a claim the checker decides)", p->n, bullet_names[k],
          solve_status_name(r.status), r.residual);
    solver_destroy(&s);
  }
  free(z);
  cp_destroy(&p);
}

static void test_limits(void)
{
  struct cp_problem *p = cp_test_spd(30, 5);
  double z[30];
  struct solve_result r;
  struct solver *s =
      test_solver_with("bullet_pgs", 1e-14, OPTS("-cp_max_it", "3", "-bullet_pgs_check_every", "2"));
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 3, "bullet_pgs -cp_max_it 3: %s after %d sweeps",
        solve_status_name(r.status), r.iterations);
  solver_destroy(&s);
  cp_destroy(&p);
  p = cp_box_create(2);
  p->M[0] = p->M[3] = 1.0, p->lo[0] = 0.5, p->hi[0] = p->hi[1] = 1.0;
  s = test_solver("bullet_dantzig", 1e-10);
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_NOT_APPLICABLE, "bullet_dantzig, lo = 0.5: %s (%s)", solve_status_name(r.status),
        r.message);
  solver_destroy(&s);
  cp_destroy(&p);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  if (!solver_find("bullet_dantzig")) {
    check_skip("Bullet's MLCP solvers: this build has no Bullet (libbullet-dev)");
  } else {
    test_spd();
    test_claims_checked();
    test_limits();
  }
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
