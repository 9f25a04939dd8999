/* test_grasp_implicit.c — the grasp study's step as the geometrically implicit mixed NCP (Chakraborty et al.
 * Sec. 3-4 and 6.4, grasp_trial_implicit.c): its analytic Jacobian against central finite differences at
 * random states and unknowns (the disc and the teeth against both fingertips, on a face and at the vertex),
 * and whole trials from hand-placed gripper positions (sweet spot, round part, diametric, lost) checked
 * against geometry and against the explicit LCP; two trials that fb_newton fails without the step halving
 * (a flat-flank grip, a fingertip's vertex on the disc) and ends with it as the explicit LCP does. */
#include "check.h"
#include "fd_jacobian.h"
#include "grasp.h"
#include "grasp_fixture.h"
#include "grasp_implicit.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define R GRASP_DISC_RADIUS

/* grasp_fixture.h's model with a little support damping (0.1 N s/m) */
static struct grasp_params params(double mu) { return grasp_fixture_params(mu, 0.1); }

static void test_jacobian(void)
{
  struct grasp_implicit *g = NULL;
  CHECK(grasp_implicit_create(&g) == 0, "create the implicit step");
  if (!g) return;
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  const struct grasp_params p = params(0.5);
  const struct grasp_trial_opts o = grasp_fixture_opts();
  /* part poses near the fingers: (y of the part's centre, turn, half-opening) with the pairs they touch */
  const double pose[4][3] = {{0.0, 0.0, R + 1e-4},     /* the disc on both inside edges */
                             {0.011, 0.02, 0.0135},    /* the sweet spot: teeth 1 and 6, the disc */
                             {-0.0205, 0.0, 0.0},      /* fingertips' top edges under the disc */
                             {0.004, -0.1, R * 0.97}}; /* overlapping a little */
  double worst = 0.0;
  int pairs = 0;
  for (int k = 0; k < 4; k++) {
    struct grasp_state st = {.q = {0.0005, pose[k][0], pose[k][1], pose[k][2]},
                             .u = {0.001, -0.002, 0.05, -0.02}};
    if (st.q[3] <= 0.0) st.q[3] = grasp_part_extent(st.q) * 0.2;
    struct grasp_contact c[GRASP_MAX_CONTACTS];
    const int nc = grasp_detect(st.q, 2e-3, c);
    pairs += nc;
    struct cp_problem *pr = grasp_implicit_assemble(g, &p, &o, &st, c, nc, 0);
    double *z = calloc((size_t)pr->n, sizeof *z);
    for (int trial = 0; z && trial < 5; trial++) {
      for (int i = 0; i < pr->n; i++) /* complementarity unknowns kept >= 0: they are multipliers */
        z[i] = isfinite(pr->lo[i]) ? -pr->lo[i] * 0.5 + gsl_rng_uniform(rng)
                                   : 0.2 * (gsl_rng_uniform(rng) - 0.5);
      worst = fmax(worst, fd_jacobian_error(pr, z, 1));
    }
    free(z);
  }
  CHECK(pairs >= 6 && worst < 1e-6, "analytic Jacobian = finite differences (%d pairs, 20 points): %.2e",
        pairs, worst);
  gsl_rng_free(rng);
  grasp_implicit_destroy(&g);
}

static void trial(struct grasp_trial *t, double x, double y, double mu, struct grasp_result *r)
{
  const struct grasp_params p = params(mu);
  const struct grasp_trial_opts o = grasp_fixture_opts();
  grasp_trial_run(t, &p, &o, x, y, r);
}

static void test_trials(void)
{
  struct solver *s = NULL, *sl = NULL;
  struct grasp_trial *t = NULL, *te = NULL;
  char msg[256] = "";
  if (solver_create("fb_newton", &s, msg, sizeof msg) || solver_create("lemke", &sl, msg, sizeof msg) ||
      grasp_trial_create(&t, s, 8, GRASP_GEOMETRIC_IMPLICIT) ||
      grasp_trial_create(&te, sl, 8, GRASP_EXPLICIT_LCP)) {
    CHECK(0, "create: %s", msg);
    return;
  }
  struct grasp_result r, re;
  /* the paper's sweet spot: the part slides up between the fingers until its outer teeth reach them */
  trial(t, 0.0, -0.011, 0.5, &r);
  trial(te, 0.0, -0.011, 0.5, &re);
  CHECK(re.outcome == GRASP_OUTER_TEETH, "(0, -11) mm, explicit LCP: held by the outer teeth");
  CHECK(r.outcome == GRASP_OUTER_TEETH && r.at_rest, "(0, -11) mm: held by the outer teeth at rest (%s; %s)",
        grasp_outcome_name(r.outcome), r.message);
  CHECK(fabs(r.q[0]) < 1e-8 && fabs(r.q[2]) < 1e-6, "symmetric: no sideways drift (%.1e m), no turn (%.1e)",
        r.q[0], r.q[2]);
  CHECK_CLOSE(r.q[3], re.q[3], 1e-6, "final half-opening %.5f mm, explicit LCP %.5f mm", 1e3 * r.q[3],
              1e3 * re.q[3]);
  CHECK_CLOSE(r.q[1], re.q[1], 1e-6, "final height %.4f mm, explicit LCP %.4f mm", 1e3 * r.q[1],
              1e3 * re.q[1]);
  trial(t, 0.0, -0.0005, 0.5, &r);
  CHECK(r.outcome == GRASP_DIAMETRIC && r.at_rest, "(0, -0.5) mm: diametric (%s; %s)",
        grasp_outcome_name(r.outcome), r.message);
  CHECK_CLOSE(r.q[3], sqrt(R * R - r.q[1] * r.q[1]), 1e-9, "the fingertips on the disc at its final height");
  trial(t, 0.0, -0.0055, 0.5, &r);
  CHECK(r.outcome == GRASP_ROUND && r.at_rest, "(0, -5.5) mm: held by friction on the round part (%s; %s)",
        grasp_outcome_name(r.outcome), r.message);
  trial(t, 0.0, -0.021, 0.5, &r);
  CHECK(r.outcome == GRASP_LOST, "(0, -21) mm: the tips slip under the part: lost (%s; %s)",
        grasp_outcome_name(r.outcome), r.message);
  grasp_trial_destroy(&t);
  grasp_trial_destroy(&te);
  solver_destroy(&s);
  solver_destroy(&sl);
}

/* Steps whose NCP fb_newton cannot solve from either guess (the last step's answers, the explicit LCP's),
 * taken as two half steps (grasp_trial.c, -step_halvings). (2.5, -9.5) mm: the grasp ends with the flat
 * middles of the outer teeth's flanks (curvature ~1e-5 /mm) on the fingers' inside edges and the disc on
 * both fingertips' vertices; at that step Newton crawls to the iteration limit (the friction split among
 * four contacts and the support is nearly indeterminate). (0.5, -5.5) mm: a fingertip's vertex meets the
 * disc at the first contact; Newton stalls with the vertex inside the disc. Without the halving both
 * trials end as solver failures; with it, at the explicit LCP's outcome and final state. */
static void test_halving(void)
{
  struct solver *s = NULL, *sl = NULL;
  struct grasp_trial *t = NULL, *te = NULL;
  char msg[256] = "";
  if (solver_create("fb_newton", &s, msg, sizeof msg) || solver_create("lemke", &sl, msg, sizeof msg) ||
      grasp_trial_create(&t, s, 8, GRASP_GEOMETRIC_IMPLICIT) ||
      grasp_trial_create(&te, sl, 8, GRASP_EXPLICIT_LCP)) {
    CHECK(0, "create: %s", msg);
    return;
  }
  const struct grasp_params p = params(0.5);
  struct grasp_trial_opts o = grasp_fixture_opts();
  const double pos[2][2] = {{0.0025, -0.0095}, {0.0005, -0.0055}};
  const enum grasp_outcome want[2] = {GRASP_OUTER_TEETH, GRASP_ROUND};
  const double tol_q[2] = {1e-7, 2e-5}, tol_th[2] = {1e-6, 1e-3}; /* [m], [rad] */
  for (int k = 0; k < 2; k++) {
    struct grasp_result r0, r, re;
    o.halvings = 0;
    grasp_trial_run(t, &p, &o, pos[k][0], pos[k][1], &r0);
    o.halvings = 8;
    grasp_trial_run(t, &p, &o, pos[k][0], pos[k][1], &r);
    grasp_trial_run(te, &p, &o, pos[k][0], pos[k][1], &re);
    const double x = 1e3 * pos[k][0], y = 1e3 * pos[k][1];
    CHECK(r0.outcome == GRASP_SOLVER_FAILURE, "(%.1f, %.1f) mm without halving: solver failure at step %ld",
          x, y, r0.steps);
    CHECK(r.outcome == want[k] && re.outcome == want[k] && r.at_rest && r.halved >= 1,
          "(%.1f, %.1f) mm with halving: %s at rest (explicit LCP: %s), %d step(s) halved; %s", x, y,
          grasp_outcome_name(r.outcome), grasp_outcome_name(re.outcome), r.halved, r.message);
    double dq = 0.0;
    for (int j = 0; j < 4; j++)
      if (j != 2) dq = fmax(dq, fabs(r.q[j] - re.q[j]));
    CHECK(dq < tol_q[k] && fabs(r.q[2] - re.q[2]) < tol_th[k],
          "(%.1f, %.1f) mm: final position, height, half-opening within %.1e m of the explicit LCP's (%.1e), "
          "turn within %.0e (%.1e)",
          x, y, tol_q[k], dq, tol_th[k], fabs(r.q[2] - re.q[2]));
  }
  grasp_trial_destroy(&t);
  grasp_trial_destroy(&te);
  solver_destroy(&s);
  solver_destroy(&sl);
}

int main(void)
{
  test_jacobian();
  test_trials();
  test_halving();
  return check_finish();
}
