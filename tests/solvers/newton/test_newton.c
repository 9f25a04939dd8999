/* test_newton.c — fb_newton (solvers/newton/fb_newton.c on the generic Newton of solvers/newton/newton.c):
 * random SPD LCPs against pgs, Stewart-Trinkle box contact LCPs (Egan et al. eqs. 5-7, resting and sliding;
 * random ones, and touching boxes checked against the momentum balance, with lemke beside), a mixed LCP, a
 * box MCP with all four bound kinds and a callback NCP with known solutions (also with the active-set step),
 * NaN data, and the iteration and time limits. */
#include "check.h"
#include "solver.h"
#include "solver_fixture.h"
#include "testproblems.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

static void test_spd(void)
{
  const int sizes[3] = {10, 100, 500};
  struct solver *fb = test_solver("fb_newton", 1e-10), *pgs = test_solver("pgs", 1e-10);
  for (int k = 0; k < 3; k++) {
    int n = sizes[k];
    struct cp_problem *p = cp_test_spd(n, 1000 + (unsigned long)n);
    double *z1 = malloc((size_t)n * sizeof *z1), *z2 = malloc((size_t)n * sizeof *z2);
    struct solve_result r1, r2;
    solver_solve(fb, p, z1, &r1);
    solver_solve(pgs, p, z2, &r2);
    printf("# fb_newton spd n=%d: %s, %d iterations, residual %.2e, %.4f s (pgs: %d sweeps, %.4f s)\n", n,
           solve_status_name(r1.status), r1.iterations, r1.residual, r1.seconds, r2.iterations, r2.seconds);
    CHECK(r1.status == SOLVE_CONVERGED, "fb_newton: spd n=%d converges (%s, %s)", n,
          solve_status_name(r1.status), r1.message);
    CHECK(r1.iterations <= 30, "fb_newton: spd n=%d in few Newton steps (%d)", n, r1.iterations);
    CHECK(r2.status == SOLVE_CONVERGED, "pgs: spd n=%d converges (%s)", n, solve_status_name(r2.status));
    CHECK(max_abs_diff(z1, z2, n) <= 1e-6, "fb_newton and pgs agree on spd n=%d (max diff %.2e)", n,
          max_abs_diff(z1, z2, n));
    free(z1);
    free(z2);
    cp_destroy(&p);
  }
  solver_destroy(&fb);
  solver_destroy(&pgs);
}

static void test_box_contact(void)
{
  struct solver *fb = test_solver("fb_newton", 1e-8);
  for (int sliding = 0; sliding <= 1; sliding++)
    for (int boxes = 1; boxes <= 5; boxes += 4)
      for (unsigned long seed = 1; seed <= 5; seed++) {
        struct cp_problem *p = cp_test_box_contact(boxes, 4, 0.5, sliding, 0.0, seed);
        double *z = malloc((size_t)p->n * sizeof *z);
        struct solve_result r;
        solver_solve(fb, p, z, &r);
        CHECK(r.status == SOLVE_CONVERGED, "fb_newton: %s (n=%d) converges (%s after %d: %s)", p->name, p->n,
              solve_status_name(r.status), r.iterations, r.message);
        free(z);
        cp_destroy(&p);
      }
  solver_destroy(&fb);
}

/* Boxes touching the plane (zero gaps), at rest or sliding along +x at 2 m/s: after the step the vertical
 * momentum balance gives sum p_n = m g h, and a box still sliding takes the full Coulomb impulse
 * mu sum p_n against its velocity, which the k = 4 directions represent exactly along x. */
static void test_box_analytic(void)
{
  const double h = 1e-3, g = 9.81, mu = 0.5;
  const char *names[2] = {"fb_newton", "lemke"};
  for (int sliding = 0; sliding <= 1; sliding++) {
    struct cp_test_box boxes[3] = {
        {0.31, 0.23, 0.17, 1.3, 0.4, 0, 0, {0, 0, 0, 0}},
        {0.47, 0.21, 0.29, 2.7, 2.1, 0, 0, {0, 0, 0, 0}},
        {0.26, 0.38, 0.12, 0.7, 5.3, 0, 0, {0, 0, 0, 0}},
    };
    for (int b = 0; b < 3; b++)
      boxes[b].vx = sliding ? 2.0 : 0.0;
    struct cp_problem *p = cp_test_box_lcp(boxes, 3, 4, mu, h);
    for (int k = 0; k < 2; k++) {
      if (!solver_find(names[k])) continue;
      struct solver *s = test_solver(names[k], 1e-10);
      double z[72];
      struct solve_result r;
      solver_solve(s, p, z, &r);
      CHECK(r.status == SOLVE_CONVERGED, "%s: 3 boxes %s on the plane converge (%s after %d)", names[k],
            sliding ? "sliding" : "resting", solve_status_name(r.status), r.iterations);
      for (int b = 0; b < 3; b++) {
        const double *pn = z + 24 * b, *pf = pn + 4;
        double sum_n = pn[0] + pn[1] + pn[2] + pn[3], fx = 0.0;
        for (int c = 0; c < 4; c++)
          fx += pf[4 * c + 0] - pf[4 * c + 2]; /* d_0 = +x, d_2 = -x */
        CHECK_CLOSE(sum_n, boxes[b].mass * g * h, 1e-9, "%s: box %d %s: sum p_n = m g h", names[k], b,
                    sliding ? "sliding" : "resting");
        if (sliding)
          CHECK_CLOSE(fx, -mu * sum_n, 1e-9, "%s: box %d sliding: friction impulse -mu sum p_n along x",
                      names[k], b);
      }
      solver_destroy(&s);
    }
    cp_destroy(&p);
  }
}

/* M = S + K with S symmetric positive definite and K skew: positive definite, so the solution is unique.
 * q is chosen so that z_star solves the problem with the given w_star (F(z_star) = w_star). */
static void fill_pd(struct cp_problem *p, const double *z_star, const double *w_star)
{
  int n = p->n;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double sym = (i == j) ? 3.0 + 0.37 * i : 0.41 / (1.0 + i + j);
      double skew = (i < j) ? 0.23 * (j - i) : (i > j ? -0.23 * (i - j) : 0.0);
      p->M[(size_t)i * n + j] = sym + skew;
    }
  for (int i = 0; i < n; i++) {
    double s = 0.0;
    for (int j = 0; j < n; j++)
      s += p->M[(size_t)i * n + j] * z_star[j];
    p->q[i] = w_star[i] - s;
  }
}

/* how: "" or " (active set)", with opts the solver's options */
static void test_mixed_and_box(const char *const *opts, const char *how)
{
  struct solver *fb = test_solver_with("fb_newton", 1e-10, opts);
  /* mixed LCP: 2 free unknowns, 3 complementary (one active, one inactive, one degenerate) */
  struct cp_problem *p = cp_mlcp_create(2, 3);
  const double zm[5] = {0.7, -1.3, 0.45, 0.0, 0.0}, wm[5] = {0, 0, 0, 0.9, 0.0};
  fill_pd(p, zm, wm);
  double z[6];
  struct solve_result r;
  solver_solve(fb, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED, "fb_newton%s: mixed LCP converges (%s)", how,
        solve_status_name(r.status));
  CHECK(max_abs_diff(z, zm, 5) <= 1e-8, "fb_newton%s: mixed LCP known solution (diff %.2e)", how,
        max_abs_diff(z, zm, 5));
  cp_destroy(&p);
  /* box MCP: at a finite lower bound (F > 0), at a finite upper bound (F < 0), inside a two-sided box
   * (F = 0), free, upper bound only (at it), lower bound only (inside), fixed (lo = hi). */
  p = cp_box_create(7);
  const double lo[7] = {-1.0, -2.0, -0.5, -INFINITY, -INFINITY, 0.25, 1.5};
  const double hi[7] = {1.0, 0.75, 2.0, INFINITY, 3.0, INFINITY, 1.5};
  const double zb[7] = {-1.0, 0.75, 0.3, -2.2, 3.0, 1.1, 1.5}, wb[7] = {0.8, -1.7, 0, 0, -0.6, 0, 2.5};
  for (int i = 0; i < 7; i++) {
    p->lo[i] = lo[i];
    p->hi[i] = hi[i];
  }
  fill_pd(p, zb, wb);
  double zz[7];
  solver_solve(fb, p, zz, &r);
  CHECK(r.status == SOLVE_CONVERGED, "fb_newton%s: box MCP converges (%s, %s)", how,
        solve_status_name(r.status), r.message);
  CHECK(max_abs_diff(zz, zb, 7) <= 1e-8, "fb_newton%s: box MCP known solution (diff %.2e)", how,
        max_abs_diff(zz, zb, 7));
  cp_destroy(&p);
  solver_destroy(&fb);
}

/* Callback NCP F(z) = z^3 + M z + q (componentwise cube): strictly monotone on z >= 0, unique root. */
struct cubic_ctx {
  const struct cp_problem *lin;
};

static int cubic_F(void *vctx, const double *z, double *Fz)
{
  const struct cubic_ctx *c = vctx;
  if (cp_eval_F(c->lin, z, Fz) != 0) return 1;
  for (int i = 0; i < c->lin->n; i++)
    Fz[i] += z[i] * z[i] * z[i];
  return 0;
}

static int cubic_J(void *vctx, const double *z, double *J)
{
  const struct cubic_ctx *c = vctx;
  int n = c->lin->n;
  for (size_t k = 0; k < (size_t)n * n; k++)
    J[k] = c->lin->M[k];
  for (int i = 0; i < n; i++)
    J[(size_t)i * n + i] += 3.0 * z[i] * z[i];
  return 0;
}

static void test_ncp(const char *const *opts, const char *how)
{
  struct cp_problem *lin = cp_lcp_create(4);
  const double zs[4] = {1.2, 0.0, 0.35, 0.0}, ws[4] = {0.0, 0.6, 0.0, 0.0};
  double w_lin[4];
  for (int i = 0; i < 4; i++)
    w_lin[i] = ws[i] - zs[i] * zs[i] * zs[i];
  fill_pd(lin, zs, w_lin);
  struct cubic_ctx ctx = {lin};
  struct cp_problem *p = cp_ncp_create(4, cubic_F, cubic_J, &ctx);
  struct solver *fb = test_solver_with("fb_newton", 1e-10, opts);
  double z[4];
  struct solve_result r;
  solver_solve(fb, p, z, &r);
  CHECK(r.status == SOLVE_CONVERGED, "fb_newton%s: cubic callback NCP converges (%s in %d)", how,
        solve_status_name(r.status), r.iterations);
  CHECK(max_abs_diff(z, zs, 4) <= 1e-8, "fb_newton%s: cubic NCP known root (diff %.2e)", how,
        max_abs_diff(z, zs, 4));
  solver_destroy(&fb);
  cp_destroy(&p);
  cp_destroy(&lin);
}

static void test_failures(void)
{
  struct solver *fb = test_solver("fb_newton", 1e-10);
  struct cp_problem *p = cp_test_spd(20, 7);
  double z[20];
  struct solve_result r;
  p->M[3] = NAN;
  solver_solve(fb, p, z, &r);
  CHECK(r.status != SOLVE_CONVERGED && r.status == SOLVE_NAN_OR_INF, "fb_newton: NaN in M is nan_or_inf (%s)",
        solve_status_name(r.status));
  cp_destroy(&p);
  p = cp_test_spd(20, 7);
  fb->set.max_it = 1;
  solver_solve(fb, p, z, &r);
  CHECK(r.status == SOLVE_MAX_ITERATIONS && r.iterations == 1, "fb_newton: honours -cp_max_it (%s after %d)",
        solve_status_name(r.status), r.iterations);
  fb->set.max_it = 0;
  cp_destroy(&p);
  /* a time limit far below one Newton step: must stop on time, not run on */
  p = cp_test_spd(400, 9);
  double *zb = malloc(400 * sizeof *zb);
  fb->set.time_limit = 1e-9;
  solver_solve(fb, p, zb, &r);
  CHECK(r.status == SOLVE_TIME_LIMIT, "fb_newton: honours -cp_time_limit (%s)", solve_status_name(r.status));
  free(zb);
  cp_destroy(&p);
  solver_destroy(&fb);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_spd();
  test_box_contact();
  test_box_analytic();
  test_mixed_and_box(NULL, "");
  test_mixed_and_box(OPTS("-fb_newton_active_set", "1"), " (active set)");
  test_ncp(NULL, "");
  test_ncp(OPTS("-fb_newton_active_set", "1"), " (active set)");
  test_failures();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
