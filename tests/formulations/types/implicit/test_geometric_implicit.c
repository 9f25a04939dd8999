/* test_geometric_implicit.c — the geometrically implicit mixed NCP (Chakraborty, Berard, Akella & Trinkle,
 * eqs. (15)-(22); disc on a plane = eqs. (41)-(47)): the analytic Jacobian of the callback problem against
 * central finite differences at random states (a disc near a tilted half-plane; two moving discs above the
 * ground: every body-2 pose derivative is exercised), then known answers through the stepper with the
 * semismooth Newton solver: the rolling unit disc of Sec. 6.1 (q = (0, 1, 0), nu = (-3, 0, 3), mu = 0.4,
 * h = 0.01, 2 s) keeps its kinetic energy (relative loss <= 1e-6, the paper's tolerance) and rolls without
 * slipping; a disc dropped on the line comes to rest on it without penetrating. Polygons (Sec. 4.3, eqs.
 * (28)-(32)): the Jacobian with a box on either side of a contact, a box against a box refused; a disc on a
 * box (drop, rolling) and a box dropped flat on the ground come to rest or roll as the analytic answer. 3D
 * (unit quaternions, e_t, e_o, e_r): the end-of-step implicit function's derivatives in the body velocities
 * (an ellipsoid, exercising the quaternion update) against finite differences; the problem's Jacobian at
 * random 3D states (a sphere near a tilted plane, two moving spheres on the ground, the sphere on two spheres
 * of Sec. 6.2); a sphere rolling on the plane keeps its kinetic energy and rolls without slipping; a dropped
 * sphere comes to rest on the plane. */
#include "check.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "implicit_polygon.h"
#include "implicit_side.h"
#include "implicit_side3.h"
#include "run.h"
#include "scenes.h"
#include "world_detect.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static void check_jacobian(struct world *w, const char *what, gsl_rng *rng)
{
  int nc = 0;
  double worst = formulation_jacobian_error(w, "geometric_implicit", NULL, rng, &nc);
  CHECK(worst < 1e-6, "geometric_implicit %s: %d contacts, analytic Jacobian = finite differences (%.1e)",
        what, nc, worst);
}

static void test_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 41);
  /* a disc near a tilted static half-plane */
  struct world *w = world_create(2);
  int g = world_add_body(w, 1, 0, 0); /* a body's parts are added right after it */
  world_add_halfplane(w, g, -sin(0.3), cos(0.3), 0.1);
  int b = world_add_body(w, 0, 1.3, 0.4);
  world_add_disc(w, b, 0.1, -0.05, 0.8);
  world_finalize(w);
  w->threshold = 1.0;
  w->mu = 0.4;
  struct body *bd = &w->bodies[b];
  bd->x[0] = 0.2, bd->x[1] = 1.0, bd->theta = 0.7, bd->v[0] = -1.2, bd->v[1] = 0.4, bd->w[2] = 2.1;
  check_jacobian(w, "disc on a tilted half-plane", rng);
  world_destroy(&w);
  /* two moving discs above the ground: pairs disc-disc (both dynamic) and disc-ground */
  w = scene_disc_on_line(1.0, 1.0, 1.05, 0.3);
  int b2 = world_add_body(w, 0, 2.0, 0.9);
  world_add_disc(w, b2, 0.0, 0.0, 0.7);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b2].x[0] = 1.6, w->bodies[b2].x[1] = 1.3, w->bodies[b2].theta = -0.4;
  w->bodies[b2].v[0] = 0.5, w->bodies[b2].w[2] = -1.5, w->bodies[1].w[2] = 0.8;
  check_jacobian(w, "two discs on the ground", rng);
  world_destroy(&w);
  gsl_rng_free(rng);
}

/* A world of a static box (polygon, top at y = 0) or the ground half-plane y <= 0, and one dynamic body: a
 * disc of radius 0.5 or a 1 x 0.5 box (polygon), at (x, y, theta). Sec. 4.3: a polygon against a single
 * function. */
static struct world *polygon_world(int static_box, int dyn_box, double x, double y, double th, double mu)
{
  struct world *w = world_create(2);
  w->mu = mu;
  int g = world_add_body(w, 1, 0, 0);
  if (static_box) {
    const double box[8] = {-3, -1, 3, -1, 3, 0, -3, 0};
    world_add_polygon(w, g, 4, box);
  } else
    world_add_halfplane(w, g, 0.0, 1.0, 0.0);
  if (dyn_box) {
    const double xy[8] = {-0.5, -0.25, 0.5, -0.25, 0.5, 0.25, -0.5, 0.25};
    int b = world_add_body(w, 0, 1.0, (1.0 + 0.25) / 12.0);
    world_add_polygon(w, b, 4, xy);
  } else {
    int b = world_add_body(w, 0, 1.0, 0.125);
    world_add_disc(w, b, 0.0, 0.0, 0.5);
  }
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[1].x[0] = x, w->bodies[1].x[1] = y, w->bodies[1].theta = th;
  return w;
}

/* Sec. 4.3 (polygons as intersections of half-planes, eqs. (28)-(32)): the Jacobian of a disc near a static
 * box and of a moving, turning box near the ground and near a static disc; a box against a box is refused
 * with a message naming Sec. 4.3. */
static void test_polygon_jacobians(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 43);
  struct world *w = polygon_world(1, 0, 0.3, 0.6, 0.4, 0.4);
  w->bodies[1].v[0] = -1.1, w->bodies[1].v[1] = 0.3, w->bodies[1].w[2] = 1.7;
  check_jacobian(w, "disc near a static box (Sec. 4.3)", rng);
  world_destroy(&w);
  w = polygon_world(0, 1, 0.2, 0.45, 0.5, 0.4);
  w->bodies[1].v[0] = 0.8, w->bodies[1].v[1] = -0.6, w->bodies[1].w[2] = -2.3;
  check_jacobian(w, "turning box near the ground (Sec. 4.3)", rng);
  world_destroy(&w);
  /* a moving box against a static disc: body 2 (the box) moves, so its half-planes' pose derivatives count */
  w = world_create(2);
  w->mu = 0.3;
  int g = world_add_body(w, 1, 0, 0);
  world_add_disc(w, g, 0.0, 0.0, 0.5);
  const double xy[8] = {-0.5, -0.25, 0.5, -0.25, 0.5, 0.25, -0.5, 0.25};
  int b = world_add_body(w, 0, 1.0, 0.1);
  world_add_polygon(w, b, 4, xy);
  world_finalize(w);
  w->threshold = 1.0;
  w->bodies[b].x[0] = 0.4, w->bodies[b].x[1] = 0.9, w->bodies[b].theta = 0.3;
  w->bodies[b].v[0] = -0.7, w->bodies[b].v[1] = 0.2, w->bodies[b].w[2] = 1.3;
  check_jacobian(w, "moving box on a static disc (Sec. 4.3)", rng);
  world_destroy(&w);
  gsl_rng_free(rng);
  /* two polygons: refused, naming why */
  w = polygon_world(1, 1, 0.0, 0.3, 0.0, 0.4);
  struct formulation *f = NULL;
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  int rc = formulation_create("geometric_implicit", &f, NULL, 0) == 0 && f->type->detect(f, w, 0.01, &cs) == 0
               ? f->type->assemble(f, w, &cs, 0.01, &p)
               : -1;
  const char *msg = f ? f->message : "";
  CHECK(rc > 0 && p == NULL && strstr(msg, "both polygons") && strstr(msg, "Sec. 4.3"),
        "geometric_implicit: a box on a box is refused (%s)", msg);
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  world_destroy(&w);
}

static int run(struct world *w, double h, int steps, struct run_summary *sum)
{
  struct simulation sim = {.w = w};
  int rc = 1;
  if (formulation_create("geometric_implicit", &sim.f, NULL, 0) == 0 &&
      solver_create("fb_newton", &sim.s, NULL, 0) == 0 && stepper_create(&sim.st) == 0)
    rc = simulation_run(&sim, h, steps, NULL, 0, sum);
  sim.w = NULL;
  simulation_close(&sim);
  return rc;
}

/* The impulses' cold start of a new polygon pair (implicit_polygon_impulses): a disc (r 0.5, m 2) 1 mm
 * above a box's top face, falling at 1 m/s and sliding at 0.3 m/s, h = 0.01: at the predicted pose it is
 * 9 mm into the face, so p_n = m 0.009 / h = 1.8 (the impulse that closes the gap within the step), sliding
 * friction p_t = -e_t mu p_n = -0.9 along t = (n_y, -n_x) = (1, 0), sigma = e_t |v_t| = 0.3; at rest above
 * the face, no impulse and no friction. */
static void test_polygon_impulses(void)
{
  struct world *w = world_create(2);
  const double box[8] = {-1, -1, 1, -1, 1, 0, -1, 0};
  int g = world_add_body(w, 1, 0, 0); /* a body's parts are added right after it */
  int sb = world_add_polygon(w, g, 4, box);
  int b = world_add_body(w, 0, 2.0, 0.25);
  int sa = world_add_disc(w, b, 0.0, 0.0, 0.5);
  world_finalize(w);
  w->bodies[b].x[1] = 0.501;
  struct gi_side s[2];
  char msg[200];
  int ok = implicit_side_init(w, sa, &s[0], msg, sizeof msg) == 0;
  implicit_side_pose_init(w, sb, &s[1]);
  const double h = 0.01, M[9] = {2, 0, 0, 0, 2, 0, 0, 0, 0.25}, papp[3] = {0, 0, 0};
  double nu0[3] = {0.3, -1.0, 0.0}, a1[2] = {0.003, -0.009}, a2[2] = {0.003, 0.0}, pn = -1, pt = 0, sg = 0;
  ok = ok && implicit_polygon_impulses(s, a1, a2, nu0, papp, M, 3, h, 0.5, 1.0, &pn, &pt, &sg) == 1;
  CHECK(ok && fabs(pn - 1.8) < 1e-12 && fabs(pt + 0.9) < 1e-12 && fabs(sg - 0.3) < 1e-12,
        "cold start of a disc landing on a box while sliding: p_n %.15g (1.8), p_t %.15g (-0.9), sigma %.15g "
        "(0.3)",
        pn, pt, sg);
  nu0[0] = nu0[1] = 0.0; /* at rest, 1 mm above: the predicted points are the start's */
  const double b1[2] = {0.0, 0.001}, b2[2] = {0.0, 0.0};
  pt = sg = 7.0;
  const int set = implicit_polygon_impulses(s, b1, b2, nu0, papp, M, 3, h, 0.5, 1.0, &pn, &pt, &sg);
  CHECK(set == 0 && pn == 0.0 && pt == 7.0 && sg == 7.0,
        "a disc at rest above a box: p_n %g (0), friction left as it was (%d)", pn, set);
  world_destroy(&w);
}

static void test_rolling_disc(void)
{
  struct world *w = scene_disc_on_line(1.0, 1.0, 1.0, 0.4);
  struct body *b = &w->bodies[1];
  b->v[0] = -3.0, b->w[2] = 3.0;
  double ke0 = world_kinetic_energy(w);
  struct run_summary sum;
  int rc = run(w, 0.01, 200, &sum);
  double ke = world_kinetic_energy(w), slip = fabs(b->v[0] + b->w[2]);
  CHECK(rc == 0 && sum.failed_steps == 0, "rolling disc: 200 steps, every NCP solved (%d failed)",
        rc ? -1 : (int)sum.failed_steps);
  CHECK(fabs(ke - ke0) / ke0 <= 1e-6, "rolling disc: kinetic energy kept (Sec. 6.1: rel. loss %.2e <= 1e-6)",
        fabs(ke - ke0) / ke0);
  CHECK(slip < 1e-6, "rolling disc: rolls without slipping |v_x + omega r| = %.2e", slip);
  CHECK_CLOSE(b->x[0], -6.0, 1e-6, "rolling disc: travelled 6 m in 2 s (x = %.9f)", b->x[0]);
  CHECK(fabs(b->x[1] - 1.0) < 1e-8, "rolling disc: stays on the plane (y - 1 = %.1e)", b->x[1] - 1.0);
  world_destroy(&w);
}

static void test_drop(void)
{
  struct world *w = scene_disc_on_line(0.5, 1.0, 1.0, 0.3);
  w->threshold = 1.0;
  struct run_summary sum;
  int rc = run(w, 0.01, 150, &sum);
  const struct body *b = &w->bodies[1];
  CHECK(rc == 0 && sum.failed_steps == 0, "disc drop: every NCP solved (%d failed)",
        rc ? -1 : (int)sum.failed_steps);
  CHECK(fabs(b->x[1] - 0.5) < 1e-8 && fabs(b->v[1]) < 1e-8,
        "disc drop: at rest on the line, no penetration (y - r = %.1e, vy = %.1e)", b->x[1] - 0.5, b->v[1]);
  world_destroy(&w);
}

/* Sec. 4.3 through the stepper: a disc dropped on a static box comes to rest on its top; a disc rolling on
 * the box's top keeps its kinetic energy as on the half-plane (Sec. 6.1); a box dropped flat on the ground
 * comes to rest flat (the one contact point per pair moves under the centre of mass: the closest points
 * are unknowns of the step); a box dropped on a corner (theta = 0.3, h = 0.005) pivots and settles flat (this
 * needs the closest-point guess at the predicted pose: warm-started from the old vertex, every Newton solver
 * stalled after the impact and the run diverged). */
static void test_polygon_runs(void)
{
  struct run_summary sum;
  struct world *w = polygon_world(1, 0, 0.4, 0.8, 0.0, 0.3);
  int rc = run(w, 0.01, 150, &sum);
  const struct body *b = &w->bodies[1];
  CHECK(rc == 0 && sum.failed_steps == 0 && fabs(b->x[1] - 0.5) < 1e-8 && fabs(b->v[1]) < 1e-8,
        "disc dropped on a box: every NCP solved, at rest on its top (y - r = %.1e, vy = %.1e)",
        b->x[1] - 0.5, b->v[1]);
  world_destroy(&w);
  w = polygon_world(1, 0, 1.0, 0.5, 0.0, 0.4);
  b = &w->bodies[1];
  w->bodies[1].v[0] = -1.0, w->bodies[1].w[2] = 2.0;
  double ke0 = world_kinetic_energy(w);
  rc = run(w, 0.01, 100, &sum);
  double ke = world_kinetic_energy(w);
  CHECK(rc == 0 && sum.failed_steps == 0 && fabs(ke - ke0) / ke0 <= 1e-6 &&
            fabs(b->v[0] + 0.5 * b->w[2]) < 1e-6,
        "disc rolling on a box's top: energy kept (rel. loss %.1e), no slip (%.1e)", fabs(ke - ke0) / ke0,
        fabs(b->v[0] + 0.5 * b->w[2]));
  CHECK_CLOSE(b->x[0], 0.0, 1e-6, "disc rolling on a box's top: travelled 1 m in 1 s (x = %.9f)", b->x[0]);
  world_destroy(&w);
  w = polygon_world(0, 1, 0.0, 0.6, 0.0, 0.5);
  b = &w->bodies[1];
  rc = run(w, 0.01, 150, &sum);
  CHECK(
      rc == 0 && sum.failed_steps == 0 && fabs(b->x[1] - 0.25) < 1e-8 && fabs(b->theta) < 1e-8 &&
          fabs(b->v[1]) < 1e-8,
      "box dropped flat on the ground: every NCP solved (%d failed), at rest flat (y - 0.25 = %.1e, theta = "
      "%.1e, vy = %.1e)",
      rc ? -1 : (int)sum.failed_steps, b->x[1] - 0.25, b->theta, b->v[1]);
  world_destroy(&w);
  w = polygon_world(0, 1, 0.0, 0.8, 0.3, 0.5);
  b = &w->bodies[1];
  rc = run(w, 0.005, 600, &sum);
  CHECK(rc == 0 && sum.failed_steps == 0 && fabs(b->x[1] - 0.25) < 1e-6 && fabs(b->theta) < 1e-6 &&
            fabs(b->w[2]) < 1e-6,
        "box dropped on a corner: every NCP solved (%d failed), settles flat (y - 0.25 = %.1e, theta = %.1e)",
        rc ? -1 : (int)sum.failed_steps, b->x[1] - 0.25, b->theta);
  world_destroy(&w);
}

/* 3D: side3_eval's derivatives in (a, v, omega) against central differences, for a rotated ellipsoid on a
 * moving body (the Cayley form of the renormalised quaternion update, implicit_side3.h). */
static void test_side3(gsl_rng *rng)
{
  struct convex_part part;
  char msg[200];
  const double c[3] = {0.1, -0.2, 0.05}, ax[3] = {1.3, 0.7, 0.9};
  double worst = INFINITY;
  if (convex_part_ellipsoid(&part, 3, c, ax, msg, sizeof msg) == 0) {
    worst = 0.0;
    for (int trial = 0; trial < 5; trial++) {
      struct gi_side3 s = {.dof = 0, .fn = part.f[0]};
      double q[4], len = 0.0, nu[6], a[3], h = 0.05;
      for (int k = 0; k < 4; k++)
        q[k] = gsl_rng_uniform(rng) - 0.5, len += q[k] * q[k];
      for (int k = 0; k < 4; k++)
        s.q0[k] = q[k] / sqrt(len);
      for (int k = 0; k < 3; k++) {
        s.x0[k] = gsl_rng_uniform(rng) - 0.5;
        a[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
      }
      for (int k = 0; k < 6; k++)
        nu[k] = 6.0 * gsl_rng_uniform(rng) - 3.0;
      struct side3_eval e, ep, em;
      side3_eval(&s, h, nu, a, &e);
      double step = 1e-6;
      for (int j = 0; j < 9; j++) { /* a (3), then nu (6) */
        double *v = j < 3 ? &a[j] : &nu[j - 3], keep = *v;
        *v = keep + step;
        side3_eval(&s, h, nu, a, &ep);
        *v = keep - step;
        side3_eval(&s, h, nu, a, &em);
        *v = keep;
        double df = (ep.f - em.f) / (2 * step), an = j < 3 ? e.G[j] : e.dfdn[j - 3];
        worst = fmax(worst, fabs(df - an) / fmax(1.0, fabs(an)));
        for (int i = 0; i < 3; i++) {
          double dg = (ep.G[i] - em.G[i]) / (2 * step);
          double ag = j < 3 ? e.Hw[i * 3 + j] : e.dGdn[i * 6 + j - 3];
          worst = fmax(worst, fabs(dg - ag) / fmax(1.0, fabs(ag)));
        }
      }
    }
  }
  CHECK(worst < 1e-7,
        "implicit side 3D: ellipsoid f, grad f derivatives in (a, v, omega) = finite differences (%.1e)",
        worst);
}

static void test_jacobians3d(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 43);
  test_side3(rng);
  /* a sphere (off-centre in its body) near a tilted static plane */
  struct world *w = fd_sphere_near_tilted_plane(rng);
  check_jacobian(w, "3D sphere on a tilted plane", rng);
  world_destroy(&w);
  /* two moving spheres on the ground: sphere-sphere with both bodies dynamic, and sphere-plane */
  const double cz[3] = {0, 0, 0};
  w = fd_two_spheres_on_ground(cz, rng);
  check_jacobian(w, "3D two spheres on the ground", rng);
  world_destroy(&w);
  gsl_rng_free(rng);
}

static void test_rolling_sphere(void)
{
  struct world *w = fd_sphere_on_plane(1.0, 0.4);
  struct body *b = &w->bodies[1];
  b->v[0] = -3.0, b->v[1] = 1.0, b->w[1] = -3.0, b->w[0] = -1.0; /* v + w x (-r e_z) = 0: rolling */
  double ke0 = world_kinetic_energy(w);
  struct run_summary sum;
  int rc = run(w, 0.01, 200, &sum);
  double ke = world_kinetic_energy(w), slip = hypot(b->v[0] - b->w[1], b->v[1] + b->w[0]);
  double qn = sqrt(b->q[0] * b->q[0] + b->q[1] * b->q[1] + b->q[2] * b->q[2] + b->q[3] * b->q[3]);
  CHECK(rc == 0 && sum.failed_steps == 0, "3D rolling sphere: 200 steps, every NCP solved (%d failed)",
        rc ? -1 : (int)sum.failed_steps);
  CHECK(fabs(ke - ke0) / ke0 <= 1e-6, "3D rolling sphere: kinetic energy kept (rel. loss %.2e <= 1e-6)",
        fabs(ke - ke0) / ke0);
  CHECK(slip < 1e-6, "3D rolling sphere: rolls without slipping (%.2e)", slip);
  CHECK(
      fabs(b->x[0] + 6.0) < 1e-6 && fabs(b->x[1] - 2.0) < 1e-6 && fabs(b->x[2] - 1.0) < 1e-8 &&
          fabs(qn - 1.0) < 1e-12,
      "3D rolling sphere: travelled (-6, 2) on the plane, unit quaternion (x = %.9f, y = %.9f, z - 1 = %.1e)",
      b->x[0], b->x[1], b->x[2] - 1.0);
  world_destroy(&w);
}

static void test_drop3d(void)
{
  struct world *w = fd_sphere_on_plane(1.5, 0.3);
  struct run_summary sum;
  int rc = run(w, 0.01, 150, &sum);
  const struct body *b = &w->bodies[1];
  CHECK(rc == 0 && sum.failed_steps == 0 && fabs(b->x[2] - 1.0) < 1e-8 && fabs(b->v[2]) < 1e-8,
        "3D sphere drop: every NCP solved, at rest on the plane (z - r = %.1e, vz = %.1e)", b->x[2] - 1.0,
        b->v[2]);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_jacobians();
  test_rolling_disc();
  test_drop();
  test_polygon_jacobians();
  test_polygon_runs();
  test_polygon_impulses();
  test_jacobians3d();
  test_rolling_sphere();
  test_drop3d();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
