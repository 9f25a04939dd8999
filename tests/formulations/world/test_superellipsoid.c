/* test_superellipsoid.c — the 3D superellipsoid world shape |u/a0|^p + |v/a1|^p + |w/a2|^p <= 1 (Barr; p
 * even, p = 2 the ellipsoid) for the geometrically implicit time-stepper (Chakraborty, Berard, Akella &
 * Trinkle, Sec. 4.1: one convex function per body) and the explicit 3D narrow phase: refusals naming the
 * shape; the Beta-function volume and second moments against nested numerical quadrature, the inertia tensor
 * against the ellipsoid's closed form (turned and moved off the body origin); the explicit contact against a
 * plane (closed-form support point), a sphere and another superellipsoid against analytic gaps and the
 * distance problem's KKT conditions, and a box (face, edge and vertex contacts); the world text round trip.
 * The formulations on it: test_superellipsoid_sim.c. */
#include "check.h"
#include "contact3d_superellipsoid.h"
#include "geom3d.h"
#include "hull3d.h"
#include "shape.h"
#include "world_detect.h"
#include "world_io.h"

#include <gsl/gsl_integration.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double ID[4] = {1, 0, 0, 0}, ZERO[3] = {0, 0, 0};

static void test_refusals(void)
{
  struct world *w = world_create(3);
  int b = world_add_body(w, 0, 1.0, 1.0);
  const double a[3] = {2.0, 1.0, 0.5};
  char msg[200] = "";
  int rc = world_add_superellipsoid(w, b, ZERO, ID, a, 3, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "exponent"), "odd exponent 3 refused (%s)",
        msg);
  rc = world_add_superellipsoid(w, b, ZERO, ID, a, 0, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "exponent"), "exponent 0 refused (%s)", msg);
  const double a0[3] = {2.0, 0.0, 0.5}, an[3] = {2.0, 1.0, -0.5}, ai[3] = {INFINITY, 1.0, 0.5};
  rc = world_add_superellipsoid(w, b, ZERO, ID, a0, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "semi-axis"), "zero semi-axis refused (%s)",
        msg);
  rc = world_add_superellipsoid(w, b, ZERO, ID, an, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "semi-axis"),
        "negative semi-axis refused (%s)", msg);
  rc = world_add_superellipsoid(w, b, ZERO, ID, ai, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "semi-axis"), "infinite semi-axis refused (%s)", msg);
  const double cn[3] = {0.0, NAN, 0.0}, q0[4] = {0, 0, 0, 0}, qi[4] = {1, INFINITY, 0, 0};
  rc = world_add_superellipsoid(w, b, cn, ID, a, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "centre"), "NaN centre refused (%s)", msg);
  rc = world_add_superellipsoid(w, b, ZERO, q0, a, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "quaternion"), "zero quaternion refused (%s)",
        msg);
  rc = world_add_superellipsoid(w, b, ZERO, qi, a, 4, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "quaternion"), "infinite quaternion refused (%s)", msg);
  CHECK(w->ns == 0, "nothing was added by the refused calls (%d shapes)", w->ns);
  const double q2[4] = {2, 0, 0, 0};
  rc = world_add_superellipsoid(w, b, ZERO, q2, a, 2, msg, sizeof msg);
  CHECK(rc == 0 && w->ns == 1 && w->shapes[0].radius == 2.0 && w->shapes[0].sq.q[0] == 1.0,
        "ellipsoid (p = 2) accepted, quaternion normalised, bound radius max(a_k)");
  world_destroy(&w);
  w = world_create(2);
  b = world_add_body(w, 0, 1.0, 1.0);
  rc = world_add_superellipsoid(w, b, ZERO, ID, a, 2, msg, sizeof msg);
  CHECK(rc < 0 && strstr(msg, "superellipsoid") && strstr(msg, "2D"),
        "a superellipsoid in a 2D world refused (%s)", msg);
  world_destroy(&w);
}

/* Nested quadrature over the octant: z_max(x, y) = a2 (1 - (x/a0)^p - (y/a1)^p)^(1/p). */
struct sq_params {
  double a[3];
  int p, moment; /* 0 volume, 1 x^2, 2 y^2, 3 z^2 */
  double x;      /* the outer variable while integrating over y */
  gsl_integration_workspace *inner;
};

static double inner(double y, void *vp)
{
  const struct sq_params *q = vp;
  double s = 1.0 - pow(q->x / q->a[0], q->p) - pow(y / q->a[1], q->p);
  double z = q->a[2] * pow(fmax(0.0, s), 1.0 / q->p);
  switch (q->moment) {
  case 0: return z;
  case 1: return q->x * q->x * z;
  case 2: return y * y * z;
  default: return z * z * z / 3.0;
  }
}

static double outer(double x, void *vp)
{
  struct sq_params *q = vp;
  q->x = x;
  double ymax = q->a[1] * pow(fmax(0.0, 1.0 - pow(x / q->a[0], q->p)), 1.0 / q->p), r = 0.0, err;
  gsl_function F = {inner, q};
  if (ymax > 0.0) gsl_integration_qags(&F, 0.0, ymax, 0.0, 1e-12, 1000, q->inner, &r, &err);
  return r;
}

static void test_mass_properties(void)
{
  gsl_integration_workspace *wo = gsl_integration_workspace_alloc(1000);
  struct sq_params q = {{2.0, 1.3, 0.7}, 2, 0, 0.0, gsl_integration_workspace_alloc(1000)};
  const int ps[3] = {2, 4, 8};
  for (int i = 0; i < 3; i++) {
    q.p = ps[i];
    double num[4], err, V, S[3];
    gsl_function F = {outer, &q};
    for (q.moment = 0; q.moment < 4; q.moment++) {
      gsl_integration_qags(&F, 0.0, q.a[0], 0.0, 1e-11, 1000, wo, &num[q.moment], &err);
      num[q.moment] *= 8.0;
    }
    superellipsoid_mass_properties(q.a, q.p, &V, S);
    double e = fabs(V - num[0]) / num[0];
    for (int k = 0; k < 3; k++)
      e = fmax(e, fabs(S[k] - num[1 + k]) / num[1 + k]);
    CHECK(e < 1e-8,
          "superellipsoid a = (2, 1.3, 0.7), p = %d: volume %.10f (quadrature %.10f), S = (%.8f, %.8f, %.8f) "
          "(quadrature %.8f, %.8f, %.8f); worst relative %.1e",
          q.p, V, num[0], S[0], S[1], S[2], num[1], num[2], num[3], e);
  }
  gsl_integration_workspace_free(q.inner);
  gsl_integration_workspace_free(wo);
  /* the ellipsoid: V = 4 pi abc / 3, I = m (b^2 + c^2) / 5 ...; turned by 90 degrees about z (x <-> y) and
   * moved to c: + m (|c|^2 I - c c^T) */
  const double a[3] = {2.0, 1.0, 0.5}, c[3] = {0.3, -0.2, 0.1}, axis[3] = {0, 0, 1}, m = 3.0;
  double qz[4], J[9], V, S[3];
  superellipsoid_mass_properties(a, 2, &V, S);
  CHECK_CLOSE(V, 4.0 * M_PI / 3.0, 1e-13, "ellipsoid (2, 1, 0.5): volume 4 pi abc / 3");
  quat_from_axis_angle(axis, M_PI / 2, qz);
  struct world *w = world_create(3);
  int b = world_add_body(w, 0, m, 1.0);
  int s = world_add_superellipsoid(w, b, c, qz, a, 2, NULL, 0);
  world_superellipsoid_inertia(&w->shapes[s], m, J);
  const double D[3] = {m * (1.0 + 0.25) / 5.0, m * (4.0 + 0.25) / 5.0, m * (4.0 + 1.0) / 5.0};
  const double Dt[3] = {D[1], D[0], D[2]}; /* the long axis along y after the turn */
  double worst = 0.0, cc = vec3_dot(c, c);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double ref = (i == j ? Dt[i] + m * cc : 0.0) - m * c[i] * c[j];
      worst = fmax(worst, fabs(J[3 * i + j] - ref));
    }
  CHECK(worst < 1e-12, "turned, off-centre ellipsoid: inertia tensor = Q D Q^T + m (|c|^2 I - c c^T) (%.1e)",
        worst);
  world_destroy(&w);
}

/* A static ground plane z <= 0 (body 0) and one superellipsoid body at x with orientation q. */
static struct world *on_ground(const double a[3], int p, const double x[3], const double q[4])
{
  struct world *w = world_create(3);
  const double up[3] = {0, 0, 1};
  int g = world_add_body(w, 1, 0, 0);
  world_add_plane(w, g, up, 0.0);
  int b = world_add_body(w, 0, 1.0, 1.0);
  world_add_superellipsoid(w, b, ZERO, ID, a, p, NULL, 0);
  world_finalize(w);
  memcpy(w->bodies[b].x, x, 3 * sizeof *x);
  memcpy(w->bodies[b].q, q, 4 * sizeof *q);
  return w;
}

/* Body 0: a static superellipsoid (a, p) at the origin; body 1: a sphere of radius r or a superellipsoid
 * (a2, p2) at x2 turned by q2. */
static struct world *pair(const double a[3], int p, const double a2[3], int p2, double r, const double x2[3],
                          const double q2[4])
{
  struct world *w = world_create(3);
  int b0 = world_add_body(w, 1, 0, 0);
  world_add_superellipsoid(w, b0, ZERO, ID, a, p, NULL, 0);
  int b1 = world_add_body(w, 0, 1.0, 1.0);
  if (r > 0.0)
    world_add_sphere(w, b1, ZERO, r);
  else
    world_add_superellipsoid(w, b1, ZERO, ID, a2, p2, NULL, 0);
  world_finalize(w);
  memcpy(w->bodies[1].x, x2, 3 * sizeof *x2);
  memcpy(w->bodies[1].q, q2, 4 * sizeof *q2);
  return w;
}

/* The contact's KKT residual for the distance problem: pa on A's surface with outward normal -n, pb on B's
 * with +n, pa - pb = gap n. Shape s's function at a world point via its convex_fn. */
static double surface_value(const struct world *w, int si, const double x[3], double g[3])
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  double R[9], xl[3], d[3], gl[3];
  world_rotation(w, b, R);
  vec3_sub(x, b->x, d);
  mat3_tvec(R, d, xl);
  struct convex_part part;
  if (s->kind == SHAPE_SPHERE) {
    convex_part_ball(&part, 3, s->c, s->radius, NULL, 0);
  } else {
    convex_part_superellipsoid(&part, 3, s->c, s->sq.a, s->sq.p, s->sq.p, NULL, 0);
    quat_to_matrix(s->sq.q, part.f[0].R);
  }
  double v = convex_fn_eval(&part.f[0], xl, gl, NULL);
  mat3_vec(R, gl, g);
  vec3_normalize(g);
  return v;
}

static double kkt_residual(const struct world *w, const struct contact *c)
{
  double ga[3], gb[3], d[3];
  double r = fmax(fabs(surface_value(w, c->sa, c->pa, ga)), fabs(surface_value(w, c->sb, c->pb, gb)));
  vec3_sub(c->pa, c->pb, d);
  for (int k = 0; k < 3; k++)
    r = fmax(r, fmax(fmax(fabs(ga[k] + c->n[k]), fabs(gb[k] - c->n[k])), fabs(d[k] - c->gap * c->n[k])));
  return r;
}

static void test_detection(void)
{
  /* an ellipsoid turned by th about x over the ground: the lowest point is sqrt(b^2 s^2 + c^2 c^2) below */
  const double a[3] = {2.0, 1.0, 0.5}, th = 0.4, xaxis[3] = {1, 0, 0}, x[3] = {0.3, -0.2, 1.5};
  double q[4], depth = sqrt(sin(th) * sin(th) + 0.25 * cos(th) * cos(th));
  quat_from_axis_angle(xaxis, th, q);
  struct world *w = on_ground(a, 2, x, q);
  struct contact_set cs = {0, 0, NULL};
  int rc = world_detect(w, 2.0, &cs);
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap - (x[2] - depth)) < 1e-13 && fabs(cs.c[0].n[2]) == 1.0,
        "tilted ellipsoid over the plane: one contact, gap %.15f (analytic %.15f)", cs.n ? cs.c[0].gap : NAN,
        x[2] - depth);
  contact_set_free(&cs);
  world_destroy(&w);
  /* a p = 4 superellipsoid flat on the plane, 0.01 deep: its bottom (0, 0, -c) exactly */
  const double x4[3] = {0, 0, 0.49};
  w = on_ground(a, 4, x4, ID);
  cs = (struct contact_set){0, 0, NULL};
  rc = world_detect(w, 0.1, &cs);
  const double *bottom = cs.n && cs.c[0].a == 1 ? cs.c[0].pa : cs.c[0].pb; /* the superellipsoid's point */
  CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap + 0.01) < 1e-14 && fabs(bottom[2] + 0.01) < 1e-14 &&
            fabs(bottom[0]) + fabs(bottom[1]) < 1e-14,
        "p = 4 flat on the plane: gap %.3e (analytic -0.01)", cs.n ? cs.c[0].gap : NAN);
  contact_set_free(&cs);
  world_destroy(&w);
  /* a unit sphere beside a p = 4 superellipsoid's end (2, 0, 0): gap 0.5; over its flat top: gap 0.25 */
  const double xs[3] = {3.5, 0, 0}, xt[3] = {0, 0, 1.75};
  const char *what[2] = {"beside the end", "over the flat top"};
  const double want[2] = {0.5, 0.25}, *xx[2] = {xs, xt};
  for (int k = 0; k < 2; k++) {
    w = pair(a, 4, NULL, 0, 1.0, xx[k], ID);
    cs = (struct contact_set){0, 0, NULL};
    rc = world_detect(w, 1.0, &cs);
    CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap - want[k]) < 1e-12 && kkt_residual(w, &cs.c[0]) < 1e-10,
          "unit sphere %s of a p = 4 superellipsoid: gap %.12f (analytic %.2f), KKT residual %.1e", what[k],
          cs.n ? cs.c[0].gap : NAN, want[k], cs.n ? kkt_residual(w, &cs.c[0]) : NAN);
    contact_set_free(&cs);
    world_destroy(&w);
  }
  /* a sphere off the axes of the ellipsoid: the nearest point is where the normal passes through the centre
   */
  const double xo[3] = {1.7, 0.9, 0.6};
  w = pair(a, 2, NULL, 0, 0.3, xo, ID);
  cs = (struct contact_set){0, 0, NULL};
  rc = world_detect(w, 1.0, &cs);
  double kkt = rc == 0 && cs.n == 1 ? kkt_residual(w, &cs.c[0]) : NAN;
  CHECK(kkt < 1e-10, "sphere near an ellipsoid, off its axes: gap %.9f, KKT residual %.1e",
        cs.n ? cs.c[0].gap : NAN, kkt);
  contact_set_free(&cs);
  world_destroy(&w);
  /* two superellipsoids along x: apart by 0.5 and overlapping by 0.5 (the shortest way out is along x) */
  const double b4[3] = {1.5, 1.0, 1.0}, xa[3] = {4.0, 0, 0}, xb[3] = {3.0, 0, 0};
  const double *xab[2] = {xa, xb}, g2[2] = {0.5, -0.5};
  for (int k = 0; k < 2; k++) {
    w = pair(a, 2, b4, 4, 0.0, xab[k], ID);
    cs = (struct contact_set){0, 0, NULL};
    rc = world_detect(w, 1.0, &cs);
    CHECK(rc == 0 && cs.n == 1 && fabs(cs.c[0].gap - g2[k]) < 1e-9 && fabs(fabs(cs.c[0].n[0]) - 1.0) < 1e-9,
          "ellipsoid and p = 4 superellipsoid along x: gap %.12f (analytic %.1f)", cs.n ? cs.c[0].gap : NAN,
          g2[k]);
    contact_set_free(&cs);
    world_destroy(&w);
  }
  /* two turned superellipsoids apart: the points satisfy the distance problem's KKT conditions */
  const double ax[3] = {1, 2, 3}, xr[3] = {2.6, 1.7, 1.4};
  double qr[4];
  quat_from_axis_angle(ax, 0.7, qr);
  const int pp[2] = {2, 4};
  for (int k = 0; k < 2; k++) {
    w = pair(a, pp[k], b4, pp[k], 0.0, xr, qr);
    cs = (struct contact_set){0, 0, NULL};
    rc = world_detect(w, 1.0, &cs);
    kkt = rc == 0 && cs.n == 1 ? kkt_residual(w, &cs.c[0]) : NAN;
    CHECK(kkt < 1e-10 && cs.c[0].gap > 0.0,
          "two turned p = %d superellipsoids apart: gap %.9f, KKT residual %.1e", pp[k],
          cs.n ? cs.c[0].gap : NAN, kkt);
    contact_set_free(&cs);
    world_destroy(&w);
  }
}

/* A static unit p = 4 superellipsoid at the origin and a unit-half-extent box at x turned by q: the
 * polyhedron's normal fan (face, edge arc, vertex cone) against hand-computed gaps. */
static void test_polyhedron(void)
{
  const double a[3] = {1, 1, 1}, zaxis[3] = {0, 0, 1}, diag[3] = {0, 1, -1}, r3 = sqrt(3.0), r2 = sqrt(2.0);
  double qe[4], qv[4];
  quat_from_axis_angle(zaxis, M_PI / 4, qe);      /* an edge along z faces -x */
  quat_from_axis_angle(diag, acos(1.0 / r3), qv); /* the vertex (-1, -1, -1) faces -x */
  const double *qs[4] = {ID, ID, qe, qv}, xs[4] = {2.5, 1.9, 1.0 + r2 + 0.3, 1.0 + r3 + 0.2};
  const double want[4] = {0.5, -0.1, 0.3, 0.2};
  const enum feature_kind feat[4] = {FEATURE_FACE, FEATURE_FACE, FEATURE_EDGE, FEATURE_VERTEX};
  const char *what[4] = {"face apart", "face overlapping", "edge", "vertex"};
  for (int k = 0; k < 4; k++) {
    struct world *w = world_create(3);
    world_add_superellipsoid(w, world_add_body(w, 1, 0, 0), ZERO, ID, a, 4, NULL, 0);
    int b1 = world_add_body(w, 0, 1.0, 1.0);
    world_add_polyhedron(w, b1, hull3d_box(1.0, 1.0, 1.0));
    world_finalize(w);
    w->bodies[1].x[0] = xs[k];
    memcpy(w->bodies[1].q, qs[k], 4 * sizeof(double));
    struct contact_set cs = {0, 0, NULL};
    int rc = world_detect(w, 1.0, &cs);
    const struct contact *c = cs.n == 1 ? &cs.c[0] : NULL;
    double d[3];
    if (c) vec3_sub(c->pa, c->pb, d);
    CHECK(rc == 0 && c && fabs(c->gap - want[k]) < 1e-10 && fabs(fabs(c->n[0]) - 1.0) < 1e-9 &&
              (c->fa == feat[k] || c->fb == feat[k]) && fabs(vec3_dot(d, c->n) - c->gap) < 1e-14,
          "p = 4 superellipsoid and a box, %s: gap %.12f (analytic %.2f), feature %s", what[k],
          c ? c->gap : NAN, want[k], c ? contact_feature_name(c) : "none");
    contact_set_free(&cs);
    world_destroy(&w);
  }
}

/* Distance from the world point x to the box of half extents 1 placed at t turned by R. */
static double box_distance(const double R[9], const double t[3], const double x[3])
{
  double d[3], l[3], s = 0.0;
  vec3_sub(x, t, d);
  mat3_tvec(R, d, l);
  for (int k = 0; k < 3; k++)
    s += pow(fmax(fabs(l[k]) - 1.0, 0.0), 2);
  return sqrt(s);
}

/* A turned superellipsoid and a turned box apart: the gap against brute force, the least box distance over
 * a million boundary points of the superellipsoid (a Fibonacci grid of directions projected radially on it):
 * never below it, and within the sampling error (a few 1e-5) of it. */
static void test_polyhedron_brute(void)
{
  const double a[3] = {1.2, 0.8, 0.6}, ax1[3] = {1, 2, 3}, ax2[3] = {-2, 1, 0.5};
  const double ts[3][3] = {{2.3, 1.3, 0.9}, {2.3, 1.3, 0.9}, {1.9, 1.1, 0.8}};
  const int ps[3] = {2, 4, 4};
  for (int k = 0; k < 3; k++) {
    const double *t = ts[k];
    double q1[4], q2[4], Rs[9], Rb[9];
    quat_from_axis_angle(ax1, 0.5 + k, q1);
    quat_from_axis_angle(ax2, 1.1 - 0.4 * k, q2);
    struct world *w = world_create(3);
    world_add_superellipsoid(w, world_add_body(w, 1, 0, 0), ZERO, q1, a, ps[k], NULL, 0);
    int b1 = world_add_body(w, 0, 1.0, 1.0);
    world_add_polyhedron(w, b1, hull3d_box(1.0, 1.0, 1.0));
    world_finalize(w);
    memcpy(w->bodies[1].x, t, 3 * sizeof *t);
    memcpy(w->bodies[1].q, q2, sizeof q2);
    struct contact_set cs = {0, 0, NULL};
    int rc = world_detect(w, 1.0, &cs);
    quat_to_matrix(q1, Rs);
    quat_to_matrix(q2, Rb);
    enum { N = 1000000 };
    double brute = INFINITY, golden = M_PI * (3.0 - sqrt(5.0));
    for (int i = 0; i < N; i++) {
      double z = 1.0 - (2.0 * i + 1.0) / N, r = sqrt(1.0 - z * z);
      double u[3] = {r * cos(golden * i), r * sin(golden * i), z}, xl[3], x[3], np = 0.0;
      for (int j = 0; j < 3; j++) /* radially onto the unit p-sphere: even in space where p > 2 is flat */
        np += pow(fabs(u[j]), ps[k]);
      for (int j = 0; j < 3; j++)
        xl[j] = a[j] * u[j] / pow(np, 1.0 / ps[k]);
      mat3_vec(Rs, xl, x);
      brute = fmin(brute, box_distance(Rb, t, x));
    }
    double gap = rc == 0 && cs.n == 1 ? cs.c[0].gap : NAN;
    CHECK(gap > 0.0 && gap <= brute + 1e-12 && brute - gap < 1e-4,
          "turned p = %d superellipsoid and a turned box apart: gap %.9f, brute force %.9f (%s)", ps[k], gap,
          brute, cs.n ? contact_feature_name(&cs.c[0]) : "none");
    contact_set_free(&cs);
    world_destroy(&w);
  }
}

/* sep(u) = -h_A(-u) - h_B(u) of world shapes sa, sb (sphere or superellipsoid), from the support formula. */
static double support_world(const struct world *w, int si, const double u[3])
{
  const struct shape *s = &w->shapes[si];
  const struct body *b = &w->bodies[s->body];
  double C[3], R[9], Q[9], RQ[9], ul[3], xl[3], x[3];
  world_point(w, b, s->c, C);
  if (s->kind == SHAPE_SPHERE) return vec3_dot(u, C) + s->radius;
  world_rotation(w, b, R);
  quat_to_matrix(s->sq.q, Q);
  mat3_mul(R, Q, RQ);
  mat3_tvec(RQ, u, ul);
  superellipsoid_support(s->sq.a, s->sq.p, ul, xl);
  mat3_vec(RQ, xl, x);
  return vec3_dot(u, x) + vec3_dot(u, C);
}

/* Random pairs (p in {2, 4, 6} against a sphere or a superellipsoid, random axes, poses and distances, apart
 * and overlapping): the reported gap is never below the separating-axis function on a 20000-direction grid
 * (it is the global maximum), and when apart the points satisfy the distance problem's KKT conditions (which
 * for convex bodies make it the distance). */
static void test_random_pairs(void)
{
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(rng, 2026);
  int n_apart = 0, n_over = 0, bad = 0;
  double worst_kkt = 0.0, worst_grid = -INFINITY;
  for (int trial = 0; trial < 60; trial++) {
    double a[3], a2[3], x[3], q1[4], q2[4];
    for (int k = 0; k < 3; k++)
      a[k] = 0.4 + gsl_rng_uniform(rng), a2[k] = 0.4 + gsl_rng_uniform(rng);
    for (int k = 0; k < 4; k++)
      q1[k] = gsl_rng_uniform(rng) - 0.5, q2[k] = gsl_rng_uniform(rng) - 0.5;
    quat_normalize(q1);
    quat_normalize(q2);
    double dir[3] = {gsl_rng_uniform(rng) - 0.5, gsl_rng_uniform(rng) - 0.5, gsl_rng_uniform(rng) - 0.5};
    vec3_normalize(dir);
    vec3_scale(dir, 0.8 + 2.0 * gsl_rng_uniform(rng), x);
    int p1 = 2 + 2 * (trial % 3), p2 = 2 + 2 * ((trial / 3) % 3), sphere = trial % 4 == 0;
    struct world *w = world_create(3);
    world_add_superellipsoid(w, world_add_body(w, 1, 0, 0), ZERO, q1, a, p1, NULL, 0);
    int b1 = world_add_body(w, 0, 1.0, 1.0);
    if (sphere)
      world_add_sphere(w, b1, ZERO, a2[0]);
    else
      world_add_superellipsoid(w, b1, ZERO, ID, a2, p2, NULL, 0);
    world_finalize(w);
    memcpy(w->bodies[1].x, x, sizeof x);
    memcpy(w->bodies[1].q, q2, sizeof q2);
    struct contact_set cs = {0, 0, NULL};
    if (world_detect(w, 10.0, &cs) || cs.n != 1) {
      bad++;
    } else {
      const struct contact *c = &cs.c[0];
      double grid = -INFINITY, golden = M_PI * (3.0 - sqrt(5.0));
      for (int i = 0; i < 20000; i++) {
        double z = 1.0 - (2.0 * i + 1.0) / 20000, r = sqrt(1.0 - z * z);
        double u[3] = {r * cos(golden * i), r * sin(golden * i), z}, mu[3] = {-u[0], -u[1], -u[2]};
        /* the contact's a is shape sa: sep(u) = -h_a(-u) - h_b(u) */
        grid = fmax(grid, -support_world(w, c->sa, mu) - support_world(w, c->sb, u));
      }
      worst_grid = fmax(worst_grid, grid - c->gap);
      if (c->gap > 0.0) {
        n_apart++;
        worst_kkt = fmax(worst_kkt, kkt_residual(w, c));
      } else {
        n_over++;
      }
    }
    contact_set_free(&cs);
    world_destroy(&w);
  }
  gsl_rng_free(rng);
  CHECK(
      bad == 0 && n_apart > 10 && n_over > 10 && worst_grid <= 1e-12 && worst_kkt < 1e-9,
      "60 random superellipsoid / sphere pairs (%d apart, %d overlapping): gap >= the grid's best separating "
      "axis (by at least %.1e), KKT residual when apart %.1e (%d without one contact)",
      n_apart, n_over, -worst_grid, worst_kkt, bad);
}

static void test_world_io(void)
{
  const double a[3] = {2.0, 1.0, 0.5}, x[3] = {0.1, 0.2, 0.7}, q[4] = {0.9, 0.1, -0.3, 0.2};
  struct world *w = on_ground(a, 6, x, q);
  w->bodies[1].v[0] = 0.7;
  char *t1 = NULL, *t2 = NULL, err[200] = "";
  size_t n1 = 0, n2 = 0;
  struct world *r = NULL;
  int ok = world_to_text(w, &t1, &n1) == 0 && world_from_text(t1, n1, &r, err, sizeof err) == 0 &&
           world_to_text(r, &t2, &n2) == 0 && n1 == n2 && memcmp(t1, t2, n1) == 0;
  const struct shape *s = ok ? &r->shapes[1] : NULL;
  CHECK(ok && s->kind == SHAPE_SUPERELLIPSOID && s->sq.p == 6 && s->sq.a[2] == 0.5 &&
            s->sq.inertia[4] == w->shapes[1].sq.inertia[4] && s->sq.volume == w->shapes[1].sq.volume,
        "world text round trip with a superellipsoid: the same text, the same shape (%s)", err);
  char *bad = t1 ? strdup(t1) : NULL, *at = bad ? strstr(bad, "sqd 6") : NULL;
  struct world *r2 = NULL;
  if (at) at[4] = '5';
  int refused = at && world_from_text(bad, strlen(bad), &r2, err, sizeof err) != 0;
  CHECK(refused && strstr(err, "superellipsoid exponent"), "an odd exponent in a world text refused (%s)",
        err);
  free(bad);
  free(t1);
  free(t2);
  world_destroy(&r);
  world_destroy(&r2);
  world_destroy(&w);
}

int main(void)
{
  test_refusals();
  test_mass_properties();
  test_detection();
  test_polyhedron();
  test_polyhedron_brute();
  test_random_pairs();
  test_world_io();
  return check_finish();
}
