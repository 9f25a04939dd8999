/* world_superellipsoid.c — the 3D world shape of a Barr superellipsoid |u/a0|^p + |v/a1|^p + |w/a2|^p <= 1
 * (p even >= 2, p = 2 the ellipsoid), the smooth convex bodies of Chakraborty, Berard, Akella & Trinkle's
 * geometrically implicit time-stepper (Sec. 4.1: one convex function per body, f(xi) <= 0) in 3D. Its mass
 * properties are Dirichlet's integral over the octant of the unit p-ball,
 *   int x^(al-1) y^(be-1) z^(ga-1) dV = G(al/p) G(be/p) G(ga/p) / (p^3 G(1 + (al + be + ga)/p)),
 * written with Beta functions (G(1/p)^3 / G(3/p) = B(1/p, 1/p) B(2/p, 1/p)):
 *   volume V = 8 a0 a1 a2 B(1/p, 1/p) B(2/p, 1/p) / (3 p^2),
 *   S_0 = int x^2 dV = 8 a0^3 a1 a2 B(3/p, 1/p) B(4/p, 1/p) / (5 p^2)    (S_1, S_2 alike),
 * (p = 2: 4 pi abc / 3 and 4 pi a^3 b c / 15). The inertia about its centre in its own frame is
 * diag(S_1 + S_2, S_0 + S_2, S_0 + S_1); turned into the body frame by the shape's rotation Q (Q D Q^T) and
 * moved to the body origin by the parallel-axis term V (|c|^2 I - c c^T). */
#include "geom3d.h"
#include "shape.h"
#include "world.h"

#include <gsl/gsl_sf_gamma.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

void superellipsoid_mass_properties(const double a[3], int p, double *volume, double second[3])
{
  double r = 1.0 / p, abc = a[0] * a[1] * a[2];
  *volume = 8.0 * abc * gsl_sf_beta(r, r) * gsl_sf_beta(2.0 * r, r) / (3.0 * p * p);
  double s = 8.0 * abc * gsl_sf_beta(3.0 * r, r) * gsl_sf_beta(4.0 * r, r) / (5.0 * p * p);
  for (int k = 0; k < 3; k++)
    second[k] = s * a[k] * a[k];
}

static int refuse(char *msg, size_t len, const char *what)
{
  if (msg && len) snprintf(msg, len, "superellipsoid: %s", what);
  return -1;
}

int world_add_superellipsoid(struct world *w, int body, const double c[3], const double q[4],
                             const double a[3], int p, char *msg, size_t len)
{
  char buf[200];
  struct convex_part part;
  if (w->dim != 3) return refuse(msg, len, "a 3D shape, refused in a 2D world");
  /* the implicit function's constructor refuses what is not convex or not closed, naming the shape */
  if (convex_part_superellipsoid(&part, 3, c, a, p, p, buf, sizeof buf)) {
    if (msg && len) snprintf(msg, len, "%s", buf);
    return -1;
  }
  double qn[4] = {q[0], q[1], q[2], q[3]}, ql = 0.0;
  for (int k = 0; k < 4; k++)
    ql += q[k] * q[k];
  for (int k = 0; k < 3; k++)
    if (!isfinite(c[k])) {
      snprintf(buf, sizeof buf, "centre (%g, %g, %g) is not finite", c[0], c[1], c[2]);
      return refuse(msg, len, buf);
    }
  if (!isfinite(ql) || !(ql > 0.0)) {
    snprintf(buf, sizeof buf, "orientation quaternion (%g, %g, %g, %g) is not finite and nonzero", q[0], q[1],
             q[2], q[3]);
    return refuse(msg, len, buf);
  }
  quat_normalize(qn);
  struct shape *s = world_new_shape(w, body, SHAPE_SUPERELLIPSOID);
  if (!s) {
    snprintf(buf, sizeof buf, "body %d is not the last body of the world (or out of memory)", body);
    return refuse(msg, len, buf);
  }
  memcpy(s->c, c, sizeof s->c);
  s->radius = fmax(a[0], fmax(a[1], a[2]));
  memcpy(s->sq.a, a, sizeof s->sq.a);
  memcpy(s->sq.q, qn, sizeof s->sq.q);
  s->sq.p = p;
  double S[3], D[9] = {0}, Q[9], J[9];
  superellipsoid_mass_properties(a, p, &s->sq.volume, S);
  D[0] = S[1] + S[2], D[4] = S[0] + S[2], D[8] = S[0] + S[1];
  quat_to_matrix(qn, Q);
  mat3_rotate_tensor(Q, D, J);
  double cc = vec3_dot(c, c);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      J[3 * i + j] += s->sq.volume * ((i == j ? cc : 0.0) - c[i] * c[j]);
  memcpy(s->sq.inertia, J, sizeof J);
  return w->ns - 1;
}

void world_superellipsoid_inertia(const struct shape *s, double mass, double J[9])
{
  for (int k = 0; k < 9; k++)
    J[k] = mass * s->sq.inertia[k] / s->sq.volume;
}
