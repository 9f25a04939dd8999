/* test_implicit_drives.c — the world's joints, force-limited motors and support friction in the
 * geometrically implicit mixed NCP (formulations/types/implicit/implicit_drives.h: free joint impulses with
 * equality rows; the ellipsoidal friction law of Chakraborty, Berard, Akella & Trinkle eqs. (21)-(22) with a
 * known normal impulse), stepped by geometric_implicit with the semismooth Newton solver fb_newton, against
 * the analytic motions tests/formulations/types/core/test_drives.c checks under stewart_trinkle:
 * - support friction: a disc sliding on three support points at v0 along a direction that is none of the
 *   velocity-eliminated formulations' friction polygon's (0.3 rad) decelerates at mu g (the disc law is
 *   isotropic) and stops after the scheme's distance; a push of 0.9 mu m g does not move it;
 * - a motor accelerates a body from rest at F / m, then holds v*; its first step's impulse, as reported for
 *   the physics checks, is F h along its axis;
 * - a prismatic joint on an incline: the body slides at g sin(alpha) along it, on the line, not turning;
 * - a mirror joint: both bodies move, mirrored, at F / (m_a + m_b);
 * - a revolute joint (a pendulum): the same step as stewart_trinkle with Lemke (the joint rows are the same
 *   equations), and the pin held;
 * - the problem's analytic Jacobian with every part beside two contacts against finite differences;
 * - a 3D world with a joint is refused; the carried state and the world text restart a run exactly.
 * Tolerances: fb_newton stops on the natural-map residual <= -cp_tol 1e-8 (times the problem's scale), and
 * its last Newton steps are quadratic, so the velocities come out to ~1e-12 and better; the checks allow
 * 1e-9 on velocities and 1e-10 on positions (h = 1e-3). */
#include "check.h"
#include "drive_fixture.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "solver_fixture.h"
#include "stepper.h"
#include "world_io.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double H = 1e-3;

struct run {
  struct formulation *f;
  struct solver *s;
  struct stepper *st;
};

static int run_open(struct run *r, const char *formulation, const char *solver)
{
  memset(r, 0, sizeof *r);
  return formulation_create(formulation, &r->f, NULL, 0) || solver_create(solver, &r->s, NULL, 0) ||
         stepper_create(&r->st);
}

static void run_close(struct run *r)
{
  stepper_destroy(&r->st);
  solver_destroy(&r->s);
  formulation_destroy(&r->f);
}

/* n steps of w; the failed solves (-1: a step or the setup failed, or the formulation refuses w). */
static int run_steps(struct run *r, struct world *w, int n)
{
  if (!r->f || !r->s || !r->st || !formulation_supports(r->f, w)) return -1;
  int failed = 0;
  for (int i = 0; i < n; i++) {
    struct step_record rec;
    if (stepper_step(r->st, w, r->f, r->s, H, &rec)) return -1;
    failed += rec.failed;
  }
  return failed;
}

/* n steps of w with geometric_implicit and fb_newton */
static int step_n(struct world *w, int n) { return drive_steps(w, n, H, "geometric_implicit", "fb_newton"); }

static void test_support(void)
{
  const double m = 0.03, mu = 0.4, v0 = 0.05, g = 9.81, a = 0.3, u[2] = {cos(a), sin(a)};
  struct world *w = drive_support_disc(m, mu, 0.0);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  w->bodies[0].v[0] = v0 * u[0], w->bodies[0].v[1] = v0 * u[1];
  const int steps = (int)(1.5 * v0 / (mu * g) / H);
  CHECK(step_n(w, steps) == 0, "implicit support: %d steps solved", steps);
  const double slide = drive_slide_distance(v0, mu * g, H);
  const struct body *b = &w->bodies[0];
  const double along = b->x[0] * u[0] + b->x[1] * u[1], across = -b->x[0] * u[1] + b->x[1] * u[0];
  CHECK(fabs(along - slide) < 1e-10 && hypot(b->v[0], b->v[1]) < 1e-9,
        "implicit support: slides %.12g m along 0.3 rad (the scheme's v_k = v0 - k mu g h: %.12g m, "
        "error %.1e) and stops (|v| %.1e)",
        along, slide, along - slide, hypot(b->v[0], b->v[1]));
  CHECK(fabs(across) < 1e-10 && fabs(b->w[2]) < 1e-9 && fabs(b->theta) < 1e-10,
        "implicit support: straight, not turning (across %.1e, omega %.1e, theta %.1e)", across, b->w[2],
        b->theta);
  world_destroy(&w);
  w = drive_support_disc(m, mu, 0.0);
  CHECK(w != NULL, "support: added");
  if (!w) return;
  w->bodies[0].f[0] = 0.9 * mu * m * g * u[0], w->bodies[0].f[1] = 0.9 * mu * m * g * u[1];
  CHECK(step_n(w, 200) == 0 && hypot(w->bodies[0].x[0], w->bodies[0].x[1]) < 1e-10,
        "implicit support: a push of 0.9 mu m g does not move it (|x| %.1e)",
        hypot(w->bodies[0].x[0], w->bodies[0].x[1]));
  world_destroy(&w);
}

static void test_motor(void)
{
  const double m = 0.1, F = 0.5, vstar = 0.2, ax[3] = {0.6, 0.8, 0.0};
  struct world *w = drive_motor_disc(m, ax, vstar, F);
  CHECK(w != NULL, "implicit motor: added");
  if (!w) return;
  const int b = 0;
  const int half = 20; /* v* m / (F h) = 40 steps to reach v* */
  CHECK(step_n(w, half) == 0, "implicit motor: solved");
  const double t_half = H * half, *v = w->bodies[b].v;
  const double along = v[0] * ax[0] + v[1] * ax[1], across = -v[0] * ax[1] + v[1] * ax[0];
  CHECK(fabs(along - F / m * t_half) < 1e-9 && fabs(across) < 1e-12,
        "implicit motor: at the force limit, v %.12g = F t / m %.12g (across %.1e)", along, F / m * t_half,
        across);
  double g[3] = {0.0, 0.0, 0.0};
  struct world *w1 = drive_motor_disc(m, ax, vstar, F);
  const int stepped = w1 ? drive_step_impulse(w1, H, "geometric_implicit", "fb_newton", g) : -1;
  CHECK(stepped == 0 && fabs(g[0] - F * H * ax[0]) < 1e-12 * F * H &&
            fabs(g[1] - F * H * ax[1]) < 1e-12 * F * H && fabs(g[2]) < 1e-12 * F * H,
        "implicit motor: its reported impulse is F h along the axis (%g, %g, %g)", g[0], g[1], g[2]);
  world_destroy(&w1);
  CHECK(step_n(w, 100) == 0, "implicit motor: solved on");
  CHECK(fabs(v[0] * ax[0] + v[1] * ax[1] - vstar) < 1e-9, "implicit motor: holds v* (%.12g)",
        v[0] * ax[0] + v[1] * ax[1]);
  world_destroy(&w);
}

static void test_slider(void)
{
  const double alpha = 0.3, g = 9.81, m = 0.2;
  const double axis[2] = {cos(alpha), -sin(alpha)};
  struct world *w = drive_incline_slider(m, alpha);
  CHECK(w != NULL, "implicit slider: added");
  if (!w) return;
  const int b = 0;
  const int n = 500;
  CHECK(step_n(w, n) == 0, "implicit slider: solved");
  const struct body *bd = &w->bodies[b];
  const double v_along = bd->v[0] * axis[0] + bd->v[1] * axis[1];
  const double v_expect = g * sin(alpha) * n * H;
  const double s_expect = drive_fall_distance(g * sin(alpha), n, H);
  const double s_along = bd->x[0] * axis[0] + bd->x[1] * axis[1];
  CHECK(fabs(v_along - v_expect) < 1e-9 && fabs(s_along - s_expect) < 1e-10,
        "implicit slider: v %.12g = g sin(alpha) t %.12g, %.12g m along the axis (scheme's %.12g)", v_along,
        v_expect, s_along, s_expect);
  CHECK(world_joint_gap(w) < 1e-10 && fabs(bd->theta) < 1e-12,
        "implicit slider: on the line (%.1e) and not turned (%.1e)", world_joint_gap(w), bd->theta);
  world_destroy(&w);
}

static void test_mirror(void)
{
  const double ma = 0.05, mb = 0.15, F = 0.4;
  struct world *w = drive_mirror_pair(ma, mb);
  CHECK(w != NULL, "implicit mirror: added");
  if (!w) return;
  const int a = 0, c = 1;
  w->bodies[a].f[0] = F;
  CHECK(step_n(w, 100) == 0, "implicit mirror: solved");
  const double v = F / (ma + mb) * 100 * H;
  CHECK(fabs(w->bodies[a].v[0] - v) < 1e-9 && fabs(w->bodies[c].v[0] + v) < 1e-9,
        "implicit mirror: v %.12g and %.12g, +-F t / (m_a + m_b) = %.12g", w->bodies[a].v[0],
        w->bodies[c].v[0], v);
  CHECK(world_joint_gap(w) < 1e-10, "implicit mirror: mirrored (%.1e)", world_joint_gap(w));
  world_destroy(&w);
}

/* A rod pinned to the world at (0, 0) by its end, released horizontal */
static struct world *pendulum(void)
{
  struct world *w = world_create(2);
  const int b = world_add_body(w, 0, 0.5, 0.5 * 0.04 / 12.0);
  world_add_disc(w, b, 0.0, 0.0, 0.01);
  w->bodies[b].x[0] = 0.1;
  const double pa[3] = {-0.1, 0.0, 0.0}, pb[3] = {0.0, 0.0, 0.0};
  world_add_joint(w, JOINT_REVOLUTE_2D, b, -1, pa, pb);
  world_finalize(w);
  return w;
}

static void test_revolute(void)
{
  struct world *w1 = pendulum(), *w2 = pendulum();
  struct run r;
  int f1 = step_n(w1, 300), f2 = run_open(&r, "stewart_trinkle", "lemke") ? -1 : run_steps(&r, w2, 300);
  run_close(&r);
  double dq = 0.0;
  for (int k = 0; k < 3; k++)
    dq = fmax(dq, fabs((k < 2 ? w1->bodies[0].x[k] : w1->bodies[0].theta) -
                       (k < 2 ? w2->bodies[0].x[k] : w2->bodies[0].theta)));
  CHECK(f1 == 0 && f2 == 0 && dq < 1e-10 && fabs(w1->bodies[0].w[2] - w2->bodies[0].w[2]) < 1e-9,
        "implicit revolute: 300 steps of a pendulum = stewart_trinkle's (pose %.1e, omega %.12g vs %.12g)",
        dq, w1->bodies[0].w[2], w2->bodies[0].w[2]);
  /* the rows are posed at the start of the step, so the pin drifts by O(h^2 omega^2 l) before phi / h
   * pulls it back: the same drift as stewart_trinkle's */
  CHECK(world_joint_gap(w1) < 1e-5 && fabs(world_joint_gap(w1) - world_joint_gap(w2)) < 1e-12 &&
            w1->bodies[0].theta < -0.5,
        "implicit revolute: pinned (gap %.2e, stewart_trinkle's %.2e) and swung (theta %.4f)",
        world_joint_gap(w1), world_joint_gap(w2), w1->bodies[0].theta);
  world_destroy(&w1);
  world_destroy(&w2);
}

/* A disc just above a tilted half-plane (gap 0.6 mm, closing at 0.4 m/s) with a motor and support friction,
 * and a second disc on a slider mirrored with it and a third pinned to the second: every row of
 * implicit_drives.h beside two contacts. */
static struct world *drive_world(void)
{
  struct world *w = world_create(2);
  w->mu = 0.4;
  world_add_halfplane(w, world_add_body(w, 1, 0, 0), -sin(0.3), cos(0.3), 0.1);
  const int b = world_add_body(w, 0, 1.3, 0.4); /* a body's parts are added right after it */
  world_add_disc(w, b, 0.1, -0.05, 0.8);
  const int c = world_add_body(w, 0, 0.7, 0.1);
  world_add_disc(w, c, 0.0, 0.0, 0.3);
  const int e = world_add_body(w, 0, 0.4, 0.05);
  world_add_disc(w, e, 0.0, 0.0, 0.2);
  /* c on its slider's line and mirrored with b about the origin (ax . (x_b + x_c) = 0), e on its pin */
  const double ax[3] = {0.8, 0.6, 0.0}, zero[3] = {0, 0, 0}, pin[3] = {0.3, 0.1, 0.0}, xc[3] = {-2.0, 1.4, 0};
  const double p[6] = {0.3, 0.0, -0.2, 0.25, -0.1, -0.3}, N[3] = {4.0, 3.0, 5.0};
  struct body *bd = &w->bodies[b];
  bd->x[0] = 0.2, bd->x[1] = 1.012, bd->theta = 0.7, bd->v[0] = -1.2, bd->v[1] = -0.4, bd->w[2] = 2.1;
  w->bodies[c].x[0] = xc[0], w->bodies[c].x[1] = xc[1], w->bodies[c].v[0] = 0.3;
  w->bodies[e].x[0] = xc[0] + pin[0], w->bodies[e].x[1] = xc[1] + pin[1], w->bodies[e].w[2] = -0.5;
  w->bodies[b].group = w->bodies[c].group = w->bodies[e].group = 1;
  world_add_motor(w, b, ax, 0.3, 20.0);
  world_add_support(w, b, 3, p, N, 0.5, 8, 0.2);
  world_add_slider(w, c, -1, zero, xc, ax);
  world_add_mirror(w, b, c, zero, ax);
  world_add_joint(w, JOINT_REVOLUTE_2D, e, c, zero, pin);
  world_finalize(w);
  w->threshold = 1.0;
  return w;
}

static void test_jacobian(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 7);
  struct world *w = drive_world();
  int nc = 0;
  double worst = formulation_jacobian_error(w, "geometric_implicit", NULL, rng, &nc);
  CHECK(nc >= 1 && worst < 1e-6,
        "implicit drives: %d contacts, 5 joint rows, a motor, 3 support points: analytic Jacobian = finite "
        "differences (%.1e)",
        nc, worst);
  world_destroy(&w);
  gsl_rng_free(rng);
}

static void test_refusals(void)
{
  struct world *w = world_create(3);
  const double c0[3] = {0, 0, 0};
  const int b = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, b, c0, 0.5);
  world_add_joint(w, JOINT_BALL_3D, b, -1, c0, c0);
  world_finalize(w);
  struct formulation *f = test_formulation("geometric_implicit", NULL);
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  int rc = f ? f->type->assemble(f, w, &cs, 0.01, &p) : -1;
  CHECK(rc > 0 && !p && f && strstr(f->message, "2D only"), "implicit drives: a 3D joint is refused (%s)",
        f ? f->message : "");
  CHECK(f && !formulation_supports(f, w),
        "implicit drives: formulation_supports says no to a 3D world with a joint (a not_applicable row)");
  cp_destroy(&p);
  formulation_destroy(&f);
  world_destroy(&w);
}

/* The carried state (carry_get / carry_set) and the world text restart a run of drive_world exactly. */
static void test_restart(void)
{
  struct world *w = drive_world(), *copy = NULL;
  struct run r1, r2;
  int bad =
      run_open(&r1, "geometric_implicit", "fb_newton") || run_open(&r2, "geometric_implicit", "fb_newton");
  bad = bad || run_steps(&r1, w, 20) != 0;
  char *text = NULL, err[256] = "";
  size_t len = 0;
  double *carry = NULL;
  int n = 0;
  bad = bad || world_to_text(w, &text, &len) || world_from_text(text, len, &copy, err, sizeof err) ||
        formulation_carry_get(r1.f, &carry, &n) || formulation_carry_set(r2.f, carry, n);
  bad = bad || run_steps(&r1, w, 20) != 0 || run_steps(&r2, copy, 20) != 0;
  int same = !bad && w->nb == copy->nb;
  for (int i = 0; same && i < w->nb; i++) {
    const struct body *a = &w->bodies[i], *b = &copy->bodies[i];
    same = a->theta == b->theta && a->w[2] == b->w[2];
    for (int k = 0; k < 2; k++)
      same = same && a->x[k] == b->x[k] && a->v[k] == b->v[k];
  }
  CHECK(same,
        "implicit drives: 20 steps (every solve converged), then the world text and the carried state (%d "
        "values) go on "
        "bit-identically for 20 more %s",
        n, err);
  free(text);
  free(carry);
  run_close(&r1);
  run_close(&r2);
  world_destroy(&copy);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscCall(PetscInitialize(&argc, &argv, NULL, NULL));
  test_support();
  test_motor();
  test_slider();
  test_mirror();
  test_revolute();
  test_jacobian();
  test_refusals();
  test_restart();
  int rc = check_finish();
  PetscCall(PetscFinalize());
  return rc;
}
