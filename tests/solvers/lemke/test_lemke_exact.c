/* test_lemke_exact.c — Lemke in exact rational arithmetic (solvers/lemke/lemke_exact.c) and lemke's exact end
 * game
 * (-lemke_exact_max_n, solvers/lemke/lemke.c): exact answers (1/3 to the last bit, data spanning 400
 * decades), Murty's example (the same 2^n - 1 pivots as the float method), a mixed LCP with a known answer,
 * rays on an infeasible LCP, a singular free block, the pivot and time limits, and the robot-arm grasp's
 * mixed LCPs on which the float tableau ended with a basis the checker rejects (results/failed/robot_grasp):
 * the end game's answer is one of enumeration's solutions, or a ray where enumeration proves none exists; six
 * of them the float run now solves itself (a negligible z0 is left basic when pivoting it out would move a
 * basic variable by more than the tolerance), its answer within 1e-8 of one of enumeration's. */
#include "check.h"
#include "cp.h"
#include "cp_io.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <float.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static struct solve_result run(struct solver *s, const struct cp_problem *p, double *z)
{
  struct solve_result r;
  memset(z, 0, (size_t)p->n * sizeof *z);
  solver_solve(s, p, z, &r);
  return r;
}

static struct cp_problem *lcp(int n, const double *M, const double *q)
{
  struct cp_problem *p = cp_lcp_create(n);
  memcpy(p->M, M, (size_t)n * n * sizeof *M);
  memcpy(p->q, q, (size_t)n * sizeof *q);
  return p;
}

static void test_exact_values(void)
{
  struct solver *s = test_solver("lemke_exact", 0);
  double z[2];
  /* 2 z1 + z2 = 1, z1 + 2 z2 = 1: z = 1/3, which rounds (down) to the double 1.0 / 3 */
  struct cp_problem *p = lcp(2, (const double[]){2, 1, 1, 2}, (const double[]){-1, -1});
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && z[0] == 1.0 / 3 && z[1] == 1.0 / 3 && r.iterations == 2,
        "z = 1/3 exactly: %s after %d pivots, z = %.17g %.17g", solve_status_name(r.status), r.iterations,
        z[0], z[1]);
  cp_destroy(&p);
  /* rows 400 decades apart: each row is scaled to integers on its own */
  p = lcp(2, (const double[]){1e200, 0, 0, 1e-200}, (const double[]){-1e200, -3e-200});
  r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && z[0] == 1.0 && fabs(z[1] - 3.0) <= 4 * DBL_EPSILON,
        "rows of scale 1e200 and 1e-200: %s, z = %.17g %.17g", solve_status_name(r.status), z[0], z[1]);
  cp_destroy(&p);
  /* M positive semidefinite (copositive-plus), w1 + w2 = -2 for every z: infeasible, a secondary ray */
  p = lcp(2, (const double[]){1, -1, -1, 1}, (const double[]){-1, -1});
  r = run(s, p, z);
  CHECK(r.status == SOLVE_RAY_TERMINATION && r.no_answer, "infeasible LCP (M psd): %s, no_answer %d",
        solve_status_name(r.status), r.no_answer);
  cp_destroy(&p);
  solver_destroy(&s);
}

static void test_murty_and_limits(void)
{
  struct solver *ex = test_solver("lemke_exact", 0), *fl = test_solver("lemke", 0);
  struct cp_problem *p = cp_test_murty(8);
  double z[8], zf[8];
  struct solve_result r = run(ex, p, z), rf = run(fl, p, zf);
  CHECK(r.status == SOLVE_CONVERGED && r.iterations == 255 && rf.iterations == 255 &&
            max_abs_diff(z, zf, 8) <= 1e-12,
        "murty n=8: exact %s after %d pivots (float %d), max |z - z_float| = %.2g",
        solve_status_name(r.status), r.iterations, rf.iterations, max_abs_diff(z, zf, 8));
  ex->set.max_it = 5;
  r = run(ex, p, z);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 5 && r.no_answer,
        "-cp_max_it 5: %s after %d pivots, no_answer %d", solve_status_name(r.status), r.iterations,
        r.no_answer);
  cp_destroy(&p);
  /* the float lemke under a pivot limit does not run past it in the end game */
  fl->set.max_it = 5;
  p = cp_test_murty(10);
  double z10[10];
  rf = run(fl, p, z10);
  CHECK(rf.status == SOLVE_MAX_ITERATIONS && rf.iterations == 5,
        "lemke -cp_max_it 5 with the end game on: %s after %d pivots", solve_status_name(rf.status),
        rf.iterations);
  cp_destroy(&p);
  ex->set.max_it = 0;
  ex->set.time_limit = 0.02;
  p = cp_test_spd(200, 3);
  double *zs = calloc(200, sizeof *zs);
  r = run(ex, p, zs);
  CHECK(r.status == SOLVE_TIME_LIMIT && r.no_answer && r.seconds < 1.0,
        "spd n=200 under -cp_time_limit 0.02: %s after %d pivots in %.3g s", solve_status_name(r.status),
        r.iterations, r.seconds);
  free(zs);
  cp_destroy(&p);
  solver_destroy(&ex);
  solver_destroy(&fl);
}

static void test_mlcp(void)
{
  /* u free (2), v (3): z* = (0.37, -0.81, 1.3, 0, 0.45), w* = (0, 0.62, 0); q from them */
  const int ne = 2, n = 5;
  const double M[25] = {2.3, 0.7, 1.1, -0.4, 0.2, 0.7, 3.1, 0.3,  0.9, -0.6, -1.1, -0.3, 2.9,
                        0.5, 0.4, 0.4, -0.9, 0.5, 3.3, 0.8, -0.2, 0.6, 0.4,  0.8,  2.7};
  const double zstar[5] = {0.37, -0.81, 1.3, 0.0, 0.45}, wstar[5] = {0, 0, 0.0, 0.62, 0.0};
  struct cp_problem *p = cp_mlcp_create(ne, n - ne);
  memcpy(p->M, M, sizeof M);
  for (int i = 0; i < n; i++) {
    p->q[i] = wstar[i];
    for (int j = 0; j < n; j++)
      p->q[i] -= M[i * n + j] * zstar[j];
  }
  struct solver *s = test_solver("lemke_exact", 0);
  double z[5];
  struct solve_result r = run(s, p, z);
  CHECK(r.status == SOLVE_CONVERGED && max_abs_diff(z, zstar, n) < 1e-14,
        "mixed LCP with a known answer: %s, max |z - z*| = %.2g", solve_status_name(r.status),
        max_abs_diff(z, zstar, n));
  /* a free block with a zero column: the free unknown u_2 has no pivot */
  for (int i = 0; i < n; i++)
    p->M[i * n + 1] = 0.0;
  r = run(s, p, z);
  CHECK(r.status == SOLVE_NOT_APPLICABLE && strstr(r.message, "singular"), "singular equality block: %s (%s)",
        solve_status_name(r.status), r.message);
  cp_destroy(&p);
  solver_destroy(&s);
}

/* The smallest distance of z to one of enumeration's solutions (relative to max(1, |z|_inf)). */
static double dist_to_enum(const struct solve_result *re, const double *z, int n)
{
  double best = INFINITY, zmax = 1.0;
  for (int i = 0; i < n; i++)
    zmax = fmax(zmax, fabs(z[i]));
  for (int k = 0; k < re->n_solutions; k++)
    best = fmin(best, max_abs_diff(z, re->solutions + (size_t)k * n, n) / zmax);
  return best;
}

static void test_robot_grasp_failed(void)
{
  static const char *const files[] = {"robot_grasp_task1028_step105", "robot_grasp_task1160_step70",
                                      "robot_grasp_task184_step13",   "robot_grasp_task676_step47",
                                      "robot_grasp_task684_step44",   "robot_grasp_task692_step30",
                                      "robot_grasp_task505_step13",   "robot_grasp_task946_step88"};
  struct solver *lemke = test_solver("lemke", 0), *en = test_solver("enum", 0);
  struct solver *lemke_float = test_solver_with("lemke", 0, OPTS("-lemke_exact_max_n", "0"));
  for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
    char path[160], err[256];
    snprintf(path, sizeof path, "results/failed/robot_grasp/%s.txt", files[f]);
    struct cp_problem *p = NULL;
    if (cp_read_file(path, CP_FILE_PLAIN, &p, err, sizeof err) != 0) {
      CHECK(0, "%s: %s", path, err);
      continue;
    }
    double *z = calloc((size_t)p->n, sizeof *z), *ze = calloc((size_t)p->n, sizeof *ze);
    struct solve_result rf = run(lemke_float, p, z), re = run(en, p, ze), r = run(lemke, p, z);
    if (re.status == SOLVE_INFEASIBLE)
      CHECK(rf.status != SOLVE_CONVERGED && r.status == SOLVE_RAY_TERMINATION,
            "%s (n = %d): enum proves it infeasible; float lemke %s, with the end game %s (%s)", files[f],
            p->n, solve_status_name(rf.status), solve_status_name(r.status), r.message);
    else if (rf.status == SOLVE_CONVERGED) /* the float run stopped with a negligible z0 still basic */
      CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-8 * r.scale && re.status == SOLVE_CONVERGED &&
                dist_to_enum(&re, z, p->n) <= 1e-8,
            "%s (n = %d): float lemke converged (residual %.2g), no end game needed: %s, distance to "
            "enum's nearest of %d solutions %.2g",
            files[f], p->n, rf.residual, solve_status_name(r.status), re.n_solutions,
            dist_to_enum(&re, z, p->n));
    else
      CHECK(r.status == SOLVE_CONVERGED && r.residual <= 1e-14 * r.scale && re.status == SOLVE_CONVERGED &&
                dist_to_enum(&re, z, p->n) <= 1e-9,
            "%s (n = %d): float lemke %s (residual %.2g), with the end game %s (residual %.2g, %d pivots), "
            "distance to enum's nearest of %d solutions %.2g",
            files[f], p->n, solve_status_name(rf.status), rf.residual, solve_status_name(r.status),
            r.residual, r.iterations, re.n_solutions, dist_to_enum(&re, z, p->n));
    free(z);
    free(ze);
    cp_destroy(&p);
  }
  solver_destroy(&lemke);
  solver_destroy(&lemke_float);
  solver_destroy(&en);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_exact_values();
  test_murty_and_limits();
  test_mlcp();
  test_robot_grasp_failed();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
