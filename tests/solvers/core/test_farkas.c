/* test_farkas.c — the harness's certificate of an empty feasible set (solvers/core/farkas.c) on
 * adversarially scaled problems. A Farkas vector is proved in exact arithmetic, so a problem with a feasible
 * point must never be certified, however its rows and columns are scaled (factors 10^u, u uniform in
 * [-15, 15]: feasible points then lie at 1e15 and beyond, where a floating-point slack once passed), while a
 * problem with a certificate with margin keeps one under the same scalings (y' = D1^-1 y certifies
 * D1 M D2, D1 q). Also the case that exposed the old slack: M = [[1e15, 1], [1, 1e-15]], q = (-1, -1),
 * solved by z = (0, 1e15). */
#include "check.h"
#include "cp.h"
#include "farkas.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>

#define TRIALS 1000

/* M = D1 M D2 and q = D1 q, the factors 10^u with u uniform in [-15, 15] (a row or column may keep 1). */
static void scale_badly(struct cp_problem *p, gsl_rng *rng)
{
  const int n = p->n;
  double d1[16], d2[16];
  for (int i = 0; i < n; i++) {
    d1[i] = pow(10.0, 30.0 * gsl_rng_uniform(rng) - 15.0);
    d2[i] = pow(10.0, 30.0 * gsl_rng_uniform(rng) - 15.0);
  }
  for (int i = 0; i < n; i++) {
    p->q[i] *= d1[i];
    for (int j = 0; j < n; j++)
      p->M[i * n + j] *= d1[i] * d2[j];
  }
}

/* A random LCP with a strictly feasible point: z* > 0 and M z* + q = w* > 0; with free_first, component 0
 * free (a mixed LCP) and its row an equality met at z*. */
static struct cp_problem *feasible_lcp(int n, int free_first, gsl_rng *rng)
{
  struct cp_problem *p = cp_lcp_create(n);
  double z[16];
  for (int j = 0; j < n; j++)
    z[j] = 0.1 + gsl_rng_uniform(rng);
  for (int i = 0; i < n; i++) {
    double mz = 0.0;
    for (int j = 0; j < n; j++)
      mz += (p->M[i * n + j] = 2.0 * gsl_rng_uniform(rng) - 1.0) * z[j];
    p->q[i] = (i == 0 && free_first ? 0.0 : 0.1 + gsl_rng_uniform(rng)) - mz;
  }
  if (free_first) p->lo[0] = -INFINITY;
  return p;
}

/* A random LCP with a certificate with margin: y >= 0 (y_0 = 1), (M'y)_j <= -0.1 |y|, q'y <= -0.1 |y|. */
static struct cp_problem *infeasible_lcp(int n, gsl_rng *rng)
{
  struct cp_problem *p = cp_lcp_create(n);
  double y[16], yy = 0.0;
  for (int i = 0; i < n; i++) {
    y[i] = i == 0 || gsl_rng_uniform(rng) < 0.5 ? 0.5 + gsl_rng_uniform(rng) : 0.0;
    yy += y[i] * y[i];
  }
  for (int i = 0; i < n * n; i++)
    p->M[i] = 2.0 * gsl_rng_uniform(rng) - 1.0;
  for (int j = 0; j < n; j++) { /* column j minus a multiple of y: (M'y)_j becomes -(0.1 + u) |y|^2 */
    double s = 0.0;
    for (int i = 0; i < n; i++)
      s += p->M[i * n + j] * y[i];
    double t = (s + (0.1 + gsl_rng_uniform(rng)) * yy) / yy;
    for (int i = 0; i < n; i++)
      p->M[i * n + j] -= t * y[i];
  }
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += (p->q[i] = 2.0 * gsl_rng_uniform(rng) - 1.0) * y[i];
  for (int i = 0; i < n; i++)
    p->q[i] -= (s + (0.1 + gsl_rng_uniform(rng)) * yy) / yy * y[i];
  return p;
}

static void test_slack_case(void)
{
  struct cp_problem *p = cp_lcp_create(2);
  const double M[4] = {1e15, 1, 1, 1e-15};
  for (int k = 0; k < 4; k++)
    p->M[k] = M[k];
  p->q[0] = p->q[1] = -1.0;
  double qty;
  const char *why = "";
  int certified = cp_farkas_certificate(p, &qty, &why);
  CHECK(!certified, "M = [[1e15, 1], [1, 1e-15]], q = (-1, -1) (z = (0, 1e15) solves it): not certified (%s)",
        why);
  cp_destroy(&p);
}

/* Before the exact check the floating-point test passed for feasible problems scaled so; the rational
 * vertex of GLPK's basis (and glp_exact's) finds every certificate of the scaled infeasible ones. */
static void test_scaled(gsl_rng *rng)
{
  int wrong = 0, kept = 0, plain = 0;
  for (int t = 0; t < TRIALS; t++) {
    const int n = 2 + t % 7;
    double qty;
    const char *why;
    struct cp_problem *f = feasible_lcp(n, t % 2, rng), *g = infeasible_lcp(n, rng);
    plain += cp_farkas_certificate(g, &qty, &why);
    scale_badly(f, rng);
    scale_badly(g, rng);
    wrong += cp_farkas_certificate(f, &qty, &why);
    kept += cp_farkas_certificate(g, &qty, &why);
    cp_destroy(&f);
    cp_destroy(&g);
  }
  CHECK(wrong == 0,
        "%d feasible LCPs and mixed LCPs (n = 2..8), rows and columns scaled by 10^[-15,15]: %d certified "
        "infeasible (0 allowed)",
        TRIALS, wrong);
  CHECK(plain == TRIALS, "%d LCPs with a certificate with margin, unscaled: %d certified", TRIALS, plain);
  CHECK(kept == TRIALS, "the same LCPs scaled by 10^[-15,15]: %d of %d certified", kept, TRIALS);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 20261128);
  test_slack_case();
  test_scaled(rng);
  gsl_rng_free(rng);
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
