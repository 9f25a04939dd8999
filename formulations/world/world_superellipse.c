/* world_superellipse.c — the 2D world shape of a Barr superellipse |u/a|^p + |v/b|^p <= 1 (p even >= 2,
 * p = 2 the ellipse), the smooth convex bodies of Chakraborty, Berard, Akella & Trinkle's geometrically
 * implicit time-stepper (Sec. 4.1: one convex function per body, f(xi) <= 0). Its mass properties are
 * Dirichlet's integral over the quarter of the unit p-ball, int x^(al-1) y^(be-1) dA =
 * Gamma(al/p) Gamma(be/p) / (p^2 Gamma(1 + (al + be)/p)), written with the Beta function:
 *   area A = 2 a b B(1/p, 1/p) / p,   int x^2 dA = a^3 b B(3/p, 1/p) / p   (and b^3 a for y^2),
 * so the polar moment about its centre is J = a b (a^2 + b^2) B(3/p, 1/p) / p (p = 2: pi a b and
 * pi a b (a^2 + b^2) / 4). A rotation does not change J; a centre c off the body origin adds A |c|^2. */
#include "shape.h"
#include "world.h"

#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>

void superellipse_mass_properties(double a, double b, int p, double *area, double *polar)
{
  double q = 1.0 / p;
  *area = 2.0 * a * b * gsl_sf_beta(q, q) * q;
  *polar = a * b * (a * a + b * b) * gsl_sf_beta(3.0 * q, q) * q;
}

int world_add_superellipse(struct world *w, int body, double cx, double cy, double angle, double a, double b,
                           int p, char *msg, size_t len)
{
  char buf[200];
  struct convex_part part;
  const double c[3] = {cx, cy, 0.0}, ax[3] = {a, b, 1.0};
  /* the implicit function's constructor refuses what is not convex or not closed, naming the shape */
  if (convex_part_superellipsoid(&part, 2, c, ax, p, p, buf, sizeof buf)) {
    if (msg && len) snprintf(msg, len, "%s", buf);
    return -1;
  }
  if (!isfinite(cx) || !isfinite(cy) || !isfinite(angle)) {
    if (msg && len)
      snprintf(msg, len, "superellipse: centre (%g, %g) or angle %g is not finite", cx, cy, angle);
    return -1;
  }
  struct shape *s = world_new_shape(w, body, SHAPE_SUPERELLIPSE);
  if (!s) {
    if (msg && len)
      snprintf(msg, len, "superellipse: body %d is not the last body of a 2D world (or out of memory)", body);
    return -1;
  }
  s->c[0] = cx;
  s->c[1] = cy;
  s->radius = fmax(a, b);
  s->se.a = a;
  s->se.b = b;
  s->se.p = p;
  s->se.angle = angle;
  double area, polar;
  superellipse_mass_properties(a, b, p, &area, &polar);
  s->se.area = area;
  s->se.second_moment = polar + area * (cx * cx + cy * cy);
  return w->ns - 1;
}

double world_superellipse_inertia(const struct shape *s, double mass)
{
  return mass * s->se.second_moment / s->se.area;
}

const char *world_shape_kind_name(enum shape_kind kind)
{
  switch (kind) {
  case SHAPE_DISC: return "disc";
  case SHAPE_POLYGON: return "polygon";
  case SHAPE_HALFPLANE: return "half-plane";
  case SHAPE_SPHERE: return "sphere";
  case SHAPE_POLYHEDRON: return "polyhedron";
  case SHAPE_PLANE: return "plane";
  case SHAPE_SUPERELLIPSE: return "superellipse";
  case SHAPE_SUPERELLIPSOID: return "superellipsoid";
  }
  return "unknown shape";
}
