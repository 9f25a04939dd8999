/* test_grasp.c — the lock piece grasp (Chakraborty et al. Sec. 6.4, eqs. (56)–(61)): shapes' support
 * functions and distances against closed forms, the tripod's statics, the per-trial draws, the outcome
 * classification on hand-placed contacts of each outcome, and whole trials from hand-placed gripper
 * positions (sweet spot, round part, diametric, lost) on scene grasp under stewart_trinkle and
 * geometric_implicit, with the final opening checked against geometry and the two formulations' final
 * poses against each other. */
#include "check.h"
#include "grasp.h"
#include "grasp_fixture.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>

#define R GRASP_DISC_RADIUS

static void test_shapes(void)
{
  const double q[4] = {0.0, 0.0, 0.0, 0.025}, px[2] = {1.0, 0.0};
  double p[2];
  CHECK_CLOSE(grasp_support(q, 0, px, p), R, 1e-15, "disc support along x is R");
  /* tooth 6 (theta_6 = 5.321051): centre 20.75 (cos, sin), extent +2.3 mm along x */
  double cx = R * cos(5.321051), cy = R * sin(5.321051);
  CHECK_CLOSE(grasp_support(q, 6, px, p), cx + GRASP_TOOTH_A, 1e-15, "tooth 6 support along x");
  const double d[2] = {0.6, -0.8};
  grasp_support(q, 6, d, p);
  double u = (p[0] - cx) / GRASP_TOOTH_A, v = (p[1] - cy) / GRASP_TOOTH_B;
  CHECK_CLOSE(pow(u, 4) + pow(v, 4), 1.0, 1e-12, "tooth support point lies on eq. (57)'s curve");
  /* turned by 90 degrees: tooth 6's extent along world y is its a */
  const double qr[4] = {0.0, 0.0, M_PI / 2, 0.025}, py[2] = {0.0, 1.0};
  double c6 = R * cos(5.321051); /* the centre's part-x is world y after the turn */
  CHECK_CLOSE(grasp_support(qr, 6, py, p), c6 + GRASP_TOOTH_A, 1e-15, "turned tooth support");
  struct grasp_contact c;
  grasp_finger_gap(q, 1, 0, &c); /* fingertip line through the centre: the vertex is nearest */
  CHECK_CLOSE(c.gap, 0.025 - R, 1e-12, "disc-right finger gap s - R");
  CHECK(fabs(c.n[0] - 1.0) < 1e-9 && fabs(c.n[1]) < 1e-6, "normal (1, 0)");
  const double qb[4] = {0.0, -0.005, 0.0, 0.025}; /* centre below the tips: the inside edge */
  grasp_finger_gap(qb, -1, 0, &c);
  CHECK_CLOSE(c.gap, 0.025 - R, 1e-12, "disc-left finger inside edge gap");
  CHECK(fabs(c.n[0] + 1.0) < 1e-12, "left normal (-1, 0)");
  const double qa[4] = {0.0, 0.03, 0.0, 0.01}; /* centre above the tips: the vertex (s, 0) */
  grasp_finger_gap(qa, 1, 0, &c);
  CHECK_CLOSE(c.gap, sqrt(0.01 * 0.01 + 0.03 * 0.03) - R, 1e-12, "disc-vertex gap");
  const double qo[4] = {0.0, 0.0, 0.0, 0.02}; /* overlap: the signed distance is the depth */
  grasp_finger_gap(qo, 1, 0, &c);
  CHECK_CLOSE(c.gap, 0.02 - R, 1e-12, "overlap depth");
  CHECK_CLOSE(grasp_part_extent(q), R, 1e-15, "extent of the part at its centre");
}

static void test_tripod(void)
{
  double p[3][2], N[3];
  for (int i = 0; i < 3; i++) {
    p[i][0] = 0.01 * cos(2 * M_PI * i / 3 + 0.3);
    p[i][1] = 0.01 * sin(2 * M_PI * i / 3 + 0.3);
  }
  CHECK(grasp_tripod_statics(p, 0.03, 9.81, N) == 0, "symmetric tripod holds");
  for (int i = 0; i < 3; i++)
    CHECK_CLOSE(N[i], 0.03 * 9.81 / 3, 1e-14, "symmetric tripod: m g / 3 at point %d", i);
  double q[3][2] = {{0.01, 0.0}, {-0.004, 0.008}, {-0.003, -0.012}};
  CHECK(grasp_tripod_statics(q, 0.03, 9.81, N) == 0, "skew tripod holds");
  double f = N[0] + N[1] + N[2], mx = 0, my = 0;
  for (int i = 0; i < 3; i++)
    mx += N[i] * q[i][0], my += N[i] * q[i][1];
  CHECK_CLOSE(f, 0.03 * 9.81, 1e-14, "sum N = m g");
  CHECK(fabs(mx) < 1e-15 && fabs(my) < 1e-15, "moments about the centre of mass vanish");
  double o[3][2] = {{0.01, 0.001}, {0.012, 0.004}, {0.011, -0.003}}; /* all on one side */
  CHECK(grasp_tripod_statics(o, 0.03, 9.81, N) == 1, "centre of mass outside the tripod is refused");
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937), *rng2 = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 42);
  gsl_rng_set(rng2, 42);
  int ok = 1;
  for (int k = 0; k < 1000; k++) {
    struct grasp_params a = {.mass = 0.03, .g = 9.81}, b = a;
    const double medium[2] = {0.33, 0.66};
    grasp_draw(rng, medium, medium, &a);
    grasp_draw(rng2, medium, medium, &b);
    ok &= a.mu_support > 0.33 && a.mu_support <= 0.66 && a.mu_grip > 0.33 && a.mu_grip <= 0.66;
    ok &= a.mu_support == b.mu_support && a.mu_grip == b.mu_grip;
    for (int i = 0; i < 3; i++)
      ok &=
          a.tripod[i][0] == b.tripod[i][0] && a.tripod[i][1] == b.tripod[i][1] && a.normal[i] == b.normal[i];
    for (int i = 0; i < 3; i++)
      ok &= a.normal[i] >= 0.1 * 0.03 * 9.81 / 3 - 1e-15 && hypot(a.tripod[i][0], a.tripod[i][1]) <= 0.9 * R;
  }
  CHECK(ok, "1000 draws: frictions in (0.33, 0.66], every normal force >= 10 %% of m g / 3, reproducible");
  /* separate bounds per coefficient: the same tripod and the same quantiles (common random numbers) */
  gsl_rng_set(rng, 7);
  gsl_rng_set(rng2, 7);
  const double medium[2] = {0.33, 0.66}, sup[2] = {0.1, 0.2}, grip[2] = {0.8, 1.2};
  struct grasp_params a = {.mass = 0.03, .g = 9.81}, b = a;
  grasp_draw(rng, medium, medium, &a);
  grasp_draw(rng2, sup, grip, &b);
  CHECK(b.mu_support > 0.1 && b.mu_support <= 0.2 && b.mu_grip > 0.8 && b.mu_grip <= 1.2 &&
            fabs((b.mu_support - 0.1) / 0.1 - (a.mu_support - 0.33) / 0.33) < 1e-12 &&
            fabs((b.mu_grip - 0.8) / 0.4 - (a.mu_grip - 0.33) / 0.33) < 1e-12 &&
            a.tripod[2][1] == b.tripod[2][1],
        "per-coefficient bounds: mu_s %.6f in (0.1, 0.2], mu_g %.6f in (0.8, 1.2], same quantiles and tripod",
        b.mu_support, b.mu_grip);
  gsl_rng_free(rng);
  gsl_rng_free(rng2);
}

static struct grasp_contact ct(int finger, int comp, double nx, double ny)
{
  struct grasp_contact c = {.finger = finger, .component = comp, .n = {nx, ny}, .impulse = 1.0};
  return c;
}

static void test_classify(void)
{
  struct grasp_contact c[3];
  c[0] = ct(1, 6, 1, 0), c[1] = ct(-1, 1, -1, 0);
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.014) == GRASP_OUTER_TEETH, "outer edges of teeth 1 and 6: success");
  c[2] = ct(1, 0, 0.9, -0.43);
  CHECK(grasp_classify(c, 3, 0.1, 1e-4, 0.014) == GRASP_OUTER_TEETH, "... also touching the disc");
  c[0] = ct(1, 5, 1, 0);
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.014) == GRASP_OTHER_TEETH, "teeth 1 and 5: other teeth");
  c[0] = ct(1, 6, 0.1, -0.995); /* on tooth 6's top edge, not its outer edge */
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.014) == GRASP_OTHER_TEETH, "tooth 6's top: other teeth");
  c[0] = ct(1, 0, 1, 0), c[1] = ct(-1, 0, -1, -0.05);
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.02) == GRASP_DIAMETRIC, "disc near its diameter: diametric");
  c[0] = ct(1, 0, cos(-0.7), sin(-0.7)), c[1] = ct(-1, 0, -cos(-0.7), sin(-0.7));
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.015) == GRASP_ROUND, "disc below its diameter: round part");
  c[1].impulse = 0.0;
  CHECK(grasp_classify(c, 2, 0.1, 1e-4, 0.015) == GRASP_LOST, "one finger unloaded: lost");
  CHECK(grasp_classify(c, 0, 0.1, 1e-4, 5e-5) == GRASP_LOST, "jaws met: lost");
}

/* The half-opening at which the closing right finger first touches the part at (-x, -y) (bisection on the
 * nearest component's gap), and that contact. */
static void first_touch(double x, double y, struct grasp_contact *c)
{
  double lo = 0.0, hi = 0.05;
  for (int it = 0; it < 60; it++) {
    const double q[4] = {-x, -y, 0.0, 0.5 * (lo + hi)};
    double gap = INFINITY;
    for (int k = 0; k < GRASP_COMPONENTS; k++) {
      struct grasp_contact e;
      grasp_finger_gap(q, 1, k, &e);
      if (e.gap < gap) gap = e.gap, *c = e;
    }
    if (gap > 0)
      hi = 0.5 * (lo + hi);
    else
      lo = 0.5 * (lo + hi);
  }
}

/* The first contact's normal angle below the horizontal sets the gripper friction under which the part slides
 * up onto the teeth (tan of it); the guide and the reference README quote these numbers. */
static void test_first_touch(void)
{
  const double ys[] = {-0.011, -0.0115, -0.011, -0.0115}, xs[] = {0.0, 0.0, 0.0005, 0.0005};
  const double deg[] = {32.0, 33.7, 32.0, 33.7};
  for (int i = 0; i < 4; i++) {
    struct grasp_contact c = {0};
    first_touch(xs[i], ys[i], &c);
    const double a = atan2(-c.n[1], c.n[0]) * 180.0 / M_PI;
    CHECK(c.component == 0 && fabs(a - deg[i]) < 0.05 && fabs(a - asin(-ys[i] / R) * 180.0 / M_PI) < 1e-5,
          "(%g, %g) mm: first touch on the disc at %.4f deg below the horizontal (want %.1f, asin(|y|/R)); "
          "tan %.4f",
          1e3 * xs[i], 1e3 * ys[i], a, deg[i], tan(a * M_PI / 180.0));
  }
}

/* Whole trials with fixed frictions mu = 0.5 and a symmetric tripod (grasp_fixture.h), no support damping,
 * on scene grasp by the run loop: the explicit LCP (stewart_trinkle, Lemke) and the geometrically implicit
 * NCP (geometric_implicit, fb_newton) end each hand-placed position alike; at the sweet spot their final
 * poses agree to 1e-6 m. */
static void test_trials(void)
{
  struct grasp_result r, ri;
  int rc =
      grasp_fixture_trial("stewart_trinkle", "lemke", NULL, 0.5, 0.0, -0.011, &r) ||
      grasp_fixture_trial("geometric_implicit", "fb_newton", grasp_fixture_implicit, 0.5, 0.0, -0.011, &ri);
  if (rc) return;
  /* the paper's sweet spot */
  CHECK(r.outcome == GRASP_OUTER_TEETH && r.at_rest, "(0, -11) mm: held by the outer teeth at rest (%s)",
        grasp_outcome_name(r.outcome));
  CHECK(ri.outcome == GRASP_OUTER_TEETH && ri.at_rest,
        "(0, -11) mm, geometric_implicit: held by the outer teeth at rest (%s; %s)",
        grasp_outcome_name(ri.outcome), ri.message);
  /* the fingers on the outer edges of teeth 1 and 6: the opening is at most their span 2 (20.75 cos
   * 0.962134 + 2.3) mm (less where the rounded side meets the fingertip) */
  double span = 2.0 * (R * cos(2 * M_PI - 5.321051) + GRASP_TOOTH_A);
  CHECK(2 * r.q[3] <= span + 1e-9 && 2 * r.q[3] > span - 0.5e-3, "opening %.6f mm within 0.5 mm under %.6f",
        2e3 * r.q[3], 1e3 * span);
  CHECK(fabs(r.q[0]) < 1e-9 && fabs(r.q[2]) < 1e-6, "symmetric: no sideways drift, no turn");
  CHECK(r.q[1] > 0.011 - R * 1e-9, "the part slid up, away from the fingers (y %.4f mm)", 1e3 * r.q[1]);
  CHECK(fabs(ri.q[0]) < 1e-8 && fabs(ri.q[2]) < 1e-6,
        "geometric_implicit symmetric: no sideways drift (%.1e m), no turn (%.1e)", ri.q[0], ri.q[2]);
  CHECK_CLOSE(ri.q[3], r.q[3], 1e-6, "final half-opening %.5f mm, explicit LCP %.5f mm", 1e3 * ri.q[3],
              1e3 * r.q[3]);
  CHECK_CLOSE(ri.q[1], r.q[1], 1e-6, "final height %.4f mm, explicit LCP %.4f mm", 1e3 * ri.q[1],
              1e3 * r.q[1]);
  /* the other outcomes, each under both formulations */
  const double ys[] = {-0.0005, -0.0055, -0.021};
  const enum grasp_outcome want[] = {GRASP_DIAMETRIC, GRASP_ROUND, GRASP_LOST};
  const char *what[] = {"tips 0.5 mm under the centre: squeezed across the diameter",
                        "held by friction on the round part",
                        "tips under the disc, level with the lowest teeth (3 and 4): they slip under it"};
  for (int k = 0; k < 3; k++)
    for (int f = 0; f < 2; f++) {
      struct grasp_result t;
      const char *form = f ? "geometric_implicit" : "stewart_trinkle";
      if (grasp_fixture_trial(form, f ? "fb_newton" : "lemke", f ? grasp_fixture_implicit : NULL, 0.5, 0.0,
                              ys[k], &t))
        return;
      CHECK(t.outcome == want[k] && (want[k] == GRASP_LOST || t.at_rest), "(0, %g) mm, %s: %s (%s, want %s)",
            1e3 * ys[k], form, what[k], grasp_outcome_name(t.outcome), grasp_outcome_name(want[k]));
      if (want[k] == GRASP_DIAMETRIC)
        CHECK_CLOSE(t.q[3], sqrt(R * R - t.q[1] * t.q[1]), 1e-9,
                    "%s: the fingertips on the disc at its final height", form);
    }
  /* below the part: the jaws meet after one free jump (the run loop's skip of the free closing) and the
   * steps that take them to s_min */
  if (grasp_fixture_trial("stewart_trinkle", "lemke", NULL, 0.5, 0.0, -0.03, &r)) return;
  CHECK(r.outcome == GRASP_LOST && r.steps <= 2 && r.q[3] <= grasp_fixture_opts().s_min,
        "(0, -30) mm: nothing to grasp, the jaws met within 2 steps (%ld)", r.steps);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_shapes();
  test_tripod();
  test_classify();
  test_first_touch();
  test_trials();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
