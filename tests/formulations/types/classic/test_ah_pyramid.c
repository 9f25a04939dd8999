/* test_ah_pyramid.c — Anitescu-Hart Sec. 3: the hexagonal pyramid at rest on a table (scene_hex_pyramid
 * through anitescu_potra, ah_pyramid.h). Known answers: the paper's two solutions satisfy (6)-(7); their
 * convex combinations t z1 + (1 - t) z2 violate only mu c_n >= 0 perp lambda >= 0, by exactly
 * max over vertices of min(lambda, mu c_n) (the average: min(1/2, mu hmg / 6)), for every mu > 0 tried —
 * the solution set is nonconvex — and stay solutions at mu = 0. Search: enum on the reduced problem
 * (zero tangential impulse) finds exactly the five vertex load patterns {1,3,5}, {2,4,6}, {1,4}, {2,5},
 * {3,6} (v = 0 in each); milp max_sum finds a diameter load with internal friction sum beta = mu hmg. */
#include "ah_pyramid.h"
#include "check.h"
#include "solver.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

static double residual(const struct cp_problem *p, const double *z)
{
  struct cp_check c;
  if (cp_check(p, z, NULL, &c)) return INFINITY;
  return c.nonfinite ? INFINITY : fmax(c.natural, c.equality) / c.scale;
}

/* Expected residual of t z1 + (1 - t) z2: loads t hmg/3 (odd) and (1 - t) hmg/3 (even), lambda the
 * complementary weights. */
static double expected_combination(double mu, double hmg, double t)
{
  double odd = fmin(1.0 - t, mu * t * hmg / 3.0), even = fmin(t, mu * (1.0 - t) * hmg / 3.0);
  return fmax(odd, even);
}

static void test_paper_points(int k)
{
  const double mus[] = {0.0, 1e-3, 0.01, 0.1, 0.5, 1.0, 2.0};
  for (size_t m = 0; m < sizeof mus / sizeof *mus; m++) {
    struct ah_pyramid *a = NULL;
    double mu = mus[m];
    if (ah_pyramid_create(mu, 0.05, k, &a)) {
      CHECK(0, "pyramid k=%d mu=%g: six vertex contacts with upward normals, problem built", k, mu);
      continue;
    }
    int n = a->p->n, ok = 1;
    double *z1 = malloc((size_t)n * sizeof *z1), *z2 = malloc((size_t)n * sizeof *z2),
           *zt = malloc((size_t)n * sizeof *zt);
    if (!z1 || !z2 || !zt) goto next;
    ah_pyramid_paper_solution(a, 1, z1);
    ah_pyramid_paper_solution(a, 2, z2);
    CHECK(residual(a->p, z1) <= 1e-14 && residual(a->p, z2) <= 1e-14,
          "pyramid k=%d mu=%g: the paper's solutions 1 and 2 satisfy (6)-(7) (residuals %.1e, %.1e)", k, mu,
          residual(a->p, z1), residual(a->p, z2));
    for (int j = 1; j < 4; j++) {
      double t = 0.25 * j, want = expected_combination(mu, a->hmg, t);
      for (int i = 0; i < n; i++)
        zt[i] = t * z1[i] + (1.0 - t) * z2[i];
      double r = residual(a->p, zt);
      if (!(fabs(r - want) <= 1e-14)) ok = 0;
      if (mu > 0.0 && !(r > 1e-8)) ok = 0; /* fails the default -cp_tol */
    }
    if (mu > 0.0)
      CHECK(ok,
            "pyramid k=%d mu=%g: t z1 + (1-t) z2 (t = 1/4, 1/2, 3/4) violate (6)-(7) by min(lambda, mu c_n) "
            "(average: %.3e): nonconvex",
            k, mu, fmin(0.5, mu * a->hmg / 6.0));
    else
      CHECK(ok, "pyramid k=%d mu=0: t z1 + (1-t) z2 (t = 1/4, 1/2, 3/4) stay solutions", k);
  next:
    free(z1);
    free(z2);
    free(zt);
    ah_pyramid_destroy(&a);
  }
}

/* Load pattern as a bit mask over vertices (bit j: paper vertex j + 1 carries load). */
static int pattern(const struct ah_pyramid *a, const double *z)
{
  double load[6], lam[6], beta[6];
  int mask = 0;
  ah_pyramid_loads(a, z, load, lam, beta);
  for (int j = 0; j < 6; j++)
    if (load[j] > 1e-9 * a->hmg) mask |= 1 << j;
  return mask;
}

static void test_enum_reduced(double mu)
{
  struct ah_pyramid *a = NULL;
  struct cp_problem *red = NULL;
  struct solver *s = NULL;
  double *zr = NULL, *z = NULL;
  struct solve_result r;
  if (ah_pyramid_create(mu, 0.05, 4, &a) || !(red = ah_pyramid_reduced(a)) ||
      !(s = test_solver("enum", 0.0))) {
    CHECK(0, "pyramid enum mu=%g: set up", mu);
    goto cleanup;
  }
  zr = calloc((size_t)red->n, sizeof *zr);
  z = calloc((size_t)a->p->n, sizeof *z);
  if (!zr || !z || solver_solve(s, red, zr, &r)) goto cleanup;
  /* {1,3,5} {2,4,6} {1,4} {2,5} {3,6} as masks over 0-based vertices */
  const int want[5] = {0x15, 0x2a, 0x09, 0x12, 0x24};
  int found = 0, all_pass = 1, v_zero = 1, total_ok = 1;
  for (int k = 0; k < r.n_solutions; k++) {
    ah_pyramid_lift(a, r.solutions + (size_t)k * red->n, z);
    int p = pattern(a, z);
    for (int i = 0; i < 5; i++)
      if (p == want[i]) found |= 1 << i;
    if (!(residual(a->p, z) <= 1e-12)) all_pass = 0;
    double load[6], lam[6], beta[6], sum = 0.0;
    ah_pyramid_loads(a, z, load, lam, beta);
    for (int j = 0; j < 6; j++)
      sum += load[j];
    for (int i = 0; i < a->nd; i++)
      if (fabs(z[i]) > 1e-12) v_zero = 0;
    if (fabs(sum - a->hmg) > 1e-12) total_ok = 0;
  }
  CHECK(r.status == SOLVE_CONVERGED && r.n_solutions == 5 && found == 31,
        "pyramid mu=%g, reduced problem: enum finds exactly the 5 load patterns {1,3,5} {2,4,6} {1,4} {2,5} "
        "{3,6} (%s, %d solutions, found mask %#x)",
        mu, solve_status_name(r.status), r.n_solutions, found);
  CHECK(all_pass && v_zero && total_ok,
        "pyramid mu=%g: each lifted to (6)-(7) with beta = 0 is a solution, v = 0, sum c_n = hmg", mu);
  if (mu == 0.0) { /* convex: the midpoint of any two of these and the paper's two solutions is one too */
    int np = r.n_solutions + 2, n = a->p->n, mid_ok = 1;
    double *pts = malloc((size_t)np * n * sizeof *pts);
    if (!pts) goto cleanup;
    for (int k = 0; k < r.n_solutions; k++)
      ah_pyramid_lift(a, r.solutions + (size_t)k * red->n, pts + (size_t)k * n);
    ah_pyramid_paper_solution(a, 1, pts + (size_t)r.n_solutions * n);
    ah_pyramid_paper_solution(a, 2, pts + (size_t)(r.n_solutions + 1) * n);
    for (int i = 0; i < np; i++)
      for (int j = i + 1; j < np; j++) {
        for (int l = 0; l < n; l++)
          z[l] = 0.5 * (pts[(size_t)i * n + l] + pts[(size_t)j * n + l]);
        if (!(residual(a->p, z) <= 1e-12)) mid_ok = 0;
      }
    free(pts);
    CHECK(mid_ok,
          "pyramid mu=0: midpoints of every pair of the %d solutions (enum's and the paper's) are "
          "solutions",
          np);
  }
cleanup:
  solver_destroy(&s);
  cp_destroy(&red);
  ah_pyramid_destroy(&a);
  free(zr);
  free(z);
}

static void test_milp_full(double mu)
{
  struct ah_pyramid *a = NULL;
  struct solver *s = NULL;
  double *z = NULL;
  if (ah_pyramid_create(mu, 0.05, 4, &a) || !(z = calloc((size_t)a->p->n, sizeof *z))) {
    CHECK(0, "pyramid milp mu=%g: set up", mu);
    goto cleanup;
  }
  struct solve_result r;
  if (!(s = test_solver_with("milp", 0.0, OPTS("-milp_objective", "max_sum"))) ||
      solver_solve(s, a->p, z, &r)) {
    CHECK(0, "pyramid milp mu=%g: solve", mu);
    goto cleanup;
  }
  double load[6], lam[6], beta[6], beta_sum = 0.0, vmax = 0.0;
  int unloaded_big_lambda = 0;
  ah_pyramid_loads(a, z, load, lam, beta);
  for (int j = 0; j < 6; j++) {
    beta_sum += beta[j];
    if (lam[j] > 500.0 && load[j] < 1e-12) unloaded_big_lambda++;
  }
  for (int i = 0; i < a->nd; i++)
    vmax = fmax(vmax, fabs(z[i]));
  /* max sum(c_n + beta + lambda) = hmg + mu hmg + 4 U: a diameter load (4 vertices free to take
   * lambda = U) with pinching friction at full mu c_n on both loaded vertices. */
  CHECK(r.status == SOLVE_CONVERGED && unloaded_big_lambda == 4 && fabs(beta_sum - mu * a->hmg) <= 1e-9 &&
            vmax <= 1e-9,
        "pyramid mu=%g: milp max_sum finds a diameter load with internal friction sum beta = mu hmg = %.4g "
        "(%s; %d unloaded vertices at lambda = U; sum beta %.6g; |v| %.1e)",
        mu, mu * a->hmg, solve_status_name(r.status), unloaded_big_lambda, beta_sum, vmax);
cleanup:
  solver_destroy(&s);
  ah_pyramid_destroy(&a);
  free(z);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_paper_points(4);
  test_paper_points(6);
  test_enum_reduced(0.0);
  test_enum_reduced(0.1);
  test_enum_reduced(1.0);
  if (solver_find("milp")) {
    test_milp_full(0.1);
    test_milp_full(1.0);
  }
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
