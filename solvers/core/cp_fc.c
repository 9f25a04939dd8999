/* cp_fc.c — the Coulomb cone's projection and the natural-map residual (cp_fc.h). The operations follow
 * Siconos' projectionOnCone and fc3d_unitary_compute_and_add_error term by term, so that the two residuals
 * agree to rounding, not only in the limit. */
#include "cp_fc.h"

#include <math.h>

int cp_fc_project(int dim, double mu, double *x)
{
  double norm_t = dim == 3 ? hypot(x[1], x[2]) : fabs(x[1]);
  if (mu * norm_t <= -x[0]) { /* in the polar cone: the apex is the nearest point */
    for (int k = 0; k < dim; k++)
      x[k] = 0.0;
    return 1;
  }
  if (norm_t <= mu * x[0]) return 0;
  /* onto the generator in the direction of x_T: the closest point of the ray (1, mu t/|t|) */
  x[0] = (mu * norm_t + x[0]) / (mu * mu + 1.0);
  for (int k = 1; k < dim; k++)
    x[k] = mu * x[0] * x[k] / norm_t;
  return 2;
}

double cp_fc_contact_error2(int dim, double mu, double ds, const double *r, const double *u)
{
  double w[3] = {0, 0, 0};
  double norm_ut = dim == 3 ? hypot(u[1], u[2]) : fabs(u[1]);
  w[0] = r[0] - (u[0] + ds * mu * norm_ut);
  for (int k = 1; k < dim; k++)
    w[k] = r[k] - u[k];
  cp_fc_project(dim, mu, w);
  double e = 0.0;
  for (int k = 0; k < dim; k++)
    e += (r[k] - w[k]) * (r[k] - w[k]);
  return e;
}

double cp_fc_residual(const struct cp_problem *p, const double *r, const double *u)
{
  int d = p->fc_dim, nc = d > 0 ? p->n / d : 0;
  double e = 0.0, ds = cp_fc_desaxce(p);
  for (int c = 0; c < nc; c++)
    e += cp_fc_contact_error2(d, p->mu[c], ds, r + (size_t)c * d, u + (size_t)c * d);
  return sqrt(e);
}
