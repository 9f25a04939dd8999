/* test_superellipse.c — the 2D superellipse world shape |u/a|^p + |v/b|^p <= 1 (Barr; p even, p = 2 the
 * ellipse) for the geometrically implicit time-stepper (Chakraborty, Berard, Akella & Trinkle, Sec. 4.1: one
 * convex function per body) and the explicit narrow phase: refusals naming the shape; the Beta-function area
 * and polar moment against numerical quadrature; the explicit contact against a half-plane (closed-form
 * support point) and a disc (nearest boundary point) against analytic gaps (against polygons and other
 * superellipses: test_contact2d_convex.c); the world text round trip; then through the stepper with
 * geometric_implicit: an ellipse at rest on the plane stays at rest, one standing on its tip falls over and
 * settles at height b without gaining energy, a p = 4 superellipse sliding with Coulomb friction stops at
 * v0^2 / (2 mu g), a frictionless ellipse dropped from H reaches the plane at sqrt(2 (H - b) / g); and
 * quasi_rigid: an ellipse resting on the compliant half-plane sinks by m g / k. */
#include "check.h"
#include "contact2d_superellipse.h"
#include "fd_jacobian.h"
#include "formulation.h"
#include "run.h"
#include "solver_fixture.h"
#include "world_detect.h"
#include "world_io.h"

#include <gsl/gsl_integration.h>
#include <math.h>
#include <petscsys.h>
#include <stdlib.h>
#include <string.h>

static const double G = 9.81;

/* The ground y <= 0 and one dynamic superellipse of mass m at (x, y, theta). */
static struct world *se_world(double a, double b, int p, double m, double x, double y, double th, double mu)
{
  struct world *w = world_create(2);
  int g = world_add_body(w, 1, 0, 0);
  world_add_halfplane(w, g, 0.0, 1.0, 0.0);
  int body = world_add_body(w, 0, m, 1.0);
  int s = world_add_superellipse(w, body, 0.0, 0.0, 0.0, a, b, p, NULL, 0);
  w->bodies[body].inertia = world_superellipse_inertia(&w->shapes[s], m);
  world_finalize(w);
  w->mu = mu;
  w->threshold = 0.5;
  w->bodies[body].x[0] = x, w->bodies[body].x[1] = y, w->bodies[body].theta = th;
  return w;
}

static void test_refusals(void)
{
  struct world *w = world_create(2);
  int b = world_add_body(w, 0, 1.0, 1.0);
  char msg[200] = "";
  int rc = world_add_superellipse(w, b, 0, 0, 0, 2.0, 1.0, 3, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipse") && strstr(msg, "exponent"), "odd exponent 3 refused (%s)", msg);
  msg[0] = '\0';
  rc = world_add_superellipse(w, b, 0, 0, 0, 2.0, 0.0, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipse") && strstr(msg, "semi-axis"), "zero semi-axis refused (%s)",
        msg);
  msg[0] = '\0';
  rc = world_add_superellipse(w, b, 0, 0, 0, 2.0, 1.0, 0, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "exponent"), "exponent 0 refused (%s)", msg);
  rc = world_add_superellipse(w, b, 0, 0, 0, 2.0, 1.0, 2, msg, sizeof msg);
  CHECK(rc == 0 && w->ns == 1 && w->shapes[0].radius == 2.0,
        "ellipse (p = 2) accepted, bound radius max(a, b)");
  world_destroy(&w);
  w = world_create(3);
  b = world_add_body(w, 0, 1.0, 1.0);
  rc = world_add_superellipse(w, b, 0, 0, 0, 2.0, 1.0, 2, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipse"), "a superellipse in a 3D world refused (%s)", msg);
  world_destroy(&w);
}

struct se_params {
  double a, b;
  int p, moment; /* moment: 0 area, 1 int x^2, 2 int y^2 over the quarter above [0, a] */
};

static double integrand(double x, void *vp)
{
  const struct se_params *q = vp;
  double y = q->b * pow(fmax(0.0, 1.0 - pow(x / q->a, q->p)), 1.0 / q->p);
  return q->moment == 0 ? y : q->moment == 1 ? x * x * y : y * y * y / 3.0;
}

static void test_mass_properties(void)
{
  gsl_integration_workspace *ws = gsl_integration_workspace_alloc(1000);
  const int ps[3] = {2, 4, 8};
  double worst = 0.0;
  for (int i = 0; i < 3; i++) {
    struct se_params q = {2.0, 1.0, ps[i], 0};
    double num[3], err;
    gsl_function F = {integrand, &q};
    for (q.moment = 0; q.moment < 3; q.moment++) {
      gsl_integration_qags(&F, 0.0, q.a, 0.0, 1e-12, 1000, ws, &num[q.moment], &err);
      num[q.moment] *= 4.0;
    }
    double area, polar;
    superellipse_mass_properties(q.a, q.b, q.p, &area, &polar);
    double e = fmax(fabs(area - num[0]) / num[0], fabs(polar - (num[1] + num[2])) / (num[1] + num[2]));
    worst = fmax(worst, e);
    CHECK(e < 1e-9,
          "superellipse a = 2, b = 1, p = %d: area %.10f (quadrature %.10f), polar moment %.10f "
          "(quadrature %.10f)",
          q.p, area, num[0], polar, num[1] + num[2]);
  }
  gsl_integration_workspace_free(ws);
  double area, polar;
  superellipse_mass_properties(2.0, 1.0, 2, &area, &polar);
  CHECK(fabs(area - 2.0 * M_PI) < 1e-12 && fabs(polar - M_PI * 2.0 * 5.0 / 4.0) < 1e-12,
        "ellipse: area pi a b, polar moment pi a b (a^2 + b^2) / 4 (%.3e, %.3e)", area - 2 * M_PI,
        polar - M_PI * 2.5);
  /* an offset centre adds A |c|^2 (parallel axes) */
  struct world *w = world_create(2);
  int b = world_add_body(w, 0, 1.0, 1.0);
  int s = world_add_superellipse(w, b, 0.3, -0.4, 0.7, 2.0, 1.0, 2, NULL, 0);
  CHECK_CLOSE(world_superellipse_inertia(&w->shapes[s], 3.0), 3.0 * (5.0 / 4.0 + 0.25), 1e-12,
              "offset ellipse: inertia m ((a^2 + b^2) / 4 + |c|^2)");
  world_destroy(&w);
}

static void test_detection(void)
{
  /* an ellipse turned by th, centre at height y: the lowest point is sqrt(a^2 sin^2 + b^2 cos^2) below it */
  double th = 0.4, y = 1.5, depth = sqrt(4.0 * sin(th) * sin(th) + cos(th) * cos(th));
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.3, y, th, 0.0);
  struct contact_set cs = {0, 0, NULL};
  int rc = world_detect(w, 1.0, &cs);
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap - (y - depth)) < 1e-12 && fabs(cs.c[0].n[1]) == 1.0,
        "tilted ellipse over the ground: one contact, gap %.15f (analytic %.15f)", cs.n ? cs.c[0].gap : NAN,
        y - depth);
  contact_set_free(&cs);
  world_destroy(&w);
  /* a p = 4 superellipse flat on the ground: its bottom (0, -b) exactly */
  w = se_world(2.0, 1.0, 4, 1.0, 0.0, 0.99, 0.0, 0.0);
  cs = (struct contact_set){0, 0, NULL};
  rc = world_detect(w, 0.1, &cs);
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap + 0.01) < 1e-12, "p = 4 flat: gap %.3e (analytic -0.01)",
        cs.n ? cs.c[0].gap : NAN);
  contact_set_free(&cs);
  /* a disc beside it: the ellipse's end (2, 0) faces it */
  world_destroy(&w);
  w = world_create(2);
  int e = world_add_body(w, 1, 0, 0);
  world_add_superellipse(w, e, 0.0, 0.0, 0.0, 2.0, 1.0, 4, NULL, 0);
  int d = world_add_body(w, 0, 1.0, 0.5);
  world_add_disc(w, d, 0.0, 0.0, 1.0);
  world_finalize(w);
  w->bodies[d].x[0] = 3.5, w->bodies[d].x[1] = 0.0;
  cs = (struct contact_set){0, 0, NULL};
  rc = world_detect(w, 1.0, &cs);
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap - 0.5) < 1e-10 && fabs(fabs(cs.c[0].n[0]) - 1.0) < 1e-10,
        "disc beside a p = 4 superellipse: gap %.12f (analytic 0.5)", cs.n ? cs.c[0].gap : NAN);
  contact_set_free(&cs);
  /* the disc above an ellipse (p = 2): the centre at (x0, y0) outside; the nearest point satisfies the KKT
   * condition (centre - point parallel to the gradient) */
  world_destroy(&w);
  w = world_create(2);
  e = world_add_body(w, 1, 0, 0);
  world_add_superellipse(w, e, 0.0, 0.0, 0.0, 2.0, 1.0, 2, NULL, 0);
  d = world_add_body(w, 0, 1.0, 0.5);
  world_add_disc(w, d, 0.0, 0.0, 0.5);
  world_finalize(w);
  w->bodies[d].x[0] = 1.2, w->bodies[d].x[1] = 1.1;
  cs = (struct contact_set){0, 0, NULL};
  rc = world_detect(w, 1.0, &cs);
  double kkt = NAN, on = NAN;
  if (rc == 0 && cs.n == 1) {
    const double *q = cs.c[0].sa == 0 ? cs.c[0].pa : cs.c[0].pb, gx = q[0] / 2.0,
                 gy = q[1] / 0.5; /* grad of (x/2)^2 + y^2 */
    double rx = 1.2 - q[0], ry = 1.1 - q[1];
    kkt = fabs(rx * gy - ry * gx) / hypot(gx, gy);
    on = fabs(q[0] * q[0] / 4.0 + q[1] * q[1] - 1.0);
  }
  CHECK(kkt < 1e-9 && on < 1e-12,
        "disc near an ellipse: nearest point on the boundary (%.1e) and on the "
        "normal through the centre (%.1e)",
        on, kkt);
  contact_set_free(&cs);
  world_destroy(&w);
}

static void test_world_io(void)
{
  struct world *w = se_world(2.0, 1.0, 4, 1.5, 0.3, 1.2, 0.25, 0.4);
  w->bodies[1].v[0] = 0.7;
  char *t1 = NULL, *t2 = NULL, err[200] = "";
  size_t n1 = 0, n2 = 0;
  struct world *r = NULL;
  int ok = world_to_text(w, &t1, &n1) == 0 && world_from_text(t1, n1, &r, err, sizeof err) == 0 &&
           world_to_text(r, &t2, &n2) == 0 && n1 == n2 && memcmp(t1, t2, n1) == 0;
  const struct shape *s = ok ? &r->shapes[1] : NULL;
  CHECK(ok && s->kind == SHAPE_SUPERELLIPSE && s->se.p == 4 && s->se.a == 2.0 && s->se.b == 1.0 &&
            s->se.second_moment == w->shapes[1].se.second_moment,
        "world text round trip with a superellipse: the same text, the same shape (%s)", err);
  /* a damaged superellipse record is refused */
  char *bad = t1 ? strdup(t1) : NULL, *at = bad ? strstr(bad, "super 4") : NULL;
  struct world *r2 = NULL;
  if (at) at[6] = '3';
  int refused = at && world_from_text(bad, strlen(bad), &r2, err, sizeof err) != 0;
  CHECK(refused && strstr(err, "superellipse exponent"), "an odd exponent in a world text refused (%s)", err);
  free(bad);
  free(t1);
  free(t2);
  world_destroy(&r);
  world_destroy(&r2);
  world_destroy(&w);
}

static void close_sim(struct simulation *sim)
{
  sim->w = NULL;
  simulation_close(sim);
}

/* An ellipse (a = 2, b = 1) at rest on the plane, long axis horizontal: stays at rest at height b. */
static void test_gi_rest(void)
{
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.0, 1.0, 0.0, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 200, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  const struct body *b = &w->bodies[1];
  CHECK(
      ok && fabs(b->x[1] - 1.0) < 1e-8 && fabs(b->theta) < 1e-8 && fabs(b->x[0]) < 1e-8,
      "geometric_implicit: ellipse at rest on its flank stays at rest (y - b = %.1e, theta = %.1e, x = %.1e)",
      b->x[1] - 1.0, b->theta, b->x[0]);
  close_sim(&sim);
  world_destroy(&w);
}

/* The ellipse standing on its end with a small tilt falls over and settles on its flank at height b, its
 * energy never rising above the start. Rolling without slip is conservative: what brings it to rest is the
 * backward Euler update of the positions (energy halves every ~3 s at h = 0.02), so the run is long. */
static void test_gi_topple(void)
{
  double th = M_PI / 2 + 0.05, h0 = sqrt(4.0 * sin(th) * sin(th) + cos(th) * cos(th));
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.0, h0, th, 0.5);
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "fb_newton", NULL);
  double e0 = world_energy(w), rise = 0.0;
  long failed = 0;
  for (int k = 0; ok && k < 7500; k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, 0.02, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    rise = fmax(rise, world_energy(w) - e0);
  }
  const struct body *b = &w->bodies[1];
  double tilt = remainder(b->theta, M_PI);
  CHECK(ok && failed == 0 && fabs(b->x[1] - 1.0) < 1e-8 && fabs(tilt) < 1e-6 &&
            hypot(b->v[1], b->w[2]) < 1e-5 && rise < 1e-9,
        "geometric_implicit: ellipse on its end falls over, rests at height b (y - b = %.1e, theta mod pi = "
        "%.1e, |v| = %.1e) with no energy gain (%.1e J; %ld failed)",
        b->x[1] - 1.0, tilt, hypot(b->v[1], b->w[2]), rise, failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* Coulomb sliding: a p = 4 superellipse (a = 1, b = 0.5) pushed at v0 along the plane stops after
 * v0^2 / (2 mu g), at t = v0 / (mu g) (h = 1e-3; snes_vinewtonrsls: fb_newton stalls on this one, the
 * Hessian of (x/a)^4 vanishing at the flat bottom x = 0 where the contact starts). */
static void test_gi_slide(void)
{
  const double v0 = 2.0, mu = 0.3, d = v0 * v0 / (2.0 * mu * G), ts = v0 / (mu * G);
  struct world *w = se_world(1.0, 0.5, 4, 1.0, 0.0, 0.5, 0.0, mu);
  w->bodies[1].v[0] = v0;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "snes_vinewtonrsls", NULL);
  long failed = 0;
  double x_stop = NAN, t_stop = NAN;
  for (int k = 0; ok && k < 1000 && isnan(x_stop); k++) {
    struct run_summary sum = {0};
    if (simulation_run(&sim, 1e-3, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    if (w->bodies[1].v[0] <= 1e-9) x_stop = w->bodies[1].x[0], t_stop = w->t;
  }
  CHECK(ok && failed == 0 && fabs(x_stop - d) / d < 0.03 && fabs(t_stop - ts) / ts < 0.03,
        "geometric_implicit: p = 4 superellipse slides %.4f m in %.4f s (Coulomb v0^2 / (2 mu g) = %.4f m, "
        "v0 / (mu g) = %.4f s; %ld failed)",
        x_stop, t_stop, d, ts, failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* A frictionless ellipse dropped from H reaches the plane at sqrt(2 (H - b) / g) (h = 1e-3,
 * snes_vinewtonssls: fb_newton stalls on the impact step at this h, for the unit disc as well). */
static void test_gi_drop(void)
{
  const double H = 3.0, h = 1e-3, tc = sqrt(2.0 * (H - 1.0) / G);
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.0, H, 0.0, 0.0);
  w->threshold = 2.5;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "geometric_implicit", "snes_vinewtonssls", NULL);
  double t_hit = NAN;
  long failed = 0;
  for (int k = 0; ok && k < 1000 && isnan(t_hit); k++) {
    struct run_summary sum = {0};
    double vy = w->bodies[1].v[1];
    if (simulation_run(&sim, h, 1, NULL, 0, &sum)) ok = 0;
    failed += sum.failed_steps;
    if (w->bodies[1].v[1] > vy) t_hit = w->t; /* the plane's impulse stops the fall */
  }
  CHECK(ok && failed == 0 && fabs(t_hit - tc) <= 1.5 * h && fabs(w->bodies[1].x[1] - 1.0) < 1e-8,
        "geometric_implicit: ellipse dropped from %.0f m reaches the plane at %.4f s (free fall %.4f s), "
        "stops at height b (%.1e; %ld failed)",
        H, t_hit, tc, w->bodies[1].x[1] - 1.0, failed);
  close_sim(&sim);
  world_destroy(&w);
}

/* quasi_rigid: the ellipse resting on the compliant half-plane sinks by m g / k (k = 1000). */
static void test_qr_rest(void)
{
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.0, 1.0, 0.0, 0.0);
  w->threshold = 0.5;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "quasi_rigid", "fb_newton",
                         OPTS("-quasi_rigid_delta_max", "1", "-quasi_rigid_c", "20"));
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 1e-3, 3000, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  double delta = 1.0 - w->bodies[1].x[1], ref = G / 1000.0;
  CHECK(ok && fabs(delta - ref) / ref < 0.01 && fabs(w->bodies[1].theta) < 1e-8,
        "quasi_rigid: ellipse at rest on the compliant plane, compression %.6f m (m g / k = %.6f m)", delta,
        ref);
  close_sim(&sim);
  world_destroy(&w);
}

/* The geometrically implicit NCP's analytic Jacobian with a superellipse side (rotated, off-centre, p = 4)
 * against central differences at random states: near a tilted half-plane and under a moving disc. */
static void test_gi_jacobian(void)
{
  unsigned seed = 7;
  for (int scene = 0; scene < 2; scene++) {
    struct world *w = world_create(2);
    int g = world_add_body(w, 1, 0, 0);
    world_add_halfplane(w, g, -sin(0.2), cos(0.2), 0.1);
    int b = world_add_body(w, 0, 1.3, 0.4);
    world_add_superellipse(w, b, 0.1, -0.05, 0.3, 1.0, 0.6, 4, NULL, 0);
    if (scene == 1) {
      int d = world_add_body(w, 0, 0.8, 0.3);
      world_add_disc(w, d, 0.0, 0.0, 0.5);
    }
    world_finalize(w);
    w->threshold = 1.0;
    w->mu = 0.4;
    struct body *bd = &w->bodies[b];
    bd->x[0] = 0.2, bd->x[1] = 0.9, bd->theta = 0.5, bd->v[0] = -1.2, bd->v[1] = 0.4, bd->w[2] = 2.1;
    if (scene == 1) {
      struct body *dd = &w->bodies[2];
      dd->x[0] = 0.5, dd->x[1] = 2.0, dd->v[0] = 0.3, dd->w[2] = -1.1;
    }
    struct formulation *f = NULL;
    struct contact_set cs = {0, 0, NULL};
    struct cp_problem *p = NULL;
    double worst = INFINITY;
    int ok = formulation_create("geometric_implicit", &f, NULL, 0) == 0 &&
             f->type->detect(f, w, 0.01, &cs) == 0 && cs.n == scene + 1 &&
             f->type->assemble(f, w, &cs, 0.01, &p) == 0;
    double *z = ok ? malloc((size_t)p->n * sizeof *z) : NULL;
    for (int trial = 0; z && trial < 5; trial++) {
      for (int i = 0; i < p->n; i++) {
        seed = seed * 1103515245u + 12345u;
        double u = (double)(seed >> 8 & 0xffff) / 65536.0;
        z[i] = isfinite(p->lo[i]) ? p->lo[i] + 0.05 + u : 0.3 * (2 * u - 1);
      }
      worst = trial ? fmax(worst, fd_jacobian_error(p, z, 0)) : fd_jacobian_error(p, z, 0);
    }
    free(z);
    CHECK(ok && worst < 1e-6,
          "geometric_implicit, p = 4 superellipse %s: %d contacts, analytic Jacobian = "
          "finite differences (%.1e)",
          scene ? "near the ground and under a disc" : "near a tilted half-plane", cs.n, worst);
    cp_destroy(&p);
    contact_set_free(&cs);
    formulation_destroy(&f);
    world_destroy(&w);
  }
}

/* The explicit formulations through the shared detection: Stewart-Trinkle keeps an ellipse at rest on the
 * plane and on a box (the polygon pair: contact2d_convex.c). */
static void test_explicit(void)
{
  struct world *w = se_world(2.0, 1.0, 2, 1.0, 0.0, 1.0, 0.0, 0.5);
  w->threshold = 0.01;
  struct simulation sim;
  int ok = test_sim_open(&sim, w, "stewart_trinkle", "lemke", NULL);
  struct run_summary sum = {0};
  ok = ok && simulation_run(&sim, 0.01, 100, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  CHECK(ok && fabs(w->bodies[1].x[1] - 1.0) < 1e-6 && fabs(w->bodies[1].theta) < 1e-9,
        "stewart_trinkle: ellipse at rest on the plane stays (y - b = %.1e)", w->bodies[1].x[1] - 1.0);
  close_sim(&sim);
  world_destroy(&w);
  w = world_create(2);
  int e = world_add_body(w, 1, 0, 0);
  const double box[8] = {-3, -1, 3, -1, 3, 0, -3, 0};
  world_add_polygon(w, e, 4, box);
  int d = world_add_body(w, 0, 1.0, 1.0);
  world_add_superellipse(w, d, 0.0, 0.0, 0.0, 2.0, 1.0, 2, NULL, 0);
  world_finalize(w);
  w->bodies[d].x[1] = 1.0;
  w->threshold = 0.01;
  w->mu = 0.5;
  ok = test_sim_open(&sim, w, "stewart_trinkle", "lemke", NULL);
  sum = (struct run_summary){0};
  ok = ok && simulation_run(&sim, 0.01, 100, NULL, 0, &sum) == 0 && sum.failed_steps == 0;
  CHECK(ok && fabs(w->bodies[d].x[1] - 1.0) < 1e-6 && fabs(w->bodies[d].theta) < 1e-9,
        "stewart_trinkle: ellipse at rest on a box stays (y - b = %.1e)", w->bodies[d].x[1] - 1.0);
  close_sim(&sim);
  world_destroy(&w);
}

int main(int argc, char **argv)
{
  PetscInitialize(&argc, &argv, NULL, NULL);
  test_refusals();
  test_mass_properties();
  test_detection();
  test_world_io();
  test_gi_jacobian();
  test_explicit();
  test_gi_rest();
  test_gi_topple();
  test_gi_slide();
  test_gi_drop();
  test_qr_rest();
  int rc = check_finish();
  PetscFinalize();
  return rc;
}
