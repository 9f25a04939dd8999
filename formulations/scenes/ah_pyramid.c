/* ah_pyramid.c — Anitescu-Hart Sec. 3 (see ah_pyramid.h): the hexagonal pyramid's mixed LCP (6)-(7) through
 * the anitescu_potra formulation, the paper's solutions 1 and 2 and the reduced (zero tangential impulse)
 * problem. Invariant: contact i of the problem is the base vertex a->vertex[i]; the pyramid is body 1. */
#include "ah_pyramid.h"

#include "formulation.h"
#include "scenes.h"
#include "world_detect.h"

#include <math.h>
#include <stdlib.h>

/* Unknown offsets in the anitescu_potra layout (no joints). */
static int idx_cn(const struct ah_pyramid *a, int i) { return a->nd + i; }
static int idx_beta(const struct ah_pyramid *a, int i, int l) { return a->nd + a->nc + i * a->kf + l; }
static int idx_lambda(const struct ah_pyramid *a, int i) { return a->nd + a->nc + a->nc * a->kf + i; }

/* Base vertex of contact c: its point's angle about the pyramid's axis in steps of 60 degrees. Also checks
 * that the contact pushes the pyramid straight up. -1 if not. */
static int contact_vertex(const struct world *w, const struct contact *c)
{
  const struct body *pyr = &w->bodies[1];
  int on_a = c->a == 1;
  const double *pt = on_a ? c->pa : c->pb;
  double up = on_a ? c->n[2] : -c->n[2];
  if (!(up > 1.0 - 1e-12) || fabs(c->gap) > 1e-12) return -1;
  double ang = atan2(pt[1] - pyr->x[1], pt[0] - pyr->x[0]);
  long j = lround(ang / (M_PI / 3.0));
  return (int)((j % 6 + 6) % 6);
}

int ah_pyramid_create(double mu, double h, int friction_dirs, struct ah_pyramid **out)
{
  struct ah_pyramid *a = calloc(1, sizeof *a);
  struct formulation *f = NULL;
  struct contact_set cs = {0};
  int rc = 1;
  *out = NULL;
  if (!a || friction_dirs < 3 || friction_dirs > 16) goto cleanup;
  a->w = scene_hex_pyramid(1.0, 1.5, 1.0, mu);
  if (!a->w || formulation_create("anitescu_potra", &f, NULL, 0)) goto cleanup;
  f->friction_dirs = friction_dirs;
  if (world_detect(a->w, a->w->threshold, &cs) || cs.n != 6) goto cleanup;
  int seen = 0;
  for (int i = 0; i < 6; i++) {
    a->vertex[i] = contact_vertex(a->w, &cs.c[i]);
    if (a->vertex[i] < 0) goto cleanup;
    seen |= 1 << a->vertex[i];
  }
  if (seen != 63) goto cleanup;
  if (f->type->assemble(f, a->w, &cs, h, &a->p)) goto cleanup;
  a->nd = a->w->ndof;
  a->nc = cs.n;
  a->kf = friction_dirs;
  a->hmg = h * a->w->bodies[1].mass * -a->w->gravity[2];
  if (a->p->n != a->nd + a->nc * (a->kf + 2)) goto cleanup;
  *out = a;
  a = NULL;
  rc = 0;
cleanup:
  contact_set_free(&cs);
  formulation_destroy(&f);
  ah_pyramid_destroy(&a);
  return rc;
}

void ah_pyramid_destroy(struct ah_pyramid **a)
{
  if (!a || !*a) return;
  cp_destroy(&(*a)->p);
  world_destroy(&(*a)->w);
  free(*a);
  *a = NULL;
}

void ah_pyramid_point(const struct ah_pyramid *a, const double load[6], const double lam[6], double *z)
{
  for (int k = 0; k < a->p->n; k++)
    z[k] = 0.0;
  for (int i = 0; i < a->nc; i++) {
    z[idx_cn(a, i)] = load[a->vertex[i]];
    z[idx_lambda(a, i)] = lam[a->vertex[i]];
  }
}

void ah_pyramid_paper_solution(const struct ah_pyramid *a, int s, double *z)
{
  double load[6], lam[6];
  for (int j = 0; j < 6; j++) {
    /* paper vertex j + 1 is odd iff j is even */
    int loaded = (s == 1) == (j % 2 == 0);
    load[j] = loaded ? a->hmg / 3.0 : 0.0;
    lam[j] = loaded ? 0.0 : 1.0;
  }
  ah_pyramid_point(a, load, lam, z);
}

void ah_pyramid_loads(const struct ah_pyramid *a, const double *z, double load[6], double lam[6],
                      double beta_sum[6])
{
  for (int i = 0; i < a->nc; i++) {
    int j = a->vertex[i];
    load[j] = z[idx_cn(a, i)];
    lam[j] = z[idx_lambda(a, i)];
    beta_sum[j] = 0.0;
    for (int l = 0; l < a->kf; l++)
      beta_sum[j] += z[idx_beta(a, i, l)];
  }
}

/* Kept unknowns of the reduced problem, in order: v, c_n, lambda. */
static int reduced_index(const struct ah_pyramid *a, int r)
{
  if (r < a->nd) return r;
  if (r < a->nd + a->nc) return idx_cn(a, r - a->nd);
  return idx_lambda(a, r - a->nd - a->nc);
}

struct cp_problem *ah_pyramid_reduced(const struct ah_pyramid *a)
{
  int n = a->nd + 2 * a->nc, n_full = a->p->n;
  struct cp_problem *r = cp_mlcp_create(a->nd, 2 * a->nc);
  if (!r) return NULL;
  for (int i = 0; i < n; i++) {
    int fi = reduced_index(a, i);
    for (int j = 0; j < n; j++)
      r->M[(size_t)i * n + j] = a->p->M[(size_t)fi * n_full + reduced_index(a, j)];
    r->q[i] = a->p->q[fi];
  }
  snprintf(r->name, sizeof r->name, "hexagonal pyramid, zero tangential impulse (v, c_n, lambda)");
  return r;
}

void ah_pyramid_lift(const struct ah_pyramid *a, const double *zr, double *z)
{
  for (int k = 0; k < a->p->n; k++)
    z[k] = 0.0;
  for (int i = 0; i < a->nd + 2 * a->nc; i++)
    z[reduced_index(a, i)] = zr[i];
}
