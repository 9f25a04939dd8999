/* test_superellipsoid_sim.c — the 3D superellipsoid (Barr, even p; world_superellipsoid.c) through the
 * geometrically implicit formulations of Chakraborty, Berard, Akella & Trinkle (Sec. 4.1-4.2: its single
 * convex function in the closest-point KKT rows (15)-(19); Sec. 5.1: the quasi-rigid rows) and an explicit
 * one: the analytic Jacobians of geometric_implicit and quasi_rigid in 3D against central differences at
 * random poses and velocities (a turned, off-centre p = 4 superellipsoid near a tilted plane, under a moving
 * sphere, on another superellipsoid); then with geometric_implicit an ellipsoid resting on its flank stays at
 * height c, a frictionless one dropped from H reaches the plane at sqrt(2 (H - c) / g) within a step, one
 * standing on its end falls over and settles on its flank without its energy ever rising; quasi_rigid: an
 * ellipsoid on the compliant plane sinks by m g / k; stewart_trinkle keeps a p = 4 superellipsoid at rest on
 * the plane and, with anitescu_potra, on a box (the polyhedron pair). */
#include "check.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "geom3d.h"
#include "hull3d.h"
#include "run.h"
#include "scene.h"
#include "solver_fixture.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double G = 9.81, ID[4] = {1, 0, 0, 0}, ZERO[3] = {0, 0, 0}, UP[3] = {0, 0, 1};

/* Adds a dynamic superellipsoid body of mass m (its inertia tensor from the shape). */
static int add_body(struct world *w, double m, const double c[3], const double q[4], const double a[3], int p)
{
  int b = world_add_body(w, 0, m, 1.0);
  int s = world_add_superellipsoid(w, b, c, q, a, p, NULL, 0);
  world_superellipsoid_inertia(&w->shapes[s], m, w->bodies[b].inertia3);
  return b;
}

/* The ground z <= 0 and one ellipsoid / superellipsoid (a, p) of mass 1 at height z, turned by q. */
static struct world *on_ground(const double a[3], int p, double z, const double q[4], double mu)
{
  struct world *w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  int b = add_body(w, 1.0, ZERO, ID, a, p);
  world_finalize(w);
  w->mu = mu;
  w->threshold = 0.5;
  w->bodies[b].x[2] = z;
  memcpy(w->bodies[b].q, q, 4 * sizeof *q);
  return w;
}

static void check_jacobian(struct world *w, const char *formulation, const char *what, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, formulation, NULL, rng, &nc);
  CHECK(worst < 1e-6, "%s, %s: %d contacts, analytic Jacobian = finite differences (%.1e)", formulation, what,
        nc, worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 15);
  const double a[3] = {0.9, 0.6, 0.5}, c0[3] = {0.1, -0.05, 0.02}, ax[3] = {1, -2, 0.5};
  const double np[3] = {sin(0.3), -0.2, cos(0.3)};
  double qs[4];
  quat_from_axis_angle(ax, 0.6, qs);
  const char *forms[2] = {"geometric_implicit", "quasi_rigid"};
  for (int k = 0; k < 2; k++) {
    /* near a tilted plane */
    struct world *w = world_create(3);
    world_add_plane(w, world_add_body(w, 1, 0, 0), np, 0.1);
    int b = add_body(w, 1.3, c0, qs, a, 4);
    world_finalize(w);
    w->threshold = 1.0;
    w->mu = 0.4;
    w->bodies[b].x[2] = 1.0;
    random_body_motion(&w->bodies[b], rng);
    check_jacobian(w, forms[k], "turned off-centre p = 4 superellipsoid near a tilted plane", rng);
    world_destroy(&w);
    /* under a moving sphere, and a moving superellipsoid on it */
    for (int other = 0; other < 2; other++) {
      w = world_create(3);
      b = add_body(w, 1.3, c0, qs, a, 4);
      int b2 = world_add_body(w, 0, 0.8, 0.3);
      if (other == 0)
        world_add_sphere(w, b2, ZERO, 0.5);
      else {
        int s = world_add_superellipsoid(w, b2, c0, ID, a, 2, NULL, 0);
        world_superellipsoid_inertia(&w->shapes[s], 0.8, w->bodies[b2].inertia3);
      }
      world_finalize(w);
      w->threshold = 1.0;
      w->mu = 0.4;
      w->bodies[b2].x[0] = 0.4, w->bodies[b2].x[1] = 0.2, w->bodies[b2].x[2] = 1.2;
      random_body_motion(&w->bodies[b], rng);
      random_body_motion(&w->bodies[b2], rng);
      check_jacobian(
          w, forms[k],
          other ? "p = 4 superellipsoid and a moving ellipsoid" : "p = 4 superellipsoid and a sphere", rng);
      world_destroy(&w);
    }
  }
  gsl_rng_free(rng);
}

static void close_sim(struct simulation *sim)
{
  sim->w = NULL;
  simulation_close(sim);
}

static double tilt(const struct body *b) /* the angle between the body's z axis and the world's */
{
  return acos(fmin(1.0, fabs(1.0 - 2.0 * (b->q[1] * b->q[1] + b->q[2] * b->q[2]))));
}

/* An ellipsoid (2, 1.5, 1) at rest on its flank, c axis vertical: stays at rest at height c. */
static void test_gi_rest(void)
{
  const double a[3] = {2.0, 1.5, 1.0};
  struct world *w = on_ground(a, 2, 1.0, ID, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 200, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  const struct body *b = &w->bodies[1];
  CHECK(ok && fabs(b->x[2] - 1.0) < 1e-8 && tilt(b) < 1e-8 && hypot(b->x[0], b->x[1]) < 1e-8,
        "geometric_implicit 3D: ellipsoid at rest on its flank stays at height c (z - c = %.1e, tilt %.1e, "
        "drift %.1e)",
        b->x[2] - 1.0, tilt(b), hypot(b->x[0], b->x[1]));
  close_sim(&sim);
  world_destroy(&w);
}

/* A frictionless ellipsoid dropped from H, long axis horizontal, reaches the plane at sqrt(2 (H - c) / g). */
static void test_gi_drop(void)
{
  const double a[3] = {2.0, 1.5, 1.0}, H = 3.0, h = 1e-3, tc = sqrt(2.0 * (H - 1.0) / G);
  struct world *w = on_ground(a, 2, H, ID, 0.0);
  w->threshold = 2.5;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "snes_vinewtonssls", NULL);
  double t_hit = NAN;
  long failed = 0;
  for (int k = 0; ok && k < 1000 && isnan(t_hit); k++) {
    struct run_summary sum = {0};
    double vz = w->bodies[1].v[2];
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    if (w->bodies[1].v[2] > vz) t_hit = w->t; /* the plane's impulse stops the fall */
  }
  CHECK(
      ok && failed == 0 && fabs(t_hit - tc) <= 1.5 * h && fabs(w->bodies[1].x[2] - 1.0) < 1e-8,
      "geometric_implicit 3D: ellipsoid dropped from %.0f m reaches the plane at %.4f s (free fall %.4f s), "
      "stops at height c (%.1e; %ld failed)",
      H, t_hit, tc, w->bodies[1].x[2] - 1.0, failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* The ellipsoid (0.5, 0.6, 1.2) standing on its end, tilted 0.05 rad about x, falls over and settles on its
 * flank (height 0.5, the shortest semi-axis) with its energy never above the start. */
static void test_gi_topple(void)
{
  const double a[3] = {0.5, 0.6, 1.2}, th = 0.05, xaxis[3] = {1, 0, 0};
  double q[4];
  quat_from_axis_angle(xaxis, th, q);
  double z0 = sqrt(0.36 * sin(th) * sin(th) + 1.44 * cos(th) * cos(th));
  struct world *w = on_ground(a, 2, z0, q, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  double e0 = world_energy(w), rise = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 4000; k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, 0.02, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    rise = fmax(rise, world_energy(w) - e0);
  }
  const struct body *b = &w->bodies[1];
  double speed = hypot(hypot(b->v[0], b->v[1]), b->v[2]), spin = hypot(hypot(b->w[0], b->w[1]), b->w[2]);
  CHECK(ok && failed == 0 && fabs(b->x[2] - 0.6) < 1e-6 && speed + spin < 1e-5 && rise < 1e-9,
        "geometric_implicit 3D: ellipsoid on its end (height %.3f) falls over about x, rests on its flank at "
        "height %.9f (semi-axis 0.6), |v| + |w| = %.1e, no energy gain (%.1e J; %ld failed)",
        z0, b->x[2], speed + spin, rise, failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* Two functions in one contact: an ellipsoid (1, 0.8, 0.6) and a unit sphere each resting on the flat top of
 * a static p = 4 superellipsoid (2, 2, 0.5) stay at rest (centre at 0.5 + their half-height). */
static void test_gi_on_superellipsoid(void)
{
  const double base[3] = {2.0, 2.0, 0.5}, a[3] = {1.0, 0.8, 0.6};
  for (int sphere = 0; sphere < 2; sphere++) {
    struct world *w = world_create(3);
    world_add_superellipsoid(w, world_add_body(w, 1, 0, 0), ZERO, ID, base, 4, NULL, 0);
    int b = sphere ? world_add_body(w, 0, 1.0, 0.4) : add_body(w, 1.0, ZERO, ID, a, 2);
    if (sphere) world_add_sphere(w, b, ZERO, 1.0);
    world_finalize(w);
    w->mu = 0.5;
    w->threshold = 0.5;
    double z = 0.5 + (sphere ? 1.0 : 0.6);
    w->bodies[b].x[2] = z;
    struct simulation sim;
    int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
    struct run_summary sum = {0};
    ok = ok && simulation_run(&sim, 0.01, 200, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
    const struct body *bd = &w->bodies[b];
    CHECK(ok && fabs(bd->x[2] - z) < 1e-8 && tilt(bd) < 1e-8 && hypot(bd->x[0], bd->x[1]) < 1e-8,
          "geometric_implicit 3D: %s at rest on a p = 4 superellipsoid's top stays (z error %.1e, tilt %.1e)",
          sphere ? "unit sphere" : "ellipsoid", bd->x[2] - z, tilt(bd));
    close_sim(&sim);
    world_destroy(&w);
  }
}

/* Two free p = 4 superellipsoids (no gravity, frictionless) meet head on, turned so the contact normal is
 * not along a symmetry axis of either: the impulses are equal and opposite, so the momentum is kept to
 * rounding; the plastic contact (no restitution in the rows) leaves no approach speed along the normal; they
 * end apart or touching, never overlapping. */
static void test_gi_collision(void)
{
  const double a[3] = {1.0, 0.7, 0.5}, ax1[3] = {0.3, 1, 0.2}, ax2[3] = {1, -0.4, 0.6};
  double q1[4], q2[4];
  quat_from_axis_angle(ax1, 0.4, q1);
  quat_from_axis_angle(ax2, -0.7, q2);
  struct world *w = world_create(3);
  w->gravity[2] = 0.0;
  int b1 = add_body(w, 1.0, ZERO, ID, a, 4), b2 = add_body(w, 1.5, ZERO, ID, a, 4);
  world_finalize(w);
  w->threshold = 0.5;
  memcpy(w->bodies[b1].q, q1, sizeof q1);
  memcpy(w->bodies[b2].q, q2, sizeof q2);
  w->bodies[b1].x[0] = -1.3, w->bodies[b1].x[1] = 0.2, w->bodies[b1].v[0] = 1.0;
  w->bodies[b2].x[0] = 1.3, w->bodies[b2].v[0] = -0.5;
  double p0[3];
  for (int k = 0; k < 3; k++)
    p0[k] = w->bodies[b1].v[k] * 1.0 + w->bodies[b2].v[k] * 1.5;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.005, 400, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  double dp = 0.0, vn = NAN, gap = NAN;
  for (int k = 0; k < 3; k++)
    dp = fmax(dp, fabs(w->bodies[b1].v[k] * 1.0 + w->bodies[b2].v[k] * 1.5 - p0[k]));
  struct contact_set cs = {0, 0, NULL};
  if (ok && world_detect(w, 0.5, &cs) == 0 && cs.n == 1) {
    const struct contact *c = &cs.c[0];
    double va[3], vb[3];
    world_point_velocity(w, &w->bodies[c->a], c->pa, va);
    world_point_velocity(w, &w->bodies[c->b], c->pb, vb);
    vn = (va[0] - vb[0]) * c->n[0] + (va[1] - vb[1]) * c->n[1] + (va[2] - vb[2]) * c->n[2];
    gap = c->gap;
  }
  CHECK(ok && w->bodies[b1].v[0] < 0.5 && dp < 1e-12 && vn > -1e-8 && gap > -1e-8,
        "geometric_implicit 3D: two turned p = 4 superellipsoids collide head on (v1x 1 -> %.3f): momentum "
        "kept (%.1e), normal approach speed after %.1e, gap %.1e (%ld steps failed)",
        w->bodies[b1].v[0], dp, vn, gap, sum.failed_steps);
  contact_set_free(&cs);
  close_sim(&sim);
  world_destroy(&w);
}

/* The registered scene superellipsoid_drop (a p = 4 superellipsoid tilted 15 degrees, dropped from 1.5 m):
 * geometric_implicit lands it and lets it rock without its energy ever rising and without penetrating the
 * plane; the scene passes the shape's refusals on (an odd exponent). */
static void test_scene_drop(void)
{
  char msg[300] = "";
  struct world *w = NULL;
  int rc = scene_create_from_spec("superellipsoid_drop:p=3", NULL, &w, msg, sizeof msg);
  CHECK(rc != 0 && !w && strstr(msg, "superellipsoid") && strstr(msg, "exponent"),
        "scene superellipsoid_drop:p=3 refused, the shape named (%s)", msg);
  rc = scene_create_from_spec("superellipsoid_drop", NULL, &w, msg, sizeof msg);
  struct simulation sim;
  int ok = rc == 0 && test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  double e0 = ok ? world_energy(w) : NAN, rise = 0.0, deepest = 0.0, zmin = INFINITY;
  long failed = 0;
  for (int k = 0; ok && k < 3000; k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, 1e-3, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    rise = fmax(rise, world_energy(w) - e0);
    zmin = fmin(zmin, w->bodies[1].x[2]);
    struct contact_set cs = {0, 0, NULL};
    if (ok && world_detect(w, 0.0, &cs) == 0 && cs.n) deepest = fmax(deepest, -cs.c[0].gap);
    contact_set_free(&cs);
  }
  /* the centre never comes lower than the inscribed radius min(a, b, c) = 0.6 above the plane */
  CHECK(ok && failed == 0 && rise < 1e-9 && deepest < 1e-8 && zmin > 0.6 - 1e-8 && zmin < 1.0,
        "scene superellipsoid_drop with geometric_implicit (3 s): lands and rocks, lowest centre height %.6f "
        "(inscribed radius 0.6), energy never above the start (%.1e J), deepest penetration %.1e m (%ld "
        "failed)",
        zmin, rise, deepest, failed);
  if (rc == 0) close_sim(&sim);
  world_destroy(&w);
}

/* quasi_rigid 3D: the ellipsoid resting on the compliant plane sinks by m g / k (k = 1000). */
static void test_qr_rest(void)
{
  const double a[3] = {2.0, 1.5, 1.0};
  struct world *w = on_ground(a, 2, 1.0, ID, 0.0);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton",
                         OPTS("-quasi_rigid_delta_max", "1", "-quasi_rigid_c", "20"));
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 1e-3, 3000, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  double delta = 1.0 - w->bodies[1].x[2], ref = G / 1000.0;
  CHECK(ok && fabs(delta - ref) / ref < 0.01 && tilt(&w->bodies[1]) < 1e-8,
        "quasi_rigid 3D: ellipsoid at rest on the compliant plane, compression %.6f m (m g / k = %.6f m)",
        delta, ref);
  close_sim(&sim);
  world_destroy(&w);
}

/* The explicit formulations through the shared detection: Stewart-Trinkle keeps a p = 4 superellipsoid at
 * rest on the plane. */
static void test_explicit(void)
{
  const double a[3] = {1.0, 0.8, 0.5};
  struct world *w = on_ground(a, 4, 0.5, ID, 0.5);
  w->threshold = 0.01;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "stewart_trinkle", "lemke", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 100, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  CHECK(ok && fabs(w->bodies[1].x[2] - 0.5) < 1e-6 && tilt(&w->bodies[1]) < 1e-9,
        "stewart_trinkle 3D: p = 4 superellipsoid at rest on the plane stays (z - c = %.1e)",
        w->bodies[1].x[2] - 0.5);
  close_sim(&sim);
  world_destroy(&w);
  /* on a static box (the polyhedron pair: its face contact), anitescu_potra as well */
  const char *forms[2] = {"stewart_trinkle", "anitescu_potra"};
  for (int k = 0; k < 2; k++) {
    w = world_create(3);
    int g = world_add_body(w, 1, 0, 0);
    struct polyhedron *box = hull3d_box(3.0, 3.0, 1.0);
    const double down[3] = {0, 0, -1.0};
    hull3d_translate(box, down);
    world_add_polyhedron(w, g, box);
    int b = add_body(w, 1.0, ZERO, ID, a, 4);
    world_finalize(w);
    w->mu = 0.5;
    w->threshold = 0.01;
    w->bodies[b].x[2] = 0.5;
    ok = test_sim_open(&sim, w, forms[k], "lemke", NULL);
    sum = (struct run_summary){0};
    ok = ok && simulation_run(&sim, 0.01, 100, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
    CHECK(ok && fabs(w->bodies[b].x[2] - 0.5) < 1e-6 && tilt(&w->bodies[b]) < 1e-9,
          "%s 3D: p = 4 superellipsoid at rest on a box stays (z - c = %.1e)", forms[k],
          w->bodies[b].x[2] - 0.5);
    close_sim(&sim);
    world_destroy(&w);
  }
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_jacobians();
  test_explicit();
  test_gi_rest();
  test_gi_drop();
  test_gi_on_superellipsoid();
  test_gi_collision();
  test_scene_drop();
  test_qr_rest();
  test_gi_topple();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
