/* test_boxed_lcp.c — the engines' boxed LCP (formulations/types/classic/boxed_lcp.c) against analytic
 * inclines, per unit mass: tangential load L = g sin theta, normal load N = g cos theta.
 * 2D (scene_incline_2d): the box is Coulomb's interval: sticks for tan theta <= mu, else slides with
 * a = L - mu N (1e-6 relative after 1 s at h = 1e-3), with dantzig and pgs.
 * 3D (scene_incline_3d, whose downhill direction is the tangent t2 of formulation_tangents; gravity turned
 * about the normal by psi to load the box between its tangents): each tangent row is limited on its own,
 * |p_t1|, |p_t2| <= mu p_n, so with the load's components L_1 = L sin psi, L_2 = L cos psi the box sticks
 * iff |L_1| <= mu N and |L_2| <= mu N, and slides with a_k = sign(L_k) max(0, |L_k| - mu N) per tangent:
 *   psi = 0: Coulomb's a along the slope, no drift;
 *   psi = 45 deg: the load on the box's diagonal: friction sqrt(2) mu N, a = L - sqrt(2) mu N along the load
 *     (no drift, but sticks up to tan theta = sqrt(2) mu where Coulomb slides);
 *   psi = 30 deg, theta 30, mu 0.3: |L_1| < mu N: the box slides along t2 only, 30 deg off the load (which
 *     Coulomb follows): the drift goes toward the nearer tangent;
 *   psi = 35 deg, theta 40, mu 0.3: both saturate, the motion 25.1 deg off t2, the load 35 deg.
 * The physics checks see the box: phys_coulomb (the true cone) > 0 wherever the friction, each tangent
 * clamped to mu N on its own, is longer than mu N (the stick at psi 45 deg too).
 * Every run with -boxed_lcp_cfm 1e-10 (W + 1e-7 I at h = 1e-3; the answers above hold to 1e-6): without
 * it a resting box's four corners on a plane make W singular, which principal pivoting cannot factor
 * (numerical_failure, as ODE and Bullet without their CFM). The sphere on two spheres' W is exactly
 * symmetric (dantzig takes it: every step solves). */
#include "check.h"
#include "formulation.h"
#include "geom3d.h"
#include "physics_check.h"
#include "run.h"
#include "scene.h"
#include "scenes.h"
#include "solver_fixture.h"

#include <math.h>
#include <petscsys.h>

static const double G = 9.81, H = 1e-3;
enum { STEPS = 1000 };

/* Runs w STEPS steps; failed solves, and the physics observer's worst coulomb violation. -1 on an error. */
static int run(struct world *w, const char *solver, double *coulomb)
{
  struct simulation sim = {0};
  struct run_summary sum;
  struct run_observer obs = {0};
  struct run_physics_stats st = {0};
  int failed = -1;
  if (test_sim_open(&sim, w, "boxed_lcp", solver, OPTS("-boxed_lcp_cfm", "1e-10")) &&
      run_observer_physics(&obs, &st) == 0 && simulation_run(&sim, H, STEPS, &obs, 1, &sum) == 0)
    failed = (int)sum.failed_steps;
  *coulomb = st.max[2];
  run_observers_destroy(&obs, 1);
  sim.w = NULL;
  simulation_close(&sim);
  return failed;
}

static void test_incline_2d(double theta_deg, double mu, const char *solver)
{
  double theta = theta_deg * M_PI / 180.0, coulomb;
  struct world *w = scene_incline_2d(theta, mu, 0.4, 0.2, 2.0);
  if (!w) {
    CHECK(0, "2D incline built");
    return;
  }
  double x0 = w->bodies[1].x[0], y0 = w->bodies[1].x[1];
  int failed = run(w, solver, &coulomb);
  const struct body *b = &w->bodies[1];
  double ds = -((b->x[0] - x0) * cos(theta) + (b->x[1] - y0) * sin(theta));
  double vs = -(b->v[0] * cos(theta) + b->v[1] * sin(theta)), a = vs / (STEPS * H);
  double exact = G * (sin(theta) - mu * cos(theta));
  CHECK(failed == 0, "2D %g deg mu %g %s: every solve converged (%d failed)", theta_deg, mu, solver, failed);
  if (tan(theta) <= mu)
    CHECK(fabs(ds) < 1e-9 && fabs(vs) < 1e-9, "2D %g deg mu %g %s: sticks (moved %.2g m)", theta_deg, mu,
          solver, ds);
  else
    CHECK(fabs(a - exact) <= 1e-6 * exact, "2D %g deg mu %g %s: slides, a = %.12g vs Coulomb %.12g",
          theta_deg, mu, solver, a, exact);
  CHECK(coulomb < 1e-9, "2D %g deg mu %g %s: inside Coulomb's cone (phys_coulomb %.2g)", theta_deg, mu,
        solver, coulomb);
  world_destroy(&w);
}

/* The 3D incline with gravity turned by psi about the plane's normal; want_corner: both tangents saturate. */
static void test_incline_3d(double theta_deg, double mu, double psi_deg, const char *solver)
{
  double theta = theta_deg * M_PI / 180.0, psi = psi_deg * M_PI / 180.0, coulomb;
  struct world *w = scene_incline_3d(theta, mu, 0.2, 0.15, 0.1, 2.0);
  if (!w) {
    CHECK(0, "3D incline built");
    return;
  }
  double n[3] = {-sin(theta), 0.0, cos(theta)}, t[3 * 4];
  formulation_tangents(3, n, 4, t);
  const double *t1 = t, *t2 = t + 3;
  /* downhill d = (-cos, 0, -sin); the load L (cos psi d + sin psi t1') with t1' the other in-plane unit */
  double d[3] = {-cos(theta), 0.0, -sin(theta)}, side[3];
  vec3_cross(n, d, side);
  for (int k = 0; k < 3; k++)
    w->gravity[k] = -G * cos(theta) * n[k] + G * sin(theta) * (cos(psi) * d[k] + sin(psi) * side[k]);
  double L1 = vec3_dot(w->gravity, t1), L2 = vec3_dot(w->gravity, t2), muN = mu * G * cos(theta);
  double a1 = copysign(fmax(0.0, fabs(L1) - muN), L1), a2 = copysign(fmax(0.0, fabs(L2) - muN), L2);
  double x0[3];
  vec3_scale(w->bodies[1].x, 1.0, x0);
  int failed = run(w, solver, &coulomb);
  const struct body *b = &w->bodies[1];
  double v1 = vec3_dot(b->v, t1), v2 = vec3_dot(b->v, t2), T = STEPS * H;
  double want = hypot(a1, a2), got = hypot(v1, v2) / T, coulomb_a = fmax(0.0, G * sin(theta) - muN);
  CHECK(failed == 0, "3D %g deg mu %g psi %g %s: every solve converged (%d failed)", theta_deg, mu, psi_deg,
        solver, failed);
  if (want == 0.0) {
    double moved[3];
    vec3_sub(b->x, x0, moved);
    CHECK(vec3_norm(moved) < 1e-9, "3D %g deg mu %g psi %g %s: sticks (moved %.2g m; Coulomb's a = %.4g)",
          theta_deg, mu, psi_deg, solver, vec3_norm(moved), coulomb_a);
  } else {
    CHECK(fabs(v1 / T - a1) <= 1e-6 * want && fabs(v2 / T - a2) <= 1e-6 * want,
          "3D %g deg mu %g psi %g %s: a = (%.9g, %.9g) along (t1, t2) vs the box's (%.9g, %.9g); |a| %.6g, "
          "Coulomb's %.6g; motion %.2f deg off the load",
          theta_deg, mu, psi_deg, solver, v1 / T, v2 / T, a1, a2, got, coulomb_a,
          fabs(atan2(v1, v2) - atan2(L1, L2)) * 180.0 / M_PI);
  }
  /* the friction per unit mass, each tangent clamped on its own: outside the cone when |f| > mu N */
  int outside = hypot(fmin(fabs(L1), muN), fmin(fabs(L2), muN)) > muN * (1.0 + 1e-9);
  CHECK(outside ? coulomb > 1e-6 : coulomb < 1e-9, "3D %g deg mu %g psi %g %s: phys_coulomb %.3g (%s)",
        theta_deg, mu, psi_deg, solver, coulomb,
        outside ? "the box's friction outside the cone" : "inside the cone");
  world_destroy(&w);
}

/* Without CFM: dantzig cannot factor the resting box's Delassus matrix (a solve fails: a recorded status,
 * the run goes on); pgs needs no factor. */
static void test_singular(void)
{
  struct world *w = scene_incline_3d(20.0 * M_PI / 180.0, 0.5, 0.2, 0.15, 0.1, 2.0);
  struct simulation sim = {0};
  struct run_summary sum = {0};
  int ok = w && test_sim_open(&sim, w, "boxed_lcp", "dantzig", NULL) &&
           simulation_run(&sim, H, 5, NULL, 0, &sum) == 0;
  CHECK(ok && sum.failed_steps >= 1, "3D resting box without CFM: dantzig's solve fails (%ld failed steps)",
        sum.failed_steps);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

/* The sphere on two spheres (Chakraborty et al. Sec. 6.2): W = J M^-1 J' must be exactly symmetric, or
 * dantzig refuses it (computed entry by entry, a pair that cancels to ~0 differed by 6.7e-5 relative and
 * every step was not_applicable); assembled once per pair, 100 steps of 0.01 s all solve. */
static void test_sphere_two_spheres(void)
{
  struct world *w = NULL;
  char msg[256] = "";
  struct simulation sim = {0};
  struct run_summary sum = {0};
  int ok = scene_create_from_spec("sphere_two_spheres", NULL, &w, msg, sizeof msg) == 0 &&
           test_sim_open(&sim, w, "boxed_lcp", "dantzig", OPTS("-boxed_lcp_cfm", "1e-10")) &&
           simulation_run(&sim, 0.01, 100, NULL, 0, &sum) == 0;
  CHECK(ok && sum.failed_steps == 0, "sphere on two spheres, dantzig: %ld failed steps of 100 %s",
        sum.failed_steps, msg);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  static const char *const solvers[] = {"dantzig", "pgs"};
  for (int s = 0; s < 2; s++) {
    test_incline_2d(20.0, 0.5, solvers[s]);
    test_incline_2d(30.0, 0.3, solvers[s]);
  }
  test_incline_3d(20.0, 0.5, 0.0, "dantzig");
  test_incline_3d(30.0, 0.3, 0.0, "dantzig");
  test_incline_3d(30.0, 0.3, 45.0, "dantzig");
  test_incline_3d(atan(1.2 * 0.5) * 180.0 / M_PI, 0.5, 45.0, "dantzig"); /* sticks: Coulomb would slide */
  test_incline_3d(30.0, 0.3, 30.0, "dantzig");
  test_incline_3d(40.0, 0.3, 35.0, "dantzig");
  test_incline_3d(40.0, 0.3, 35.0, "pgs");
  test_singular();
  test_sphere_two_spheres();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
