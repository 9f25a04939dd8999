/* fd_jacobian.c — the tests' finite-difference Jacobian check (fd_jacobian.h). */
#include "fd_jacobian.h"

#include "formulation.h"
#include "solver_fixture.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double fd_jacobian_error(const struct cp_problem *p, const double *z, int relative_step)
{
  const int n = p->n > 0 ? p->n : 1;
  double *J = malloc((size_t)n * n * sizeof *J), *zp = malloc((size_t)n * sizeof *zp);
  double *Fp = malloc((size_t)n * sizeof *Fp), *Fm = malloc((size_t)n * sizeof *Fm);
  double worst = INFINITY;
  if (J && zp && Fp && Fm && cp_eval_J(p, z, J) == 0) {
    worst = 0.0;
    for (int j = 0; j < p->n && isfinite(worst); j++) {
      const double step = relative_step ? 1e-6 * fmax(1.0, fabs(z[j])) : 1e-6;
      memcpy(zp, z, (size_t)n * sizeof *zp);
      zp[j] = z[j] + step;
      int bad = cp_eval_F(p, zp, Fp);
      zp[j] = z[j] - step;
      bad |= cp_eval_F(p, zp, Fm);
      for (int i = 0; i < p->n && !bad; i++) {
        double fd = (Fp[i] - Fm[i]) / (2 * step), an = J[(size_t)i * n + j];
        worst = fmax(worst, fabs(fd - an) / fmax(1.0, fabs(an)));
      }
      if (bad) worst = INFINITY;
    }
  }
  free(J);
  free(zp);
  free(Fp);
  free(Fm);
  return worst;
}

double formulation_jacobian_error(struct world *w, const char *formulation, const char *const *opts,
                                  gsl_rng *rng, int *ncontacts)
{
  struct contact_set cs = {0, 0, NULL};
  struct cp_problem *p = NULL;
  double worst = NAN;
  /* the test's options (e.g. the friction ellipsoid of the 3D rows), the defaults when it gives none */
  struct formulation *f = test_formulation(formulation, opts);
  int ok = f && f->type->detect(f, w, 0.01, &cs) == 0 && cs.n > 0;
  ok = ok && f->type->assemble(f, w, &cs, 0.01, &p) == 0;
  double *z = ok ? malloc((size_t)p->n * sizeof *z) : NULL;
  if (z) worst = 0.0;
  for (int trial = 0; z && trial < 5; trial++) {
    for (int i = 0; i < p->n; i++) {
      double u = gsl_rng_uniform(rng);
      z[i] = isfinite(p->lo[i]) ? p->lo[i] + 0.05 + u : 0.3 * (2 * u - 1);
    }
    worst = fmax(worst, fd_jacobian_error(p, z, 0));
  }
  free(z);
  if (ncontacts) *ncontacts = cs.n;
  cp_destroy(&p);
  contact_set_free(&cs);
  formulation_destroy(&f);
  return worst;
}

void random_body_motion(struct body *b, gsl_rng *rng)
{
  double len = 0.0;
  for (int k = 0; k < 4; k++)
    b->q[k] = gsl_rng_uniform(rng) - 0.5, len += b->q[k] * b->q[k];
  for (int k = 0; k < 4; k++)
    b->q[k] /= sqrt(len);
  for (int k = 0; k < 3; k++) {
    b->v[k] = 2.0 * gsl_rng_uniform(rng) - 1.0;
    b->w[k] = 4.0 * gsl_rng_uniform(rng) - 2.0;
  }
}

static const double UP[3] = {0, 0, 1}, CENTRE[3] = {0, 0, 0};

struct world *fd_sphere_near_tilted_plane(gsl_rng *rng)
{
  struct world *w = world_create(3);
  const double np[3] = {sin(0.3), -0.2, cos(0.3)}, c0[3] = {0.1, -0.05, 0.02};
  world_add_plane(w, world_add_body(w, 1, 0, 0), np, 0.1);
  int b = world_add_body(w, 0, 1.3, 0.4);
  world_add_sphere(w, b, c0, 0.8);
  world_finalize(w);
  w->threshold = 1.0;
  w->mu = 0.4;
  w->bodies[b].x[2] = 1.0;
  random_body_motion(&w->bodies[b], rng);
  return w;
}

struct world *fd_two_spheres_on_ground(const double c1[3], gsl_rng *rng)
{
  struct world *w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  int b1 = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, b1, c1, 1.0); /* a body's parts are added right after it */
  int b2 = world_add_body(w, 0, 2.0, 0.9);
  world_add_sphere(w, b2, CENTRE, 0.7);
  world_finalize(w);
  w->threshold = 1.0;
  w->mu = 0.3;
  w->bodies[b1].x[2] = 1.05;
  w->bodies[b2].x[0] = 1.9, w->bodies[b2].x[1] = 0.6, w->bodies[b2].x[2] = 1.5;
  random_body_motion(&w->bodies[b1], rng);
  random_body_motion(&w->bodies[b2], rng);
  return w;
}

struct world *fd_sphere_on_plane(double z, double mu)
{
  struct world *w = world_create(3);
  world_add_plane(w, world_add_body(w, 1, 0, 0), UP, 0.0);
  int b = world_add_body(w, 0, 1.0, 0.4);
  world_add_sphere(w, b, CENTRE, 1.0);
  world_finalize(w);
  w->bodies[b].x[2] = z;
  w->threshold = 1.0;
  w->mu = mu;
  return w;
}
