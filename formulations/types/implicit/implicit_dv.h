/* implicit_dv.h — 3-vectors carrying their derivatives in a contact's 18 local variables (its two points,
 * 3 each, and its two bodies' velocities (v, omega), 6 each): the bookkeeping of the analytic Jacobians of
 * the 3D geometrically implicit formulations (Chakraborty, Berard, Akella & Trinkle; geometric_implicit.c,
 * quasi_rigid.c), so each geometric quantity is built once with its derivative and scattered into the
 * global Jacobian at the end. */
#ifndef CB_IMPLICIT_DV_H
#define CB_IMPLICIT_DV_H

#include "jacobian_add.h"

#include <math.h>
#include <stddef.h>

#define NL 18 /* local variables: point 1, point 2, nu of body 1, nu of body 2 */

/* a vector with its derivative in the local variables */
struct dv {
  double v[3], d[3][NL];
};

static inline void dv_normalise(const struct dv *a, struct dv *out)
{
  double len = sqrt(a->v[0] * a->v[0] + a->v[1] * a->v[1] + a->v[2] * a->v[2]);
  for (int i = 0; i < 3; i++)
    out->v[i] = a->v[i] / len;
  for (int j = 0; j < NL; j++) {
    double s = out->v[0] * a->d[0][j] + out->v[1] * a->d[1][j] + out->v[2] * a->d[2][j];
    for (int i = 0; i < 3; i++)
      out->d[i][j] = (a->d[i][j] - out->v[i] * s) / len;
  }
}

static inline void cross(const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline void dv_cross(const struct dv *a, const struct dv *b, struct dv *c)
{
  cross(a->v, b->v, c->v);
  for (int j = 0; j < NL; j++) {
    double da[3] = {a->d[0][j], a->d[1][j], a->d[2][j]}, db[3] = {b->d[0][j], b->d[1][j], b->d[2][j]};
    double x1[3], x2[3];
    cross(da, b->v, x1);
    cross(a->v, db, x2);
    for (int i = 0; i < 3; i++)
      c->d[i][j] = x1[i] + x2[i];
  }
}

/* s = a . b and ds */
static inline double dv_dot(const struct dv *a, const struct dv *b, double *ds)
{
  for (int j = 0; j < NL; j++)
    ds[j] = 0.0;
  double s = 0.0;
  for (int i = 0; i < 3; i++) {
    s += a->v[i] * b->v[i];
    for (int j = 0; j < NL; j++)
      ds[j] += a->d[i][j] * b->v[i] + a->v[i] * b->d[i][j];
  }
  return s;
}

static inline void scatter(double *J, int n, int row, const int *cols, const double *d, double scale)
{
  for (int j = 0; j < NL; j++)
    jac_add(J, n, row, cols[j], scale * d[j]);
}

#endif
