/* test_polyhedron_implicit.c — convex polyhedra as intersections of half-spaces in the 3D geometrically
 * implicit formulation (Chakraborty, Berard, Akella & Trinkle, Sec. 4.3, eqs. (28)-(32): one multiplier per
 * face of body 2, body 1 a single function): the analytic Jacobian against central differences at random
 * poses and velocities (a turning box near a tilted plane, a box under a moving sphere, a p = 4
 * superellipsoid on a moving box, an icosahedron near the plane); two polyhedra in one contact refused by
 * name; the carried state of a polyhedron contact read back as written. Physics against analytic answers: a
 * box at rest on the plane stays at height = half-size; a frictionless box dropped flat reaches the plane at
 * the free-fall time sqrt(2 (H - c) / g) and stops there; a box sliding with mu decelerates at mu g (its
 * stopping time v0 / (mu g) and distance v0^2 / (2 mu g), without tipping); a tall box tilted past its edge
 * topples onto its side and a cube tilted less falls back flat, their energy never rising; a sphere and a
 * superellipsoid rest on a static box; a frictionless sphere hitting a free box keeps the momentum; the
 * scene box_drop3d lands at its lowest vertex's free-fall time and settles flat. quasi_rigid (Sec. 5.1 with
 * the polyhedron as the rigid body): the same Jacobian checks, a box on the compliant plane sinks by m g / k,
 * two polyhedra refused. */
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

/* A dynamic box (half extents hx, hy, hz) of mass m, its inertia tensor from the hull. */
static int add_box(struct world *w, double m, double hx, double hy, double hz)
{
  int b = world_add_body(w, 0, m, 1.0);
  struct polyhedron *box = hull3d_box(hx, hy, hz);
  hull3d_central_inertia(box, m, w->bodies[b].inertia3);
  world_add_polyhedron(w, b, box);
  return b;
}

/* The ground z <= 0 and one box of mass 1 at height z, turned by q. */
static struct world *box_on_ground(const double half[3], double z, const double q[4], double mu)
{
  struct world *w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  int b = add_box(w, 1.0, half[0], half[1], half[2]);
  world_finalize(w);
  w->mu = mu;
  w->threshold = 0.5;
  w->bodies[b].x[2] = z;
  memcpy(w->bodies[b].q, q, 4 * sizeof *q);
  return w;
}

static const char *form = "geometric_implicit"; /* the formulation test_jacobians checks */

static void check_jacobian(struct world *w, const char *what, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, form, NULL, rng, &nc);
  CHECK(worst < 1e-6, "%s 3D, %s: %d contacts, analytic Jacobian = finite differences (%.1e)", form, what, nc,
        worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, form[0] == 'g' ? 43 : 44);
  const double np[3] = {sin(0.3), -0.2, cos(0.3)}, a[3] = {0.9, 0.6, 0.5}, c0[3] = {0.1, -0.05, 0.02};
  /* a moving, turning box near a tilted plane (body 1 the plane, body 2 the box's six half-spaces) */
  struct world *w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), np, 0.1);
  int b = add_box(w, 1.3, 0.5, 0.4, 0.3);
  world_finalize(w);
  w->threshold = 1.0;
  w->mu = 0.4;
  w->bodies[b].x[2] = 0.7;
  random_body_motion(&w->bodies[b], rng);
  check_jacobian(w, "turning box near a tilted plane", rng);
  world_destroy(&w);
  /* a moving sphere above a moving box, and a moving p = 4 superellipsoid on it */
  for (int other = 0; other < 2; other++) {
    w = world_create(3);
    b = add_box(w, 1.3, 0.6, 0.5, 0.3);
    int b2 = world_add_body(w, 0, 0.8, 0.3);
    if (other == 0)
      world_add_sphere(w, b2, ZERO, 0.4);
    else {
      int s = world_add_superellipsoid(w, b2, c0, ID, a, 4, NULL, 0);
      world_superellipsoid_inertia(&w->shapes[s], 0.8, w->bodies[b2].inertia3);
    }
    world_finalize(w);
    w->threshold = 1.0;
    w->mu = 0.4;
    w->bodies[b2].x[0] = 0.3, w->bodies[b2].x[1] = -0.2, w->bodies[b2].x[2] = other ? 1.0 : 0.8;
    random_body_motion(&w->bodies[b], rng);
    random_body_motion(&w->bodies[b2], rng);
    check_jacobian(w, other ? "p = 4 superellipsoid on a moving box" : "sphere above a moving box", rng);
    world_destroy(&w);
  }
  /* an icosahedron (20 faces) near the ground */
  w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  b = world_add_body(w, 0, 1.0, 1.0);
  struct polyhedron *ico = hull3d_icosahedron(0.5);
  hull3d_central_inertia(ico, 1.0, w->bodies[b].inertia3);
  world_add_polyhedron(w, b, ico);
  world_finalize(w);
  w->threshold = 1.0;
  w->mu = 0.3;
  w->bodies[b].x[2] = 0.6;
  random_body_motion(&w->bodies[b], rng);
  check_jacobian(w, "icosahedron near the ground", rng);
  world_destroy(&w);
  gsl_rng_free(rng);
}

/* Two polyhedra in one contact: refused, naming why (Remark 1, Sec. 7: the active index k1 of (29) would
 * have to be chosen within the step). */
static void test_refusal(void)
{
  struct world *w = world_create(3);
  int g = world_add_body(w, 1, 0, 0);
  struct polyhedron *base = hull3d_box(2.0, 2.0, 0.5);
  const double down[3] = {0, 0, -0.5};
  hull3d_translate(base, down);
  world_add_polyhedron(w, g, base);
  int b = add_box(w, 1.0, 0.5, 0.5, 0.5);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[b].x[2] = 0.6;
  struct formulation *f = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  char msg[400] = "";
  int rc = formulation_create("geometric_implicit", &f, NULL, 0);
  rc = rc ? rc : f->type->detect(f, w, 0.01, &cs);
  rc = rc ? rc : f->type->assemble(f, w, &cs, 0.01, &p);
  if (f) snprintf(msg, sizeof msg, "%s", f->message);
  CHECK(rc > 0 && p == NULL && strstr(msg, "both polyhedra") && strstr(msg, "Sec. 4.3"),
        "geometric_implicit 3D: a box on a box is refused (%s)", msg);
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
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

static double speed(const struct body *b)
{
  return hypot(hypot(b->v[0], b->v[1]), b->v[2]) + hypot(hypot(b->w[0], b->w[1]), b->w[2]);
}

/* The carried state of a polyhedron contact (one multiplier per face) written, read into a fresh
 * formulation and written again: the same values. */
static void test_carry(void)
{
  const double half[3] = {0.5, 0.4, 0.3};
  struct world *w = box_on_ground(half, 0.3, ID, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 3, NULL, 0, &sum) == 0;
  struct formulation *f2 = NULL;
  double *buf = NULL, *buf2 = NULL;
  int n = -1, n2 = -2;
  if (ok && formulation_carry_get(sim.f, &buf, &n) == 0 &&
      formulation_create("geometric_implicit", &f2, NULL, 0) == 0 && formulation_carry_set(f2, buf, n) == 0)
    formulation_carry_get(f2, &buf2, &n2);
  CHECK(n == 1 + 1 + 3 + 1 + 9 + 3 + 6 && n2 == n && buf2 && memcmp(buf, buf2, (size_t)n * sizeof *buf) == 0,
        "geometric_implicit 3D: a box contact's carried state (%d values: 6 face multipliers) read back as "
        "written",
        n);
  /* the next step's problem assembled by both (what the corpus rebuild does): the same F at z = 0 */
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p1 = NULL, *p2 = NULL;
  double F1[64], F2[64];
  int same = f2 && sim.f->type->detect(sim.f, w, 0.01, &cs) == 0 &&
             sim.f->type->assemble(sim.f, w, &cs, 0.01, &p1) == 0 &&
             f2->type->assemble(f2, w, &cs, 0.01, &p2) == 0 && p1->n == p2->n && p1->n <= 64;
  if (same) {
    double z[64] = {0};
    same = cp_eval_F(p1, z, F1) == 0 && cp_eval_F(p2, z, F2) == 0 &&
           memcmp(F1, F2, (size_t)p1->n * sizeof *F1) == 0 &&
           memcmp(p1->lo, p2->lo, (size_t)p1->n * sizeof *p1->lo) == 0;
  }
  CHECK(same,
        "geometric_implicit 3D: the box's next step assembled from the carried state is the run's (%d "
        "unknowns, F(0) and bounds bit for bit)",
        p1 ? p1->n : -1);
  cp_destroy(&p1);
  cp_destroy(&p2);
  contact_set_free(&cs);
  free(buf);
  free(buf2);
  formulation_destroy(&f2);
  close_sim(&sim);
  world_destroy(&w);
}

/* A box (0.5, 0.4, 0.3) at rest flat on the plane stays at rest at height 0.3. */
static void test_rest(void)
{
  const double half[3] = {0.5, 0.4, 0.3};
  struct world *w = box_on_ground(half, 0.3, ID, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 300, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  const struct body *b = &w->bodies[1];
  CHECK(ok && fabs(b->x[2] - 0.3) < 1e-8 && tilt(b) < 1e-8 && hypot(b->x[0], b->x[1]) < 1e-8,
        "geometric_implicit 3D: box at rest on the plane for 3 s stays at height 0.3 (z - 0.3 = %.1e, tilt "
        "%.1e, drift %.1e)",
        b->x[2] - 0.3, tilt(b), hypot(b->x[0], b->x[1]));
  close_sim(&sim);
  world_destroy(&w);
}

/* A frictionless box dropped flat from H reaches the plane at sqrt(2 (H - hz) / g), within a step, and
 * stops flat at height hz. With SNES, as test_superellipsoid_sim's frictionless ellipsoid: without friction
 * the block (21)-(22) is degenerate (p_t = 0, sigma free), and fb_newton fails the impact step of both (the
 * box's one step of 700, the ellipsoid's ten of 1000). */
static void test_drop(void)
{
  const double half[3] = {0.5, 0.4, 0.3}, H = 1.5, h = 1e-3, tc = sqrt(2.0 * (H - 0.3) / G);
  struct world *w = box_on_ground(half, H, ID, 0.0);
  w->threshold = 1.5;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "snes_vinewtonssls", NULL);
  double t_hit = NAN;
  long failed = 0;
  for (int k = 0; ok && k < 700; k++) {
    struct run_summary sum = {0};
    double vz = w->bodies[1].v[2];
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    if (isnan(t_hit) && w->bodies[1].v[2] > vz) t_hit = w->t; /* the plane's impulse stops the fall */
  }
  const struct body *b = &w->bodies[1];
  CHECK(ok && failed == 0 && fabs(t_hit - tc) <= 1.5 * h && fabs(b->x[2] - 0.3) < 1e-8 && tilt(b) < 1e-8 &&
            speed(b) < 1e-8,
        "geometric_implicit 3D: box dropped flat from %.1f m reaches the plane at %.4f s (free fall %.4f s), "
        "rests flat at height 0.3 (%.1e, tilt %.1e; %ld failed)",
        H, t_hit, tc, b->x[2] - 0.3, tilt(b), failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* A box sliding along x at v0 with mu decelerates at mu g: stops after v0 / (mu g) having travelled
 * v0^2 / (2 mu g) (backward Euler: the discrete velocity falls by mu g h per step, the distance is short by
 * about v0 h / 2), without tipping (the contact point moves ahead of the centre by mu hz). */
static void test_slide(void)
{
  const double half[3] = {0.5, 0.4, 0.3}, mu = 0.3, v0 = 2.0, h = 1e-3;
  const double ts = v0 / (mu * G), ds = v0 * v0 / (2.0 * mu * G);
  struct world *w = box_on_ground(half, 0.3, ID, mu);
  w->bodies[1].v[0] = v0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  double t_stop = NAN, decel = 0.0, worst = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 1000; k++) {
    struct run_summary sum = {0};
    double vx = w->bodies[1].v[0];
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    double vnew = w->bodies[1].v[0];
    if (vnew > 1e-9) { /* sliding through the step: the deceleration is mu g */
      decel = (vx - vnew) / h;
      worst = fmax(worst, fabs(decel - mu * G));
    }
    if (isnan(t_stop) && vnew < 1e-9) t_stop = w->t;
  }
  const struct body *b = &w->bodies[1];
  CHECK(ok && failed == 0 && worst < 1e-6 && fabs(t_stop - ts) <= h && fabs(b->x[0] - ds) <= v0 * h &&
            speed(b) < 1e-8 && tilt(b) < 1e-8 && fabs(b->x[2] - 0.3) < 1e-8,
        "geometric_implicit 3D: box sliding at %.0f m/s, mu %.1f: deceleration mu g within %.1e, stops at "
        "%.4f s (v0 / (mu g) = %.4f s) after %.4f m (v0^2 / (2 mu g) = %.4f m), no tipping (tilt %.1e; %ld "
        "failed)",
        v0, mu, worst, t_stop, ts, b->x[0], ds, tilt(b), failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* Toppling: a tall box (0.2, 0.2, 0.6) on its bottom edge tilted 0.5 rad about x (past atan(0.2 / 0.6) =
 * 0.32, its tipping angle) falls onto its side and rests at height 0.2; a cube (0.3) tilted 0.3 rad (under
 * 45 degrees) falls back onto its face at height 0.3. Neither's energy ever rises above the start. */
static void test_topple(void)
{
  const double xaxis[3] = {1, 0, 0};
  for (int cube = 0; cube < 2; cube++) {
    const double half[3] = {cube ? 0.3 : 0.2, cube ? 0.3 : 0.2, cube ? 0.3 : 0.6}, th = cube ? 0.3 : 0.5;
    const double rest = cube ? 0.3 : 0.2;
    double q[4];
    quat_from_axis_angle(xaxis, th, q);
    /* the lowest edge on the plane: z = hy sin th + hz cos th */
    double z0 = half[1] * sin(th) + half[2] * cos(th);
    struct world *w = box_on_ground(half, z0, q, 0.5);
    struct simulation sim;
    int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
    double e0 = world_energy(w), rise = 0.0;
    long failed = 0;
    for (int k = 0; ok && k < 600; k++) {
      struct run_summary sum = {0};
      if (simulation_run(&sim, 5e-3, 1, NULL, 0, &sum)) ok = 0;
      failed += sum.failed_steps;
      rise = fmax(rise, world_energy(w) - e0);
    }
    const struct body *b = &w->bodies[1];
    double ang = tilt(b), want = cube ? 0.0 : 0.5 * M_PI;
    CHECK(ok && failed == 0 && fabs(b->x[2] - rest) < 1e-6 && fabs(ang - want) < 1e-6 && speed(b) < 1e-5 &&
              rise < 1e-9,
          "geometric_implicit 3D: %s tilted %.1f rad on its edge %s, rests at height %.9f (%.1f), tilt %.6f "
          "rad, |v| + |w| = %.1e, no energy gain (%.1e J; %ld failed)",
          cube ? "cube" : "tall box", th, cube ? "falls back flat" : "topples onto its side", b->x[2], rest,
          ang, speed(b), rise, failed);
    close_sim(&sim);
    world_destroy(&w);
  }
}

/* A unit sphere and a p = 4 superellipsoid (1, 0.8, 0.6) resting on a static box's top face (z = 0) stay at
 * rest at their half-height. */
static void test_on_box(void)
{
  const double a[3] = {1.0, 0.8, 0.6};
  for (int sphere = 0; sphere < 2; sphere++) {
    struct world *w = world_create(3);
    int g = world_add_body(w, 1, 0, 0);
    struct polyhedron *base = hull3d_box(3.0, 3.0, 0.5);
    const double down[3] = {0, 0, -0.5};
    hull3d_translate(base, down);
    world_add_polyhedron(w, g, base);
    int b = world_add_body(w, 0, 1.0, 0.4);
    if (sphere)
      world_add_sphere(w, b, ZERO, 1.0);
    else {
      int s = world_add_superellipsoid(w, b, ZERO, ID, a, 4, NULL, 0);
      world_superellipsoid_inertia(&w->shapes[s], 1.0, w->bodies[b].inertia3);
    }
    world_finalize(w);
    w->mu = 0.5;
    w->threshold = 0.5;
    double z = sphere ? 1.0 : 0.6;
    w->bodies[b].x[2] = z;
    struct simulation sim;
    int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
    struct run_summary sum = {0};
    ok = ok && simulation_run(&sim, 0.01, 200, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
    const struct body *bd = &w->bodies[b];
    CHECK(ok && fabs(bd->x[2] - z) < 1e-8 && tilt(bd) < 1e-8 && hypot(bd->x[0], bd->x[1]) < 1e-8,
          "geometric_implicit 3D: %s at rest on a static box's top stays (z error %.1e, tilt %.1e)",
          sphere ? "unit sphere" : "p = 4 superellipsoid", bd->x[2] - z, tilt(bd));
    close_sim(&sim);
    world_destroy(&w);
  }
}

/* No gravity, no friction: a sphere (mass 1) hits a free box (mass 2, turned) off-centre: the impulses are
 * equal and opposite, so the momentum is kept to rounding; afterwards no approach along the normal. */
static void test_collision(void)
{
  const double ax[3] = {0.3, 1, 0.2};
  struct world *w = world_create(3);
  w->gravity[2] = 0.0;
  int bs = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, bs, ZERO, 0.5);
  int bb = add_box(w, 2.0, 0.5, 0.4, 0.3);
  world_finalize(w);
  w->threshold = 0.5;
  w->mu = 0.0;
  w->bodies[bs].x[0] = -1.2, w->bodies[bs].x[1] = 0.15, w->bodies[bs].v[0] = 1.0;
  quat_from_axis_angle(ax, 0.4, w->bodies[bb].q);
  double p0[3], L = 0.0;
  for (int k = 0; k < 3; k++)
    p0[k] = w->bodies[bs].v[k] * 1.0 + w->bodies[bb].v[k] * 2.0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.005, 300, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  for (int k = 0; k < 3; k++)
    L = fmax(L, fabs(w->bodies[bs].v[k] * 1.0 + w->bodies[bb].v[k] * 2.0 - p0[k]));
  double ke = world_kinetic_energy(w);
  CHECK(ok && w->bodies[bs].v[0] < 0.9 && w->bodies[bb].v[0] > 0.05 && L < 1e-12 && ke <= 0.5 + 1e-12,
        "geometric_implicit 3D: a sphere hits a turned free box (sphere vx 1 -> %.3f, box vx %.3f): momentum "
        "kept (%.1e), kinetic energy %.4f J <= 0.5 J (%ld failed)",
        w->bodies[bs].v[0], w->bodies[bb].v[0], L, ke, sum.failed_steps);
  close_sim(&sim);
  world_destroy(&w);
}

/* The registered scene box_drop3d (a box turned 20 degrees about x, then 10 about y, dropped from 1.2 m)
 * with geometric_implicit: it lands on a vertex when that vertex has fallen freely (within a step), rocks and
 * settles on its bottom face at height c = 0.3, its energy never above the start and the plane never
 * penetrated; the scene refuses a zero half extent. */
static void test_scene(void)
{
  char msg[300] = "";
  struct world *w = NULL;
  int rc = scene_create_from_spec("box_drop3d:a=0", NULL, &w, msg, sizeof msg);
  CHECK(rc != 0 && !w && strstr(msg, "a"), "scene box_drop3d:a=0 refused (%s)", msg);
  rc = scene_create_from_spec("box_drop3d", NULL, &w, msg, sizeof msg);
  struct simulation sim;
  int ok = rc == 0 && test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  double e0 = ok ? world_energy(w) : NAN, rise = 0.0, deepest = 0.0, t_land = NAN, zlow = INFINITY;
  for (int i = 0; ok && i < w->shapes[1].polyhedron->nv; i++) { /* the lowest vertex falls freely */
    double p[3];
    world_point(w, &w->bodies[1], w->shapes[1].polyhedron->v + 3 * i, p);
    zlow = fmin(zlow, p[2]);
  }
  const double tf = sqrt(2.0 * zlow / G);
  long failed = 0;
  double worst_failed = 0.0;
  for (int k = 0; ok && k < 3000; k++) {
    struct run_summary sum = {0};
    double vz = w->bodies[1].v[2];
    if (simulation_run(&sim, 1e-3, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    if (sum.failed_steps) worst_failed = fmax(worst_failed, sum.residual_max);
    rise = fmax(rise, world_energy(w) - e0);
    struct contact_set cs = {0, 0, NULL};
    if (ok && world_detect(w, 0.0, &cs) == 0)
      for (int i = 0; i < cs.n; i++)
        deepest = fmax(deepest, -cs.c[i].gap);
    contact_set_free(&cs);
    if (isnan(t_land) && w->bodies[1].v[2] > vz) t_land = w->t; /* the plane's first impulse */
  }
  const struct body *b = ok ? &w->bodies[1] : NULL;
  /* A failed step here is fb_newton stalled just above its tolerance while the box rocks on an edge: which
   * steps stall depends on the rounding of the BLAS kernels (0 of 3000 with OpenBLAS's Haswell kernels, 1
   * at residual 5.9e-8 with SkylakeX, measured), so up to two such steps pass; a step further from the
   * answer, or the box not settling, fails the check. */
  CHECK(ok && failed <= 2 && worst_failed <= 1e-6 && rise < 1e-9 && deepest < 1e-8 &&
            fabs(b->x[2] - 0.3) < 1e-6 && tilt(b) < 1e-6 && speed(b) < 1e-5 && fabs(t_land - tf) <= 1.5e-3,
        "scene box_drop3d with geometric_implicit (3 s): lands at %.4f s (its lowest vertex's free fall %.4f "
        "s), settles flat at height %.9f (0.3), tilt %.1e, energy never above the start (%.1e J), deepest "
        "penetration %.1e m (%ld failed, worst residual %.1e; at most 2, below 1e-6)",
        t_land, tf, b ? b->x[2] : NAN, b ? tilt(b) : NAN, rise, deepest, failed, worst_failed);
  if (rc == 0) close_sim(&sim);
  world_destroy(&w);
}

/* quasi_rigid 3D (Sec. 5.1 with the polyhedron as the rigid body): a box (0.5, 0.4, 0.3) of mass 1 resting on
 * the compliant plane (k = 1000, c = 20, delta_max = 1) sinks by m g / k; a box on a box is refused. */
static void test_qr(void)
{
  const double half[3] = {0.5, 0.4, 0.3};
  struct world *w = box_on_ground(half, 0.3, ID, 0.0);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton",
                         OPTS("-quasi_rigid_delta_max", "1", "-quasi_rigid_c", "20"));
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 1e-3, 3000, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  double delta = 0.3 - w->bodies[1].x[2], ref = G / 1000.0;
  CHECK(
      ok && fabs(delta - ref) / ref < 0.01 && tilt(&w->bodies[1]) < 1e-8,
      "quasi_rigid 3D: box at rest on the compliant plane, compression %.6f m (m g / k = %.6f m), tilt %.1e",
      delta, ref, tilt(&w->bodies[1]));
  close_sim(&sim);
  world_destroy(&w);
  w = world_create(3);
  int g = world_add_body(w, 1, 0, 0);
  world_add_polyhedron(w, g, hull3d_box(2.0, 2.0, 0.5));
  int b = add_box(w, 1.0, 0.5, 0.5, 0.5);
  world_finalize(w);
  w->threshold = 0.5;
  w->bodies[b].x[2] = 1.1;
  struct formulation *f = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  int rc = formulation_create("quasi_rigid", &f, NULL, 0);
  rc = rc ? rc : f->type->detect(f, w, 0.01, &cs);
  rc = rc ? rc : f->type->assemble(f, w, &cs, 0.01, &p);
  CHECK(rc > 0 && p == NULL && f && strstr(f->message, "both polyhedra"),
        "quasi_rigid 3D: a box on a box is "
        "refused (%s)",
        f ? f->message : "");
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_jacobians();
  form = "quasi_rigid";
  test_jacobians();
  test_refusal();
  test_carry();
  test_rest();
  test_drop();
  test_slide();
  test_topple();
  test_on_box();
  test_collision();
  test_scene();
  test_qr();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
