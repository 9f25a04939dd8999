/* test_fb_active_set.c — the backend direction of the generic Newton (solvers/newton/newton.c,
 * newton_backend_step) and fb_newton's active-set Newton step of the natural map (fb_newton.c,
 * fb_active_direction; -fb_newton_active_set). The hook: an exact Newton direction is taken at every
 * iteration, an ascent one or none is refused and asked for no more after direction_refusals refusals in a
 * row. fb_newton: bench_solvers' monotone mixed NCP of 300 unknowns (100 free, 200 complementary, a third of
 * them degenerate) converges to its known solution in fewer iterations than without the step; the resting
 * boxes (singular active-set systems) still converge within test_fb_resting's limits. */
#include "check.h"
#include "cp.h"
#include "newton.h"
#include "problem_class.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testncp.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

/* Phi_i(z) = z_i^3 + z_i - b_i: a smooth root finding of 3 unknowns that Newton solves in a few steps. */
enum cube_kind { CUBE_NEWTON, CUBE_ASCENT, CUBE_NONE };
struct cube {
  enum cube_kind kind;
  int calls; /* of the direction callback */
};
static const double cube_b[3] = {2.0, -0.7, 10.0};

static int cube_phi(void *ctx, const double *z, double *phi)
{
  (void)ctx;
  for (int i = 0; i < 3; i++)
    phi[i] = z[i] * z[i] * z[i] + z[i] - cube_b[i];
  return 0;
}

static int cube_jacobian(void *ctx, const double *z, const double *phi, double *H)
{
  (void)ctx;
  (void)phi;
  memset(H, 0, 9 * sizeof *H);
  for (int i = 0; i < 3; i++)
    H[4 * i] = 3.0 * z[i] * z[i] + 1.0;
  return 0;
}

/* the Newton step of the diagonal Jacobian, its opposite, or none */
static int cube_direction(void *ctx, const double *z, const double *phi, double *d)
{
  struct cube *c = ctx;
  c->calls++;
  if (c->kind == CUBE_NONE) return 1;
  for (int i = 0; i < 3; i++)
    d[i] = (c->kind == CUBE_NEWTON ? -1.0 : 1.0) * phi[i] / (3.0 * z[i] * z[i] + 1.0);
  return 0;
}

static void check_hook(enum cube_kind kind, int refusals, const char *what)
{
  struct cube c = {kind, 0};
  struct newton_problem prob = {
      .n = 3, .ctx = &c, .phi = cube_phi, .jacobian = cube_jacobian, .direction = cube_direction};
  struct newton_settings set;
  struct newton_stats st;
  newton_settings_default(&set);
  set.tol = 1e-12;
  set.direction_refusals = refusals;
  double z[3] = {0.0, 0.0, 0.0};
  enum newton_reason why = newton_solve(&prob, &set, z, &st);
  double err = 0.0;
  for (int i = 0; i < 3; i++)
    err = fmax(err, fabs(z[i] * z[i] * z[i] + z[i] - cube_b[i]));
  CHECK(why == NEWTON_CONVERGED && err <= 1e-12 && st.iterations >= 4,
        "newton direction hook, %s: converges (%s in %d, |Phi| %.1e)", what, newton_reason_name(why),
        st.iterations, err);
  if (kind == CUBE_NEWTON)
    CHECK(st.direction_steps == st.iterations && c.calls == st.iterations,
          "newton direction hook, %s: taken at every iteration (%d of %d, %d calls)", what,
          st.direction_steps, st.iterations, c.calls);
  else
    CHECK(st.direction_steps == 0 && c.calls == refusals,
          "newton direction hook, %s: asked %d times, then no more (%d calls in %d iterations, %d taken)",
          what, refusals, c.calls, st.iterations, st.direction_steps);
}

static void test_hook(void)
{
  check_hook(CUBE_NEWTON, 2, "Newton's direction");
  check_hook(CUBE_ASCENT, 2, "an ascent direction, 2 refusals");
  check_hook(CUBE_ASCENT, 1, "an ascent direction, 1 refusal");
  check_hook(CUBE_NONE, 3, "no direction, 3 refusals");
}

/* ncp_mixed300's problem (bench/problems/problem_class.c: 100 free, 200 complementary, kappa 1) with
 * fb_newton, without and with the active-set step: both at the known solution; with it no more iterations
 * on any seed and fewer in all (measured, seeds 1-5: 11 11 10 9 10 without, 8 10 8 9 10 with). */
static void test_ncp_mixed(void)
{
  struct solver *plain = test_solver_with("fb_newton", 1e-8, OPTS("-fb_newton_active_set", "0")),
                *as = test_solver_with("fb_newton", 1e-8, OPTS("-fb_newton_active_set", "1"));
  int sum_plain = 0, sum_as = 0, worst = 0, ok = 0;
  for (unsigned long seed = 1; seed <= 5; seed++) {
    double zs[300], z1[300], z2[300];
    struct cp_problem *p = cp_test_ncp_mixed(100, 200, 1.0, seed, zs);
    struct solve_result r1, r2;
    if (!p || !plain || !as) break;
    memset(z1, 0, sizeof z1);
    memset(z2, 0, sizeof z2);
    solver_solve(plain, p, z1, &r1);
    solver_solve(as, p, z2, &r2);
    sum_plain += r1.iterations;
    sum_as += r2.iterations;
    worst = r2.iterations > worst ? r2.iterations : worst;
    ok += r1.status == SOLVE_CONVERGED && r2.status == SOLVE_CONVERGED && max_abs_diff(z1, zs, 300) <= 1e-8 &&
          max_abs_diff(z2, zs, 300) <= 1e-8 && r2.iterations <= r1.iterations;
    printf("# ncp_mixed300 seed %lu: %d iterations without, %d with the active-set step (%s; %s)\n", seed,
           r1.iterations, r2.iterations, solve_status_name(r2.status), r2.message);
    cp_destroy(&p);
  }
  CHECK(ok == 5,
        "fb_newton -fb_newton_active_set 1: ncp_mixed300 at the known solution, iterations <= "
        "without on %d of 5 seeds",
        ok);
  CHECK(
      sum_as < sum_plain && worst <= 10,
      "fb_newton -fb_newton_active_set 1: ncp_mixed300 in %d iterations over 5 seeds (without: %d), most %d",
      sum_as, sum_plain, worst);
  solver_destroy(&plain);
  solver_destroy(&as);
}

/* Every seed of cls converges with the active-set step within max_it iterations. */
static void check_resting(const char *cls, int seeds, int islands, int max_it)
{
  struct solver *s = test_solver_with(
      "fb_newton", 1e-8, OPTS("-fb_newton_active_set", "1", "-fb_newton_islands", islands ? "1" : "0"));
  int ok = 0, worst = 0, n = 0;
  for (int seed = 1; seed <= seeds && s; seed++) {
    struct cp_problem *p = NULL;
    char err[256];
    struct solve_result r = {.status = SOLVE_NUMERICAL_FAILURE};
    if (cp_class_create(cls, (unsigned long)seed, NULL, &p, err, sizeof err) == CP_CLASS_OK) {
      double *z = calloc((size_t)p->n, sizeof *z);
      if (z) solver_solve(s, p, z, &r);
      n = p->n;
      free(z);
    }
    cp_destroy(&p);
    ok += r.status == SOLVE_CONVERGED && r.iterations <= max_it;
    worst = r.iterations > worst ? r.iterations : worst;
  }
  CHECK(ok == seeds,
        "fb_newton -fb_newton_active_set 1, %s: %s (n = %d): %d of %d seeds within %d iterations "
        "(most %d)",
        islands ? "islands" : "coupled", cls, n, ok, seeds, max_it, worst);
  solver_destroy(&s);
}

static void test_resting(void)
{
  check_resting("resting24", 20, 1, 60);
  check_resting("resting120", 6, 1, 60);
  check_resting("resting600", 3, 1, 60);
  check_resting("resting120", 6, 0, 60);
  check_resting("resting600", 2, 0, 80);
  check_resting("sliding120", 3, 1, 60);
}

/* -fb_newton_active_set auto is the step on a nonlinear (callback) problem and no step on a linear one: the
 * same iterations and the same z, bit for bit, as the explicit setting, on ncp_mixed30 and resting24. */
static void check_auto(const char *cls, const char *same)
{
  struct solver *dflt = test_solver_with("fb_newton", 1e-8, OPTS("-fb_newton_active_set", "auto")),
                *set = test_solver_with("fb_newton", 1e-8, OPTS("-fb_newton_active_set", same));
  int agree = 0, seeds = 3;
  for (int seed = 1; seed <= seeds && dflt && set; seed++) {
    struct cp_problem *p = NULL;
    char err[256];
    if (cp_class_create(cls, (unsigned long)seed, NULL, &p, err, sizeof err) != CP_CLASS_OK) break;
    double *z1 = calloc((size_t)p->n, sizeof *z1), *z2 = calloc((size_t)p->n, sizeof *z2);
    struct solve_result r1, r2;
    if (z1 && z2) {
      solver_solve(dflt, p, z1, &r1);
      solver_solve(set, p, z2, &r2);
      agree += r1.status == SOLVE_CONVERGED && r1.iterations == r2.iterations &&
               memcmp(z1, z2, (size_t)p->n * sizeof *z1) == 0;
    }
    free(z1);
    free(z2);
    cp_destroy(&p);
  }
  CHECK(agree == seeds,
        "fb_newton -fb_newton_active_set auto on %s is -fb_newton_active_set %s: %d of %d seeds", cls, same,
        agree, seeds);
  solver_destroy(&dflt);
  solver_destroy(&set);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_hook();
  test_ncp_mixed();
  test_resting();
  check_auto("ncp_mixed30", "1");
  check_auto("resting24", "0");
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
