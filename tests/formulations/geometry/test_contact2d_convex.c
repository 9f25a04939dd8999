/* test_contact2d_convex.c — the explicit 2D narrow phase of a superellipse against a polygon and against
 * another superellipse (contact2d_convex.c: the separating-axis maximum over support functions), against
 * analytic gaps, normals, witness points and features: an ellipse over a box's face (level, tilted,
 * penetrating), a circle-like superellipse off a box's corner, two ellipses side by side and two circles
 * (p = 2, a = b) at an angle, and p = 4 against p = 4; then the geometrically implicit formulation
 * (Chakraborty, Berard, Akella & Trinkle, Sec. 4.3: a polygon against a single function) keeps a p = 4
 * superellipse at rest on a box and drops an ellipse onto one, which lands at the free-fall time. */
#include "check.h"
#include "contact2d_superellipse.h"
#include "formulation.h"
#include "run.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <math.h>
#include <petscsys.h>

/* One static shape (a box [-hx, hx] x [-hy, 0], or a superellipse a0 x b0 of exponent p0 about the
 * origin when hx <= 0) and a dynamic superellipse (a, b, p) at (x, y, theta). */
static struct world *pair_world(double hx, double hy, double a0, double b0, int p0, double a, double b, int p,
                                double x, double y, double th)
{
  struct world *w = world_create(2);
  int s = world_add_body(w, 1, 0, 0);
  if (hx > 0) {
    const double box[8] = {-hx, -hy, hx, -hy, hx, 0, -hx, 0};
    world_add_polygon(w, s, 4, box);
  } else {
    world_add_superellipse(w, s, 0.0, 0.0, 0.0, a0, b0, p0, NULL, 0);
  }
  int d = world_add_body(w, 0, 1.0, 1.0);
  int se = world_add_superellipse(w, d, 0.0, 0.0, 0.0, a, b, p, NULL, 0);
  w->bodies[d].inertia = world_superellipse_inertia(&w->shapes[se], 1.0);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[d].x[0] = x, w->bodies[d].x[1] = y, w->bodies[d].theta = th;
  return w;
}

/* The one contact between the two bodies (NAN gap when there is not exactly one). */
static struct contact one_contact(struct world *w, double thr)
{
  struct contact_set cs = {0, 0, NULL};
  struct contact c = {.gap = NAN};
  if (world_detect(w, thr, &cs) == 0 && cs.n == 1) c = cs.c[0];
  contact_set_free(&cs);
  return c;
}

/* The contact's normal pointing from body 0 (static) to body 1. */
static void oriented(const struct contact *c, double n[2])
{
  double sgn = c->a == 1 ? 1.0 : -1.0;
  n[0] = sgn * c->n[0], n[1] = sgn * c->n[1];
}

static void test_box_face(void)
{
  /* level ellipse above a box's top face: gap 0.3, normal +y, a face contact on the box's edge 2 */
  struct world *w = pair_world(3.0, 1.0, 0, 0, 0, 2.0, 1.0, 2, 0.4, 1.3, 0.0);
  struct contact c = one_contact(w, 1.0);
  double n[2];
  oriented(&c, n);
  int box_a = c.a == 0;
  enum feature_kind fbox = box_a ? c.fa : c.fb;
  int idbox = box_a ? c.ida : c.idb;
  const double *pse = box_a ? c.pb : c.pa, *pbox = box_a ? c.pa : c.pb;
  CHECK(fabs(c.gap - 0.3) < 1e-10 && fabs(n[1] - 1.0) < 1e-12 && fbox == FEATURE_EDGE && idbox == 2 &&
            fabs(pse[0] - 0.4) < 1e-6 && fabs(pse[1] - 0.3) < 1e-10 && fabs(pbox[1]) < 1e-10,
        "ellipse over a box face: gap %.15f (0.3), normal (%.1e, %.15f), box feature %d/%d, witness x %.7f",
        c.gap, n[0], n[1], (int)fbox, idbox, pse[0]);
  world_destroy(&w);
  /* tilted by th: its lowest point lies sqrt(a^2 sin^2 + b^2 cos^2) below the centre */
  const double th = 0.6, depth = sqrt(4.0 * sin(th) * sin(th) + cos(th) * cos(th));
  w = pair_world(3.0, 1.0, 0, 0, 0, 2.0, 1.0, 2, 0.0, depth + 0.05, th);
  c = one_contact(w, 1.0);
  oriented(&c, n);
  CHECK(fabs(c.gap - 0.05) < 1e-11 && fabs(n[1] - 1.0) < 1e-11, "tilted ellipse over a box: gap %.13f (0.05)",
        c.gap);
  world_destroy(&w);
  /* overlapping by 0.02: the gap is minus the depth */
  w = pair_world(3.0, 1.0, 0, 0, 0, 2.0, 1.0, 4, 0.0, 0.98, 0.0);
  c = one_contact(w, 1.0);
  CHECK(fabs(c.gap + 0.02) < 1e-11, "p = 4 superellipse sunk 0.02 into a box: gap %.13f (-0.02)", c.gap);
  world_destroy(&w);
}

static void test_box_corner(void)
{
  /* a circle (p = 2, a = b = 0.5) diagonally off the box's corner (1, 0): gap |C - corner| - 0.5 */
  struct world *w = pair_world(1.0, 1.0, 0, 0, 0, 0.5, 0.5, 2, 2.0, 1.0, 0.0);
  struct contact c = one_contact(w, 2.0);
  double n[2];
  oriented(&c, n);
  int box_a = c.a == 0;
  enum feature_kind fbox = box_a ? c.fa : c.fb;
  const double *pbox = box_a ? c.pa : c.pb;
  CHECK(fabs(c.gap - (sqrt(2.0) - 0.5)) < 1e-10 && fabs(n[0] - M_SQRT1_2) < 1e-7 &&
            fabs(n[1] - M_SQRT1_2) < 1e-7 && fbox == FEATURE_VERTEX && fabs(pbox[0] - 1.0) < 1e-7 &&
            fabs(pbox[1]) < 1e-7,
        "circle off a box corner: gap %.12f (%.12f), normal (%.9f, %.9f), the corner as vertex witness",
        c.gap, sqrt(2.0) - 0.5, n[0], n[1]);
  world_destroy(&w);
}

static void test_two_superellipses(void)
{
  /* ellipses 2 x 1 side by side along x, centres 4.5 apart: gap 0.5, normal +x */
  struct world *w = pair_world(0, 0, 2.0, 1.0, 2, 2.0, 1.0, 2, 4.5, 0.0, 0.0);
  struct contact c = one_contact(w, 1.0);
  double n[2];
  oriented(&c, n);
  CHECK(fabs(c.gap - 0.5) < 1e-12 && fabs(n[0] - 1.0) < 1e-12 && c.fa == FEATURE_SURFACE &&
            c.fb == FEATURE_SURFACE,
        "two ellipses side by side: gap %.15f (0.5)", c.gap);
  world_destroy(&w);
  /* circles of radii 1 and 0.5 at 30 degrees, centres 1.6 apart: gap 0.1 along the line of centres */
  const double ang = M_PI / 6;
  w = pair_world(0, 0, 1.0, 1.0, 2, 0.5, 0.5, 2, 1.6 * cos(ang), 1.6 * sin(ang), 0.0);
  c = one_contact(w, 1.0);
  oriented(&c, n);
  CHECK(fabs(c.gap - 0.1) < 1e-10 && fabs(n[0] - cos(ang)) < 1e-9 && fabs(n[1] - sin(ang)) < 1e-9,
        "two circles at 30 degrees: gap %.12f (0.1), normal (%.9f, %.9f)", c.gap, n[0], n[1]);
  world_destroy(&w);
  /* p = 4 squares-ish stacked: 1 x 1 on 1 x 1, centres 1.9 apart vertically: overlap 0.1 */
  w = pair_world(0, 0, 1.0, 1.0, 4, 1.0, 1.0, 4, 0.0, 1.9, 0.0);
  c = one_contact(w, 1.0);
  CHECK(fabs(c.gap + 0.1) < 1e-11, "p = 4 on p = 4 sunk 0.1: gap %.13f (-0.1)", c.gap);
  world_destroy(&w);
}

/* h(u) of the world's shape si, from the closed-form supports (independent of contact2d_convex.c's search).
 */
static double shape_support(const struct world *w, int si, const double u[2])
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  const double c = cos(b->theta), sn = sin(b->theta), ul[2] = {c * u[0] + sn * u[1], -sn * u[0] + c * u[1]};
  double h = u[0] * b->x[0] + u[1] * b->x[1], best = -INFINITY;
  if (s->kind == SHAPE_POLYGON) {
    for (int i = 0; i < s->polygon->n; i++)
      best = fmax(best, ul[0] * s->polygon->v[2 * i] + ul[1] * s->polygon->v[2 * i + 1]);
    return h + best;
  }
  double xl[2];
  superellipse_support(s->se.a, s->se.b, s->se.p, ul, xl);
  return h + ul[0] * xl[0] + ul[1] * xl[1];
}

/* Pairs apart and overlapping (where the separation over the normal's angle can have several humps and the
 * search evaluates only the grid angles its Lipschitz bound cannot rule out): the gap must be the global
 * maximum of the separation, against a dense scan of 100,000 angles (a wrong hump is off by 1e-3 or more; the
 * dense scan is within L pi / 1e5 of the maximum). Boxes and superellipses, thin and round, shallow and deep.
 */
static void test_overlap_global_max(void)
{
  enum { DENSE = 100000 };
  int bad = 0, cases = 0, overlapping = 0, apart = 0;
  double worst = 0.0;
  for (int k = 0; k < 60; k++) {
    const int se_static = k % 2, p = 2 + 2 * (k % 3 == 0);
    const double a = 0.4 + 1.6 * fabs(sin(1.3 * k)), b = 0.15 + 0.5 * fabs(cos(2.1 * k));
    const double x = 2.0 * sin(0.7 * k), th = 3.0 * sin(0.37 * k + 1.0);
    const double y = 0.6 * sin(1.9 * k + 0.3) + (k % 3 == 2 ? 1.5 + 0.1 * (k % 5) : 0.0); /* a third apart */
    struct world *w = se_static ? pair_world(0, 0, 1.5, 0.4, 4, a, b, p, x, y, th)
                                : pair_world(3.0, 1.0, 0, 0, 0, a, b, p, x, y, th);
    struct contact c = one_contact(w, 10.0);
    double dense = -INFINITY;
    for (int i = 0; i < DENSE; i++) {
      const double u[2] = {cos(2 * M_PI * i / DENSE), sin(2 * M_PI * i / DENSE)}, mu[2] = {-u[0], -u[1]};
      dense = fmax(dense, -shape_support(w, 0, mu) - shape_support(w, 1, u));
    }
    const double L = hypot(x, y) + w->shapes[0].radius + w->shapes[1].radius;
    cases++;
    overlapping += dense<0.0, apart += dense> 0.0;
    worst = fmax(worst, fabs(c.gap - dense));
    if (!(c.gap >= dense - 1e-9 && c.gap <= dense + L * M_PI / DENSE)) bad++;
    world_destroy(&w);
  }
  CHECK(bad == 0 && overlapping >= 30 && apart >= 15,
        "%d of %d pairs (%d overlapping, %d apart) off the separation's global maximum (largest |gap - dense "
        "scan| %.2e)",
        bad, cases, overlapping, apart, worst);
}

static void test_implicit_on_box(void)
{
  /* a p = 4 superellipse (1.2 x 0.8) at rest on a box: stays */
  struct world *w = pair_world(3.0, 1.0, 0, 0, 0, 1.2, 0.8, 4, 0.0, 0.8, 0.0);
  w->mu = 0.5;
  w->threshold = 0.05;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 200, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  const struct body *b = &w->bodies[1];
  CHECK(
      ok && fabs(b->x[1] - 0.8) < 1e-7 && fabs(b->theta) < 1e-7 && fabs(b->x[0]) < 1e-7,
      "geometric_implicit: p = 4 superellipse at rest on a box stays (y - b = %.1e, theta %.1e; %ld failed)",
      b->x[1] - 0.8, b->theta, sum.failed_steps);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
  /* a frictionless ellipse (2 x 1) dropped from its centre at H = 2: lands at sqrt(2 (H - b) / g) within
   * two steps (backward Euler's free fall reaches the face at k (k + 1) h^2 g / 2 = H - b) */
  w = pair_world(3.0, 1.0, 0, 0, 0, 2.0, 1.0, 2, 0.0, 2.0, 0.0);
  w->mu = 0.0;
  w->threshold = 0.1;
  ok = test_sim_open(&sim, w, "geometric_implicit", "snes_vinewtonssls", NULL);
  double h = 1e-3, t_hit = NAN;
  long failed = 0;
  for (long k = 1; k <= 800 && ok; k++) {
    struct step_record rec;
    if (stepper_step(sim.st, w, sim.f, sim.s, h, &rec) != 0) {
      failed++;
      break;
    }
    if (isnan(t_hit) && w->bodies[1].x[1] - 1.0 < 1e-6) t_hit = k * h; /* the lowest point on the face */
  }
  const double t_ref = sqrt(2.0 * (2.0 - 1.0) / 9.81);
  CHECK(ok && failed == 0 && fabs(t_hit - t_ref) <= 2 * h && fabs(w->bodies[1].x[1] - 1.0) < 1e-3,
        "geometric_implicit: ellipse dropped onto a box lands at %.4f s (free fall %.4f s), rests at "
        "height b (%.1e)",
        t_hit, t_ref, w->bodies[1].x[1] - 1.0);
  sim.w = NULL;
  simulation_close(&sim);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_box_face();
  test_box_corner();
  test_two_superellipses();
  test_overlap_global_max();
  test_implicit_on_box();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
