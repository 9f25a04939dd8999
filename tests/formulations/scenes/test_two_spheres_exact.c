/* test_two_spheres_exact.c — the exact answer of the sphere on two spheres (two_spheres_exact.h,
 * Chakraborty et al. Sec. 6.2). Frictionless, the centre runs on the circle |x| = 11, |x - c_2| = 10 (the
 * plane y = y0, radius rho) as a pendulum under the load: rho theta'^2 = 2 (F_x sin theta - F_z (1 - cos
 * theta)) / m from the top, and the two normal forces from the centripetal and y balances; the first
 * separation is where one of them reaches 0, at t = int dtheta / theta' (GSL quadrature) — an independent
 * hand check. With the paper's friction: the modes the paper describes (contact 1 slides from rest,
 * contact 2 rolls, then slides, then both separate), the energy balance and the constraints' drift, and
 * the event times stable under the integrator's tolerance, the event bracket and the slip onset; the slip
 * speed's threshold crossing (what a time stepper detects) after a quadratic onset. A load
 * that holds the sphere at rest has no consistent sliding mode: refused with a message. */
#include "check.h"
#include "two_spheres_exact.h"

#include <gsl/gsl_integration.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* The paper's answer at tol 1e-12 (the digits trusted: 1e-10 s, see test_stability). */
static const double t_ref[3] = {2.9448067577, 3.2132058170, 3.7016004172};

struct pendulum {
  double rho, y0, fx, fz, fy, m;
};

/* theta'^2 at theta on the circle (energy from the top, where the sphere is at rest). */
static double omega2(const struct pendulum *P, double th)
{
  return 2.0 * (P->fx * sin(th) - P->fz * (1.0 - cos(th))) / (P->m * P->rho);
}

/* The normal forces (N1, N2) on the circle at theta: m a = F + N1 n1 + N2 n2 resolved along e_y and the
 * radial e_rho, with n1 = (rho e_rho + y0 e_y) / 11, n2 = (rho e_rho + (y0 - 11.4) e_y) / 10. */
static void normal_forces(const struct pendulum *P, double th, double *n1, double *n2)
{
  double a11 = P->rho / 11.0, a12 = P->rho / 10.0,
         b1 = -P->m * P->rho * omega2(P, th) - (P->fx * sin(th) + P->fz * cos(th));
  double a21 = P->y0 / 11.0, a22 = (P->y0 - 11.4) / 10.0, b2 = -P->fy;
  double det = a11 * a22 - a12 * a21;
  *n1 = (b1 * a22 - a12 * b2) / det;
  *n2 = (a11 * b2 - a21 * b1) / det;
}

/* dt/dphi with theta = phi^2 (removes the 1/sqrt(theta) of the start from rest). */
static double dt_dphi(double phi, void *params)
{
  const struct pendulum *P = params;
  if (phi == 0.0) return sqrt(2.0 * P->m * P->rho / P->fx);
  return 2.0 * phi / sqrt(omega2(P, phi * phi));
}

static void test_frictionless(void)
{
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char msg[256] = "";
  two_spheres_exact_paper(&p);
  p.mu = 0.0;
  int rc = two_spheres_exact(&p, &a, msg, sizeof msg);
  struct pendulum P = {.y0 = 150.96 / 22.8, .fx = p.force[0], .fz = p.force[2], .fy = p.force[1], .m = p.m};
  P.rho = sqrt(121.0 - P.y0 * P.y0);
  /* the first zero of a normal force along theta, by bisection on a fine scan */
  double lo = 0.0, hi = 0.0, n1, n2;
  int which = -1;
  for (double th = 1e-3; th < 3.0 && which < 0; th += 1e-3) {
    normal_forces(&P, th, &n1, &n2);
    if (n1 < 0 || n2 < 0) which = n1 < 0 ? 0 : 1, lo = th - 1e-3, hi = th;
  }
  for (int it = 0; it < 100 && which >= 0; it++) {
    double mid = 0.5 * (lo + hi);
    normal_forces(&P, mid, &n1, &n2);
    if ((which ? n2 : n1) < 0)
      hi = mid;
    else
      lo = mid;
  }
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(200);
  gsl_function fn = {dt_dphi, &P};
  double t_hand = 0.0, err = 0.0;
  gsl_integration_qag(&fn, 0.0, sqrt(lo), 1e-14, 1e-13, 200, GSL_INTEG_GAUSS61, ws, &t_hand, &err);
  gsl_integration_workspace_free(ws);
  CHECK(rc == 0 && a.mode0[0] == TWO_SPHERES_SLIDING && a.mode0[1] == TWO_SPHERES_SLIDING &&
            a.n_events >= 1 && a.ev[0].contact == which && a.ev[0].to == TWO_SPHERES_SEPARATED,
        "frictionless: both contacts slide from rest, contact %d separates first (the pendulum's) %s",
        which + 1, msg);
  CHECK_CLOSE(a.ev[0].t, t_hand, 1e-9,
              "frictionless: first separation %.12f s = the pendulum's %.12f s (theta %.9f)", a.ev[0].t,
              t_hand, lo);
  CHECK(fabs(a.w[0]) + fabs(a.w[1]) + fabs(a.w[2]) < 1e-12 && a.work_friction == 0.0 &&
            a.energy_residual < 1e-9,
        "frictionless: no spin, no friction work, energy balance %.2g J", a.energy_residual);
}

static void test_paper(void)
{
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char msg[256] = "";
  two_spheres_exact_paper(&p);
  int rc = two_spheres_exact(&p, &a, msg, sizeof msg);
  CHECK(rc == 0 && a.mode0[0] == TWO_SPHERES_SLIDING && a.mode0[1] == TWO_SPHERES_STICKING &&
            a.n_events == 3 && a.ev[0].contact == 1 && a.ev[0].to == TWO_SPHERES_SLIDING &&
            a.ev[1].contact == 0 && a.ev[1].to == TWO_SPHERES_SEPARATED && a.ev[2].contact == 1 &&
            a.ev[2].to == TWO_SPHERES_SEPARATED,
        "paper: contact 1 slides from rest, contact 2 rolls, slides, contact 1 then 2 separate (Sec. 6.2) %s",
        msg);
  const double got[3] = {a.t_slide[1], a.t_sep[0], a.t_sep[1]}, paper[3] = {3.0, 3.2, 3.6};
  for (int i = 0; i < 3; i++) {
    CHECK_CLOSE(got[i], t_ref[i], 1e-9, "paper: event %d at %.12f s", i + 1, got[i]);
    CHECK_CLOSE(got[i], paper[i], 0.11, "paper: event %d at %.4f s near the paper's ~%.1f s", i + 1, got[i],
                paper[i]);
  }
  CHECK(a.energy_residual < 1e-9 && a.work_friction < -1.0,
        "paper: E(T) - E(0) = work of the load %.9f + of friction %.9f J within %.2g J", a.work_load,
        a.work_friction, a.energy_residual);
  CHECK(a.gap_drift < 1e-11 && a.vn_drift < 1e-11,
        "paper: active constraints' drift: gap %.2g m, normal velocity %.2g m/s", a.gap_drift, a.vn_drift);
}

/* The event times under changes of the integrator's tolerance, the event bracket and the slip onset. */
static void test_stability(void)
{
  static const struct {
    double tol, t_tol, onset, within;
  } var[] = {{1e-13, 1e-12, 1e-6, 1e-10},
             {1e-10, 1e-12, 1e-6, 2e-9},
             {1e-12, 1e-10, 1e-6, 2e-10},
             {1e-12, 1e-12, 1e-5, 1e-10},
             {1e-12, 1e-12, 1e-7, 1e-10}};
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char msg[256] = "";
  for (size_t k = 0; k < sizeof var / sizeof var[0]; k++) {
    two_spheres_exact_paper(&p);
    p.tol = var[k].tol, p.t_tol = var[k].t_tol, p.onset = var[k].onset;
    int rc = two_spheres_exact(&p, &a, msg, sizeof msg);
    double d = 0.0;
    const double got[3] = {a.t_slide[1], a.t_sep[0], a.t_sep[1]};
    for (int i = 0; i < 3; i++)
      d = fmax(d, fabs(got[i] - t_ref[i]));
    CHECK(rc == 0 && a.n_events == 3 && d < var[k].within,
          "stability: tol %.0e, bracket %.0e s, onset %.0e s: event times within %.2g s of tol 1e-12's (<= "
          "%.0e) %s",
          var[k].tol, var[k].t_tol, var[k].onset, d, var[k].within, msg);
  }
}

/* A time stepper's slide detection (slip speed past a threshold) on the exact answer: after the onset, and
 * the onset on the cone's edge is continuous, so the slip grows as (t - t0)^2: a threshold 100x lower is
 * crossed 10x sooner after the onset. */
static void test_slip_speed(void)
{
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char msg[256] = "";
  double dt[2];
  const double thr[2] = {1e-6, 1e-8};
  for (int k = 0; k < 2; k++) {
    two_spheres_exact_paper(&p);
    p.slip_speed = thr[k];
    int rc = two_spheres_exact(&p, &a, msg, sizeof msg);
    dt[k] = a.t_slip_speed[1] - a.t_slide[1];
    CHECK(rc == 0 && dt[k] > 0 && fabs(a.t_sep[1] - t_ref[2]) < 1e-10,
          "slip speed: contact 2 passes %.0e m/s %.6f s after its onset, the motion unchanged %s", thr[k],
          dt[k], msg);
  }
  CHECK_CLOSE(dt[0] / dt[1], 10.0, 0.1, "slip speed: the onset is quadratic: delays %.3g / %.3g = %.4f (10)",
              dt[0], dt[1], dt[0] / dt[1]);
  two_spheres_exact_paper(&p);
  p.slip_speed = 1e-3; /* bench_sphere_two_spheres' -slip_tol */
  two_spheres_exact(&p, &a, msg, sizeof msg);
  CHECK_CLOSE(a.t_slip_speed[1], 2.9768799758, 1e-9, "slip speed: contact 2 passes 1e-3 m/s at %.12f s",
              a.t_slip_speed[1]);
}

static void test_at_rest(void)
{
  struct two_spheres_problem p;
  struct two_spheres_answer a;
  char msg[256] = "";
  two_spheres_exact_paper(&p);
  for (int i = 0; i < 3; i++) /* straight into both spheres: no slip acceleration anywhere */
    p.force[i] = -(p.x0[i] - p.centre[0][i]) / 11.0 - (p.x0[i] - p.centre[1][i]) / 10.0;
  int rc = two_spheres_exact(&p, &a, msg, sizeof msg);
  CHECK(rc == 1 && strstr(msg, "no consistent contact modes"), "a load into both spheres is refused: %s",
        msg);
}

int main(void)
{
  test_frictionless();
  test_paper();
  test_stability();
  test_slip_speed();
  test_at_rest();
  return check_finish();
}
