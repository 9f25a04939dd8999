/* test_fb_newton_sparse.c — fb_newton_sparse (solvers/newton/fb_newton_sparse.c: fb_newton's semismooth
 * Newton, De Luca-Facchinei-Kanzow 1996, with the Newton matrix factored by KLU) against the dense fb_newton
 * on small LCPs and mixed LCPs (random SPD, Stewart-Trinkle resting boxes whose degenerate contacts take the
 * Levenberg-Marquardt step, the synthetic sparse mixed LCP of sparse_mlcp.h, a mixed LCP with a known
 * solution), the independent checker on Siconos numerics' test files, an infeasible LCP (a failure
 * status, not a crash), -cp_max_it, and the COLAMD ordering option. */
#include "check.h"
#include "cp_io.h"
#include "problem_class.h"
#include "solver.h"
#include "solver_fixture.h"
#include "sparse_mlcp.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

/* Both solvers on p: both converge and, when the solution is unique (tol > 0), their answers agree to tol
 * (scaled by max(1, |z|)). fb_newton as the same method: one Newton run on the whole problem (no islands)
 * without its proximal step, which the sparse solver does not have. Takes p. */
static void compare(struct cp_problem *p, double tol)
{
  struct solver *dense = test_solver_with("fb_newton", 1e-10,
                                          OPTS("-fb_newton_islands", "0", "-fb_newton_prox", "0")),
                *sparse = test_solver("fb_newton_sparse", 1e-10);
  int n = p->n;
  double *z1 = calloc((size_t)n, sizeof *z1), *z2 = calloc((size_t)n, sizeof *z2);
  struct solve_result r1, r2;
  solver_solve(dense, p, z1, &r1);
  solver_solve(sparse, p, z2, &r2);
  double zmax = 1.0;
  for (int i = 0; i < n; i++)
    zmax = fmax(zmax, fabs(z1[i]));
  printf("# %s (n=%d): fb_newton %s in %d (%.4f s), fb_newton_sparse %s in %d (%.4f s)\n", p->name, n,
         solve_status_name(r1.status), r1.iterations, r1.seconds, solve_status_name(r2.status), r2.iterations,
         r2.seconds);
  CHECK(r1.status == SOLVE_CONVERGED, "fb_newton: %s converges (%s)", p->name, r1.message);
  CHECK(r2.status == SOLVE_CONVERGED, "fb_newton_sparse: %s converges (%s)", p->name, r2.message);
  if (tol > 0.0)
    CHECK(max_abs_diff(z1, z2, n) <= tol * zmax,
          "fb_newton_sparse = fb_newton on %s (max diff %.2e, |z| %.3g)", p->name, max_abs_diff(z1, z2, n),
          zmax);
  /* the same method: the iteration counts differ only by rounding in the factorizations */
  CHECK(abs(r1.iterations - r2.iterations) <= 2, "%s: iterations %d (dense) and %d (sparse)", p->name,
        r1.iterations, r2.iterations);
  free(z1);
  free(z2);
  cp_destroy(&p);
  solver_destroy(&dense);
  solver_destroy(&sparse);
}

/* A mixed LCP (2 free, 3 complementary unknowns: one active, one inactive, one degenerate) with q chosen so
 * that z = zm, w = Mz + q = wm; M + M^T is positive definite, so zm is the only solution. */
static struct cp_problem *known_mlcp(double *zm_out)
{
  static const double zm[5] = {0.7, -1.3, 0.45, 0.0, 0.0}, wm[5] = {0, 0, 0, 0.9, 0.0};
  static const double M[25] = {4,   1, 1, 0,  0,   1, 3, 0, 1, 0, -1, 0, 2,
                               0.5, 0, 0, -1, 0.5, 3, 1, 0, 0, 0, -1, 2};
  struct cp_problem *p = cp_mlcp_create(2, 3);
  for (int i = 0; i < 5; i++) {
    double mz = 0.0;
    for (int j = 0; j < 5; j++) {
      p->M[i * 5 + j] = M[i * 5 + j];
      mz += M[i * 5 + j] * zm[j];
    }
    p->q[i] = wm[i] - mz;
    zm_out[i] = zm[i];
  }
  snprintf(p->name, sizeof p->name, "known_mlcp");
  return p;
}

static void test_against_dense(void)
{
  compare(cp_test_spd(10, 7), 1e-8);
  compare(cp_test_spd(60, 8), 1e-8);
  compare(cp_test_box_contact(2, 4, 0.5, 1, 0.0, 3), 1e-7);
  /* resting boxes, every corner in contact: degenerate, Levenberg-Marquardt steps (sparse normal equations);
   * how a rigid box's weight splits over its 4 corners is not unique, so only both answers are checked */
  compare(cp_test_box_contact_gap(2, 4, 0.5, 0, 1e-3, 1e-6, 5), 0.0);
  compare(cp_test_sparse_mlcp(50, 1), 1e-8);
  compare(cp_test_sparse_mlcp(200, 2), 1e-8);
  double zm[5];
  struct cp_problem *p = known_mlcp(zm);
  struct solver *s = test_solver("fb_newton_sparse", 1e-12);
  double z[5];
  struct solve_result r;
  solver_solve(s, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zm, 5) <= 1e-9,
        "fb_newton_sparse: mixed LCP with a known solution (%s, diff %.2e)", solve_status_name(r.status),
        max_abs_diff(z, zm, 5));
  solver_destroy(&s);
  compare(p, 1e-9);
}

/* The harness's independent checker judges the answer on Siconos' files (skip without the data folder). */
static void test_siconos_files(void)
{
  const char *data = check_shared_data();
  static const char *const files[] = {"siconos/mlcp/diodeBridge20_mlcp.dat", "siconos/mlcp/Buck2_mlcp.dat",
                                      "siconos/lcp/lcp_mmc.dat", "siconos/lcp/lcp_exp_murty2.dat"};
  for (size_t k = 0; k < sizeof files / sizeof files[0]; k++) {
    if (!data) {
      check_skip("fb_newton_sparse on %s: no shared data folder", files[k]);
      continue;
    }
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/%s", data, files[k]);
    struct cp_problem *p = NULL;
    if (cp_read_file(path, CP_FILE_AUTO, &p, err, sizeof err) != 0) {
      check_skip("fb_newton_sparse on %s: %s", files[k], err);
      continue;
    }
    struct solver *s = test_solver("fb_newton_sparse", 1e-8);
    double *z = calloc((size_t)p->n, sizeof *z);
    struct solve_result r;
    solver_solve(s, p, z, &r);
    struct cp_check c;
    cp_check(p, z, NULL, &c);
    CHECK(r.status == SOLVE_CONVERGED && cp_check_passes(&c, 1e-8),
          "fb_newton_sparse: %s passes the checker (%s, natural %.2e, equality %.2e, %d iterations)",
          files[k], solve_status_name(r.status), c.natural, c.equality, r.iterations);
    free(z);
    cp_destroy(&p);
    solver_destroy(&s);
  }
}

static void test_failures(void)
{
  /* w = -z - 1 >= 0 has no z >= 0: a failure status and an answer the checker rejects, never a crash */
  struct cp_problem *p = cp_lcp_create(2);
  p->M[0] = p->M[3] = -1.0;
  p->q[0] = p->q[1] = -1.0;
  struct solver *s = test_solver("fb_newton_sparse", 1e-8);
  double z[2];
  struct solve_result r;
  int rc = solver_solve(s, p, z, &r);
  CHECK(rc == 0 && r.status != SOLVE_CONVERGED, "fb_newton_sparse: infeasible LCP ends in status %s (%s)",
        solve_status_name(r.status), r.message);
  cp_destroy(&p);
  solver_destroy(&s);

  /* -cp_max_it 3 through the typed setter: 3 iterations at most, status max_iterations */
  p = cp_test_sparse_mlcp(200, 4);
  s = test_solver_with("fb_newton_sparse", 1e-10, OPTS("-cp_max_it", "3"));
  double *zz = calloc((size_t)p->n, sizeof *zz);
  solver_solve(s, p, zz, &r);
  CHECK(s->set.max_it == 3 && r.status == SOLVE_MAX_ITERATIONS && r.iterations <= 3,
        "fb_newton_sparse: -cp_max_it 3 stops at %d iterations with status %s", r.iterations,
        solve_status_name(r.status));
  solver_destroy(&s);

  /* COLAMD instead of AMD, no block triangular form: another order, the same answer */
  s = test_solver_with("fb_newton_sparse", 1e-10,
                       OPTS("-fb_newton_sparse_ordering", "colamd", "-fb_newton_sparse_btf", "0"));
  struct solver *a = test_solver("fb_newton_sparse", 1e-10);
  double *z2 = calloc((size_t)p->n, sizeof *z2);
  struct solve_result r2;
  solver_solve(s, p, zz, &r);
  solver_solve(a, p, z2, &r2);
  CHECK(r.status == SOLVE_CONVERGED && r2.status == SOLVE_CONVERGED && max_abs_diff(zz, z2, p->n) <= 1e-9,
        "fb_newton_sparse: COLAMD without BTF and AMD with it agree (diff %.2e)", max_abs_diff(zz, z2, p->n));
  solver_destroy(&s);
  solver_destroy(&a);

  /* lm_below 1.5 > every step length: the Levenberg-Marquardt step (the augmented system [I H; H^T -lambda
   * D]) is tried at every iteration beside the Newton step; the dense solver the same way
   */
  s = test_solver_with("fb_newton_sparse", 1e-10, OPTS("-fb_newton_sparse_lm_below", "1.5"));
  a = test_solver_with("fb_newton", 1e-10, OPTS("-fb_newton_lm_below", "1.5"));
  solver_solve(s, p, zz, &r);
  solver_solve(a, p, z2, &r2);
  CHECK(r.status == SOLVE_CONVERGED && r2.status == SOLVE_CONVERGED && max_abs_diff(zz, z2, p->n) <= 1e-8,
        "Levenberg-Marquardt tried at every step: sparse %s in %d, dense %s in %d (diff %.2e)",
        solve_status_name(r.status), r.iterations, solve_status_name(r2.status), r2.iterations,
        max_abs_diff(zz, z2, p->n));
  free(zz);
  free(z2);
  cp_destroy(&p);
  solver_destroy(&s);
  solver_destroy(&a);
}

/* The class sparse_mlcpN: valid, seeded, size N, n / 5 bodies of 3 free unknowns, O(N) nonzeros, the same
 * instance for the same seed. */
static void test_class(void)
{
  struct cp_problem *a = NULL, *b = NULL;
  char err[256];
  CHECK(cp_class_valid("sparse_mlcp100") && cp_class_random("sparse_mlcp100") &&
            cp_class_size("sparse_mlcp100", NULL) == 100 && !cp_class_valid("sparse_mlcp"),
        "sparse_mlcpN: a valid random class of size N");
  cp_class_create("sparse_mlcp100", 3, NULL, &a, err, sizeof err);
  cp_class_create("sparse_mlcp100", 3, NULL, &b, err, sizeof err);
  int nnz = 0;
  for (int k = 0; a && k < 100 * 100; k++)
    nnz += a->M[k] != 0.0;
  CHECK(a && b && a->kind == CP_MLCP && a->n == 100 && a->n_eq == 60 && nnz <= 20 * 100 &&
            cp_data_max_diff(a, b->M, b->q) == 0.0,
        "sparse_mlcp100: mixed LCP, 60 free unknowns, %d nonzeros, the same for the same seed", nnz);
  cp_destroy(&a);
  cp_destroy(&b);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_against_dense();
  test_siconos_files();
  test_failures();
  test_class();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
